"""The checker's statements and declarations (dsl/checker.py is the whole checker):
a block and its scope, each statement's `s_<Node>` method (or the operands its
registry entry declares by role: amounts, counters, zones, pieces, counters that
change, tracks), the choices and their options, loops and the acting player, and the
declarations content items carry (triggers, `while in play`, modifiers of quantities).
"""

from __future__ import annotations

from typing import Callable

from . import ast
from . import resolution as r
from .check_base import literal_number, never_true
from .check_expressions import ExpressionChecker
from .constructs import CONSTRUCTS
from .types import AMOUNT, ANY, FLAG, PLAYER, PLAYERS, ZONE, ZONES, T, fits, thing, things


class StatementChecker(ExpressionChecker):
    def block(self, body: ast.Body, bindings: dict[str, T] | None = None) -> None:
        self._scopes.append(dict(bindings or {}))
        for stmt in body:
            self.stmt(stmt)
        self._scopes.pop()

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
                       hint="e.g. `dig for card in goods_deck where its good is R to my goods`")
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
                       hint="e.g. `place my marker on X`")
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
                       hint="e.g. `choose a card in my hand as C`, `choose a station as X`")
            t = ANY
        if never_true(s.collection):
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
            step = literal_number(s.step)
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
                       hint="e.g. `play C`, `play my character's ability`")

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
            if opt.condition is None or not never_true(opt.condition):
                live += 1
            self.text_parts(opt, opt.label, 1)  # `"raise {X}":` shows the station
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

    def numbers_where(self, cond: ast.Expr) -> None:
        """The condition of `choose a number ... where`: `it` is each number."""
        self._it.append(AMOUNT)
        self.expect(cond, self.expr(cond), FLAG)
        self._it.pop()
        if never_true(cond):
            self.error(cond, "E208", "this choice has no options: its condition is never true",
                       hint="`it` is each number: write a condition some number meets, e.g. `it modulo 2 is 0`")
