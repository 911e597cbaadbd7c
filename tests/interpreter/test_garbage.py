"""What a game leaves to Python's garbage collector (issue 32): nothing. A decision and
its options hold each other only by a weak reference, and a copy of the game that is
dropped (an undo's backup, a bot's lookahead) is discarded (State.discard), so both are
freed by reference counting at once, not by the collector's next pass over every live
object (the collector was a sixth of a random game's time and a third of a greedy bot's)."""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Iterator

import pytest

from legacies.agents.bots import BOTS, apply_random_option
from legacies.interpreter.decisions import Choice, Decision
from legacies.interpreter.errors import InternalError
from legacies.interpreter.game import Game, Undo
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import gc_paused


@pytest.fixture()
def no_collector() -> Iterator[None]:
    """The collector off: what is freed is freed by reference counting."""
    gc.collect()
    with gc_paused():
        yield


@pytest.mark.parametrize("name", ["legacies", "leaders-legacy", "gears-of-time", "legacy"])
def test_a_random_game_leaves_nothing_to_the_collector(name: str, no_collector: None) -> None:
    """Answered decisions, dropped undo checkpoints: all freed by reference counting."""
    game = Game(load_ruleset(name).spec, 4)
    state = game.new_state(1)
    rng = random.Random(1)
    gc.collect()  # what compiling the game left
    asked: list[weakref.ref[Decision]] = []
    for _ in range(300):
        decision = state.decision
        if decision is None:
            break
        asked.append(weakref.ref(decision))
        del decision
        # now and then a backup made and dropped
        apply_random_option(state, rng, undo=Undo.COPY if len(asked) % 50 == 1 else Undo.REPLAY)
    assert len(asked) > 60
    freed = sum(ref() is None for ref in asked)
    assert freed >= len(asked) - 2  # the one pending, and the one the undo checkpoint holds
    assert gc.collect() == 0


@pytest.mark.parametrize("bot", ["greedy", "search", "rollout"])
def test_a_bots_thinking_leaves_nothing_to_the_collector(bot: str, no_collector: None) -> None:
    """A bot's copies of the game (its lookahead, its playouts) are discarded when it
    has chosen, and freed then."""
    game = Game(load_ruleset("legacy").spec, 3)
    state = game.new_state(2)
    rng = random.Random(2)
    for _ in range(20):
        apply_random_option(state, rng, undo=Undo.REPLAY)
    gc.collect()
    player = BOTS[bot](2)
    for _ in range(2):
        if state.decision is None:
            break
        state.apply(player.choose(state), undo=Undo.REPLAY)
    assert gc.collect() == 0


def test_a_label_is_read_from_its_decision_while_it_lives(no_collector: None) -> None:
    options = (Choice("north", 1), Choice("south", 2))
    decision = Decision(0, "go", options)
    freed = weakref.ref(decision)
    del decision
    assert freed() is None  # the options do not keep it
    with pytest.raises(InternalError, match="after its decision is gone"):
        _ = options[0].label
    with pytest.raises(InternalError, match="before it is offered"):
        _ = Choice("east", 3).label
