"""What a page may say to the server, and the limits on saying it. A message is one JSON
object of at most MAX_MESSAGE bytes, one of the shapes below, every field of the right
type and none unknown (pydantic in strict mode); anything else is a `Malformed` with the
reason in words. A connection that sends more than RATE messages within a second is
flooding (`Flood` decides) and is closed.

Client to server:
  {"type": "view"}                               the seat's view now (a page asks on connect)
  {"type": "answer", "decision": N, "option": I, "takebacks": U}
                                                 answer decision N with option I: N and U are the
                                                 view's decision's `number` and `takebacks` (after
                                                 an undo a number comes round again: U tells them apart)
  {"type": "undo"} / {"type": "save"}
  {"type": "ready", "seat": N}                   the hot seat: only seat N's person sees the screen

Server to client:
  {"type": "view", "view": SeatView, "colours": [...], "waiting": NAME|null, "stopped": TEXT|null}
  {"type": "cover", "seat": N|null, "next": NAME|null, "waiting": NAME|null, "title": TEXT}
                                    the hot seat: pass the device to `next` (null: a bot, `waiting`,
                                    is asked); nothing of any seat's view until it answers "ready"
  {"type": "refused", "of": KIND, "text": ...}  a message refused, in words: `of` is the refused
                                    message's type ("answer" also names its "decision": N, so a
                                    page tells a refusal of its last answer from a stale one's;
                                    an undo the rules of undo refuse is "undo")
  {"type": "said", "text": ...}     what an undo that took something back, or a save, did
  {"type": "error", "text": ...}    a message the server cannot read (the connection may close)"""

from __future__ import annotations

import json
import time
from collections import deque
from typing import Annotated, Any, Literal, Union, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from legacies.dsl.english import article, word_list

MAX_MESSAGE = 4096
"""The longest message a page may send, in bytes (every real one is under 100)."""

RATE = 50
"""The most messages a connection may send within one second."""

MAX_ERRORS = 20
"""Malformed messages a connection may send before it is closed."""

MAX_PAGES = 8
"""Connections one link may hold open at once (a person's tabs and devices): every change
builds a view for each, so a link opening hundreds would slow every seat's moves."""


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class AskView(_Message):
    type: Literal["view"]


MOST = 10**9
"""The largest number a message may give (a decision, an option, a seat)."""


class Answer(_Message):
    type: Literal["answer"]
    decision: int = Field(ge=0, le=MOST)
    option: int = Field(ge=0, le=MOST)
    takebacks: int = Field(ge=0, le=MOST)


class Ready(_Message):
    type: Literal["ready"]
    seat: int = Field(ge=0, le=MOST)


class Undo(_Message):
    type: Literal["undo"]


class Save(_Message):
    type: Literal["save"]


Message = Annotated[Union[AskView, Answer, Ready, Undo, Save], Field(discriminator="type")]
_READ: TypeAdapter[AskView | Answer | Ready | Undo | Save] = TypeAdapter(Message)


class Malformed(ValueError):
    """A message the server cannot read; its text says why, for the page."""


def size(raw: str | bytes | None) -> int:
    """A message's length in bytes, as MAX_MESSAGE counts it (a character may be several)."""
    if raw is None:
        return 0
    return len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)


def read(raw: str | bytes | None) -> AskView | Answer | Ready | Undo | Save:
    """A page's message read, or Malformed."""
    if raw is None:
        raise Malformed("a message must be text: one JSON object")
    if size(raw) > MAX_MESSAGE:
        raise Malformed(f"a message may be at most {MAX_MESSAGE} bytes")
    if isinstance(raw, bytes):
        raise Malformed("a message must be text: one JSON object")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise Malformed("a message must be one JSON object: this is not JSON") from None
    if not isinstance(data, dict):
        raise Malformed("a message must be one JSON object")
    try:
        return _READ.validate_python(data)
    except ValidationError as err:
        raise Malformed(_words(err.errors()[0])) from None


_KINDS = word_list([get_args(kind.model_fields["type"].annotation)[0]
                    for kind in get_args(get_args(Message)[0])], "or")  # "view, answer, ready, undo or save"


def _words(error: Any) -> str:
    """A message's first fault, in the page's terms (pydantic's for what is not named here)."""
    kind, loc, ctx = error["type"], error["loc"], error.get("ctx") or {}
    if kind == "union_tag_not_found":
        return f'a message names its "type": {_KINDS}'
    if kind == "union_tag_invalid":
        return f'"type" is one of {_KINDS}, not {str(ctx.get("tag"))[:40]!r}'
    if len(loc) == 2:
        field, a = loc[1], f"{article(str(loc[0]))} {loc[0]} message"  # "an answer message", "a ready message"
    else:
        field, a = ".".join(map(str, loc)), "the message"
    if kind == "missing":
        return f'{a} gives "{field}"'
    if kind == "extra_forbidden":
        return f'"{str(field)[:40]}" is not part of {a}'
    if kind in ("int_type", "int_parsing", "int_from_float", "greater_than_equal", "less_than_equal"):
        return f'"{field}" of {a} is a whole number from 0 to {MOST}'
    return f"{a}, {field}: {error['msg']}"


class Flood:
    """Whether a connection sends more than `rate` messages within any one second."""

    def __init__(self, rate: int | None = None):
        self.rate = RATE if rate is None else rate
        self.times: deque[float] = deque()

    def too_many(self, now: float | None = None) -> bool:
        """Count one message (at `now`, default the monotonic clock): True once more than
        `rate` fell within the last second."""
        now = time.monotonic() if now is None else now
        self.times.append(now)
        while self.times and now - self.times[0] > 1.0:
            self.times.popleft()
        return len(self.times) > self.rate
