"""The checker's declarations (dsl/checker.py puts the checker together): what
content items carry beside their statements (triggers with their event's parameters
bound, hooks, `while in play` modifiers of quantities), and modifiers that last until
an event (`until EVENT: ...`).
"""

from __future__ import annotations

from .. import ast
from .base import CheckState
from .statements import StatementChecker
from ..types import AMOUNT, FLAG, PLAYER, PLAYERS, T, thing


class DeclarationChecker:
    """Triggers, hooks, modifiers; their bodies are blocks of `statements`."""

    __slots__ = ("c", "v", "statements")

    def __init__(self, c: CheckState, statements: StatementChecker):
        self.c = c
        self.v = c.v
        self.statements = statements

    def declaration(self, decl: ast.Node) -> None:
        if isinstance(decl, ast.Trigger):
            info = self.v.events.get(decl.event.name)
            params: dict[str, T] = {}
            if info is None:
                self.c.error(decl.event, "E205", f"unknown event `{decl.event.name}`",
                             hint=self.c.event_hint(decl.event.name))
            else:
                params = dict(info.params)
            self.c.scopes.append(params)
            self.c.events.append((decl.event.name, list(params) if info is not None else None))
            if decl.condition is not None:
                self.c.condition(decl.condition)
            self.statements.block(decl.body)
            self.c.events.pop()
            self.c.scopes.pop()
        elif isinstance(decl, ast.Hook):
            self.statements.block(decl.body)
        elif isinstance(decl, ast.Continuous):
            self.modifier(decl.modifier)

    def modifier(self, m: ast.Modifier) -> None:
        q = self.v.quantities.get(m.quantity.name)
        if q is None:
            self.c.error(m.quantity, "E201", f"unknown quantity `{m.quantity.name}`",
                         hint=self.c.suggest(m.quantity.name, self.v.quantities))
            return
        if m.subject is not None:
            st = self.c.expr(m.subject)
            if q.subject is None:
                self.c.error(m.subject, "E202", f"`{m.quantity.name}` is not asked of an item",
                             hint=f"write `{m.quantity.name} {m.op} ...` without `of`")
            else:
                self.c.expect(m.subject, st, thing(q.subject))
        if m.scope is not None:
            self.c.expect(m.scope, self.c.expr(m.scope), PLAYERS if self._is_plural(m.scope) else PLAYER)
        vt = self.c.expr(m.value)
        if q.type == FLAG:
            if m.op != "=":
                self.c.error(m, "E202", f"`{m.quantity.name}` is yes/no: only `= yes` or `= no` apply")
            self.c.expect(m.value, vt, FLAG)
        elif m.op == "*":
            if vt.tag not in ("percent", "any"):
                self.c.error(m.value, "E210", f"a modifier multiplies by a percentage, found {vt}",
                             hint="write e.g. `* 150%` (rounded up) or `* 200%`")
        else:
            self.c.expect(m.value, vt, AMOUNT)

    def _is_plural(self, e: ast.Expr) -> bool:
        return self.c.res.type(e).tag == "players"

    def s_TimedModifier(self, s: ast.TimedModifier) -> None:
        if s.until.name not in self.v.events:
            self.c.error(s.until, "E205", f"unknown event `{s.until.name}`",
                         hint=self.c.event_hint(s.until.name))
        q = self.v.quantities.get(s.modifier.quantity.name)
        if s.modifier.scope is None and q is not None and q.per == "player":
            self.c.need_me(s, "a modifier for you")
        self.modifier(s.modifier)
