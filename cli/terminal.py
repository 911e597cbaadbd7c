"""A human at the terminal: the board as they may see it (cli/board.py, from the
ruleset's `display:`), their decision with numbered options and a line of card text
each, and the keys of a player's seat:

- a number chooses that option; where the options are amounts (`choose coins to give:
  0 to 90 in steps of 5`, a bid), the number is the amount itself;
- `?N` shows option N in full: the card of the item it names, and the effects it
  would play (view/cards.py);
- `look NAME` shows the card of anything the player may see on the table, and where;
- `board` draws the whole board again, a screenful at a time; `board NAME` one part of
  it (`table`, or a player's name or number); `log` shows the last lines of the game's log
  (each move, and what it changed);
- `undo` takes back your last decision (and the bots' moves since), not across a card
  drawn from where you cannot see;
- `save [FILE]` writes the game as it stands (to FILE, else the `--save` file, else
  legacies-save.json, or legacies-save-N.json when that is taken by a file this game did
  not write) and says where, as a full path; `quit` asks whether to save
  (not when nothing was decided since the last `save`; with `--save FILE` it saves
  there without asking, as `--save` promised), then leaves (PlayerQuit);
- `help` lists the keys.

Anything else is refused with a one-line reason and the same question asked again.
Hot-seat: each human seat is asked in turn and sees their own view only; with more
than one human at the table, the screen and the terminal's scrollback are cleared and
the terminal waits for the next player before showing them anything.

While a bot thinks for longer than a moment, a line on the terminal says which bot is
thinking and for how long (ThinkingShown), cleared when it decides.

The screen and the prompt go to stderr (the terminal), so that stdout holds only what
the command prints (the log, or the JSON of `--json`). End of input (EOF) raises
EOFError and Ctrl-C KeyboardInterrupt, for `legacies play` to save the game and stop."""

from __future__ import annotations

import shutil
import sys
import threading
import time
from pathlib import Path
from typing import Callable, TextIO

from rich.console import Console
from rich.status import Status

from legacies.agents.base import Agent
from legacies.agents.match import UndoRequest
from legacies.interpreter.decisions import Decision
from legacies.interpreter import builtins
from legacies.interpreter.game import GameState
from legacies.interpreter.values import DefRef
from legacies.pipeline.saves import unused_save_path
from legacies.pipeline.writes import WriteError, write_whole

from .board import board_lines, board_sections
from legacies.view.build import amounts_text
from legacies.view.cards import look, option_item, option_lines, wrapped

KEYS = ("a number: choose that option (an amount, where the options are amounts) · ?N: option N in full · "
        "look NAME: a card on the table · board · log · undo · save [FILE] · quit · help")
LOG_LINES = 40  # the lines of the game's log the `log` key shows (the latest)
# erase the screen, then the lines scrolled off it (xterm's ED 3, which VTE, iTerm2, tmux,
# Windows Terminal and the Linux console honour; erasing the screen alone pushes it into
# the scrollback in most of them), and home the cursor
CLEAR_ALL = "\033[2J\033[3J\033[H"


class PlayerQuit(Exception):
    """The player typed `quit` (after being offered to save)."""


def option_text(state: GameState, index: int) -> str:
    """The card text of what option `index` names, with the attributes `display: card:`
    reads beside it ("" for a plain choice)."""
    from legacies.pipeline.explain import item_text

    item = option_item(state, index)
    if item is None:
        return ""
    spec = state.game.spec
    d = int(item) if isinstance(item, DefRef) else state.game.layout.piece_def[item]
    era = builtins.era(state.st) if spec.era_counter else None  # at the table: the current era's values
    return item_text(spec.defs[d], spec.vocab, attributes=spec.card_attributes, era=era)


def amounts(d: Decision) -> list[int] | None:
    """The amounts a decision offers when its options are amounts (a number to choose,
    a bid; a bid may also be passed), else None: the player types the amount itself."""
    if d.kind not in ("number", "bid"):
        return None
    return [o.value for o in d.options if type(o.value) is int]


def _hint(text: str, room: int) -> str:
    """The first line of a card's text cut to `room` characters between words."""
    first = text.split("\n")[0]
    if len(first) <= room:
        return first
    cut = first[:max(0, room - 1)].rsplit(" ", 1)[0].rstrip(" ,;:—-")
    return cut + "…" if len(cut.split()) > 2 else ""  # a label and a word or two say nothing yet


def width() -> int:
    """The terminal's width in columns (COLUMNS, else the terminal's own, else 80)."""
    return shutil.get_terminal_size((80, 24)).columns


def screen(state: GameState, player: int) -> list[str]:
    """What a player is shown when they decide: the prompt and the numbered options,
    each with the first line of its card text cut to the screen's width between words
    (nothing they may not see); where the options are amounts, the amounts."""
    d = state.decision
    assert d is not None
    lines = ["", f"{state.game.player_names[player]}, {d.prompt}:"]
    if d.player != player:  # another's options are theirs alone
        return lines
    offered = amounts(d)
    if offered is not None:
        passing = " (or pass)" if any(o.value is None for o in d.options) else ""
        return lines + [f"  type the amount: {amounts_text(offered)}{passing}"]
    columns = width()
    for i, label in enumerate(d.labels(), 1):
        line = f"  {i}. {label}"
        room = columns - len(line) - 4
        text = _hint(option_text(state, i - 1), room) if room > 12 else ""
        lines.append(line + (f"  — {text}" if text else ""))
    return lines


def continued_by(save: Path | str, folder: str | None = None) -> str:
    """How a saved game is taken up again, in words: `legacies resume` continues a game of
    an installed ruleset; one played from a ruleset folder is replayed with the folder."""
    if folder is None:
        return f"`legacies resume {save}` continues it"
    return f"`legacies replay {save} --ruleset {folder}` shows it; resume continues games of installed rulesets"


class HumanAgent:
    def __init__(self, seat: int, stdin: TextIO | None = None, write: Callable[[str], None] | None = None,
                 save_path: Path | None = None, hot_seat: bool = False, seats: list[str] | None = None,
                 folder: str | None = None, log: list[str] | None = None):
        self.seat = seat
        self.folder = folder  # the ruleset folder the game is played from (None: an installed ruleset)
        self.name = f"human{seat + 1}"
        self.stdin = stdin
        self.write = write
        self.save_path = save_path
        self.own_save: Path | None = None  # where `save` keeps the game without --save (chosen at the first)
        self.hot_seat = hot_seat  # more than one human: clear the screen and wait between them
        self.seats = seats  # every seat's kind, kept in a save for `legacies resume`
        self.log = log  # the game's log as printed (each move, what it changed): the `log` key's
        self.seen: int | None = None  # the decision count when this seat last decided
        self.saved_at: int | None = None  # the decision count when this seat last saved the game

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
                self._say(CLEAR_ALL, end="")
                self._say(f"{whose}: press Enter when only they can see the screen")
                self._read()
            self._page(self._board(state, me))
        self.seen = decided
        for line in screen(state, me):
            self._say(line)
        offered = amounts(d)
        ask = f"choose 1-{len(d.options)} (help for keys): " if offered is None else \
            f"type an amount, {amounts_text(offered)} (help for keys): "
        while True:
            self._say(ask, end="")
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
        offered = amounts(d)
        if offered is not None and (raw.lstrip("-").isdigit() or raw == "pass"):
            return self._amount(d, raw, offered)
        if raw.isdigit():
            if 1 <= int(raw) <= n:
                return int(raw) - 1
            self._say(f"there is no option {raw}: choose a number from 1 to {n}")
        elif raw.startswith("?"):
            arg = raw[1:].strip()
            if offered is not None:
                self._say("the options are amounts: type the amount itself")
            elif not arg.isdigit() or not 1 <= int(arg) <= n:
                self._say(f"?N shows option N in full: N from 1 to {n}")
            else:
                shown = option_lines(state, int(arg) - 1, d.player) or ["(a plain choice: nothing more to read)"]
                self._say("\n".join(wrapped([f"{arg}. {d.options[int(arg) - 1].label}"]
                                             + ["  " + line for line in shown], width())))
        elif word == "look":
            self._say("\n".join(wrapped(look(state, rest, d.player), width())))
        elif raw in ("board", "b"):
            self._page(board_lines(state, d.player, width()))
        elif word in ("board", "b"):
            self._page(self._section(state, d.player, rest.strip()))
        elif raw == "log":
            recent = self.log[-LOG_LINES:] if self.log is not None else [f"  · {line}" for line in state.st.log[-LOG_LINES:]]
            self._page(wrapped(recent, width()) if recent else ["nothing has happened yet"])
        elif raw == "undo":
            raise UndoRequest()
        elif word == "save":
            self._save(state, Path(rest.strip()) if rest.strip() else None)
        elif raw in ("quit", "q"):
            if self.save_path is not None:  # `--save FILE` promised the game is kept there: no question
                if self.saved_at != len(state.st.history) or not self.save_path.is_file():
                    self._save(state, None)
            elif self.saved_at != len(state.st.history):  # saved as it stands: nothing to ask
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

    def _board(self, state: GameState, me: int) -> list[str]:
        """The board at the start of a turn: whole when it fits the screen with the
        question under it, else with the other players' parts folded (and paged, by
        `_page`, when that is still taller than the screen)."""
        columns, rows = shutil.get_terminal_size((80, 24))
        whole = board_lines(state, me, columns)
        asked = len(screen(state, me)) + 1
        return whole if len(whole) + asked <= rows else board_lines(state, me, columns, fold=True)

    def _section(self, state: GameState, me: int, name: str) -> list[str]:
        """`board NAME`: the table's part, or a player's (by name or number)."""
        sections = board_sections(state, me, width())
        wanted = name.lower()
        players = state.game.player_names
        if wanted.isdigit() and 1 <= int(wanted) <= len(players):
            wanted = players[int(wanted) - 1].lower()
        for section, lines in sections:
            if section.lower() == wanted:
                return lines
        return [f"board NAME shows a part of the board: table, or a player ({', '.join(players)}, or 1 to "
                f"{len(players)})"]

    def _page(self, lines: list[str]) -> None:
        """Lines a screenful at a time, so that none scrolls off unread: after each,
        Enter goes on and q stops (the question is asked next)."""
        rows = shutil.get_terminal_size((80, 24)).lines
        page = max(5, rows - 2)
        if not (self.stdin or sys.stdin).isatty():  # read from a file or a pipe: nobody to wait for
            page = len(lines) or 1
        for start in range(0, len(lines), page):
            self._say("\n".join(lines[start:start + page]))
            if start + page < len(lines):
                self._say("── more: Enter for the next page, q to stop ── ", end="")
                if self._read().lower().startswith("q"):
                    return

    def _amount(self, d: Decision, raw: str, offered: list[int]) -> int | None:
        """The option of the amount typed (or of passing), or None after saying why not."""
        for i, o in enumerate(d.options):
            if (raw == "pass" and o.value is None) or (raw != "pass" and type(o.value) is int and o.value == int(raw)):
                return i
        if raw == "pass":
            self._say("you cannot pass here: type an amount")
        else:
            self._say(f"{raw} cannot be chosen: type {amounts_text(offered)}")
        return None

    def _save(self, state: GameState, path: Path | None) -> None:
        if path is None and self.save_path is None and self.own_save is None:
            self.own_save = unused_save_path()  # never over a file this game did not write
        target = path or self.save_path or self.own_save
        assert target is not None
        try:
            write_whole(target, state.serialize(seats=self.seats), private=True)
        except WriteError as err:
            self._say(f"not saved: {err}" + ("; the earlier save in it is kept" if target.is_file() else ""))
            return
        self.saved_at = len(state.st.history)
        self._say(f"saved to {target.absolute()} ({continued_by(target, self.folder)})")


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
