"""`count of (C where T) > 0` and its kin (`>= 1`, `!= 0`, `= 0`, `< 1`, `<= 0`, the
number on either side) ask only whether a member passes: the closures and the generated
code both stop the walk at the first member that passes (compile/filters.py `existence`),
give what the whole count compared would give, and charge the step budget alike (the
collection walked whole, the test's own walks only for the members tested)."""

from __future__ import annotations

from typing import Any

import pytest

from legacies.interpreter import sandbox
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.vm import Activation
from legacies.pipeline.ruleset import load_ruleset

EVERY = "count of (players where count of (cards in hand of it) >= 0)"  # every player passes
NONE = "count of (players where count of (cards in hand of it) > 99)"  # nobody does


def _run(state: GameState, source: str) -> tuple[Any, int]:
    """The expression's value for P1 and the steps it charged."""
    fn = state.game.compiler.expr(sandbox.checked_expression(state, source, None))
    state.game.compiler.finish()
    with state.st.frozen():
        before = state.st.spent
        return fn(Activation(state.st, 0, None)), state.st.spent - before


@pytest.fixture(scope="module")
def states() -> dict[bool, GameState]:
    loaded = load_ruleset("legacy")
    assert loaded.spec is not None
    return {codegen: Game(loaded.spec, 4, codegen=codegen).new_state(3) for codegen in (True, False)}


@pytest.mark.parametrize("compare, holds_for_every, holds_for_none", [
    ("> 0", True, False), (">= 1", True, False), ("!= 0", True, False),
    ("= 0", False, True), ("< 1", False, True), ("<= 0", False, True)])
def test_some_and_none_give_what_the_count_gives(states: dict[bool, GameState], compare: str,
                                                 holds_for_every: bool, holds_for_none: bool) -> None:
    for state in states.values():
        assert _run(state, f"{EVERY} {compare}")[0] is holds_for_every
        assert _run(state, f"{NONE} {compare}")[0] is holds_for_none
    mirrored = {"> 0": "0 <", ">= 1": "1 <=", "= 0": "0 =", "<= 0": "0 >="}.get(compare)
    if mirrored:
        assert _run(states[True], f"{mirrored} {EVERY}")[0] is holds_for_every


def test_the_walk_stops_at_the_first_that_passes_in_both_paths(states: dict[bool, GameState]) -> None:
    made, reference = states[True], states[False]
    whole = _run(made, EVERY)
    assert whole == (4, _run(reference, EVERY)[1])  # 4 players, each one's hand walked
    some = _run(made, f"{EVERY} > 0")
    assert some == (True, _run(reference, f"{EVERY} > 0")[1])
    assert some[1] < whole[1]  # only the first player's hand was walked
    assert _run(made, f"{NONE} = 0") == (True, whole[1]) == _run(reference, f"{NONE} = 0")  # none pass: every one tested
    assert _run(made, f"{EVERY} > 1") == (True, whole[1])  # not a question of any: counted whole

