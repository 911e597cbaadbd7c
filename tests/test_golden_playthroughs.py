"""Golden playthroughs (OpenSpiel's playthrough files): a seeded bot game's whole log,
byte for byte. A change in any rule, card, RNG use or label shows here as a diff.
After an intended change, regenerate: UPDATE_GOLDEN=1 python -m pytest tests/test_golden_playthroughs.py"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "legacy_3p_seed7.txt": ["--ruleset", "legacy", "--seat", "random", "--seat", "random", "--seat", "random",
                            "--seed", "7"],
    "legacy_2p_seed11_rounds2.txt": ["--ruleset", "legacy", "--seat", "random", "--seat", "random", "--seed", "11",
                                     "--option", "rounds=2"],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_playthrough_matches_its_golden_file(name: str) -> None:
    result = CliRunner().invoke(app, ["play", *CASES[name]])
    assert result.exit_code == 0, result.output
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(result.output, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert result.output == expected
