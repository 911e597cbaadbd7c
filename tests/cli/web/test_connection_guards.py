"""What `legacies serve` does against connections that are no page (cli/web/server.py
GuardedH11Protocol, SaidOnce), from a hostile tester's trial: 20,000 sockets held open
used up the server's files and locked every person out of their own link; half a request
sent and never finished held its connection for ever; a flood printed 150 MB of the same
traceback. Connections are capped in all and by address, a first request head has a
deadline, and a warning said again within a minute is counted, not printed."""

from __future__ import annotations

import logging
import socket
import time
import urllib.request
from typing import Iterator

import pytest

from legacies.agents.session import TableSession
from legacies.cli.web import server as web_server
from legacies.cli.web.server import SaidOnce, ServerThread
from legacies.cli.web.table import ServedTable

from .tables import spec


@pytest.fixture
def running() -> Iterator[tuple[ServedTable, ServerThread]]:
    table = ServedTable(TableSession(spec("legacy"), ["human", "random"], 1))
    with ServerThread(table) as thread:
        yield table, thread


def _connect(thread: ServerThread) -> socket.socket:
    host, port = thread.sock.getsockname()[:2]
    return socket.create_connection((host, port), timeout=60)


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closes the connection (waited for, up to the socket's timeout)."""
    try:
        return sock.recv(1) == b""
    except (ConnectionResetError, socket.timeout):
        return False


def _view(table: ServedTable, thread: ServerThread) -> int:
    with urllib.request.urlopen(f"{thread.base}/t/{table.tokens[0]}/view", timeout=60) as answer:
        return int(answer.status)


def test_one_address_holding_connections_is_capped_and_half_requests_are_closed(
        running: tuple[ServedTable, ServerThread], monkeypatch: pytest.MonkeyPatch) -> None:
    table, thread = running
    monkeypatch.setattr(web_server, "HEAD_SECONDS", 0.5)
    held = [_connect(thread) for _ in range(web_server.MAX_PER_ADDRESS)]
    try:
        held[0].sendall(b"GET /t/x HTTP/1.1\r\nHost: a\r\n")  # half a request, never finished
        one_more = _connect(thread)
        assert _closed_by_server(one_more)  # past the address's cap: closed as it is accepted
        one_more.close()
        # each held connection, sending nothing or half a request, is closed at the deadline
        assert all(_closed_by_server(sock) for sock in held)
        assert _view(table, thread) == 200  # the person's link answers again
    finally:
        for sock in held:
            sock.close()


def test_a_warning_said_over_and_over_is_printed_once_a_minute_with_its_count() -> None:
    quiet = SaidOnce()
    said = [quiet.filter(logging.LogRecord("uvicorn.error", logging.WARNING, "", 0, "Invalid HTTP request received.",
                                           None, None)) for _ in range(5)]
    assert said == [True, False, False, False, False]
    quiet.last["Invalid HTTP request received."] = time.monotonic() - web_server.QUIET_SECONDS  # a minute on
    record = logging.LogRecord("uvicorn.error", logging.WARNING, "", 0, "Invalid HTTP request received.", None, None)
    assert quiet.filter(record) and record.msg.endswith("(and 4 more like it in the last 60 s)")
