"""Card text names who acts: a clause after one whose subject is another player ("they
lose 1 gem") says "you" again when the acting player does it. Issue 17: a character's
action read "they lose 1 gem, then gain 5 gold" while the acting player gained."""

from __future__ import annotations

import re

import pytest

from legacies.dsl.parser import parse_program
from legacies.dsl.renderer import render_program
from legacies.pipeline.explain import card_texts


def render(source: str) -> str:
    return render_program(parse_program(source))


@pytest.mark.parametrize(("source", "expected"), [
    ("for each P in opponents:\n    lose 1 gem for P\n    gain 5 gold",
     "For each opponent: they lose 1 gem, then you gain 5 gold."),
    ("for each P in opponents:\n    lose 1 gem for P\n    gain 5 gold for P",
     "For each opponent: they lose 1 gem, then they gain 5 gold."),
    ("for each P in opponents:\n    gain 5 gold\n    lose 1 gem for P",  # the acting player first: no "you"
     "For each opponent: gain 5 gold, then they lose 1 gem."),
    ("for each P in opponents:\n    lose 1 gem for P\n    choose a card in my hand as C\n    discard C",
     "For each opponent: they lose 1 gem, then you choose a card in your hand, then discard that card."),
    ("auction among players for gold as W and B\nif W is not nobody:\n    gain 2 fame for W\n    pay 1 gold",
     "Hold an auction among every player for gold: the highest bidder pays their bid. If the winner is not "
     "nobody: they gain 2 fame, then you pay 1 gold."),
    ("as top of opponents:\n    gain 1 fame",  # inside `as P:` the order is that player's, said of them
     "The first opponent in turn order gains 1 fame."),
])
def test_the_subject_of_each_clause_is_who_acts(source: str, expected: str) -> None:
    assert render(source) == expected


# a clause whose subject is another player, then a bare order in the same sentence
_WRONG = re.compile(r"\b(they (gain|lose|pay)|gains|loses|pays)\b[^.:;(]*, then (gain|lose|pay|draw|move|choose|place) ")


@pytest.mark.parametrize("ruleset", ["legacies", "legacy"])
def test_no_shipped_card_text_leaves_the_acting_player_unnamed(ruleset: str) -> None:
    wrong = [f"{item}: {text}" for item, text in card_texts(ruleset, None).items() if _WRONG.search(text)]
    assert not wrong, "\n".join(wrong)
