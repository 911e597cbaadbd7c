"""Hooks and restrictions (pipeline/build/hooks.py): a procedure with `before: X` or
`after: X` runs at the start or the end of the procedure or action X, with its
parameters, as the same player; a `restrictions:` entry adds a condition to an action.
The base is tests/interpreter/fixtures/relay (a procedure run by an action, an action
that chooses nothing); the expansion relay-extra hooks into both and restricts one
without touching a base file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from legacies.interpreter.errors import InternalError
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import RulesetResult, load_ruleset

FIXTURES = Path(__file__).parent / "fixtures"
RELAY = FIXTURES / "relay"
EXTRA = FIXTURES / "relay-extra"


def counters(state: GameState, name: str) -> list[int]:
    base = state.game.layout.player_counter[name]
    return [state.st.counters[base + p] for p in range(state.game.players)]


def laid(extra: Path = EXTRA) -> RulesetResult:
    return load_ruleset("relay", RELAY, [extra])


@pytest.fixture()
def extra(tmp_path: Path) -> Path:
    """A copy of the expansion to change in a test."""
    copy = tmp_path / "relay-extra"
    shutil.copytree(EXTRA, copy)
    return copy


def rewrite(extra: Path, old: str, new: str) -> None:
    rules = extra / "rules" / "relay" / "extra.yaml"
    text = rules.read_text(encoding="utf-8")
    assert old in text
    rules.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("codegen", [True, False], ids=["generated", "closures"])
def test_hooks_run_at_each_end_of_a_procedure_and_an_action_with_its_parameters(codegen: bool) -> None:
    result = laid()
    assert result.ok and result.spec is not None, [d.headline() for d in result.diagnostics]
    state = Game(result.spec, 2, codegen=codegen).new_state(1)
    state.apply_label("Rest")  # P1: the hook after `rest` (no parameters)
    assert counters(state, "breath") == [1, 0] and counters(state, "cheers") == [1, 0]
    state.apply_label("Sprint 1")  # P2: `run_lap(1)` with its hooks
    state.apply_label("Sprint 3")  # P1
    assert list(state.st.log) == [
        "the crowd cheers P2 before a lap of 1 (lap 1)", "P2 runs a lap of 1",
        "the crowd cheers P1 before a lap of 3 (lap 2)", "P1 runs a lap of 3", "P1 finishes a long lap: 1 point more"]
    assert counters(state, "points") == [4, 1] and counters(state, "cheers") == [2, 1]


@pytest.mark.parametrize("codegen", [True, False], ids=["generated", "closures"])
def test_a_restriction_narrows_the_base_actions_options(codegen: bool) -> None:
    base = load_ruleset("relay", RELAY).spec
    spec = laid().spec
    assert base is not None and spec is not None
    assert Game(base, 2, codegen=codegen).new_state(1).decision.labels() == ["Sprint 1", "Sprint 2", "Sprint 3",
                                                                             "Rest"]
    state = Game(spec, 2, codegen=codegen).new_state(1)
    assert state.decision.labels() == ["Sprint 1", "Sprint 2", "Rest"]  # no breath: no long lap
    state.apply_label("Rest")
    state.apply_label("Rest")
    assert "Sprint 3" in state.decision.labels()
    assert spec.actions["sprint"].condition is None and len(spec.actions["sprint"].restrictions) == 1


def test_the_base_alone_runs_no_hook() -> None:
    spec = load_ruleset("relay", RELAY).spec
    assert spec is not None
    state = Game(spec, 2).new_state(1)
    state.apply_label("Sprint 3")
    assert list(state.st.log) == ["P1 runs a lap of 3"] and counters(state, "points") == [3, 0]


def test_a_hook_names_a_procedure_or_action_and_takes_its_parameters(extra: Path) -> None:
    rewrite(extra, "before: run_lap", "before: run_lpa")
    rewrite(extra, "after: rest\n", "after: rest\n    before: rest\n")
    rewrite(extra, "  bonus_lap:\n    after: run_lap\n    params: {N: number}",
            "  bonus_lap:\n    after: run_lap\n    params: {M: number}")
    result = laid(extra)
    r013 = sorted((d.line, d.message, d.hint) for d in result.diagnostics if d.code == "R013")
    assert [m for _, m, _ in r013] == [
        "`run_lpa` is no procedure or action",
        "hook `bonus_lap` runs with the parameters of `run_lap`, and its own are M",
        "procedure `catch_breath` gives both `before:` and `after:`: a hook runs at one end of what it hooks"]
    assert r013[0][2] == "did you mean `run_lap`?" and r013[1][2] == "declare `params:` as `run_lap` has them: N: an amount"
    assert all(d.file.endswith("relay-extra/rules/relay/extra.yaml") for d in result.diagnostics if d.code == "R013")
    assert [line for line, _, _ in r013] == [4, 11, 17]


def test_a_hook_of_an_action_takes_its_as_name_of_the_type_it_chooses(extra: Path) -> None:
    rewrite(extra, "  catch_breath:\n    after: rest\n", "  catch_breath:\n    after: sprint\n")
    assert "hook `catch_breath` runs with the parameters of `sprint`, and its own are none" in [
        d.message for d in laid(extra).diagnostics if d.code == "R013"]
    rewrite(extra, "  catch_breath:\n    after: sprint\n", "  catch_breath:\n    after: sprint\n    params: {N: player}\n")
    r013 = [d for d in laid(extra).diagnostics if d.code == "R013"]
    assert [d.message for d in r013] == ["hook `catch_breath` takes `N` as a player, and `sprint` chooses an amount"]
    rewrite(extra, "params: {N: player}", "params: {N: number}")
    result = laid(extra)
    assert result.ok, [d.headline() for d in result.diagnostics]


def test_a_restriction_names_an_action_and_is_checked_where_it_is_written(extra: Path) -> None:
    rewrite(extra, "action: sprint", "action: sprnt")
    r014 = [d for d in laid(extra).diagnostics if d.code == "R014"]
    assert len(r014) == 1 and r014[0].message == "restriction `long_laps_need_breath` is on `sprnt`, which is no action"
    assert r014[0].hint == "did you mean `sprint`?" and r014[0].line == 21
    rewrite(extra, "action: sprnt", "action: sprint")
    rewrite(extra, "my breath > 0", "my braeth > 0")
    e203 = [d for d in laid(extra).diagnostics if d.code == "E203"]
    assert len(e203) == 1 and e203[0].file.endswith("relay-extra/rules/relay/extra.yaml") and (e203[0].line, e203[0].column) == (22, 21)


def test_a_hook_that_runs_what_it_hooks_is_a_loop(extra: Path) -> None:
    rewrite(extra, "      gain 1 cheers\n      log", "      gain 1 cheers\n      run_lap(N)\n      log")
    e216 = [d for d in laid(extra).diagnostics if d.code == "E216"]
    assert e216 and "cheer -> run_lap -> cheer" in " ".join(d.message for d in e216)


def test_an_error_in_a_hook_at_run_time_names_the_hooks_file_and_line(extra: Path) -> None:
    rewrite(extra, "      if N = 3:", "      gain 5 modulo (N - 1) points\n      if N = 3:")
    spec = laid(extra).spec
    assert spec is not None
    state = Game(spec, 2).new_state(1)
    with pytest.raises(InternalError) as err:
        state.apply_label("Sprint 1")
    assert "relay-extra/rules/relay/extra.yaml:13:" in str(err.value) and "bonus_lap" in str(err.value)
