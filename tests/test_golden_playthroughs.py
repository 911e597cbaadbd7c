"""Golden playthroughs (OpenSpiel's playthrough files): a seeded bot game's whole log,
byte for byte. A change in any rule, card, RNG use or label shows here as a diff.
Every installed ruleset has golden games: those listed in CASES, else two (its fewest
players with seed 1, its most with seed 2); every installed expansion one, over its ruleset. A new ruleset's, or after an intended
change, regenerate and review the diff:
UPDATE_GOLDEN=1 python -m pytest tests/test_golden_playthroughs.py"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.pipeline.ruleset import load_ruleset, rulesets
from legacies.pipeline.stack import installed_expansions

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "legacy_3p_seed7.txt": ["--ruleset", "legacy", "--seat", "random", "--seat", "random", "--seat", "random",
                            "--seed", "7"],
    "legacy_2p_seed11_rounds2.txt": ["--ruleset", "legacy", "--seat", "random", "--seat", "random", "--seed", "11",
                                     "--option", "rounds=2"],
}




def _cases() -> dict[str, list[str]]:
    """CASES, two games for each installed ruleset that CASES does not cover, and one for
    each installed expansion over its ruleset (its fewest players, seed 1)."""
    cases = dict(CASES)
    covered = {args[args.index("--ruleset") + 1] for args in CASES.values()}
    for name in rulesets():
        spec = load_ruleset(name).spec
        if name in covered or spec is None:  # a ruleset that does not load fails other tests
            continue
        for players, seed in ((spec.min_players, 1), (spec.max_players, 2)):
            cases[f"{name}_{players}p_seed{seed}.txt"] = ["--ruleset", name, *["--seat", "random"] * players,
                                                          "--seed", str(seed)]
    for expansion in installed_expansions():
        spec = load_ruleset(expansion.ruleset() or "", None, [expansion.name]).spec
        if spec is not None:
            cases[f"{expansion.name}_{spec.min_players}p_seed1.txt"] = [
                "--expansion", expansion.name, *["--seat", "random"] * spec.min_players, "--seed", "1"]
    return cases


ALL = _cases()


def test_every_installed_ruleset_has_golden_games() -> None:
    covered = {args[args.index("--ruleset") + 1] for args in ALL.values() if "--ruleset" in args}
    assert covered >= {name for name in rulesets() if load_ruleset(name).spec is not None}
    laid = {args[args.index("--expansion") + 1] for args in ALL.values() if "--expansion" in args}
    assert laid == {e.name for e in installed_expansions()}


@pytest.mark.parametrize("name", sorted(ALL))
def test_playthrough_matches_its_golden_file(name: str) -> None:
    result = CliRunner().invoke(app, ["play", *ALL[name]])
    assert result.exit_code == 0, result.output
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(result.output, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run UPDATE_GOLDEN=1 python -m pytest {__file__} and review it"
    expected = path.read_text(encoding="utf-8")
    assert result.output == expected
