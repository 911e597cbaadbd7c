"""The service behind `legacies bench`: every speed figure the project has a target for,
measured in one run on this machine. Nothing here asserts a time (the figures are for
people and for CI's record, not a test); a figure that cannot be measured here (a
ruleset that is not installed, a console command that is missing, the hand-written game
`legacy_vs_reference` is measured against when no checkout holds it) is None, never
invented.

Times inside this process are CPU time (`time.process_time`), so a busy machine
slows a figure less; the cold-process figures (`validate_*`) are wall time of a new
process, as a designer or a pre-commit hook waits for it.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from legacies.agents.bots import BOTS, apply_random_option
from legacies.agents.processes import compiled_kept
from legacies.interpreter.game import Game, GameState, Undo
from legacies.pipeline.ruleset import load_ruleset, rulesets
from legacies.pipeline.yaml_source import load_yaml

MAX_DECISIONS = 50_000


@dataclass(frozen=True)
class Target:
    """A figure's goal: `op` is ">=" (more is better) or "<="; `unit` for the table."""

    op: str
    value: float
    unit: str
    what: str

    def met(self, figure: float | None) -> bool | None:
        if figure is None:
            return None
        return figure >= self.value if self.op == ">=" else figure <= self.value


TARGETS: dict[str, Target | None] = {
    "legacies_games_per_s": Target(">=", 60, "games/s", "Legacies, 4 random bots, one process"),
    "legacies_us_per_decision": None,
    "legacy_games_per_s": Target(">=", 250, "games/s", "Legacy card game, 4 random bots, one process"),
    "legacy_us_per_decision": Target("<=", 15, "µs", "Legacy card game, per decision"),
    "legacy_vs_reference": Target("<=", 1.5, "×", "Legacy card game per decision, the engine over the same game "
                                                  "written by hand (benchmarks/reference/), one process"),
    "validate_s": Target("<=", 0.6, "s", "`legacies validate` of all shipped content, a new process, warm caches "
                                         "(median of 5)"),
    "validate_cold_s": None,  # the same with an empty cache folder (no parse cache): reported, not judged
    "validate_416_s": Target("<=", 0.6, "s", "cold validate of a synthetic ruleset of 416 items"),
    "validate_6656_s": None,
    "validate_ratio": Target("<=", 12, "x", "6,656 items over 416 items (16x the items: linear)"),
    "validate_6656_peak_mb": Target("<=", 300, "MB", "peak memory validating 6,656 items"),
    "help_s": Target("<=", 0.25, "s", "`legacies play --help`, a new process (median of 5)"),
    "effect_overhead": Target("<=", 2.5, "x", "effects through the engine over the same in plain Python"),
    "clone_us": Target("<=", 50, "µs", "clone of a mid-game 4-player Legacies state"),
    "resume_ms": Target("<=", 50, "ms", "load a saved game (the game already compiled)"),
    "parallel_speedup": Target(">=", 1.8, "x", "soak throughput, 2 workers over 1"),
    "search_ms_per_decision": Target("<=", 350, "ms", "the search bot at its default iterations, Legacies (median)"),
    "greedy_ms_per_decision": Target("<=", 3, "ms", "the greedy bot at its default lookahead, the slowest installed "
                                                    "ruleset's median"),
    "serve_ms_per_action": Target("<=", 50, "ms", "`legacies serve`: an answer sent to the fresh view received, "
                                                  "loopback (median)"),
}
"""Every key `legacies bench --json` prints, in order, with its target (None: no target,
shown beside the figure it explains)."""

JUDGED_RULESETS = ("legacies", "legacy")
"""The rulesets whose speed has a target above; every other installed ruleset's is
reported, not judged, under keys made from the first word of its name."""


def _reported_keys() -> dict[str, None]:
    """`PREFIX_games_per_s` and `PREFIX_us_per_decision` of each other installed ruleset,
    PREFIX the first word of its name (the rulesets are data: none is named here)."""
    keys: dict[str, None] = {}
    for name in rulesets():
        if name not in JUDGED_RULESETS:
            prefix = name.split("-")[0].replace("_", "")
            keys.update({f"{prefix}_games_per_s": None, f"{prefix}_us_per_decision": None})
    return keys


TARGETS = {**dict(list(TARGETS.items())[:5]), **_reported_keys(), **dict(list(TARGETS.items())[5:])}


# --------------------------------------------------------------------------- games
def play_random(game: Game, seed: int) -> GameState:
    """One game of random bots (a refused option is skipped for another, as the
    bots do); the final state."""
    rng = random.Random(seed)
    gs = game.new_state(seed)
    for _ in range(MAX_DECISIONS):
        d = gs.decision
        if d is None:
            return gs
        if apply_random_option(gs, rng, undo=Undo.REPLAY)[0] is None:
            raise RuntimeError(f"seed {seed}: every option of {d.prompt!r} was refused")
    raise RuntimeError(f"seed {seed}: not over after {MAX_DECISIONS} decisions")


def games_per_second(ruleset: str, players: int, games: int, rounds: int = 1) -> dict[str, Any] | None:
    """Random-bot games at `players` (seeds 0..games-1), played `rounds` times over (the
    same games, in one process): games/s and µs per decision of the median round. A round
    of a few tenths of a second is moved by anything else the machine does for a moment;
    the median of three is not."""
    if ruleset not in rulesets():
        return None
    res = load_ruleset(ruleset)
    if res.spec is None:
        return None
    game = Game(res.spec, players)
    times: list[float] = []
    with compiled_kept():  # as soak and simulate play
        for _ in range(rounds):
            decisions = 0
            started = time.process_time()
            for seed in range(games):
                decisions += len(play_random(game, seed).st.history)
            times.append(time.process_time() - started)
    seconds = statistics.median(times)
    return {"games": games, "seconds": seconds, "games_per_s": games / seconds,
            "decisions_per_game": decisions / games, "us_per_decision": seconds * 1e6 / decisions,
            "rounds_s": times}


# --------------------------------------------------------------------------- the reference
REFERENCE = ("benchmarks", "reference", "legacy")
"""The hand-written Legacy card game the engine's is measured against (docs/speed.md): in
the repository's benchmarks/ folder, which the installed package does not hold."""


def reference_game() -> tuple[ModuleType | None, str]:
    """(the hand-written game, where it was found) or (None, why not): the module
    `benchmarks.reference.legacy` if it can be imported, else the file in the checkout the
    package runs from (an editable install) or in the current folder."""
    try:
        return importlib.import_module(".".join(REFERENCE)), "benchmarks.reference.legacy"
    except ImportError:
        pass
    for root in (Path(__file__).resolve().parents[1], Path.cwd()):
        path = root.joinpath(*REFERENCE).with_suffix(".py")
        spec = importlib.util.spec_from_file_location("_bench_reference", path) if path.is_file() else None
        if spec is not None and spec.loader is not None:
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module, str(path)
    return None, ("the hand-written game (benchmarks/reference/legacy.py) is not installed with the package: "
                  "run `legacies bench` from a checkout of the repository")


def reference_per_decision(players: int, games: int, rounds: int = 1) -> dict[str, Any]:
    """The hand-written game's random games (seeds 0..games-1, as games_per_second plays
    the engine's), played `rounds` times over: µs per decision of the median round; or
    {"reason": ...} when the game cannot be found."""
    module, where = reference_game()
    if module is None:
        return {"reason": where}
    play = module.play
    times: list[float] = []
    decisions = 0
    for _ in range(rounds):
        decisions = 0
        started = time.process_time()
        for seed in range(games):
            decisions += play(seed, players)[0]
        times.append(time.process_time() - started)
    seconds = statistics.median(times)
    return {"from": where, "games": games, "seconds": seconds, "games_per_s": games / seconds,
            "decisions_per_game": decisions / games, "us_per_decision": seconds * 1e6 / decisions,
            "rounds_s": times}


ROUNDS = 3
"""How many times the full bench plays each ruleset's games (the median round counts)."""

LEGACY_GAMES = (20, 200)
"""Games (quick, full) of the Legacy card game, the engine's and the hand-written one's."""

REPORTED_GAMES = (4, 40)
"""Games (quick, full) of each ruleset whose speed is reported, not judged."""


def reported_rulesets() -> list[tuple[str, str]]:
    """(key prefix, installed ruleset) for each `PREFIX_games_per_s` of TARGETS without a
    target: the ruleset whose name's first word is PREFIX."""
    installed = rulesets()
    out: list[tuple[str, str]] = []
    for key, target in TARGETS.items():
        if key.endswith("_games_per_s") and target is None:
            prefix = key.removesuffix("_games_per_s")
            out.extend((prefix, name) for name in installed if name.split("-")[0] == prefix)
    return out


def mid_game(ruleset: str, players: int, decisions: int, seed: int = 1) -> GameState | None:
    """A state `decisions` random decisions into a game (or the end, if sooner)."""
    res = load_ruleset(ruleset)
    if res.spec is None:
        return None
    gs = Game(res.spec, players).new_state(seed)
    rng = random.Random(seed)
    while gs.decision is not None and len(gs.st.history) < decisions:
        if apply_random_option(gs, rng, undo=Undo.REPLAY)[0] is None:
            break  # every option refused: the state as it stands
    return gs


def to_a_choice(gs: GameState, rng: random.Random) -> bool:
    """Decisions with one option taken until one offers a choice; whether one does (the
    game may end first)."""
    while gs.decision is not None and len(gs.decision.options) == 1:
        apply_random_option(gs, rng, undo=Undo.REPLAY)
    return gs.decision is not None


def per_call_us(fn: Callable[[], Any], repeat: int) -> float:
    """Mean CPU µs of fn() over `repeat` calls (best of three rounds)."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        for _ in range(repeat):
            fn()
        best = min(best, (time.process_time() - started) / repeat)
    return best * 1e6


def clone_us(quick: bool) -> dict[str, Any] | None:
    """Clone of a mid-game 4-player Legacies state (Legacy when Legacies is missing),
    at two history lengths: the figure must not grow with the history."""
    ruleset = "legacies" if "legacies" in rulesets() else "legacy"
    early = mid_game(ruleset, 4, 100)
    late = mid_game(ruleset, 4, 400)
    if early is None or late is None:
        return None
    repeat = 200 if quick else 2000
    return {"ruleset": ruleset, "us": per_call_us(late.clone, repeat),
            "us_at_100_decisions": per_call_us(early.clone, repeat),
            "decisions": len(late.st.history)}


def resume_ms(quick: bool) -> dict[str, Any] | None:
    """Loading a save of the longest game among a few seeded 6-player Legacies games
    (Legacy when Legacies is missing), its Game already compiled in this process."""
    ruleset = "legacies" if "legacies" in rulesets() else "legacy"
    res = load_ruleset(ruleset)
    if res.spec is None:
        return None
    spec = res.spec
    game = Game(spec, spec.max_players)
    longest = max((play_random(game, seed) for seed in range(1 if quick else 4)), key=lambda s: len(s.st.history))
    text = longest.serialize()
    GameState.deserialize(spec, text)  # compiles the game once, as a running program has
    times = []
    for _ in range(1 if quick else 3):
        started = time.process_time()
        GameState.deserialize(spec, text)
        times.append(time.process_time() - started)
    return {"ruleset": ruleset, "ms": min(times) * 1e3, "decisions": len(longest.st.history),
            "ms_per_1000_decisions": min(times) * 1e6 / len(longest.st.history)}


SEARCH_AT = (30, 90, 150, 210, 270, 330, 390)
"""How many random decisions into seeded Legacies game 1 the search bot is timed (at
the first decision from there with more than one option)."""


def search_ms(quick: bool) -> dict[str, Any] | None:
    """The search bot at its default iterations, one decision at each of SEARCH_AT
    (the first three with --quick) of a 4-player Legacies game: median CPU ms in one
    process; beside it, on a machine of two cores or more, the median wall ms of the
    same bot thinking in two worker processes (the same moves)."""
    from legacies.agents.bots import SearchBot
    from legacies.agents.processes import cores

    if "legacies" not in rulesets():
        return None
    states = []
    for at in SEARCH_AT[:3] if quick else SEARCH_AT:
        gs = mid_game("legacies", 4, at)
        if gs is None:
            return None
        if to_a_choice(gs, random.Random(at)):
            states.append(gs)
    if not states:
        return None
    times: list[float] = []
    with compiled_kept():
        for n, gs in enumerate(states):
            bot = BOTS["search"](n)
            started = time.process_time()
            bot.choose(gs)
            times.append((time.process_time() - started) * 1e3)
    found: dict[str, Any] = {"ms": statistics.median(times), "each_ms": times}
    bot = BOTS["search"](0)
    if cores() >= 2 and isinstance(bot, SearchBot):
        two = SearchBot(0, think=None, iterations=bot.iterations, workers=2)
        try:
            two.choose(states[0])  # the workers start
            walls = []
            for gs in states:
                started = time.perf_counter()
                two.choose(gs)
                walls.append((time.perf_counter() - started) * 1e3)
        finally:
            two.close()
        found["two_workers_wall_ms"] = statistics.median(walls)
    return found


GREEDY_AT = (30, 150, 270, 390)
"""How many random decisions into seeded 4-player game 1 of each ruleset greedy is timed
(the default opponent at every table)."""

GREEDY_PLAYERS = 4
"""Greedy is timed at this many players (or the nearest count the ruleset seats)."""


def greedy_ms(quick: bool) -> dict[str, Any] | None:
    """The greedy bot at its default lookahead on every installed ruleset: six decisions
    from each of GREEDY_AT (two of the first two with --quick) of a 4-player game, each
    ruleset's median and mean CPU ms in one process and its slowest decision. The figure
    (`ms`) is the slowest ruleset's median: a balance run waits for its slowest table."""
    each: dict[str, dict[str, Any]] = {}
    for name in rulesets():
        found = greedy_ruleset_ms(name, quick)
        if found is not None:
            each[name] = found
    if not each:
        return None
    slowest = max(each, key=lambda name: each[name]["ms"])
    return {"ms": each[slowest]["ms"], "slowest": slowest, "rulesets": each,
            "decisions": sum(found["decisions"] for found in each.values())}


def greedy_ruleset_ms(ruleset: str, quick: bool) -> dict[str, Any] | None:
    """greedy_ms's figures for one ruleset (None: it does not load, or offers no choice)."""
    res = load_ruleset(ruleset)
    if res.spec is None:
        return None
    players = min(max(GREEDY_PLAYERS, res.spec.min_players), res.spec.max_players)
    times: list[float] = []
    with compiled_kept():
        for at in GREEDY_AT[:2] if quick else GREEDY_AT:
            gs = mid_game(ruleset, players, at)
            if gs is None:
                return None
            rng = random.Random(at)
            for _ in range(2 if quick else 6):
                if not to_a_choice(gs, rng):
                    break
                bot = BOTS["greedy"](at)
                started = time.process_time()
                chosen = bot.choose(gs)
                times.append((time.process_time() - started) * 1e3)
                gs.apply(chosen, undo=Undo.REPLAY)
    if not times:
        return None
    return {"ms": statistics.median(times), "mean_ms": statistics.fmean(times), "max_ms": max(times),
            "decisions": len(times), "players": players}


_SERVE = """
import json, sys
from legacies.cli.web.bench import serve_ms_per_action
print("BENCH " + json.dumps(serve_ms_per_action(sys.argv[1] == "quick")))
"""


def serve_ms(quick: bool) -> dict[str, Any] | None:
    """`legacies serve`'s figure, measured by the server's own module (cli/web/bench.py)
    in a new process (the command is a layer above this one): None when it cannot run."""
    try:
        done = subprocess.run([sys.executable, "-c", _SERVE, "quick" if quick else "full"], capture_output=True,
                              text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = [line for line in done.stdout.splitlines() if line.startswith("BENCH ")]
    if done.returncode != 0 or not found:
        return None
    result: dict[str, Any] | None = json.loads(found[-1][len("BENCH "):])
    return result


# --------------------------------------------------------------------------- cold validate
_MEASURED = """
import resource, sys
kept = sys.argv.pop(1) == "kept"
sys.argv = ["legacies", "validate", *sys.argv[1:]]
from legacies.cli.main import app
if not kept:  # the check itself: a result kept for these files (pipeline/check_cache.py) is not read
    from legacies.pipeline import check_cache
    check_cache.USED = False
try:
    app()
except SystemExit as exit:
    code = exit.code
else:
    code = 0
print("\\nBENCH " + str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) + " " + str(code), file=sys.stderr)
"""


def cold_validate(args: list[str], runs: int, cached: bool = True, kept: bool = False) -> dict[str, Any] | None:
    """`legacies validate ARGS` in a new process, `runs` times: median wall seconds,
    peak memory (MB) and the exit status. Not `cached`: each run is given an empty cache
    folder (no parse cache, no grammar tables), as on a new machine. `kept`: what an
    earlier check of the same files found is read (pipeline/check_cache.py), after one
    run not counted that keeps it; else every run checks."""
    walls: list[float] = []
    peak = 0.0
    code: int | None = None
    for run in range(runs + (1 if kept else 0)):
        with tempfile.TemporaryDirectory(prefix="legacies-bench-cache-") as empty:
            env = None if cached else {**os.environ, "LEGACIES_CACHE_DIR": empty}
            started = time.perf_counter()
            proc = subprocess.run([sys.executable, "-c", _MEASURED, "kept" if kept else "checked", *args],
                                  capture_output=True, text=True, env=env)
            wall = time.perf_counter() - started
        marks = [line for line in proc.stderr.splitlines() if line.startswith("BENCH ")]
        if not marks:
            return None
        if kept and not run:
            continue  # the run that keeps the result: not counted
        walls.append(wall)
        kb, status = marks[-1].split()[1:]
        peak = max(peak, int(kb) / 1024)
        code = int(status) if status.lstrip("-").isdigit() else 1
    return {"seconds": statistics.median(walls), "peak_mb": peak, "exit": code}


def synthetic_ruleset(folder: Path, items: int) -> Path:
    """A copy of the shipped Legacy card game whose cards are repeated (new ids and
    names, one copy each past the first set) until the content holds `items` items,
    in files of at most 208 items. Returns the folder to validate."""
    from importlib import resources

    from legacies.pipeline.files import CONTENT_PACKAGE, RULES_PACKAGE

    rules = folder / "rules" / "legacy"
    rules.mkdir(parents=True)
    for entry in resources.files(RULES_PACKAGE).joinpath("legacy").iterdir():
        if entry.name.endswith(".yaml"):
            (rules / entry.name).write_bytes(entry.read_bytes())
    cards_file = resources.files(CONTENT_PACKAGE).joinpath("legacy").joinpath("cards.yaml")
    source, _ = load_yaml("cards.yaml", cards_file.read_text(encoding="utf-8"))
    assert source is not None and isinstance(source.data, dict)
    cards: list[dict[str, Any]] = source.data["items"]
    made: list[dict[str, Any]] = []
    round_ = 0
    while len(made) < items:
        for card in cards:
            if len(made) == items:
                break
            copy = json.loads(json.dumps(card))
            if round_:
                copy["id"] = f"{card['id']}_{round_}"
                copy["name"] = f"{card['name']} {round_}"
                copy["copies"] = 1
            made.append(copy)
        round_ += 1
    content = folder / "content" / "legacy"
    content.mkdir(parents=True)
    for n, start in enumerate(range(0, len(made), 208)):
        body = {"ruleset": "legacy", "items": made[start:start + 208]}
        (content / f"cards_{n:03}.yaml").write_text(json.dumps(body, indent=1), encoding="utf-8")
    return folder


def validate_figures(quick: bool) -> dict[str, Any]:
    shipped = cold_validate([], 1 if quick else 5, kept=True)
    out: dict[str, Any] = {"shipped": shipped, "shipped_no_cache": cold_validate([], 1 if quick else 3, cached=False)}
    if "legacy" not in rulesets():
        return out
    with tempfile.TemporaryDirectory(prefix="legacies-bench-") as tmp:
        for items in (416, 6656):
            folder = synthetic_ruleset(Path(tmp) / f"r{items}", items)
            out[f"items_{items}"] = cold_validate([str(folder)], 1 if quick else 3)
    return out


def help_seconds(quick: bool) -> float | None:
    """`legacies play --help` in a new process: median wall seconds of 5 runs (1 with
    --quick), after one not counted; None when it fails."""
    script = "import sys\nsys.argv = ['legacies', 'play', '--help']\nfrom legacies.cli.main import main\nmain()"
    walls: list[float] = []
    for run in range(1 + (1 if quick else 5)):
        started = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        if proc.returncode != 0 or "--seat" not in proc.stdout:
            return None
        if run:
            walls.append(time.perf_counter() - started)
    return statistics.median(walls)


# --------------------------------------------------------------------------- workers
def parallel_speedup(quick: bool) -> dict[str, Any] | None:
    """Soak throughput (games/s) with 2 workers over 1, on the same seeded games."""
    from legacies.agents.soak import run_soak, soak_tables

    tables, _ = soak_tables(["legacy"] if "legacy" in rulesets() else rulesets()[:1], 4)
    if not tables:
        return None
    games = 50 if quick else 200
    one = run_soak(games, tables, seed=0, workers=1)
    two = run_soak(games, tables, seed=0, workers=2)
    return {"games": games, "one_worker_s": one.seconds, "two_workers_s": two.seconds,
            "speedup": one.seconds / two.seconds}


# --------------------------------------------------------------------------- the run
def run_bench(quick: bool = False, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Every figure of TARGETS (None where it cannot be measured), plus `details`."""
    say = progress or (lambda _: None)
    figures: dict[str, Any] = {key: None for key in TARGETS}
    details: dict[str, Any] = {}
    rounds = 1 if quick else ROUNDS
    say("Legacies games")
    lg = games_per_second("legacies", 4, 2 if quick else 10, rounds)
    if lg is not None:
        figures["legacies_games_per_s"] = lg["games_per_s"]
        figures["legacies_us_per_decision"] = lg["us_per_decision"]
        details["legacies"] = lg
    say("Legacy games")
    lc = games_per_second("legacy", 4, LEGACY_GAMES[0] if quick else LEGACY_GAMES[1], rounds)
    if lc is not None:
        figures["legacy_games_per_s"] = lc["games_per_s"]
        figures["legacy_us_per_decision"] = lc["us_per_decision"]
        details["legacy"] = lc
    say("Legacy written by hand")
    ref = reference_per_decision(4, LEGACY_GAMES[0] if quick else LEGACY_GAMES[1], rounds)
    details["reference"] = ref
    if lc is not None and "us_per_decision" in ref:
        figures["legacy_vs_reference"] = lc["us_per_decision"] / ref["us_per_decision"]
    for prefix, name in reported_rulesets():
        say(f"{name} games")
        found = games_per_second(name, 4, REPORTED_GAMES[0] if quick else REPORTED_GAMES[1], rounds)
        if found is not None:
            figures[f"{prefix}_games_per_s"] = found["games_per_s"]
            figures[f"{prefix}_us_per_decision"] = found["us_per_decision"]
            details[name] = found
    say("cold validate")
    v = validate_figures(quick)
    details["validate"] = v
    if v.get("shipped"):
        figures["validate_s"] = v["shipped"]["seconds"]
    if v.get("shipped_no_cache"):
        figures["validate_cold_s"] = v["shipped_no_cache"]["seconds"]
    small, large = v.get("items_416"), v.get("items_6656")
    if small:
        figures["validate_416_s"] = small["seconds"]
    if large:
        figures["validate_6656_s"] = large["seconds"]
        figures["validate_6656_peak_mb"] = large["peak_mb"]
    if small and large:
        figures["validate_ratio"] = large["seconds"] / small["seconds"]
    say("help")
    figures["help_s"] = help_seconds(quick)
    from legacies.agents.effect_bench import effect_overhead

    measures: list[tuple[str, Callable[[bool], dict[str, Any] | None], str, str, str]] = [
        ("effects", effect_overhead, "effect_overhead", "ratio", "effects"),
        ("clone", clone_us, "clone_us", "us", "clone"),
        ("search", search_ms, "search_ms_per_decision", "ms", "search"),
        ("greedy", greedy_ms, "greedy_ms_per_decision", "ms", "greedy"),
        ("resume", resume_ms, "resume_ms", "ms", "resume"),
        ("serve", serve_ms, "serve_ms_per_action", "ms", "serve"),
        ("workers", parallel_speedup, "parallel_speedup", "speedup", "parallel"),
    ]
    for what, measure, key, field_, detail in measures:
        say(what)
        found = measure(quick)
        if found is not None:
            figures[key] = found[field_]
            details[detail] = found
    figures["details"] = details
    return figures


def table_rows(figures: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(key, figure, target, verdict) for every key, in TARGETS order."""
    rows = []
    for key, target in TARGETS.items():
        value = figures.get(key)
        shown = "not measured" if value is None else f"{value:,.2f}" if value < 1000 else f"{value:,.0f}"
        if target is None:
            rows.append((key, shown, "", ""))
            continue
        met = target.met(value)
        verdict = "" if met is None else "met" if met else "missed"
        rows.append((key, shown, f"{target.op} {target.value:g} {target.unit}", verdict))
    return rows
