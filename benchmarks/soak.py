"""Soak run (Spellsource's habit): many seeded random games over every installed ruleset
and player count, every invariant checked after every decision. The service is
legacies.agents.soak, also behind `legacies soak` (which adds a progress bar); this
script prints one line per failure and the totals.

    python benchmarks/soak.py --games 10000 [--ruleset legacy] [--players 3] [--seed 0] [--workers 2]

Exit 0 when every game was clean, 1 otherwise. A failing game is saved to --out
(default soak-failures/): `legacies replay --verify SAVE` reproduces it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from legacies.agents.soak import MAX_DECISIONS, run_soak, soak_tables
from legacies.pipeline.ruleset import rulesets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ruleset", action="append")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-decisions", type=int, default=MAX_DECISIONS)
    parser.add_argument("--out", type=Path, default=Path("soak-failures"))
    args = parser.parse_args(argv)
    tables, broken = soak_tables(args.ruleset or rulesets(), args.players)
    for name in broken:
        print(f"{name}: has content errors; run `legacies validate --ruleset {name}`")
    result = run_soak(args.games, tables, args.seed, args.workers, args.max_decisions, args.out)
    for failure, path in zip(result.failures, result.saved):
        print(f"FAIL {failure.ruleset} {failure.players}p seed {failure.seed}: {failure.message} (replay: {path})")
    rate = result.games / result.seconds if result.seconds else 0.0
    print(f"{result.games} games ({', '.join(sorted({t[0] for t in tables}))}), {result.decisions} decisions, "
          f"{len(result.failures)} failures, {result.seconds:.1f} s ({rate:.0f} games/s)")
    return 1 if result.failures or broken else 0


if __name__ == "__main__":
    sys.exit(main())
