"""Determinization: what a player sees is kept, what they cannot see is reshuffled."""

from __future__ import annotations

import random
from collections import Counter

from legacies.interpreter.game import Game
from legacies.interpreter.information import determinize, hidden_zones
from legacies.interpreter.invariants import problems
from legacies.pipeline.ruleset import load_ruleset


def test_determinize_keeps_the_players_view_and_moves_the_unseen() -> None:
    spec = load_ruleset("legacy").spec
    s = Game(spec, 3).new_state(4)
    for _ in range(20):
        s.apply(0)
    me = s.decision.player
    before = s.canonical()
    changed = 0
    for seed in range(5):
        world = determinize(s, me, random.Random(seed))
        assert problems(world) == []
        assert world.view(me) == s.view(me)  # nothing the player can see differs
        lay = s.game.layout
        for z in hidden_zones(s, me):
            kinds = lambda st: Counter(spec.defs[lay.piece_def[p]].kind for p in st.zones[z])  # noqa: E731
            assert kinds(world.st) == kinds(s.st)  # same sizes, same kinds per zone
            changed += world.st.zones[z] != s.st.zones[z]
        assert world.st.rng != s.st.rng
    assert changed > 0  # the unseen cards really moved
    assert s.canonical() == before  # the original is untouched
