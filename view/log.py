"""The table's log as records: each line written for everyone or for some seats only
(a card drawn into a hand is named to its holder, counted to the others). A face never
reads the records directly: the seat's view (view/build.py) keeps the ones written for
its seat. agents/chronicle.py writes them as a game is played."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .model import Entry

KINDS = ("turn", "choice", "rules", "change", "table")


@dataclass(frozen=True, slots=True)
class LogRecord:
    decision: int  # decisions made when it was written
    turn: int  # the turn it belongs to (0: the setup)
    kind: str  # turn | choice | rules | change | table
    text: str
    player: int = -1  # who chose (a choice), else -1
    readers: frozenset[int] | None = None  # the seats it is written for; None: everyone

    def entry(self) -> Entry:
        return Entry(decision=self.decision, turn=self.turn, kind=self.kind, text=self.text)  # type: ignore[arg-type]


def readable(log: Sequence[LogRecord], seat: int) -> list[LogRecord]:
    """The records seat `seat` may read, in order."""
    return [r for r in log if r.readers is None or seat in r.readers]
