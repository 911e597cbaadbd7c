"""Random games played through the server (issue 31), every seat a person at their own
link, the answers chosen at random: no response to a seat (its WebSocket's messages, its
view by HTTP) ever names a piece hidden from that seat at the decision the response shows
(`p<N>`, interpreter.display.hidden_from), and each view is the seat's view of the game
at that decision. The normal suite plays the first decisions of one game a ruleset; `-m
slow` plays longer games of more seeds."""

from __future__ import annotations

import json
import random
from typing import Any
from unittest.mock import patch

import pytest

from legacies.cli.web import protocol
from legacies.pipeline.ruleset import rulesets

from .tables import hidden_pieces, named_pieces, served, spec, ws_path


def _until_mark(ws: Any) -> list[dict[str, Any]]:
    """Send a mark (a message the server answers with an error) and read up to its error:
    the messages before it, which include everything the page's earlier messages caused."""
    ws.send_json({"type": "mark"})
    out = []
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "error":
            return out
        out.append(message)


def _play(ruleset: str, seed: int, decisions: int) -> int:
    # the test's pages send more than a person's (a mark after each message): no limits on them here
    with patch.object(protocol, "MAX_ERRORS", 10**9), patch.object(protocol, "RATE", 10**9):
        return _played(ruleset, seed, decisions)


def _played(ruleset: str, seed: int, decisions: int) -> int:
    game = spec(ruleset)
    players = game.min_players if seed % 2 else game.max_players
    rng = random.Random(f"serve/{ruleset}/{seed}")
    checked = 0
    with served(game, ["human"] * players, seed=seed) as (table, client):
        session = table.session
        pages = [client.websocket_connect(ws_path(table, s)) for s in range(players)]
        sockets = [p.__enter__() for p in pages]
        hidden: dict[int, list[set[int]]] = {}  # decision -> the pieces hidden from each seat then
        try:
            for _ in range(decisions):
                number = len(session.state.st.history)
                hidden.setdefault(number, [hidden_pieces(table, s) for s in range(players)])
                for seat in range(players):
                    got = client.get(f"/t/{table.tokens[seat]}/view").text
                    assert not named_pieces(got) & hidden[number][seat], f"decision {number}: seat {seat}'s view"
                    assert json.loads(got)["view"] == session.view(seat).model_dump(mode="json")
                asked = session.asked()
                if asked is None:
                    break
                options = len(session.state.decision.options)  # type: ignore[union-attr]
                sockets[asked].send_json({"type": "answer", "decision": number, "takebacks": 0, "option": rng.randrange(options)})
                said = {asked: _until_mark(sockets[asked])}  # the answer is applied or refused by now
                now = len(session.state.st.history)
                hidden.setdefault(now, [hidden_pieces(table, s) for s in range(players)])
                for seat, ws in enumerate(sockets):
                    if seat != asked:
                        ws.send_json({"type": "view"})
                        said[seat] = _until_mark(ws)
                for seat, messages in said.items():
                    for message in messages:
                        if message["type"] == "view":
                            shown = message["view"]["decisions"]
                            leaked = named_pieces(json.dumps(message)) & hidden[shown][seat]
                            assert not leaked, f"decision {shown}: seat {seat} was sent hidden pieces {leaked}"
                            checked += 1
                        else:
                            assert message["type"] == "refused" and seat == asked and now == number, message
                            assert (message["of"], message["decision"]) == ("answer", number)
        finally:
            for p in pages:
                p.__exit__(None, None, None)
    return checked


@pytest.mark.parametrize("ruleset", sorted(rulesets()))
def test_no_response_to_a_seat_holds_a_piece_hidden_from_it(ruleset: str) -> None:
    assert _play(ruleset, 1, 25) > 50


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(rulesets()))
@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_no_response_to_a_seat_holds_a_hidden_piece_over_longer_games(ruleset: str, seed: int) -> None:
    assert _play(ruleset, seed, 150) > 300
