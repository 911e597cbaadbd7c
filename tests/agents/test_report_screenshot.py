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


def test_the_reports_map_renders_in_a_browser(browser, tmp_path: Path) -> None:
    """A ruleset that draws a map (the fixture `mapped`): its places show in the seats'
    colours on the page, inside the page's column."""
    from legacies.agents.map_svg import player_colour

    mapped = Path(__file__).parents[1] / "interpreter" / "fixtures" / "mapped"
    report = build_report(simulate(Request("mapped", root=str(mapped), players=2, seats=("random", "greedy"),
                                           seed=4, games=12)))
    page = tmp_path / "report.html"
    page.write_text(report_html(report, "Mapped"), encoding="utf-8")
    shown = page.read_text(encoding="utf-8").split("The map: where the games ended")[1]
    seats = [p for p in (0, 1) if f'fill="{player_colour(p)}" stroke' in shown.split('class="legend"')[0]]
    assert seats, "no place is in a seat's colour"
    width, height, rows = browser.screenshot(page, WIDTH, 3000)
    for seat in seats:
        dots = browser.pixels_near(rows, player_colour(seat))
        assert len(dots) > 40, f"seat {seat + 1}'s places do not show"
        assert min(x for x, _ in dots) > 30 and max(x for x, _ in dots) < WIDTH - 30
