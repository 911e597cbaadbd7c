"""`legacies serve --hot-seat` through Starlette's TestClient (issue 31): every person's
seat shares one link; between two people the page is sent a cover naming who plays next and
nothing of any seat's view, and only when it answers that the next person is ready is that
seat's view sent. While covered (and before), nothing hidden from the next seat reaches the
page and the previous seat's view is not sent again; answers name their decision and are
the seat shown, a stale one or one sent while covered is refused in words; the hostile-
client rules hold for this link; bots play between the people; with one person the hot
seat is their own link."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.websockets import WebSocketDisconnect

from legacies.agents.session import TableSession
from legacies.cli.web import protocol
from legacies.cli.web.table import HOT_SEAT, ServedTable

from .tables import hidden_pieces, named_pieces, spec
from .test_hostile_clients import BAD


def _hot(ruleset: str, seats: list[str], seed: int, save: Path | None = None) -> Any:
    from starlette.testclient import TestClient

    from legacies.cli.web.app import make_app

    table = ServedTable(TableSession(spec(ruleset), seats, seed), save, hot_seat=True)
    return table, TestClient(make_app(table))


WAIT = 60.0  # seconds: a message the test waits for (it fails, never hangs, when none comes)


def _receive(ws: Any, seconds: float = WAIT) -> dict[str, Any]:
    """The page's next message, or a failure when none comes within `seconds` (what the
    test guards broken, a message it waits for may never come)."""

    async def get() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(get)
    except TimeoutError:
        raise AssertionError(f"no message came within {seconds} seconds") from None
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    return dict(json.loads(message["text"]))


def until(ws: Any, wanted: Any, limit: int = 10_000) -> dict[str, Any]:
    """The first message from `ws` that is `wanted` (the others read past)."""
    for _ in range(limit):
        message = _receive(ws)
        if wanted(message):
            return message
    raise AssertionError("the message never came")


def _ws(table: ServedTable) -> str:
    return f"/t/{table.shared_token}/ws"


def _until_mark(ws: Any) -> list[dict[str, Any]]:
    """Every message up to the error a mark is answered with (so, everything the page's
    earlier messages caused)."""
    ws.send_json({"type": "mark"})
    out = []
    while True:
        message: dict[str, Any] = _receive(ws)
        if message["type"] == "error":
            return out
        out.append(message)


def _play(table: ServedTable, ws: Any, people_decisions: int, rng: random.Random) -> list[tuple[str, Any]]:
    """Play at the hot seat's page as its people would (ready at each cover, a random option
    at each decision of theirs) until each person took `people_decisions` decisions or the
    game ended; what the page was sent, in order: ("cover", seat), ("view", seat). Checked
    on the way: a view comes only of the seat shown, and after a cover only of the seat the
    page said was ready; the page always plays the person the game waits on."""
    events: list[tuple[str, Any]] = []
    names = table.session.state.game.player_names
    shown: int | None = None  # the seat the page may be sent a view of
    ready: int | None = None
    last = -1
    taken = {seat: 0 for seat in table.session.humans}
    ws.send_json({"type": "view"})
    while min(taken.values()) < people_decisions:
        m = _receive(ws)
        if m["type"] == "cover":
            events.append(("cover", m["seat"]))
            assert set(m) == {"type", "seat", "next", "waiting", "title"}  # nothing of any seat's view
            shown = None
            if m["seat"] is not None:
                assert m["next"] == names[m["seat"]]
                ready = m["seat"]
                ws.send_json({"type": "ready", "seat": m["seat"]})
        elif m["type"] == "view":
            seat = m["view"]["seat"]
            if shown is None:
                assert seat == ready, f"a view of seat {seat} was sent to a covered page, ready for {ready}"
                shown = seat
            assert seat == shown, f"seat {seat}'s view was sent while seat {shown} is shown"
            events.append(("view", seat))
            d = m["view"]["decision"]
            if m["view"]["result"] is not None:
                break
            if d is not None and not d["yours"]:
                assert m["waiting"] == d["player_name"]  # only a bot is asked while another seat is shown
            if d is not None and d["yours"] and d["number"] > last:
                last = d["number"]
                taken[seat] += 1
                ws.send_json({"type": "answer", "decision": d["number"], "takebacks": d["takebacks"], "option": rng.randrange(len(d["options"]))})
        elif m["type"] == "refused":
            # a ready refused: a second cover of the same seat came (the page's own ask and a
            # bot's move both sent one) and its ready came after the first was taken
            assert m["of"] in ("answer", "ready"), m
            if m["of"] == "answer":  # an option the rules refuse: choose again
                assert m["decision"] == last and "that answer is for decision" not in m["text"], (m, events)
                last -= 1
    return events


def test_a_hot_seat_shares_one_link_and_its_view_by_http_is_only_the_cover() -> None:
    table, client = _hot("legacy", ["human", "human", "random"], 1)
    with client:
        assert table.tokens == {} and table.shared_token is not None and len(table.shared_token) >= 32
        assert table.seat_of(table.shared_token) == HOT_SEAT and table.seat_of(table.shared_token + "x") is None
        assert table.links("http://h") == [("P1, P2", f"http://h/t/{table.shared_token}")]
        assert client.get(f"/t/{table.shared_token}").status_code == 200
        got = client.get(f"/t/{table.shared_token}/view").json()
        assert got == {"type": "cover", "seat": 0, "next": "P1", "waiting": None, "title": spec("legacy").title}


def test_with_one_person_the_hot_seat_is_their_own_link() -> None:
    table, client = _hot("gears-of-time", ["human", "random"], 1)
    with client:
        assert not table.hot_seat and table.shared_token is None and list(table.tokens) == [0]
        assert table.links("http://h") == [("P1", f"http://h/t/{table.tokens[0]}")]
        with client.websocket_connect(f"/t/{table.tokens[0]}/ws") as ws:
            ws.send_json({"type": "view"})
            assert _receive(ws)["type"] == "view"  # no cover


@pytest.mark.parametrize("ruleset, seats", [("legacy", ["human", "human", "random"]),
                                            ("leaders-legacy", ["human", "random", "human"])])
def test_two_people_and_a_bot_at_one_page_covered_between_the_people(ruleset: str, seats: list[str]) -> None:
    table, client = _hot(ruleset, seats, 2)
    bot = seats.index("random")
    with client:
        with client.websocket_connect(_ws(table)) as ws:
            events = _play(table, ws, 4, random.Random(2))
        assert events[0][0] == "cover"  # the page began covered
        seen = [e[1] for e in events if e[0] == "view"]
        assert set(seen) == set(table.session.humans)  # it showed both people
        changes = [i for i in range(1, len(events)) if events[i][0] == "view" and events[i - 1][0] == "view"
                   and events[i][1] != events[i - 1][1]]
        assert not changes, "the page went from one person's view to another's without a cover"
        assert len([e for e in events if e[0] == "cover" and e[1] is not None]) >= 4
        assert table.session.made_by.count(bot) > 0  # the bot played on the server between the people
        with client.websocket_connect(_ws(table)) as again:  # a new page begins covered
            again.send_json({"type": "view"})
            first = _receive(again)
            assert first["type"] == "cover" and first["seat"] == table.session.waiting_for_person()


@pytest.mark.parametrize("ruleset, seats", [("legacy", ["human", "human", "random"]),
                                            ("gears-of-time", ["human", "human"])])
def test_nothing_of_a_seat_reaches_the_page_while_it_is_covered(ruleset: str, seats: list[str],
                                                                 tmp_path: Path) -> None:
    """At a cover from one person to the other, the page asks for views (by WebSocket and by
    HTTP), answers, undoes, saves and says the wrong seat is ready: none of what it is sent
    is a view or names a piece (none hidden from the next seat, and the previous seat's
    view is not sent again), nothing changes, and after `ready` the first view is the next
    seat's, with nothing hidden from it."""
    table, client = _hot(ruleset, seats, 4, tmp_path / "game.json")  # (the page's save is written there)
    session = table.session
    with client, client.websocket_connect(_ws(table)) as ws:
        ws.send_json({"type": "view"})
        m = until(ws, lambda m: m["type"] == "cover" and m["seat"] is not None)
        ws.send_json({"type": "ready", "seat": m["seat"]})
        previous = until(ws, lambda m: m["type"] == "view")
        rng = random.Random(4)
        covers = 0
        for _ in range(200):  # into the game, where each seat holds something of its own
            d = previous["view"]["decision"]
            ws.send_json({"type": "answer", "decision": d["number"], "takebacks": d["takebacks"], "option": rng.randrange(len(d["options"]))})
            m = until(ws, lambda m: m["type"] in ("cover", "refused") or (m["type"] == "view" and (
                ((m["view"]["decision"] or {}).get("yours") and m["view"]["decision"]["number"] > d["number"])
                or m["view"]["result"] is not None)))
            if m["type"] == "refused":  # an option the rules refuse: another
                assert m["of"] == "answer" and m["decision"] == d["number"], m
                continue
            if m["type"] == "view":
                previous = m
                if m["view"]["result"] is not None:
                    break
                continue
            assert m["seat"] is not None
            was, nxt = previous["view"]["seat"], m["seat"]
            assert nxt != was
            hidden_next = hidden_pieces(table, nxt)
            mine_before = {int(c[1:]) for c in previous["view"]["cards"] if c.startswith("p")}
            before = session.state.fingerprint()
            number = len(session.state.st.history)
            for said in ({"type": "view"}, {"type": "answer", "decision": number, "takebacks": 0, "option": 0},
                         {"type": "answer", "decision": number - 1, "takebacks": 0, "option": 0}, {"type": "undo"},
                         {"type": "save"}, {"type": "ready", "seat": was}, {"type": "view"}):
                ws.send_json(said)
            covered = [m] + _until_mark(ws) + [client.get(f"/t/{table.shared_token}/view").json()]
            assert session.state.fingerprint() == before  # nothing a covered page said changed the game
            kinds = [c["type"] for c in covered]
            assert "view" not in kinds, kinds  # the previous seat's view is not sent again, nor the next one's
            assert kinds.count("refused") == 5  # two answers, the undo, the save and the wrong ready, in words
            assert any("the screen is covered" in c.get("text", "") for c in covered)
            assert any("not covered for" in c.get("text", "") for c in covered)
            for c in covered:
                text = json.dumps(c)
                assert not named_pieces(text) & hidden_next, f"a covered page was sent pieces hidden from seat {nxt}"
                assert not named_pieces(text), "a covered page was sent a piece"
            ws.send_json({"type": "ready", "seat": nxt})
            shown = until(ws, lambda m: m["type"] in ("view", "cover"))
            assert shown["type"] == "view" and shown["view"]["seat"] == nxt
            assert not named_pieces(json.dumps(shown)) & hidden_pieces(table, nxt)
            if mine_before & hidden_next:
                covers += 1  # a cover at which the previous seat held what the next may not see
            previous = shown
            if covers >= 3:
                break
        assert covers >= 3, "no cover came where the previous seat held something hidden from the next"


def test_a_stale_answer_and_a_wrong_ready_are_refused_in_words() -> None:
    table, client = _hot("gears-of-time", ["human", "human"], 1)
    session = table.session
    with client, client.websocket_connect(_ws(table)) as ws:
        ws.send_json({"type": "view"})
        cover = until(ws, lambda m: m["type"] == "cover")
        ws.send_json({"type": "ready", "seat": 1 - cover["seat"]})  # the other person is not the one covered for
        refused = until(ws, lambda m: m["type"] == "refused")
        assert refused["text"] == f"the screen is not covered for P{2 - cover['seat']}: look again"
        assert refused["of"] == "ready" and "decision" not in refused  # a refusal names what it refuses
        ws.send_json({"type": "ready", "seat": 99})
        assert until(ws, lambda m: m["type"] == "refused")["text"] == "the screen is not covered for seat 99: look again"
        ws.send_json({"type": "ready", "seat": cover["seat"]})
        number = until(ws, lambda m: m["type"] == "view")["view"]["decision"]["number"]
        before = session.state.fingerprint()
        ws.send_json({"type": "answer", "decision": number, "takebacks": 0, "option": 999})
        assert "there is no option 999" in until(ws, lambda m: m["type"] == "refused")["text"]
        ws.send_json({"type": "ready", "seat": cover["seat"]})  # ready again, once shown: refused
        assert "not covered" in until(ws, lambda m: m["type"] == "refused")["text"]
        assert session.state.fingerprint() == before
        ws.send_json({"type": "answer", "decision": number, "takebacks": 0, "option": 0})
        m = until(ws, lambda m: m["type"] in ("cover", "refused") or (
            m["type"] == "view" and m["view"]["decision"]["yours"] and m["view"]["decision"]["number"] > number))
        assert m["type"] != "refused", m
        if m["type"] == "cover":  # the other person: ready
            ws.send_json({"type": "ready", "seat": m["seat"]})
            until(ws, lambda m: m["type"] == "view")
        assert len(session.state.st.history) == number + 1
        before = session.state.fingerprint()
        ws.send_json({"type": "answer", "decision": number, "takebacks": 0, "option": 0})  # the answer again: stale
        stale = until(ws, lambda m: m["type"] == "refused")
        assert stale["text"] == f"that answer is for decision {number}, and the game is at decision {number + 1}: look again"
        assert (stale["of"], stale["decision"]) == ("answer", number)
        assert session.state.fingerprint() == before
    one, c1 = _hot("gears-of-time", ["human", "random"], 1)
    with c1, c1.websocket_connect(f"/t/{one.tokens[0]}/ws") as ws:
        ws.send_json({"type": "ready", "seat": 0})
        assert until(ws, lambda m: m["type"] == "refused")["text"] == \
            "this link is one seat's: its screen is never covered"


def test_two_covers_of_one_seat_and_a_ready_for_each_refuse_the_second_ready_by_name() -> None:
    """The page asks for its view while a cover is on its way, so the same cover comes twice
    and a page that says ready at each says it twice: the second is refused as a ready
    ("of": "ready"), which a page tells from a refusal of its answer (CI once failed where a
    test took it for one and answered a stale view again)."""
    table, client = _hot("gears-of-time", ["human", "human"], 1)
    with client, client.websocket_connect(_ws(table)) as ws:
        ws.send_json({"type": "view"})
        first = until(ws, lambda m: m["type"] == "cover")
        ws.send_json({"type": "view"})  # asked again: the cover again
        again = until(ws, lambda m: m["type"] == "cover")
        assert first == again
        ws.send_json({"type": "ready", "seat": first["seat"]})
        ws.send_json({"type": "ready", "seat": again["seat"]})
        got = _until_mark(ws)
        refusals = [m for m in got if m["type"] == "refused"]
        assert [r["of"] for r in refusals] == ["ready"] and "not covered" in refusals[0]["text"], got
        views = [m for m in got if m["type"] == "view"]
        assert views and {v["view"]["seat"] for v in views} == {first["seat"]}
        number = views[-1]["view"]["decision"]["number"]
        ws.send_json({"type": "answer", "decision": number, "takebacks": 0, "option": 0})
        ws.send_json({"type": "answer", "decision": number, "takebacks": 0, "option": 0})  # twice: the second is stale
        refusals = [m for m in _until_mark(ws) if m["type"] == "refused"]
        assert [(r["of"], r.get("decision")) for r in refusals][-1] == ("answer", number)


def test_the_hot_seats_link_is_held_to_the_hostile_client_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    table, client = _hot("gears-of-time", ["human", "human", "random"], 1)
    session = table.session
    with client:
        with client.websocket_connect(_ws(table)) as ws:
            ws.send_json({"type": "view"})
            # a cover naming a person: the bots have played and the game stands still (a cover
            # while the random seat is asked came first on a loaded machine, and its move after `before`)
            until(ws, lambda m: m["type"] == "cover" and m["seat"] is not None)
            before = session.state.fingerprint()
            for case in ['{"type": "ready"}', '{"type": "ready", "seat": "0"}', '{"type": "ready", "seat": -1}',
                         '{"type": "ready", "seat": 0, "as": 1}', *list(BAD.values())[:12]]:
                ws.send_text(case.replace("NUMBER", str(len(session.state.st.history))))
                error = until(ws, lambda m: m["type"] in ("error", "refused", "view"))
                assert error["type"] == "error" and error["text"], (case, error)
            with pytest.raises(WebSocketDisconnect) as closed:  # too many: closed
                for _ in range(protocol.MAX_ERRORS):
                    ws.send_text("{bad")
                until(ws, lambda m: False)
            assert closed.value.code == 1008
        with client.websocket_connect(_ws(table)) as ws:
            ws.send_text(json.dumps({"type": "ready", "seat": 0, "pad": "x" * protocol.MAX_MESSAGE}))
            assert f"at most {protocol.MAX_MESSAGE} bytes" in until(ws, lambda m: m["type"] == "error")["text"]
            with pytest.raises(WebSocketDisconnect) as closed:
                until(ws, lambda m: False)
            assert closed.value.code == 1008
        monkeypatch.setattr(protocol.time, "monotonic", lambda: 1000.0)
        with client.websocket_connect(_ws(table)) as ws:
            for _ in range(protocol.RATE + 1):
                ws.send_json({"type": "view"})
            said = until(ws, lambda m: m["type"] == "error")
            assert said["text"].startswith(f"more than {protocol.RATE} messages in a second")
            with pytest.raises(WebSocketDisconnect):
                until(ws, lambda m: False)
        with pytest.raises(WebSocketDisconnect):  # another origin
            with client.websocket_connect(_ws(table), headers={"origin": "http://evil.example"}) as ws:
                ws.send_json({"type": "view"})
                _receive(ws)
        assert session.state.fingerprint() == before


def test_serve_hot_seat_prints_one_link_for_every_person() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "from legacies.cli.main import app; app()", "serve", "--port", "0",
                             "--ruleset", "legacy", "--seat", "human:Ann", "--seat", "human:Bo", "--seat", "random",
                             "--hot-seat"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("Ctrl-C"):
                break
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    links = [re.match(r"\s+(.+): (http://\S+/t/\S+)$", line) for line in lines]
    found = [m.groups() for m in links if m]
    assert len(found) == 1 and found[0][0] == "Ann, Bo", lines
    assert "one link for every person, on one device" in "".join(lines)


def test_serve_help_tells_of_the_hot_seat() -> None:
    from typer.testing import CliRunner

    from legacies.cli.main import app

    shown = CliRunner().invoke(app, ["serve", "--help"], terminal_width=200).output
    assert "--hot-seat" in shown and "pass the device" in shown and "one shared link" in shown
