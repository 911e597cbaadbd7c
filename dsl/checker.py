"""The static checker: a pass over a parsed effect, before anything runs, that
resolves every name against the ruleset's Vocabulary, infers every expression's type
and returns *every* problem as a Diagnostic (E2xx errors, W3xx warnings).

It also fills the side table the compiler reads (dsl/resolution.py): how each name,
`of` and selection was resolved, and each node's type. Statements whose operands
are declared with roles in dsl/constructs.py are checked generically; the others
have a method `s_<Node>` here. Expressions have a method `e_<Node>`; builtins are
checked by their registry entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable

from . import ast
from . import printer
from . import resolution as r
from .constructs import BUILTINS, CONSTRUCTS
from .diagnostics import ERROR, WARNING, Diagnostic
from .parser import SyntaxErrors, close_word, parse_expression
from .resolution import Resolution
from .types import ACTION, AMOUNT, ANY, FLAG, PERCENT, PLAYER, PLAYERS, TEXT, ZONE, ZONES, T, fits, thing, things
from .vocabulary import GENERIC_CLASS, Vocabulary

__all__ = ["Checker", "Context", "Resolution", "check", "BUILTIN_NAMES"]

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


class Checker:
    def __init__(self, vocab: Vocabulary, res: Resolution | None = None):
        self.v = vocab
        self.diags: list[Diagnostic] = []
        self.res = res if res is not None else Resolution()
        self._taken = vocab.name_set()  # names a local variable may not reuse
        self._it: list[T] = []
        self._scopes: list[dict[str, T]] = []
        self._this: T | None = None
        self._flow = False
        self._no_me = False
        self.used_me = False  # the program needs a player to act (for definitions and procedures)
        self.announced: set[str] = set()  # events the program announces (for the trigger-cycle analysis)
        self.calls: set[str] = set()  # procedures and definitions it uses
        self._typed: dict[int, T] = {}  # nodes this pass has typed
        self._provided = 0  # inside `as P:` / `take turns:` a player acts whatever the caller

    # ------------------------------------------------------------------ entry points
    def check_program(self, program: ast.Program, ctx: Context) -> list[Diagnostic]:
        self._enter(ctx)
        self.res.keep.append(program)
        self.block(program.statements)
        for decl in program.declarations:
            if not ctx.allow_declarations:
                self.error(decl, "E214", "triggers and `while in play` belong on content items, not here",
                           hint="move it to a content item's effect")
            saved, self._no_me = self._no_me, ctx.owner_less or self._no_me
            self.declaration(decl)
            self._no_me = saved
        return self.diags

    def check_expression(self, expr: ast.Expr, ctx: Context, expected: T | None = None) -> T:
        self._enter(ctx)
        self.res.keep.append(expr)
        t = self.expr(expr)
        if expected is not None:
            self.expect(expr, t, expected)
        return t

    def check_text(self, node: ast.Node, text: str, ctx: Context, lead: int = 0) -> list[Diagnostic]:
        """A label written outside an effect (an action's `label:`): its `{EXPR}` parts,
        checked with the names `ctx` binds, as a log line's are."""
        self._enter(ctx)
        self.res.keep.append(node)
        self.text_parts(node, text, lead)
        return self.diags

    def _enter(self, ctx: Context) -> None:
        self._this = ctx.this
        self._flow = ctx.allow_flow
        self._no_me = ctx.allow_flow if ctx.no_me is None else ctx.no_me
        self._scopes = [dict(ctx.locals)]

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

    def expect(self, node: ast.Node, actual: T, expected: T) -> None:
        if expected.tag == "thing" and self.as_piece(node, actual, expected.arg):
            return
        if not fits(actual, expected):
            self.error(node, "E202", f"expected {expected}, found {actual}", hint=_type_hint(actual, expected))

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
        for scope in reversed(self._scopes):
            if name in scope:
                return scope[name]
        return None

    def bind(self, node: ast.Node, name: str, t: T) -> None:
        if name.startswith(RESERVED_PREFIX):
            self.error(node, "E211", f"`{name}`: names starting with `{RESERVED_PREFIX}` are kept for the engine",
                       hint="pick a name without the leading underscores")
        elif self.lookup(name) is not None:
            self.error(node, "E211", f"`{name}` is already defined here", hint="pick another name")
        elif name in self._taken or name in BUILTIN_NAMES:
            self.error(node, "E211", f"`{name}` already names something in this ruleset",
                       hint="pick a name the ruleset does not use (e.g. a capital letter)")
        self._scopes[-1][name] = t

    def block(self, body: ast.Body, bindings: dict[str, T] | None = None) -> None:
        self._scopes.append(dict(bindings or {}))
        for stmt in body:
            self.stmt(stmt)
        self._scopes.pop()

    def need_me(self, node: ast.Node, what: str) -> None:
        if not self._provided:
            self.used_me = True
        if self._no_me:
            self.error(node, "E217", f"{what} needs a player to act, and no player acts here",
                       hint="setup and the game procedure run for nobody: name a player "
                            "(`for each P in players: ... for P`) or move this into `take turns:`; "
                            "a board item's trigger runs for nobody too")

    # ------------------------------------------------------------------ declarations
    def declaration(self, decl: ast.Node) -> None:
        if isinstance(decl, ast.Trigger):
            info = self.v.events.get(decl.event.name)
            params: dict[str, T] = {}
            if info is None:
                self.error(decl.event, "E205", f"unknown event `{decl.event.name}`",
                           hint=self.suggest(decl.event.name, self.v.events))
            else:
                params = dict(info.params)
            self._scopes.append(params)
            if decl.condition is not None:
                self.condition(decl.condition)
            self.block(decl.body)
            self._scopes.pop()
        elif isinstance(decl, ast.Hook):
            self.block(decl.body)
        elif isinstance(decl, ast.Continuous):
            self.modifier(decl.modifier)

    def modifier(self, m: ast.Modifier) -> None:
        q = self.v.quantities.get(m.quantity.name)
        if q is None:
            self.error(m.quantity, "E201", f"unknown quantity `{m.quantity.name}`",
                       hint=self.suggest(m.quantity.name, self.v.quantities))
            return
        if m.subject is not None:
            st = self.expr(m.subject)
            if q.subject is None:
                self.error(m.subject, "E202", f"`{m.quantity.name}` is not asked of an item",
                           hint=f"write `{m.quantity.name} {m.op} ...` without `of`")
            else:
                self.expect(m.subject, st, thing(q.subject))
        if m.scope is not None:
            self.expect(m.scope, self.expr(m.scope), PLAYERS if self._is_plural(m.scope) else PLAYER)
        vt = self.expr(m.value)
        if q.type == FLAG:
            if m.op != "=":
                self.error(m, "E202", f"`{m.quantity.name}` is yes/no: only `= yes` or `= no` apply")
            self.expect(m.value, vt, FLAG)
        elif m.op == "*":
            if vt.tag not in ("percent", "any"):
                self.error(m.value, "E210", f"a modifier multiplies by a percentage, found {vt}",
                           hint="write e.g. `* 150%` (rounded up) or `* 200%`")
        else:
            self.expect(m.value, vt, AMOUNT)

    def _is_plural(self, e: ast.Expr) -> bool:
        return self.res.type(e).tag == "players"

    # ------------------------------------------------------------------ statements
    def stmt(self, s: ast.Stmt) -> None:
        method: Callable[[ast.Stmt], None] | None = getattr(self, "s_" + type(s).__name__, None)
        if method is not None:
            method(s)
            return
        spec = CONSTRUCTS.get(type(s))
        if spec is None or not spec.roles:
            self.error(s, "E299", f"statement {type(s).__name__} is not supported here")
            return
        for name, role in spec.roles.items():
            self.role(getattr(s, name), role, s)

    def role(self, value: object, role: str, s: ast.Stmt) -> None:
        """Check one operand of a statement against its declared role."""
        if role == "amount":
            assert isinstance(value, ast.Expr)
            self.amount(value)
            if isinstance(value, ast.Num) and value.value == 0:
                self.warn(value, "W301", "an amount of 0 never changes anything", hint="remove the statement")
        elif role == "player?":
            if value is None:
                self.need_me(s, f"`{type(s).__name__.lower()}` without `for PLAYER`")
            else:
                assert isinstance(value, ast.Expr)
                self.expect(value, self.expr(value), PLAYER)
        elif role == "counter":
            assert isinstance(value, ast.Name)
            self.counter_name(value)
        elif role == "zone":
            assert isinstance(value, ast.Expr)
            self.zone(value)
        elif role == "zones":
            assert isinstance(value, ast.Expr)
            self.zone(value, plural_ok=True)
        elif role == "pieces":
            assert isinstance(value, ast.Expr)
            self.pieces(value)
        elif role == "lvalue":
            assert isinstance(value, ast.Expr)
            self.lvalue(value)
        elif role == "track":
            assert isinstance(value, ast.Expr)
            self.track(value)
        else:  # pragma: no cover - a registry mistake
            raise ValueError(f"unknown role {role!r}")

    def amount(self, e: ast.Expr) -> None:
        self.expect(e, self.expr(e), AMOUNT)

    def counter_name(self, n: ast.Name) -> None:
        """The counter of gain/lose/pay/auction: a player counter, or a name holding one."""
        local = self.lookup(n.name)
        if local is not None:
            self.record(n, local, r.Local(n.name))
            if local.tag not in ("counter", "any"):
                self.error(n, "E202", f"`{n.name}` is {local}, not a counter",
                           hint="`choose a resource as R` names a counter; then `gain 1 R`")
            return
        value = self.v.values.get(n.name)
        if value is not None and value.type.tag == "counter":
            ref: r.Ref = r.GameValue(n.name) if value.scope == "game" else r.PlayerValue(n.name)
            self.record(n, value.type, ref)
            if value.scope == "player":
                self.need_me(n, f"`{n.name}` on its own (your {n.name})")
            return
        info = self.v.counters.get(n.name)
        if info is None:
            self.error(n, "E201", f"unknown counter `{n.name}`", hint=self.suggest(n.name, self.v.counters))
        elif info.scope != "player":
            self.error(n, "E202", f"`{n.name}` is a game counter, not something a player has",
                       hint=f"use `raise {n.name} by N` / `lower {n.name} by N`")
        else:
            self.record(n, AMOUNT, r.PlayerCounter(n.name))

    def lvalue(self, e: ast.Expr) -> None:
        t = self.expr(e)
        ref = self.res.ref(e)
        if t.tag == "any":
            return  # already reported where it was resolved
        if not isinstance(ref, (r.PlayerCounter, r.GameCounter, r.ItemCounter, r.CounterOf)):
            self.error(e, "E204", "this is not a counter that can change",
                       hint="name a counter: `my gold`, `X's value`, a game counter")
        else:
            self.expect(e, t, AMOUNT)

    def pieces(self, e: ast.Expr) -> T:
        t = self.expr(e)
        if self.as_piece(e, t, None):
            return T("thing", t.arg)
        if t.tag not in ("thing", "things", "any"):
            hint = "a card named in source stands for all its copies: choose one of them" if t.tag == "def" else None
            self.error(e, "E202", f"expected pieces, found {t}", hint=hint)
        return t

    def zone(self, e: ast.Expr, plural_ok: bool = False) -> None:
        t = self.expr(e)
        want = (ZONE, ZONES) if plural_ok else (ZONE,)
        if not any(fits(t, w) for w in want):
            self.error(e, "E202", f"expected a zone, found {t}",
                       hint="name a zone: `my hand`, `hand of P`, a game zone, `space 2 of K`")

    def track(self, e: ast.Expr) -> None:
        t = self.expr(e)
        if t.tag not in ("track", "any"):
            if not (t.tag == "thing" and t.arg and self.v.kinds.get(t.arg) and self.v.kinds[t.arg].track):
                self.error(e, "E202", f"expected a track, found {t}")

    def s_Let(self, s: ast.Let) -> None:
        t = self.expr(s.value)
        self.bind(s, s.var, t)

    def s_PayCards(self, s: ast.PayCards) -> None:
        self.need_me(s, "paying with cards")
        if self.v.payment is None:
            self.error(s, "E202", "this ruleset declares no card payment", hint="add `payment:` to ruleset.yaml")
        self.expect(s.target, self.expr(s.target), thing())
        self.zone(s.source)

    def s_Transfer(self, s: ast.Transfer) -> None:
        self.amount(s.amount)
        self.lvalue(s.source)
        self.lvalue(s.dest)
        if s.up_to or s.either_way:
            self.need_me(s, "a choice")

    def s_SetTo(self, s: ast.SetTo) -> None:
        t = self.expr(s.target)
        ref = self.res.ref(s.target)
        vt = self.expr(s.value)
        if t.tag == "any":
            return
        if isinstance(ref, (r.GameValue, r.PlayerValue, r.ItemValue)):
            self.expect(s.value, vt, t)
            return
        if not isinstance(ref, (r.PlayerCounter, r.GameCounter, r.ItemCounter, r.CounterOf)):
            self.error(s.target, "E204", "this is not a counter or a value that can change",
                       hint="name a counter (`my gold`, `X's value`) or a value the ruleset declares")
            return
        self.expect(s.value, vt, AMOUNT)

    def s_Move(self, s: ast.Move) -> None:
        self.pieces(s.what)
        t = self.expr(s.dest)
        if self.as_piece(s.dest, t, None):
            t = T("thing", t.arg)
        if t.tag != "thing":
            self.zone(s.dest)
            return
        kind = self.v.kinds.get(t.arg or "")
        if kind is not None and not kind.holder:
            hint = (f"declare `holder: true` on the kind `{t.arg}` in ruleset.yaml" if not kind.track
                    else f"a track's spaces are zones: `move ... to space 1 of X`, or `place ... on X`")
            self.error(s.dest, "E202", f"{t} holds nothing, so nothing can be moved onto it", hint=hint)

    def s_Shift(self, s: ast.Shift) -> None:
        t = self.expr(s.what)
        if t.tag not in ("thing", "any"):
            self.error(s.what, "E202", f"`move ... by` moves one token along its track, found {t}",
                       hint="for every token of a track write `advance K by N`")
        self.amount(s.amount)

    def s_Draw(self, s: ast.Draw) -> None:
        self.amount(s.count)
        self.zone(s.source)
        if s.dest is None:
            self.need_me(s, "`draw` without `to ZONE` (into your hand)")
            if self.v.hand is None:
                self.error(s, "E202", "draw needs `to ZONE`: this ruleset names no hand",
                           hint="write `draw N from X to my ZONE`")
        else:
            self.zone(s.dest)

    def s_Dig(self, s: ast.Dig) -> None:
        t = self.expr(s.wanted)
        if not (isinstance(s.wanted, ast.Where) and isinstance(s.wanted.collection, ast.Select)):
            self.error(s.wanted, "E202", "`dig for` needs `CARDS in ZONE where CONDITION`",
                       hint="e.g. `dig for card in resource_deck where its resource is R to my resources`")
        elif t.tag not in ("things", "any"):
            self.error(s.wanted, "E202", f"expected cards, found {t}")
        else:  # the pieces are turned from the top of a zone, never taken from a list of items
            source = self.res.types.get(id(s.wanted.collection.source))
            if source is not None and source.tag not in ("zone", "any"):
                self.error(s.wanted.collection.source, "E202", f"`dig for` turns the pieces of a zone, found {source}",
                           hint="dig in one zone: `dig for card in deck where ... to my hand`")
        self.zone(s.dest)

    def s_Auction(self, s: ast.Auction) -> None:
        self.expect(s.bidders, self.expr(s.bidders), PLAYERS)
        self.counter_name(s.counter)
        self.bind(s, s.winner, PLAYER)
        self.bind(s, s.amount, AMOUNT)

    def s_Place(self, s: ast.Place) -> None:
        t = self.expr(s.piece)
        if t.tag not in ("supply", "thing", "any"):
            self.error(s.piece, "E202", f"expected a token to place, found {t}",
                       hint="e.g. `place my relationship_token on X`")
        tt = self.expr(s.target)
        if tt.tag == "thing" and tt.arg is not None:
            k = self.v.kinds.get(tt.arg)
            if k is not None and k.track is None and not k.holder:
                self.error(s.target, "E202", f"{tt} has no track and holds no tokens",
                           hint=f"declare `holder: true` (or a `track:`) on the kind `{tt.arg}` in ruleset.yaml"
                           if k.piece != "token" else None)
        elif tt.tag not in ("track", "any", "thing", "zone"):
            self.error(s.target, "E202", f"expected something to place on, found {tt}")

    def s_Announce(self, s: ast.Announce) -> None:
        info = self.v.events.get(s.event.name)
        self.announced.add(s.event.name)
        if info is None:
            self.error(s.event, "E205", f"unknown event `{s.event.name}`", hint=self.suggest(s.event.name, self.v.events))
            for a in s.args:
                self.expr(a.value)
            return
        given = {a.name for a in s.args}
        for a in s.args:
            want = info.params.get(a.name)
            at = self.expr(a.value)
            if want is None:
                self.error(a, "E205", f"event `{s.event.name}` has no parameter `{a.name}`",
                           hint=self.suggest(a.name, info.params))
            else:
                self.expect(a.value, at, want)
        missing = [p for p in info.params if p not in given]
        if missing:
            self.error(s, "E205", f"event `{s.event.name}` needs {', '.join(missing)}",
                       hint=f"write `announce {s.event.name} with " + ", ".join(f"{p} = ..." for p in info.params) + "`")

    def s_ChooseFrom(self, s: ast.ChooseFrom) -> None:
        self.need_me(s, "a choice")
        self.amount(s.count)
        t = self.expr(s.collection)
        if t.tag == "zone":  # the pieces in a zone
            t = things()
        if not t.is_collection and t.tag != "any":
            self.error(s.collection, "E202", f"expected something to choose from, found {t}",
                       hint="e.g. `choose a card in my hand as C`, `choose an industry as X`")
            t = ANY
        if _never(s.collection):
            self.error(s.collection, "E208", "this choice has no options: its condition is never true")
        if isinstance(s.count, ast.Num) and s.count.value == 0:
            self.warn(s.count, "W301", "choosing 0 never does anything")
        single = isinstance(s.count, ast.Num) and s.count.value == 1 and s.mode == "exact"
        if t.tag == "table":  # choosing from a table picks one of its items
            t = things(t.arg)
        self.bind(s, s.var, t.element() if single else (t if t.tag != "any" else ANY))

    def s_ChooseNumber(self, s: ast.ChooseNumber) -> None:
        self.need_me(s, "a choice")
        self.amount(s.low)
        self.amount(s.high)
        if s.step is not None:
            self.amount(s.step)
            step = _literal(s.step)
            if step is not None and step <= 0:
                self.error(s.step, "E202", f"a step must be at least 1, not {step}",
                           hint="numbers are offered from N up to M in steps of S: write `step 1` or more")
        if s.condition is not None:
            self.numbers_where(s.condition)
        self.bind(s, s.var, AMOUNT)

    def s_Perform(self, s: ast.Perform) -> None:
        self.need_me(s, "an action menu")
        for n in s.actions:
            self.action_or_menu(n)

    def action_or_menu(self, n: ast.Name) -> None:
        """An action, or a menu standing for the actions that join it (E206 for neither)."""
        if n.name not in self.v.actions and n.name not in self.v.menus:
            self.error(n, "E206", f"unknown action `{n.name}`",
                       hint=self.suggest(n.name, list(self.v.actions) + list(self.v.menus)))

    def s_Play(self, s: ast.Play) -> None:
        t = self.expr(s.what)
        if t.tag not in ("thing", "effect", "any"):
            self.error(s.what, "E202", f"`play` runs a piece's effect or an effect attribute, found {t}",
                       hint="e.g. `play C`, `play my character's special_action`")

    def s_Run(self, s: ast.Run) -> None:
        name = s.name.name
        info = self.v.procedures.get(name)
        self.calls.add(name)
        if info is None:
            hint = self.suggest(name, self.v.procedures)
            if name in self.v.definitions:
                hint = f"`{name}` is a definition (a value), not a procedure; use it in an expression"
            self.error(s.name, "E218", f"unknown procedure `{name}`", hint=hint)
            for a in s.args:
                self.expr(a)
            return
        self.record(s.name, T("none"), r.Procedure(name))
        if info.needs_me:
            self.need_me(s, f"`{name}` (it acts for a player)")
        self.announced.update(info.announces)
        if self.arity(s, s.args, [p for p, _ in info.params]):
            for a, (_, pt) in zip(s.args, info.params):
                self.expect(a, self.expr(a), pt)
        else:
            for a in s.args:
                self.expr(a)

    def s_SortTurnOrder(self, s: ast.SortTurnOrder) -> None:
        self._it.append(PLAYER)
        self.amount(s.key)
        self._it.pop()

    def _flow_only(self, s: ast.Stmt, what: str) -> None:
        if not self._flow:
            self.error(s, "E214", f"`{what}` belongs to a ruleset's game procedure, not to content")

    def s_BeginFinalRound(self, s: ast.BeginFinalRound) -> None:
        self._flow_only(s, "begin final round")

    def s_StopTurns(self, s: ast.StopTurns) -> None:
        self._flow_only(s, "stop taking turns")

    def s_TakeTurns(self, s: ast.TakeTurns) -> None:
        self._flow_only(s, "take turns")
        if s.until is not None:
            self.condition(s.until)
        saved, self._no_me = self._no_me, False  # each turn runs for the player whose turn it is
        self._provided += 1
        self.block(s.body)
        self._provided -= 1
        self._no_me = saved

    def s_TimedModifier(self, s: ast.TimedModifier) -> None:
        if s.until.name not in self.v.events:
            self.error(s.until, "E205", f"unknown event `{s.until.name}`", hint=self.suggest(s.until.name, self.v.events))
        q = self.v.quantities.get(s.modifier.quantity.name)
        if s.modifier.scope is None and q is not None and q.per == "player":
            self.need_me(s, "a modifier for you")
        self.modifier(s.modifier)

    def s_Log(self, s: ast.Log) -> None:
        """`log "{me} plays {C} for {my gold} gold"`: each `{...}` is an expression, shown
        by name in the game log."""
        self.text_parts(s, s.text, 5)  # `log "` comes before the text

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
        if _never(e):
            self.warn(e, "W302", "this condition is never true, so what it guards never applies")

    def s_If(self, s: ast.If) -> None:
        for br in s.branches:
            self.condition(br.condition)
            self.block(br.body)
        if s.otherwise is not None:
            self.block(s.otherwise)

    def s_ChooseOne(self, s: ast.ChooseOne) -> None:
        self.need_me(s, "a choice")
        labels: set[str] = set()
        live = 0
        for opt in s.options:
            if opt.label in labels:
                self.error(opt, "E215", f"two options are labelled \"{opt.label}\"")
            labels.add(opt.label)
            if opt.condition is not None:
                self.condition(opt.condition)
            if opt.condition is None or not _never(opt.condition):
                live += 1
            self.text_parts(opt, opt.label, 1)  # `"raise {X}":` shows the industry
            self.block(opt.body)
        if live == 0:
            self.error(s, "E208", "this choice has no options: every option's condition is never true")

    def s_May(self, s: ast.May) -> None:
        self.need_me(s, "`may`")
        if s.prompt is not None:
            self.text_parts(s, s.prompt, 5)  # `may "pay {X} gold"`: the prompt shows the value
        self.block(s.body)

    def s_ForEach(self, s: ast.ForEach) -> None:
        t = self.expr(s.collection)
        if t.tag == "zone":
            t = things()
        if not t.is_collection and t.tag != "any":
            self.error(s.collection, "E202", f"`for each` needs a collection, found {t}",
                       hint="e.g. `for each P in opponents:`")
            t = ANY
        self._scopes.append({})
        self.bind(s, s.var, t.element())
        self.block(s.body)
        self._scopes.pop()

    def s_AsPlayer(self, s: ast.AsPlayer) -> None:
        self.expect(s.player, self.expr(s.player), PLAYER)
        saved, self._no_me = self._no_me, False  # inside, a player acts: P
        self._provided += 1
        self.block(s.body)
        self._provided -= 1
        self._no_me = saved

    def s_Repeat(self, s: ast.Repeat) -> None:
        self.amount(s.count)
        if isinstance(s.count, ast.Num) and s.count.value == 0:
            self.warn(s.count, "W301", "repeating 0 times never does anything")
        self.block(s.body)

    # ------------------------------------------------------------------ expressions
    def expr(self, e: ast.Expr) -> T:
        done = self._typed.get(id(e))
        if done is not None:  # checked already (a builtin's argument): report its problems once
            return done
        method = getattr(self, "e_" + type(e).__name__, None)
        if method is None:
            self.error(e, "E299", f"expression {type(e).__name__} is not supported here")
            return self.record(e, ANY, r.UNKNOWN)
        t = method(e)
        self._typed[id(e)] = t
        return self.record(e, t)

    def e_Num(self, e: ast.Num) -> T:
        return AMOUNT

    def e_Era(self, e: ast.Era) -> T:
        if self.v.eras == 0:
            self.error(e, "E209", "this ruleset has no eras, so `a/b/c` values do not apply",
                       hint="write a single number; for division write `X divided by Y`")
        elif len(e.values) != self.v.eras:
            self.error(e, "E209", f"an era value needs {self.v.eras} parts, one per era; found {len(e.values)}",
                       hint="for division write `X divided by Y`")
        return AMOUNT

    def e_Percent(self, e: ast.Percent) -> T:
        return PERCENT

    def e_Text(self, e: ast.Text) -> T:
        return TEXT

    def e_Bool(self, e: ast.Bool) -> T:
        return FLAG

    def e_This(self, e: ast.This) -> T:
        if self._this is None:
            self.error(e, "E213", "`this` means the content item itself; there is none here")
            return ANY
        return self._this

    def e_It(self, e: ast.It) -> T:
        if not self._it:
            self.error(e, "E213", "`it`/`its` only has a meaning inside `where` (the candidate)")
            return ANY
        return self._it[-1]

    def e_Name(self, e: ast.Name) -> T:  # noqa: C901 - one branch per table of the vocabulary
        n = e.name
        local = self.lookup(n)
        if local is not None:
            return self.record(e, local, r.Local(n))
        v = self.v
        if n in BUILTIN_NAMES:
            b = BUILTINS[n]
            if b.needs_me:
                self.need_me(e, f"`{n}`")
            return self.record(e, b.check(self, e, []), r.BuiltinName(n))
        if n in v.counters:
            info = v.counters[n]
            if info.scope == "game":
                return self.record(e, AMOUNT, r.GameCounter(n))
            self.need_me(e, f"`{n}` on its own (your {n})")
            return self.record(e, AMOUNT, r.PlayerCounter(n))
        if n in v.values and n not in v.kinds:  # `character` alone is the kind; `my character` the value
            val = v.values[n]
            if val.scope == "game":
                return self.record(e, val.type, r.GameValue(n))
            self.need_me(e, f"`{n}` on its own (your {n})")
            return self.record(e, val.type, r.PlayerValue(n))
        if n in v.zones:
            info_z = v.zones[n]
            if info_z.scope != "game":
                self.need_me(e, f"`{n}` on its own (your {n})")
                return self.record(e, ZONE, r.PlayerZone(n))
            return self.record(e, ZONE, r.GameZone(n))
        enum = v.symbol_enum(n)
        if enum is not None:
            return self.record(e, T("symbol", enum), r.Symbol(n))
        if n in v.enums:
            return self.record(e, T("symbols", n), r.Enum(n))
        if n in v.counter_sets:
            return self.record(e, T("counters", n), r.CounterSet(n))
        if n in v.options:
            return self.record(e, v.options[n], r.Option(n))
        if n in v.quantities:
            q = v.quantities[n]
            if q.subject is not None:
                self.error(e, "E202", f"`{n}` is asked of one {q.subject}", hint=f"write `{n} of X`")
            elif q.per == "player":
                self.need_me(e, f"`{n}` on its own (your {n})")
            return self.record(e, q.type, r.Quantity(n, None, True))
        known, kind = v.kind_of_word(n)
        if known and kind is not None:
            return self.record(e, things(kind), r.KindAll(kind))
        if n in v.content:
            k = v.content[n]
            info_k = v.kinds.get(k)
            if info_k is not None and info_k.piece == "board":
                return self.record(e, thing(k), r.BoardItem(n))
            return self.record(e, T("def", k), r.CardDef(n))
        if n in v.definitions:
            d = v.definitions[n]
            self.calls.add(n)
            if d.params:
                self.error(e, "E212", f"`{n}` takes {len(d.params)} argument(s) "
                           f"({', '.join(p for p, _ in d.params)})", hint=f"write `{n}(...)`")
            if d.needs_me:
                self.need_me(e, f"`{n}` (it is asked of the acting player)")
            return self.record(e, self._definition_type(n), r.Definition(n))
        if n in v.actions:
            return self.record(e, ACTION, r.Action(n))
        names = list(v.all_names()) + list(BUILTIN_NAMES) + [k for s in self._scopes for k in s]
        hint = self.suggest(n, names)
        if n in v.procedures:
            hint = f"`{n}` is a procedure: run it on its own line, `{n}(...)`"
        self.error(e, "E201", f"unknown name `{n}`", hint=hint)
        return self.record(e, ANY, r.UNKNOWN)

    def _definition_type(self, name: str) -> T:
        t = self.v.definitions[name].type
        return t if t is not None else ANY

    def e_Of(self, e: ast.Of) -> T:
        n = e.name
        v = self.v
        st = self.expr(e.subject)
        span = e.name_span
        b = BUILTINS.get(n)
        if b is not None and b.form == "of" and not self._is_attribute(st, n):
            t = b.check(self, e, [e.subject])
            return self.record(e, t, r.BuiltinOf(n))
        if st.tag == "any":
            return self.record(e, ANY, r.UNKNOWN)
        local = self.lookup(n)
        if local is not None and local.tag == "counter" and st.tag == "player":  # `my R`, R a counter
            holder = ast.Name(n, span=span)
            self.res.keep.append(holder)
            self.record(holder, local, r.Local(n))
            return self.record(e, AMOUNT, r.CounterOf(holder, e.subject))
        if st.tag in ("player", "players"):
            plural = st.tag == "players"
            if n in v.zones and v.zones[n].scope == "player":
                return self.record(e, ZONES if plural else ZONE, r.PlayerZone(n, e.subject, plural))
            if plural:
                self.error(e, "E202", f"`{n}` of several players is not one thing",
                           hint=f"use `for each P in ...:`, `count of` or `total {n} of ...`", span=span)
                return self.record(e, ANY, r.UNKNOWN)
            if n in v.counters and v.counters[n].scope == "player":
                return self.record(e, AMOUNT, r.PlayerCounter(n, e.subject))
            if n in v.values and v.values[n].scope == "player":
                return self.record(e, v.values[n].type, r.PlayerValue(n, e.subject))
            if n in v.quantities and v.quantities[n].per == "player" and v.quantities[n].subject is None:
                return self.record(e, v.quantities[n].type, r.Quantity(n, e.subject, True))
            if n in v.kinds and v.kinds[n].piece == "token":
                return self.record(e, T("supply", n), r.Supply(n, e.subject))
            cands = [k for k, c in v.counters.items() if c.scope == "player"] + \
                    [k for k, z in v.zones.items() if z.scope == "player"] + \
                    [k for k, x in v.values.items() if x.scope == "player"] + \
                    [k for k, q in v.kinds.items() if q.piece == "token"]
            self.error(e, "E203", f"a player has no `{n}`", hint=self.suggest(n, cands), span=span)
            return self.record(e, ANY, r.UNKNOWN)
        if st.tag in ("thing", "def"):
            t, ref = self.member(st, n, e, span)
            if ref is r.UNKNOWN:
                return self.record(e, ANY, r.UNKNOWN)
            if isinstance(ref, r.Quantity):
                ref = r.Quantity(n, e.subject, False)
            return self.record(e, t, ref)
        self.error(e, "E203", f"{st} has no `{n}`", span=span)
        return self.record(e, ANY, r.UNKNOWN)

    def _is_attribute(self, st: T, n: str) -> bool:
        return st.tag in ("thing", "def") and bool(st.arg) and n in self.v.kinds.get(st.arg or "", _NOKIND).attributes

    def member(self, st: T, n: str, node: ast.Node, span: ast.Span | None) -> tuple[T, r.Ref]:
        """What NAME means asked of an item of type `st`: an attribute, a counter, a quantity."""
        v = self.v
        kind = v.kinds.get(st.arg) if st.arg else None
        if kind is None:  # a piece of any kind (`card in ...`): some kind must have it
            typed = [k.attributes[n] for k in v.kinds.values() if n in k.attributes]
            if typed:
                same = all(t == typed[0] for t in typed)
                return (typed[0] if same else ANY), r.Attribute(n)
            if st.tag == "thing" and any(n in k.counters for k in v.kinds.values()):
                return AMOUNT, r.ItemCounter(n)
            slots = [k.values[n].type for k in v.kinds.values() if n in k.values]
            if st.tag == "thing" and slots:
                return (slots[0] if all(t == slots[0] for t in slots) else ANY), r.ItemValue(n)
            cands = sorted({a for k in v.kinds.values() for a in (*k.attributes, *k.counters, *k.values)})
            self.error(node, "E203", f"no kind of piece has `{n}`", hint=self.suggest(n, cands), span=span)
            return ANY, r.UNKNOWN
        if n in kind.attributes:
            return kind.attributes[n], r.Attribute(n)
        if st.tag == "thing" and n in kind.counters:
            return AMOUNT, r.ItemCounter(n)
        if st.tag == "thing" and n in kind.values:
            return kind.values[n].type, r.ItemValue(n)
        if st.tag == "thing" and n in v.quantities and v.quantities[n].subject == st.arg:
            return v.quantities[n].type, r.Quantity(n, None, False)
        if st.tag == "def" and (n in kind.counters or n in kind.values):
            self.error(node, "E203", f"each {st.arg} has its own `{n}`: a card named in source stands for all "
                       "its copies", hint="choose one of its copies (`top of (cards in ZONE where it is X)`)",
                       span=span)
            return ANY, r.UNKNOWN
        cands = list(kind.attributes) + list(kind.counters) + list(kind.values) + \
            [b for b, x in BUILTINS.items() if x.form == "of"]
        self.error(node, "E203", f"{thing(st.arg)} has no `{n}`", hint=self.suggest(n, cands), span=span)
        return ANY, r.UNKNOWN

    def holds(self, e: ast.Expr, t: T, what: str) -> None:
        """`e` (of type `t`, a piece) must be something that holds pieces (E202)."""
        kind = self.v.kinds.get(t.arg) if t.tag == "thing" and t.arg else None
        if kind is not None and not kind.holder and not kind.track:
            self.error(e, "E202", f"{t} holds nothing, so {what}",
                       hint=f"declare `holder: true` on the kind `{t.arg}` in ruleset.yaml" if kind.piece != "token"
                       else "a token holds nothing: name a zone or a piece of a kind that is a holder")

    def e_Empty(self, e: ast.Empty) -> T:
        t = self.expr(e.subject)
        if t.tag not in ("thing", "zone", "track", "any") and not t.is_collection:
            self.error(e.subject, "E202", f"only a zone, a holder or a collection can be empty, not {t}")
        self.holds(e.subject, t, "it is never anything but empty")
        return FLAG

    def e_Has(self, e: ast.Has) -> T:
        t = self.expr(e.subject)
        if t.tag in ("thing", "def"):
            self.member(t, e.attribute, e, e.name_span)
        elif t.tag != "any":
            self.error(e.subject, "E202", f"only an item has attributes, not {t}")
        return FLAG

    def _counter_literal(self, e: ast.Expr, other: T) -> T | None:
        """`R is dye`: beside a counter held in a name, a counter's name is that counter."""
        if other.tag == "counter" and isinstance(e, ast.Name) and e.name in self.v.counters \
                and self.lookup(e.name) is None:
            if other.arg and e.name not in self.v.counter_sets.get(other.arg, ()):
                self.error(e, "E202", f"`{e.name}` is not one of the {other.arg} counters")
            self._typed[id(e)] = T("counter", other.arg)
            return self.record(e, T("counter", other.arg), r.Symbol(e.name))
        return None

    def e_Compare(self, e: ast.Compare) -> T:
        if e.op in ("=", "!=") and isinstance(e.left, ast.Name) and e.left.name in self.v.counters:
            rt = self.expr(e.right)
            lt = self._counter_literal(e.left, rt) or self.expr(e.left)
        else:
            lt = self.expr(e.left)
            rt = (self._counter_literal(e.right, lt) if e.op in ("=", "!=") else None) or self.expr(e.right)
        if e.op == "in":
            if not rt.is_collection and rt.tag not in ("zone", "zones", "any"):
                self.error(e.right, "E202", f"`is in` needs a collection or a zone, found {rt}")
            return FLAG
        if e.op in ("=", "!="):
            if {lt.tag, rt.tag} == {"thing", "def"}:
                return FLAG
            if not (fits(lt, rt) or fits(rt, lt)):
                self.error(e, "E202", f"cannot compare {lt} with {rt}")
            return FLAG
        self.expect(e.left, lt, AMOUNT)
        self.expect(e.right, rt, AMOUNT)
        return FLAG

    def e_BoolOp(self, e: ast.BoolOp) -> T:
        self.expect(e.left, self.expr(e.left), FLAG)
        self.expect(e.right, self.expr(e.right), FLAG)
        return FLAG

    def e_Not(self, e: ast.Not) -> T:
        self.expect(e.operand, self.expr(e.operand), FLAG)
        return FLAG

    def e_Arith(self, e: ast.Arith) -> T:
        lt = self.expr(e.left)
        rt = self.expr(e.right)
        if e.op in ("+", "-"):
            self._kind_before_select(e)
        if e.op == "+" and (lt.is_collection or rt.is_collection):  # joining two collections
            if lt.tag == rt.tag and lt.arg != rt.arg and lt.tag == "things":
                return things()  # pieces of two kinds: pieces
            if not (fits(lt, rt) or fits(rt, lt)) or not (lt.is_collection or lt.tag == "any") \
                    or not (rt.is_collection or rt.tag == "any"):
                self.error(e, "E202", f"cannot join {lt} and {rt}", hint="`A + B` joins two collections of one kind")
                return ANY
            return lt if lt.tag not in ("any", "empty") else rt
        self.expect(e.left, lt, AMOUNT)
        if e.op == "*" and rt.tag == "percent":
            return AMOUNT
        self.expect(e.right, rt, AMOUNT)
        return AMOUNT

    def _kind_before_select(self, e: ast.Arith) -> None:
        """`A + B in X` is `A + (B in X)`: `KIND in X` binds tighter than `+` (it is one
        atom, as in `count of cards in my hand`). After a bare kind (`minor_tokens +
        major_tokens in X`) a reader takes it for `(A + B) in X`, every A in the game
        joined: E221 unless the `B in X` is in parentheses."""
        right, left = e.right, e.left
        if not isinstance(right, ast.Select) or e.span is None or right.span is None:
            return
        if (e.span.end_line, e.span.end_column) != (right.span.end_line, right.span.end_column):
            return  # `A + (B in X)`: written as meant
        while isinstance(left, ast.Arith) and left.op in ("+", "-"):
            left = left.right  # `A + B + C in X`: the word just before
        if not isinstance(left, ast.Name) or not self.v.kind_of_word(left.name)[0] or self.lookup(left.name) is not None:
            return
        src = printer.print_expr(right.source)
        kind = self.v.kind_of_word(left.name)[1]
        info = self.v.kinds.get(kind) if kind else None
        every = (info.label if info and info.label else kind or left.name.rstrip("s")).replace("_", " ")
        self.error(e, "E221", f"`{left.name} {e.op} {right.word} in {src}` reads as `{left.name} {e.op} ({right.word} "
                   f"in {src})`: every {every} of the game, not only those in {src}",
                   hint=f"for both in {src} write `({left.name} in {src}) {e.op} ({right.word} in {src})`; "
                   f"for every {every}, write `{left.name} {e.op} ({right.word} in {src})`")

    def e_Div(self, e: ast.Div) -> T:
        self.amount(e.left)
        self.amount(e.right)
        if isinstance(e.right, ast.Num) and e.right.value == 0:
            self.error(e.right, "E202", "division by zero")
        return AMOUNT

    def e_Neg(self, e: ast.Neg) -> T:
        self.amount(e.operand)
        return AMOUNT

    def e_Cond(self, e: ast.Cond) -> T:
        self.expect(e.condition, self.expr(e.condition), FLAG)
        yt = self.expr(e.yes)
        nt = self.expr(e.no)
        if not (fits(yt, nt) or fits(nt, yt)):
            self.error(e, "E202", f"the two values of `if ... else` differ: {yt} and {nt}")
            return ANY
        return yt if yt.tag not in ("any", "empty") else nt

    def e_Where(self, e: ast.Where) -> T:
        t = self.expr(e.collection)
        if t.tag == "zone":
            t = things()
        if not t.is_collection and t.tag != "any":
            self.error(e.collection, "E202", f"`where` filters a collection, found {t}",
                       hint="put the collection first: `cards in my hand where its type is X`; "
                            "use parentheses inside `count of (...)`")
            t = ANY
        self._it.append(t.element() if t.tag != "any" else ANY)
        self.expect(e.condition, self.expr(e.condition), FLAG)
        self._it.pop()
        return t

    def e_Ordered(self, e: ast.Ordered) -> T:
        t = self.expr(e.collection)
        if not t.is_collection and t.tag != "any":
            self.error(e.collection, "E202", f"`ordered by` sorts a collection, found {t}")
            t = ANY
        self._it.append(t.element() if t.tag != "any" else ANY)
        self.amount(e.key)
        self._it.pop()
        return t

    def e_Select(self, e: ast.Select) -> T:
        st = self.expr(e.source)
        known, kind = self.v.kind_of_word(e.word)
        if st.tag in ("symbols", "counters"):
            return st
        if e.word in self.v.enums and st.tag == "any":
            return T("symbols", e.word)
        if not known:
            self.error(e, "E201", f"unknown kind `{e.word}`",
                       hint=self.suggest(e.word, list(self.v.kinds) + ["cards", "tokens"]), span=e.name_span)
        if st.tag in ("things", "table"):
            return self.record(e, things(kind), self._select_from_items(e, kind, st.arg))
        if st.tag in ("zone", "zones", "track", "thing", "any"):
            self.holds(e.source, st, "there is nothing on it to select")
            self.record(e, things(kind), r.Selection(kind))
            return things(kind)
        self.error(e.source, "E202", f"expected a zone, a holder or items to select from, found {st}")
        return things(kind)

    def _select_from_items(self, e: ast.Select, kind: str | None, held: str | None) -> r.Selection:
        """`KIND in ITEMS` (a collection of items, not a zone): the members of the kind, or
        the pieces on those items when they hold pieces of another kind (the tokens on a
        track or a holder): `relationship_tokens in my character's hostile`. Items that
        hold none give no tokens: E202, never a count of the items themselves."""
        cls = GENERIC_CLASS.get(e.word) if kind is None else None
        if held is None:  # pieces of unknown kinds: decided member by member at run time
            wanted = self.v.kinds.get(kind) if kind else None
            token = cls == "token" or (wanted is not None and wanted.piece == "token")
            return r.Selection(kind, "either" if token else "", cls)
        info = self.v.kinds.get(held)
        holds = info is not None and (info.track is not None or info.holder)
        plural = (info.plural if info and info.plural else held).replace("_", " ")
        if kind == held:
            return r.Selection(kind)
        if holds:
            return r.Selection(kind, "on", cls)
        if kind is not None:
            self.error(e, "E202", f"these are {held} pieces, not {kind} pieces, and they hold none",
                       span=e.name_span, hint=f"{plural} have no track and are no holder: nothing is on them; "
                       f"to keep some of them write `{e.word} where ...`" if info else None)
        elif cls is not None and info is not None and info.piece != cls:
            self.error(e, "E202", f"`{e.word} in` {plural}: {plural} hold no {cls}s (they have no track and are "
                       f"no holder), so this would be the {plural} themselves", span=e.name_span,
                       hint=f"write `{plural} where ...` for some of them, or name what is on them "
                       f"(a holder or a track holds tokens)")
        return r.Selection(kind, "", cls)

    def e_Top(self, e: ast.Top) -> T:
        if e.count is not None:
            self.amount(e.count)
        st = self.expr(e.source)
        if st.is_collection:  # the first (top) or last (bottom) members of a collection
            if self._from_zones(e.source):  # a pile: its top is the zone's top
                self.res.refs[id(e)] = r.PileEnd()
            return st if e.count is not None else st.element()
        if st.tag not in ("zone", "any"):
            self.error(e.source, "E202", f"`{e.end} of` needs a zone or a collection, found {st}")
        return things() if e.count is not None else thing()

    def _from_zones(self, e: ast.Expr) -> bool:
        """Whether a collection is pieces taken from zones in their zones' order (a
        selection, filtered or not): `top of` it reads from the top, as of a zone."""
        while isinstance(e, ast.Where):
            e = e.collection
        if not isinstance(e, ast.Select):
            return False
        source = self.res.types.get(id(e.source))
        if source is not None and source.tag in ("zone", "zones"):
            return True
        return source is not None and source.tag == "things" and self._from_zones(e.source)

    def e_Entry(self, e: ast.Entry) -> T:
        st = self.expr(e.source)
        it = self.expr(e.index)
        if st.tag == "table":
            if not (it.tag == "def" and it.arg in (None, st.arg)):  # a card's name stands for any of its copies
                self.expect(e.index, it, thing(st.arg))
            return AMOUNT
        if st.is_collection:
            self.expect(e.index, it, AMOUNT)
            return st.element()
        if st.tag != "any":
            self.error(e.source, "E202", f"`entry N of` reads a list or a table, found {st}")
        return ANY

    def e_SpaceOf(self, e: ast.SpaceOf) -> T:
        self.amount(e.index)
        self.track(e.track)
        return ZONE

    def _builtin_of(self, subject: T, name: str) -> bool:
        b = BUILTINS.get(name)
        return b is not None and b.form == "of" and not self._is_attribute(subject, name)

    def e_Aggregate(self, e: ast.Aggregate) -> T:
        ct = self.expr(e.collection)
        if ct.tag == "any":
            return AMOUNT
        if not ct.is_collection:
            self.error(e.collection, "E202", f"`{e.fn} {e.name} of` needs a collection, found {ct}")
            return AMOUNT
        el = ct.element()
        ref: r.Ref
        if self._aggregates_definition(el, e.name):
            # `total worth of C`: a definition of one parameter, asked of every member
            probe = ast.Call(e.name, (ast.It(span=e.span),), span=e.name_span or e.span)
            self.res.keep.append(probe)
            self._it.append(el)
            t = self.e_Call(probe)
            self._it.pop()
            ref = r.Definition(e.name)
        elif el.tag == "player":
            if e.name in self.v.counters and self.v.counters[e.name].scope == "player":
                t, ref = AMOUNT, r.PlayerCounter(e.name)
            elif e.name in self.v.quantities and self.v.quantities[e.name].per == "player" \
                    and self.v.quantities[e.name].subject is None:
                t, ref = self.v.quantities[e.name].type, r.Quantity(e.name, None, True)
            else:
                self.error(e, "E203", f"a player has no counter `{e.name}`",
                           hint=self.suggest(e.name, [k for k, c in self.v.counters.items() if c.scope == "player"]),
                           span=e.name_span)
                return AMOUNT
        elif el.tag in ("thing", "def") and self._builtin_of(el, e.name):
            # `total position of (tokens)`: a one-argument builtin read for each piece
            probe = ast.Of(e.name, ast.It(span=e.span), span=e.span)
            self._it.append(el)
            t = BUILTINS[e.name].check(self, probe, [probe.subject])
            self._it.pop()
            ref = r.BuiltinOf(e.name)
        elif el.tag in ("thing", "def"):
            t, ref = self.member(el, e.name, e, e.name_span)
            if ref is r.UNKNOWN:
                return AMOUNT
        else:
            self.error(e.collection, "E202", f"`{e.fn} {e.name} of` needs items or players, found {ct}")
            return AMOUNT
        if t.tag not in ("amount", "any"):
            self.error(e, "E202", f"`{e.name}` is {t}, not an amount: it cannot be added up", span=e.name_span)
        self.res.refs[id(e)] = ref
        return AMOUNT

    def _aggregates_definition(self, el: T, name: str) -> bool:
        """Whether `total NAME of C` (C's members of type `el`) asks a definition of each
        member: NAME is a definition and no counter, quantity, attribute or builtin of it."""
        if name not in self.v.definitions:
            return False
        if el.tag == "player":
            return name not in self.v.counters and name not in self.v.quantities
        return not self._is_attribute(el, name) and not self._builtin_of(el, name) and not (
            el.tag == "thing" and el.arg in self.v.kinds and name in self.v.kinds[el.arg].counters)

    def e_Relative(self, e: ast.Relative) -> T:
        self.expect(e.player, self.expr(e.player), PLAYER)
        if e.word == "players":
            return PLAYERS
        if e.word == "player" and e.relation in ("after", "before"):  # the next / previous, wrapping round
            return PLAYER
        written = "starting with" if e.relation == "starting" else e.relation
        if e.word == "player":
            self.error(e, "E202", "`player starting with P` is not one player",
                       hint="write `players starting with P` (everyone from P round), or `player after P` "
                            "(the next player, wrapping round)")
            return PLAYERS
        self.error(e, "E202", f"`{e.word} {written} P`: only players follow one another in turn order",
                   hint=f"write `players {written} P`" + (
                       " (the later players, not wrapping round) or `player after P` (the next player, wrapping "
                       "round)" if e.relation == "after" else " or `player before P` (the previous player, wrapping "
                       "round)" if e.relation == "before" else ""))
        return ANY

    def e_Call(self, e: ast.Call) -> T:
        n = e.name
        if n in self.v.definitions:
            d = self.v.definitions[n]
            self.calls.add(n)
            if d.needs_me:
                self.need_me(e, f"`{n}` (it is asked of the acting player)")
            if self.arity(e, e.args, [p for p, _ in d.params]):
                for a, (_, pt) in zip(e.args, d.params):
                    self.expect(a, self.expr(a), pt)
            else:
                for a in e.args:
                    self.expr(a)
            self.record(e, self._definition_type(n), r.Definition(n))
            return self._definition_type(n)
        b = BUILTINS.get(n)
        if b is not None and b.form == "call":
            self.res.refs[id(e)] = r.BuiltinName(n)
            return b.check(self, e, list(e.args))
        hint = self.suggest(n, list(self.v.definitions) + [x for x, y in BUILTINS.items() if y.form == "call"])
        if n in self.v.procedures:
            hint = f"`{n}` is a procedure (it does things): run it on its own line, not inside an expression"
        self.error(e, "E201", f"unknown function `{n}`", hint=hint)
        for a in e.args:
            self.expr(a)
        return ANY


    # ------------------------------------------------------------------ places joined by links; windows
    def place(self, e: ast.Expr) -> str | None:
        """A place (a board item of a kind that uses links): its kind, when known."""
        t = self.expr(e)
        if t.tag not in ("thing", "any"):
            self.error(e, "E202", f"expected a place, found {t}", hint="a place is a board item of a kind with `links:`")
            return None
        kind = self.v.kinds.get(t.arg or "")
        if kind is not None and not kind.links:
            self.error(e, "E202", f"{t} is no place: its kind uses no links",
                       hint=f"declare `links: [...]` on the kind `{t.arg}` in ruleset.yaml")
        return t.arg if kind is not None else None

    def via(self, node: ast.Node, kind: str | None, links: tuple[ast.Name, ...]) -> T:
        """The links a graph expression follows (those named, else every link of the place's
        kind), checked; the type of the places they reach."""
        known = self.v.links
        uses = self.v.kinds[kind].links if kind is not None else tuple(known)
        names: list[str] = []
        for n in links:
            if n.name not in known:
                self.error(n, "E201", f"unknown link kind `{n.name}`", hint=self.suggest(n.name, known)
                           or "link kinds are declared under `links:` in ruleset.yaml; for `or` between conditions, "
                              "put the places in parentheses")
            elif n.name not in uses:
                self.error(n, "E202", f"{thing(kind)} is joined by no `{n.name}` links",
                           hint=f"its kind's links: {', '.join(uses) or 'none'}")
            else:
                names.append(n.name)
        if not links:
            names = list(uses)
        if not known:
            self.error(node, "E202", "this ruleset declares no links between places",
                       hint="declare `links:` in ruleset.yaml and list each item's neighbours under `links:`")
        for name in names:
            if known[name].needs_me:
                self.need_me(node, f"a `{name}` link (its condition is asked of the acting player)")
        reached = {k for name in names for k in known[name].kinds} | ({kind} if kind else set())
        return thing(reached.pop() if len(reached) == 1 else None)

    def place_condition(self, e: ast.Expr, place: T) -> None:
        self._it.append(place)
        self.condition(e)
        self._it.pop()

    def e_Neighbours(self, e: ast.Neighbours) -> T:
        place = self.via(e, self.place(e.place), e.links)
        return things(place.arg)

    def e_Within(self, e: ast.Within) -> T:
        self.amount(e.steps)
        place = self.via(e, self.place(e.place), e.links)
        if e.through is not None:
            self.place_condition(e.through, place)
        known, kind = self.v.kind_of_word(e.word)
        if not known:
            self.error(e, "E201", f"unknown kind `{e.word}`", span=e.name_span,
                       hint=self.suggest(e.word, list(self.v.kinds) + ["places"]))
        elif kind is not None and not self.v.kinds[kind].links:
            self.error(e, "E202", f"a {kind} is no place: its kind uses no links", span=e.name_span)
        return things(kind or place.arg)

    def e_Distance(self, e: ast.Distance) -> T:
        origin = self.place(e.origin)
        self.place(e.dest)
        place = self.via(e, origin, e.links)
        if e.through is not None:
            self.place_condition(e.through, place)
        return AMOUNT

    def e_ConnectedGroup(self, e: ast.ConnectedGroup) -> T:
        place = self.via(e, self.place(e.place), e.links)
        self.place_condition(e.condition, place)
        return things(place.arg)

    def s_Offer(self, s: ast.Offer) -> None:
        for n in s.actions:
            self.action_or_menu(n)
        t = self.expr(s.players)
        if t.tag not in ("players", "player", "any"):
            self.error(s.players, "E202", f"a response window is offered to players, found {t}",
                       hint="e.g. `offer A to opponents`, `offer A to players after me`")

    # ------------------------------------------------------------------ general constructs
    # a list written out, modulo, "the same card as", numbers chosen where a condition
    # holds, a random pick, ending the game (the next/previous player is in e_Relative)
    def e_ListLiteral(self, e: ast.ListLiteral) -> T:
        typed = [(item, self.expr(item)) for item in e.items]
        known = [(item, t) for item, t in typed if t.tag != "any"]
        if not e.items:
            return T("empty")
        if not known:
            return ANY
        pieces = any(t.tag == "thing" for _, t in known)  # a card named beside pieces stands for its only copy
        element = thing(known[0][1].arg) if pieces and known[0][1].tag == "def" else known[0][1]
        for item, t in known[1:]:
            if pieces and t.tag == "def":
                t = thing(t.arg)
            if t.tag == element.tag and t.tag in ("thing", "def") and t.arg != element.arg:
                element = T(t.tag)  # pieces (or card names) of several kinds
            elif not (fits(t, element) and fits(element, t)):
                self.error(item, "E202", f"a list holds values of one type: this is {t}, the first is {element}",
                           hint="write a list of one kind of value: `[1, 3, 5]`, `[me, P]`, `[C, D]`")
                return ANY
            elif element.arg is None and t.arg is not None:
                element = t
        for item, t in known:
            if pieces and t.tag == "def":
                self.as_piece(item, t, None)
        listed = element.collection()
        if listed.tag == "any":
            self.error(e, "E202", f"a list cannot hold {element}",
                       hint="lists hold numbers, players, pieces, card names, symbols, counters, zones or effects")
            return ANY
        return listed

    def e_Modulo(self, e: ast.Modulo) -> T:
        self.amount(e.left)
        self.amount(e.right)
        divisor = _literal(e.right)
        if divisor is not None and divisor <= 0:
            self.error(e.right, "E202", f"modulo {divisor}: the remainder needs a divisor of at least 1",
                       hint="`A modulo B` is from 0 to B - 1, for B of 1 or more")
        return AMOUNT

    def e_SameCard(self, e: ast.SameCard) -> T:
        for side in (e.left, e.right):
            t = self.expr(side)
            if t.tag not in ("thing", "def", "any"):
                self.error(side, "E202", f"`is the same card as` compares pieces, found {t}",
                           hint="compare two pieces (`C is the same card as D`); for anything else write `A is B`")
        return FLAG

    def numbers_where(self, cond: ast.Expr) -> None:
        """The condition of `choose a number ... where`: `it` is each number."""
        self._it.append(AMOUNT)
        self.expect(cond, self.expr(cond), FLAG)
        self._it.pop()
        if _never(cond):
            self.error(cond, "E208", "this choice has no options: its condition is never true",
                       hint="`it` is each number: write a condition some number meets, e.g. `it modulo 2 is 0`")

    def s_PickRandom(self, s: ast.PickRandom) -> None:
        self.amount(s.count)  # chance, not a choice: no player needs to act
        t = self.expr(s.collection)
        if t.tag == "zone":  # the pieces in a zone
            t = things()
        elif t.tag == "table":  # picking from a table picks one of its items
            t = things(t.arg)
        if not t.is_collection and t.tag != "any":
            self.error(s.collection, "E202", f"expected something to pick from, found {t}",
                       hint="e.g. `pick at random a card in my hand as C`, `pick at random 2 players as P`")
            t = ANY
        if _never(s.collection):
            self.error(s.collection, "E208", "there is nothing to pick from: its condition is never true",
                       hint="fix the condition after `where`: as written, no member is ever kept")
        count = _literal(s.count)
        if count is not None and count <= 0:
            self.warn(s.count, "W301", f"picking {count} never picks anything")
        single = isinstance(s.count, ast.Num) and s.count.value == 1
        self.bind(s, s.var, t.element() if single else t)

    def s_EndGame(self, s: ast.EndGame) -> None:
        if s.winner is not None:
            self.expect(s.winner, self.expr(s.winner), PLAYER)
            if isinstance(s.winner, ast.Name) and s.winner.name == "nobody":
                self.error(s.winner, "E202", "nobody cannot win", hint="write `end the game` to let the ranking decide")
        if s.reason is not None:  # `because "{P} built five"`: its `{...}` parts show values, as in `log`
            self.text_parts(s, s.reason, 1, s.reason_span)


def _literal(e: ast.Expr) -> int | None:
    """The number an expression is when written as one (`3`, `-1`), else None."""
    if isinstance(e, ast.Num):
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.Num):
        return -e.operand.value
    return None


class _NoKind:
    attributes: dict[str, T] = {}


_NOKIND = _NoKind()


def _never(e: ast.Expr) -> bool:
    """A condition that is false whatever the game state (constant folding)."""
    if isinstance(e, ast.Bool):
        return not e.value
    if isinstance(e, ast.Where):
        return _never(e.condition)
    if isinstance(e, ast.Not):
        return isinstance(e.operand, ast.Bool) and e.operand.value
    if isinstance(e, ast.BoolOp):
        if e.op == "and":
            return _never(e.left) or _never(e.right)
        return _never(e.left) and _never(e.right)
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


def check(program: ast.Program, vocab: Vocabulary, ctx: Context | None = None,
          res: Resolution | None = None) -> tuple[list[Diagnostic], Resolution]:
    """Check one program; returns every diagnostic and the (shared) resolution table."""
    checker = Checker(vocab, res)
    diags = checker.check_program(program, ctx or Context())
    return diags, checker.res


# keep the checker's handled node kinds discoverable for the completeness test
HANDLED_EXPRESSIONS = frozenset(n[2:] for n in dir(Checker) if n.startswith("e_"))
HANDLED_STATEMENTS = frozenset(n[2:] for n in dir(Checker) if n.startswith("s_"))
