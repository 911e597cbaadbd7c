"""Who is "to play" in the seat's view: the player whose turn runs, and nobody between
turns (Gears of Time's Refresh asks each player for a spot on the turn-order track while no
turn runs: the last turn's player was marked "to play" though another was asked)."""

from __future__ import annotations

import random

from legacies.interpreter.frames import innermost_turns
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset
from legacies.view.build import seat_view


def test_nobody_is_to_play_between_turns_and_the_turns_player_is_during_one() -> None:
    spec = load_ruleset("gears-of-time").spec
    assert spec is not None
    state = Game(spec, 3).new_state(1)
    rng = random.Random(1)
    between = during = 0
    while state.decision is not None and (not between or not during):
        st = state.st
        view = seat_view(state, state.decision.player)
        marked = [p.index for p in view.players if p.to_play]
        if innermost_turns(st) is None:
            if st.turns:  # a Refresh, after the first round's turns
                assert marked == [], f"between turns nobody is to play: {marked} at {view.decision}"
                between += 1
        else:
            assert marked == [st.active]
            during += 1
        state.apply(rng.randrange(len(state.decision.options)))
    assert between and during
