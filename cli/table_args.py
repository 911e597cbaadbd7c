"""How a command sets a table: the seat kinds it is given (a person, the bots, the seats
a ruleset's rules run), a search bot's --think and --iterations, `--option NAME=VALUE`,
the processes it plays in (--workers). A wrong value is a usage error in words (exit 2)."""

from __future__ import annotations

import re
from typing import Any, Optional

import typer

from legacies.agents.bots import BOTS, iterations_problem, lookahead_problem, think_problem
from legacies.agents.processes import workers_refused
from legacies.interpreter.errors import TableError

from .common import fail, short


def parse_options(items: list[str]) -> dict[str, object]:
    """`--option NAME=VALUE`: a number, yes/no, or a name (an option whose values the
    ruleset names, checked with the table: pipeline/table.py)."""
    out: dict[str, object] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            fail(f"--option takes NAME=VALUE, not {item!r}")
        lowered = value.strip().lower()
        if lowered in ("true", "yes", "on"):
            out[key] = True
        elif lowered in ("false", "no", "off"):
            out[key] = False
        elif _WHOLE.fullmatch(value.strip()):  # ASCII digits only: int() also reads '٣٣٣' and '1_000'
            out[key] = int(value.strip())
        else:
            out[key] = value.strip()
    return out


_WHOLE = re.compile(r"-?[0-9]{1,18}")


def known_seats(spec: Any, seats: list[str]) -> None:
    """Every seat kind is a person's, a bot's or one the ruleset declares."""
    ruled = [s.name for s in spec.seats]
    for kind in seats:
        if kind != "human" and kind not in BOTS and kind not in ruled:
            raise TableError(f"--seat {short(kind)}: choose from human, {', '.join(BOTS)}"
                             + (f" or the seats {spec.title}'s rules run: {', '.join(ruled)}" if ruled else ""))


def think_seconds(value: Optional[float]) -> Optional[float]:
    """`--think`: a finite number of seconds above 0, at most agents.bots.MAX_THINK."""
    problem = think_problem(value) if value is not None else None
    if problem:
        raise typer.BadParameter(problem.removeprefix("--think "))
    return value


def iterations_count(value: Optional[int]) -> Optional[int]:
    """`--iterations`: a whole number from 1 to agents.bots.MAX_ITERATIONS."""
    problem = iterations_problem(value) if value is not None else None
    if problem:
        raise typer.BadParameter(problem.removeprefix("--iterations "))
    return value


def lookahead_count(value: Optional[int]) -> Optional[int]:
    """`--lookahead`: a whole number from 0 to agents.bots.MAX_LOOKAHEAD."""
    problem = lookahead_problem(value) if value is not None else None
    if problem:
        raise typer.BadParameter(problem.removeprefix("--lookahead "))
    return value


def check_workers(workers: int, option: str = "--workers") -> None:
    """`--workers` (or `option`): a usage error when this machine cannot run that many
    processes."""
    refused = workers_refused(workers, option)
    if refused:
        fail(refused)

