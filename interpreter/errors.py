"""Errors raised while a game runs. Each carries a message for the player and, where
one exists, the source span of the effect that failed. The State API turns them into a
refusal that leaves the game exactly as it was (transactions)."""

from __future__ import annotations


class GameError(Exception):
    """Something the rules do not allow happened while running an effect."""

    def __init__(self, message: str, where: object = None):
        super().__init__(message)
        self.where = where


class Refused(GameError):
    """An action the player asked for is not allowed (e.g. paying more than they have)."""


class BudgetExceeded(GameError):
    """The step budget ran out: an effect did too much work for one decision."""


class IllegalChoice(GameError):
    """The chosen option is not among the legal ones."""


class CorruptSave(GameError):
    """A save file that cannot be loaded exactly; nothing was loaded."""
