"""The static checker: a pass over a parsed effect, before anything runs, that
resolves every name against the ruleset's Vocabulary, infers every expression's type
and returns *every* problem as a Diagnostic (E2xx errors, W3xx warnings).

It also fills the side table the compiler reads (dsl/resolution.py): how each name,
`of` and selection was resolved, and each node's type. Statements whose operands
are declared with roles in dsl/constructs.py are checked generically; the others
have a method `s_<Node>` here. Expressions have a method `e_<Node>`; builtins are
checked by their registry entry.

The checker is one class built in layers, each a module with one job:
dsl/check_base.py (reports, scopes, shared operand checks), dsl/check_expressions.py
(expressions), dsl/check_statements.py (statements and declarations), and this module
(the entry points, places joined by links and response windows, the general
constructs: lists written out, modulo, the same card, a random pick, ending the game).
"""

from __future__ import annotations

from . import ast
from .check_base import BUILTIN_NAMES, RESERVED_PREFIX, Context, literal_number, never_true
from .check_statements import StatementChecker
from .diagnostics import Diagnostic
from .resolution import Resolution
from .types import AMOUNT, ANY, FLAG, PLAYER, T, fits, thing, things
from .vocabulary import Vocabulary

__all__ = ["Checker", "Context", "Resolution", "check", "BUILTIN_NAMES", "RESERVED_PREFIX"]


class Checker(StatementChecker):
    """The whole checker: one per program (or shared by a ruleset's programs, with one
    resolution table)."""

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
        divisor = literal_number(e.right)
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
        if never_true(s.collection):
            self.error(s.collection, "E208", "there is nothing to pick from: its condition is never true",
                       hint="fix the condition after `where`: as written, no member is ever kept")
        count = literal_number(s.count)
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


def check(program: ast.Program, vocab: Vocabulary, ctx: Context | None = None,
          res: Resolution | None = None) -> tuple[list[Diagnostic], Resolution]:
    """Check one program; returns every diagnostic and the (shared) resolution table."""
    checker = Checker(vocab, res)
    diags = checker.check_program(program, ctx or Context())
    return diags, checker.res


# keep the checker's handled node kinds discoverable for the completeness test
HANDLED_EXPRESSIONS = frozenset(n[2:] for n in dir(Checker) if n.startswith("e_"))
HANDLED_STATEMENTS = frozenset(n[2:] for n in dir(Checker) if n.startswith("s_"))
