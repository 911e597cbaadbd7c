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


def test_a_quantity_is_computed_once_while_a_menu_reads_it(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A menu asks the same quantity of many options (a cost for each card): while the
    state is only read (`State.frozen`) it is computed once for each player and item, as
    a definition is remembered; outside a read, and after a change, it is computed anew."""
    from legacies.interpreter import mechanics as mech

    loaded = load_ruleset("leaders-legacy")
    assert loaded.spec is not None
    state = Game(loaded.spec, 3).new_state(2)
    st = state.st
    computed: list[tuple[str, int]] = []
    compute = mech._quantity

    def counted(st_, name, player, subject):  # type: ignore[no-untyped-def]
        computed.append((name, player))
        return compute(st_, name, player, subject)

    monkeypatch.setattr(mech, "_quantity", counted)
    province = state.game.layout.kind_pieces["province"][0]
    with st.frozen():
        first = [mech.quantity(st, "sanctuary", p, province) for p in (0, 0, 1, 1, 0)]
    assert len(computed) == 2 and first[0] == first[1] and first[2] == first[3]
    mech.quantity(st, "sanctuary", 0, province)
    mech.quantity(st, "sanctuary", 0, province)
    assert len(computed) == 4  # not read in a menu: each time
    sandbox.run(state, "until event_drawn: seas_open = no", 0)
    with st.frozen():
        assert mech.quantity(st, "seas_open", 0, None) is False
    assert computed[-1] == ("seas_open", 0)
