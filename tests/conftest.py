"""Every test run (its processes, and every `legacies` subprocess a test starts) keeps its
parse cache in a fresh temporary folder, never in the user's ~/.cache: tests see cold and
warm caches of their own and leave nothing behind, in the home folder or the temporary one.

An internal error (a bug in legacies met while loading, checking or setting up a
ruleset: pipeline/internal_errors.py) fails the test during which it was made, even
when the test only looked at other diagnostics; a test about one says so with
`@pytest.mark.internal_error`."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# tests/tables.py, the ruleset test folders' shared Table, imported by name (the tests are no package)
sys.path.insert(0, str(Path(__file__).parent))

if "LEGACIES_CACHE_DIR" not in os.environ:
    _folder = tempfile.mkdtemp(prefix="legacies-test-cache-")
    os.environ["LEGACIES_CACHE_DIR"] = _folder
    # removed when the process that made it ends: with pytest-xdist that is the controller, once
    # its workers (which share the folder through the environment, and run no fixture of it) are
    # done; a session fixture never ran there, and left a folder behind at every run
    atexit.register(shutil.rmtree, _folder, ignore_errors=True)


@pytest.hookimpl(wrapper=True, optionalhook=True)  # optional: a run with `-p no:xdist` knows no such hook
def pytest_xdist_auto_num_workers(config: pytest.Config) -> Iterator[None]:
    """`-m slow -n auto`: twice xdist's own count (a worker a core). The slow step's games at
    a table (the terminal's pilot, the browser's) wait on their event loop between key
    presses, about half their time, and a core with one worker stands idle meanwhile; the
    rest of the suite is busy all the time and keeps xdist's count (docs/speed.md, "The
    test command": 17 min 46 s to 11 min 54 s for the slow step on 2 cores, 4 min 34 s to
    4 min 56 s for the rest). A count set in PYTEST_XDIST_AUTO_NUM_WORKERS stands as set."""
    count = yield
    markexpr = config.getoption("markexpr", "") or ""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or "slow" not in markexpr.replace("not slow", ""):
        return count
    return 2 * count


# A test that changes the engine in its process (a stand-in function, a smaller bound) must
# see the check run, never a result `legacies validate` kept before (pipeline/check_cache.py):
# off here; on in its own tests and in the `legacies` processes tests start.
from legacies.pipeline import check_cache  # noqa: E402

check_cache.USED = False


# --------------------------------------------------------------------------- unlucky disks
# A full disk and a read-only file system, as the system calls of pipeline/writes.py meet
# them (ENOSPC, EROFS): for tests of every command that writes a file a user keeps.
@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> object:
    """`full_disk(after=N)`: from now on os.write fails with ENOSPC once N bytes went to
    the disk (in pipeline/writes.py)."""
    import errno

    from legacies.pipeline import writes

    def fill(after: int = 100) -> None:
        left = [after]
        real = os.write

        def write(fd: int, data: object) -> int:
            if left[0] <= 0:
                raise OSError(errno.ENOSPC, "No space left on device")
            n = real(fd, bytes(data[:left[0]]))  # type: ignore[index]
            left[0] -= n
            return n
        monkeypatch.setattr(writes.os, "write", write)
    return fill


@pytest.fixture
def read_only(monkeypatch: pytest.MonkeyPatch) -> object:
    """`read_only()`: from now on making a file fails with EROFS (as on a read-only
    mount, even for root), in pipeline/writes.py."""
    import errno

    from legacies.pipeline import writes

    def mount() -> None:
        real = os.open

        def open_(path: object, flags: int, *args: object) -> int:
            if flags & os.O_CREAT:
                raise OSError(errno.EROFS, "Read-only file system")
            return real(path, flags, *args)  # type: ignore[arg-type]
        monkeypatch.setattr(writes.os, "open", open_)
    return mount


@pytest.fixture(autouse=True)
def _no_internal_error(request: pytest.FixtureRequest) -> object:
    from legacies.pipeline import internal_errors

    before = len(internal_errors.REPORTED)
    yield
    made = internal_errors.REPORTED[before:]
    if made and request.node.get_closest_marker("internal_error") is None:
        pytest.fail(f"{len(made)} internal error(s) (a bug in legacies) during this test; the first:\n{made[0]}",
                    pytrace=False)


# --------------------------------------------------------------------------- a browser
# Pictures and pages as a person sees them (the balance report, a drawn map): headless
# Chromium from the distribution's packages (`.ci/run` installs `chromium`). Where it is
# missing a test that asks for it is skipped, unless LEGACIES_REQUIRE_BROWSER is set (CI
# sets it), where a missing browser fails the run instead of hiding the check.
class Browser:
    """Headless Chromium: a page's screenshot (decoded) and its DOM as the browser built it."""

    def __init__(self, program: str, folder: object):
        from pathlib import Path

        self.program = program
        self.folder = Path(str(folder))

    def _run(self, page: object, *flags: str) -> bytes:
        import subprocess
        from pathlib import Path

        done = subprocess.run([self.program, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                               "--no-first-run", "--disable-background-networking", "--disable-component-update",
                               "--disable-sync", "--hide-scrollbars", f"--user-data-dir={self.folder / 'profile'}",
                               *flags, Path(str(page)).as_uri()], check=True, capture_output=True, timeout=120)
        return done.stdout

    def screenshot(self, page: object, width: int, height: int) -> tuple[int, int, list[bytes]]:
        """(width, height, rows of RGB bytes) of the page drawn in a window this size."""
        shot = self.folder / "screenshot.png"
        self._run(page, f"--window-size={width},{height}", f"--screenshot={shot}")
        return read_png(shot.read_bytes())

    def dom(self, page: object) -> str:
        """The page's document as the browser parsed it (`--dump-dom`)."""
        return self._run(page, "--dump-dom").decode("utf-8")

    @staticmethod
    def pixels_near(rows: list[bytes], colour: str, tolerance: int = 12) -> list[tuple[int, int]]:
        return pixels_near(rows, colour, tolerance)


def browser_program() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture
def browser(tmp_path: object) -> Browser:
    program = browser_program()
    if program is None:
        if os.environ.get("LEGACIES_REQUIRE_BROWSER"):
            pytest.fail("no Chromium: install the distribution's `chromium` package (.ci/run does)")
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    return Browser(program, tmp_path)


def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB bytes) of an 8-bit RGB or RGBA PNG, not interlaced."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        previous = line
        rows.append(bytes(line[c] for x in range(width) for c in range(x * channels, x * channels + 3)))
    return width, height, rows


def pixels_near(rows: list[bytes], colour: str, tolerance: int = 12) -> list[tuple[int, int]]:
    """Where (every other column) a screenshot's pixels are within `tolerance` of `colour`."""
    target = bytes.fromhex(colour.lstrip("#"))
    out = []
    for y, row in enumerate(rows):
        for x in range(0, len(row) // 3, 2):
            px = row[3 * x:3 * x + 3]
            if all(abs(px[i] - target[i]) <= tolerance for i in range(3)):
                out.append((x, y))
    return out
