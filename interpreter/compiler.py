"""AST -> closures, once per ruleset and player count.

A table from node kind to a compile function (python-jsonschema's keyword table);
each returns a closure over plain integers (counter slots, zone ids) computed from
the Layout, so running an effect indexes lists and never looks a name up. Statements
compile to instructions `(state, activation) -> None` that either act at once or push
a frame (interpreter/frames.py). Runtime errors carry the node's span.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from legacies.dsl import ast
from legacies.dsl.checker import Resolution
from legacies.dsl.types import T

from . import mechanics as mech
from .decisions import Choice
from .errors import GameError, Refused
from .frames import AskFrame, AuctionFrame, ChooseManyFrame, ForEachFrame, PerformFrame, RepeatFrame, TurnsFrame, innermost_turns
from .layout import Layout
from .spec import ActionSpec, GameSpec
from .values import DefRef
from .vm import Activation, BlockFrame, State

Fn = Callable[[Activation], Any]
Instr = Callable[[State, Activation], None]


class CompiledAction:
    __slots__ = ("name", "label", "var", "collection", "condition", "instrs")

    def __init__(self, name: str, label: str, var: str | None, collection: Fn | None, condition: Fn | None,
                 instrs: tuple):
        self.name = name
        self.label = label
        self.var = var
        self.collection = collection
        self.condition = condition
        self.instrs = instrs

    def targets(self, st: State, act: Activation) -> Iterator[Any]:
        """Every target the rules allow now (None for an action without `choose:`)."""
        probe = Activation(st, act.me, act.this)
        if self.collection is None:
            if self.condition is None or self.condition(probe):
                yield None
            return
        for target in self.collection(probe):
            probe.env[self.var] = target
            if self.condition is None or self.condition(probe):
                yield target

    def options(self, st: State, act: Activation, index: int) -> list[Choice]:
        if self.collection is None:
            return [Choice(self.label, (index, None)) for _ in self.targets(st, act)]
        slot = "{" + str(self.var) + "}"
        return [Choice(self.label.replace(slot, mech.describe(st, t)), (index, t)) for t in self.targets(st, act)]

    def available(self, st: State, act: Activation) -> bool:
        """Whether any option exists, without building labels: `possible(...)`."""
        return next(self.targets(st, act), _NONE) is not _NONE

    def start(self, st: State, act: Activation, target: Any) -> None:
        env = {self.var: target} if self.var else {}
        st.frames.append(BlockFrame(self.instrs, Activation(st, act.me, act.this, env)))


class Compiler:
    def __init__(self, spec: GameSpec, lay: Layout):
        self.spec = spec
        self.v = spec.vocab
        self.lay = lay
        self.res: Resolution = spec.res
        self.actions: dict[str, CompiledAction] = {}
        self.definitions: dict[str, tuple[list[str], Fn]] = {}
        self._defining: set[str] = set()

    # ------------------------------------------------------------------ helpers
    def meaning(self, node: ast.Node) -> tuple:
        return self.res.meaning.get(id(node), ("",))

    def type_of(self, node: ast.Node) -> T:
        return self.res.types.get(id(node), T("any"))

    def fail(self, node: ast.Node, message: str) -> GameError:
        return GameError(message, node.span)

    # ------------------------------------------------------------------ programs
    def block(self, body: ast.Body) -> tuple:
        return tuple(self.stmt(s) for s in body)

    def program(self, program: ast.Program | None) -> tuple:
        return self.block(program.statements) if program is not None else ()

    # ------------------------------------------------------------------ expressions
    def expr(self, e: ast.Expr) -> Fn:
        method = getattr(self, "x_" + type(e).__name__)
        return method(e)

    def x_Num(self, e: ast.Num) -> Fn:
        v = e.value
        return lambda a: v

    def x_Era(self, e: ast.Era) -> Fn:
        values = e.values
        slot = self.lay.game_counter.get(self.spec.era_counter or "", -1)
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

    def x_Name(self, e: ast.Name) -> Fn:
        m = self.meaning(e)
        kind = m[0]
        lay = self.lay
        if kind == "local":
            name = m[1]

            def local(a: Activation) -> Any:
                try:
                    return a.env[name]
                except KeyError:
                    raise GameError(f"`{name}` has no value here", e.span) from None
            return local
        if kind == "builtin":
            return self.builtin(m[1])
        if kind == "game_counter":
            slot = lay.game_counter[m[1]]
            return lambda a: a.st.counters[slot]
        if kind == "player_counter":
            base = lay.player_counter[m[1]]
            return lambda a: a.st.counters[base + a.me]
        if kind == "game_zone":
            z = lay.game_zone[m[1]]
            return lambda a: z
        if kind == "player_zone":
            base = lay.player_zone[m[1]]
            return lambda a: base + a.me
        if kind == "symbol":
            s = m[1]
            return lambda a: s
        if kind == "enum":
            values = list(self.v.enums[m[1]])
            return lambda a: values
        if kind == "option":
            name = m[1]
            return lambda a: a.st.game.options[name]
        if kind == "quantity":
            q = m[1]
            return lambda a: mech.quantity(a.st, q, a.me, None)
        if kind == "kind_all":
            members = list(lay.kind_pieces.get(m[1], []))
            return lambda a: members
        if kind == "item":
            pid = lay.board_item[m[1]]
            return lambda a: pid
        if kind == "def":
            ref = DefRef(lay.def_index[m[1]])
            return lambda a: ref
        if kind == "definition":
            return self.call_definition(m[1], [], e)
        if kind == "action":
            name = m[1]
            return lambda a: name
        raise self.fail(e, f"`{e.name}` cannot be used as a value here")

    def builtin(self, name: str) -> Fn:
        if name == "me":
            return lambda a: a.me
        if name == "active_player":
            return lambda a: a.st.active
        if name == "nobody":
            return lambda a: -1
        if name == "players":
            return lambda a: a.st.turn_order[:]
        if name == "opponents":
            return lambda a: [p for p in a.st.turn_order if p != a.me]
        if name == "final_round":
            def final_round(a: Activation) -> bool:
                f = innermost_turns(a.st)
                return f is not None and f.final_from >= 0
            return final_round
        if name == "era":
            slot = self.lay.game_counter.get(self.spec.era_counter or "", -1)
            return lambda a: a.st.counters[slot] if slot >= 0 else 1
        if name == "player_count":
            n = self.lay.players
            return lambda a: n
        raise GameError(f"unknown builtin {name}")

    def x_Of(self, e: ast.Of) -> Fn:
        m = self.meaning(e)
        kind = m[0]
        lay = self.lay
        subj = self.expr(e.subject)
        if kind == "player_counter":
            base = lay.player_counter[m[1]]
            return lambda a: a.st.counters[base + subj(a)]
        if kind == "player_zone":
            base = lay.player_zone[m[1]]
            if self.type_of(e.subject).tag == "players":
                return lambda a: [base + p for p in subj(a)]
            return lambda a: base + subj(a)
        if kind == "quantity":
            q = m[1]
            if self.type_of(e.subject).tag == "player":
                return lambda a: mech.quantity(a.st, q, subj(a), None)
            return lambda a: mech.quantity(a.st, q, a.me, subj(a))
        if kind == "supply":
            token_kind = m[1]
            return lambda a: ("supply", token_kind, subj(a))
        if kind == "attribute":
            name = m[1]
            defs = self.spec.defs
            # one column per attribute, indexed by piece: the lookup is a single list index
            column = [defs[d].attrs.get(name) for d in lay.piece_def]  # left out: None

            def attribute(a: Activation) -> Any:
                x = subj(a)
                if type(x) is int:
                    return column[x]
                return defs[int(x)].attrs.get(name)  # a DefRef: the card named in source
            return attribute
        if kind == "item_counter":
            name = m[1]
            item_index = lay.item_index
            piece_def = lay.piece_def
            defs = self.spec.defs

            def item_counter(a: Activation) -> int:
                pid = subj(a)
                base = lay.item_counter[(defs[piece_def[pid]].kind, name)]
                return a.st.counters[base + item_index[pid]]
            return item_counter
        if kind == "fn":
            return self.unary(m[1], subj, e)
        raise self.fail(e, f"`{e.name}` cannot be used as a value here")

    def unary(self, name: str, subj: Fn, e: ast.Of) -> Fn:
        lay = self.lay
        if name == "count":
            return lambda a: len(subj(a))
        if name == "owner":
            return lambda a: mech.owner(a.st, subj(a))
        if name == "track":
            return subj
        if name == "name":
            if self.type_of(e.subject).tag == "player":
                return lambda a: mech.player_name(a.st, subj(a))
            return lambda a: mech.describe(a.st, subj(a))
        if name == "position":
            def position(a: Activation) -> int:
                z = a.st.loc[subj(a)]
                t = lay.zone_track[z]
                return t[1] + 1 if t else 0
            return position
        raise self.fail(e, f"unknown builtin {name}")

    def x_Empty(self, e: ast.Empty) -> Fn:
        subj = self.expr(e.subject)
        t = self.type_of(e.subject).tag
        if t == "zone":
            return lambda a: not a.st.zones[subj(a)]
        if t == "thing":
            return lambda a: not mech.pieces_on(a.st, subj(a))
        return lambda a: not subj(a)

    def x_Compare(self, e: ast.Compare) -> Fn:
        left = self.expr(e.left)
        right = self.expr(e.right)
        lt, rt = self.type_of(e.left).tag, self.type_of(e.right).tag
        op = e.op
        if op == "in":
            if rt == "zone":
                return lambda a: a.st.loc[left(a)] == right(a)
            if rt == "zones":
                return lambda a: a.st.loc[left(a)] in right(a)
            return lambda a: left(a) in right(a)
        if "def" in (lt, rt):
            piece_def = self.lay.piece_def

            def as_def(x: Any) -> int:
                return int(x) if isinstance(x, DefRef) else piece_def[x]
            if op == "=":
                return lambda a: as_def(left(a)) == as_def(right(a))
            return lambda a: as_def(left(a)) != as_def(right(a))
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
            return lambda a: left(a) + right(a)
        if e.op == "-":
            return lambda a: left(a) - right(a)
        if self.type_of(e.right).tag == "percent":
            return lambda a: -((-left(a) * right(a)) // 100)  # rounds up (VAL-3)
        return lambda a: left(a) * right(a)

    def x_Div(self, e: ast.Div) -> Fn:
        left = self.expr(e.left)
        right = self.expr(e.right)
        span = e.span

        def divide(a: Activation) -> int:
            d = right(a)
            if d == 0:
                raise GameError("division by zero", span)
            return left(a) // d
        if e.rounding == "down":
            return divide

        def divide_up(a: Activation) -> int:
            d = right(a)
            if d == 0:
                raise GameError("division by zero", span)
            return -((-left(a)) // d)
        return divide_up

    def x_Neg(self, e: ast.Neg) -> Fn:
        inner = self.expr(e.operand)
        return lambda a: -inner(a)

    def x_Where(self, e: ast.Where) -> Fn:
        coll = self.expr(e.collection)
        cond = self.expr(e.condition)

        def where(a: Activation) -> list:
            saved = a.it
            out = []
            for x in coll(a):
                a.it = x
                if cond(a):
                    out.append(x)
            a.it = saved
            return out
        return where

    def x_Select(self, e: ast.Select) -> Fn:
        src = self.expr(e.source)
        st_tag = self.type_of(e.source).tag
        lay = self.lay
        if st_tag == "symbols" or self.type_of(e).tag == "symbols":
            def distinct(a: Activation) -> list:
                seen: list = []
                for s in src(a):
                    if s not in seen:
                        seen.append(s)
                return seen
            return distinct
        m = self.meaning(e)
        kind = m[1] if len(m) > 1 else None
        if kind:
            piece_kind = [self.spec.defs[d].kind for d in lay.piece_def]
            if st_tag == "zone":
                return lambda a: [p for p in a.st.zones[src(a)] if piece_kind[p] == kind]
            if st_tag == "zones":
                return lambda a: [p for z in src(a) for p in a.st.zones[z] if piece_kind[p] == kind]
            return lambda a: [p for p in mech.pieces_on(a.st, src(a)) if piece_kind[p] == kind]
        if st_tag == "zone":
            return lambda a: a.st.zones[src(a)][:]
        if st_tag == "zones":
            return lambda a: [p for z in src(a) for p in a.st.zones[z]]
        return lambda a: mech.pieces_on(a.st, src(a))

    def x_Top(self, e: ast.Top) -> Fn:
        src = self.expr(e.source)
        count = self.expr(e.count) if e.count is not None else None
        top = e.end == "top"
        span = e.span
        if self.type_of(e.source).is_collection:  # first (top) or last (bottom) members
            if count is None:
                def member(a: Activation) -> Any:
                    items = list(src(a))
                    if not items:
                        raise GameError("there is nothing to take the first of", span)
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
                    raise GameError("that zone is empty", span)
                return z[-1] if top else z[0]
            return one

        def several(a: Activation) -> list:
            z = a.st.zones[src(a)]
            n = max(0, count(a))
            return list(reversed(z[-n:])) if top and n else (z[:n] if n else [])
        return several

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

    def x_PlayersAfter(self, e: ast.PlayersAfter) -> Fn:
        who = self.expr(e.player)

        def after(a: Activation) -> list:
            order = a.st.turn_order
            p = who(a)
            i = order.index(p) if p in order else -1
            return order[i + 1:] + order[:i] if i >= 0 else order[:]
        return after

    def x_Call(self, e: ast.Call) -> Fn:
        n = e.name
        if n in self.spec.definitions:
            return self.call_definition(n, e.args, e)
        args = [self.expr(x) for x in e.args]
        if n == "max":
            return lambda a: max(f(a) for f in args)
        if n == "min":
            return lambda a: min(f(a) for f in args)
        if n == "affordable":
            card, zone = args
            return lambda a: mech.can_pay(a.st, card(a), zone(a))
        if n == "playable":
            (card,) = args
            return lambda a: mech.playable(a.st, card(a), a.me)
        if n == "possible":
            names = [x.name for x in e.args if isinstance(x, ast.Name)]

            def possible(a: Activation) -> bool:
                actions = [a.st.game.actions[name] for name in names]
                return any(act.available(a.st, a) for act in actions)
            return possible
        raise self.fail(e, f"unknown function {n}")

    def call_definition(self, name: str, arg_nodes: tuple | list, e: ast.Node) -> Fn:
        params, body = self.definition(name)
        args = [self.expr(x) for x in arg_nodes]

        def call(a: Activation) -> Any:
            inner = Activation(a.st, a.me, a.this, {p: f(a) for p, f in zip(params, args)})
            return body(inner)
        return call

    def definition(self, name: str) -> tuple[list[str], Fn]:
        if name not in self.definitions:
            if name in self._defining:
                raise GameError(f"definition `{name}` refers to itself")
            self._defining.add(name)
            d = self.spec.definitions[name]
            self.definitions[name] = (d.params, self.expr(d.value))
            self._defining.discard(name)
        return self.definitions[name]

    # ------------------------------------------------------------------ statements
    def stmt(self, s: ast.Stmt) -> Instr:
        method = getattr(self, "s_" + type(s).__name__)
        instr: Instr = method(s)
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

    def _counter_change(self, s: ast.Gain | ast.Lose | ast.Pay, verb: str) -> Instr:
        amount = self.expr(s.amount)
        who = self.player_or_me(s.player)
        base = self.lay.player_counter[s.counter.name]
        span = s.span
        name = s.counter.name

        def change(st: State, a: Activation) -> None:
            n = amount(a)
            p = who(a)
            if verb == "gain":
                mech.adjust(st, base + p, n)
            elif verb == "lose":
                mech.adjust(st, base + p, -n)
            else:
                slot = base + p
                lo = st.game.layout.counter_min[slot] or 0
                if st.counters[slot] - n < lo:
                    raise Refused(f"{mech.player_name(st, p)} cannot pay {n} {name}: has {st.counters[slot]}", span)
                mech.adjust(st, slot, -n)
        return change

    def s_Gain(self, s: ast.Gain) -> Instr:
        return self._counter_change(s, "gain")

    def s_Lose(self, s: ast.Lose) -> Instr:
        return self._counter_change(s, "lose")

    def s_Pay(self, s: ast.Pay) -> Instr:
        return self._counter_change(s, "pay")

    def s_PayCards(self, s: ast.PayCards) -> Instr:
        target = self.expr(s.target)
        source = self.expr(s.source)
        span = s.span

        def build(st: State, a: Activation) -> list[Choice]:
            options = mech.payments(st, a.env["__pay_target"], a.env["__pay_zone"])
            return [Choice(label, cards) for label, cards in options]

        def then(st: State, a: Activation, cards: Any) -> None:
            for pid in cards:
                mech.discard(st, pid)

        def empty(st: State, a: Activation) -> None:
            raise Refused("cannot pay for that with these cards", span)

        def pay_cards(st: State, a: Activation) -> None:
            a.env["__pay_target"] = target(a)
            a.env["__pay_zone"] = source(a)
            st.frames.append(AskFrame(a, build, then, "choose how to pay", empty=empty))
        return pay_cards

    def lvalue(self, e: ast.Expr) -> Callable[[Activation], int]:
        m = self.meaning(e)
        lay = self.lay
        if m[0] == "game_counter":
            slot = lay.game_counter[m[1]]
            return lambda a: slot
        if m[0] == "player_counter":
            base = lay.player_counter[m[1]]
            if isinstance(e, ast.Of):
                subj = self.expr(e.subject)
                return lambda a: base + subj(a)
            return lambda a: base + a.me
        if m[0] == "item_counter" and isinstance(e, ast.Of):
            subj = self.expr(e.subject)
            name = m[1]
            defs = self.spec.defs

            def item_slot(a: Activation) -> int:
                pid = subj(a)
                return lay.item_counter[(defs[lay.piece_def[pid]].kind, name)] + lay.item_index[pid]
            return item_slot
        raise self.fail(e, "not a counter")

    def s_Transfer(self, s: ast.Transfer) -> Instr:
        amount = self.expr(s.amount)
        src = self.lvalue(s.source)
        dst = self.lvalue(s.dest)
        up_to, either = s.up_to, s.either_way
        span = s.span

        def move_amount(st: State, a: Activation, n: int) -> None:
            frm, to = a.env["__from"], a.env["__to"]
            if st.counters[frm] - n < (st.game.layout.counter_min[frm] or 0):
                raise Refused(f"not enough to transfer {n}", span)
            mech.adjust(st, frm, -n)
            mech.adjust(st, to, n)

        def ask_amount(st: State, a: Activation) -> None:
            n = amount(a)
            if not up_to:
                move_amount(st, a, n)
                return
            frm = a.env["__from"]
            most = max(0, min(n, st.counters[frm] - (st.game.layout.counter_min[frm] or 0)))

            def build(st: State, a: Activation) -> list[Choice]:
                return [Choice(str(k), k) for k in range(most + 1)]
            st.frames.append(AskFrame(a, build, lambda st, a, k: move_amount(st, a, k), "how much?", "number"))

        def transfer(st: State, a: Activation) -> None:
            a.env["__from"], a.env["__to"] = src(a), dst(a)
            if not either:
                ask_amount(st, a)
                return
            f, t = a.env["__from"], a.env["__to"]
            names = st.game.layout.counter_name
            label = st.game.spec.vocab.label

            def build(st: State, a: Activation) -> list[Choice]:
                src, dst = label(names[f]), label(names[t])
                return [Choice(f"from {src} to {dst}", (f, t)), Choice(f"from {dst} to {src}", (t, f))]

            def then(st: State, a: Activation, pair: Any) -> None:
                a.env["__from"], a.env["__to"] = pair
                ask_amount(st, a)
            st.frames.append(AskFrame(a, build, then, "which way?", "one"))
        return transfer

    def s_SetTo(self, s: ast.SetTo) -> Instr:
        slot = self.lvalue(s.target)
        value = self.expr(s.value)

        def set_to(st: State, a: Activation) -> None:
            k = slot(a)
            mech.adjust(st, k, value(a) - st.counters[k])
        return set_to

    def s_Raise(self, s: ast.Raise) -> Instr:
        slot = self.lvalue(s.target)
        amount = self.expr(s.amount)
        return lambda st, a: mech.adjust(st, slot(a), amount(a))

    def s_Lower(self, s: ast.Lower) -> Instr:
        slot = self.lvalue(s.target)
        amount = self.expr(s.amount)
        return lambda st, a: mech.adjust(st, slot(a), -amount(a))

    def pieces(self, e: ast.Expr) -> Callable[[Activation], list]:
        f = self.expr(e)
        if self.type_of(e).tag == "things":
            return lambda a: list(f(a))
        return lambda a: [] if f(a) is None else [f(a)]

    def s_Move(self, s: ast.Move) -> Instr:
        what = self.pieces(s.what)
        dest = self.expr(s.dest)
        bottom = s.at == "bottom"

        def move(st: State, a: Activation) -> None:
            z = dest(a)
            for pid in what(a):
                mech.move(st, pid, z, bottom)
        return move

    def s_Draw(self, s: ast.Draw) -> Instr:
        count = self.expr(s.count)
        src = self.expr(s.source)
        if s.dest is not None:
            dest = self.expr(s.dest)
        else:
            base = self.lay.player_zone[self.v.hand or ""]
            dest = lambda a: base + a.me  # noqa: E731

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
        return lambda st, a: st.frames.append(AuctionFrame(a, list(bidders(a)), base, winner, amount))

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
        span = s.span

        def place(st: State, a: Activation) -> None:
            p = piece(a)
            if isinstance(p, tuple):
                _, token_kind, player = p
                pid = mech.take_from_supply(st, token_kind, player)
                if pid is None:
                    raise Refused(f"{mech.player_name(st, player)} has no {token_kind.replace('_', ' ')} left", span)
            else:
                pid = p
            mech.place(st, pid, target(a))
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
        var = s.var
        single = isinstance(s.count, ast.Num) and s.count.value == 1 and s.mode == "exact"
        prompt = self.prompt(s)
        up_to = s.mode == "up_to"

        def build(st: State, a: Activation) -> list[Choice]:
            return [Choice(mech.describe(st, x), x) for x in a.env["__pool"]]

        def bind(st: State, a: Activation, value: Any) -> None:
            a.env[var] = value

        def nothing_to_choose(st: State, a: Activation) -> None:
            mech.abandon(st, a)

        def choose(st: State, a: Activation) -> None:
            pool = list(coll(a))
            if single:
                a.env["__pool"] = pool
                st.frames.append(AskFrame(a, build, bind, prompt, empty=nothing_to_choose))
            else:
                st.frames.append(ChooseManyFrame(a, pool, count(a), var, up_to, prompt, mech.describe))
        return choose

    def prompt(self, s: ast.ChooseFrom) -> str:
        """What a chooser is asked, in the card's words: `choose a card in your offer`."""
        from legacies.dsl.renderer import render_expr

        what = s.collection.collection if isinstance(s.collection, ast.Where) else s.collection
        labels = {n: self.v.label(n) for n in self.v.all_names()}
        text = render_expr(what, labels)
        if s.mode == "up_to":
            return f"choose up to {render_expr(s.count, labels)} of: {text}"
        if isinstance(s.count, ast.Num) and s.count.value == 1:
            return f"choose {'an' if text[:1] in 'aeiou' else 'a'} {text}" if not text.startswith(("a ", "an ")) \
                else f"choose {text}"
        if isinstance(s.count, ast.Num):
            return f"choose {s.count.value}: {text}"
        return f"choose: {text}"

    def s_ChooseNumber(self, s: ast.ChooseNumber) -> Instr:
        low = self.expr(s.low)
        high = self.expr(s.high)
        var = s.var

        def build(st: State, a: Activation) -> list[Choice]:
            return [Choice(str(k), k) for k in range(a.env["__low"], a.env["__high"] + 1)]

        def bind(st: State, a: Activation, value: Any) -> None:
            a.env[var] = value

        def choose_number(st: State, a: Activation) -> None:
            a.env["__low"], a.env["__high"] = low(a), high(a)
            st.frames.append(AskFrame(a, build, bind, f"choose {var}", "number",
                                      empty=lambda st, a: mech.abandon(st, a)))
        return choose_number

    def s_Perform(self, s: ast.Perform) -> Instr:
        names = [n.name for n in s.actions]
        mode = s.mode

        def perform(st: State, a: Activation) -> None:
            actions = tuple(st.game.actions[n] for n in names)
            st.frames.append(PerformFrame(a, mode, actions))
        return perform

    def s_Play(self, s: ast.Play) -> Instr:
        what = self.expr(s.what)

        def play(st: State, a: Activation) -> None:
            pid = what(a)
            instrs = st.game.effects[st.game.layout.piece_def[pid]]
            st.frames.append(BlockFrame(instrs, Activation(st, a.me, pid)))
        return play

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

        def add_modifier(st: State, a: Activation) -> None:
            who: tuple | None
            if scope is None:
                who = (a.me,) if self.v.quantities[q].per == "player" else None
            else:
                who = tuple(scope(a)) if plural else (scope(a),)
            st.timed.append((q, subject(a) if subject else None, op, value(a), who, until))
        return add_modifier

    def s_Log(self, s: ast.Log) -> Instr:
        text = s.text
        return lambda st, a: st.log.append(text)

    def s_If(self, s: ast.If) -> Instr:
        branches = [(self.expr(b.condition), self.block(b.body)) for b in s.branches]
        otherwise = self.block(s.otherwise) if s.otherwise is not None else None

        def if_(st: State, a: Activation) -> None:
            for cond, instrs in branches:
                if cond(a):
                    st.frames.append(BlockFrame(instrs, a))
                    return
            if otherwise is not None:
                st.frames.append(BlockFrame(otherwise, a))
        return if_

    def s_ChooseOne(self, s: ast.ChooseOne) -> Instr:
        options = [(o.label, self.expr(o.condition) if o.condition is not None else None, self.block(o.body))
                   for o in s.options]

        def build(st: State, a: Activation) -> list[Choice]:
            return [Choice(label, i) for i, (label, cond, _) in enumerate(options) if cond is None or cond(a)]

        def then(st: State, a: Activation, i: Any) -> None:
            st.frames.append(BlockFrame(options[i][2], a))

        def choose_one(st: State, a: Activation) -> None:
            st.frames.append(AskFrame(a, build, then, "choose one", "one"))
        return choose_one

    def s_May(self, s: ast.May) -> Instr:
        body = self.block(s.body)
        prompt = s.prompt or "do it?"
        yes_no = [Choice("yes", True), Choice("no", False)]

        def then(st: State, a: Activation, yes: Any) -> None:
            if yes:
                st.frames.append(BlockFrame(body, a))

        def may(st: State, a: Activation) -> None:
            st.frames.append(AskFrame(a, lambda st, a: yes_no, then, prompt, "may", auto=False))
        return may

    def s_ForEach(self, s: ast.ForEach) -> Instr:
        coll = self.expr(s.collection)
        body = self.block(s.body)
        var = s.var
        return lambda st, a: st.frames.append(ForEachFrame(a, list(coll(a)), var, body))

    def s_AsPlayer(self, s: ast.AsPlayer) -> Instr:
        who = self.expr(s.player)
        body = self.block(s.body)

        def as_player(st: State, a: Activation) -> None:
            inner = Activation(st, who(a), a.this, a.env)  # same names, another player acting
            st.frames.append(BlockFrame(body, inner))
        return as_player

    def s_Repeat(self, s: ast.Repeat) -> Instr:
        count = self.expr(s.count)
        body = self.block(s.body)
        return lambda st, a: st.frames.append(RepeatFrame(a, count(a), body))

    def s_TakeTurns(self, s: ast.TakeTurns) -> Instr:
        until = self.expr(s.until) if s.until is not None else None
        body = self.block(s.body)
        return lambda st, a: st.frames.append(TurnsFrame(a, until, body))

    # ------------------------------------------------------------------ declarations
    def compile_action(self, spec: ActionSpec) -> CompiledAction:
        coll = self.expr(spec.choose) if spec.choose is not None else None
        cond = self.expr(spec.condition) if spec.condition is not None else None
        return CompiledAction(spec.name, spec.label, spec.var, coll, cond, self.program(spec.body))

    def modifier_parts(self, m: ast.Modifier) -> tuple:
        subject = self.expr(m.subject) if m.subject is not None else None
        scope = self.expr(m.scope) if m.scope is not None else None
        plural = m.scope is not None and self.type_of(m.scope).tag == "players"
        return (m.quantity.name, subject, m.op, self.expr(m.value), scope, plural)


_NONE = object()  # "no target" (None is a real target: an action without `choose:`)


def _with_it(a: Activation, value: Any, cond: Fn) -> bool:
    saved = a.it
    a.it = value
    try:
        return bool(cond(a))
    finally:
        a.it = saved
