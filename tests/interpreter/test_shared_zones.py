"""A copy of a state shares each zone's list with its original until one of them
writes to it (State.zone, interpreter/vm.py): a copy costs the zones it changes. What
either does after the copy is never seen by the other."""

from __future__ import annotations

import random

from legacies.agents.bots import apply_random_option
from legacies.interpreter import mechanics as mech
from legacies.interpreter.game import Game, GameState, Undo
from legacies.interpreter.information import determinize
from legacies.pipeline.ruleset import load_ruleset


def _mid_game() -> GameState:
    state = Game(load_ruleset("legacies").spec, 4).new_state(3)
    rng = random.Random(3)
    for _ in range(40):
        apply_random_option(state, rng, undo=Undo.REPLAY)
    return state


def _zones(state: GameState) -> list[list[int]]:
    return [z[:] for z in state.st.zones]


def _a_move(state: GameState) -> tuple[int, int]:
    """A piece in some zone, and another zone to move it to."""
    st = state.st
    pid = next(p for p, z in enumerate(st.loc) if z >= 0)
    return pid, next(z for z in range(len(st.zones)) if z != st.loc[pid] and not st.game.layout.zone_in_play[z])


def test_a_copy_shares_the_zones_until_one_side_writes() -> None:
    original = _mid_game()
    before = _zones(original)
    copy = original.clone()
    assert all(a is b for a, b in zip(original.st.zones, copy.st.zones))  # nothing copied yet
    pid, dest = _a_move(copy)
    mech.move(copy.st, pid, dest)
    assert _zones(original) == before  # the copy's move is its own
    assert pid in copy.st.zones[dest] and pid not in original.st.zones[dest]
    untouched = [z for z in range(len(before)) if z not in (dest, original.st.loc[pid])]
    assert all(original.st.zones[z] is copy.st.zones[z] for z in untouched)


def test_the_original_writing_after_a_copy_leaves_the_copy_alone() -> None:
    original = _mid_game()
    copy = original.clone()
    kept = _zones(copy)
    pid, dest = _a_move(original)
    mech.move(original.st, pid, dest)
    deck = max(range(len(original.st.zones)), key=lambda z: len(original.st.zones[z]))
    mech.shuffle(original.st, deck)
    assert _zones(copy) == kept
    now = _zones(original)
    second = original.clone()  # copied again after it wrote: each of the three apart
    other, elsewhere = _a_move(second)
    mech.move(second.st, other, elsewhere)
    assert _zones(copy) == kept and _zones(original) == now


def test_a_sampled_world_and_a_game_played_on_leave_the_real_game_alone() -> None:
    real = _mid_game()
    before = _zones(real)
    world = determinize(real, 0, random.Random(9))
    rng = random.Random(9)
    for _ in range(30):
        if world.decision is None:
            break
        apply_random_option(world, rng, undo=Undo.NONE)
    assert _zones(real) == before
    assert real.fingerprint() == _mid_game().fingerprint()
