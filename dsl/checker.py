"""The static checker: a pass over a parsed effect, before anything runs, that
resolves every name against the ruleset's Vocabulary, infers every expression's type
and returns *every* problem as a Diagnostic (E2xx errors, W3xx warnings).

It also fills the side table the compiler reads (dsl/resolution.py): how each name,
`of` and selection was resolved, and each node's type. Statements whose operands
are declared with roles in dsl/constructs.py are checked generically; the others
have a method `s_<Node>` in one part of the checker. Expressions have a method
`e_<Node>`; builtins are checked by their registry entry.

The checker is parts that share one state, each a module with one job:
dsl/check/base.py (`CheckState`: reports, scopes, the expression dispatch, shared
operand checks), dsl/check/expressions.py (names, members, comparisons, arithmetic,
calls), dsl/check/collections.py (filters, selections, aggregates, lists),
dsl/check/places.py (places joined by links), dsl/check/statements.py (blocks, the
statement dispatch, roles, the statements that change things),
dsl/check/choices.py (choices, windows, random picks, who acts),
dsl/check/declarations.py (triggers, hooks, modifiers), and this module, which puts
them together (`Checker`: the entry points) and lists the node kinds they handle.
"""

from __future__ import annotations

from . import ast
from .check.base import BUILTIN_NAMES, RESERVED_PREFIX, CheckState, Context, handler_names
from .check.choices import ChoiceChecker
from .check.collections import CollectionChecker
from .check.declarations import DeclarationChecker
from .check.expressions import ExpressionChecker
from .check.places import PlaceChecker
from .check.statements import StatementChecker
from .diagnostics import Diagnostic
from .resolution import Resolution
from .types import T
from .vocabulary import Vocabulary

__all__ = ["Checker", "Context", "Resolution", "check", "BUILTIN_NAMES", "RESERVED_PREFIX"]


class Checker:
    """The whole checker: one per program (or shared by a ruleset's programs, with one
    resolution table). Its parts share one CheckState (`c`)."""

    def __init__(self, vocab: Vocabulary, res: Resolution | None = None):
        self.c = c = CheckState(vocab, res)
        expressions = ExpressionChecker(c)
        c.handle(expressions, CollectionChecker(c, expressions), PlaceChecker(c))
        self.statements = StatementChecker(c)
        self.declarations = DeclarationChecker(c, self.statements)
        self.statements.handle(ChoiceChecker(c, self.statements), self.declarations)

    @property
    def res(self) -> Resolution:
        return self.c.res

    @property
    def diags(self) -> list[Diagnostic]:
        return self.c.diags

    @property
    def used_me(self) -> bool:
        """The program needs a player to act (for definitions and procedures)."""
        return self.c.used_me

    @property
    def announced(self) -> set[str]:
        """Events the program announces (for the trigger-cycle analysis)."""
        return self.c.announced

    @property
    def calls(self) -> set[str]:
        """Procedures and definitions it uses."""
        return self.c.calls

    @property
    def played(self) -> set[str | None]:
        """The kinds whose effect its `play`s run (None: a piece of any kind)."""
        return self.c.played

    # ------------------------------------------------------------------ entry points
    def check_program(self, program: ast.Program, ctx: Context) -> list[Diagnostic]:
        c = self.c
        c.enter(ctx)
        c.res.keep.append(program)
        self.statements.plays_itself(program.statements)
        self.statements.block(program.statements)
        c.playing = None  # a trigger's `play this` runs the effect's statements, not the trigger: no loop
        for decl in program.declarations:
            if not ctx.allow_declarations:
                c.error(decl, "E214", "triggers and `while in play` belong on content items, not here",
                        hint="move it to a content item's effect")
            saved, c.no_me = c.no_me, ctx.owner_less or c.no_me
            self.declarations.declaration(decl)
            c.no_me = saved
        return c.diags

    def check_expression(self, expr: ast.Expr, ctx: Context, expected: T | None = None) -> T:
        c = self.c
        c.enter(ctx)
        c.res.keep.append(expr)
        t = c.expr(expr)
        if expected is not None:
            c.expect(expr, t, expected)
        return t

    def check_text(self, node: ast.Node, text: str, ctx: Context, lead: int = 0) -> list[Diagnostic]:
        """A label written outside an effect (an action's `label:`): its `{EXPR}` parts,
        checked with the names `ctx` binds, as a log line's are."""
        c = self.c
        c.enter(ctx)
        c.res.keep.append(node)
        c.text_parts(node, text, lead)
        return c.diags


def check(program: ast.Program, vocab: Vocabulary, ctx: Context | None = None,
          res: Resolution | None = None) -> tuple[list[Diagnostic], Resolution]:
    """Check one program; returns every diagnostic and the (shared) resolution table."""
    checker = Checker(vocab, res)
    diags = checker.check_program(program, ctx or Context())
    return diags, checker.res


def _handled(parts: tuple[type, ...], prefix: str) -> frozenset[str]:
    """The node kinds `parts` check, each by exactly one part."""
    names = [n[len(prefix):] for part in parts for n in handler_names(part, prefix)]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise TypeError(f"checked by two parts of the checker: {twice}")
    return frozenset(names)


# the parts that check expressions and statements (Checker.__init__ joins them); the
# node kinds they handle, discoverable for the completeness test
EXPRESSION_PARTS = (ExpressionChecker, CollectionChecker, PlaceChecker)
STATEMENT_PARTS = (StatementChecker, ChoiceChecker, DeclarationChecker)
HANDLED_EXPRESSIONS = _handled(EXPRESSION_PARTS, "e_")
HANDLED_STATEMENTS = _handled(STATEMENT_PARTS, "s_")
