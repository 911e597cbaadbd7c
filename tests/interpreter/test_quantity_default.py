"""A quantity that no piece's `while in play:` changes (codegen/names.py `_quantity`): the
generated code reads its default without the modifier walk while no timed modifier waits,
and what a timed one says when one does, as the closures give it."""

from __future__ import annotations

from legacies.interpreter import sandbox
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset


def test_a_quantity_no_piece_changes_reads_its_default_or_its_timed_modifiers_in_both_paths() -> None:
    """Leader's Legacy's `seas_open` is changed by no piece's `while in play:`, only by an
    event's `until event_drawn: seas_open = no`: the generated code reads its default
    without the modifier walk while no timed modifier waits (codegen/names.py), and what
    a timed one says when one does, as the closures give it."""
    loaded = load_ruleset("leaders-legacy")
    assert loaded.spec is not None
    states = {codegen: Game(loaded.spec, 3, codegen=codegen).new_state(2) for codegen in (True, False)}
    game = states[True].game
    assert "seas_open" not in game.continuous and "seas_open" not in game.compiler.ctx.modified_quantities
    assert any("seas_open" in source and ".timed" in source for source in game.compiler.sources.values())
    for state in states.values():
        assert sandbox.value(state, "seas_open") is True
        sandbox.run(state, "until event_drawn: seas_open = no", 0)
        assert sandbox.value(state, "seas_open") is False
        assert sandbox.value(state, "count of (provinces where seas_open) = 0") is True
    assert states[True].fingerprint() == states[False].fingerprint()
