"""AST -> closures, once per ruleset and player count.

A table from node kind to a compile method (python-jsonschema's keyword table);
each returns a closure over plain integers (counter slots, zone ids, attribute
columns) computed from the Layout, so running an effect indexes lists and never looks
a name up. Statements compile to instructions `(state, activation) -> None` that act
at once or push a frame (interpreter/frames.py); a block of them is a `Block` that
knows where each statement was written (its Where), so an error names the item and
the file:line:column. Builtins run their entry in dsl/constructs.py.

Content mistakes that only show at run time raise ContentError (an InternalError):
a player that is `nobody`, a missing attribute used as a number, a list read past its
end. A player's inability (`pay` more than they have) raises Refused.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from legacies.dsl import ast, printer
from legacies.dsl import resolution as r
from legacies.dsl.constructs import BUILTINS
from legacies.dsl.renderer import Wording, render_expr
from legacies.dsl.resolution import Resolution
from legacies.dsl.types import T

from . import chance, ending
from . import mechanics as mech
from .coverage import Coverage
from .decisions import Choice
from .errors import BudgetExceeded, ContentError, InternalError, Refused, Where
from .frames import AskFrame, AuctionFrame, ChooseManyFrame, ForEachFrame, PerformFrame, RepeatFrame, TurnsFrame, innermost_turns
from .layout import Layout
from .ledger import Adjust, Ledger
from .spec import ActionSpec, GameSpec, Origin
from .values import DefRef, EffectRef, EraValue
from .vm import Activation, Block, BlockFrame, State
from .windows import OfferFrame

Fn = Callable[[Activation], Any]
Instr = Callable[[State, Activation], None]

MISSING = None  # an attribute an item does not give (and that has no default)


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


class CompiledAction:
    __slots__ = ("name", "label", "var", "collection", "condition", "instrs", "gate", "items")

    def __init__(self, name: str, label: str, var: str | None, collection: Fn | None, condition: Fn | None,
                 instrs: tuple, gate: bool = False, items: bool = False):
        self.name = name
        self.label = label
        self.var = var
        self.collection = collection
        self.condition = condition
        self.instrs = instrs
        self.gate = gate  # the `if:` does not read the target: asked once, before the targets
        self.items = items  # the targets are pieces or items (not players, symbols or numbers)

    def targets(self, st: State, act: Activation) -> Iterator[Any]:
        """Every target the rules allow now (None for an action without `choose:`)."""
        probe = Activation(st, act.me, act.this)
        if self.collection is None:
            if self.condition is None or self.condition(probe):
                yield None
            return
        if self.gate:
            assert self.condition is not None
            if not self.condition(probe):
                return
            yield from self.collection(probe)
            return
        for target in self.collection(probe):
            probe.env[self.var] = target
            if self.condition is None or self.condition(probe):
                yield target

    def options(self, st: State, act: Activation, index: int) -> list[Choice]:
        if self.collection is None:
            return [Choice(self.label, (index, None)) for _ in self.targets(st, act)]
        slot = "{" + str(self.var) + "}"
        return [Choice(self.label.replace(slot, mech.describe(st, t)), (index, t), t if self.items else None)
                for t in self.targets(st, act)]

    def available(self, st: State, act: Activation) -> bool:
        """Whether any option exists, without building labels: `possible(...)`."""
        return next(self.targets(st, act), _NONE) is not _NONE

    def start(self, st: State, act: Activation, target: Any) -> None:
        env = {self.var: target} if self.var else {}
        st.frames.append(BlockFrame(self.instrs, Activation(st, act.me, act.this, env)))


_STATIC_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda v, c: v == c, "!=": lambda v, c: v != c, ">": lambda v, c: v > c,
    "<": lambda v, c: v < c, ">=": lambda v, c: v >= c, "<=": lambda v, c: v <= c}
_MIRRORED = {">": "<", "<": ">", ">=": "<=", "<=": ">="}


def _and3(x: bool | None, y: bool | None) -> bool | None:
    """`and` of decided (True/False) and undecided (None) tests, left first as the
    condition runs: an undecided left side leaves the whole undecided."""
    return x if x is not True else y


def _or3(x: bool | None, y: bool | None) -> bool | None:
    return x if x is not False else y

_MISSING = object()  # not in a memo (None is a value a definition may give)


def _as_def(piece_def: list[int], x: Any) -> int:
    """The definition index of a piece or of a card named in source."""
    return int(x) if isinstance(x, DefRef) else piece_def[x]


def _no_player(what: str) -> ContentError:
    return ContentError(f"{what}: the player here is nobody (an auction no one won, or an effect no "
                        "player runs, such as a board item's trigger); check `P is not nobody` or name a player")


class Compiler:
    def __init__(self, spec: GameSpec, lay: Layout, coverage: Coverage | None = None, ledger: Ledger | None = None):
        self.spec = spec
        self.coverage = coverage  # branch probes (interpreter.coverage); None: the usual closures
        self.ledger = ledger  # score changes recorded (interpreter.ledger); None: the usual closures
        self.v = spec.vocab
        self.lay = lay
        self.res: Resolution = spec.res
        self.definitions: dict[str, tuple[list[str], Fn]] = {}
        self._defining: set[str] = set()
        self.origin: Origin = Origin("an effect")
        self.wording = Wording.of(self.v)
        self._columns: dict[str, tuple[list, list]] = {}  # attribute -> (by piece, by definition)
        self._era_columns: dict[str, tuple[bool, bool]] = {}  # attribute -> (era values, era values in lists)
        self._static: dict[tuple, tuple[list[bool | None], list[bool | None]]] = {}  # see static_test
        self._effect_code: dict[tuple[int, str, int], Block] = {}
        # effect attributes waiting to be compiled: (ref, key, program, origin)
        self._pending_effects: list[tuple[EffectRef, tuple[int, str, int], ast.Program | None, Origin]] = []
        self._copies: list[tuple[EffectRef, EffectRef]] = []  # a piece's copy of a waiting effect
        self.piece_kind = [spec.defs[d].kind for d in lay.piece_def]
        self.era_slot = lay.game_counter.get(spec.era_counter or "", -1)

    # ------------------------------------------------------------------ helpers
    def ref(self, node: ast.Node) -> r.Ref:
        return self.res.ref(node)

    def type_of(self, node: ast.Node) -> T:
        return self.res.type(node)

    def where(self, node: ast.Node) -> Where:
        line, column = self.origin.at(node.span)
        return Where(self.origin.what, self.origin.file, line, column)

    # ------------------------------------------------------------------ programs
    def block(self, body: ast.Body, origin: str | None = None) -> Block:
        return Block(tuple(self.stmt(s) for s in body), tuple(self.where(s) for s in body),
                     origin or self.origin.what)

    def program(self, program: ast.Program | None, origin: Origin | None = None) -> Block:
        if origin is not None:
            self.origin = origin
        if program is None:
            return Block((), (), self.origin.what)
        return self.block(program.statements)

    # ------------------------------------------------------------------ expressions
    def expr(self, e: ast.Expr) -> Fn:
        method = getattr(self, "x_" + type(e).__name__)
        fn: Fn = method(e)
        return fn

    def lenient(self, e: ast.Expr) -> Fn:
        """An operand of `is`/`is not`/`is in`: a missing attribute reads as nothing."""
        if isinstance(e, ast.Of) and isinstance(self.ref(e), r.Attribute):
            return self.attribute(e, strict=False)
        ref = self.ref(e)
        if isinstance(e, ast.Of) and isinstance(ref, (r.ItemCounter, r.ItemValue)):
            return self.own_state(e, ref, strict=False)
        return self.expr(e)

    def x_Num(self, e: ast.Num) -> Fn:
        v = e.value
        return lambda a: v

    def x_Era(self, e: ast.Era) -> Fn:
        values = e.values
        slot = self.era_slot
        last = len(values) - 1

        def era_value(a: Activation) -> int:
            i = a.st.counters[slot] - 1 if slot >= 0 else 0
            return values[0 if i < 0 else (last if i > last else i)]
        return era_value

    def era_of(self, v: Any, st: State) -> Any:
        i = st.counters[self.era_slot] - 1 if self.era_slot >= 0 else 0
        return v[0 if i < 0 else min(i, len(v) - 1)]

    def x_Percent(self, e: ast.Percent) -> Fn:
        v = e.value
        return lambda a: v

    def x_Text(self, e: ast.Text) -> Fn:
        v = e.value
        return lambda a: v

    def x_Bool(self, e: ast.Bool) -> Fn:
        v = e.value
        return lambda a: v

    def x_This(self, e: ast.This) -> Fn:
        return lambda a: a.this

    def x_It(self, e: ast.It) -> Fn:
        return lambda a: a.it

    def x_Name(self, e: ast.Name) -> Fn:  # noqa: C901 - one branch per kind of name
        ref = self.ref(e)
        lay = self.lay
        if isinstance(ref, r.Local):
            name = ref.name

            def local(a: Activation) -> Any:
                try:
                    return a.env[name]
                except KeyError:
                    raise ContentError(f"`{name}` has no value here") from None
            return local
        if isinstance(ref, r.BuiltinName):
            run = BUILTINS[ref.name].run
            assert run is not None
            return run
        if isinstance(ref, r.GameCounter):
            slot = lay.game_counter[ref.name]
            return lambda a: a.st.counters[slot]
        if isinstance(ref, r.PlayerCounter):
            return self.player_counter(ref.name, None)
        if isinstance(ref, r.GameValue):
            vslot = lay.game_value[ref.name]
            return lambda a: a.st.values[vslot]
        if isinstance(ref, r.PlayerValue):
            return self.player_value(ref.name, None)
        if isinstance(ref, r.GameZone):
            z = lay.game_zone[ref.name]
            return lambda a: z
        if isinstance(ref, r.PlayerZone):
            return self.player_zone(ref.name, None)
        if isinstance(ref, r.Symbol):
            s = ref.symbol
            return lambda a: s
        if isinstance(ref, r.Enum):
            values = list(self.v.enums[ref.enum])
            return lambda a: values[:]
        if isinstance(ref, r.CounterSet):
            members = list(self.v.counter_sets[ref.name])
            return lambda a: members[:]
        if isinstance(ref, r.Option):
            name = ref.name
            return lambda a: a.st.game.options[name]
        if isinstance(ref, r.Quantity):
            q = ref.name
            return lambda a: mech.quantity(a.st, q, a.me, None)
        if isinstance(ref, r.KindAll):
            pieces = list(lay.kind_pieces.get(ref.kind, []))
            return lambda a: pieces[:]
        if isinstance(ref, r.BoardItem):
            pid = lay.board_item[ref.id]
            return lambda a: pid
        if isinstance(ref, r.CardDef):
            dref = DefRef(lay.def_index[ref.id])
            return lambda a: dref
        if isinstance(ref, r.CardPiece):
            copies = lay.def_pieces[lay.def_index[ref.id]]
            if len(copies) != 1:
                raise ContentError(f"`{ref.id}` has {len(copies)} copies here: choose one of them "
                                   f"(`top of (cards in ZONE where it is {ref.id})`)", self.where(e))
            pid = copies[0]
            return lambda a: pid
        if isinstance(ref, r.Definition):
            return self.call_definition(ref.name, [], e)
        if isinstance(ref, r.Action):
            name = ref.name
            return lambda a: name
        raise InternalError(f"`{e.name}` was not resolved by the checker", self.where(e))

    def player_counter(self, name: str, subject: ast.Expr | None) -> Fn:
        base = self.lay.player_counter[name]
        if subject is None:
            def mine(a: Activation) -> int:
                p = a.me
                if p < 0:
                    raise _no_player(f"there is no `{name}` to read")
                return a.st.counters[base + p]
            return mine
        subj = self.expr(subject)

        def theirs(a: Activation) -> int:
            p = subj(a)
            if p < 0:
                raise _no_player(f"nobody has `{name}`")
            return a.st.counters[base + p]
        return theirs

    def player_value(self, name: str, subject: ast.Expr | None) -> Fn:
        base = self.lay.player_value[name]
        subj = self.expr(subject) if subject is not None else None

        def value(a: Activation) -> Any:
            p = subj(a) if subj is not None else a.me
            if p < 0:
                raise _no_player(f"nobody has `{name}`")
            return a.st.values[base + p]
        return value

    def player_zone(self, name: str, subject: ast.Expr | None, plural: bool = False) -> Fn:
        base = self.lay.player_zone[name]
        if subject is None:
            def mine(a: Activation) -> int:
                if a.me < 0:
                    raise _no_player(f"there is no `{name}` here")
                return base + a.me
            return mine
        subj = self.expr(subject)
        if plural:
            return lambda a: [base + p for p in subj(a)]

        def theirs(a: Activation) -> int:
            p = subj(a)
            if p < 0:
                raise _no_player(f"nobody has a `{name}`")
            return base + p
        return theirs

    def counter_of(self, ref: r.CounterOf) -> Fn:
        """The slot of a counter chosen at run time, for a player."""
        holder = self.expr(ref.holder)
        table = self.lay.player_counter
        subj = self.expr(ref.subject) if ref.subject is not None else None

        def slot(a: Activation) -> int:
            p = subj(a) if subj is not None else a.me
            if p < 0:
                raise _no_player("nobody has counters")
            return table[holder(a)] + p
        return slot

    def x_Of(self, e: ast.Of) -> Fn:
        ref = self.ref(e)
        lay = self.lay
        if isinstance(ref, r.PlayerCounter):
            return self.player_counter(ref.name, ref.subject)
        if isinstance(ref, r.PlayerValue):
            return self.player_value(ref.name, ref.subject)
        if isinstance(ref, r.PlayerZone):
            return self.player_zone(ref.name, ref.subject, ref.plural)
        if isinstance(ref, r.CounterOf):
            slot = self.counter_of(ref)
            return lambda a: a.st.counters[slot(a)]
        if isinstance(ref, r.Quantity):
            q = ref.name
            subj = self.expr(e.subject)
            if ref.of_player:
                return lambda a: mech.quantity(a.st, q, subj(a), None)
            return lambda a: mech.quantity(a.st, q, a.me, subj(a))
        if isinstance(ref, r.Supply):
            token_kind = ref.kind
            subj = self.expr(e.subject)
            return lambda a: ("supply", token_kind, subj(a))
        if isinstance(ref, r.Attribute):
            return self.attribute(e, strict=True)
        if isinstance(ref, (r.ItemCounter, r.ItemValue)):
            return self.own_state(e, ref)
        if isinstance(ref, r.BuiltinOf):
            b = BUILTINS[ref.name]
            subj = self.expr(e.subject)
            run = b.run_for_player if (b.run_for_player and self.type_of(e.subject).tag == "player") else b.run
            assert run is not None
            if ref.name == "count" and self.type_of(e.subject).tag == "zone":
                return lambda a: len(a.st.zones[subj(a)])
            return lambda a: run(a, subj(a))
        raise InternalError(f"`{e.name}` was not resolved by the checker", self.where(e))

    # ---- attributes
    def column(self, name: str) -> tuple[list, list]:
        """An attribute's runtime values, by piece and by definition (built once)."""
        found = self._columns.get(name)
        if found is None:
            by_def = [self.attribute_value(d, name) for d in range(len(self.spec.defs))]
            by_piece = [_for_piece(by_def[d], pid) for pid, d in enumerate(self.lay.piece_def)]
            found = self._columns[name] = (by_piece, by_def)
            for v, src in zip(by_piece, (by_def[d] for d in self.lay.piece_def)):
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
        (`if C has opportunity`), or a definition whose column holds effects that call it,
        never compiles inside itself. Call after compiling anything that may run."""
        while self._pending_effects:
            ref, key, program, origin = self._pending_effects.pop()
            saved = self.origin
            self.origin = origin
            try:
                code = self._effect_code.get(key)
                if code is None:
                    code = self._effect_code[key] = self.program(program)
                ref.code = code
            finally:
                self.origin = saved
        for copy, original in self._copies:
            copy.code = original.code
        self._copies.clear()

    def attribute_value(self, d: int, name: str) -> Any:
        """Definition d's `name` as a runtime value: items for ids, EffectRefs for effects."""
        pdef = self.spec.defs[d]
        kind = self.v.kinds.get(pdef.kind)
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
        lay = self.lay
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
        if content_id in self.lay.board_item:
            return self.lay.board_item[content_id]
        return DefRef(self.lay.def_index[content_id])

    def effect_ref(self, d: int, name: str, i: int) -> EffectRef:
        pdef = self.spec.defs[d]
        programs = pdef.programs.get(name)
        program = programs[i] if isinstance(programs, list) else programs
        key = (d, name, i)
        code = self._effect_code.get(key)
        label = f"{name} of {pdef.name}" + (f" ({i + 1})" if isinstance(programs, list) else "")
        pieces = self.lay.def_pieces[d]
        ref = EffectRef(code, pieces[0] if len(pieces) == 1 else -1, label)
        if code is None:
            origin_key = name if not isinstance(programs, list) else f"{name}.{i + 1}"
            origin = pdef.origins.get(origin_key, Origin(label))
            where = Origin(f"{label} ({self.v.kinds[pdef.kind].label or pdef.kind} `{pdef.id}`)",
                           origin.file, origin.line_offset, origin.column_offset)
            self._pending_effects.append(
                (ref, key, program if isinstance(program, ast.Program) else None, where))
        return ref

    def attribute(self, e: ast.Of, strict: bool) -> Fn:
        name = e.name
        by_piece, by_def = self.column(name)
        subj = self.expr(e.subject)
        t = self.type_of(e)
        era_scalar, era_in_lists = self.era_column(name, by_def)
        has_era = era_scalar or (t.tag == "numbers" and era_in_lists)
        defs = self.spec.defs
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
        subj = self.expr(e.subject)
        name = ref.name
        counter = isinstance(ref, r.ItemCounter)
        slots = self.lay.counter_slots(name) if counter else self.lay.value_slots(name)

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
        subj = self.expr(e.subject)
        name = ref.name
        counter = isinstance(ref, r.ItemCounter)
        slots = self.lay.counter_slots(name) if counter else self.lay.value_slots(name)
        what = f"`{name}`"
        cards = any(k.piece == "card" and name in (k.counters if counter else k.values) for k in self.v.kinds.values())

        def slot(a: Activation) -> int:
            pid = mech.mine(a.st, subj(a), what) if cards else subj(a)
            found = slots[pid] if type(pid) is int else -1
            if found < 0:
                raise ContentError(f"{a.st.describe(pid)} has no `{name}` of its own")
            return found
        return slot

    # ---- the rest of the expressions
    def x_Empty(self, e: ast.Empty) -> Fn:
        subj = self.expr(e.subject)
        t = self.type_of(e.subject).tag
        if t == "zone":
            return lambda a: not a.st.zones[subj(a)]
        if t == "thing":
            return lambda a: not mech.pieces_on(a.st, subj(a))
        return lambda a: not len(subj(a))

    def x_Has(self, e: ast.Has) -> Fn:
        _, by_def = self.column(e.attribute)
        subj = self.expr(e.subject)
        piece_def = self.lay.piece_def
        negated = e.negated

        def has(a: Activation) -> bool:
            x = subj(a)
            d = int(x) if isinstance(x, DefRef) else piece_def[x]
            return (by_def[d] is not MISSING) != negated
        return has

    def x_Compare(self, e: ast.Compare) -> Fn:
        op = e.op
        if op in ("=", "!=", "in"):
            left, right = self.lenient(e.left), self.lenient(e.right)
        else:
            left, right = self.expr(e.left), self.expr(e.right)
        lt, rt = self.type_of(e.left).tag, self.type_of(e.right).tag
        if op == "in":
            if rt == "zone":
                return lambda a: a.st.loc[left(a)] == right(a)
            if rt == "zones":
                return lambda a: a.st.loc[left(a)] in right(a)
            if rt == "defs":  # `C is in [protect, riot]`: a copy of one of the cards named
                return self.among_cards(left, right)
            if rt in ("things", "table") or lt == "def":
                piece_def = self.lay.piece_def

                def member(a: Activation) -> bool:
                    x = left(a)
                    if isinstance(x, DefRef):  # a card named in source: any of its copies
                        return any(_as_def(piece_def, y) == x for y in right(a))
                    return x in right(a)
                return member
            return lambda a: left(a) in right(a)
        if "def" in (lt, rt) or (lt == "thing" and rt == "thing"):
            piece_def = self.lay.piece_def

            def same(a: Activation) -> bool:
                x, y = left(a), right(a)
                if x is None or y is None:
                    return x is y
                if isinstance(x, DefRef) or isinstance(y, DefRef):
                    return _as_def(piece_def, x) == _as_def(piece_def, y)
                return bool(x == y)
            if op == "=":
                return same
            return lambda a: not same(a)
        if op == "=":
            return lambda a: left(a) == right(a)
        if op == "!=":
            return lambda a: left(a) != right(a)
        if op == ">":
            return lambda a: left(a) > right(a)
        if op == "<":
            return lambda a: left(a) < right(a)
        if op == ">=":
            return lambda a: left(a) >= right(a)
        return lambda a: left(a) <= right(a)

    def x_BoolOp(self, e: ast.BoolOp) -> Fn:
        left = self.expr(e.left)
        right = self.expr(e.right)
        if e.op == "and":
            return lambda a: bool(left(a)) and bool(right(a))
        return lambda a: bool(left(a)) or bool(right(a))

    def x_Not(self, e: ast.Not) -> Fn:
        inner = self.expr(e.operand)
        return lambda a: not inner(a)

    def x_Arith(self, e: ast.Arith) -> Fn:
        left = self.expr(e.left)
        right = self.expr(e.right)
        if e.op == "+":
            if self.type_of(e).is_collection:
                return lambda a: list(left(a)) + list(right(a))
            return lambda a: left(a) + right(a)
        if e.op == "-":
            return lambda a: left(a) - right(a)
        if self.type_of(e.right).tag == "percent":
            return lambda a: -((-left(a) * right(a)) // 100)  # rounds up (VAL-3)
        return lambda a: left(a) * right(a)

    def x_Div(self, e: ast.Div) -> Fn:
        left = self.expr(e.left)
        right = self.expr(e.right)

        def divide(a: Activation) -> int:
            d = right(a)
            if d == 0:
                raise ContentError("division by zero")
            return left(a) // d
        if e.rounding == "down":
            return divide

        def divide_up(a: Activation) -> int:
            d = right(a)
            if d == 0:
                raise ContentError("division by zero")
            return -((-left(a)) // d)
        return divide_up

    def x_Neg(self, e: ast.Neg) -> Fn:
        inner = self.expr(e.operand)
        return lambda a: -inner(a)

    def x_Cond(self, e: ast.Cond) -> Fn:
        cond, yes, no = self.expr(e.condition), self.expr(e.yes), self.expr(e.no)
        return lambda a: yes(a) if cond(a) else no(a)

    def x_Where(self, e: ast.Where) -> Fn:
        coll = self.expr(e.collection)
        zone = self.type_of(e.collection).tag == "zone"
        cond = self.expr(e.condition)
        static = self.static_test(e.condition)
        if static is not None:  # `where its suit is hearts`: decided per piece at compile time
            by_piece, by_def = static
            if None not in by_piece and None not in by_def:
                if zone:
                    return lambda a: [x for x in a.st.zones[coll(a)] if by_piece[x]]
                return lambda a: [x for x in coll(a) if (by_piece[x] if type(x) is int else by_def[int(x)])]

            def where_mixed(a: Activation) -> list:  # the undecided ones (None) are asked
                saved = a.it
                out = []
                for x in (a.st.zones[coll(a)] if zone else coll(a)):
                    keep = by_piece[x] if type(x) is int else by_def[int(x)]
                    if keep is None:
                        a.it = x
                        keep = cond(a)
                    if keep:
                        out.append(x)
                a.it = saved
                return out
            return where_mixed

        def where(a: Activation) -> list:
            saved = a.it
            out = []
            for x in (a.st.zones[coll(a)] if zone else coll(a)):
                a.it = x
                if cond(a):
                    out.append(x)
            a.it = saved
            return out
        return where

    def static_test(self, e: ast.Expr) -> tuple[list[bool | None], list[bool | None]] | None:
        """A filter that reads only fixed attributes of `it` compared with constants
        (`its suit is hearts and its cost > 2`), decided once per piece and per
        definition: True, False, or None where the condition must run (an order on a
        missing number, which is a located error). None for any other condition.
        Built once per distinct test in a ruleset (content repeats the same filters)."""
        key = self._static_key(e)
        return None if key is None else self.static_test_of(key)

    def _static_key(self, e: ast.Expr) -> tuple | None:
        """The test a condition makes, resolved: ("=", attribute, constant), ("and", A, B),
        ("not", A); None when it reads anything but fixed attributes of `it`."""
        if isinstance(e, ast.BoolOp):
            left, right = self._static_key(e.left), self._static_key(e.right)
            return None if left is None or right is None else (e.op, left, right)
        if isinstance(e, ast.Not):
            inner = self._static_key(e.operand)
            return None if inner is None else ("not", inner)
        if not isinstance(e, ast.Compare) or e.op not in _STATIC_OPS:
            return None
        attr, const, op = e.left, e.right, e.op
        if not self._its_attribute(attr):
            attr, const, op = e.right, e.left, _MIRRORED.get(op, op)
        if not self._its_attribute(attr) or not isinstance(const, (ast.Name, ast.Num)):
            return None
        assert isinstance(attr, ast.Of)
        if isinstance(const, ast.Name):
            ref = self.ref(const)
            if not isinstance(ref, r.Symbol):
                return None
            value: Any = ref.symbol
        else:
            value = const.value
        if self.type_of(attr).tag not in ("symbol", "amount", "text"):
            return None
        if any(self.era_column(attr.name, self.column(attr.name)[1])):
            return None
        return (op, attr.name, value)

    def _decide(self, key: tuple) -> tuple[list[bool | None], list[bool | None]]:
        if key[0] in ("and", "or"):
            left, right = self.static_test_of(key[1]), self.static_test_of(key[2])
            both = _and3 if key[0] == "and" else _or3
            return ([both(x, y) for x, y in zip(left[0], right[0])], [both(x, y) for x, y in zip(left[1], right[1])])
        if key[0] == "not":
            inner = self.static_test_of(key[1])
            return [None if x is None else not x for x in inner[0]], [None if x is None else not x for x in inner[1]]
        op, name, value = key
        by_piece, by_def = self.column(name)
        test = _STATIC_OPS[op]
        if op in ("=", "!="):
            def decide(v: Any) -> bool | None:
                return test(v, value) if v is None or type(v) in (int, str) else None
        else:  # an order needs a number (a missing one is an error the condition reports)
            def decide(v: Any) -> bool | None:
                return test(v, value) if type(v) is int else None
        return [decide(v) for v in by_piece], [decide(v) for v in by_def]

    def static_test_of(self, key: tuple) -> tuple[list[bool | None], list[bool | None]]:
        found = self._static.get(key)
        if found is None:
            found = self._static[key] = self._decide(key)
        return found

    def _its_attribute(self, e: ast.Expr) -> bool:
        return isinstance(e, ast.Of) and isinstance(e.subject, ast.It) and isinstance(self.ref(e), r.Attribute)

    def x_Select(self, e: ast.Select) -> Fn:
        src = self.expr(e.source)
        st_tag = self.type_of(e.source).tag
        if st_tag in ("symbols", "counters") or self.type_of(e).tag in ("symbols", "counters"):
            def distinct(a: Activation) -> list:
                seen: list = []
                for s in src(a):
                    if s not in seen:
                        seen.append(s)
                return seen
            return distinct
        ref = self.ref(e)
        kind = ref.kind if isinstance(ref, r.Selection) else None
        if kind:
            piece_kind = self.piece_kind
            if st_tag in ("things", "table"):
                held = self.type_of(e.source).arg
                if held is not None and held != kind:  # the pieces on each of these items
                    return lambda a: [p for x in src(a) for p in mech.pieces_on(a.st, x) if piece_kind[p] == kind]
                kind_of = [d.kind for d in self.spec.defs]
                return lambda a: [x for x in src(a) if (kind_of[int(x)] if isinstance(x, DefRef) else piece_kind[x]) == kind]
            if st_tag == "zone":
                return lambda a: [p for p in a.st.zones[src(a)] if piece_kind[p] == kind]
            if st_tag == "zones":
                return lambda a: [p for z in src(a) for p in a.st.zones[z] if piece_kind[p] == kind]
            return lambda a: [p for p in mech.pieces_on(a.st, src(a)) if piece_kind[p] == kind]
        if st_tag == "zone":
            return lambda a: a.st.zones[src(a)][:]
        if st_tag == "zones":
            return lambda a: [p for z in src(a) for p in a.st.zones[z]]
        if st_tag in ("things", "table"):
            return lambda a: list(src(a))
        return lambda a: mech.pieces_on(a.st, src(a))

    def x_Top(self, e: ast.Top) -> Fn:
        src = self.expr(e.source)
        count = self.expr(e.count) if e.count is not None else None
        top = e.end == "top"
        if self.type_of(e.source).is_collection:  # first (top) or last (bottom) members
            if count is None:
                def member(a: Activation) -> Any:
                    items = list(src(a))
                    if not items:
                        raise ContentError(f"there is no {e.end} member: the collection is empty "
                                           "(check `... is not empty` first)")
                    return items[0] if top else items[-1]
                return member

            def members(a: Activation) -> list:
                items = list(src(a))
                n = max(0, count(a))
                return items[:n] if top else (items[-n:] if n else [])
            return members
        if count is None:
            def one(a: Activation) -> int:
                z = a.st.zones[src(a)]
                if not z:
                    raise ContentError(f"there is no {e.end} piece: the zone is empty "
                                       "(check `ZONE is not empty` first)")
                return z[-1] if top else z[0]
            return one

        def several(a: Activation) -> list:
            z = a.st.zones[src(a)]
            n = max(0, count(a))
            return list(reversed(z[-n:])) if top and n else (z[:n] if n else [])
        return several

    def x_Entry(self, e: ast.Entry) -> Fn:
        src = self.expr(e.source)
        index = self.expr(e.index)
        if self.type_of(e.source).tag == "table":
            piece_def = self.lay.piece_def
            era_of = self.era_of

            def lookup(a: Activation) -> Any:
                table = src(a)
                key = index(a)
                d = int(key) if isinstance(key, DefRef) else piece_def[key]
                if d not in table.numbers:
                    raise ContentError(f"{a.st.describe(key)} is not in the table")
                v = table.numbers[d]
                return era_of(v, a.st) if type(v) is EraValue else v
            return lookup

        def nth(a: Activation) -> Any:
            items = src(a)
            n = index(a)
            if not 1 <= n <= len(items):
                raise ContentError(f"there is no entry {n}: the list has {len(items)}")
            return list(items)[n - 1]
        return nth

    def x_SpaceOf(self, e: ast.SpaceOf) -> Fn:
        index = self.expr(e.index)
        track = self.expr(e.track)
        tracks = self.lay.track_zones

        def space(a: Activation) -> int:
            item, n = track(a), index(a)
            spaces = tracks.get(item)
            if spaces is None:
                raise ContentError(f"{a.st.describe(item)} has no track")
            if not 1 <= n <= len(spaces):
                raise ContentError(f"{a.st.describe(item)}'s track has no space {n} (it has {len(spaces)})")
            return spaces[n - 1]
        return space

    def x_Aggregate(self, e: ast.Aggregate) -> Fn:
        coll = self.expr(e.collection)
        ref = self.ref(e)
        fn: Callable[[list], int] = _AGGREGATES[e.fn]
        probe = ast.Of(e.name, ast.It(span=e.span), span=e.span)
        self.res.keep.append(probe)
        self.res.refs[id(probe)] = ref
        self.res.types[id(probe)] = T("amount")
        self.res.types[id(probe.subject)] = self.type_of(e.collection).element()
        if isinstance(ref, r.PlayerCounter):
            base = self.lay.player_counter[ref.name]
            get: Fn = lambda a: a.st.counters[base + a.it]  # noqa: E731
        else:
            get = self.expr(probe)

        def aggregate(a: Activation) -> int:
            saved = a.it
            values = []
            for x in coll(a):
                a.it = x
                values.append(get(a))
            a.it = saved
            return fn(values) if values else 0
        return aggregate

    def x_Ordered(self, e: ast.Ordered) -> Fn:
        coll = self.expr(e.collection)
        key = self.expr(e.key)
        desc = e.descending

        def ordered(a: Activation) -> list:
            saved = a.it
            keyed = []
            for x in coll(a):
                a.it = x
                keyed.append((key(a), x))
            a.it = saved
            keyed.sort(key=lambda kx: -kx[0] if desc else kx[0])  # stable: ties keep their order
            return [x for _, x in keyed]
        return ordered

    def x_Relative(self, e: ast.Relative) -> Fn:
        if e.word == "player":
            return self.next_player(e)
        who = self.expr(e.player)
        relation = e.relation

        def around(a: Activation) -> list:
            order = a.st.turn_order
            p = who(a)
            if p not in order:
                return [] if relation != "starting" else order[:]
            i = order.index(p)
            if relation == "after":
                return order[i + 1:]
            if relation == "before":
                return order[:i]
            return order[i:] + order[:i]
        return around

    def x_Call(self, e: ast.Call) -> Fn:
        n = e.name
        if n in self.spec.definitions:
            return self.call_definition(n, e.args, e)
        if n == "possible":
            names = self.spec.vocab.action_names(x.name for x in e.args if isinstance(x, ast.Name))

            def possible(a: Activation) -> bool:
                actions = [a.st.game.actions[name] for name in names]
                return any(act.available(a.st, a) for act in actions)
            return possible
        run = BUILTINS[n].run
        assert run is not None
        args = [self.expr(x) for x in e.args]
        if len(args) == 1:
            (f,) = args
            return lambda a: run(a, f(a))
        if len(args) == 2:
            f, g = args
            return lambda a: run(a, f(a), g(a))
        return lambda a: run(a, *[f(a) for f in args])

    def call_definition(self, name: str, arg_nodes: tuple | list, e: ast.Node) -> Fn:
        params, body = self.definition(name)
        args = [self.expr(x) for x in arg_nodes]
        # While options are built (st.memo set) the same call gives the same value; the
        # common arities get their own closures: this runs tens of thousands of times a game.
        if not args:
            def call0(a: Activation) -> Any:
                memo = a.st.memo
                if memo is None:
                    return body(Activation(a.st, a.me, a.this))
                key = (name, a.me, a.this)
                found = memo.get(key, _MISSING)
                if found is _MISSING:
                    found = memo[key] = body(Activation(a.st, a.me, a.this))
                return found
            return call0
        if len(args) == 1:
            (f,) = args
            (p,) = params

            def call1(a: Activation) -> Any:
                v = f(a)
                memo = a.st.memo
                if memo is None:
                    return body(Activation(a.st, a.me, a.this, {p: v}))
                key = (name, a.me, a.this, v)
                try:
                    found = memo.get(key, _MISSING)
                except TypeError:  # an unhashable argument (a list): not remembered
                    return body(Activation(a.st, a.me, a.this, {p: v}))
                if found is _MISSING:
                    found = memo[key] = body(Activation(a.st, a.me, a.this, {p: v}))
                return found
            return call1
        pairs = list(zip(params, args))

        def call(a: Activation) -> Any:
            values = [f(a) for f in args]
            env = {p: v for (p, _), v in zip(pairs, values)}
            memo = a.st.memo
            if memo is None:
                return body(Activation(a.st, a.me, a.this, env))
            key = (name, a.me, a.this, *values)
            try:
                found = memo.get(key, _MISSING)
            except TypeError:  # an unhashable argument (a list): not remembered
                return body(Activation(a.st, a.me, a.this, env))
            if found is _MISSING:
                found = memo[key] = body(Activation(a.st, a.me, a.this, env))
            return found
        return call

    def definition(self, name: str) -> tuple[list[str], Fn]:
        if name not in self.definitions:
            if name in self._defining:
                raise InternalError(f"definition `{name}` refers to itself")
            self._defining.add(name)
            d = self.spec.definitions[name]
            self.definitions[name] = (d.params, self.expr(d.value))
            self._defining.discard(name)
        return self.definitions[name]

    # ------------------------------------------------------------------ statements
    def stmt(self, s: ast.Stmt) -> Instr:
        method = getattr(self, "s_" + type(s).__name__)
        instr: Instr = method(s)
        if type(s) in _DIRECT_STATEMENTS:
            instr.direct = True  # type: ignore[attr-defined]
        return instr

    def player_or_me(self, e: ast.Expr | None) -> Fn:
        if e is None:
            return lambda a: a.me
        return self.expr(e)

    def s_Let(self, s: ast.Let) -> Instr:
        value = self.expr(s.value)
        var = s.var

        def let(st: State, a: Activation) -> None:
            a.env[var] = value(a)
        return let

    def counter_slot(self, counter: ast.Name, player: ast.Expr | None, verb: str) -> Callable[[Activation], int]:
        """The slot a gain/lose/pay/auction changes: a named counter or one held in a name."""
        who = self.player_or_me(player)
        ref = self.ref(counter)
        if isinstance(ref, r.PlayerCounter):
            base = self.lay.player_counter[counter.name]
            name = counter.name

            def named(a: Activation) -> int:
                p = who(a)
                if p < 0:
                    raise _no_player(f"nobody can {verb} `{name}`")
                return base + p
            return named
        holder = self.expr(counter)
        table = self.lay.player_counter

        def held(a: Activation) -> int:
            p = who(a)
            if p < 0:
                raise _no_player(f"nobody can {verb} counters")
            return table[holder(a)] + p
        return held

    def adjuster(self, s: ast.Stmt) -> Adjust:
        """What a statement changes counters with: mechanics.adjust, or in a game that keeps
        a score ledger, one that also records this statement's changes of the score."""
        if self.ledger is None:
            return mech.adjust
        return self.ledger.adjuster(self.ledger.source(self.where(s), s))

    def _counter_change(self, s: ast.Gain | ast.Lose | ast.Pay, verb: str) -> Instr:
        amount = self.expr(s.amount)
        slot = self.counter_slot(s.counter, s.player, verb)
        adjust = self.adjuster(s)
        if verb == "gain":
            return lambda st, a: adjust(st, slot(a), amount(a))
        if verb == "lose":
            return lambda st, a: adjust(st, slot(a), -amount(a))

        def pay(st: State, a: Activation) -> None:
            n = amount(a)
            k = slot(a)
            lo = st.game.layout.counter_min[k] or 0
            if st.counters[k] - n < lo:
                name = st.game.spec.vocab.label(st.game.layout.counter_name[k])
                raise Refused(f"{st.player_name(k - _base_of(st, k))} cannot pay {n} {name}: has {st.counters[k]}")
            adjust(st, k, -n)
        return pay

    def s_Gain(self, s: ast.Gain) -> Instr:
        return self._counter_change(s, "gain")

    def s_Lose(self, s: ast.Lose) -> Instr:
        return self._counter_change(s, "lose")

    def s_Pay(self, s: ast.Pay) -> Instr:
        return self._counter_change(s, "pay")

    def s_PayCards(self, s: ast.PayCards) -> Instr:
        target = self.expr(s.target)
        source = self.expr(s.source)

        def build(st: State, a: Activation, data: Any) -> list[Choice]:
            return [Choice(label, cards) for label, cards in mech.payments(st, data[0], data[1])]

        def then(st: State, a: Activation, cards: Any, data: Any) -> None:
            for pid in cards:
                mech.discard(st, pid)

        def empty(st: State, a: Activation) -> None:
            raise Refused("cannot pay for that with these cards")

        def pay_cards(st: State, a: Activation) -> None:
            st.frames.append(AskFrame(a, build, then, "choose how to pay", empty=empty,
                                      data=(target(a), source(a))))
        return pay_cards

    def lvalue(self, e: ast.Expr) -> Callable[[Activation], int]:
        ref = self.ref(e)
        lay = self.lay
        if isinstance(ref, r.GameCounter):
            slot = lay.game_counter[ref.name]
            return lambda a: slot
        if isinstance(ref, r.PlayerCounter):
            base = lay.player_counter[ref.name]
            who = self.player_or_me(ref.subject)
            name = ref.name

            def player_slot(a: Activation) -> int:
                p = who(a)
                if p < 0:
                    raise _no_player(f"nobody has `{name}`")
                return base + p
            return player_slot
        if isinstance(ref, r.CounterOf):
            return self.counter_of(ref)
        if isinstance(ref, r.ItemCounter) and isinstance(e, ast.Of):
            return self.own_slot(e, ref)
        raise InternalError("not a counter", self.where(e))

    def s_Transfer(self, s: ast.Transfer) -> Instr:
        amount = self.expr(s.amount)
        src = self.lvalue(s.source)
        dst = self.lvalue(s.dest)
        up_to, either = s.up_to, s.either_way
        adjust = self.adjuster(s)

        def move_amount(st: State, frm: int, to: int, n: int) -> None:
            if st.counters[frm] - n < (st.game.layout.counter_min[frm] or 0):
                raise Refused(f"not enough to transfer {n}")
            adjust(st, frm, -n)
            adjust(st, to, n)

        def how_much(st: State, a: Activation, data: Any) -> list[Choice]:
            frm, _, most = data
            return [Choice(str(k), k) for k in range(most + 1)]

        def chosen(st: State, a: Activation, k: Any, data: Any) -> None:
            move_amount(st, data[0], data[1], k)

        def ask_amount(st: State, a: Activation, frm: int, to: int) -> None:
            n = amount(a)
            if not up_to:
                move_amount(st, frm, to, n)
                return
            most = max(0, min(n, st.counters[frm] - (st.game.layout.counter_min[frm] or 0)))
            st.frames.append(AskFrame(a, how_much, chosen, "how much?", "number", data=(frm, to, most)))

        def directions(st: State, a: Activation, data: Any) -> list[Choice]:
            f, t = data
            names, label = st.game.layout.counter_name, st.game.spec.vocab.label
            one, other = label(names[f]), label(names[t])
            return [Choice(f"from {one} to {other}", (f, t)), Choice(f"from {other} to {one}", (t, f))]

        def direction(st: State, a: Activation, pair: Any, data: Any) -> None:
            ask_amount(st, a, pair[0], pair[1])

        def transfer(st: State, a: Activation) -> None:
            f, t = src(a), dst(a)
            if not either:
                ask_amount(st, a, f, t)
                return
            st.frames.append(AskFrame(a, directions, direction, "which way?", "one", data=(f, t)))
        return transfer

    def s_SetTo(self, s: ast.SetTo) -> Instr:
        value = self.expr(s.value)
        ref = self.ref(s.target)
        if isinstance(ref, r.GameValue):
            vslot = self.lay.game_value[ref.name]

            def set_game_value(st: State, a: Activation) -> None:
                st.values[vslot] = value(a)
            return set_game_value
        if isinstance(ref, r.PlayerValue):
            base = self.lay.player_value[ref.name]
            who = self.player_or_me(ref.subject)
            name = ref.name

            def set_player_value(st: State, a: Activation) -> None:
                p = who(a)
                if p < 0:
                    raise _no_player(f"nobody has `{name}`")
                st.values[base + p] = value(a)
            return set_player_value
        if isinstance(ref, r.ItemValue) and isinstance(s.target, ast.Of):
            own = self.own_slot(s.target, ref)

            def set_item_value(st: State, a: Activation) -> None:
                st.values[own(a)] = value(a)
            return set_item_value
        slot = self.lvalue(s.target)
        adjust = self.adjuster(s)

        def set_to(st: State, a: Activation) -> None:
            k = slot(a)
            adjust(st, k, value(a) - st.counters[k])
        return set_to

    def s_Raise(self, s: ast.Raise) -> Instr:
        slot = self.lvalue(s.target)
        amount = self.expr(s.amount)
        adjust = self.adjuster(s)
        return lambda st, a: adjust(st, slot(a), amount(a))

    def s_Lower(self, s: ast.Lower) -> Instr:
        slot = self.lvalue(s.target)
        amount = self.expr(s.amount)
        adjust = self.adjuster(s)
        return lambda st, a: adjust(st, slot(a), -amount(a))

    def pieces(self, e: ast.Expr) -> Callable[[Activation], list]:
        f = self.expr(e)
        if self.type_of(e).tag == "things":
            return lambda a: list(f(a))
        return lambda a: [] if f(a) is None else [f(a)]

    def s_Move(self, s: ast.Move) -> Instr:
        what = self.pieces(s.what)
        dest = self.expr(s.dest)
        bottom, bump = s.at == "bottom", s.bump
        if self.type_of(s.dest).tag == "thing":  # onto a piece that holds pieces
            def move_onto(st: State, a: Activation) -> None:
                holder = dest(a)
                for pid in what(a):
                    mech.put_on(st, pid, holder, bottom)
            return move_onto

        def move(st: State, a: Activation) -> None:
            z = dest(a)
            for pid in what(a):
                mech.move_to(st, pid, z, bottom, bump)
        return move

    def s_Shift(self, s: ast.Shift) -> Instr:
        what = self.expr(s.what)
        amount = self.expr(s.amount)
        bump = s.bump
        return lambda st, a: mech.shift(st, what(a), amount(a), bump)

    def s_Draw(self, s: ast.Draw) -> Instr:
        count = self.expr(s.count)
        src = self.expr(s.source)
        if s.dest is not None:
            dest = self.expr(s.dest)
        else:
            dest = self.player_zone(self.v.hand or "", None)

        def draw(st: State, a: Activation) -> None:
            z, d = src(a), dest(a)
            for _ in range(count(a)):
                if mech.draw_one(st, z, d) is None:
                    break
        return draw

    def s_Deal(self, s: ast.Deal) -> Instr:
        count = self.expr(s.count)
        src = self.expr(s.source)
        dest = self.expr(s.dest)
        plural = self.type_of(s.dest).tag == "zones"

        def deal(st: State, a: Activation) -> None:
            z = src(a)
            targets = dest(a) if plural else [dest(a)]
            for _ in range(count(a)):
                for d in targets:
                    mech.draw_one(st, z, d)
        return deal

    def s_Discard(self, s: ast.Discard) -> Instr:
        what = self.pieces(s.what)

        def discard(st: State, a: Activation) -> None:
            for pid in what(a):
                mech.discard(st, pid)
        return discard

    def s_Remove(self, s: ast.Remove) -> Instr:
        what = self.pieces(s.what)

        def remove(st: State, a: Activation) -> None:
            for pid in what(a):
                mech.remove(st, pid)
        return remove

    def s_Reveal(self, s: ast.Reveal) -> Instr:
        what = self.pieces(s.what)

        def reveal(st: State, a: Activation) -> None:
            for pid in what(a):
                st.revealed.add(pid)
                st.log.append(f"revealed: {mech.describe(st, pid)}")
        return reveal

    def s_Auction(self, s: ast.Auction) -> Instr:
        bidders = self.expr(s.bidders)
        base = self.lay.player_counter[s.counter.name]
        winner, amount = s.winner, s.amount
        steps = tuple(self.v.bid_steps)
        frame: Callable[..., AuctionFrame] = AuctionFrame
        if self.ledger is not None and s.counter.name == self.spec.score_counter:
            frame = self.ledger.auction(self.ledger.source(self.where(s), s))
        return lambda st, a: st.frames.append(frame(a, list(bidders(a)), base, winner, amount, steps))

    def s_Shuffle(self, s: ast.Shuffle) -> Instr:
        zone = self.expr(s.zone)
        return lambda st, a: mech.shuffle(st, zone(a))

    def s_Dig(self, s: ast.Dig) -> Instr:
        assert isinstance(s.wanted, ast.Where) and isinstance(s.wanted.collection, ast.Select)
        zone = self.expr(s.wanted.collection.source)
        cond = self.expr(s.wanted.condition)
        dest = self.expr(s.dest)

        def dig(st: State, a: Activation) -> None:
            mech.dig(st, zone(a), lambda pid: _with_it(a, pid, cond), dest(a))
        return dig

    def s_Place(self, s: ast.Place) -> Instr:
        piece = self.expr(s.piece)
        target = self.expr(s.target)
        space = self.type_of(s.target).tag == "zone"
        bump = s.bump

        def place(st: State, a: Activation) -> None:
            p = piece(a)
            if isinstance(p, tuple):
                _, token_kind, player = p
                if player < 0:
                    raise _no_player(f"nobody has a {token_kind.replace('_', ' ')} to place")
                pid = mech.take_from_supply(st, token_kind, player)
                if pid is None:
                    raise Refused(f"{st.player_name(player)} has no {st.game.spec.vocab.label(token_kind)} left")
            else:
                pid = p
            mech.place(st, pid, target(a), bump, space)
        return place

    def s_Advance(self, s: ast.Advance) -> Instr:
        track = self.expr(s.track)
        amount = self.expr(s.amount)
        return lambda st, a: mech.advance(st, track(a), amount(a))

    def s_Announce(self, s: ast.Announce) -> Instr:
        event = s.event.name
        args = [(x.name, self.expr(x.value)) for x in s.args]

        def announce(st: State, a: Activation) -> None:
            mech.announce(st, event, {k: f(a) for k, f in args})
        return announce

    def s_ChooseFrom(self, s: ast.ChooseFrom) -> Instr:
        count = self.expr(s.count)
        coll = self.expr(s.collection)
        zone = self.type_of(s.collection).tag == "zone"
        var = s.var
        single = isinstance(s.count, ast.Num) and s.count.value == 1 and s.mode == "exact"
        prompt = self.prompt(s)
        up_to = s.mode == "up_to"
        # players and numbers are ints: they read as players and numbers, never as the pieces of those ints
        element = self.type_of(s.collection).element().tag
        describe = mech.player_name if element == "player" else mech.number_name if element == "amount" \
            else mech.describe
        items = _of_items(self.type_of(s.collection))

        def build(st: State, a: Activation, pool: Any) -> list[Choice]:
            return [Choice(describe(st, x), x, x if items else None) for x in pool]

        def bind(st: State, a: Activation, value: Any, pool: Any) -> None:
            a.env[var] = value

        def nothing_to_choose(st: State, a: Activation) -> None:
            mech.abandon(st, a)

        names = [n.name for n in ast.walk(s.collection) if isinstance(n, ast.Name)
                 and isinstance(self.ref(n), r.Local) and "{" + n.name + "}" in prompt]

        def choose(st: State, a: Activation) -> None:
            pool = list(st.zones[coll(a)] if zone else coll(a))
            asked = prompt
            for name in names:  # "choose a resource in {V}'s cost" -> "... in Riot's cost"
                asked = asked.replace("{" + name + "}", mech.describe(st, a.env.get(name)))
            if single:
                st.frames.append(AskFrame(a, build, bind, asked, empty=nothing_to_choose, data=pool))
            else:
                st.frames.append(ChooseManyFrame(a, pool, count(a), var, up_to, asked, describe))
        return choose

    def prompt(self, s: ast.ChooseFrom) -> str:
        """What a chooser is asked, in the card's words: `choose a card in your offer`. A
        name bound earlier reads as what it holds when asked (`{V}` is filled in by
        `ask_prompt`: "choose a resource in Riot's cost")."""
        what = s.collection.collection if isinstance(s.collection, ast.Where) else s.collection
        bound = {n.name: "{" + n.name + "}" for n in ast.walk(what)
                 if isinstance(n, ast.Name) and isinstance(self.ref(n), r.Local)}
        wording = Wording({**self.wording.labels, **bound}, self.wording.era_names, self.wording.era_word,
                          self.wording.nouns, self.wording.zones, self.wording.tables, self.wording.board_items,
                          self.wording.item_lists) if bound else self.wording
        text = render_expr(what, wording)
        if isinstance(what, ast.ListLiteral):  # "choose one of: 10, 20", "choose up to 2 of: ..."
            listed = ", ".join(render_expr(x, wording) for x in what.items)
            if isinstance(s.count, ast.Num) and s.count.value == 1 and s.mode == "exact":
                return f"choose one of: {listed}"
            return f"choose {'up to ' if s.mode == 'up_to' else ''}{render_expr(s.count, wording)} of: {listed}"
        if isinstance(s.count, ast.Num) and s.count.value == 1 and s.mode != "up_to" and (
                isinstance(what, ast.Relative) or isinstance(what, ast.Name) and what.name in ("players", "opponents")):
            return "choose an opponent" if isinstance(what, ast.Name) and what.name == "opponents" else "choose a player"
        if s.mode == "up_to":
            return f"choose up to {render_expr(s.count, self.wording)} of: {text}"
        if isinstance(s.count, ast.Num) and s.count.value == 1:
            return f"choose {'an' if text[:1] in 'aeiou' else 'a'} {text}" if not text.startswith(("a ", "an ")) \
                else f"choose {text}"
        if isinstance(s.count, ast.Num):
            return f"choose {s.count.value}: {text}"
        return f"choose: {text}"

    def s_ChooseNumber(self, s: ast.ChooseNumber) -> Instr:
        low = self.expr(s.low)
        high = self.expr(s.high)
        step = self.expr(s.step) if s.step is not None else (lambda a: 1)
        var = s.var
        offered = self.numbers_where(s.condition) if s.condition is not None else None
        written = printer.print_statement(s)

        def build(st: State, a: Activation, bounds: Any) -> list[Choice]:
            lo, hi, by = bounds
            numbers = range(lo, hi + 1, by) if offered is None else offered(st, a, range(lo, hi + 1, by))
            return [Choice(str(k), k) for k in numbers]

        def bind(st: State, a: Activation, value: Any, bounds: Any) -> None:
            a.env[var] = value

        # the designer's word for the number, when the name is one: `as gold_given` -> "gold given"
        what = var.replace("_", " ") if len(var) > 1 and var.lower() == var else "a number"

        def choose_number(st: State, a: Activation) -> None:
            by = step(a)
            if by <= 0:
                raise ContentError(f"`{written}`: a number is chosen in steps of {by}: a step must be at least 1")
            lo, hi = low(a), high(a)
            steps = f" in steps of {by}" if by != 1 else ""
            st.frames.append(AskFrame(a, build, bind, f"choose {what}: {lo} to {hi}{steps}", "number",
                                      empty=lambda st, a: mech.abandon(st, a), data=(lo, hi, by)))
        return choose_number

    def s_Perform(self, s: ast.Perform) -> Instr:
        names = self.spec.vocab.action_names(n.name for n in s.actions)  # a menu: the actions joining it
        mode = s.mode

        def perform(st: State, a: Activation) -> None:
            actions = tuple(st.game.actions[n] for n in names)
            st.frames.append(PerformFrame(a, mode, actions))
        return perform

    def s_Play(self, s: ast.Play) -> Instr:
        what = self.expr(s.what)
        if self.type_of(s.what).tag == "effect":
            def resolve(st: State, a: Activation) -> None:
                ref = what(a)
                if ref is MISSING:
                    raise ContentError("there is no effect to resolve")
                st.frames.append(BlockFrame(ref.code, Activation(st, a.me, ref.this)))
            return resolve

        def play(st: State, a: Activation) -> None:
            pid = what(a)
            instrs = st.game.effects[st.game.layout.piece_def[pid]]
            st.frames.append(BlockFrame(instrs, Activation(st, a.me, pid)))
        return play

    def s_Run(self, s: ast.Run) -> Instr:
        name = s.name.name
        params = self.spec.procedures[name].params
        args = [self.expr(x) for x in s.args]

        def run(st: State, a: Activation) -> None:
            env = {p: f(a) for p, f in zip(params, args)}
            st.frames.append(BlockFrame(st.game.procedures[name], Activation(st, a.me, a.this, env)))
        return run

    def s_SortTurnOrder(self, s: ast.SortTurnOrder) -> Instr:
        key = self.expr(s.key)
        desc = s.descending

        def sort_turn_order(st: State, a: Activation) -> None:
            saved = a.it
            keys = {}
            for p in st.turn_order:
                a.it = p
                keys[p] = key(a)
            a.it = saved
            st.turn_order.sort(key=lambda p: -keys[p] if desc else keys[p])  # stable: ties keep order
        return sort_turn_order

    def s_BeginFinalRound(self, s: ast.BeginFinalRound) -> Instr:
        def begin_final_round(st: State, a: Activation) -> None:
            f = innermost_turns(st)
            if f is not None and f.final_from < 0:
                f.final_from = st.active
                st.log.append(f"{mech.player_name(st, st.active)} starts the final round")
        return begin_final_round

    def s_StopTurns(self, s: ast.StopTurns) -> Instr:
        def stop_turns(st: State, a: Activation) -> None:
            f = innermost_turns(st)
            if f is not None:
                f.stop = True
        return stop_turns

    def s_TimedModifier(self, s: ast.TimedModifier) -> Instr:
        m = s.modifier
        subject = self.expr(m.subject) if m.subject is not None else None
        value = self.expr(m.value)
        scope = self.expr(m.scope) if m.scope is not None else None
        plural = m.scope is not None and self.type_of(m.scope).tag == "players"
        q, op, until = m.quantity.name, m.op, s.until.name
        per_player = self.v.quantities[q].per == "player"

        def add_modifier(st: State, a: Activation) -> None:
            who: tuple | None
            if scope is None:
                who = (a.me,) if per_player else None
            else:
                who = tuple(scope(a)) if plural else (scope(a),)
            st.timed.append((q, subject(a) if subject else None, op, value(a), who, until))
        return add_modifier

    def s_Log(self, s: ast.Log) -> Instr:
        text = self.text(s, s.text)
        if isinstance(text, str):
            fixed = text
            return lambda st, a: st.log.append(fixed)
        return lambda st, a: st.log.append(text(st, a))

    def text(self, node: ast.Node, text: str) -> "str | Callable[[State, Activation], str]":
        """A log line's or an option label's text; with `{EXPR}` parts, a function that fills
        them in: players and pieces by name, numbers as numbers."""
        parts = [(placeholder, self.expr(e), self.type_of(e).tag)
                 for placeholder, e in self.res.log_parts.get(id(node), [])]
        if not parts:
            return text

        def fill(st: State, a: Activation) -> str:
            line = text
            for placeholder, value, tag in parts:
                v = value(a)
                if tag == "player":
                    shown = mech.player_name(st, v)
                elif tag == "players":
                    shown = ", ".join(mech.player_name(st, p) for p in v) or "none"
                elif tag in ("amount", "flag", "text") or isinstance(v, bool):
                    shown = ("yes" if v else "no") if isinstance(v, bool) else str(v)
                else:
                    shown = mech.describe(st, v)
                line = line.replace(placeholder, shown, 1)
            return line
        return fill

    def s_If(self, s: ast.If) -> Instr:
        branches = [(self.expr(b.condition), self.block(b.body)) for b in s.branches]
        otherwise = self.block(s.otherwise) if s.otherwise is not None else None
        if self.coverage is not None:
            return self._if_covered(s, branches, otherwise, self.coverage)

        if all(_is_direct(instrs) for _, instrs in branches) and (otherwise is None or _is_direct(otherwise)):
            def if_direct(st: State, a: Activation) -> None:
                for cond, instrs in branches:
                    if cond(a):
                        run_direct(st, a, instrs)
                        return
                if otherwise is not None:
                    run_direct(st, a, otherwise)
            return _direct(if_direct)

        def if_(st: State, a: Activation) -> None:
            for cond, instrs in branches:
                if cond(a):
                    st.frames.append(BlockFrame(instrs, a))
                    return
            if otherwise is not None:
                st.frames.append(BlockFrame(otherwise, a))
        return if_

    def _if_covered(self, s: ast.If, branches: list[tuple[Fn, Block]], otherwise: Block | None,
                    coverage: Coverage) -> Instr:
        """`if` counting which branch ran (always through frames: coverage runs are for
        reports, not for speed)."""
        ids = [coverage.probe(self.where(b.condition), "if " + printer.print_expr(b.condition))
               for b in s.branches]
        last = coverage.probe(self.where(s), "else" if otherwise is not None else "the case where every condition is false")
        hits = coverage.hits

        def if_covered(st: State, a: Activation) -> None:
            for k, (cond, instrs) in enumerate(branches):
                if cond(a):
                    hits[ids[k]] += 1
                    st.frames.append(BlockFrame(instrs, a))
                    return
            hits[last] += 1
            if otherwise is not None:
                st.frames.append(BlockFrame(otherwise, a))
        return if_covered

    def s_ChooseOne(self, s: ast.ChooseOne) -> Instr:
        options = [(self.text(o, o.label), self.expr(o.condition) if o.condition is not None else None,
                    self.block(o.body)) for o in s.options]
        coverage = self.coverage
        ids = [coverage.probe(self.where(o), f"option {o.label!r}") for o in s.options] if coverage else []

        def build(st: State, a: Activation, data: Any) -> list[Choice]:
            return [Choice(label if isinstance(label, str) else label(st, a), i)
                    for i, (label, cond, _) in enumerate(options) if cond is None or cond(a)]

        def then(st: State, a: Activation, i: Any, data: Any) -> None:
            if coverage is not None:
                coverage.hits[ids[i]] += 1
            st.frames.append(BlockFrame(options[i][2], a))

        def choose_one(st: State, a: Activation) -> None:
            st.frames.append(AskFrame(a, build, then, "choose one", "one"))
        return choose_one

    def s_May(self, s: ast.May) -> Instr:
        body = self.block(s.body)
        prompt = s.prompt or "do it?"
        yes_no = [Choice("yes", True), Choice("no", False)]
        coverage = self.coverage
        ids = (coverage.probe(self.where(s), "may: no"), coverage.probe(self.where(s), "may: yes")) if coverage else ()

        def then(st: State, a: Activation, yes: Any, data: Any) -> None:
            if coverage is not None:
                coverage.hits[ids[1 if yes else 0]] += 1
            if yes:
                st.frames.append(BlockFrame(body, a))

        def may(st: State, a: Activation) -> None:
            st.frames.append(AskFrame(a, lambda st, a, d: yes_no, then, prompt, "may", auto=False))
        return may

    def s_ForEach(self, s: ast.ForEach) -> Instr:
        coll = self.expr(s.collection)
        zone = self.type_of(s.collection).tag == "zone"
        body = self.block(s.body)
        var = s.var
        if _is_direct(body):
            cost = len(body) + 1

            def for_each_direct(st: State, a: Activation) -> None:
                items = list(st.zones[coll(a)]) if zone else list(coll(a))
                spend(st, len(items) * cost)
                env = a.env
                for item in items:
                    env[var] = item
                    run_direct(st, a, body)
            return _direct(for_each_direct)
        if zone:
            return lambda st, a: st.frames.append(ForEachFrame(a, list(st.zones[coll(a)]), var, body))
        return lambda st, a: st.frames.append(ForEachFrame(a, list(coll(a)), var, body))

    def s_AsPlayer(self, s: ast.AsPlayer) -> Instr:
        who = self.expr(s.player)
        body = self.block(s.body)

        direct = _is_direct(body)

        def as_player(st: State, a: Activation) -> None:
            p = who(a)
            if p < 0:
                raise _no_player("`as P:` needs a player")
            inner = Activation(st, p, a.this, a.env)  # same names (one table), another player acting
            if direct:
                run_direct(st, inner, body)
            else:
                st.frames.append(BlockFrame(body, inner))
        return _direct(as_player) if direct else as_player

    def s_Repeat(self, s: ast.Repeat) -> Instr:
        count = self.expr(s.count)
        body = self.block(s.body)
        if _is_direct(body):
            cost = len(body) + 1

            def repeat_direct(st: State, a: Activation) -> None:
                times = count(a)
                if times <= 0:
                    return
                spend(st, times * cost)
                for _ in range(times):
                    run_direct(st, a, body)
            return _direct(repeat_direct)
        return lambda st, a: st.frames.append(RepeatFrame(a, count(a), body))

    def s_TakeTurns(self, s: ast.TakeTurns) -> Instr:
        until = self.expr(s.until) if s.until is not None else None
        body = self.block(s.body)
        return lambda st, a: st.frames.append(TurnsFrame(a, until, body))

    # ------------------------------------------------------------------ general constructs
    # a list written out, modulo, "the same card as", the next/previous player, numbers
    # chosen where a condition holds, a random pick (interpreter/chance.py), ending the
    # game (interpreter/ending.py)
    def x_ListLiteral(self, e: ast.ListLiteral) -> Fn:
        if all(isinstance(x, ast.Num) for x in e.items):
            numbers = [x.value for x in e.items if isinstance(x, ast.Num)]
            return lambda a: numbers[:]
        items = [self.expr(x) for x in e.items]
        return lambda a: [f(a) for f in items]

    def x_Modulo(self, e: ast.Modulo) -> Fn:
        left, right = self.expr(e.left), self.expr(e.right)
        written = printer.print_expr(e)

        def modulo(a: Activation) -> int:
            d = right(a)
            if d <= 0:
                raise ContentError(f"`{written}`: modulo {d}: the divisor must be at least 1")
            return left(a) % d
        return modulo

    def x_SameCard(self, e: ast.SameCard) -> Fn:
        left, right = self.expr(e.left), self.expr(e.right)
        piece_def, negated = self.lay.piece_def, e.negated

        def same_card(a: Activation) -> bool:
            x, y = left(a), right(a)
            if x is None or y is None:  # a value slot not filled: the same only as another empty one
                return (x is y) != negated
            return (_as_def(piece_def, x) == _as_def(piece_def, y)) != negated
        return same_card

    def next_player(self, e: ast.Relative) -> Fn:
        """`player after P` / `player before P`: one player, wrapping round the turn order."""
        who = self.expr(e.player)
        step = 1 if e.relation == "after" else -1

        def next_player(a: Activation) -> int:
            order = a.st.turn_order
            p = who(a)
            if p < 0:
                raise _no_player(f"`player {e.relation} P`")
            if p not in order:
                raise ContentError(f"{a.st.player_name(p)} is not in the turn order")
            return order[(order.index(p) + step) % len(order)]
        return next_player

    def numbers_where(self, condition: ast.Expr) -> Callable[[State, Activation, range], list[int]]:
        """The numbers of a range for which a condition holds (`it` is each); each test is
        charged to the step budget, so a huge range stops with an error, not a hang."""
        cond = self.expr(condition)

        def offered(st: State, a: Activation, numbers: range) -> list[int]:
            spend(st, len(numbers))
            return [k for k in numbers if _with_it(a, k, cond)]
        return offered

    def among_cards(self, left: Fn, right: Fn) -> Fn:
        piece_def = self.lay.piece_def

        def among(a: Activation) -> bool:
            x = left(a)
            return x is not None and _as_def(piece_def, x) in [int(y) for y in right(a)]
        return among

    def s_PickRandom(self, s: ast.PickRandom) -> Instr:
        count = self.expr(s.count)
        coll = self.expr(s.collection)
        zone = self.type_of(s.collection).tag == "zone"
        var = s.var
        single = isinstance(s.count, ast.Num) and s.count.value == 1

        def pick_random(st: State, a: Activation) -> None:
            n = 1 if single else count(a)
            pool = list(st.zones[coll(a)] if zone else coll(a))
            if n > 0 and not pool:  # nothing to pick: the rest of the effect does not happen
                mech.abandon(st, a)
                return
            picked = chance.pick(st, pool, n)
            a.env[var] = picked[0] if single else picked
        return pick_random

    def s_EndGame(self, s: ast.EndGame) -> Instr:
        winner = self.expr(s.winner) if s.winner is not None else None
        reason = self.text(s, s.reason) if s.reason is not None else None

        def end_the_game(st: State, a: Activation) -> None:
            w = ending.NOT_NAMED
            if winner is not None:
                w = winner(a)
                if w < 0:
                    raise _no_player("the winner of `end the game`")
            ending.end_game(st, w, reason if reason is None or isinstance(reason, str) else reason(st, a))
        return end_the_game

    # ------------------------------------------------------------------ places joined by links; windows
    # glue only: the walks are interpreter/graph.py's (a.st.game.graph), the window's frame
    # interpreter/windows.py's
    def via(self, place: ast.Expr, links: tuple[ast.Name, ...]) -> tuple[str, ...]:
        """The link kinds an expression follows: those named, else every link of the place's kind."""
        if links:
            return tuple(n.name for n in links)
        kind = self.v.kinds.get(self.type_of(place).arg or "")
        return tuple(kind.links) if kind is not None else tuple(self.v.links)

    def place_test(self, e: ast.Expr | None) -> Fn | None:
        return self.expr(e) if e is not None else None

    def x_Neighbours(self, e: ast.Neighbours) -> Fn:
        place, links = self.expr(e.place), self.via(e.place, e.links)
        return lambda a: list(a.st.game.graph.step(a, place(a), links))

    def x_Within(self, e: ast.Within) -> Fn:
        place, links, steps = self.expr(e.place), self.via(e.place, e.links), self.expr(e.steps)
        through = self.place_test(e.through)
        kind = self.v.kind_of_word(e.word)[1]
        if kind is None:
            return lambda a: a.st.game.graph.within(a, place(a), links, steps(a), through)
        piece_kind = self.piece_kind
        return lambda a: [x for x in a.st.game.graph.within(a, place(a), links, steps(a), through)
                          if piece_kind[x] == kind]

    def x_Distance(self, e: ast.Distance) -> Fn:
        origin, dest, links = self.expr(e.origin), self.expr(e.dest), self.via(e.origin, e.links)
        through = self.place_test(e.through)
        return lambda a: a.st.game.graph.distance(a, origin(a), dest(a), links, through)

    def x_ConnectedGroup(self, e: ast.ConnectedGroup) -> Fn:
        place, links, condition = self.expr(e.place), self.via(e.place, e.links), self.expr(e.condition)
        return lambda a: a.st.game.graph.group(a, place(a), links, condition)

    def s_Offer(self, s: ast.Offer) -> Instr:
        names = self.spec.vocab.action_names(n.name for n in s.actions)  # a menu: the actions joining it
        players = self.expr(s.players)
        one = self.type_of(s.players).tag == "player"

        def offer(st: State, a: Activation) -> None:
            who = [players(a)] if one else list(players(a))
            actions = tuple(st.game.actions[n] for n in names)
            st.frames.append(OfferFrame(a, actions, [p for p in who if p >= 0]))
        return offer

    # ------------------------------------------------------------------ declarations
    def compile_action(self, spec: ActionSpec) -> CompiledAction:
        what = f"action `{spec.name}`"
        self.origin = spec.choose_origin or Origin(what)
        coll = self.expr(spec.choose) if spec.choose is not None else None
        self.origin = spec.condition_origin or Origin(what)
        cond = self.expr(spec.condition) if spec.condition is not None else None
        gate = coll is not None and spec.condition is not None and not any(
            isinstance(n, ast.Name) and n.name == spec.var for n in ast.walk(spec.condition))
        items = spec.choose is not None and _of_items(self.type_of(spec.choose))
        return CompiledAction(spec.name, spec.label, spec.var, coll, cond,
                              self.program(spec.body, spec.origin or Origin(what)), gate, items)

    def modifier_parts(self, m: ast.Modifier) -> tuple:
        subject = self.expr(m.subject) if m.subject is not None else None
        scope = self.expr(m.scope) if m.scope is not None else None
        plural = m.scope is not None and self.type_of(m.scope).tag == "players"
        return (m.quantity.name, subject, m.op, self.expr(m.value), scope, plural)


def _of_items(t: T) -> bool:
    """Whether a collection's members are pieces or items (a zone's, or things'), not
    players, symbols or numbers: its choices then name the item they are."""
    return t.tag == "zone" or t.element().tag == "thing"


def _for_piece(value: Any, pid: int) -> Any:
    """An effect read through a piece runs as that piece (`this`)."""
    if isinstance(value, EffectRef):
        return EffectRef(value.code, pid, value.label)
    if type(value) is list and value and isinstance(value[0], EffectRef):
        return [EffectRef(v.code, pid, v.label) for v in value]
    return value


def _base_of(st: State, slot: int) -> int:
    """The first slot of the player counter `slot` belongs to."""
    name = st.game.layout.counter_name[slot]
    return st.game.layout.player_counter.get(name, slot)


_AGGREGATES: dict[str, Callable[[list], int]] = {"total": sum, "highest": max, "lowest": min}
_NONE = object()  # "no target" (None is a real target: an action without `choose:`)


def _with_it(a: Activation, value: Any, cond: Fn) -> bool:
    saved = a.it
    a.it = value
    try:
        return bool(cond(a))
    finally:
        a.it = saved


HANDLED_EXPRESSIONS = frozenset(n[2:] for n in dir(Compiler) if n.startswith("x_"))
HANDLED_STATEMENTS = frozenset(n[2:] for n in dir(Compiler) if n.startswith("s_"))


# --------------------------------------------------------------------------- direct blocks
# Statements that never ask a decision and never push a frame (no triggers, no hooks):
# a block made of them alone runs straight through, without a frame per block or per
# loop turn. Loops over such blocks are charged to the step budget up front.
_DIRECT_STATEMENTS: frozenset[type] = frozenset({
    ast.Let, ast.Gain, ast.Lose, ast.Pay, ast.SetTo, ast.Raise, ast.Lower, ast.Log, ast.TimedModifier,
})


def _direct(instr: Instr) -> Instr:
    instr.direct = True  # type: ignore[attr-defined]
    return instr


def _is_direct(block: Block) -> bool:
    return all(getattr(instr, "direct", False) for instr in block)


def run_direct(st: State, a: Activation, block: Block) -> None:
    """Run a direct block now. An error is located at the statement that raised it (the
    frames would have said the same)."""
    i = 0
    try:
        for instr in block:
            instr(st, a)
            i += 1
    except Refused:
        raise
    except InternalError as err:
        if err.where is None:
            err.where = block.wheres[i]
        raise
    except Exception as err:  # a bug: never a refusal, never silent
        raise InternalError(f"{type(err).__name__}: {err}", block.wheres[i]) from err


def spend(st: State, steps: int) -> None:
    """Charge straight-through work to this decision's step budget."""
    st.spent += steps
    budget = st.game.spec.limits.step_budget
    if st.spent > budget:
        raise BudgetExceeded(f"an effect used more than {budget:,} steps for one decision "
                             "(a loop that does too much)")
