"""Card text that read wrong (issue 34 §4), over the shipped Legacies' words: a clause
said twice in a row ("Until the generation ends: ... Until the generation ends: ..."), a
condition counted as 1 or 0 shown as a formula ("2 × (1 if that player is you, else
0)"). Each expected text is the new wording; the old one is in the comment beside it."""

from __future__ import annotations

import pytest

from legacies.dsl.parser import parse_program
from legacies.dsl.renderer import Wording, render_program
from legacies.pipeline.ruleset import load_ruleset


@pytest.fixture(scope="module")
def wording() -> Wording:
    result = load_ruleset("legacies")
    assert result.spec is not None
    return Wording.of(result.spec.vocab)


@pytest.mark.parametrize(("source", "expected"), [
    # was "Until the generation ends: extra gold when exploring is 5 more. Until the generation ends:
    # investment costs are 25% less (rounded up). Gain 1 fame."
    ("until generation_end: exploration_bonus + 5\nuntil generation_end: investment_cost * 75%\ngain 1 fame",
     "Until the generation ends: extra gold when exploring is 5 more and investment costs are 25% less "
     "(rounded up). Gain 1 fame."),
    ("if my fame > 2:\n    until generation_end: exploration_bonus + 5\n"
     "    until generation_end: investment_cost * 75%\n    gain 1 gold",
     "If you have at least 3 fame: until the generation ends: extra gold when exploring is 5 more and "
     "investment costs are 25% less (rounded up), then gain 1 gold."),
    # two different ends stay two clauses
    ("until generation_end: exploration_bonus + 5\nuntil century_end: investment_cost * 75%",
     "Until the generation ends: extra gold when exploring is 5 more. Until the century ends: investment "
     "costs are 25% less (rounded up)."),
    # was "they gain gold equal to 2 × (1 if that player is you, else 0)"
    ("for each P in players:\n    gain 2 * (1 if P is me else 0) gold for P",
     "For each player: they gain gold equal to 2 if that player is you, else 0."),
    # was "Gain gold equal to your fame + (1 if the first player in turn order is you, else 0)."
    ("gain my fame + (1 if top of players is me else 0) gold",
     "Gain gold equal to your fame, plus 1 if the first player in turn order is you."),
])
def test_card_text_says_each_clause_once_and_no_formula(wording: Wording, source: str, expected: str) -> None:
    assert render_program(parse_program(source), wording) == expected


@pytest.mark.parametrize(("ruleset", "expansion", "source", "expected"), [
    # was "Choose a wonder in wonders. Discard that wonder." (the zone `wonders_built` is labelled "wonders")
    ("leaders-legacy", "fame-and-fortune", "choose a wonder in wonders_built as W\ndiscard W",
     "Choose a wonder. Discard that wonder."),
    # was "Gain gold equal to the number of wonders in wonders."
    ("leaders-legacy", "fame-and-fortune", "let n be count of (wonders in wonders_built)\ngain n gold",
     "Gain gold equal to the number of wonders."),
    # a label that names a place stays: "in obsolete wonders"
    ("leaders-legacy", "fame-and-fortune", "choose a wonder in obsolete_wonders as W\ndiscard W",
     "Choose a wonder in obsolete wonders. Discard that wonder."),
    # was "Move the top of salon markers in your salon markers to the top of salons."
    ("legacies", "salons", "move top of (salon_markers in my salon_box) to top of salons",
     "Move the top of your salon markers to the top of salons."),
])
def test_a_zone_labelled_as_its_pieces_is_no_place(ruleset: str, expansion: str, source: str, expected: str) -> None:
    result = load_ruleset(ruleset, expansions=(expansion,))
    assert result.spec is not None
    assert render_program(parse_program(source), Wording.of(result.spec.vocab)) == expected


def test_a_counter_named_in_the_plural_takes_are() -> None:
    """A user's trial: Leader's Legacy's cards read "whose armies is more than 0": a
    counter whose label ends in a plural (one a number counts) is plural in a comparison,
    as a kind's plural and a counter set's were; "settlement" stays singular."""
    result = load_ruleset("leaders-legacy")
    assert result.spec is not None
    leaders = Wording.of(result.spec.vocab)
    said = render_program(parse_program("for each P in provinces where its armies > 0: lower P's armies by 1"),
                          leaders)
    assert "whose armies are more than 0" in said, said
    one = render_program(parse_program("for each P in provinces where its settlement > 2: lower P's armies by 1"),
                         leaders)
    assert "whose settlement is more than 2" in one, one
