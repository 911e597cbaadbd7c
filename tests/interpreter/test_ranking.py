"""GameState.ranking and rank_key: the score first, then the ruleset's tie-breaks in
order (higher is better), then turn order (a tie-break turned round was caught only by a
distant test once)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

TINY = Path(__file__).parent / "fixtures" / "tiny"  # counters gold (start 10) and points (the score)


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> GameState:
    """Tiny for three, ranked by points, then gold, then cards in hand."""
    root = tmp_path_factory.mktemp("ranking") / "tiny"
    shutil.copytree(TINY, root)
    rules = root / "rules" / "tiny" / "ruleset.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("score: points\n", "score: points\ntie_breaks: [my gold, count of my hand]\n"),
                     encoding="utf-8")
    result = load_ruleset("tiny", root)
    assert result.ok and result.spec is not None, [d.headline() for d in result.diagnostics]
    assert len(result.spec.tie_breaks) == 2
    return Game(result.spec, 3).new_state(0)


def _set(state: GameState, name: str, values: list[int]) -> None:
    base = state.game.layout.player_counter[name]
    for p, v in enumerate(values):
        state.st.counters[base + p] = v


def _seat(state: GameState, hand_sizes: list[int]) -> None:
    """Each player's hand emptied, then dealt `hand_sizes[p]` cards from the others' hands."""
    lay = state.game.layout
    zone = lay.player_zone["hand"]
    pieces = [pid for p in range(3) for pid in state.st.zones[zone + p]]
    for p in range(3):
        state.st.zones[zone + p] = []
    for p, n in enumerate(hand_sizes):
        for _ in range(n):
            pid = pieces.pop()
            state.st.zone(zone + p).append(pid)
            state.st.loc[pid] = zone + p


def test_the_score_ranks_first(state: GameState) -> None:
    _set(state, "points", [1, 3, 2])
    _set(state, "gold", [9, 0, 5])
    assert state.ranking() == [1, 2, 0]


def test_a_tie_on_the_score_goes_to_the_higher_first_tie_break(state: GameState) -> None:
    _set(state, "points", [4, 4, 4])
    _set(state, "gold", [2, 7, 5])
    assert state.ranking() == [1, 2, 0]
    assert state.rank_key(1) < state.rank_key(2) < state.rank_key(0)


def test_a_tie_on_the_first_tie_break_goes_to_the_second(state: GameState) -> None:
    _set(state, "points", [4, 4, 4])
    _set(state, "gold", [5, 5, 5])
    _seat(state, [1, 3, 2])
    assert state.ranking() == [1, 2, 0]


def test_a_tie_on_every_tie_break_goes_by_turn_order(state: GameState) -> None:
    _set(state, "points", [4, 4, 4])
    _set(state, "gold", [5, 5, 5])
    _seat(state, [2, 2, 2])
    kept = list(state.st.turn_order)
    state.st.turn_order[:] = [2, 0, 1]  # not the seats' order: turn order decides, not the seat number
    try:
        assert state.ranking() == [2, 0, 1]
    finally:
        state.st.turn_order[:] = kept
