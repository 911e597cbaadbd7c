"""The balance report's map (agents/report_map.py): for a ruleset that draws one (the
fixture `mapped`), who held each place when each game ended, summed per place and seat
number, with how often the holder won; drawn on the first game's map in report.html;
the same numbers from two worker processes. A ruleset without a map has no map in its
report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from legacies.agents.map_svg import player_colour
from legacies.agents.report import build_report, report_html, report_json
from legacies.agents.simulate import Request, simulate

MAPPED = Path(__file__).parents[1] / "interpreter" / "fixtures" / "mapped"
REQUEST = Request("mapped", root=str(MAPPED), players=2, seats=("random", "greedy"), seed=4, games=12)


@pytest.fixture(scope="module")
def run():
    sim = simulate(REQUEST)
    return sim, build_report(sim)


def test_the_report_counts_who_held_each_place_at_the_end(run) -> None:
    sim, report = run
    drawn = report["map"]
    assert drawn["games"] == 12 and [row["name"] for row in drawn["places"]] == ["Ash & <Oak>", "Birch", "Cedar", "Dune"]
    for row in drawn["places"]:
        held = [r.holders[row["piece"]] for r in sim.records]
        assert row["held_by_seat"] == [held.count(0), held.count(1)]
        assert row["held"] == sum(h >= 0 for h in held)
        assert row["holder_won"] == sum(h >= 0 and h == r.winner for h, r in zip(held, sim.records))
    assert sum(row["held"] for row in drawn["places"]) > 12  # the first spot is held from the start
    held, won = (sum(row[k] for row in drawn["places"]) for k in ("held", "holder_won"))
    assert drawn["holder_win_rate"] == won / held
    # the first game's map as it ended, as the first player saw it
    first = sim.records[0]
    assert first.seed == 4 and drawn["first_game"] == first.board
    assert [p["player"] for p in first.board["places"]] == list(first.holders.values())
    assert all(r.board is None for r in sim.records[1:])
    assert json.loads(report_json(report))["map"] == drawn


def test_the_page_draws_the_map_in_the_seats_colours(run) -> None:
    _, report = run
    page = report_html(report, "Mapped")
    section = page.split("<h2>The map: where the games ended</h2>")[1].split("<h2>")[0]
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="map"' in section
    assert ">seat 1<" in section and ">seat 2<" in section and "Ash &amp; &lt;Oak&gt;" in section
    rows = report["map"]["places"]
    ash = rows[0]  # held all along: by the seat that holds it most often
    seat = max((0, 1), key=lambda p: (ash["held_by_seat"][p], -p))
    assert f'fill="{player_colour(seat)}"' in section
    assert f"won {100 * ash['holder_won'] / ash['held']:.0f}%" in section


def test_two_workers_give_the_same_map(run) -> None:
    _, report = run
    two = build_report(simulate(REQUEST, workers=2))
    assert two["map"] == report["map"]


def test_a_ruleset_without_a_map_reports_none() -> None:
    report = build_report(simulate(Request("legacy", players=2, seats=("random", "random"), games=2)))
    assert "map" not in report and "The map" not in report_html(report, "Legacy")
