"""The checker's statements (dsl/checker.py puts the checker together): a block and
its scope, the dispatch from a statement to the part whose `s_<Node>` method checks it
(or the operands its registry entry declares by role: amounts, counters, zones,
pieces, counters that change, tracks), and the statements that change things, run a
procedure, announce an event, log, branch, loop and end the game. Choices and who acts
are dsl/check/choices.py's; declarations dsl/check/declarations.py's.
"""

from __future__ import annotations

from typing import Callable

from .. import ast
from .. import resolution as r
from .base import CheckState, handler
from ..constructs import CONSTRUCTS
from ..types import AMOUNT, ANY, PLAYER, ZONE, ZONES, T, fits, thing, things


_OPPOSITE = {"gain": "lose", "lose": "gain", "pay": "gain"}
"""The statements whose negative amount is a mistake (W308), each with the one that says it."""


class StatementChecker:
    """Blocks, the statement dispatch, roles, and the statements of no other part."""

    __slots__ = ("c", "v", "parts", "statements")

    def __init__(self, c: CheckState):
        self.c = c
        self.v = c.v
        self.parts: tuple[object, ...] = (self,)  # the parts whose `s_<Node>` methods check statements
        self.statements: dict[str, Callable[[ast.Stmt], None] | None] = {}  # node class name -> its method, as met

    def block(self, body: ast.Body, bindings: dict[str, T] | None = None) -> None:
        self.c.scopes.append(dict(bindings or {}))
        for stmt in body:
            self.stmt(stmt)
        self.c.scopes.pop()

    def handle(self, *parts: object) -> None:
        """Check statements with the `s_<Node>` methods of `parts` too."""
        self.parts += parts

    def stmt(self, s: ast.Stmt) -> None:
        kind = type(s).__name__
        method = self.statements.get(kind)
        if method is None:
            method = self.statements[kind] = handler(self.parts, "s_" + kind)
        if method is not None:
            method(s)
            return
        spec = CONSTRUCTS.get(type(s))
        if spec is None or not spec.roles:
            self.c.error(s, "E299", f"statement {type(s).__name__} is not supported here")
            return
        for name, role in spec.roles.items():
            self.role(getattr(s, name), role, s)

    def role(self, value: object, role: str, s: ast.Stmt) -> None:
        """Check one operand of a statement against its declared role."""
        if role == "amount":
            assert isinstance(value, ast.Expr)
            self.c.amount(value)
            if isinstance(value, ast.Num) and value.value == 0:
                self.c.warn(value, "W301", "an amount of 0 never changes anything", hint="remove the statement")
            elif (isinstance(value, ast.Neg) and isinstance(value.operand, ast.Num) and value.operand.value > 0
                  and type(s).__name__.lower() in _OPPOSITE):
                # (a user's trial: `pay -5 X` gave 5 X, said by nothing; `advance T by -1`, a
                # track moved back, is meant and is not said)
                verb, n = type(s).__name__.lower(), value.operand.value
                self.c.warn(value, "W308", f"a negative amount turns `{verb}` round: `{verb} -{n}` does the opposite "
                            f"of `{verb} {n}`", hint=f"if that is meant, write `{_OPPOSITE[verb]} {n}`; else drop the minus")
        elif role == "player?":
            if value is None:
                self.c.need_me(s, f"`{type(s).__name__.lower()}` without `for PLAYER`")
            else:
                assert isinstance(value, ast.Expr)
                self.c.expect(value, self.c.expr(value), PLAYER)
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
            self.c.track(value)
        else:  # pragma: no cover - a registry mistake
            raise ValueError(f"unknown role {role!r}")

    def counter_name(self, n: ast.Name) -> None:
        """The counter of gain/lose/pay/auction: a player counter, or a name holding one."""
        local = self.c.lookup(n.name)
        if local is not None:
            self.c.record(n, local, r.Local(n.name))
            if local.tag not in ("counter", "any"):
                self.c.error(n, "E202", f"`{n.name}` is {local}, not a counter",
                             hint="`choose a resource as R` names a counter; then `gain 1 R`")
            return
        value = self.v.values.get(n.name)
        if value is not None and value.type.tag == "counter":
            ref: r.Ref = r.GameValue(n.name) if value.scope == "game" else r.PlayerValue(n.name)
            self.c.record(n, value.type, ref)
            if value.scope == "player":
                self.c.need_me(n, f"`{n.name}` on its own (your {n.name})")
            return
        info = self.v.counters.get(n.name)
        if info is None:
            self.c.error(n, "E201", f"unknown counter `{n.name}`", hint=self.c.suggest(n.name, self.v.counters))
        elif info.scope != "player":
            self.c.error(n, "E202", f"`{n.name}` is a game counter, not something a player has",
                         hint=f"use `raise {n.name} by N` / `lower {n.name} by N`")
        else:
            self.c.record(n, AMOUNT, r.PlayerCounter(n.name))

    def lvalue(self, e: ast.Expr) -> None:
        t = self.c.expr(e)
        ref = self.c.res.ref(e)
        if t.tag == "any":
            return  # already reported where it was resolved
        if not isinstance(ref, (r.PlayerCounter, r.GameCounter, r.ItemCounter, r.CounterOf)):
            self.c.error(e, "E204", "this is not a counter that can change",
                         hint="name a counter: `my gold`, `X's value`, a game counter")
        else:
            self.c.expect(e, t, AMOUNT)

    def pieces(self, e: ast.Expr) -> T:
        t = self.c.expr(e)
        if self.c.as_piece(e, t, None):
            return T("thing", t.arg)
        if t.tag not in ("thing", "things", "any"):
            hint = "a card named in source stands for all its copies: choose one of them" if t.tag == "def" else None
            self.c.error(e, "E202", f"expected pieces, found {t}", hint=hint)
        return t

    def zone(self, e: ast.Expr, plural_ok: bool = False) -> None:
        t = self.c.expr(e)
        want = (ZONE, ZONES) if plural_ok else (ZONE,)
        if not any(fits(t, w) for w in want):
            self.c.error(e, "E202", f"expected a zone, found {t}",
                         hint="name a zone: `my hand`, `hand of P`, a game zone, `space 2 of K`")

    def s_Let(self, s: ast.Let) -> None:
        t = self.c.expr(s.value)
        self.c.bind(s, s.var, t)

    def s_PayCards(self, s: ast.PayCards) -> None:
        self.c.need_me(s, "paying with cards")
        if self.v.payment is None:
            self.c.error(s, "E202", "this ruleset declares no card payment", hint="add `payment:` to ruleset.yaml")
        self.c.expect(s.target, self.c.expr(s.target), thing())
        self.zone(s.source)

    def s_Transfer(self, s: ast.Transfer) -> None:
        self.c.amount(s.amount)
        self.lvalue(s.source)
        self.lvalue(s.dest)
        if s.up_to or s.either_way:
            self.c.need_me(s, "a choice")

    def s_SetTo(self, s: ast.SetTo) -> None:
        t = self.c.expr(s.target)
        ref = self.c.res.ref(s.target)
        vt = self.c.expr(s.value)
        if t.tag == "any":
            return
        if isinstance(ref, (r.GameValue, r.PlayerValue, r.ItemValue)):
            self.c.expect(s.value, vt, t)
            return
        if not isinstance(ref, (r.PlayerCounter, r.GameCounter, r.ItemCounter, r.CounterOf)):
            self.c.error(s.target, "E204", "this is not a counter or a value that can change",
                         hint="name a counter (`my gold`, `X's value`) or a value the ruleset declares")
            return
        self.c.expect(s.value, vt, AMOUNT)

    def s_Move(self, s: ast.Move) -> None:
        self.pieces(s.what)
        t = self.c.expr(s.dest)
        if self.c.as_piece(s.dest, t, None):
            t = T("thing", t.arg)
        if t.tag != "thing":
            self.zone(s.dest)
            return
        kind = self.v.kinds.get(t.arg or "")
        if kind is not None and not kind.holder:
            hint = (f"declare `holder: true` on the kind `{t.arg}` in ruleset.yaml" if not kind.track
                    else f"a track's spaces are zones: `move ... to space 1 of X`, or `place ... on X`")
            self.c.error(s.dest, "E202", f"{t} holds nothing, so nothing can be moved onto it", hint=hint)

    def s_Shift(self, s: ast.Shift) -> None:
        t = self.c.expr(s.what)
        if t.tag not in ("thing", "any"):
            self.c.error(s.what, "E202", f"`move ... by` moves one token along its track, found {t}",
                         hint="for every token of a track write `advance K by N`")
        self.c.amount(s.amount)

    def s_Draw(self, s: ast.Draw) -> None:
        self.c.amount(s.count)
        self.zone(s.source)
        if s.dest is None:
            self.c.need_me(s, "`draw` without `to ZONE` (into your hand)")
            if self.v.hand is None:
                self.c.error(s, "E202", "draw needs `to ZONE`: this ruleset names no hand",
                             hint="write `draw N from X to my ZONE`")
        else:
            self.zone(s.dest)

    def s_Dig(self, s: ast.Dig) -> None:
        t = self.c.expr(s.wanted)
        if not (isinstance(s.wanted, ast.Where) and isinstance(s.wanted.collection, ast.Select)):
            self.c.error(s.wanted, "E202", "`dig for` needs `CARDS in ZONE where CONDITION`",
                         hint="e.g. `dig for card in goods_deck where its good is R to my goods`")
        elif t.tag not in ("things", "any"):
            self.c.error(s.wanted, "E202", f"expected cards, found {t}")
        else:  # the pieces are turned from the top of a zone, never taken from a list of items
            source = self.c.res.types.get(id(s.wanted.collection.source))
            if source is not None and source.tag not in ("zone", "any"):
                self.c.error(s.wanted.collection.source, "E202", f"`dig for` turns the pieces of a zone, found {source}",
                             hint="dig in one zone: `dig for card in deck where ... to my hand`")
        self.zone(s.dest)

    def s_Place(self, s: ast.Place) -> None:
        t = self.c.expr(s.piece)
        if t.tag not in ("supply", "thing", "any"):
            self.c.error(s.piece, "E202", f"expected a token to place, found {t}",
                         hint="e.g. `place my marker on X`")
        tt = self.c.piece(s.target, self.c.expr(s.target))
        if tt.tag == "thing" and tt.arg is not None:
            k = self.v.kinds.get(tt.arg)
            if k is not None and k.track is None and not k.holder:
                self.c.error(s.target, "E202", f"{tt} has no track and holds no tokens",
                             hint=f"declare `holder: true` (or a `track:`) on the kind `{tt.arg}` in ruleset.yaml"
                             if k.piece != "token" else None)
        elif tt.tag not in ("track", "any", "thing", "zone"):
            self.c.error(s.target, "E202", f"expected something to place on, found {tt}")

    def s_Announce(self, s: ast.Announce) -> None:
        info = self.v.events.get(s.event.name)
        self.c.announced.add(s.event.name)
        if info is None:
            self.c.error(s.event, "E205", f"unknown event `{s.event.name}`",
                         hint=self.c.event_hint(s.event.name))
            for a in s.args:
                self.c.expr(a.value)
            return
        given = {a.name for a in s.args}
        for a in s.args:
            want = info.params.get(a.name)
            at = self.c.expr(a.value)
            if want is None:
                self.c.error(a, "E205", f"event `{s.event.name}` has no parameter `{a.name}`",
                             hint=self.c.suggest(a.name, info.params))
            else:
                self.c.expect(a.value, at, want)
        missing = [p for p in info.params if p not in given]
        if missing:
            self.c.error(s, "E205", f"event `{s.event.name}` needs {', '.join(missing)}",
                         hint=f"write `announce {s.event.name} with "
                         + ", ".join(f"{p} = ..." for p in info.params) + "`")

    def plays_itself(self, statements: list[ast.Stmt] | tuple[ast.Stmt, ...]) -> None:
        """E224 for a statement of the effect's own block (run whenever the effect is, with
        nothing to stop it) that plays the effect being checked: `play this` in an item's
        effect, `play this's NAME` in its effect attribute NAME. It would run inside itself
        until the run's nesting limit stops the game (a user's trial: it passed validate).
        Inside an `if` or a loop it may stop, and the run's limit stands guard."""
        playing = self.c.playing
        if playing is None:
            return
        for s in statements:
            what = s.what if isinstance(s, ast.Play) else None
            if (playing == "effect" and isinstance(what, ast.This)) or (
                    isinstance(what, ast.Of) and isinstance(what.subject, ast.This) and what.name == playing):
                said = "play this" if playing == "effect" else f"play this's {playing}"
                self.c.error(s, "E224", f"this effect plays itself (`{said}` inside the {playing} of the same "
                             "item), with nothing to stop it: it would never end",
                             hint="the language has no recursion: repeat what is meant with `repeat N times:` or "
                                  "`for each`, or play another item's effect")

    def s_Play(self, s: ast.Play) -> None:
        t = self.c.piece(s.what, self.c.expr(s.what))
        if t.tag in ("thing", "any"):  # a piece's effect (an effect attribute's tag is `effect`)
            self.c.played.add(t.arg if t.tag == "thing" else None)
        if t.tag not in ("thing", "effect", "any"):
            self.c.error(s.what, "E202", f"`play` runs a piece's effect or an effect attribute, found {t}",
                         hint="e.g. `play C`, `play my character's ability`")

    def s_Run(self, s: ast.Run) -> None:
        name = s.name.name
        info = self.v.procedures.get(name)
        self.c.calls.add(name)
        if info is None:
            hint = self.c.suggest(name, self.v.procedures)
            if name in self.v.definitions:
                hint = f"`{name}` is a definition (a value), not a procedure; use it in an expression"
            self.c.error(s.name, "E218", f"unknown procedure `{name}`", hint=hint)
            for a in s.args:
                self.c.expr(a)
            return
        self.c.record(s.name, T("none"), r.Procedure(name))
        if info.needs_me:
            self.c.need_me(s, f"`{name}` (it acts for a player)")
        self.c.announced.update(info.announces)
        if self.c.arity(s, s.args, [p for p, _ in info.params]):
            for a, (_, pt) in zip(s.args, info.params):
                self.c.expect(a, self.c.expr(a), pt)
        else:
            for a in s.args:
                self.c.expr(a)

    def s_Log(self, s: ast.Log) -> None:
        """`log "{me} plays {C} for {my gold} gold"`: each `{...}` is an expression, shown
        by name in the game log."""
        self.c.text_parts(s, s.text, 5)  # `log "` comes before the text

    def s_If(self, s: ast.If) -> None:
        for br in s.branches:
            self.c.condition(br.condition)
            self.block(br.body)
        if s.otherwise is not None:
            self.block(s.otherwise)

    def s_ForEach(self, s: ast.ForEach) -> None:
        t = self.c.expr(s.collection)
        if t.tag == "zone":
            t = things()
        if not t.is_collection and t.tag != "any":
            self.c.error(s.collection, "E202", f"`for each` needs a collection, found {t}",
                         hint="e.g. `for each P in opponents:`")
            t = ANY
        self.c.scopes.append({})
        self.c.bind(s, s.var, t.element())
        self.block(s.body)
        self.c.scopes.pop()

    def s_Repeat(self, s: ast.Repeat) -> None:
        self.c.amount(s.count)
        if isinstance(s.count, ast.Num) and s.count.value == 0:
            self.c.warn(s.count, "W301", "repeating 0 times never does anything")
        self.block(s.body)

    def s_EndGame(self, s: ast.EndGame) -> None:
        if s.winner is not None:
            self.c.expect(s.winner, self.c.expr(s.winner), PLAYER)
            if isinstance(s.winner, ast.Name) and s.winner.name == "nobody":
                self.c.error(s.winner, "E202", "nobody cannot win", hint="write `end the game` to let the ranking decide")
        if s.reason is not None:  # `because "{P} built five"`: its `{...}` parts show values, as in `log`
            self.c.text_parts(s, s.reason, 1, s.reason_span)
