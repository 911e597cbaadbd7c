"""Bots, weakest first. None peeks: every bot that looks ahead does so in a
determinization (interpreter.information), a world where every card it cannot see is
shuffled among the unseen cards of its kind.

- RandomBot: a uniformly random legal option (seeded).
- GreedyBot: one action ahead: each option applied in a sampled world and followed
  through the same player's next decisions of that turn (an action's target, cost,
  parts) by taking the best at each (bounded: `lookahead` options applied in all); the
  option that leaves it best placed by the ruleset's `evaluation` (its own minus the
  best opponent's; a won game beats everything) taken, ties broken at random.
- RolloutBot: flat Monte Carlo: for each option, `rollouts` random games to the end.
- SearchBot: information-set Monte Carlo tree search (single-observer ISMCTS, Cowling,
  Powley and Whitehouse 2012): each iteration samples a world, walks one tree of
  option labels by UCB (counting only the options available in that world), adds a
  node, plays a short random playout and scores it by the evaluation (1 to the
  winner of a finished game). It thinks for `think` seconds or `iterations`
  iterations, or both, whichever ends first (a fixed count is the same on every
  machine: balance runs use it), split between TREES trees merged at the root, which
  `workers` processes may search at once (agents/search_workers.py) for the same move.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from legacies.interpreter.errors import Refused
from legacies.interpreter.game import GameState, Undo
from legacies.interpreter.information import determinize
from legacies.interpreter.spec import GameSpec

from .base import Agent

if TYPE_CHECKING:
    from .search_workers import SearchWorkers


class RandomBot:
    def __init__(self, seed: int = 0, name: str = "random"):
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> int:
        d = state.decision
        assert d is not None
        return self.rng.randrange(d.count)


def apply_random_option(state: GameState, rng: random.Random, undo: Undo = Undo.COPY) -> tuple[int | None, int]:
    """Apply a random option the rules accept (transactionally: a refused one changes
    nothing and the next is tried). Returns (the option applied or None if the rules
    refused them all, how many were refused)."""
    d = state.st.pending  # not `state.decision`: no word is read here, so it need not be bound to this state
    assert d is not None
    # the options in a random order, drawn as they are tried: most first tries are
    # accepted, and shuffling every option of a large menu first cost more than the try
    count = d.count
    first = rng.randrange(count)
    try:
        state.apply(first, undo=undo)
        return first, 0
    except Refused:
        pass
    order = [index for index in range(count) if index != first]
    rng.shuffle(order)
    for refused, index in enumerate(order, 1):
        try:
            state.apply(index, undo=undo)
            return index, refused
        except Refused:
            continue
    return None, count


def random_playout(state: GameState, rng: random.Random, max_decisions: int = 5000) -> GameState:
    """Play random legal options to the end on a throwaway copy: no undo backups; a
    refused option ends the playout where it stands (the copy is only evaluated: it
    answers by index, so it makes no words: interpreter/decisions.py)."""
    for _ in range(max_decisions):
        d = state.decision
        if d is None:
            break
        try:
            state.apply(rng.randrange(d.count), undo=Undo.NONE)
        except Refused:
            break
    return state


def _deciding(state: GameState) -> tuple[int, int] | None:
    """(the player deciding, how many options), or None when there is nothing to weigh
    (a single option)."""
    d = state.decision
    assert d is not None
    return None if d.count == 1 else (d.player, d.count)


class RolloutBot:
    def __init__(self, seed: int = 0, rollouts: int = 8, name: str | None = None):
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.name = name or f"rollout{rollouts}"

    def value(self, state: GameState, me: int) -> float:
        scores = state.scores()
        best_other = max((s for p, s in enumerate(scores) if p != me), default=0)
        lead = scores[me] - best_other
        return (1.0 if state.is_terminal() and state.winner() == me else 0.0) + 0.01 * lead

    def choose(self, state: GameState) -> int:
        deciding = _deciding(state)
        if deciding is None:
            return 0
        me, options = deciding
        best, best_index = float("-inf"), 0
        worlds = [determinize(state, me, self.rng) for _ in range(self.rollouts)]
        for index in range(options):
            total = 0.0
            try:
                for world in worlds:
                    child = world.clone()
                    try:
                        child.apply(index)
                        total += self.value(random_playout(child, self.rng), me)
                    finally:
                        child.discard()
            except Refused:
                continue
            mean = total / self.rollouts
            if mean > best:
                best, best_index = mean, index
        for world in worlds:
            world.discard()
        return best_index


def standing(state: GameState, me: int) -> float:
    """How well `me` stands against the best other player, by the ruleset's evaluation;
    a finished game counts a win or a loss above any evaluation."""
    if state.is_terminal():
        return 1e9 if state.winner() == me else -1e9
    with state.st.frozen():  # one read for every player's evaluation (see _Weigh.standing)
        values = [state.evaluate(p) for p in range(state.game.players)]
    return values[me] - max((v for p, v in enumerate(values) if p != me), default=0.0)


class GreedyBot:
    """One action ahead: each option is applied in a sampled world and, while the same
    player goes on deciding within the same turn (the option chose an action whose target,
    cost or part is asked next, or the turn offers another action), followed through those
    decisions by taking the best option at every step (all of them weighed, up to
    `lookahead` options applied in all; None, the ruleset's: `default_lookahead`): a turn
    of several actions is followed as far as the lookahead reaches. The option whose line
    leaves it best placed by `standing` is taken. Lines are followed one decision deeper at
    a time, all to the same depth, until every one reaches its end or the next depth would
    exceed `lookahead`; `lookahead=0` weighs each option as it stands (one decision ahead).

    What it pays for: the options applied, and the evaluations of the lines of the deepest
    pass that fits in the lookahead, each once. A pass that would not fit is known from the
    pass before (`_Line.would_exceed`) and never applied. A pass only applies; it keeps where each
    line stopped (`_Worth`), and the states are weighed when the passes are over: a line
    cut short in one pass and followed further in the next is never weighed, and nothing
    the pass that ran out of lookahead reached is weighed (both were, before: about half
    of greedy's evaluations in a shipped ruleset). The weighing itself skips what cannot
    change the choice (`_Weigh`). Every option that can be the best is weighed exactly,
    so the choices are the same."""

    LOOKAHEAD = 400
    MAX_DEPTH = 8  # own decisions followed after the option weighed

    def __init__(self, seed: int = 0, name: str = "greedy", lookahead: int | None = None):
        self.rng = random.Random(seed)
        self.name = name
        self.lookahead = lookahead  # None: the ruleset's (default_lookahead)
        self.last_depth = 0  # how many decisions deep the last choice followed its options (for tests)
        self.last_weighed = 0  # how many evaluations (one player's each) the last choice made (for tests)
        self.menus_when_read = True  # False: every menu its copies reach is made (to compare, in tests)

    def choose(self, state: GameState) -> int:
        deciding = _deciding(state)
        if deciding is None:
            return 0
        me, options = deciding
        lookahead = default_lookahead(state.game.spec, self.lookahead)
        world = determinize(state, me, self.rng)
        # the lines end at another player's menu, weighed without reading it: made if read
        world.st.menus_when_read = self.menus_when_read
        made = [world]  # every copy made for this choice: discarded once it is chosen
        children: list[GameState | None] = []
        try:
            for index in range(options):
                child = world.clone()
                made.append(child)
                try:
                    child.apply(index, undo=Undo.NONE)
                    children.append(child)
                except Refused:
                    children.append(None)
            values = self._follow(children, me, world.st.turns, world.game.players, made, lookahead)
        finally:
            for copy in made:
                copy.discard()
        best = max((v for v in values if v is not None), default=None)
        if best is None:  # the rules refuse every option: the match runner says so
            return 0
        return self.rng.choice([i for i, v in enumerate(values) if v == best])

    def _follow(self, children: list[GameState | None], me: int, turn: int, players: int,
                made: list[GameState], lookahead: int) -> list[float | None]:
        """Each option's worth, followed as deep as the lookahead allows (see the class):
        exact for every option that is the best or ties with it, below the best for the
        others (None: refused)."""
        worths: list[_Worth | None] = []
        ended: dict[tuple[int, ...], _Worth] = {}  # lines that reached their action's end: their worth
        applied: dict[tuple[int, ...], GameState] = {}  # lines cut short: their state, for the next pass
        cut: set[tuple[int, ...]] = set()  # the lines the last pass cut short
        for depth in range(self.MAX_DEPTH + 1):
            line = _Line(me, turn, lookahead, ended, applied, made, cut)
            if line.would_exceed(children, depth):
                break  # known before a pass that would have run out: none of it applied
            try:
                deeper = [None if c is None else line.best(c, depth, (i,))[0] for i, c in enumerate(children)]
            except _OutOfLookahead:
                break
            worths, self.last_depth, cut = deeper, depth, line.cut
            if not line.cut:  # every line reached the end of its action
                break
        weigh = _Weigh(me, players)
        values: list[float | None] = []
        floor = -math.inf  # the best option so far: an option below it is not taken, however far below
        for w in worths:
            value = None if w is None else weigh(w, floor)
            if value is not None and value > floor:
                floor = value
            values.append(value)
        self.last_weighed = weigh.count
        return values


class _OutOfLookahead(Exception):
    """Following the options one decision deeper would apply more than the lookahead."""


class _Worth:
    """Where a line of greedy's lookahead stopped, weighed only when asked (`_Weigh`):
    a state to weigh by `standing` (`options` None), or a decision of `me`'s whose
    worth is its best option's (`options`: each accepted option's worth; `state` is
    weighed instead when the rules refuse them all)."""

    __slots__ = ("state", "options", "value")

    def __init__(self, state: GameState, options: list["_Worth"] | None = None):
        self.state = state
        self.options = options
        self.value: float | None = None  # once weighed


class _Weigh:
    """Weighs `_Worth`s for `me`, counting the evaluations made (`State.evaluate`, one
    player each), with three savings that leave every worth that can matter exact:

    - each worth once (`_Worth.value`), and lines that reach the same state (two orders of
      the same parts, two alike pieces taken) share their players' evaluations: a state
      is known by what an evaluation can read of it (`_content`);
    - a floor: only a worth that reaches it matters (the best option found so far, here or
      higher up, must be beaten or tied), so a state is weighed only until its standing
      is sure to fall below it: `me`'s evaluation minus the best opponent's so far is
      already an upper bound. Such a worth comes back below the floor, not exact, and is
      never the best or a tie;
    - the opponents are evaluated the one that stood best last first: the bound falls
      fastest."""

    __slots__ = ("me", "players", "count", "seen", "rivals")

    def __init__(self, me: int, players: int):
        self.me = me
        self.players = players
        self.count = 0
        self.seen: dict[tuple, dict[int, float]] = {}  # a state's content -> the players evaluated there
        self.rivals = [p for p in range(players) if p != me]  # the opponents, the best last first

    def __call__(self, worth: _Worth, floor: float = -math.inf) -> float:
        """The worth, exact when it is at least `floor`; else some number below `floor`."""
        value = worth.value
        if value is not None:
            return value
        best: float | None = None
        if worth.options is not None:
            for option in worth.options:
                known = self(option, floor if best is None or best < floor else best)
                if known > -math.inf and (best is None or known > best):
                    best = known
        if best is None:
            best = self.standing(worth.state, floor)
        if best >= floor:  # exact: a number below the floor may be a bound
            worth.value = best
        return best

    def standing(self, state: GameState, floor: float) -> float:
        """`standing(state, me)`, exact when it is at least `floor`."""
        if state.is_terminal() or self.players < 2:
            self.count += 1
            return standing(state, self.me)
        key = _content(state)
        values = self.seen.setdefault(key, {}) if key is not None else {}
        # one read of the state for every player weighed: what their evaluations share (a
        # definition of no player, a player's of another) is worked out once
        with state.st.frozen():
            mine = values.get(self.me)
            if mine is None:
                mine = values[self.me] = self._evaluate(state, self.me)
            top, first = -math.inf, 0
            rivals = self.rivals
            for n, p in enumerate(rivals):
                v = values.get(p)
                if v is None:
                    v = values[p] = self._evaluate(state, p)
                if v > top:
                    top, first = v, n
                if -math.inf < mine - top < floor:
                    break  # below the floor whatever the others' evaluations
        if first:  # the best opponent here is asked first next time
            rivals.insert(0, rivals.pop(first))
        return mine - top

    def _evaluate(self, state: GameState, player: int) -> float:
        self.count += 1
        return state.evaluate(player)


def _content(state: GameState) -> tuple | None:
    """Everything an evaluation or a score can read of a state (the game's data but the
    history, the random numbers and the procedures' frames, which no expression reads),
    as a key: two states with equal keys stand equally. None when a part cannot be a key
    (a value that is a list): such a state is weighed on its own."""
    st = state.st
    try:
        key = (tuple(st.counters), tuple(st.values), tuple(map(tuple, st.zones)), tuple(st.turn_order), st.active,
               st.turns, st.over, st.ending, tuple(st.timed), frozenset(st.revealed), tuple(st.flags.items()),
               tuple(st.fired.items()))
        hash(key)
    except TypeError:
        return None
    return key


_REFUSED = _Worth(None, [])  # type: ignore[arg-type]  # an option the rules refuse: never the best
_REFUSED.value = -math.inf


class _Line:
    """One pass of GreedyBot's lookahead: where each line stops for `me`, taking
    every option at each of `me`'s decisions within turn `turn`, at most `depth` deep.
    `ended` keeps the worth of every line (a path of option indices) whose decisions all
    reached the action's end, from one pass to the next: a deeper pass does not apply
    them again. `applied` keeps the state after every other line applied so far: a
    deeper pass goes on from it instead of applying the line again. The lookahead still
    counts such an option as applied in each pass, so how deep a pass goes, and so the
    bot's choice, does not depend on what was kept."""

    __slots__ = ("me", "turn", "left", "cut", "cut_before", "ended", "applied", "made")

    def __init__(self, me: int, turn: int, lookahead: int, ended: dict[tuple[int, ...], _Worth],
                 applied: dict[tuple[int, ...], GameState], made: list[GameState],
                 cut_before: set[tuple[int, ...]]):
        self.me = me
        self.turn = turn
        self.left = lookahead  # options that may still be applied in this pass
        self.cut: set[tuple[int, ...]] = set()  # the lines stopped at the depth before their action's end
        self.cut_before = cut_before  # those the pass before stopped
        self.ended = ended
        self.applied = applied
        self.made = made  # every copy applied, for the bot to discard when it has chosen

    def would_exceed(self, roots: list[GameState | None], depth: int) -> bool:
        """Whether a pass `depth` deep would count more options than the lookahead, known
        from the pass before without applying any: its kept states are where this pass
        goes on from, and an option not applied yet lies one step below a line cut at the
        last depth, so this pass weighs it as it stands (nothing below it is counted).
        False when that cannot be known (a pass has not reached depth - 1): the pass runs.
        A line cut at the last depth counts at least one option: when that is already too
        many, its menu is not read."""
        for exact in (False, True):
            count = 0
            for index, root in enumerate(roots):
                if root is not None:
                    below = self._count(root, depth, (index,), exact, self.left - count)
                    if below is None:
                        return False
                    count += below
                    if count > self.left:
                        return True
        return False

    def _count(self, state: GameState, depth: int, path: tuple[int, ...], exact: bool, room: int) -> int | None:
        """How many options `best(state, depth, path)` would count (None: not known); at
        least as many with `exact` False. Once more than `room` are counted it stops, with
        a count above `room`: the pass would exceed the lookahead whatever the rest counts,
        and the menus not read yet are never made (the menus of a pass too long to run were a
        twentieth of a shipped ruleset's greedy decisions). (A count cut short never hides a None: after a pass
        that was not cut, every line below a counted one was applied.)"""
        if path in self.ended or depth <= 0:
            return 0
        if not exact and path in self.cut_before:
            return 1
        d = state.decision
        assert d is not None  # a line neither ended nor cut is one of `me`'s decisions
        count = 0
        for index in range(d.count):
            below = path + (index,)
            if below in self.ended:
                continue
            count += 1
            if count > room:
                return count
            child = self.applied.get(below)
            if child is not None:
                deeper = self._count(child, depth - 1, below, exact, room - count)
                if deeper is None:
                    return None
                count += deeper
                if count > room:
                    return count
            elif depth > 1:  # not applied, yet followed deeper than as it stands
                return None
        return count

    def best(self, state: GameState, depth: int, path: tuple[int, ...]) -> tuple[_Worth, bool]:
        """The worth (weighed later), and whether every line below reached its action's end."""
        known = self.ended.get(path)
        if known is not None:
            return known, True
        d = state.decision
        if d is None or d.player != self.me or state.st.turns != self.turn:
            worth = self.ended[path] = _Worth(state)
            return worth, True
        if depth <= 0:
            self.cut.add(path)
            return _Worth(state), False
        options: list[_Worth] = []
        ended = True
        for index in range(d.count):
            below = path + (index,)
            known = self.ended.get(below)
            if known is None:
                self.left -= 1
                if self.left < 0:
                    raise _OutOfLookahead()
                child = self.applied.get(below)
                if child is None:
                    child = state.clone()
                    self.made.append(child)
                    try:
                        child.apply(index, undo=Undo.NONE)
                    except Refused:
                        self.ended[below] = _REFUSED
                        continue
                known, whole = self.best(child, depth - 1, below)
                if whole:  # its worth is in `ended` now: no pass applies it again
                    self.applied.pop(below, None)
                else:
                    self.applied[below] = child
                ended = ended and whole
            options.append(known)
        worth = _Worth(state, options)
        if ended:
            self.ended[path] = worth
        return worth, ended


class _Node:
    """A tree node: the option that led here, who took it, and the totals of its runs."""

    __slots__ = ("children", "player", "visits", "reward", "available", "refused")

    def __init__(self, player: int):
        self.children: dict[tuple[str, str], _Node] = {}
        self.refused: set[tuple[str, str]] = set()  # options the rules refused here (not tried again)
        self.player = player  # who chose the option leading here (rewards are theirs)
        self.visits = 0
        self.reward = 0.0
        self.available = 0  # iterations in which this option could be chosen


def _keys(state: GameState) -> list[tuple[str, str]]:
    """Options are named by prompt and label: indices may differ from world to world."""
    d = state.decision
    assert d is not None
    return [(d.prompt, label) for label in d.labels()]


def _rewards(state: GameState) -> list[float]:
    """1 to the winner of a finished game; else each player's evaluation scaled to 0..1
    between the worst and the best player."""
    players = state.game.players
    if state.is_terminal():
        w = state.winner()
        return [1.0 if p == w else 0.0 for p in range(players)]
    values = [state.evaluate(p) for p in range(players)]
    low, high = min(values), max(values)
    if high == low:
        return [0.5] * players
    return [(v - low) / (high - low) for v in values]


MAX_THINK = 600.0
"""The longest a search bot may think per decision, in seconds (`--think`)."""


def think_problem(think: float) -> str | None:
    """Why `think` is not a time a search bot can think for, in words (None when it is):
    a finite number of seconds above 0 and at most MAX_THINK (`inf` never ends, `nan`
    compares false with everything)."""
    if not math.isfinite(think) or not 0 < think <= MAX_THINK:
        return f"--think takes a number of seconds above 0 and at most {MAX_THINK:.0f}, not {think}"
    return None


MAX_ITERATIONS = 100_000
"""The most iterations a search bot may be given per decision (`--iterations`)."""


def iterations_problem(iterations: int) -> str | None:
    """Why `iterations` is not a count a search bot can run per decision, in words (None
    when it is): a whole number from 1 to MAX_ITERATIONS."""
    if not 1 <= iterations <= MAX_ITERATIONS:
        return f"--iterations takes a whole number from 1 to {MAX_ITERATIONS:,}, not {iterations}"
    return None


MAX_LOOKAHEAD = 100_000
"""The most options a greedy bot may be given to apply per decision (`--lookahead`)."""


def default_lookahead(spec: GameSpec, asked: int | None = None) -> int:
    """The options a greedy bot applies per decision: `asked` (a seat's `--lookahead`),
    else the ruleset's `greedy_lookahead` (a game whose turns need less thought says so,
    measured: docs/speed.md), else GreedyBot.LOOKAHEAD."""
    if asked is not None:
        return asked
    return spec.greedy_lookahead if spec.greedy_lookahead is not None else GreedyBot.LOOKAHEAD


def lookahead_problem(lookahead: int) -> str | None:
    """Why `lookahead` is not a number of options a greedy bot can apply per decision, in
    words (None when it is): a whole number from 0 (each option weighed as it stands) to
    MAX_LOOKAHEAD."""
    if not 0 <= lookahead <= MAX_LOOKAHEAD:
        return f"--lookahead takes a whole number from 0 to {MAX_LOOKAHEAD:,}, not {lookahead}"
    return None


class SearchBot:
    EXPLORATION = 0.7
    PLAYOUT = 40  # random decisions after the tree, then the evaluation scores the world
    TREES = 2
    """The iterations of a decision are split between this many trees, each searched on
    its own random numbers and merged at the root by visits (root parallelization,
    Chaslot, Winands and van den Herik 2008): with `workers` above 1 the trees are
    searched in worker processes at once, and the move is the same whatever the number
    of workers."""

    def __init__(self, seed: int = 0, think: float | None = 1.0, iterations: int | None = None,
                 name: str = "search", workers: int = 1):
        if think is not None and think_problem(think):
            raise ValueError(think_problem(think))
        if workers < 1:
            raise ValueError(f"a search bot needs at least one worker, not {workers}")
        self.rng = random.Random(seed)
        self.think = think
        self.iterations = iterations
        self.name = name
        self.workers = workers
        self.last_iterations = 0  # how many the last decision ran (for reports)
        self._trees: SearchWorkers | None = None

    def choose(self, state: GameState) -> int:
        deciding = _deciding(state)
        if deciding is None:
            return 0
        me = deciding[0]
        seeds = [self.rng.getrandbits(64) for _ in range(self.TREES)]
        fixed = self.iterations
        if fixed is not None:
            shares: list[int | None] = [fixed // self.TREES + (t < fixed % self.TREES) for t in range(self.TREES)]
        else:
            shares = [None] * self.TREES
        think = self.think  # with iterations too: each tree stops at whichever it reaches first
        jobs = [SearchJob(me, seed, share, think, self.EXPLORATION, self.PLAYOUT)
                for seed, share in zip(seeds, shares)]
        if self.workers > 1:
            if self._trees is None or not self._trees.serves(state):
                self.close()
                from .search_workers import SearchWorkers
                self._trees = SearchWorkers(state, min(self.workers, self.TREES))
            roots = self._trees.search(state, jobs)
        else:
            if think is not None:  # one process: the trees share the time
                jobs = [job.sharing_time(self.TREES) for job in jobs]
            roots = [search_tree(state, job) for job in jobs]
        visits: dict[tuple[str, str], int] = {}
        for root in roots:  # in tree order
            for key, count in root.visits:
                visits[key] = visits.get(key, 0) + count
        self.last_iterations = sum(root.iterations for root in roots)
        keys = _keys(state)
        best = max(((visits[k], -i) for i, k in enumerate(keys) if k in visits), default=None)
        return -best[1] if best is not None else 0

    def close(self) -> None:
        """Stop the worker processes (a bot that decides again starts new ones)."""
        if self._trees is not None:
            self._trees.close()
            self._trees = None


@dataclass(frozen=True)
class SearchJob:
    """One tree of a decision: for whom, its random numbers' seed, its iterations and
    the seconds it thinks (either may be None; with both, the first reached ends it)."""

    me: int
    seed: int
    iterations: int | None
    think: float | None
    exploration: float
    playout: int

    def sharing_time(self, trees: int) -> "SearchJob":
        assert self.think is not None
        return SearchJob(self.me, self.seed, self.iterations, self.think / trees, self.exploration, self.playout)


@dataclass(frozen=True)
class SearchRoot:
    """What a tree found at its root: each option's visits (in the order the tree first
    tried them) and how many iterations it ran."""

    visits: list[tuple[tuple[str, str], int]]
    iterations: int


def search_tree(state: GameState, job: SearchJob) -> SearchRoot:
    """One tree searched from `state` for `job.me` (the state is not changed)."""
    rng = random.Random(job.seed)
    root = _Node(-1)
    deadline = time.perf_counter() + job.think if job.think is not None else None  # with both: the first reached
    count = 0
    while True:
        if job.iterations is not None and count >= job.iterations:
            break
        if deadline is not None and count > 0 and time.perf_counter() >= deadline:
            break
        world = determinize(state, job.me, rng)
        try:
            _iterate(root, world, rng, job)
        finally:
            world.discard()
        count += 1
    return SearchRoot([(key, child.visits) for key, child in root.children.items()], count)


def _select(node: _Node, keys: list[tuple[str, str]], world: GameState, rng: random.Random, job: SearchJob) -> int:
    """Apply an untried option (at random) or, all tried, the best by UCB; an option
    the rules refuse is remembered at the node and another taken. The index applied,
    or -1 when every option is refused."""
    while True:
        legal = [i for i, k in enumerate(keys) if k not in node.refused]
        if not legal:
            return -1
        untried = [i for i in legal if keys[i] not in node.children]
        if untried:
            index = rng.choice(untried)
        else:
            children = node.children
            index = max(legal, key=lambda i: (
                children[keys[i]].reward / children[keys[i]].visits
                + job.exploration * math.sqrt(math.log(max(1, children[keys[i]].available))
                                              / children[keys[i]].visits)))
        try:  # (a refusal is undone by replaying from one copy a world: it changes through apply alone)
            world.apply(index, undo=Undo.REPLAY)
            return index
        except Refused:
            node.refused.add(keys[index])


def _iterate(root: _Node, world: GameState, rng: random.Random, job: SearchJob) -> None:
    node, path = root, [root]
    while not world.is_terminal():  # selection, then one expansion
        d = world.decision
        assert d is not None
        keys = _keys(world)
        for k in keys:
            child = node.children.get(k)
            if child is not None:
                child.available += 1
        index = _select(node, keys, world, rng, job)
        if index < 0:  # the rules refuse every option here: score the world as it stands
            break
        child = node.children.get(keys[index])
        if child is None:
            child = node.children[keys[index]] = _Node(d.player)
            child.available = 1
            path.append(child)
            break
        node = child
        path.append(child)
    for _ in range(job.playout):
        d = world.decision
        if d is None:
            break
        try:
            world.apply(rng.randrange(d.count), undo=Undo.NONE)
        except Refused:
            break
    rewards = _rewards(world)
    for n in path[1:]:
        n.visits += 1
        n.reward += rewards[n.player] if n.player >= 0 else 0.0


BOTS: dict[str, Callable[[int], Agent]] = {
    "random": lambda seed: RandomBot(seed),
    "greedy": lambda seed: GreedyBot(seed),
    "rollout": lambda seed: RolloutBot(seed, rollouts=4),
    "search": lambda seed: SearchBot(seed, think=None, iterations=SEARCH_ITERATIONS),
}
"""Every bot kind a seat may name. `search` here thinks a fixed number of iterations
(the same moves on every machine); `legacies play --think SECONDS` gives it a time
budget instead."""

SEARCH_ITERATIONS = 200
