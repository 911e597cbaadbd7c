"""Soak run (Spellsource's habit): many seeded random games over every installed
ruleset and player count, checking interpreter.invariants after every decision. A
failing game is saved (seed + decisions: a replayable save file) to soak-failures/.

    python benchmarks/soak.py --games 10000 [--ruleset legacy] [--out soak-failures]

Exit 0 when every game was clean, 1 otherwise. Bounded: each game stops after
--max-decisions decisions (and counts as a failure if it has not ended by then)."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from legacies.agents.bots import apply_random_option
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.invariants import problems
from legacies.pipeline.ruleset import load_ruleset, rulesets


def soak_one(game: Game, seed: int, max_decisions: int) -> tuple[GameState, str | None]:
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(max_decisions):
        wrong = problems(state)
        if wrong:
            return state, "; ".join(wrong[:3])
        if state.is_terminal():
            return state, None
        if apply_random_option(state, rng)[0] is None:
            return state, f"every option of {state.decision.prompt!r} was refused"
    return state, f"not over after {max_decisions} decisions"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ruleset", action="append")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--max-decisions", type=int, default=20000)
    parser.add_argument("--out", type=Path, default=Path("soak-failures"))
    args = parser.parse_args(argv)
    names = args.ruleset or rulesets()
    games = {}
    for name in names:
        spec = load_ruleset(name).spec
        if spec is None:
            print(f"{name}: has content errors; run `legacies validate --ruleset {name}`")
            return 1
        for players in range(spec.min_players, spec.max_players + 1):
            games[(name, players)] = Game(spec, players)
    keys = sorted(games)
    failures = 0
    started = time.perf_counter()
    decisions = 0
    for i in range(args.games):
        key = keys[i % len(keys)]
        seed = args.seed + i
        state, error = soak_one(games[key], seed, args.max_decisions)
        decisions += len(state.st.history)
        if error:
            failures += 1
            args.out.mkdir(parents=True, exist_ok=True)
            path = args.out / f"{key[0]}-{key[1]}p-seed{seed}.json"
            path.write_text(state.serialize(), encoding="utf-8")
            print(f"FAIL {key[0]} {key[1]}p seed {seed}: {error} (replay: {path})")
    took = time.perf_counter() - started
    print(f"{args.games} games ({', '.join(names)}), {decisions} decisions, {failures} failures, "
          f"{took:.1f} s ({args.games / took:.0f} games/s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
