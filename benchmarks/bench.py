"""Benchmarks for the hot path (a script, not a test: nothing here asserts a time).

    python benchmarks/bench.py                 # compact table
    python benchmarks/bench.py --json          # one JSON object
    python benchmarks/bench.py --quick         # fewer games (a smoke run)
    python benchmarks/bench.py --profile 50    # also cProfile 50 games: top functions

(a) random-bot games of the legacy ruleset: games/s, decisions/s, VM steps/s, mean
    decisions per game (200 games at 4 players, seeds 0..199; then each player count);
    then Legacies at 4 players (--legacies-games, seeds 0..N-1): games/s, decisions per
    game and µs per decision;
(b) clone() in µs, serialize() and deserialize() (which replays the whole history);
(c) seconds to load + check every installed ruleset, uncached, and the wall time of
    a `legacies validate` subprocess if the console command exists.

Random bots pick a uniformly random option; an option the rules refuse (Refused) is
skipped for another, as agents/bots.random_playout does. Times use time.perf_counter.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import platform
import pstats
import random
import shutil
import statistics
import subprocess
import sys
import time
from typing import Any

from legacies.agents.bots import apply_random_option
from legacies.interpreter.game import Game, GameState, Undo
from legacies.pipeline import ruleset as ruleset_mod
from legacies.pipeline.ruleset import load_ruleset, rulesets

RULESET = "legacy"
MAX_DECISIONS = 50_000


# --------------------------------------------------------------------------- playing
def play_random(game: Game, seed: int, rng: random.Random | None = None) -> tuple[GameState, int]:
    """One game with random bots; returns the final state and the options refused."""
    rng = rng or random.Random(seed)
    gs = game.new_state(seed)
    refused = 0
    for _ in range(MAX_DECISIONS):
        d = gs.decision
        if d is None:
            break
        index, n = apply_random_option(gs, rng, undo=Undo.REPLAY)
        refused += n
        if index is None:
            raise RuntimeError(f"seed {seed}: every option of {d.prompt!r} was refused")
    return gs, refused


def bench_games(spec, players: int, seeds: range) -> dict[str, Any]:
    t0 = time.perf_counter()
    game = Game(spec, players)
    compile_s = time.perf_counter() - t0
    decisions = steps = turns = refused = 0
    t0 = time.perf_counter()
    for seed in seeds:
        gs, r = play_random(game, seed)
        decisions += len(gs.st.history)
        steps += gs.st.steps
        turns += gs.st.turns
        refused += r
    dt = time.perf_counter() - t0
    n = len(seeds)
    return {
        "players": players, "games": n, "seconds": dt,
        "games_per_s": n / dt, "decisions_per_s": decisions / dt, "vm_steps_per_s": steps / dt,
        "mean_decisions": decisions / n, "mean_turns": turns / n, "mean_vm_steps": steps / n,
        "refused_options": refused, "game_build_ms": compile_s * 1e3,
    }


# --------------------------------------------------------------------------- state ops
def sample_states(spec, players: int, games: int, every: int) -> list[GameState]:
    """Mid-game states (every `every`-th decision of a few random games)."""
    game = Game(spec, players)
    out: list[GameState] = []
    for seed in range(games):
        rng = random.Random(seed)
        gs = game.new_state(seed)
        while not gs.is_terminal():
            if len(gs.st.history) % every == 0:
                out.append(gs.clone())
            if apply_random_option(gs, rng)[0] is None:
                break
        out.append(gs)
    return out


def _per_call(fn, items: list, repeat: int) -> float:
    """Mean seconds per call of fn(item) over `repeat` passes of `items`."""
    t0 = time.perf_counter()
    for _ in range(repeat):
        for x in items:
            fn(x)
    return (time.perf_counter() - t0) / (repeat * len(items))


def bench_state_ops(spec, players: int, games: int, quick: bool) -> dict[str, Any]:
    states = sample_states(spec, players, games, every=10)
    texts = [s.serialize() for s in states]
    mean_len = statistics.fmean(len(s.st.history) for s in states)
    rep = 3 if quick else 20
    des = states[:: max(1, len(states) // (20 if quick else 60))]
    des_texts = [s.serialize() for s in des]
    t_des = _per_call(lambda t: GameState.deserialize(spec, t), des_texts, 1)
    des_len = statistics.fmean(len(s.st.history) for s in des)
    return {
        "players": players, "states": len(states), "mean_history": mean_len,
        "clone_us": _per_call(lambda s: s.clone(), states, rep) * 1e6,
        "canonical_us": _per_call(lambda s: s.canonical(), states, rep) * 1e6,
        "fingerprint_us": _per_call(lambda s: s.fingerprint(), states, max(1, rep // 4)) * 1e6,
        "serialize_us": _per_call(lambda s: s.serialize(), states, max(1, rep // 4)) * 1e6,
        "view_us": _per_call(lambda s: s.view(0), states, max(1, rep // 4)) * 1e6,
        "deserialize_ms": t_des * 1e3,
        "deserialize_mean_history": des_len,
        "deserialize_us_per_decision": t_des * 1e6 / max(des_len, 1),
        "save_bytes": statistics.fmean(len(t) for t in texts),
    }


# --------------------------------------------------------------------------- loading
_COLD = """
import json, time
t0 = time.perf_counter()
from legacies.pipeline.ruleset import load_ruleset, rulesets
t1 = time.perf_counter()
ok = all(load_ruleset(n).ok for n in rulesets())
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "ok": ok}))
"""


def bench_load(repeat: int) -> dict[str, Any]:
    """Load + check every installed ruleset: cold (a fresh interpreter: imports, grammar
    construction, first load) and uncached in this process (the cache cleared each time)."""
    names = rulesets()
    rounds: list[float] = []
    per: dict[str, list[float]] = {n: [] for n in names}
    ok = True
    for _ in range(repeat):
        t_all = time.perf_counter()
        for name in names:
            ruleset_mod._cache.clear()
            t0 = time.perf_counter()
            result = load_ruleset(name)
            per[name].append(time.perf_counter() - t0)
            ok = ok and result.ok
        rounds.append(time.perf_counter() - t_all)
    ruleset_mod._cache.clear()
    out: dict[str, Any] = {
        "rulesets": names, "ok": ok, "repeats": repeat,
        "uncached_median_s": statistics.median(rounds), "uncached_min_s": min(rounds),
        "per_ruleset_median_s": {n: statistics.median(v) for n, v in per.items()},
    }
    proc = subprocess.run([sys.executable, "-c", _COLD], capture_output=True, text=True)
    try:
        out["cold"] = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        out["cold"] = {"error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
    exe = shutil.which("legacies")
    if exe is None:
        out["validate"] = None
    else:
        t0 = time.perf_counter()
        proc = subprocess.run([exe, "validate"], capture_output=True, text=True)
        out["validate"] = {"seconds": time.perf_counter() - t0, "exit_code": proc.returncode,
                           "output": (proc.stdout + proc.stderr).strip().splitlines()[-1:]}
    return out


# --------------------------------------------------------------------------- profiling
def profile_games(spec, players: int, games: int, top: int = 10) -> dict[str, Any]:
    game = Game(spec, players)
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        play_random(game, seed)
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt  # type: ignore[attr-defined]

    def rows(key: str) -> list[dict[str, Any]]:
        entries = []
        for (file, line, func), (cc, nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
            short = file.split("/work/main/")[-1] if "/work/main/" in file else file.rsplit("/", 2)[-1]
            entries.append({"function": f"{short}:{line}({func})", "calls": nc, "own_s": tt, "cum_s": ct})
        entries.sort(key=lambda e: -e[key])
        return entries[:top]
    return {"players": players, "games": games, "total_s": total, "by_own": rows("own_s"), "by_cum": rows("cum_s")}


# --------------------------------------------------------------------------- output
def print_table(r: dict[str, Any]) -> None:
    env = r["env"]
    print(f"legacies benchmarks  (python {env['python']}, {env['machine']})")
    print()
    print(f"(a) random bots, ruleset {RULESET}")
    head = f"{'players':>7} {'games':>5} {'sec':>6} {'games/s':>8} {'dec/s':>8} {'vm st/s':>9} " \
           f"{'dec/game':>8} {'turns':>6} {'refused':>7} {'build ms':>8}"
    print(head)
    for g in [r["games_main"], *r["games_by_players"]]:
        print(f"{g['players']:>7} {g['games']:>5} {g['seconds']:>6.2f} {g['games_per_s']:>8.1f} "
              f"{g['decisions_per_s']:>8.0f} {g['vm_steps_per_s']:>9.0f} {g['mean_decisions']:>8.1f} "
              f"{g['mean_turns']:>6.1f} {g['refused_options']:>7} {g['game_build_ms']:>8.2f}")
    lg = r.get("legacies")
    if lg is not None:
        print()
        print(f"(a) random bots, ruleset legacies: {lg['players']} players, {lg['games']} games in "
              f"{lg['seconds']:.2f} s: {lg['games_per_s']:.2f} games/s, {lg['mean_decisions']:.0f} decisions "
              f"per game, {1e6 / lg['decisions_per_s']:.0f} µs per decision (build {lg['game_build_ms']:.0f} ms)")
    s = r["state_ops"]
    print()
    print(f"(b) state operations ({s['players']} players, {s['states']} mid-game states, "
          f"mean history {s['mean_history']:.0f} decisions)")
    print(f"    clone {s['clone_us']:.1f} µs   canonical {s['canonical_us']:.1f} µs   "
          f"fingerprint {s['fingerprint_us']:.1f} µs   view {s['view_us']:.1f} µs")
    print(f"    serialize {s['serialize_us']:.1f} µs ({s['save_bytes']:.0f} bytes)   deserialize "
          f"{s['deserialize_ms']:.2f} ms (replays {s['deserialize_mean_history']:.0f} decisions: "
          f"{s['deserialize_us_per_decision']:.1f} µs each)   "
          f"round trip {s['serialize_us'] / 1e3 + s['deserialize_ms']:.2f} ms")
    ld = r["load"]
    print()
    per = ", ".join(f"{n} {t:.3f} s" for n, t in ld["per_ruleset_median_s"].items())
    print(f"(c) load + check all shipped content ({len(ld['rulesets'])} rulesets, ok={ld['ok']}): "
          f"uncached median {ld['uncached_median_s']:.3f} s, best {ld['uncached_min_s']:.3f} s "
          f"of {ld['repeats']}  [{per}]")
    c = ld["cold"]
    if "error" in c:
        print(f"    cold (fresh interpreter): failed: {c['error']}")
    else:
        print(f"    cold (fresh interpreter): import {c['import_s']:.3f} s + first load {c['load_s']:.3f} s "
              f"= {c['import_s'] + c['load_s']:.3f} s, ok={c['ok']}")
    v = ld["validate"]
    if v is None:
        print("    `legacies validate`: console command not found")
    else:
        print(f"    `legacies validate` subprocess: {v['seconds']:.3f} s wall, exit {v['exit_code']}"
              + (f"  ({v['output'][0][:80]})" if v["output"] else ""))
    if "profile" in r:
        p = r["profile"]
        print()
        print(f"(profile) {p['games']} games at {p['players']} players, {p['total_s']:.2f} s under cProfile")
        for key, title in (("by_cum", "cumulative"), ("by_own", "own")):
            print(f"  top by {title} time:")
            print(f"    {'calls':>9} {'own s':>7} {'cum s':>7}  function")
            for e in p[key]:
                print(f"    {e['calls']:>9} {e['own_s']:>7.3f} {e['cum_s']:>7.3f}  {e['function']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    ap.add_argument("--quick", action="store_true", help="fewer games and repeats")
    ap.add_argument("--games", type=int, default=200, help="games at --players (seeds 0..N-1)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--per-count", type=int, default=40, help="games per player count")
    ap.add_argument("--legacies-games", type=int, default=20, help="Legacies games at 4 players")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="also cProfile N games")
    a = ap.parse_args(argv)
    if a.quick:
        a.games, a.per_count, a.legacies_games = min(a.games, 30), min(a.per_count, 8), min(a.legacies_games, 3)

    res = load_ruleset(RULESET)
    if not res.ok or res.spec is None:
        print("\n".join(str(d) for d in res.diagnostics), file=sys.stderr)
        return 2
    spec = res.spec
    result: dict[str, Any] = {
        "env": {"python": platform.python_version(), "machine": f"{platform.system()} {platform.machine()}"},
        "ruleset": RULESET,
    }
    result["games_main"] = bench_games(spec, a.players, range(a.games))
    result["games_by_players"] = [bench_games(spec, n, range(a.per_count))
                                  for n in range(spec.min_players, spec.max_players + 1)]
    if "legacies" in rulesets():
        legacies = load_ruleset("legacies")
        result["legacies"] = bench_games(legacies.spec, 4, range(a.legacies_games)) if legacies.ok else None
    result["state_ops"] = bench_state_ops(spec, a.players, games=5 if a.quick else 20, quick=a.quick)
    result["load"] = bench_load(repeat=2 if a.quick else 5)
    if a.profile:
        result["profile"] = profile_games(load_ruleset(RULESET).spec, a.players, a.profile)
    if a.json:
        print(json.dumps(result, indent=None, sort_keys=True))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
