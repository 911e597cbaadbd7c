"""A graph of places: board items joined by the ruleset's kinds of links (a road, a sea
route), what `neighbours of`, `places within N of`, `distance from ... to` and `connected
group of` read (the ludemes `sites Around`, `count Steps` and `sites Group` of Ludii).

Built once per Game from the content's `links:` lists: for each link kind, each piece's
neighbours as a tuple in piece order (a symmetric link joins both ends, whichever end
lists it). Every walk is a breadth-first search in that order, so results do not depend
on how the content was written, and every result lists places in piece (content) order.
A walk visits each place at most once: its work is bounded by the number of places and
links. A link kind with a condition (`if:` in `links:`) is followed only where its
condition holds, asked with `here` and `there` bound to the two ends and `me` the
player the expression is evaluated for. A walk charges the places and links it went
through to the step budget (interpreter/budget.py), once, when it is done."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from legacies.dsl import ast

from .budget import spend, walked
from .spec import GameSpec
from .layout import Layout
from .vm import Activation, State

UNREACHABLE = 1_000_000
"""`distance from X to Y` when no path joins them: more than any path, so `distance ... <= 2`
is no and `distance ... > 2` yes, without an error."""

Condition = Callable[[Activation], Any]


# Links asked together, parted once (Graph._split_links; Graph.step reads it on every step, so
# it is a plain tuple, which unpacks fastest):
# - per place, the places of the links without a condition, joined;
# - (places per place, the link, whether its condition reads `there`) of each link with one,
#   in the order asked;
# - when that is one link whose condition does not read `there`: per place, the places of
#   every link joined, or None where that link adds none (its condition is then never
#   asked), so a step is a table read and at most one condition asked; else None;
# - that link ("" when the former is None).
LinkSplit = tuple[list[tuple[int, ...]], list[tuple], list[tuple[int, ...] | None] | None, str]


class Graph:
    """The places and their links; the walks over them."""

    __slots__ = ("adjacent", "conditions", "_union", "_split", "_reads_there")

    def __init__(self, spec: GameSpec, lay: Layout, conditions: dict[str, Condition]):
        n = len(lay.piece_def)
        lists: dict[str, list[set[int]]] = {name: [set() for _ in range(n)] if info.kinds else []
                                            for name, info in spec.vocab.links.items()}
        for d in spec.defs:
            here = lay.board_item.get(d.id)
            if here is None:
                continue
            for link, others in d.links.items():
                info = spec.vocab.links[link]
                for other in others:
                    there = lay.board_item[other]
                    lists[link][here].add(there)
                    if info.symmetric:
                        lists[link][there].add(here)
        self.adjacent: dict[str, list[tuple[int, ...]]] = {
            link: [tuple(sorted(s)) for s in per_piece] for link, per_piece in lists.items()}
        self.conditions = conditions  # link -> its condition, compiled (absent: always usable)
        self._union: dict[tuple[str, ...], list[tuple[int, ...]]] = {}  # links joined per place (any conditions aside)
        self._split: dict[tuple[str, ...], LinkSplit] = {}  # links asked together, parted once
        # links whose condition reads `there` (asked for each neighbour); any other is asked once a place
        self._reads_there = {link for link, (test, _) in spec.link_conditions.items()
                             if any(getattr(n, "name", None) == "there" for n in ast.walk(test))}

    # ------------------------------------------------------------------ one step
    def neighbours(self, st: State, me: int, this: Any, x: Any, links: Sequence[str]) -> list[int]:
        """`neighbours of X` (both the closures and generated code): one step, charged. Of
        several places, the places one step from any of them, in piece order (one of them
        too, when it is next to another): a step from each, the places and what they reach
        charged."""
        if type(x) is int or (type(x) is not list and type(x) is not tuple):  # one place (or none)
            return walked(st, list(self.step(st, me, this, x, links)))
        found: set[int] = set()
        for y in walked(st, x):
            found.update(self.step(st, me, this, y, links))
        return walked(st, sorted(found))

    def step(self, st: State, me: int, this: Any, x: Any, links: Sequence[str]) -> Sequence[int]:
        """The places one link from `x` by any of `links`, in piece order; a link's
        condition is asked as `me` with `this`, `here` and `there` bound.

        A step is not remembered: in the random games of the shipped ruleset with a map,
        99.3% of the steps a menu asked were from a place it had not asked about (each
        place's neighbours once, for its own test), so a key made and stored per step cost
        4% of a decision for nothing; a walk from one place is remembered whole (`reach`).
        A condition that does not read `there` is asked once per place and link, not once
        per neighbour: its answer is the same for every neighbour. The links without a
        condition are followed first, so a condition is never asked for places they
        reach already (nor at all from a place its link does not leave); when one such
        link is asked with plain ones, the places of all of them are read joined
        (LinkSplit)."""
        if type(x) is not int or not links:
            return ()
        key = tuple(links)
        split = self._split.get(key)
        if split is None:
            split = self._split_links(key)
        plain, conditioned, joined, only = split  # a LinkSplit
        base = plain[x] if x < len(plain) else ()
        if not conditioned:
            return base
        if joined is not None:  # one link with a condition that does not read `there`
            more = joined[x] if x < len(joined) else None
            if more is None:  # it leaves no place here that the others do not reach
                return base
            return more if self.conditions[only](Activation(st, me, this, {"here": x})) else base
        found: set[int] | None = None  # (None: nothing beyond the plain links' places yet)
        env: dict[str, Any] = {"here": x}
        probe: Activation | None = None  # one for every link asked (a condition keeps nothing of it)
        for per_piece, link, reads_there in conditioned:
            ys = per_piece[x] if x < len(per_piece) else ()
            if not ys:
                continue
            cond = self.conditions[link]
            if found is None:
                found = set(base)
            if probe is None:
                probe = Activation(st, me, this, env)
            if not reads_there:
                # asked once, and only when a neighbour is not found yet (as when asked for each)
                if not found.issuperset(ys) and cond(probe):
                    found.update(ys)
                continue
            for y in ys:
                if y in found:
                    continue
                env["there"] = y
                if cond(probe):
                    found.add(y)
        return base if found is None or len(found) == len(base) else tuple(sorted(found))

    def _split_links(self, links: tuple[str, ...]) -> LinkSplit:
        """Links asked together, parted (LinkSplit, above)."""
        plain = [link for link in links if link not in self.conditions]
        joined = self._joined(tuple(plain)) if len(plain) != 1 else self.adjacent[plain[0]]
        conditioned = [(self.adjacent[link], link, link in self._reads_there)
                       for link in links if link in self.conditions]
        all_joined: list[tuple[int, ...] | None] | None = None
        only = ""
        if len(conditioned) == 1 and not conditioned[0][2]:
            only = conditioned[0][1]
            all_joined = [None if len(together) == len(joined[x] if x < len(joined) else ()) else together
                          for x, together in enumerate(self._joined((*plain, only)))]
        split: LinkSplit = (joined, conditioned, all_joined, only)
        self._split[links] = split
        return split

    def _joined(self, links: tuple[str, ...]) -> list[tuple[int, ...]]:
        joined = self._union.get(links)
        if joined is None:
            tables = [self.adjacent[link] for link in links]
            joined = [tuple(sorted({y for t in tables if x < len(t) for y in t[x]}))
                      for x in range(max((len(t) for t in tables), default=0))]
            self._union[links] = joined
        return joined

    # ------------------------------------------------------------------ walks
    def distances(self, a: Activation, start: Any, links: Sequence[str], most: int,
                  through: Condition | None = None, goal: Any = None) -> dict[int, int]:
        """Every place at most `most` links from `start` (itself at 0) with its distance;
        a place passed on the way (not `start`) must meet `through` (`it`). Stops early
        once `goal` is reached."""
        if type(start) is not int:
            return {}
        dist = {start: 0}
        frontier = [start]
        d = 0
        walked = 0
        while frontier and d < most and goal not in dist:
            d += 1
            reached: list[int] = []
            for x in frontier:
                if x != start and through is not None and not _holds(a, through, x):
                    continue  # a place that may be reached but not passed
                ys = self.step(a.st, a.me, a.this, x, links)
                walked += len(ys)
                for y in ys:
                    if y not in dist:
                        dist[y] = d
                        reached.append(y)
            frontier = reached
        spend(a.st, len(dist) + walked)
        return dist

    def reach(self, a: Activation, start: int, links: Sequence[str]) -> dict[int, int]:
        """Every place `start` reaches by `links`, with its distance: one walk, remembered
        while the state is only read (`State.frozen`) for the same start, links, player
        and `this`. A menu that tests each place's distance from the same one (`distance
        from X to V <= N` for every place V) walks once, not once a place;
        the walk is charged when it is made."""
        memo = a.st.memo
        if memo is None:
            return self.distances(a, start, links, UNREACHABLE)
        key = ("graph reach", tuple(links), start, a.me, a.this)
        found = memo.get(key)
        if found is None:
            found = memo[key] = self.distances(a, start, links, UNREACHABLE)
        return found

    def within(self, a: Activation, start: Any, links: Sequence[str], most: int,
               through: Condition | None = None) -> list[int]:
        if through is None and type(start) is int and most >= 0 and a.st.memo is not None:
            return [y for y, d in sorted(self.reach(a, start, links).items()) if d <= most]
        return sorted(self.distances(a, start, links, most, through))

    def distance(self, a: Activation, start: Any, goal: Any, links: Sequence[str],
                 through: Condition | None = None) -> int:
        if start == goal and type(start) is int:
            return 0
        if through is None and type(start) is int and a.st.memo is not None:
            return self.reach(a, start, links).get(goal, UNREACHABLE)
        return self.distances(a, start, links, UNREACHABLE, through, goal).get(goal, UNREACHABLE)

    def group(self, a: Activation, start: Any, links: Sequence[str], condition: Condition) -> list[int]:
        """`start` and every place reachable from it through places meeting `condition`;
        nothing when `start` does not meet it."""
        if type(start) is not int or not _holds(a, condition, start):
            return []
        seen = {start}
        frontier = [start]
        walked = 0
        while frontier:
            reached: list[int] = []
            for x in frontier:
                ys = self.step(a.st, a.me, a.this, x, links)
                walked += len(ys)
                for y in ys:
                    if y not in seen and _holds(a, condition, y):
                        seen.add(y)
                        reached.append(y)
            frontier = reached
        spend(a.st, len(seen) + walked)
        return sorted(seen)


def _holds(a: Activation, condition: Condition, x: int) -> bool:
    saved = a.it
    a.it = x
    try:
        return bool(condition(a))
    finally:
        a.it = saved
