"""The routes of `legacies serve`, a Starlette app over one ServedTable:

  GET /t/TOKEN          the page (static/table.html), for the seat whose link it is
  GET /t/TOKEN/view     that seat's view now, as JSON (the message a page is sent; the
                        hot seat's shared link: only the cover of the person asked)
  WS  /t/TOKEN/ws       that seat's messages both ways (cli/web/protocol.py)
  GET /static/NAME      the page's script and style (three files, nothing else)
  GET /t/TOKEN/, /t/TOKEN/view/   redirected to the same without the slash (a known token only)

An unknown token is refused with 403 and nothing else (a WebSocket is closed before it is
accepted, which uvicorn answers with 403). Every response carries a strict
Content-Security-Policy (no inline script, nothing from elsewhere) and no referrer leaves
the page (the link's token stays in it). A WebSocket from a page of another origin is
refused, and so is a link's ninth page open at once (protocol.MAX_PAGES). A message that
cannot be read is answered with an error; an oversized message or a flood closes the
connection; nothing a page sends changes the game but an answer the
session accepts. The hot seat's shared link (table.py) is held to the same rules: its
answers are the seat shown, and a covered page acts as no seat until it is ready."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, AsyncIterator
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from legacies.agents.match import GameStopped
from legacies.interpreter.errors import Refused

from . import protocol
from .table import VIEW, Listener, ServedTable

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"), (b"cache-control", b"no-store")]

STATIC = {"table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}
PAGE = "table.html"


def _static(name: str) -> bytes:
    return (resources.files("legacies.cli.web") / "static" / name).read_bytes()


class SecurityHeaders:
    """Every HTTP response gets HEADERS (a pure ASGI middleware: WebSockets pass through)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + HEADERS
            await send(message)

        await self.app(scope, receive, with_headers)


def _forbidden() -> Response:
    return PlainTextResponse("forbidden", status_code=403)


def make_app(table: ServedTable) -> Starlette:
    """The web app serving `table`."""
    files = {name: _static(name) for name in (*STATIC, PAGE)}

    async def page(request: Request) -> Response:
        if table.seat_of(request.path_params["token"]) is None:
            return _forbidden()
        return Response(files[PAGE], media_type="text/html; charset=utf-8")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return PlainTextResponse("not found", status_code=404)
        return Response(files[name], media_type=STATIC[name])

    floods: dict[int, protocol.Flood] = {}  # each seat's link: its views asked in the last second

    async def view(request: Request) -> Response:
        seat = table.seat_of(request.path_params["token"])
        if seat is None:
            return _forbidden()
        # a view costs tens of ms to make: a link asking more than a page's socket may send
        # (a user's trial: 600 at once slowed the other seats' pages from 0.03 s to 1.5 s)
        if floods.setdefault(seat, protocol.Flood()).too_many():
            return PlainTextResponse(f"more than {protocol.RATE} views asked in a second: ask again later",
                                     status_code=429, headers={"Retry-After": "1"})
        from starlette.concurrency import run_in_threadpool

        return JSONResponse(await run_in_threadpool(table.message, seat))

    async def without_slash(request: Request) -> Response:
        # a link pasted with a slash at its end (a chat app adds one): the same page, for a
        # known token only (any other is refused as any unknown link is)
        if table.seat_of(request.path_params["token"]) is None:
            return _forbidden()
        return RedirectResponse(request.url.path.rstrip("/"), status_code=308)

    async def anything_else(request: Request) -> Response:
        return _forbidden()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        table.start()
        yield

    routes = [
        Route("/t/{token}", page),
        Route("/t/{token}/view", view),
        Route("/t/{token}/", without_slash),
        Route("/t/{token}/view/", without_slash),
        WebSocketRoute("/t/{token}/ws", lambda ws: _connection(table, ws)),
        Route("/static/{name}", static),
        Route("/{rest:path}", anything_else),
        WebSocketRoute("/{rest:path}", _refused),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(SecurityHeaders)
    return app


def _same_origin(ws: WebSocket) -> bool:
    """A WebSocket opened by a page of this server (or by a client that names no origin)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:  # not a URL (`http://[::1`): no page of this server sent it
        return False
    return netloc.lower() == ws.headers.get("host", "").lower()


async def _refused(ws: WebSocket) -> None:
    await ws.close(code=1008)  # before accepting: the server answers 403


async def _connection(table: ServedTable, ws: WebSocket) -> None:
    seat = table.seat_of(ws.path_params["token"])
    if seat is None or not _same_origin(ws):
        await ws.close(code=1008)  # before accepting: the server answers 403
        return
    await ws.accept()
    if table.pages(seat) >= protocol.MAX_PAGES:
        await ws.send_json({"type": "error", "text": f"this link is open in {protocol.MAX_PAGES} pages already: "
                                                     "close one and load this page again"})
        await ws.close(code=1008)
        return
    listener = table.listen(seat)
    writer = asyncio.get_running_loop().create_task(_write(table, ws, listener))
    try:
        await _read(table, ws, listener)
    finally:
        table.leave(listener)
        writer.cancel()
        try:
            await writer
        except (asyncio.CancelledError, Exception):
            pass


async def _write(table: ServedTable, ws: WebSocket, listener: Listener) -> None:
    """Send the listener's outbox in order; a view is built as it goes out (the latest)."""
    from starlette.concurrency import run_in_threadpool

    while True:
        item = await listener.outbox.get()
        if item is VIEW:
            listener.view_due = False
            item = await run_in_threadpool(table.next_message, listener)
            if item is None:  # a hot seat already covered: nothing new to say
                continue
        if item.get("close"):
            await ws.close(code=item["close"])
            return
        await ws.send_json(item)


async def _read(table: ServedTable, ws: WebSocket, listener: Listener) -> None:
    flood = protocol.Flood()
    errors = 0
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if flood.too_many():
            await _close(ws, listener, f"more than {protocol.RATE} messages in a second: the connection is closed")
            return
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes")
        try:
            said = protocol.read(raw)
        except protocol.Malformed as err:
            errors += 1
            if protocol.size(raw) > protocol.MAX_MESSAGE or errors > protocol.MAX_ERRORS:
                await _close(ws, listener, f"{err}: the connection is closed")
                return
            listener.send({"type": "error", "text": str(err)})
            continue
        await _act(table, listener, said)


async def _act(table: ServedTable, listener: Listener, said: Any) -> None:
    from starlette.concurrency import run_in_threadpool

    seat = listener.acting  # the hot seat: the seat shown (None while covered)
    if isinstance(said, protocol.AskView):
        listener.send_view(asked=True)
    elif isinstance(said, protocol.Ready):
        refused = await run_in_threadpool(table.ready, listener, said.seat)
        if refused is not None:
            listener.send(_refusal(said, refused))
            listener.send_view()
    elif seat is None:  # a covered hot seat acts as no seat
        listener.send(_refusal(said, "the screen is covered: the next person says they are ready first"))
        listener.send_view()
    elif isinstance(said, protocol.Answer):
        try:
            await table.answer(seat, said.decision, said.option, said.takebacks)
        except Refused as err:
            listener.send(_refusal(said, str(err)))
            listener.send_view()
        except GameStopped as err:  # the table stopped the game and says so to every page
            listener.send({"type": "error", "text": f"the game stopped: {err}"})
    elif isinstance(said, protocol.Undo):
        text, taken = await table.undo(seat)
        listener.send({"type": "said", "text": text} if taken else _refusal(said, text))
    elif isinstance(said, protocol.Save):
        listener.send({"type": "said", "text": await table.save()})


def _refusal(said: Any, why: str) -> dict[str, Any]:
    """The refusal of a page's message, in words, naming the message refused (an answer
    also by its decision's number: a page tells the refusal of its last answer from a
    stale one's)."""
    refusal: dict[str, Any] = {"type": "refused", "of": said.type, "text": why}
    if isinstance(said, protocol.Answer):
        refusal["decision"] = said.decision
    return refusal


async def _close(ws: WebSocket, listener: Listener, why: str) -> None:
    """Say why, then close (the writer sends both in order)."""
    listener.send({"type": "error", "text": why})
    listener.send({"type": "error", "close": 1008, "text": why})
    try:
        while True:  # let the writer finish: wait for the peer to see the close
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return
