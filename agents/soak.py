"""The soak run (Spellsource's habit), the service behind `legacies soak`: many seeded
random games over the installed rulesets and their player counts, every invariant of
interpreter.invariants checked after every decision. A failing game is saved (seed +
decisions + the failure) so that `legacies replay --verify SAVE` reproduces it.

Game i of a run plays table i mod T (the tables: every ruleset asked for, at every
player count asked for, in name order) with seed `seed + i`, so a run is the same on
any machine and with any number of workers. What fails:
- an invariant broken after a decision (or at the start);
- an internal error (a content or engine bug) in the setup, or while an option is applied;
- every option of a decision refused (the game is stuck);
- a game not over after `max_decisions` decisions.
Besides failures, a run counts the options that were offered and then refused when
taken (`SoakResult.refused`: per ruleset and per action, or per question for a choice
made inside an effect): a person is shown a move that fails. Each ruleset's docs list
the kinds that remain and why they cannot be known before choosing; a test holds the
counts to them. `expansions` lay installed expansions over a ruleset: a table is then
(ruleset, players, expansions) and is soaked as a ruleset is.
A failure that cannot be saved (a full disk, a read-only folder) is said and the run
goes on; Ctrl-C stops the run at once (the workers with it) with the games done so far.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from legacies.dsl.errors import LegaciesError
from legacies.interpreter.errors import InternalError, Refused
from legacies.interpreter.game import Game, GameState, Undo
from legacies.interpreter.invariants import problems
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.writes import WriteError, make_folder, write_whole

from .processes import AHEAD_PER_WORKER, compiled_kept, in_order, worker_pool

MAX_DECISIONS = 20_000
MAX_GAMES = 10_000_000  # a day of the fastest ruleset on two cores; more is a usage error
CHUNK = 25  # games per task handed to a worker

Table = tuple  # (ruleset, players) or (ruleset, players, expansions: tuple of names)


@dataclass(frozen=True)
class SoakFailure:
    ruleset: str
    players: int
    seed: int
    message: str
    save: str | None  # the save text: replays the game up to the failure (None: it failed in its setup)
    expansions: tuple[str, ...] = ()  # laid over the ruleset

    @property
    def name(self) -> str:
        return table_name((self.ruleset, self.players, self.expansions))


@dataclass
class SoakResult:
    games: int = 0
    decisions: int = 0
    failures: list[SoakFailure] = field(default_factory=list)
    seconds: float = 0.0
    tables: list[Table] = field(default_factory=list)
    saved: list[Path | str] = field(default_factory=list)  # per failure: its save, or why it is not saved
    interrupted: bool = False  # stopped by Ctrl-C: the games done so far
    # options offered and then refused when taken: (table's name, action or question) -> count
    refused: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures


class SoakError(LegaciesError):
    """The run cannot start as asked (an unknown ruleset, a player count no ruleset takes):
    exit code 1."""


def table_name(table: Table) -> str:
    """How a run names a table's game: the ruleset, with `+expansion` for each laid over it."""
    return table[0] + "".join(f"+{x}" for x in (table[2] if len(table) > 2 else ()))


def soak_tables(rulesets: list[str], players: int | None = None,
                expansions: tuple[str, ...] = ()) -> tuple[list[Table], list[str]]:
    """The (ruleset, players) tables to play (with `expansions`, (ruleset, players,
    expansions): the expansions laid over each ruleset), and the rulesets that do not
    load (their content errors are a failure of the run, reported by the caller)."""
    tables: list[Table] = []
    broken: list[str] = []
    for name in sorted(rulesets):
        spec = load_ruleset(name, None, list(expansions)).spec
        if spec is None:
            broken.append(name + "".join(f"+{x}" for x in expansions))
            continue
        counts = range(spec.min_players, spec.max_players + 1)
        chosen = [p for p in counts if players is None or p == players]
        tables.extend(((name, p, tuple(expansions)) if expansions else (name, p)) for p in chosen)
    return tables, broken


_games: dict[Table, Game] = {}


def _game(table: Table) -> Game:
    game = _games.get(table)
    if game is None:
        spec = load_ruleset(table[0], None, list(table[2]) if len(table) > 2 else []).spec
        if spec is None:
            raise SoakError(f"ruleset `{table_name(table)}` has content errors")
        game = _games[table] = Game(spec, table[1])
    return game


def offered_as(state: GameState, index: int) -> str:
    """What option `index` of the pending decision was offered as: the action's name for
    an option of an action menu or a response window, else the question asked."""
    d = state.decision
    assert d is not None
    frames = state.st.frames
    value = d.options[index].value
    actions = getattr(frames[-1], "actions", None) if frames else None
    if d.kind == "action" and actions is not None and isinstance(value, tuple) and len(value) == 2:
        action = actions[value[0]]
        return f"action {action.name}"
    return f"question {d.prompt!r}"


def soak_game(game: Game, seed: int, max_decisions: int = MAX_DECISIONS,
              refused: dict[str, int] | None = None) -> tuple[GameState | None, str | None, int | None]:
    """Play one seeded random game, checking every invariant after every decision.
    Returns (the state, what went wrong or None, the option that failed if one did);
    the state is None when the setup itself failed (a content bug met before any
    decision: there is no game to save). Each option taken and refused is counted in
    `refused`, by what it was offered as (`offered_as`)."""
    try:
        state = game.new_state(seed)
    except InternalError as err:
        return None, f"the setup stopped: {err}", None
    rng = random.Random(seed)
    for _ in range(max_decisions + 1):
        wrong = problems(state)
        if wrong:
            return state, "; ".join(wrong[:3]), None
        d = state.decision
        if d is None:
            return state, None, None
        if len(state.st.history) >= max_decisions:
            break
        order = list(range(len(d.options)))
        rng.shuffle(order)
        for index in order:
            try:
                state.apply(index, undo=Undo.REPLAY)
                break
            except Refused:
                if refused is not None:
                    key = offered_as(state, index)
                    refused[key] = refused.get(key, 0) + 1
                continue
            except InternalError as err:
                return state, f"option {d.options[index].label!r} of {d.prompt!r}: {err}", index
        else:
            return state, f"the rules refuse every option of {d.prompt!r}: the game is stuck", None
    return state, f"not over after {max_decisions} decisions", None


Played = tuple[int, int, "SoakFailure | None", dict[str, int]]  # index, decisions, failure, refused


def _run_chunk(indices: list[int], tables: list[Table], seed: int, max_decisions: int) -> list[Played]:
    """Games `indices` of a run: (index, decisions, failure or None, refused options) each."""
    out: list[Played] = []
    for i in indices:
        table = tables[i % len(tables)]
        game_seed = seed + i
        game = _game(table)
        refused: dict[str, int] = {}
        with compiled_kept():
            state, error, choice = soak_game(game, game_seed, max_decisions, refused)
        failure = None
        if error is not None:
            save = state.serialize(failure=(choice, error)) if state is not None else None
            failure = SoakFailure(table[0], table[1], game_seed, error, save, tuple(table[2]) if len(table) > 2 else ())
        out.append((i, len(state.st.history) if state is not None else 0, failure, refused))
    return out


def run_soak(games: int, tables: list[Table], seed: int = 0, workers: int = 1,
             max_decisions: int = MAX_DECISIONS, out: Path | None = None,
             progress: Callable[[int, int, int], None] | None = None) -> SoakResult:
    """Play `games` games over `tables`; `progress(done, failures, decisions)` after each
    batch. Failures are written to `out` (a folder) when given; for one that cannot be
    (a write error, a game that failed in its setup) `saved` says why, and the run goes
    on. Ctrl-C (KeyboardInterrupt)
    ends the run at once with the games done so far (`interrupted`)."""
    if not tables:
        raise SoakError("nothing to play: no ruleset takes that many players")
    for table in tables:  # compile in the parent: forked workers inherit it
        _game(table)
    result = SoakResult(tables=list(tables))
    started = time.perf_counter()
    chunks = (list(range(start, min(games, start + CHUNK))) for start in range(0, games, CHUNK))  # made as played

    def take(batch: list[Played]) -> None:
        for i, decisions, failure, refused in batch:
            result.games += 1
            result.decisions += decisions
            name = table_name(tables[i % len(tables)])
            for key, count in refused.items():
                result.refused[name, key] = result.refused.get((name, key), 0) + count
            if failure is not None:
                result.failures.append(failure)
                if failure.save is None:
                    result.saved.append("it stopped in its setup, before any decision: there is no game to save")
                elif out is None:
                    result.saved.append("no folder was given")
                else:
                    try:
                        result.saved.append(write_failure(out, failure))
                    except WriteError as err:
                        result.saved.append(str(err))
        if progress is not None:
            progress(result.games, len(result.failures), result.decisions)

    try:
        if workers <= 1 or games <= CHUNK:
            for chunk in chunks:
                take(_run_chunk(chunk, tables, seed, max_decisions))
        else:
            with worker_pool(workers) as pool:
                tasks = ((chunk, tables, seed, max_decisions) for chunk in chunks)
                for batch in in_order(pool, _run_chunk, tasks, workers * AHEAD_PER_WORKER):
                    take(batch)  # in order: the same output for any number of workers
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - started
    return result


def write_failure(folder: Path, failure: SoakFailure) -> Path:
    """Write a failing game's save into `folder` (made if missing). Raises WriteError."""
    assert failure.save is not None
    make_folder(folder)
    path = folder / f"{failure.name}-{failure.players}p-seed{failure.seed}.json"
    write_whole(path, failure.save)
    return path
