"""`legacies play --nemesis N --difficulty LEVEL`: the table with its non-player seats.

A ruleset that has non-player characters declares the setup options `nemesis` (how many
of the last seats are Nemeses), `rising_star` (the last seat is the Rising Star) and
`difficulty` (a number; its levels are the ruleset's `difficulty_level` items, by id or
name). The rules run those seats (the ruleset's `automated:` counter), so their agents
are never asked anything; here they get a seat (kind `npc`) and a name. The Rising Star joins a
table of two (people, bots and Nemeses together), as the two-player rules say."""

from __future__ import annotations

from typing import Any

from legacies.agents.npc_seat import NPC_SEAT
from legacies.interpreter.errors import TableError


def difficulty_levels(spec: Any) -> dict[str, int]:
    """The ruleset's difficulty levels: id and lower-case name -> the option's number."""
    levels: dict[str, int] = {}
    for d in spec.defs:
        if d.kind == "difficulty_level" and type(d.attrs.get("number")) is int:
            levels[d.id.lower()] = d.attrs["number"]
            levels[d.name.lower()] = d.attrs["number"]
    return levels


def _level_number(spec: Any, level: str) -> int:
    levels = difficulty_levels(spec)
    wanted = level.strip().lower()
    if wanted in levels:
        return levels[wanted]
    if wanted.isdigit() and int(wanted) in levels.values():
        return int(wanted)
    names = [d.name.lower() for d in spec.defs if d.kind == "difficulty_level"]
    raise TableError(f"--difficulty {level}: choose one of {', '.join(names)}")


def npc_table(spec: Any, seats: list[str], names: list[str], options: dict[str, Any], nemesis: int,
              difficulty: str | None) -> tuple[list[str], list[str], dict[str, Any]]:
    """The seats, names and options of the table once its Nemeses (and, for two, the
    Rising Star) sit after the given seats. Unchanged for a ruleset without them when
    neither flag is given; TableError (a usage problem) when a flag does not fit."""
    has_npcs = "nemesis" in spec.option_defaults and "rising_star" in spec.option_defaults
    if not has_npcs:
        if nemesis or difficulty is not None:
            raise TableError(f"{spec.title} has no non-player characters (--nemesis, --difficulty)")
        return seats, names, options
    if nemesis < 0:
        raise TableError(f"--nemesis {nemesis}: a number of Nemeses, 0 or more")
    if difficulty is not None and not nemesis:
        raise TableError("--difficulty sets how the Nemeses play: add --nemesis N")
    options = dict(options)
    seats, names = list(seats), list(names)
    for i in range(nemesis):
        seats.append(NPC_SEAT)
        names.append(_unique(names, "Nemesis" if nemesis == 1 else f"Nemesis {i + 1}"))
    options["nemesis"] = nemesis
    if len(seats) == 1:
        raise TableError(f"{spec.title} needs two players or more: add a seat, or play solo with --nemesis 1")
    if len(seats) == 2 and not options.get("rising_star"):  # TWO-1, NPC-21: a Rising Star joins two players
        seats.append(NPC_SEAT)
        names.append(_unique(names, "Rising Star"))
        options["rising_star"] = True
    if len(seats) > spec.max_players:
        raise TableError(f"{spec.title} seats at most {spec.max_players}, non-player characters included: "
                         f"{len(seats) - nemesis - (1 if options.get('rising_star') else 0)} seats and {nemesis} "
                         f"Nemeses are {len(seats)}")
    if difficulty is not None:
        options["difficulty"] = _level_number(spec, difficulty)
    return seats, names, options


def _unique(names: list[str], name: str) -> str:
    """`name`, or `name (2)`... when a player is already called so."""
    n, candidate = 1, name
    while candidate in names:
        n += 1
        candidate = f"{name} ({n})"
    return candidate
