"""How a value reads to a player: a piece, a card named in source, a player, a symbol,
a number, an effect. Used by the state, the mechanisms, frames and the compiled code
alike, so it depends on none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

from .values import DefRef, EffectRef

if TYPE_CHECKING:  # pragma: no cover
    from .vm import State


class Reads(Protocol):
    """What words are made from: a game's fixed names and labels (a State has them; so
    does a GameReader, which a log keeps to make its lines when they are read)."""

    @property
    def game(self) -> Any: ...


class GameReader:
    """The game's names, without a state: what a log's lines are made from when read
    (decisions.Said), long after the state that said them moved on."""

    __slots__ = ("game",)

    def __init__(self, game: Any):
        self.game = game


def player_name(st: Reads, p: int) -> str:
    names = st.game.player_names
    return names[p] if 0 <= p < len(names) else "nobody"


def zone_words(st: Reads, zone: int) -> str:
    """A zone as a player reads it: "the legacy deck", "P2's discard pile" (its label)."""
    lay = st.game.layout
    name = lay.zone_name[zone]
    label = st.game.spec.vocab.label(name)
    if name in lay.player_zone:
        return f"{player_name(st, zone - lay.player_zone[name])}'s {label}"
    return label if label.lower().startswith(("the ", "this ")) else "the " + label


def number_name(st: Reads, x: Any) -> str:
    """A number as a player reads it (a number is never a piece's id here)."""
    return str(x)


def namer_for(tag: str) -> Callable[[Reads, Any], str]:
    """How a value of a type (its checker tag) reads: players, numbers and zones are ints,
    so they read as players, numbers and zones, never as the pieces with those numbers."""
    if tag == "player":
        return player_name
    if tag == "players":
        return lambda st, xs: ", ".join(player_name(st, p) for p in xs)
    if tag == "amount":
        return number_name
    if tag == "percent":
        return lambda st, x: f"{x}%"
    if tag == "numbers":
        return lambda st, xs: ", ".join(str(x) for x in xs)
    if tag == "zone":
        return zone_words
    if tag == "zones":
        return lambda st, xs: ", ".join(zone_words(st, z) for z in xs)
    return describe


def describe(st: Reads, x: Any) -> str:
    """A player-facing label for a value (a piece, a player, a symbol)."""
    if type(x) is int:  # a piece (not a DefRef, not a bool): the most asked
        names = st.game.piece_names
        return names[x] if 0 <= x < len(names) else str(x)
    if isinstance(x, DefRef):
        return st.game.spec.defs[int(x)].name
    if x is None:  # a value never set is nothing (docs/language.md), never Python's "None" to a reader
        return "nothing"
    if isinstance(x, bool):
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


def whose(who: str) -> str:
    """A name as an owner: "P1's", "Hans'"."""
    return f"{who}'" if who.endswith("s") else f"{who}'s"


def copy_name(st: Reads, pid: int) -> str:
    """A piece by name, with `#k` for the k-th of several copies of one item, so that
    two copies never read the same ("Crate #2")."""
    lay = st.game.layout
    name = describe(st, pid)
    copies = lay.def_pieces[lay.piece_def[pid]] if 0 <= pid < len(lay.piece_def) else []
    return f"{name} #{copies.index(pid) + 1}" if len(copies) > 1 and lay.piece_owner[pid] < 0 else name


def zone_name(st: Reads, zone: int, viewer: int = -1, article: bool = True) -> str:
    """A zone as a player reads it: "P1's hand" ("your hand" for the viewer), "The
    Lighthouse's track, space 2", "Harbour" (a piece that holds pieces), "the market" (without
    `article`: "market", as `legacies try` lists zones). Worked out once per game and
    reader: every name it reads (labels, players', pieces', the copies') is fixed."""
    known = st.game.zone_names
    key = (zone, viewer, article)
    found = known.get(key)
    if found is None:
        found = known[key] = _zone_name(st, zone, viewer, article)
    return found


def _zone_name(st: Reads, zone: int, viewer: int, article: bool) -> str:
    lay, vocab = st.game.layout, st.game.spec.vocab
    track = lay.zone_track[zone]
    if track is not None:
        item, space = track
        return f"{whose(describe(st, item))} track, space {space + 1}"
    if zone in lay.zone_holder:
        return copy_name(st, lay.zone_holder[zone])
    label = vocab.label(lay.zone_name[zone])
    owner = lay.zone_owner[zone]
    if owner < 0:
        return label if not article or label.startswith(("the ", "a ", "an ")) else f"the {label}"
    return f"your {label}" if owner == viewer else f"{whose(player_name(st, owner))} {label}"


def place_of(st: State, pid: int, viewer: int = -1) -> str:
    """Where a piece is, as a player reads it: "on The Lighthouse's track, space 2", "on
    Harbour", "in P2's hand", "on the board" (an item of the board), "out of the game"."""
    zone = st.loc[pid]
    if zone < 0:
        return "on the board"
    if zone == 0:
        return "out of the game"
    lay = st.game.layout
    on = lay.zone_track[zone] is not None or zone in lay.zone_holder
    return ("on " if on else "in ") + zone_name(st, zone, viewer)


def piece_name(st: Reads, pid: int, viewer: int = -1) -> str:
    """A piece by name, a token with its owner ("your relationship token", "P2's
    relationship token"), a copy that keeps state of its own with its number ("Crate
    #2"; two Mills, which nothing tells apart, read "Mill")."""
    lay = st.game.layout
    owner = lay.piece_owner[pid] if 0 <= pid < len(lay.piece_owner) else -1
    if owner < 0:
        return copy_name(st, pid) if 0 <= pid < len(lay.keeps) and lay.keeps[pid] else describe(st, pid)
    name = describe(st, pid)
    return f"your {name}" if owner == viewer else f"{whose(player_name(st, owner))} {name}"


def told_apart(st: State, player: int, options: Sequence[Any], labels: list[str]) -> list[str]:
    """The labels of a decision's options (Choices), with labels that read the same as
    another's told apart where what they name differs: by where each piece is when they
    are in different places ("your relationship token on The Lighthouse's track, space 3",
    "Play Crate (in the market)"), by copy number when copies in one place keep state of
    their own ("Crate #2": each holds its own). Copies that nothing tells apart (two alike
    in one hand) are said to be copies ("Crate (copy 1 of 2)"): either is the same choice,
    and no two options read the same. Options that are pieces in more than one place
    each say where theirs is, alike or not (a user's trial: the one card said nowhere, among
    cards said to be in other players' places, was the chooser's own). Made when someone reads
    the labels, while the decision is pending (decisions.Decision): where a piece is is
    where it is then."""
    named = [_piece_of(st, option) for option in options]  # each option's piece, looked up once
    new = list(labels)
    loc = st.loc
    bare = [i for i, pid in enumerate(named) if pid is not None and new[i] == describe(st, pid)]
    if len(bare) > 1 and len({loc[named[i]] for i in bare}) > 1:  # type: ignore[index]
        for i in bare:
            pid = named[i]
            assert pid is not None
            new[i] = f"{piece_name(st, pid, player)} {place_of(st, pid, player)}"
    if len(set(new)) == len(new):
        return new
    lay = st.game.layout
    alike: dict[str, list[int]] = {}  # each label's options, in one pass (a count per label was n x labels)
    for i, label in enumerate(new):
        alike.setdefault(label, []).append(i)
    for label, indices in alike.items():
        if len(indices) < 2:
            continue
        pids = [pid for pid in (named[i] for i in indices) if pid is not None]
        if len(pids) < len(indices):  # an option that names no piece: nothing to tell apart by
            continue
        first = loc[pids[0]]
        # a copy keeps state of its own only on the table (what it holds, its counters)
        places: list[str] | None = None
        if all(loc[pid] == first for pid in pids):
            # pieces in one zone are in one place (the common case: copies in one hand,
            # off the table, told apart by nothing): said to be copies, either the same choice
            apart = False
            if not (first > 0 and lay.zone_table[first] and any(lay.keeps[pid] for pid in pids)):
                for n, i in enumerate(indices):
                    new[i] = f"{label} (copy {n + 1} of {len(indices)})"
                continue
        else:
            places = [place_of(st, pid, player) for pid in pids]
            apart = len(set(places)) > 1
            own = any(lay.keeps[pid] and loc[pid] > 0 and lay.zone_table[loc[pid]] for pid in pids)
            if not apart and not own:
                continue
        for n, (i, pid) in enumerate(zip(indices, pids)):
            place = places[n] if places is not None else ""
            if label == describe(st, pid):  # the option is the piece: say whose and which
                name = piece_name(st, pid, player)
                new[i] = f"{name} {place}" if apart else name
            else:
                new[i] = f"{label} ({place})" if apart else f"{label} ({copy_name(st, pid)})"
    if len(set(new)) < len(new):  # told apart by place, some still alike (two copies in one of the places)
        counts: dict[str, list[int]] = {}
        for i, label in enumerate(new):
            counts.setdefault(label, []).append(i)
        for label, indices in counts.items():
            if len(indices) > 1 and all(named[i] is not None for i in indices):
                for n, i in enumerate(indices):
                    new[i] = f"{label} (copy {n + 1} of {len(indices)})"
    return new


def _piece_of(st: State, option: Any) -> int | None:
    """The piece an option names: its item, else its value when that is a piece."""
    pid = option.item if type(option.item) is int else option.value
    return pid if type(pid) is int and 0 <= pid < len(st.loc) else None
