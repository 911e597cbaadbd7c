"""Collections the code generator once left to the closures (a definition that read one
could not be kept across menus), each written now and read as the closures read it:
`KIND in ITEMS` in each of the three readings the checker chooses (dsl/check/collections.py:
the members of the kind, the pieces on each item, member by member when the items' kind is
not known; interpreter/selection.py), `top of` / `bottom of` pieces selected from a zone,
and the players around one in the turn order (`players after P`, `player before P`)."""

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


def _generated_value(spec: GameSpec, source: str, players: int = 2) -> tuple[object, object, str]:
    """`source`'s value on generated code and on the closures, and the code it was written as."""
    made, reference = (Game(spec, players, codegen=c).new_state(1) for c in (True, False))
    for state in (made, reference):
        sandbox.run(state, SETUP)
    before = set(made.game.compiler.sources)
    value = sandbox.value(made, source)
    written = "".join(src for name, src in made.game.compiler.sources.items() if name not in before)
    return value, sandbox.value(reference, source), written


@pytest.mark.parametrize("source, expected", [
    ("top of (crates in my table)", lambda table, crates: crates[-1]),
    ("bottom of (crates in my table)", lambda table, crates: crates[0]),
    ("top 2 of (crates in my table)", lambda table, crates: [crates[-1], crates[-2]]),
    ("bottom 3 of (crates in my table)", lambda table, crates: crates[:3]),
    ("top 0 of (crates in my table)", lambda table, crates: []),
])
def test_the_top_of_pieces_selected_from_a_zone_is_generated(spec: GameSpec, source: str, expected) -> None:
    made, reference, written = _generated_value(spec, source)
    assert not re.search(r"\b_c\d+\(", written), written
    state = _table(spec, False)
    lay = state.game.layout
    table = state.st.zones[lay.player_zone["table"]]
    assert made == reference == expected(table, [p for p in table if p in lay.kind_pieces["crate"]])


def test_the_top_of_an_empty_selection_is_the_same_error_both_ways(spec: GameSpec) -> None:
    errors = []
    for codegen in (True, False):
        state = _table(spec, codegen)
        with pytest.raises(Exception) as raised:
            sandbox.value(state, "top of (gadgets in deck)")
        errors.append(str(raised.value))
    assert errors[0] == errors[1] and "there is no top piece: none is selected" in errors[0]


@pytest.mark.parametrize("source, expected", [
    ("players after me", [1, 2]), ("players before me", []), ("players starting with me", [0, 1, 2]),
    ("player after me", 1), ("player before me", 2), ("players after (player after me)", [2]),
    ("players starting with (player before me)", [2, 0, 1]),
])
def test_the_players_around_one_are_read_from_the_turn_order(spec: GameSpec, source: str, expected) -> None:
    made, reference, written = _generated_value(spec, source, players=3)
    assert not re.search(r"\b_c\d+\(", written), written
    assert made == reference == expected
