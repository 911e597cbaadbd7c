"""The code generator's definitions and actions' targets.

Each definition the content calls becomes one function `d(st, me, this, *params)` that
remembers its results while a menu is built (as the closures do) and, in menus or outside
them, while what it reads has not changed (`State.keep`; runtime.Reads); a small one is
written in place where it is called. An action's targets become two functions: every target, and
whether there is one.
"""

from __future__ import annotations

import ast as pyast
import re
from typing import Callable

from legacies.dsl import ast

from ..compile.context import CompileContext
from ..errors import InternalError
from ..spec import ActionSpec, Origin
from .hoist import fresh_slots, hoisted
from .runtime import KEPT_FINDS, KEPT_WINDOW, MEMO_WINDOW, Reads, Scope, Unsupported, costly, inlined, simple
from .writer import CodeWriter, WritesExpressions, me_in, st_in, this_in

_ME = re.compile(r"\bme\b")
# a stamp's tables of change counts (State.versions...), by the names its code reads them by
_VERSIONS = (("v", "versions"), ("sv", "slot_versions"), ("zv", "zone_versions"), ("vv", "value_versions"))



def _made_list(code: str) -> bool:
    """Whether `code` makes a new list (a list comprehension or display), nobody else's
    (False for code nested past Python's parser: its compile is refused as before)."""
    try:
        return isinstance(pyast.parse(code, mode="eval").body, (pyast.ListComp, pyast.List))
    except (SyntaxError, RecursionError):
        return False


class DefinitionWriter:
    def __init__(self, ctx: CompileContext, writer: CodeWriter, gen: WritesExpressions):
        self.ctx = ctx
        self.writer = writer
        self.gen = gen
        self._def_fns: dict[str, tuple[str, list[str], Reads, str]] = {}  # name -> (fn, params, reads, body)
        self._acting: dict[str, frozenset[str]] = {}  # name -> which of `me`, `this` its value depends on
        self._def_failed: set[str] = set()
        self._generating: set[str] = set()

    def written(self, name: str) -> str | None:
        """The generated function of definition `name`, by its name in the namespace (None:
        not written, or left to the closures)."""
        found = self._def_fns.get(name)
        return found[0] if found is not None else None

    # ------------------------------------------------------------------ definitions
    def call(self, name: str, arg_nodes: list, e: ast.Node, s: Scope, reads: Reads) -> str:
        made = self.definition_fn(name)
        if made is None:
            reads.unknown()
            return self.gen.fallback(e, s) if isinstance(e, ast.Expr) else "_unsupported"
        fn, _, def_reads, body = made
        args = [self.gen.g(x, s, reads) for x in arg_nodes]
        if inlined(body) and all(simple(x) for x in args) and not self.ctx.spec.definitions[name].charge:
            # a small definition called with names or numbers: written in place (its
            # arguments cannot fail or differ when read again; no memo to look up), what
            # it reads read as the caller's (`P's gold` given `me` is the acting player's)
            d = self.ctx.spec.definitions[name]
            inner = Scope(s.a, s.me, s.this, s.env, "None", dict(zip(d.params, args)), s.uses, s.names)
            saved = self.ctx.origin
            try:
                return self.gen.g(d.value, inner, reads)
            finally:
                self.ctx.origin = saved
        reads.merge(def_reads)
        # `me` and `this` are passed only to a definition whose value depends on them;
        # -1 to one that does not, so the caller does not depend on them through it
        acting = self._acting[name]
        me = me_in(s) if "me" in acting else "-1"
        this = this_in(s) if "this" in acting else "-1"
        return f"{fn}({', '.join([st_in(s), me, this] + args)})"

    def definition_fn(self, name: str) -> tuple[str, list[str], Reads, str] | None:
        """The generated function of a definition (None: the closures compute it)."""
        found = self._def_fns.get(name)
        if found is not None or name in self._def_failed:
            return found
        if name in self._generating:
            raise InternalError(f"definition `{name}` refers to itself")
        d = self.ctx.spec.definitions[name]
        self._generating.add(name)
        saved = self.ctx.origin
        try:
            params = {p: f"_p{i}" for i, p in enumerate(d.params)}
            scope = Scope(None, "me", "this", None, "None", params, {"st"})
            reads = Reads()
            body = self.gen.g(d.value, scope, reads)
        except Unsupported:
            self._def_failed.add(name)
            return None
        finally:
            self._generating.discard(name)
            self.ctx.origin = saved
        fn = self.writer.name("d")
        # what it depends on of the activation: a stamp's site such as `sv[19 + me]` reads `me`
        acting = frozenset(scope.uses & {"me", "this"}) | ({"me"} if any(_ME.search(x) for x in reads.sites) else set())
        self._acting[name] = acting
        plist = ", ".join(params.values())
        head = f"def {fn}(st, me, this{', ' if plist else ''}{plist}):"
        # a definition that does much charges its steps each time it is computed, not when remembered
        # the statements before each computation: its charge, and the slots its loop-invariant parts
        # are kept in (codegen/hoist.py), made afresh
        run, slots = hoisted(body)
        first = ([f"_rt_spend(st, {d.charge!r})"] if d.charge else []) + ([fresh_slots(slots)] if slots else [])
        info = self.ctx.v.definitions.get(name)
        if info is not None and any(t.is_collection for _, t in info.params):
            # given a collection (a list), it makes no key: computed at every call, where the
            # look-up below would fail with TypeError each time
            lines = [head, *(f"    {x}" for x in first), f"    return {run}"]
            return self._defined(name, fn, "\n".join(lines) + "\n", params, reads, body)
        # remembered while a menu is built (st.memo), and across menus and outside them while
        # what it reads has not changed (st.keep). Remembering costs a key and a look-up a
        # call: a definition whose calls find their result less than MEMO_FINDS of the time
        # stops remembering (_rt_memo_pays)
        k = len(self.writer.ns["_memo_calls"])  # its counters' place
        for counters in ("_memo_calls", "_memo_made", "_kept_calls", "_kept_made"):
            self.writer.ns[counters].append(0)
        self.writer.ns["_memo_off"].append(False)
        self.writer.ns["_kept_off"].append(False)
        # keyed by `me` and `this` only when its value depends on them: what two players
        # ask alike (a piece's standing against each player) is computed and kept once
        key = f"({', '.join([repr(k)] + [n for n in ('me', 'this') if n in acting] + list(params.values()))},)"
        before = [f"        {x}" for x in first]
        counted = [f"        _memo_made[{k!r}] += 1",
                   f"        if _memo_calls[{k!r}] >= {MEMO_WINDOW!r}:",
                   f"            _rt_memo_pays(_memo_calls, _memo_made, _memo_off, {k!r})"]
        remembered = [f"    key = {key}",
                      "    try:",
                      "        found = memo.get(key, _MISSING)",
                      "    except TypeError:  # an unhashable argument (a list): not remembered",
                      *before,
                      f"        return {run}",
                      f"    _memo_calls[{k!r}] += 1",
                      "    if found is _MISSING:"]
        if not (reads.parts is not None and costly(body)):  # remembered in a menu only
            lines = [head,
                     "    memo = st.memo",
                     f"    if memo is None or _memo_off[{k!r}]:",
                     *before,
                     f"        return {run}",
                     *remembered, *counted, *before,
                     f"        found = memo[key] = {run}",
                     "    return found"]
            return self._defined(name, fn, "\n".join(lines) + "\n", params, reads, body)
        stamp = reads.stamp()
        stamped = [*(f"        {name} = st.{table}" for name, table in _VERSIONS if re.search(rf"\b{name}\[", stamp)),
                   f"        stamp = {stamp}"]
        # outside a menu (a statement's test, the end check, a bot's evaluation) nothing is
        # remembered for the read, but a result kept stands there too while what it read is
        # unchanged: judged apart from the menus' calls (_kept_*), which find other results
        outside = [f"        if _kept_off[{k!r}]:",
                   *(f"    {x}" for x in before),
                   f"            return {run}",
                   f"        key = {key}",
                   "        keep = st.keep",
                   "        try:",
                   "            kept = keep.get(key)",
                   "        except TypeError:  # an unhashable argument (a list): not remembered",
                   *(f"    {x}" for x in before),
                   f"            return {run}",
                   *stamped,
                   f"        _kept_calls[{k!r}] += 1",
                   "        if kept is not None and kept[0] == stamp:",
                   "            return kept[1]",
                   f"        _kept_made[{k!r}] += 1",
                   f"        if _kept_calls[{k!r}] >= {KEPT_WINDOW!r}:",
                   f"            _rt_memo_pays(_kept_calls, _kept_made, _kept_off, {k!r}, {KEPT_FINDS!r})",
                   *before,
                   f"        found = {run}",
                   "        keep[key] = (stamp, found)",
                   "        return found"]
        lines = [head,
                 "    memo = st.memo",
                 "    if memo is None:",
                 *outside,
                 f"    if _memo_off[{k!r}]:",
                 *before,
                 f"        return {run}",
                 *remembered,
                 "        keep = st.keep",
                 *stamped,
                 "        kept = keep.get(key)",
                 "        if kept is not None and kept[0] == stamp:",
                 "            found = memo[key] = kept[1]",
                 "            return found",
                 *counted, *before,
                 f"        found = memo[key] = {run}",
                 "        keep[key] = (stamp, found)",
                 "        return found",
                 "    return found"]
        return self._defined(name, fn, "\n".join(lines) + "\n", params, reads, body)

    def _defined(self, name: str, fn: str, source: str, params: dict[str, str], reads: Reads,
                 body: str) -> tuple[str, list[str], Reads, str] | None:
        try:
            self.writer.define(source, fn)
        except Unsupported:
            self._def_failed.add(name)
            return None
        made = (fn, list(params.values()), reads, body)
        self._def_fns[name] = made
        return made

    # ------------------------------------------------------------------ actions
    def targets(self, spec: ActionSpec) -> tuple[Callable[..., list], Callable[..., bool]]:
        """An action's targets (CompiledAction.targets, the reference) as two generated
        functions: every target, and whether there is one (lazily, as `possible` asks)."""
        what = f"action `{spec.name}`"
        x = self.writer.name("x")
        params = {spec.var: x} if spec.var else {}
        scope = Scope(None, "me", "this", None, "None", params, {"st", "me", "this"})
        self.ctx.origin = spec.choose_origin or Origin(what)
        coll = self.gen.g(spec.choose, scope, Reads()) if spec.choose is not None else None
        parts = []
        for test, where in spec.conditions():  # its own `if:`, then each restriction, each where it is written
            self.ctx.origin = where or Origin(what)
            parts.append(f"({self.gen.g(test, scope, Reads())})")
        cond = " and ".join(parts) or None
        gate = coll is not None and cond is not None and not any(
            isinstance(n, ast.Name) and n.name == spec.var for test, _ in spec.conditions() for n in ast.walk(test))
        listed, exists = self.writer.name("a"), self.writer.name("a")
        head = "(st, me, this):"
        some = self._some(spec, scope) if cond is None or gate else None
        if some is not None:  # whether there is a target stops at the first (`possible`, an offer asked unread)
            first = f"{cond} and " if cond is not None else ""
            lines = [f"def {listed}{head}", f"    return list({coll}) if {cond or 'True'} else []",
                     f"def {exists}{head}", f"    return bool({first}{some})"]
        elif coll is None:
            lines = [f"def {listed}{head}", f"    return [None] if {cond or 'True'} else []",
                     f"def {exists}{head}", f"    return bool({cond or 'True'})"]
        elif gate:
            lines = [f"def {listed}{head}", f"    if not {cond}:", "        return []", f"    return list({coll})",
                     f"def {exists}{head}", f"    if not {cond}:", "        return False", f"    return len({coll}) > 0"]
        else:
            keep = f" if {cond}" if cond is not None else ""
            walk = f"_rt_walk(st, {coll})" if cond is not None else coll  # the condition asked of each, charged
            # what no target changes worked out once a menu; a list made here is not copied again
            every = coll if cond is None and _made_list(coll) else f"[{x} for {x} in {walk}{keep}]"
            every, slots = hoisted(every)
            lines = [f"def {listed}{head}", *([f"    {fresh_slots(slots)}"] if slots else []), f"    return {every}",
                     f"def {exists}{head}", f"    for {x} in {walk}:"]
            lines += [f"        if {cond}:", "            return True"] if cond is not None else ["        return True"]
            lines += ["    return False"]
        self.writer.define("\n".join(lines) + "\n", listed)
        return self.writer.ns[listed], self.writer.ns[exists]

    def _some(self, spec: ActionSpec, scope: Scope) -> str | None:
        """When an action chooses from a definition without parameters whose value is a
        filter (`choose: targets()`, its value `ITEMS where TEST`): whether any target
        passes, written from the filter so that it stops at the first that does (as
        `count of (C where T) > 0` does), where the list would test every one. None for
        any other `choose:`."""
        choose = spec.choose
        if not isinstance(choose, ast.Call) or choose.args:
            return None
        d = self.ctx.spec.definitions.get(choose.name)
        if d is None or d.params or d.charge or not isinstance(d.value, ast.Where):
            return None
        _, loops, test = self.gen.filter(d.value, scope, Reads())
        return f"any(True {loops} if {test})"
