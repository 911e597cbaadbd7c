"""The checker's collections (dsl/checker.py puts the checker together): what holds
pieces and is empty, `where` and `ordered by` (with `it` the candidate), selections of
a kind from zones, holders or items, piles' top and bottom, entries of lists and
tables, spaces of tracks, aggregates over collections (`total NAME of C`: a counter, a
quantity, an attribute, a builtin or a definition asked of every member) and lists
written out.
"""

from __future__ import annotations

from .. import ast
from .. import resolution as r
from .base import CheckState
from .expressions import ExpressionChecker
from ..constructs import BUILTINS
from ..types import AMOUNT, ANY, FLAG, ZONE, T, fits, thing, things
from ..vocabulary import GENERIC_CLASS


class CollectionChecker:
    """Collections: filters, selections, ends, entries, aggregates, lists written out.
    `expressions` answers what a name means asked of an item (`member`)."""

    __slots__ = ("c", "v", "expressions")

    def __init__(self, c: CheckState, expressions: ExpressionChecker):
        self.c = c
        self.v = c.v
        self.expressions = expressions

    def holds(self, e: ast.Expr, t: T, what: str) -> None:
        """`e` (of type `t`, a piece) must be something that holds pieces (E202)."""
        kind = self.v.kinds.get(t.arg) if t.tag == "thing" and t.arg else None
        if kind is not None and not kind.holder and not kind.track:
            self.c.error(e, "E202", f"{t} holds nothing, so {what}",
                         hint=f"declare `holder: true` on the kind `{t.arg}` in ruleset.yaml" if kind.piece != "token"
                         else "a token holds nothing: name a zone or a piece of a kind that is a holder")

    def e_Empty(self, e: ast.Empty) -> T:
        t = self.c.piece(e.subject, self.c.expr(e.subject))
        if t.tag not in ("thing", "zone", "track", "any") and not t.is_collection:
            self.c.error(e.subject, "E202", f"only a zone, a holder or a collection can be empty, not {t}")
        self.holds(e.subject, t, "it is never anything but empty")
        return FLAG

    def e_Where(self, e: ast.Where) -> T:
        t = self.c.expr(e.collection)
        if t.tag == "zone":
            t = things()
        if not t.is_collection and t.tag != "any":
            self.c.error(e.collection, "E202", f"`where` filters a collection, found {t}",
                         hint="put the collection first: `cards in my hand where its type is X`; "
                              "use parentheses inside `count of (...)`")
            t = ANY
        self.c.it.append(t.element() if t.tag != "any" else ANY)
        self.c.expect(e.condition, self.c.expr(e.condition), FLAG)
        self.c.it.pop()
        return t

    def e_Ordered(self, e: ast.Ordered) -> T:
        t = self.c.expr(e.collection)
        if not t.is_collection and t.tag != "any":
            self.c.error(e.collection, "E202", f"`ordered by` sorts a collection, found {t}")
            t = ANY
        self.c.it.append(t.element() if t.tag != "any" else ANY)
        self.c.amount(e.key)
        self.c.it.pop()
        return t

    def e_Select(self, e: ast.Select) -> T:
        st = self.c.piece(e.source, self.c.expr(e.source))
        known, kind = self.v.kind_of_word(e.word)
        if st.tag in ("symbols", "counters"):
            return st
        if e.word in self.v.enums and st.tag == "any":
            return T("symbols", e.word)
        if not known:
            self.c.error(e, "E201", f"unknown kind `{e.word}`",
                         hint=self.c.suggest(e.word, list(self.v.kinds) + ["cards", "tokens"]), span=e.name_span)
        if st.tag in ("things", "table"):
            return self.c.record(e, things(kind), self._select_from_items(e, kind, st.arg))
        if st.tag in ("zone", "zones", "track", "thing", "any"):
            self.holds(e.source, st, "there is nothing on it to select")
            self.c.record(e, things(kind), r.Selection(kind))
            return things(kind)
        self.c.error(e.source, "E202", f"expected a zone, a holder or items to select from, found {st}")
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
            self.c.error(e, "E202", f"these are {held} pieces, not {kind} pieces, and they hold none",
                         span=e.name_span, hint=f"{plural} have no track and are no holder: nothing is on them; "
                         f"to keep some of them write `{e.word} where ...`" if info else None)
        elif cls is not None and info is not None and info.piece != cls:
            self.c.error(e, "E202", f"`{e.word} in` {plural}: {plural} hold no {cls}s (they have no track and are "
                         f"no holder), so this would be the {plural} themselves", span=e.name_span,
                         hint=f"write `{plural} where ...` for some of them, or name what is on them "
                         f"(a holder or a track holds tokens)")
        return r.Selection(kind, "", cls)

    def e_Top(self, e: ast.Top) -> T:
        if e.count is not None:
            self.c.amount(e.count)
        st = self.c.expr(e.source)
        if st.is_collection:  # the first (top) or last (bottom) members of a collection
            if self._from_zones(e.source):  # a pile: its top is the zone's top
                self.c.res.refs[id(e)] = r.PileEnd()
            return st if e.count is not None else st.element()
        if st.tag not in ("zone", "any"):
            self.c.error(e.source, "E202", f"`{e.end} of` needs a zone or a collection, found {st}")
        return things() if e.count is not None else thing()

    def _from_zones(self, e: ast.Expr) -> bool:
        """Whether a collection is pieces taken from zones, holders or tracks in the order
        they keep them (a selection, filtered or not; the pieces on a holder or a track are
        kept as a zone keeps its own, the piece put there first at the bottom, a track's
        first space first): `top of` it reads from the top, as of a zone, so a holder's top
        is the piece put on it last, whatever holds the pieces."""
        while isinstance(e, ast.Where):
            e = e.collection
        if not isinstance(e, ast.Select):
            return False
        source = self.c.res.types.get(id(e.source))
        if source is not None and source.tag in ("zone", "zones", "thing", "track"):
            return True
        if source is None or source.tag != "things":
            return False
        ref = self.c.res.refs.get(id(e))
        if isinstance(ref, r.Selection) and ref.on == "on":  # the pieces on each of those items
            return True
        return self._from_zones(e.source)

    def e_Entry(self, e: ast.Entry) -> T:
        st = self.c.expr(e.source)
        it = self.c.expr(e.index)
        if st.tag == "table":
            if not (it.tag == "def" and it.arg in (None, st.arg)):  # a card's name stands for any of its copies
                self.c.expect(e.index, it, thing(st.arg))
            return AMOUNT
        if st.is_collection:
            self.c.expect(e.index, it, AMOUNT)
            return st.element()
        if st.tag != "any":
            self.c.error(e.source, "E202", f"`entry N of` reads a list or a table, found {st}")
        return ANY

    def e_SpaceOf(self, e: ast.SpaceOf) -> T:
        self.c.amount(e.index)
        self.c.track(e.track)
        return ZONE

    def _builtin_of(self, subject: T, name: str) -> bool:
        b = BUILTINS.get(name)
        return b is not None and b.form == "of" and not self.expressions.is_attribute(subject, name)

    def e_Aggregate(self, e: ast.Aggregate) -> T:
        ct = self.c.expr(e.collection)
        if ct.tag == "any":
            return AMOUNT
        if not ct.is_collection:
            self.c.error(e.collection, "E202", f"`{e.fn} {e.name} of` needs a collection, found {ct}")
            return AMOUNT
        el = ct.element()
        ref: r.Ref
        if self._aggregates_definition(el, e.name):
            # `total worth of C`: a definition of one parameter, asked of every member
            asked = ast.Call(e.name, (ast.It(span=e.span),), span=e.name_span or e.span)
            self.c.res.keep.append(asked)
            self.c.it.append(el)
            t = self.expressions.e_Call(asked)
            self.c.it.pop()
            ref = r.Definition(e.name)
        elif el.tag == "player":
            if e.name in self.v.counters and self.v.counters[e.name].scope == "player":
                t, ref = AMOUNT, r.PlayerCounter(e.name)
            elif e.name in self.v.quantities and self.v.quantities[e.name].per == "player" \
                    and self.v.quantities[e.name].subject is None:
                t, ref = self.v.quantities[e.name].type, r.Quantity(e.name, None, True)
            else:
                self.c.error(e, "E203", f"a player has no counter `{e.name}`",
                             hint=self.c.suggest(e.name, [k for k, c in self.v.counters.items() if c.scope == "player"]),
                             span=e.name_span)
                return AMOUNT
        elif el.tag in ("thing", "def") and self._builtin_of(el, e.name):
            # `total position of (tokens)`: a one-argument builtin read for each piece
            probe = ast.Of(e.name, ast.It(span=e.span), span=e.span)
            self.c.it.append(el)
            t = BUILTINS[e.name].check(self.c, probe, [probe.subject])
            self.c.it.pop()
            ref = r.BuiltinOf(e.name)
        elif el.tag in ("thing", "def"):
            t, ref = self.expressions.member(el, e.name, e, e.name_span)
            if ref is r.UNKNOWN:
                return AMOUNT
        else:
            self.c.error(e.collection, "E202", f"`{e.fn} {e.name} of` needs items or players, found {ct}")
            return AMOUNT
        if t.tag not in ("amount", "any"):
            self.c.error(e, "E202", f"`{e.name}` is {t}, not an amount: it cannot be added up", span=e.name_span)
        self.c.res.refs[id(e)] = ref
        return AMOUNT

    def _aggregates_definition(self, el: T, name: str) -> bool:
        """Whether `total NAME of C` (C's members of type `el`) asks a definition of each
        member: NAME is a definition and no counter, quantity, attribute or builtin of it."""
        if name not in self.v.definitions:
            return False
        if el.tag == "player":
            return name not in self.v.counters and name not in self.v.quantities
        return not self.expressions.is_attribute(el, name) and not self._builtin_of(el, name) and not (
            el.tag == "thing" and el.arg in self.v.kinds and name in self.v.kinds[el.arg].counters)

    def e_ListLiteral(self, e: ast.ListLiteral) -> T:
        typed = [(item, self.c.expr(item)) for item in e.items]
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
                self.c.error(item, "E202", f"a list holds values of one type: this is {t}, the first is {element}",
                             hint="write a list of one kind of value: `[1, 3, 5]`, `[me, P]`, `[C, D]`")
                return ANY
            elif element.arg is None and t.arg is not None:
                element = t
        for item, t in known:
            if pieces and t.tag == "def":
                self.c.as_piece(item, t, None)
        listed = element.collection()
        if listed.tag == "any":
            self.c.error(e, "E202", f"a list cannot hold {element}",
                         hint="lists hold numbers, players, pieces, card names, symbols, counters, zones or effects")
            return ANY
        return listed
