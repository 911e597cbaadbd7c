"""The checker's expressions (dsl/checker.py is the whole checker): each expression
node's `e_<Node>` method infers its type and records how each name, `of` and selection
was resolved (dsl/resolution.py): names against every table of the vocabulary, `X's
NAME`, comparisons and arithmetic, filters and selections from zones or items, piles'
ends, entries of lists, aggregates over collections, the next and previous player, and
calls of builtins (their registry entries), definitions and era values.
"""

from __future__ import annotations

from . import ast
from . import printer
from . import resolution as r
from .check_base import BUILTIN_NAMES, NO_KIND, CheckerBase
from .constructs import BUILTINS
from .types import ACTION, AMOUNT, ANY, FLAG, PERCENT, PLAYER, PLAYERS, TEXT, ZONE, ZONES, T, fits, thing, things
from .vocabulary import GENERIC_CLASS


class ExpressionChecker(CheckerBase):
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
        """`R is wood`: beside a counter held in a name, a counter's name is that counter."""
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
        track or a holder): `markers in my character's rivals`. Items that
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
            asked = ast.Call(e.name, (ast.It(span=e.span),), span=e.name_span or e.span)
            self.res.keep.append(asked)
            self._it.append(el)
            t = self.e_Call(asked)
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
