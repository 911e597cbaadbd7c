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
from legacies.interpreter.errors import InternalError, Refused
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
        except Refused:  # an option the rules refuse; anything else fails the test
            continue
        lazy.apply(index, undo=Undo.NONE)
        if lazy.decision is not None and isinstance(lazy.st.frames[-1], (PerformFrame, OfferFrame)):  # a menu
            unread += not lazy.decision.made  # asked, not made: nobody read it yet
            assert _menu(lazy.decision) == _menu(state.decision)
            compared += 1
        else:
            assert (lazy.decision is None) == (state.decision is None)
    assert compared > 5 and unread == compared


def _an_unread_menu(seed: int) -> tuple[GameState, GameState]:
    """A Legacies game at an action menu of three options or more, and a lazy copy that
    reached it by the same decisions with the menu not yet made."""
    state = Game(load_ruleset("legacies").spec, 4).new_state(seed)
    rng = random.Random(seed)
    for _ in range(200):
        d = state.decision
        assert d is not None
        index = rng.randrange(len(d.options))
        lazy = _lazy(state)
        state.apply(index, undo=Undo.REPLAY)
        lazy.apply(index, undo=Undo.NONE)
        pending = lazy.st.pending
        if pending is not None and pending.kind == "action" and len(state.decision.options) > 2:  # type: ignore[union-attr]
            assert not pending.made
            return state, lazy
    pytest.fail("no action menu of three options in 200 decisions")


def test_a_copy_of_an_unread_menu_reads_the_menu_of_when_it_was_copied() -> None:
    state, lazy = _an_unread_menu(6)
    pending = lazy.st.pending
    assert pending is not None
    copy = lazy.clone()  # made now, from the state as both stand
    assert pending.made
    lazy.apply(0, undo=Undo.NONE)  # the original moves on
    assert _menu(copy.decision) == _menu(state.decision)


def test_a_refusal_met_making_a_menu_when_read_is_the_rules_mistake(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is being answered when a menu is made late: a refusal met there is raised as
    the run that asked would have raised it, a mistake in the rules, never a refusal."""
    _, lazy = _an_unread_menu(6)

    def refuses(self: PerformFrame, st: object) -> tuple:
        raise Refused("a test's refusal")

    monkeypatch.setattr(PerformFrame, "menu", refuses)
    with pytest.raises(InternalError, match="the rules refused their own statement"):
        lazy.decision.options  # type: ignore[union-attr]


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


def test_a_bug_met_making_a_menu_when_read_is_an_error_never_a_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug met while a menu is made late (here a KeyError) is raised as the run that asked
    would have raised it: an error, never a refusal a bot would skip as an illegal option."""
    _, lazy = _an_unread_menu(6)

    def breaks(self: PerformFrame, st: object) -> tuple:
        raise KeyError("a test's bug")

    monkeypatch.setattr(PerformFrame, "menu", breaks)
    with pytest.raises(Exception) as caught:
        lazy.decision.options  # type: ignore[union-attr]
    assert not isinstance(caught.value, Refused)
    assert "a test's bug" in str(caught.value) or "a test's bug" in str(caught.value.__cause__)
