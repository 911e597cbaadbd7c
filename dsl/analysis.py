"""Ruleset-wide static analyses, run once every program has been checked:

- trigger cycles: which events the triggers of each event announce (directly or
  through procedures); a loop of them that nothing bounds runs forever (E220); one
  bounded by a `once per turn` limit or by a condition on something its own triggers
  change may stop (W304, with what bounds it);
- filters that can never match (W303): a `where` over items whose conditions on an
  attribute or a counter cannot all hold, given the counters' declared ranges, the
  enum values and the values the content actually gives (`its value > 10` on a track
  that stops at 10; `its group is government and its group is progress`).

Each finding is (the file, the YAML path of the program, a Diagnostic positioned in
the program) for pipeline/build.py to place.
"""

from __future__ import annotations

from typing import Any, Iterable

from . import ast
from .diagnostics import WARNING, Diagnostic
from .resolution import Resolution
from .vocabulary import Vocabulary

Finding = tuple[Any, tuple, Diagnostic]


def analyse(v: Vocabulary, res: Resolution, triggers: list[tuple[str, ast.Trigger, frozenset[str], Any, tuple]],
            sources: Iterable[tuple[ast.Node, Any, tuple, bool]]) -> list[Finding]:
    findings = trigger_cycles(triggers)
    for node, f, path, _ in sources:
        findings.extend(impossible_filters(v, res, node, f, path))
    return findings


# ---------------------------------------------------------------------- trigger cycles


def _changed(body: ast.Body) -> set[str]:
    """Counter and value names a block changes (what could stop a loop it is part of)."""
    out: set[str] = set()
    for stmt in body:
        for n in ast.walk(stmt):
            target = None
            if isinstance(n, (ast.Raise, ast.Lower, ast.SetTo)):
                target = n.target
            elif isinstance(n, (ast.Gain, ast.Lose, ast.Pay)):
                out.add(n.counter.name)
            elif isinstance(n, ast.Transfer):
                target = n.source
            if isinstance(target, ast.Of):
                out.add(target.name)
            elif isinstance(target, ast.Name):
                out.add(target.name)
            if isinstance(n, (ast.Move, ast.Place, ast.Discard, ast.Remove, ast.Shift, ast.Advance)):
                out.add("*pieces")
    return out


def _read(cond: ast.Expr | None) -> set[str]:
    out: set[str] = set()
    if cond is None:
        return out
    for n in ast.walk(cond):
        if isinstance(n, ast.Of):
            out.add(n.name)
        elif isinstance(n, ast.Name):
            out.add(n.name)
        elif isinstance(n, (ast.Select, ast.Empty)):
            out.add("*pieces")
    return out


def trigger_cycles(triggers: list[tuple[str, ast.Trigger, frozenset[str], Any, tuple]]) -> list[Finding]:
    listeners: dict[str, list[int]] = {}
    for i, (_, decl, _, _, _) in enumerate(triggers):
        listeners.setdefault(decl.event.name, []).append(i)
    findings: list[Finding] = []
    reported: set[frozenset[int]] = set()
    for start in range(len(triggers)):
        # depth-first over "trigger i announces an event that trigger j listens to"
        stack: list[tuple[int, list[int]]] = [(start, [start])]
        while stack:
            i, path = stack.pop()
            for event in sorted(triggers[i][2]):
                for j in listeners.get(event, ()):
                    if j == start:
                        key = frozenset(path)
                        if key not in reported:
                            reported.add(key)
                            findings.append(_cycle_finding([triggers[k] for k in path]))
                    elif j not in path and len(path) < 12:
                        stack.append((j, path + [j]))
    return findings


def _cycle_finding(cycle: list[tuple[str, ast.Trigger, frozenset[str], Any, tuple]]) -> Finding:
    what, decl, _, f, path = cycle[0]
    events = [t[1].event.name for t in cycle]
    chain = " -> ".join(f"`{e}`" for e in events + [events[0]])
    items = "; ".join(dict.fromkeys(t[0] for t in cycle))
    changed: set[str] = set()
    for t in cycle:
        changed |= _changed(t[1].body)
    bound = next((t for t in cycle if t[1].once), None)
    guard = next((t for t in cycle if _read(t[1].condition) & changed), None)
    line, column = (decl.span.line, decl.span.column) if decl.span else (1, 1)
    if bound is not None or guard is not None:
        why = ("`once per turn` limits it" if bound is not None
               else f"the condition of `when {guard[1].event.name}` reads something the loop changes")  # type: ignore[index]
        d = Diagnostic("W304", f"triggers announce each other in a loop ({chain}), in {items}; {why}, so it "
                       "should stop, but check that it does", line, column, WARNING,
                       hint="the step budget stops a loop that does not end")
    else:
        d = Diagnostic("E220", f"triggers announce each other in a loop that never ends ({chain}), in {items}",
                       line, column, hint="add a condition that the loop makes false, `once per turn`, or "
                       "announce another event")
    return (f, path, d)


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
    if isinstance(e, ast.Name) and v.symbol_enum(e.name) is not None:
        return e.name
    return None


_FLIP = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "=": "=", "!=": "!="}


def _constraints(cond: ast.Expr, v: Vocabulary) -> list[tuple[ast.Of, str, Any]]:
    out: list[tuple[ast.Of, str, Any]] = []
    if isinstance(cond, ast.BoolOp) and cond.op == "and":
        return _constraints(cond.left, v) + _constraints(cond.right, v)
    if isinstance(cond, ast.Compare) and cond.op in _FLIP:
        if _its(cond.left) is not None and _const(cond.right, v) is not None:
            assert isinstance(cond.left, ast.Of)
            out.append((cond.left, cond.op, _const(cond.right, v)))
        elif _its(cond.right) is not None and _const(cond.left, v) is not None:
            assert isinstance(cond.right, ast.Of)
            out.append((cond.right, _FLIP[cond.op], _const(cond.left, v)))
    return out


def _holds(x: Any, op: str, c: Any) -> bool:
    if op == "=":
        return bool(x == c)
    if op == "!=":
        return bool(x != c)
    if not isinstance(x, int) or not isinstance(c, int):
        return True
    return {">": x > c, "<": x < c, ">=": x >= c, "<=": x <= c}[op]


def _words(op: str, c: Any) -> str:
    return {"=": f"is {c}", "!=": f"is not {c}", ">": f"is above {c}", "<": f"is below {c}",
            ">=": f"is {c} or more", "<=": f"is {c} or less"}[op]


def impossible_filters(v: Vocabulary, res: Resolution, program: ast.Node, f: Any, path: tuple) -> list[Finding]:
    findings: list[Finding] = []
    for node in ast.walk(program):
        if not isinstance(node, ast.Where):
            continue
        t = res.type(node.collection)
        kind = t.arg if t.tag in ("things", "table") else None
        if kind is None or kind not in v.kinds:
            continue
        info = v.kinds[kind]
        by_name: dict[str, list[tuple[str, Any]]] = {}
        for of, op, c in _constraints(node.condition, v):
            by_name.setdefault(of.name, []).append((op, c))
        for name, conds in by_name.items():
            reason = _impossible(v, kind, info, name, conds, res)
            if reason:
                span = node.condition.span or node.span
                line, column = (span.line, span.column) if span else (1, 1)
                noun = (info.label or kind).replace("_", " ")
                findings.append((f, path, Diagnostic(
                    "W303", f"this filter never matches: no {noun} {reason}", line, column, WARNING,
                    hint="check the numbers and names against the ruleset and the content")))
    return findings


def _impossible(v: Vocabulary, kind: str, info: Any, name: str, conds: list[tuple[str, Any]],
                res: Resolution) -> str | None:
    wanted = " and ".join(f"whose {name} {_words(op, c)}" for op, c in conds)
    if name in info.counters:  # an item counter: its declared range
        lo, hi = info.counters[name].min, info.counters[name].max
        low = lo if lo is not None else -10 ** 9
        high = hi if hi is not None else 10 ** 9
        for op, c in conds:
            if not isinstance(c, int):
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
            return f"{wanted}: its {name} stays between {lo} and {hi}"
        return None
    if name in info.attributes:
        given = set(v.content_values.get(kind, {}).get(name, set()))
        if name in info.defaults:
            given.add(info.defaults[name])
        t = info.attributes[name]
        if t.tag == "symbol" and t.arg in v.enums:
            for op, c in conds:
                if op == "=" and isinstance(c, str) and c not in v.enums[t.arg]:
                    return f"{wanted}: `{c}` is not a {t.arg}"
        if not given:
            return None
        if any(isinstance(x, str) and "/" in x for x in given):
            return None  # era values: it depends on the era
        if not any(all(_holds(x, op, c) for op, c in conds) for x in given):
            shown = ", ".join(str(x) for x in sorted(given, key=str)[:8])
            return f"{wanted} (the {(info.plural or kind).replace('_', ' ')} give {name} {shown})"
    return None

