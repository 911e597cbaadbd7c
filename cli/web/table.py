"""The game a server serves: one TableSession (the one authority), the secret link of each
person's seat, and the pages listening. A page's answer is applied in a worker thread
(the session's lock puts two seats' answers one after the other), the bots then play in a
worker thread until a person is asked, the game is saved after each (when a save file is
given), and every page listening is told after every change: it is sent its seat's fresh
view (a page that falls behind is sent the latest view once, never a backlog).

The event loop never blocks on the game: building a view, applying an answer, a bot's move
and a save all run in worker threads."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool

from legacies.agents.map_svg import PLAYER_COLOURS
from legacies.agents.match import GameStopped
from legacies.agents.session import NotYourTurn, TableSession
from legacies.pipeline.writes import WriteError, write_whole

DEFAULT_SAVE = "legacies-save.json"
"""Where the save button keeps the game when the server was given no --save."""

VIEW = object()
"""In a listener's outbox: send the seat's view as it is when the message goes out."""


@dataclass(eq=False)
class Listener:
    """One page connected as a seat: what is waiting to be sent to it, in order."""

    seat: int
    outbox: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    view_due: bool = False

    def send_view(self) -> None:
        if not self.view_due:
            self.view_due = True
            self.outbox.put_nowait(VIEW)

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(message)


class ServedTable:
    """A TableSession served to browsers: a link per person's seat, pages told of changes."""

    def __init__(self, session: TableSession, save_path: Path | None = None):
        self.session = session
        self.save_path = save_path
        self.tokens: dict[int, str] = {seat: secrets.token_urlsafe(24) for seat in session.humans}
        self.listeners: set[Listener] = set()
        self.stopped: str | None = None  # why the game cannot go on (an internal error), said to every page
        self.loop: asyncio.AbstractEventLoop | None = None
        self._wanted = False  # the bots have moves to make (set on the event loop only)
        self._driver: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ seats
    def seat_of(self, token: str) -> int | None:
        """The seat a link's token opens, or None (every token compared in constant time)."""
        found = None
        for seat, secret in self.tokens.items():
            if secrets.compare_digest(secret.encode(), token.encode("utf-8", "replace")):
                found = seat
        return found

    def links(self, base: str) -> list[tuple[str, str]]:
        """(the player's name, their link) for every person's seat."""
        names = self.session.state.game.player_names
        return [(names[seat], f"{base}/t/{token}") for seat, token in self.tokens.items()]

    # ------------------------------------------------------------------ telling pages
    def start(self) -> None:
        """Begin on the running event loop: the bots play until a person is asked."""
        self.loop = asyncio.get_running_loop()
        self.wake_bots()

    def listen(self, seat: int) -> Listener:
        listener = Listener(seat)
        self.listeners.add(listener)
        return listener

    def leave(self, listener: Listener) -> None:
        self.listeners.discard(listener)

    def changed(self) -> None:
        """The game changed: every page is sent its fresh view. Safe from any thread."""
        if self.loop is None:
            return
        try:
            self.loop.call_soon_threadsafe(self._tell_all)
        except RuntimeError:  # the loop is closed: the server is stopping
            pass

    def _tell_all(self) -> None:
        for listener in list(self.listeners):
            listener.send_view()

    def message(self, seat: int) -> dict[str, Any]:
        """What a seat's page is sent: its view, the players' colours, who the game waits
        on when a bot is thinking, and why the game stopped if it did. (A worker thread.)"""
        session = self.session
        view = session.view(seat)
        asked = session.asked()
        waiting = session.state.game.player_names[asked] if asked is not None and asked in session.agents else None
        return {"type": "view", "view": view.model_dump(mode="json"), "colours": list(PLAYER_COLOURS),
                "waiting": waiting, "stopped": self.stopped}

    # ------------------------------------------------------------------ acting
    async def answer(self, seat: int, number: int, option: int) -> None:
        """Seat `seat` answers decision `number` with `option`; Refused (nothing changed)
        when the session refuses it. Then the game is saved and the bots play on."""
        if self.stopped is not None:
            raise NotYourTurn(f"the game stopped: {self.stopped}")
        try:
            await run_in_threadpool(self.session.answer, seat, number, option)
        except GameStopped as err:
            await run_in_threadpool(self._stop, err)
            raise
        await run_in_threadpool(self.keep)
        self.changed()
        self.wake_bots()

    async def undo(self, seat: int) -> str:
        said = await run_in_threadpool(self.session.undo, seat)
        self.changed()
        self.wake_bots()
        return said

    async def save(self) -> str:
        """The save button: the game written to the --save file (else DEFAULT_SAVE in the
        server's folder); what happened, in words. The file stays on the server: a save holds
        every hidden card, so no page is ever sent one."""
        target = self.save_path or Path(DEFAULT_SAVE)
        try:
            await run_in_threadpool(self.session.save, target)
        except WriteError as err:
            return f"not saved: {err}"
        return f"saved on the server to {target.name}"

    def keep(self) -> None:
        """Write the game to the --save file, as `play --save` keeps it (a worker thread)."""
        if self.save_path is None:
            return
        try:
            self.session.save(self.save_path)
        except WriteError:
            pass  # the earlier save is kept; the page's save button says why in words

    # ------------------------------------------------------------------ the bots
    def wake_bots(self) -> None:
        """The bots play (in a worker thread) until a person is asked; one run at a time."""
        self._wanted = True
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        while self._wanted and self.stopped is None:
            self._wanted = False
            await run_in_threadpool(self._advance)
        self.changed()

    def _advance(self) -> None:
        moved = False

        def on_move() -> None:
            nonlocal moved
            moved = True
            self.changed()

        try:
            self.session.advance(on_move=on_move)
        except GameStopped as err:
            self._stop(err)
            return
        if moved:
            self.keep()

    def _stop(self, err: GameStopped) -> None:
        """The game cannot go on (a content or engine bug, the move undone): said to every
        page, and kept with its failure in the save file as `play --save` keeps it."""
        self.stopped = str(err)
        if self.save_path is not None:
            with self.session.lock:
                text = self.session.state.serialize(failure=(err.choice, str(err)), seats=self.session.seats)
            try:
                write_whole(self.save_path, text)
            except WriteError:
                pass
        self.changed()
