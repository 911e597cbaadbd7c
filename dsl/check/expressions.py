"""The checker's expressions (dsl/checker.py puts the checker together): each
expression node's `e_<Node>` method infers its type and records how each name, `of`
and selection was resolved (dsl/resolution.py): names against every table of the
vocabulary, `X's NAME` and what a name means asked of an item (`member`), comparisons
and arithmetic, modulo, `if ... else`, the same card, the next and previous player, and
calls of builtins (their registry entries, handed the CheckState), definitions and era
values. Filters, selections, piles' ends, entries and aggregates are
dsl/check/collections.py's; places joined by links dsl/check/places.py's.
"""

from __future__ import annotations

from .. import ast
from .. import printer
from .. import resolution as r
from .base import BUILTIN_NAMES, NO_KIND, CheckState, literal_number
from ..constructs import BUILTINS
from ..parser import close_word
from ..types import ACTION, AMOUNT, ANY, FLAG, PERCENT, PLAYER, PLAYERS, TEXT, ZONE, ZONES, T, fits, thing, things


class ExpressionChecker:
    """Names, members, comparisons, arithmetic and calls."""

    __slots__ = ("c", "v")

    def __init__(self, c: CheckState):
        self.c = c
        self.v = c.v

    def e_Num(self, e: ast.Num) -> T:
        return AMOUNT

    def e_Era(self, e: ast.Era) -> T:
        if self.v.eras == 0:
            self.c.error(e, "E209", "this ruleset has no eras, so `a/b/c` values do not apply",
                         hint="write a single number; for division write `X divided by Y`")
        elif len(e.values) != self.v.eras:
            self.c.error(e, "E209", f"an era value needs {self.v.eras} parts, one per era; found {len(e.values)}",
                         hint="for division write `X divided by Y`")
        return AMOUNT

    def e_Percent(self, e: ast.Percent) -> T:
        return PERCENT

    def e_Text(self, e: ast.Text) -> T:
        return TEXT

    def e_Bool(self, e: ast.Bool) -> T:
        return FLAG

    def e_This(self, e: ast.This) -> T:
        if self.c.this is None:
            self.c.error(e, "E213", "`this` means the content item itself; there is none here")
            return ANY
        return self.c.this

    def e_It(self, e: ast.It) -> T:
        if not self.c.it:
            self.c.error(e, "E213", "`it`/`its` only has a meaning inside `where` (the candidate)")
            return ANY
        return self.c.it[-1]

    def e_Name(self, e: ast.Name) -> T:  # noqa: C901 - one branch per table of the vocabulary
        n = e.name
        local = self.c.lookup(n)
        if local is not None:
            return self.c.record(e, local, r.Local(n))
        v = self.v
        if n in BUILTIN_NAMES:
            b = BUILTINS[n]
            if b.needs_me:
                self.c.need_me(e, f"`{n}`")
            return self.c.record(e, b.check(self.c, e, []), r.BuiltinName(n))
        if n in v.counters:
            info = v.counters[n]
            if info.scope == "game":
                return self.c.record(e, AMOUNT, r.GameCounter(n))
            self.c.need_me(e, f"`{n}` on its own (your {n})")
            return self.c.record(e, AMOUNT, r.PlayerCounter(n))
        if n in v.values and n not in v.kinds:  # `character` alone is the kind; `my character` the value
            val = v.values[n]
            if val.scope == "game":
                return self.c.record(e, val.type, r.GameValue(n))
            self.c.need_me(e, f"`{n}` on its own (your {n})")
            return self.c.record(e, val.type, r.PlayerValue(n))
        if n in v.zones:
            info_z = v.zones[n]
            if info_z.scope != "game":
                self.c.need_me(e, f"`{n}` on its own (your {n})")
                return self.c.record(e, ZONE, r.PlayerZone(n))
            return self.c.record(e, ZONE, r.GameZone(n))
        enum = v.symbol_enum(n)
        if enum is not None:
            return self.c.record(e, T("symbol", enum), r.Symbol(n))
        if n in v.enums:
            return self.c.record(e, T("symbols", n), r.Enum(n))
        if n in v.counter_sets:
            return self.c.record(e, T("counters", n), r.CounterSet(n))
        if n in v.options:
            return self.c.record(e, v.options[n], r.Option(n))
        if n in v.quantities:
            q = v.quantities[n]
            if q.subject is not None:
                self.c.error(e, "E202", f"`{n}` is asked of one {q.subject}", hint=f"write `{n} of X`")
            elif q.per == "player":
                self.c.need_me(e, f"`{n}` on its own (your {n})")
            return self.c.record(e, q.type, r.Quantity(n, None, True))
        known, kind = v.kind_of_word(n)
        if known and kind is not None:
            return self.c.record(e, things(kind), r.KindAll(kind))
        if n in v.content:
            k = v.content[n]
            info_k = v.kinds.get(k)
            if info_k is not None and info_k.piece == "board":
                return self.c.record(e, thing(k), r.BoardItem(n))
            return self.c.record(e, T("def", k), r.CardDef(n))
        if n in v.definitions:
            d = v.definitions[n]
            self.c.calls.add(n)
            if d.params:
                self.c.error(e, "E212", f"`{n}` takes {len(d.params)} argument(s) "
                             f"({', '.join(p for p, _ in d.params)})", hint=f"write `{n}(...)`")
            if d.needs_me:
                self.c.need_me(e, f"`{n}` (it is asked of the acting player)")
            return self.c.record(e, self.definition_type(n), r.Definition(n))
        if n in v.actions:
            return self.c.record(e, ACTION, r.Action(n))
        names = list(v.all_names()) + list(BUILTIN_NAMES) + [k for s in self.c.scopes for k in s]
        hint = self.c.suggest(n, names)
        if self.c.it:  # inside `where` / `ordered by`: a member's own name is `its NAME`
            element = self.c.it[-1]
            kinds = [v.kinds[element.arg]] if element.tag == "thing" and element.arg in v.kinds else \
                list(v.kinds.values()) if element.tag in ("thing", "any") else []
            own = sorted({a for k in kinds for a in (*k.attributes, *k.counters, *k.values)})
            if element.tag == "player":
                own = sorted([c for c, i in v.counters.items() if i.scope == "player"]
                             + [c for c, i in v.values.items() if i.scope == "player"])
            guess = n if n in own else close_word(n, own)
            if guess is not None:
                hint = f"did you mean `its {guess}`? (inside `where`, a member's own attribute or counter is `its NAME`)"
        if self.c.events and not self.c.it:  # in a trigger: what its event gives comes first (a user's trial:
            # a parameter the event does not give was offered a word of the ruleset's that looked like it)
            event, params = self.c.events[-1]
            if params is None:
                hint = f"this follows from the unknown event `{event}`: its parameters are unknown too"
            elif params:
                guess = close_word(n, params)
                gives = f"the event `{event}` gives {', '.join(f'`{p}`' for p in params)}"
                hint = f"did you mean `{guess}`? ({gives})" if guess else gives
        if n in v.procedures:
            hint = f"`{n}` is a procedure: run it on its own line, `{n}(...)`"
        self.c.error(e, "E201", f"unknown name `{n}`", hint=hint)
        return self.c.record(e, ANY, r.UNKNOWN)

    def definition_type(self, name: str) -> T:
        t = self.v.definitions[name].type
        return t if t is not None else ANY

    def e_Of(self, e: ast.Of) -> T:
        n = e.name
        v = self.v
        st = self.c.expr(e.subject)
        span = e.name_span
        b = BUILTINS.get(n)
        if b is not None and b.form == "of" and not self.is_attribute(st, n):
            t = b.check(self.c, e, [e.subject])
            return self.c.record(e, t, r.BuiltinOf(n))
        if st.tag == "any":
            return self.c.record(e, ANY, r.UNKNOWN)
        local = self.c.lookup(n)
        if local is not None and local.tag == "counter" and st.tag == "player":  # `my R`, R a counter
            holder = ast.Name(n, span=span)
            self.c.res.keep.append(holder)
            self.c.record(holder, local, r.Local(n))
            return self.c.record(e, AMOUNT, r.CounterOf(holder, e.subject))
        if st.tag in ("player", "players"):
            plural = st.tag == "players"
            if n in v.zones and v.zones[n].scope == "player":
                return self.c.record(e, ZONES if plural else ZONE, r.PlayerZone(n, e.subject, plural))
            if plural:
                self.c.error(e, "E202", f"`{n}` of several players is not one thing",
                             hint=f"use `for each P in ...:`, `count of` or `total {n} of ...`", span=span)
                return self.c.record(e, ANY, r.UNKNOWN)
            if n in v.counters and v.counters[n].scope == "player":
                return self.c.record(e, AMOUNT, r.PlayerCounter(n, e.subject))
            if n in v.values and v.values[n].scope == "player":
                return self.c.record(e, v.values[n].type, r.PlayerValue(n, e.subject))
            if n in v.quantities and v.quantities[n].per == "player" and v.quantities[n].subject is None:
                return self.c.record(e, v.quantities[n].type, r.Quantity(n, e.subject, True))
            if n in v.kinds and v.kinds[n].piece == "token":
                return self.c.record(e, T("supply", n), r.Supply(n, e.subject))
            cands = [k for k, c in v.counters.items() if c.scope == "player"] + \
                    [k for k, z in v.zones.items() if z.scope == "player"] + \
                    [k for k, x in v.values.items() if x.scope == "player"] + \
                    [k for k, q in v.kinds.items() if q.piece == "token"]
            self.c.error(e, "E203", f"a player has no `{n}`", hint=self.c.suggest(n, cands), span=span)
            return self.c.record(e, ANY, r.UNKNOWN)
        card = self.c.res.refs.get(id(e.subject))
        if st.tag == "def" and st.arg and self.of_a_copy(st.arg, n) and isinstance(card, r.CardDef) \
                and v.content_copies.get(card.id, 1) == 1:  # a card's own counter: its only copy's
            st = self.c.piece(e.subject, st)
        if st.tag in ("thing", "def"):
            t, ref = self.member(st, n, e, span)
            if ref is r.UNKNOWN:
                return self.c.record(e, ANY, r.UNKNOWN)
            if isinstance(ref, r.Quantity):
                ref = r.Quantity(n, e.subject, False)
            return self.c.record(e, t, ref)
        self.c.error(e, "E203", f"{st} has no `{n}`", span=span)
        return self.c.record(e, ANY, r.UNKNOWN)

    def of_a_copy(self, kind: str, n: str) -> bool:
        """Whether NAME asked of a card is each copy's own (a counter, a value, a quantity)."""
        k = self.v.kinds.get(kind)
        q = self.v.quantities.get(n)
        return k is not None and n not in k.attributes and (
            n in k.counters or n in k.values or (q is not None and q.subject == kind))

    def is_attribute(self, st: T, n: str) -> bool:
        return st.tag in ("thing", "def") and bool(st.arg) and n in self.v.kinds.get(st.arg or "", NO_KIND).attributes

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
            self.c.error(node, "E203", f"no kind of piece has `{n}`", hint=self.c.suggest(n, cands), span=span)
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
            self.c.error(node, "E203", f"each {st.arg} has its own `{n}`: a card named in source stands for all "
                         "its copies", hint="choose one of its copies (`top of (cards in ZONE where it is X)`)",
                         span=span)
            return ANY, r.UNKNOWN
        cands = list(kind.attributes) + list(kind.counters) + list(kind.values) + \
            [b for b, x in BUILTINS.items() if x.form == "of"]
        self.c.error(node, "E203", f"{thing(st.arg)} has no `{n}`", hint=self.c.suggest(n, cands), span=span)
        return ANY, r.UNKNOWN

    def e_Has(self, e: ast.Has) -> T:
        t = self.c.expr(e.subject)
        if t.tag in ("thing", "def"):
            self.member(t, e.attribute, e, e.name_span)
        elif t.tag != "any":
            self.c.error(e.subject, "E202", f"only an item has attributes, not {t}")
        return FLAG

    def _counter_literal(self, e: ast.Expr, other: T) -> T | None:
        """`R is wood`: beside a counter held in a name, a counter's name is that counter."""
        if other.tag == "counter" and isinstance(e, ast.Name) and e.name in self.v.counters \
                and self.c.lookup(e.name) is None:
            if other.arg and e.name not in self.v.counter_sets.get(other.arg, ()):
                self.c.error(e, "E202", f"`{e.name}` is not one of the {other.arg} counters")
            self.c.typed[id(e)] = T("counter", other.arg)
            return self.c.record(e, T("counter", other.arg), r.Symbol(e.name))
        return None

    def e_Compare(self, e: ast.Compare) -> T:
        if e.op in ("=", "!=") and isinstance(e.left, ast.Name) and e.left.name in self.v.counters:
            rt = self.c.expr(e.right)
            lt = self._counter_literal(e.left, rt) or self.c.expr(e.left)
        else:
            lt = self.c.expr(e.left)
            rt = (self._counter_literal(e.right, lt) if e.op in ("=", "!=") else None) or self.c.expr(e.right)
        if e.op == "in":
            if not rt.is_collection and rt.tag not in ("zone", "zones", "any"):
                self.c.error(e.right, "E202", f"`is in` needs a collection or a zone, found {rt}")
            return FLAG
        if e.op in ("=", "!="):
            if {lt.tag, rt.tag} == {"thing", "def"}:
                return FLAG
            if not (fits(lt, rt) or fits(rt, lt)):
                self.c.error(e, "E202", f"cannot compare {lt} with {rt}")
            return FLAG
        self.c.expect(e.left, lt, AMOUNT)
        self.c.expect(e.right, rt, AMOUNT)
        return FLAG

    def e_BoolOp(self, e: ast.BoolOp) -> T:
        self.c.expect(e.left, self.c.expr(e.left), FLAG)
        self.c.expect(e.right, self.c.expr(e.right), FLAG)
        return FLAG

    def e_Not(self, e: ast.Not) -> T:
        self.c.expect(e.operand, self.c.expr(e.operand), FLAG)
        return FLAG

    def e_Arith(self, e: ast.Arith) -> T:
        lt = self.c.expr(e.left)
        rt = self.c.expr(e.right)
        if e.op in ("+", "-"):
            self._kind_before_select(e)
        if e.op == "+" and (lt.is_collection or rt.is_collection):  # joining two collections
            if lt.tag == rt.tag and lt.arg != rt.arg and lt.tag == "things":
                return things()  # pieces of two kinds: pieces
            if not (fits(lt, rt) or fits(rt, lt)) or not (lt.is_collection or lt.tag == "any") \
                    or not (rt.is_collection or rt.tag == "any"):
                self.c.error(e, "E202", f"cannot join {lt} and {rt}", hint="`A + B` joins two collections of one kind")
                return ANY
            return lt if lt.tag not in ("any", "empty") else rt
        self.c.expect(e.left, lt, AMOUNT)
        if e.op == "*" and rt.tag == "percent":
            return AMOUNT
        self.c.expect(e.right, rt, AMOUNT)
        return AMOUNT

    def _kind_before_select(self, e: ast.Arith) -> None:
        """`A + B in X` is `A + (B in X)`: `KIND in X` binds tighter than `+` (it is one
        atom, as in `count of cards in my hand`). After a bare kind (`small_markers +
        large_markers in X`) a reader takes it for `(A + B) in X`, every A in the game
        joined: E221 unless the `B in X` is in parentheses."""
        right, left = e.right, e.left
        if not isinstance(right, ast.Select) or e.span is None or right.span is None:
            return
        if (e.span.end_line, e.span.end_column) != (right.span.end_line, right.span.end_column):
            return  # `A + (B in X)`: written as meant
        while isinstance(left, ast.Arith) and left.op in ("+", "-"):
            left = left.right  # `A + B + C in X`: the word just before
        if not isinstance(left, ast.Name) or not self.v.kind_of_word(left.name)[0] \
                or self.c.lookup(left.name) is not None:
            return
        src = printer.print_expr(right.source)
        kind = self.v.kind_of_word(left.name)[1]
        info = self.v.kinds.get(kind) if kind else None
        every = (info.label if info and info.label else kind or left.name.rstrip("s")).replace("_", " ")
        self.c.error(e, "E221", f"`{left.name} {e.op} {right.word} in {src}` reads as `{left.name} {e.op} ({right.word} "
                     f"in {src})`: every {every} of the game, not only those in {src}",
                     hint=f"for both in {src} write `({left.name} in {src}) {e.op} ({right.word} in {src})`; "
                     f"for every {every}, write `{left.name} {e.op} ({right.word} in {src})`")

    def e_Div(self, e: ast.Div) -> T:
        self.c.amount(e.left)
        self.c.amount(e.right)
        if isinstance(e.right, ast.Num) and e.right.value == 0:
            self.c.error(e.right, "E202", "division by zero")
        return AMOUNT

    def e_Neg(self, e: ast.Neg) -> T:
        self.c.amount(e.operand)
        return AMOUNT

    def e_Modulo(self, e: ast.Modulo) -> T:
        self.c.amount(e.left)
        self.c.amount(e.right)
        divisor = literal_number(e.right)
        if divisor is not None and divisor <= 0:
            self.c.error(e.right, "E202", f"modulo {divisor}: the remainder needs a divisor of at least 1",
                         hint="`A modulo B` is from 0 to B - 1, for B of 1 or more")
        return AMOUNT

    def e_Cond(self, e: ast.Cond) -> T:
        self.c.expect(e.condition, self.c.expr(e.condition), FLAG)
        yt = self.c.expr(e.yes)
        nt = self.c.expr(e.no)
        if not (fits(yt, nt) or fits(nt, yt)):
            self.c.error(e, "E202", f"the two values of `if ... else` differ: {yt} and {nt}")
            return ANY
        return yt if yt.tag not in ("any", "empty") else nt

    def e_SameCard(self, e: ast.SameCard) -> T:
        for side in (e.left, e.right):
            t = self.c.expr(side)
            if t.tag not in ("thing", "def", "any"):
                self.c.error(side, "E202", f"`is the same card as` compares pieces, found {t}",
                             hint="compare two pieces (`C is the same card as D`); for anything else write `A is B`")
        return FLAG

    def e_Relative(self, e: ast.Relative) -> T:
        self.c.expect(e.player, self.c.expr(e.player), PLAYER)
        if e.word == "players":
            return PLAYERS
        if e.word == "player" and e.relation in ("after", "before"):  # the next / previous, wrapping round
            return PLAYER
        written = "starting with" if e.relation == "starting" else e.relation
        if e.word == "player":
            self.c.error(e, "E202", "`player starting with P` is not one player",
                         hint="write `players starting with P` (everyone from P round), or `player after P` "
                              "(the next player, wrapping round)")
            return PLAYERS
        self.c.error(e, "E202", f"`{e.word} {written} P`: only players follow one another in turn order",
                     hint=f"write `players {written} P`" + (
                       " (the later players, not wrapping round) or `player after P` (the next player, wrapping "
                       "round)" if e.relation == "after" else " or `player before P` (the previous player, wrapping "
                       "round)" if e.relation == "before" else ""))
        return ANY

    def e_Call(self, e: ast.Call) -> T:
        n = e.name
        if n in self.v.definitions:
            d = self.v.definitions[n]
            self.c.calls.add(n)
            if d.needs_me:
                self.c.need_me(e, f"`{n}` (it is asked of the acting player)")
            if self.c.arity(e, e.args, [p for p, _ in d.params]):
                for a, (_, pt) in zip(e.args, d.params):
                    self.c.expect(a, self.c.expr(a), pt)
            else:
                for a in e.args:
                    self.c.expr(a)
            self.c.record(e, self.definition_type(n), r.Definition(n))
            return self.definition_type(n)
        b = BUILTINS.get(n)
        if b is not None and b.form == "call":
            self.c.res.refs[id(e)] = r.BuiltinName(n)
            return b.check(self.c, e, list(e.args))
        hint = self.c.suggest(n, list(self.v.definitions) + [x for x, y in BUILTINS.items() if y.form == "call"])
        if n in self.v.procedures:
            hint = f"`{n}` is a procedure (it does things): run it on its own line, not inside an expression"
        self.c.error(e, "E201", f"unknown function `{n}`", hint=hint)
        for a in e.args:
            self.c.expr(a)
        return ANY
