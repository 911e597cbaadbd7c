"""`KIND in SOURCE` at run time: the pieces of a kind in a zone, on an item, or taken
from a collection of items (dsl/checker.py decides which, `resolution.Selection`).

From a collection of items the checker has chosen one of three readings: the members
of the kind (a filter), the pieces on each item (the tokens on a track or a holder:
`markers in my character's rivals`), or, when the collection's kind is not
known, member by member: a member of the kind stays, an item that holds pieces gives
those of the kind on it. Never the items counted as if they were their tokens.

`top of` / `bottom of` such a selection from a zone reads it as the zone is read: from
its top (`pile_end`)."""

from __future__ import annotations

from typing import Any, Callable

from legacies.dsl import resolution as r

from . import mechanics as mech
from .budget import spend, walked
from .compile.context import indexable
from .errors import ContentError
from .values import DefRef
from .vm import Activation, State

Fn = Callable[[Activation], Any]


def select(src: Fn, source_tag: str, sel: r.Selection | None, piece_kind: list[str],
           def_kind: list[str], piece_class: dict[str, str]) -> Fn:
    """The closure for `KIND in SOURCE`: `src` computes the source (a zone, zones, an
    item or a collection of items, by `source_tag`); `piece_kind` is each piece's kind,
    `def_kind` each card definition's, `piece_class` each kind's class (card, board, token).
    Every walk is charged to the step budget (interpreter/budget.py; `pieces_on` charges its own)."""
    kind = sel.kind if sel is not None else None
    if sel is not None and source_tag in ("things", "table"):
        return _from_items(src, sel, piece_kind, def_kind, piece_class)
    if kind:
        if source_tag == "zone":
            return lambda a: [p for p in walked(a.st, a.st.zones[src(a)]) if piece_kind[p] == kind]
        if source_tag == "zones":
            return lambda a: [p for z in src(a) for p in walked(a.st, a.st.zones[z]) if piece_kind[p] == kind]
        return lambda a: [p for p in mech.pieces_on(a.st, src(a)) if piece_kind[p] == kind]
    if source_tag == "zone":
        return lambda a: walked(a.st, a.st.zones[src(a)])[:]
    if source_tag == "zones":
        return lambda a: [p for z in src(a) for p in walked(a.st, a.st.zones[z])]
    if source_tag in ("things", "table"):
        return lambda a: list(walked(a.st, src(a)))
    return lambda a: mech.pieces_on(a.st, src(a))


def wanted_tables(sel: r.Selection, piece_kind: list[str], def_kind: list[str],
                  piece_class: dict[str, str]) -> tuple[list[bool], list[bool]]:
    """Whether each piece, and each card definition (a card named in source), is of the
    selection's kind, or of its class for a generic noun (`cards`, `tokens`)."""
    kind, cls = sel.kind, sel.piece

    def wanted(kind_name: str) -> bool:
        return kind_name == kind if kind else (cls is None or piece_class.get(kind_name) == cls)
    return [wanted(k) for k in piece_kind], [wanted(k) for k in def_kind]


def member_or_held(st: State, items: list, by_piece: list[bool], by_def: list[bool]) -> list:
    """The "either" reading of `KIND in ITEMS` (items walked by the caller): a member of
    the kind stays, an item that holds pieces gives the ones of the kind on it."""
    lay = st.game.layout
    out: list = []
    for x in items:
        if by_def[int(x)] if isinstance(x, DefRef) else by_piece[x]:
            out.append(x)
        elif not isinstance(x, DefRef) and (x in lay.holder_zone or x in lay.track_zones):
            out.extend(p for p in mech.pieces_on(st, x) if by_piece[p])
    return out


def _from_items(src: Fn, sel: r.Selection, piece_kind: list[str], def_kind: list[str],
                piece_class: dict[str, str]) -> Fn:
    by_piece, by_def = wanted_tables(sel, piece_kind, def_kind, piece_class)
    if sel.on == "on":  # the pieces on each item
        return lambda a: [p for x in walked(a.st, src(a)) for p in mech.pieces_on(a.st, x) if by_piece[p]]
    if sel.on == "either":
        return lambda a: member_or_held(a.st, walked(a.st, src(a)), by_piece, by_def)
    if sel.kind is None and sel.piece is None:
        return lambda a: list(walked(a.st, src(a)))
    return lambda a: [x for x in walked(a.st, src(a)) if (by_def[int(x)] if isinstance(x, DefRef) else by_piece[x])]


def pile_end(src: Fn, count: Fn | None, top: bool, end: str) -> Fn:
    """`top [N] of` / `bottom [N] of` pieces selected from a zone, read as the zone is:
    the top is the end of the list; `top N` lists the topmost first."""
    if count is None:
        return lambda a: pile_piece(src(a), end)
    return lambda a: pile_pieces(list(src(a)), count(a), top)


def pile_piece(items: list, end: str) -> Any:
    """The top (the last) or bottom (the first) of pieces selected from a zone."""
    if not items:
        raise ContentError(f"there is no {end} piece: none is selected (check `... is not empty` first)")
    return items[-1] if end == "top" else items[0]


def pile_pieces(items: list, n: int, top: bool) -> list:
    """The top N (the topmost first) or bottom N of pieces in zone order."""
    n = max(0, n)
    return list(reversed(items[-n:])) if top and n else (items[:n] if n else [])


def zone_piece(z: list, end: str) -> int:
    """`top of ZONE` / `bottom of ZONE`: its last or first piece."""
    if not z:
        raise ContentError(f"there is no {end} piece: the zone is empty (check `ZONE is not empty` first)")
    return z[-1] if end == "top" else z[0]


def zone_pieces(st: State, z: list, n: int, top: bool) -> list:
    """`top N of ZONE` / `bottom N of ZONE`, each piece taken charged to the step budget."""
    spend(st, min(max(0, n), len(z)))
    return pile_pieces(z, n, top)


def member(items: Any, end: str) -> Any:
    """`top of` / `bottom of` a collection: its first or last member."""
    items = indexable(items)
    if not items:
        raise ContentError(f"there is no {end} member: the collection is empty "
                           "(check `... is not empty` first)")
    return items[0] if end == "top" else items[-1]


def members(st: State, items: Any, n: int, top: bool) -> list:
    """`top N of` / `bottom N of` a collection: its first or last N members, each charged."""
    items = indexable(items)
    n = max(0, n)
    spend(st, min(n, len(items)))
    return list(items[:n] if top else (items[-n:] if n else []))
