"""How a command sets a table: the seat kinds it is given (a person, the bots, the seats
a ruleset's rules run), a search bot's --think and --iterations, `--option NAME=VALUE`,
the processes it plays in (--workers). A wrong value is a usage error in words (exit 2)."""

from __future__ import annotations

import re
from typing import Any

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


def saved_seats(spec: Any, data: dict, given: list[str],
                how: str = ": give one --seat per player to seat others") -> tuple[list[str], str | None]:
    """Who sits where in a game taken up from a save: `--seat` as given, else the save's
    `seats`; and what is wrong with the save's, in words (None: nothing), said before any
    decision is replayed: a save that names no seat kind is refused, never half-loaded
    (`replay`, which seats nobody, says so without `how`)."""
    kinds = list(given) or list(data.get("seats") or [])
    if given:
        return kinds, None
    ruled = [s.name for s in spec.seats]
    sat = [k.partition(":")[0].strip() for k in kinds]  # each seat's kind, its player's name left out
    for kind in sat:
        if kind != "human" and kind not in BOTS and kind not in ruled:
            return kinds, (f"the save's `seats` names `{short(kind)}`, which is no seat kind (human, {', '.join(BOTS)}"
                           + "".join(f", {r}" for r in ruled) + ")" + how)
    options = data.get("options") or {}
    for seat in spec.seats:  # the seats the rules run are the options that seated them: the two agree
        count = sat.count(seat.name)
        option = options.get(seat.option)
        if kinds and option is not None and count != (int(bool(option)) if seat.option_type == "flag" else option):
            return kinds, (f"the save's `seats` seat {count} {seat.name} where its option `{seat.option}` is "
                           f"{option}: an edited save")
    return kinds, None


_EFFORT = {"--think": think_problem, "--iterations": iterations_problem, "--lookahead": lookahead_problem}
"""A bot's effort options and what says why a value is out of their bounds (agents/bots.py)."""


def bot_effort(option: str, value: Any) -> Any:
    """`--think` (seconds above 0, at most agents.bots.MAX_THINK), `--iterations` (1 to
    MAX_ITERATIONS) or `--lookahead` (0 to MAX_LOOKAHEAD): the value, or a usage error."""
    problem = _EFFORT[option](value) if value is not None else None
    if problem:
        raise typer.BadParameter(problem.removeprefix(option + " "))
    return value


def check_workers(workers: int, option: str = "--workers") -> None:
    """`--workers` (or `option`): a usage error when this machine cannot run that many
    processes."""
    refused = workers_refused(workers, option)
    if refused:
        fail(refused)

