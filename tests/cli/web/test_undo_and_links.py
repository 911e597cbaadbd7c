"""`legacies serve` against what a user's trial found (2026-12-02): an answer sent before an
undo, whose decision's number comes round again with other options, is refused; a person's
undo never takes back another person's decision; a malformed Origin is refused, not a
server error; the save button of a covered hot seat is refused, and without --save it never
writes over a file the server did not write; a link with a slash at its end opens the
same page; a link open in too many pages refuses the next."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from legacies.cli.web import protocol

from .tables import asked_at, served, spec, until, ws_path


def test_an_answer_sent_before_an_undo_is_refused_though_its_number_comes_round_again() -> None:
    with served(spec("gears-of-time"), ["human", "random"], seed=1) as (table, client):
        session = table.session
        with client.websocket_connect(ws_path(table, 0)) as ws:
            ws.send_json({"type": "view"})
            first = until(ws, asked_at(0))["view"]["decision"]
            assert first["takebacks"] == 0
            ws.send_json({"type": "answer", "decision": first["number"], "takebacks": 0, "option": 0})
            until(ws, asked_at(first["number"] + 1))
            ws.send_json({"type": "undo"})
            assert until(ws, lambda m: m["type"] == "said")["text"] == "your last decision is taken back"
            again = until(ws, lambda m: m["type"] == "view" and m["view"]["decision"]["takebacks"] == 1)
            assert again["view"]["decision"]["number"] == first["number"]  # the same number, asked again
            before = session.state.fingerprint()
            # the page's answer to the decision as it was before the undo: stale, however it is numbered
            ws.send_json({"type": "answer", "decision": first["number"], "takebacks": 0, "option": 0})
            refused = until(ws, lambda m: m["type"] == "refused")
            assert "before the table's last undo" in refused["text"] and refused["decision"] == first["number"]
            assert session.state.fingerprint() == before
            ws.send_json({"type": "answer", "decision": first["number"], "takebacks": 1, "option": 0})
            until(ws, asked_at(first["number"] + 1))
            assert len(session.state.st.history) > first["number"]


def test_an_undo_never_takes_back_another_persons_decision() -> None:
    # (seed 4: P2's own undo crosses no hidden draw, which the rules of undo refuse)
    with served(spec("gears-of-time"), ["human", "human"], seed=4) as (table, client):
        session = table.session
        while not (session.made_by and session.made_by[-1] == 1 and 0 in session.made_by):
            asked = session.asked()
            assert asked is not None
            session.answer(asked, len(session.state.st.history), 0)
        before = session.state.fingerprint()
        with client.websocket_connect(ws_path(table, 0)) as ws:
            ws.send_json({"type": "undo"})
            refused = until(ws, lambda m: m["type"] in ("said", "refused"))
        # refused as a refusal, not said as news (a user's trial: the page showed it as done)
        assert refused["type"] == "refused" and refused["of"] == "undo"
        assert refused["text"] == ("cannot undo: P2 has decided since, and an undo takes back only your own decisions "
                                   "and the bots' moves after them")
        assert session.state.fingerprint() == before and session.takebacks == 0
        assert session.undo(1) == "your last decision is taken back"  # P2 may take back their own


def test_a_refused_undo_is_refused_though_another_pages_undo_lands_meanwhile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hostile tester's race: two pages' undos at once; the refused one was sent as done
    ("said"), with a view for every page, since whether it was done was read from the
    table's count of undos around the call, which the other undo moved. It is decided
    under the lock now: here another undo lands while this one is refused."""
    from legacies.agents import session as sessions

    with served(spec("gears-of-time"), ["human", "random"], seed=1) as (table, client):
        session = table.session

        def other_undo_lands_then_refused(*args: object) -> str:
            session.takebacks += 1  # as another page's undo, taken while this one ran
            return "cannot undo: nothing of yours to undo yet"
        monkeypatch.setattr(sessions, "take_back_last", other_undo_lands_then_refused)
        with client.websocket_connect(ws_path(table, 0)) as ws:
            ws.send_json({"type": "undo"})
            told = until(ws, lambda m: m["type"] in ("said", "refused"))
        assert told["type"] == "refused" and told["text"] == "cannot undo: nothing of yours to undo yet"


@pytest.mark.parametrize("origin", ["http://[::1", "http://[", "://"])
def test_a_malformed_origin_is_refused_not_a_server_error(origin: str) -> None:
    with served(spec("legacy"), ["human", "random"]) as (table, client):
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect(ws_path(table, 0), headers={"origin": origin}) as ws:
                ws.receive_json()
        assert closed.value.code == 1008


def test_without_save_the_save_button_never_writes_over_a_file_it_did_not_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    precious = tmp_path / "legacies-save.json"
    precious.write_text("another game's save", encoding="utf-8")
    with served(spec("legacy"), ["human", "random"], seed=2) as (table, client):
        with client.websocket_connect(ws_path(table, 0)) as ws:
            for _ in range(2):  # the second save goes to the file the first chose
                ws.send_json({"type": "save"})
                assert until(ws, lambda m: m["type"] == "said")["text"] == "saved on the server to legacies-save-2.json"
    assert precious.read_text(encoding="utf-8") == "another game's save"
    assert json.loads((tmp_path / "legacies-save-2.json").read_text())["seed"] == 2


def test_a_covered_hot_seat_cannot_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    from legacies.agents.session import TableSession
    from legacies.cli.web.table import ServedTable
    from starlette.testclient import TestClient
    from legacies.cli.web.app import make_app

    table = ServedTable(TableSession(spec("legacy"), ["human", "human"], 1), None, hot_seat=True)
    with TestClient(make_app(table)) as client:
        with client.websocket_connect(f"/t/{table.shared_token}/ws") as ws:
            ws.send_json({"type": "view"})
            cover = until(ws, lambda m: m["type"] == "cover")
            ws.send_json({"type": "save"})
            refused = until(ws, lambda m: m["type"] == "refused")
            assert refused["of"] == "save" and "the screen is covered" in refused["text"]
            assert not list(tmp_path.iterdir())
            ws.send_json({"type": "ready", "seat": cover["seat"]})
            until(ws, lambda m: m["type"] == "view")
            ws.send_json({"type": "save"})
            assert until(ws, lambda m: m["type"] == "said")["text"] == "saved on the server to legacies-save.json"


def test_a_link_with_a_slash_at_its_end_opens_the_same_page() -> None:
    with served(spec("legacy"), ["human", "random"]) as (table, client):
        token = table.tokens[0]
        for path in (f"/t/{token}/", f"/t/{token}/view/"):
            moved = client.get(path, follow_redirects=False)
            assert moved.status_code == 308 and moved.headers["location"] == path.rstrip("/")
        assert client.get(f"/t/{token}/").status_code == 200
        unknown = client.get("/t/not-a-token/", follow_redirects=False)
        assert (unknown.status_code, unknown.text) == (403, "forbidden")


def test_a_link_open_in_too_many_pages_refuses_the_next() -> None:
    with served(spec("legacy"), ["human", "random"]) as (table, client):
        with ExitStack() as pages:
            for _ in range(protocol.MAX_PAGES):
                ws = pages.enter_context(client.websocket_connect(ws_path(table, 0)))
                ws.send_json({"type": "view"})
                until(ws, lambda m: m["type"] == "view")
            with client.websocket_connect(ws_path(table, 0)) as extra:
                said = extra.receive_json()
                assert said["type"] == "error" and f"open in {protocol.MAX_PAGES} pages already" in said["text"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    extra.receive_json()
                assert closed.value.code == 1008
        with client.websocket_connect(ws_path(table, 0)) as ws:  # the pages closed: a page opens again
            ws.send_json({"type": "view"})
            assert until(ws, lambda m: m["type"] == "view")["type"] == "view"
