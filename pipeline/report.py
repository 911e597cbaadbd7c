"""Reporters: a list of Diagnostics rendered as text, JSON or GitHub annotations.

This module owns the last step of check-jsonschema's loader -> checker -> result ->
reporter: it only formats. Every reporter sorts the diagnostics by file, line, column
and code, so that output is stable.
- `render_text`: each diagnostic with its source line and a caret, then a summary;
- `render_json`: a JSON list of {file, line, column, code, severity, message};
- `render_github`: GitHub Actions workflow commands (`::error file=...::message`).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Iterable, Mapping

from legacies.dsl.diagnostics import ERROR, WARNING, Diagnostic, sort_key

from .yaml_source import bounded

JSON_KEYS: tuple[str, ...] = ("file", "line", "column", "code", "severity", "message")


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
    errors = sum(1 for d in diagnostics if d.severity == ERROR)
    warnings = sum(1 for d in diagnostics if d.severity == WARNING)
    others = len(diagnostics) - errors - warnings
    parts = [_plural(errors, "error")] if errors else []
    parts += [_plural(warnings, "warning")] if warnings else []
    parts += [_plural(others, "note")] if others else []
    files = len({d.file for d in diagnostics})
    return f"{', '.join(parts)} in {_plural(files, 'file')}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# --------------------------------------------------------------------------- json


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    """A JSON list of objects with exactly the keys file, line, column, code, severity, message."""
    rows = [{key: getattr(bounded(d), key) for key in JSON_KEYS} for d in ordered(diagnostics)]
    return json.dumps(rows, indent=2, ensure_ascii=False)


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
    return f"::{command} {listed}::{escape_data(message)}"


def escape_data(text: str) -> str:
    """Escape a command's message: % CR LF."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value: % CR LF, and also : and , (they delimit properties)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")
