"""report: text with carets and a summary, JSON with fixed keys, GitHub annotations, SARIF
checked against the SARIF 2.1.0 schema."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema

from legacies.dsl.diagnostics import WARNING, Diagnostic
from legacies.pipeline.report import escape_property, render_github, render_json, render_sarif, render_text, summary

REPO = Path(__file__).resolve().parents[2]

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
    keys = {"file", "line", "column", "end_line", "end_column", "code", "severity", "message", "hint"}
    assert [set(row) for row in rows] == [keys] * 2
    assert rows[0] == {
        "file": "content/tiny/cards.yaml", "line": 4, "column": 5, "end_line": 4, "end_column": 9, "code": "S003",
        "severity": "error", "message": "items[0]: unknown property 'cost'", "hint": "did you mean 'copies'?",
    }
    # no end known: a span of one character; no hint: null
    assert (rows[1]["end_line"], rows[1]["end_column"], rows[1]["hint"]) == (1, 2, None)
    assert json.loads(render_json([])) == []


SARIF_SCHEMA = Path(__file__).parent / "sarif" / "sarif-schema-2.1.0.json"


def sarif_problems(log: object) -> list[str]:
    validator = jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(log)]


def test_sarif_is_valid_against_the_sarif_schema_and_holds_every_field() -> None:
    odd = Diagnostic("E201", "unknown name `gld`", line=7, column=12, file="content/my cards/x.yaml", end_column=15,
                     hint="did you mean `gold`?")
    log = json.loads(render_sarif([WARN, odd, UNKNOWN], "1.2.3"))
    assert sarif_problems(log) == []
    assert sarif_problems({"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]})  # the check can fail
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "legacies" and run["tool"]["driver"]["version"] == "1.2.3"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["E201", "S003", "W001"]
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("E201", "error"), ("S003", "error"), ("W001", "warning")]
    second = results[0]  # ordered by file, line, column
    assert run["tool"]["driver"]["rules"][second["ruleIndex"]]["id"] == "E201"
    location = second["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "content/my%20cards/x.yaml", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 7, "startColumn": 12, "endLine": 7, "endColumn": 15}
    assert second["message"]["text"] == "unknown name `gld`\nhint: did you mean `gold`?"
    assert second["properties"] == {"hint": "did you mean `gold`?"}
    assert "properties" not in results[2] and results[2]["message"]["text"] == "unused zone 'discard'"
    empty = json.loads(render_sarif([]))
    assert sarif_problems(empty) == [] and empty["runs"][0]["results"] == []


def test_validate_writes_sarif_for_a_broken_ruleset(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from legacies.cli.main import app

    for part in ("rules", "content"):
        shutil.copytree(REPO / part / "legacy", tmp_path / part / "legacy")
    cards = tmp_path / "content" / "legacy" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("discard this", "discard thsi", 1).replace("copies: ", "copies: x", 1),
                     encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(tmp_path), "--format", "sarif"])
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    assert sarif_problems(log) == []
    found = log["runs"][0]["results"]
    as_json = json.loads(CliRunner().invoke(app, ["validate", str(tmp_path), "--format", "json"]).stdout)
    assert len(found) == len(as_json) >= 2  # every diagnostic, in both formats
    for result_row, row in zip(found, as_json):
        region = result_row["locations"][0]["physicalLocation"]["region"]
        assert (result_row["ruleId"], region["startLine"], region["startColumn"], region["endColumn"]) == \
            (row["code"], row["line"], row["column"], row["end_column"])
    # relative to the folder checked, wherever it is checked from, and said where that is
    assert log["runs"][0]["originalUriBaseIds"] == {"%SRCROOT%": {"uri": tmp_path.as_uri() + "/"}}
    named = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in found}
    assert "content/legacy/cards.yaml" in named and all(u.startswith(("content/legacy/", "rules/legacy/")) for u in named)
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] for r in found} == {"%SRCROOT%"}


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


def test_control_characters_from_a_file_reach_no_terminal() -> None:
    """A user's trial: `validate` quoted a file's OSC sequence (`ESC ] 0 ; TITLE BEL`, which
    sets the terminal's title; OSC 52 writes its clipboard) and a right-to-left override
    raw in its text output. They are shown as escapes, in the message, the hint and the
    source line, the caret still under what it points at; JSON keeps the text exact."""
    osc = "\x1b]0;TITLE\x07"
    d = Diagnostic("Y001", f"bad value {osc}", file="a.yaml", line=1, column=17, end_column=18,
                   hint="not \u202eeulav")
    text = render_text([d], {"a.yaml": [f"name: {osc}: bad"]})
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\\x1b]0;TITLE\\x07" in text and "\\u202e" in text
    source, caret = text.splitlines()[1:3]
    assert source == "    name: \\x1b]0;TITLE\\x07: bad" and caret.index("^") == source.index(": bad")
    assert "\x1b" not in render_github([d]) and "\\x1b" in render_github([d])
    assert json.loads(render_json([d]))[0]["message"] == f"bad value {osc}"


def test_a_line_break_in_a_file_name_keeps_a_diagnostic_on_its_line() -> None:
    """A user's trial: a file named with a line break split its text diagnostic in two (a
    reader, or a tool parsing `file:line:column:`, took the second half for another)."""
    d = Diagnostic("Y001", "bad", file="evil\nb.yaml:9:9: error X: forged", line=2, column=3)
    headline = render_text([d], {}).splitlines()[0]
    assert headline == "evil\\nb.yaml:9:9: error X: forged:2:3: error Y001: bad"
