"""Items' effects that play each other with nothing to stop it (E224, across items): an
effect whose own block (not inside an `if`, a loop or a choice, where something may stop
it) plays another item's effect, which plays the first back, directly or through others.
They would run inside each other until the run's nesting limit stops the game. An effect
that plays itself is the checker's to report (dsl/check/statements.py, `plays_itself`);
this pass follows `play X`, `play X's NAME` and `play this's NAME` from item to item."""

from __future__ import annotations

from collections import deque

from legacies.dsl import ast
from legacies.dsl.diagnostics import Diagnostic
from legacies.interpreter.spec import PieceDef

from .base import Builder

Node = tuple[str, str]  # (content id, "effect" or the name of an effect attribute)


def check_play_cycles(b: Builder, defs: list[PieceDef]) -> None:
    """E224 at the first `play` of each loop of items' effects, naming the loop."""
    programs: dict[Node, ast.Program] = {}
    for piece in defs:
        if piece.effect is not None:
            programs[(piece.id, "effect")] = piece.effect
        for name, program in piece.programs.items():
            if isinstance(program, ast.Program):
                programs[(piece.id, name)] = program
    plays = {node: _plays(node, program, programs) for node, program in programs.items()}
    reported: set[Node] = set()
    for start in sorted(plays):
        if start in reported:
            continue
        cycle = _shortest_cycle(start, plays)
        if cycle is None:
            continue
        reported.update(cycle)
        first, statement = cycle[0], plays[cycle[0]][cycle[1 % len(cycle)]]
        f, path, _ = b.items[first[0]]
        where = path + (("effect",) if first[1] == "effect" else ("attributes", first[1]))
        loop = ", which plays ".join(_said(node, b) for node in cycle + [cycle[0]])
        span = statement.span
        b.place(f, where, [Diagnostic(
            "E224", f"these effects play each other with nothing to stop it: {loop}; they would never end",
            span.line if span else 1, span.column if span else 1,
            hint="the language has no recursion: put one of the `play`s inside an `if` that the loop makes false, "
                 "or repeat what is meant with `repeat N times:`")])


def _plays(node: Node, program: ast.Program, programs: dict[Node, ast.Program]) -> dict[Node, ast.Play]:
    """The effects `program` (the effect `node`) plays from its own block, each with the
    first statement that plays it; only effects of other items, or other effects of its
    own (one that plays itself is E224 of the checker's)."""
    found: dict[Node, ast.Play] = {}
    for s in program.statements:
        if not isinstance(s, ast.Play):
            continue
        what, target = s.what, None
        if isinstance(what, ast.This):
            target = (node[0], "effect")
        elif isinstance(what, ast.Name):
            target = (what.name, "effect")
        elif isinstance(what, ast.Of) and isinstance(what.subject, (ast.This, ast.Name)):
            owner = node[0] if isinstance(what.subject, ast.This) else what.subject.name
            target = (owner, what.name)
        if target is not None and target != node and target in programs:
            found.setdefault(target, s)
    return found


def _shortest_cycle(start: Node, plays: dict[Node, dict[Node, ast.Play]]) -> list[Node] | None:
    """The shortest loop from `start` back to it (breadth first), or None."""
    came: dict[Node, Node] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in plays.get(node, {}):
            if nxt == start:
                cycle = [node]
                while cycle[-1] != start:
                    cycle.append(came[cycle[-1]])
                return list(reversed(cycle))
            if nxt not in came:
                came[nxt] = node
                queue.append(nxt)
    return None


def _said(node: Node, b: Builder) -> str:
    cid, name = node
    item = b.items[cid][2]
    return f"`{cid}` ({item.name})" + ("" if name == "effect" else f"'s {name}")
