"""uvicorn serving a ServedTable: in the foreground for `legacies serve` (until Ctrl-C), or
in a thread of this process (the tests, the bench) on a port the system picks, stopped
when asked. WebSocket messages are capped by uvicorn as well as by the app."""

from __future__ import annotations

import signal
import socket
import threading
import time
from types import FrameType
from typing import Any, Callable

import uvicorn

from . import protocol
from .app import make_app
from .table import ServedTable


def config(table: ServedTable, host: str, port: int, **extra: Any) -> uvicorn.Config:
    return uvicorn.Config(make_app(table), host=host, port=port, log_level="warning", access_log=False,
                          ws="websockets-sansio", ws_max_size=protocol.MAX_MESSAGE * 4, lifespan="on", **extra)


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
