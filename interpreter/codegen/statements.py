"""The code generator's statements: a statement that never asks a decision and never
pushes a frame (the registry's `direct`, and `if` / `for each` / `repeat` / `as P:` made
of them) written as one Python function `s(st, a)`, and a block made only of them as one
function `b(st, a)` (a block with no frame: compiler.py `Compiler.block`); loops charged
to the step budget as the closures charge them, each inner statement's Where kept so an
error names the statement that raised it (as run_direct does).
"""

from __future__ import annotations

import ast as pyast
import textwrap
from typing import Callable, Iterable

from legacies.dsl import ast
from legacies.dsl import resolution as r
from legacies.dsl.constructs import child_blocks

from legacies.dsl.numbers import MAX_NUMBER

from .. import mechanics as mech
from ..compile.closures import Closures
from ..compile.columns import Columns, no_own_state
from ..compile.context import CompileContext, Compiles, Instr, held_slot
from ..errors import Refused, Where
from ..layout import PART_COUNTERS
from ..versions import tick
from .expressions import ExpressionWriter
from .runtime import Reads, Scope, Unsupported
from .writer import CodeWriter, guarded, prelude


class StatementWriter:
    """Writes straight-through statements; holds the closures for the statements inside
    them that it leaves to them."""

    def __init__(self, ctx: CompileContext, compiler: Compiles, writer: CodeWriter, gen: ExpressionWriter,
                 closures: Closures, columns: Columns):
        self.ctx = ctx
        self.compiler = compiler
        self.writer = writer
        self.gen = gen
        self.closures = closures
        self.columns = columns

    def writes(self, s: ast.Stmt) -> bool:
        """Whether the statement is one this writes (a score ledger's records are the closures')."""
        return self.ctx.ledger is None and _straight(s, self.ctx.runs_straight)

    def function(self, stmt: ast.Stmt) -> Instr:
        """`stmt` as one generated function `s(st, a)` (Unsupported: the closures compile it,
        as they do a statement this does not write but only calls: a wrapper would be one
        call more)."""
        if type(stmt).__name__ not in _WRITTEN:
            raise Unsupported("a statement left to the closures")
        wheres: list[Where] = []
        scope = Scope("a", "me", "this", "env", "a.it", None, {"st"})
        body: list[str] = []
        self._write(stmt, scope, body, 2, wheres, top=True)
        if not (wheres or scope.names):
            return self._define("s", scope, body, None)
        return self._define("s", scope, body, f"_rt_locate(err, {self.writer.bind(tuple(wheres))}, _w, "
                                              f"{tuple(sorted(scope.names))!r})")

    def block_function(self, body: ast.Body) -> Instr:
        """A whole block of straight-through statements as one generated function `b(st, a)`:
        what a frame would run a statement a step, run in one call (Unsupported: the block
        runs as frames). Every statement, the first too, says it is running (`_w`), so an
        error is located at it here, as the frame would have located it."""
        if not body:
            raise Unsupported("an empty block")
        wheres: list[Where] = []
        tops: list[Where] = []  # for each of `wheres`, the block's statement it is in
        scope = Scope("a", "me", "this", "env", "a.it", None, {"st"})
        lines: list[str] = []
        for stmt in body:
            self._write(stmt, scope, lines, 2, wheres)
            tops += [self.ctx.where(stmt)] * (len(wheres) - len(tops))
        w, t = self.writer.bind(tuple(wheres)), self.writer.bind(tuple(tops))
        return self._define("b", scope, lines, f"_rt_locate_block(err, {w}, {t}, _w, {tuple(sorted(scope.names))!r})")

    def _define(self, kind: str, scope: Scope, body: list[str], locate: str | None) -> Instr:
        """A generated instruction `{kind}N(st, a)` running `body` (written two levels in);
        with `locate`, the code of the error it raises in place of one escaping the body
        (located at the statement running, `_w`; a refusal goes on as it is)."""
        name = self.writer.name(kind)
        lines = [f"def {name}(st, a):"] + [f"    {line}" for line in prelude(scope) if not line.startswith("st =")]
        if locate is None:
            lines += [line[4:] for line in body]  # no try: one level in
        else:
            lines += ["    _w = -1", "    try:"] + body + ["    except BaseException as err:", f"        located = {locate}",
                                                         "        if located is err:", "            raise",
                                                         "        raise located from err"]
        fn: Instr = self.writer.define("\n".join(lines) + "\n", name)
        fn.direct = True  # type: ignore[attr-defined]
        return fn

    def _write(self, stmt: ast.Stmt, s: Scope, out: list[str], depth: int, wheres: list[Where],
               top: bool = False) -> None:
        """Write one statement at `depth`; an inner statement first says it is running
        (`_w`, an index in `wheres`)."""
        pad = "    " * depth
        if not top:
            wheres.append(self.ctx.where(stmt))
            out.append(f"{pad}_w = {len(wheres) - 1!r}")
        method = getattr(self, "w_" + type(stmt).__name__, None)
        if method is None:
            self._closure(stmt, s, out, pad)
            return
        method(stmt, s, out, depth, wheres)

    def _closure(self, stmt: ast.Stmt, s: Scope, out: list[str], pad: str) -> None:
        """A call of the statement's closure, for a statement (or a form of one) not written here."""
        out.append(f"{pad}{self.writer.bind(self.closures.stmt(stmt), 'c')}(st, {s.a})")

    def _body(self, body: ast.Body, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        if not body:
            out.append("    " * depth + "pass")
        for inner in body:
            self._write(inner, s, out, depth, wheres)

    def _slot(self, counter: ast.Name, player: ast.Expr | None, verb: str, s: Scope, reads: Reads) -> str:
        ref = self.ctx.ref(counter)
        who = self.gen.player(player, s, reads)
        if isinstance(ref, r.PlayerCounter):
            base = self.ctx.lay.player_counter[counter.name]
            return guarded(who, lambda q: f"{base!r} + {q}", f"nobody can {verb} `{counter.name}`")
        holder = self.gen.g(counter, s, reads)
        table = self.writer.bind(self.ctx.lay.player_counter)
        slot = f"{self.writer.bind(held_slot)}({table}, {holder}, {counter.name!r})"
        return guarded(who, lambda q: f"{slot} + {q}", f"nobody can {verb} counters")

    def w_Let(self, stmt: ast.Let, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        s.uses.add("env")
        out.append("    " * depth + f"{s.env}[{stmt.var!r}] = {self.gen.g(stmt.value, s, Reads())}")

    def _change(self, stmt: ast.Gain | ast.Lose | ast.Pay, verb: str, s: Scope, out: list[str], depth: int) -> None:
        pad = "    " * depth
        amount = self.gen.g(stmt.amount, s, Reads())
        slot = self._slot(stmt.counter, stmt.player, verb, s, Reads())
        # read in the closures' order: `pay` the amount first, `gain`/`lose` the slot first
        if verb == "pay":
            out.append(f"{pad}_n = {amount}")
            out.append(f"{pad}_rt_pay(st, _adjust, {slot}, _n)")
        else:
            # a player counter by its name (`_slot`'s other way, a counter held in a name, may be any)
            named = isinstance(self.ctx.ref(stmt.counter), r.PlayerCounter)
            bounds = self._bounds(self._lvalue_slots(stmt.counter)) if named else None
            self._add(out, pad, slot, amount if verb == "gain" else f"-({amount})", bounds)

    def _bounds(self, slots: Iterable[int]) -> tuple[int | None, int | None, int] | None:
        """The ends and the part every one of `slots` shares (None: they differ, or none)."""
        lay = self.ctx.lay
        found = {(lay.counter_min[k], lay.counter_max[k], lay.counter_part[k]) for k in slots if k >= 0}
        return next(iter(found)) if len(found) == 1 else None

    def _add(self, out: list[str], pad: str, slot: str, delta: str,
             bounds: tuple[int | None, int | None, int] | None) -> None:
        """`mechanics.adjust(st, slot, delta)`, written in place where every slot the
        statement can change has the same ends and part (`bounds`): the commonest change of
        all (a gain, a loss, a raise) without a call, the layout's tables read when written."""
        if bounds is None:
            out.append(f"{pad}_adjust(st, {slot}, {delta})")
            return
        lo, hi, part = bounds
        if slot != "_k":
            out.append(f"{pad}_k = {slot}")
        out.append(f"{pad}_n0 = st.counters[_k]")
        out.append(f"{pad}_nv = _n0 + {delta}")
        # stopped at the counter's ends; one with no end of its own stops the game past the limit
        for end, past, cmp in ((lo, -MAX_NUMBER, "<"), (hi, MAX_NUMBER, ">")):
            out.append(f"{pad}if _nv {cmp} {end!r}: _nv = {end!r}" if end is not None else
                       f"{pad}if _nv {cmp} {past!r}: {self.writer.bind(mech.bounded)}(_nv)")
        # no change counted when nothing changed: what was computed from it still stands
        out.append(f"{pad}if _nv != _n0:")
        out.append(f"{pad}    st.counters[_k] = _nv")
        out.append(f"{pad}    _vs = st.versions")
        out.append(f"{pad}    _vs[{PART_COUNTERS!r}] = _vs[{part!r}] = st.slot_versions[_k] = {self.writer.bind(tick)}()")

    def w_Gain(self, stmt: ast.Gain, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        self._change(stmt, "gain", s, out, depth)

    def w_Lose(self, stmt: ast.Lose, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        self._change(stmt, "lose", s, out, depth)

    def w_Pay(self, stmt: ast.Pay, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        self._change(stmt, "pay", s, out, depth)

    def w_If(self, stmt: ast.If, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        pad = "    " * depth
        for k, branch in enumerate(stmt.branches):
            cond = self.gen.g(branch.condition, s, Reads())
            out.append(f"{pad}{'if' if k == 0 else 'elif'} {cond}:")
            self._body(branch.body, s, out, depth + 1, wheres)
        if stmt.otherwise is not None:
            out.append(f"{pad}else:")
            self._body(stmt.otherwise, s, out, depth + 1, wheres)

    def w_ForEach(self, stmt: ast.ForEach, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        pad = "    " * depth
        items, item = self.writer.name("t"), self.writer.name("t")
        source = self.gen.source(stmt.collection, s, Reads())
        # a list made here is the loop's own (the closures copy what they are given)
        out.append(f"{pad}{items} = {source if _fresh_list(source) else f'list({source})'}")
        out.append(f"{pad}_spend(st, len({items}) * {len(stmt.body) + 1!r})")
        out.append(f"{pad}for {item} in {items}:")
        rebound = any(isinstance(n, ast.Let) and n.var == stmt.var for x in stmt.body for n in ast.walk(x))
        inner: list[str] = []
        self._body(stmt.body, s if rebound else s.binding(stmt.var, item), inner, depth + 1, wheres)
        # the name in the table too, as the closures bind it: each time round where the body
        # reads the table (a closure given the activation, a name of its own, an `as P:`
        # block), else once, the last, as the closures leave it (a state's fingerprint reads it)
        s.uses.add("env")
        if rebound or {s.a or "a", s.env or "env"} & _names_read(inner):
            out.append(f"{pad}    {s.env}[{stmt.var!r}] = {item}")
            out += inner
        else:
            out += inner
            out.append(f"{pad}if {items}:")
            out.append(f"{pad}    {s.env}[{stmt.var!r}] = {items}[-1]")

    def w_Repeat(self, stmt: ast.Repeat, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        pad = "    " * depth
        times = self.writer.name("t")
        out.append(f"{pad}{times} = {self.gen.g(stmt.count, s, Reads())}")
        out.append(f"{pad}if {times} > 0:")
        out.append(f"{pad}    _spend(st, {times} * {len(stmt.body) + 1!r})")
        out.append(f"{pad}    for _ in range({times}):")
        self._body(stmt.body, s, out, depth + 2, wheres)

    def w_AsPlayer(self, stmt: ast.AsPlayer, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        pad = "    " * depth
        p, inner = self.writer.name("t"), self.writer.name("t")
        s.uses.add("this")
        s.uses.add("env")
        out.append(f"{pad}{p} = {self.gen.g(stmt.player, s, Reads())}")
        out.append(f"{pad}if {p} < 0:")
        out.append(f"{pad}    _rt_nobody('`as P:` needs a player')")
        # same names (one table), another player acting
        out.append(f"{pad}{inner} = _Activation(st, {p}, {s.this}, {s.env})")
        self._body(stmt.body, s.as_player(inner, p), out, depth, wheres)

    def w_SetTo(self, stmt: ast.SetTo, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        pad = "    " * depth
        ref = self.ctx.ref(stmt.target)
        value = self.gen.g(stmt.value, s, Reads())
        if isinstance(ref, r.GameValue):
            out.append(f"{pad}{self.writer.bind(mech.set_value)}(st, {self.ctx.lay.game_value[ref.name]!r}, {value})")
            return
        if isinstance(ref, r.PlayerValue):
            base = self.ctx.lay.player_value[ref.name]
            who = self.gen.player(ref.subject, s, Reads())
            # the player first, then the value, as the closures read them
            out.append(f"{pad}_k = {guarded(who, lambda q: f'{base!r} + {q}', f'nobody has `{ref.name}`')}")
            out.append(f"{pad}{self.writer.bind(mech.set_value)}(st, _k, {value})")
            return
        if isinstance(ref, (r.GameCounter, r.PlayerCounter, r.ItemCounter)):
            slot = self._lvalue(stmt.target, s, out, pad)
            out.append(f"{pad}_k = {slot}")
            out.append(f"{pad}_adjust(st, _k, {self.writer.bind(mech.outside)}(st, _k, {value}) - st.counters[_k])")
            return
        raise Unsupported("set of this target")

    def _lvalue(self, e: ast.Expr, s: Scope, out: list[str], pad: str) -> str:
        """The slot a change of `e` writes; lines that work it out first go to `out`."""
        ref = self.ctx.ref(e)
        if isinstance(ref, r.ItemCounter) and isinstance(e, ast.Of):
            # a piece's own counter (as compile/columns.py `own_slot`): a card's changes only
            # while it is on the table
            subject = self.gen.g(e.subject, s, Reads())
            if self.columns.own_changes_need_table(ref):
                subject = f"{self.writer.bind(mech.mine)}(st, {subject}, {f'`{ref.name}`'!r})"
            slots = self.writer.bind(self.ctx.lay.counter_slots(ref.name))
            out.append(f"{pad}_x = {subject}")
            none = self.writer.bind(no_own_state)
            return f"({slots}[_x] if type(_x) is int and {slots}[_x] >= 0 else {none}(st, _x, {ref.name!r}))"
        if isinstance(ref, r.GameCounter):
            return repr(int(self.ctx.lay.game_counter[ref.name]))
        if isinstance(ref, r.PlayerCounter):
            base = self.ctx.lay.player_counter[ref.name]
            who = self.gen.player(ref.subject, s, Reads())
            return guarded(who, lambda q: f"{base!r} + {q}", f"nobody has `{ref.name}`")
        raise Unsupported("this counter")

    def _lvalue_slots(self, e: ast.Expr) -> Iterable[int]:
        """Every slot `_lvalue(e)` can be."""
        ref = self.ctx.ref(e)
        if isinstance(ref, r.ItemCounter):
            return self.ctx.lay.counter_slots(ref.name)
        if isinstance(ref, r.GameCounter):
            return (int(self.ctx.lay.game_counter[ref.name]),)
        if isinstance(ref, r.PlayerCounter):
            base = self.ctx.lay.player_counter[ref.name]
            return range(base, base + self.ctx.lay.players)
        return ()

    def w_Raise(self, stmt: ast.Raise, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        pad = "    " * depth
        slot = self._lvalue(stmt.target, s, out, pad)
        out.append(f"{pad}_k = {slot}")
        self._add(out, pad, "_k", self.gen.g(stmt.amount, s, Reads()), self._bounds(self._lvalue_slots(stmt.target)))

    def w_Lower(self, stmt: ast.Lower, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        pad = "    " * depth
        slot = self._lvalue(stmt.target, s, out, pad)
        out.append(f"{pad}_k = {slot}")
        self._add(out, pad, "_k", f"-({self.gen.g(stmt.amount, s, Reads())})",
                  self._bounds(self._lvalue_slots(stmt.target)))

    def w_Transfer(self, stmt: ast.Transfer, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        """A transfer that asks nothing (no `up to`, no `either way`): the amount taken
        from one counter and given to the other, refused when the first would go below its
        least, as the closure's `move_amount` does, without its five calls."""
        if stmt.up_to or stmt.either_way:
            raise Unsupported("a transfer that asks")
        pad = "    " * depth
        # the source, the destination, then the amount, as the closures read them; each
        # slot held at once (`_lvalue` may work it out through `_x`)
        out.append(f"{pad}_kf = {self._lvalue(stmt.source, s, out, pad)}")
        out.append(f"{pad}_kt = {self._lvalue(stmt.dest, s, out, pad)}")
        out.append(f"{pad}_n = {self.gen.g(stmt.amount, s, Reads())}")
        least = self.writer.bind(self.ctx.lay.counter_min)
        out.append(f"{pad}if st.counters[_kf] - _n < ({least}[_kf] or 0):")
        out.append(f"{pad}    raise {self.writer.bind(Refused)}(f'not enough to transfer {{_n}}')")
        self._add(out, pad, "_kf", "-_n", self._bounds(self._lvalue_slots(stmt.source)))
        self._add(out, pad, "_kt", "_n", self._bounds(self._lvalue_slots(stmt.dest)))

    def _pieces(self, what: ast.Expr, s: Scope, out: list[str], pad: str) -> str:
        """The pieces a statement moves, as a list made here (StatementCompiler.pieces):
        several charged one step each, one piece a list of it (none for nobody)."""
        pids = self.writer.name("t")
        value = self.gen.g(what, s, Reads())
        if self.ctx.type_of(what).tag == "things":
            out.append(f"{pad}{pids} = list({value})")
            out.append(f"{pad}_spend(st, len({pids}))")
        else:
            out.append(f"{pad}{pids} = {value}")
            out.append(f"{pad}{pids} = [] if {pids} is None else [{pids}]")
        return pids

    def _each_piece(self, what: ast.Expr, call: str, s: Scope, out: list[str], depth: int) -> None:
        """`call` (source with `{}` for the piece) for each piece a statement moves."""
        pad = "    " * depth
        pids = self._pieces(what, s, out, pad)
        pid = self.writer.name("t")
        out.append(f"{pad}for {pid} in {pids}:")
        out.append(f"{pad}    {call.format(pid)}")

    def w_Move(self, stmt: ast.Move, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        pad = "    " * depth
        if self.ctx.type_of(stmt.dest).tag == "thing":  # onto a piece that holds pieces: the closures' own
            self._closure(stmt, s, out, pad)
            return
        dest = self.writer.name("t")
        out.append(f"{pad}{dest} = {self.gen.g(stmt.dest, s, Reads())}")  # the zone first, as the closures read it
        move = self.writer.bind(mech.move_to)
        self._each_piece(stmt.what, f"{move}(st, {{}}, {dest}, {stmt.at == 'bottom'!r}, {stmt.bump!r})",
                         s, out, depth)

    def w_Discard(self, stmt: ast.Discard, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        self._each_piece(stmt.what, f"{self.writer.bind(mech.discard)}(st, {{}})", s, out, depth)

    def w_Remove(self, stmt: ast.Remove, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        self._each_piece(stmt.what, f"{self.writer.bind(mech.remove)}(st, {{}})", s, out, depth)

    def w_Log(self, stmt: ast.Log, s: Scope, out: list[str], depth: int, wheres: list[Where]) -> None:
        pad = "    " * depth
        text = self.compiler.text(stmt, stmt.text)
        if isinstance(text, str):
            out.append(f"{pad}st.log.append({text!r})")
        else:
            out.append(f"{pad}st.log.append({self.writer.bind(text.said, 'c')}({s.a}))")  # words made when read



def _fresh_list(code: str) -> bool:
    """Whether generated code makes a new list (a list, a comprehension, `list(...)`)."""
    node = pyast.parse(code, mode="eval").body
    whole_slice = isinstance(node, pyast.Subscript) and isinstance(node.slice, pyast.Slice) and \
        node.slice.lower is node.slice.upper is node.slice.step is None  # `xs[:]`
    return whole_slice or isinstance(node, (pyast.List, pyast.ListComp)) or \
        isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == "list"


def _names_read(lines: list[str]) -> set[str]:
    """The Python names generated lines use."""
    tree = pyast.parse(textwrap.dedent("\n".join(lines)))
    return {node.id for node in pyast.walk(tree) if isinstance(node, pyast.Name)}


def _straight(s: ast.Stmt, alone: Callable[[ast.Stmt], bool]) -> bool:
    """Whether a statement runs straight through: one that does on its own in this game
    (`alone`: the registry's `direct`, or quiet here: compile/context.py `runs_straight`),
    or a statement with blocks that this writes (`if`, `for each`, `repeat`, `as P:`)
    whose every statement does."""
    if alone(s):
        return True
    if type(s).__name__ in _COMPOUND:
        return all(_straight(x, alone) for block in child_blocks(s) for x in block)
    return False


_WRITTEN = frozenset(n[2:] for n in dir(StatementWriter) if n.startswith("w_"))
_COMPOUND = frozenset(("If", "ForEach", "Repeat", "AsPlayer"))  # the statements with blocks that this writes
