"""The one problem type every pass reports: Diagnostic.

A parse error, an unknown name, a schema violation in a YAML file and a duplicate id
are all Diagnostics: a file, a 1-based line and column, a stable code, a severity, a
message and an optional hint. `render` prints the source line and a caret under it.
Codes are stable: tests and CI filters rely on them (see docs/diagnostics.md).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from typing import Iterable

from .errors import LegaciesError


ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    line: int = 1
    column: int = 1
    severity: str = ERROR
    hint: str | None = None
    file: str = "<effect>"
    end_column: int | None = None
    # an internal error's traceback (a bug in legacies): `legacies --debug` prints it
    detail: str | None = field(default=None, compare=False, repr=False)
    # one that stands for several not each said (size_bounds.cap_repeats): how many, and
    # the files of the others, for a summary that counts them all
    stands_for: int = field(default=1, compare=False, repr=False)
    files_left: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def shifted(self, file: str, line_offset: int, column_offset: int) -> "Diagnostic":
        """Place a diagnostic from an embedded source (an effect in a YAML block) in its file."""
        column = self.column + column_offset
        end = self.end_column + column_offset if self.end_column is not None else None
        return replace(self, file=file, line=self.line + line_offset, column=column, end_column=end)

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
        }

    def headline(self) -> str:
        # one line whatever the file is called: a line break in its name is shown as its escape
        # (a user's trial: a file named with one split the diagnostic, and a reader's parse of it)
        file = self.file.replace("\r", "\\r").replace("\n", "\\n")
        return visible(f"{file}:{self.line}:{self.column}: {self.severity} {self.code}: {self.message}")

    def render(self, source_lines: list[str] | None = None) -> str:
        """`file:line:col: error CODE: message`, the source line, a caret, the hint: as
        text for a terminal, every control and invisible character shown as its escape
        (`visible`), the caret kept under what it points at."""
        out = [self.headline()]
        if source_lines is not None and 1 <= self.line <= len(source_lines):
            raw = source_lines[self.line - 1].rstrip("\n").expandtabs(4)
            text = visible(raw)
            column = len(visible(raw[:self.column - 1])) + 1
            end = len(visible(raw[:self.end_column - 1])) + 1 if self.end_column is not None else None
            width = 1 if end is None or end <= column else end - column
            out.append(f"    {text}")
            out.append("    " + " " * (column - 1) + "^" + "~" * (min(width, max(1, len(text) - column + 2)) - 1))
        if self.hint:
            out.append(f"    hint: {visible(self.hint)}")
        return "\n".join(out)


def visible(text: str) -> str:
    """`text` as a terminal may be sent it: every control character but the line's end, and
    every invisible or direction-changing one (format characters, line and paragraph
    separators), as its escape (`\\x1b`, `\\u202e`). A file quoted in a message could
    otherwise set the terminal's title or clipboard (an OSC sequence), or reverse what is
    read (a user's trial of `validate`)."""
    if text.isprintable() or all(c.isprintable() or c == "\n" for c in text):
        return text
    return "".join(_escaped(c) for c in text)


def _escaped(c: str) -> str:
    if c == "\n" or c.isprintable() or unicodedata.category(c) not in _UNSEEN:
        return c
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


_UNSEEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity == ERROR for d in diagnostics)


def sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    return (d.file, d.line, d.column, d.code)


class DiagnosticError(LegaciesError):
    """Raised only at API edges that cannot return a list; carries every problem."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.headline() for d in diagnostics))
