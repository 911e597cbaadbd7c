"""Statements the code generator writes itself (interpreter/codegen/statements.py) where it
once called the closures: a change of a piece's own counter (`raise X's level by 1`) and a
`for each` loop whose body reads its name only as a Python local. The game must be the
same as the closures play it, names left in the effect's table included (a state's
fingerprint reads them), and an error the same error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from legacies.interpreter.errors import InternalError
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.spec import GameSpec
from legacies.interpreter.vm import Activation, BlockFrame

from tables import STATIONS_RULESET, compile_effect, small_ruleset

RULESET = STATIONS_RULESET
PROCEDURES = """\
format: 2
actions:
  rest:
    label: Rest
    do: gain 1 points
game: |
  take turns:
      perform one of rest
"""
ITEMS = """\
  - {id: north, kind: station, name: North}
  - {id: south, kind: station, name: South}
  - {id: east, kind: station, name: East}
  - {id: urn, kind: relic, name: Urn, copies: 3}
  - {id: crown, kind: relic, name: Crown}
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> GameSpec:
    return small_ruleset(tmp_path_factory.mktemp("stations"), "stations", RULESET, PROCEDURES, ITEMS)


def _run(spec: GameSpec, source: str, codegen: bool) -> tuple[GameState, Activation, set[str]]:
    """`source` run as P1 in a new game (on generated code or on the closures): the game,
    the effect's activation (its table of names) and the generated functions it made."""
    game = Game(spec, 2, codegen=codegen)
    state = game.new_state(4)
    before = set(game.compiler.sources)
    code = compile_effect(game, source)
    made = {src for name, src in game.compiler.sources.items() if name not in before}
    st = state.st
    st.pending = None
    act = Activation(st, 0)
    st.frames = [BlockFrame(code, act)]
    st.run()
    return state, act, made


def _run_both(spec: GameSpec, source: str) -> list[tuple[GameState, Activation, set[str]]]:
    return [_run(spec, source, codegen) for codegen in (True, False)]


def test_a_pieces_own_counter_changed_in_a_loop_is_generated_and_plays_as_the_closures_do(spec: GameSpec) -> None:
    source = "for each X in stations:\n    raise X's level by 2\nfor each Y in stations where its level > 4:\n" \
             "    lower Y's level by 1\n    gain 1 points\n"
    (made, made_act, written), (reference, reference_act, _) = _run_both(spec, source)
    lay = made.game.layout
    levels = [made.st.counters[lay.counter_slots("level")[pid]] for pid in lay.kind_pieces["station"]]
    assert levels == [4, 4, 4]  # 3 + 2 = 5, then above 4: lowered by 1
    assert made.st.counters == reference.st.counters and made.st.counters[lay.player_counter["points"]] == 3
    # the loop's names left in the table as the closures leave them: the last station
    assert made_act.env == reference_act.env == {"X": lay.kind_pieces["station"][-1],
                                                 "Y": lay.kind_pieces["station"][-1]}
    assert made.fingerprint() == reference.fingerprint()
    block = "".join(written)
    assert block and not re.search(r"\b_c\d+\(", block), block  # no closure called for the slot
    assert "env['X'] = " in block and "for " in block  # the name is set once, after the loop


def test_a_loop_whose_body_reads_the_table_sets_its_name_each_time_round(spec: GameSpec) -> None:
    """A `log` with a `{X}` part reads the name from the table, in a closure: the name is
    set there before each statement, as the closures set it."""
    (made, _, written), (reference, _, _) = _run_both(spec, 'for each X in stations:\n    log "{X} rises"\n'
                                                            "    raise X's level by 1\n")
    lines = made.st.log.tolist()[-3:]
    assert lines == reference.st.log.tolist()[-3:] == ["North rises", "South rises", "East rises"]
    assert made.fingerprint() == reference.fingerprint()
    assert re.search(r"for (_t\d+) in _t\d+:\n +env\['X'\] = \1\n", "".join(written))


def test_a_cards_own_counter_off_the_table_is_the_same_error_both_ways(spec: GameSpec) -> None:
    errors = []
    for codegen in (True, False):
        with pytest.raises(InternalError) as raised:
            _run(spec, "for each C in relics in deck:\n    raise C's charge by 1\n", codegen)
        errors.append(str(raised.value))
    assert errors[0] == errors[1]
    assert "is not on the table, so its `charge` cannot change" in errors[0]


def test_a_cards_own_counter_on_the_table_changes(spec: GameSpec) -> None:
    for state, _, _ in _run_both(spec, "move top of relics in deck to my shelf\n"
                                       "for each C in relics in my shelf:\n    raise C's charge by 12\n"):
        lay, st = state.game.layout, state.st
        on_shelf = st.zones[lay.player_zone["shelf"]]
        assert len(on_shelf) == 1
        assert st.counters[lay.counter_slots("charge")[on_shelf[0]]] == 9  # stops at its max


def test_a_card_named_in_source_is_its_only_copy_in_generated_code(spec: GameSpec) -> None:
    """`crown` names the one piece of a card of one copy: generated as that piece."""
    (made, _, written), (reference, _, _) = _run_both(spec, "move crown to my shelf\nraise crown's charge by 2\n")
    lay = made.game.layout
    crown = lay.def_pieces[lay.def_index["crown"]][0]
    assert made.st.counters[lay.counter_slots("charge")[crown]] == 2
    assert made.fingerprint() == reference.fingerprint()
    assert not re.search(r"\b_c\d+\(", "".join(written))


def test_a_transfer_that_asks_nothing_is_generated_and_plays_as_the_closures_do(spec: GameSpec) -> None:
    """Between two players' counters and from a piece's own counter: written in place (no
    closure called), the same counters, the same changes counted."""
    source = "gain 2 points\nlet P be top of opponents\ntransfer 2 from my points to P's points\n" \
             "transfer 2 from north's level to my points\n"  # each down to its least: allowed
    (made, _, written), (reference, _, _) = _run_both(spec, source)
    lay, st = made.game.layout, made.st
    points = lay.player_counter["points"]
    north = lay.def_pieces[lay.def_index["north"]][0]
    assert st.counters[points:points + 2] == [2, 2]  # 2 - 2 + 2, and the opponent's 2
    assert st.counters[lay.counter_slots("level")[north]] == 1
    assert st.counters == reference.st.counters
    assert made.fingerprint() == reference.fingerprint()
    block = "".join(written)
    assert "not enough to transfer" in block and not re.search(r"\b_c\d+\(", block), block


@pytest.mark.parametrize("source", ["transfer 1 from my points to P's points",
                                    "transfer 3 from north's level to my points"])
def test_a_transfer_of_more_than_there_is_is_the_same_refusal_both_ways(spec: GameSpec, source: str) -> None:
    """Below the source's least (0 points; a level's min of 1): refused as the closures
    refuse it (the rules' own statement, not a player's option: told as their mistake)."""
    refusals = []
    for codegen in (True, False):
        with pytest.raises(InternalError) as raised:
            _run(spec, "let P be top of opponents\n" + source + "\n", codegen)
        refusals.append(str(raised.value))
    assert refusals[0] == refusals[1]
    assert "refused their own statement (not enough to transfer" in refusals[0]
