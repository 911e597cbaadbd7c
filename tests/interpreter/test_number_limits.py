"""The engine's limit on the size of numbers (dsl/numbers.py, issue 22): a number that
would grow without end stops the game at the statement that made it, quickly, with the
game as it was; a number written past the limit is a located diagnostic; loops and
choices driven by a number stay bounded."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from legacies.dsl.numbers import MAX_NUMBER, size_words, written
from legacies.dsl.parser import SyntaxErrors, parse_program
from legacies.interpreter import mechanics, sandbox
from legacies.interpreter.errors import ContentError, GameError, InternalError
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

NUMBERS = Path(__file__).parent / "fixtures" / "numbers"
BIG = MAX_NUMBER  # 999,999,999,999,999


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("numbers", NUMBERS)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return result.spec


@pytest.fixture
def state(spec) -> GameState:
    return Game(spec, 2).new_state(0)


def counter(state: GameState, name: str, player: int | None = 0) -> int:
    lay = state.game.layout
    slot = lay.game_counter[name] if player is None else lay.player_counter[name] + player
    return state.st.counters[slot]


def test_squaring_in_a_loop_stops_at_the_statement_quickly_and_undoes_the_action(spec) -> None:
    state = Game(spec, 2, {"runaway": True}).new_state(0)
    before = state.fingerprint()
    started = time.process_time()
    with pytest.raises(InternalError) as caught:
        state.apply_label("Square the pile")  # set pile to pile * pile, 40 times: 2^(2^40) unbounded
    assert time.process_time() - started < 1.0
    err = caught.value
    assert not isinstance(err, GameError), "a runaway number is a content bug, never a refusal"
    assert "past the engine's limit" in str(err) and "999,999,999,999,999" in str(err)
    assert err.where is not None and err.where.file.endswith("numbers/procedures.yaml") and err.where.line == 10
    assert state.fingerprint() == before


def test_a_counter_with_a_max_clamps_and_one_without_stops(state: GameState) -> None:
    sandbox.run(state, f"gain {BIG} capped\ngain {BIG} capped")
    assert counter(state, "capped") == 100  # its own `max:` holds it: no error
    with pytest.raises(ContentError) as caught:
        sandbox.run(state, f"gain {BIG} points\ngain 1 points")
    assert caught.value.where is not None and caught.value.where.line == 2
    assert counter(state, "points") == 0  # refused whole: the first gain is undone too
    with pytest.raises(ContentError):
        sandbox.run(state, f"lose {BIG} debt\nlose 1 debt")  # no `min:`: the engine's limit is its end


@pytest.mark.parametrize("source", [
    f"set record to {BIG} + 1",  # a value: a sum is stored, so it is checked there
    f"set pile to {BIG} * 2",  # a product
    f"gain ({BIG} * 150%) points",  # a product by a percentage
    f"repeat 30 times:\n    until tick: price * 1000%\ngain price points",  # timed modifiers that multiply
])
def test_every_way_a_number_passes_the_limit_is_an_internal_error(state: GameState, source: str) -> None:
    before = state.fingerprint()
    with pytest.raises(ContentError, match="past the engine's limit"):
        sandbox.run(state, source)
    assert state.fingerprint() == before


def test_numbers_up_to_the_limit_are_fine(state: GameState) -> None:
    sandbox.run(state, f"set record to {BIG}\ngain {BIG} points\nlose {BIG} debt\nset pile to {BIG} * 1")
    assert counter(state, "points") == BIG and counter(state, "debt") == -BIG and counter(state, "pile", None) == BIG


def test_a_choice_of_too_many_numbers_is_an_internal_error(state: GameState) -> None:
    with pytest.raises(ContentError, match="more than the 100,000 one decision may offer"):
        sandbox.run(state, "choose a number from 0 to 999999999 as N")
    asked = sandbox.run(state, "choose a number from 0 to 999999999 step 10000 as N\ngain N points", answers=["20000"])
    assert len(asked[0].options) == 100_000 and counter(state, "points") == 20000
    sandbox.run(state, "gain 1000000 points")
    with pytest.raises(ContentError, match="transfer up to a smaller amount"):
        sandbox.run(state, "transfer up to 1000000 from my points to my capped")


def test_dealing_more_than_the_deck_holds_stops_when_it_is_empty(state: GameState) -> None:
    started = time.process_time()
    sandbox.run(state, f"deal {BIG} from deck to hand of players")
    assert time.process_time() - started < 1.0
    lay = state.game.layout
    assert sum(len(state.st.zones[lay.player_zone["hand"] + p]) for p in range(2)) == 4  # the whole deck


@pytest.mark.parametrize("literal, column", [("9" * 5000, 6), ("1000000000000000", 6), ("1/" + "9" * 30, 6),
                                             ("9" * 40 + "%", 6)])
def test_a_number_written_past_the_limit_is_e112_at_the_number(literal: str, column: int) -> None:
    with pytest.raises(SyntaxErrors) as caught:
        parse_program(f"gain {literal} points\ngain 1 points")
    (d,) = caught.value.diagnostics
    assert (d.code, d.line, d.column) == ("E112", 1, column)
    assert len(d.message) < 100 and "999,999,999,999,999" in (d.hint or "")


def test_reading_digits_never_converts_a_long_number_whole() -> None:
    assert written("0" * 10_000 + "42") == 42 and written(str(MAX_NUMBER)) == MAX_NUMBER
    assert written("9" * 100_000) is None and written(str(MAX_NUMBER + 1)) is None
    assert size_words(10 ** 5000) == "a number of about 5,001 digits"
    assert mechanics.bounded(MAX_NUMBER) == MAX_NUMBER and mechanics.bounded("text") == "text"
