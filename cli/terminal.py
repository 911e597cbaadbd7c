"""A human at the terminal: shows the decision and reads the chosen option number.
Hot-seat: each human seat is asked in turn; what a player sees is their own view.

The screen and the prompt go to stderr (the terminal), so that stdout holds only what
the command prints (the log, or the JSON of `--json`). An empty line chooses nothing:
the player is asked again. End of input (EOF) raises EOFError and Ctrl-C
KeyboardInterrupt, for `legacies play` to save the game and stop."""

from __future__ import annotations

import sys
from typing import Callable, TextIO

from legacies.interpreter.game import GameState


def screen(state: GameState, player: int) -> list[str]:
    """What a player is shown when they decide: the prompt, their own zones (from their
    view: nothing they may not see) and the numbered options."""
    d = state.decision
    assert d is not None
    view = state.view(player)
    name = state.game.player_names[player]
    lines = ["", f"{name}, {view['decision']['prompt']}:"]
    for zone, cards in view["zones"].items():
        if isinstance(cards, list) and cards and zone.endswith(f"[{name}]"):
            lines.append(f"  {zone}: {', '.join(cards)}")
    options = view["decision"].get("options", []) if d.player == player else []
    lines.extend(f"  {i}. {label}" for i, label in enumerate(options, 1))
    return lines


class HumanAgent:
    def __init__(self, seat: int, stdin: TextIO | None = None, write: Callable[[str], None] | None = None):
        self.seat = seat
        self.name = f"human{seat + 1}"
        self.stdin = stdin
        self.write = write

    def _say(self, text: str, end: str = "\n") -> None:
        if self.write is not None:
            self.write(text + end)
        else:
            sys.stderr.write(text + end)
            sys.stderr.flush()

    def choose(self, state: GameState) -> int:
        d = state.decision
        assert d is not None
        for line in screen(state, d.player):
            self._say(line)
        while True:
            self._say(f"choose 1-{len(d.options)}: ", end="")
            line = (self.stdin or sys.stdin).readline()
            if not line:
                raise EOFError("end of input")
            raw = line.strip()
            if not raw:
                self._say("type the number of an option")
                continue
            try:
                n = int(raw)
            except ValueError:
                self._say("type the number of an option")
                continue
            if 1 <= n <= len(d.options):
                return n - 1
            self._say(f"choose a number from 1 to {len(d.options)}")
