"""Ruleset-wide static analyses, run once every program has been checked:

- trigger cycles: a graph of which triggers announce (directly, or through the
  procedures they run) the events other triggers listen to. A loop in it that nothing
  bounds repeats without end (E220). A loop that something in it may stop passes with a
  warning (W304) that says what: a `once per turn` limit, a trigger condition, or a
  condition around the `announce`, that reads something the loop itself changes
  (counters, values, quantities, where pieces are), or a player's choice (`may`, one
  option of several);
- filters that can never match (W303): a `where` over items or players whose
  conditions on one attribute, counter or track position cannot all hold, given the
  counters' declared ranges, the tracks' lengths, the enum values and the values the
  content actually gives (`its value > 10` on a counter that stops at 10; `its colour is
  red and its colour is blue`; `its cost = 7` when no card costs 7).

Each finding is (the file, the YAML path of the program, a Diagnostic positioned in
the program, whether the program is a one-expression field) for pipeline/build/passes.py to
place in its file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from . import ast
from .constructs import CONSTRUCTS, child_blocks
from .diagnostics import WARNING, Diagnostic
from .resolution import Resolution
from .vocabulary import Vocabulary

Finding = tuple[Any, tuple, Diagnostic, bool]
TriggerSource = tuple[str, ast.Trigger, frozenset[str], Any, tuple]  # what, declaration, events announced, file, path

PIECES = "*pieces"  # what a move, a draw, a placement... changes, and a selection, `count of`, `owner of`... read
_MAX_CYCLE_STEPS = 50_000  # cycles explored per strongly connected group before settling for a warning


def analyse(v: Vocabulary, res: Resolution, triggers: list[TriggerSource],
            sources: Iterable[tuple[ast.Node, Any, tuple, bool]]) -> list[Finding]:
    findings = trigger_cycles(triggers, v)
    for node, f, path, expression in sources:
        findings.extend(impossible_filters(v, res, node, f, path, expression))
    return findings


# ---------------------------------------------------------------------- what a program reads and changes


def reads(e: ast.Node | None, v: Vocabulary | None = None, _seen: frozenset[str] = frozenset()) -> set[str]:
    """The counters, values, quantities and other names an expression reads (PIECES for
    where pieces are), through the definitions it uses."""
    out: set[str] = set()
    if e is None:
        return out
    for n in ast.walk(e):
        if isinstance(n, ast.Of):
            out.add(n.name)
            if n.name in ("count", "owner", "position", "track") or (v is not None and n.name in v.zones):
                out.add(PIECES)
        elif isinstance(n, ast.Name):
            out.add(n.name)
            if v is not None and (n.name in v.zones or n.name in v.kinds):
                out.add(PIECES)
        elif isinstance(n, (ast.Select, ast.Empty, ast.Top, ast.Has)):
            out.add(PIECES)
        elif isinstance(n, ast.Aggregate):
            out.add(n.name)
        elif isinstance(n, ast.Call):
            source = v.definitions[n.name].source if v is not None and n.name in v.definitions else None
            if isinstance(source, ast.Node) and n.name not in _seen:
                out |= reads(source, v, _seen | {n.name})
            elif n.name in ("affordable", "playable", "possible"):
                out.add(PIECES)
    if v is not None:  # a definition used without parentheses
        for name in list(out):
            d = v.definitions.get(name)
            if d is not None and name not in _seen and isinstance(d.source, ast.Node):
                out |= reads(d.source, v, _seen | {name})
    return out


def _target_name(e: ast.Expr) -> str | None:
    if isinstance(e, ast.Of):
        return e.name
    if isinstance(e, ast.Name):
        return e.name
    return None




def changes(stmt: ast.Node) -> set[str]:
    """What a statement (and the blocks inside it) can change, as the registry says of
    each statement (dsl/constructs.py: `changes`, `modifies`, `moves_pieces`)."""
    out: set[str] = set()
    for n in ast.walk(stmt):
        c = CONSTRUCTS.get(type(n))
        if c is None:
            continue
        for name in c.changes:
            target = _target_name(getattr(n, name))
            if target is not None:
                out.add(target)
        if c.modifies:
            quantity: Any = n
            for part in c.modifies.split("."):
                quantity = getattr(quantity, part)
            out.add(quantity.name)
        if c.moves_pieces:
            out.add(PIECES)
    return out


# ---------------------------------------------------------------------- trigger cycles


@dataclass(frozen=True)
class _Send:
    """One `announce` a trigger can reach: what the conditions around it read, whether a
    player's choice stands before it, the procedures it goes through."""

    guard: frozenset[str]
    choice: bool
    via: tuple[str, ...]


@dataclass
class _Trigger:
    what: str
    decl: ast.Trigger
    f: Any
    path: tuple
    reads: set[str]  # its `where` condition
    sends: dict[str, list[_Send]] = field(default_factory=dict)
    changes: set[str] = field(default_factory=set)

    @property
    def event(self) -> str:
        return self.decl.event.name


class _Walker:
    """Collects the announces a trigger's body reaches and what the body changes."""

    def __init__(self, v: Vocabulary | None, t: _Trigger):
        self.v = v
        self.t = t

    def block(self, body: Iterable[ast.Stmt], guard: frozenset[str], choice: bool, via: tuple[str, ...]) -> None:
        for stmt in body:
            self.t.changes |= changes(stmt)
            self.stmt(stmt, guard, choice, via)
            if isinstance(stmt, ast.ChooseFrom) and stmt.mode == "exact" and isinstance(stmt.count, ast.Num) \
                    and stmt.count.value == 1 or isinstance(stmt, ast.PickRandom):
                guard = guard | reads(stmt.collection, self.v)  # nothing to choose or pick: the rest does not happen

    def stmt(self, s: ast.Stmt, guard: frozenset[str], choice: bool, via: tuple[str, ...]) -> None:
        v = self.v
        if isinstance(s, ast.Announce):
            self.t.sends.setdefault(s.event.name, []).append(_Send(guard, choice, via))
        elif isinstance(s, ast.If):
            before: frozenset[str] = frozenset()
            for br in s.branches:
                here = frozenset(reads(br.condition, v))
                self.block(br.body, guard | before | here, choice, via)
                before |= here
            if s.otherwise is not None:
                self.block(s.otherwise, guard | before, choice, via)
        elif isinstance(s, ast.ChooseOne):  # a choice only where another option does not announce the event
            saved, per_option = self.t.sends, []
            for opt in s.options:
                self.t.sends = {}
                self.block(opt.body, guard | reads(opt.condition, v), choice, via)
                per_option.append(self.t.sends)
            self.t.sends = saved
            for sends in per_option:
                for event, found in sends.items():
                    escape = any(event not in other for other in per_option)
                    saved.setdefault(event, []).extend(_Send(x.guard, x.choice or escape, x.via) for x in found)
        elif isinstance(s, ast.May):
            self.block(s.body, guard, True, via)
        elif isinstance(s, ast.ForEach):
            self.block(s.body, guard | reads(s.collection, v), choice, via)
        elif isinstance(s, ast.Repeat):
            self.block(s.body, guard | reads(s.count, v), choice, via)
        elif isinstance(s, ast.Run) and v is not None:
            name = s.name.name
            proc = v.procedures.get(name)
            if proc is not None and isinstance(proc.source, ast.Program) and name not in via:
                self.block(proc.source.statements, guard, choice, via + (name,))
        else:  # any other statement's blocks (`as P:`, `take turns:`...) under the same guard
            for block in child_blocks(s):
                self.block(block, guard, choice, via)


def _collect(triggers: list[TriggerSource], v: Vocabulary | None) -> list[_Trigger]:
    out = []
    for what, decl, announced, f, path in triggers:
        t = _Trigger(what, decl, f, path, reads(decl.condition, v))
        _Walker(v, t).block(decl.body, frozenset(), False, ())
        for event in announced:  # announced some way the walk does not follow: count it as unconditional
            if event not in t.sends:
                t.sends[event] = [_Send(frozenset(), False, ())]
        out.append(t)
    return out


def _components(n: int, edges: list[list[int]]) -> list[list[int]]:
    """Tarjan's strongly connected components, without recursion."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                group = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    group.append(x)
                    if x == node:
                        break
                out.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return out


def _cycles(group: list[int], edges: list[list[int]]) -> Iterator[list[int]]:
    """The simple cycles of a group, shortest first, each once (starting at its smallest
    member); stops after _MAX_CYCLE_STEPS steps of the search."""
    members = set(group)
    steps = 0
    for length in range(1, len(group) + 1):
        for start in group:
            stack: list[list[int]] = [[start]]
            while stack:
                path = stack.pop()
                steps += 1
                if steps > _MAX_CYCLE_STEPS:
                    return
                last = path[-1]
                for nxt in edges[last]:
                    if nxt == start and len(path) == length:
                        yield path
                    elif len(path) < length and nxt in members and nxt > start and nxt not in path:
                        stack.append(path + [nxt])


def _names(names: Iterable[str]) -> str:
    shown = sorted(n for n in names if n != PIECES)
    words = [f"`{n}`" for n in shown[:3]]
    if PIECES in names:
        words.append("where pieces are")
    return ", ".join(words) if words else "something"


def _bounds(cycle: list[int], ts: list[_Trigger], changed: set[str]) -> list[str]:
    """What may stop this loop (empty: nothing does)."""
    why = []
    for k, i in enumerate(cycle):
        t = ts[i]
        if t.decl.once:
            why.append(f"{t.what} fires `once per turn`")
        elif t.reads & changed:
            why.append(f"the condition of {t.what} on `{t.event}` reads {_names(t.reads & changed)}, which the "
                       "loop changes")
        nxt = ts[cycle[(k + 1) % len(cycle)]].event
        sends = t.sends.get(nxt, [])
        if sends and all(s.choice or s.guard & changed for s in sends):
            if all(s.choice for s in sends):
                why.append(f"{t.what} announces `{nxt}` only when a player chooses to")
            else:
                guards = set().union(*(s.guard & changed for s in sends))
                why.append(f"{t.what} announces `{nxt}` only under a condition on {_names(guards)}, which the "
                           "loop changes")
    return why


def _describe(cycle: list[int], ts: list[_Trigger]) -> str:
    steps = []
    for k, i in enumerate(cycle):
        t = ts[i]
        nxt = ts[cycle[(k + 1) % len(cycle)]].event
        via = next((s.via for s in t.sends.get(nxt, []) if s.via), ())
        through = f" (through {', '.join(f'procedure `{p}`' for p in via)})" if via else ""
        again = " again" if nxt == t.event else ""
        steps.append(f"when `{t.event}` is announced, {t.what} announces `{nxt}`{again}{through}")
    return "; ".join(steps)


def _changed(cycle: list[int], ts: list[_Trigger]) -> set[str]:
    out: set[str] = set()
    for i in cycle:
        out |= ts[i].changes
    return out


def _group_bounds(group: list[int], edges: list[list[int]], ts: list[_Trigger]) -> bool:
    """Something in the group may stop some loop: a trigger's limit or condition, or a
    guarded announce, given all that the group's triggers change."""
    changed = _changed(group, ts)
    members = set(group)
    for i in group:
        t = ts[i]
        if t.decl.once or t.reads & changed:
            return True
        for j in edges[i]:
            sends = t.sends.get(ts[j].event, [])
            if j in members and sends and all(s.choice or s.guard & changed for s in sends):
                return True
    return False


def _shortest_cycle(group: list[int], edges: list[list[int]]) -> list[int]:
    """A shortest loop through the group's first member (breadth first)."""
    start = group[0]
    members = set(group)
    parent: dict[int, int] = {}
    queue = [start]
    for node in queue:
        for nxt in edges[node]:
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return list(reversed(path))
            if nxt in members and nxt not in parent:
                parent[nxt] = node
                queue.append(nxt)
    return [start]


def trigger_cycles(triggers: list[TriggerSource], v: Vocabulary | None = None) -> list[Finding]:
    ts = _collect(triggers, v)
    listeners: dict[str, list[int]] = {}
    for i, t in enumerate(ts):
        listeners.setdefault(t.event, []).append(i)
    edges = [sorted({j for event in t.sends for j in listeners.get(event, ())}) for t in ts]
    findings: list[Finding] = []
    for group in _components(len(ts), edges):
        if len(group) == 1 and group[0] not in edges[group[0]]:
            continue  # no loop
        endless: list[int] | None = None
        first: list[int] | None = None
        if not _group_bounds(group, edges, ts):  # nothing in the group can stop anything: every loop is endless
            endless = next(_cycles(group, edges), None) or _shortest_cycle(group, edges)
        else:
            for cycle in _cycles(group, edges):
                first = first or cycle
                if not _bounds(cycle, ts, _changed(cycle, ts)):
                    endless = cycle
                    break
        cycle = endless or first or _shortest_cycle(group, edges)
        t = ts[cycle[0]]
        line, column = (t.decl.span.line, t.decl.span.column) if t.decl.span else (1, 1)
        if endless is not None:
            d = Diagnostic("E220", f"triggers announce events in a loop that never ends: {_describe(cycle, ts)}",
                           line, column, hint="nothing in the loop stops it: add a condition that the loop makes "
                           f"false (`when {t.event} where ...`), `once per turn`, or announce another event")
        else:
            why = _bounds(cycle, ts, _changed(cycle, ts)) or ["the loop is too tangled to check every path"]
            d = Diagnostic("W304", f"triggers announce events in a loop: {_describe(cycle, ts)}; it may stop "
                           f"({'; '.join(why)}), but check that it does", line, column, WARNING,
                           hint="at run time the step budget stops a loop that does not end, and the action "
                           "that started it is undone")
        findings.append((t.f, t.path, d, False))
    return findings


# ---------------------------------------------------------------------- impossible filters


def _its(e: ast.Expr) -> str | None:
    if isinstance(e, ast.Of) and isinstance(e.subject, ast.It):
        return e.name
    return None


def _const(e: ast.Expr, v: Vocabulary) -> Any:
    if isinstance(e, ast.Num):
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.Num):
        return -e.operand.value
    if isinstance(e, ast.Bool):
        return e.value
    if isinstance(e, ast.Name) and v.symbol_enum(e.name) is not None:
        return e.name
    return None


_FLIP = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "=": "=", "!=": "!="}


def _constraints(cond: ast.Expr, v: Vocabulary) -> list[tuple[str, str, Any]]:
    """(name, op, constant) for each `its NAME OP CONSTANT` that must hold (joined by `and`)."""
    if isinstance(cond, ast.BoolOp) and cond.op == "and":
        return _constraints(cond.left, v) + _constraints(cond.right, v)
    if isinstance(cond, ast.Compare) and cond.op in _FLIP:
        left, right = _its(cond.left), _its(cond.right)
        if left is not None and _const(cond.right, v) is not None:
            return [(left, cond.op, _const(cond.right, v))]
        if right is not None and _const(cond.left, v) is not None:
            return [(right, _FLIP[cond.op], _const(cond.left, v))]
    return []


def _holds(x: Any, op: str, c: Any) -> bool:
    if op == "=":
        return bool(x == c)
    if op == "!=":
        return bool(x != c)
    if not isinstance(x, int) or not isinstance(c, int) or isinstance(x, bool) or isinstance(c, bool):
        return True
    return {">": x > c, "<": x < c, ">=": x >= c, "<=": x <= c}[op]


def _show(c: Any) -> str:
    if isinstance(c, bool):
        return "yes" if c else "no"
    return str(c)


def _words(op: str, c: Any) -> str:
    c = _show(c)
    return {"=": f"is {c}", "!=": f"is not {c}", ">": f"is above {c}", "<": f"is below {c}",
            ">=": f"is {c} or more", "<=": f"is {c} or less"}[op]


def _range_problem(name: str, conds: list[tuple[str, Any]], lo: int | None, hi: int | None,
                   what: str) -> str | None:
    low, high = -10 ** 18, 10 ** 18  # what the conditions allow
    for op, c in conds:
        if not isinstance(c, int) or isinstance(c, bool):
            continue
        if op == ">":
            low = max(low, c + 1)
        elif op == ">=":
            low = max(low, c)
        elif op == "<":
            high = min(high, c - 1)
        elif op == "<=":
            high = min(high, c)
        elif op == "=":
            low, high = max(low, c), min(high, c)
    if low > high:
        return "these conditions exclude each other"
    if max(low, lo if lo is not None else low) <= min(high, hi if hi is not None else high):
        return None
    if lo is not None and hi is not None:
        return f"{what} stays between {lo} and {hi}"
    if hi is not None:
        return f"{what} is never above {hi}"
    return f"{what} is never below {lo}"


def _contradiction(name: str, conds: list[tuple[str, Any]]) -> str | None:
    equal = list(dict.fromkeys(_show(c) for op, c in conds if op == "="))
    if len(equal) > 1:
        return f"its {name} cannot be both {equal[0]} and {equal[1]}"
    if equal and any(op == "!=" and _show(c) == equal[0] for op, c in conds):
        return f"its {name} cannot be {equal[0]} and not {equal[0]}"
    return None


def impossible_filters(v: Vocabulary, res: Resolution, program: ast.Node, f: Any, path: tuple,
                       expression: bool = False) -> list[Finding]:
    findings: list[Finding] = []
    for node in ast.walk(program):
        if not isinstance(node, ast.Where):
            continue
        t = res.type(node.collection)
        by_name: dict[str, list[tuple[str, Any]]] = {}
        for name, op, c in _constraints(node.condition, v):
            by_name.setdefault(name, []).append((op, c))
        if not by_name:
            continue
        kind: str | None = None
        if t.tag == "players":
            noun = "player"
        elif t.tag in ("things", "table") and t.arg in v.kinds:
            kind = t.arg
            noun = (v.kinds[kind].label or kind).replace("_", " ")
        else:
            continue
        for name, conds in by_name.items():
            reason = _contradiction(name, conds) or (
                _item_problem(v, kind, name, conds) if kind is not None else _player_problem(v, name, conds))
            if reason:
                span = node.condition.span or node.span
                line, column = (span.line, span.column) if span else (1, 1)
                wanted = " and ".join(f"whose {name} {_words(op, c)}" for op, c in conds)
                findings.append((f, path, Diagnostic(
                    "W303", f"this filter never matches: there is no {noun} {wanted} ({reason})", line, column,
                    WARNING, hint="check the numbers and names against the ruleset and the content"), expression))
    return findings


def _player_problem(v: Vocabulary, name: str, conds: list[tuple[str, Any]]) -> str | None:
    info = v.counters.get(name)
    if info is None or info.scope != "player":
        return None
    return _range_problem(name, conds, info.min, info.max, f"a player's {name}")


def _item_problem(v: Vocabulary, kind: str, name: str, conds: list[tuple[str, Any]]) -> str | None:
    info = v.kinds[kind]
    if name in info.counters:  # an item counter: its declared range
        c = info.counters[name]
        return _range_problem(name, conds, c.min, c.max, f"its {name}")
    if name in info.attributes:
        t = info.attributes[name]
        if t.tag == "symbol" and t.arg in v.enums:
            for op, c in conds:
                if op == "=" and isinstance(c, str) and c not in v.enums[t.arg]:
                    return f"`{c}` is not one of the {t.arg} values ({', '.join(v.enums[t.arg])})"
        given = set(v.content_values.get(kind, {}).get(name, set()))
        if name in info.defaults:
            given.add(info.defaults[name])
        if not given or any(isinstance(x, str) and "/" in x for x in given):
            return None  # nothing known, or era values: it depends on the era
        if not any(all(_holds(x, op, c) for op, c in conds) for x in given):
            shown = ", ".join(_show(x) for x in sorted(given, key=str)[:8]) + (" ..." if len(given) > 8 else "")
            plural = (info.plural or kind).replace("_", " ")
            return f"the {plural} give {name} {shown}"
        return None
    if name == "position":  # a token's space on a track: 0 (on none) up to the longest track
        spaces = [k.track for k in v.kinds.values() if k.track]
        return _range_problem(name, conds, 0, max(spaces, default=0), "a token's position")
    return None
