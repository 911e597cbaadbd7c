"""Source text -> AST: the Lark LALR parser, the indentation post-lexer and the
Transformer that builds `dsl.ast` nodes with their spans.

Syntax errors never escape as Lark exceptions: `parse_program` returns the AST or
raises `SyntaxErrors`, which carries one Diagnostic per bad line (E1xx). After an
error the parser recovers: the bad line is set aside (a block opener becomes a
blank opener, any other line a no-op) and parsing starts again, so every syntax
error of an effect is reported at once, each at its own line.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from . import ast
from .constructs import CONSTRUCTS
from .diagnostics import Diagnostic, DiagnosticError
from .grammar_cache import lark_parser
from .numbers import limit_words, written
from .parse_cache import cache_folder, parse_cache

MAX_SYNTAX_ERRORS = 20  # per effect; a file with more gets the first twenty
MAX_DEPTH = 100
"""How deep an effect's syntax tree may nest (E111). Each operator counts one level, a
block statement (`if`, `for each`...) two: the statement and its block. The passes
after parsing (the transformer, checker, compiler, printer, renderer) walk the tree
recursively; this limit keeps them far from Python's recursion limit."""


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def _grammar() -> str:
    return resources.files(__package__).joinpath("effects.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The effect grammar's LALR parser, its tables kept in the cache folder between
    processes as plain data (dsl/grammar_cache.py)."""
    return lark_parser(_grammar(), cache_folder(), _Indenter(), propagate_positions=True, maybe_placeholders=True)


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """Every word the grammar spells out (`gain`, `choose`, `where`...)."""
    words = set()
    for term in _parser().terminals:
        if term.pattern.type == "str" and term.pattern.value.isalpha():
            words.add(term.pattern.value)
    words.update(("enters", "leaves"))
    return frozenset(words)


# The words a statement can start with, for "did you mean" on a mistyped one: the
# registry's (dsl/constructs.py), never a list of its own.
STATEMENT_WORDS = tuple(dict.fromkeys(w for c in CONSTRUCTS.values() for w in c.first_words()))


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
class _ToAst(Transformer):
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


class SyntaxErrors(DiagnosticError):
    """The source could not be parsed; `.diagnostics` says where and why."""


# ---------------------------------------------------------------------- what went wrong
#
# A syntax error is worded from what the parser could have accepted at the bad token
# (lark's interactive parser, exact, not the LALR state's merged lookahead set) and
# from the statement it sits in (the forms in dsl/constructs.py). A hint names a
# missing keyword only when nothing else could end the statement there, and names the
# keyword(s) this statement takes, never another statement's.

# Keywords whose absence has its own code (lark's match_examples idea).
# In this order: `move X Y` is first of all missing its `to`.
_MISSING_CODES: dict[str, str] = {"AS": "E104", "COLON": "E105", "TO": "E107", "FROM": "E108", "BY": "E106"}
_MISSING_WORDS: dict[str, str] = {"AS": "as", "COLON": ":", "BY": "by", "TO": "to", "FROM": "from"}
_MISSING_GENERIC: dict[str, str] = {
    "AS": "a choice names what was chosen with `as NAME`: `choose a card in my hand as C`",
    "COLON": "a block opener (`if`, `for each`, `choose one`, `may`, `when`...) ends with `:`",
    "BY": "this needs `by` here",
    "TO": "this needs `to` here",
    "FROM": "this needs `from` here",
}
# Words that only continue an expression: after an expression they are always possible,
# so they are never what "is missing" and never a did-you-mean for a statement's keyword.
_CONTINUATION = frozenset({"and", "or", "is", "has", "where", "ordered", "divided", "if", "else", "after", "before",
                           "starting", "of", "in", "rounded"})
# Expression forms whose own keyword comes next: `X divided by Y`...
_EXPRESSION_FORMS: dict[str, str] = {"divided": "`X divided by Y`", "ordered": "`C ordered by KEY`"}


def _accepts(err: UnexpectedToken) -> set[str]:
    """The terminals the parser could have taken instead of the bad token."""
    parser = getattr(err, "interactive_parser", None)
    if parser is not None:  # lark catches the refusals it meets while trying; anything else is a bug
        return set(parser.accepts())
    return set(err.expected)


@lru_cache(maxsize=None)
def _terminal_patterns() -> dict[str, str]:
    return {t.name: str(t.pattern.value) for t in _parser().terminals if t.pattern.type == "str"}


def _keyword_of(terminal: str) -> str | None:
    value = _terminal_patterns().get(terminal)
    return value if value is not None and value.isalpha() else None


def _after_expression(accepts: set[str]) -> bool:
    """The bad token follows a complete expression (an operator could have come next)."""
    return bool(accepts & {"PLUS", "STAR"})


def _structural(accepts: set[str]) -> set[str]:
    """The terminals that continue the statement itself, not the expression before them."""
    if not _after_expression(accepts):
        return set(accepts)
    out = set()
    for t in accepts:
        word = _keyword_of(t)
        if word is not None:
            if word not in _CONTINUATION:
                out.add(t)
        elif t in ("COLON", "RPAR", "COMMA", "_NL", "$END"):
            out.add(t)
    return out


def _alternatives(syntax: str) -> list[str]:
    """`a | b [c | d]` -> [`a`, `b [c | d]`]: the top-level alternatives of a written form."""
    out, depth, part = [], 0, ""
    for i, ch in enumerate(syntax):
        depth += ch == "["
        depth -= ch == "]"
        if depth == 0 and syntax.startswith(" | ", i):
            out.append(part)
            part = ""
            continue
        if depth == 0 and part == "" and syntax.startswith("| ", i):
            continue
        part += ch
    out.append(part)
    return [a.strip() for a in out if a.strip()]


@lru_cache(maxsize=1)
def _statement_forms() -> dict[str, tuple[str, ...]]:
    """First word -> the written forms of the statements and declarations it starts."""
    forms: dict[str, list[str]] = {}
    for c in CONSTRUCTS.values():
        if c.section in ("expressions", "parts"):
            continue
        for alternative in _alternatives(c.syntax.replace(" / ", " | ")):
            word = alternative.split(" ", 1)[0]
            if word.isalpha() and word.islower():
                forms.setdefault(word, []).append(alternative)
    return {w: tuple(dict.fromkeys(f)) for w, f in forms.items()}


def _fits(form: str, keyword: str, typed: set[str]) -> bool:
    """The form takes `keyword`, and every keyword it requires before it was typed."""
    words = []
    depth = 0
    for token in form.replace("[", " [ ").replace("]", " ] ").replace(":", " : ").split():
        if token == "[":
            depth += 1
        elif token == "]":
            depth -= 1
        elif depth == 0:
            words.append(token)
    if keyword not in words:
        return False
    required = [w for w in words[:words.index(keyword)] if w.isalpha() and w.islower()]
    return all(w in typed for w in required)


def _line_depths(text: str) -> list[int]:
    """The parenthesis depth at the start of each line (index 0 is line 1); text in
    quotes and comments do not count."""
    depths = []
    depth = 0
    for line in text.split("\n"):
        depths.append(depth)
        quoted = False
        for ch in line:
            if quoted:
                quoted = ch != '"'
            elif ch == '"':
                quoted = True
            elif ch == "#":
                break
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth = max(0, depth - 1)
    return depths


def _statement_start(text: str, line: int) -> int:
    """The line where the statement holding `line` starts (lines inside parentheses continue one)."""
    depths = _line_depths(text)
    while line > 1 and line - 1 < len(depths) and depths[line - 1] > 0:
        line -= 1
    return line


def _open_parenthesis(text: str, line: int, column: int) -> tuple[int, int] | None:
    """Where the innermost parenthesis still open at (line, column) was opened."""
    stack: list[tuple[int, int]] = []
    for number, raw in enumerate(text.split("\n"), 1):
        if number > line:
            break
        quoted = False
        for col, ch in enumerate(raw, 1):
            if number == line and col >= column:
                break
            if quoted:
                quoted = ch != '"'
            elif ch == '"':
                quoted = True
            elif ch == "#":
                break
            elif ch == "(":
                stack.append((number, col))
            elif ch == ")" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _statement_word(text: str, line: int, column: int) -> str | None:
    """The first word of the statement the position is in (after a block's `:` on the
    same line, the statement of that block: `if C: gain ...` -> `gain`)."""
    lines = text.split("\n")
    start = _statement_start(text, line)
    if not 1 <= line <= len(lines):
        return None
    chunk = "\n".join(lines[start - 1:line - 1] + [lines[line - 1][:column - 1]])
    segment: list[str] = []
    depth, quoted = 0, False
    for ch in chunk:
        if quoted:
            quoted = ch != '"'
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == ":" and depth == 0:
            segment = []
            continue
        segment.append(ch)
    first = _first_word("".join(segment).strip())
    return first[0] if first else None


def _typed(text: str, line: int, column: int) -> str:
    """The statement's text up to the position."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    start = _statement_start(text, line)
    return " ".join(lines[start - 1:line - 1] + [lines[line - 1][:column - 1]])


def _missing_hint(terminals: list[str], statement: str | None, typed: str) -> str:
    """How to write the statement with its missing keyword(s)."""
    words_typed = typed.replace("(", " ").replace(")", " ").split()
    before = words_typed[-1] if words_typed else ""
    if before in _EXPRESSION_FORMS and len(terminals) == 1:
        return f"`{before}` goes on with `{_MISSING_WORDS[terminals[0]]}`: {_EXPRESSION_FORMS[before]}"
    wanted = [_MISSING_WORDS[t] for t in terminals]
    forms = [f for f in _statement_forms().get(statement or "", ())
             if any(_fits(f, w, set(words_typed)) for w in wanted)]
    words = " or ".join(f"`{w}`" for w in wanted)
    if statement is not None and forms:
        shown = " / ".join(f"`{f}`" for f in forms[:3])
        return f"`{statement}` goes on with {words} here: {shown}"
    if len(terminals) == 1:
        return _MISSING_GENERIC[terminals[0]]
    return f"expected {words} here"


_VALUE_STARTS = frozenset({"NAME", "INT"})


def _friendly_expected(accepts: set[str]) -> str | None:
    if _VALUE_STARTS <= accepts:
        return "expected a value here: a number, a name, `(`..."
    shown = _structural(accepts) or accepts
    names = sorted({w for w in (_terminal_word(e) for e in shown) if w})
    if not names:
        return None
    if len(names) == 1:
        return f"expected {names[0]}"
    return "expected one of: " + ", ".join(names[:8]) + (" ..." if len(names) > 8 else "")


def _describe(tok: Token) -> str:
    if tok.type == "_NL":
        return "end of line"
    if tok.type == "_INDENT":
        return "an indented block"
    if tok.type == "_DEDENT":
        return "end of block"
    if tok.type == "$END":
        return "end of input"
    return f"'{tok}'"


_TERMINAL_WORDS = {"NAME": "a name", "INT": "a number", "ERA": "an era value (20/50/100)",
                   "PERCENT": "a percentage", "STRING": "a quoted text", "_NL": "end of line",
                   "_INDENT": "an indented block", "_DEDENT": "end of block", "$END": "end of input"}


def _terminal_word(name: str) -> str | None:
    """How a terminal reads to a designer: a keyword or symbol as written, a class by name."""
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    value = _terminal_patterns().get(name)
    return f"`{value}`" if value is not None else None


def close_word(word: str, candidates: list[str] | tuple[str, ...] | frozenset[str] | set[str]) -> str | None:
    """The candidate closest to `word`, ignoring case (`Gian` -> `gain`, `Gems` -> `gem`), or None."""
    by_lower: dict[str, str] = {}
    for c in candidates:
        by_lower.setdefault(c.lower(), c)
    hits = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[hits[0]] if hits else None


def _one_edit(a: str, b: str) -> bool:
    """`a` becomes `b` with one letter changed, added, removed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _first_word(line: str) -> tuple[str, int] | None:
    """The first word of a source line and its 1-based column."""
    stripped = line.lstrip()
    column = len(line) - len(stripped) + 1
    word = ""
    for ch in stripped:
        if ch.isalnum() or ch == "_":
            word += ch
        else:
            break
    return (word, column) if word else None


def _inline_word(text: str, column: int) -> tuple[str, int] | None:
    """The word a statement written after a `:` on the same line starts with, when the
    parser failed just after it (at `column`)."""
    found = None
    for m in re.finditer(r':[ \t]*([A-Za-z_][A-Za-z0-9_]*)', text):
        start = m.start(1) + 1
        if start < column and text[m.end(1):column - 1].strip() == "":
            found = (m.group(1), start)
    return found


def _mistyped_statement(source: str, line: int, column: int) -> Diagnostic | None:
    """`gian 2 gold`: a statement that starts with a word that starts no statement.

    Only for a line that starts a statement (not one inside parentheses), whose first
    word the parser took (a name may start a procedure call) before failing after it."""
    lines = source.split("\n")
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1]
    inline = _inline_word(text, column)  # `"a": gian 2 fame`, `if yes: gian 2 fame`
    if inline is None and _statement_start(source, line) != line:
        return None
    first = inline or _first_word(text)
    if first is None:
        return None
    word, word_column = first
    if column <= word_column or word[0].isdigit():
        return None  # the parser did not even take the first word: it is not the problem
    rest = text[word_column - 1 + len(word):].lstrip()
    if word in keywords() or rest.startswith("("):  # a keyword, or a procedure call
        return None
    guess = close_word(word, STATEMENT_WORDS)
    if guess is None:
        hint = (f"a statement starts with a keyword (`gain`, `move`, `if`...) or runs a procedure: `{word}(...)`")
    elif guess.lower() == word.lower():
        hint = f"did you mean `{guess}`? (keywords are written in lower case)"
    else:
        hint = f"did you mean `{guess}`?"
    return Diagnostic("E110", f"`{word}` does not start a statement", line, word_column, hint=hint,
                      end_column=word_column + len(word))


def _stray_else(source: str, line: int, column: int) -> Diagnostic | None:
    """An `else` the parser could only read as a name: no `if` block ends just before it."""
    lines = source.split("\n")
    if not 1 <= line <= len(lines) or _statement_start(source, line) != line:
        return None
    first = _first_word(lines[line - 1])
    if first is None or first[0] != "else" or column <= first[1]:
        return None
    return Diagnostic("E100", "unexpected 'else'", line, first[1], end_column=first[1] + 4,
                      hint="`else` follows the block of an `if`, at the same indentation as that `if`")


_CHARACTER_HINTS = {
    '"': "a quoted text ends on the same line: close the quote",
    "'": "`'` only makes a possessive, `X's NAME`; text goes in double quotes",
    ";": "write one statement per line",
    "&": "write `and`",
    "|": "write `or`",
    "!": "write `not`, or `!=` for \"is not\"",
    ".": "numbers are whole; to read a name of something write `X's NAME` or `NAME of X`",
}


def _syntax_diagnostic(err: UnexpectedInput, source: str) -> Diagnostic:
    line = getattr(err, "line", 1) or 1
    column = getattr(err, "column", 1) or 1
    if isinstance(err, UnexpectedCharacters):
        typo = _mistyped_statement(source, line, column)
        if typo is not None:
            return typo
        pos = err.pos_in_stream or 0
        ch = source[pos] if pos < len(source) else "?"
        hint = _CHARACTER_HINTS.get(ch)
        if hint is None:
            hint = ("names use the letters A-Z and a-z, digits and `_`" if ch.isalpha()
                    else "names use letters, digits and `_`; text goes in double quotes")
        return Diagnostic("E102", f"unexpected character {ch!r}", line, column, hint=hint)
    if isinstance(err, UnexpectedEOF):
        return _ends_early(source, set(err.expected))
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    accepts = _accepts(err)
    if tok.type == "$END":  # lark's LALR parser reports the end of input this way, not as UnexpectedEOF
        return _ends_early(source, accepts)
    if tok.type == "_INDENT":  # it borrows the position of the newline before it: point at the indented line
        line, column = tok.end_line or line, tok.end_column or column
        return Diagnostic("E103", "unexpected indentation", line, column,
                          hint="only the lines of a block (after a line ending in `:`) are indented")
    typo = _mistyped_statement(source, line, column)
    if typo is not None:
        return typo
    stray = _stray_else(source, line, column)
    if stray is not None:
        return stray
    structural = _structural(accepts)
    end = column + len(str(tok)) if tok.type not in ("_NL", "_DEDENT") else None
    if tok.type == "NAME":  # a keyword misspelt where the grammar wanted it (`az` for `as`)
        word = str(tok)
        wanted = {w: t for t in structural if (w := _keyword_of(t)) is not None}
        guess = word.lower() if word.lower() in wanted else None
        # not `X`, `Y` (those name things) and not a keyword out of place (`my`): only a misspelt word
        if guess is None and len(word) > 1 and not word[0].isupper() and word not in keywords():
            guess = close_word(word, list(wanted)) or next((w for w in sorted(wanted) if _one_edit(word, w)), None)
        if guess is not None:
            case = " (keywords are written in lower case)" if guess == word.lower() else ""
            return Diagnostic(_MISSING_CODES.get(wanted[guess], "E100"), f"unexpected '{tok}'", line, column,
                              hint=f"did you mean `{guess}`?{case}", end_column=end)
    missing = [t for t in _MISSING_CODES if t in structural]
    if missing and not structural & {"_NL", "$END"}:  # the statement cannot end here: a keyword is missing
        statement = _statement_word(source, line, column)
        typed = _typed(source, line, column)
        if len(missing) > 1 and statement is not None:  # keep the ones this statement takes
            words = set(typed.split())
            forms = _statement_forms().get(statement, ())
            missing = [t for t in missing if any(_fits(f, _MISSING_WORDS[t], words) for f in forms)] or missing
        hint = _missing_hint(missing, statement, typed)
        return Diagnostic(_MISSING_CODES[missing[0]], f"unexpected {_describe(tok)}", line, column, hint=hint,
                          end_column=end)
    hint = _friendly_expected(accepts)
    opened = _open_parenthesis(source, line, column) if "RPAR" in accepts else None
    if opened is not None and opened[0] < line:  # the statement runs on over lines inside parentheses
        still_open = f"the parenthesis opened on line {opened[0]}, column {opened[1]} is still open here"
        hint = f"{hint}; {still_open}" if hint else still_open
    return Diagnostic("E100", f"unexpected {_describe(tok)}", line, column, hint=hint, end_column=end)


def _ends_early(source: str, accepts: set[str]) -> Diagnostic:
    lines = source.rstrip("\n").split("\n") or [""]
    line, column = len(lines), len(lines[-1]) + 1
    opened = _open_parenthesis(source, line, column)
    if "_INDENT" in accepts:
        hint = "a block opener (a line ending in `:`) must be followed by an indented block"
    elif opened is not None:
        hint = f"close the parenthesis opened on line {opened[0]}, column {opened[1]}"
    else:
        hint = "finish the last statement"
    return Diagnostic("E101", "the effect ends too early", line, column, hint=hint)


# ---------------------------------------------------------------------- recovery


def _normalize(source: str) -> str:
    text = source.expandtabs(4)
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.endswith("\n"):
        text += "\n"
    return text


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _in_options(lines: list[str], index: int, indent: int) -> bool:
    """Line `index` (0-based) sits among the options of a `choose one:`."""
    for earlier in reversed(lines[:index]):
        if _code(earlier) and _indent(earlier) < indent:
            return earlier.split("#", 1)[0].split() == ["choose", "one:"] or \
                earlier.split("#", 1)[0].replace(" ", "") == "chooseone:"
    return False


def _set_aside(text: str, line: int) -> str | None:
    """The text with the statement on line `line` (all its lines, when parentheses carry
    it over several) replaced by one that cannot fail at its indentation: `if yes:` when
    the next line is indented deeper (it opened a block), else `log ""` (`"":` among
    the options of a `choose one:`). None when there is nothing to replace."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines) or not lines[line - 1].strip():
        return None
    depths = _line_depths(text)
    start = _statement_start(text, line)
    end = line
    while end < len(lines) and depths[end] > 0:
        end += 1
    current = lines[start - 1]
    indent = _indent(current)
    deeper = next((_indent(later) > indent for later in lines[end:] if _code(later)), False)
    if _in_options(lines, start - 1, indent):
        filler = '"":' if deeper else '"": log ""'
    else:
        filler = "if yes:" if deeper else 'log ""'
    lines[start - 1] = " " * indent + filler
    for i in range(start, end):
        lines[i] = ""
    return "\n".join(lines)


def _reindent(text: str, line: int, width: int) -> str | None:
    """The text with line `line`, and the lines after it indented as deep or deeper, moved
    left to indentation `width` (keeping their indentation relative to each other)."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return None
    shift = _indent(lines[line - 1]) - width
    if shift <= 0:
        return None
    first = _indent(lines[line - 1])
    for i in range(line - 1, len(lines)):
        if not _code(lines[i]):
            continue
        if i > line - 1 and _indent(lines[i]) < first:
            break
        lines[i] = lines[i][shift:]
    return "\n".join(lines)


def _previous_indent(text: str, line: int) -> int:
    lines = text.split("\n")
    depths = _line_depths(text)
    for i in range(line - 2, -1, -1):
        if _code(lines[i]) and depths[i] == 0:
            return _indent(lines[i])
    return 0


def _dedent_problem(text: str) -> tuple[int, int, list[int]]:
    """The first line whose indentation matches no enclosing block: (line, its
    indentation, the indentations of the blocks open above it)."""
    widths = [0]
    depths = _line_depths(text)
    for number, raw in enumerate(text.split("\n"), 1):
        if not _code(raw) or depths[number - 1] > 0:
            continue
        width = _indent(raw)
        if width > widths[-1]:
            widths.append(width)
            continue
        around = list(widths)
        while width < widths[-1]:
            widths.pop()
        if widths[-1] != width:
            return number, width, around
    return 1, 0, [0]


def _too_deep(tree: Tree) -> Diagnostic | None:
    """E111 at the first place (in line order) where the tree nests past MAX_DEPTH;
    measured without recursion, before anything walks the tree recursively."""
    deepest: list[Tree] = []
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            deepest.append(node)
            continue
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    if not deepest:
        return None
    line, column = min(_tree_position(node) for node in deepest)
    return Diagnostic("E111", f"this is nested too deeply: more than {MAX_DEPTH} levels of operators and blocks",
                      line, column, hint="split it: name a part with `let NAME be ...`, or move an inner block "
                      "into a procedure")


def _tree_position(node: Tree) -> tuple[int, int]:
    meta = node.meta
    if not getattr(meta, "empty", True):
        return meta.line, meta.column
    stack: list[Any] = [node]
    while stack:  # the first token below, without recursion (the subtree may be deep)
        current = stack.pop()
        if isinstance(current, Token) and current.line is not None:
            return current.line, current.column or 1
        if isinstance(current, Tree):
            stack.extend(reversed(current.children))
    return 1, 1


def _parse_text(text: str) -> ast.Program:
    try:
        tree = _parser().parse(text)
        deep = _too_deep(tree)
        if deep is not None:
            raise SyntaxErrors([deep])
        return _ToAst().transform(tree)
    except VisitError as err:  # unwrap, as lark's docs advise
        raise err.orig_exc from None


def parse_program(source: str) -> ast.Program:
    """Parse an effect. Raises SyntaxErrors carrying every syntax problem, one per line,
    in line order: after an error the bad statement is set aside (a mis-indented line
    is moved back in line) and the parser starts again. An effect parsed before (in
    any process) is read from the parse cache (dsl/parse_cache.py)."""
    return parse_cache().cached("program", _normalize(source), _parse_normalized, ast.Program)


def _parse_normalized(text: str) -> ast.Program:
    found: list[Diagnostic] = []
    lines_seen: set[int] = set()
    for _ in range(MAX_SYNTAX_ERRORS):
        try:
            program = _parse_text(text)
        except UnexpectedInput as err:
            d = _syntax_diagnostic(err, text)
            if isinstance(err, UnexpectedToken) and err.token.type == "_INDENT":
                aside = _reindent(text, d.line, _previous_indent(text, d.line))
            else:
                aside = _set_aside(text, d.line)
        except DedentError:
            line, width, widths = _dedent_problem(text)
            shown = " or ".join(str(w) for w in widths)
            d = Diagnostic("E103", "the indentation does not match any outer block", line, width + 1,
                           hint=f"this line is indented {width} spaces, the blocks around it {shown}: "
                                "indent it like the block it belongs to")
            aside = _reindent(text, line, max(w for w in widths if w < width))
        except SyntaxErrors as err:
            d = err.diagnostics[0]
            aside = _set_aside(text, d.line)
        else:
            if found:
                raise SyntaxErrors(sorted(found, key=lambda x: (x.line, x.column)))
            return program
        if d.line in lines_seen:
            break  # no progress: what follows is a consequence of an error already reported
        found.append(d)
        lines_seen.add(d.line)
        if d.code == "E101" or aside is None or aside == text:
            break
        text = aside
    raise SyntaxErrors(sorted(found, key=lambda x: (x.line, x.column)))


def parse_expression(source: str) -> ast.Expr:
    """Parse a single expression (a condition or a value written in YAML)."""
    program = parse_program(f"{EXPRESSION_LEAD}{source}")
    stmt = program.statements[0] if program.statements else None
    if len(program.statements) != 1 or program.declarations or not isinstance(stmt, ast.Let):
        raise SyntaxErrors([Diagnostic("E109", "expected a single expression", 1, 1)])
    return stmt.value


# An expression written in YAML is parsed as the value of this `let`; spans of an
# expression are measured inside this prefix on line 1 (pipeline/build.py takes it off).
EXPRESSION_LEAD = "let __value be "
EXPRESSION_PREFIX = len(EXPRESSION_LEAD)
