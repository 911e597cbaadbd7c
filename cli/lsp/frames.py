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
- a frame whose Content-Length is a whole number above MAX_FRAME is refused at once and
  its body then skipped exactly (read and dropped a piece at a time, never held): the
  next frame is the next message, and a request hidden inside the refused body is never
  answered;
- after a frame whose length cannot be read the reader finds its place again at the
  next `Content-Length` header (what came between is dropped a line at a time);
- an edit whose range lies outside the document (or ends before it starts) is refused
  whole with invalid params (-32602), the document left as it was, never a traceback;
  a notification pygls cannot read gets invalid params too, and pygls's own traceback
  of it is logged as its first line only;
- `exit` always ends the process, at once, with 0 after `shutdown` and 1 without (a
  check still running, a thread blocked reading, never keep it alive).
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
HEAD_KEPT = 65536  # bytes of a refused frame's body kept to find which document it opened
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

    async def skip(self, n: int, keep: int = 0) -> bytes | None:
        """Read and drop `n` bytes, a piece at a time, keeping the first `keep` of them
        (None at the end of input)."""
        head = b""
        while n > 0:
            chunk = await self.read(min(n, 1 << 20))
            if not chunk:
                return None
            if len(head) < keep:
                head += chunk[:keep - len(head)]
            n -= len(chunk)
        return head

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
    """Read frames until the end of input (or `stop`), handing each message to pygls;
    `exit` ends the process here (exit_now)."""
    shutdown_asked = False
    while not stop.is_set():
        length: int | None = None
        problem: str | None = None
        skip = 0
        while True:  # one header block
            got = await lines.line()
            if got is None:
                return
            line, cut = got
            found = _LENGTH.search(line.rstrip(b"\r\n"))
            if found is not None and not cut:  # (a junk line that runs into the header: the header is taken)
                value = found.group(1)
                length, skip = None, 0
                if not value.isdigit() or not value.isascii():
                    problem = f"Content-Length must be a whole number of bytes, not {value[:20]!r}"
                elif len(value) > 12 or int(value) > MAX_FRAME:
                    problem = f"a message of {value[:20].decode()} bytes is more than this server reads ({MAX_FRAME:,})"
                    skip = int(value)  # its body is skipped exactly
                else:
                    length, problem = int(value), None
            elif not line.strip():
                break
        if length is None:
            _reply_error(protocol, PARSE_ERROR, problem or "a message without a Content-Length header")
            if skip:
                head = await lines.skip(skip, HEAD_KEPT)
                if head is None:
                    return
                _too_large(protocol, head, skip)
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
            method = _method(body)
            if ident is None and method is not None:  # a notification with params it cannot take
                _reply_error(protocol, INVALID_PARAMS, f"the params of {method[:60]} are not what it takes "
                             "(a position or range out of bounds, a value of the wrong type): it is not applied")
            elif ident is None:
                _reply_error(protocol, INVALID_REQUEST, f"not a JSON-RPC message: {type(err).__name__}")
            else:
                _reply_error(protocol, INVALID_PARAMS, f"the request's params are not what its method takes: "
                             f"{type(err).__name__}", ident)
            continue
        if not hasattr(message, "jsonrpc"):
            _reply_error(protocol, INVALID_REQUEST, "not a JSON-RPC message")
            continue
        method = getattr(message, "method", None)
        if method == "exit" and not hasattr(message, "id"):
            exit_now(0 if shutdown_asked or getattr(protocol, "_shutdown", False) else 1)
        shutdown_asked = shutdown_asked or method == "shutdown"
        if method == "textDocument/didChange":
            bad = _bad_edit(protocol, message)
            if bad is not None:
                _reply_error(protocol, INVALID_PARAMS, f"{bad}: this change is not applied")
                continue
        protocol.handle_message(message)


def _method(body: bytes) -> str | None:
    message = json.loads(body)
    return message.get("method") if isinstance(message, dict) and isinstance(message.get("method"), str) else None


def _bad_edit(protocol: Any, message: Any) -> str | None:
    """What is wrong with a didChange's edits, applied in order to a copy of the document
    (None: they all fit). A line past the end, or a range that ends before it starts, is
    wrong; a character past a line's end is its end (the protocol says so)."""
    from lsprotocol import types as lsp
    from pygls.workspace import TextDocument

    try:
        params = message.params
        doc = protocol.workspace.get_text_document(params.text_document.uri)
        copy = TextDocument(doc.uri, doc.source, doc.version, sync_kind=lsp.TextDocumentSyncKind.Incremental,
                            position_codec=doc.position_codec)
    except (AttributeError, KeyError, LookupError, ValueError):  # no workspace yet, no such document: pygls says what it says
        return None
    for change in params.content_changes:
        place = getattr(change, "range", None)
        if place is not None:
            lines = len(copy.lines)
            start, end = (place.start.line, place.start.character), (place.end.line, place.end.character)
            if end < start:
                return f"an edit's range ends (line {end[0] + 1}) before it starts (line {start[0] + 1})"
            for line, character in (start, end):
                if line > lines or (line == lines and character > 0):
                    return (f"an edit's range reaches line {line + 1}, character {character + 1}, and the "
                            f"document has {lines} lines")
        copy.apply_change(change)
    return None


_OPENS = re.compile(rb'"method"\s*:\s*"textDocument/did(?:Open|Change)"')
_URI = re.compile(rb'"uri"\s*:\s*"([^"\\]{1,2000})"')


def _too_large(protocol: Any, head: bytes, size: int) -> None:
    """A refused frame that opened or changed a document: that document gets a
    diagnostic saying why it is not checked (its frame's first bytes name it)."""
    uri = _URI.search(head)
    if _OPENS.search(head) is None or uri is None:
        return
    text = (f"this document is not checked: its message is {size:,} bytes, more than this server reads "
            f"({MAX_FRAME:,}); a data file holds at most 512 KiB (F005): split it")
    diagnostic = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}},
                  "severity": 1, "code": "F005", "source": "legacies", "message": text}
    _write(protocol, {"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                      "params": {"uri": uri.group(1).decode("utf-8", "replace"), "diagnostics": [diagnostic]}})


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
    _write(protocol, {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": text}})


def _write(protocol: Any, message: dict[str, Any]) -> None:
    body = json.dumps(message).encode("utf-8")
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


def exit_now(code: int) -> None:
    """End the process at once (`exit`): what was written flushed (the protocol's writer
    flushes each frame), then no wait for a check still running, a thread blocked reading
    the editor or a task to cancel."""
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed stream (ValueError) or a broken pipe: nothing left to flush
            pass
    os._exit(code)


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


class _FirstLine(logging.Filter):
    """pygls writes a whole traceback into the text of some records ("Unable to
    deserialize message\n<traceback>"): the log keeps the first line (the editor shows
    the server's standard error as its log; the client was answered in words)."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "\n" in text:
            record.msg, record.args = text.split("\n", 1)[0], None
        return True


for _name in ("pygls.protocol.json_rpc", "pygls.protocol.language_server", "pygls.workspace.text_document"):
    logging.getLogger(_name).addFilter(_FirstLine())
