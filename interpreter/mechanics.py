"""The generic mechanisms every ruleset names in its own words: bounded counters,
zones and decks that rebuild from their discards, symbol payments with wilds, tokens
from a supply, tracks that bump, holders with a capacity, events with triggers,
entering/leaving play, and quantities changed by continuous and timed modifiers. What
grows with a zone, a track or the pieces in play is charged to the step budget
(interpreter/budget.py)."""

from __future__ import annotations

from itertools import combinations
from typing import Any, Callable

from legacies.dsl.numbers import MAX_NUMBER, size_words

from . import rng
from .budget import check_depth, over, spend, walked
from .decisions import Said
from .errors import ContentError
from .layout import BOX, PART_COUNTERS, PART_HOLDERS, PART_PIECES, PART_TIMED, PART_VALUES
from .naming import describe, number_name, player_name, zone_words  # noqa: F401 - also read as mechanics.describe...
from .values import DefRef, EffectRef
from .vm import Activation, BlockFrame, State
from .versions import tick


# ---------------------------------------------------------------------- counters
def adjust(st: State, slot: int, delta: int) -> None:
    """Add delta, clamped to the counter's min and max (values stop at the ends); a
    counter with no end of its own stops the game past the engine's limit (bounded)."""
    lay = st.game.layout
    value = st.counters[slot] + delta
    lo, hi = lay.counter_min[slot], lay.counter_max[slot]
    if lo is not None:
        if value < lo:
            value = lo
    elif value < -MAX_NUMBER:
        bounded(value)
    if hi is not None:
        if value > hi:
            value = hi
    elif value > MAX_NUMBER:
        bounded(value)
    counters = st.counters
    if counters[slot] == value:  # a gain of 0, a counter at its end, a set to what it holds:
        return  # no change counted, so what was computed from it still stands (codegen's keep)
    counters[slot] = value
    versions = st.versions  # what was computed from this counter no longer stands (codegen's keep)
    versions[PART_COUNTERS] = versions[lay.counter_part[slot]] = st.slot_versions[slot] = tick()


_SAME_WHEN_EQUAL = frozenset((int, bool, str, type(None)))
"""The values a set to an equal one of the same type leaves as they are: they cannot change
and read the same when equal (a list may be changed later; 1 and True read differently)."""


def set_value(st: State, slot: int, value: Any) -> None:
    """Set a value slot (a player's, the game's or a piece's own), counting the change:
    what was computed from values, or from this slot, no longer stands (codegen's keep).
    A slot set to what it holds is not changed, and no change is counted."""
    values = st.values
    old = values[slot]
    if old == value and type(old) is type(value) and type(value) in _SAME_WHEN_EQUAL:
        return
    values[slot] = bounded(value)  # a number that feeds on itself stops at the limit
    versions = st.versions
    versions[PART_VALUES] = versions[st.game.layout.value_part[slot]] = st.value_versions[slot] = tick()


def outside(st: State, slot: int, value: int) -> int:
    """`value`, set on a counter: a value past one of the counter's ends stops the game at
    the statement (a `set` is never clamped in silence; `gain`, `raise` and `lower` stop at
    the ends, as the counter's bounds say)."""
    lay = st.game.layout
    lo, hi = lay.counter_min[slot], lay.counter_max[slot]
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = (f"{lo} to {hi}" if lo is not None and hi is not None
                  else f"at least {lo}" if lo is not None else f"at most {hi}")
        name, _, whose = lay.counter_label[slot].rstrip("]").partition("[")
        what = (f"P{int(whose) + 1}'s {name}" if whose.isdigit() else f"`{whose}`'s {name}") if whose else name
        raise ContentError(f"`set` gives {what} {size_words(value)}, outside its bounds "
                           f"({bounds}): it would stop at {lo if lo is not None and value < lo else hi} "
                           "without a word. Widen the bound (its `min`/`max`; in an expansion, `extends: true` "
                           "in `extend_kinds:`) or set a value inside it")
    return value


MAX_NUMBER_OPTIONS = 100_000
"""The most numbers one decision offers (`choose a number`, `transfer up to`): each is an
option a player reads and a bot weighs."""


def number_range(low: int, high: int, step: int = 1,
                 advice: str = "choose in larger steps (`step N`) or from a smaller range") -> range:
    """The numbers a decision offers, from `low` to `high` in steps of `step`; more than
    MAX_NUMBER_OPTIONS stop the game at the statement."""
    numbers = range(low, high + 1, step)
    if len(numbers) > MAX_NUMBER_OPTIONS:
        raise ContentError(f"a choice of {size_words(len(numbers))} numbers ({size_words(low)} to {size_words(high)}), "
                           f"more than the {MAX_NUMBER_OPTIONS:,} one decision may offer: {advice}")
    return numbers


def bounded(value: Any) -> Any:
    """`value`, when it is not a number past the engine's limit (dsl/numbers.py): such
    a number stops the game at the statement that made it, before it grows further."""
    if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise ContentError(f"a number past the engine's limit of ±{MAX_NUMBER:,}: {size_words(value)} (a value "
                           "that grows each time round a loop, such as a product of itself, is the usual cause)")
    return value




# ---------------------------------------------------------------------- zones
def owner(st: State, pid: Any) -> int:
    """The player a piece belongs to: a token's owner, else the owner of its zone
    (`nobody`, -1, for a piece in a game zone or anything that is not a piece)."""
    lay = st.game.layout
    if type(pid) is not int or not 0 <= pid < len(lay.piece_def):
        return -1
    if lay.piece_owner[pid] >= 0:
        return lay.piece_owner[pid]
    z = st.loc[pid]
    return lay.zone_owner[z] if z >= 0 else -1


SEARCHED_PER_STEP = 16
"""Members of a zone searched for a piece taken out of it (not from its top) per step
charged (measured: a frame step's time searches about 15)."""

SHIFTED_PER_STEP = 1024
"""Members of a zone shifted along, when a piece is taken out of it or put at its bottom,
per step charged (measured: a frame step's time shifts about 1,000; 300 at the bottom,
which a step's own work covers in any zone a game keeps). Without these
charges a piece moved to and fro at the far end of a deck of 20,000 cost a hundred steps'
time for one step, and a deck of 20,000 drawn from took 26 s to spend a budget of
2,000,000 (a card drawn is taken from the top now: no search)."""


def move(st: State, pid: int, dest: int, bottom: bool = False) -> None:
    """Move a piece between zones, running its enter/leave hooks when it crosses into
    or out of play. A piece with state of its own that leaves the table gives it up
    first (`release`); nothing goes onto a card that is not on the table."""
    lay = st.game.layout
    old = st.loc[pid]
    if lay.per_copy:
        if lay.keeps[pid] and not lay.zone_table[dest] and (old < 0 or lay.zone_table[old]):
            release(st, pid)
        carrier = lay.zone_carrier[dest]
        if carrier >= 0 and not on_table(st, carrier):
            raise ContentError(f"{describe(st, carrier)} is not on the table, so nothing can be put on it "
                               f"({describe(st, pid)})")
    work = 0  # in a large zone, the members searched and shifted along (charged once the move is done)
    zones, own = st.zones, st.own_zones  # State.zone, written out: a list a copy shares is made this state's first
    if old >= 0:
        left = zones[old] if own is None or old in own else st.zone(old)
        if left[-1] == pid:  # the top: a card drawn, a piece just placed
            left.pop()
        else:
            at = left.index(pid)
            del left[at]
            work = at // SEARCHED_PER_STEP + (len(left) - at) // SHIFTED_PER_STEP
    to = zones[dest] if own is None or dest in own else st.zone(dest)
    if bottom:
        to.insert(0, pid)
        work += len(to) // SHIFTED_PER_STEP
    else:
        to.append(pid)
    st.loc[pid] = dest
    now = st.versions[PART_PIECES] = st.zone_versions[dest] = tick()
    if old >= 0:
        st.zone_versions[old] = now
    if lay.zone_holds[dest] or (old >= 0 and lay.zone_holds[old]):
        st.versions[PART_HOLDERS] = now
    if pid in st.revealed and lay.zone_visibility[dest] != "public":
        st.revealed.discard(pid)  # a revealed card that goes back into hiding is hidden again
    if work:
        spend(st, work)
    was, now = old >= 0 and lay.zone_in_play[old], lay.zone_in_play[dest]
    if was != now:
        hooks = st.game.hooks_enter if now else st.game.hooks_leave
        instrs = hooks.get(lay.piece_def[pid])
        if instrs:
            check_depth(st)
            who = lay.zone_owner[dest if now else old]
            st.frames.append(BlockFrame(instrs, Activation(st, who, pid)))


def move_to(st: State, pid: int, dest: int, bottom: bool = False, bump: bool = True) -> None:
    """`move X to Z`: onto a space of a track that bumps, what is there is bumped along."""
    track = st.game.layout.zone_track[dest]
    if track is not None and bump and st.game.layout.track_bumps.get(track[0], True):
        land(st, pid, st.game.layout.track_zones[track[0]], track[1])
        return
    move(st, pid, dest, bottom)


SHUFFLE_STEPS = 4
"""What each piece shuffled is charged: a draw of the generator and a swap (measured: four
times a frame step, so a loop of shuffles spends its budget in about the time a loop of
plain steps takes)."""


def shuffle(st: State, zone: int) -> None:
    spend(st, SHUFFLE_STEPS * len(st.zones[zone]))
    st.rng = rng.shuffle(st.rng, st.zone(zone))
    now = st.versions[PART_PIECES] = st.zone_versions[zone] = tick()
    if st.game.layout.zone_holds[zone]:
        st.versions[PART_HOLDERS] = now
    if st.revealed:
        st.revealed.difference_update(st.zones[zone])


def refill(st: State, zone: int) -> bool:
    """An empty deck is rebuilt by shuffling its discard pile into it."""
    src = st.game.layout.zone_refill[zone]
    if src < 0 or not st.zones[src]:
        return False
    spend(st, len(st.zones[src]))
    move_all(st, src, zone)
    shuffle(st, zone)
    st.log.append(Said(_rebuilt, (zone, src)))
    return True


def move_all(st: State, src: int, dest: int) -> None:
    """Every piece of zone `src` onto zone `dest`, bottom first: what `move` does for each
    in turn, done at once (the lists joined, the change counted once, the same work charged)
    when no hook can run and no piece keeps state of its own; else `move`, one by one."""
    lay = st.game.layout
    if lay.per_copy or lay.zone_in_play[src] != lay.zone_in_play[dest] or src == dest:
        for pid in list(st.zones[src]):
            move(st, pid, dest)
        return
    moving = st.zone(src)
    # each piece taken from the bottom shifts the ones above it along (see `move`)
    work = sum(left // SHIFTED_PER_STEP for left in range(SHIFTED_PER_STEP, len(moving)))
    if work:
        spend(st, work)
    st.zone(dest).extend(moving)
    loc = st.loc
    for pid in moving:
        loc[pid] = dest
    if st.revealed and lay.zone_visibility[dest] != "public":
        st.revealed.difference_update(moving)  # revealed cards that go back into hiding are hidden again
    moving.clear()
    now = st.versions[PART_PIECES] = st.zone_versions[dest] = st.zone_versions[src] = tick()
    if lay.zone_holds[dest] or lay.zone_holds[src]:
        st.versions[PART_HOLDERS] = now


def _rebuilt(reader: Any, zone: int, src: int) -> str:
    return f"{zone_words(reader, zone)} is rebuilt from {zone_words(reader, src)}"


def draw_one(st: State, src: int, dest: int) -> int | None:
    if not st.zones[src] and not refill(st, src):
        return None
    pid = st.zones[src][-1]
    move(st, pid, dest)
    return pid


def discard_zone(st: State, pid: int) -> int:
    lay = st.game.layout
    at = st.loc[pid]
    if lay.per_copy:  # a piece on a card goes where that card would go
        for _ in range(len(lay.piece_def)):
            if at < 0 or lay.zone_carrier[at] < 0:
                break
            at = st.loc[lay.zone_carrier[at]]
    z = lay.zone_discard[at] if at >= 0 else -1
    if z < 0:
        start = lay.piece_start[pid]
        z = lay.zone_discard[start] if start >= 0 else -1
    return z if z >= 0 else BOX


def discard(st: State, pid: int) -> None:
    lay = st.game.layout
    if lay.piece_owner[pid] >= 0:  # tokens go home
        remove(st, pid)
        return
    move(st, pid, discard_zone(st, pid))


def remove(st: State, pid: int) -> None:
    """Out of the game: tokens return to their owner's supply, cards go to the box."""
    lay = st.game.layout
    p = lay.piece_owner[pid]
    if p >= 0:
        kind = st.game.spec.defs[lay.piece_def[pid]].kind
        base = lay.supply_zone.get(kind, -1)
        move(st, pid, base + p if base >= 0 else BOX)
    else:
        move(st, pid, BOX)


def dig(st: State, zone: int, wanted: Callable[[int], bool], dest: int) -> int | None:
    """Turn cards from the top of `zone` until one is wanted; others are discarded.
    Bounded: stops once every card of the deck and its discards has been seen."""
    seen = 0
    total = len(st.zones[zone]) + (len(st.zones[st.game.layout.zone_refill[zone]])
                                   if st.game.layout.zone_refill[zone] >= 0 else 0)
    while seen <= total:
        if not st.zones[zone] and not refill(st, zone):
            return None
        pid = st.zones[zone][-1]
        seen += 1
        spend(st, 1)
        if wanted(pid):
            move(st, pid, dest)
            return pid
        move(st, pid, discard_zone(st, pid))
    return None


def pieces_on(st: State, target: Any) -> list[int]:
    """The pieces on an item: its holder zone, or every space of its track."""
    lay = st.game.layout
    if target in lay.holder_zone:
        return walked(st, st.zones[lay.holder_zone[target]])[:]
    if target in lay.track_zones:
        spaces = lay.track_zones[target]
        on = [p for z in spaces for p in st.zones[z]]
        spend(st, len(spaces) + len(on))
        return on
    raise ContentError(f"{describe(st, target)} holds no pieces (it has no track and is no holder)")


# ---------------------------------------------------------------------- pieces with state of their own
# The rule, in one place: a piece's own state (what it holds, its counters and values)
# lives while it is on the table (a public zone that is no discard pile, or on another
# piece). When it leaves the table (for a hand, a deck, a discard pile or the box) what
# it holds goes back (tokens to their owners' supplies, pieces to their discard piles)
# and its counters and values return to where they started. Board items never leave.
def on_table(st: State, pid: int) -> bool:
    z = st.loc[pid]
    return z < 0 or st.game.layout.zone_table[z]


def release(st: State, pid: int) -> None:
    """`pid` gives up its own state: what it holds goes back, its counters and values reset."""
    lay = st.game.layout
    for z in lay.piece_zones.get(pid, ()):
        spend(st, len(st.zones[z]))
        for held in reversed(st.zones[z][:]):  # the last placed first
            give_back(st, held)
    counters, values = lay.piece_slots.get(pid, ((), ()))
    now = st.versions[PART_COUNTERS] = st.versions[PART_VALUES] = tick()
    for slot in counters:
        st.counters[slot] = lay.counter_start[slot]
        st.versions[lay.counter_part[slot]] = st.slot_versions[slot] = now
    for slot in values:
        st.values[slot] = lay.value_start[slot]
        st.versions[lay.value_part[slot]] = st.value_versions[slot] = now


def give_back(st: State, pid: int) -> None:
    """What a holder lets go of: a token to its owner's supply, a card to its discard pile."""
    if st.game.layout.piece_owner[pid] >= 0:
        remove(st, pid)
    else:
        discard(st, pid)


def mine(st: State, pid: Any, what: str) -> int:
    """A piece whose own state is about to change: an error when it is off the table."""
    if type(pid) is not int:
        raise ContentError(f"there is no piece here to change the {what} of (nothing, or a card named in source: "
                           "choose one of its copies)")
    if not on_table(st, pid):
        raise ContentError(f"{describe(st, pid)} is not on the table, so its {what} cannot change "
                           "(a piece keeps state of its own only while it is on the table)")
    return pid


# ---------------------------------------------------------------------- tokens and tracks
def take_from_supply(st: State, kind: str, player: int) -> int | None:
    base = st.game.layout.supply_zone.get(kind, -1)
    if base < 0:
        return None
    supply = st.zones[base + player]
    defs, piece_def = st.game.spec.defs, st.game.layout.piece_def
    for pid in reversed(supply):
        if defs[piece_def[pid]].kind == kind:
            return pid
    return None


def land(st: State, pid: int, spaces: list[int], j: int) -> None:
    """Put a token on space `j` of a bumping track: what is there is bumped one space
    along, cascading; a token pushed past the last space goes back to its owner."""
    carry = [pid]
    for z in spaces[j:]:
        spend(st, 1 + len(st.zones[z]))
        bumped = [q for q in st.zones[z] if q not in carry]
        for q in carry:
            move(st, q, z)
        carry = bumped
        if not carry:
            return
    for q in carry:
        remove(st, q)


def place(st: State, pid: int, target: int, bump: bool = True, space: bool = False) -> None:
    """Place on a track (its first space), on a space of a track (`space`: target is a
    zone), or on a holder; a full holder sends its oldest token home first."""
    lay = st.game.layout
    if space:
        move_to(st, pid, target, bump=bump)
        return
    if target in lay.track_zones:
        spaces = lay.track_zones[target]
        if not lay.track_bumps.get(target, True) or not bump:  # a track that stacks
            move(st, pid, spaces[0])
            return
        land(st, pid, spaces, 0)
        return
    if target in lay.holder_zone:
        put_on(st, pid, target)
        return
    raise ContentError(f"cannot place a token on {describe(st, target)}: it has no track and is no holder")


def put_on(st: State, pid: int, target: int, bottom: bool = False) -> None:
    """Onto a holder; a full one first gives back the piece it got first."""
    lay = st.game.layout
    zone = lay.holder_zone.get(target)
    if zone is None:
        raise ContentError(f"{describe(st, target)} holds nothing (its kind is no holder), so "
                           f"{describe(st, pid)} cannot go onto it")
    capacity = lay.holder_capacity.get(target)
    while capacity is not None and len(st.zones[zone]) >= capacity and st.zones[zone]:
        give_back(st, st.zones[zone][0])
    move(st, pid, zone, bottom)


def shift(st: State, pid: int, steps: int, bump: bool = True) -> None:
    """One token `steps` spaces along its track (back when negative): past the last
    space it goes home, before the first it stops on the first."""
    lay = st.game.layout
    z = st.loc[pid]
    track = lay.zone_track[z] if z >= 0 else None
    if track is None:
        raise ContentError(f"{describe(st, pid)} is not on a track, so it cannot move along one")
    item, i = track
    spaces = lay.track_zones[item]
    j = i + steps
    if j >= len(spaces):
        remove(st, pid)
        return
    j = max(0, j)
    if j == i:
        return
    if bump and lay.track_bumps.get(item, True):
        land(st, pid, spaces, j)
    else:
        move(st, pid, spaces[j])


def advance(st: State, target: int, steps: int) -> None:
    """Every token on the track moves `steps` spaces along, each exactly once (back when
    negative, stopping on the first space); past the end, home. On a track that bumps,
    tokens never share a space: moving back, a token stops behind the one ahead of it that
    could go no further."""
    lay = st.game.layout
    spaces = lay.track_zones.get(target)
    if spaces is None:
        raise ContentError(f"{describe(st, target)} has no track")
    tokens = [(pid, i) for i, z in enumerate(spaces) for pid in st.zones[z]]
    spend(st, len(spaces) + len(tokens))
    if steps > 0:
        tokens.reverse()  # the leading tokens move first, so each lands on a space already left
    apart = steps < 0 and lay.track_bumps.get(target, True)
    free = 0  # moving back on a bumping track: the first space no token has taken yet
    for pid, i in tokens:
        j = i + steps
        if j >= len(spaces):
            remove(st, pid)
            continue
        j = max(0, j)
        if apart:
            j = max(j, free)
            free = j + 1
        if j != i:
            move(st, pid, spaces[j])


# ---------------------------------------------------------------------- payments
def payments(st: State, card: int, zone: int) -> list[tuple[tuple[str, ...], list[int]]]:
    """Every distinct way to pay `card`'s symbol cost with cards from `zone`, at most
    `max_wild` wild cards each. Returns (the symbols paid, cards) pairs, stable order."""
    pay = st.game.spec.vocab.payment
    if pay is None:
        return []
    game = st.game
    d = int(card) if isinstance(card, DefRef) else game.layout.piece_def[card]
    plan = game.pay_plans.get(d)
    if plan is None:
        written: Any = game.spec.defs[d].attrs.get(pay.cost) or []
        plan = game.pay_plans[d] = payment_plan(pay.wild, pay.max_wild, list(written))
    ways, tried = plan
    if not tried:
        return [(("nothing",), [])]
    have: dict[Any, list[int]] = {}
    symbol = game.pay_symbol
    for pid in reversed(st.zones[zone]):
        have.setdefault(symbol[pid], []).append(pid)
    wild = pay.wild
    wilds = have.get(wild, []) if wild else []
    spend(st, len(st.zones[zone]))
    most = min(len(wilds), len(tried) - 1)  # the most wild cards a way may take here
    spend(st, tried[most])  # each way of covering the cost with wilds is tried
    out: list[tuple[tuple[str, ...], list[int]]] = []
    for w, need, paid in ways:
        if w > most:
            break
        if all(len(have.get(s, ())) - (w if s == wild else 0) >= n for s, n in need):
            out.append((paid, [pid for s, n in need for pid in have[s][:n]] + wilds[:w]))
    return out


PaymentPlan = tuple[list[tuple[int, tuple[tuple[Any, int], ...], tuple[str, ...]]], list[int]]
"""A cost's ways to pay, worked out once per card (`payment_plan`)."""


def payment_plan(wild: Any, max_wild: int, cost: list) -> PaymentPlan:
    """The distinct ways to pay `cost` with up to `max_wild` wild cards, fewest wilds first:
    (the wilds taken, the symbols still needed and how many of each in symbol order, the
    symbols paid); and for each number of wilds W, the ways tried with at most W (what
    `payments` charges). No cost: no way and nothing tried."""
    if not cost:
        return [], []
    ways: list[tuple[int, tuple[tuple[Any, int], ...], tuple[str, ...]]] = []
    tried: list[int] = []
    seen: set[tuple] = set()
    count = 0
    for w in range(0, min(max_wild, len(cost)) + 1):
        for covered in combinations(range(len(cost)), w):
            count += len(cost)
            rest = sorted(s for i, s in enumerate(cost) if i not in covered)
            key = (tuple(rest), w)
            if key in seen:
                continue
            seen.add(key)
            need: dict[Any, int] = {}
            for s in rest:
                need[s] = need.get(s, 0) + 1
            ways.append((w, tuple(sorted(need.items())), tuple(rest + [wild] * w)))
        tried.append(count)
    return ways, tried


def can_pay(st: State, card: Any, zone: int) -> bool:
    """Whether some payment exists, without listing them: the shortfall of each symbol
    must be covered by the wilds allowed."""
    pay = st.game.spec.vocab.payment
    if pay is None:
        return False
    game = st.game
    need = game.pay_need[int(card) if isinstance(card, DefRef) else game.layout.piece_def[card]]
    have = _symbols_in(st, zone)
    wilds = have.get(pay.wild, 0) if pay.wild else 0
    short = 0
    for s, n in need.items():
        if s == pay.wild:
            wilds -= n
            short += max(0, -wilds)
            wilds = max(0, wilds)
        else:
            avail = have.get(s, 0)
            if avail < n:
                short += n - avail
    return short <= min(pay.max_wild, wilds)


def _symbols_in(st: State, zone: int) -> dict[Any, int]:
    """How many cards of each payment symbol `zone` holds: one tally serves every card
    asked about until the zone changes (kept with the zone's count of changes)."""
    key = ("symbols in", zone)
    version = st.zone_versions[zone]
    found = st.keep.get(key)
    if found is not None and found[0] == version:
        return found[1]
    symbol = st.game.pay_symbol
    have: dict[Any, int] = {}
    spend(st, len(st.zones[zone]))
    for pid in st.zones[zone]:
        s = symbol[pid]
        have[s] = have.get(s, 0) + 1
    st.keep[key] = (version, have)
    return have


def playable(st: State, pid: int, me: int) -> bool:
    """Whether a card's `requires:` condition holds for player `me`."""
    cond = st.game.requires.get(st.game.layout.piece_def[pid])
    return True if cond is None else bool(cond(Activation(st, me, pid)))


# ---------------------------------------------------------------------- events and modifiers
def in_play(st: State, pid: int) -> bool:
    """Board items are always in play; other pieces while they are in an in-play zone."""
    z = st.loc[pid]
    return z < 0 or st.game.layout.zone_in_play[z]


def acting_owner(st: State, pid: int) -> int:
    z = st.loc[pid]
    return st.game.layout.zone_owner[z] if z >= 0 else -1


_RULES = (-1,)  # the "piece" a rules file's trigger runs for: none


def announce(st: State, event: str, args: dict[str, Any]) -> None:
    """Timed modifiers lasting until this event end; then every trigger on it fires
    (pieces in play, in piece order; each trigger's body runs as its owner)."""
    if st.timed:
        st.timed = [m for m in st.timed if m[5] != event]
        st.versions[PART_TIMED] = tick()
    lay = st.game.layout
    loc, in_zone = st.loc, lay.zone_in_play
    to_run = []
    seen = 0
    for key, d, cond, instrs, once in st.game.triggers.get(event, ()):
        pieces = lay.def_pieces[d] if d >= 0 else _RULES  # a rules file's trigger: no piece
        seen += len(pieces)
        for pid in pieces:
            z = loc[pid] if pid >= 0 else -1
            if z >= 0 and not in_zone[z]:
                continue
            act = Activation(st, lay.zone_owner[z] if z >= 0 else -1, pid, dict(args))
            if cond is not None and not cond(act):
                continue
            if once:
                mark = f"{key}@{pid}"
                if st.fired.get(mark) == st.turns:
                    continue
                st.fired[mark] = st.turns
            to_run.append(BlockFrame(instrs, act))
    if seen:
        spend(st, seen)
    if to_run:
        check_depth(st)
    st.frames.extend(reversed(to_run))


def quantity(st: State, name: str, player: int, subject: Any) -> Any:
    """A quantity's value for a player (and an item): its default, then every modifier
    from pieces in play, then every timed modifier, in the order they arose. Remembered
    while the state is only read (`State.frozen`: a menu asks the same cost of every
    option), as a definition is, and charged when computed."""
    memo = st.memo
    if memo is None:
        return _quantity(st, name, player, subject)
    key = ("quantity", name, player, subject)
    try:
        found = memo.get(key, _UNKNOWN)
    except TypeError:  # an unhashable subject (a list): not remembered
        return _quantity(st, name, player, subject)
    if found is _UNKNOWN:
        found = memo[key] = _quantity(st, name, player, subject)
    return found


_UNKNOWN = object()  # not remembered yet (None is a value a quantity may have)


def _quantity(st: State, name: str, player: int, subject: Any) -> Any:
    game = st.game
    value = game.spec.vocab.quantities[name].default
    per_player = game.spec.vocab.quantities[name].per == "player"
    lay = game.layout
    seen = len(st.timed)  # charged once, with the pieces that may modify it
    for d, subj_fn, op, value_fn, scope_fn, plural in game.continuous.get(name, ()):
        seen += len(lay.def_pieces[d])
        for pid in lay.def_pieces[d]:
            z = st.loc[pid]
            if z >= 0 and not lay.zone_in_play[z]:
                continue
            act = Activation(st, lay.zone_owner[z] if z >= 0 else -1, pid)
            if subj_fn is not None and subj_fn(act) != subject:
                continue
            if scope_fn is not None:
                who = scope_fn(act)
                if (player not in who) if plural else (player != who):
                    continue
            elif per_player and act.me >= 0 and player != act.me:  # a board item's modifier is everyone's
                continue
            value = apply_op(value, op, value_fn(act))
    if seen:
        st.spent += seen  # budget.spend, written out: this runs for every read of a quantity
        if st.spent > st.limit:
            over(st)
    for q, subj, op, v, who, _until in st.timed:
        if q != name or (subj is not None and subj != subject) or (who is not None and player not in who):
            continue
        value = apply_op(value, op, v)
    return value


def apply_op(value: Any, op: str, v: Any) -> Any:
    if op == "=":
        return v
    if op == "+":
        return value + v
    if op == "-":
        return value - v
    return bounded(-((-value * v) // 100))  # `* 150%`: percent, rounded up


def abandon(st: State, act: Activation) -> None:
    """Nothing to choose: the rest of this effect cannot happen; drop its frames."""
    while st.frames and st.frames[-1].act is act:
        st.frames.pop()
