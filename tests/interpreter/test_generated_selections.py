"""`KIND in ITEMS` in generated code (interpreter/codegen/expressions.py `_from_items`),
each of the three readings the checker chooses (dsl/check/collections.py): the members of
the kind, the pieces on each item (holders and tracks), or member by member when the
items' kind is not known. Once they were left to the closures, and a definition that read
one could not be kept; each must read as the closures read it (interpreter/selection.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from legacies.interpreter import sandbox
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.ruleset import load_ruleset

HOLDERS = Path(__file__).parent / "fixtures" / "holders"
SETUP = """move cards in hand of players to deck
move crates in deck to my table
move gadgets in deck to my hand
place my chip on top of (crates in my table)
place my chip on top of (crates in my table)
move top of (gadgets in my hand) to top of (crates in my table)
move top of (gadgets in my hand) to my table
"""


@pytest.fixture(scope="module")
def spec() -> GameSpec:
    result = load_ruleset("holders", HOLDERS)
    assert result.ok and result.spec is not None
    return result.spec


def _table(spec: GameSpec, codegen: bool) -> GameState:
    state = Game(spec, 2, codegen=codegen).new_state(1)
    sandbox.run(state, SETUP)
    return state


@pytest.mark.parametrize("source, reading", [
    ("chips in (crates in my table)", "the chips on each crate"),
    ("tokens in (crates in my table)", "the tokens on each crate"),
    ("gadgets in (crates in my table)", "the gadget on each crate"),
    ("crates in (cards in my table)", "the crates among the cards"),
    ("cards in (cards in my table)", "every card, a card being a card"),
    ("chips in (cards in my table)", "member by member: a crate gives its chips"),
    ("tokens in (cards in my table)", "member by member, by class"),
])
def test_each_reading_is_generated_and_reads_as_the_closures_do(spec: GameSpec, source: str, reading: str) -> None:
    made, reference = _table(spec, True), _table(spec, False)
    before = set(made.game.compiler.sources)
    value = sandbox.value(made, source)
    written = "".join(src for name, src in made.game.compiler.sources.items() if name not in before)
    assert written and not re.search(r"\b_c\d+\(", written), written  # generated, no closure
    assert value == sandbox.value(reference, source), reading
    lay, st = made.game.layout, made.st
    kinds = [lay.piece_def[p] for p in value]
    table = st.zones[lay.player_zone["table"]]
    on_crates = [p for c in table if c in lay.holder_zone for p in st.zones[lay.holder_zone[c]]]
    chips = [p for p in on_crates if p in lay.kind_pieces["chip"]]
    if source.startswith(("chips", "tokens")):
        assert value == chips and len(chips) == 2  # never the crates themselves
    elif source.startswith("gadgets"):
        assert len(value) == 1 and value[0] in on_crates
    elif source.startswith("crates"):
        assert value == [p for p in table if p in lay.kind_pieces["crate"]] and len(value) == 4
    else:
        assert value == table and len(set(kinds)) == 2  # the crates and the gadget on the table
