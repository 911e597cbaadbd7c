"""A page that sends what no page of ours sends (issue 31): malformed JSON, a message that
is not an object, unknown types and fields, wrong types, an oversized message, binary
data, a flood. Each gets an error in words and/or a closed connection; the game is
unchanged (its fingerprint) and the server answers the next page as before."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from legacies.cli.web import protocol

from .tables import served, spec, until, ws_path


def _number(table: Any) -> int:
    return len(table.session.state.st.history)


def _settled(ws: Any) -> None:
    """Wait until the bots have played and the seat is asked (the game stands still)."""
    ws.send_json({"type": "view"})
    until(ws, lambda m: m["type"] == "view" and m["view"]["decision"]["yours"])


BAD = {
    "not JSON": "{bad",
    "empty": "",
    "a list": "[1, 2]",
    "a number": "7",
    "null": "null",
    "no type": '{"decision": 0, "option": 0}',
    "unknown type": '{"type": "cheat"}',
    "unknown field": '{"type": "view", "seat": 1}',
    "an answer with a seat": '{"type": "answer", "decision": NUMBER, "takebacks": 0, "option": 0, "seat": 1}',
    "decision as text": '{"type": "answer", "decision": "NUMBER", "takebacks": 0, "option": 0}',
    "option as text": '{"type": "answer", "decision": NUMBER, "takebacks": 0, "option": "0"}',
    "option as a bool": '{"type": "answer", "decision": NUMBER, "takebacks": 0, "option": true}',
    "option as a float": '{"type": "answer", "decision": NUMBER, "takebacks": 0, "option": 0.0}',
    "negative option": '{"type": "answer", "decision": NUMBER, "takebacks": 0, "option": -1}',
    "huge option": '{"type": "answer", "decision": NUMBER, "takebacks": 0, "option": 1' + "0" * 400 + "}",
    "option missing": '{"type": "answer", "decision": NUMBER}',
    "nested": '{"type": {"type": "answer"}}',
    "deep": "[" * 1000 + "]" * 1000,
    "type as a list": '{"type": ["answer"], "decision": NUMBER, "takebacks": 0, "option": 0}',
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_malformed_message_gets_an_error_and_changes_nothing(case: str) -> None:
    with served(spec("gears-of-time"), ["human", "random"], seed=1) as (table, client):
        with client.websocket_connect(ws_path(table, 0)) as ws:
            _settled(ws)
            before = table.session.state.fingerprint()
            ws.send_text(BAD[case].replace("NUMBER", str(_number(table))))
            error = until(ws, lambda m: m["type"] in ("error", "refused"))
            assert error["type"] == "error" and error["text"], error
            assert table.session.state.fingerprint() == before
            ws.send_json({"type": "view"})  # the connection still works
            assert until(ws, lambda m: m["type"] == "view")["view"]["decisions"] == _number(table)
        with client.websocket_connect(ws_path(table, 0)) as ws:  # ... and so does the server
            ws.send_json({"type": "view"})
            assert ws.receive_json()["type"] == "view"
        assert table.session.state.fingerprint() == before


@pytest.mark.parametrize("pad", ["x" * protocol.MAX_MESSAGE, "\u20ac" * (protocol.MAX_MESSAGE // 2)],
                         ids=["ascii", "three bytes a character"])
def test_an_oversized_message_closes_the_connection(pad: str) -> None:
    """Bytes are counted, not characters (a user's trial: 2,000 euro signs, 6 KB, were
    refused and the connection kept open)."""
    with served(spec("gears-of-time"), ["human", "random"], seed=1) as (table, client):
        with client.websocket_connect(ws_path(table, 0)) as ws:
            _settled(ws)
            before = table.session.state.fingerprint()
            big = json.dumps({"type": "answer", "decision": _number(table), "takebacks": 0, "option": 0,
                              "pad": pad}, ensure_ascii=False)
            ws.send_text(big)
            said = until(ws, lambda m: m["type"] == "error")
            assert f"at most {protocol.MAX_MESSAGE} bytes" in said["text"]
            with pytest.raises(WebSocketDisconnect) as closed:
                until(ws, lambda m: False)
            assert closed.value.code == 1008
        assert table.session.state.fingerprint() == before
        with client.websocket_connect(ws_path(table, 0)) as ws:
            ws.send_json({"type": "view"})
            assert ws.receive_json()["type"] == "view"


def test_binary_data_gets_an_error() -> None:
    with served(spec("gears-of-time"), ["human", "random"], seed=1) as (table, client):
        with client.websocket_connect(ws_path(table, 0)) as ws:
            _settled(ws)
            before = table.session.state.fingerprint()
            ws.send_bytes(b'{"type": "view"}')
            assert "must be text" in until(ws, lambda m: m["type"] == "error")["text"]
        assert table.session.state.fingerprint() == before


def test_a_flood_closes_the_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    """More than RATE messages within one second: the connection is closed (the clock
    held still, so every message falls within the same second whatever the machine's speed)."""
    monkeypatch.setattr(protocol.time, "monotonic", lambda: 1000.0)
    with served(spec("gears-of-time"), ["human", "random"], seed=1) as (table, client):
        with client.websocket_connect(ws_path(table, 0)) as ws:
            _settled(ws)  # (one message)
            before = table.session.state.fingerprint()
            for _ in range(protocol.RATE):  # each a stale answer: applied, any would change the game
                ws.send_json({"type": "answer", "decision": 0, "takebacks": 0, "option": 0})
            ws.send_text("a mark")  # answered with an error of its own, were the connection still open
            said = until(ws, lambda m: m["type"] == "error")
            assert said["text"].startswith(f"more than {protocol.RATE} messages in a second"), said
            with pytest.raises(WebSocketDisconnect) as closed:
                until(ws, lambda m: False)
            assert closed.value.code == 1008
        assert table.session.state.fingerprint() == before
        with client.websocket_connect(ws_path(table, 0)) as ws:  # another page is served as before
            ws.send_json({"type": "view"})
            assert until(ws, lambda m: m["type"] == "view")["view"]["decisions"] == _number(table)


def test_a_link_asking_for_views_faster_than_a_page_may_send_is_refused_a_while(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A user's trial: 600 views asked at once on one link slowed every other page's
    views from 0.03 s to 1.5 s. A link asking more than RATE views within a second is
    answered 429 with Retry-After (the clock held still); other links are served."""
    monkeypatch.setattr(protocol.time, "monotonic", lambda: 1000.0)
    with served(spec("gears-of-time"), ["human", "human"], seed=1) as (table, client):
        path = f"/t/{table.tokens[0]}/view"
        assert all(client.get(path).status_code == 200 for _ in range(protocol.RATE))
        refused = client.get(path)
        assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
        assert f"more than {protocol.RATE} views" in refused.text
        assert client.get(f"/t/{table.tokens[1]}/view").status_code == 200
        monkeypatch.setattr(protocol.time, "monotonic", lambda: 1002.0)  # a second later
        assert client.get(path).status_code == 200


def test_many_malformed_messages_close_the_connection() -> None:
    with served(spec("gears-of-time"), ["human", "random"], seed=1) as (table, client):
        with client.websocket_connect(ws_path(table, 0)) as ws:
            with pytest.raises(WebSocketDisconnect):
                for _ in range(protocol.MAX_ERRORS + 1):
                    ws.send_text("{bad")
                until(ws, lambda m: False)


def test_flood_counts_messages_within_one_second() -> None:
    flood = protocol.Flood(rate=50)
    assert not any(flood.too_many(now=10.0 + i / 100) for i in range(50))  # 50 in half a second: allowed
    assert flood.too_many(now=10.6)  # the 51st within the second
    slow = protocol.Flood(rate=50)
    assert not any(slow.too_many(now=i * 0.03) for i in range(200))  # 33 a second for 6 seconds: allowed


def test_the_protocol_reads_only_its_shapes() -> None:
    assert protocol.read('{"type": "answer", "decision": 3, "takebacks": 0, "option": 1}') == protocol.Answer(
        type="answer", decision=3, takebacks=0, option=1)
    assert isinstance(protocol.read('{"type": "view"}'), protocol.AskView)
    for raw in BAD.values():
        with pytest.raises(protocol.Malformed):
            protocol.read(raw.replace("NUMBER", "3"))


@pytest.mark.parametrize("raw, said", [
    ('{"type": "answer", "decision": 0, "takebacks": 0, "option": -1}', '"option" of an answer message is a whole number from 0 to 1000000000'),
    ('{"type": "answer", "decision": 0, "takebacks": 0, "option": "0"}', '"option" of an answer message is a whole number from 0 to 1000000000'),
    ('{"type": "ready", "seat": 1.5}', '"seat" of a ready message is a whole number from 0 to 1000000000'),
    ('{"type": "answer", "decision": 0}', 'an answer message gives "option"'),
    ('{"type": "undo", "decision": 3}', '"decision" is not part of an undo message'),
    ('{"type": "bogus"}', "\"type\" is one of view, answer, ready, undo or save, not 'bogus'"),
    ('{}', 'a message names its "type": view, answer, ready, undo or save')])
def test_a_malformed_message_is_said_in_the_pages_terms(raw: str, said: str) -> None:
    """Not the validator's words ("Input should be greater than or equal to 0", "Input tag
    'bogus' found using 'type' does not match any of the expected tags"), which a user's
    trial of the server found in its errors."""
    with pytest.raises(protocol.Malformed) as refused:
        protocol.read(raw)
    assert str(refused.value) == said
