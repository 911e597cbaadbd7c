"""Properties every state of every game must have, as a checker that returns what is
wrong (empty when all is well). The soak run and the random-simulation test use it
after every decision, so the common case is fast: a few whole-list comparisons decide
that all is well, and only then is nothing more done; otherwise every problem is
looked for and worded."""

from __future__ import annotations

import weakref
from typing import Any

from .game import GameState
from .layout import Layout

# per layout (by id, dropped with the layout): the zone of each piece when in no zone
# (-1), the number of board items, the counters with a lower bound, with an upper bound
Plan = tuple[list[int], int, list[tuple[int, int]], list[tuple[int, int]]]
_PLANS: dict[int, Plan] = {}
_INT = {int}


def _plan(lay: Layout) -> Plan:
    plan = _PLANS.get(id(lay))
    if plan is None:
        board = sum(1 for z in lay.piece_start if z < 0)
        lows = [(i, lo) for i, lo in enumerate(lay.counter_min) if lo is not None]
        highs = [(i, hi) for i, hi in enumerate(lay.counter_max) if hi is not None]
        plan = _PLANS[id(lay)] = ([-1] * len(lay.piece_def), board, lows, highs)
        weakref.finalize(lay, _PLANS.pop, id(lay), None)
    return plan


def _clean(state: GameState) -> bool:
    """All is well (the fast path): every list has its size, every piece is where its
    zone says, counters are ints within bounds, the decision and the end agree."""
    st = state.st
    lay = state.game.layout
    blank, board, lows, highs = _plan(lay)
    _int = int
    n = len(blank)
    if len(st.loc) != n or len(st.zones) != len(lay.zone_name) or len(st.counters) != lay.n_counters:
        return False
    where = blank[:]
    placed = 0
    if set(map(type, st.loc)) - _INT:  # a bool or a card name would index like a zone
        return False
    try:
        for z, pieces in enumerate(st.zones):
            if not pieces:
                continue
            placed += len(pieces)
            for pid in pieces:  # each piece once, an int (a bool or a card name would index like one)
                if where[pid] != -1 or pid.__class__ is not _int or pid < 0:
                    return False
                where[pid] = z
    except (IndexError, TypeError):
        return False
    if placed != n - board or where != st.loc:  # board items: -1 in both; the others: in exactly their zone
        return False
    if sorted(st.turn_order) != list(range(state.game.players)):
        return False
    counters: list[Any] = st.counters
    if set(map(type, counters)) - {int}:
        return False
    if any(counters[i] < lo for i, lo in lows) or any(counters[i] > hi for i, hi in highs):
        return False
    if lay.per_copy and _stateful_off_table(state):
        return False
    d = st.pending
    if d is None:
        return not st.frames and st.over
    return bool(d.options) and 0 <= d.player < state.game.players and not st.over


def _stateful_off_table(state: GameState) -> list[str]:
    """Pieces off the table that still hold something or whose own counters or values are
    not as they started (mechanics.release gives them up when they leave the table)."""
    st, lay = state.st, state.game.layout
    out = []
    for pid, (counters, values) in lay.piece_slots.items():
        z = st.loc[pid]
        if z < 0 or lay.zone_table[z]:
            continue
        if any(st.zones[h] for h in lay.piece_zones.get(pid, ())) \
                or any(st.counters[s] != lay.counter_start[s] for s in counters) \
                or any(st.values[s] != lay.value_start[s] for s in values):
            out.append(f"piece {pid} is off the table ({lay.zone_name[z]}) but keeps state of its own")
    return out


def problems(state: GameState) -> list[str]:
    if _clean(state):
        return []
    st = state.st
    lay = state.game.layout
    out: list[str] = []
    n_pieces = len(lay.piece_def)
    if len(st.loc) != n_pieces:
        out.append(f"{len(st.loc)} piece locations for {n_pieces} pieces")
    if len(st.zones) != len(lay.zone_name):
        out.append(f"{len(st.zones)} zones, the layout has {len(lay.zone_name)}")
    if len(st.counters) != lay.n_counters:
        out.append(f"{len(st.counters)} counters, the layout has {lay.n_counters}")
    seen: dict[int, int] = {}
    for z, pieces in enumerate(st.zones):
        for pid in pieces:
            if type(pid) is not int or not 0 <= pid < len(st.loc):
                out.append(f"zone {z} holds unknown piece {pid!r}")
                continue
            if pid in seen:
                out.append(f"piece {pid} is in zones {seen[pid]} and {z}")
            seen[pid] = z
            if st.loc[pid] != z:
                out.append(f"piece {pid} is listed in zone {z} but located in {st.loc[pid]}")
    for pid, z in enumerate(st.loc[:n_pieces]):
        if type(z) is not int:
            out.append(f"piece {pid} has location {z!r}")
            continue
        board = lay.piece_start[pid] < 0  # a board item: never in a zone
        if board and (z != -1 or pid in seen):
            out.append(f"board item {pid} is in zone {seen.get(pid, z)}")
        elif z >= 0 and pid not in seen:
            out.append(f"piece {pid} is located in zone {z} but no zone lists it")
        elif z < 0 and not board:
            out.append(f"piece {pid} is in no zone")
    for slot, value in enumerate(st.counters[:lay.n_counters]):
        lo, hi = lay.counter_min[slot], lay.counter_max[slot]
        if type(value) is not int:
            out.append(f"counter {lay.counter_label[slot]} holds {value!r}")
        elif (lo is not None and value < lo) or (hi is not None and value > hi):
            out.append(f"counter {lay.counter_label[slot]} = {value} is outside [{lo}, {hi}]")
    if lay.per_copy:
        out += _stateful_off_table(state)
    if sorted(st.turn_order) != list(range(state.game.players)):
        out.append(f"turn order {st.turn_order} is not every player once")
    d = st.pending
    if d is not None:
        if not d.options:
            out.append(f"decision {d.prompt!r} has no options")
        if not 0 <= d.player < state.game.players:
            out.append(f"decision {d.prompt!r} is for player {d.player}, not a seat")
        if st.over:
            out.append(f"the game is over, yet decision {d.prompt!r} is pending")
    else:
        if st.frames:
            out.append("no decision is pending but frames are left to run")
        if not st.over:
            out.append("no decision is pending, yet the game is not over")
    return out
