"""E217: setup and the game procedure run for nobody; `me`, `my ...`, a bare player
counter, a choice or an action menu there is refused before anything runs, and
`take turns:` / `as P:` / `for each ... for P` give the player back."""

from __future__ import annotations

import pytest

from legacies.dsl.checker import Context, check
from legacies.dsl.parser import parse_program
from legacies.pipeline.ruleset import load_ruleset


@pytest.fixture(scope="module")
def vocab():
    return load_ruleset("legacy").spec.vocab


@pytest.mark.parametrize("source", [
    "gain 2 points",
    "let x be my points",
    "let x be count of cards in my hand",
    "let x be points",
    "for each P in opponents:\n    gain 1 points for P",
    "choose a card in legacy_deck as C",
    "choose one:\n    \"a\": log \"a\"\n    \"b\": log \"b\"",
    "may:\n    log \"x\"",
    "perform one of take_legacy",
    "draw 2 from legacy_deck",
])
def test_no_player_acts_in_the_game_procedure(vocab, source: str) -> None:
    diags, _ = check(parse_program(source), vocab, Context(allow_flow=True))
    assert [d.code for d in diags] == ["E217"], [d.headline() for d in diags]


@pytest.mark.parametrize("source", [
    "for each P in players:\n    gain 1 points for P",
    "take turns:\n    gain 1 points\n    perform one of take_legacy",
    "for each P in players:\n    as P:\n        may:\n            gain 1 points",
    "draw 2 from legacy_deck to hand of top of players",
])
def test_a_player_is_given_back(vocab, source: str) -> None:
    diags, _ = check(parse_program(source), vocab, Context(allow_flow=True))
    assert diags == []
