"""The language server completes by context (cli/lsp/complete.py): the names that fit
where the cursor stands, not the same 760 names everywhere (issue 17), and goes to the
declaration of a kind's plural."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.cli.lsp.check import Check, check_document
from legacies.cli.lsp.complete import completions
from legacies.cli.lsp.query import declared

REPO = Path(__file__).resolve().parents[2]
CARDS = REPO / "content" / "legacies" / "cards_i.yaml"
FLOW = REPO / "rules" / "legacies" / "flow.yaml"


@pytest.fixture(scope="module")
def check() -> Check:
    return check_document(CARDS, {CARDS: CARDS.read_text(encoding="utf-8")})


def names_at(check: Check, path: Path, text: str, needle: str, before: str) -> set[str]:
    """Completion with the cursor just after `before` inside the first line holding `needle`."""
    lines = text.split("\n")
    n = next(i for i, line in enumerate(lines) if needle in line)
    column = lines[n].index(needle) + len(before)
    return {name.name for name in completions([check], path, text, n, column)}


def edited(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def test_each_place_offers_what_fits_there(check: Check) -> None:
    text = CARDS.read_text(encoding="utf-8")
    everything = {n.name for n in completions([check])}
    assert len(everything) > 700
    statement = names_at(check, CARDS, text, "choose an industry as X", "")
    assert {"gain", "choose", "move", "put_in_play"} <= statement and "gold" not in statement
    collection = names_at(check, CARDS, text, "choose an industry as X", "choose an ")
    assert {"industry", "industries", "characters", "resource"} <= collection and "gain" not in collection
    assert "C1003" not in collection and len(collection) < 80
    mine = names_at(check, CARDS, edited(text, "choose an industry as X", "gain my fame fame"), "gain my fame", "gain my ")
    assert {"gold", "fame", "hand", "character", "relationship_token"} <= mine and "industry" not in mine
    counter = names_at(check, CARDS, edited(text, "choose an industry as X", "gain 2 gold"), "gain 2 gold", "gain 2 ")
    assert "gold" in counter and "industries" not in counter and "C1003" not in counter
    zone = names_at(check, CARDS, edited(text, "choose an industry as X", "draw 1 from deck_i"), "draw 1 from",
                    "draw 1 from ")
    assert "deck_i" in zone and "gain" not in zone
    event = names_at(check, CARDS, edited(text, "choose an industry as X", "announce century_end"), "announce",
                     "announce ")
    assert event == set(check.build.vocab.events)
    assert len({frozenset(s) for s in (statement, collection, mine, counter, zone, event)}) == 6  # never the same


def test_the_yaml_around_offers_kinds_attributes_and_their_values(check: Check) -> None:
    text = CARDS.read_text(encoding="utf-8")
    kinds = names_at(check, CARDS, text, "kind: player_card", "kind: ")
    assert kinds == set(check.build.vocab.kinds)
    vocab = check.build.vocab
    attributes = names_at(check, CARDS, text, "century: 1", "")
    assert attributes == set(vocab.kinds["player_card"].attributes)
    industries = names_at(check, CARDS, edited(text, "century: 1", "industry: "), "industry: ", "industry: ")
    assert industries == {i for i, k in vocab.content.items() if k == "industry"}
    assert names_at(check, CARDS, text, "- id: C1003", "- ") == set()  # the schema's, not ours


def test_in_a_rules_file_the_procedures_text_is_effect_text() -> None:
    text = FLOW.read_text(encoding="utf-8")
    check = check_document(FLOW, {FLOW: text})
    assert {"sort", "end_generation"} <= names_at(check, FLOW, text, "sort turn order by its foundation", "")


def test_a_kinds_plural_goes_to_its_declaration(check: Check) -> None:
    """`industries` went nowhere (or to a label)."""
    place = declared([check], "industries")
    assert place is not None and place.path.name == "ruleset.yaml"
    assert place.path.read_text(encoding="utf-8").split("\n")[place.line].strip() == "plural: industries"
    kind = declared([check], "industry")
    assert kind is not None and kind.path.read_text(encoding="utf-8").split("\n")[kind.line].strip() == "industry:"


def test_play_lose_and_an_actions_choose_offer_what_fits_there(check: Check) -> None:
    """Issue 34: after `play ` the cards; after `lose ` (and `gain `, `pay `) what a number
    can be; an action's `choose:` starts with a collection, never a statement."""
    text = CARDS.read_text(encoding="utf-8")
    played = names_at(check, CARDS, edited(text, "choose an industry as X", "play C1005"), "play C1005", "play ")
    assert {"C1003", "C1005"} <= played and "gain" not in played and "gold" not in played
    assert "politician" not in played  # a character, not a card one plays
    lost = names_at(check, CARDS, text, "lose 1 fame for P", "lose ")
    assert {"my", "count", "gold", "fame"} <= lost and not lost & {"C1003", "industries", "hand", "gain"}
    rules = FLOW.parent / "actions.yaml"
    actions = check_document(rules, {rules: rules.read_text(encoding="utf-8")})
    chosen = names_at(actions, rules, rules.read_text(encoding="utf-8"), "choose: player_cards in my hand",
                      "choose: ")
    assert {"player_cards", "industries", "characters"} <= chosen and "gain" not in chosen and "choose" not in chosen


def test_a_rules_files_fields_offer_what_they_name() -> None:
    """A hook's `after:` the procedures and actions, `menus:` the menus, a parameter's
    type the types with the ruleset's kinds filled in."""
    rules = FLOW.parent / "actions.yaml"
    text = rules.read_text(encoding="utf-8")
    hooked = text + "\nextra:\n  a_hook:\n    after: play_player_card\n"  # below every effect of the file
    check = check_document(rules, {rules: text})
    after = names_at(check, rules, hooked, "after: play_player_card", "after: ")
    assert {"play_player_card", "play_card"} <= after and "gold" not in after
    menus = names_at(check, rules, text, "menus: [turn_action]", "menus: [")
    assert "turn_action" in menus and "play_card" not in menus
    typed = names_at(check, rules, text, 'params: {K: "kind:character"}', "params: {K: ")
    assert {"number", "player", "kind:character", "kind:industry"} <= typed and "gain" not in typed
