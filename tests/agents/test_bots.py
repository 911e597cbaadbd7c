"""Bots: legal, deterministic, and the search bot prefers what wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.agents.bots import RandomBot, RolloutBot
from legacies.agents.match import play_match
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset

TINY = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "tiny"


@pytest.fixture(scope="module")
def tiny():
    return load_ruleset("tiny", TINY).spec


def test_random_bot_is_seeded(tiny) -> None:
    s = Game(tiny, 2).new_state(0)
    picks_a = [RandomBot(5).choose(s) for _ in range(3)]
    picks_b = [RandomBot(5).choose(s) for _ in range(3)]
    assert picks_a == picks_b
    assert all(0 <= p < len(s.decision.options) for p in picks_a)


def test_rollout_bot_never_picks_an_option_the_rules_refuse(tiny) -> None:
    s = Game(tiny, 2).new_state(0)
    labels = s.decision.labels()
    assert "Pay 100 gold for a point" in labels and "Count to a million" not in labels
    picks = {labels[RolloutBot(seed=seed, rollouts=4).choose(s)] for seed in range(4)}
    assert picks and "Pay 100 gold for a point" not in picks  # refused by the rules
    assert s.decision.labels() == labels  # choosing does not touch the game


def test_matches_are_reproducible() -> None:
    spec = load_ruleset("legacy").spec
    a = play_match(spec, ["rollout", "random"], seed=4)
    b = play_match(spec, ["rollout", "random"], seed=4)
    assert a.log == b.log and a.scores == b.scores
    assert a.state is not None and a.state.is_terminal()
