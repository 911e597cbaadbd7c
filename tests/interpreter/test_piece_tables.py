"""Expressions of one piece's printed attributes read from a table (codegen/tables.py):
worked out per piece when the code is written, they must give what running the
expression gives (the closures, the reference), errors included, and an expression that
reads anything of the state must never be tabled."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from legacies.agents.bots import apply_random_option
from legacies.interpreter import sandbox
from legacies.interpreter.errors import ContentError, InternalError
from legacies.interpreter.game import Game, GameState, Undo
from legacies.pipeline.ruleset import load_ruleset

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "minilegacies"


@pytest.fixture(scope="module")
def states() -> tuple[GameState, GameState]:
    """The same state, generated code and the closures."""
    result = load_ruleset("minilegacies", root=FIXTURE)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return Game(result.spec, 3).new_state(0), Game(result.spec, 3, codegen=False).new_state(0)


def tables_written(state: GameState) -> int:
    return sum(1 for name in state.game.compiler.sources if name.startswith("_fx"))


def outcome(state: GameState, source: str) -> object:
    try:
        return sandbox.value(state, source)
    except ContentError as e:
        return f"error: {e}"


@pytest.mark.parametrize("source", [
    "heirloom_cards where count of (its price where it is gem) > 0",
    "heirloom_cards where count of (its price where it is not gem) >= 2 or its fee > 2",
    "count of (heirloom_cards where count of its price = its level)",
    "total fee of (heirloom_cards where count of (its price where it is gear or it is dye) = 1)",
    "heirloom_cards where (its fee * 2 if count of its price > 1 else its fee - 1) > 2",
])
def test_a_tabled_expression_gives_what_running_it_gives(states: tuple[GameState, GameState], source: str) -> None:
    generated, closures = states
    before = tables_written(generated)
    got = outcome(generated, source)
    assert tables_written(generated) > before, "the piece's own expression was not tabled"
    assert got == outcome(closures, source)
    assert got not in ([], 0), "the case decides nothing"


def test_a_piece_the_table_cannot_hold_runs_the_expression_and_reports_its_error(
        states: tuple[GameState, GameState]) -> None:
    """Player cards without a cost: their entries are left out, and the expression run
    there reports the missing attribute, as untabled."""
    generated, closures = states
    source = "count of (player_cards where its cost * 2 > its cost + 3)"
    got = outcome(generated, source)
    assert isinstance(got, str) and "has no `cost`" in got
    assert got == outcome(closures, source)


@pytest.mark.parametrize("source", [
    "count of (heirloom_cards where count of its price > my fame)",  # the acting player
    "count of (heirloom_cards where count of (its price where it is gem) > gem)",  # my gem counter
    "count of (heirloom_cards where it is in archive and count of its price > 1)",  # where it lies
])
def test_what_reads_the_state_is_not_tabled_whole(states: tuple[GameState, GameState], source: str) -> None:
    """The parts of a piece alone may be tabled; the whole never is (its value must move
    with the state): the value agrees with the closures after the state changes."""
    generated, closures = states
    for state in (generated, closures):
        state.st.counters[state.game.layout.player_counter["fame"]] = 1
    first = outcome(generated, source)
    assert first == outcome(closures, source)
    for state in (generated, closures):
        state.st.counters[state.game.layout.player_counter["fame"]] = 0
        state.st.counters[state.game.layout.player_counter["gem"]] = 0
        state.st.changed()
    assert outcome(generated, source) == outcome(closures, source)


def test_legacies_heirloom_prices_are_tabled_and_agree_in_play() -> None:
    """The shipped case: each resource of an heirloom's price counted once per heirloom
    (shortfall, shortfall_if): what each player lacks of each heirloom, and may acquire,
    is the same both ways along a random game played on both."""
    spec = load_ruleset("legacies").spec
    assert spec is not None
    generated, closures = Game(spec, 4).new_state(5), Game(spec, 4, codegen=False).new_state(5)
    assert tables_written(generated) >= 5
    rng = random.Random(5)
    compared = 0
    while generated.decision is not None and compared < 12:
        chosen, _ = apply_random_option(generated, rng, undo=Undo.REPLAY)
        assert chosen is not None
        closures.apply(chosen, undo=Undo.REPLAY)
        characters = generated.game.layout.player_value["character"]
        if None in generated.st.values[characters:characters + 4] or rng.random() < 0.8:
            continue  # every player must have a character (an heirloom's fee reads it)
        for player in range(4):
            for source in ("heirlooms in mat of players where can_acquire(it)",
                           "total level of (heirlooms in mat of players where shortfall(it) = 0)"):
                got = sandbox.value(generated, source, player)
                assert got == sandbox.value(closures, source, player)
        compared += 1
    assert compared == 12


def test_a_generator_bug_while_a_table_is_worked_out_is_said_not_left_out(
        states: tuple[GameState, GameState], monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the content's own errors (and a read of the game, which the bare state
    refuses) leave a piece out of a table; any other failure is a bug of the generator
    and stops the compile, named, rather than running the expression untabled unseen."""
    generated, _ = states
    writer = generated.game.compiler.writer
    define = writer.define

    def broken(source: str, name: str) -> object:
        fn = define(source, name)
        if not name.startswith("_fx"):
            return fn

        def fails(st: object, piece: int) -> object:
            raise TypeError("a bug")
        return fails
    monkeypatch.setattr(writer, "define", broken)
    with pytest.raises(InternalError, match="could not be worked out for piece .*a bug"):
        sandbox.value(generated, "count of (heirloom_cards where count of (its price where it is iron) > 1)")
