"""Fame and Fortune played by bots: off by default (the host plays unchanged: its golden
games are tests/golden/leaders-legacy_*), on by choice; with it, random, greedy and search
bots play Leader's Legacy to the end at 3 and 6 players, by the host's goal or by the
expansion's victories, and the board shows the expansion's lines."""

from __future__ import annotations

import pytest

from legacies.agents.bots import SearchBot
from legacies.agents.match import make_agent, play_match
from legacies.cli.board import board_lines
from legacies.pipeline.ruleset import load_ruleset

from .conftest import Table, spec


@pytest.mark.slow  # whole games of greedy bots, minutes: `-m slow`, a step of .ci/run (the suite's short
# form: tests/agents/test_bots.py, greedy and search choose through a game)
@pytest.mark.parametrize("players", [3, 6])
def test_random_greedy_and_search_bots_play_to_the_end(players: int) -> None:
    seats = ["greedy", "random", "search", "random", "random", "greedy"][:players]
    agents = [SearchBot(players * 10 + i, think=None, iterations=2) if kind == "search"
              else make_agent(kind, players, i) for i, kind in enumerate(seats)]
    result = play_match(spec(), seats, seed=players, agents=agents)
    assert result.state.is_terminal() and result.winner in range(players)
    ending = result.state.st.ending
    assert ending is not None and ending[0] == result.winner
    assert any(word in ending[1] for word in ("renown", "coins", "capital"))  # a victory, never the turn limit


def test_the_expansion_is_off_by_default_and_adds_only_its_own() -> None:
    host = load_ruleset("leaders-legacy")
    laid = load_ruleset("leaders-legacy", None, ["fame-and-fortune"])
    assert host.spec is not None and laid.spec is not None and host.build is not None and laid.build is not None
    assert "coin_tokens" not in host.spec.vocab.counters and "coin_tokens" in laid.spec.vocab.counters
    assert set(host.build.items) < set(laid.build.items)
    assert laid.spec.expansions and laid.spec.expansions[0][0] == "fame-and-fortune"
    # the base's menus end with the expansion's actions, after the base's own
    building = laid.spec.vocab.menus["building_action"]
    assert building[:len(host.spec.vocab.menus["building_action"])] == host.spec.vocab.menus["building_action"]
    assert {"strike_coin", "build_wonder", "fortify", "send_caravan", "place_great_person"} <= set(building)


def test_the_board_shows_the_market_relics_and_each_players_fortune() -> None:
    t = Table(3, seed=1)
    lines = "\n".join(board_lines(t.state, t.active))
    assert "wonder market:" in lines and "relics lying: Atlantis, School of Confucius, Seven Cities of Gold" in lines
    assert "great person markers left: 24" in lines and "investment markers: 0" in lines and "coins 0" in lines
    assert "great person markers: 0 on the map, 0 in reserve" in lines


def test_generated_code_and_the_closures_play_the_expansion_alike() -> None:
    """The hooks and the restriction run the same on both paths of the engine
    (interpreter/codegen.py and the closures): one seeded random game, decision by decision."""
    import random

    from legacies.interpreter.errors import Refused
    from legacies.interpreter.game import Game

    made, reference = (Game(spec(), 4, codegen=flag).new_state(11) for flag in (True, False))
    rng = random.Random(11)
    steps = 0
    while made.decision is not None and steps < 3000:
        assert made.decision.labels() == reference.decision.labels(), steps
        for pick in rng.sample(range(len(made.decision.options)), len(made.decision.options)):
            said = []
            for state in (made, reference):
                try:
                    state.apply(pick)
                    said.append("")
                except Refused as err:  # the rules refuse it on both paths alike, nothing changed
                    said.append(str(err))
            assert said[0] == said[1], (steps, said)
            if not said[0]:
                break
        steps += 1
    assert made.decision is None and reference.decision is None and made.fingerprint() == reference.fingerprint()
