"""Expressions: each AST expression to a function of an Activation. Names by what the
checker resolved them to (counters, zones, values, items, definitions...),
comparisons, arithmetic, calls of definitions (memoised while a menu is built) and
builtins; collections and their filters are compile/collections.py's.
"""

from __future__ import annotations

from typing import Any

from legacies.dsl import ast, printer
from legacies.dsl import resolution as r
from legacies.dsl.numbers import MAX_NUMBER

from .. import builtins
from .. import mechanics as mech
from ..builtins import NOBODY
from ..budget import over, spend
from ..errors import ContentError, InternalError
from ..values import DefRef
from ..vm import Activation
from .columns import Columns
from .context import MISSING, CompileContext, Compiles, Fn, as_def, held_slot, no_player, or_nobody
from .collections import CollectionCompiler
from .filters import StaticFilters, existence
from .general import GeneralCompiler


_MISSING = object()  # not in a memo (None is a value a definition may give)


class ExpressionCompiler:
    def __init__(self, ctx: CompileContext, compiler: Compiles, columns: Columns, filters: StaticFilters,
                 general: GeneralCompiler, collections: CollectionCompiler):
        self.ctx = ctx
        self.compiler = compiler
        self.columns = columns
        self.filters = filters
        self.general = general
        self.collections = collections
        self.definitions: dict[str, tuple[list[str], Fn]] = {}
        self._defining: set[str] = set()

    def lenient(self, e: ast.Expr) -> Fn:
        """An operand of `is`/`is not`/`is in`: a missing attribute reads as nothing."""
        if isinstance(e, ast.Of) and isinstance(self.ctx.ref(e), r.Attribute):
            return self.columns.attribute(e, strict=False)
        ref = self.ctx.ref(e)
        if isinstance(e, ast.Of) and isinstance(ref, (r.ItemCounter, r.ItemValue)):
            return self.columns.own_state(e, ref, strict=False)
        return self.compiler.expr(e)

    def x_Num(self, e: ast.Num) -> Fn:
        v = e.value
        return lambda a: v

    def x_Era(self, e: ast.Era) -> Fn:
        values = e.values
        slot = self.ctx.era_slot
        last = len(values) - 1

        def era_value(a: Activation) -> int:
            i = a.st.counters[slot] - 1 if slot >= 0 else 0
            return values[0 if i < 0 else (last if i > last else i)]
        return era_value

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
        ref = self.ctx.ref(e)
        lay = self.ctx.lay
        if isinstance(ref, r.Local):
            name = ref.name

            def local(a: Activation) -> Any:
                try:
                    return a.env[name]
                except KeyError:
                    raise ContentError(f"`{name}` has no value here") from None
            return local
        if isinstance(ref, r.BuiltinName):
            run_name = builtins.RUN[ref.name]
            return lambda a: run_name(a.st, a.me)
        if isinstance(ref, r.GameCounter):
            slot = lay.game_counter[ref.name]
            return lambda a: a.st.counters[slot]
        if isinstance(ref, r.PlayerCounter):
            return self.player_counter(ref.name, None)
        if isinstance(ref, r.GameValue):
            vslot = lay.game_value[ref.name]
            if self.player_valued(ref.name):  # unset: nobody (`starter is not nobody` guards it)
                return lambda a: or_nobody(a.st.values[vslot])
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
            return _copied(list(self.ctx.v.enums[ref.enum]))
        if isinstance(ref, r.CounterSet):
            return _copied(list(self.ctx.v.counter_sets[ref.name]))
        if isinstance(ref, r.Option):
            name = ref.name
            return lambda a: a.st.game.options[name]
        if isinstance(ref, r.Quantity):
            q = ref.name
            return lambda a: mech.quantity(a.st, q, a.me, None)
        if isinstance(ref, r.KindAll):
            return _copied(list(lay.kind_pieces.get(ref.kind, [])))
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
                                   f"(`top of (cards in ZONE where it is {ref.id})`)", self.ctx.where(e))
            pid = copies[0]
            return lambda a: pid
        if isinstance(ref, r.Definition):
            return self.call_definition(ref.name, [], e)
        if isinstance(ref, r.Action):
            name = ref.name
            return lambda a: name
        raise InternalError(f"`{e.name}` was not resolved by the checker", self.ctx.where(e))

    def player_counter(self, name: str, subject: ast.Expr | None) -> Fn:
        base = self.ctx.lay.player_counter[name]
        if subject is None:
            def mine(a: Activation) -> int:
                p = a.me
                if p < 0:
                    raise no_player(f"there is no `{name}` to read")
                return a.st.counters[base + p]
            return mine
        subj = self.compiler.expr(subject)

        def theirs(a: Activation) -> int:
            p = subj(a)
            if p < 0:
                raise no_player(f"nobody has `{name}`")
            return a.st.counters[base + p]
        return theirs

    def player_value(self, name: str, subject: ast.Expr | None) -> Fn:
        base = self.ctx.lay.player_value[name]
        subj = self.compiler.expr(subject) if subject is not None else None
        unset = NOBODY if self.player_valued(name) else None  # what a value never set reads as

        def value(a: Activation) -> Any:
            p = subj(a) if subj is not None else a.me
            if p < 0:
                raise no_player(f"nobody has `{name}`")
            v = a.st.values[base + p]
            return unset if v is None else v
        return value

    def player_valued(self, name: str) -> bool:
        info = self.ctx.v.values.get(name)
        return info is not None and info.type.tag == "player"

    def player_zone(self, name: str, subject: ast.Expr | None, plural: bool = False) -> Fn:
        base = self.ctx.lay.player_zone[name]
        if subject is None:
            def mine(a: Activation) -> int:
                if a.me < 0:
                    raise no_player(f"there is no `{name}` here")
                return base + a.me
            return mine
        subj = self.compiler.expr(subject)
        if plural:
            return lambda a: [base + p for p in subj(a)]

        def theirs(a: Activation) -> int:
            p = subj(a)
            if p < 0:
                raise no_player(f"nobody has a `{name}`")
            return base + p
        return theirs

    def counter_of(self, ref: r.CounterOf) -> Fn:
        """The slot of a counter chosen at run time, for a player."""
        holder = self.compiler.expr(ref.holder)
        table = self.ctx.lay.player_counter
        subj = self.compiler.expr(ref.subject) if ref.subject is not None else None

        def slot(a: Activation) -> int:
            p = subj(a) if subj is not None else a.me
            if p < 0:
                raise no_player("nobody has counters")
            return held_slot(table, holder(a), printer.print_expr(ref.holder)) + p
        return slot

    def x_Of(self, e: ast.Of) -> Fn:
        ref = self.ctx.ref(e)
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
            subj = self.compiler.expr(e.subject)
            if ref.of_player:
                return lambda a: mech.quantity(a.st, q, subj(a), None)
            return lambda a: mech.quantity(a.st, q, a.me, subj(a))
        if isinstance(ref, r.Supply):
            token_kind = ref.kind
            subj = self.compiler.expr(e.subject)
            return lambda a: ("supply", token_kind, subj(a))
        if isinstance(ref, r.Attribute):
            return self.columns.attribute(e, strict=True)
        if isinstance(ref, (r.ItemCounter, r.ItemValue)):
            return self.columns.own_state(e, ref)
        if isinstance(ref, r.BuiltinOf):
            subj = self.compiler.expr(e.subject)
            for_player = builtins.FOR_PLAYER.get(ref.name)
            run = for_player if (for_player and self.ctx.type_of(e.subject).tag == "player") else builtins.RUN[ref.name]
            if ref.name == "count" and self.ctx.type_of(e.subject).tag == "zone":
                return lambda a: len(a.st.zones[subj(a)])
            return lambda a: run(a.st, a.me, subj(a))
        raise InternalError(f"`{e.name}` was not resolved by the checker", self.ctx.where(e))

    # ---- the rest of the expressions
    def x_Empty(self, e: ast.Empty) -> Fn:
        subj = self.compiler.expr(e.subject)
        t = self.ctx.type_of(e.subject).tag
        if t == "zone":
            return lambda a: not a.st.zones[subj(a)]
        if t == "thing":
            return lambda a: not mech.pieces_on(a.st, subj(a))
        return lambda a: not len(subj(a))

    def x_Has(self, e: ast.Has) -> Fn:
        _, by_def = self.columns.column(e.attribute)
        subj = self.compiler.expr(e.subject)
        piece_def = self.ctx.lay.piece_def
        negated = e.negated

        def has(a: Activation) -> bool:
            x = subj(a)
            if x is None:  # a value never set names nothing, which has no attribute
                return negated
            d = int(x) if isinstance(x, DefRef) else piece_def[x]
            return (by_def[d] is not MISSING) != negated
        return has

    def x_Compare(self, e: ast.Compare) -> Fn:
        found = existence(self.ctx, e)
        if found is not None:  # `count of (C where T) > 0`: stops at the first that passes
            some = self.collections.any_where(found[0])
            return some if found[1] else (lambda a: not some(a))
        op = e.op
        if op in ("=", "!=", "in"):
            left, right = self.lenient(e.left), self.lenient(e.right)
        else:
            left, right = self.compiler.expr(e.left), self.compiler.expr(e.right)
        lt, rt = self.ctx.type_of(e.left).tag, self.ctx.type_of(e.right).tag
        if op == "in":
            if rt == "zone":
                return lambda a: a.st.loc[left(a)] == right(a)
            if rt == "zones":
                return lambda a: a.st.loc[left(a)] in right(a)
            if rt == "defs":  # `C is in [storm, flood]`: a copy of one of the cards named
                return self.general.among_cards(left, right)
            if rt in ("things", "table") or lt == "def":
                piece_def = self.ctx.lay.piece_def

                def member(a: Activation) -> bool:
                    x = left(a)
                    ys = right(a)
                    spend(a.st, len(ys))  # a walk over the list
                    if isinstance(x, DefRef):  # a card named in source: any of its copies
                        return any(as_def(piece_def, y) == x for y in ys)
                    return x in ys
                return member
            if rt == "players":  # no more than the players
                return lambda a: left(a) in right(a)

            def among(a: Activation) -> bool:
                x = left(a)
                ys = right(a)
                spend(a.st, len(ys))
                return x in ys
            return among
        if "def" in (lt, rt) or (lt == "thing" and rt == "thing"):
            piece_def = self.ctx.lay.piece_def

            def same(a: Activation) -> bool:
                x, y = left(a), right(a)
                if x is None or y is None:
                    return x is y
                if isinstance(x, DefRef) or isinstance(y, DefRef):
                    return as_def(piece_def, x) == as_def(piece_def, y)
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
        left = self.compiler.expr(e.left)
        right = self.compiler.expr(e.right)
        if e.op == "and":
            return lambda a: bool(left(a)) and bool(right(a))
        return lambda a: bool(left(a)) or bool(right(a))

    def x_Not(self, e: ast.Not) -> Fn:
        inner = self.compiler.expr(e.operand)
        return lambda a: not inner(a)

    def x_Arith(self, e: ast.Arith) -> Fn:
        left = self.compiler.expr(e.left)
        right = self.compiler.expr(e.right)
        if e.op == "+":
            if self.ctx.type_of(e).is_collection:
                def joined(a: Activation) -> list:
                    both = list(left(a)) + list(right(a))
                    spend(a.st, len(both))
                    return both
                return joined
            return lambda a: left(a) + right(a)
        if e.op == "-":
            return lambda a: left(a) - right(a)
        if self.ctx.type_of(e.right).tag == "percent":
            return lambda a: mech.bounded(-((-left(a) * right(a)) // 100))  # rounds up (VAL-3)

        def times(a: Activation) -> Any:  # the one operator that outgrows the step budget (dsl/numbers.py)
            v = left(a) * right(a)
            return v if -MAX_NUMBER <= v <= MAX_NUMBER else mech.bounded(v)
        return times

    def x_Div(self, e: ast.Div) -> Fn:
        left = self.compiler.expr(e.left)
        right = self.compiler.expr(e.right)

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
        inner = self.compiler.expr(e.operand)
        return lambda a: -inner(a)

    def x_Cond(self, e: ast.Cond) -> Fn:
        cond, yes, no = self.compiler.expr(e.condition), self.compiler.expr(e.yes), self.compiler.expr(e.no)
        return lambda a: yes(a) if cond(a) else no(a)

    def x_Call(self, e: ast.Call) -> Fn:
        n = e.name
        if n in self.ctx.spec.definitions:
            return self.call_definition(n, e.args, e)
        if n == "possible":
            names = tuple(self.ctx.spec.vocab.action_names(x.name for x in e.args if isinstance(x, ast.Name)))
            return lambda a: any(act.available(a.st, a) for act in a.st.game.actions_named(names))
        run = builtins.RUN[n]
        args = [self.compiler.expr(x) for x in e.args]
        if len(args) == 1:
            (f,) = args
            return lambda a: run(a.st, a.me, f(a))
        if len(args) == 2:
            f, g = args
            return lambda a: run(a.st, a.me, f(a), g(a))
        return lambda a: run(a.st, a.me, *[f(a) for f in args])

    def call_definition(self, name: str, arg_nodes: tuple | list, e: ast.Node) -> Fn:
        params, body = self.definition(name)
        args = [self.compiler.expr(x) for x in arg_nodes]
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
            d = self.ctx.spec.definitions[name]
            body = self.compiler.expr(d.value)
            self.definitions[name] = (d.params, _charged(body, d.charge) if d.charge else body)
            self._defining.discard(name)
        return self.definitions[name]


def _charged(body: Fn, steps: int) -> Fn:
    """A definition's value that does much (DefinitionSpec.charge): each time it is computed
    (not when remembered) its steps are charged (budget.spend, written out), before the work,
    so a chain of definitions that multiplies it stops at the budget."""
    def charged(a: Activation) -> Any:
        st = a.st
        st.spent += steps
        if st.spent > st.limit:
            over(st)
        return body(a)
    return charged


def _copied(members: list) -> Fn:
    """A fixed list (every piece of a kind, an enum's symbols), copied for each use: the
    copy charged as a walk (interpreter/budget.py)."""
    n = len(members)

    def copied(a: Activation) -> list:
        spend(a.st, n)
        return members[:]
    return copied
