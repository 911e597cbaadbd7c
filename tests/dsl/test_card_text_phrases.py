"""Card text in a ruleset's own words reads as a printed card (docs/card-text.md), on
the neutral windows fixture (a `coins` counter, `points`, a game `deck`, the actions
Block and Echo): what a player has, "up to" for a minimum, numbers before nouns, a
number and its noun agreeing, zones of the game with "the", actions by their labels, one
era's value at the table. Each phrase is one of issue 21's ("if your coins is 7, 8 or 9",
"Gain that number coins", "1 points", "Transfer the lowest of 3 and ...")."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from legacies.dsl.parser import parse_program
from legacies.dsl.renderer import render_program
from legacies.dsl.wording import Wording
from legacies.pipeline.ruleset import load_ruleset

WINDOWS = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "windows"


@pytest.fixture(scope="module")
def wording() -> Wording:
    spec = load_ruleset("windows", WINDOWS).spec
    assert spec is not None
    return Wording.of(spec.vocab)


@pytest.mark.parametrize(("source", "card"), [
    ("if my coins is in [7, 8, 9]:\n    gain 1 points", "If you have 7, 8 or 9 coins: gain 1 point."),
    ("if my coins >= 2:\n    gain 2 points", "If you have at least 2 coins: gain 2 points."),
    ("if my coins > 0:\n    lose 1 coins", "If you have at least 1 coin: lose 1 coin."),
    ("if my coins = 0:\n    gain 1 coins", "If you have no coins: gain 1 coin."),
    ("choose a number from 0 to 3 as N\ngain N coins", "Choose a number from 0 to 3. Gain that many coins."),
    ("draw 1 from deck", "Draw 1 card from the deck."),
    ("for each P in players where its coins > 0:\n    gain 1 points for P",
     "For each player who has at least 1 coin: they gain 1 point."),
    ("for each P in opponents:\n    transfer min(2, P's coins) from P's coins to my coins",
     "For each opponent: take up to 2 coins from that opponent."),
    ("let rival be top of (opponents ordered by its coins descending)\ntransfer 1 from my coins to rival's coins",
     "Give 1 coin to the opponent with the most coins."),
    ("repeat min(3, count of cards in my hand) times:\n    gain 1 coins",
     "Do this once for each card in your hand (at most 3 times): gain 1 coin."),
    ("gain 2 if my coins > 3 else 1 points", "Gain 2 points if you have at least 4 coins, otherwise 1 point."),
    ("gain min(5, count of cards in my hand) points", "Gain points equal to the number of cards in your hand, at most 5."),
    ("choose a number from 0 to min(3, my coins) as N\ngain N points",
     "Choose a number from 0 to 3 (no more than your coins). Gain that many points."),
    ("perform up to one of block", "You may block."),
    ("offer block, echo to opponents", "Your opponents may respond in turn with Block or Echo (each may pass; after "
                                       "a response the others may respond again)."),
])
def test_card_text_reads_in_the_rulesets_words(wording: Wording, source: str, card: str) -> None:
    assert render_program(parse_program(source), wording) == card


def test_at_the_table_an_era_value_is_this_eras(wording: Wording) -> None:
    program = parse_program("gain 1/2/3 coins")
    assert render_program(program, wording) == "Gain 1 / 2 / 3 coins."
    assert render_program(program, replace(wording, era=1)) == "Gain 1 coin."
    assert render_program(program, replace(wording, era=3)) == "Gain 3 coins."
