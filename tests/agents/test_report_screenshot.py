"""The balance report as a person sees it (issue 9): report.html opened in headless
Chromium, a screenshot taken, and the charts found in its pixels: the bars' blue and
the fair-share line's red, in the places the page draws them.

The browser is the `browser` fixture (tests/conftest.py): Chromium from the
distribution's packages, the test skipped where it is missing unless
LEGACIES_REQUIRE_BROWSER is set (CI sets it)."""

from __future__ import annotations

from pathlib import Path

from legacies.agents.report import BAR, FAIR, build_report, report_html
from legacies.agents.simulate import Request, simulate

WIDTH, HEIGHT = 1100, 1600


def test_the_report_renders_its_charts_in_a_browser(browser, tmp_path: Path) -> None:
    sim = simulate(Request("legacy", players=2, seats=("random", "random"), games=10))
    page = tmp_path / "report.html"
    page.write_text(report_html(build_report(sim), "Legacy"), encoding="utf-8")
    width, height, rows = browser.screenshot(page, WIDTH, HEIGHT)
    assert (width, height) == (WIDTH, HEIGHT)
    bars = browser.pixels_near(rows, BAR)
    fair = browser.pixels_near(rows, FAIR, tolerance=30)
    assert len(bars) > 3000, "the bars and histograms did not render"
    assert len(fair) > 40, "the fair-share lines did not render"
    # the charts stand inside the page's centred column, over most of the screen
    xs, ys = [x for x, _ in bars], [y for _, y in bars]
    assert min(xs) > 60 and max(xs) < WIDTH - 60
    assert max(ys) - min(ys) > HEIGHT // 2

