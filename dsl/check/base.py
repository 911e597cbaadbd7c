"""The checker's shared state (dsl/checker.py puts the checker together): what every
part of it is handed. The names a check binds (`Context`), and `CheckState`, one
check's state: the vocabulary, the diagnostics so far, the resolution table being
built, the scopes, `it` and who acts; the reports (`error`, `warn`, `expect`,
`record`...), binding names, the dispatch from an expression to the part whose `e_`
method checks it, the operand checks both statements and expressions make (an amount,
a track, a condition, a text's `{EXPR}` parts), and constant folding of conditions
that are never true. A builtin's check (dsl/constructs.py) is handed the CheckState.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable

from .. import ast
from .. import resolution as r
from ..constructs import BUILTINS
from ..diagnostics import ERROR, WARNING, Diagnostic
from ..parser import SyntaxErrors, close_word, parse_expression
from ..resolution import Resolution
from ..types import AMOUNT, ANY, FLAG, T, fits
from ..vocabulary import Vocabulary

BUILTIN_NAMES: dict[str, Callable] = {b.name: b.check for b in BUILTINS.values() if b.form == "name"}
RESERVED_PREFIX = "__"  # names the engine keeps for itself; never a designer's


@dataclass
class Context:
    """Where a piece of source sits: what `this` is, which names are bound."""

    this: T | None = None  # thing(kind) for content items; None in rules
    locals: dict[str, T] = field(default_factory=dict)
    allow_declarations: bool = False
    allow_flow: bool = False  # take turns, begin final round... (rules' game procedure)
    no_me: bool | None = None  # no player acts (setup, the game procedure); default: allow_flow
    owner_less: bool = False  # the item has no owner (a board item): its triggers run for no player
    # the item's effect being checked: "effect" (its own, which `play this` runs) or an effect
    # attribute's name (which `play this's NAME` runs): playing it inside itself never ends
    playing: str | None = None


class CheckState:
    """One check's state, shared by the parts of the checker: the vocabulary, the
    diagnostics so far, the resolution table the compiler reads, the scopes of bound
    names, `it`, and who acts. `expr` hands an expression to the part that checks it
    (each part registers its `e_<Node>` methods with `handle`)."""

    def __init__(self, vocab: Vocabulary, res: Resolution | None = None):
        self.v = vocab
        self.diags: list[Diagnostic] = []
        self.res = res if res is not None else Resolution()
        self.taken = vocab.name_set()  # names a local variable may not reuse
        self.it: list[T] = []
        self.events: list[tuple[str, list[str] | None]] = []  # the triggers' events checked within (None: unknown)
        self.scopes: list[dict[str, T]] = []
        self.this: T | None = None
        self.playing: str | None = None
        self.flow = False
        self.no_me = False
        self.used_me = False  # the program needs a player to act (for definitions and procedures)
        self.announced: set[str] = set()  # events the program announces (for the trigger-cycle analysis)
        self.calls: set[str] = set()  # procedures and definitions it uses
        self.played: set[str | None] = set()  # the kinds whose effect a `play` runs (None: a piece of any kind)
        self.typed: dict[int, T] = {}  # nodes this pass has typed
        self.provided = 0  # inside `as P:` / `take turns:` a player acts whatever the caller
        self.parts: tuple[object, ...] = ()  # the parts whose `e_<Node>` methods check expressions
        self.expressions: dict[str, Callable[[Any], T] | None] = {}  # node class name -> its method, as met

    def handle(self, *parts: object) -> None:
        """Check expressions with the `e_<Node>` methods of `parts`."""
        self.parts += parts

    def enter(self, ctx: Context) -> None:
        self.this = ctx.this
        self.playing = ctx.playing
        self.flow = ctx.allow_flow
        self.no_me = ctx.allow_flow if ctx.no_me is None else ctx.no_me
        self.scopes = [dict(ctx.locals)]

    # ------------------------------------------------------------------ reporting
    def error(self, node: ast.Node | None, code: str, message: str, hint: str | None = None,
              severity: str = ERROR, span: ast.Span | None = None) -> None:
        s = span or (node.span if node is not None else None)
        line, col = (s.line, s.column) if s else (1, 1)
        end = s.end_column if s and s.end_line == s.line else None
        self.diags.append(Diagnostic(code, message, line, col, severity, hint, end_column=end))

    def warn(self, node: ast.Node, code: str, message: str, hint: str | None = None) -> None:
        self.error(node, code, message, hint, severity=WARNING)

    def as_piece(self, node: ast.Node, actual: T, expected_kind: str | None) -> bool:
        """A card named in source where one piece is wanted stands for its only copy."""
        ref = self.res.refs.get(id(node))
        if actual.tag == "def" and isinstance(ref, r.CardDef) and (expected_kind is None or expected_kind == actual.arg):
            self.record(node, T("thing", actual.arg), r.CardPiece(ref.id))
            return True
        return False

    def piece(self, node: ast.Node, actual: T) -> T:
        """Where a piece is read (what it holds, its counters and values, its effect), a card
        named in source is a piece like any other: its only copy (`tokens in engine_clock`,
        `play overclock`); a card of several copies is no one piece: E202 with the way to choose one."""
        ref = self.res.refs.get(id(node))
        if actual.tag == "def" and isinstance(ref, r.CardDef) and self.v.content_copies.get(ref.id, 1) != 1:
            self.error(node, "E202", f"`{ref.id}` names a card with {self.v.content_copies[ref.id]} copies, and "
                       "one piece is meant here",
                       hint=f"choose one of them: `top of (cards in ZONE where it is {ref.id})`")
            return ANY
        if actual.tag == "def" and self.as_piece(node, actual, None):
            return self.res.types[id(node)]
        return actual

    def expect(self, node: ast.Node, actual: T, expected: T) -> None:
        if expected.tag == "thing" and self.as_piece(node, actual, expected.arg):
            return
        if not fits(actual, expected):
            self.error(node, "E202", f"expected {expected}, found {actual}", hint=_type_hint(actual, expected))

    def event_hint(self, name: str) -> str | None:
        """The hint of an unknown event: the near one, or what the name is instead (`when points:`
        names a counter, and a counter's change is no event)."""
        v = self.v
        what = ("a counter" if name in v.counters else "a quantity" if name in v.quantities
                else "a value" if name in v.values else "a zone" if name in v.zones
                else "a kind" if name in v.kinds else "an action" if name in v.actions
                else "a procedure" if name in v.procedures else None)
        events = ", ".join(f"`{e}`" for e in list(v.events)[:8]) + (", ..." if len(v.events) > 8 else "")
        if what is None:  # the near one, else the ones there are (a user's trial: a name far from all got no word)
            return self.suggest(name, v.events) or (f"the ruleset's events: {events}" if events else
                                                    "the ruleset declares no event (`events:`)")
        return (f"`{name}` is {what}, not an event: a trigger answers an event the ruleset declares "
                f"(`events:`) and its rules `announce`; a change of {name} is none (announce one where it "
                f"changes)" + (f". Its events: {events}" if events else ""))

    def suggest(self, name: str, candidates: Iterable[str]) -> str | None:
        close = close_word(name, [c for c in candidates if c != name])
        return f"did you mean `{close}`?" if close else None

    def record(self, node: ast.Node, t: T, ref: r.Ref | None = None) -> T:
        self.res.types[id(node)] = t
        if ref is not None:
            self.res.refs[id(node)] = ref
        return t

    def arity(self, e: ast.Node, args: list[ast.Expr] | tuple[ast.Expr, ...], params: Iterable[str]) -> bool:
        """Report a call with the wrong number of arguments, naming the parameters."""
        names = list(params)
        if len(args) == len(names):
            return True
        name = getattr(e, "name", "?")
        name = name.name if isinstance(name, ast.Name) else name
        self.error(e, "E212", f"`{name}` takes {len(names)} argument{'s' if len(names) != 1 else ''} "
                   f"({', '.join(names)}), found {len(args)}", hint=f"write `{name}({', '.join(names)})`")
        return False

    # ------------------------------------------------------------------ scopes
    def lookup(self, name: str) -> T | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def bind(self, node: ast.Node, name: str, t: T) -> None:
        if name.startswith(RESERVED_PREFIX):
            self.error(node, "E211", f"`{name}`: names starting with `{RESERVED_PREFIX}` are kept for the engine",
                       hint="pick a name without the leading underscores")
        elif self.lookup(name) is not None:
            self.error(node, "E211", f"`{name}` is already defined here", hint="pick another name")
        elif name in self.taken or name in BUILTIN_NAMES:
            self.error(node, "E211", f"`{name}` already names something in this ruleset",
                       hint="pick a name the ruleset does not use (e.g. a capital letter)")
        self.scopes[-1][name] = t

    def need_me(self, node: ast.Node, what: str) -> None:
        if not self.provided:
            self.used_me = True
        if self.no_me:
            self.error(node, "E217", f"{what} needs a player to act, and no player acts here",
                       hint="setup and the game procedure run for nobody: name a player "
                            "(`for each P in players: ... for P`) or move this into `take turns:`; "
                            "a board item's trigger runs for nobody too")

    # ------------------------------------------------------------------ operands
    def amount(self, e: ast.Expr) -> None:
        self.expect(e, self.expr(e), AMOUNT)

    def track(self, e: ast.Expr) -> None:
        t = self.expr(e)
        if t.tag not in ("track", "any"):
            if not (t.tag == "thing" and t.arg and self.v.kinds.get(t.arg) and self.v.kinds[t.arg].track):
                self.error(e, "E202", f"expected a track, found {t}")

    def text_parts(self, node: ast.Node, text: str, lead: int, written: ast.Span | None = None) -> None:
        """Parse and check each `{EXPR}` of a log line, an option's label or a `may` prompt; the compiler
        shows their values. Problems point at the `{` (`lead` columns after the start of
        the node, or of `written` when given; no escapes before it)."""
        parts: list[tuple[str, ast.Expr]] = []
        base = written or node.span
        for found in _LOG_PART.finditer(text):
            placeholder = found.group(0)
            at = ast.Span(base.line, base.column + lead + found.start(), base.line,
                          base.column + lead + found.end()) if base else None
            try:
                expr = parse_expression(placeholder[1:-1].strip())
            except SyntaxErrors as err:
                first = err.diagnostics[0].message if err.diagnostics else "not an expression"
                self.error(node, "E100", f"`{placeholder}` in the text is not an expression: {first}",
                           hint="write a name or a value inside the braces: `{me}`, `{C}`, `{my gold}`", span=at)
                continue
            before = len(self.diags)
            self.expr(expr)
            for i in range(before, len(self.diags)):
                d = self.diags[i]
                self.diags[i] = replace(d, message=f"in `{placeholder}`: {d.message}", line=at.line if at else d.line,
                                        column=at.column if at else d.column,
                                        end_column=at.end_column if at else d.end_column)
            parts.append((placeholder, expr))
        if parts:
            self.res.keep.extend(e for _, e in parts)
            self.res.log_parts[id(node)] = parts

    def condition(self, e: ast.Expr) -> None:
        self.expect(e, self.expr(e), FLAG)
        if never_true(e):
            self.warn(e, "W302", "this condition is never true, so what it guards never applies")

    # ------------------------------------------------------------------ expressions
    def expr(self, e: ast.Expr) -> T:
        done = self.typed.get(id(e))
        if done is not None:  # checked already (a builtin's argument): report its problems once
            return done
        kind = type(e).__name__
        method = self.expressions.get(kind)
        if method is None:
            method = self.expressions[kind] = handler(self.parts, "e_" + kind)
        if method is None:
            self.error(e, "E299", f"expression {type(e).__name__} is not supported here")
            return self.record(e, ANY, r.UNKNOWN)
        t = method(e)
        self.typed[id(e)] = t
        return self.record(e, t)


def handler_names(cls: type, prefix: str) -> list[str]:
    """The names of `cls`'s methods that check a node: `PREFIX<Node>` (`e_Name`, `s_Move`)."""
    return [n for n in dir(cls) if n.startswith(prefix)]


def handler(parts: Iterable[object], name: str) -> Callable[[Any], Any] | None:
    """The method `name` (`e_Name` checks an `ast.Name`) of the first of `parts` that has it."""
    for part in parts:
        method = getattr(part, name, None)
        if method is not None:
            return method
    return None


def literal_number(e: ast.Expr) -> int | None:
    """The number an expression is when written as one (`3`, `-1`), else None."""
    if isinstance(e, ast.Num):
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.Num):
        return -e.operand.value
    return None


class NoKind:
    """A kind that is not known: it declares no attributes."""

    attributes: dict[str, T] = {}


NO_KIND = NoKind()


def never_true(e: ast.Expr) -> bool:
    """A condition that is false whatever the game state (constant folding)."""
    if isinstance(e, ast.Bool):
        return not e.value
    if isinstance(e, ast.Where):
        return never_true(e.condition)
    if isinstance(e, ast.Not):
        return isinstance(e.operand, ast.Bool) and e.operand.value
    if isinstance(e, ast.BoolOp):
        if e.op == "and":
            return never_true(e.left) or never_true(e.right)
        return never_true(e.left) and never_true(e.right)
    if isinstance(e, ast.Compare) and isinstance(e.left, ast.Num) and isinstance(e.right, ast.Num):
        a, b = e.left.value, e.right.value
        return not {"=": a == b, "!=": a != b, ">": a > b, "<": a < b, ">=": a >= b, "<=": a <= b}.get(e.op, True)
    return False


_LOG_PART = re.compile(r"\{[^{}]+\}")


def _type_hint(actual: T, expected: T) -> str | None:
    if expected.tag == "player" and actual.tag == "amount":
        return "name a player: `me`, `P` from `for each P in opponents`, `owner of X`"
    if expected.tag == "amount" and actual.tag == "player":
        return "a player is not a number; did you mean one of their counters, e.g. `P's gold`?"
    if expected.tag == "player" and actual.tag == "players":
        return "several players: use `for each P in ...:`"
    if expected.tag == "flag":
        return "write a condition, e.g. `my gold > 3`"
    if expected.tag == "thing" and actual.tag == "def":
        return "a card named in source stands for all its copies: choose one of them"
    return None
