"""Bots, weakest first.

- RandomBot: a uniformly random legal option (seeded).
- RolloutBot: flat Monte Carlo search: for each option, play `rollouts` random games
  to the end from it and pick the option with the best mean result for itself (win = 1,
  plus a small share of its score lead). It does not peek: each rollout starts from a
  determinization (interpreter.information), a world where every card it cannot see is
  shuffled among the unseen cards of its kind. Options the rules refuse are skipped.
"""

from __future__ import annotations

import random
from typing import Callable

from legacies.interpreter.errors import Refused
from legacies.interpreter.game import GameState
from legacies.interpreter.information import determinize

from .base import Agent


class RandomBot:
    def __init__(self, seed: int = 0, name: str = "random"):
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> int:
        d = state.decision
        assert d is not None
        return self.rng.randrange(len(d.options))


def apply_random_option(state: GameState, rng: random.Random, undo: bool | str = True) -> tuple[int | None, int]:
    """Apply a random option the rules accept (transactionally: a refused one changes
    nothing and the next is tried). Returns (the option applied or None if the rules
    refused them all, how many were refused)."""
    d = state.decision
    assert d is not None
    order = list(range(len(d.options)))
    rng.shuffle(order)
    for refused, index in enumerate(order):
        try:
            state.apply(index, undo=undo)
            return index, refused
        except Refused:
            continue
    return None, len(order)


def random_playout(state: GameState, rng: random.Random, max_decisions: int = 5000) -> GameState:
    """Play random legal options to the end on a throwaway copy: no undo backups; a
    refused option ends the playout where it stands (the copy is only evaluated)."""
    for _ in range(max_decisions):
        d = state.decision
        if d is None:
            break
        try:
            state.apply(rng.randrange(len(d.options)), undo=False)
        except Refused:
            break
    return state


class RolloutBot:
    def __init__(self, seed: int = 0, rollouts: int = 8, name: str | None = None):
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.name = name or f"rollout{rollouts}"

    def value(self, state: GameState, me: int) -> float:
        scores = state.scores()
        best_other = max((s for p, s in enumerate(scores) if p != me), default=0)
        lead = scores[me] - best_other
        return (1.0 if state.is_terminal() and state.winner() == me else 0.0) + 0.01 * lead

    def choose(self, state: GameState) -> int:
        d = state.decision
        assert d is not None
        if len(d.options) == 1:
            return 0
        me = d.player
        best, best_index = float("-inf"), 0
        worlds = [determinize(state, me, self.rng) for _ in range(self.rollouts)]
        for index in range(len(d.options)):
            total = 0.0
            try:
                for world in worlds:
                    child = world.clone()
                    child.apply(index)
                    total += self.value(random_playout(child, self.rng), me)
            except Refused:
                continue
            mean = total / self.rollouts
            if mean > best:
                best, best_index = mean, index
        return best_index


BOTS: dict[str, Callable[[int], Agent]] = {
    "random": lambda seed: RandomBot(seed),
    "rollout": lambda seed: RolloutBot(seed, rollouts=4),
    "strong": lambda seed: RolloutBot(seed, rollouts=16, name="strong"),
}
