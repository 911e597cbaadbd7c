"""The decision protocol: whenever the rules or an effect need a choice, the game
stops on a Decision (who decides, a prompt, the legal options) and waits for one of
them. Bots, the terminal and tests all answer through the same protocol."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Choice:
    label: str
    value: object
    # the piece (an int) or item (a DefRef) the option names, where its maker knows it
    # does: a member of a collection of items, an action's item target. Players and
    # numbers are ints too, so the value alone cannot tell.
    item: object = None


class Taken(str):
    """The log line of a decision nobody was asked: its only possible answer was taken
    for `player` ("P1 [choose a resource]: ore (the only choice)"). `piece` is the answer
    when it is a piece, for a log that must not name a piece some players may not see."""

    player: int
    piece: int | None

    @staticmethod
    def of(player: int, who: str, prompt: str, choice: Choice) -> "Taken":
        line = Taken(f"{who} [{prompt}]: {choice.label} (the only choice)")
        line.player = player
        # the piece the option names, never its value: a number taken (a bid of 1) is no piece
        line.piece = choice.item if type(choice.item) is int else None
        return line


@dataclass(frozen=True, slots=True)
class Decision:
    player: int
    prompt: str
    options: tuple[Choice, ...]
    kind: str = "choose"  # choose | one | may | number | action

    def labels(self) -> list[str]:
        return [o.label for o in self.options]
