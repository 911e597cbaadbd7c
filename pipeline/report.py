"""Reporters: a list of Diagnostics rendered as text, JSON, GitHub annotations or SARIF.

This module owns the last step of check-jsonschema's loader -> checker -> result ->
reporter: it only formats. Every reporter sorts the diagnostics by file, line, column
and code, so that output is stable.
- `render_text`: each diagnostic with its source line and a caret, then a summary;
- `render_json`: a JSON list of {file, line, column, end_line, end_column, code,
  severity, message, hint};
- `render_github`: GitHub Actions workflow commands (`::error file=...::message`);
- `render_sarif`: one SARIF 2.1.0 log (GitHub code scanning, editors' SARIF viewers).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Mapping
from urllib.parse import quote

from legacies.dsl.diagnostics import ERROR, WARNING, Diagnostic, sort_key, visible

from .yaml_source import bounded

JSON_KEYS: tuple[str, ...] = ("file", "line", "column", "end_line", "end_column", "code", "severity", "message", "hint")


def ordered(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=sort_key)


# --------------------------------------------------------------------------- text


def render_text(
    diagnostics: Iterable[Diagnostic],
    sources: Mapping[str, list[str]],
    *,
    checked: int | None = None,
) -> str:
    """Every diagnostic with its source line and caret, then a one-line summary.

    `checked` is the number of files checked (default: the files in `sources`).
    """
    items = ordered(diagnostics)
    blocks = [render_diagnostic(d, sources.get(d.file)) for d in items]
    count = checked if checked is not None else len(set(sources) | {d.file for d in items})
    blocks.append(summary(items, count))
    return "\n\n".join(blocks) if items else blocks[-1]


WINDOW = 100  # characters of a long source line shown around the caret


def render_diagnostic(d: Diagnostic, source_lines: list[str] | None) -> str:
    """`Diagnostic.render`, with the message and hint bounded and a long source line
    shown as a window of WINDOW characters around the caret (a line of a megabyte is
    never printed whole)."""
    d = bounded(d)
    if source_lines is None or not 1 <= d.line <= len(source_lines):
        return d.render(None)
    text = source_lines[d.line - 1].rstrip("\n").expandtabs(4)
    if len(text) <= WINDOW:
        return d.render(source_lines)
    start = max(0, min(d.column - 1 - WINDOW // 3, len(text) - WINDOW))
    window = ("…" if start else "") + text[start:start + WINDOW] + ("…" if start + WINDOW < len(text) else "")
    shift = start - (1 if start else 0)
    end = d.end_column - shift if d.end_column is not None else None
    shown = replace(d, column=max(1, d.column - shift), end_column=end)
    lines = shown.render([""] * (d.line - 1) + [window]).splitlines()
    lines[0] = d.headline()  # the real column in the headline
    return "\n".join(lines)


def summary(diagnostics: list[Diagnostic], checked: int) -> str:
    """`2 errors, 1 warning in 3 files` or `ok: 4 files, no problems`."""
    if not diagnostics:
        return f"ok: {_plural(checked, 'file')}, no problems"
    # every problem counted, those not each said too (size_bounds.cap_repeats)
    errors = sum(d.stands_for for d in diagnostics if d.severity == ERROR)
    warnings = sum(d.stands_for for d in diagnostics if d.severity == WARNING)
    others = sum(d.stands_for for d in diagnostics) - errors - warnings
    parts = [_plural(errors, "error")] if errors else []
    parts += [_plural(warnings, "warning")] if warnings else []
    parts += [_plural(others, "note")] if others else []
    files = len({d.file for d in diagnostics} | {f for d in diagnostics for f in d.files_left})
    return f"{', '.join(parts)} in {_plural(files, 'file')}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# --------------------------------------------------------------------------- json


def span_end(d: Diagnostic) -> tuple[int, int]:
    """Where a diagnostic's span ends: its line, and the column just after its last
    character (a span is never empty: one character when no end is known)."""
    return d.line, d.end_column if d.end_column is not None and d.end_column > d.column else d.column + 1


def json_row(d: Diagnostic) -> dict[str, object]:
    """One diagnostic as the JSON object `--format json` prints (the keys of JSON_KEYS)."""
    end_line, end_column = span_end(d)
    return {"file": d.file, "line": d.line, "column": d.column, "end_line": end_line, "end_column": end_column,
            "code": d.code, "severity": d.severity, "message": d.message, "hint": d.hint}


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    """A JSON list of objects with exactly the keys of JSON_KEYS: where the span starts
    and ends (1-based lines and columns, the end column just after the span), the code,
    the severity, the message and the hint (null when there is none)."""
    rows = [json_row(bounded(d)) for d in ordered(diagnostics)]
    return json.dumps(rows, indent=2, ensure_ascii=False)


# --------------------------------------------------------------------------- sarif

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVELS = {ERROR: "error", WARNING: "warning"}


def render_sarif(diagnostics: Iterable[Diagnostic], tool_version: str = "", root: str | Path | None = None) -> str:
    """One SARIF 2.1.0 log with one run: the tool (`legacies`, every code met as a
    rule), and one result per diagnostic with its level, message (and hint), and its
    span as a region of the file, relative to the checked folder (%SRCROOT%). With
    `root` (the folder checked), a file inside it is named relative to it and the run
    says where %SRCROOT% is (`originalUriBaseIds`); a file outside it (an installed
    ruleset's, under an expansion) by its absolute URI."""
    base = Path(root).absolute() if root is not None else None
    items = [bounded(d) for d in ordered(diagnostics)]
    codes = sorted({d.code for d in items})
    index = {code: i for i, code in enumerate(codes)}
    driver: dict[str, object] = {
        "name": "legacies",
        "rules": [{"id": code, "defaultConfiguration": {"level": _sarif_level(code, items)}} for code in codes],
    }
    if tool_version:
        driver["version"] = tool_version
    results = []
    for d in items:
        end_line, end_column = span_end(d)
        result: dict[str, object] = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": SARIF_LEVELS.get(d.severity, "note"),
            "message": {"text": d.message if not d.hint else f"{d.message}\nhint: {d.hint}"},
            "locations": [{"physicalLocation": {
                "artifactLocation": _artifact(d.file, base),
                "region": {"startLine": d.line, "startColumn": d.column, "endLine": end_line, "endColumn": end_column},
            }}],
        }
        if d.hint:
            result["properties"] = {"hint": d.hint}
        results.append(result)
    run: dict[str, object] = {"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": results}
    if base is not None:
        run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": base.as_uri().rstrip("/") + "/"}}
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2, ensure_ascii=False)


def _artifact(label: str, base: Path | None) -> dict[str, str]:
    """Where a diagnostic's file is: relative to the checked folder (%SRCROOT%) when it
    lies inside it, else by its absolute URI; without a folder, its label as it is."""
    if base is not None:
        path = Path(label)
        where = path if path.is_absolute() else Path.cwd() / path
        try:
            inside = where.absolute().relative_to(base)
        except ValueError:
            if where.is_file():
                return {"uri": where.absolute().as_uri()}
        else:
            return {"uri": quote(inside.as_posix()), "uriBaseId": "%SRCROOT%"}
    return {"uri": quote(label.replace("\\", "/")), "uriBaseId": "%SRCROOT%"}


def _sarif_level(code: str, items: list[Diagnostic]) -> str:
    return SARIF_LEVELS.get(next(d.severity for d in items if d.code == code), "note")


# --------------------------------------------------------------------------- github


def render_github(diagnostics: Iterable[Diagnostic]) -> str:
    """One GitHub Actions workflow command per diagnostic (the hint on a second line)."""
    return "\n".join(github_command(bounded(d)) for d in ordered(diagnostics))


def github_command(d: Diagnostic) -> str:
    """`::error file=F,line=L,col=C,title=CODE::message`, escaped as actions/toolkit does."""
    command = {ERROR: "error", WARNING: "warning"}.get(d.severity, "notice")
    properties = {"file": d.file, "line": str(d.line), "col": str(d.column), "title": d.code}
    listed = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
    message = d.message if not d.hint else f"{d.message}\nhint: {d.hint}"
    # a log is read on a terminal too: its control characters shown (CR and LF are the protocol's, escaped below)
    message = "\r".join(visible(part) for part in message.split("\r"))
    return f"::{command} {listed}::{escape_data(message)}"


def escape_data(text: str) -> str:
    """Escape a command's message: % CR LF."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value: % CR LF, and also : and , (they delimit properties)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")
