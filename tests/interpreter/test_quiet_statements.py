"""Statements that push a frame only through what a game may lack (compile/context.py
`CompileContext.quiet`): a move when no kind it may move has a hook, an announce that no
trigger hears, a transfer that does not ask. In such a game they run straight through, so
a block of them is one generated function run with no frame (issue 32, step 2), and the
game is the same as the closures play it; where a hook or a trigger could run, the block
keeps its frames, and the hook runs before the statement after the move."""

from __future__ import annotations

import pytest

from legacies.interpreter import vm
from legacies.interpreter.compile import statements as compiled_statements
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.spec import GameSpec
from legacies.interpreter.vm import Activation, BlockFrame

from tables import compiled_both_ways, run_block, small_ruleset

RULESET = """format: 2
ruleset: quiet
title: Quiet
players: {min: 2, max: 2}
score: points
limits: {max_turns: 4}
counters:
  points: {}
  gold: {start: 10}
  heard: {scope: game}
zones:
  pile: {scope: game}
  table: {scope: game, visibility: public, in_play: true}
kinds:
  chip: {piece: card, starts_in: pile, plural: chips}
  bell: {piece: card, starts_in: pile, plural: bells}
events:
  rung: {}
  unheard: {}
"""
PROCEDURES = """format: 2
game: |
  take turns:
      gain 1 points
"""
ITEMS = """  - {id: red_chip, kind: chip, name: Red Chip, copies: 3}
  - id: brass_bell
    kind: bell
    name: Bell
    copies: 2
    effect: |
      when this enters play:
          set heard to total points of players
"""
LISTENER = """  - id: listener
    kind: chip
    name: Listener
    effect: |
      when rung:
          raise heard by 1
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> GameSpec:
    return small_ruleset(tmp_path_factory.mktemp("quiet"), "quiet", RULESET, PROCEDURES, ITEMS + LISTENER)


@pytest.fixture(scope="module")
def unhooked(tmp_path_factory: pytest.TempPathFactory) -> GameSpec:
    """The same game without the bell's hook: no kind of piece has one."""
    items = ITEMS.replace("    effect: |\n      when this enters play:\n          set heard to total points of players\n", "")
    return small_ruleset(tmp_path_factory.mktemp("unhooked"), "quiet", RULESET, PROCEDURES, items + LISTENER)


def _played_alike(spec: GameSpec, source: str) -> GameState:
    """`source` run on generated code and on the closures: the same game; the generated one."""
    (made, code), (reference, reference_code) = compiled_both_ways(spec, source)
    run_block(made, code)
    run_block(reference, reference_code)
    assert made.fingerprint() == reference.fingerprint()
    return made


@pytest.mark.parametrize("source", [
    "remove top of chips in pile\ngain 1 points",  # a kind with no hook
    "discard top of chips in pile\ngain 1 points",
    "announce unheard\ngain 1 points",  # no trigger hears it
    "transfer 2 from my gold to my points",  # asks nothing
    "reveal top of chips in pile\nshuffle pile",  # never pushes
])
def test_a_quiet_statement_runs_straight_through(spec: GameSpec, monkeypatch: pytest.MonkeyPatch,
                                                 source: str) -> None:
    (_, code), (_, reference_code) = compiled_both_ways(spec, source)
    assert code.run is not None and len(code) == 1  # one generated function
    assert reference_code.run is None  # the closures step each statement

    class NoFrame(BlockFrame):
        def __init__(self, instrs: tuple, act: Activation) -> None:
            raise AssertionError("a frame was pushed for a quiet statement")
    (made, code), (reference, reference_code) = compiled_both_ways(spec, source)
    run_block(reference, reference_code)
    monkeypatch.setattr(compiled_statements, "BlockFrame", NoFrame)
    monkeypatch.setattr(vm, "BlockFrame", NoFrame)
    made.st.frames = []
    vm.enter(made.st, code, Activation(made.st, 0))  # as a procedure's block is entered: at once, no frame
    assert not made.st.frames
    made.st.run()
    assert made.fingerprint() == reference.fingerprint()


@pytest.mark.parametrize("source", [
    "move top of bells in pile to table\ngain 1 points",  # a hooked kind
    "move top of (pile) to table\ngain 1 points",  # a piece of any kind, in a game with a hook
    "announce rung\ngain 1 points",  # heard by the listener
    "transfer up to 2 from my gold to my points",  # asks how much
])
def test_a_statement_that_may_push_keeps_its_frames(spec: GameSpec, source: str) -> None:
    (_, code), (_, reference_code) = compiled_both_ways(spec, source)
    assert code.run is None and reference_code.run is None


def test_a_hook_runs_before_the_statement_after_its_move(spec: GameSpec) -> None:
    """The bell's hook reads the points: it ran after the move and before the gain."""
    game = Game(spec, 2)
    points = game.layout.player_counter["points"]
    before = sum(game.new_state(1).st.counters[points + p] for p in range(2))
    made = _played_alike(spec, "move top of bells in pile to table\ngain 5 points")
    st = made.st
    assert st.counters[made.game.layout.game_counter["heard"]] == before
    assert sum(st.counters[points + p] for p in range(2)) == before + 5


def test_without_hooks_every_move_is_quiet(unhooked: GameSpec) -> None:
    source = "move top of bells in pile to table\nmove top of (pile) to table\ngain 5 points"
    (_, code), _ = compiled_both_ways(unhooked, source)
    assert code.run is not None
    made = _played_alike(unhooked, source)
    table = made.game.layout.game_zone["table"]
    assert len(made.st.zones[table]) == 2


def test_a_trigger_heard_still_runs(spec: GameSpec) -> None:
    made = _played_alike(spec, "move listener to table\nannounce rung\nannounce unheard")
    assert made.st.counters[made.game.layout.game_counter["heard"]] == 1
