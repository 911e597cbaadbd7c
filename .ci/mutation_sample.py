"""The mutation step's two helpers around cosmic-ray (run by .ci/mutation).

`sample SESSION N SEED`: of the mutants cosmic-ray's operator filter left pending, keep a
seeded sample of N (the same N mutants for the same code and seed) and mark the others
skipped, so that the step ends in bounded time; `report SESSION`: the score (the mutants
the tests caught, of those run) and each surviving mutant by file, line and operator.
Neither fails on the score: only a crash of the tool fails the step."""

from __future__ import annotations

import random
import sys

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult


def sample(session: str, count: int, seed: int) -> None:
    """Keep `count` pending mutants, chosen with `seed`; mark the rest skipped."""
    with use_db(session, WorkDB.Mode.open) as db:
        pending = sorted(db.pending_work_items, key=lambda item: item.job_id)
        keep = {item.job_id for item in random.Random(seed).sample(pending, min(count, len(pending)))}
        dropped = [item.job_id for item in pending if item.job_id not in keep]
        db.set_multiple_results(dropped, WorkResult(output="not in this run's sample",
                                                    worker_outcome=WorkerOutcome.SKIPPED))
        print(f"mutation: {len(pending)} mutants after the operator filter; {len(keep)} sampled (seed {seed})")


def report(session: str) -> None:
    """Print the score and the survivors."""
    with use_db(session, WorkDB.Mode.open) as db:
        items = {item.job_id: item for item in db.work_items}
        killed = survived = broken = 0
        survivors: list[str] = []
        for job_id, result in db.results:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            if result.worker_outcome != WorkerOutcome.NORMAL:  # the worker failed: no verdict
                broken += 1
            elif result.test_outcome == TestOutcome.SURVIVED:
                survived += 1
                for m in items[job_id].mutations:
                    survivors.append(f"  {m.module_path}:{m.start_pos[0]} {m.operator_name}")
            else:
                killed += 1
        pending = sum(1 for _ in db.pending_work_items)
    ran = killed + survived
    score = 100.0 * killed / ran if ran else 0.0
    print("surviving mutants:")
    print("\n".join(sorted(survivors)) or "  (none)")
    print(f"mutation score: {score:.1f}% ({killed} killed, {survived} survived, of {ran} run; "
          f"{broken} without a verdict; {pending} not reached in the time limit)")


def main(argv: list[str]) -> int:
    if argv[:1] == ["sample"] and len(argv) == 4:
        sample(argv[1], int(argv[2]), int(argv[3]))
    elif argv[:1] == ["report"] and len(argv) == 2:
        report(argv[1])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
