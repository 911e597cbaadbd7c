"""interpreter/mechanics.py's `adjust` at the ends of a counter: exactly at its max and
min, and one past each (a clamp off by one at max+1 survived the whole suite once)."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.interpreter.game import Game, GameState
from legacies.interpreter.mechanics import adjust
from legacies.pipeline.ruleset import load_ruleset

NUMBERS = Path(__file__).parent / "fixtures" / "numbers"  # `capped`: {max: 100} (min 0); `debt`: {min: null}


@pytest.fixture(scope="module")
def state() -> GameState:
    result = load_ruleset("numbers", NUMBERS)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return Game(result.spec, 2).new_state(0)


def adjusted(state: GameState, name: str, start: int, delta: int) -> int:
    """Player 1's counter `name` set to `start`, then adjusted by `delta`: its value."""
    st = state.st
    slot = st.game.layout.player_counter[name]
    st.counters[slot] = start
    adjust(st, slot, delta)
    return int(st.counters[slot])


@pytest.mark.parametrize(("start", "delta", "value"), [
    (90, 9, 99),  # below the max: as added
    (90, 10, 100),  # exactly the max
    (90, 11, 100),  # max + 1: held at the max
    (100, 1, 100),  # at the max, one more: stays
    (90, 500, 100),  # far past
])
def test_adjust_holds_a_counter_at_its_max(state: GameState, start: int, delta: int, value: int) -> None:
    assert state.game.layout.counter_max[state.game.layout.player_counter["capped"]] == 100
    assert adjusted(state, "capped", start, delta) == value


@pytest.mark.parametrize(("start", "delta", "value"), [
    (10, -9, 1),  # above the min: as taken
    (10, -10, 0),  # exactly the min
    (10, -11, 0),  # min - 1: held at the min
    (0, -1, 0),  # at the min, one less: stays
    (10, -500, 0),  # far past
])
def test_adjust_holds_a_counter_at_its_min(state: GameState, start: int, delta: int, value: int) -> None:
    assert state.game.layout.counter_min[state.game.layout.player_counter["capped"]] == 0
    assert adjusted(state, "capped", start, delta) == value


def test_adjust_lets_a_counter_without_a_min_go_below_zero(state: GameState) -> None:
    assert adjusted(state, "debt", 0, -7) == -7


def test_a_costs_ways_to_pay_are_worked_out_once_fewest_wilds_first() -> None:
    """`payment_plan`: each distinct way (the symbols still needed, the wilds taken) once,
    in the order `payments` offers them, and what trying them costs for each number of
    wilds a zone holds (each way of covering the cost tried, duplicates included)."""
    from legacies.interpreter.mechanics import payment_plan

    ways, tried = payment_plan("wild", 1, ["ore", "ore", "wool"])
    assert ways == [(0, (("ore", 2), ("wool", 1)), ("ore", "ore", "wool")),
                    (1, (("ore", 1), ("wool", 1)), ("ore", "wool", "wild")),  # either ore covered: one way
                    (1, (("ore", 2),), ("ore", "ore", "wild"))]
    assert tried == [3, 3 + 3 * 3]
    assert payment_plan("wild", 2, []) == ([], [])  # no cost: nothing to pay
    ways, tried = payment_plan(None, 0, ["ore"])
    assert ways == [(0, (("ore", 1),), ("ore",))] and tried == [1]
