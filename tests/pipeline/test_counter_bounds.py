"""A counter's bounds (R016, pipeline/build/vocabulary.py): they hold a value, and a
`start` given lies within them, for the ruleset's counters, an expansion's and a kind's
pieces' alike; the `start` left out (0) may lie outside, for the setup to set."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from legacies.pipeline.validate import validate

TINY = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "tiny"


def _found(tmp_path: Path, old: str, new: str) -> list[tuple[str, int, int, str]]:
    root = tmp_path / "tiny"
    shutil.copytree(TINY, root)
    ruleset = root / "rules" / "tiny" / "ruleset.yaml"
    text = ruleset.read_text(encoding="utf-8")
    assert old in text
    ruleset.write_text(text.replace(old, new, 1), encoding="utf-8")
    return [(d.code, d.line, d.column, d.message) for d in validate([str(root)]).diagnostics if d.code != "W305"]


@pytest.mark.parametrize("old, new, found", [
    ("  gold: {start: 10}\n", "  gold: {start: 50, max: 10}\n", (10, 17, "`gold` starts at 50, outside its bounds (0 to 10)")),
    ("  points: {}\n", "  points: {min: 5, max: 2}\n", (11, 17, "`points`'s `min` 5 is above its `max` 2")),
    ("  rounds_played: {scope: game}\n", "  rounds_played: {scope: game, min: -3, start: -10}\n",
     (12, 48, "`rounds_played` starts at -10, outside its bounds (at least -3)")),
    ("attributes: {worth: number}}", "attributes: {worth: number}, counters: {wear: {max: 3, start: 4}}}",
     (19, 102, "`wear` starts at 4, outside its bounds (0 to 3)")),
])
def test_bounds_that_hold_nothing_or_miss_the_start_are_r016_at_the_value(tmp_path: Path, old: str, new: str,
                                                                          found: tuple[int, int, str]) -> None:
    """A user's trial: `min: 5, max: 2` and `max: 10, start: 50` validated "ok", and a game
    began with 50 where every `set` is held to 0..10."""
    said = _found(tmp_path, old, new)
    assert [(code, line, column) for code, line, column, _ in said] == [("R016", found[0], found[1])], said
    assert said[0][3].startswith(found[2])


def test_a_start_left_out_may_lie_outside_for_the_setup_to_set(tmp_path: Path) -> None:
    assert _found(tmp_path, "  points: {}\n", "  points: {min: 1, max: 11}\n") == []
