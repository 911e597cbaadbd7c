"""Runtime values that are not plain ints, strings, bools or lists.

Players and pieces are ints (`nobody` is -1), symbols and counters of a counter set
are their names, lists are lists. These few need their own type."""

from __future__ import annotations

from typing import Any


class DefRef(int):
    """A card definition named in source by its content id (its index among the
    ruleset's definitions): `is` compares it with any of its copies."""

    def __repr__(self) -> str:
        return f"def:{int(self)}"


class EraValue(tuple):
    """An attribute's number given per era (`20/50/100` in YAML): read as the current era's."""

    def __repr__(self) -> str:
        return "/".join(str(v) for v in self)


class EffectRef:
    """An effect an item gives in an attribute (`ability`, an event's outcome, a
    track space's benefit): compiled code plus the item it runs as (`this`)."""

    __slots__ = ("code", "this", "label")

    def __init__(self, code: Any, this: int, label: str):
        self.code = code
        self.this = this
        self.label = label  # "ability of captain", for logs, saves and errors

    def __repr__(self) -> str:
        return f"effect:{self.label}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EffectRef) and other.code is self.code and other.this == self.this

    def __hash__(self) -> int:
        return hash((id(self.code), self.this))
