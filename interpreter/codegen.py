"""The code generator: Python source for expressions, definitions and straight-through
statements, written from the checked AST and compiled once per Game, as template
engines such as Jinja2 do. The closures (the other compile_* modules) stay the
reference: a node the generator does not write is compiled by them and called from
the generated code.

What it writes:
- every expression the compiler is asked for, as one function `f(a)`: definitions'
  parameters and `it` as Python locals, conditions as Python `and`/`or`, filters as
  comprehensions, attribute columns and slots as constants;
- each definition the content calls, as one function `d(st, me, this, *params)`
  that remembers its results while a menu is built (as the closures do) and across
  menus while what it reads has not changed (`State.keep`; codegen_runtime.Reads);
- an action's targets, as two functions (every target; whether there is one);
- in codegen_statements: each statement that never asks a decision and never pushes a
  frame (the registry's `direct`, and `if`/`for each`/`repeat`/`as P:` made of them),
  as one function `s(st, a)`: loops as loops, charged to the step budget as the
  closures charge them.

Nothing from content is ever source: identifiers are the generator's own (`_k3`,
`_t2`, `_d5`), and every value enters through `repr` of an int, a bool or a str, or as
a name bound in the Game's namespace. An error in generated code names the item and
file:line of the statement: the frames locate a statement's errors (vm.where_now), and
a generated compound statement keeps the Where of each statement inside it and says
which one was running (as run_direct does).
"""

from __future__ import annotations

from typing import Any, Callable

from legacies.dsl import ast, printer
from legacies.dsl import resolution as r
from legacies.dsl.numbers import MAX_NUMBER
from legacies.dsl.types import T

from . import builtins
from . import mechanics as mech
from .codegen_runtime import (MEMO_WINDOW, _MISSING_MEMO, _RT, Reads, Scope, Unsupported, _costly, _inlined, _own_reader,
                              _simple, compile_source, make_reader)
from .compile_base import MISSING, Fn, _or_nobody, aggregate_probe, spend
from .compile_choices import ChoiceCompiler, CompiledAction
from .errors import ContentError, InternalError
from .layout import PART_HOLDERS, PART_ORDER, PART_PIECES, PART_VALUES
from .spec import ActionSpec, Origin
from .values import DefRef, EraValue
from .vm import Activation


class CodegenCompiler(ChoiceCompiler):
    """The compiler with the generator in front: `expr` and `stmt` write Python where they
    can and leave the rest to the closures (`codegen` False: the closures only)."""

    def setup_codegen(self, enabled: bool) -> None:
        self.codegen = enabled and self.coverage is None
        self.ns: dict[str, Any] = {"_MISSING": _MISSING_MEMO, "_Activation": Activation, "_spend": spend,
                                   "_adjust": mech.adjust, "_describe": mech.describe, "_quantity": mech.quantity,
                                   "_pieces_on": mech.pieces_on, "_ContentError": ContentError,
                                   "_EraValue": EraValue, "_DefRef": DefRef, "_owner": mech.owner, **_RT,
                                   # per generated definition: calls looked up, results computed, memo off
                                   "_memo_calls": [], "_memo_made": [], "_memo_off": []}

        self._consts: dict[tuple[type, Any], str] = {}
        self._fresh = 0
        self._def_fns: dict[str, tuple[str, list[str], Reads, str]] = {}  # name -> (fn, params, reads, body)
        self._def_failed: set[str] = set()
        self._generating: set[str] = set()
        self.generated = 0  # functions written (for tests and the bench's details)
        self.sources: dict[str, str] = {}

    # ------------------------------------------------------------------ namespace
    def _name(self, prefix: str) -> str:
        self._fresh += 1
        return f"_{prefix}{self._fresh}"

    def _bind(self, value: Any, prefix: str = "k") -> str:
        """A value for generated code to read: a fresh name bound in the namespace."""
        key = (type(value), id(value))
        found = self._consts.get(key)
        if found is not None and self.ns[found] is value:
            return found
        name = self._name(prefix)
        self.ns[name] = value
        self._consts[key] = name
        return name

    def _lit(self, value: Any) -> str:
        """A constant in source: repr of an int, a bool, a str or None, else a bound name."""
        if value is None or type(value) in (int, bool, str):
            return repr(value)
        return self._bind(value)

    def _define(self, source: str, name: str) -> Any:
        try:
            code = compile_source(source)
        except SyntaxError as err:  # Python's own limit on nesting; any other is a bug of the generator
            if "nested blocks" not in str(err):
                raise
            raise Unsupported("nested deeper than Python compiles") from None
        except RecursionError:  # an expression nested deeper than Python's compiler goes
            raise Unsupported("nested deeper than Python compiles") from None
        exec(code, self.ns)  # noqa: S102 - source written here from the AST, no content text in it
        self.generated += 1
        self.sources[name] = source  # to read what was written (tests, `legacies bench` profiles)
        return self.ns[name]

    # ------------------------------------------------------------------ entry points
    def expr(self, e: ast.Expr) -> Fn:
        if not getattr(self, "codegen", False) or isinstance(e, (ast.Num, ast.Bool, ast.Text, ast.Percent)):
            return super().expr(e)
        scope = Scope("a", "me", "this", "env", "a.it")
        try:
            body = self.g(e, scope, Reads())
            name = self._name("f")
            lines = [f"def {name}(a):"] + [f"    {line}" for line in self._prelude(scope)]
            if scope.names:
                lines += ["    try:", f"        return {body}", "    except KeyError as err:",
                          f"        located = _rt_unbound(err, {tuple(sorted(scope.names))!r})",
                          "        if located is err:", "            raise", "        raise located from None"]
            else:
                lines.append(f"    return {body}")
            fn: Fn = self._define("\n".join(lines) + "\n", name)
        except Unsupported:
            return super().expr(e)
        return fn

    def _prelude(self, scope: Scope, a: str = "a") -> list[str]:
        out = []
        if "st" in scope.uses:
            out.append(f"st = {a}.st")
        if "me" in scope.uses:
            out.append(f"me = {a}.me")
        if "this" in scope.uses:
            out.append(f"this = {a}.this")
        if "env" in scope.uses:
            out.append(f"env = {a}.env")
        return out

    def fallback(self, e: ast.Expr, scope: Scope) -> str:
        """A node left to the closures, called from generated code."""
        if scope.a is None:
            raise Unsupported(type(e).__name__)
        fn = ChoiceCompiler.expr(self, e)
        name = self._bind(fn, "c")
        if scope.it != f"{scope.a}.it":
            return f"_rt_with_it({name}, {scope.a}, {scope.it})"
        return f"{name}({scope.a})"

    # ------------------------------------------------------------------ expressions
    def g(self, e: ast.Expr, s: Scope, reads: Reads) -> str:
        method = getattr(self, "g_" + type(e).__name__, None)
        if method is None:
            reads.unknown()
            return self.fallback(e, s)
        out: str = method(e, s, reads)
        return out

    def _st(self, s: Scope) -> str:
        s.uses.add("st")
        return "st"

    def _me(self, s: Scope) -> str:
        if s.me == "me":
            s.uses.add("me")
        return s.me

    def g_Num(self, e: ast.Num, s: Scope, reads: Reads) -> str:
        return repr(int(e.value))

    def g_Percent(self, e: ast.Percent, s: Scope, reads: Reads) -> str:
        return repr(int(e.value))

    def g_Text(self, e: ast.Text, s: Scope, reads: Reads) -> str:
        return repr(str(e.value))

    def g_Bool(self, e: ast.Bool, s: Scope, reads: Reads) -> str:
        return repr(bool(e.value))

    def g_Era(self, e: ast.Era, s: Scope, reads: Reads) -> str:
        self._counter_read(reads, self.era_slot)
        return f"_rt_era({self._st(s)}, {self.era_slot!r}, {self._bind(e.values)})"

    def _this(self, s: Scope) -> str:
        if s.this == "this":
            s.uses.add("this")
        return s.this

    def g_This(self, e: ast.This, s: Scope, reads: Reads) -> str:
        return self._this(s)

    def g_It(self, e: ast.It, s: Scope, reads: Reads) -> str:
        return s.it

    def _counter_read(self, reads: Reads, slot: int) -> None:
        if slot >= 0:
            reads.site(f"sv[{slot!r}]")

    def _zone_read(self, node: ast.Expr, s: Scope, reads: Reads) -> None:
        """A zone's pieces read: that zone's count of changes when the zone is known by a
        constant or as the acting player's, else every move counts."""
        ref = self.ref(node) if isinstance(node, (ast.Name, ast.Of)) else None
        if isinstance(ref, r.GameZone):
            reads.site(f"zv[{self.lay.game_zone[ref.name]!r}]")
        elif isinstance(ref, r.PlayerZone) and self._mine(ref.subject) and not ref.plural and s.me == "me":
            reads.site(f"zv[{self.lay.player_zone[ref.name]!r} + me]")
        else:
            reads.add(PART_PIECES)

    def _name_part(self, reads: Reads, name: str) -> None:
        part = self.lay.counter_parts.get(name)
        if part is None:
            reads.unknown()
        else:
            reads.add(part)

    def _player(self, subject: ast.Expr | None, s: Scope, reads: Reads) -> str:
        return self._me(s) if subject is None else self.g(subject, s, reads)

    def _guarded(self, player: str, then: Callable[[str], str], what: str) -> str:
        """`then(p)` for a player `p` that must not be nobody (read once)."""
        if player.isidentifier():
            return f"({then(player)} if {player} >= 0 else _rt_nobody({what!r}))"
        return then(f"_rt_player({player}, {what!r})")

    def g_Name(self, e: ast.Name, s: Scope, reads: Reads) -> str:  # noqa: C901 - one branch per kind of name
        ref = self.ref(e)
        lay = self.lay
        if isinstance(ref, r.Local):
            if ref.name in s.params:
                return s.params[ref.name]
            if s.env is None:
                raise Unsupported("a local outside its table")
            s.uses.add("env")
            s.names.add(ref.name)  # a KeyError for it is "has no value here" (_rt_unbound)
            return f"{s.env}[{ref.name!r}]"
        if isinstance(ref, r.BuiltinName):
            n = ref.name
            if n == "me":
                return self._me(s)
            if n == "nobody":
                return "-1"
            if n == "active_player":
                reads.add(PART_ORDER)
                return f"{self._st(s)}.active"
            if n == "players":
                reads.add(PART_ORDER)
                return f"list({self._st(s)}.turn_order)"
            if n == "opponents":
                reads.add(PART_ORDER)
                return f"[_q for _q in {self._st(s)}.turn_order if _q != {self._me(s)}]"
            if n == "player_count":
                return repr(int(self.lay.players))
            reads.unknown()
            return f"{self._bind(builtins.RUN[n])}({self._st(s)}, {self._me(s)})"
        if isinstance(ref, r.GameCounter):
            slot = lay.game_counter[ref.name]
            self._counter_read(reads, slot)
            return f"{self._st(s)}.counters[{slot!r}]"
        if isinstance(ref, r.PlayerCounter):
            return self._player_counter(ref.name, None, s, reads)
        if isinstance(ref, r.GameValue):
            reads.add(PART_VALUES)
            read = f"{self._st(s)}.values[{lay.game_value[ref.name]!r}]"
            return f"{self._bind(_or_nobody)}({read})" if self._player_valued(ref.name) else read
        if isinstance(ref, r.PlayerValue):
            return self._player_value(ref.name, None, s, reads)
        if isinstance(ref, r.GameZone):
            return repr(int(lay.game_zone[ref.name]))
        if isinstance(ref, r.PlayerZone):
            return self._player_zone(ref.name, None, s, reads)
        if isinstance(ref, r.Symbol):
            return self._lit(ref.symbol)
        if isinstance(ref, r.Enum):
            return f"_rt_walk({self._st(s)}, {self._bind(list(self.v.enums[ref.enum]))})[:]"
        if isinstance(ref, r.CounterSet):
            return f"_rt_walk({self._st(s)}, {self._bind(list(self.v.counter_sets[ref.name]))})[:]"
        if isinstance(ref, r.Quantity):
            return self._quantity(ref.name, self._me(s), "None", s, reads)
        if isinstance(ref, r.Option):  # fixed when the game is made: reads nothing that changes
            return f"_rt_option({self._st(s)}, {self._lit(ref.name)})"
        if isinstance(ref, r.KindAll):
            return f"_rt_walk({self._st(s)}, {self._bind(list(lay.kind_pieces.get(ref.kind, [])))})[:]"
        if isinstance(ref, r.BoardItem):
            return repr(int(lay.board_item[ref.id]))
        if isinstance(ref, r.CardDef):
            return self._bind(DefRef(lay.def_index[ref.id]))
        if isinstance(ref, r.Definition):
            return self._call(ref.name, [], e, s, reads)
        if isinstance(ref, r.Action):
            return self._lit(ref.name)
        reads.unknown()
        return self.fallback(e, s)

    def _quantity(self, q: str, player: str, subject: str, s: Scope, reads: Reads) -> str:
        reads.unknown()  # a modifier's value is any expression: remembered within a menu only
        return f"_quantity({self._st(s)}, {q!r}, {player}, {subject})"

    def _player_counter(self, name: str, subject: ast.Expr | None, s: Scope, reads: Reads) -> str:
        base = self.lay.player_counter[name]
        p = self._player(subject, s, reads)
        if p == "me" and s.me == "me":  # the acting player's (written `my`, or a parameter given `me`)
            reads.site(f"sv[{base!r} + me]")
        else:
            self._name_part(reads, name)
        what = f"there is no `{name}` to read" if subject is None else f"nobody has `{name}`"
        st = self._st(s)
        return self._guarded(p, lambda q: f"{st}.counters[{base!r} + {q}]", what)

    def _player_value(self, name: str, subject: ast.Expr | None, s: Scope, reads: Reads) -> str:
        base = self.lay.player_value[name]
        reads.add(PART_VALUES)
        p = self._player(subject, s, reads)
        st = self._st(s)
        read = self._guarded(p, lambda q: f"{st}.values[{base!r} + {q}]", f"nobody has `{name}`")
        return f"{self._bind(_or_nobody)}({read})" if self._player_valued(name) else read  # unset: nobody

    def _player_zone(self, name: str, subject: ast.Expr | None, s: Scope, reads: Reads, plural: bool = False) -> str:
        base = self.lay.player_zone[name]
        if subject is None:
            return self._guarded(self._me(s), lambda q: f"{base!r} + {q}", f"there is no `{name}` here")
        p = self.g(subject, s, reads)
        if plural:
            return f"[{base!r} + _q for _q in {p}]"
        return self._guarded(p, lambda q: f"{base!r} + {q}", f"nobody has a `{name}`")

    def g_Of(self, e: ast.Of, s: Scope, reads: Reads) -> str:
        ref = self.ref(e)
        if isinstance(ref, r.PlayerCounter):
            return self._player_counter(ref.name, ref.subject, s, reads)
        if isinstance(ref, r.PlayerValue):
            return self._player_value(ref.name, ref.subject, s, reads)
        if isinstance(ref, r.PlayerZone):
            return self._player_zone(ref.name, ref.subject, s, reads, ref.plural)
        if isinstance(ref, r.Quantity):
            subj = self.g(e.subject, s, reads)
            if ref.of_player:
                return self._quantity(ref.name, subj, "None", s, reads)
            return self._quantity(ref.name, self._me(s), subj, s, reads)
        if isinstance(ref, r.Supply):
            return f"('supply', {ref.kind!r}, {self.g(e.subject, s, reads)})"
        if isinstance(ref, r.Attribute):
            return self._attribute(e, True, s, reads)
        if isinstance(ref, (r.ItemCounter, r.ItemValue)):
            return self._own_state(e, ref, True, s, reads)
        if isinstance(ref, r.BuiltinOf):
            subj = self.g(e.subject, s, reads)
            tag = self.type_of(e.subject).tag
            if ref.name == "count" and tag == "zone":
                self._zone_read(e.subject, s, reads)
                return f"len({self._st(s)}.zones[{subj}])"
            if ref.name == "count" and self.type_of(e.subject).is_collection:
                return f"len({subj})"
            if ref.name == "owner":
                if not self._owned_tokens(self.type_of(e.subject).arg):
                    reads.add(PART_PIECES)  # a card's owner is its zone's
                return f"_owner({self._st(s)}, {subj})"
            if ref.name == "track":
                return subj
            reads.unknown()
            for_player = builtins.FOR_PLAYER.get(ref.name)
            run = for_player if (for_player and tag == "player") else builtins.RUN[ref.name]
            return f"{self._bind(run)}({self._st(s)}, {self._me(s)}, {subj})"
        reads.unknown()
        return self.fallback(e, s)

    def _attribute(self, e: ast.Of, strict: bool, s: Scope, reads: Reads) -> str:
        """An attribute read: a column by piece (an int) or by definition (a DefRef)."""
        name = e.name
        by_piece, by_def = self.column(name)
        t = self.type_of(e)
        era_scalar, era_in_lists = self.era_column(name, by_def)
        has_era = era_scalar or (t.tag == "numbers" and era_in_lists)
        subj = self.g(e.subject, s, reads)
        if has_era:
            self._counter_read(reads, self.era_slot)
        plain = not has_era and (not strict or MISSING not in by_piece)
        if plain and subj.isidentifier():  # the common case, inline: a column read
            bp = self._bind(by_piece)
            return f"({bp}[{subj}] if type({subj}) is int else {self._reader(name, strict, False)}({self._st(s)}, {subj}))"
        if not has_era and subj.isidentifier():  # a piece that gives it, inline; the reader says what is missing
            assert MISSING is None
            bp = self._bind(by_piece)
            return (f"({bp}[{subj}] if type({subj}) is int and {bp}[{subj}] is not None "
                    f"else {self._reader(name, strict, False)}({self._st(s)}, {subj}))")
        return f"{self._reader(name, strict, has_era)}({self._st(s)}, {subj})"

    def _reader(self, name: str, strict: bool, has_era: bool) -> str:
        key = ("attribute", name, strict, has_era)
        found = self._readers.get(key) if hasattr(self, "_readers") else None
        if found is None:
            if not hasattr(self, "_readers"):
                self._readers: dict[tuple, str] = {}
            found = self._readers[key] = self._bind(make_reader(*self.column(name), self.spec.defs, self.era_slot, name, strict, has_era), "r")
        return found

    def _own_state(self, e: ast.Of, ref: r.ItemCounter | r.ItemValue, strict: bool, s: Scope, reads: Reads) -> str:
        counter = isinstance(ref, r.ItemCounter)
        if counter:
            self._name_part(reads, ref.name)
        else:
            reads.add(PART_VALUES)
        slots = self.lay.counter_slots(ref.name) if counter else self.lay.value_slots(ref.name)
        subj = self.g(e.subject, s, reads)
        fn = self._bind(_own_reader(ref.name, slots, counter, strict), "r")
        st = self._st(s)
        if subj.isidentifier():
            # a name (a loop's member, a parameter): the slot read in place, the reader
            # called only for what has no slot (its error or MISSING); these reads fill
            # the filters of a map's places
            at = self._bind(slots, "k")
            table = "counters" if counter else "values"
            return (f"({st}.{table}[{at}[{subj}]] if type({subj}) is int and {at}[{subj}] >= 0 "
                    f"else {fn}({st}, {subj}))")
        return f"{fn}({st}, {subj})"

    def _mine(self, subject: ast.Expr | None) -> bool:
        """Whether a subject is the acting player (none written, or `me`)."""
        return subject is None or isinstance(subject, ast.Name) and \
            isinstance(self.ref(subject), r.BuiltinName) and subject.name == "me"

    def _owned_tokens(self, kind: str | None) -> bool:
        """Whether every piece of a kind is a token with an owner (who never changes)."""
        k = self.v.kinds.get(kind or "")
        pieces = self.lay.kind_pieces.get(kind or "", [])
        return k is not None and k.piece == "token" and bool(pieces) and \
            all(self.lay.piece_owner[p] >= 0 for p in pieces)

    def _lenient(self, e: ast.Expr, s: Scope, reads: Reads) -> str:
        if isinstance(e, ast.Of):
            ref = self.ref(e)
            if isinstance(ref, r.Attribute):
                return self._attribute(e, False, s, reads)
            if isinstance(ref, (r.ItemCounter, r.ItemValue)):
                return self._own_state(e, ref, False, s, reads)
        return self.g(e, s, reads)

    def g_Empty(self, e: ast.Empty, s: Scope, reads: Reads) -> str:
        subj = self.g(e.subject, s, reads)
        t = self.type_of(e.subject).tag
        if t == "zone":
            self._zone_read(e.subject, s, reads)
            return f"(not {self._st(s)}.zones[{subj}])"
        if t == "thing":
            reads.add(PART_HOLDERS)
            return f"(not _pieces_on({self._st(s)}, {subj}))"
        return f"(not len({subj}))"

    def g_Has(self, e: ast.Has, s: Scope, reads: Reads) -> str:
        _, by_def = self.column(e.attribute)
        subj = self.g(e.subject, s, reads)
        return f"_rt_has({self._bind(self.lay.piece_def)}, {self._bind(by_def)}, {subj}, {bool(e.negated)!r})"

    def g_Compare(self, e: ast.Compare, s: Scope, reads: Reads) -> str:
        op = e.op
        if op in ("=", "!=", "in"):
            left, right = self._lenient(e.left, s, reads), self._lenient(e.right, s, reads)
        else:
            left, right = self.g(e.left, s, reads), self.g(e.right, s, reads)
        lt, rt = self.type_of(e.left).tag, self.type_of(e.right).tag
        piece_def = self._bind(self.lay.piece_def)
        if op == "in":
            if rt == "zone":  # the zone's count changes when a piece enters or leaves it
                self._zone_read(e.right, s, reads)
            if rt == "zones":
                reads.add(PART_PIECES)
            if rt in ("zone", "zones"):
                return f"({self._st(s)}.loc[{left}] {'==' if rt == 'zone' else 'in'} {right})"
            if rt == "defs":
                return f"_rt_among({piece_def}, {left}, {right})"
            if rt in ("things", "table") or lt == "def":
                return f"_rt_member({self._st(s)}, {piece_def}, {left}, {right})"
            if rt == "players":  # no more than the players
                return f"({left} in {right})"
            return f"_rt_in({self._st(s)}, {left}, {right})"
        if "def" in (lt, rt) or (lt == "thing" and rt == "thing"):
            same = f"_rt_same({piece_def}, {left}, {right})"
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
        if name is not None and depth < 8 and name in self.spec.definitions and (
                isinstance(e, ast.Call) or isinstance(self.ref(e), r.Definition)):
            return self._boolish(self.spec.definitions[name].value, depth + 1)
        return False

    def g_Not(self, e: ast.Not, s: Scope, reads: Reads) -> str:
        return f"(not {self.g(e.operand, s, reads)})"

    def g_Arith(self, e: ast.Arith, s: Scope, reads: Reads) -> str:
        left, right = self.g(e.left, s, reads), self.g(e.right, s, reads)
        if e.op == "+":
            if self.type_of(e).is_collection:
                return f"_rt_joined({self._st(s)}, {left}, {right})"
            return f"({left} + {right})"
        if e.op == "-":
            return f"({left} - {right})"
        if self.type_of(e.right).tag == "percent":
            return f"{self._bind(mech.bounded)}(-((-{left} * {right}) // 100))"  # rounds up (VAL-3)
        return f"{self._bind(_times)}({left}, {right})"  # bounded (dsl/numbers.py), as the closures

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
        return f"_rt_same_card({self._bind(self.lay.piece_def)}, {left}, {right}, {bool(e.negated)!r})"

    def g_ListLiteral(self, e: ast.ListLiteral, s: Scope, reads: Reads) -> str:
        return "[" + ", ".join(self.g(x, s, reads) for x in e.items) + "]"

    def _source(self, coll: ast.Expr, s: Scope, reads: Reads) -> str:
        """A collection to iterate: a zone's pieces, or the collection itself."""
        src = self.g(coll, s, reads)
        if self.type_of(coll).tag == "zone":
            self._zone_read(coll, s, reads)
            return f"{self._st(s)}.zones[{src}]"
        return src

    def g_Where(self, e: ast.Where, s: Scope, reads: Reads) -> str:
        src = f"_rt_walk({self._st(s)}, {self._source(e.collection, s, reads)})"
        x = self._name("i")
        static = self.static_test(e.condition)
        zone = self.type_of(e.collection).tag == "zone"
        if static is not None:  # decided per piece at compile time
            by_piece, by_def = static
            bp, bd = self._bind(by_piece), self._bind(by_def)
            keep = f"{bp}[{x}]" if zone else f"({bp}[{x}] if type({x}) is int else {bd}[int({x})])"
            if None not in by_piece and None not in by_def:
                return f"[{x} for {x} in {src} if {keep}]"
            cond = self.g(e.condition, s.with_it(x), reads)
            return f"[{x} for {x} in {src} if ({keep} if {keep} is not None else {cond})]"
        cond = self.g(e.condition, s.with_it(x), reads)
        return f"[{x} for {x} in {src} if {cond}]"

    def g_Select(self, e: ast.Select, s: Scope, reads: Reads) -> str:
        st_tag = self.type_of(e.source).tag
        if isinstance(self.ref(e), r.Selection) and st_tag in ("things", "table"):  # interpreter/selection.py's
            reads.unknown()
            return self.fallback(e, s)
        src = self.g(e.source, s, reads)
        if st_tag in ("symbols", "counters") or self.type_of(e).tag in ("symbols", "counters"):
            return f"_rt_distinct({self._st(s)}, {src})"
        ref = self.ref(e)
        kind = ref.kind if isinstance(ref, r.Selection) else None
        x = self._name("i")
        st = self._st(s)
        if st_tag == "zone":
            self._zone_read(e.source, s, reads)
        elif st_tag == "zones":
            reads.add(PART_PIECES)
        elif st_tag not in ("things", "table"):
            reads.add(PART_HOLDERS)  # the pieces on an item
        # every walk charged to the step budget, as interpreter/selection.py charges it
        if kind:
            pk = self._bind(self.piece_kind)
            k = repr(str(kind))
            if st_tag == "zone":
                return f"[{x} for {x} in _rt_walk({st}, {st}.zones[{src}]) if {pk}[{x}] == {k}]"
            if st_tag == "zones":
                z = self._name("i")
                return f"[{x} for {z} in {src} for {x} in _rt_walk({st}, {st}.zones[{z}]) if {pk}[{x}] == {k}]"
            return f"[{x} for {x} in _pieces_on({st}, {src}) if {pk}[{x}] == {k}]"
        if st_tag == "zone":
            return f"_rt_walk({st}, {st}.zones[{src}])[:]"
        if st_tag == "zones":
            z = self._name("i")
            return f"[{x} for {z} in {src} for {x} in _rt_walk({st}, {st}.zones[{z}])]"
        if st_tag in ("things", "table"):
            return f"list(_rt_walk({st}, {src}))"
        return f"_pieces_on({st}, {src})"

    def g_Top(self, e: ast.Top, s: Scope, reads: Reads) -> str:
        if isinstance(self.ref(e), r.PileEnd):  # pieces from a zone, read as the zone is (interpreter/selection.py)
            reads.unknown()
            return self.fallback(e, s)
        src = self.g(e.source, s, reads)
        count = self.g(e.count, s, reads) if e.count is not None else None
        top = e.end == "top"
        st = self._st(s)
        if self.type_of(e.source).is_collection:
            if count is None:
                return f"_rt_top_member({src}, {e.end!r})"
            return f"_rt_top_members({st}, {src}, {count}, {top!r})"
        self._zone_read(e.source, s, reads)
        if count is None:
            return f"_rt_top_piece({st}.zones[{src}], {e.end!r})"
        return f"_rt_top_pieces({st}, {st}.zones[{src}], {count}, {top!r})"

    def g_Entry(self, e: ast.Entry, s: Scope, reads: Reads) -> str:
        src = self.g(e.source, s, reads)
        index = self.g(e.index, s, reads)
        if self.type_of(e.source).tag == "table":
            self._counter_read(reads, self.era_slot)
            return (f"_rt_lookup({self._st(s)}, {self._bind(self.lay.piece_def)}, {self.era_slot!r}, "
                    f"{src}, {index})")
        return f"_rt_nth({src}, {index})"

    def g_Aggregate(self, e: ast.Aggregate, s: Scope, reads: Reads) -> str:
        coll = self.g(e.collection, s, reads)
        ref = self.ref(e)
        fn = {"total": "sum", "highest": "max", "lowest": "min"}[e.fn]
        x = self._name("i")
        if isinstance(ref, r.PlayerCounter):
            base = self.lay.player_counter[ref.name]
            self._name_part(reads, ref.name)
            get = f"{self._st(s)}.counters[{base!r} + {x}]"
        else:
            probe = aggregate_probe(self.res, e, ref, self.type_of(e.collection).element())
            get = self.g(probe, s.with_it(x), reads)
        return f"_rt_aggregate({fn}, [{get} for {x} in _rt_walk({self._st(s)}, {coll})])"

    def g_Ordered(self, e: ast.Ordered, s: Scope, reads: Reads) -> str:
        coll = self.g(e.collection, s, reads)
        x = self._name("i")
        key = self.g(e.key, s.with_it(x), reads)
        return f"_rt_ordered([({key}, {x}) for {x} in _rt_walk({self._st(s)}, {coll})], {bool(e.descending)!r})"

    # ------------------------------------------------------------------ the graph of places
    # The walks are interpreter/graph.py's, as the closures call them. The links are fixed
    # when the game is made, so a walk reads nothing of the state unless a link has a
    # condition (then it may read anything). A walk `through` a condition stays with the
    # closures: the condition is asked of each place passed, as `it`.
    def _links(self, place: ast.Expr, links: tuple[ast.Name, ...], reads: Reads) -> str:
        names = self.via(place, links)
        if any(link in self.spec.link_conditions for link in names):
            reads.unknown()
        return self._bind(names)

    def _acting(self, s: Scope) -> str:
        """`st, me, this` as the scope names them: who asks a walk (a link's condition)."""
        return f"{self._st(s)}, {self._me(s)}, {self._this(s)}"

    def g_Neighbours(self, e: ast.Neighbours, s: Scope, reads: Reads) -> str:
        place = self.g(e.place, s, reads)
        return f"_rt_neighbours({self._acting(s)}, {place}, {self._links(e.place, e.links, reads)})"

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
        links = self._links(e.place, e.links, reads)
        kind = self.v.kind_of_word(e.word)[1]
        walk = f"_rt_within({self._acting(s)}, {place}, {links}, {steps})"
        if kind is None:
            return walk
        x = self._name("i")
        return f"[{x} for {x} in {walk} if {self._bind(self.piece_kind)}[{x}] == {self._lit(str(kind))}]"

    def g_Distance(self, e: ast.Distance, s: Scope, reads: Reads) -> str:
        left = self._through(e, s, reads)
        if left is not None:
            return left
        origin, dest = self.g(e.origin, s, reads), self.g(e.dest, s, reads)
        links = self._links(e.origin, e.links, reads)
        return f"_rt_distance({self._acting(s)}, {origin}, {dest}, {links})"

    def g_Call(self, e: ast.Call, s: Scope, reads: Reads) -> str:
        n = e.name
        if n in self.spec.definitions:
            return self._call(n, list(e.args), e, s, reads)
        if n == "possible":
            reads.unknown()
            names = tuple(self.spec.vocab.action_names(x.name for x in e.args if isinstance(x, ast.Name)))
            this = s.this
            if this == "this":
                s.uses.add("this")
            return f"_rt_possible({self._st(s)}, {self._me(s)}, {this}, {self._bind(names)})"
        args = [self.g(x, s, reads) for x in e.args]
        if n in ("max", "min"):
            return f"{n}({', '.join(args)})" if len(args) > 1 else f"{n}(({args[0]},))"
        reads.unknown()
        return f"{self._bind(builtins.RUN[n])}({', '.join([self._st(s), self._me(s)] + args)})"

    # ------------------------------------------------------------------ definitions
    def _call(self, name: str, arg_nodes: list, e: ast.Node, s: Scope, reads: Reads) -> str:
        made = self._definition_fn(name)
        if made is None:
            reads.unknown()
            return self.fallback(e, s) if isinstance(e, ast.Expr) else "_unsupported"
        fn, _, def_reads, body = made
        args = [self.g(x, s, reads) for x in arg_nodes]
        if _inlined(body) and all(_simple(x) for x in args) and not self.spec.definitions[name].charge:
            # a small definition called with names or numbers: written in place (its
            # arguments cannot fail or differ when read again; no memo to look up), what
            # it reads read as the caller's (`P's gold` given `me` is the acting player's)
            d = self.spec.definitions[name]
            inner = Scope(s.a, s.me, s.this, s.env, "None", dict(zip(d.params, args)), s.uses, s.names)
            saved = self.origin
            try:
                return self.g(d.value, inner, reads)
            finally:
                self.origin = saved
        reads.merge(def_reads)
        this = s.this
        if this == "this":
            s.uses.add("this")
        return f"{fn}({', '.join([self._st(s), self._me(s), this] + args)})"

    def _definition_fn(self, name: str) -> tuple[str, list[str], Reads, str] | None:
        """The generated function of a definition (None: the closures compute it)."""
        found = self._def_fns.get(name)
        if found is not None or name in self._def_failed:
            return found
        if name in self._generating:
            raise InternalError(f"definition `{name}` refers to itself")
        d = self.spec.definitions[name]
        self._generating.add(name)
        saved = self.origin
        try:
            params = {p: f"_p{i}" for i, p in enumerate(d.params)}
            scope = Scope(None, "me", "this", None, "None", params, {"st", "me", "this"})
            reads = Reads()
            body = self.g(d.value, scope, reads)
        except Unsupported:
            self._def_failed.add(name)
            return None
        finally:
            self._generating.discard(name)
            self.origin = saved
        fn = self._name("d")
        # remembered while a menu is built (st.memo), and across menus while what it
        # reads has not changed (st.keep); an argument that is a list is not remembered.
        # Remembering costs a key and a look-up a call: a definition whose calls find
        # their result less than MEMO_FINDS of the time stops remembering (_rt_memo_pays)
        k = len(self._def_fns)
        self.ns["_memo_calls"].append(0)
        self.ns["_memo_made"].append(0)
        self.ns["_memo_off"].append(False)
        plist = ", ".join(params.values())
        key = f"({k!r}, me, this{', ' if plist else ''}{plist})"
        # a definition that does much charges its steps each time it is computed, not when remembered
        charge = [f"        _rt_spend(st, {d.charge!r})"] if d.charge else []
        lines = [f"def {fn}(st, me, this{', ' if plist else ''}{plist}):",
                 "    memo = st.memo",
                 f"    if memo is None or _memo_off[{k!r}]:",
                 *charge,
                 f"        return {body}",
                 f"    key = {key}",
                 "    try:",
                 "        found = memo.get(key, _MISSING)",
                 "    except TypeError:  # an unhashable argument (a list): not remembered",
                 *charge,
                 f"        return {body}",
                 f"    _memo_calls[{k!r}] += 1",
                 "    if found is _MISSING:"]
        counted = [f"        _memo_made[{k!r}] += 1",
                   f"        if _memo_calls[{k!r}] >= {MEMO_WINDOW!r}:",
                   f"            _rt_memo_pays(_memo_calls, _memo_made, _memo_off, {k!r})"]
        if reads.parts is not None and _costly(body):
            lines += ["        keep = st.keep",
                      "        v, sv, zv = st.versions, st.slot_versions, st.zone_versions",
                      f"        stamp = {reads.stamp()}",
                      "        kept = keep.get(key)",
                      "        if kept is not None and kept[0] == stamp:",
                      "            found = memo[key] = kept[1]",
                      "            return found"] + counted + charge + [
                      f"        found = memo[key] = {body}",
                      "        keep[key] = (stamp, found)",
                      "        return found"]
        else:
            lines += counted + charge + [f"        found = memo[key] = {body}"]
        lines += ["    return found"]
        try:
            self._define("\n".join(lines) + "\n", fn)
        except Unsupported:
            self._def_failed.add(name)
            return None
        made = (fn, list(params.values()), reads, body)
        self._def_fns[name] = made
        return made

    # ------------------------------------------------------------------ actions
    def compile_action(self, spec: ActionSpec) -> CompiledAction:
        action = super().compile_action(spec)
        if getattr(self, "codegen", False):
            try:
                action.listed, action.exists = self._targets(spec)
            except Unsupported:
                pass
        return action

    def _targets(self, spec: ActionSpec) -> tuple[Callable[..., list], Callable[..., bool]]:
        """An action's targets (CompiledAction.targets, the reference) as two generated
        functions: every target, and whether there is one (lazily, as `possible` asks)."""
        what = f"action `{spec.name}`"
        x = self._name("x")
        params = {spec.var: x} if spec.var else {}
        scope = Scope(None, "me", "this", None, "None", params, {"st", "me", "this"})
        self.origin = spec.choose_origin or Origin(what)
        coll = self.g(spec.choose, scope, Reads()) if spec.choose is not None else None
        parts = []
        for test, where in spec.conditions():  # its own `if:`, then each restriction, each where it is written
            self.origin = where or Origin(what)
            parts.append(f"({self.g(test, scope, Reads())})")
        cond = " and ".join(parts) or None
        gate = coll is not None and cond is not None and not any(
            isinstance(n, ast.Name) and n.name == spec.var for test, _ in spec.conditions() for n in ast.walk(test))
        listed, exists = self._name("a"), self._name("a")
        head = "(st, me, this):"
        if coll is None:
            lines = [f"def {listed}{head}", f"    return [None] if {cond or 'True'} else []",
                     f"def {exists}{head}", f"    return bool({cond or 'True'})"]
        elif gate:
            lines = [f"def {listed}{head}", f"    if not {cond}:", "        return []", f"    return list({coll})",
                     f"def {exists}{head}", f"    if not {cond}:", "        return False", f"    return len({coll}) > 0"]
        else:
            keep = f" if {cond}" if cond is not None else ""
            walk = f"_rt_walk(st, {coll})" if cond is not None else coll  # the condition asked of each, charged
            lines = [f"def {listed}{head}", f"    return [{x} for {x} in {walk}{keep}]",
                     f"def {exists}{head}", f"    for {x} in {walk}:"]
            lines += [f"        if {cond}:", "            return True"] if cond is not None else ["        return True"]
            lines += ["    return False"]
        self._define("\n".join(lines) + "\n", listed)
        return self.ns[listed], self.ns[exists]


def _times(x: Any, y: Any) -> Any:
    """`A * B` in generated code: the one operator that outgrows the step budget, held to
    the engine's limit as the closures hold it (dsl/numbers.py)."""
    v = x * y
    return v if -MAX_NUMBER <= v <= MAX_NUMBER else mech.bounded(v)
