"""The checker's choices and who acts (dsl/checker.py puts the checker together):
`choose` from a collection, a number or one of several options, `may`, action menus
and response windows, a random pick, an auction, and the statements that decide who
acts (`as P:`, `take turns:`, the game procedure's flow, the turn order).
"""

from __future__ import annotations

from .. import ast
from .base import CheckState, literal_number, never_true
from .statements import StatementChecker
from ..types import AMOUNT, ANY, FLAG, PLAYER, PLAYERS, things


class ChoiceChecker:
    """Choices, menus, windows, random picks, auctions and the acting player; their
    bodies are blocks of `statements`."""

    __slots__ = ("c", "v", "statements")

    def __init__(self, c: CheckState, statements: StatementChecker):
        self.c = c
        self.v = c.v
        self.statements = statements

    def s_ChooseFrom(self, s: ast.ChooseFrom) -> None:
        self.c.need_me(s, "a choice")
        self.c.amount(s.count)
        t = self.c.expr(s.collection)
        if t.tag == "zone":  # the pieces in a zone
            t = things()
        if not t.is_collection and t.tag != "any":
            self.c.error(s.collection, "E202", f"expected something to choose from, found {t}",
                         hint="e.g. `choose a card in my hand as C`, `choose a station as X`")
            t = ANY
        if never_true(s.collection):
            self.c.error(s.collection, "E208", "this choice has no options: its condition is never true")
        if isinstance(s.count, ast.Num) and s.count.value == 0:
            self.c.warn(s.count, "W301", "choosing 0 never does anything")
        single = isinstance(s.count, ast.Num) and s.count.value == 1 and s.mode == "exact"
        if t.tag == "table":  # choosing from a table picks one of its items
            t = things(t.arg)
        self.c.bind(s, s.var, t.element() if single else (t if t.tag != "any" else ANY))

    def s_ChooseNumber(self, s: ast.ChooseNumber) -> None:
        self.c.need_me(s, "a choice")
        self.c.amount(s.low)
        self.c.amount(s.high)
        if s.step is not None:
            self.c.amount(s.step)
            step = literal_number(s.step)
            if step is not None and step <= 0:
                self.c.error(s.step, "E202", f"a step must be at least 1, not {step}",
                             hint="numbers are offered from N up to M in steps of S: write `step 1` or more")
        if s.condition is not None:
            self.numbers_where(s.condition)
        self.c.bind(s, s.var, AMOUNT)

    def numbers_where(self, cond: ast.Expr) -> None:
        """The condition of `choose a number ... where`: `it` is each number."""
        self.c.it.append(AMOUNT)
        self.c.expect(cond, self.c.expr(cond), FLAG)
        self.c.it.pop()
        if never_true(cond):
            self.c.error(cond, "E208", "this choice has no options: its condition is never true",
                         hint="`it` is each number: write a condition some number meets, e.g. `it modulo 2 is 0`")

    def s_ChooseOne(self, s: ast.ChooseOne) -> None:
        self.c.need_me(s, "a choice")
        labels: set[str] = set()
        live = 0
        for opt in s.options:
            if opt.label in labels:
                self.c.error(opt, "E215", f"two options are labelled \"{opt.label}\"")
            labels.add(opt.label)
            if opt.condition is not None:
                self.c.condition(opt.condition)
            if opt.condition is None or not never_true(opt.condition):
                live += 1
            self.c.text_parts(opt, opt.label, 1)  # `"raise {X}":` shows the station
            self.statements.block(opt.body)
        if live == 0:
            self.c.error(s, "E208", "this choice has no options: every option's condition is never true")

    def s_May(self, s: ast.May) -> None:
        self.c.need_me(s, "`may`")
        if s.prompt is not None:
            self.c.text_parts(s, s.prompt, 5)  # `may "pay {X} gold"`: the prompt shows the value
        self.statements.block(s.body)

    def s_Perform(self, s: ast.Perform) -> None:
        self.c.need_me(s, "an action menu")
        for n in s.actions:
            self.action_or_menu(n)

    def action_or_menu(self, n: ast.Name) -> None:
        """An action, or a menu standing for the actions that join it (E206 for neither)."""
        if n.name not in self.v.actions and n.name not in self.v.menus:
            self.c.error(n, "E206", f"unknown action `{n.name}`",
                         hint=self.c.suggest(n.name, list(self.v.actions) + list(self.v.menus)))

    def s_Offer(self, s: ast.Offer) -> None:
        for n in s.actions:
            self.action_or_menu(n)
        t = self.c.expr(s.players)
        if t.tag not in ("players", "player", "any"):
            self.c.error(s.players, "E202", f"a response window is offered to players, found {t}",
                         hint="e.g. `offer A to opponents`, `offer A to players after me`")

    def s_PickRandom(self, s: ast.PickRandom) -> None:
        self.c.amount(s.count)  # chance, not a choice: no player needs to act
        t = self.c.expr(s.collection)
        if t.tag == "zone":  # the pieces in a zone
            t = things()
        elif t.tag == "table":  # picking from a table picks one of its items
            t = things(t.arg)
        if not t.is_collection and t.tag != "any":
            self.c.error(s.collection, "E202", f"expected something to pick from, found {t}",
                         hint="e.g. `pick at random a card in my hand as C`, `pick at random 2 players as P`")
            t = ANY
        if never_true(s.collection):
            self.c.error(s.collection, "E208", "there is nothing to pick from: its condition is never true",
                         hint="fix the condition after `where`: as written, no member is ever kept")
        count = literal_number(s.count)
        if count is not None and count <= 0:
            self.c.warn(s.count, "W301", f"picking {count} never picks anything")
        single = isinstance(s.count, ast.Num) and s.count.value == 1
        self.c.bind(s, s.var, t.element() if single else t)

    def s_Auction(self, s: ast.Auction) -> None:
        self.c.expect(s.bidders, self.c.expr(s.bidders), PLAYERS)
        self.statements.counter_name(s.counter)
        self.c.bind(s, s.winner, PLAYER)
        self.c.bind(s, s.amount, AMOUNT)

    def s_AsPlayer(self, s: ast.AsPlayer) -> None:
        self.c.expect(s.player, self.c.expr(s.player), PLAYER)
        self._acted(s.body)  # inside, a player acts: P

    def _acted(self, body: ast.Body) -> None:
        """A block run for a player whatever its caller (`as P:`, each turn of `take turns:`)."""
        saved, self.c.no_me = self.c.no_me, False
        self.c.provided += 1
        self.statements.block(body)
        self.c.provided -= 1
        self.c.no_me = saved

    def _flow_only(self, s: ast.Stmt, what: str) -> None:
        if not self.c.flow:
            self.c.error(s, "E214", f"`{what}` belongs to a ruleset's game procedure, not to content")

    def s_BeginFinalRound(self, s: ast.BeginFinalRound) -> None:
        self._flow_only(s, "begin final round")

    def s_StopTurns(self, s: ast.StopTurns) -> None:
        self._flow_only(s, "stop taking turns")

    def s_TakeTurns(self, s: ast.TakeTurns) -> None:
        self._flow_only(s, "take turns")
        if s.until is not None:
            self.c.condition(s.until)
        self._acted(s.body)  # each turn runs for the player whose turn it is

    def s_SortTurnOrder(self, s: ast.SortTurnOrder) -> None:
        self.c.it.append(PLAYER)
        self.c.amount(s.key)
        self.c.it.pop()
