"""The language server's side of the wire: JSON-RPC messages framed by headers
(`Content-Length: N`, a blank line, then N bytes of JSON), read so that nothing a client
sends can stop the server.

pygls's own loop reads `Content-Length` bytes whatever N is (99999999999: MemoryError),
and a frame it cannot read (`Content-Length: -5`, no length at all) leaves it waiting
for a header that never comes. Here:
- a header line is read at most MAX_HEADER_LINE bytes at a time (the rest of a longer
  one is read and dropped in pieces);
- a header block without a whole-number `Content-Length`, or with one above MAX_FRAME,
  and a body that is not JSON, are answered with JSON-RPC's parse error (-32700, id
  null); a JSON body that is not a message gets invalid request (-32600), and a request
  whose params pygls cannot read gets invalid params (-32602) with the request's own id
  (with id null its client would wait for an answer forever);
- after a bad frame the reader finds its place again at the next `Content-Length`
  header (what came between, a refused frame's body included, is dropped a line at a
  time, never held).
Everything else goes to pygls as its loop would hand it (`protocol.handle_message`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO

from pygls.io_ import StdoutWriter

MAX_FRAME = 64 * 1024 * 1024
"""The largest message body read (a document's text travels in one: data files are at
most 512 KiB, so this leaves room for any editor's message)."""
MAX_HEADER_LINE = 8192
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602

_LENGTH = re.compile(rb"content-length:[ \t]*(.*?)[ \t]*$", re.IGNORECASE)
log = logging.getLogger("legacies.lsp")


class _Lines:
    """Bounded line reads over a reader with `readline` (stdin: pygls's executor-backed
    reader; TCP: asyncio's StreamReader)."""

    def __init__(self, readline: Callable[[int], Awaitable[bytes]], read: Callable[[int], Awaitable[bytes]]):
        self.readline = readline
        self.read = read

    async def line(self) -> tuple[bytes, bool] | None:
        """The next line (at most MAX_HEADER_LINE bytes, the rest of a longer one read and
        dropped), and whether it was cut; None at the end of input."""
        first = await self.readline(MAX_HEADER_LINE)
        if not first:
            return None
        cut = not first.endswith(b"\n")
        rest = first
        while not rest.endswith(b"\n"):  # a longer line: dropped in pieces
            rest = await self.readline(MAX_HEADER_LINE)
            if not rest:
                break
        return first, cut

    async def exactly(self, n: int) -> bytes | None:
        chunks, left = [], n
        while left:
            chunk = await self.read(min(left, 1 << 20))
            if not chunk:
                return None
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


async def read_messages(lines: _Lines, protocol: Any, stop: threading.Event) -> None:
    """Read frames until the end of input (or `stop`), handing each message to pygls."""
    while not stop.is_set():
        length: int | None = None
        problem: str | None = None
        while True:  # one header block
            got = await lines.line()
            if got is None:
                return
            line, cut = got
            found = _LENGTH.search(line.rstrip(b"\r\n"))
            if found is not None and not cut:  # (a junk line that runs into the header: the header is taken)
                value = found.group(1)
                length = None
                if not value.isdigit():
                    problem = f"Content-Length must be a whole number of bytes, not {value[:20]!r}"
                elif len(value) > 12 or int(value) > MAX_FRAME:
                    problem = f"a message of {value[:20].decode()} bytes is more than this server reads ({MAX_FRAME:,})"
                else:
                    length, problem = int(value), None
            elif not line.strip():
                break
        if length is None:
            _reply_error(protocol, PARSE_ERROR, problem or "a message without a Content-Length header")
            continue
        body = await lines.exactly(length)
        if body is None:
            return
        try:
            message = json.loads(body, object_hook=protocol.structure_message)
        except (ValueError, RecursionError) as err:  # not JSON (json's errors are ValueErrors)
            _reply_error(protocol, PARSE_ERROR, f"the message is not JSON: {str(err)[:200]}")
            continue
        except Exception as err:  # noqa: BLE001 - pygls refuses the message's shape: said to the client
            ident = _request_id(body)
            if ident is None:
                _reply_error(protocol, INVALID_REQUEST, f"not a JSON-RPC message: {type(err).__name__}")
            else:
                _reply_error(protocol, INVALID_PARAMS, f"the request's params are not what its method takes: "
                             f"{type(err).__name__}", ident)
            continue
        if not hasattr(message, "jsonrpc"):
            _reply_error(protocol, INVALID_REQUEST, "not a JSON-RPC message")
            continue
        protocol.handle_message(message)


def _request_id(body: bytes) -> int | str | None:
    """The id of a request (a message with a method and a whole-number or text id), else None."""
    message = json.loads(body)  # (it read as JSON a moment ago)
    if isinstance(message, dict) and isinstance(message.get("method"), str):
        ident = message.get("id")
        if isinstance(ident, str) or (isinstance(ident, int) and not isinstance(ident, bool)):
            return ident
    return None


def _reply_error(protocol: Any, code: int, text: str, ident: int | str | None = None) -> None:
    """A JSON-RPC error response, written as a frame: with id null for a frame no id can
    be read from (the answer the specification gives it), else with the request's id."""
    log.warning("refused a message from the client: %s", text)
    body = json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": text}}).encode("utf-8")
    frame = b"Content-Length: %d\r\n\r\n" % len(body) + body
    writer = protocol.writer
    if writer is not None:
        done = writer.write(frame)
        if asyncio.iscoroutine(done):
            asyncio.ensure_future(done)


def serve_io(server: Any, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """pygls's start_io, with this module's reader."""
    stop = server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(stdout))
    pool = server.thread_pool

    def in_thread(call: Callable[[int], bytes]) -> Callable[[int], Awaitable[bytes]]:
        return lambda n: asyncio.get_running_loop().run_in_executor(pool, call, n)

    try:
        asyncio.run(read_messages(_Lines(in_thread(stdin.readline), in_thread(stdin.read)), server.protocol, stop))
    except BrokenPipeError:
        log.error("the editor closed the connection")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


def serve_tcp(server: Any, host: str, port: int) -> None:
    """pygls's start_tcp, with this module's reader; raises OSError when it cannot listen."""
    stop = server._stop_event = threading.Event()

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        server.protocol.set_writer(writer)

        async def readline(n: int) -> bytes:
            try:
                return await reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as err:  # the end of input: what there was
                return err.partial
            except asyncio.LimitOverrunError as err:  # a long line: a piece of it
                return await reader.read(min(n, err.consumed or n))

        await read_messages(_Lines(readline, reader.read), server.protocol, stop)
        server.shutdown()

    async def listen() -> None:
        server._server = await asyncio.start_server(connection, host, port, limit=MAX_HEADER_LINE)
        places = ", ".join(str(sock.getsockname()) for sock in server._server.sockets)
        logging.getLogger("pygls.server").info(f"Serving on {places}")
        async with server._server:
            await server._server.serve_forever()

    try:
        asyncio.run(listen())
    except asyncio.CancelledError:
        pass
