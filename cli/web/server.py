"""uvicorn serving a ServedTable: in the foreground for `legacies serve` (until Ctrl-C), or
in a thread of this process (the tests, the bench) on a port the system picks, stopped
when asked. WebSocket messages are capped by uvicorn as well as by the app; connections
are capped in all and by address, a first request head has a deadline, and a warning
said over and over is printed once a minute (GuardedH11Protocol, SaidOnce)."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import threading
import time
from types import FrameType
from typing import Any, Callable

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from . import protocol
from .app import make_app
from .table import ServedTable


MAX_CONNECTIONS = 512
"""Connections open at once (pages, their WebSockets, requests); one more is closed as it
is accepted, so that no flood of them uses up the process's files (a tester's
20,000 open sockets locked every person out: a link's own page waited and failed)."""

MAX_PER_ADDRESS = 64
"""Connections open at once from one address: a person's pages (eight at most a link,
cli/web/protocol.py) and their requests, many times over; the rest of the cap is left to
the other addresses."""

HEAD_SECONDS = 10.0
"""How long a connection may take to send its first request's head: one that sends half
a request and waits (or nothing at all) is closed then, where it was held for ever."""

QUIET_SECONDS = 60.0
"""A warning said again within this long is counted, not printed (a client sending
garbage printed a line a request; a flood of connections 150 MB of tracebacks)."""


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with what a server a network reaches needs: a cap on
    the connections open at once, in all and from one address, and a deadline for a
    connection's first request head."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        same = sum(1 for c in self.connections if (getattr(c, "client", None) or (None,))[0] == address)
        if len(self.connections) > MAX_CONNECTIONS or (address is not None and same > MAX_PER_ADDRESS):
            transport.close()  # at once: its file is free again
            return
        self._head_timer = asyncio.get_running_loop().call_later(HEAD_SECONDS, self._head_late)

    def _head_late(self) -> None:
        # no request begun (a request's cycle; a WebSocket has taken the transport over)
        if self.cycle is None and not self.transport.is_closing() and self.transport.get_protocol() is self:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        super().connection_lost(exc)


class SaidOnce(logging.Filter):
    """Lets a message through once a QUIET_SECONDS for each text; the repeats are counted
    and their number said with the next one let through."""

    def __init__(self) -> None:
        super().__init__()
        self.last: dict[str, float] = {}
        self.held: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        now = time.monotonic()
        if now - self.last.get(text, -QUIET_SECONDS) < QUIET_SECONDS:
            self.held[text] = self.held.get(text, 0) + 1
            return False
        self.last[text] = now
        held = self.held.pop(text, 0)
        if held:
            record.msg = f"{record.msg} (and {held:,} more like it in the last {QUIET_SECONDS:.0f} s)"
        if len(self.last) > 1000:  # texts that vary without end are not kept for ever
            self.last.clear()
        return True


_QUIET = SaidOnce()


def config(table: ServedTable, host: str, port: int, **extra: Any) -> uvicorn.Config:
    made = uvicorn.Config(make_app(table), host=host, port=port, log_level="warning", access_log=False,
                          http=GuardedH11Protocol, ws="websockets-sansio", ws_max_size=protocol.MAX_MESSAGE * 4,
                          lifespan="on", **extra)
    for name in ("uvicorn.error", "asyncio"):  # after uvicorn has set its logging up
        logging.getLogger(name).addFilter(_QUIET)
    return made


def serve(table: ServedTable, sock: socket.socket, ready: Callable[[], None]) -> None:
    """Serve on a socket already bound until Ctrl-C (SIGINT) or SIGTERM; a second Ctrl-C
    stops it without waiting for what is under way. `ready` says how to stop it (and the
    links): it is called once a handler that stops it is in place, kept until the server
    has stopped (uvicorn swaps in its own, which does the same, while its loop runs).
    Before, asyncio's handler and then uvicorn's were put in place only as the server
    started: a Ctrl-C sent the moment the command said "Ctrl-C stops the server" could end
    the process before it said where the game is kept (exit 130), and in a process started
    with Ctrl-C ignored (a script's background job) it reached no handler at all: the
    server went on serving."""
    server = uvicorn.Server(config(table, *sock.getsockname()[:2]))

    def stop(sig: int, frame: FrameType | None) -> None:
        if server.should_exit and sig == signal.SIGINT:
            server.force_exit = True
        else:
            server.should_exit = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        ready()
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: one the system picks); OSError if it cannot."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class ServerThread:
    """The server in a thread of this process, on 127.0.0.1 and a free port: `base` is its
    address once `start` returns; `stop` ends it and waits for it."""

    def __init__(self, table: ServedTable, host: str = "127.0.0.1"):
        self.table = table
        self.sock = bind(host, 0)
        host_, port = self.sock.getsockname()[:2]
        self.base = f"http://{host_}:{port}"
        self.server = uvicorn.Server(config(table, host_, port))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self, timeout: float = 30.0) -> "ServerThread":
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:  # uvicorn says when it listens
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()

    def __enter__(self) -> "ServerThread":
        return self.start()

    def __exit__(self, *_: Any) -> None:
        self.stop()
