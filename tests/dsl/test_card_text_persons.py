"""Card text names the right player (issue 34, section 4): inside a block another player
plays (`as P:`, each opponent's or a chosen player's decision, each turn of `take turns`)
`me`/`my` are that player, so the text says "they"/"their"/"them" there, never "you"/
"your" (on a card, its owner). Before: "that opponent decides: choose a card in your
hand"; now "that opponent chooses a card in their hand".

And a `let` is computed where it is written: `let n be my coins` / `gain 2 coins` /
`gain n points` read "gain points equal to your coins" (the coins after the gain); now
the amount is noted where the `let` stands and read as "the noted amount".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from legacies.dsl.parser import parse_program
from legacies.dsl.english import third_singular
from legacies.dsl.render.persons import third_person
from legacies.dsl.renderer import render_program
from legacies.dsl.wording import Wording
from legacies.pipeline.ruleset import load_ruleset

WINDOWS = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "windows"
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "card_text.txt"


@pytest.fixture(scope="module")
def wording() -> Wording:
    spec = load_ruleset("windows", WINDOWS).spec
    assert spec is not None
    return Wording.of(spec.vocab)


def _text(source: str, wording: Wording) -> str:
    return render_program(parse_program(source), wording)


@pytest.mark.parametrize(("source", "card"), [
    # the example: each opponent's decision (was "that opponent decides: choose a card in your hand")
    ("for each P in opponents:\n    as P:\n        choose a card in my hand as C\n        discard C",
     "For each opponent: that opponent chooses a card in their hand, then they discard that card."),
    # counters and conditions: "they have", not "you have"
    ("for each P in opponents:\n    as P:\n        if my coins >= 2:\n            pay 2 coins\n"
     "        draw 1 from deck to my hand",
     "For each opponent: that opponent decides: (if they have at least 2 coins: they pay 2 coins), then they "
     "draw 1 card from the deck into their hand."),
    # a chosen player decides
    ("choose one of opponents as O\nas O:\n    lose 1 coins\n    gain 1 points",
     "Choose an opponent. That opponent loses 1 coin, then they gain 1 point."),
    # one player named by an expression
    ("as top of opponents:\n    gain 1 points", "The first opponent in turn order gains 1 point."),
    # the outer player keeps the designer's word
    ("let writer be me\nfor each P in opponents:\n    as P:\n        transfer 2 from writer's coins to my coins",
     "For each opponent: that opponent takes 2 coins from the writer."),
    # steps of "may", of an option and of "do this" stay orders once the subject is said
    ("for each P in opponents:\n    as P:\n        may:\n            pay 1 coins\n            gain 1 points",
     "For each opponent: that opponent may: pay 1 coin, then gain 1 point."),
    ("for each P in players:\n    as P:\n        choose one:\n            \"keep your coins\": gain 1 points\n"
     "            \"pay\" if my coins > 0: pay 1 coins",
     "For each player: that player chooses one — • keep their coins: gain 1 point. • pay (only if they have at "
     "least 1 coin): pay 1 coin."),
    ("as top of opponents:\n    repeat 2 times:\n        gain 1 coins",
     "The first opponent in turn order does this twice: gain 1 coin."),
    # after a clause about someone else, the acting player is named again
    ("for each P in opponents:\n    as P:\n        gain 1 points for owner of this\n        lose 1 coins",
     "For each opponent: that opponent decides: this card's owner gains 1 point, then that opponent loses 1 coin."),
    # nested: an opponent's decision inside a player's; their opponents are theirs
    ("for each P in players:\n    as P:\n        for each Q in opponents:\n            as Q:\n"
     "                lose 1 coins\n        gain 1 points",
     "For each player: that player decides: (for each of their opponents: that opponent loses 1 coin), then "
     "that player gains 1 point."),
    # each turn of `take turns` is played by the player whose turn it is
    ("take turns until final_round:\n    gain 1 coins\n    if my coins > 5:\n        gain 1 points",
     "Take turns until this is the final round: each turn, the player whose turn it is gains 1 coin, then if "
     "they have at least 6 coins: they gain 1 point."),
    # the acting player wins
    ("for each P in opponents:\n    as P:\n        if my coins > 9:\n            end the game with me as the winner",
     "For each opponent: that opponent decides: if they have at least 10 coins: the game ends now: they win."),
])
def test_another_players_decision_names_them_in_the_third_person(source: str, card: str, wording: Wording) -> None:
    assert _text(source, wording) == card


def test_the_card_owner_is_still_you_outside_the_block(wording: Wording) -> None:
    text = _text("gain 1 coins\nfor each P in opponents:\n    as P:\n        gain 1 points\ngain 1 points", wording)
    assert text == "Gain 1 coin. For each opponent: that opponent gains 1 point. Gain 1 point."


@pytest.mark.parametrize(("source", "card"), [
    # the related bug: n is the coins before the gain
    ("let n be my coins\ngain 2 coins\ngain n points",
     "Note how many coins you have. Gain 2 coins. Gain points equal to the noted amount."),
    # a loop's second pass reads the value its first pass changed
    ("let n be my coins\nrepeat 2 times:\n    gain n coins",
     "Note how many coins you have. Do this twice: gain coins equal to the noted amount."),
    # a count of pieces, then a draw
    ("let n be count of cards in my hand\ndraw 2 from deck to my hand\ngain n points",
     "Note the number of cards in your hand. Draw 2 cards from the deck into your hand. Gain points equal to "
     "the noted amount."),
    # `my coins` used inside another player's block would read "their coins"
    ("let n be my coins\nfor each P in opponents:\n    as P:\n        gain n points",
     "Note how many coins you have. For each opponent: that opponent gains points equal to the noted amount."),
])
def test_a_let_read_after_a_change_reads_as_the_amount_noted(source: str, card: str, wording: Wording) -> None:
    assert _text(source, wording) == card


@pytest.mark.parametrize(("source", "card"), [
    # nothing changed in between: worded in place, as before
    ("let n be my coins\ngain n points\ngain 1 coins", "Gain points equal to your coins. Gain 1 coin."),
    # each branch reads it before its own change
    ("let n be my coins\nchoose one:\n    \"win\": gain n coins\n    \"lose\": lose n coins",
     "Choose one — • win: gain coins equal to your coins. • lose: lose coins equal to your coins."),
    # a change to something else
    ("let n be my coins\ngain 2 points\ngain n points",
     "Gain 2 points. Gain points equal to your coins."),
])
def test_a_let_nothing_changed_reads_as_what_it_stands_for(source: str, card: str, wording: Wording) -> None:
    assert _text(source, wording) == card


def test_pronouns_and_verbs() -> None:
    assert third_person('if you have 2 coins, give 2 coins to you: "your turn", your coins') == \
        'if they have 2 coins, give 2 coins to them: "your turn", their coins'
    assert third_person("for each other player in turn order, after you: as many times as you like") == \
        "for each other player in turn order, after them: as many times as they like"
    assert [third_singular(v) for v in ("choose", "pay", "carry", "push", "have", "do", "may", "discard")] == \
        ["chooses", "pays", "carries", "pushes", "has", "does", "may", "discards"]


def test_no_shipped_decision_of_another_player_says_you() -> None:
    """Every shipped card text: after another player's decision begins ("that player
    decides:", "that opponent chooses"), no "you"/"your" up to the end of its paragraph."""
    start = re.compile(r"\b(decides:|(that|the) (opponent|player)( of [a-z ]+)? (chooses|gains|loses|pays|gives|"
                       r"draws|may|does) )")
    wrong = []
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        m = start.search(line)
        if m and re.search(r"\byour?\b", line[m.end():]):
            wrong.append(line.strip())
    assert not wrong, "\n".join(wrong)
    assert sum(1 for line in GOLDEN.read_text(encoding="utf-8").splitlines() if start.search(line)) >= 15
