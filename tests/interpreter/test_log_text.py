"""`log` lines with `{EXPR}` parts: values shown by name in the game log, every part
checked like any expression and its problems reported at the `{` in the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.dsl.diagnostics import DiagnosticError
from legacies.interpreter import sandbox
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "minilegacies"


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("minilegacies", root=FIXTURE)
    assert result.ok
    return result.spec


def test_parts_show_players_pieces_numbers_and_flags(spec) -> None:
    state = Game(spec, 3).new_state(0)
    sandbox.run(state, "set my gold to 7", 1)  # the second player (0-based 1)
    sandbox.run(state, 'log "{me} has {my gold} gold; first: {top of players}; rich: {my gold > 5}"', 1)
    assert state.st.log[-1] == "P2 has 7 gold; first: P1; rich: yes"


def test_a_bad_part_is_a_diagnostic_at_its_brace(spec) -> None:
    state = Game(spec, 3).new_state(0)
    with pytest.raises(DiagnosticError) as caught:
        sandbox.run(state, 'gain 1 gold\nlog "{me has} and {nosuch}"')
    found = [(d.code, d.line, d.column) for d in caught.value.diagnostics]
    assert found == [("E100", 2, 6), ("E201", 2, 19)]
    assert "in `{nosuch}`" in caught.value.diagnostics[1].message
