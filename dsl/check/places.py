"""The checker's places joined by links (dsl/checker.py puts the checker together):
a place (a board item of a kind that uses links), the links a graph expression
follows, and the graph expressions (`neighbours of`, `within N of`, `distance from`,
`connected group of`).
"""

from __future__ import annotations

from .. import ast
from .base import CheckState
from ..types import AMOUNT, T, thing, things


class PlaceChecker:
    """Places and the links between them."""

    __slots__ = ("c", "v")

    def __init__(self, c: CheckState):
        self.c = c
        self.v = c.v

    def place(self, e: ast.Expr, many: bool = False) -> str | None:
        """A place (a board item of a kind that uses links), or with `many` places too
        (`neighbours of` a collection): its kind, when known."""
        t = self.c.expr(e)
        if t.tag not in (("thing", "things", "any") if many else ("thing", "any")):
            self.c.error(e, "E202", f"expected {'a place or places' if many else 'a place'}, found {t}",
                         hint="a place is a board item of a kind with `links:`")
            return None
        kind = self.v.kinds.get(t.arg or "")
        if kind is not None and not kind.links:
            no_place = "are no places" if t.tag == "things" else "is no place"
            self.c.error(e, "E202", f"{t} {no_place}: its kind uses no links",
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
                self.c.error(n, "E201", f"unknown link kind `{n.name}`", hint=self.c.suggest(n.name, known)
                             or "link kinds are declared under `links:` in ruleset.yaml; for `or` between conditions, "
                                "put the places in parentheses")
            elif n.name not in uses:
                self.c.error(n, "E202", f"{thing(kind)} is joined by no `{n.name}` links",
                             hint=f"its kind's links: {', '.join(uses) or 'none'}")
            else:
                names.append(n.name)
        if not links:
            names = list(uses)
        if not known:
            self.c.error(node, "E202", "this ruleset declares no links between places",
                         hint="declare `links:` in ruleset.yaml and list each item's neighbours under `links:`")
        for name in names:
            if known[name].needs_me:
                self.c.need_me(node, f"a `{name}` link (its condition is asked of the acting player)")
        reached = {k for name in names for k in known[name].kinds} | ({kind} if kind else set())
        return thing(reached.pop() if len(reached) == 1 else None)

    def place_condition(self, e: ast.Expr, place: T) -> None:
        self.c.it.append(place)
        self.c.condition(e)
        self.c.it.pop()

    def e_Neighbours(self, e: ast.Neighbours) -> T:
        place = self.via(e, self.place(e.place, many=True), e.links)
        return things(place.arg)

    def e_Within(self, e: ast.Within) -> T:
        self.c.amount(e.steps)
        place = self.via(e, self.place(e.place), e.links)
        if e.through is not None:
            self.place_condition(e.through, place)
        known, kind = self.v.kind_of_word(e.word)
        if not known:
            self.c.error(e, "E201", f"unknown kind `{e.word}`", span=e.name_span,
                         hint=self.c.suggest(e.word, list(self.v.kinds) + ["places"]))
        elif kind is not None and not self.v.kinds[kind].links:
            self.c.error(e, "E202", f"a {kind} is no place: its kind uses no links", span=e.name_span)
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
