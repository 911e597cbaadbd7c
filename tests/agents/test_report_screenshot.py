"""The balance report as a person sees it (issue 9): report.html opened in headless
Chromium, a screenshot taken, and the charts found in its pixels: the bars' blue and
the fair-share line's red, in the places the page draws them.

Chromium comes from the distribution's packages (`.ci/run` installs `chromium`). Where
it is missing the test is skipped, unless LEGACIES_REQUIRE_BROWSER is set (CI sets it),
where a missing browser fails the run instead of hiding the check."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from legacies.agents.report import BAR, FAIR, build_report, report_html
from legacies.agents.simulate import Request, simulate

WIDTH, HEIGHT = 1100, 1600


def browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB bytes) of an 8-bit RGB or RGBA PNG, not interlaced."""
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


def rgb(colour: str) -> bytes:
    return bytes.fromhex(colour.lstrip("#"))


def pixels_near(rows: list[bytes], colour: str, tolerance: int = 12) -> list[tuple[int, int]]:
    target = rgb(colour)
    out = []
    for y, row in enumerate(rows):
        for x in range(0, len(row) // 3, 2):  # every other column: enough to find the charts
            px = row[3 * x:3 * x + 3]
            if all(abs(px[i] - target[i]) <= tolerance for i in range(3)):
                out.append((x, y))
    return out


def test_the_report_renders_its_charts_in_a_browser(tmp_path: Path) -> None:
    chromium = browser()
    if chromium is None:
        if os.environ.get("LEGACIES_REQUIRE_BROWSER"):
            pytest.fail("no Chromium: install the distribution's `chromium` package (.ci/run does)")
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    sim = simulate(Request("legacy", players=2, seats=("random", "random"), games=10))
    page = tmp_path / "report.html"
    page.write_text(report_html(build_report(sim), "Legacy"), encoding="utf-8")
    shot = tmp_path / "report.png"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}",
                    f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={shot}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)
    width, height, rows = read_png(shot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    bars = pixels_near(rows, BAR)
    fair = pixels_near(rows, FAIR, tolerance=30)
    assert len(bars) > 3000, "the bars and histograms did not render"
    assert len(fair) > 40, "the fair-share lines did not render"
    # the charts stand inside the page's centred column, over most of the screen
    xs, ys = [x for x, _ in bars], [y for _, y in bars]
    assert min(xs) > 60 and max(xs) < WIDTH - 60
    assert max(ys) - min(ys) > HEIGHT // 2
