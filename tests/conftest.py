"""Every test process (and every `legacies` subprocess a test starts) keeps its parse
cache in a fresh temporary folder, never in the user's ~/.cache: tests see cold and
warm caches of their own and leave nothing behind in the home folder.

An internal error (a bug in legacies met while loading, checking or setting up a
ruleset: pipeline/internal_errors.py) fails the test during which it was made, even
when the test only looked at other diagnostics; a test about one says so with
`@pytest.mark.internal_error`."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

if "LEGACIES_CACHE_DIR" not in os.environ:
    _folder = tempfile.mkdtemp(prefix="legacies-test-cache-")
    os.environ["LEGACIES_CACHE_DIR"] = _folder

    @pytest.fixture(scope="session", autouse=True)
    def _remove_cache_folder() -> object:
        yield
        shutil.rmtree(_folder, ignore_errors=True)


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
