"""Fuzzing rules (issue 22): hypothesis writes the procedures of a small ruleset (its
`setup:`, its `game:` before the turns, and an action every turn offers) from the
effect language's statements and expressions, with numbers from 0 to far past the
engine's limit, values that feed on themselves (`set pile to pile * pile`) in loops,
choices, deals, timed modifiers, events. Content fuzzing
(tests/test_fuzz_content.py) damages files until they do not load; this writes rules
that mostly check and then run, where the budgets must hold.

Every case: `validate` ends in Diagnostics, each located, never an engine bug (E299,
E301, E302), within 2 s of CPU; when the ruleset is clean, a game with random seats
is played for up to 300 decisions, and the only errors are refusals and internal
errors that name a file and a line (a number past the limit, a budget spent, a choice
of too many numbers...), within 5 s of CPU; the memory of the whole run grows less
than 200 MB.

The setup first sets the value `record`: a value typed `number` is None until set, and
arithmetic on it stops the game with Python's words (a TypeError, located: E300); that
gap of the checker is not this fuzz's to find again and again.

`test_rules_fuzz` runs 100 cases in the default run; the marked test runs 5,000:
`python -m pytest -m fuzz tests/test_fuzz_rules.py`."""

from __future__ import annotations

import random
import resource
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from legacies.dsl.numbers import MAX_NUMBER
from legacies.interpreter.errors import GameError, InternalError
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import validate

BASE = Path(__file__).resolve().parent / "interpreter" / "fixtures" / "numbers"
ENGINE_BUGS = {"E299", "E301", "E302"}
MAX_CHECK_SECONDS = 2.0
MAX_PLAY_SECONDS = 5.0
MAX_DECISIONS = 300
MAX_GROWTH_BYTES = 200 * 1024 * 1024

NUMBERS = [1, 2, 3, 7, 40, 1000, 10**6, 10**9, MAX_NUMBER]
PAST = [MAX_NUMBER + 1, 10**30]  # E112 when written: one number in a hundred
READS = ["pile", "my points", "my capped", "my debt", "record", "price", "count of cards in deck",
         "count of cards in my hand", "player_count"]
GAME_READS = ["pile", "record", "count of cards in deck", "player_count"]
GROW = ["set pile to pile * pile + 2", "raise pile by pile + 1", "set record to record * 3 + 1",
        "gain my points * my points + 1 points", "lose 1 - my debt * 2 debt"]
"""Values that feed on themselves: what a loop makes run away."""


@st.composite
def expression(draw: st.DrawFn, names: tuple[str, ...], depth: int = 0, player: bool = True) -> str:
    numbers = st.sampled_from(PAST) if draw(st.integers(0, 99)) == 99 else st.sampled_from(NUMBERS)
    leaves = [numbers.map(str), st.sampled_from(READS if player else GAME_READS)]
    if names:
        leaves.append(st.sampled_from(names))
    if depth >= 3 or draw(st.integers(0, 2)) == 0:
        return draw(st.one_of(*leaves))
    left, right = draw(expression(names, depth + 1, player)), draw(expression(names, depth + 1, player))
    form = draw(st.sampled_from(["+", "-", "*", "%", "divided", "max", "min", "paren"]))
    if form == "%":
        return f"{left} * {draw(st.sampled_from([50, 150, 1000, 10**14]))}%"
    if form == "divided":
        return f"{left} divided by {right}"
    if form in ("max", "min"):
        return f"{form}({left}, {right})"
    if form == "paren":
        return f"({left})"
    return f"{left} {form} {right}"


class Names:
    """Names a body binds (each once: a name bound twice is E211, which the checker says)."""

    def __init__(self) -> None:
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"N{self.count}"


@st.composite
def body(draw: st.DrawFn, names: tuple[str, ...], fresh: Names, depth: int = 0) -> list[str]:
    """Lines of a block run as a player (`as P:` or an action)."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        e = draw(expression(names))
        kind = draw(st.sampled_from(["gain", "lose", "pay", "capped", "debt", "set", "record", "raise", "repeat",
                                     "if", "draw", "deal", "choose", "transfer", "until", "announce", "log", "let",
                                     "grow", "repeat"]))
        if kind in ("gain", "lose", "pay"):
            lines.append(f"{kind} {e} points")
        elif kind == "capped":
            lines.append(f"gain {e} capped")
        elif kind == "debt":
            lines.append(f"lose {e} debt")
        elif kind == "set":
            lines.append(f"set pile to {e}")
        elif kind == "record":
            lines.append(f"set record to {e}")
        elif kind == "raise":
            lines.append(f"{draw(st.sampled_from(['raise', 'lower']))} pile by {e}")
        elif kind in ("repeat", "if") and depth < 2:
            inner = draw(body(names, fresh, depth + 1))
            if kind == "repeat" and draw(st.booleans()):  # a loop that feeds a value on itself
                inner.append(draw(st.sampled_from(GROW)))
            count = draw(st.sampled_from(["40", "1000", "3", e]))  # loops long enough to run away, and any
            head = f"repeat {count} times:" if kind == "repeat" else f"if {e} > {draw(expression(names))}:"
            lines += [head] + ["    " + line for line in inner]
        elif kind == "grow":
            lines.append(draw(st.sampled_from(GROW + [f"set pile to (pile + 1) * {e}"])))
        elif kind == "draw":
            lines.append(f"draw ({e}) from deck")
        elif kind == "deal":
            lines.append(f"deal ({e}) from deck to hand of players")
        elif kind == "choose":
            name = fresh.fresh()
            lines += [f"choose a number from {e} to {draw(expression(names))} as {name}", f"gain {name} points"]
        elif kind == "transfer":
            lines.append(f"transfer up to {e} from my points to my capped")
        elif kind == "until":
            if draw(st.booleans()):
                lines.append(f"until tick: price + {e}")
            else:
                lines.append(f"until tick: price * {draw(st.sampled_from([50, 150, 1000, 10**14]))}%")
        elif kind == "announce":
            lines.append("announce tick")
        elif kind == "log":
            lines.append(f'log "now {{{e}}}"')
        elif kind == "let":
            name = fresh.fresh()
            lines.append(f"let {name} be {e}")
            names = names + (name,)
    return lines


@st.composite
def procedures(draw: st.DrawFn) -> str:
    """A procedures file: an action, a setup and a game, each from `body`."""
    def as_players(lines: list[str]) -> str:
        return "".join(f"  {line}\n" for line in ["for each P in players:", "    as P:"]
                       + ["        " + line for line in lines])

    action = draw(body((), Names()))
    game_top = [f"set pile to {draw(expression((), player=False))}"] if draw(st.booleans()) else []
    return ("format: 2\nactions:\n  act:\n    label: Act\n    do: |\n"
            + "".join(f"      {line}\n" for line in action)
            + "  score:\n    label: Score a point\n    do: |\n      gain 1 points\n"
            + "setup: |\n  set record to 0\n" + as_players(draw(body((), Names())))  # (read before set: see below)
            + "game: |\n" + "".join(f"  {line}\n" for line in game_top) + as_players(draw(body((), Names())))
            + "  take turns:\n      perform one of act, score\n")


class Run:
    def __init__(self, folder: Path):
        self.root = folder / "numbers"
        shutil.copytree(BASE, self.root)
        self.file = self.root / "rules" / "numbers" / "procedures.yaml"
        ruleset = self.root / "rules" / "numbers" / "ruleset.yaml"  # longer games: more of each to run
        ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("max_turns: 4", "max_turns: 60"),
                           encoding="utf-8")
        self.cases = self.clean = self.played = self.decisions = self.stopped = 0
        self.reasons: Counter[str] = Counter()  # what stopped games, by the first words of the error
        self.worst = 0.0
        validate([str(self.root)])  # warm up

    def check(self, text: str) -> None:
        self.file.write_text(text, encoding="utf-8")
        started = time.process_time()
        result = validate([str(self.root)])
        spent = time.process_time() - started
        self.cases += 1
        self.worst = max(self.worst, spent)
        assert spent < MAX_CHECK_SECONDS, f"validate took {spent:.2f} s of CPU:\n{text}"
        for d in result.diagnostics:
            assert d.code not in ENGINE_BUGS, f"an engine bug: {d.headline()}\n{text}"
            assert d.file and d.line >= 1 and d.column >= 1 and d.message, d
        if not result.ok:
            return
        self.clean += 1
        self.play(text)

    def play(self, text: str) -> None:
        spec = load_ruleset("numbers", self.root).spec
        assert spec is not None
        started = time.process_time()
        rng = random.Random(self.cases)
        try:
            state = Game(spec, 2).new_state(self.cases)
            self.played += 1
            while state.decision is not None and len(state.st.history) < MAX_DECISIONS:
                for index in rng.sample(range(len(state.decision.options)), len(state.decision.options)):
                    try:
                        state.apply(index)
                        break
                    except GameError:  # refused: another option
                        continue
                else:
                    break  # every option refused
        except InternalError as err:  # a content bug met at run time: it must say where
            self.stopped += 1
            self.reasons[" ".join(err.message.split()[:5])] += 1
            assert err.where is not None and err.where.file and err.where.line, f"{err}\n{text}"
        self.decisions += len(state.st.history) if "state" in locals() else 0
        spent = time.process_time() - started
        assert spent < MAX_PLAY_SECONDS, f"a game took {spent:.2f} s of CPU:\n{text}"


BATCH = 500
"""Examples per hypothesis run: hypothesis keeps every example's choices for the run (a
tree that grows about 70 KB an example here), so a long run is several runs, and the
memory measured is the engine's."""


def _fuzz(folder: Path, examples: int) -> Run:
    run = Run(folder)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    for start in range(0, examples, BATCH):

        @settings(max_examples=min(BATCH, examples - start), deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(procedures())
        def case(text: str) -> None:
            run.check(text)

        case()
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    assert growth < MAX_GROWTH_BYTES, f"the peak memory grew by {growth / 1e6:.0f} MB"
    return run


def _summary(run: Run, seconds: float) -> str:
    return (f"{run.cases} rules files in {seconds:.0f} s: {run.clean} checked clean and {run.played} set up and "
            f"played ({run.decisions} decisions; {run.stopped} stopped on a located internal error); the slowest "
            f"check took {run.worst:.2f} s of CPU; what stopped games: "
            + "; ".join(f"{n} {why}..." for why, n in run.reasons.most_common(6)))


def test_rules_fuzz(tmp_path: Path) -> None:
    started = time.perf_counter()
    run = _fuzz(tmp_path, 100)
    print("\n" + _summary(run, time.perf_counter() - started))
    assert run.cases >= 80 and run.played >= 10  # most cases check and run: the runtime is what is fuzzed


@pytest.mark.fuzz
def test_rules_fuzz_5000(tmp_path: Path) -> None:
    started = time.perf_counter()
    run = _fuzz(tmp_path, 5_000)
    print("\n" + _summary(run, time.perf_counter() - started))
    assert run.cases >= 5_000
