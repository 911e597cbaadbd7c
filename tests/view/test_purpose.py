"""What a decision is for (view/purpose.py), read by the seat asked: an action another
player takes names who takes it (a user's trial: P1, asked to accept a trade, read
"Propose a trade to P1: choose one", as if they were proposing it)."""

from __future__ import annotations

import random

from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset
from legacies.view.purpose import purpose


def test_an_action_another_player_takes_names_them_once() -> None:
    spec = load_ruleset("leaders-legacy").spec
    assert spec is not None
    gs = Game(spec, 3).new_state(4)
    rng = random.Random(4)
    own = None
    while gs.decision is not None and len(gs.st.history) < 3000:
        d = gs.decision
        if d.labels()[0].startswith("accept the trade from"):
            break
        if own is None and "choose what you offer" in purpose(gs, d, d.player):
            own = purpose(gs, d, d.player)  # the proposer's own question: no "(by ...)"
        gs.apply(rng.randrange(d.count))
    d = gs.decision
    assert d is not None and d.labels()[0] == "accept the trade from P2", "no trade asked: the test checks nothing"
    assert d.player == 0
    for viewer in range(3):
        assert purpose(gs, d, viewer) == "Propose a trade to P1 (by P2): choose one"
    assert own is not None and own.startswith("Propose a trade to ") and "(by " not in own
