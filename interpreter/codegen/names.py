"""The code generator's names: a name by what the checker resolved it to (a local, a
builtin, a counter, a value, a zone, a symbol, an item, a definition), `X's NAME` (a
player's counter, value or zone, a quantity, an attribute, a piece's own state, a
builtin of one argument), and what each read is stamped with (`Reads`) so a result
kept across menus is recomputed when what it read has changed.
"""

from __future__ import annotations

from legacies.dsl import ast
from legacies.dsl import resolution as r

from .. import builtins
from ..compile.columns import Columns
from ..compile.context import MISSING, CompileContext, or_nobody
from ..compile.expressions import ExpressionCompiler
from ..layout import PART_ACTIVE, PART_ORDER, PART_PIECES, PART_TIMED, PART_VALUES
from ..values import DefRef
from .runtime import Reads, Scope, Unsupported, is_parameter, make_reader, own_reader, simple, uncopied
from .writer import CodeWriter, WritesExpressions, counter_read, guarded, me_in, owner_of, st_in



class NameWriter:
    def __init__(self, ctx: CompileContext, writer: CodeWriter, gen: WritesExpressions, columns: Columns,
                 exprs: ExpressionCompiler):
        self.ctx = ctx
        self.writer = writer
        self.gen = gen
        self.columns = columns
        self.exprs = exprs
        self._readers: dict[tuple, str] = {}

    def zone_read(self, node: ast.Expr, s: Scope, reads: Reads) -> None:
        """A zone's pieces read: that zone's count of changes when the zone is known by a
        constant or as the acting player's, else every move counts."""
        ref = self.ctx.ref(node) if isinstance(node, (ast.Name, ast.Of)) else None
        if isinstance(ref, r.GameZone):
            reads.site(f"zv[{self.ctx.lay.game_zone[ref.name]!r}]")
        elif isinstance(ref, r.PlayerZone) and self.mine(ref.subject) and not ref.plural and s.me == "me":
            reads.site(f"zv[{self.ctx.lay.player_zone[ref.name]!r} + me]")
        elif isinstance(ref, r.PlayerZone) and not ref.plural and (p := self.parameter(ref.subject, s)) is not None:
            # a player given as a definition's parameter: that player's zone, known where the stamp is made
            reads.own_site(self._players_slot("zv", self.ctx.lay.player_zone[ref.name], p, PART_PIECES), PART_PIECES)
        else:
            reads.add(PART_PIECES)

    def _players_slot(self, table: str, base: int, p: str, part: int) -> str:
        """A stamp's site: the count of changes of player `p`'s slot or zone (`p` a
        definition's parameter, read where the stamp is made); for anything that is no
        player's number (nobody, a yes/no), the count of the whole `part`, as before."""
        return f"({table}[{base!r} + {p}] if type({p}) is int and 0 <= {p} < {self.ctx.lay.players!r} else v[{part!r}])"

    def parameter(self, subject: ast.Expr | None, s: Scope) -> str | None:
        """The Python name of a definition's parameter `subject` names (None: anything else)."""
        if isinstance(subject, ast.Name) and isinstance(self.ctx.ref(subject), r.Local):
            code = s.params.get(subject.name)
            if code is not None and is_parameter(code):
                return code
        return None

    def name_part(self, reads: Reads, name: str) -> None:
        part = self.ctx.lay.counter_parts.get(name)
        if part is None:
            reads.unknown()
        else:
            reads.add(part)

    def value_part(self, reads: Reads, name: str) -> None:
        """A value read by name (any slot of it): the name's part, else every value's."""
        part = self.ctx.lay.value_parts.get(name)
        reads.add(PART_VALUES if part is None else part)

    def g_Name(self, e: ast.Name, s: Scope, reads: Reads) -> str:  # noqa: C901 - one branch per kind of name
        ref = self.ctx.ref(e)
        lay = self.ctx.lay
        if isinstance(ref, r.Local):
            if ref.name in s.params:
                return s.params[ref.name]
            if s.env is None:
                raise Unsupported("a local outside its table")
            s.uses.add("env")
            s.names.add(ref.name)  # a KeyError for it is "has no value here" (_rt_unbound)
            return f"{s.env}[{ref.name!r}]"
        if isinstance(ref, r.BuiltinName):
            n = ref.name
            if n == "me":
                return me_in(s)
            if n == "nobody":
                return "-1"
            if n == "active_player":
                reads.add(PART_ACTIVE)
                return f"{st_in(s)}.active"
            if n == "players":
                reads.add(PART_ORDER)
                return f"list({st_in(s)}.turn_order)"
            if n == "opponents":
                reads.add(PART_ORDER)
                return f"[_q for _q in {st_in(s)}.turn_order if _q != {me_in(s)}]"
            if n == "player_count":
                return repr(int(self.ctx.lay.players))
            reads.add_parts(builtins.READS.get(n))
            return f"{self.writer.bind(builtins.RUN[n])}({st_in(s)}, {me_in(s)})"
        if isinstance(ref, r.GameCounter):
            slot = lay.game_counter[ref.name]
            counter_read(reads, slot)
            return f"{st_in(s)}.counters[{slot!r}]"
        if isinstance(ref, r.PlayerCounter):
            return self._player_counter(ref.name, None, s, reads)
        if isinstance(ref, r.GameValue):
            reads.site(f"vv[{lay.game_value[ref.name]!r}]")
            read = f"{st_in(s)}.values[{lay.game_value[ref.name]!r}]"
            return f"{self.writer.bind(or_nobody)}({read})" if self.exprs.player_valued(ref.name) else read
        if isinstance(ref, r.PlayerValue):
            return self._player_value(ref.name, None, s, reads)
        if isinstance(ref, r.GameZone):
            return repr(int(lay.game_zone[ref.name]))
        if isinstance(ref, r.PlayerZone):
            return self._player_zone(ref.name, None, s, reads)
        if isinstance(ref, r.Symbol):
            return self.writer.lit(ref.symbol)
        if isinstance(ref, r.Enum):
            return f"_rt_walk({st_in(s)}, {self.writer.bind(list(self.ctx.v.enums[ref.enum]))})[:]"
        if isinstance(ref, r.CounterSet):
            return f"_rt_walk({st_in(s)}, {self.writer.bind(list(self.ctx.v.counter_sets[ref.name]))})[:]"
        if isinstance(ref, r.Quantity):
            return self._quantity(ref.name, me_in(s), "None", s, reads)
        if isinstance(ref, r.Option):  # fixed when the game is made: reads nothing that changes
            return f"_rt_option({st_in(s)}, {self.writer.lit(ref.name)})"
        if isinstance(ref, r.KindAll):
            return f"_rt_walk({st_in(s)}, {self.writer.bind(list(lay.kind_pieces.get(ref.kind, [])))})[:]"
        if isinstance(ref, r.BoardItem):
            return repr(int(lay.board_item[ref.id]))
        if isinstance(ref, r.CardDef):
            return self.writer.bind(DefRef(lay.def_index[ref.id]))
        if isinstance(ref, r.CardPiece) and len(lay.def_pieces[lay.def_index[ref.id]]) == 1:
            return repr(int(lay.def_pieces[lay.def_index[ref.id]][0]))  # its only copy (else the closures' error)
        if isinstance(ref, r.Definition):
            return self.gen.call(ref.name, [], e, s, reads)
        if isinstance(ref, r.Action):
            return self.writer.lit(ref.name)
        reads.unknown()
        return self.gen.fallback(e, s)

    def _quantity(self, q: str, player: str, subject: str, s: Scope, reads: Reads) -> str:
        st = st_in(s)
        read = f"_quantity({st}, {q!r}, {player}, {subject})"
        if q in self.ctx.modified_quantities:
            reads.unknown()  # a modifier's value is any expression: remembered within a menu only
            return read
        # no piece changes it: its default unless a timed modifier is in force (the player
        # and the subject are still worked out, as the closures do: either may fail)
        reads.add(PART_TIMED)
        default = self.writer.bind(self.ctx.v.quantities[q].default)
        if simple(player) and simple(subject):
            return f"({read} if {st}.timed else {default})"
        return f"({read} if {st}.timed else ({player}, {subject}, {default})[2])"

    def _player_counter(self, name: str, subject: ast.Expr | None, s: Scope, reads: Reads) -> str:
        base = self.ctx.lay.player_counter[name]
        p = self.gen.player(subject, s, reads)
        part = self.ctx.lay.counter_parts.get(name)
        if p == "me" and s.me == "me":  # the acting player's (written `my`, or a parameter given `me`)
            reads.site(f"sv[{base!r} + me]")
        elif part is not None and is_parameter(p):  # a player given as a definition's parameter
            reads.own_site(self._players_slot("sv", base, p, part), part)
        else:
            self.name_part(reads, name)
        what = f"there is no `{name}` to read" if subject is None else f"nobody has `{name}`"
        st = st_in(s)
        return guarded(p, lambda q: f"{st}.counters[{base!r} + {q}]", what)

    def _player_value(self, name: str, subject: ast.Expr | None, s: Scope, reads: Reads) -> str:
        base = self.ctx.lay.player_value[name]
        p = self.gen.player(subject, s, reads)
        if p == "me" and s.me == "me":  # the acting player's: that slot's count of changes
            reads.site(f"vv[{base!r} + me]")
        elif is_parameter(p):  # a player given as a definition's parameter
            part = self.ctx.lay.value_parts.get(name, PART_VALUES)
            reads.own_site(self._players_slot("vv", base, p, part), part)
        else:
            self.value_part(reads, name)
        st = st_in(s)
        read = guarded(p, lambda q: f"{st}.values[{base!r} + {q}]", f"nobody has `{name}`")
        return f"{self.writer.bind(or_nobody)}({read})" if self.exprs.player_valued(name) else read  # unset: nobody

    def _player_zone(self, name: str, subject: ast.Expr | None, s: Scope, reads: Reads, plural: bool = False) -> str:
        base = self.ctx.lay.player_zone[name]
        if subject is None:
            return guarded(me_in(s), lambda q: f"{base!r} + {q}", f"there is no `{name}` here")
        p = self.gen.g(subject, s, reads)
        if plural:
            return f"[{base!r} + _q for _q in {p}]"
        return guarded(p, lambda q: f"{base!r} + {q}", f"nobody has a `{name}`")

    def g_Of(self, e: ast.Of, s: Scope, reads: Reads) -> str:
        ref = self.ctx.ref(e)
        if isinstance(ref, r.PlayerCounter):
            return self._player_counter(ref.name, ref.subject, s, reads)
        if isinstance(ref, r.PlayerValue):
            return self._player_value(ref.name, ref.subject, s, reads)
        if isinstance(ref, r.PlayerZone):
            return self._player_zone(ref.name, ref.subject, s, reads, ref.plural)
        if isinstance(ref, r.Quantity):
            subj = self.gen.g(e.subject, s, reads)
            if ref.of_player:
                return self._quantity(ref.name, subj, "None", s, reads)
            return self._quantity(ref.name, me_in(s), subj, s, reads)
        if isinstance(ref, r.Supply):
            return f"('supply', {ref.kind!r}, {self.gen.g(e.subject, s, reads)})"
        if isinstance(ref, r.Attribute):
            return self._attribute(e, True, s, reads)
        if isinstance(ref, (r.ItemCounter, r.ItemValue)):
            return self._own_state(e, ref, True, s, reads)
        if isinstance(ref, r.BuiltinOf):
            subj = self.gen.g(e.subject, s, reads)
            tag = self.ctx.type_of(e.subject).tag
            if ref.name == "count" and tag == "zone":
                self.zone_read(e.subject, s, reads)
                return f"len({st_in(s)}.zones[{subj}])"
            if ref.name == "count" and self.ctx.type_of(e.subject).is_collection:
                args = uncopied(subj)  # a collection read whole to be counted: no copy made
                return f"len({subj})" if args is None else f"_rt_count({args})"
            if ref.name == "owner":
                tokens = self._owned_tokens(self.ctx.type_of(e.subject).arg)
                if not tokens:
                    reads.add(PART_PIECES)  # a card's owner is its zone's
                return owner_of(st_in(s), subj, tokens)
            if ref.name == "track":
                return subj
            for_player = builtins.FOR_PLAYER.get(ref.name)
            by_player = bool(for_player) and tag == "player"
            reads.add_parts((builtins.READS_FOR_PLAYER if by_player else builtins.READS).get(ref.name))
            run = for_player if by_player else builtins.RUN[ref.name]
            return f"{self.writer.bind(run)}({st_in(s)}, {me_in(s)}, {subj})"
        reads.unknown()
        return self.gen.fallback(e, s)

    def _attribute(self, e: ast.Of, strict: bool, s: Scope, reads: Reads) -> str:
        """An attribute read: a column by piece (an int) or by definition (a DefRef)."""
        name = e.name
        by_piece, by_def = self.columns.column(name)
        t = self.ctx.type_of(e)
        era_scalar, era_in_lists = self.columns.era_column(name, by_def)
        has_era = era_scalar or (t.tag == "numbers" and era_in_lists)
        subj = self.gen.g(e.subject, s, reads)
        if has_era:
            counter_read(reads, self.ctx.era_slot)
        plain = not has_era and (not strict or MISSING not in by_piece)
        if plain and subj.isidentifier():  # the common case, inline: a column read
            bp = self.writer.bind(by_piece)
            return f"({bp}[{subj}] if type({subj}) is int else {self._reader(name, strict, False)}({st_in(s)}, {subj}))"
        if not has_era and subj.isidentifier():  # a piece that gives it, inline; the reader says what is missing
            assert MISSING is None
            bp = self.writer.bind(by_piece)
            return (f"({bp}[{subj}] if type({subj}) is int and {bp}[{subj}] is not None "
                    f"else {self._reader(name, strict, False)}({st_in(s)}, {subj}))")
        return f"{self._reader(name, strict, has_era)}({st_in(s)}, {subj})"

    def _reader(self, name: str, strict: bool, has_era: bool) -> str:
        key = ("attribute", name, strict, has_era)
        found = self._readers.get(key)
        if found is None:
            reader = make_reader(*self.columns.column(name), self.ctx.spec.defs, self.ctx.era_slot, name, strict, has_era)
            found = self._readers[key] = self.writer.bind(reader, "r")
        return found

    def _own_state(self, e: ast.Of, ref: r.ItemCounter | r.ItemValue, strict: bool, s: Scope, reads: Reads) -> str:
        counter = isinstance(ref, r.ItemCounter)
        if counter:
            self.name_part(reads, ref.name)
        else:
            self.value_part(reads, ref.name)
        slots = self.ctx.lay.counter_slots(ref.name) if counter else self.ctx.lay.value_slots(ref.name)
        subj = self.gen.g(e.subject, s, reads)
        fn = self.writer.bind(own_reader(ref.name, slots, counter, strict), "r")
        st = st_in(s)
        if subj.isidentifier():
            # a name (a loop's member, a parameter): the slot read in place, the reader
            # called only for what has no slot (its error or MISSING); these reads fill
            # the filters of a map's places
            at = self.writer.bind(slots, "k")
            table = "counters" if counter else "values"
            return (f"({st}.{table}[{at}[{subj}]] if type({subj}) is int and {at}[{subj}] >= 0 "
                    f"else {fn}({st}, {subj}))")
        return f"{fn}({st}, {subj})"

    def mine(self, subject: ast.Expr | None) -> bool:
        """Whether a subject is the acting player (none written, or `me`)."""
        return subject is None or isinstance(subject, ast.Name) and \
            isinstance(self.ctx.ref(subject), r.BuiltinName) and subject.name == "me"

    def _owned_tokens(self, kind: str | None) -> bool:
        """Whether every piece of a kind is a token with an owner (who never changes)."""
        k = self.ctx.v.kinds.get(kind or "")
        pieces = self.ctx.lay.kind_pieces.get(kind or "", [])
        return k is not None and k.piece == "token" and bool(pieces) and \
            all(self.ctx.lay.piece_owner[p] >= 0 for p in pieces)

    def lenient(self, e: ast.Expr, s: Scope, reads: Reads) -> str:
        if isinstance(e, ast.Of):
            ref = self.ctx.ref(e)
            if isinstance(ref, r.Attribute):
                return self._attribute(e, False, s, reads)
            if isinstance(ref, (r.ItemCounter, r.ItemValue)):
                return self._own_state(e, ref, False, s, reads)
        return self.gen.g(e, s, reads)
