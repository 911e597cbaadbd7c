"""A search bot's trees in worker processes (agents.bots.SearchBot with `workers` above 1).

The workers are forked from the process that plays (agents.processes.worker_pool: no
more than asked, quiet under Ctrl-C, gone with their parent), so they hold the compiled
game already. A decision sends each worker the game's seed and decisions, never the
state itself (its frames hold compiled code): the worker brings its own copy of the game
up to date by applying the decisions it has not seen yet, checks that its copy has the
state's fingerprint and searches one tree (agents.bots.search_tree) from it. A state the
decisions do not rebuild (one arranged by hand, or a game made after the workers were
forked) has its trees searched in the playing process instead: the same trees, so the
same move, only slower.
"""

from __future__ import annotations

import itertools
import weakref
from concurrent.futures import Future
from contextlib import ExitStack

from legacies.interpreter.errors import Refused
from legacies.interpreter.game import Game, GameState, Undo

from .bots import SearchJob, SearchRoot, search_tree
from .processes import worker_pool

_GAMES: dict[int, Game] = {}  # token -> a game being searched, set before the workers are forked
_TOKENS = itertools.count(1)
_COPIES: dict[int, GameState] = {}  # in a worker: token -> its copy of the game, as of the last decision


class SearchWorkers:
    """Worker processes that search the trees of one game's decisions."""

    def __init__(self, state: GameState, workers: int):
        self.game = state.game
        self.token = next(_TOKENS)
        _GAMES[self.token] = self.game
        self._stack = ExitStack()
        self._pool = self._stack.enter_context(worker_pool(workers))
        self._closing = weakref.finalize(self, _close, self._stack, self.token)

    def serves(self, state: GameState) -> bool:
        """Whether these workers hold the game `state` belongs to."""
        return state.game is self.game

    def search(self, state: GameState, jobs: list[SearchJob]) -> list[SearchRoot]:
        """Each job's tree, in the order of `jobs`."""
        seed = int(state.st.flags.get("seed", 0))
        history = state.st.history.tolist()
        fingerprint = state.fingerprint()
        futures: list[Future[SearchRoot | None]] = [
            self._pool.submit(_search_in_worker, self.token, seed, history, fingerprint, job) for job in jobs]
        roots = []
        for job, future in zip(jobs, futures):
            root = future.result()
            roots.append(root if root is not None else search_tree(state, job))
        return roots

    def close(self) -> None:
        self._closing()


def _close(stack: ExitStack, token: int) -> None:
    _GAMES.pop(token, None)
    stack.close()


def _search_in_worker(token: int, seed: int, history: list[int], fingerprint: str,
                      job: SearchJob) -> SearchRoot | None:
    """In a worker: one tree from the state after `history`, or None when this worker
    cannot rebuild that state (the playing process searches the tree then)."""
    game = _GAMES.get(token)
    if game is None:  # a game made after the fork (or workers that were not forked)
        return None
    copy = _COPIES.get(token)
    made = len(copy.st.history) if copy is not None else 0
    if copy is None or copy.st.flags.get("seed") != seed or made > len(history) \
            or copy.st.history.tolist() != history[:made]:
        copy, made = game.new_state(seed), 0
    try:
        for index in history[made:]:
            copy.apply(index, undo=Undo.NONE)
    except Refused:  # not a state these decisions make
        _COPIES.pop(token, None)
        return None
    _COPIES[token] = copy
    if copy.fingerprint() != fingerprint:
        return None
    return search_tree(copy, job)
