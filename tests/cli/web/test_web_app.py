"""`legacies serve` through Starlette's TestClient (issue 31): the page and its headers, a
seat's link that opens only that seat (every other seat's data asked for through every
endpoint and message, and nothing hidden from the seat given), unknown links refused with
403 and nothing else, and answers that are stale, repeated, from a seat not asked or sent
by two pages at once refused in words or applied one at a time."""

from __future__ import annotations

import json
import random
import re
import threading

import pytest
from starlette.websockets import WebSocketDisconnect

from legacies.cli.web.app import CSP
from legacies.interpreter.game import GameState

from .tables import asked_at, hidden_pieces, named_pieces, served, spec, until, ws_path


def test_the_page_is_served_with_a_strict_content_security_policy() -> None:
    with served(spec("gears-of-time"), ["human", "random"]) as (table, client):
        page = client.get(f"/t/{table.tokens[0]}")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        for response in (page, client.get("/static/table.js"), client.get("/static/table.css"),
                         client.get(f"/t/{table.tokens[0]}/view"), client.get("/t/nobody")):
            policy = response.headers["content-security-policy"]
            assert policy == CSP
            directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
            assert directives["script-src"] == "'self'" and directives["connect-src"] == "'self'"
            assert directives["default-src"] == "'none'" and "unsafe" not in policy
            assert response.headers["referrer-policy"] == "no-referrer"  # the link's token stays in the page
            assert response.headers["x-content-type-options"] == "nosniff"
        html = page.text
        scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S)
        assert scripts == [""] and 'src="/static/table.js"' in html  # one script, from a file
        assert not re.search(r"\son[a-z]+\s*=", html) and "style=" not in html and "<style" not in html
        script = client.get("/static/table.js").text
        assert "innerHTML" not in script and "outerHTML" not in script and "insertAdjacentHTML" not in script
        assert "eval(" not in script and "document.write" not in script


@pytest.mark.parametrize("token", ["", "x", "nobody", "A" * 32, "%00", "..%2F..%2Fetc"])
def test_an_unknown_link_gets_403_and_nothing_else(token: str) -> None:
    with served(spec("gears-of-time"), ["human", "human"]) as (table, client):
        for path in (f"/t/{token}", f"/t/{token}/view", "/", "/t", "/static/../table.py", "/static/table.html",
                     f"/t/{table.tokens[0]}x/view", f"/t/{table.tokens[0][:-1]}/view"):
            response = client.get(path)
            assert response.status_code in (403, 404), path
            assert response.text in ("forbidden", "not found")
            assert "view" not in response.text and table.tokens[0] not in response.text
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect(f"/t/{token}/ws") as ws:
                ws.receive_json()
        assert closed.value.code == 1008


def test_a_websocket_from_another_origin_is_refused() -> None:
    with served(spec("gears-of-time"), ["human", "random"]) as (table, client):
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect(ws_path(table, 0), headers={"origin": "http://evil.example"}) as ws:
                ws.send_json({"type": "view"})  # (a view would come back, were the connection open)
                ws.receive_json()
        with client.websocket_connect(ws_path(table, 0), headers={"origin": "http://testserver"}) as ws:
            ws.send_json({"type": "view"})
            assert ws.receive_json()["type"] == "view"


def _every_response_of(table: object, client: object, seat: int) -> list[str]:
    """Every endpoint and message a seat's link reaches, as text."""
    out = [client.get(f"/t/{table.tokens[seat]}/view").text]  # type: ignore[attr-defined]
    with client.websocket_connect(ws_path(table, seat)) as ws:  # type: ignore[attr-defined]
        number = len(table.session.state.st.history)  # type: ignore[attr-defined]
        for message in ({"type": "view"}, {"type": "answer", "decision": number, "takebacks": 0, "option": 10**6},
                        {"type": "answer", "decision": number - 1, "takebacks": 0, "option": 0}, {"type": "view"}):
            ws.send_json(message)
            out.append(json.dumps(ws.receive_json()))
    return out


@pytest.mark.parametrize("ruleset, seats", [("gears-of-time", ["human", "human", "random"]),
                                            ("legacies", ["human", "random", "human"]),
                                            ("legacy", ["human", "human"])])
def test_a_seats_link_gives_that_seats_view_and_nothing_hidden_from_it(ruleset: str, seats: list[str]) -> None:
    with served(spec(ruleset), seats, seed=3) as (table, client):
        session = table.session
        rng = random.Random(3)
        for _ in range(60):  # into the game: each seat holds something of its own
            session.advance()
            asked = session.asked()
            if asked is None:
                break
            session.answer(asked, len(session.state.st.history), rng.randrange(len(session.state.decision.options)))
        session.advance()
        before = session.state.fingerprint()
        for seat in session.humans:
            mine = session.view(seat).model_dump(mode="json")
            got = client.get(f"/t/{table.tokens[seat]}/view").json()
            assert got["view"] == mine  # exactly the seat's view: nothing added
            hidden = hidden_pieces(table, seat)
            assert hidden, "nothing is hidden from the seat: the test checks nothing"
            for text in _every_response_of(table, client, seat):
                assert not named_pieces(text) & hidden, f"seat {seat} was sent a piece hidden from it"
            others = [s for s in session.humans if s != seat]
            for other in others:  # what only the other seat may see is not in this seat's responses
                theirs = set(session.view(other).cards) - set(mine["cards"])
                assert theirs, "the other seat sees nothing this one does not: the test checks nothing"
                for text in _every_response_of(table, client, seat):
                    assert not {f"p{n}" for n in named_pieces(text)} & theirs
        assert session.state.fingerprint() == before  # asking changed nothing


def test_a_stale_or_repeated_answer_is_refused_in_words_and_changes_nothing() -> None:
    with served(spec("gears-of-time"), ["human", "random"], seed=1) as (table, client):
        with client.websocket_connect(ws_path(table, 0)) as ws:
            ws.send_json({"type": "view"})
            first = until(ws, asked_at(0))["view"]["decision"]["number"]
            ws.send_json({"type": "answer", "decision": first, "takebacks": 0, "option": 0})
            until(ws, asked_at(first + 1))
            state = table.session.state.fingerprint()
            ws.send_json({"type": "answer", "decision": first, "takebacks": 0, "option": 0})  # the same answer again
            refused = until(ws, lambda m: m["type"] == "refused")
            assert f"that answer is for decision {first}" in refused["text"] and "look again" in refused["text"]
            ws.send_json({"type": "answer", "decision": first + 500, "takebacks": 0, "option": 0})  # from the future
            assert "decision" in until(ws, lambda m: m["type"] == "refused")["text"]
            ws.send_json({"type": "answer", "decision": table.session.view(0).decision.number, "takebacks": 0, "option": 999})
            assert "there is no option 999" in until(ws, lambda m: m["type"] == "refused")["text"]
            assert table.session.state.fingerprint() == state


def test_a_seat_not_asked_is_refused() -> None:
    with served(spec("gears-of-time"), ["human", "human"], seed=1) as (table, client):
        asked = table.session.asked()
        assert asked is not None
        other = 1 - asked
        state = table.session.state.fingerprint()
        with client.websocket_connect(ws_path(table, other)) as ws:
            ws.send_json({"type": "answer", "decision": len(table.session.state.st.history), "takebacks": 0, "option": 0})
            refused = until(ws, lambda m: m["type"] == "refused")
            names = table.session.state.game.player_names
            assert refused["text"] == f"{names[other]} is not asked now: {names[asked]} is"
        assert table.session.state.fingerprint() == state


def test_two_pages_answering_at_once_are_applied_one_at_a_time() -> None:
    """Two tabs of the asked seat and the seat not asked send their answers at the same
    moment, many times over: each time exactly one is applied, the others refused."""
    with served(spec("gears-of-time"), ["human", "human"], seed=2) as (table, client):
        session = table.session
        pages = [client.websocket_connect(ws_path(table, s)) for s in (0, 0, 1, 1)]
        sockets = [p.__enter__() for p in pages]
        try:
            for _ in range(6):
                number, asked = len(session.state.st.history), session.asked()
                if asked is None:
                    break
                go = threading.Barrier(len(sockets))

                def send(ws: object) -> None:
                    go.wait()
                    ws.send_json({"type": "answer", "decision": number, "takebacks": 0, "option": 0})  # type: ignore[attr-defined]
                    ws.send_json({"type": "mark"})  # type: ignore[attr-defined]  # an error comes back after the answer's

                threads = [threading.Thread(target=send, args=(ws,)) for ws in sockets]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                refused = 0
                for ws in sockets:  # a page's messages come in order: its refusal, if any, before the mark's error
                    seen = [until(ws, lambda m: m["type"] in ("refused", "error"))["type"]]
                    if seen[0] == "refused":
                        refused += 1
                        until(ws, lambda m: m["type"] == "error")
                assert len(session.state.st.history) == number + 1  # exactly one answer was applied
                assert refused == 3
        finally:
            for p in pages:
                p.__exit__(None, None, None)


def test_the_game_is_kept_after_every_decision_and_taken_up_again(tmp_path: object) -> None:
    from pathlib import Path

    from legacies.agents.session import TableSession
    from legacies.cli.web.table import ServedTable

    save = Path(str(tmp_path)) / "game.json"
    game = spec("gears-of-time")
    with served(game, ["human", "random"], seed=1, save=save) as (table, client):
        with client.websocket_connect(ws_path(table, 0)) as ws:
            ws.send_json({"type": "view"})
            for _ in range(3):
                number = until(ws, asked_at(0))["view"]["decision"]["number"]
                ws.send_json({"type": "answer", "decision": number, "takebacks": 0, "option": 0})
                view = until(ws, asked_at(number + 1))["view"]
                saved = GameState.deserialize(game, save.read_text(encoding="utf-8"))
                assert len(saved.st.history) == view["decision"]["number"]  # kept up to the decision now asked
        tokens = dict(table.tokens)
        fingerprint = table.session.state.fingerprint()
    state = GameState.deserialize(game, save.read_text(encoding="utf-8"))
    assert state.fingerprint() == fingerprint
    again = ServedTable(TableSession(game, json.loads(save.read_text())["seats"], 1, state=state), save)
    assert again.tokens[0] != tokens[0] and again.seat_of(tokens[0]) is None  # new links
    assert again.session.view(0).decision == table.session.view(0).decision
