"""Expressions: each AST expression to a function of an Activation. Names by what the
checker resolved them to (counters, zones, values, items, definitions...),
comparisons, arithmetic, collections and their filters, calls of definitions
(memoised while a menu is built) and builtins.
"""

from __future__ import annotations

from typing import Any, Callable

from legacies.dsl import ast, printer
from legacies.dsl import resolution as r
from legacies.dsl.numbers import MAX_NUMBER
from legacies.dsl.types import T

from . import builtins, selection
from . import mechanics as mech
from .builtins import NOBODY
from .budget import over, spend, walked
from .compile_base import Fn, MISSING, _held_slot, _indexable, _no_player, _as_def, _or_nobody, aggregate_probe
from .compile_general import GeneralCompiler
from .errors import ContentError, InternalError
from .values import DefRef, EraValue
from .vm import Activation


_MISSING = object()  # not in a memo (None is a value a definition may give)


_AGGREGATES: dict[str, Callable[[list], int]] = {"total": sum, "highest": max, "lowest": min}


class ExpressionCompiler(GeneralCompiler):
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
            run_name = builtins.RUN[ref.name]
            return lambda a: run_name(a.st, a.me)
        if isinstance(ref, r.GameCounter):
            slot = lay.game_counter[ref.name]
            return lambda a: a.st.counters[slot]
        if isinstance(ref, r.PlayerCounter):
            return self.player_counter(ref.name, None)
        if isinstance(ref, r.GameValue):
            vslot = lay.game_value[ref.name]
            if self._player_valued(ref.name):  # unset: nobody (`starter is not nobody` guards it)
                return lambda a: _or_nobody(a.st.values[vslot])
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
            return _copied(list(self.v.enums[ref.enum]))
        if isinstance(ref, r.CounterSet):
            return _copied(list(self.v.counter_sets[ref.name]))
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
        unset = NOBODY if self._player_valued(name) else None  # what a value never set reads as

        def value(a: Activation) -> Any:
            p = subj(a) if subj is not None else a.me
            if p < 0:
                raise _no_player(f"nobody has `{name}`")
            v = a.st.values[base + p]
            return unset if v is None else v
        return value

    def _player_valued(self, name: str) -> bool:
        info = self.v.values.get(name)
        return info is not None and info.type.tag == "player"

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
            return _held_slot(table, holder(a), printer.print_expr(ref.holder)) + p
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
            subj = self.expr(e.subject)
            for_player = builtins.FOR_PLAYER.get(ref.name)
            run = for_player if (for_player and self.type_of(e.subject).tag == "player") else builtins.RUN[ref.name]
            if ref.name == "count" and self.type_of(e.subject).tag == "zone":
                return lambda a: len(a.st.zones[subj(a)])
            return lambda a: run(a.st, a.me, subj(a))
        raise InternalError(f"`{e.name}` was not resolved by the checker", self.where(e))

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
            if x is None:  # a value never set names nothing, which has no attribute
                return negated
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
            if rt == "defs":  # `C is in [storm, flood]`: a copy of one of the cards named
                return self.among_cards(left, right)
            if rt in ("things", "table") or lt == "def":
                piece_def = self.lay.piece_def

                def member(a: Activation) -> bool:
                    x = left(a)
                    ys = right(a)
                    spend(a.st, len(ys))  # a walk over the list
                    if isinstance(x, DefRef):  # a card named in source: any of its copies
                        return any(_as_def(piece_def, y) == x for y in ys)
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
                def joined(a: Activation) -> list:
                    both = list(left(a)) + list(right(a))
                    spend(a.st, len(both))
                    return both
                return joined
            return lambda a: left(a) + right(a)
        if e.op == "-":
            return lambda a: left(a) - right(a)
        if self.type_of(e.right).tag == "percent":
            return lambda a: mech.bounded(-((-left(a) * right(a)) // 100))  # rounds up (VAL-3)

        def times(a: Activation) -> Any:  # the one operator that outgrows the step budget (dsl/numbers.py)
            v = left(a) * right(a)
            return v if -MAX_NUMBER <= v <= MAX_NUMBER else mech.bounded(v)
        return times

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

        def members(a: Activation) -> Any:  # the collection walked, charged
            return walked(a.st, a.st.zones[coll(a)] if zone else coll(a))
        if static is not None:  # `where its suit is hearts`: decided per piece at compile time
            by_piece, by_def = static
            if None not in by_piece and None not in by_def:
                if zone:
                    return lambda a: [x for x in members(a) if by_piece[x]]
                return lambda a: [x for x in members(a) if (by_piece[x] if type(x) is int else by_def[int(x)])]

            def where_mixed(a: Activation) -> list:  # the undecided ones (None) are asked
                saved = a.it
                out = []
                for x in members(a):
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
            for x in members(a):
                a.it = x
                if cond(a):
                    out.append(x)
            a.it = saved
            return out
        return where

    def x_Select(self, e: ast.Select) -> Fn:
        src = self.expr(e.source)
        st_tag = self.type_of(e.source).tag
        if st_tag in ("symbols", "counters") or self.type_of(e).tag in ("symbols", "counters"):
            def distinct(a: Activation) -> list:
                seen: list = []
                items = src(a)
                spend(a.st, len(items))
                for s in items:
                    if s not in seen:
                        seen.append(s)
                return seen
            return distinct
        ref = self.ref(e)
        classes = {k: info.piece for k, info in self.v.kinds.items()}
        return selection.select(src, st_tag, ref if isinstance(ref, r.Selection) else None, self.piece_kind,
                                [d.kind for d in self.spec.defs], classes)

    def x_Top(self, e: ast.Top) -> Fn:
        src = self.expr(e.source)
        count = self.expr(e.count) if e.count is not None else None
        top = e.end == "top"
        if isinstance(self.ref(e), r.PileEnd):  # pieces from a zone: the top is the last, as in the zone
            return selection.pile_end(src, count, top, e.end)
        if self.type_of(e.source).is_collection:  # first (top) or last (bottom) members
            if count is None:
                def member(a: Activation) -> Any:
                    items = _indexable(src(a))
                    if not items:
                        raise ContentError(f"there is no {e.end} member: the collection is empty "
                                           "(check `... is not empty` first)")
                    return items[0] if top else items[-1]
                return member

            def members(a: Activation) -> list:
                items = _indexable(src(a))
                n = max(0, count(a))
                spend(a.st, min(n, len(items)))
                return list(items[:n] if top else (items[-n:] if n else []))
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
            spend(a.st, min(n, len(z)))
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
            return _indexable(items)[n - 1]
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
        probe = aggregate_probe(self.res, e, ref, self.type_of(e.collection).element())
        if isinstance(ref, r.PlayerCounter):
            base = self.lay.player_counter[ref.name]
            get: Fn = lambda a: a.st.counters[base + a.it]  # noqa: E731
        else:
            get = self.expr(probe)

        def aggregate(a: Activation) -> int:
            saved = a.it
            values = []
            items = coll(a)
            spend(a.st, len(items))
            for x in items:
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
            items = coll(a)
            spend(a.st, len(items))
            for x in items:
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
        run = builtins.RUN[n]
        args = [self.expr(x) for x in e.args]
        if len(args) == 1:
            (f,) = args
            return lambda a: run(a.st, a.me, f(a))
        if len(args) == 2:
            f, g = args
            return lambda a: run(a.st, a.me, f(a), g(a))
        return lambda a: run(a.st, a.me, *[f(a) for f in args])

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
            body = self.expr(d.value)
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
