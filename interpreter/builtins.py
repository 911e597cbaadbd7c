"""What each builtin of the language computes (their names, forms, types and wording
are declared in dsl/constructs.py: dsl/ declares, interpreter/ runs).

`RUN[name](a, *values)` gets the running Activation `a` (`a.st` the state, `a.me` the
acting player) and its arguments' values; `FOR_PLAYER[name](a, player)` is the form
used when the argument is a player (`name of P`, `position of P`). A builtin the
compiler builds itself (`possible`: it reads the compiled actions) has no entry here.
"""

from __future__ import annotations

from typing import Any, Callable

from . import mechanics as mech
from .errors import ContentError
from .frames import innermost_turns
from .vm import Activation, State

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


def _held(a: Activation, counter: str, player: int | None = None) -> int:
    p = a.me if player is None else player
    if p < 0:
        raise ContentError(f"nobody holds `{counter}`: the player here is nobody")
    return int(a.st.counters[a.st.game.layout.player_counter[counter] + p])


def _count(a: Activation, xs: Any) -> int:
    if type(xs) is int:  # a zone id
        return len(a.st.zones[xs])
    return len(xs)


RUN: dict[str, Callable[..., Any]] = {
    "me": lambda a: a.me,
    "active_player": lambda a: a.st.active,
    "nobody": lambda a: NOBODY,
    "players": lambda a: list(a.st.turn_order),
    "opponents": lambda a: [p for p in a.st.turn_order if p != a.me],
    "final_round": lambda a: final_round(a.st),
    "era": lambda a: era(a.st),
    "player_count": lambda a: a.st.game.players,
    "count": _count,
    "owner": lambda a, x: mech.owner(a.st, x),
    "track": lambda a, x: x,
    "holder": lambda a, x: holder(a.st, x),
    "name": lambda a, x: mech.describe(a.st, x),
    "position": lambda a, x: position(a.st, x),
    "max": lambda a, *xs: max(xs),
    "min": lambda a, *xs: min(xs),
    "held": _held,
    "affordable": lambda a, card, zone: mech.can_pay(a.st, card, zone),
    "playable": lambda a, card: mech.playable(a.st, card, a.me),
}

FOR_PLAYER: dict[str, Callable[..., Any]] = {
    "name": lambda a, p: mech.player_name(a.st, p),
    "position": lambda a, p: turn_position(a.st, p),
}
