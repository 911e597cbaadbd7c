"""Balance runs, the service behind `legacies simulate`: many seeded bot games of one
ruleset, played in this process, in local worker processes or on a Dask cluster, and
summed into a report (agents/report.py writes it).

Game i is played with seed `seed + i` and the bots' seat kinds rotated by i (so every
kind sits in every turn position equally often; the seats the rules run, of the seat
kinds the ruleset declares, stay in the last seats, where the ruleset's setup puts them); each game is independent, so the games
can go to any worker in any order and the report is the same for 1 worker, 2 workers
or a cluster: records are sorted by seed, counts are sums.

A game's record keeps what the report needs and nothing else: each player's seat kind
and label (a seat the rules run by its name at the table), score, win, starting choices
(the ruleset's `starting_choices`, read when the game ends), the content items they
chose in a decision (played, bought, taken: an option whose value, or whose target, is
an item) and those drawn for them (an item whose effect a `play` ran for them without
their choosing it: an event resolved, a solo card played), how many times they chose
each action (of a menu, a `perform` list or a response window) and how many of those
times its target was another player's piece, the turn order when the first turn began,
and the game's length; for a ruleset that draws a map, who holds each place when the
game ends (and the first game's map then). Branch
coverage comes from the compiled game of each worker (interpreter.coverage).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from legacies.dsl.errors import LegaciesError
from legacies.interpreter.errors import InternalError, TableError
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.mechanics import describe, owner
from legacies.interpreter.values import DefRef

from .base import Agent
from .bots import BOTS, default_lookahead, iterations_problem, lookahead_problem, think_problem
from .cluster import WAIT_SECONDS, ClusterError, ClusterLost, run_tasks
from .match import make_agent, play_match
from .processes import AHEAD_PER_WORKER, compiled_kept, in_order, worker_pool

CHUNK = 10  # games per task: small enough for a progress bar, large enough to amortise a task
MAX_GAMES = 100_000  # every game's record is kept for the report (about a kilobyte each); more is a usage error


class SimulationError(LegaciesError):
    """The run cannot start as asked (an unknown seat kind, an unreachable cluster:
    `usage`), or cannot go on (a ruleset that does not build, a game stopped by an
    internal error)."""

    def __init__(self, message: str, usage: bool = True):
        super().__init__(message)
        self.usage = usage


@dataclass(frozen=True)
class Request:
    """What every worker needs to play its games: sent as is to processes and clusters."""

    ruleset: str
    root: str | None = None
    expansions: tuple[str, ...] = ()
    players: int = 4
    seats: tuple[str, ...] = ()  # one kind per player, before rotation; the seats the rules run last
    seed: int = 0
    games: int = 100
    options: tuple[tuple[str, Any], ...] = ()  # the table's setup options (name, value), sorted by name
    # what a search seat thinks per decision: iterations, seconds, or both (the first reached);
    # neither: its fixed count (agents.bots.SEARCH_ITERATIONS)
    search_iterations: int | None = None
    search_think: float | None = None
    # the options a greedy seat applies per decision (None: the ruleset's, agents.bots.default_lookahead)
    greedy_lookahead: int | None = None
    # what-if changes (`simulate --set ID.FIELD=VALUE`): (item id, field path, number), each
    # written into the item's file before the ruleset is built, so it is checked as data is
    changes: tuple[tuple[str, str, int | float], ...] = ()

    def seats_of(self, game: int) -> list[str]:
        """The seat kinds of game `game` (0-based), the bots' rotated so each kind plays
        each position; the seats the rules run (any other kind) stay last, where the rules
        seat them."""
        bots = [s for s in self.seats if s in BOTS]
        ruled = [s for s in self.seats if s not in BOTS]
        k = game % len(bots) if bots else 0
        return bots[k:] + bots[:k] + ruled


@dataclass
class GameRecord:
    seed: int
    seats: list[str]
    scores: list[int]
    winner: int
    decisions: int
    turns: int
    finished: bool
    starting: list[dict[str, str]]  # per player: starting choice -> its name
    chosen: list[list[str]]  # per player: ids of the items they chose, each once
    ending: str | None = None  # the rules ended the game (`end the game`): their reason ("" for none); else None
    first_order: list[int] | None = None  # the turn order when the first turn began (None: no turn)
    drawn: list[list[str]] = field(default_factory=list)  # per player: ids of items whose effect ran for them
    actions: list[dict[str, int]] = field(default_factory=list)  # per player: action name -> times chosen
    # a ruleset that draws a map (`display: map:`): each place -> the player whose colour it
    # is when the game ends, as the first player sees it (-1 nobody); and for the run's
    # first game, the map itself then (MapPicture.as_data())
    holders: dict[int, int] = field(default_factory=dict)
    board: dict[str, Any] | None = None


@dataclass
class ChunkResult:
    records: list[GameRecord]
    coverage: dict[tuple[str, str, int, int, str], int]
    seconds: float


@dataclass
class Simulation:
    """Every game of a run, plus what the report names: the ruleset's items and branches."""

    request: Request
    records: list[GameRecord] = field(default_factory=list)
    coverage: dict[tuple[str, str, int, int, str], int] = field(default_factory=dict)
    cannot_run: set[tuple[str, str, int, int, str]] = field(default_factory=set)  # ruled out by the options
    items: list[dict[str, str]] = field(default_factory=list)  # id, name, kind of every content item
    starting_choices: list[str] = field(default_factory=list)
    menus: dict[str, list[str]] = field(default_factory=dict)  # each menu of the ruleset: its actions, in order
    seconds: float = 0.0
    workers: int = 1
    where: str = "this process"
    stopped: str | None = None  # why the run ended before its last game (Ctrl-C, a lost cluster): records so far
    greedy_lookahead: int | None = None  # the options each greedy seat applied per decision: the request's, else the ruleset's

    @property
    def decisions(self) -> int:
        return sum(r.decisions for r in self.records)


# --------------------------------------------------------------------------- one worker
_games: dict[Request, Game] = {}


def _game(request: Request) -> Game:
    """The compiled game of this process for a request (compiled once, coverage on)."""
    key = Request(request.ruleset, request.root, request.expansions, request.players, options=request.options,
                  changes=request.changes)
    if key not in _games:
        from legacies.pipeline.ruleset import load_ruleset

        if request.changes:
            spec = changed_spec(request)
        else:
            result = load_ruleset(request.ruleset, request.root, list(request.expansions))
            if result.spec is None:
                errors = "; ".join(d.headline() for d in result.diagnostics[:3])
                raise SimulationError(f"ruleset `{request.ruleset}` does not build: {errors}", usage=False)
            spec = result.spec
        try:
            _games[key] = Game(spec, request.players, dict(request.options), coverage=True)
        except TableError as err:  # an option the ruleset does not have, or a value out of its range
            raise SimulationError(str(err)) from None
    return _games[key]


# --------------------------------------------------------------------------- what if
def parse_change(text: str) -> tuple[str, str, int | float]:
    """`ID.FIELD=VALUE` (FIELD an item's key or attribute, dotted for a table's entry:
    `ID.TABLE.KEY=5`) -> (id, field, number); SimulationError otherwise."""
    target, equals, value = text.partition("=")
    item, dot, where = target.strip().partition(".")
    if not equals or not dot or not item or not where or any(not part for part in where.split(".")):
        raise SimulationError(f"--set {text}: write ID.FIELD=NUMBER (an item's id, the field, the new number)")
    try:
        number: int | float = int(value.strip())
    except ValueError:
        try:
            number = float(value.strip())
        except ValueError:
            raise SimulationError(f"--set {text}: `{value.strip()}` is not a number") from None
    return item, where, number


def changed_spec(request: Request) -> Any:
    """The game spec of `request` with its what-if changes written into the items' files
    (the number at the field's place replaced), then loaded and checked as any data is:
    a change the ruleset refuses is a usage error with the checker's words."""
    from legacies.pipeline.build.passes import build_spec
    from legacies.pipeline.load import load_sources
    from legacies.pipeline.ruleset import expanded_sources

    sources, _ = expanded_sources(request.ruleset, request.root, list(request.expansions))
    loaded = {f.label: f for f in load_sources(sources).files}
    texts: dict[str, str] = {}
    for item, where, number in request.changes:
        f, path, old = _field(loaded, item, where)
        line, column, end = f.span(path)
        text = texts.get(f.label) or "\n".join(f.lines)
        lines = text.split("\n")
        at = lines[line - 1]
        found = re.match(r"[-+]?\d+(\.\d+)?", at[column - 1:])
        if found is None:
            raise SimulationError(f"--set {item}.{where}: its value ({old}) is not written as a plain number "
                                  f"at {f.label}:{line}")
        lines[line - 1] = at[:column - 1] + str(number) + at[column - 1 + found.end():]
        texts[f.label] = "\n".join(lines)
    changed = [s._replace(read=_reader(texts[s.label].encode("utf-8"))) if s.label in texts else s for s in sources]
    load = load_sources(changed)
    build = build_spec(load.files) if load.files else None
    problems = [d for d in list(load.diagnostics) + (build.diagnostics if build else []) if d.severity == "error"]
    if build is None or build.spec is None or problems:
        said = "; ".join(d.headline() + (f" (hint: {d.hint})" if d.hint else "") for d in problems[:3])
        asked = ", ".join(f"{i}.{w}={n}" for i, w, n in request.changes)
        raise SimulationError(f"--set {asked}: the ruleset does not build with it: {said}")
    return build.spec


def describe_changes(request: Request) -> list[dict[str, Any]]:
    """Each what-if change in words: item, name, field, the number before and after."""
    from legacies.pipeline.load import load_sources
    from legacies.pipeline.ruleset import expanded_sources

    sources, _ = expanded_sources(request.ruleset, request.root, list(request.expansions))
    loaded = {f.label: f for f in load_sources(sources).files}
    out = []
    for item, where, number in request.changes:
        f, path, old = _field(loaded, item, where)
        entry = f.data
        for step in path[:2]:
            entry = entry[step]
        out.append({"item": item, "name": str(entry.get("name") or item), "field": where, "before": old,
                    "after": number})
    return out


def _field(loaded: dict[str, Any], item: str, where: str) -> tuple[Any, tuple[Any, ...], Any]:
    """(file, path, value) of an item's numeric field; the last file giving the item wins
    (an expansion's item replaces the base's)."""
    found = None
    for f in loaded.values():
        items = f.data.get("items") if f.kind == "content" and isinstance(f.data, dict) else None
        for i, entry in enumerate(items if isinstance(items, list) else []):
            if isinstance(entry, dict) and entry.get("id") == item:
                found = (f, ("items", i), entry)
    if found is None:
        raise SimulationError(f"--set {item}.{where}: no item `{item}` in this ruleset")
    f, base, entry = found
    parts = tuple(int(p) if p.isdigit() else p for p in where.split("."))
    for path in (parts, ("attributes",) + parts):
        value: Any = entry
        for step in path:
            try:
                value = value[step]
            except (KeyError, IndexError, TypeError):
                value = None
                break
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise SimulationError(f"--set {item}.{where}: its value is `{value}`, not a number")
            return f, base + path, value
    numbers = sorted(_numbers(entry))
    raise SimulationError(f"--set {item}.{where}: item `{item}` has no field `{where}`"
                          + (f"; its numbers: {', '.join(numbers)}" if numbers else ""))


def _numbers(entry: Any, prefix: str = "") -> list[str]:
    out: list[str] = []
    if isinstance(entry, dict):
        for key, value in entry.items():
            name = f"{prefix}{key}" if prefix or key != "attributes" else ""
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out.append(name)
            elif isinstance(value, dict):
                out.extend(_numbers(value, f"{name}." if name else ""))
    return out


def _reader(data: bytes) -> Callable[[], bytes]:
    return lambda: data


def is_content(game: Game, d: int) -> bool:
    """Whether definition `d` is a content item (not the plain definition the build
    gives a token kind that has no item of its own)."""
    pdef = game.spec.defs[d]
    kind = game.spec.vocab.kinds.get(pdef.kind)
    return not (pdef.id == pdef.kind and kind is not None and kind.piece == "token")


def action_names(state: GameState) -> list[str | None]:
    """For each option of the pending decision, the name of the ruleset action it starts
    (a choice of actions: a menu, a `perform` list, a response window); None for an option
    that starts none ("done", "pass") and for every option of any other decision."""
    d = state.decision
    if d is None:
        return []
    actions = getattr(state.st.frames[-1], "actions", None) if d.kind == "action" and state.st.frames else None
    if actions is None:
        return [None] * len(d.options)
    return [actions[o.value[0]].name if isinstance(o.value, tuple) else None for o in d.options]


ANOTHER_PLAYERS = " (another player's)"
"""The count of an action whose target was a piece of another player (an opponent's card
taken, their token moved) is kept again under the action's name with this after it."""


def on_another_players(state: GameState) -> list[bool]:
    """For each option of the pending decision, whether it names a piece that belongs to
    another player than the one deciding (a token's owner, else its zone's: `owner of`)."""
    d = state.decision
    if d is None:
        return []
    return [type(o.item) is int and owner(state.st, o.item) not in (-1, d.player) for o in d.options]


class ActionCounter:
    """A seat's agent, unchanged, that notes for the decision it was last asked which action
    each option starts: the match runner may apply another option than the one chosen (when
    the rules refuse it), so the option applied is counted when the runner observes it."""

    def __init__(self, agent: Agent):
        self.agent = agent
        self.name = agent.name
        self.asked: Any = None
        self.names: list[str | None] = []
        self.others: list[bool] = []

    def choose(self, state: GameState) -> int:
        self.asked, self.names = state.decision, action_names(state)
        self.others = on_another_players(state) if any(self.names) else []
        return self.agent.choose(state)


def play_games(request: Request, games: list[int]) -> ChunkResult:
    """Play games number `games` (0-based) of a run: the work of one task."""
    started = time.process_time()
    game = _game(request)
    spec, lay = game.spec, game.layout
    ruled = {seat.name for seat in spec.seats}
    records = []
    for i in games:
        seats = request.seats_of(i)
        seed = request.seed + i
        chosen: list[set[int]] = [set() for _ in seats]
        acted: list[dict[str, int]] = [{} for _ in seats]
        agents = [ActionCounter(make_agent(kind, seed, p, think=request.search_think, ruled=ruled,
                                           iterations=request.search_iterations, lookahead=request.greedy_lookahead))
                  for p, kind in enumerate(seats)]
        try:
            state = game.new_state(seed)
        except InternalError as err:  # the setup itself fails: a content bug, located
            raise SimulationError(f"game {i} (seed {seed}) stopped in its setup: {err}", usage=False) from err
        first_order: list[list[int]] = []
        if game.coverage is not None:
            game.coverage.played.clear()

        def observe(decision: Any, index: int) -> None:
            if not first_order and state.st.turns >= 1:  # the first turn has begun: its turn order
                first_order.append(list(state.st.turn_order))
            counter = agents[decision.player] if 0 <= decision.player < len(agents) else None
            name = counter.names[index] if counter is not None and counter.asked is decision else None
            if name is not None:
                mine = acted[decision.player]
                mine[name] = mine.get(name, 0) + 1
                if counter is not None and counter.others[index]:
                    mine[name + ANOTHER_PLAYERS] = mine.get(name + ANOTHER_PLAYERS, 0) + 1
            item = decision.options[index].item
            if item is None or decision.player < 0:
                return
            d = int(item) if isinstance(item, DefRef) else (lay.piece_def[item] if 0 <= item < len(lay.piece_def) else -1)
            if d >= 0 and is_content(game, d):
                chosen[decision.player].add(d)

        try:
            with compiled_kept():
                result = play_match(spec, seats, seed, state=state, agents=list(agents), observe=observe)
        except InternalError as err:
            raise SimulationError(f"game {i} (seed {seed}): {err}", usage=False) from err
        st = result.state
        assert st is not None
        holders, board = {}, None
        if game.map is not None:
            try:
                holders = game.map.colours(st.st, 0)
                board = game.map.picture(st.st, 0).as_data() if i == 0 else None
            except InternalError as err:
                raise SimulationError(f"game {i} (seed {seed}), drawing its map: {err}", usage=False) from err
        starting = []
        for p in range(request.players):
            starting.append({name: describe(st.st, st.st.values[lay.player_value[name] + p])
                             for name in spec.starting_choices})
        records.append(GameRecord(
            seed=seed, seats=seats, scores=list(result.scores), winner=result.winner,
            decisions=len(st.st.history), turns=st.st.turns, finished=st.is_terminal(), starting=starting,
            chosen=[sorted(spec.defs[d].id for d in c) for c in chosen],
            ending=None if st.st.ending is None else st.end_reason() or "",
            first_order=first_order[0] if first_order else None,
            drawn=_drawn(game, request.players, chosen), actions=acted,
            holders=holders, board=board))
    coverage = game.coverage.counts() if game.coverage is not None else {}
    if game.coverage is not None:
        game.coverage.hits[:] = [0] * len(game.coverage.hits)  # the next task counts afresh
    return ChunkResult(records, coverage, time.process_time() - started)


def _drawn(game: Game, players: int, chosen: list[set[int]]) -> list[list[str]]:
    """Per player, the content items whose effect a `play` ran for them this game and
    that they did not choose: an event resolved, a solo card played (coverage.played)."""
    out: list[set[int]] = [set() for _ in range(players)]
    if game.coverage is not None:
        for d, p in game.coverage.played:
            if 0 <= p < players and d not in chosen[p] and is_content(game, d):
                out[p].add(d)
    return [sorted(game.spec.defs[d].id for d in found) for found in out]


# --------------------------------------------------------------------------- a run
def check_request(request: Request) -> Game:
    """Refuse a run that cannot start, before any worker is asked; the compiled game."""
    game = _game(request)
    kinds = {seat.name: seat for seat in game.spec.seats}  # the ruleset's seat kinds: the rules run them
    unknown = [s for s in request.seats if s not in BOTS and s not in kinds]
    if unknown:
        raise SimulationError(f"unknown seat kind `{unknown[0]}`; a balance run seats bots ({', '.join(BOTS)})"
                              + (f" and the seats the rules run ({', '.join(kinds)})" if kinds else ""))
    if len(request.seats) != request.players:
        raise SimulationError(f"{len(request.seats)} seats for {request.players} players")
    options = dict(request.options)
    for kind in kinds.values():
        wanted = int(options.get(kind.option, 0) or 0)  # an amount, or a flag (one seat)
        if request.seats.count(kind.name) != wanted:
            raise SimulationError(f"the option `{kind.option}` seats {wanted} {kind.label} seat(s), but the seats "
                                  f"have {request.seats.count(kind.name)} `{kind.name}`")
    ruled = [i for i, s in enumerate(request.seats) if s in kinds]
    if ruled and ruled != list(range(request.players - len(ruled), request.players)):
        raise SimulationError("the seats the rules run come last (the rules seat them there)")
    if not 1 <= request.games <= MAX_GAMES:
        raise SimulationError(f"--games takes 1 to {MAX_GAMES:,} games, not {request.games}")
    problem = (iterations_problem(request.search_iterations) if request.search_iterations is not None else None) \
        or (think_problem(request.search_think) if request.search_think is not None else None) \
        or (lookahead_problem(request.greedy_lookahead) if request.greedy_lookahead is not None else None)
    if problem:
        raise SimulationError(problem)
    return game


def simulate(request: Request, workers: int = 1, cluster: str | None = None,
             progress: Callable[[int, int], None] | None = None, say: Callable[[str], None] | None = None,
             cluster_wait: float | None = None) -> Simulation:
    """Play every game of `request`; `progress(done, total)` after each task, `say(line)`
    for news of the cluster (waiting for workers). Ctrl-C, or a cluster lost (no worker
    for `cluster_wait` seconds), ends the run with the games done so far (`stopped`)."""
    game = check_request(request)
    spec = game.spec
    sim = Simulation(request, starting_choices=list(spec.starting_choices),
                     greedy_lookahead=default_lookahead(spec, request.greedy_lookahead),
                     menus={menu: list(names) for menu, names in spec.vocab.menus.items()},
                     items=[{"id": d.id, "name": d.name, "kind": spec.vocab.label(d.kind)}
                            for i, d in enumerate(spec.defs) if is_content(game, i)])
    chunks = [list(range(i, min(i + CHUNK, request.games))) for i in range(0, request.games, CHUNK)]
    results: list[ChunkResult] = []
    started = time.perf_counter()
    done = 0

    def take(result: ChunkResult) -> None:
        nonlocal done
        results.append(result)
        done += len(result.records)
        if progress is not None:
            progress(done, request.games)

    try:
        if cluster is not None:
            sim.where = f"the Dask cluster at {cluster}"
            sim.workers = run_tasks(cluster, play_games, [(request, chunk) for chunk in chunks], take, say,
                                    wait_seconds=WAIT_SECONDS if cluster_wait is None else cluster_wait)
            sim.where += f" ({sim.workers} workers)"
        elif workers <= 1:
            for chunk in chunks:
                take(play_games(request, chunk))
        else:
            sim.where, sim.workers = f"{workers} local processes", workers
            with worker_pool(workers) as pool:
                for result in in_order(pool, play_games, ((request, chunk) for chunk in chunks),
                                       workers * AHEAD_PER_WORKER):
                    take(result)
    except KeyboardInterrupt:
        sim.stopped = "interrupted"
    except ClusterLost as err:
        sim.stopped = str(err)
    except ClusterError as err:
        raise SimulationError(str(err), usage=err.usage) from None
    sim.seconds = time.perf_counter() - started
    for result in results:
        sim.records.extend(result.records)
        for key, hits in result.coverage.items():
            sim.coverage[key] = sim.coverage.get(key, 0) + hits
    for key in game.coverage.counts() if game.coverage is not None else {}:
        sim.coverage.setdefault(key, 0)  # a branch no game ran is listed too
    if game.coverage is not None:  # those the options rule out are told apart from those that never ran
        sim.cannot_run = game.coverage.cannot_run(spec.res, dict(game.options))
    sim.records.sort(key=lambda r: r.seed)
    return sim
