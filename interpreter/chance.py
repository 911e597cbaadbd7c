"""Chance in the effect language: `pick at random N COLLECTION as V`.

A pick is not a decision: nobody is asked and nothing is offered, so no player learns
anything from it but what the rules then show. It draws from the state's own seeded
generator (interpreter/rng.py), the game's only randomness: the same seed and decisions
pick the same members, and a search bot's sampled worlds (interpreter/information.py),
which reseed that generator, cannot foresee the pick."""

from __future__ import annotations

from typing import Any

from . import rng
from .vm import State


def pick(st: State, pool: list[Any], n: int) -> list[Any]:
    """`n` members of `pool` at distinct places, uniformly, in the order drawn (all of them,
    shuffled, when there are no more than `n`; none for `n` <= 0): the first `n` steps of a
    Fisher-Yates shuffle. `pool` is reordered in place."""
    k = min(max(n, 0), len(pool))
    state = st.rng
    for i in range(k):
        state, j = rng.below(state, len(pool) - i)
        pool[i], pool[i + j] = pool[i + j], pool[i]
    st.rng = state
    return pool[:k]
