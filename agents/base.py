"""The agent protocol: given a game state whose pending decision is theirs, pick the
index of one legal option. Every agent is deterministic for a given seed."""

from __future__ import annotations

from typing import Protocol

from legacies.interpreter.game import GameState


class Agent(Protocol):
    name: str

    def choose(self, state: GameState) -> int:
        """The index of a legal option of `state.decision`."""
        ...
