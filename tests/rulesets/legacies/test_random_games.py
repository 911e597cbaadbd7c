"""Legacies played to the end by random legal moves (the OpenSpiel-style random
simulation), 3 to 6 players, checking at every decision what must always hold:
tokens are conserved, share values stay on the track, every choice offered can be
taken, turn order follows Foundation at each generation's start; and at the end: six
generations, the end flag set, a score for every player and a winner by END-2."""

from __future__ import annotations

import random

import pytest

from legacies.agents.bots import apply_random_option
from legacies.interpreter import invariants, sandbox
from legacies.interpreter.game import Game

from .conftest import spec

TOKENS = {"relationship_tokens": 6, "major_tokens": 4, "minor_tokens": 4, "bidding_cubes": 1}


def value(state, source: str, player: int = 0):  # noqa: ANN001, ANN201 - a test helper
    return sandbox.value(state, source, player)


def held(state, word: str, player: int) -> int:  # noqa: ANN001
    """Every `word` token of `player`, wherever it is (mat, board, global action tiles)."""
    return value(state, f"count of ({word} where owner of it is me)", player)


@pytest.mark.rule("GEN-1", "GEN-2", "END-2", "REL-9", "INV-5")
@pytest.mark.parametrize("players,seed", [(3, 11), (4, 12), (5, 13), (6, 14)])
def test_a_random_game_keeps_every_invariant_to_its_end(players: int, seed: int) -> None:
    state = Game(spec(), players).new_state(seed)
    rng = random.Random(seed)
    generation = value(state, "generation")
    steps = started = 0
    while state.decision is not None:
        assert state.decision.options, f"no option at {state.decision.prompt}"
        index, _ = apply_random_option(state, rng)
        assert index is not None, f"every option refused at {state.decision.prompt}: {state.decision.labels()}"
        steps += 1
        assert steps < 5000, "a game of Legacies runs far shorter than this"
        if steps % 10 == 0 or state.decision is None:
            assert invariants.problems(state) == []
            for p in range(players):
                for word, count in TOKENS.items():
                    assert held(state, word, p) == count, (word, p, steps)
            spaces = [value(state, f"{x}'s space") for x in ("law", "theater", "science", "military", "tourism")]
            assert all(1 <= s <= 15 for s in spaces)
        now = value(state, "generation")
        if now != generation and state.decision is not None:  # a new generation: turn order by Foundation
            generation, started = now, started + 1
            order = state.st.turn_order
            foundations = [value(state, "my foundation", p) for p in order]
            assert foundations == sorted(foundations, reverse=True), (now, foundations)
    assert value(state, "generation") == 6 and state.st.over and started == 6  # all six generations checked
    scores = state.scores()
    assert len(scores) == players and all(isinstance(s, int) for s in scores)
    best = max(scores)
    leaders = [p for p in range(players) if scores[p] == best]
    assert state.winner() in leaders
    # END-2: among the leaders, the larger Foundation wins
    top = max(value(state, "my foundation", p) for p in leaders)
    assert value(state, "my foundation", state.winner()) == top
