"""`evaluation:` and `win_rates_by:` in ruleset.yaml (what bots steer by, what a
balance report groups seats by): checked like every other expression and name, and
read as each player."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from legacies.interpreter import sandbox
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import validate

REPO = Path(__file__).resolve().parents[2]


def copy_legacy(tmp_path: Path, replace: tuple[str, str]) -> Path:
    for part in ("rules", "content"):
        shutil.copytree(REPO / part / "legacy", tmp_path / part / "legacy")
    path = tmp_path / "rules" / "legacy" / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    assert replace[0] in text
    path.write_text(text.replace(replace[0], replace[1]), encoding="utf-8")
    return tmp_path


def test_the_evaluation_is_read_as_each_player() -> None:
    spec = load_ruleset("legacy").spec
    state = Game(spec, 3).new_state(5)
    for p in range(3):
        expected = sandbox.value(state, "my points * 10 + count of (my tableau) * 3 + count of (my resources)", p)
        assert state.evaluate(p) == expected and expected > 0


@pytest.mark.parametrize("line, code, words", [
    ("evaluation: my hand", "E2", "amount"),
    ("evaluation: my pionts * 10", "E2", "pionts"),
])
def test_a_bad_evaluation_is_located(tmp_path: Path, line: str, code: str, words: str) -> None:
    old = "evaluation: my points * 10 + count of (my tableau) * 3 + count of (my resources)"
    root = copy_legacy(tmp_path, (old, line))
    result = validate([str(root)])
    found = [d for d in result.diagnostics if d.file.endswith("ruleset.yaml") and d.severity == "error"]
    assert found and found[0].code.startswith(code) and words in found[0].message, [d.headline() for d in found]
    assert found[0].line == 15  # the `evaluation:` line


def test_win_rates_by_must_name_player_values(tmp_path: Path) -> None:
    root = copy_legacy(tmp_path, ("score: points\n", "score: points\nwin_rates_by: [points]\n"))
    result = validate([str(root)])
    found = [d for d in result.diagnostics if d.code == "R001"]
    assert found and "`win_rates_by` must name player values, not `points`" in found[0].message
