"""Blocks that cannot ask a decision (compiler.py `Compiler.block`, vm.py `run_now`): one
generated function each, run in one step of the frame loop or, where a procedure, an
effect played or a branch would push their frame, at once with no frame; their cost
charged to the step budget, their errors located at the statement, and the game the same
as the closures play it (the reference, which steps every statement as a frame)."""

from __future__ import annotations


import pytest

from legacies.interpreter import vm
from legacies.interpreter.compile import statements as compiled_statements
from legacies.interpreter.errors import BudgetExceeded, InternalError, Refused
from legacies.interpreter.game import Game
from legacies.interpreter.spec import GameSpec
from legacies.interpreter.vm import Activation, BlockFrame

from tables import compile_effect, compiled_both_ways, run_block, small_ruleset

RULESET = """\
format: 2
ruleset: straight
title: Straight
players: {min: 2, max: 2}
score: points
limits: {max_turns: 4}
counters:
  gold: {start: 3, max: 10}
  points: {}
zones:
  pool: {}
kinds:
  post: {piece: board}
"""
PROCEDURES = """\
format: 2
actions:
  rest:
    label: Rest
    do: |
      gain 1 gold
  splurge:
    label: Splurge
    do: |
      gain 1 points
      pay 5 gold
procedures:
  bonus:
    do: |
      gain 1 points
      gain 2 gold
  broken:
    do: |
      gain 1 points
      let X be 0
      gain 10 divided by X gold
  greedy:
    do: |
      gain 1 points
      pay 1000 gold
  asks:
    do: |
      gain 1 points
      choose one:
          "gold": gain 1 gold
          "points": gain 1 points
  tempted:
    do: |
      may "take a point?":
          gain 1 points
      choose one:
          "gold": gain 1 gold
          "points": gain 1 points
game: |
  take turns:
      perform one of rest, splurge
      bonus()
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> GameSpec:
    return small_ruleset(tmp_path_factory.mktemp("straight"), "straight", RULESET, PROCEDURES,
                         "  - {id: the_post, kind: post, name: The Post}\n")


def test_a_block_that_cannot_ask_is_one_generated_function(spec: GameSpec) -> None:
    (_, made), (_, reference) = compiled_both_ways(spec, "gain 1 points\nlet X be 2\ngain X gold")
    assert made.run is not None and tuple(made) == (made.run,)  # one instruction: the whole block
    assert reference.run is None and len(reference) == 3  # the closures step each statement
    (_, asks), _ = compiled_both_ways(spec, 'gain 1 points\nchoose one:\n    "a": gain 1 gold\n    "b": gain 1 points')
    assert asks.run is None and len(asks) == 2  # a choice: stepped as a frame
    (_, calls), _ = compiled_both_ways(spec, "gain 1 points\nbonus()")
    assert calls.run is None  # a procedure: it may ask, whatever it does today


def test_the_frame_loop_runs_it_in_one_step(spec: GameSpec) -> None:
    (made, code), (reference, reference_code) = compiled_both_ways(spec, "gain 1 points\nlet X be 2\ngain X gold")
    before = made.st.steps, reference.st.steps
    run_block(made, code)
    run_block(reference, reference_code)
    assert made.fingerprint() == reference.fingerprint()
    # its one instruction and its end; each statement and the end
    assert (made.st.steps - before[0], reference.st.steps - before[1]) == (2, 4)


@pytest.mark.parametrize("source", [
    "bonus()\ngain 1 gold",  # a procedure
    'if my gold > 100:\n    choose one:\n        "a": gain 1 gold\n        "b": gain 1 points\n'
    "else:\n    gain 1 points\n    gain 1 gold",  # the branch taken, of an `if` whose other branch asks
])
def test_a_block_that_cannot_ask_runs_with_no_frame(spec: GameSpec, monkeypatch: pytest.MonkeyPatch,
                                                     source: str) -> None:
    (made, code), (reference, reference_code) = compiled_both_ways(spec, source)
    run_block(reference, reference_code)

    class NoFrame(BlockFrame):
        def __init__(self, instrs: tuple, act: Activation) -> None:
            raise AssertionError("a frame was pushed for a block that cannot ask")
    monkeypatch.setattr(compiled_statements, "BlockFrame", NoFrame)
    monkeypatch.setattr(vm, "BlockFrame", NoFrame)  # (vm.enter pushes a statement's block)
    run_block(made, code)
    assert made.fingerprint() == reference.fingerprint()
    assert made.st.steps < reference.st.steps  # its statements charged as work, not stepped


def test_a_procedure_that_can_ask_still_asks(spec: GameSpec) -> None:
    for state, code in compiled_both_ways(spec, "asks()\ngain 1 gold"):
        run_block(state, code)
        assert state.st.pending is not None and [o.label for o in state.st.pending.options] == ["gold", "points"]


@pytest.mark.parametrize("source", ["broken()", "gain 1 gold\nbroken()"])
def test_an_error_in_a_block_run_at_once_names_its_statement(spec: GameSpec, source: str) -> None:
    errors = []
    for state, code in compiled_both_ways(spec, source):
        with pytest.raises(InternalError) as caught:
            run_block(state, code)
        errors.append(caught.value)
    assert str(errors[0]) == str(errors[1])  # where, what was running, the message
    err = errors[0]
    assert err.where is not None and err.where.file.endswith("procedures.yaml") and err.where.line == 21
    assert "division by zero" in str(err) and "procedure `broken`" in err.running


@pytest.mark.parametrize("source, file, line", [("greedy()", "procedures.yaml", 25),
                                                ("gain 1 gold\npay 1000 gold\ngain 1 points", "test.yaml", 2)])
def test_a_refusal_of_the_rules_own_statement_is_located_there(spec: GameSpec, source: str, file: str,
                                                               line: int) -> None:
    errors = []
    for state, code in compiled_both_ways(spec, source):
        with pytest.raises(InternalError) as caught:
            run_block(state, code)
        errors.append(caught.value)
    assert str(errors[0]) == str(errors[1])
    err = errors[0]
    assert "the rules refused their own statement" in str(err)
    assert err.where is not None and err.where.file.endswith(file) and err.where.line == line


def test_a_loop_of_blocks_run_at_once_still_stops_at_the_budget(spec: GameSpec) -> None:
    for state, code in compiled_both_ways(spec, "repeat 1000000 times:\n    bonus()"):
        with pytest.raises(BudgetExceeded):
            run_block(state, code)


@pytest.mark.parametrize("looped", [False, True], ids=["in a block", "in a loop's body"])
def test_a_change_of_a_players_counter_keeps_its_bounds(spec: GameSpec, looped: bool) -> None:
    source = "gain 100 gold\nlose 5 points\ngain 3 points for top of opponents\npay 4 gold"
    if looped:
        source = "repeat 2 times:\n" + "".join(f"    {line}\n" for line in source.splitlines())
    states = []
    for state, code in compiled_both_ways(spec, source):
        run_block(state, code)
        states.append(state)
    made, reference = states
    assert made.fingerprint() == reference.fingerprint()
    lay = made.game.layout
    assert made.st.counters[lay.player_counter["gold"]] == 6  # its max, then 4 paid
    assert made.st.counters[lay.player_counter["points"]] == 0  # no lower than nothing
    assert made.st.counters[lay.player_counter["points"] + 1] == (6 if looped else 3)
    with pytest.raises(InternalError, match="cannot pay 1000 gold"):  # a refusal outside an option, as before
        run_block(made, compile_effect(made.game, ("repeat 2 times:\n    " if looped else "") + "pay 1000 gold"))


def test_games_play_as_the_closures_do(spec: GameSpec) -> None:
    from tests.interpreter.test_codegen import play_both  # noqa: PLC0415 - the differential helper
    for seed in range(3):
        assert play_both(spec, 2, seed) > 0


def _no_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, pushing a block's frame fails the test."""
    class NoFrame(BlockFrame):
        def __init__(self, instrs: tuple, act: Activation) -> None:
            raise AssertionError("a frame was pushed for a block that cannot ask")
    for module in (compiled_statements, vm):  # (choices.py starts a block through vm.enter)
        monkeypatch.setattr(module, "BlockFrame", NoFrame)


def test_an_action_that_cannot_ask_runs_with_no_frame_and_its_menu_ends(spec: GameSpec,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The action menu's chosen `rest` runs at once (interpreter/compile/choices.py
    `CompiledAction.start`), and a menu of one action ends with it (frames.PerformFrame)."""
    made, reference = Game(spec, 2).new_state(1), Game(spec, 2, codegen=False).new_state(1)
    assert made.st.pending is not None and made.st.pending.kind == "action"
    frames_before = len(made.st.frames)
    before = made.st.steps, reference.st.steps
    reference.apply(0)
    _no_frames(monkeypatch)
    made.apply(0)  # `rest`; then `bonus()` (run at once too) and the next player's menu
    assert made.fingerprint() == reference.fingerprint()
    assert len(made.st.frames) == frames_before  # the same menu frame's place, the next player's
    # generated: bonus() (run at once), the turn's end, the next turn, its `perform`, its menu asked;
    # the closures: the action's statement and end, the menu's end, bonus() and its two statements and end,
    # the turn's end, the next turn, its `perform`, its menu asked
    assert (made.st.steps - before[0], reference.st.steps - before[1]) == (5, 11)


def test_a_refusal_in_an_action_run_at_once_refuses_the_option(spec: GameSpec) -> None:
    """`splurge` pays 5 gold with 3: its refusal is the player's (the menu is still below
    it), and the state is as it was."""
    state = Game(spec, 2).new_state(1)
    before = state.fingerprint()
    with pytest.raises(Refused, match="5 gold"):
        state.apply(1)  # splurge
    assert state.fingerprint() == before
    state.apply(0)  # rest: still offered, still answered
    assert state.fingerprint() != before


def test_a_chosen_option_and_a_may_run_with_no_frame(spec: GameSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    """The statements of a `choose one:` option and of a `may` taken run at once when they
    cannot ask (choices.py `s_ChooseOne`, `s_May`), the game as the closures play it."""
    (made, code), (reference, reference_code) = compiled_both_ways(spec, "tempted()")
    run_block(made, code)
    run_block(reference, reference_code)
    for answer in (0, 1):  # yes to the point, then "points"
        reference.apply(answer)
    _no_frames(monkeypatch)
    for answer in (0, 1):
        made.apply(answer)
    assert made.fingerprint() == reference.fingerprint()
    points = made.game.layout.player_counter["points"]
    assert made.st.counters[points + made.st.active] >= 2
