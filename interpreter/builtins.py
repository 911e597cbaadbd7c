"""What each builtin of the language computes (their names, forms, types and wording
are declared in dsl/constructs.py: dsl/ declares, interpreter/ runs).

`RUN[name](st, me, *values)` gets the state, the acting player and its arguments'
values (the closures and the generated code call it alike); `FOR_PLAYER[name](st, me,
player)` is the form used when the argument is a player (`name of P`, `position of P`). A builtin the
compiler builds itself (`possible`: it reads the compiled actions) has no entry here.
"""

from __future__ import annotations

from typing import Any, Callable

from . import mechanics as mech
from .errors import ContentError
from .frames import innermost_turns
from .layout import PART_ACTIVE, PART_COUNTERS, PART_ORDER, PART_PIECES
from .vm import State

NOBODY = -1  # the player value of `nobody`: guarded wherever a player is used as one


def position(st: State, x: Any) -> int:
    """A token's space on its track (1-based; 0 when it is on none)."""
    if type(x) is int and 0 <= x < len(st.loc):
        track = st.game.layout.zone_track[st.loc[x]] if st.loc[x] >= 0 else None
        return track[1] + 1 if track else 0
    return 0


def holder(st: State, x: Any) -> Any:
    """The piece (a board item, or a card that holds pieces) whose track or holder a
    piece is on (None when on none)."""
    if type(x) is not int or not 0 <= x < len(st.loc) or st.loc[x] < 0:
        return None
    lay = st.game.layout
    track = lay.zone_track[st.loc[x]]
    if track is not None:
        return track[0]
    return lay.zone_holder.get(st.loc[x])


def turn_position(st: State, p: int) -> int:
    return st.turn_order.index(p) + 1 if p in st.turn_order else 0


def era(st: State) -> int:
    slot = st.game.era_slot
    return st.counters[slot] if slot >= 0 else 1


def final_round(st: State) -> bool:
    f = innermost_turns(st)
    return f is not None and f.final_from >= 0


def _held(st: State, me: int, counter: str, player: int | None = None) -> int:
    p = me if player is None else player
    if p < 0:
        raise ContentError(f"nobody holds `{counter}`: the player here is nobody")
    return int(st.counters[st.game.layout.player_counter[counter] + p])


def _count(st: State, me: int, xs: Any) -> int:
    if type(xs) is int:  # a zone id
        return len(st.zones[xs])
    return len(xs)


RUN: dict[str, Callable[..., Any]] = {
    "me": lambda st, me: me,
    "active_player": lambda st, me: st.active,
    "nobody": lambda st, me: NOBODY,
    "players": lambda st, me: list(st.turn_order),
    "opponents": lambda st, me: [p for p in st.turn_order if p != me],
    "final_round": lambda st, me: final_round(st),
    "era": lambda st, me: era(st),
    "player_count": lambda st, me: st.game.players,
    "count": _count,
    "owner": lambda st, me, x: mech.owner(st, x),
    "track": lambda st, me, x: x,
    "holder": lambda st, me, x: holder(st, x),
    "name": lambda st, me, x: mech.describe(st, x),
    "position": lambda st, me, x: position(st, x),
    "max": lambda st, me, *xs: max(xs),
    "min": lambda st, me, *xs: min(xs),
    "held": _held,
    "affordable": lambda st, me, card, zone: mech.can_pay(st, card, zone),
    "playable": lambda st, me, card: mech.playable(st, card, me),
}

FOR_PLAYER: dict[str, Callable[..., Any]] = {
    "name": lambda st, me, p: mech.player_name(st, p),
    "position": lambda st, me, p: turn_position(st, p),
}

READS: dict[str, tuple[int, ...] | None] = {
    "me": (),
    "active_player": (PART_ACTIVE,),
    "nobody": (),
    "players": (PART_ORDER,),
    "opponents": (PART_ORDER,),
    "final_round": None,  # the frames: nothing counts their changes
    "era": (PART_COUNTERS,),
    "player_count": (),
    "count": (PART_PIECES,),  # a zone's size (a collection's is its own)
    "owner": (PART_PIECES,),  # a card's owner is its zone's
    "track": (),
    "holder": (PART_PIECES,),  # where a piece lies
    "name": (),  # a piece's or a player's name never changes
    "position": (PART_PIECES,),  # a token's space
    "max": (),
    "min": (),
    "held": (PART_COUNTERS,),  # a counter named by a value: any counter's change
    "affordable": (PART_PIECES,),  # the cards of a zone that pay (a card's cost is printed)
    "playable": None,  # a card's `requires:`, any condition
}
"""What each builtin reads of the state, one row per builtin of RUN: the parts that
count its changes (interpreter/layout.py, State.versions), by which a result worked
out from it is kept across menus (codegen's stamps); None: it cannot say, and such a
result is remembered within a menu only."""

READS_FOR_PLAYER: dict[str, tuple[int, ...] | None] = {  # one row per builtin of FOR_PLAYER
    "name": (),
    "position": (PART_ORDER,),  # a player's place in the turn order
}
