"""What-if balance (issue 34 §3): `legacies simulate --set ID.FIELD=VALUE` plays the same
seeds with an item's number changed and reports each item's gap before and after, the
paired difference per seed and intervals on the change; `--compare` gets paired
intervals and the multiple-comparison note; an item with little data never leads the
surest gaps. Driven as a designer drives them: the command, its words and its files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.agents.report import build_report
from legacies.agents.report_changes import paired_change, rate_change
from legacies.agents.simulate import GameRecord, Request, Simulation
from legacies.cli.main import app

FIXTURES = Path(__file__).resolve().parents[1] / "pipeline" / "fixtures"
PLAZA, MARKET = FIXTURES / "plaza", FIXTURES / "market-day"
runner = CliRunner()


def test_a_number_changed_is_played_on_the_same_seeds_and_measured_in_pairs(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "-r", str(PLAZA), "-x", str(MARKET), "-n", "30", "-p", "2",
                                 "--set", "fruit_stall.wares=9", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    said = result.output.split("what if ")[1]
    assert said.startswith("Fruit Stall (fruit_stall) wares 1 -> 9: the same 30 seeds played again (the winner "
                           "changed in ")
    assert "  Fruit Stall (fruit_stall): gap " in said and "change +" in said and "95% paired by seed" in said
    assert "per seed, the share of its holders who won, after minus before:" in said
    assert "of 2 other items' changes, " in said and "would by chance alone" in said

    w = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["what_if"]
    assert w["changes"] == [{"item": "fruit_stall", "name": "Fruit Stall", "field": "wares", "before": 1, "after": 9}]
    assert w["games"] == 30 and w["winner_changed"] > 0
    fruit = w["items"][0]
    assert fruit["id"] == "fruit_stall" and fruit["changed"]
    # a stall worth 9 points instead of 1: its holders win more, surely, and in no seed less
    assert fruit["after"]["gap"] > fruit["before"]["gap"] and fruit["ci"][0] > 0
    assert fruit["change"] == pytest.approx(fruit["after"]["gap"] - fruit["before"]["gap"])
    seeds = w["per_seed"]["fruit_stall"]
    assert [s["seed"] for s in seeds["seeds"]] == list(range(30))  # the same seeds, each a pair
    assert seeds["up"] > 0 and seeds["down"] == 0 and seeds["mean"] > 0
    # the same choices were offered and taken: who had it is the same seed by seed
    assert all(s["before"][1] == s["after"][1] for s in seeds["seeds"])
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<h2>What if: Fruit Stall (fruit_stall) wares 1 -&gt; 9</h2>" in page and "fruit_stall seed by seed" in page


@pytest.mark.parametrize("change, message", [
    ("fruit_stall", "write ID.FIELD=NUMBER"),
    ("fruit_stall.wares=many", "`many` is not a number"),
    ("nothing.wares=3", "no item `nothing` in this ruleset"),
    ("fruit_stall.colour=3", "item `fruit_stall` has no field `colour`; its numbers: wares"),
])
def test_a_change_that_cannot_be_made_is_refused_before_any_game(tmp_path: Path, change: str, message: str) -> None:
    result = runner.invoke(app, ["simulate", "-r", str(PLAZA), "-x", str(MARKET), "-n", "2", "-p", "2",
                                 "--set", change, "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert message in result.output and not (tmp_path / "out").exists()


def test_a_change_the_ruleset_refuses_is_said_in_the_checkers_words(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "-n", "2", "--set", "C1005.century=9", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "the ruleset does not build with it" in result.output and "C004" in result.output
    assert "outside its declared range" in result.output


def test_the_paired_interval_cancels_what_the_seeds_share() -> None:
    every = {s: (1, 4) for s in range(40)}
    same = {s: (s % 2, 1) for s in range(40)}  # half the holders won, in both runs
    found = paired_change(same, same, every, every)
    assert found is not None and found["change"] == 0 and found["ci"] == [0, 0]
    # one seed more won after: the change is that seed's, inside its interval
    moved = paired_change(same, {**same, 0: (1, 1)}, every, every)
    assert moved is not None and moved["change"] > 0 and moved["ci"][0] < moved["change"] < moved["ci"][1]
    seat = rate_change({s: (s % 2, 1) for s in range(40)}, {s: (s % 2, 1) for s in range(40)})
    assert seat is not None and seat["change"] == 0 and seat["ci"] == [0, 0]


def _record(seed: int, chosen: list[list[str]], winner: int) -> GameRecord:
    return GameRecord(seed=seed, seats=["random"] * 4, scores=[0, 0, 0, 0], winner=winner, decisions=1, turns=1,
                      finished=True, starting=[{}] * 4, chosen=chosen, drawn=[[] for _ in range(4)])


def test_an_item_with_little_data_never_leads_the_surest_gaps() -> None:
    """Two games of a rare card, both won by its holder: a wide gap on little data; a common
    card, a smaller gap on much more, leads."""
    records = [_record(0, [["rare"], [], [], []], 0), _record(1, [["rare"], [], [], []], 0)]
    for seed in range(2, 62):  # `common` in seat 0 and 1; seat 0 wins 2 games in 3
        records.append(_record(seed, [["common"], ["common"], [], []], 0 if seed % 3 else 2))
    sim = Simulation(Request("x", seats=("random",) * 4, games=len(records)), records=records,
                     items=[{"id": "rare", "name": "Rare", "kind": "card"}, {"id": "common", "name": "Common",
                                                                            "kind": "card"}])
    items = build_report(sim)["items"]
    assert [row["id"] for row in items] == ["common", "rare"]
    assert items[1]["little_data"] and not items[0]["little_data"]
    assert items[1]["gap"] > items[0]["gap"]  # the larger gap, on two games, comes second


def test_compare_gives_each_change_a_paired_interval_and_the_note(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "-r", str(PLAZA), "-x", str(MARKET), "-n", "8", "-p", "2", "--compare",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    said = result.output.split("alone -> with the expansions):\n")[1]
    assert "  random wins " in said and "; change +0.0 points (95% paired +0.0 to +0.0)" in said
    assert "intervals exclude 0 (about " in said and "would by chance alone" in said
    compared = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["without_expansions"]
    assert compared["multiple_comparisons"]["intervals"] >= 1
    assert all("ci" in row for row in compared["win_rate_by_seat"])
    assert "change, 95% paired" in (tmp_path / "report.html").read_text(encoding="utf-8")
    refused = runner.invoke(app, ["simulate", "-r", str(PLAZA), "-x", str(MARKET), "-n", "2", "--compare",
                                  "--set", "fruit_stall.wares=2", "--out", str(tmp_path / "x")])
    assert refused.exit_code == 2 and "give one of them" in refused.output


def test_the_branches_an_item_never_ran_stand_under_its_own_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "-x", "fame-and-fortune", "-n", "3", "-p", "3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    lines = result.output.split("your items:\n")[1].split("\nbranch coverage:")[0].split("\n")
    under: dict[str, list[str]] = {}
    item = None
    for line in lines:
        if line.startswith("    never ran: "):
            assert item is not None, line
            under[item].append(line.removeprefix("    never ran: "))
        else:
            found = re.match(r"^  .*? \(([^()]+)\)(:|  )", line)
            assert found is not None, line
            item = found.group(1)
            under[item] = []
    assert len(under) > 3 and any(under.values())
    for item, said in under.items():
        wanted = [f"{b['branch']} ({b['file']}:{b['line']}:{b['column']})" for b in report["coverage"]["never_ran"]
                  if b["in"].split("`")[1:2] == [item] and not b["in"].startswith(("procedure ", "trigger "))]
        assert said == wanted, item
