"""`legacies bench`'s service (agents/bench.py, agents/effect_bench.py): targets judge
figures the right way round, an unmeasured figure stays None, the synthetic rulesets
hold the number of items asked for and validate clean, and every hand-written effect
of the overhead suite does what its effect does."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.agents import bench, effect_bench
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import validate


def test_targets_judge_more_or_less_is_better() -> None:
    games = bench.TARGETS["legacies_games_per_s"]
    clone = bench.TARGETS["clone_us"]
    assert games is not None and clone is not None
    assert games.met(games.value) and not games.met(games.value / 2) and games.met(None) is None
    assert clone.met(40) and not clone.met(60)
    rows = dict((key, rest) for key, *rest in bench.table_rows({"legacies_games_per_s": float(games.value)}))
    assert rows["legacies_games_per_s"][2] == "met"
    assert rows["clone_us"][0] == "not measured" and rows["clone_us"][2] == ""


@pytest.mark.parametrize("items", [13, 416])
def test_a_synthetic_ruleset_holds_the_items_asked_for_and_validates_clean(tmp_path: Path, items: int) -> None:
    folder = bench.synthetic_ruleset(tmp_path / "synthetic", items)
    result = load_ruleset("legacy", folder)
    assert result.spec is not None, [str(d) for d in result.diagnostics]
    assert len(result.spec.defs) == items
    report = validate([str(folder)])
    assert report.ok and not report.diagnostics, [str(d) for d in report.diagnostics]


def test_every_hand_written_effect_does_what_its_effect_does() -> None:
    """effect_overhead stops on the first pair that differs: run it with few repeats."""
    result = effect_bench.effect_overhead(quick=True)
    assert result is not None
    assert result["effects"] >= 20 and len(result["rows"]) == len(effect_bench.CASES)
    assert set(effect_bench.hand_versions(effect_bench.suite_state()[1])) == {c.name for c in effect_bench.CASES}


def test_a_hand_version_that_does_less_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    real = effect_bench.hand_versions

    def lazy(slots: effect_bench.Slots) -> dict[str, effect_bench.Hand]:
        hands = real(slots)
        hands["each player"] = lambda st, me: None
        return hands
    monkeypatch.setattr(effect_bench, "hand_versions", lazy)
    with pytest.raises(AssertionError, match="each player"):
        effect_bench.effect_overhead(quick=True)


def test_gears_of_time_figures_are_reported_not_judged() -> None:
    keys = list(bench.TARGETS)
    assert keys.index("gears_games_per_s") + 1 == keys.index("gears_us_per_decision")
    assert bench.TARGETS["gears_games_per_s"] is None and bench.TARGETS["gears_us_per_decision"] is None
    found = bench.games_per_second("gears-of-time", 4, 2)
    assert found is not None and found["games_per_s"] > 0 and found["us_per_decision"] > 0


def test_leaders_legacy_figures_are_reported_not_judged() -> None:
    keys = list(bench.TARGETS)
    assert keys.index("leaders_games_per_s") + 1 == keys.index("leaders_us_per_decision")
    assert bench.TARGETS["leaders_games_per_s"] is None and bench.TARGETS["leaders_us_per_decision"] is None
    found = bench.games_per_second("leaders-legacy", 4, 1)
    assert found is not None and found["games_per_s"] > 0 and found["us_per_decision"] > 0
