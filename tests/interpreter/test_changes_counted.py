"""What a write counts as a change (interpreter/mechanics.py `adjust`, `set_value`): a counter
or a value written with what it holds is not changed, so what was computed from it and kept
(codegen's keep, State.versions) still stands; any other write counts, and a value that is
equal but reads differently (True for 1) or could change later (a list) is a change."""

from __future__ import annotations

import random

from legacies.agents.bots import apply_random_option
from legacies.interpreter import mechanics as mech
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset


def _mid_game() -> GameState:
    loaded = load_ruleset("leaders-legacy")
    assert loaded.spec is not None
    state = Game(loaded.spec, 4).new_state(3)
    rng = random.Random(3)
    for _ in range(20):
        apply_random_option(state, rng)
    return state


def _counts(state: GameState) -> tuple[list[int], list[int], list[int]]:
    st = state.st
    return st.versions[:], st.slot_versions[:], st.value_versions[:]


def test_a_counter_written_with_what_it_holds_is_not_a_change() -> None:
    state = _mid_game()
    st, lay = state.st, state.game.layout
    slot = lay.player_counter["gold"] + 1
    mech.adjust(st, slot, 1 - st.counters[slot])  # 1 gold
    before = _counts(state)
    mech.adjust(st, slot, 0)
    assert _counts(state) == before
    mech.adjust(st, slot, -5)  # to 0, past its floor
    after_floor = _counts(state)
    assert st.counters[slot] == 0 and after_floor[1][slot] > before[1][slot]
    mech.adjust(st, slot, -3)  # held at its floor: no change
    assert _counts(state) == after_floor
    mech.adjust(st, slot, 2)
    changed = _counts(state)
    assert st.counters[slot] == 2 and changed[1][slot] > after_floor[1][slot]
    assert changed[0][lay.counter_part[slot]] > after_floor[0][lay.counter_part[slot]]


def test_a_value_set_to_what_it_holds_is_not_a_change_unless_it_reads_differently() -> None:
    state = _mid_game()
    st, lay = state.st, state.game.layout
    province = lay.kind_pieces["province"][0]
    slot = lay.item_value[("province", "controller")] + lay.item_index[province]
    held = st.values[slot]
    assert type(held) is int
    before = _counts(state)
    mech.set_value(st, slot, held)
    assert _counts(state) == before and st.values[slot] == held
    other = 1 if held == 0 else 0
    mech.set_value(st, slot, other)
    moved = _counts(state)
    assert st.values[slot] == other and moved[2][slot] > before[2][slot]
    assert moved[0][lay.value_part[slot]] > before[0][lay.value_part[slot]]
    mech.set_value(st, slot, bool(other))  # equal, but a flag reads as yes or no, not a number
    flagged = _counts(state)
    assert st.values[slot] is bool(other) and flagged[2][slot] > moved[2][slot]
    mech.set_value(st, slot, [other])
    listed = _counts(state)
    mech.set_value(st, slot, [other])  # an equal list: a new one, which may be changed later
    assert _counts(state)[2][slot] > listed[2][slot]
