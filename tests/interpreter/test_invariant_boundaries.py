"""The invariant checker at its boundaries, one invariant broken at a time: the fast
path that decides "all is well" must never hide what the full check reports (issue 17:
its fast path was said to skip the counters' upper bounds; an int-like value where a
piece or a location belongs, and a turn order that is not every player once, passed both)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from legacies.interpreter.game import Game, GameState
from legacies.interpreter.invariants import _clean, problems
from legacies.interpreter.values import DefRef
from legacies.pipeline.ruleset import load_ruleset

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "minilegacies"


@pytest.fixture(scope="module")
def spec():
    return load_ruleset("minilegacies", root=FIXTURE).spec


def fresh(spec) -> GameState:
    return Game(spec, 3).new_state(0)


def slot(state: GameState, name: str) -> int:
    lay = state.game.layout
    return lay.game_counter[name] if name in lay.game_counter else lay.player_counter[name]


def item_slot(state: GameState) -> tuple[int, int, int]:
    """An item counter with both bounds: (slot, min, max)."""
    lay = state.game.layout
    for i, (lo, hi) in enumerate(zip(lay.counter_min, lay.counter_max)):
        if lo is not None and hi is not None and "[" in lay.counter_label[i] and lo < hi:
            return i, lo, hi
    raise AssertionError("no bounded item counter")


def a_piece_in_a_zone(state: GameState) -> tuple[int, int]:
    st = state.st
    for z, pieces in enumerate(st.zones):
        if pieces and pieces[0] > 0:
            return z, pieces[0]
    raise AssertionError("no piece in a zone")


def _above_max(state: GameState) -> str:
    i, _, hi = item_slot(state)
    state.st.counters[i] = hi + 1
    return f"= {hi + 1} is outside"


def _below_min(state: GameState) -> str:
    i, lo, _ = item_slot(state)
    state.st.counters[i] = lo - 1
    return f"= {lo - 1} is outside"


def _game_counter_above_max(state: GameState) -> str:
    state.st.counters[slot(state, "century")] = 4
    return "century = 4 is outside [1, 3]"


def _bool_counter(state: GameState) -> str:
    state.st.counters[slot(state, "generation")] = True
    return "holds True"


def _piece_in_two_zones(state: GameState) -> str:
    z, pid = a_piece_in_a_zone(state)
    state.st.zone(z + 1 if z + 1 < len(state.st.zones) else 0).append(pid)
    return f"piece {pid} is in zones"


def _int_like_piece_in_a_zone(state: GameState) -> str:
    """A card name (an int subclass) where a piece belongs: it indexes like the piece."""
    z, pid = a_piece_in_a_zone(state)
    state.st.zone(z)[0] = DefRef(pid)
    return f"unknown piece def:{pid}"


def _int_like_location(state: GameState) -> str:
    z, pid = a_piece_in_a_zone(state)
    state.st.loc[pid] = DefRef(z)
    return f"piece {pid} has location def:{z}"


def _location_out_of_step(state: GameState) -> str:
    z, pid = a_piece_in_a_zone(state)
    state.st.loc[pid] = z + 1
    return f"listed in zone {z} but located in {z + 1}"


def _piece_in_no_zone(state: GameState) -> str:
    z, pid = a_piece_in_a_zone(state)
    state.st.zone(z).remove(pid)
    return f"located in zone {z} but no zone lists it"


def _turn_order_not_the_players(state: GameState) -> str:
    state.st.turn_order = [0, 0, 1]
    return "turn order [0, 0, 1] is not every player once"


def _no_options(state: GameState) -> str:
    d = state.st.pending
    state.st.pending = type(d)(d.player, d.prompt, (), d.kind)
    return "has no options"


def _decision_for_no_seat(state: GameState) -> str:
    d = state.st.pending
    state.st.pending = type(d)(7, d.prompt, d.options, d.kind)
    return "is for player 7, not a seat"


def _over_with_a_decision(state: GameState) -> str:
    state.st.over = True
    return "the game is over, yet decision"


BREAKS: dict[str, Callable[[GameState], str]] = {f.__name__[1:]: f for f in (
    _above_max, _below_min, _game_counter_above_max, _bool_counter, _piece_in_two_zones, _int_like_piece_in_a_zone,
    _int_like_location, _location_out_of_step, _piece_in_no_zone, _turn_order_not_the_players, _no_options,
    _decision_for_no_seat, _over_with_a_decision)}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_each_broken_invariant_alone_is_reported(spec, name: str) -> None:
    state = fresh(spec)
    assert problems(state) == []
    expected = BREAKS[name](state)
    assert not _clean(state), f"the fast path calls the state clean with {name}"
    found = problems(state)
    assert any(expected in p for p in found), found


def test_counters_exactly_at_their_bounds_are_clean(spec) -> None:
    state = fresh(spec)
    i, lo, hi = item_slot(state)
    for value in (lo, hi):
        state.st.counters[i] = value
        assert _clean(state) and problems(state) == []
    state.st.counters[slot(state, "century")] = 3
    assert problems(state) == []
