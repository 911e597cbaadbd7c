"""The state in three parts (interpreter/vm.py `State`): every slot is the game's data,
derived from it, or the run's; the game's data is all in the canonical form (so in the
fingerprint and what a save checks), and a clone and a restore carry every slot. A new
mechanism's slot that forgets one of these fails here."""

from __future__ import annotations

import random

from legacies.agents.bots import apply_random_option
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.vm import State
from legacies.interpreter.windows import PASSED
from legacies.pipeline.ruleset import load_ruleset


def _mid_game(name: str = "legacy", players: int = 3, decisions: int = 30) -> GameState:
    loaded = load_ruleset(name)
    assert loaded.spec is not None
    state = Game(loaded.spec, players).new_state(7)
    rng = random.Random(7)
    for _ in range(decisions):
        if state.is_terminal():
            break
        apply_random_option(state, rng)
    return state


def test_every_slot_is_in_exactly_one_part() -> None:
    parts = State.GAME_DATA + State.DERIVED + State.RUN
    assert len(parts) == len(set(parts)), "a slot in two parts"
    assert set(parts) == set(State.__slots__)


def test_the_canonical_form_holds_every_slot_of_the_games_data() -> None:
    state = _mid_game()
    state.st.ending = (0, "a test's ending")  # given only when set
    state.st.flags[PASSED] = (state.st.turns, (1,))  # ... as flags are
    assert set(State.GAME_DATA) <= set(state.canonical())


def test_a_change_of_any_part_of_the_games_data_changes_the_fingerprint() -> None:
    """One change per kind of slot, through the canonical form: a number, a list, a set,
    a dict of flags, the pending decision, the ending."""
    base = _mid_game()
    before = base.fingerprint()
    changes = {
        "counters": lambda st: st.counters.__setitem__(0, st.counters[0] + 1),
        "turns": lambda st: setattr(st, "turns", st.turns + 1),
        "revealed": lambda st: st.revealed.add(10_000),
        "flags": lambda st: st.flags.__setitem__(PASSED, (st.turns, (0,))),
        "fired": lambda st: st.fired.__setitem__("a trigger", 1),
        "ending": lambda st: setattr(st, "ending", (1, "why")),
        "rng": lambda st: setattr(st, "rng", st.rng + 1),
        "pending": lambda st: setattr(st, "pending", None),
    }
    for slot, change in changes.items():
        copy = base.clone()
        change(copy.st)
        assert copy.fingerprint() != before, f"a change of `{slot}` leaves the fingerprint as it was"
    assert base.fingerprint() == before


def test_the_seed_and_the_score_records_are_not_the_games_data() -> None:
    """Flags outside the canonical form leave the fingerprints of saves made before flags
    were in it as they were."""
    state = _mid_game()
    assert "seed" in state.st.flags and "flags" not in state.canonical()


def test_a_clone_and_a_restore_carry_every_slot() -> None:
    state = _mid_game()
    copy = state.st.clone()
    for slot in State.__slots__:
        getattr(copy, slot)  # set, not left empty
    for slot in State.GAME_DATA:
        mine, theirs = getattr(state.st, slot), getattr(copy, slot)
        if isinstance(mine, (list, set, dict)) and mine:
            assert mine is not theirs, f"a clone shares `{slot}`: a change to one changes the other"
    other = State.__new__(State)
    other.restore(copy)
    assert all(getattr(other, slot) is getattr(copy, slot) for slot in State.__slots__ if slot != "pending")
    # the pending decision is the same question, asked in the state restored (its words are made there)
    assert other.pending is not None and other.pending.is_in(other) and other.pending.player == copy.pending.player
    assert [o.value for o in other.pending.options] == [o.value for o in copy.pending.options]
