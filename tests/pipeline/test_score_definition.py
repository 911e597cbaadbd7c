"""`score:` in ruleset.yaml names a player counter or a definition with no parameters
giving an amount (read as each player); anything else is R001 at `score:`, with a hint.
Played on the `gadgets` fixture, whose score is the definition `points`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import validate

GADGETS = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "gadgets"
SCORE_LINE = 10  # the `score:` line of gadgets' ruleset.yaml


def copy_gadgets(tmp_path: Path, file: str, old: str, new: str) -> Path:
    shutil.copytree(GADGETS, tmp_path / "gadgets")
    path = tmp_path / "gadgets" / "rules" / "gadgets" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path / "gadgets"


def test_a_score_may_be_a_counter_or_a_definition(tmp_path: Path) -> None:
    spec = load_ruleset("gadgets", GADGETS).spec
    assert spec is not None and spec.score_definition == "points"
    root = copy_gadgets(tmp_path, "ruleset.yaml", "score: points ", "score: coins ")
    counted = load_ruleset("gadgets", root).spec
    assert counted is not None and counted.score_definition is None
    state = Game(counted, 2).new_state(1)
    state.apply_label("Count up")
    assert state.scores() == [6, 0] and state.game.score_value is None


@pytest.mark.parametrize("file, old, new, message, hint", [
    ("ruleset.yaml", "score: points ", "score: pionts ", "`score` must name a player counter or a definition, "
     "not `pionts`", "did you mean `points`?"),
    ("procedures.yaml", "  points:\n    value: my coins", "  points:\n    params: {P: player}\n    value: P's coins",
     "`score` names definition `points`, which takes parameters (P)", "define it with no parameters"),
    ("procedures.yaml", "    value: my coins + total worth of (cards in my table)", "    value: my hand is empty",
     "`score` names definition `points`, which is a yes/no condition, not an amount", "a score is a number"),
])
def test_a_score_that_is_no_counter_and_no_fitting_definition_is_r001(
        tmp_path: Path, file: str, old: str, new: str, message: str, hint: str) -> None:
    result = validate([str(copy_gadgets(tmp_path, file, old, new))])
    found = [d for d in result.diagnostics if d.code == "R001"]
    assert len(found) == 1, [d.headline() for d in result.diagnostics]
    assert found[0].message == message and hint in (found[0].hint or "")
    assert found[0].file.endswith("ruleset.yaml") and found[0].line == SCORE_LINE


def test_a_defined_score_has_no_parts_to_label(tmp_path: Path) -> None:
    root = copy_gadgets(tmp_path, "ruleset.yaml", "kinds:\n", "display:\n  scoring: {gadget: gadgets}\nkinds:\n")
    result = validate([str(root)])
    found = [d for d in result.diagnostics if d.code == "R001"]
    assert len(found) == 1 and "it has no parts for `display: scoring:` to name" in found[0].message
