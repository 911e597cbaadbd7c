"""Filters decided at compile time (interpreter.compiler `static_test`): a `where` that
only compares fixed attributes of `it` with constants is answered per piece once, and
must give exactly what running the condition for every member gives, errors included."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.interpreter import sandbox
from legacies.interpreter.errors import ContentError
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "minilegacies"
RUNS_THE_CONDITION = " and 1 = 1"  # `1 = 1` is no attribute of it: the whole filter runs per member


@pytest.fixture(scope="module")
def state() -> GameState:
    result = load_ruleset("minilegacies", root=FIXTURE)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return Game(result.spec, 3).new_state(0)


def static(state: GameState, condition: str, collection: str = "opportunities") -> bool:
    expr = sandbox.checked_expression(state, f"count of ({collection} where {condition})")
    return state.game.compiler.static_test(expr.subject.condition) is not None  # type: ignore[attr-defined]


@pytest.mark.parametrize("collection", ["opportunities", "opportunities in opportunity_deck",
                                        "opportunity_deck", "player_cards"])
@pytest.mark.parametrize("condition", [
    "its cost = 2", "its cost is not 2", "its cost > 0", "1 < its cost", "its cost >= 2",
    "its cost <= 10 and its cost != 0", "its cost = 2 or its cost > 5", "not (its cost > 0)",
])
def test_a_decided_filter_keeps_what_running_it_keeps(state: GameState, collection: str, condition: str) -> None:
    assert static(state, condition)
    decided = outcome(state, f"{collection} where {condition}")
    ran = outcome(state, f"{collection} where {condition}{RUNS_THE_CONDITION}")
    assert decided == ran
    if collection != "player_cards":  # some kept, some not (player cards: the same error, or none kept)
        assert 0 < len(ran) < sandbox.value(state, f"count of ({collection})")  # type: ignore[arg-type, operator]


def outcome(state: GameState, source: str) -> object:
    """The value, or the error's message (player cards without a cost cannot be ordered)."""
    try:
        return sandbox.value(state, source)
    except ContentError as e:
        return str(e)


def test_symbols_and_missing_attributes(state: GameState) -> None:
    """`its group is X` over industries; `is` on an attribute a piece lacks is false,
    `is not` true (nothing is not a symbol), as when the condition runs."""
    for collection, condition in (("industries", "its group is government"),
                                  ("industries", "its group is not government"),
                                  ("industries", "government = its group"),
                                  ("player_cards", "its cost is 30"), ("player_cards", "its cost is not 30")):
        assert static(state, condition, collection)
        decided = sandbox.value(state, f"{collection} where {condition}")
        ran = sandbox.value(state, f"{collection} where {condition}{RUNS_THE_CONDITION}")
        assert decided == ran and 0 < len(ran) < len(sandbox.value(state, collection))  # type: ignore[arg-type]


def test_an_order_on_a_missing_number_is_still_the_located_error(state: GameState) -> None:
    """`its cost > 2` over cards without a cost: the undecided members run the condition,
    which reports the missing attribute; deciding them would hide the content error."""
    with pytest.raises(ContentError, match="has no `cost`"):
        sandbox.value(state, "player_cards where its cost > 2")
    with pytest.raises(ContentError, match="has no `cost`"):  # the left side runs first, as written
        sandbox.value(state, "player_cards where its cost > 2 and its cost = 30")
    # an `and` whose left side is decided false never reads the right side, as written
    assert sandbox.value(state, "count of (player_cards where its cost = 30 and its cost > 2)") == 1


def test_conditions_that_read_more_than_fixed_attributes_run(state: GameState) -> None:
    for condition in ("its cost = my fame", "it is in opportunity_deck", "its cost = 0 and 1 = 1"):
        assert not static(state, condition)
