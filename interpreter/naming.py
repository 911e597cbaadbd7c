"""How a value reads to a player: a piece, a card named in source, a player, a symbol,
a number, an effect. Used by the state, the mechanisms, frames and the compiled code
alike, so it depends on none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .values import DefRef, EffectRef

if TYPE_CHECKING:  # pragma: no cover
    from .vm import State


def player_name(st: State, p: int) -> str:
    names = st.game.player_names
    return names[p] if 0 <= p < len(names) else "nobody"


def number_name(st: State, x: Any) -> str:
    """A number as a player reads it (a number is never a piece's id here)."""
    return str(x)


def namer_for(tag: str) -> "Callable[[State, Any], str]":
    """How a value of a type (its checker tag) reads: players and numbers are ints, so
    they read as players and numbers, never as the pieces with those numbers."""
    if tag == "player":
        return player_name
    if tag == "players":
        return lambda st, xs: ", ".join(player_name(st, p) for p in xs)
    if tag == "amount":
        return number_name
    return describe


def describe(st: State, x: Any) -> str:
    """A player-facing label for a value (a piece, a player, a symbol)."""
    if isinstance(x, DefRef):
        return st.game.spec.defs[int(x)].name
    if isinstance(x, bool) or x is None:
        return str(x)
    if isinstance(x, int):
        names = st.game.piece_names
        return names[x] if 0 <= x < len(names) else str(x)
    if isinstance(x, str):
        return st.game.spec.vocab.label(x)
    if isinstance(x, EffectRef):
        return x.label
    if isinstance(x, (list, tuple)):
        return ", ".join(describe(st, y) for y in x)
    return str(x)
