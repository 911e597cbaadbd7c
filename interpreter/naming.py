"""How a value reads to a player: a piece, a card named in source, a player, a symbol,
a number, an effect. Used by the state, the mechanisms, frames and the compiled code
alike, so it depends on none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .values import DefRef, EffectRef

if TYPE_CHECKING:  # pragma: no cover
    from .vm import State


def player_name(st: State, p: int) -> str:
    names = st.game.player_names
    return names[p] if 0 <= p < len(names) else "nobody"


def zone_words(st: State, zone: int) -> str:
    """A zone as a player reads it: "the legacy deck", "P2's discard pile" (its label)."""
    lay = st.game.layout
    name = lay.zone_name[zone]
    label = st.game.spec.vocab.label(name)
    if name in lay.player_zone:
        return f"{player_name(st, zone - lay.player_zone[name])}'s {label}"
    return label if label.lower().startswith(("the ", "this ")) else "the " + label


def number_name(st: State, x: Any) -> str:
    """A number as a player reads it (a number is never a piece's id here)."""
    return str(x)


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
