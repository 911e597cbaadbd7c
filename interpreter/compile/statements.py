"""Statements that act: counters, pieces and zones, turn order, modifiers, log lines,
`if`, loops and `as P:`; a block of statements that never ask runs straight through.
"""

from __future__ import annotations

from typing import Any, Callable

from legacies.dsl import ast, printer
from legacies.dsl import resolution as r

from .. import mechanics as mech
from ..budget import MAX_TIMED
from .context import (Fn, Instr, MISSING, base_of, mark_direct, held_slot, is_direct, no_player, with_it,
                           run_direct, spend)
from .columns import Columns
from .context import CompileContext, Compiles
from .expressions import ExpressionCompiler
from ..coverage import Coverage
from ..decisions import Said
from ..errors import ContentError, InternalError, Refused
from ..frames import ForEachFrame, RepeatFrame, TurnsFrame, innermost_turns
from ..layout import PART_ORDER, PART_TIMED
from ..vm import Activation, Block, BlockFrame, State, enter
from ..versions import tick


CARD_STEPS = 4
"""What a card drawn or dealt is charged: a move, its zones' bookkeeping, now and then a
deck rebuilt (measured: three to four times a frame step)."""


class StatementCompiler:
    def __init__(self, ctx: CompileContext, compiler: Compiles, columns: Columns, exprs: ExpressionCompiler):
        self.ctx = ctx
        self.compiler = compiler
        self.columns = columns
        self.exprs = exprs

    def s_Let(self, s: ast.Let) -> Instr:
        value = self.compiler.expr(s.value)
        var = s.var

        def let(st: State, a: Activation) -> None:
            a.env[var] = value(a)
        return let

    def counter_slot(self, counter: ast.Name, player: ast.Expr | None, verb: str) -> Callable[[Activation], int]:
        """The slot a gain/lose/pay/auction changes: a named counter or one held in a name."""
        who = self.compiler.player_or_me(player)
        ref = self.ctx.ref(counter)
        if isinstance(ref, r.PlayerCounter):
            base = self.ctx.lay.player_counter[counter.name]
            name = counter.name

            def named(a: Activation) -> int:
                p = who(a)
                if p < 0:
                    raise no_player(f"nobody can {verb} `{name}`")
                return base + p
            return named
        holder = self.compiler.expr(counter)
        table = self.ctx.lay.player_counter

        def held(a: Activation) -> int:
            p = who(a)
            if p < 0:
                raise no_player(f"nobody can {verb} counters")
            return held_slot(table, holder(a), counter.name) + p
        return held

    def _counter_change(self, s: ast.Gain | ast.Lose | ast.Pay, verb: str) -> Instr:
        amount = self.compiler.expr(s.amount)
        slot = self.counter_slot(s.counter, s.player, verb)
        adjust = self.ctx.adjuster(s)
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
                raise Refused(f"{st.player_name(k - base_of(st, k))} cannot pay {n} {name}: has {st.counters[k]}")
            adjust(st, k, -n)
        return pay

    def s_Gain(self, s: ast.Gain) -> Instr:
        return self._counter_change(s, "gain")

    def s_Lose(self, s: ast.Lose) -> Instr:
        return self._counter_change(s, "lose")

    def s_Pay(self, s: ast.Pay) -> Instr:
        return self._counter_change(s, "pay")

    def lvalue(self, e: ast.Expr) -> Callable[[Activation], int]:
        ref = self.ctx.ref(e)
        lay = self.ctx.lay
        if isinstance(ref, r.GameCounter):
            slot = lay.game_counter[ref.name]
            return lambda a: slot
        if isinstance(ref, r.PlayerCounter):
            base = lay.player_counter[ref.name]
            who = self.compiler.player_or_me(ref.subject)
            name = ref.name

            def player_slot(a: Activation) -> int:
                p = who(a)
                if p < 0:
                    raise no_player(f"nobody has `{name}`")
                return base + p
            return player_slot
        if isinstance(ref, r.CounterOf):
            return self.exprs.counter_of(ref)
        if isinstance(ref, r.ItemCounter) and isinstance(e, ast.Of):
            return self.columns.own_slot(e, ref)
        raise InternalError("not a counter", self.ctx.where(e))

    def s_SetTo(self, s: ast.SetTo) -> Instr:
        value = self.compiler.expr(s.value)
        ref = self.ctx.ref(s.target)
        if isinstance(ref, r.GameValue):
            vslot = self.ctx.lay.game_value[ref.name]

            def set_game_value(st: State, a: Activation) -> None:
                mech.set_value(st, vslot, value(a))
            return set_game_value
        if isinstance(ref, r.PlayerValue):
            base = self.ctx.lay.player_value[ref.name]
            who = self.compiler.player_or_me(ref.subject)
            name = ref.name

            def set_player_value(st: State, a: Activation) -> None:
                p = who(a)
                if p < 0:
                    raise no_player(f"nobody has `{name}`")
                mech.set_value(st, base + p, value(a))
            return set_player_value
        if isinstance(ref, r.ItemValue) and isinstance(s.target, ast.Of):
            own = self.columns.own_slot(s.target, ref)

            def set_item_value(st: State, a: Activation) -> None:
                v = value(a)  # the value first, then the piece (as `st.values[own(a)] = ...` read them)
                mech.set_value(st, own(a), v)
            return set_item_value
        slot = self.lvalue(s.target)
        adjust = self.ctx.adjuster(s)

        def set_to(st: State, a: Activation) -> None:
            k = slot(a)
            adjust(st, k, mech.outside(st, k, value(a)) - st.counters[k])
        return set_to

    def s_Raise(self, s: ast.Raise) -> Instr:
        slot = self.lvalue(s.target)
        amount = self.compiler.expr(s.amount)
        adjust = self.ctx.adjuster(s)
        return lambda st, a: adjust(st, slot(a), amount(a))

    def s_Lower(self, s: ast.Lower) -> Instr:
        slot = self.lvalue(s.target)
        amount = self.compiler.expr(s.amount)
        adjust = self.ctx.adjuster(s)
        return lambda st, a: adjust(st, slot(a), -amount(a))

    def pieces(self, e: ast.Expr) -> Callable[[Activation], list]:
        """The pieces a statement moves (`move`, `discard`, `remove`, `reveal`): several
        are charged to the step budget, one per piece."""
        f = self.compiler.expr(e)
        if self.ctx.type_of(e).tag == "things":
            def several(a: Activation) -> list:
                pids = list(f(a))
                spend(a.st, len(pids))
                return pids
            return several

        def one(a: Activation) -> list:
            pid = f(a)  # once: the expression may walk a collection (`top of (... where ...)`)
            return [] if pid is None else [pid]
        return one

    def s_Move(self, s: ast.Move) -> Instr:
        what = self.pieces(s.what)
        dest = self.compiler.expr(s.dest)
        bottom, bump = s.at == "bottom", s.bump
        if self.ctx.type_of(s.dest).tag == "thing":  # onto a piece that holds pieces
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
        what = self.compiler.expr(s.what)
        amount = self.compiler.expr(s.amount)
        bump = s.bump
        return lambda st, a: mech.shift(st, what(a), amount(a), bump)

    def s_Draw(self, s: ast.Draw) -> Instr:
        count = self.compiler.expr(s.count)
        src = self.compiler.expr(s.source)
        if s.dest is not None:
            dest = self.compiler.expr(s.dest)
        else:
            dest = self.exprs.player_zone(self.ctx.v.hand or "", None)

        def draw(st: State, a: Activation) -> None:
            z, d = src(a), dest(a)
            for _ in range(count(a)):  # each card charged: a deck that refills from where it deals may not end
                spend(st, CARD_STEPS)
                if mech.draw_one(st, z, d) is None:
                    break
        return draw

    def s_Deal(self, s: ast.Deal) -> Instr:
        count = self.compiler.expr(s.count)
        src = self.compiler.expr(s.source)
        dest = self.compiler.expr(s.dest)
        plural = self.ctx.type_of(s.dest).tag == "zones"

        def deal(st: State, a: Activation) -> None:
            z = src(a)
            targets = dest(a) if plural else [dest(a)]
            for _ in range(count(a)):
                spend(st, CARD_STEPS * len(targets))  # each card charged (see `draw`)
                dealt = False
                for d in targets:
                    dealt = mech.draw_one(st, z, d) is not None or dealt
                if not dealt:
                    return  # a round that dealt nothing changed nothing: the rest would not either
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
                st.log.append(Said(_revealed, (pid,)))
        return reveal

    def s_Shuffle(self, s: ast.Shuffle) -> Instr:
        zone = self.compiler.expr(s.zone)
        return lambda st, a: mech.shuffle(st, zone(a))

    def s_Dig(self, s: ast.Dig) -> Instr:
        assert isinstance(s.wanted, ast.Where) and isinstance(s.wanted.collection, ast.Select)
        zone = self.compiler.expr(s.wanted.collection.source)
        cond = self.compiler.expr(s.wanted.condition)
        dest = self.compiler.expr(s.dest)

        def dig(st: State, a: Activation) -> None:
            mech.dig(st, zone(a), lambda pid: with_it(a, pid, cond), dest(a))
        return dig

    def s_Place(self, s: ast.Place) -> Instr:
        piece = self.compiler.expr(s.piece)
        target = self.compiler.expr(s.target)
        space = self.ctx.type_of(s.target).tag == "zone"
        bump = s.bump

        def place(st: State, a: Activation) -> None:
            p = piece(a)
            if isinstance(p, tuple):
                _, token_kind, player = p
                if player < 0:
                    raise no_player(f"nobody has a {token_kind.replace('_', ' ')} to place")
                pid = mech.take_from_supply(st, token_kind, player)
                if pid is None:
                    raise Refused(f"{st.player_name(player)} has no {st.game.spec.vocab.label(token_kind)} left")
            else:
                pid = p
            mech.place(st, pid, target(a), bump, space)
        return place

    def s_Advance(self, s: ast.Advance) -> Instr:
        track = self.compiler.expr(s.track)
        amount = self.compiler.expr(s.amount)
        return lambda st, a: mech.advance(st, track(a), amount(a))

    def s_Announce(self, s: ast.Announce) -> Instr:
        event = s.event.name
        args = [(x.name, self.compiler.expr(x.value)) for x in s.args]

        def announce(st: State, a: Activation) -> None:
            mech.announce(st, event, {k: f(a) for k, f in args})
        return announce

    def s_Play(self, s: ast.Play) -> Instr:
        what = self.compiler.expr(s.what)
        played = self.ctx.coverage.played if self.ctx.coverage is not None else None  # which item ran, for whom
        if self.ctx.type_of(s.what).tag == "effect":
            def resolve(st: State, a: Activation) -> None:
                ref = what(a)
                if ref is MISSING:
                    raise ContentError("there is no effect to resolve")
                if played is not None and ref.this >= 0:
                    played.add((st.game.layout.piece_def[ref.this], a.me))
                enter(st, ref.code, Activation(st, a.me, ref.this), call=True)
            return resolve

        def play(st: State, a: Activation) -> None:
            pid = what(a)
            if pid is None:
                raise ContentError(f"there is no piece to play: `{printer.print_expr(s.what)}` is nothing "
                                   "(a value never set, or an attribute an item does not give)")
            instrs = st.game.effects[st.game.layout.piece_def[pid]]
            if played is not None:
                played.add((st.game.layout.piece_def[pid], a.me))
            enter(st, instrs, Activation(st, a.me, pid), call=True)
        return play

    def s_Run(self, s: ast.Run) -> Instr:
        name = s.name.name
        params = self.ctx.spec.procedures[name].params
        args = [self.compiler.expr(x) for x in s.args]

        def run(st: State, a: Activation) -> None:
            env = {p: f(a) for p, f in zip(params, args)}
            enter(st, st.game.procedures[name], Activation(st, a.me, a.this, env), call=True)
        return run

    def s_SortTurnOrder(self, s: ast.SortTurnOrder) -> Instr:
        key = self.compiler.expr(s.key)
        desc = s.descending

        def sort_turn_order(st: State, a: Activation) -> None:
            saved = a.it
            keys = {}
            for p in st.turn_order:
                a.it = p
                keys[p] = key(a)
            a.it = saved
            st.turn_order.sort(key=lambda p: -keys[p] if desc else keys[p])  # stable: ties keep order
            st.versions[PART_ORDER] = tick()
        return sort_turn_order

    def s_BeginFinalRound(self, s: ast.BeginFinalRound) -> Instr:
        def begin_final_round(st: State, a: Activation) -> None:
            f = innermost_turns(st)
            if f is not None and f.final_from < 0:
                f.final_from = st.active
                st.log.append(Said(_final_round, (st.active,)))
        return begin_final_round

    def s_StopTurns(self, s: ast.StopTurns) -> Instr:
        def stop_turns(st: State, a: Activation) -> None:
            f = innermost_turns(st)
            if f is not None:
                f.stop = True
        return stop_turns

    def s_TimedModifier(self, s: ast.TimedModifier) -> Instr:
        m = s.modifier
        subject = self.compiler.expr(m.subject) if m.subject is not None else None
        value = self.compiler.expr(m.value)
        scope = self.compiler.expr(m.scope) if m.scope is not None else None
        plural = m.scope is not None and self.ctx.type_of(m.scope).tag == "players"
        q, op, until = m.quantity.name, m.op, s.until.name
        per_player = self.ctx.v.quantities[q].per == "player"

        def add_modifier(st: State, a: Activation) -> None:
            who: tuple | None
            if scope is None:
                who = (a.me,) if per_player else None
            else:
                who = tuple(scope(a)) if plural else (scope(a),)
            if len(st.timed) >= MAX_TIMED:
                raise ContentError(f"more than {MAX_TIMED:,} timed modifiers waiting at once (`until ...:` in a loop, "
                                   "for an event that does not come)")
            st.timed.append((q, subject(a) if subject else None, op, value(a), who, until))
            st.versions[PART_TIMED] = tick()
        return add_modifier

    def s_Log(self, s: ast.Log) -> Instr:
        text = self.compiler.text(s, s.text)
        if isinstance(text, str):
            fixed = text
            return lambda st, a: st.log.append(fixed)
        said = text.said
        return lambda st, a: st.log.append(said(a))  # its words made when the log is read

    def s_If(self, s: ast.If) -> Instr:
        branches = [(self.compiler.expr(b.condition), self.compiler.block(b.body)) for b in s.branches]
        otherwise = self.compiler.block(s.otherwise) if s.otherwise is not None else None
        if self.ctx.coverage is not None:
            return self._if_covered(s, branches, otherwise, self.ctx.coverage)

        if all(is_direct(instrs) for _, instrs in branches) and (otherwise is None or is_direct(otherwise)):
            def if_direct(st: State, a: Activation) -> None:
                for cond, instrs in branches:
                    if cond(a):
                        run_direct(st, a, instrs)
                        return
                if otherwise is not None:
                    run_direct(st, a, otherwise)
            return mark_direct(if_direct)

        def if_(st: State, a: Activation) -> None:
            for cond, instrs in branches:
                if cond(a):
                    enter(st, instrs, a)
                    return
            if otherwise is not None:
                enter(st, otherwise, a)
        return if_

    def _if_covered(self, s: ast.If, branches: list[tuple[Fn, Block]], otherwise: Block | None,
                    coverage: Coverage) -> Instr:
        """`if` counting which branch ran (always through frames: coverage runs are for
        reports, not for speed)."""
        conds = [b.condition for b in s.branches]  # what each branch needs, for coverage.cannot_run
        ids = [coverage.probe(self.ctx.where(b.condition), "if " + printer.print_expr(b.condition),
                              tuple((c, False) for c in conds[:k]) + ((b.condition, True),), self.body_lines(b.body))
               for k, b in enumerate(s.branches)]
        last = coverage.probe(self.ctx.where(s), "else" if otherwise is not None else "the case where every condition is false",
                              tuple((c, False) for c in conds), self.body_lines(s.otherwise) if s.otherwise else None)
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

    def body_lines(self, body: ast.Body) -> tuple[str, int, int] | None:
        """The file and lines of a block (for coverage: the branches inside a branch)."""
        first, last = body[0].span if body else None, body[-1].span if body else None
        if self.ctx.origin.file is None or first is None or last is None:
            return None
        return (self.ctx.origin.file, first.line + self.ctx.origin.line_offset, last.end_line + self.ctx.origin.line_offset)

    def s_ForEach(self, s: ast.ForEach) -> Instr:
        coll = self.compiler.expr(s.collection)
        zone = self.ctx.type_of(s.collection).tag == "zone"
        body = self.compiler.block(s.body)
        var = s.var
        if is_direct(body):
            cost = len(body) + 1

            def for_each_direct(st: State, a: Activation) -> None:
                items = list(st.zones[coll(a)]) if zone else list(coll(a))
                spend(st, len(items) * cost)
                env = a.env
                for item in items:
                    env[var] = item
                    run_direct(st, a, body)
            return mark_direct(for_each_direct)
        if zone:
            return lambda st, a: st.frames.append(ForEachFrame(a, list(st.zones[coll(a)]), var, body))
        return lambda st, a: st.frames.append(ForEachFrame(a, list(coll(a)), var, body))

    def s_AsPlayer(self, s: ast.AsPlayer) -> Instr:
        who = self.compiler.expr(s.player)
        body = self.compiler.block(s.body)

        direct = is_direct(body)

        def as_player(st: State, a: Activation) -> None:
            p = who(a)
            if p < 0:
                raise no_player("`as P:` needs a player")
            inner = Activation(st, p, a.this, a.env)  # same names (one table), another player acting
            if direct:
                run_direct(st, inner, body)
            else:
                st.frames.append(BlockFrame(body, inner))
        return mark_direct(as_player) if direct else as_player

    def s_Repeat(self, s: ast.Repeat) -> Instr:
        count = self.compiler.expr(s.count)
        body = self.compiler.block(s.body)
        if is_direct(body):
            cost = len(body) + 1

            def repeat_direct(st: State, a: Activation) -> None:
                times = count(a)
                if times <= 0:
                    return
                spend(st, times * cost)
                for _ in range(times):
                    run_direct(st, a, body)
            return mark_direct(repeat_direct)
        return lambda st, a: st.frames.append(RepeatFrame(a, count(a), body))

    def s_TakeTurns(self, s: ast.TakeTurns) -> Instr:
        until = self.compiler.expr(s.until) if s.until is not None else None
        body = self.compiler.block(s.body)
        return lambda st, a: st.frames.append(TurnsFrame(a, until, body))


def _revealed(reader: Any, pid: int) -> str:
    return f"revealed: {mech.describe(reader, pid)}"


def _final_round(reader: Any, player: int) -> str:
    return f"{mech.player_name(reader, player)} starts the final round"
