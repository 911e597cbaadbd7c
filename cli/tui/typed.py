"""A number typed at the full-screen table's options: which option it names.

Where the options are amounts (a bid, a number to choose) the number typed is the amount
itself, never the option's place in the list (amounts 0, 5, 10...: `1` is not the first
option but the start of 10 or 15); elsewhere it is the option's number as the list shows
it. A digit that no option's number or amount can start with is not taken. An option is
answered as soon as the digits typed can name no other one: with nine options or fewer,
every digit answers at once, as it always did."""

from __future__ import annotations

from dataclasses import dataclass

from legacies.view.model import DecisionView


@dataclass(frozen=True)
class Typed:
    """What the digits typed so far mean."""

    taken: bool  # False: the last digit names nothing and is dropped (`said` says why)
    index: int | None = None  # the option they name exactly, if any
    final: bool = False  # no other option starts with them: answer it now
    said: str = ""


def read_typed(d: DecisionView, typed: str) -> Typed:
    """What `typed` (digits) names among the options of `d`."""
    if d.amounts is not None:
        named = {str(o.amount): o.index for o in d.options if o.amount is not None and not o.passes}
        what = f"amounts offered: {d.amounts.words}"
    else:
        named = {str(o.index + 1): o.index for o in d.options}
        what = f"options 1 to {len(d.options)}"
    longer = [n for n in named if n.startswith(typed) and n != typed]
    if typed not in named and not longer:
        return Typed(False, said=f"no {'amount' if d.amounts is not None else 'option'} {typed}: {what}")
    index = named.get(typed)
    return Typed(True, index, final=index is not None and not longer)
