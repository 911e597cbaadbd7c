"""Errors raised while a game is set up or played, in two families that never mix:

- GameError: the rules or the table say no. `Refused` (the rules forbid this option:
  shown to the player, who tries again; the state is exactly as it was), with
  `IllegalChoice` (not one of the offered options); `TableError` (a player count or an
  option the ruleset does not allow); `CorruptSave` (a save that cannot be loaded
  exactly).
- InternalError: a bug in the engine or in the content (an effect used `nobody` as a
  player, did arithmetic on a missing attribute, ran past the step budget...). It is
  never a refusal: it stops the game, names the content item and its file:line:column,
  and fails every test and simulation. `ContentError` is one raised on purpose by
  compiled code; `BudgetExceeded` one for an effect that does not stop.

Both carry `where` (a Where: which item, which file, which line) when one is known,
filled by `locate` (the one place an error gets its place), and both derive from
dsl/errors.py's LegaciesError.
"""

from __future__ import annotations

from dataclasses import dataclass

from legacies.dsl.errors import LegaciesError


@dataclass(frozen=True, slots=True)
class Where:
    """A place in the content: what it is ("card `storm` (Storm)", "action `build`"), the
    file and the 1-based line and column of the statement."""

    what: str
    file: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        place = ""
        if self.file:
            place = self.file
            if self.line:
                place += f":{self.line}"
                if self.column:
                    place += f":{self.column}"
        return f"{place}: in {self.what}" if place else f"in {self.what}"


class GameError(LegaciesError):
    """The rules or the table refuse something; nothing changed."""

    def __init__(self, message: str, where: object = None):
        super().__init__(message)
        self.where = where


class Refused(GameError):
    """An option the rules do not allow (e.g. paying more than the player has)."""


class IllegalChoice(Refused):
    """The chosen option is not among the legal ones."""


class TableError(GameError):
    """A game the ruleset cannot set up as asked (player count, an option's value)."""

    usage = True


class CorruptSave(GameError):
    """A save file that cannot be loaded exactly; nothing was loaded."""


class InternalError(LegaciesError):
    """A bug in the engine or the content: the game cannot go on."""

    def __init__(self, message: str, where: Where | None = None, running: tuple[str, ...] = ()):
        super().__init__(message)
        self.message = message
        self.where = where
        self.running = running  # what was running (items, events), innermost first

    def __str__(self) -> str:
        text = self.message
        if self.where is not None:
            text = f"{self.where}: {text}"
        if self.running:
            text += " (running: " + "; ".join(self.running) + ")"
        return text


class ContentError(InternalError):
    """The content asked for something that cannot be: `nobody`'s gold, a missing
    attribute in arithmetic, a zone that is empty where a piece was expected..."""


class BudgetExceeded(InternalError):
    """The step budget ran out: an effect (or a trigger loop) did too much for one decision."""


def locate(err: BaseException, where: Where | None, running: tuple[str, ...] = ()) -> BaseException:
    """The one way an error met while running gets its place: an InternalError keeps the
    place it has and is given `where` (and what was `running`) otherwise; a refusal is
    the rules' answer and goes on as it is; any other exception is a bug, never a
    refusal, and becomes an InternalError at `where` (its cause the original). Returns
    the error to raise."""
    if isinstance(err, Refused):
        return err
    if isinstance(err, InternalError):
        if err.where is None:
            err.where = where
        if not err.running:
            err.running = running
        return err
    located = InternalError(f"{type(err).__name__}: {err}", where)
    located.__cause__ = err
    return located
