"""Branch coverage of compiled effects: which `if` branches (`else` included, and the fall-through of an
`if` without `else`), which `choose one` options and which `may` answers ever ran.

A Game compiled with coverage on gives each such branch a probe (its place in the
content and a few words on which branch it is) and counts the runs of each in a plain
list; a game compiled without it runs the usual closures and pays nothing. Counts are
per compiled Game (every state played from it adds to them, clones included), so a
balance run sums the counts of its workers; see agents/simulate.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import Where


@dataclass(frozen=True)
class Probe:
    """One branch: where it is and which branch it is: `if CONDITION` (the condition as
    written), `else`, `the case where every condition is false`, `option "LABEL"`, `may: yes`
    or `may: no`."""

    where: Where
    branch: str

    def key(self) -> tuple[str, str, int, int, str]:
        """The same branch compiled twice (an effect shared by copies) is one branch."""
        w = self.where
        return (w.what, w.file or "", w.line or 0, w.column or 0, self.branch)


class Coverage:
    """The probes of one compiled Game and how often each ran."""

    def __init__(self) -> None:
        self.probes: list[Probe] = []
        self.hits: list[int] = []

    def probe(self, where: Where, branch: str) -> int:
        self.probes.append(Probe(where, branch))
        self.hits.append(0)
        return len(self.hits) - 1

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
