"""benchmarks/reference/legacy.py, the Legacy card game written by hand that `legacies
bench` measures the engine against (`legacy_vs_reference`): it plays whole games at every
player count by the rules the engine plays, and asks about as many decisions a game as
the engine does."""

from __future__ import annotations

import statistics
from types import ModuleType
from typing import Any

import pytest

from legacies.agents import bench
from legacies.agents.bench import play_random
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset

PLAYERS = (2, 3, 4, 5, 6)
SEEDS = range(30)


@pytest.fixture(scope="module")
def ref() -> ModuleType:
    module, where = bench.reference_game()
    assert module is not None, where
    return module


def finished(ref: ModuleType, seed: int, players: int) -> tuple[Any, list[tuple[int, int, int, bool]]]:
    turns: list[tuple[int, int, int, bool]] = []
    game = ref.Legacy(seed, players)
    game.turns = turns
    game.run()
    return game, turns


@pytest.mark.parametrize("players", PLAYERS)
def test_games_end_by_the_final_round(ref: ModuleType, players: int) -> None:
    for seed in SEEDS:
        game, turns = finished(ref, seed, players)
        assert game.decisions > 0 and len(game.points) == players
        assert 0 < len(turns) < ref.MAX_TURNS and game.final_from >= 0, seed


@pytest.mark.parametrize("players", PLAYERS)
def test_the_final_round_gives_every_other_player_one_more_turn(ref: ModuleType, players: int) -> None:
    for seed in SEEDS:
        game, turns = finished(ref, seed, players)
        begun = next(i for i, t in enumerate(turns) if t[3])
        finisher, _, legacies, _ = turns[begun]
        assert finisher == game.final_from and legacies >= game.finish
        after = [t[0] for t in turns[begun + 1:]]
        assert after == [(finisher + k) % players for k in range(1, players)], seed
        assert [t[0] for t in turns] == [k % players for k in range(len(turns))]  # turn order, player 1 first


@pytest.mark.parametrize("players", PLAYERS)
def test_every_turn_ends_with_seven_resource_cards_at_most(ref: ModuleType, players: int) -> None:
    ends = [t[1] for seed in SEEDS for t in finished(ref, seed, players)[1]]
    assert max(ends) == ref.HAND_LIMIT  # the limit is reached, and kept


@pytest.mark.parametrize("players", PLAYERS)
def test_the_points_are_the_tableau_scored_and_the_finisher_leads_by_its_bonus(ref: ModuleType, players: int) -> None:
    for seed in SEEDS:
        game, _ = finished(ref, seed, players)
        for p, tableau in enumerate(game.tableau):
            built = [tableau.count(kind) for kind in ref.LEGACY]
            bonus = 2 if p == game.final_from else 0
            assert game.points[p] == 3 * max(built) + sum(built) - max(built) + bonus
        # the finisher's legacies are safe from then on (LCG-11): five (six), at least two of
        # a type, and the bonus make 11 (14) points at least
        least = game.finish + 2 * -(-game.finish // 3) + 2
        assert game.points[game.final_from] >= least, seed


@pytest.mark.parametrize("players", PLAYERS)
def test_no_card_is_lost_or_made(ref: ModuleType, players: int) -> None:
    for seed in SEEDS:
        game, _ = finished(ref, seed, players)
        resources = game.resource_deck + game.resource_discard + [c for r in game.resources for c in r]
        legacies = game.legacy_deck + game.legacy_discard + [c for z in game.hand + game.tableau for c in z]
        assert sorted(resources) == sorted(ref.RESOURCE_CARDS)
        assert sorted(legacies) == sorted(ref.LEGACY_CARDS)
        assert all(c in ref.LEGACY or c == ref.PROTECT for t in game.tableau for c in t)


def test_two_players_finish_with_six_legacies_and_the_same_seed_plays_the_same_game(ref: ModuleType) -> None:
    assert ref.Legacy(0, 2).finish == 6 and ref.Legacy(0, 3).finish == 5
    assert ref.play(7, 4) == ref.play(7, 4)
    assert ref.play(7, 4) != ref.play(8, 4)


def test_it_asks_as_many_decisions_a_game_as_the_engine() -> None:
    """The same decisions with the same options: the mean decisions a 4-player game over
    the same seeds is the engine's within a few percent (random games differ one by one)."""
    module, _ = bench.reference_game()
    assert module is not None
    spec = load_ruleset("legacy").spec
    assert spec is not None
    game = Game(spec, 4)
    engine = statistics.mean(len(play_random(game, seed).st.history) for seed in range(40))
    written = statistics.mean(module.play(seed, 4)[0] for seed in range(400))
    assert abs(written / engine - 1) < 0.1, (engine, written)
