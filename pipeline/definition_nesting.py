"""Definitions nested through each other, measured before anything runs. Each value keeps
E111's depth limit alone, but where a definition uses another, computing it computes that
one's whole value, and so on down the chain: a long chain nests deep, and a definition
that uses another twice, which uses another twice..., doubles the work at each link.
Measured once the checker has resolved every use (`total NAME of C` may ask a definition
of each member, or read an attribute of that name), callees first:

- E216 for a loop of definitions that only the resolution shows (through `total NAME of`;
  the loops of plain uses are found before checking, pipeline/build/rules.py);
- E222 for a value that nests past MAX_DEPTH levels with the values of the definitions it
  uses: compiling and computing it recurse that deep;
- E223 for a value whose work, computed once, is more than the step budget of a decision;
- what each definition charges the step budget when it is computed (`DefinitionSpec.charge`,
  interpreter/budget.py): one step per node of its value and of the small definitions it
  uses, for a definition whose whole work reaches CHARGED_FROM. A definition it uses that is
  charged itself is left to charge its own part, so the charges of a computation add up to
  its work, and a doubling chain stops at the budget, however the checks above were set.

A node's work is one step, plus its parts', plus, where it uses a definition, that
definition's work; `A if C else B` counts C and the larger of A and B. A walk's condition
counts once: the walk charges each member at run time (and a definition its condition
uses is charged at each call)."""

from __future__ import annotations

from dataclasses import dataclass

from legacies.dsl import ast
from legacies.dsl import resolution as r
from legacies.dsl.parser import MAX_DEPTH

CHARGED_FROM = 64
"""The whole work from which a definition charges the step budget when computed: below it
a use costs what a line of nodes written in place would, and needs no charge. (The
shipped rulesets' largest is 359; a few in each reach 64. Their busiest run spends at
most 14,130 steps with the charges, a few thousand more than without.)"""

MOST_WORK = 10 ** 15
"""Work is counted up to here (a chain of links that double it could go to 2 ** 50)."""


@dataclass
class Measure:
    """A value measured with the definitions it uses: how deep it nests, its whole work,
    and the part of it that it charges itself (`own`: the charged definitions it uses
    charge theirs)."""

    depth: int
    work: int
    own: int


@dataclass
class Finding:
    """A definition past a limit: the code (E222, E223), the message and the hint."""

    name: str
    code: str
    message: str
    hint: str


def nesting(order: list[str], values: dict[str, ast.Expr], res: r.Resolution,
            step_budget: int) -> tuple[dict[str, Measure], list[Finding]]:
    """Every definition of `order` (callees first, none in a loop) measured, and the
    findings: each reported where its chain first passes the limit, not again on each
    definition that uses that one."""
    measured: dict[str, Measure] = {}
    past: set[str] = set()
    findings: list[Finding] = []
    for name in order:
        m, uses_past = _measure(values[name], res, measured, past)
        measured[name] = m
        found = _past_limits(name, m, step_budget)
        if found is None:
            continue
        past.add(name)
        if not uses_past:
            findings.append(found)
    return measured, findings


def _past_limits(name: str, m: Measure, step_budget: int) -> Finding | None:
    if m.depth > MAX_DEPTH:
        return Finding(name, "E222", f"definition `{name}` nests {m.depth} levels deep with the definitions it uses, "
                       f"more than {MAX_DEPTH}", "shorten the chain of definitions using each other: compute a part "
                       "in a definition that uses no other")
    if m.work > step_budget:
        steps = f"{m.work:,}" if m.work < MOST_WORK else f"more than {MOST_WORK:,}"
        return Finding(name, "E223", f"computing definition `{name}` once takes {steps} steps with the definitions "
                       "it uses (each use of a definition computes it again), more than the step budget of "
                       f"{step_budget:,} for one decision", "use a definition once where its value is needed more "
                       "than once (`2 * d`, not `d + d`; `let` in an effect), or shorten the chain")
    return None


def _measure(node: ast.Node, res: r.Resolution, measured: dict[str, Measure],
             past: set[str]) -> tuple[Measure, bool]:
    """A value's measure, and whether it uses a definition already past a limit.
    Recursive: the value itself nests at most MAX_DEPTH levels (E111)."""
    parts = [_measure(child, res, measured, past) for child in node.children()]
    uses_past = any(p for _, p in parts)
    if isinstance(node, ast.Cond):  # the condition, then one of the two values
        cond, yes, no = (m for m, _ in parts)
        larger = yes if yes.work >= no.work else no
        depth = 1 + max(cond.depth, yes.depth, no.depth)
        work, own = 1 + cond.work + larger.work, 1 + cond.own + larger.own
    else:
        depth = 1 + max((m.depth for m, _ in parts), default=0)
        work = 1 + sum(m.work for m, _ in parts)
        own = 1 + sum(m.own for m, _ in parts)
    ref = res.refs.get(id(node))
    if isinstance(ref, r.Definition) and ref.name in measured:  # a use of a definition: its value computed here
        used = measured[ref.name]
        uses_past = uses_past or ref.name in past
        depth = max(depth, 1 + used.depth)
        work += used.work
        own += 0 if charges(used) else used.work
    return Measure(depth, min(work, MOST_WORK), min(own, MOST_WORK)), uses_past


def charges(m: Measure) -> bool:
    """Whether a definition so measured charges the step budget when it is computed."""
    return m.work >= CHARGED_FROM
