"""A human at the terminal: the board as they may see it (cli/board.py, from the
ruleset's `display:`), their decision with numbered options and a line of card text
each, and the keys of a player's seat:

- a number chooses that option;
- `?N` shows option N in full (the card text of the item it names);
- `board` draws the board again, `log` shows the last things that happened;
- `undo` takes back your last decision (and the bots' moves since), not across a card
  drawn from where you cannot see;
- `save [FILE]` writes the game as it stands (to FILE, else the `--save` file, else
  legacies-save.json); `quit` asks whether to save, then leaves (PlayerQuit);
- `help` lists the keys.

Anything else is refused with a one-line reason and the same question asked again.
Hot-seat: each human seat is asked in turn and sees their own view only; with more
than one human at the table, the screen is cleared and waits for the next player
before showing them anything.

While a bot thinks for longer than a moment, a line on the terminal says which bot is
thinking and for how long (ThinkingShown), cleared when it decides.

The screen and the prompt go to stderr (the terminal), so that stdout holds only what
the command prints (the log, or the JSON of `--json`). End of input (EOF) raises
EOFError and Ctrl-C KeyboardInterrupt, for `legacies play` to save the game and stop."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Callable, TextIO

from rich.console import Console
from rich.status import Status

from legacies.agents.base import Agent
from legacies.agents.match import UndoRequest
from legacies.interpreter import builtins
from legacies.interpreter.game import GameState
from legacies.interpreter.values import DefRef
from legacies.pipeline.writes import WriteError, write_whole

from .board import board_lines

KEYS = ("a number: choose that option · ?N: show option N in full · board · log · undo · "
        "save [FILE] · quit · help")
DEFAULT_SAVE = "legacies-save.json"


class PlayerQuit(Exception):
    """The player typed `quit` (after being offered to save)."""


def option_item(state: GameState, index: int) -> int | None:
    """The definition option `index` names (a card to play, an item to take), if any."""
    d = state.decision
    assert d is not None
    item = d.options[index].item
    if isinstance(item, DefRef):
        return int(item)
    return state.game.layout.piece_def[item] if type(item) is int else None


def option_text(state: GameState, index: int) -> str:
    """The card text of what option `index` names ("" for a plain choice)."""
    from legacies.pipeline.explain import item_text

    d = state.decision
    assert d is not None
    item = option_item(state, index)
    if item is None:
        return ""
    spec = state.game.spec
    era = builtins.era(state.st) if spec.era_counter else None  # at the table: the current era's values
    return item_text(spec.defs[item], spec.vocab, attributes=spec.card_attributes, era=era)


def screen(state: GameState, player: int) -> list[str]:
    """What a player is shown when they decide: the prompt and the numbered options,
    each with the first line of its card text (nothing they may not see)."""
    d = state.decision
    assert d is not None
    lines = ["", f"{state.game.player_names[player]}, {d.prompt}:"]
    options = d.labels() if d.player == player else []  # another's options are theirs alone
    for i, label in enumerate(options, 1):
        text = option_text(state, i - 1).split("\n")[0]
        if len(text) > 70:
            text = text[:69] + "…"
        lines.append(f"  {i}. {label}" + (f"  — {text}" if text else ""))
    return lines


class HumanAgent:
    def __init__(self, seat: int, stdin: TextIO | None = None, write: Callable[[str], None] | None = None,
                 save_path: Path | None = None, hot_seat: bool = False, seats: list[str] | None = None):
        self.seat = seat
        self.name = f"human{seat + 1}"
        self.stdin = stdin
        self.write = write
        self.save_path = save_path
        self.hot_seat = hot_seat  # more than one human: clear the screen and wait between them
        self.seats = seats  # every seat's kind, kept in a save for `legacies resume`
        self.seen: int | None = None  # the decision count when this seat last decided

    def _say(self, text: str, end: str = "\n") -> None:
        if self.write is not None:
            self.write(text + end)
        else:
            sys.stderr.write(text + end)
            sys.stderr.flush()

    def _read(self) -> str:
        line = (self.stdin or sys.stdin).readline()
        if not line:
            raise EOFError("end of input")
        return line.strip()

    def choose(self, state: GameState) -> int:
        d = state.decision
        assert d is not None
        me = d.player
        decided = len(state.st.history)
        if self.seen is None or self.seen not in (decided - 1, decided):  # others played, or an undo
            if self.hot_seat:
                names = state.game.player_names
                active = state.st.active
                # a player asked out of turn (a response window) is told whose turn it is
                whose = f"{names[me]}'s turn" if active in (me, -1) else f"{names[me]}, on {names[active]}'s turn"
                self._say("\033[2J\033[H", end="")
                self._say(f"{whose}: press Enter when only they can see the screen")
                self._read()
            self._say("\n".join(board_lines(state, me)))
        self.seen = decided
        for line in screen(state, me):
            self._say(line)
        while True:
            self._say(f"choose 1-{len(d.options)} (help for keys): ", end="")
            raw = self._read()
            answer = self._answer(state, raw)
            if answer is not None:
                return answer

    def _answer(self, state: GameState, raw: str) -> int | None:
        """The option chosen, or None after doing what a key asks (or refusing)."""
        d = state.decision
        assert d is not None
        n = len(d.options)
        word, _, rest = raw.partition(" ")
        if raw.isdigit():
            if 1 <= int(raw) <= n:
                return int(raw) - 1
            self._say(f"there is no option {raw}: choose a number from 1 to {n}")
        elif raw.startswith("?"):
            arg = raw[1:].strip()
            if not arg.isdigit() or not 1 <= int(arg) <= n:
                self._say(f"?N shows option N in full: N from 1 to {n}")
            else:
                text = option_text(state, int(arg) - 1)
                self._say(f"{arg}. {d.options[int(arg) - 1].label}" + (f"\n{text}" if text else
                                                                       "\n(a choice with no card text)"))
        elif raw in ("board", "b"):
            self._say("\n".join(board_lines(state, d.player)))
        elif raw == "log":
            recent = state.st.log[-20:]
            self._say("\n".join(f"  · {line}" for line in recent) if recent else "nothing has happened yet")
        elif raw == "undo":
            raise UndoRequest()
        elif word == "save":
            self._save(state, Path(rest.strip()) if rest.strip() else None)
        elif raw in ("quit", "q"):
            self._say("save the game before leaving? (y/n): ", end="")
            if self._read().lower().startswith("y"):
                self._save(state, None)
            raise PlayerQuit("you left the game")
        elif raw in ("help", "h"):
            self._say(KEYS)
        elif not raw:
            self._say("type the number of an option (help for keys)")
        else:
            self._say(f"{raw[:20]!r} is not an option or a key: {KEYS}")
        return None

    def _save(self, state: GameState, path: Path | None) -> None:
        target = path or self.save_path or Path(DEFAULT_SAVE)
        try:
            write_whole(target, state.serialize(seats=self.seats))
        except WriteError as err:
            self._say(f"not saved: {err}" + ("; the earlier save in it is kept" if target.is_file() else ""))
            return
        self._say(f"saved to {target} (`legacies resume {target}` continues it)")


class ThinkingShown:
    """A bot's seat at a table with a person: when it thinks longer than a moment, a
    spinner line on the terminal says who is thinking and for how long; it is cleared
    when the bot decides. The bot and its moves are unchanged (the line is drawn by a
    rich status from another thread)."""

    DELAY = 0.3  # seconds before the line shows: a quick bot's moves do not flicker

    def __init__(self, agent: Agent, label: str, console: Console | None = None):
        self.agent = agent
        self.label = label
        self.console = console or Console(stderr=True)
        self.name = getattr(agent, "name", label)

    def __rich__(self) -> str:  # the status line, drawn afresh on each refresh
        return f"{self.label} is thinking… {time.perf_counter() - self._since:.1f} s"

    def choose(self, state: GameState) -> int:
        self._since = time.perf_counter()
        status = Status(self, console=self.console)
        lock = threading.Lock()
        shown = finished = False

        def show() -> None:
            nonlocal shown
            with lock:
                if not finished:
                    status.start()
                    shown = True
        timer = threading.Timer(self.DELAY, show)
        timer.daemon = True
        timer.start()
        try:
            return self.agent.choose(state)
        finally:
            timer.cancel()
            with lock:
                finished = True
                if shown:
                    status.stop()
