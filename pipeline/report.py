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
from typing import Iterable, Mapping

from legacies.dsl.diagnostics import ERROR, WARNING, Diagnostic, sort_key

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
    blocks = [d.render(sources.get(d.file)) for d in items]
    count = checked if checked is not None else len(set(sources) | {d.file for d in items})
    blocks.append(summary(items, count))
    return "\n\n".join(blocks) if items else blocks[-1]


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
    rows = [{key: getattr(d, key) for key in JSON_KEYS} for d in ordered(diagnostics)]
    return json.dumps(rows, indent=2, ensure_ascii=False)


# --------------------------------------------------------------------------- github


def render_github(diagnostics: Iterable[Diagnostic]) -> str:
    """One GitHub Actions workflow command per diagnostic (the hint on a second line)."""
    return "\n".join(github_command(d) for d in ordered(diagnostics))


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
