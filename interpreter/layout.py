"""Where everything lives in a game's flat state: counter slots, zone ids and pieces.

Built once per (ruleset, player count) and shared by every clone of a game. The
compiler turns names into these integers, so the hot path indexes plain lists."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InternalError
from .spec import GameSpec

BOX = 0  # the zone removed pieces go to: out of the game, still accounted for

# The parts of the state that each count their changes (State.versions): a result computed
# from some parts stands while their counts have not moved (interpreter/codegen.py keeps
# definitions' results across menus so). Each counter name is a part of its own after these;
# each counter slot, each value slot and each zone also counts its own changes
# (State.slot_versions, State.value_versions, State.zone_versions). Each value name is a part
# after the counter names.
# The turn order (the players' list) and whose turn it is are two parts: a turn passing
# leaves what was computed from the list of players standing.
PART_PIECES, PART_VALUES, PART_ORDER, PART_TIMED, PART_COUNTERS, PART_HOLDERS, PART_ACTIVE = 0, 1, 2, 3, 4, 5, 6
FIRST_COUNTER_PART = 7


@dataclass
class Layout:
    players: int
    n_counters: int = 0
    counter_start: list[int] = field(default_factory=list)
    counter_min: list[int | None] = field(default_factory=list)
    counter_max: list[int | None] = field(default_factory=list)
    counter_label: list[str] = field(default_factory=list)
    counter_name: list[str] = field(default_factory=list)  # the vocabulary name, for players to read
    counter_part: list[int] = field(default_factory=list)  # each slot's part of the state (its name's)
    counter_parts: dict[str, int] = field(default_factory=dict)  # a counter name's part
    value_part: list[int] = field(default_factory=list)  # each value slot's part of the state (its name's)
    value_parts: dict[str, int] = field(default_factory=dict)  # a value name's part
    parts: int = FIRST_COUNTER_PART  # how many parts count their changes
    zone_holds: list[bool] = field(default_factory=list)  # a zone of a holder or a track (PART_HOLDERS)
    game_counter: dict[str, int] = field(default_factory=dict)
    player_counter: dict[str, int] = field(default_factory=dict)  # base slot; + player
    item_counter: dict[tuple[str, str], int] = field(default_factory=dict)  # (kind, name) -> base; + item index

    n_values: int = 0
    value_name: list[str] = field(default_factory=list)  # "starter", "character[0]"...
    game_value: dict[str, int] = field(default_factory=dict)
    player_value: dict[str, int] = field(default_factory=dict)  # base slot; + player
    item_value: dict[tuple[str, str], int] = field(default_factory=dict)  # (kind, name) -> base; + item index
    value_start: list = field(default_factory=list)  # None, or nobody (-1) for a piece's own player slot

    zone_name: list[str] = field(default_factory=list)
    zone_owner: list[int] = field(default_factory=list)
    zone_visibility: list[str] = field(default_factory=list)
    zone_in_play: list[bool] = field(default_factory=list)
    zone_discard: list[int] = field(default_factory=list)
    zone_refill: list[int] = field(default_factory=list)
    zone_track: list[tuple[int, int] | None] = field(default_factory=list)  # (item piece, space)
    game_zone: dict[str, int] = field(default_factory=dict)
    player_zone: dict[str, int] = field(default_factory=dict)  # base; + player
    holder_zone: dict[int, int] = field(default_factory=dict)  # item piece -> zone
    track_zones: dict[int, list[int]] = field(default_factory=dict)  # item piece -> space zones
    track_bumps: dict[int, bool] = field(default_factory=dict)  # item piece -> does placing bump?
    holder_capacity: dict[int, int] = field(default_factory=dict)  # item piece -> tokens it holds at most
    zone_holder: dict[int, int] = field(default_factory=dict)  # holder zone -> its item piece
    # A piece's own state lives while it is on the table (pieces.py): which zones are the
    # table, which pieces keep state of their own (cards with counters, values, a holder or a
    # track), what each owns, and the card whose holder or track a zone is (-1: none).
    zone_table: list[bool] = field(default_factory=list)
    zone_carrier: list[int] = field(default_factory=list)
    keeps: list[bool] = field(default_factory=list)
    per_copy: bool = False  # some card keeps state of its own: mechanics.move applies the rule
    piece_zones: dict[int, list[int]] = field(default_factory=dict)  # piece -> its holder and track zones
    piece_slots: dict[int, tuple[list[int], list[int]]] = field(default_factory=dict)  # piece -> counters, values

    piece_def: list[int] = field(default_factory=list)
    piece_owner: list[int] = field(default_factory=list)
    piece_start: list[int] = field(default_factory=list)  # starting zone (-1: board item)
    item_index: list[int] = field(default_factory=list)  # index among items of its kind
    def_index: dict[str, int] = field(default_factory=dict)
    def_pieces: list[list[int]] = field(default_factory=list)
    kind_pieces: dict[str, list[int]] = field(default_factory=dict)
    board_item: dict[str, int] = field(default_factory=dict)  # content id -> piece (board kinds)
    token_def: dict[str, int] = field(default_factory=dict)  # token kind -> def index
    supply_zone: dict[str, int] = field(default_factory=dict)  # token kind -> player zone base
    _slot_cache: dict[tuple[str, str], list[int]] = field(default_factory=dict, repr=False)

    def visible_to(self, zone: int, player: int) -> bool:
        """Whether `player` sees what `zone` holds: a public zone, or their own zone of
        an owner-only kind (hidden zones and others' owner-only zones show a count)."""
        vis = self.zone_visibility[zone]
        return vis == "public" or (vis == "owner" and self.zone_owner[zone] == player)

    def counter_slots(self, name: str) -> list[int]:
        """The slot of each piece's own counter `name` (-1 for a piece without one), built
        once per name: `X's value` is one list index."""
        return self._slots(self.item_counter, name, "counter")

    def value_slots(self, name: str) -> list[int]:
        """The slot of each piece's own value `name` (-1 for a piece without one)."""
        return self._slots(self.item_value, name, "value")

    def _slots(self, table: dict[tuple[str, str], int], name: str, what: str) -> list[int]:
        key = (what, name)
        found = self._slot_cache.get(key)
        if found is None:
            found = [-1] * len(self.piece_def)
            for kind, pieces in self.kind_pieces.items():
                base = table.get((kind, name))
                if base is not None:
                    for pid in pieces:
                        found[pid] = base + self.item_index[pid]
            self._slot_cache[key] = found
        return found

    def _zone(self, name: str, owner: int, vis: str, in_play: bool, track: tuple[int, int] | None = None) -> int:
        self.zone_name.append(name)
        self.zone_owner.append(owner)
        self.zone_visibility.append(vis)
        self.zone_in_play.append(in_play)
        self.zone_discard.append(-1)
        self.zone_refill.append(-1)
        self.zone_track.append(track)
        return len(self.zone_name) - 1

    def _counter(self, start: int, lo: int | None, hi: int | None, label: str) -> int:
        self.counter_start.append(start)
        self.counter_min.append(lo)
        self.counter_max.append(hi)
        self.counter_label.append(label)
        self.counter_name.append(label.split("[", 1)[0])
        self.n_counters += 1
        return self.n_counters - 1


def build_layout(spec: GameSpec, players: int) -> Layout:
    v = spec.vocab
    lay = Layout(players=players)
    for name, val in v.values.items():
        if val.scope == "game":
            lay.game_value[name] = lay.n_values
            lay.value_name.append(name)
            lay.n_values += 1
    for name, val in v.values.items():
        if val.scope == "player":
            lay.player_value[name] = lay.n_values
            for p in range(players):
                lay.value_name.append(f"{name}[{p}]")
            lay.n_values += players
    for name, c in v.counters.items():
        if c.scope == "game":
            lay.game_counter[name] = lay._counter(c.start, c.min, c.max, name)
    for name, c in v.counters.items():
        if c.scope == "player":
            lay.player_counter[name] = lay.n_counters
            for p in range(players):
                lay._counter(c.start, c.min, c.max, f"{name}[{p}]")

    box = lay._zone("box", -1, "hidden", False)
    assert box == BOX  # zone 0 is the box: removed pieces stay accounted for
    for name, z in v.zones.items():
        if z.scope == "game":
            lay.game_zone[name] = lay._zone(name, -1, z.visibility, z.in_play)
    for name, z in v.zones.items():
        if z.scope == "player":
            lay.player_zone[name] = len(lay.zone_name)
            for p in range(players):
                lay._zone(name, p, z.visibility, z.in_play)
    for name, z in v.zones.items():
        ids = [lay.game_zone[name]] if z.scope == "game" else [lay.player_zone[name] + p for p in range(players)]
        for i, zid in enumerate(ids):
            if z.discard_to:
                lay.zone_discard[zid] = _zone_id(lay, v, z.discard_to, i)
            if z.refill_from:
                lay.zone_refill[zid] = _zone_id(lay, v, z.refill_from, i)

    # pieces: content items (board items and card copies), then tokens per player
    for d_index, d in enumerate(spec.defs):
        lay.def_index[d.id] = d_index
        lay.def_pieces.append([])
    for d_index, d in enumerate(spec.defs):
        kind = v.kinds[d.kind]
        if kind.piece == "token":
            lay.token_def[d.kind] = d_index
            continue
        copies = 1 if kind.piece == "board" else d.copies
        for _ in range(copies):
            pid = len(lay.piece_def)
            lay.piece_def.append(d_index)
            lay.piece_owner.append(-1)
            lay.def_pieces[d_index].append(pid)
            members = lay.kind_pieces.setdefault(d.kind, [])
            lay.item_index.append(len(members))
            members.append(pid)
            if kind.piece == "board":
                lay.board_item[d.id] = pid
                lay.piece_start.append(-1)
            else:
                start = lay.game_zone.get(kind.starts_in, BOX) if kind.starts_in else BOX
                lay.piece_start.append(start)
    _piece_state(spec, lay)
    for kname, kind in v.kinds.items():
        if kind.piece != "token":
            continue
        if kname not in lay.token_def:
            raise InternalError(f"token kind `{kname}` has no definition")
        d_index = lay.token_def[kname]
        base = lay.player_zone.get(kind.supply_zone or "", -1)
        lay.supply_zone[kname] = base
        for p in range(players):
            for _ in range(kind.supply or 0):
                pid = len(lay.piece_def)
                lay.piece_def.append(d_index)
                lay.piece_owner.append(p)
                lay.def_pieces[d_index].append(pid)
                members = lay.kind_pieces.setdefault(kname, [])
                lay.item_index.append(len(members))
                members.append(pid)
                lay.piece_start.append(base + p if base >= 0 else 0)
    lay.keeps = [pid in lay.piece_slots for pid in range(len(lay.piece_def))]
    lay.per_copy = any(lay.keeps)
    for name in lay.counter_name:
        lay.counter_parts.setdefault(name, FIRST_COUNTER_PART + len(lay.counter_parts))
    lay.counter_part = [lay.counter_parts[name] for name in lay.counter_name]
    lay.parts = FIRST_COUNTER_PART + len(lay.counter_parts)
    named = [label.split("[", 1)[0] for label in lay.value_name]  # a slot "NAME[ITEM]": NAME
    for name in named:  # each value name a part too: setting one leaves what read the others standing
        lay.value_parts.setdefault(name, lay.parts + len(lay.value_parts))
    lay.value_part = [lay.value_parts[name] for name in named]
    lay.parts += len(lay.value_parts)
    lay.zone_holds = [lay.zone_track[z] is not None or z in lay.zone_holder for z in range(len(lay.zone_name))]
    return lay


def _piece_state(spec: GameSpec, lay: Layout) -> None:
    """Each piece's own counters, value slots, holder zone and track spaces (board items
    and every copy of a card kind that declares them), and what counts as the table."""
    v = spec.vocab
    for kname, kind in v.kinds.items():
        if kind.piece == "token":
            continue
        members = lay.kind_pieces.get(kname, [])
        card = kind.piece == "card"
        labels = [_piece_label(spec, lay, pid) for pid in members]
        for cname, c in kind.counters.items():
            lay.item_counter[(kname, cname)] = lay.n_counters
            for label in labels:
                lay._counter(c.start, c.min, c.max, f"{cname}[{label}]")
        lay.value_start += [None] * (lay.n_values - len(lay.value_start))
        for vname, info in kind.values.items():
            lay.item_value[(kname, vname)] = lay.n_values
            lay.value_name.extend(f"{vname}[{label}]" for label in labels)
            lay.n_values += len(members)
            lay.value_start += [-1 if info.type.tag == "player" else None] * len(members)  # -1: nobody
        for pid, label in zip(members, labels):
            owned: list[int] = []
            if kind.holder:  # what a card holds is kept, not played: only a board item's holder is in play
                lay.holder_zone[pid] = lay._zone(f"on {label}", -1, "public", not card)
                lay.zone_holder[lay.holder_zone[pid]] = pid
                owned.append(lay.holder_zone[pid])
                if kind.capacity is not None:
                    lay.holder_capacity[pid] = kind.capacity
            if kind.track:
                lay.track_bumps[pid] = kind.bump
                lay.track_zones[pid] = [lay._zone(f"track {label}:{s + 1}", -1, "public", not card, (pid, s))
                                        for s in range(kind.track)]
                owned.extend(lay.track_zones[pid])
            if card and (owned or kind.counters or kind.values):
                lay.piece_zones[pid] = owned
                lay.piece_slots[pid] = ([lay.item_counter[(kname, c)] + lay.item_index[pid] for c in kind.counters],
                                        [lay.item_value[(kname, x)] + lay.item_index[pid] for x in kind.values])
    lay.value_start += [None] * (lay.n_values - len(lay.value_start))
    lay.zone_carrier = [-1] * len(lay.zone_name)
    for pid, zones in lay.piece_zones.items():
        for z in zones:
            lay.zone_carrier[z] = pid
    piles = {z for z in lay.zone_discard + lay.zone_refill if z >= 0}  # discard piles are not the table
    lay.zone_table = [z != BOX and vis == "public" and z not in piles for z, vis in enumerate(lay.zone_visibility)]


def _piece_label(spec: GameSpec, lay: Layout, pid: int) -> str:
    """A piece's name in labels: its content id, and `#k` for the k-th of several copies."""
    d = lay.piece_def[pid]
    copies = lay.def_pieces[d]
    return spec.defs[d].id if len(copies) == 1 else f"{spec.defs[d].id}#{copies.index(pid) + 1}"


def _zone_id(lay: Layout, v, name: str, player: int) -> int:
    z = v.zones[name]
    return lay.game_zone[name] if z.scope == "game" else lay.player_zone[name] + player
