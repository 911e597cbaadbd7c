"""Collections: filters (`where`, decided at compile time on fixed attributes where it
can: compile/filters.py), selections (`choose`-free `the N ... of`), the top or bottom
of a pile, an entry of a list, a space of a track, aggregates (`total`, `highest`,
`lowest`), orderings, and players read around one in turn order.
"""

from __future__ import annotations

from typing import Any, Callable

from legacies.dsl import ast
from legacies.dsl import resolution as r

from .. import selection
from ..budget import spend, walked
from ..errors import ContentError
from ..values import DefRef, EraValue
from ..vm import Activation
from .columns import Columns
from .context import CompileContext, Compiles, Fn, aggregate_probe, indexable
from .filters import StaticFilters
from .general import GeneralCompiler, players_around


_AGGREGATES: dict[str, Callable[[list], int]] = {"total": sum, "highest": max, "lowest": min}


class CollectionCompiler:
    def __init__(self, ctx: CompileContext, compiler: Compiles, columns: Columns, filters: StaticFilters,
                 general: GeneralCompiler):
        self.ctx = ctx
        self.compiler = compiler
        self.columns = columns
        self.filters = filters
        self.general = general

    def _members(self, e: ast.Where) -> Callable[[Activation], Any]:
        """The collection a filter walks, charged to the budget whole."""
        coll = self.compiler.expr(e.collection)
        if self.ctx.type_of(e.collection).tag == "zone":
            return lambda a: walked(a.st, a.st.zones[coll(a)])
        return lambda a: walked(a.st, coll(a))

    def any_where(self, e: ast.Where) -> Fn:
        """Whether any member passes the filter (`count of (C where T) > 0`): the walk
        stops at the first that does (filters.existence)."""
        members = self._members(e)
        cond = self.compiler.expr(e.condition)
        static = self.filters.static_test(e.condition)
        by_piece, by_def = static if static is not None else ([], [])  # (none decided: every one tested)

        def some(a: Activation) -> bool:
            saved = a.it
            try:
                for x in members(a):
                    keep = None if static is None else (by_piece[x] if type(x) is int else by_def[int(x)])
                    if keep is None:
                        a.it = x
                        keep = cond(a)
                    if keep:
                        return True
                return False
            finally:
                a.it = saved
        return some

    def x_Where(self, e: ast.Where) -> Fn:
        members = self._members(e)
        zone = self.ctx.type_of(e.collection).tag == "zone"
        cond = self.compiler.expr(e.condition)
        static = self.filters.static_test(e.condition)
        if static is not None:  # `where its suit is hearts`: decided per piece at compile time
            by_piece, by_def = static
            if None not in by_piece and None not in by_def:
                if zone:
                    return lambda a: [x for x in members(a) if by_piece[x]]
                return lambda a: [x for x in members(a) if (by_piece[x] if type(x) is int else by_def[int(x)])]

            def where_mixed(a: Activation) -> list:  # the undecided ones (None) are asked
                saved = a.it
                out = []
                for x in members(a):
                    keep = by_piece[x] if type(x) is int else by_def[int(x)]
                    if keep is None:
                        a.it = x
                        keep = cond(a)
                    if keep:
                        out.append(x)
                a.it = saved
                return out
            return where_mixed

        def where(a: Activation) -> list:
            saved = a.it
            out = []
            for x in members(a):
                a.it = x
                if cond(a):
                    out.append(x)
            a.it = saved
            return out
        return where

    def x_Select(self, e: ast.Select) -> Fn:
        src = self.compiler.expr(e.source)
        st_tag = self.ctx.type_of(e.source).tag
        if st_tag in ("symbols", "counters") or self.ctx.type_of(e).tag in ("symbols", "counters"):
            def distinct(a: Activation) -> list:
                seen: list = []
                items = src(a)
                spend(a.st, len(items))
                for s in items:
                    if s not in seen:
                        seen.append(s)
                return seen
            return distinct
        ref = self.ctx.ref(e)
        return selection.select(src, st_tag, ref if isinstance(ref, r.Selection) else None, self.ctx.piece_kind,
                                self.ctx.def_kind, self.ctx.piece_class)

    def x_Top(self, e: ast.Top) -> Fn:
        src = self.compiler.expr(e.source)
        count = self.compiler.expr(e.count) if e.count is not None else None
        top = e.end == "top"
        if isinstance(self.ctx.ref(e), r.PileEnd):  # pieces from a zone: the top is the last, as in the zone
            return selection.pile_end(src, count, top, e.end)
        end = e.end
        if self.ctx.type_of(e.source).is_collection:  # first (top) or last (bottom) members
            if count is None:
                return lambda a: selection.member(src(a), end)
            return lambda a: selection.members(a.st, src(a), count(a), top)
        if count is None:
            return lambda a: selection.zone_piece(a.st.zones[src(a)], end)
        return lambda a: selection.zone_pieces(a.st, a.st.zones[src(a)], count(a), top)

    def x_Entry(self, e: ast.Entry) -> Fn:
        src = self.compiler.expr(e.source)
        index = self.compiler.expr(e.index)
        if self.ctx.type_of(e.source).tag == "table":
            piece_def = self.ctx.lay.piece_def
            era_of = self.columns.era_of

            def lookup(a: Activation) -> Any:
                table = src(a)
                key = index(a)
                d = int(key) if isinstance(key, DefRef) else piece_def[key]
                if d not in table.numbers:
                    raise ContentError(f"{a.st.describe(key)} is not in the table")
                v = table.numbers[d]
                return era_of(v, a.st) if type(v) is EraValue else v
            return lookup

        def nth(a: Activation) -> Any:
            items = src(a)
            n = index(a)
            if not 1 <= n <= len(items):
                raise ContentError(f"there is no entry {n}: the list has {len(items)}")
            return indexable(items)[n - 1]
        return nth

    def x_SpaceOf(self, e: ast.SpaceOf) -> Fn:
        index = self.compiler.expr(e.index)
        track = self.compiler.expr(e.track)
        tracks = self.ctx.lay.track_zones

        def space(a: Activation) -> int:
            item, n = track(a), index(a)
            spaces = tracks.get(item)
            if spaces is None:
                raise ContentError(f"{a.st.describe(item)} has no track")
            if not 1 <= n <= len(spaces):
                raise ContentError(f"{a.st.describe(item)}'s track has no space {n} (it has {len(spaces)})")
            return spaces[n - 1]
        return space

    def x_Aggregate(self, e: ast.Aggregate) -> Fn:
        coll = self.compiler.expr(e.collection)
        ref = self.ctx.ref(e)
        fn: Callable[[list], int] = _AGGREGATES[e.fn]
        probe = aggregate_probe(self.ctx.res, e, ref, self.ctx.type_of(e.collection).element())
        if isinstance(ref, r.PlayerCounter):
            base = self.ctx.lay.player_counter[ref.name]
            get: Fn = lambda a: a.st.counters[base + a.it]  # noqa: E731
        else:
            get = self.compiler.expr(probe)

        def aggregate(a: Activation) -> int:
            saved = a.it
            values = []
            items = coll(a)
            spend(a.st, len(items))
            for x in items:
                a.it = x
                values.append(get(a))
            a.it = saved
            return fn(values) if values else 0
        return aggregate

    def x_Ordered(self, e: ast.Ordered) -> Fn:
        coll = self.compiler.expr(e.collection)
        key = self.compiler.expr(e.key)
        desc = e.descending

        def ordered(a: Activation) -> list:
            saved = a.it
            keyed = []
            items = coll(a)
            spend(a.st, len(items))
            for x in items:
                a.it = x
                keyed.append((key(a), x))
            a.it = saved
            keyed.sort(key=lambda kx: -kx[0] if desc else kx[0])  # stable: ties keep their order
            return [x for _, x in keyed]
        return ordered

    def x_Relative(self, e: ast.Relative) -> Fn:
        if e.word == "player":
            return self.general.next_player(e)
        who = self.compiler.expr(e.player)
        relation = e.relation
        return lambda a: players_around(a.st, who(a), relation)
