"""Attribute columns: each attribute's run-time values by piece and by definition, built
once per name; ids read as items, effects as EffectRefs compiled when everything they
may use is built (`finish`); reading an attribute, era values, a piece's own counters
and value slots.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, NoReturn

from legacies.dsl import ast
from legacies.dsl import resolution as r
from legacies.dsl.types import T

from .. import mechanics as mech
from .context import CompileContext, Compiles, Fn, MISSING
from ..errors import ContentError
from ..spec import Origin
from ..values import DefRef, EffectRef, EraValue
from ..vm import Activation, Block, State


class Table:
    """A `table:<kind>` attribute: items of a kind, each with a number, in written order."""

    __slots__ = ("items", "numbers")

    def __init__(self, items: list, numbers: dict[int, Any]):
        self.items = items  # pieces (board kinds) or DefRefs (card kinds)
        self.numbers = numbers  # definition index -> number

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __repr__(self) -> str:
        return "table" + repr(dict(self.numbers))


def _for_piece(value: Any, pid: int) -> Any:
    """An effect read through a piece runs as that piece (`this`)."""
    if isinstance(value, EffectRef):
        return EffectRef(value.code, pid, value.label)
    if type(value) is list and value and isinstance(value[0], EffectRef):
        return [EffectRef(v.code, pid, v.label) for v in value]
    return value


class Columns:
    """Attribute columns and a piece's own state; the effects attributes hold, compiled
    when everything they may use is built (`finish`)."""

    def __init__(self, ctx: CompileContext, compiler: Compiles):
        self.ctx = ctx
        self.compiler = compiler
        self._columns: dict[str, tuple[list, list]] = {}  # attribute -> (by piece, by definition)
        self._era_columns: dict[str, tuple[bool, bool]] = {}  # attribute -> (era values, era values in lists)
        self._effect_code: dict[tuple[int, str, int], Block] = {}
        # effect attributes waiting to be compiled: (ref, key, program, origin)
        self._pending_effects: list[tuple[EffectRef, tuple[int, str, int], ast.Program | None, Origin]] = []
        self._copies: list[tuple[EffectRef, EffectRef]] = []  # a piece's copy of a waiting effect

    # ---- attributes
    def column(self, name: str) -> tuple[list, list]:
        """An attribute's runtime values, by piece and by definition (built once)."""
        found = self._columns.get(name)
        if found is None:
            by_def = [self.attribute_value(d, name) for d in range(len(self.ctx.spec.defs))]
            by_piece = [_for_piece(by_def[d], pid) for pid, d in enumerate(self.ctx.lay.piece_def)]
            found = self._columns[name] = (by_piece, by_def)
            for v, src in zip(by_piece, (by_def[d] for d in self.ctx.lay.piece_def)):
                if isinstance(v, EffectRef) and v.code is None:
                    self._copies.append((v, src))
                elif type(v) is list and v and isinstance(v[0], EffectRef):
                    self._copies.extend((copy, original) for copy, original in zip(v, src) if copy.code is None)
        return found

    def era_column(self, name: str, by_def: list) -> tuple[bool, bool]:
        """Whether an attribute holds era values (`20/50/100`) anywhere, as itself or in a
        list; once per attribute (asked for every place that reads it)."""
        found = self._era_columns.get(name)
        if found is None:
            found = self._era_columns[name] = (
                any(isinstance(v, EraValue) for v in by_def),
                any(isinstance(x, EraValue) for v in by_def if isinstance(v, list) for x in v))
        return found

    def finish(self) -> None:
        """Compile the effect attributes read so far. Effects wait until every definition
        and column they may use is built: an effect that reads its own attribute
        (`if C has reward`), or a definition whose column holds effects that call it,
        never compiles inside itself. Call after compiling anything that may run."""
        while self._pending_effects:
            ref, key, program, origin = self._pending_effects.pop()
            saved = self.ctx.origin
            self.ctx.origin = origin
            try:
                code = self._effect_code.get(key)
                if code is None:
                    code = self._effect_code[key] = self.compiler.program(program)
                ref.code = code
            finally:
                self.ctx.origin = saved
        for copy, original in self._copies:
            copy.code = original.code
        self._copies.clear()

    def effect_source(self, code: Any) -> tuple[int, str, int] | None:
        """Which item's effect attribute compiled to `code`: (its definition, the
        attribute, the entry of a list of effects or -1); None for other code."""
        for (d, name, i), compiled in self._effect_code.items():
            if compiled is code:
                return d, name, i if isinstance(self.ctx.spec.defs[d].programs.get(name), list) else -1
        return None

    def attribute_value(self, d: int, name: str) -> Any:
        """Definition d's `name` as a runtime value: items for ids, EffectRefs for effects."""
        pdef = self.ctx.spec.defs[d]
        kind = self.ctx.v.kinds.get(pdef.kind)
        t = kind.attributes.get(name) if kind is not None else None
        if name in pdef.attrs:
            raw = pdef.attrs[name]
        elif kind is not None and name in kind.defaults:
            raw = kind.defaults[name]
        elif t is not None and (t.is_collection or t.tag == "flag"):
            raw = False if t.tag == "flag" else {} if t.tag == "table" else []  # empty and no, unless given
        else:
            return MISSING
        if t is None:
            return raw
        return self.convert(t, raw, d, name)

    def convert(self, t: T, raw: Any, d: int, name: str) -> Any:
        lay = self.ctx.lay
        if t.tag == "amount" and isinstance(raw, str):
            return EraValue(int(x) for x in raw.split("/"))
        if t.tag == "numbers":
            return [EraValue(int(x) for x in v.split("/")) if isinstance(v, str) else v for v in raw]
        if t.tag in ("thing", "def"):  # a card kind's item is the card's name, as one named in source
            return self.item(raw)
        if t.tag in ("things", "defs"):
            return [self.item(x) for x in raw]
        if t.tag == "table":
            items = [self.item(k) for k in raw]
            numbers = {lay.def_index[k]: (EraValue(int(x) for x in v.split("/")) if isinstance(v, str) else v)
                       for k, v in raw.items()}
            return Table(items, numbers)
        if t.tag == "effect":
            return self.effect_ref(d, name, 0)
        if t.tag == "effects":
            return [self.effect_ref(d, name, i) for i in range(len(raw))]
        return raw

    def item(self, content_id: str) -> Any:
        if content_id in self.ctx.lay.board_item:
            return self.ctx.lay.board_item[content_id]
        return DefRef(self.ctx.lay.def_index[content_id])

    def effect_ref(self, d: int, name: str, i: int) -> EffectRef:
        pdef = self.ctx.spec.defs[d]
        programs = pdef.programs.get(name)
        program = programs[i] if isinstance(programs, list) else programs
        key = (d, name, i)
        code = self._effect_code.get(key)
        label = f"{name} of {pdef.name}" + (f" ({i + 1})" if isinstance(programs, list) else "")
        pieces = self.ctx.lay.def_pieces[d]
        ref = EffectRef(code, pieces[0] if len(pieces) == 1 else -1, label)
        if code is None:
            origin_key = name if not isinstance(programs, list) else f"{name}.{i + 1}"
            origin = pdef.origins.get(origin_key, Origin(label))
            where = Origin(f"{label} ({self.ctx.v.kinds[pdef.kind].label or pdef.kind} `{pdef.id}`)",
                           origin.file, origin.line_offset, origin.column_offset)
            self._pending_effects.append(
                (ref, key, program if isinstance(program, ast.Program) else None, where))
        return ref

    def attribute(self, e: ast.Of, strict: bool) -> Fn:
        name = e.name
        by_piece, by_def = self.column(name)
        subj = self.compiler.expr(e.subject)
        t = self.ctx.type_of(e)
        era_scalar, era_in_lists = self.era_column(name, by_def)
        has_era = era_scalar or (t.tag == "numbers" and era_in_lists)
        defs = self.ctx.spec.defs
        era_of = self.era_of

        def read(a: Activation) -> Any:
            x = subj(a)
            if type(x) is int:
                v = by_piece[x]
            elif x is None:  # a value slot nothing has filled yet: a content error, located
                raise ContentError(f"nothing here to read `{name}` of (the value is not set yet)")
            else:
                v = by_def[int(x)]
            if v is MISSING and strict:
                who = defs[int(x)].name if isinstance(x, DefRef) else a.st.describe(x)
                raise ContentError(f"{who} has no `{name}`: declare a default for `{name}` in the ruleset, "
                                   f"or check `X has {name}` first")
            return v
        if not has_era:
            return read

        def read_era(a: Activation) -> Any:
            v = read(a)
            if type(v) is EraValue:
                return era_of(v, a.st)
            if type(v) is list:
                return [era_of(x, a.st) if type(x) is EraValue else x for x in v]
            return v
        return read_era

    # ---- a piece's own counters and values (each copy its own; interpreter/layout.py)
    def own_state(self, e: ast.Of, ref: r.ItemCounter | r.ItemValue, strict: bool = True) -> Fn:
        """Read `X's NAME`, a counter or a value slot of the piece X; a piece without one is
        an error, or nothing beside `is` (`strict` false), as a missing attribute is."""
        subj = self.compiler.expr(e.subject)
        name = ref.name
        counter = isinstance(ref, r.ItemCounter)
        slots = self.ctx.lay.counter_slots(name) if counter else self.ctx.lay.value_slots(name)

        def own(a: Activation) -> Any:
            pid = subj(a)
            slot = slots[pid] if type(pid) is int else -1
            if slot < 0:
                if not strict:
                    return MISSING
                raise ContentError(f"{a.st.describe(pid)} has no `{name}` of its own")
            return a.st.counters[slot] if counter else a.st.values[slot]
        return own

    def own_slot(self, e: ast.Of, ref: r.ItemCounter | r.ItemValue) -> Callable[[Activation], int]:
        """The slot a change of `X's NAME` writes; a card's own state changes only while
        it is on the table (mechanics.mine), a board item's always."""
        subj = self.compiler.expr(e.subject)
        name = ref.name
        counter = isinstance(ref, r.ItemCounter)
        slots = self.ctx.lay.counter_slots(name) if counter else self.ctx.lay.value_slots(name)
        what = f"`{name}`"
        cards = self.own_changes_need_table(ref)

        def slot(a: Activation) -> int:
            pid = mech.mine(a.st, subj(a), what) if cards else subj(a)
            found = slots[pid] if type(pid) is int else -1
            if found < 0:
                no_own_state(a.st, pid, name)
            return found
        return slot

    def own_changes_need_table(self, ref: r.ItemCounter | r.ItemValue) -> bool:
        """Whether a piece's own `NAME` may belong to a card, which changes it only while it
        is on the table (mechanics.mine)."""
        counter = isinstance(ref, r.ItemCounter)
        return any(k.piece == "card" and ref.name in (k.counters if counter else k.values)
                   for k in self.ctx.v.kinds.values())

    def era_of(self, v: Any, st: State) -> Any:
        i = st.counters[self.ctx.era_slot] - 1 if self.ctx.era_slot >= 0 else 0
        return v[0 if i < 0 else min(i, len(v) - 1)]


def no_own_state(st: State, pid: Any, name: str) -> NoReturn:
    """A change of `X's NAME` where X has no `NAME` of its own."""
    raise ContentError(f"{st.describe(pid)} has no `{name}` of its own")
