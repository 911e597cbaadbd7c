"""The table a ruleset declares, checked: the kinds of seats its rules run (`seats:`, the
players of its `automated:` counter) and options whose values may be given by name.

A seat kind is offered on the command line (`--seat KIND`) beside the bots; its option
seats it (an amount: how many of the last seats; a flag: one seat, perhaps sitting down
by itself at a table of `joins` others). An option with `names:` takes an item's name or
id of a kind for the number the item's attribute holds. pipeline/table.py seats a table
from them; nothing here names a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from legacies.interpreter.spec import SeatSpec

from ..load import LoadedFile
from ..models import RulesetFile

if TYPE_CHECKING:  # pragma: no cover
    from .base import Builder

BOT_KINDS = ("human", "random", "greedy", "rollout", "search")
"""Seat kinds every ruleset has (the agents): a ruleset's own seat kinds take other names."""


def check_seats(b: "Builder", rf: LoadedFile) -> list[SeatSpec]:
    """Each declared seat kind: its option exists and seats it (R001); the ruleset runs
    such players (`automated:`); a bot's name is not taken."""
    r: RulesetFile = rf.model  # type: ignore[assignment]
    out: list[SeatSpec] = []
    for name, seat in b.stack.seats.items():
        f = b.stack.declared[f"seats:{name}"][1]
        path = ("seats", name)
        option = b.stack.options.get(seat.option)
        if name in BOT_KINDS:
            b.at(f, path, "R001", f"`{name}` is a seat kind of every ruleset (a bot or a person)", key=True,
                 hint="give the seat kind a name of its own")
            continue
        if option is None:
            b.at(f, path + ("option",), "R001", f"`{seat.option}` is no option", hint=b.suggest(seat.option,
                 b.stack.options) or "declare the option that seats them under `options:`")
            continue
        if r.automated is None:
            b.at(f, path, "R001", "seats the rules run need the ruleset's `automated:` counter (the rules say, "
                 "through it, which players they run)", key=True)
            continue
        if seat.joins is not None and option.type != "flag":
            b.at(f, path + ("joins",), "R001", "only a seat seated by a flag option sits down by itself (`joins`)")
            continue
        out.append(SeatSpec(name, seat.label, seat.option, option.type, seat.joins, seat.description))
    return out


def option_names(b: "Builder") -> dict[str, dict[str, int]]:
    """Each option with `names:`: the lower-case id and name of every item of its kind ->
    the number its attribute holds (R001 for a kind or attribute that is not one)."""
    out: dict[str, dict[str, int]] = {}
    for name, option in b.stack.options.items():
        if option.names is None:
            continue
        f = b.stack.declared[name][1]
        path = ("options", name, "names")
        kind = b.vocab.kinds.get(option.names.kind)
        if kind is None:
            b.at(f, path + ("kind",), "R001", f"unknown kind `{option.names.kind}`",
                 hint=b.suggest(option.names.kind, b.vocab.kinds))
            continue
        if option.type != "amount" or kind.attributes.get(option.names.attribute) is None \
                or kind.attributes[option.names.attribute].tag != "amount":
            b.at(f, path + ("attribute",), "R001", f"`names:` gives an amount option the number an item's "
                 f"attribute holds; `{option.names.attribute}` is no number attribute of {option.names.kind}")
            continue
        values: dict[str, int] = {}
        for cid, kind_name in b.vocab.content.items():
            if kind_name != option.names.kind:
                continue
            item = b.items[cid][2]
            number = item.attributes.get(option.names.attribute)
            if type(number) is int:
                values[cid.lower()] = number
                values[b.vocab.content_names[cid].lower()] = number
        out[name] = values
    return out
