"""report: text with carets and a summary, JSON with fixed keys, GitHub annotations."""

from __future__ import annotations

import json

from legacies.dsl.diagnostics import WARNING, Diagnostic
from legacies.pipeline.report import escape_property, render_github, render_json, render_text, summary

LINES = {"content/tiny/cards.yaml": ["ruleset: tiny", "items:", "  - id: stall", "    cost: 3"]}
UNKNOWN = Diagnostic(
    "S003", "items[0]: unknown property 'cost'", line=4, column=5,
    hint="did you mean 'copies'?", file="content/tiny/cards.yaml", end_column=9,
)
WARN = Diagnostic("W001", "unused zone 'discard'", line=1, column=1, severity=WARNING, file="rules/tiny/ruleset.yaml")


def test_text_shows_source_line_caret_and_summary() -> None:
    text = render_text([UNKNOWN], LINES)
    lines = text.splitlines()
    assert lines[0] == "content/tiny/cards.yaml:4:5: error S003: items[0]: unknown property 'cost'"
    assert lines[1] == "        cost: 3"
    assert lines[2] == "        ^~~~"
    assert "    hint: did you mean 'copies'?" in lines
    assert lines[-1] == "1 error in 1 file"


def test_text_summary_counts_errors_warnings_and_files() -> None:
    assert render_text([UNKNOWN, UNKNOWN, WARN], LINES).splitlines()[-1] == "2 errors, 1 warning in 2 files"


def test_text_ok() -> None:
    assert render_text([], LINES, checked=3) == "ok: 3 files, no problems"
    assert render_text([], LINES) == "ok: 1 file, no problems"


def test_summary_only_warnings() -> None:
    assert summary([WARN], 4) == "1 warning in 1 file"


def test_text_without_source_lines_still_renders() -> None:
    assert render_text([WARN], {}).startswith("rules/tiny/ruleset.yaml:1:1: warning W001: unused zone")


def test_json_has_exactly_the_documented_keys() -> None:
    rows = json.loads(render_json([UNKNOWN, WARN]))
    assert [set(row) for row in rows] == [{"file", "line", "column", "code", "severity", "message"}] * 2
    assert rows[0] == {
        "file": "content/tiny/cards.yaml", "line": 4, "column": 5, "code": "S003",
        "severity": "error", "message": "items[0]: unknown property 'cost'",
    }
    assert json.loads(render_json([])) == []


def test_github_commands() -> None:
    out = render_github([WARN, UNKNOWN]).splitlines()
    assert out[0] == (
        "::error file=content/tiny/cards.yaml,line=4,col=5,title=S003::"
        "items[0]: unknown property 'cost'%0Ahint: did you mean 'copies'?"
    )
    assert out[1] == "::warning file=rules/tiny/ruleset.yaml,line=1,col=1,title=W001::unused zone 'discard'"


def test_github_escaping() -> None:
    odd = Diagnostic("Y001", "100% bad\r\nreally: yes, bad", file="C:/a,b.yaml", line=2, column=3)
    assert render_github([odd]) == (
        "::error file=C%3A/a%2Cb.yaml,line=2,col=3,title=Y001::100%25 bad%0D%0Areally: yes, bad"
    )
    assert escape_property("a%b:c,d\ne") == "a%25b%3Ac%2Cd%0Ae"
