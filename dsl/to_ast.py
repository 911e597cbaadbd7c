"""The parse tree -> the syntax tree of dsl/ast.py: the Lark Transformer with one
method per grammar alias, each returning one node carrying its span (1-based line and
column, the end too), numbers read within their limits (dsl/numbers.py, E112).
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer, Tree, v_args

from . import ast
from .constructs import CONSTRUCTS
from .diagnostics import Diagnostic
from .numbers import limit_words, written
from .syntax_errors import SyntaxErrors


def _span(meta: Any) -> ast.Span | None:
    if getattr(meta, "empty", True):
        return None
    return ast.Span(meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_span(tok: Token) -> ast.Span:
    return ast.Span(tok.line or 1, tok.column or 1, tok.end_line or tok.line or 1, tok.end_column or 1)


def _int(tok: Token, digits: str | None = None) -> int:
    """A number literal's value (`digits`: a part of the token); past the language's
    limit it is E112 at the token, its digits never converted (dsl/numbers.py)."""
    value = written(str(tok) if digits is None else digits)
    if value is None:
        span = _tok_span(tok)
        shown = str(tok) if len(str(tok)) <= 24 else f"{str(tok)[:12]}... ({len(str(tok)):,} characters)"
        raise SyntaxErrors([Diagnostic("E112", f"the number {shown} is too large", span.line, span.column,
                                       hint=limit_words(), end_column=span.end_column)])
    return value


def _name(tok: Token) -> ast.Name:
    return ast.Name(str(tok), span=_tok_span(tok))


def _snake(name: str) -> str:
    return "".join("_" + ch.lower() if ch.isupper() and i else ch.lower() for i, ch in enumerate(name))


# a grammar alias that is a node's name in snake case (`-> pick_random` for PickRandom)
_NODE_OF_ALIAS: dict[str, type[ast.Node]] = {_snake(node.__name__): node for node in CONSTRUCTS}


@v_args(meta=True, inline=True)
class ToAst(Transformer):
    """One method per grammar alias; each returns one AST node carrying its span. An alias
    without a method that is a registered node's name in snake case (`-> halve` for
    Halve) builds that node from its parts in order, a NAME as a Name (`__default__`):
    a new statement of that shape needs no method here."""

    def __default__(self, data: Any, children: list, meta: Any) -> Any:
        node = _NODE_OF_ALIAS.get(str(data))
        if node is None:
            return Tree(data, children, meta)
        parts = [_name(c) if isinstance(c, Token) and c.type == "NAME" else c for c in children]
        return node(*parts, span=_span(meta))

    # ---- program
    def start(self, meta: Any, *items: Any) -> ast.Program:
        stmts = tuple(i for i in items if isinstance(i, ast.Stmt))
        decls = tuple(i for i in items if not isinstance(i, ast.Stmt))
        return ast.Program(stmts, decls, span=_span(meta))

    def block(self, meta: Any, *stmts: ast.Stmt) -> ast.Body:
        return tuple(stmts)

    # ---- declarations
    def once(self, meta: Any) -> bool:
        return True

    def trigger(self, meta: Any, event: Token, cond: Any, once: Any, body: ast.Body) -> ast.Trigger:
        return ast.Trigger(_name(event), cond, body, bool(once), span=_span(meta))

    def hook(self, meta: Any, kind: Token, body: ast.Body) -> ast.Hook:
        return ast.Hook(str(kind), body, span=_span(meta))

    def continuous(self, meta: Any, modifier: ast.Modifier) -> ast.Continuous:
        return ast.Continuous(modifier, span=_span(meta))

    def modifier(self, meta: Any, q: Token, subject: Any, op: Any, value: Any, scope: Any) -> ast.Modifier:
        return ast.Modifier(_name(q), subject, op, value, scope, span=_span(meta))

    def modop(self, meta: Any, tok: Token) -> str:
        return str(tok)

    def compop(self, meta: Any, tok: Token) -> str:
        return str(tok)

    # ---- simple statements
    def let(self, meta: Any, var: Token, value: Any) -> ast.Let:
        return ast.Let(str(var), value, span=_span(meta))

    def gain(self, meta: Any, amount: Any, counter: Token, player: Any) -> ast.Gain:
        return ast.Gain(amount, _name(counter), player, span=_span(meta))

    def lose(self, meta: Any, amount: Any, counter: Token, player: Any) -> ast.Lose:
        return ast.Lose(amount, _name(counter), player, span=_span(meta))

    def pay(self, meta: Any, amount: Any, counter: Token, player: Any) -> ast.Pay:
        return ast.Pay(amount, _name(counter), player, span=_span(meta))

    def pay_cards(self, meta: Any, target: Any, source: Any) -> ast.PayCards:
        return ast.PayCards(target, source, span=_span(meta))

    def upto(self, meta: Any) -> bool:
        return True

    def either(self, meta: Any) -> bool:
        return True

    def no_bump(self, meta: Any) -> bool:
        return True

    def transfer(self, meta: Any, upto: Any, amount: Any, src: Any, dst: Any, either: Any) -> ast.Transfer:
        return ast.Transfer(amount, src, dst, bool(upto), bool(either), span=_span(meta))

    def set(self, meta: Any, target: Any, value: Any) -> ast.SetTo:
        return ast.SetTo(target, value, span=_span(meta))

    def raise_(self, meta: Any, target: Any, amount: Any) -> ast.Raise:
        return ast.Raise(target, amount, span=_span(meta))

    def lower(self, meta: Any, target: Any, amount: Any) -> ast.Lower:
        return ast.Lower(target, amount, span=_span(meta))

    def at_top(self, meta: Any) -> str:
        return "top"

    def at_bottom(self, meta: Any) -> str:
        return "bottom"

    def move(self, meta: Any, what: Any, dest: Any, at: Any, no_bump: Any) -> ast.Move:
        return ast.Move(what, dest, at, not no_bump, span=_span(meta))

    def shift(self, meta: Any, what: Any, amount: Any, no_bump: Any) -> ast.Shift:
        return ast.Shift(what, amount, not no_bump, span=_span(meta))

    def count_n(self, meta: Any, value: Any) -> ast.Expr:
        if isinstance(value, Token):
            return ast.Num(_int(value), span=_tok_span(value))
        return value

    def draw(self, meta: Any, count: Any, src: Any, dst: Any) -> ast.Draw:
        return ast.Draw(count, src, dst, span=_span(meta))

    def deal(self, meta: Any, count: Any, src: Any, dst: Any) -> ast.Deal:
        return ast.Deal(count, src, dst, span=_span(meta))

    def discard(self, meta: Any, what: Any) -> ast.Discard:
        return ast.Discard(what, span=_span(meta))

    def shuffle(self, meta: Any, zone: Any) -> ast.Shuffle:
        return ast.Shuffle(zone, span=_span(meta))

    def reveal(self, meta: Any, what: Any) -> ast.Reveal:
        return ast.Reveal(what, span=_span(meta))

    def place(self, meta: Any, piece: Any, target: Any, no_bump: Any) -> ast.Place:
        return ast.Place(piece, target, not no_bump, span=_span(meta))

    def advance(self, meta: Any, track: Any, amount: Any) -> ast.Advance:
        return ast.Advance(track, amount, span=_span(meta))

    def remove(self, meta: Any, what: Any) -> ast.Remove:
        return ast.Remove(what, span=_span(meta))

    def dig(self, meta: Any, wanted: Any, dest: Any) -> ast.Dig:
        return ast.Dig(wanted, dest, span=_span(meta))

    def auction(self, meta: Any, bidders: Any, counter: Token, winner: Token, amount: Token) -> ast.Auction:
        return ast.Auction(bidders, _name(counter), str(winner), str(amount), span=_span(meta))

    def arg(self, meta: Any, name: Token, value: Any) -> ast.Arg:
        return ast.Arg(str(name), value, span=_span(meta))

    def announce(self, meta: Any, event: Token, *args: Any) -> ast.Announce:
        return ast.Announce(_name(event), tuple(a for a in args if a is not None), span=_span(meta))

    def count_one(self, meta: Any) -> tuple[str, ast.Expr]:
        return ("exact", ast.Num(1))

    def count_exact(self, meta: Any, value: Any) -> tuple[str, ast.Expr]:
        if isinstance(value, Token):
            return ("exact", ast.Num(_int(value), span=_tok_span(value)))
        return ("exact", value)

    def count_up_to(self, meta: Any, value: Any) -> tuple[str, ast.Expr]:
        return ("up_to", value)

    def choose_from(self, meta: Any, count: tuple[str, ast.Expr], coll: Any, var: Token) -> ast.ChooseFrom:
        return ast.ChooseFrom(count[0], count[1], coll, str(var), span=_span(meta))

    def choose_number(self, meta: Any, low: Any, high: Any, step: Any, cond: Any, var: Token) -> ast.ChooseNumber:
        return ast.ChooseNumber(low, high, str(var), step, cond, span=_span(meta))

    def mode_one(self, meta: Any) -> str:
        return "one"

    def mode_up_to_one(self, meta: Any) -> str:
        return "up_to_one"

    def mode_any(self, meta: Any) -> str:
        return "any"

    def perform(self, meta: Any, mode: str, *names: Token) -> ast.Perform:
        return ast.Perform(mode, tuple(_name(n) for n in names), span=_span(meta))

    def play(self, meta: Any, what: Any) -> ast.Play:
        return ast.Play(what, span=_span(meta))

    def run(self, meta: Any, name: Token, *args: Any) -> ast.Run:
        return ast.Run(_name(name), tuple(a for a in args if a is not None), span=_span(meta))

    def descending(self, meta: Any) -> bool:
        return True

    def ascending(self, meta: Any) -> bool:
        return False

    def sort_turn_order(self, meta: Any, key: Any, desc: Any) -> ast.SortTurnOrder:
        return ast.SortTurnOrder(key, True if desc is None else desc, span=_span(meta))

    def begin_final_round(self, meta: Any) -> ast.BeginFinalRound:
        return ast.BeginFinalRound(span=_span(meta))

    def stop_turns(self, meta: Any) -> ast.StopTurns:
        return ast.StopTurns(span=_span(meta))

    def timed_modifier(self, meta: Any, event: Token, modifier: ast.Modifier) -> ast.TimedModifier:
        return ast.TimedModifier(_name(event), modifier, span=_span(meta))

    def log(self, meta: Any, text: Token) -> ast.Log:
        return ast.Log(str(text)[1:-1], span=_span(meta))

    # ---- compound statements
    def elif_(self, meta: Any, cond: Any, body: ast.Body, rest: Any) -> tuple[list[ast.Branch], Any]:
        branches, otherwise = rest if rest is not None else ([], None)
        return [ast.Branch(cond, body, span=_span(meta)), *branches], otherwise

    def else_(self, meta: Any, body: ast.Body) -> tuple[list[ast.Branch], Any]:
        return [], body

    def if_(self, meta: Any, cond: Any, body: ast.Body, tail: Any) -> ast.If:
        elifs, otherwise = tail if tail is not None else ([], None)
        first = ast.Branch(cond, body, span=_span(meta))
        return ast.If((first, *elifs), otherwise, span=_span(meta))

    def option(self, meta: Any, label: Token, cond: Any, body: ast.Body) -> ast.Option:
        return ast.Option(str(label)[1:-1], cond, body, span=_span(meta))

    def choose_one(self, meta: Any, *options: ast.Option) -> ast.ChooseOne:
        return ast.ChooseOne(tuple(options), span=_span(meta))

    def may(self, meta: Any, prompt: Any, body: ast.Body) -> ast.May:
        return ast.May(str(prompt)[1:-1] if prompt is not None else None, body, span=_span(meta))

    def for_each(self, meta: Any, var: Token, coll: Any, body: ast.Body) -> ast.ForEach:
        return ast.ForEach(str(var), coll, body, span=_span(meta))

    def as_player(self, meta: Any, player: Any, body: ast.Body) -> ast.AsPlayer:
        return ast.AsPlayer(player, body, span=_span(meta))

    def repeat(self, meta: Any, count: Any, body: ast.Body) -> ast.Repeat:
        return ast.Repeat(count, body, span=_span(meta))

    def take_turns(self, meta: Any, until: Any, body: ast.Body) -> ast.TakeTurns:
        return ast.TakeTurns(until, body, span=_span(meta))

    # ---- expressions
    def cond(self, meta: Any, yes: Any, test: Any, no: Any) -> ast.Cond:
        return ast.Cond(test, yes, no, span=_span(meta))

    def ordered(self, meta: Any, coll: Any, key: Any, desc: Any) -> ast.Ordered:
        return ast.Ordered(coll, key, bool(desc), span=_span(meta))

    def where(self, meta: Any, coll: Any, cond: Any) -> ast.Where:
        return ast.Where(coll, cond, span=_span(meta))

    def or_(self, meta: Any, a: Any, b: Any) -> ast.BoolOp:
        return ast.BoolOp("or", a, b, span=_span(meta))

    def and_(self, meta: Any, a: Any, b: Any) -> ast.BoolOp:
        return ast.BoolOp("and", a, b, span=_span(meta))

    def not_(self, meta: Any, a: Any) -> ast.Not:
        return ast.Not(a, span=_span(meta))

    def compare(self, meta: Any, a: Any, op: str, b: Any) -> ast.Compare:
        return ast.Compare(op, a, b, span=_span(meta))

    def is_(self, meta: Any, a: Any, b: Any) -> ast.Compare:
        return ast.Compare("=", a, b, span=_span(meta))

    def is_not(self, meta: Any, a: Any, b: Any) -> ast.Compare:
        return ast.Compare("!=", a, b, span=_span(meta))

    def is_in(self, meta: Any, a: Any, b: Any) -> ast.Compare:
        return ast.Compare("in", a, b, span=_span(meta))

    def is_not_in(self, meta: Any, a: Any, b: Any) -> ast.Not:
        return ast.Not(ast.Compare("in", a, b, span=_span(meta)), span=_span(meta))

    def is_empty(self, meta: Any, a: Any) -> ast.Empty:
        return ast.Empty(a, span=_span(meta))

    def is_not_empty(self, meta: Any, a: Any) -> ast.Not:
        return ast.Not(ast.Empty(a, span=_span(meta)), span=_span(meta))

    def has_(self, meta: Any, a: Any, name: Token) -> ast.Has:
        return ast.Has(a, str(name), False, span=_span(meta), name_span=_tok_span(name))

    def has_no(self, meta: Any, a: Any, name: Token) -> ast.Has:
        return ast.Has(a, str(name), True, span=_span(meta), name_span=_tok_span(name))

    def add(self, meta: Any, a: Any, b: Any) -> ast.Arith:
        return ast.Arith("+", a, b, span=_span(meta))

    def sub(self, meta: Any, a: Any, b: Any) -> ast.Arith:
        return ast.Arith("-", a, b, span=_span(meta))

    def mul(self, meta: Any, a: Any, b: Any) -> ast.Arith:
        return ast.Arith("*", a, b, span=_span(meta))

    def round_up(self, meta: Any) -> str:
        return "up"

    def round_down(self, meta: Any) -> str:
        return "down"

    def div(self, meta: Any, a: Any, b: Any, rounding: Any) -> ast.Div:
        return ast.Div(a, b, rounding, span=_span(meta))

    def neg(self, meta: Any, a: Any) -> ast.Neg:
        return ast.Neg(a, span=_span(meta))

    def possessive(self, meta: Any, subject: Any, name: Token) -> ast.Of:
        return ast.Of(str(name), subject, span=_span(meta), name_span=_tok_span(name))

    def my(self, meta: Any, name: Token) -> ast.Of:
        return ast.Of(str(name), ast.Name("me", span=_span(meta)), span=_span(meta), name_span=_tok_span(name))

    def its(self, meta: Any, name: Token) -> ast.Of:
        return ast.Of(str(name), ast.It(span=_span(meta)), span=_span(meta), name_span=_tok_span(name))

    def of(self, meta: Any, name: Token, subject: Any) -> ast.Of:
        return ast.Of(str(name), subject, span=_span(meta), name_span=_tok_span(name))

    def top(self, meta: Any, count: Any, source: Any) -> ast.Top:
        return ast.Top("top", count, source, span=_span(meta))

    def bottom(self, meta: Any, count: Any, source: Any) -> ast.Top:
        return ast.Top("bottom", count, source, span=_span(meta))

    def entry(self, meta: Any, index: Any, source: Any) -> ast.Entry:
        return ast.Entry(index, source, span=_span(meta))

    def space_of(self, meta: Any, index: Any, track: Any) -> ast.SpaceOf:
        return ast.SpaceOf(index, track, span=_span(meta))

    def _aggregate(self, fn: str, meta: Any, name: Token, coll: Any) -> ast.Aggregate:
        return ast.Aggregate(fn, str(name), coll, span=_span(meta), name_span=_tok_span(name))

    def total(self, meta: Any, name: Token, coll: Any) -> ast.Aggregate:
        return self._aggregate("total", meta, name, coll)

    def highest(self, meta: Any, name: Token, coll: Any) -> ast.Aggregate:
        return self._aggregate("highest", meta, name, coll)

    def lowest(self, meta: Any, name: Token, coll: Any) -> ast.Aggregate:
        return self._aggregate("lowest", meta, name, coll)

    def int_(self, meta: Any, tok: Token) -> ast.Num:
        return ast.Num(_int(tok), span=_span(meta) or _tok_span(tok))

    def era(self, meta: Any, tok: Token) -> ast.Era:
        return ast.Era(tuple(_int(tok, p) for p in str(tok).split("/")), span=_span(meta))

    def percent(self, meta: Any, tok: Token) -> ast.Percent:
        return ast.Percent(_int(tok, str(tok)[:-1]), span=_span(meta))

    def text(self, meta: Any, tok: Token) -> ast.Text:
        return ast.Text(str(tok)[1:-1], span=_span(meta))

    def name(self, meta: Any, tok: Token) -> ast.Name:
        return ast.Name(str(tok), span=_span(meta) or _tok_span(tok))

    def this(self, meta: Any) -> ast.This:
        return ast.This(span=_span(meta))

    def it(self, meta: Any) -> ast.It:
        return ast.It(span=_span(meta))

    def yes(self, meta: Any) -> ast.Bool:
        return ast.Bool(True, span=_span(meta))

    def no(self, meta: Any) -> ast.Bool:
        return ast.Bool(False, span=_span(meta))

    def select_in(self, meta: Any, word: Token, source: Any) -> ast.Select:
        return ast.Select(str(word), source, span=_span(meta), name_span=_tok_span(word))

    def _relative(self, relation: str, meta: Any, word: Token, player: Any) -> ast.Relative:
        # `players after P`, `player after P`; any other word is the checker's to refuse (E202)
        return ast.Relative(relation, player, str(word), span=_span(meta))

    def players_after(self, meta: Any, word: Token, player: Any) -> ast.Relative:
        return self._relative("after", meta, word, player)

    def players_before(self, meta: Any, word: Token, player: Any) -> ast.Relative:
        return self._relative("before", meta, word, player)

    def players_starting(self, meta: Any, word: Token, player: Any) -> ast.Relative:
        return self._relative("starting", meta, word, player)

    def call(self, meta: Any, name: Token, *args: Any) -> ast.Call:
        return ast.Call(str(name), tuple(a for a in args if a is not None), span=_span(meta))

    # ---- general constructs: lists, modulo, the same card, a random pick, ending the game
    def list_(self, meta: Any, *items: Any) -> ast.ListLiteral:
        return ast.ListLiteral(tuple(i for i in items if i is not None), span=_span(meta))

    def modulo(self, meta: Any, a: Any, b: Any) -> ast.Modulo:
        return ast.Modulo(a, b, span=_span(meta))

    def _same_card(self, meta: Any, a: Any, word: Token, b: Any, negated: bool) -> ast.SameCard:
        if str(word) != "card":
            raise SyntaxErrors([Diagnostic("E100", f"unexpected '{word}'", word.line or 1, word.column or 1,
                                           hint="write `A is the same card as B` (copies of one item)",
                                           end_column=(word.column or 1) + len(str(word)))])
        return ast.SameCard(a, b, negated, span=_span(meta))

    def same_card(self, meta: Any, a: Any, word: Token, b: Any) -> ast.SameCard:
        return self._same_card(meta, a, word, b, False)

    def not_same_card(self, meta: Any, a: Any, word: Token, b: Any) -> ast.SameCard:
        return self._same_card(meta, a, word, b, True)

    def pick_random(self, meta: Any, count: tuple[str, ast.Expr], coll: Any, var: Token) -> ast.PickRandom:
        return ast.PickRandom(count[1], coll, str(var), span=_span(meta))

    def end_game(self, meta: Any, winner: Any, reason: Any) -> ast.EndGame:
        if reason is None:
            return ast.EndGame(winner, None, span=_span(meta))
        return ast.EndGame(winner, str(reason)[1:-1], span=_span(meta), reason_span=_tok_span(reason))

    # ---- places joined by links; response windows
    def via(self, meta: Any, *links: Token) -> tuple[ast.Name, ...]:
        return tuple(_name(t) for t in links)

    def neighbours(self, meta: Any, place: Any, via: Any) -> ast.Neighbours:
        return ast.Neighbours(place, via or (), span=_span(meta))

    def within(self, meta: Any, word: Token, steps: Any, place: Any, via: Any, through: Any) -> ast.Within:
        return ast.Within(str(word), steps, place, via or (), through, span=_span(meta), name_span=_tok_span(word))

    def distance(self, meta: Any, origin: Any, dest: Any, via: Any, through: Any) -> ast.Distance:
        return ast.Distance(origin, dest, via or (), through, span=_span(meta))

    def connected_group(self, meta: Any, place: Any, via: Any, condition: Any) -> ast.ConnectedGroup:
        return ast.ConnectedGroup(place, condition, via or (), span=_span(meta))

    def offer(self, meta: Any, *parts: Any) -> ast.Offer:
        *names, players = parts
        return ast.Offer(tuple(_name(n) for n in names), players, span=_span(meta))
