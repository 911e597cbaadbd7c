"""The game a server serves: one TableSession (the one authority), the secret link of each
person's seat, and the pages listening. A page's answer is applied in a worker thread
(the session's lock puts two seats' answers one after the other), the bots then play in a
worker thread until a person is asked, the game is saved after each change before anyone
is told of it (when a save file is given: `TableSession.keep_to`), and every page listening
is told after every change: it is sent its seat's fresh view (a page that falls behind is
sent the latest view once, never a backlog).

Hot seat (`serve --hot-seat`, two people or more): every person's seat shares one link,
and its page plays whichever person's seat the game waits on. A page of that link shows one
seat at a time (`Listener.shown`); when the game comes to another person, the page is sent
a cover naming who plays next and nothing of any seat's view, and it is shown nothing more
until it answers that the next person is ready (`ServedTable.ready`): only then is that
seat's view sent. While a bot is asked, the seat shown stays shown (the bots play on the
server between the people).

The event loop never blocks on the game: building a view, applying an answer, a bot's move
and a save all run in worker threads."""

from __future__ import annotations

import asyncio
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool

from legacies.agents.map_svg import PLAYER_COLOURS
from legacies.agents.match import GameStopped
from legacies.agents.session import NotYourTurn, TableSession
from legacies.pipeline.saves import unused_save_path
from legacies.pipeline.writes import WriteError, write_whole
from legacies.view.build import seat_view

VIEW = object()
"""In a listener's outbox: send the seat's view as it is when the message goes out."""

HOT_SEAT = -1
"""The seat a hot-seat link opens: whichever person's seat the game waits on."""


@dataclass(eq=False)
class Listener:
    """One page connected as a seat (or as the hot seat, HOT_SEAT): what is waiting to be
    sent to it, in order; on the hot seat, the seat its screen shows (None: covered) and
    the cover it was last sent."""

    seat: int
    outbox: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    view_due: bool = False
    shown: int | None = None  # the hot seat: the seat whose view the page may be sent
    covered: int | None = None  # the hot seat: the seat the last cover named (None: a bot is asked)
    cover_sent: bool = False  # ... a cover was sent since the page last showed a seat
    recover: bool = False  # ... the page asked: send the cover again
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def acting(self) -> int | None:
        """The seat this page acts as now (the hot seat: the one shown; None while covered)."""
        return self.shown if self.seat == HOT_SEAT else self.seat

    def send_view(self, asked: bool = False) -> None:
        """Send the view when the message goes out (`asked`: the page asked, so a hot seat's
        cover is sent again)."""
        if asked:
            self.recover = True
        if not self.view_due:
            self.view_due = True
            self.outbox.put_nowait(VIEW)

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(message)


class ServedTable:
    """A TableSession served to browsers: a link per person's seat, pages told of changes."""

    def __init__(self, session: TableSession, save_path: Path | None = None, hot_seat: bool = False):
        self.session = session
        self.save_path = save_path
        self.own_save: Path | None = None  # where the save button keeps the game without --save
        session.keep_to = save_path  # every change is written as it is made, before a page is told
        self.hot_seat = hot_seat and len(session.humans) > 1  # one person: their own link, as without
        self.tokens: dict[int, str] = {} if self.hot_seat else {
            seat: secrets.token_urlsafe(24) for seat in session.humans}
        self.shared_token: str | None = secrets.token_urlsafe(24) if self.hot_seat else None
        self.listeners: set[Listener] = set()
        self.stopped: str | None = None  # why the game cannot go on (an internal error), said to every page
        self.loop: asyncio.AbstractEventLoop | None = None
        self._wanted = False  # the bots have moves to make (set on the event loop only)
        self._driver: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ seats
    def seat_of(self, token: str) -> int | None:
        """The seat a link's token opens (HOT_SEAT: the shared link of a hot seat), or None
        (every token compared in constant time)."""
        found = None
        given = token.encode("utf-8", "replace")
        for seat, secret in self.tokens.items():
            if secrets.compare_digest(secret.encode(), given):
                found = seat
        if self.shared_token is not None and secrets.compare_digest(self.shared_token.encode(), given):
            found = HOT_SEAT
        return found

    def links(self, base: str) -> list[tuple[str, str]]:
        """(the player's name, their link) for every person's seat; on a hot seat, one
        (every person's name, the shared link)."""
        names = self.session.state.game.player_names
        if self.shared_token is not None:
            return [(", ".join(names[seat] for seat in self.session.humans), f"{base}/t/{self.shared_token}")]
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

    def pages(self, seat: int) -> int:
        """How many pages are connected through `seat`'s link (HOT_SEAT: the shared link)."""
        return sum(1 for listener in self.listeners if listener.seat == seat)

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
        on when a bot is thinking, and why the game stopped if it did. (A worker thread.)
        The hot seat's link asked without a page (GET .../view) gets only the cover of the
        person the game comes to: no page has shown it a seat."""
        session = self.session
        if seat == HOT_SEAT:
            with session.lock:
                return self._cover(self._next_shown(None))
        view = session.view(seat)
        asked = session.asked()
        waiting = session.state.game.player_names[asked] if asked is not None and asked in session.agents else None
        return {"type": "view", "view": view.model_dump(mode="json"), "colours": list(PLAYER_COLOURS),
                "waiting": waiting, "stopped": self.stopped}

    def next_message(self, listener: Listener) -> dict[str, Any] | None:
        """What a page is sent now that a view is due: its seat's view; on the hot seat, the
        view of the seat shown while the game waits on that person or on a bot, else a cover
        naming the person it comes to (once; the screen is then covered: nothing shown),
        or nothing when that cover was already sent. (A worker thread.)"""
        if listener.seat != HOT_SEAT:
            return self.message(listener.seat)
        session = self.session
        with listener.lock, session.lock:  # who is asked and what is shown, at one moment
            target = self._next_shown(listener.shown)
            if target is not None and target == listener.shown:
                view = seat_view(session.state, target, session.chronicle.records, session.takebacks)
                asked = session.asked()
                waiting = session.state.game.player_names[asked] if asked in session.agents else None
                return {"type": "view", "view": view.model_dump(mode="json"), "colours": list(PLAYER_COLOURS),
                        "waiting": waiting, "stopped": self.stopped}
            listener.shown = None  # covered: no seat's view until the next person is ready
            if listener.cover_sent and listener.covered == target and not listener.recover:
                return None
            listener.covered, listener.cover_sent, listener.recover = target, True, False
            return self._cover(target)

    def _next_shown(self, shown: int | None) -> int | None:
        """The seat a hot-seat page is to show: the person asked; while a bot is asked, the
        seat shown (None if none is); when the game is over, the seat shown or the first
        person. (Under the session's lock.)"""
        session = self.session
        asked = session.asked()
        if asked is not None and asked not in session.agents:
            return asked
        if shown is not None:
            return shown
        return session.humans[0] if asked is None else None

    def _cover(self, seat: int | None) -> dict[str, Any]:
        """The cover of a hot-seat page: who plays next (None: a bot is asked, named in
        `waiting`), and nothing of any seat's view. (Under the session's lock.)"""
        names = self.session.state.game.player_names
        asked = self.session.asked()
        return {"type": "cover", "seat": seat, "next": names[seat] if seat is not None else None,
                "waiting": names[asked] if seat is None and asked is not None else None,
                "title": self.session.spec.title}

    def ready(self, listener: Listener, seat: int) -> str | None:
        """A hot-seat page says the person of `seat` alone sees its screen: that seat is
        shown from now on (its view is sent). Refused in words (None: accepted) unless the
        page's last cover named that seat. (A worker thread.)"""
        if listener.seat != HOT_SEAT:
            return "this link is one seat's: its screen is never covered"
        names = self.session.state.game.player_names
        with listener.lock:
            if not listener.cover_sent or listener.covered is None or listener.covered != seat:
                who = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
                return f"the screen is not covered for {who}: look again"
            listener.shown, listener.cover_sent = seat, False
        if self.loop is not None:
            self.loop.call_soon_threadsafe(listener.send_view)
        return None

    # ------------------------------------------------------------------ acting
    async def answer(self, seat: int, number: int, option: int, takebacks: int) -> None:
        """Seat `seat` answers decision `number`, shown after the table's `takebacks`-th
        undo, with `option`; Refused (nothing changed) when the session refuses it. Then
        the game is saved and the bots play on."""
        if self.stopped is not None:
            raise NotYourTurn(f"the game stopped: {self.stopped}")
        try:
            await run_in_threadpool(self.session.answer, seat, number, option, takebacks)
        except GameStopped as err:
            await run_in_threadpool(self._stop, err)
            raise
        self.changed()
        self.wake_bots()

    async def undo(self, seat: int) -> tuple[str, bool]:
        """Take back `seat`'s last decision: what happened, in words, and whether anything
        was taken back (a refused undo changes nothing, and no page is sent a view for it)."""
        said, taken = await run_in_threadpool(self.session.take_back, seat)
        if taken:
            self.changed()
            self.wake_bots()
        return said, taken

    async def save(self) -> str:
        """The save button: the game written to the --save file (else legacies-save.json in
        the server's folder, or the first legacies-save-N.json not taken: never over a file
        this server did not write); what happened, in words. The file stays on the server: a
        save holds every hidden card, so no page is ever sent one."""
        if self.save_path is None and self.own_save is None:
            self.own_save = unused_save_path()
        target = self.save_path or self.own_save
        assert target is not None
        try:
            await run_in_threadpool(self.session.save, target)
        except WriteError as err:
            return f"not saved: {err}"
        return f"saved on the server to {target.name}"

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
        try:
            self.session.advance(on_move=self.changed)
        except GameStopped as err:
            self._stop(err)

    def _stop(self, err: GameStopped) -> None:
        """The game cannot go on (a content or engine bug, the move undone): said to every
        page, and kept with its failure in the save file as `play --save` keeps it."""
        self.stopped = str(err)
        if self.save_path is not None:
            with self.session.lock:
                text = self.session.state.serialize(failure=(err.choice, str(err)), seats=self.session.seats)
            try:
                write_whole(self.save_path, text, private=True)
            except WriteError:
                pass
        self.changed()
