"""A seeded, serializable random number generator (SplitMix64).

One 64-bit integer is the whole state: cloning and saving a game copy an int, and the
same seed gives the same numbers on every machine and Python version (determinism)."""

from __future__ import annotations

MASK = (1 << 64) - 1


def next_state(state: int) -> tuple[int, int]:
    """Advance the state; return (new_state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) (rejection sampling, no modulo bias)."""
    limit = MASK - (MASK % n) if n > 0 else 0
    while True:
        state, x = next_state(state)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates in place; returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    return seed & MASK
