"""An action menu or a response window made when it is read (issue 32;
State.menus_when_read, a bot's copy of the game): a greedy bot's lines end at the next
player's menu, which it weighs without reading. Such a menu is the same menu, made from the same state, whenever it is read;
one nobody reads is never made; a copy's menu is made before either side moves on."""

from __future__ import annotations

import random

import pytest

from legacies.agents.bench import mid_game, to_a_choice
from legacies.agents.bots import BOTS, apply_random_option
from legacies.interpreter.decisions import Decision
from legacies.interpreter.frames import PerformFrame
from legacies.interpreter.windows import OfferFrame
from legacies.interpreter.game import Game, GameState, Undo
from legacies.pipeline.ruleset import load_ruleset, rulesets


def _menu(decision: Decision | None) -> tuple:
    assert decision is not None
    return (decision.player, decision.kind, decision.prompt, [(o.value, o.item) for o in decision.options],
            decision.labels())


def _lazy(state: GameState) -> GameState:
    copy = state.clone()
    copy.st.menus_when_read = True
    return copy


@pytest.mark.parametrize("name", rulesets())
def test_a_menu_made_when_read_is_the_menu_made_when_asked(name: str) -> None:
    state = Game(load_ruleset(name).spec, 4 if name != "legacy" else 2).new_state(4)
    rng = random.Random(4)
    compared = unread = 0
    for _ in range(120):
        d = state.decision
        if d is None:
            break
        index = rng.randrange(len(d.options))
        lazy = _lazy(state)
        try:
            state.apply(index, undo=Undo.REPLAY)
        except Exception:
            continue
        lazy.apply(index, undo=Undo.NONE)
        if lazy.decision is not None and isinstance(lazy.st.frames[-1], (PerformFrame, OfferFrame)):  # a menu
            unread += not lazy.decision.made  # asked, not made: nobody read it yet
            assert _menu(lazy.decision) == _menu(state.decision)
            compared += 1
        else:
            assert (lazy.decision is None) == (state.decision is None)
    assert compared > 5 and unread == compared


def test_a_copy_of_an_unread_menu_reads_the_menu_of_when_it_was_copied() -> None:
    state = Game(load_ruleset("legacies").spec, 4).new_state(6)
    rng = random.Random(6)
    for _ in range(200):
        d = state.decision
        assert d is not None
        index = rng.randrange(len(d.options))
        lazy = _lazy(state)
        state.apply(index, undo=Undo.REPLAY)
        lazy.apply(index, undo=Undo.NONE)
        pending = lazy.st.pending
        if pending is not None and pending.kind == "action" and len(state.decision.options) > 2:  # type: ignore[union-attr]
            break
    else:
        pytest.fail("no action menu of three options in 200 decisions")
    assert not pending.made
    copy = lazy.clone()  # made now, from the state as both stand
    assert pending.made
    lazy.apply(0, undo=Undo.NONE)  # the original moves on
    assert _menu(copy.decision) == _menu(state.decision)


@pytest.mark.parametrize("name", ["leaders-legacy", "legacies", "gears-of-time"])
def test_greedy_chooses_the_same_with_menus_made_when_read(name: str) -> None:
    gs = mid_game(name, 4, 150)
    assert gs is not None
    rng = random.Random(150)
    for _ in range(3):
        if not to_a_choice(gs, rng):
            break
        lazy, eager = BOTS["greedy"](7), BOTS["greedy"](7)
        eager.menus_when_read = False  # type: ignore[attr-defined]
        chosen = lazy.choose(gs)
        assert chosen == eager.choose(gs)
        assert (lazy.last_depth, lazy.last_weighed) == (eager.last_depth, eager.last_weighed)  # type: ignore[attr-defined]
        gs.apply(chosen, undo=Undo.REPLAY)
