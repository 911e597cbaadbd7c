"""The table's log written as a game is played: each decision (named to the seats that may
see what was chosen, "a hidden card" to the others), the rules' own lines (a line the
rules took for a player, naming a hidden card, is named to that player only), what each
move changed in words every player may read (agents/moves.py), and a line where each turn
begins. Records, not text to print: the seat's view (view/build.py) keeps each seat's.

Made only for a table someone reads (a terminal, a browser): a bot's game writes none."""

from __future__ import annotations

from typing import Any

from legacies.interpreter.decisions import Decision, Taken
from legacies.interpreter.game import GameState
from legacies.view.log import LogRecord
from legacies.view.purpose import told_of

from .moves import MoveEffects


def private(state: GameState, value: Any) -> bool:
    """Is this value a piece that only some players can see (a card in a hand)?"""
    if type(value) is not int or not 0 <= value < len(state.st.loc):
        return False
    zone = state.st.loc[value]
    return zone >= 0 and state.game.layout.zone_visibility[zone] != "public"


def hidden_choice(state: GameState, option: Any) -> bool:
    """Does the option name, as its item or in its words (`Choice.shows`), a piece only some
    players can see? Then the others read it as "a hidden card"."""
    return private(state, option.item) or any(private(state, p) for p in option.shows)


_MENU_PROMPT = "choose an action"


def asked(question: str) -> str:
    """A question as the log tells it of the player who was asked it: after a dash, not
    in parentheses (an option's label or the question may hold their own: "bid (highest so
    far 0)"), in the third person ("cards in their resources": the question said "your" to
    the player it asked, and the log is read by everyone), and nothing for the action menu,
    whose question says nothing the chosen action does not."""
    question = question.removeprefix("choose: ")
    if not question or question == _MENU_PROMPT:
        return ""
    return " — " + told_of(question)


class Chronicle:
    def __init__(self, state: GameState):
        self.state = state
        self.records: list[LogRecord] = []
        self.effects = MoveEffects(state)
        self.seen_log = 0
        self.seen_turns = 0
        self.turn = 0
        self.everyone = frozenset(range(state.game.players))
        self._rules_lines()

    def _add(self, kind: str, text: str, player: int = -1, readers: frozenset[int] | None = None) -> None:
        self.records.append(LogRecord(len(self.state.st.history), self.turn, kind, text, player, readers))

    def choosing(self, decision: Decision, index: int) -> tuple[str, bool]:
        """What a choice reads as, and whether it is a hidden card, before it is applied."""
        option = decision.options[index]
        # the piece the option names, if any: its value alone may be a number or a player
        # (a bid of 3 is no piece 3), which are ints too (interpreter/decisions.py)
        hidden = hidden_choice(self.state, option)
        return option.label, hidden

    def chose(self, decision: Decision, label: str, hidden: bool) -> None:
        """After a decision was applied: the choice, the rules' lines, what changed."""
        who = self.state.game.player_names[decision.player]
        question = asked(decision.prompt)
        if hidden:
            self._add("choice", f"{who} chose {label}{question}", decision.player, frozenset({decision.player}))
            self._add("choice", f"{who} chose a hidden card{question}", decision.player,
                      self.everyone - {decision.player})
        else:
            self._add("choice", f"{who} chose {label}{question}", decision.player)
        self._rules_lines(moved=True)

    def note(self, text: str, readers: frozenset[int] | None = None) -> None:
        """A line of the table's own (an undo, a player leaving)."""
        self._add("table", text, readers=readers)

    def rewound(self) -> None:
        """The game went back (an undo): what was written after where it is now goes."""
        st = self.state.st
        made = len(st.history)
        self.records = [r for r in self.records if r.decision <= made]
        self.seen_log = len(st.log)
        self.seen_turns = len(st.turn_starts)
        self.turn = st.turns
        self.effects.changes()  # where the next move starts

    def _changes(self) -> None:
        for line in self.effects.changes():
            self._add("change", line)

    def _rules_lines(self, moved: bool = False) -> None:
        st = self.state.st
        log = st.log
        for at, turn, player in st.turn_starts[self.seen_turns:]:
            for line in log[self.seen_log:at]:
                self._rules_line(line)
            self.seen_log = max(self.seen_log, at)
            if moved:
                self._changes()
                moved = False
            self.turn = turn
            self._add("turn", f"Turn {turn}: {self.state.game.player_names[player]}" if player >= 0 else f"Turn {turn}")
        self.seen_turns = len(st.turn_starts)
        for line in log[self.seen_log:]:
            self._rules_line(line)
        self.seen_log = len(log)
        if moved:
            self._changes()

    def _rules_line(self, line: str) -> None:
        if isinstance(line, Taken):  # a decision the rules took: hidden as a choice is
            who, question, label = line.who, asked(line.question), line.words
            text = f"{who} had one choice, {label}{question}"
            if line.piece is not None and private(self.state, line.piece):
                self._add("rules", text, line.player, frozenset({line.player}))
                self._add("rules", f"{who} had one choice, a hidden card{question}", line.player,
                          self.everyone - {line.player})
                return
            self._add("rules", text, line.player)
            return
        self._add("rules", str(line))
