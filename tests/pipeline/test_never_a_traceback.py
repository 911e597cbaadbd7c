"""Whatever a designer's files hold, validation returns Diagnostics and never raises:
random damage to the shipped files (lines dropped, duplicated or cut, characters
replaced) always ends in a result, and a non-clean result always names a file."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from legacies.pipeline.validate import validate

REPO = Path(__file__).resolve().parents[2]
FILES = ["rules/legacy/ruleset.yaml", "rules/legacy/procedures.yaml", "content/legacy/cards.yaml"]
NOISE = ["", ":", "- ", "{", "]", "'", '"', "\t", "  ", "#", "&a", "*a", "!!python/object", "é", "\x00", "choose",
         "as", "where", "99999999999999999999", "-1", "null", "[", "|", ">"]


@st.composite
def damaged_tree(draw: st.DrawFn) -> tuple[str, str]:
    target = draw(st.sampled_from(FILES))
    lines = (REPO / target).read_text().splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "dup", "cut", "noise", "indent"]))
        if action == "drop":
            del lines[i]
        elif action == "dup":
            lines.insert(i, lines[i])
        elif action == "cut":
            lines[i] = lines[i][: draw(st.integers(0, max(0, len(lines[i]) - 1)))] + "\n"
        elif action == "noise":
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + draw(st.sampled_from(NOISE)) + lines[i][pos:]
        else:
            lines[i] = "  " + lines[i]
        if not lines:
            lines = ["\n"]
    return target, "".join(lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damaged_tree())
def test_damaged_files_give_diagnostics_not_tracebacks(tmp_path_factory, damage: tuple[str, str]) -> None:
    root = tmp_path_factory.mktemp("repo")
    for name in FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes((REPO / name).read_bytes())
    target, text = damage
    (root / target).write_text(text, encoding="utf-8")
    result = validate([str(root)])
    for d in result.diagnostics:
        assert d.file and d.line >= 1 and d.column >= 1 and d.code and d.message
