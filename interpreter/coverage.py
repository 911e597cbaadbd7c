"""Branch coverage of compiled effects: which `if` branches (`else` included, and the fall-through of an
`if` without `else`), which `choose one` options and which `may` answers ever ran.

A Game compiled with coverage on gives each such branch a probe (its place in the
content and a few words on which branch it is) and counts the runs of each in a plain
list; a game compiled without it runs the usual closures and pays nothing. Counts are
per compiled Game (every state played from it adds to them, clones included), so a
balance run sums the counts of its workers; see agents/simulate.py. A branch the setup
options rule out (`if robots > 0:` in a game without) is told apart (`cannot_run`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from legacies.dsl import ast
from legacies.dsl import resolution as r
from legacies.dsl.resolution import Resolution

from .errors import Where

Lines = tuple[str, int, int]  # a file and the first and last line of a branch's block


@dataclass(frozen=True)
class Probe:
    """One branch: where it is and which branch it is: `if CONDITION` (the condition as
    written), `else`, `the case where every condition is false`, `option "LABEL"`, `may: yes`
    or `may: no`. `guards`: the conditions (and the truth each must have) for the branch
    to run; `lines`: where its block is, for the branches inside it."""

    where: Where
    branch: str
    guards: tuple[tuple[ast.Expr, bool], ...] = field(default=(), compare=False)
    lines: Lines | None = field(default=None, compare=False)

    def key(self) -> tuple[str, str, int, int, str]:
        """The same branch compiled twice (an effect shared by copies) is one branch."""
        w = self.where
        return (w.what, w.file or "", w.line or 0, w.column or 0, self.branch)


class Coverage:
    """The probes of one compiled Game and how often each ran."""

    def __init__(self) -> None:
        self.probes: list[Probe] = []
        self.hits: list[int] = []
        # (definition, player) of each item whose effect `play` ran, and for whom: what a
        # balance report calls drawn (an event resolved, a solo card played); the caller
        # empties it between games
        self.played: set[tuple[int, int]] = set()

    def probe(self, where: Where, branch: str, guards: tuple[tuple[ast.Expr, bool], ...] = (),
              lines: Lines | None = None) -> int:
        self.probes.append(Probe(where, branch, guards, lines))
        self.hits.append(0)
        return len(self.hits) - 1

    def cannot_run(self, res: Resolution, options: dict[str, Any]) -> set[tuple[str, str, int, int, str]]:
        """The branches the game's setup options rule out (keys, as `counts`): a guard that
        reads only options and constants (`if robots > 0`) with the wrong truth, and every
        branch inside the block of one."""
        out: list[Probe] = []
        for probe in self.probes:
            if any(fixed(cond, res, options) not in (None, truth) for cond, truth in probe.guards):
                out.append(probe)
        blocks = [p.lines for p in out if p.lines is not None]
        for probe in self.probes:
            w = probe.where
            if any(w.file == f and w.line is not None and first <= w.line <= last for f, first, last in blocks):
                out.append(probe)
        return {p.key() for p in out}

    def counts(self) -> dict[tuple[str, str, int, int, str], int]:
        """Runs per distinct branch (see Probe.key)."""
        out: dict[tuple[str, str, int, int, str], int] = {}
        for probe, hits in zip(self.probes, self.hits):
            key = probe.key()
            out[key] = out.get(key, 0) + hits
        return out


def merge(into: dict[Any, int], counts: dict[Any, int]) -> dict[Any, int]:
    """Sum the counts of several games or workers (same ruleset, same probes)."""
    for key, hits in counts.items():
        into[key] = into.get(key, 0) + hits
    return into


def fixed(e: ast.Expr, res: Resolution, options: dict[str, Any]) -> Any:
    """The value of an expression that reads only setup options and constants, or None
    when it reads anything else (`robots > 0 or hard_mode`)."""
    if isinstance(e, (ast.Num, ast.Bool)):
        return e.value
    if isinstance(e, ast.Name):
        ref = res.ref(e)
        return options.get(ref.name) if isinstance(ref, r.Option) else None
    if isinstance(e, ast.Not):
        inner = fixed(e.operand, res, options)
        return None if inner is None else not inner
    if isinstance(e, ast.BoolOp):
        left = fixed(e.left, res, options)
        if left is not None and bool(left) == (e.op == "or"):  # `yes or ...`, `no and ...`: decided
            return left
        right = fixed(e.right, res, options)
        return None if left is None or right is None else right
    if isinstance(e, ast.Compare) and e.op in _COMPARE:
        left, right = fixed(e.left, res, options), fixed(e.right, res, options)
        return None if left is None or right is None else _COMPARE[e.op](left, right)
    return None


_COMPARE = {"=": lambda a, b: a == b, "!=": lambda a, b: a != b, ">": lambda a, b: a > b,
            "<": lambda a, b: a < b, ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b}
