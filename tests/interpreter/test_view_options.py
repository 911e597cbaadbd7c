"""GameState.view(player): the decision pending is shown to every seat (whose it is and
its prompt), its options only to the player who chooses (a view that listed another
player's options, naming the cards in their hidden hand, was caught only by a distant
test once)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from legacies.interpreter.errors import Refused
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset

TINY = Path(__file__).parent / "fixtures" / "tiny"  # hidden hands, an auction


def test_a_view_lists_the_options_of_its_own_player_only() -> None:
    spec = load_ruleset("tiny", TINY).spec
    assert spec is not None
    state = Game(spec, 3).new_state(4)
    rng = random.Random(4)
    choosers: set[int] = set()
    for _ in range(30):
        if state.is_terminal():
            break
        pending = state.st.pending
        assert pending is not None
        chooser, labels = pending.player, pending.labels()
        choosers.add(chooser)
        for player in range(3):
            decision = state.view(player)["decision"]
            assert decision["player"] == chooser and decision["prompt"] == pending.prompt
            if player == chooser:
                assert decision["options"] == labels
            else:
                assert "options" not in decision, (player, chooser)
                assert "options" not in json.dumps(state.view(player))
        for index in rng.sample(range(len(labels)), len(labels)):  # a refused option (tiny has one): another
            try:
                state.apply(index)
                break
            except Refused:
                continue
    assert len(choosers) >= 2  # more than one seat chose: each was looked at from both sides
