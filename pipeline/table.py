"""Seating a table: the seats a command was given, the ruleset's own seat kinds (players
its rules run, declared under `seats:`), the options that seat them, and options given
by name.

`legacies play` and `simulate` take `--seat KIND[:NAME]` for people, bots and the
ruleset's seat kinds alike, and `--option NAME=VALUE`. Here a seat kind the rules run is
turned into its option (an amount: how many of the last seats; a flag: one seat), given
seats and options must agree, a flag seat with `joins: N` sits down by itself at a table
of N others, and a named option value (`level=hard`) becomes its number. The seats
the rules run come last, in the order the ruleset declares their kinds, named by their
label ("Helper", "Helper 2"). Nothing here names a game: the ruleset's data does.
"""

from __future__ import annotations

from typing import Any

from legacies.interpreter.errors import TableError
from legacies.interpreter.spec import GameSpec, SeatSpec


def rule_seats(spec: GameSpec) -> dict[str, SeatSpec]:
    """The ruleset's own seat kinds, by name."""
    return {s.name: s for s in spec.seats}


def named_option(spec: GameSpec, name: str, value: Any) -> Any:
    """An option's value as given: a name or id of the option's items (any case) stands
    for its number; TableError naming the choices for an unknown one."""
    if not isinstance(value, str):
        return value
    names = spec.option_names.get(name)
    if names is None:
        raise TableError(f"option {name} needs a number or yes/no, not {value!r}")
    number = names.get(value.strip().lower())
    if number is None:
        if value.strip().isdigit() and int(value) in names.values():
            return int(value)
        raise TableError(f"option {name}: {value!r} is none of {', '.join(sorted(names))}")
    return number


def seat_table(spec: GameSpec, seats: list[str], names: list[str],
               options: dict[str, Any]) -> tuple[list[str], list[str], dict[str, Any]]:
    """The seats (the players', then the rules'), their names and the options of a table.
    TableError (a usage problem) when the seats and options do not fit the ruleset."""
    kinds = rule_seats(spec)
    options = {k: named_option(spec, k, v) for k, v in options.items()}
    players = [(s, n) for s, n in zip(seats, names) if s not in kinds]
    counts = {k: 0 for k in kinds}
    for s in seats:
        if s in kinds:
            counts[s] += 1
    for kind in kinds.values():
        given = options.get(kind.option)
        seated = counts[kind.name]
        if kind.option_type == "flag":
            if seated > 1:
                raise TableError(f"--seat {kind.name}: a table has at most one {kind.label}")
            if given is not None and seated and not given:
                raise TableError(f"--seat {kind.name} and --option {kind.option}=no disagree")
            counts[kind.name] = 1 if (seated or given) else 0
        else:
            if given is not None and seated and given != seated:
                raise TableError(f"{seated} --seat {kind.name} and --option {kind.option}={given} disagree")
            counts[kind.name] = seated or int(given or 0)
    total = len(players) + sum(counts.values())
    for kind in kinds.values():  # a seat that joins a table of so many others by itself
        if kind.joins is not None and not counts[kind.name] and kind.option not in options and total == kind.joins:
            counts[kind.name] = 1
            total += 1
    if not players:
        raise TableError(f"{spec.title} needs a seat the rules do not run: add --seat random (or human, greedy...)")
    if not spec.min_players <= total <= spec.max_players:
        ruled = sum(counts.values())
        extra = f" ({len(players)} seats and {ruled} the rules run)" if ruled else ""
        raise TableError(f"{spec.title} is for {spec.min_players}-{spec.max_players} players, not {total}{extra}"
                         + (f": add a seat, or one the rules run ({', '.join('--seat ' + k for k in kinds)})"
                            if total < spec.min_players and kinds else ""))
    out_seats = [s for s, _ in players]
    out_names = [n for _, n in players]
    for kind in kinds.values():
        n = counts[kind.name]
        for i in range(n):
            out_seats.append(kind.name)
            out_names.append(_unique(out_names, kind.label if n == 1 else f"{kind.label} {i + 1}"))
        options[kind.option] = bool(n) if kind.option_type == "flag" else n
    return out_seats, out_names, options


def _unique(names: list[str], name: str) -> str:
    """`name`, or `name (2)`... when a player is already called so."""
    n, candidate = 1, name
    while candidate in names:
        n += 1
        candidate = f"{name} ({n})"
    return candidate
