"""`legacies simulate` (issue 9): seeded bot games summed into a balance report, the
same numbers in this process, in 2 worker processes and on a Dask LocalCluster; the
statistics against published values; branch coverage counted by the compiled game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from legacies.agents.report import build_report, report_html, supported_gap
from legacies.agents.simulate import Request, SimulationError, simulate
from legacies.agents.stats import difference, histogram, summary, wilson
from legacies.cli.main import app
from legacies.interpreter import sandbox
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "minilegacies"
LEGACIES = Request("legacies", players=3, seats=("random", "random", "random"), seed=7, games=12)


def numbers(report: dict[str, Any]) -> dict[str, Any]:
    """A report without how it was run (where, workers, seconds)."""
    return {k: v for k, v in report.items() if k != "run"}


# --------------------------------------------------------------------------- statistics
def test_intervals_match_published_values() -> None:
    """Newcombe (1998): Wilson 81/263 is 0.2553-0.3662; the hybrid score interval of
    56/70 - 48/80 is 0.0524-0.3339 and of 9/10 - 3/10 is 0.1705-0.8090."""
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0
    assert difference(56, 70, 48, 80) == pytest.approx((0.2, 0.0524, 0.3339), abs=1e-4)
    assert difference(9, 10, 3, 10) == pytest.approx((0.6, 0.1705, 0.8090), abs=1e-4)
    assert difference(1, 0, 3, 10) is None


def test_summaries_and_histograms() -> None:
    s = summary([1, 2, 3, 4, 100])
    assert (s["count"], s["min"], s["median"], s["max"], s["mean"]) == (5, 1, 3, 100, 22)
    h = histogram([1, 1, 2, 5])  # whole numbers over a short range: one bin per number
    assert h["counts"] == [2, 1, 0, 0, 1] and h["edges"][0] == 0.5
    wide = histogram([float(x) for x in range(1000)], bins=10)
    assert wide["counts"] == [100.0] * 10


def test_a_gap_counts_as_far_as_its_interval_supports() -> None:
    assert supported_gap({"gap_ci": [0.05, 0.3]}) == 0.05
    assert supported_gap({"gap_ci": [-0.4, -0.1]}) == 0.1
    assert supported_gap({"gap_ci": [-0.2, 0.7]}) == 0.0
    assert supported_gap({"gap_ci": None}) == 0.0


def test_seat_kinds_rotate_over_the_games() -> None:
    request = Request("legacy", players=3, seats=("search", "random", "greedy"), games=3)
    assert [request.seats_of(i) for i in range(4)] == [
        ["search", "random", "greedy"], ["random", "greedy", "search"], ["greedy", "search", "random"],
        ["search", "random", "greedy"]]


# --------------------------------------------------------------------------- coverage
def test_coverage_counts_the_branch_that_ran() -> None:
    spec = load_ruleset("minilegacies", root=FIXTURE).spec
    state = Game(spec, 3, coverage=True).new_state(0)
    coverage = state.game.coverage
    before = len(coverage.probes)
    sandbox.run(state, "if my gold > 1000:\n    gain 1 fame\nelse:\n    gain 2 fame\n"
                       "if my gold >= 0:\n    gain 1 fame")
    mine = list(zip(coverage.probes[before:], coverage.hits[before:]))
    assert [(p.branch, hits) for p, hits in mine] == [
        ("if my gold > 1000", 0), ("else", 1), ("if my gold >= 0", 1), ("the case where every condition is false", 0)]
    assert mine[0][0].where.line == 1 and mine[2][0].where.line == 5


def test_a_game_without_coverage_has_no_probes() -> None:
    spec = load_ruleset("minilegacies", root=FIXTURE).spec
    assert Game(spec, 3).coverage is None


# --------------------------------------------------------------------------- the run
@pytest.fixture(scope="module")
def one_process() -> dict[str, Any]:
    return build_report(simulate(LEGACIES))


def test_the_report_holds_every_section(one_process: dict[str, Any]) -> None:
    r = one_process
    assert r["games"] == 12 and r["unfinished"] == 0
    assert [(row["seat"], row["games"], row["wins"]) for row in r["win_rate_by_seat"]] == [("random", 36, 12)]
    assert [row["position"] for row in r["win_rate_by_position"]] == [1, 2, 3]
    assert set(r["win_rate_by_starting_choice"]) == {"character", "side"}
    sides = {row["value"] for row in r["win_rate_by_starting_choice"]["side"]}
    assert sides <= {"aboveboard", "underhanded"} and sides
    assert sum(row["games"] for row in r["win_rate_by_starting_choice"]["character"]) == 36
    assert r["scores"]["all"]["count"] == 36 and r["length"]["decisions"]["min"] > 50
    assert len(r["items"]) == 480  # every content item, chosen or not
    chosen = [row for row in r["items"] if row["games_played"]]
    assert chosen and all(0 < row["play_rate"] <= 1 for row in chosen)
    first = r["items"][0]
    assert first["gap"] is not None and first["gap_ci"][0] <= first["gap"] <= first["gap_ci"][1]
    cov = r["coverage"]
    assert cov["branches"] == len(cov["all"]) > 100 and 0 < cov["ran"] < cov["branches"]
    assert all(row["runs"] == 0 and row["file"] and row["line"] for row in cov["never_ran"])


def test_two_workers_give_the_same_numbers(one_process: dict[str, Any]) -> None:
    two = build_report(simulate(LEGACIES, workers=2))
    assert two["run"]["workers"] == 2
    assert numbers(two) == numbers(one_process)


def test_a_dask_cluster_gives_the_same_numbers(one_process: dict[str, Any]) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        sim = simulate(LEGACIES, cluster=cluster.scheduler_address)
    report = build_report(sim)
    assert "Dask cluster" in report["run"]["where"] and report["run"]["workers"] == 2
    assert numbers(report) == numbers(one_process)


def test_an_unreachable_cluster_is_a_clear_error() -> None:
    with pytest.raises(SimulationError, match="cannot reach the Dask scheduler"):
        simulate(Request("legacies", players=3, seats=("random",) * 3, games=1), cluster="tcp://127.0.0.1:9")


def test_a_seat_that_is_not_a_bot_is_refused() -> None:
    with pytest.raises(SimulationError, match="unknown seat kind `human`"):
        simulate(Request("legacies", players=3, seats=("human", "random", "random"), games=1))


def test_the_page_is_self_contained(one_process: dict[str, Any]) -> None:
    page = report_html(one_process, "Legacies")
    assert page.count("<svg") >= 6 and "<script" not in page and "http://" not in page.replace(
        "http://www.w3.org/2000/svg", "")
    assert "Win rate by character" in page and "Branch coverage" in page


# --------------------------------------------------------------------------- the command
def test_the_command_writes_both_files(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["simulate", "--ruleset", "legacy", "--games", "8", "--players", "2",
                                      "--seat", "random", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert report["format"] == "legacies-simulation-report/1" and report["games"] == 8
    assert report["seats"] == ["random", "random"]  # the missing seat is a random bot
    assert (tmp_path / "run" / "report.html").read_text().startswith("<!doctype html>")
    assert "8 games of" in result.output and "branch coverage:" in result.output


@pytest.mark.parametrize("args, message", [
    (["--seat", "human"], "unknown seat kind `human`"),
    (["--players", "9"], "not 9"),
    (["--ruleset", "nope"], "unknown ruleset `nope`"),
])
def test_the_command_refuses_a_run_that_cannot_start(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["simulate", "--games", "2", "--out", str(tmp_path / "x"), *args])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "x").exists()


# --------------------------------------------------------------------------- non-player characters
# random, not greedy, in the player's seat: the seat kinds are what is counted, and a greedy
# seat made this test three minutes of the suite (12 greedy games of Legacies)
SOLO = Request("legacies", players=3, seats=("random", "nemesis", "rising_star"), seed=3, games=4,
               options=(("difficulty", 6), ("nemesis", 1), ("rising_star", True)))


def test_the_seats_the_rules_run_stay_last_while_the_bots_rotate() -> None:
    request = Request("legacies", players=4, seats=("greedy", "random", "nemesis", "nemesis"), games=2,
                      options=(("nemesis", 2),))
    assert [request.seats_of(i) for i in range(3)] == [
        ["greedy", "random", "nemesis", "nemesis"], ["random", "greedy", "nemesis", "nemesis"],
        ["greedy", "random", "nemesis", "nemesis"]]


def test_a_run_with_a_nemesis_counts_each_seat_kind_apart_and_workers_and_clusters_agree() -> None:
    """A Nemesis and a Rising Star are two seat kinds of the ruleset: never pooled in one bar."""
    one = build_report(simulate(SOLO))
    assert one["options"] == {"difficulty": 6, "nemesis": 1, "rising_star": True}
    assert one["fair_share"] == pytest.approx(1 / 3) and one["unfinished"] == 0
    rows = {row["seat"]: (row["games"], row["wins"]) for row in one["win_rate_by_seat"]}
    assert set(rows) == {"random", "nemesis", "rising_star"} and all(games == 4 for games, _ in rows.values())
    assert sum(wins for _, wins in rows.values()) == 4  # one winner a game, the rules' seats included
    assert one["scores"]["all"]["count"] == 12
    assert numbers(build_report(simulate(SOLO, workers=2))) == numbers(one)
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        assert numbers(build_report(simulate(SOLO, cluster=cluster.scheduler_address))) == numbers(one)


def test_seats_the_options_do_not_seat_are_refused() -> None:
    with pytest.raises(SimulationError, match="the option `nemesis` seats 1 Nemesis seat"):
        simulate(Request("legacies", players=3, seats=("greedy", "nemesis", "nemesis"), games=1,
                         options=(("nemesis", 1),)))
    with pytest.raises(SimulationError, match="the seats the rules run come last"):
        simulate(Request("legacies", players=3, seats=("nemesis", "greedy", "greedy"), games=1,
                         options=(("nemesis", 1),)))
    with pytest.raises(SimulationError, match="unknown seat kind `npc`"):
        simulate(Request("legacies", players=3, seats=("greedy", "greedy", "npc"), games=1))


def test_the_command_seats_the_rules_seats_after_the_bots(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["simulate", "--games", "2", "--seat", "nemesis", "--option",
                                      "difficulty=novice", "--seat", "random", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert report["seats"] == ["random", "nemesis", "rising_star"] and report["players"] == 3  # a Rising Star joins
    assert report["options"] == {"difficulty": 1, "nemesis": 1, "rising_star": True}
    assert "nemesis " in result.output and "nemesis=1; rising_star=yes" in result.output


@pytest.mark.parametrize("args, message", [
    (["--ruleset", "legacy", "--seat", "nemesis"], "--seat nemesis: choose from human, random"),
    (["--seat", "nemesis", "--option", "difficulty=impossible"], "option difficulty: 'impossible' is none of"),
    (["--option", "nope=1"], "unknown option `nope`"),
    (["--option", "nemesis"], "--option takes NAME=VALUE"),
    (["--seat", "nemesis", "--players", "0"], "Legacies is for 3-6 players, not 0"),
])
def test_the_command_refuses_seats_and_options_that_do_not_fit(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["simulate", "--games", "2", "--out", str(tmp_path / "x"), *args])
    assert result.exit_code == 2 and message in result.output, result.output
    assert not (tmp_path / "x").exists()


def test_the_report_counts_the_games_the_rules_ended() -> None:
    """`end the game with P as the winner because "TEXT"` (the gadgets fixture's setup
    with `instant`): the named winner is the winner and the reason is counted."""
    gadgets = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "gadgets"
    request = Request("gadgets", root=str(gadgets), players=3, seats=("random", "greedy", "random"), games=6,
                      options=(("instant", True),))
    report = build_report(simulate(request))
    assert report["ended_by_rules"] == [{"reason": "a quick game", "games": 6}]
    assert [row["wins"] for row in report["win_rate_by_position"]] == [0, 6, 0]
    assert "Games the rules ended: a quick game (6)." in report_html(report, "Gadgets")
    plain = build_report(simulate(Request("minilegacies", root=str(FIXTURE), players=3,
                                          seats=("random",) * 3, games=1)))
    assert plain["ended_by_rules"] == []


# --------------------------------------------------------------------------- issue 17: the whole truth
def test_holm_and_benjamini_hochberg_against_known_values() -> None:
    """R's p.adjust; Benjamini & Hochberg (1995)'s fifteen p-values: BH keeps four at 5%,
    Holm three. The pooled two-proportion test: R's prop.test(c(56, 48), c(70, 80),
    correct = FALSE) gives p = 0.008045."""
    from legacies.agents.stats import benjamini_hochberg, holm, two_proportion_p

    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert benjamini_hochberg([0.01, 0.02, 0.03, 0.04, 0.05]) == pytest.approx([0.05] * 5)
    bh95 = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719,
            0.6528, 0.7590, 1.000]
    assert sum(q < 0.05 for q in benjamini_hochberg(bh95)) == 4
    assert sum(h < 0.05 for h in holm(bh95)) == 3
    assert two_proportion_p(56, 70, 48, 80) == pytest.approx(0.008045, abs=2e-6)
    assert two_proportion_p(5, 5, 3, 3) == 1.0 and two_proportion_p(1, 0, 1, 2) is None


def test_positions_are_turn_order_and_seats_are_told_apart(one_process: dict[str, Any]) -> None:
    """Legacies sorts turn order by Foundation: `win rate by turn position` was the seat
    number. Now it is the place in turn order when the first turn began, the seat number
    apart."""
    r = one_process
    assert r["games_resorted"] > 0
    assert sum(row["games"] for row in r["win_rate_by_position"]) == 36
    assert [row["seat_number"] for row in r["win_rate_by_seat_number"]] == [1, 2, 3]
    page = report_html(r, "Legacies")
    assert "Win rate by seat number" in page and "when the first turn began" in page


def test_two_nemeses_are_one_seat_kind_and_the_rising_star_another() -> None:
    request = Request("legacies", players=4, seats=("random", "nemesis", "nemesis", "rising_star"), seed=3, games=2,
                      options=(("nemesis", 2), ("rising_star", True)))
    rows = {row["seat"]: row["games"] for row in build_report(simulate(request))["win_rate_by_seat"]}
    assert rows == {"random": 2, "nemesis": 4, "rising_star": 2}


def test_events_are_measured_where_they_were_drawn(one_process: dict[str, Any]) -> None:
    """An event no player chooses printed "no gap to measure", "0.0% chosen"."""
    events = [row for row in one_process["items"] if row["kind"] == "event"]
    drawn = [row for row in events if row["basis"] == "drawn"]
    assert drawn and all(row["games_drawn"] > 0 and 0 < row["drawn_rate"] <= 1 for row in drawn)
    assert any(row["gap"] is not None for row in drawn)


def test_many_intervals_are_corrected_for(one_process: dict[str, Any]) -> None:
    many = one_process["multiple_comparisons"]
    measured = [row for row in one_process["items"] if row.get("p") is not None]
    assert many["items_with_a_gap"] == len(measured) > 100
    assert many["expected_by_chance"] == pytest.approx(0.05 * len(measured))
    assert all(row["survives"] == (row["p_bh"] < 0.05) for row in measured)
    assert all(row["p_holm"] >= row["p_bh"] - 1e-12 for row in measured)  # Holm is the stricter
    assert "would exclude about" in report_html(one_process, "Legacies") or "chance alone" in \
        report_html(one_process, "Legacies")


def test_branches_the_options_rule_out_are_apart_from_those_that_never_ran(one_process: dict[str, Any]) -> None:
    """Without a Nemesis, `if nemesis > 0:` in the setup cannot run: it was listed among
    the branches no game ran."""
    cov = one_process["coverage"]
    ruled = {(row["file"], row["branch"]) for row in cov["cannot_run"]}
    assert ("rules/legacies/flow.yaml", "if nemesis > 0") in ruled
    assert not any(row["branch"] == "if nemesis > 0" for row in cov["never_ran"])
    assert cov["ran"] + len(cov["never_ran"]) + len(cov["cannot_run"]) == cov["branches"]


# --------------------------------------------------------------------------- issue 21: the actions each seat kind chooses
MENUS = Path(__file__).resolve().parent / "fixtures" / "menus"


def test_the_report_counts_each_action_each_seat_kind_chose(tmp_path: Path) -> None:
    """The fixture's turn: `work` (the only action of the menu `move` the rules offer;
    `never` is never offered), then `spend` or `keep` (the menu `use`), then `wave` (no
    menu): two turns a player. Greedy spends every coin (a point now), random bots keep
    some: each kind's counts per player per game, every menu's actions listed, `never`
    at 0, in report.json, the page and the command's summary."""
    request = Request("menus", root=str(MENUS), players=3, seats=("greedy", "random", "random"), games=6)
    sim = simulate(request)
    assert all(r.actions[p]["work"] == 2 and r.actions[p]["wave"] == 2 for r in sim.records for p in range(3))
    report = build_report(sim)
    acts = report["actions"]
    assert acts["groups"] == [{"menu": "move", "actions": ["work", "never"]},
                              {"menu": "use", "actions": ["spend", "keep"]},
                              {"menu": "lend", "actions": ["take_chip"]},  # (never offered without with_chips)
                              {"menu": None, "actions": ["wave"]}]
    rows = {row["seat"]: row for row in acts["by_seat"]}
    assert (rows["greedy"]["players"], rows["random"]["players"]) == (6, 12)
    assert rows["greedy"]["per_game"] == {"work": 2.0, "never": 0.0, "spend": 2.0, "keep": 0.0, "take_chip": 0.0,
                                          "wave": 2.0}
    random = rows["random"]["total"]
    assert random["work"] == random["spend"] + random["keep"] == 24 and random["keep"] > 0
    assert rows["random"]["per_game"]["keep"] == pytest.approx(random["keep"] / 12)
    page = report_html(report, "Menus")
    assert "<h2>Actions chosen</h2>" in page and "<td>spend</td><td>2.00 <span class=note>(12)</span>" in page
    result = CliRunner().invoke(app, ["simulate", "--ruleset", str(MENUS), "--games", "6",
                                      "--seat", "greedy", "--seat", "random", "--seat", "random",
                                      "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "run" / "report.json").read_text())["actions"] == acts
    lines = result.output.splitlines()
    assert lines[lines.index("actions chosen per player per game:") + 1].split() == ["greedy", "random"]
    spend = next(line for line in lines if line.startswith("    spend "))
    assert spend.split()[:2] == ["spend", "2.00"] and "  other actions" in lines


def test_only_the_options_that_start_an_action_are_named() -> None:
    from legacies.agents.simulate import action_names

    state = Game(load_ruleset("menus", root=MENUS).spec, 2).new_state(0)
    assert state.decision.kind == "one" and action_names(state) == [None, None]  # the setup's choice
    state.apply(0)
    state.apply(0)
    assert state.decision.kind == "action" and action_names(state) == ["work"]
    state.apply(0)
    assert action_names(state) == ["spend", "keep"]
    state.apply(1)
    assert action_names(state) == ["wave"]


def test_an_action_on_another_players_piece_is_counted_again_on_a_row_of_its_own() -> None:
    """With `with_chips` every player takes a chip each turn, their own or another
    player's (a token: `owner of` is its owner): the options name which, the records
    count both, and the report lists "take_chip (another player's)" under take_chip."""
    from legacies.agents.simulate import ANOTHER_PLAYERS, action_names, on_another_players

    state = Game(load_ruleset("menus", root=MENUS).spec, 2, {"with_chips": True}).new_state(0)
    for _ in range(4):  # the setup's two choices, work, spend: the menu `lend`
        state.apply(0)
    assert action_names(state) == ["take_chip", "take_chip"] and state.decision.player == 0
    assert on_another_players(state) == [False, True]  # P1's own chip, then P2's
    sim = simulate(Request("menus", root=str(MENUS), players=2, seats=("random", "random"), games=6,
                           options=(("with_chips", True),)))
    taken = [r.actions[p] for r in sim.records for p in range(2)]
    assert all(a["take_chip"] == 3 for a in taken)  # three turns each
    theirs = sum(a.get("take_chip" + ANOTHER_PLAYERS, 0) for a in taken)
    assert 0 < theirs < 36  # random players take both kinds of chip
    acts = build_report(sim)["actions"]
    assert {"menu": "lend", "actions": ["take_chip", "take_chip (another player's)"]} in acts["groups"]
    assert acts["by_seat"][0]["total"]["take_chip (another player's)"] == theirs


def test_search_seats_think_the_iterations_or_the_seconds_asked(tmp_path: Path) -> None:
    """`--iterations N` and `--think SECONDS` reach every search seat (with both, the first
    reached ends a decision); the report says what they thought; counts out of range are
    refused before any game."""
    from legacies.agents.bots import SearchBot
    from legacies.agents.match import make_agent

    bot = make_agent("search", 1, 0, iterations=7)
    assert isinstance(bot, SearchBot) and (bot.iterations, bot.think) == (7, None)
    state = Game(load_ruleset("menus", root=MENUS).spec, 2).new_state(0)
    for _ in range(3):  # the setup's two choices, then work: spend or keep, two options to weigh
        state.apply(0)
    both = SearchBot(3, think=600, iterations=5)
    both.choose(state)
    assert both.last_iterations == 5  # the count ends it long before the time
    timed = SearchBot(3, think=0.02, iterations=10**5)
    timed.choose(state)
    assert 1 <= timed.last_iterations < 10**5  # the time ends it
    sim = simulate(Request("menus", root=str(MENUS), players=2, seats=("search", "random"), games=2,
                           search_iterations=3))
    assert build_report(sim)["search"] == {"iterations": 3, "think": None}
    assert build_report(simulate(Request("menus", root=str(MENUS), players=2, seats=("greedy", "random"),
                                         games=1)))["search"] is None
    with pytest.raises(SimulationError, match="--iterations takes a whole number from 1 to 100,000, not 0"):
        simulate(Request("menus", root=str(MENUS), players=2, seats=("search", "random"), games=1,
                         search_iterations=0))
    result = CliRunner().invoke(app, ["simulate", "-r", str(MENUS), "-s", "search", "-s", "random", "-n", "2",
                                      "--iterations", "4", "--think", "30", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "(3 players: search, random, random; search: 4 iterations or 30.0 s)" in result.output
    assert json.loads((tmp_path / "run" / "report.json").read_text())["search"] == {"iterations": 4, "think": 30.0}
    refused = CliRunner().invoke(app, ["simulate", "-r", str(MENUS), "-n", "1", "--iterations", "100001",
                                       "--out", str(tmp_path / "x")])
    assert refused.exit_code == 2 and "from 1 to 100,000" in refused.output


def test_greedy_seats_apply_the_lookahead_asked(tmp_path: Path) -> None:
    """`--lookahead N` reaches every greedy seat (a balance run trades strength for time:
    docs/speed.md has both); the report and the printed setup say it; a number out of
    range is refused before any game."""
    from legacies.agents.bots import GreedyBot
    from legacies.agents.match import make_agent

    bot = make_agent("greedy", 1, 0, lookahead=25)
    assert isinstance(bot, GreedyBot) and bot.lookahead == 25
    assert make_agent("greedy", 1, 0).lookahead is None  # the ruleset's: below
    request = Request("menus", root=str(MENUS), players=2, seats=("greedy", "random"), games=2)
    assert build_report(simulate(request))["greedy"] == {"lookahead": GreedyBot.LOOKAHEAD}
    narrow = simulate(Request("menus", root=str(MENUS), players=2, seats=("greedy", "random"), games=2,
                              greedy_lookahead=0))
    assert build_report(narrow)["greedy"] == {"lookahead": 0}
    assert build_report(simulate(Request("menus", root=str(MENUS), players=2, seats=("random", "random"),
                                         games=1)))["greedy"] is None
    with pytest.raises(SimulationError, match="--lookahead takes a whole number from 0 to 100,000, not -1"):
        simulate(Request("menus", root=str(MENUS), players=2, seats=("greedy", "random"), games=1,
                         greedy_lookahead=-1))
    result = CliRunner().invoke(app, ["simulate", "-r", str(MENUS), "-s", "greedy", "-s", "random", "-n", "2",
                                      "--lookahead", "50", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "(3 players: greedy, random, random; greedy: lookahead 50)" in result.output
    assert json.loads((tmp_path / "run" / "report.json").read_text())["greedy"] == {"lookahead": 50}
    default = CliRunner().invoke(app, ["simulate", "-r", str(MENUS), "-s", "greedy", "-n", "1",
                                       "--out", str(tmp_path / "default")])
    assert default.exit_code == 0 and "lookahead" not in default.output  # the default goes unsaid
    assert json.loads((tmp_path / "default" / "report.json").read_text())["greedy"] == {"lookahead": 400}
    refused = CliRunner().invoke(app, ["simulate", "-r", str(MENUS), "-n", "1", "--lookahead", "100001",
                                       "--out", str(tmp_path / "x")])
    assert refused.exit_code == 2 and "from 0 to 100,000" in refused.output


def test_a_ruleset_gives_its_greedy_seats_their_lookahead(tmp_path: Path) -> None:
    """A ruleset's `greedy_lookahead` is what its greedy seats apply when no seat is given
    one: in the report, and said on the printed setup (it is not the bot's 400); a seat's
    own `--lookahead` still wins; out of range, the ruleset is refused with its place."""
    import shutil

    root = tmp_path / "menus"
    shutil.copytree(MENUS, root)
    head = root / "rules" / "menus" / "ruleset.yaml"
    head.write_text(head.read_text() + "greedy_lookahead: 7\n")
    request = Request("menus", root=str(root), players=2, seats=("greedy", "random"), games=2)
    assert build_report(simulate(request))["greedy"] == {"lookahead": 7}
    result = CliRunner().invoke(app, ["simulate", "-r", str(root), "-s", "greedy", "-n", "1",
                                      "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "greedy: lookahead 7, the ruleset's)" in result.output
    asked = CliRunner().invoke(app, ["simulate", "-r", str(root), "-s", "greedy", "-n", "1", "--lookahead", "30",
                                     "--out", str(tmp_path / "asked")])
    assert asked.exit_code == 0 and "greedy: lookahead 30)" in asked.output
    assert json.loads((tmp_path / "asked" / "report.json").read_text())["greedy"] == {"lookahead": 30}
    head.write_text(head.read_text().replace("greedy_lookahead: 7", "greedy_lookahead: -1"))
    refused = CliRunner().invoke(app, ["validate", "-r", str(root)])
    assert refused.exit_code == 1 and "ruleset.yaml:" in refused.output and "greedy_lookahead" in refused.output
