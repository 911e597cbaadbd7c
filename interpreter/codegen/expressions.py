"""The code generator's expressions: each expression the compiler is asked for, written as
one Python function `f(a)` (definitions' parameters and `it` as Python locals,
conditions as Python `and`/`or`, filters as comprehensions, attribute columns and slots
as constants), compiled once per Game, as template engines such as Jinja2 do.

The closures (interpreter/compile/) stay the reference: a node the generator does not
write is compiled by them and called from the generated code (`fallback`); which nodes
those are is the registry's list (`LEFT_TO_CLOSURES`, tests/interpreter/test_codegen.py).
Names and `X's NAME` are codegen/names.py's; definitions and actions' targets
codegen/definitions.py's; the namespace codegen/writer.py's.

An error in generated code names the item and file:line of the statement: the frames
locate a statement's errors (vm.where_now), and a generated compound statement keeps
the Where of each statement inside it and says which one was running (as run_direct
does).
"""

from __future__ import annotations

from typing import Any, Callable

from legacies.dsl import ast, printer
from legacies.dsl import resolution as r
from legacies.dsl.numbers import MAX_NUMBER

from .. import builtins
from .. import mechanics as mech
from .. import selection
from ..compile.closures import Closures
from ..compile.columns import Columns
from ..compile.context import CompileContext, Fn, aggregate_probe
from ..compile.expressions import ExpressionCompiler
from ..compile.filters import StaticFilters, existence
from ..compile.general import GeneralCompiler, player_beside, players_around
from ..layout import PART_HOLDERS, PART_ORDER, PART_PIECES
from .definitions import DefinitionWriter
from .hoist import fresh_slots, hoisted
from .names import NameWriter
from .runtime import Reads, Scope, Unsupported, simple, uncopied
from .tables import MAY_TABLE, PieceTables
from .writer import CodeWriter, counter_read, me_in, owner_of, pieces_on, prelude, st_in, this_in


class ExpressionWriter:
    """Writes expressions; holds the closures for what it leaves to them."""

    def __init__(self, ctx: CompileContext, writer: CodeWriter, closures: Closures, columns: Columns,
                 filters: StaticFilters, exprs: ExpressionCompiler, general: GeneralCompiler):
        self.ctx = ctx
        self.writer = writer
        self.closures = closures
        self.columns = columns
        self.filters = filters
        self.exprs = exprs
        self.general = general
        self.names = NameWriter(ctx, writer, self, columns, exprs)
        self.definitions = DefinitionWriter(ctx, writer, self)
        self.tables = PieceTables(ctx, writer, columns)
        # node kind -> its writer (this class's g_ methods and the names')
        self._table: dict[str, Callable[[Any, Scope, Reads], str]] = {
            n[2:]: getattr(part, n) for part in (self, self.names) for n in dir(part) if n.startswith("g_")}
        self._condition_reads: dict[str, Reads] = {}  # a link -> what its condition reads
        # what the pieces on an item and a token's owner are read from in place (writer.pieces_on, owner_of)
        writer.ns["_hz"] = ctx.lay.holder_zone
        writer.ns["_to"] = {p: o for p, o in enumerate(ctx.lay.piece_owner) if o >= 0}

    # ------------------------------------------------------------------ entry points
    def function(self, e: ast.Expr) -> Fn:
        """`e` as one generated function `f(a)` (Unsupported: the closures compile it)."""
        scope = Scope("a", "me", "this", "env", "a.it")
        body, slots = hoisted(self.g(e, scope, Reads()))  # its loop-invariant parts once a call
        name = self.writer.name("f")
        lines = [f"def {name}(a):"] + [f"    {line}" for line in prelude(scope)]
        if slots:
            lines.append(f"    {fresh_slots(slots)}")
        if scope.names:
            lines += ["    try:", f"        return {body}", "    except KeyError as err:",
                      f"        located = _rt_unbound(err, {tuple(sorted(scope.names))!r})",
                      "        if located is err:", "            raise", "        raise located from None"]
        else:
            lines.append(f"    return {body}")
        fn: Fn = self.writer.define("\n".join(lines) + "\n", name)
        return fn

    def call(self, name: str, arg_nodes: list, e: ast.Node, s: Scope, reads: Reads) -> str:
        """A call of definition `name` (codegen/definitions.py)."""
        return self.definitions.call(name, arg_nodes, e, s, reads)

    def fallback(self, e: ast.Expr, scope: Scope) -> str:
        """A node left to the closures, called from generated code."""
        if scope.a is None:
            raise Unsupported(type(e).__name__)
        fn = self.closures.expr(e)
        name = self.writer.bind(fn, "c")
        if scope.it != f"{scope.a}.it":
            return f"_rt_with_it({name}, {scope.a}, {scope.it})"
        return f"{name}({scope.a})"

    # ------------------------------------------------------------------ expressions
    def g(self, e: ast.Expr, s: Scope, reads: Reads) -> str:
        method = self._table.get(type(e).__name__)
        if method is None:
            reads.unknown()
            return self.fallback(e, s)
        if type(e) in MAY_TABLE:
            tabled = self.tables.read(e, s, method, reads)
            if tabled is not None:  # fixed for each piece: read from a table
                return tabled
        out: str = method(e, s, reads)
        return out

    def g_Num(self, e: ast.Num, s: Scope, reads: Reads) -> str:
        return repr(int(e.value))

    def g_Percent(self, e: ast.Percent, s: Scope, reads: Reads) -> str:
        return repr(int(e.value))

    def g_Text(self, e: ast.Text, s: Scope, reads: Reads) -> str:
        return repr(str(e.value))

    def g_Bool(self, e: ast.Bool, s: Scope, reads: Reads) -> str:
        return repr(bool(e.value))

    def g_Era(self, e: ast.Era, s: Scope, reads: Reads) -> str:
        counter_read(reads, self.ctx.era_slot)
        return f"_rt_era({st_in(s)}, {self.ctx.era_slot!r}, {self.writer.bind(e.values)})"

    def g_This(self, e: ast.This, s: Scope, reads: Reads) -> str:
        return this_in(s)

    def g_It(self, e: ast.It, s: Scope, reads: Reads) -> str:
        return s.it

    def _on(self, st: str, src: str, copy: bool = True) -> str:
        """The pieces on an item (writer.pieces_on), read in place in a game with holders."""
        return pieces_on(st, src, copy, bool(self.ctx.lay.holder_zone))

    def player(self, subject: ast.Expr | None, s: Scope, reads: Reads) -> str:
        return me_in(s) if subject is None else self.g(subject, s, reads)

    def g_Empty(self, e: ast.Empty, s: Scope, reads: Reads) -> str:
        subj = self.g(e.subject, s, reads)
        t = self.ctx.type_of(e.subject).tag
        if t == "zone":
            self.names.zone_read(e.subject, s, reads)
            return f"(not {st_in(s)}.zones[{subj}])"
        if t == "thing":
            reads.held(subj)
            return f"(not {self._on(st_in(s), subj, copy=False)})"
        return f"(not len({subj}))"

    def g_Has(self, e: ast.Has, s: Scope, reads: Reads) -> str:
        _, by_def = self.columns.column(e.attribute)
        subj = self.g(e.subject, s, reads)
        return f"_rt_has({self.writer.bind(self.ctx.lay.piece_def)}, {self.writer.bind(by_def)}, {subj}, {bool(e.negated)!r})"

    def g_Compare(self, e: ast.Compare, s: Scope, reads: Reads) -> str:
        found = existence(self.ctx, e)
        if found is not None:  # `count of (C where T) > 0`: stops at the first that passes
            _, loops, test = self.filter(found[0], s, reads)
            some = f"any(True {loops} if {test})"
            return some if found[1] else f"(not {some})"
        op = e.op
        if op in ("=", "!=", "in"):
            left, right = self.names.lenient(e.left, s, reads), self.names.lenient(e.right, s, reads)
        else:
            left, right = self.g(e.left, s, reads), self.g(e.right, s, reads)
        lt, rt = self.ctx.type_of(e.left).tag, self.ctx.type_of(e.right).tag
        piece_def = self.writer.bind(self.ctx.lay.piece_def)
        if op == "in":
            if rt == "zone":  # the zone's count changes when a piece enters or leaves it
                self.names.zone_read(e.right, s, reads)
            if rt == "zones":
                reads.add(PART_PIECES)
            if rt in ("zone", "zones"):
                return f"({st_in(s)}.loc[{left}] {'==' if rt == 'zone' else 'in'} {right})"
            if rt == "defs":
                return f"_rt_among({piece_def}, {left}, {right})"
            if rt in ("things", "table") or lt == "def":
                return f"_rt_member({st_in(s)}, {piece_def}, {left}, {right})"
            if rt == "players":  # no more than the players
                return f"({left} in {right})"
            return f"_rt_in({st_in(s)}, {left}, {right})"
        if "def" in (lt, rt) or (lt == "thing" and rt == "thing"):
            same = f"_rt_same({piece_def}, {left}, {right})"
            if simple(left) and simple(right):  # two pieces, most of the time: compared in place
                same = f"({left} == {right} if type({left}) is int and type({right}) is int else {same})"
            return same if op == "=" else f"(not {same})"
        py = {"=": "==", "!=": "!=", ">": ">", "<": "<", ">=": ">=", "<=": "<="}[op]
        return f"({left} {py} {right})"

    def g_BoolOp(self, e: ast.BoolOp, s: Scope, reads: Reads) -> str:
        left, right = self.g(e.left, s, reads), self.g(e.right, s, reads)
        if not self._boolish(e.left):
            left = f"bool({left})"
        if not self._boolish(e.right):
            right = f"bool({right})"
        return f"({left} {'and' if e.op == 'and' else 'or'} {right})"

    def _boolish(self, e: ast.Expr, depth: int = 0) -> bool:
        """Whether the code written for `e` gives True or False and nothing else (so
        `bool(...)` around it is not needed)."""
        if isinstance(e, (ast.Compare, ast.Not, ast.BoolOp, ast.Empty, ast.Has, ast.SameCard, ast.Bool)):
            return True
        if isinstance(e, ast.Cond):
            return self._boolish(e.yes, depth) and self._boolish(e.no, depth)
        name = e.name if isinstance(e, (ast.Call, ast.Name)) else None
        if name is not None and depth < 8 and name in self.ctx.spec.definitions and (
                isinstance(e, ast.Call) or isinstance(self.ctx.ref(e), r.Definition)):
            return self._boolish(self.ctx.spec.definitions[name].value, depth + 1)
        return False

    def g_Not(self, e: ast.Not, s: Scope, reads: Reads) -> str:
        return f"(not {self.g(e.operand, s, reads)})"

    def g_Arith(self, e: ast.Arith, s: Scope, reads: Reads) -> str:
        left, right = self.g(e.left, s, reads), self.g(e.right, s, reads)
        if e.op == "+":
            if self.ctx.type_of(e).is_collection:
                return f"_rt_joined({st_in(s)}, {left}, {right})"
            return f"({left} + {right})"
        if e.op == "-":
            return f"({left} - {right})"
        if self.ctx.type_of(e.right).tag == "percent":
            return f"{self.writer.bind(mech.bounded)}(-((-{left} * {right}) // 100))"  # rounds up (VAL-3)
        return f"{self.writer.bind(_times)}({left}, {right})"  # bounded (dsl/numbers.py), as the closures

    def g_Div(self, e: ast.Div, s: Scope, reads: Reads) -> str:
        left, right = self.g(e.left, s, reads), self.g(e.right, s, reads)
        # the divisor first, checked before the number divided is read, as the closures do
        if e.rounding == "down":
            return f"(lambda _d: _rt_divisor(_d) and {left} // _d)({right})"
        return f"(lambda _d: _rt_divisor(_d) and -((-{left}) // _d))({right})"

    def g_Neg(self, e: ast.Neg, s: Scope, reads: Reads) -> str:
        return f"(-{self.g(e.operand, s, reads)})"

    def g_Cond(self, e: ast.Cond, s: Scope, reads: Reads) -> str:
        cond, yes, no = self.g(e.condition, s, reads), self.g(e.yes, s, reads), self.g(e.no, s, reads)
        return f"({yes} if {cond} else {no})"

    def g_Modulo(self, e: ast.Modulo, s: Scope, reads: Reads) -> str:
        left, right = self.g(e.left, s, reads), self.g(e.right, s, reads)
        written = printer.print_expr(e)
        return f"(lambda _d: _rt_modulus(_d, {written!r}) and {left} % _d)({right})"

    def g_SameCard(self, e: ast.SameCard, s: Scope, reads: Reads) -> str:
        left, right = self.g(e.left, s, reads), self.g(e.right, s, reads)
        piece_def = self.writer.bind(self.ctx.lay.piece_def)
        same = f"_rt_same_card({piece_def}, {left}, {right}, {bool(e.negated)!r})"
        if simple(left) and simple(right):  # two pieces, most of the time: their cards compared in place
            return (f"(({piece_def}[{left}] {'!=' if e.negated else '=='} {piece_def}[{right}]) "
                    f"if type({left}) is int and type({right}) is int else {same})")
        return same

    def g_ListLiteral(self, e: ast.ListLiteral, s: Scope, reads: Reads) -> str:
        return "[" + ", ".join(self.g(x, s, reads) for x in e.items) + "]"

    def source(self, coll: ast.Expr, s: Scope, reads: Reads) -> str:
        """A collection to iterate: a zone's pieces, or the collection itself."""
        src = self.g(coll, s, reads)
        if self.ctx.type_of(coll).tag == "zone":
            self.names.zone_read(coll, s, reads)
            return f"{st_in(s)}.zones[{src}]"
        return src

    def walk(self, coll: str, s: Scope) -> str:
        """The walk of collection `coll` (source), charged: a collection read whole (a copy
        of a zone, of a kind's pieces) walked where it is, both walks charged."""
        args = uncopied(coll)
        return f"_rt_walk({st_in(s)}, {coll})" if args is None else f"_rt_walk2({args})"

    def g_Where(self, e: ast.Where, s: Scope, reads: Reads) -> str:
        x, loops, test = self.filter(e, s, reads)
        return f"[{x} {loops} if {test}]"

    def filter(self, e: ast.Where, s: Scope, reads: Reads) -> tuple[str, str, str]:
        """A filter's parts: the member's name, its walks (`for X in ...`, charged whole)
        and the test. A filter of the pieces of a kind in zones or on an item (`KIND in
        ZONE where ...`) walks the zones once, the kind tested before the condition, where
        it made the kind's list and walked that again (the kind's test cannot fail: the
        condition meets the same pieces in the same order)."""
        x = self.writer.name("i")
        kinds = self._kind_walk(e.collection, x, s, reads)
        if kinds is not None:
            loops, of_kind = kinds
            first = f"{of_kind} and "
        else:
            loops, first = f"for {x} in {self.walk(self.source(e.collection, s, reads), s)}", ""
        static = self.filters.static_test(e.condition)
        pieces = kinds is not None or self.ctx.type_of(e.collection).tag == "zone"  # members are piece ids
        if static is not None:  # decided per piece at compile time
            by_piece, by_def = static
            bp, bd = self.writer.bind(by_piece), self.writer.bind(by_def)
            keep = f"{bp}[{x}]" if pieces else f"({bp}[{x}] if type({x}) is int else {bd}[int({x})])"
            if None not in by_piece and None not in by_def:
                return x, loops, f"({first}{keep})" if first else keep
            cond = self.g(e.condition, s.with_it(x), reads)
            return x, loops, f"({first}({keep} if {keep} is not None else {cond}))"
        test = self.g(e.condition, s.with_it(x), reads)
        return x, loops, f"({first}{test})" if first else test

    def _kind_walk(self, coll: ast.Expr, x: str, s: Scope, reads: Reads) -> tuple[str, str] | None:
        """For `KIND in ZONE`, `KIND in ZONES` or `KIND on ITEM`: the walks of the zones or
        the item's pieces (charged) as `for X in ...`, and the kind's test of member `x`;
        None for any other collection."""
        if not isinstance(coll, ast.Select):
            return None
        ref = self.ctx.ref(coll)
        kind = ref.kind if isinstance(ref, r.Selection) else None
        st_tag = self.ctx.type_of(coll.source).tag
        if not kind or st_tag in ("things", "table", "symbols", "counters") or \
                self.ctx.type_of(coll).tag in ("symbols", "counters"):
            return None
        src = self.g(coll.source, s, reads)
        st = st_in(s)
        test = f"{self.writer.bind(self.ctx.piece_kind)}[{x}] == {str(kind)!r}"
        if st_tag == "zone":
            self.names.zone_read(coll.source, s, reads)
            return f"for {x} in _rt_walk({st}, {st}.zones[{src}])", test
        if st_tag == "zones":
            reads.add(PART_PIECES)
            z = self.writer.name("i")
            return f"for {z} in {src} for {x} in _rt_walk({st}, {st}.zones[{z}])", test
        reads.held(src)  # the pieces on an item
        return f"for {x} in {self._on(st, src, copy=False)}", test

    def g_Select(self, e: ast.Select, s: Scope, reads: Reads) -> str:
        st_tag = self.ctx.type_of(e.source).tag
        src = self.g(e.source, s, reads)
        ref = self.ctx.ref(e)
        if isinstance(ref, r.Selection) and st_tag in ("things", "table"):
            return self._from_items(ref, src, s, reads)
        if st_tag in ("symbols", "counters") or self.ctx.type_of(e).tag in ("symbols", "counters"):
            return f"_rt_distinct({st_in(s)}, {src})"
        kind = ref.kind if isinstance(ref, r.Selection) else None
        x = self.writer.name("i")
        st = st_in(s)
        if st_tag == "zone":
            self.names.zone_read(e.source, s, reads)
        elif st_tag == "zones":
            reads.add(PART_PIECES)
        elif st_tag not in ("things", "table"):
            reads.held(src)  # the pieces on an item
        # every walk charged to the step budget, as interpreter/selection.py charges it
        if kind:
            pk = self.writer.bind(self.ctx.piece_kind)
            k = repr(str(kind))
            if st_tag == "zone":
                return f"[{x} for {x} in _rt_walk({st}, {st}.zones[{src}]) if {pk}[{x}] == {k}]"
            if st_tag == "zones":
                z = self.writer.name("i")
                return f"[{x} for {z} in {src} for {x} in _rt_walk({st}, {st}.zones[{z}]) if {pk}[{x}] == {k}]"
            return f"[{x} for {x} in {self._on(st, src, copy=False)} if {pk}[{x}] == {k}]"
        if st_tag == "zone":
            return f"_rt_walk({st}, {st}.zones[{src}])[:]"
        if st_tag == "zones":
            z = self.writer.name("i")
            return f"[{x} for {z} in {src} for {x} in _rt_walk({st}, {st}.zones[{z}])]"
        if st_tag in ("things", "table"):
            return f"list(_rt_walk({st}, {src}))"
        return self._on(st, src)

    def g_Relative(self, e: ast.Relative, s: Scope, reads: Reads) -> str:
        """`player after P`, `players starting with P`...: read from the turn order."""
        who = self.g(e.player, s, reads)
        reads.add(PART_ORDER)
        around = player_beside if e.word == "player" else players_around
        return f"{self.writer.bind(around)}({st_in(s)}, {who}, {e.relation!r})"

    def _from_items(self, sel: r.Selection, src: str, s: Scope, reads: Reads) -> str:
        """`KIND in ITEMS` read as the checker chose (interpreter/selection.py): the members
        of the kind, the pieces on each item, or member by member."""
        st = st_in(s)
        by_piece, by_def = selection.wanted_tables(sel, self.ctx.piece_kind, self.ctx.def_kind, self.ctx.piece_class)
        bp, bd = self.writer.bind(by_piece), self.writer.bind(by_def)
        walk, x = self.walk(src, s), self.writer.name("i")
        if sel.on == "on":
            reads.add(PART_HOLDERS)  # the pieces on every item walked
            p = self.writer.name("i")
            return f"[{p} for {x} in {walk} for {p} in {self._on(st, x, copy=False)} if {bp}[{p}]]"
        if sel.on == "either":
            reads.add(PART_HOLDERS)
            return f"{self.writer.bind(selection.member_or_held)}({st}, {walk}, {bp}, {bd})"
        if sel.kind is None and sel.piece is None:
            return f"list({walk})"
        return f"[{x} for {x} in {walk} if ({bd}[int({x})] if isinstance({x}, _DefRef) else {bp}[{x}])]"

    def g_Top(self, e: ast.Top, s: Scope, reads: Reads) -> str:
        src = self.g(e.source, s, reads)
        count = self.g(e.count, s, reads) if e.count is not None else None
        top = e.end == "top"
        st = st_in(s)
        if isinstance(self.ctx.ref(e), r.PileEnd):  # pieces from a zone, read as the zone is (interpreter/selection.py)
            if count is None:
                return f"{self.writer.bind(selection.pile_piece)}({src}, {e.end!r})"
            return f"{self.writer.bind(selection.pile_pieces)}(list({src}), {count}, {top!r})"
        if self.ctx.type_of(e.source).is_collection:
            if count is None:
                return f"_rt_top_member({src}, {e.end!r})"
            return f"_rt_top_members({st}, {src}, {count}, {top!r})"
        self.names.zone_read(e.source, s, reads)
        if count is None:
            return f"_rt_top_piece({st}.zones[{src}], {e.end!r})"
        return f"_rt_top_pieces({st}, {st}.zones[{src}], {count}, {top!r})"

    def g_Entry(self, e: ast.Entry, s: Scope, reads: Reads) -> str:
        src = self.g(e.source, s, reads)
        index = self.g(e.index, s, reads)
        if self.ctx.type_of(e.source).tag == "table":
            counter_read(reads, self.ctx.era_slot)
            return (f"_rt_lookup({st_in(s)}, {self.writer.bind(self.ctx.lay.piece_def)}, {self.ctx.era_slot!r}, "
                    f"{src}, {index})")
        return f"_rt_nth({src}, {index})"

    def g_Aggregate(self, e: ast.Aggregate, s: Scope, reads: Reads) -> str:
        coll = self.g(e.collection, s, reads)
        ref = self.ctx.ref(e)
        fn = {"total": "sum", "highest": "max", "lowest": "min"}[e.fn]
        x = self.writer.name("i")
        if isinstance(ref, r.PlayerCounter):
            base = self.ctx.lay.player_counter[ref.name]
            self.names.name_part(reads, ref.name)
            get = f"{st_in(s)}.counters[{base!r} + {x}]"
        else:
            probe = aggregate_probe(self.ctx.res, e, ref, self.ctx.type_of(e.collection).element())
            get = self.g(probe, s.with_it(x), reads)
        return f"_rt_aggregate({fn}, [{get} for {x} in {self.walk(coll, s)}])"

    def g_Ordered(self, e: ast.Ordered, s: Scope, reads: Reads) -> str:
        coll = self.g(e.collection, s, reads)
        x = self.writer.name("i")
        key = self.g(e.key, s.with_it(x), reads)
        return f"_rt_ordered([({key}, {x}) for {x} in {self.walk(coll, s)}], {bool(e.descending)!r})"

    def _links(self, place: ast.Expr, links: tuple[ast.Name, ...], s: Scope, reads: Reads) -> str:
        names = self.general.via(place, links)
        for link in names:
            if link in self.ctx.spec.link_conditions:
                reads.merge(self._link_reads(link, s))
        return self.writer.bind(names)

    def _link_reads(self, link: str, s: Scope) -> Reads:
        """What a walk by `link` reads of the state through its condition (asked as the
        walk's `me`): a site of the acting player's stands only where the walk is asked
        as the `me` a stamp is worked out for."""
        found = self._condition_reads.get(link)
        if found is None:
            found = Reads()
            test, where = self.ctx.spec.link_conditions[link]
            saved = self.ctx.origin
            self.ctx.origin = where
            try:
                self.g(test, Scope("a", "me", "this", "env", "a.it"), found)
            except Unsupported:
                found.unknown()
            finally:
                self.ctx.origin = saved
            self._condition_reads[link] = found
        if found.sites and me_in(s) != "me":
            unknown = Reads()
            unknown.unknown()
            return unknown
        return found

    def _acting(self, s: Scope) -> str:
        """`st, me, this` as the scope names them: who asks a walk (a link's condition)."""
        return f"{st_in(s)}, {me_in(s)}, {this_in(s)}"

    def g_Neighbours(self, e: ast.Neighbours, s: Scope, reads: Reads) -> str:
        place = self.g(e.place, s, reads)
        return f"_rt_neighbours({self._acting(s)}, {place}, {self._links(e.place, e.links, s, reads)})"

    def _through(self, e: ast.Within | ast.Distance, s: Scope, reads: Reads) -> str | None:
        """The closures' code for a walk `through` a condition (None: there is none)."""
        if e.through is None:
            return None
        reads.unknown()
        return self.fallback(e, s)

    def g_Within(self, e: ast.Within, s: Scope, reads: Reads) -> str:
        left = self._through(e, s, reads)
        if left is not None:
            return left
        place, steps = self.g(e.place, s, reads), self.g(e.steps, s, reads)
        links = self._links(e.place, e.links, s, reads)
        kind = self.ctx.v.kind_of_word(e.word)[1]
        walk = f"_rt_within({self._acting(s)}, {place}, {links}, {steps})"
        if kind is None:
            return walk
        x = self.writer.name("i")
        return f"[{x} for {x} in {walk} if {self.writer.bind(self.ctx.piece_kind)}[{x}] == {self.writer.lit(str(kind))}]"

    def g_Distance(self, e: ast.Distance, s: Scope, reads: Reads) -> str:
        left = self._through(e, s, reads)
        if left is not None:
            return left
        origin, dest = self.g(e.origin, s, reads), self.g(e.dest, s, reads)
        links = self._links(e.origin, e.links, s, reads)
        return f"_rt_distance({self._acting(s)}, {origin}, {dest}, {links})"

    def g_Call(self, e: ast.Call, s: Scope, reads: Reads) -> str:
        n = e.name
        if n in self.ctx.spec.definitions:
            return self.call(n, list(e.args), e, s, reads)
        if n == "possible":
            reads.unknown()
            names = tuple(self.ctx.spec.vocab.action_names(x.name for x in e.args if isinstance(x, ast.Name)))
            this = s.this
            if this == "this":
                s.uses.add("this")
            return f"_rt_possible({st_in(s)}, {me_in(s)}, {this}, {self.writer.bind(names)})"
        args = [self.g(x, s, reads) for x in e.args]
        if n in ("max", "min"):
            return f"{n}({', '.join(args)})" if len(args) > 1 else f"{n}(({args[0]},))"
        reads.add_parts(builtins.READS.get(n))
        return f"{self.writer.bind(builtins.RUN[n])}({', '.join([st_in(s), me_in(s)] + args)})"



def _times(x: Any, y: Any) -> Any:
    """`A * B` in generated code: the one operator that outgrows the step budget, held to
    the engine's limit as the closures hold it (dsl/numbers.py)."""
    v = x * y
    return v if -MAX_NUMBER <= v <= MAX_NUMBER else mech.bounded(v)
