"""A card named by its id is a piece like any other (issue 34 §1): where a piece is read
(what it holds, its counters and values, its effect, who owns it, what holds it), a card
of one copy named in source is that copy: `cubes in engine_clock`, `play overclock`.
Before, each was E202 "found a ... card name" with no hint. A card of several copies is
still no one piece: E202 with the way to choose one (its counters: E203, each copy has its
own, tests/interpreter/test_holders.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from legacies.dsl.diagnostics import DiagnosticError
from legacies.interpreter import sandbox
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

HOLDERS = Path(__file__).parent / "fixtures" / "holders"
MORE = """
  - {id: engine_clock, kind: crate, name: Engine Clock}
  - {id: overclock, kind: gadget, name: Overclock, effect: "gain 2 points"}
  - {id: dynamo, kind: crate, name: Dynamo, copies: 3, effect: "raise this's charge by 1"}
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    root = tmp_path_factory.mktemp("ruleset") / "holders"
    shutil.copytree(HOLDERS, root)
    pieces = root / "content" / "holders" / "pieces.yaml"
    pieces.write_text(pieces.read_text().rstrip("\n") + MORE)
    result = load_ruleset("holders", root)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return result.spec


@pytest.fixture()
def state(spec) -> GameState:
    return Game(spec, 2).new_state(1)


def test_a_card_named_by_its_id_is_its_only_copy(state) -> None:
    sandbox.run(state, "move engine_clock to my table\nmove overclock to engine_clock\n"
                       "place my chip on engine_clock\nraise engine_clock's charge by 2\n"
                       "set engine_clock's marked_by to me\nplay overclock", player=0)
    v = lambda text: sandbox.value(state, text, 0)  # noqa: E731
    assert v("count of (chips in engine_clock)") == 1
    assert v("count of (cards in engine_clock)") == 2
    assert v("engine_clock is not empty") is True
    assert v("holder of overclock") == v("top of (crates in my table)")
    assert v("engine_clock's charge") == 2
    assert v("engine_clock's marked_by is me") is True
    assert v("owner of engine_clock is me") is True
    assert v("my points") == 2  # `play overclock` ran its effect


@pytest.mark.parametrize("source", ["count of (gadgets in box_crate)", "box_crate is empty", "play box_crate"])
def test_a_card_of_several_copies_is_no_one_piece(state, source: str) -> None:
    with pytest.raises(DiagnosticError) as err:
        sandbox.run(state, source, player=0) if source.startswith("play") else sandbox.value(state, source, 0)
    [d] = err.value.diagnostics
    assert d.code == "E202" and "4 copies" in d.message
    assert d.hint == "choose one of them: `top of (cards in ZONE where it is box_crate)`"


def test_try_as_a_seat_plays_that_seats_copy(spec) -> None:
    """`try dynamo` as P3 played the first copy of the card (in the deck, or P1's), not
    the one P3 has on the table: P3's own Dynamo is the one charged now."""
    from legacies.agents.trial import Scenario, run_trial
    scenario = Scenario(players=3, seat=3, before="move cards in hand of players to deck\n"
                        "move top of (crates in deck where it is dynamo) to my table\n"
                        "move top of (crates in deck where it is dynamo) to table of (player after me)")
    trial = run_trial(spec, "dynamo", scenario)
    assert sandbox.value(trial.state, "count of (crates in my table where its charge = 1)", 2) == 1
    assert sandbox.value(trial.state, "total charge of (crates in table of players)", 2) == 1
    assert len(trial.changes) == 1 and trial.changes[0].endswith("charge: 0 -> 1"), trial.changes
