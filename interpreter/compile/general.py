"""The general constructs: a list written out, modulo, `the same card as`, the next or
previous player, numbers chosen where a condition holds, a random pick
(interpreter/chance.py), ending the game (interpreter/ending.py), the graph of places
(interpreter/graph.py) and response windows (interpreter/windows.py): glue only.
"""

from __future__ import annotations

from typing import Callable

from legacies.dsl import ast, printer

from .. import chance, ending
from .. import mechanics as mech
from .context import Fn, Instr, no_player, as_def, with_it, spend
from .context import CompileContext, Compiles
from ..decisions import nothing_to_pick
from ..errors import ContentError
from ..vm import Activation, State
from ..windows import OfferFrame


class GeneralCompiler:
    def __init__(self, ctx: CompileContext, compiler: Compiles):
        self.ctx = ctx
        self.compiler = compiler

    # ------------------------------------------------------------------ general constructs
    # a list written out, modulo, "the same card as", the next/previous player, numbers
    # chosen where a condition holds, a random pick (interpreter/chance.py), ending the
    # game (interpreter/ending.py)
    def x_ListLiteral(self, e: ast.ListLiteral) -> Fn:
        if all(isinstance(x, ast.Num) for x in e.items):
            numbers = [x.value for x in e.items if isinstance(x, ast.Num)]
            return lambda a: numbers[:]
        items = [self.compiler.expr(x) for x in e.items]
        return lambda a: [f(a) for f in items]

    def x_Modulo(self, e: ast.Modulo) -> Fn:
        left, right = self.compiler.expr(e.left), self.compiler.expr(e.right)
        written = printer.print_expr(e)

        def modulo(a: Activation) -> int:
            d = right(a)
            if d <= 0:
                raise ContentError(f"`{written}`: modulo {d}: the divisor must be at least 1")
            return left(a) % d
        return modulo

    def x_SameCard(self, e: ast.SameCard) -> Fn:
        left, right = self.compiler.expr(e.left), self.compiler.expr(e.right)
        piece_def, negated = self.ctx.lay.piece_def, e.negated

        def same_card(a: Activation) -> bool:
            x, y = left(a), right(a)
            if x is None or y is None:  # a value slot not filled: the same only as another empty one
                return (x is y) != negated
            return (as_def(piece_def, x) == as_def(piece_def, y)) != negated
        return same_card

    def next_player(self, e: ast.Relative) -> Fn:
        """`player after P` / `player before P`: one player, wrapping round the turn order."""
        who = self.compiler.expr(e.player)
        relation = e.relation
        return lambda a: player_beside(a.st, who(a), relation)

    def numbers_where(self, condition: ast.Expr) -> Callable[[State, Activation, range], list[int]]:
        """The numbers of a range for which a condition holds (`it` is each); each test is
        charged to the step budget, so a huge range stops with an error, not a hang."""
        cond = self.compiler.expr(condition)

        def offered(st: State, a: Activation, numbers: range) -> list[int]:
            spend(st, len(numbers))
            return [k for k in numbers if with_it(a, k, cond)]
        return offered

    def among_cards(self, left: Fn, right: Fn) -> Fn:
        piece_def = self.ctx.lay.piece_def

        def among(a: Activation) -> bool:
            x = left(a)
            return x is not None and as_def(piece_def, x) in [int(y) for y in right(a)]
        return among

    def s_PickRandom(self, s: ast.PickRandom) -> Instr:
        count = self.compiler.expr(s.count)
        coll = self.compiler.expr(s.collection)
        zone = self.ctx.type_of(s.collection).tag == "zone"
        var = s.var
        single = isinstance(s.count, ast.Num) and s.count.value == 1
        empty_said = nothing_to_pick(printer.print_statement(s))

        def pick_random(st: State, a: Activation) -> None:
            n = 1 if single else count(a)
            pool = list(st.zones[coll(a)] if zone else coll(a))
            spend(st, len(pool))
            if n > 0 and not pool:  # nothing to pick: the rest of the effect does not happen
                mech.abandon(st, a)
                st.log.append(empty_said)  # said, as an empty `choose` is
                return
            picked = chance.pick(st, pool, n)
            a.env[var] = picked[0] if single else picked
        return pick_random

    def s_EndGame(self, s: ast.EndGame) -> Instr:
        winner = self.compiler.expr(s.winner) if s.winner is not None else None
        reason = self.compiler.text(s, s.reason) if s.reason is not None else None

        def end_the_game(st: State, a: Activation) -> None:
            w = ending.NOT_NAMED
            if winner is not None:
                w = winner(a)
                if w < 0:
                    raise no_player("the winner of `end the game`")
            ending.end_game(st, w, reason if reason is None or isinstance(reason, str) else reason(st, a))
        return end_the_game

    # ------------------------------------------------------------------ places joined by links; windows
    # glue only: the walks are interpreter/graph.py's (a.st.game.graph), the window's frame
    # interpreter/windows.py's
    def via(self, place: ast.Expr, links: tuple[ast.Name, ...]) -> tuple[str, ...]:
        """The link kinds an expression follows: those named, else every link of the place's kind."""
        if links:
            return tuple(n.name for n in links)
        kind = self.ctx.v.kinds.get(self.ctx.type_of(place).arg or "")
        return tuple(kind.links) if kind is not None else tuple(self.ctx.v.links)

    def place_test(self, e: ast.Expr | None) -> Fn | None:
        return self.compiler.expr(e) if e is not None else None

    def x_Neighbours(self, e: ast.Neighbours) -> Fn:
        place, links = self.compiler.expr(e.place), self.via(e.place, e.links)
        return lambda a: a.st.game.graph.neighbours(a.st, a.me, a.this, place(a), links)

    def x_Within(self, e: ast.Within) -> Fn:
        place, links, steps = self.compiler.expr(e.place), self.via(e.place, e.links), self.compiler.expr(e.steps)
        through = self.place_test(e.through)
        kind = self.ctx.v.kind_of_word(e.word)[1]
        if kind is None:
            return lambda a: a.st.game.graph.within(a, place(a), links, steps(a), through)
        piece_kind = self.ctx.piece_kind
        return lambda a: [x for x in a.st.game.graph.within(a, place(a), links, steps(a), through)
                          if piece_kind[x] == kind]

    def x_Distance(self, e: ast.Distance) -> Fn:
        origin, dest, links = self.compiler.expr(e.origin), self.compiler.expr(e.dest), self.via(e.origin, e.links)
        through = self.place_test(e.through)
        return lambda a: a.st.game.graph.distance(a, origin(a), dest(a), links, through)

    def x_ConnectedGroup(self, e: ast.ConnectedGroup) -> Fn:
        place, links, condition = self.compiler.expr(e.place), self.via(e.place, e.links), self.compiler.expr(e.condition)
        return lambda a: a.st.game.graph.group(a, place(a), links, condition)

    def s_Offer(self, s: ast.Offer) -> Instr:
        names = tuple(self.ctx.spec.vocab.action_names(n.name for n in s.actions))  # a menu: the actions joining it
        players = self.compiler.expr(s.players)
        one = self.ctx.type_of(s.players).tag == "player"

        def offer(st: State, a: Activation) -> None:
            who = [players(a)] if one else list(players(a))
            st.frames.append(OfferFrame(a, st.game.actions_named(names), [p for p in who if p >= 0]))
        return offer


def player_beside(st: State, p: int, relation: str) -> int:
    """`player after P` / `player before P` (`relation`): wrapping round the turn order."""
    order = st.turn_order
    if p < 0:
        raise no_player(f"`player {relation} P`")
    if p not in order:
        raise ContentError(f"{st.player_name(p)} is not in the turn order")
    return order[(order.index(p) + (1 if relation == "after" else -1)) % len(order)]


def players_around(st: State, p: int, relation: str) -> list[int]:
    """`players after P`, `players before P`, `players starting with P` (`relation`): in
    turn order; for a player not in it, none (every player, starting)."""
    order = st.turn_order
    if p not in order:
        return [] if relation != "starting" else order[:]
    i = order.index(p)
    if relation == "after":
        return order[i + 1:]
    if relation == "before":
        return order[:i]
    return order[i:] + order[:i]
