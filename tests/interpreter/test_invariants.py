"""The invariant checker finds what is wrong and nothing when all is well."""

from __future__ import annotations

from legacies.interpreter.game import Game
from legacies.interpreter.invariants import problems
from legacies.pipeline.ruleset import load_ruleset


def test_a_fresh_game_has_no_problems() -> None:
    s = Game(load_ruleset("legacy").spec, 3).new_state(0)
    assert problems(s) == []


def test_each_broken_invariant_is_reported() -> None:
    s = Game(load_ruleset("legacy").spec, 3).new_state(0)
    st, lay = s.st, s.game.layout
    hand = lay.player_zone["hand"]
    pid = st.zones[hand][0]
    st.zone(hand + 1).append(pid)  # one card in two hands
    st.counters[lay.player_counter["points"]] = -3  # below its minimum
    found = problems(s)
    assert any(f"piece {pid} is in zones" in p for p in found)
    assert any("points[0] = -3" in p for p in found)
