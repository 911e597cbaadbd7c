"""An action's targets worked out once while a menu is built (issue 32, step 3; choices.py
CompiledAction.listed_now): the menu lists them, and `possible(...)` in another action's
`if:` asks whether there are any, from the same frozen state. Gears of Time's pass is
offered only when no other action is possible: its `if:` found each listing the menu had
made, where it walked the hand, the timeline and the decks again."""

from __future__ import annotations

import random
from typing import Any, Callable

from legacies.agents.bots import apply_random_option
from legacies.interpreter.compile.choices import CompiledAction
from legacies.interpreter.frames import PerformFrame
from legacies.interpreter.game import Game, GameState, Undo
from legacies.pipeline.ruleset import load_ruleset

ASKED_BY_THE_PASS = ("travel", "establish", "influence", "draw_two")


def _counted(action: CompiledAction, calls: dict[str, int]) -> None:
    """Count the calls of an action's generated target functions."""
    listed, exists = action.listed, action.exists
    assert listed is not None and exists is not None

    def counting_listed(st: Any, me: int, this: int, f: Callable = listed) -> list:
        calls[f"{action.name} listed"] = calls.get(f"{action.name} listed", 0) + 1
        return f(st, me, this)

    def counting_exists(st: Any, me: int, this: int, f: Callable = exists) -> bool:
        calls[f"{action.name} exists"] = calls.get(f"{action.name} exists", 0) + 1
        return f(st, me, this)
    action.listed, action.exists = counting_listed, counting_exists


def _turn_menus(count: int) -> list[GameState]:
    """Gears of Time states at a turn's action menu that offers the pass's action among
    the others (copies, menus not yet made)."""
    game = Game(load_ruleset("gears-of-time").spec, 4)
    state, rng = game.new_state(3), random.Random(3)
    found: list[GameState] = []
    while len(found) < count and state.decision is not None:
        frame = state.st.frames[-1]
        if isinstance(frame, PerformFrame) and "no_action" in [a.name for a in frame.actions]:
            copy = state.clone()
            copy.st.pending = None  # its menu made again below, from the same state
            found.append(copy)
        apply_random_option(state, rng, undo=Undo.NONE)
    assert len(found) == count, "a Gears of Time game reaches its turn menu"
    return found


def test_the_pass_finds_the_listings_the_menu_made() -> None:
    states = _turn_menus(12)
    calls: dict[str, int] = {}
    for action in states[0].game.actions.values():  # one Game: its actions counted once
        if action.listed is not None and action.exists is not None:
            _counted(action, calls)
    for state in states:
        frame = state.st.frames[-1]
        assert isinstance(frame, PerformFrame)
        calls.clear()
        menu = frame.menu(state.st)
        names = {frame.actions[o.value[0]].name for o in menu if o.value is not None}
        for name in ASKED_BY_THE_PASS:
            assert calls.get(f"{name} listed") == 1, calls
            assert calls.get(f"{name} exists", 0) == 0, calls  # answered from the listing
        # and the pass is offered exactly when none of them has a target (asked afresh)
        me, this = frame.act.me, frame.act.this
        nothing = not any(state.game.actions[name].listed(state.st, me, this)  # type: ignore[misc]
                          for name in ASKED_BY_THE_PASS)
        assert ("no_action" in names) == nothing


def _one_action(targets: list[int]) -> tuple[CompiledAction, dict[str, int], Any]:
    action = CompiledAction("a", "A", "x", None, None, ())
    calls = {"listed": 0, "exists": 0}

    def listed(st: Any, me: int, this: int) -> list:
        calls["listed"] += 1
        return list(targets)

    def exists(st: Any, me: int, this: int) -> bool:
        calls["exists"] += 1
        return bool(targets)
    action.listed, action.exists = listed, exists
    state = Game(load_ruleset("legacy").spec, 2).new_state(1)
    return action, calls, state.st


def test_none_found_is_an_empty_listing_and_one_found_still_lists() -> None:
    action, calls, st = _one_action([])
    with st.frozen():
        assert not action.available_for(st, 0, -1) and not action.available_for(st, 0, -1)
        assert action.listed_now(st, 0, -1) == []
    assert calls == {"listed": 0, "exists": 1}  # "none" is known to be no target at all

    action, calls, st = _one_action([5, 7])
    with st.frozen():
        assert action.available_for(st, 0, -1) and action.available_for(st, 0, -1)
        assert action.listed_now(st, 0, -1) == [5, 7]  # a "yes" stops at the first: the list is made
        assert action.listed_now(st, 0, -1) == [5, 7] and action.available_for(st, 0, -1)
        assert action.listed_now(st, 1, -1) == [5, 7]  # another player's: its own
    assert calls == {"listed": 2, "exists": 1}


def test_outside_a_menu_nothing_is_kept() -> None:
    action, calls, st = _one_action([5])
    for _ in range(2):
        assert action.available_for(st, 0, -1) and action.listed_now(st, 0, -1) == [5]
    assert calls == {"listed": 2, "exists": 2}
    with st.frozen():
        action.listed_now(st, 0, -1)
    with st.frozen():  # a new menu: the state may have moved between the two
        action.listed_now(st, 0, -1)
    assert calls["listed"] == 4


def test_an_item_that_is_no_key_is_asked_afresh() -> None:
    """A player or item that cannot be a key (none of the shipped paths makes one) is asked
    without keeping, as a definition's memo does with a list argument."""
    action, calls, st = _one_action([5])
    with st.frozen():
        assert action.available_for(st, 0, [1]) and action.listed_now(st, 0, [1]) == [5]  # type: ignore[arg-type]
        assert action.listed_now(st, 0, [1]) == [5]  # type: ignore[arg-type]
    assert calls == {"listed": 2, "exists": 1}
