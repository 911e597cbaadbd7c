"""One game at a table, and the one authority over it: its seats (people, bots, the seats
the rules run), its state and its log (agents/chronicle.py). A face (the terminal table,
the browser) asks for a seat's view (view/build.py) and answers a decision by its number;
the session applies answers one at a time, in order, refuses a stale one or one of a seat
that is not asked, in words, and plays the bots' moves until a person is asked again.

A refused answer leaves the game exactly as it was (GameState.apply is a transaction).
boardgame.io's server is the model: one place applies moves, checks who sends them and
refuses one made against an old state."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable

from legacies.interpreter.errors import IllegalChoice, InternalError, Refused
from legacies.interpreter.game import Game, GameState, Undo
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.writes import WriteError, write_whole
from legacies.view.build import seat_view
from legacies.view.model import SeatView

from .base import Agent
from .chronicle import Chronicle
from .match import GameStopped, make_agent, take_back_last


class NotYourTurn(Refused):
    """An answer from a seat that is not asked, or to a decision that is no longer pending."""


def _deciders(state: GameState) -> list[int]:
    """Who took each decision the state was played through (-1: the rules took it for a
    seat they run), worked out by playing the game again from its seed: a game taken up
    from a save lets a person undo past the point where it was taken up."""
    history = list(state.st.history)
    made: list[int] = []
    if not history:
        return made
    replay = state.game.new_state(state.st.flags.get("seed", 0))
    while len(replay.st.history) < len(history):
        d = replay.decision
        if d is None or replay.st.history[:] != history[:len(replay.st.history)]:
            break  # (not this game's decisions: nothing more is known)
        made += [-1] * (len(replay.st.history) - len(made)) + [d.player]
        replay.apply(history[len(replay.st.history)], undo=Undo.NONE)
    return made + [-1] * (len(history) - len(made))


class TableSession:
    def __init__(self, spec: GameSpec, seats: list[str], seed: int = 0, options: dict[str, Any] | None = None,
                 names: list[str] | None = None, state: GameState | None = None, think: float | None = None,
                 agents: dict[int, Agent] | None = None, search_workers: int = 1):
        if state is None:
            game = Game(spec, len(seats), options, names)
            state = game.new_state(seed)
        self.spec = spec
        self.state = state
        self.seats = list(seats)
        self.seed = seed
        ruled = {s.name for s in spec.seats}
        self.humans = [i for i, kind in enumerate(seats) if kind == "human"]
        self.agents: dict[int, Agent] = {i: make_agent(kind, seed, i, None, think, ruled, search_workers)
                                         for i, kind in enumerate(seats) if kind != "human"}
        self.agents.update(agents or {})
        self.chronicle = Chronicle(state)
        self.made_by: list[int] = _deciders(state)  # who took each decision (a person's undo)
        self.lock = threading.Lock()  # two seats answering at once are applied one at a time
        self.takebacks = 0  # undos made: an answer names the count it was asked under (a decision's
        # number comes round again after an undo, with other options: an answer sent before it is stale)
        self.keep_to: Path | None = None  # where every change is written as it is made (serve --save)

    # ------------------------------------------------------------------ reading
    def view(self, seat: int) -> SeatView:
        with self.lock:
            return seat_view(self.state, seat, self.chronicle.records, self.takebacks)

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    def asked(self) -> int | None:
        """The seat the game waits on, or None when it is over."""
        d = self.state.decision
        return d.player if d is not None else None

    def waiting_for_person(self) -> int | None:
        """The person's seat the game waits on (after `advance`), or None."""
        seat = self.asked()
        return seat if seat is not None and seat not in self.agents else None

    # ------------------------------------------------------------------ playing
    def _apply(self, index: int) -> None:
        state = self.state
        d = state.decision
        assert d is not None
        label, hidden = self.chronicle.choosing(d, index)
        try:
            state.apply(index, undo=Undo.COPY)
        except InternalError as err:  # rolled back; the game cannot go on
            raise GameStopped(err, index) from err
        self.made_by += [-1] * (len(state.st.history) - 1 - len(self.made_by)) + [d.player]
        self.chronicle.chose(d, label, hidden)
        self._keep()

    def answer(self, seat: int, number: int, index: int, takebacks: int | None = None) -> None:
        """Seat `seat` answers decision `number` (the decisions made before it) with option
        `index`; `takebacks`, the undos the table had made when the decision was shown
        (None: not said, for a face that cannot be behind, as the terminal table). Refused,
        nothing changed, when the seat is not asked, the decision is no longer pending (an
        undo since counts), the option does not exist or the rules refuse it."""
        with self.lock:
            d = self.state.decision
            if d is None:
                raise NotYourTurn("the game is over")
            if takebacks is not None and takebacks != self.takebacks:
                raise NotYourTurn(f"that answer was sent before the table's last undo (decision {number} "
                                  "may offer other options now): look again")
            if number != len(self.state.st.history):
                raise NotYourTurn(f"that answer is for decision {number}, and the game is at decision "
                                  f"{len(self.state.st.history)}: look again")
            if d.player != seat or seat in self.agents:
                raise NotYourTurn(f"{self.state.game.player_names[seat] if 0 <= seat < self.state.game.players else seat}"
                                  f" is not asked now: {self.state.game.player_names[d.player]} is")
            if type(index) is not int or not 0 <= index < len(d.options):
                raise IllegalChoice(f"there is no option {index}: the options are 0 to {len(d.options) - 1}")
            self._apply(index)

    def advance(self, on_move: Callable[[], None] | None = None, steps: int | None = None) -> None:
        """Play the bots' decisions until a person is asked or the game ends (`steps`: at most
        that many); `on_move` is called after each (a face redraws)."""
        done = 0
        while True:
            with self.lock:
                d = self.state.decision
                if d is None or d.player not in self.agents or (steps is not None and done >= steps):
                    return
                agent = self.agents[d.player]
                at = (len(self.state.st.history), self.takebacks)
                copy = self.state.clone()
            # the bot thinks on its own copy, outside the lock: every seat's view answers
            # meanwhile (a search bot thinking for minutes froze every page, and a flood of
            # views queued behind it)
            try:
                index = agent.choose(copy)
            finally:
                copy.discard()
            with self.lock:
                if (len(self.state.st.history), self.takebacks) != at:
                    continue  # a person's undo came while it thought: it thinks again on the game as it is
                self._bot_move(agent, index)
            done += 1
            if on_move is not None:
                on_move()

    def _bot_move(self, agent: Agent, index: int) -> None:
        d = self.state.decision
        assert d is not None
        tried: set[int] = set()
        refusals: list[str] = []
        while True:
            if index in tried or not 0 <= index < len(d.options):
                index = next((i for i in range(len(d.options)) if i not in tried), -1)
                if index < 0:  # the game cannot go on: a content (or engine) bug, not a refusal
                    raise GameStopped(InternalError(f"the rules refuse every option of {d.prompt!r}: "
                                                    + "; ".join(sorted(set(refusals)))), None)
            try:
                self._apply(index)
                return
            except Refused as err:
                tried.add(index)
                refusals.append(str(err))
                index = agent.choose(self.state)

    def undo(self, seat: int) -> str:
        """Take back `seat`'s last decision (and every move since); what happened, in words."""
        return self.take_back(seat)[0]

    def take_back(self, seat: int) -> tuple[str, bool]:
        """`undo`, and whether anything was taken back, decided under the lock (two pages'
        undos at once: the count of undos read around the call told a refused one as done)."""
        with self.lock:
            name = self.state.game.player_names[seat]
            why = take_back_last(self.state, seat, self.made_by, self.humans)
            if why is not None:
                return why, False
            self.takebacks += 1
            self.chronicle.rewound()
            self.chronicle.note(f"{name} took back their last decision")
            self._keep()
            return "your last decision is taken back", True

    def _keep(self) -> None:
        """Write the game to `keep_to` (if set) under the lock, with the change just made:
        nobody is told of a change the file does not hold yet. A file that cannot be
        written keeps its earlier save (the save button says why in words)."""
        if self.keep_to is None:
            return
        try:
            self._write(self.keep_to)
        except WriteError:
            pass

    def _write(self, path: Path) -> None:
        write_whole(path, self.state.serialize(seats=self.seats), private=True)

    def save(self, path: Path) -> Path:
        """Write the game as it stands (a save `legacies resume` continues); raises
        WriteError when it cannot be written (an earlier save in the file is kept)."""
        with self.lock:
            self._write(path)
        return path
