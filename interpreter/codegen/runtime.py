"""What generated code runs with (interpreter/codegen.py writes it): the switch, the
compiled code shared by source, the helpers it calls for what is too long to write
inline (each says what the closure it stands for says), what a generated function
reads of the state (`Reads`, for results kept across menus) and where an expression is
written (`Scope`).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

from .. import selection
from ..budget import over, spend, walked
from ..compile.context import MISSING, Fn, as_def, indexable, no_player
from ..errors import ContentError, Refused, locate
from ..values import DefRef, EraValue
from ..layout import PART_HOLDERS
from ..vm import Activation, State

ENV_SWITCH = "LEGACIES_CODEGEN"
"""`LEGACIES_CODEGEN=0` runs every Game on the closures (the reference path)."""


def enabled_by_default() -> bool:
    return os.environ.get(ENV_SWITCH, "1") not in ("0", "false", "no", "off")


class Unsupported(Exception):
    """A node the generator leaves to the closures (raised while writing, never at run time)."""


_CODE_CACHE: dict[str, Any] = {}  # source -> code object: a ruleset's Games share their code
_CODE_CACHE_MAX = 50_000


def compile_source(source: str) -> Any:
    code = _CODE_CACHE.get(source)
    if code is None:
        if len(_CODE_CACHE) > _CODE_CACHE_MAX:
            _CODE_CACHE.clear()
        code = _CODE_CACHE[source] = compile(source, "<legacies generated>", "exec")
    return code


# --------------------------------------------------------------------------- run-time helpers
# Called from generated code for what is too long to write inline; each says what the
# closure it stands for says.



def _rt_nobody(what: str) -> Any:
    raise no_player(what)


def _rt_player(p: int, what: str) -> int:
    if p < 0:
        raise no_player(what)
    return p


def _rt_divisor(d: int) -> bool:
    if d == 0:
        raise ContentError("division by zero")
    return True


def _rt_modulus(d: int, written: str) -> bool:
    if d <= 0:
        raise ContentError(f"`{written}`: modulo {d}: the divisor must be at least 1")
    return True


def _rt_same(piece_def: list[int], x: Any, y: Any) -> bool:
    if type(x) is int and type(y) is int:  # two pieces (or players): most comparisons
        return x == y
    if x is None or y is None:
        return x is y
    if isinstance(x, DefRef) or isinstance(y, DefRef):
        return as_def(piece_def, x) == as_def(piece_def, y)
    return bool(x == y)


_rt_spend = spend  # a definition's steps charged before it is computed (DefinitionSpec.charge)


_rt_walk = walked  # every walk over a collection, charged (interpreter/budget.py)


def _rt_walk2(st: State, items: Any) -> Any:
    """`_rt_walk(st, _rt_walk(st, items)[:])` where nothing keeps the copy (a filter's or an
    aggregate's walk over a collection read whole): both walks charged, no copy made."""
    st.spent += 2 * len(items)
    if st.spent > st.limit:
        over(st)
    return items


def _rt_count(st: State, items: Any) -> int:
    """`len(_rt_walk(st, items)[:])`: a collection read whole only to be counted, its walk
    charged, no copy made."""
    n = len(items)
    st.spent += n
    if st.spent > st.limit:
        over(st)
    return n


def _rt_joined(st: State, left: Any, right: Any) -> list:
    both = list(left) + list(right)
    spend(st, len(both))
    return both


def _rt_in(st: State, x: Any, ys: Any) -> bool:
    spend(st, len(ys))
    return x in ys


def _rt_member(st: State, piece_def: list[int], x: Any, ys: Any) -> bool:
    walked(st, ys)
    if isinstance(x, DefRef):  # a card named in source: any of its copies
        return any(as_def(piece_def, y) == x for y in ys)
    return x in ys


def _rt_among(piece_def: list[int], x: Any, ys: Any) -> bool:
    return x is not None and as_def(piece_def, x) in [int(y) for y in ys]


def _rt_same_card(piece_def: list[int], x: Any, y: Any, negated: bool) -> bool:
    if x is None or y is None:
        return (x is y) != negated
    # as_def, written out: a piece's definition, or the card named in source
    return ((int(x) if type(x) is DefRef else piece_def[x]) == (int(y) if type(y) is DefRef else piece_def[y])) != negated


def _rt_has(piece_def: list[int], by_def: list, x: Any, negated: bool) -> bool:
    if x is None:  # a value never set names nothing, which has no attribute
        return negated
    d = int(x) if isinstance(x, DefRef) else piece_def[x]
    return (by_def[d] is not MISSING) != negated


def _rt_era(st: State, slot: int, values: Any) -> Any:
    i = st.counters[slot] - 1 if slot >= 0 else 0
    last = len(values) - 1
    return values[0 if i < 0 else (last if i > last else i)]


def _rt_era_of(st: State, slot: int, v: Any) -> Any:
    i = st.counters[slot] - 1 if slot >= 0 else 0
    return v[0 if i < 0 else min(i, len(v) - 1)]


def _rt_option(st: State, name: str) -> Any:
    """A game option's value (the closures' `a.st.game.options[name]`)."""
    return st.game.options[name]


def _rt_neighbours(st: State, me: int, this: Any, x: Any, links: tuple[str, ...]) -> list:
    return st.game.graph.neighbours(st, me, this, x, links)


def _rt_within(st: State, me: int, this: Any, x: Any, links: tuple[str, ...], most: int) -> list:
    return st.game.graph.within(Activation(st, me, this), x, links, most)


def _rt_distance(st: State, me: int, this: Any, x: Any, y: Any, links: tuple[str, ...]) -> int:
    return st.game.graph.distance(Activation(st, me, this), x, y, links)


_rt_top_member = selection.member  # `top of`: one implementation for both paths (interpreter/selection.py)
_rt_top_members = selection.members
_rt_top_piece = selection.zone_piece
_rt_top_pieces = selection.zone_pieces


def _rt_nth(items: Any, n: int) -> Any:
    if not 1 <= n <= len(items):
        raise ContentError(f"there is no entry {n}: the list has {len(items)}")
    return indexable(items)[n - 1]


def _rt_lookup(st: State, piece_def: list[int], era_slot: int, table: Any, key: Any) -> Any:
    d = int(key) if isinstance(key, DefRef) else piece_def[key]
    if d not in table.numbers:
        raise ContentError(f"{st.describe(key)} is not in the table")
    v = table.numbers[d]
    return _rt_era_of(st, era_slot, v) if type(v) is EraValue else v


def _rt_ordered(keyed: list, desc: bool) -> list:
    keyed.sort(key=lambda kx: -kx[0] if desc else kx[0])  # stable: ties keep their order
    return [x for _, x in keyed]


def _rt_hoisted(slots: list, k: int, value: Any) -> Any:
    """A loop-invariant part worked out (codegen/hoist.py): kept in its evaluation's slot."""
    slots[k] = value
    return value


def _rt_aggregate(fn: Callable[[list], int], values: list) -> int:
    return fn(values) if values else 0


def _rt_possible(st: State, me: int, this: int, names: tuple[str, ...]) -> bool:
    """`possible(A, B)`: any of the actions has a target now (the closures' `possible`)."""
    for action in st.game.actions_named(names):  # (a plain loop: a menu asks it at every turn)
        if action.available_for(st, me, this):
            return True
    return False


def _rt_with_it(f: Fn, a: Activation, value: Any) -> Any:
    """A closure (the reference path) called where `it` is a generated local."""
    saved = a.it
    a.it = value
    try:
        return f(a)
    finally:
        a.it = saved


def _rt_distinct(st: State, xs: Any) -> list:
    spend(st, len(xs))
    seen: list = []
    for s in xs:
        if s not in seen:
            seen.append(s)
    return seen


def _rt_pay(st: State, adjust: Callable, k: int, n: int) -> None:
    lo = st.game.layout.counter_min[k] or 0
    if st.counters[k] - n < lo:
        name = st.game.spec.vocab.label(st.game.layout.counter_name[k])
        base = st.game.layout.player_counter.get(st.game.layout.counter_name[k], k)
        raise Refused(f"{st.player_name(k - base)} cannot pay {n} {name}: has {st.counters[k]}")
    adjust(st, k, -n)


def _rt_unbound(err: BaseException, names: tuple[str, ...]) -> BaseException:
    """A local name read before it has a value (`env[NAME]` failed), said as the closures
    say it; any other error as it is."""
    if isinstance(err, KeyError) and err.args[:1] and err.args[0] in names:
        return ContentError(f"`{err.args[0]}` has no value here")
    return err


def _rt_locate(err: BaseException, wheres: tuple, w: int, names: tuple[str, ...] = ()) -> BaseException:
    """What a generated statement raises for an error of the statement `w` inside it
    (-1: its own), as run_direct says it."""
    err = _rt_unbound(err, names)
    return err if w < 0 else locate(err, wheres[w])


def _rt_locate_block(err: BaseException, wheres: tuple, tops: tuple, w: int, names: tuple[str, ...]) -> BaseException:
    """What a generated block (codegen/statements.py `block_function`) raises for an error
    of its statement `w`: located there, as _rt_locate says it. A refusal goes on as it
    is, the statement of the block it came from (`tops`: what a frame stepping the block
    would have been running) given to it, for the frame loop to name should the rules
    have refused their own statement (vm.State._step_frames)."""
    if isinstance(err, Refused):
        if err.where is None and w >= 0:
            err.where = tops[w]
        return err
    return _rt_locate(err, wheres, w, names)


MEMO_WINDOW = 512  # a generated definition's calls between two judgements of its memo
MEMO_FINDS = 8  # ... which it keeps while at least one call in MEMO_FINDS finds its result
KEPT_WINDOW = 64  # its calls outside a menu between two judgements of what it keeps there
KEPT_FINDS = 4  # ... which it reads while at least one call in KEPT_FINDS finds its result kept


def _rt_memo_pays(calls: list[int], made: list[int], off: list[bool], k: int, finds: int = MEMO_FINDS) -> None:
    """Judge definition `k`'s memo over its last MEMO_WINDOW calls (or what it keeps, read
    outside a menu, over its last KEPT_WINDOW there): off for good when fewer than one in
    `finds` found a result (computed in this menu, or kept from an earlier one): its key
    and look-ups then cost more than they save. A definition gives the same value
    remembered or not (it reads the state, which a menu does not change, and a result is
    kept with what it read), so only the time differs."""
    if (calls[k] - made[k]) * finds < calls[k]:
        off[k] = True
    calls[k] = made[k] = 0


def _rt_held_version(st: State, target: Any) -> Any:
    """The number of the last change to the pieces on `target` (its holder zone's; each
    space's for a track): a site of a stamp (Reads.own_site), where the part counts the
    pieces on every holder. None for anything else (reading its pieces is refused)."""
    lay = st.game.layout
    zone = lay.holder_zone.get(target)
    if zone is not None:
        return st.zone_versions[zone]
    spaces = lay.track_zones.get(target)
    return None if spaces is None else tuple(st.zone_versions[z] for z in spaces)


RUNTIME = {name: value for name, value in globals().items() if name.startswith("_rt_")}


# --------------------------------------------------------------------------- what a function reads
# A definition remembered across menus: its result stands while none of what it reads
# has changed. What changes is counted per part of the state (State.versions, parts
# in interpreter/layout.py): the pieces (zones), the value slots, the turn order, the
# modifiers, every counter, each counter name. A definition that reads anything else
# (a quantity, a builtin, the closures) is remembered only within one menu.



_PARAMETER = re.compile(r"_p\d+")  # a generated definition's parameter (DefinitionWriter)


def is_parameter(code: str) -> bool:
    """Whether `code` names one of a generated definition's parameters: known where its
    stamp is made, so a read of what it names can be stamped by that alone."""
    return _PARAMETER.fullmatch(code) is not None


class Reads:
    """What one generated function reads of the state: parts (State.versions), and
    single counter slots, value slots and zones (`sv[...]`, `vv[...]`, `zv[...]`:
    State.slot_versions, value_versions and zone_versions), indexed by a constant or by
    the acting player; parts None: it cannot say."""

    __slots__ = ("parts", "sites", "own")

    def __init__(self) -> None:
        self.parts: set[int] | None = set()
        self.sites: dict[str, None] = {}
        self.own: dict[str, int] = {}  # sites naming a definition's own parameters -> the part read

    def add(self, part: int) -> None:
        if self.parts is not None:
            self.parts.add(part)

    def site(self, code: str) -> None:
        self.sites[code] = None

    def own_site(self, code: str, part: int) -> None:
        """A site that names the definition's own parameters (`_p0`): one holder's pieces,
        where `part` counts every holder's. A caller reads it as the whole part."""
        self.own[code] = part

    def held(self, target: str) -> None:
        """The pieces on the item `target` (generated code) are read: counted by that item's
        own zone when it is one of the definition's parameters (known where the stamp is
        made), else by the part that counts the pieces on every holder."""
        if is_parameter(target):
            # the holder's zone read in place (ExpressionWriter binds `_hz`), else the helper
            self.own_site(f"(zv[_hz[{target}]] if {target} in _hz else _rt_held_version(st, {target}))", PART_HOLDERS)
        else:
            self.add(PART_HOLDERS)

    def add_parts(self, parts: tuple[int, ...] | None) -> None:
        """Parts read (a builtin's row, interpreter/builtins.py READS); None: it cannot say."""
        if parts is None:
            self.unknown()
        else:
            for part in parts:
                self.add(part)

    def unknown(self) -> None:
        self.parts = None

    def merge(self, other: "Reads") -> None:
        if other.parts is None:
            self.parts = None
        elif self.parts is not None:
            self.parts |= other.parts
            self.parts.update(other.own.values())  # its parameters are not the caller's
            self.sites.update(other.sites)

    def stamp(self) -> str:
        """The code of what was read, as the numbers of the last changes to it: a tuple of
        the versions read. Each change takes a number no other change has (versions.py),
        so an equal tuple, in this state or in a copy that shares its keep, is an
        unchanged read."""
        assert self.parts is not None
        items = [f"v[{p!r}]" for p in sorted(self.parts)] + list(self.sites) + list(self.own)
        return f"({', '.join(items)},)" if items else "()"


# --------------------------------------------------------------------------- the writer
class Scope:
    """Where an expression is written: the Python names of the activation (None in a
    definition), the acting player, `this`, the local table, `it`, and the
    definitions' parameters (name -> Python local)."""

    __slots__ = ("a", "me", "this", "env", "it", "params", "uses", "names")

    def __init__(self, a: str | None, me: str, this: str, env: str | None, it: str,
                 params: dict[str, str] | None = None, uses: set[str] | None = None,
                 names: set[str] | None = None):
        self.a, self.me, self.this, self.env, self.it = a, me, this, env, it
        self.params = params or {}
        self.uses: set[str] = uses if uses is not None else set()
        self.names: set[str] = names if names is not None else set()  # locals read from the table (env)

    def with_it(self, it: str) -> "Scope":
        return Scope(self.a, self.me, self.this, self.env, it, self.params, self.uses, self.names)

    def as_player(self, a: str, me: str) -> "Scope":
        return Scope(a, me, self.this, self.env, self.it, self.params, self.uses, self.names)

    def binding(self, name: str, code: str) -> "Scope":
        """The same place with a local name held in a Python local."""
        return Scope(self.a, self.me, self.this, self.env, self.it, {**self.params, name: code}, self.uses,
                     self.names)



def make_reader(by_piece: list, by_def: list, defs: list, era_slot: int, name: str, strict: bool,
                has_era: bool) -> Callable[[State, Any], Any]:
    """An attribute read (the closures' `attribute`): a column by piece or by definition,
    a missing one an error unless `strict` is false, era values read for the era now."""

    def read(st: State, x: Any) -> Any:
        if type(x) is int:
            v = by_piece[x]
        elif x is None:  # a value slot nothing has filled yet: a content error, located
            raise ContentError(f"nothing here to read `{name}` of (the value is not set yet)")
        else:
            v = by_def[int(x)]
        if v is MISSING and strict:
            who = defs[int(x)].name if isinstance(x, DefRef) else st.describe(x)
            raise ContentError(f"{who} has no `{name}`: declare a default for `{name}` in the ruleset, "
                               f"or check `X has {name}` first")
        return v
    if not has_era:
        return read

    def read_era(st: State, x: Any) -> Any:
        v = read(st, x)
        if type(v) is EraValue:
            return _rt_era_of(st, era_slot, v)
        if type(v) is list:
            return [_rt_era_of(st, era_slot, y) if type(y) is EraValue else y for y in v]
        return v
    return read_era


MISSING_MEMO = object()  # not in a memo (None is a value a definition may give)
UNSET = object()  # a slot of codegen/hoist.py not worked out yet in this evaluation (None is a value)
NOT_TABLED = object()  # a piece a table of fixed values (codegen/tables.py) holds nothing for: the expression runs
INLINE_UP_TO = 160  # characters of generated code: a definition this small is written where it is called


# the pieces on an item and a token's owner read in place (writer.pieces_on, owner_of)
_IN_PLACE = re.compile(
    r"\(_rt_walk\((?P<st>[\w.]+), (?P=st)\.zones\[_hz\[(?P<x>[\w-]+)\]\]\)(?:\[:\])? if (?P=x) in _hz "
    r"else (?P<on>_pieces_on\((?P=st), (?P=x)\))\)"
    r"|\(_to\[(?P<y>[\w-]+)\] if type\((?P=y)\) is int and (?P=y) in _to else (?P<owner>_owner\([\w.]+, (?P=y)\))\)")


def as_called(body: str) -> str:
    """`body` with the reads written in place put back as the calls they stand for, and a
    walk without its copy (`_rt_walk2`, `_rt_count`) as the walks and the copy it saves:
    what the judgements of size below measure, so that neither changes a decision to
    write a definition where it is called or to keep its results (only a measure: a text
    of the content's that looked like one would change a judgement, never a value)."""
    if " in _" in body:
        body = _IN_PLACE.sub(lambda m: m.group("on") or m.group("owner"), body)
    if "_rt_walk2(" in body or "_rt_count(" in body:
        body = _UNCOPIED.sub(lambda m: _AS_COPIED[m.group(0)], body)
    return body


# what a walk without its copy stands for, in length: its name's place taken by as many
# characters as the walks and the copy written out had more (`_rt_walk(st, ` + `_rt_walk(`
# ... `)[:]` + `)`; `len(_rt_walk(` ... `)[:])`), so a size judgement reads the same length
_UNCOPIED = re.compile(r"\b_rt_walk2\(|\b_rt_count\(")
_AS_COPIED = {"_rt_walk2(": "_rt_walk(st, _rt_walk(" + " " * 4, "_rt_count(": "len(_rt_walk(" + " " * 4}


def inlined(body: str) -> bool:
    """Whether a definition is written where it is called: a small one, or arithmetic and
    comparisons without a walk over a collection (cheaper than a call and its memo)."""
    body = as_called(body)
    return len(body) <= INLINE_UP_TO or (len(body) <= 4 * INLINE_UP_TO and " for " not in body)


def costly(body: str) -> bool:
    """Whether a definition's code costs more than comparing what it read: it walks a
    collection or the map, or calls two definitions (a cheap one is computed again instead)."""
    body = as_called(body)
    return (" for " in body or len(re.findall(r"\b_d\d+\(", body)) >= 2
            or re.search(r"\b_rt_(?:neighbours|within|distance)\(", body) is not None)


def uncopied(src: str) -> str | None:
    """The arguments of a walk copied whole (`_rt_walk(ARGS)[:]`) where `src` is one, for
    a reader that only walks or counts it (`_rt_walk2`, `_rt_count`); else None."""
    head, tail = "_rt_walk(", ")[:]"
    if not (src.startswith(head) and src.endswith(tail)):
        return None
    args = src[len(head):-len(tail)]
    depth, quote, escaped = 0, "", False
    for ch in args:  # the first call's parenthesis must close at the end, not before
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return None
    return args if depth == 0 and not quote else None


def simple(code: str) -> bool:
    """Whether a piece of generated code is a name or a literal (reading it twice is free)."""
    return code.isidentifier() or code.lstrip("-").isdigit()


def own_reader(name: str, slots: list[int], counter: bool, strict: bool) -> Callable[[State, Any], Any]:
    def own(st: State, pid: Any) -> Any:
        slot = slots[pid] if type(pid) is int else -1
        if slot < 0:
            if not strict:
                return MISSING
            raise ContentError(f"{st.describe(pid)} has no `{name}` of its own")
        return st.counters[slot] if counter else st.values[slot]
    return own

