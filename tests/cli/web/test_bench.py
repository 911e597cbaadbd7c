"""`serve_ms_per_action` (issue 31): a key of `legacies bench` with its target of 50 ms,
measured through a real server on the loopback address (its figure is not judged here)."""

from __future__ import annotations

from legacies.agents import bench
from legacies.cli.web.bench import serve_ms_per_action


def test_serve_ms_per_action_is_measured_and_judged_against_50_ms() -> None:
    target = bench.TARGETS["serve_ms_per_action"]
    assert target is not None and target.op == "<=" and target.value == 50 and target.unit == "ms"
    found = serve_ms_per_action(quick=True)
    assert found is not None and found["actions"] == 10
    assert 0 < found["ms"] <= found["max_ms"]


def test_the_bench_measures_it_in_a_process_of_its_own() -> None:
    found = bench.serve_ms(quick=True)
    assert found is not None and found["actions"] == 10 and found["ms"] > 0
