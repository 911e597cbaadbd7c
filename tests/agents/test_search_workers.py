"""The search bot's trees in worker processes (agents/search_workers.py): the same move
for the same seed and iterations whatever the number of workers, a state the decisions
do not rebuild searched in the playing process, and workers that stop with the bot."""

from __future__ import annotations

import random

import pytest

from legacies.agents import search_workers
from legacies.agents.bots import SearchBot, apply_random_option
from legacies.interpreter.game import Game, GameState, Undo
from legacies.pipeline.ruleset import load_ruleset


def _states(ruleset: str, players: int, seed: int, count: int) -> list[GameState]:
    """`count` states of one seeded random game, each at a decision with a choice."""
    spec = load_ruleset(ruleset).spec
    assert spec is not None
    gs = Game(spec, players).new_state(seed)
    rng = random.Random(seed)
    out = []
    while gs.decision is not None and len(out) < count:
        if len(gs.decision.options) > 1 and rng.random() < 0.3:
            out.append(gs.clone())
        apply_random_option(gs, rng, undo=Undo.REPLAY)
    return out


def test_the_move_is_the_same_with_one_worker_or_two() -> None:
    one, two = SearchBot(5, think=None, iterations=24), SearchBot(5, think=None, iterations=24, workers=2)
    try:
        moves = []
        for state in _states("legacy", 3, 4, 6):
            moves.append((one.choose(state), two.choose(state)))
            assert one.last_iterations == two.last_iterations == 24
        assert all(a == b for a, b in moves), moves
        assert len({a for a, _ in moves}) > 1  # not a bot that always answers 0
    finally:
        two.close()


def test_the_trees_share_the_iterations() -> None:
    bot = SearchBot(1, think=None, iterations=5)
    state = _states("legacy", 3, 2, 1)[0]
    bot.choose(state)
    assert bot.TREES == 2 and bot.last_iterations == 5


def test_a_state_the_decisions_do_not_rebuild_is_searched_here(monkeypatch: pytest.MonkeyPatch) -> None:
    first, later = _states("legacy", 3, 9, 2)
    two = SearchBot(8, think=None, iterations=12, workers=2)
    try:
        two.choose(first)  # the workers start (forked) here
        arranged = later.clone()
        arranged.st.counters[0] += 1  # a change no decision made
        arranged.st.changed()
        here: list[int] = []
        real = search_workers.search_tree

        def counted(state: GameState, job: object) -> object:
            here.append(1)
            return real(state, job)  # type: ignore[arg-type]
        monkeypatch.setattr(search_workers, "search_tree", counted)
        one = SearchBot(8, think=None, iterations=12)
        one.choose(first)
        assert two.choose(arranged) == one.choose(arranged)
        assert len(here) == SearchBot.TREES  # both trees in this process
        here.clear()
        two.choose(later)
        assert not here  # a state the decisions rebuild: searched by the workers
    finally:
        two.close()


def test_the_workers_stop_with_the_bot() -> None:
    bot = SearchBot(3, think=None, iterations=4, workers=2)
    bot.choose(_states("legacy", 3, 1, 1)[0])
    trees = bot._trees
    assert trees is not None
    processes = list(trees._pool._processes.values())  # type: ignore[attr-defined]
    assert processes and all(p.is_alive() for p in processes)
    bot.close()
    assert bot._trees is None and not any(p.is_alive() for p in processes)
    assert trees.token not in search_workers._GAMES
    with pytest.raises(ValueError, match="at least one worker"):
        SearchBot(workers=0)


def test_a_seat_given_search_workers_thinks_its_fixed_iterations_in_them() -> None:
    from legacies.agents.bots import SEARCH_ITERATIONS
    from legacies.agents.match import make_agent

    bot = make_agent("search", 2, 1, search_workers=2)
    assert isinstance(bot, SearchBot) and bot.workers == 2 and bot.iterations == SEARCH_ITERATIONS
    assert bot.think is None and bot.rng.random() == SearchBot(2001).rng.random()  # the seat's own stream


def test_search_workers_are_bounded_by_the_machine() -> None:
    from typer.testing import CliRunner

    from legacies.agents import processes
    from legacies.cli.main import app

    too_many = processes.cores() * processes.WORKERS_PER_CORE + 1
    result = CliRunner().invoke(app, ["play", "-r", "legacy", "-s", "search", "-s", "random", "-s", "random", "-q",
                                      "--search-workers", str(too_many)])
    assert result.exit_code == 2 and f"--search-workers {too_many}: this machine has" in result.output
