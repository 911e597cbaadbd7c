"""Changing a data file's text without rewriting it: edits at the positions the YAML
parser reports.

`legacies migrate` and `legacies new` change a few spans of a file and must keep the
rest byte for byte (comments, quoting, indentation, blank lines, line endings, a byte
order mark). Dumping a round-trip document again does not: measured on the shipped
files, ruamel.yaml's round-trip dump re-indents 1,118 lines of content/legacies/cards_i.yaml.
So the callers read the file once (yaml_source, positions on), compute Edits (spans of
the decoded text and their replacement), apply them here, read the result again to
check that it says what was intended, and only then write it whole (pipeline/writes.py:
a temporary file in the same folder, renamed over the original, never half-written).
"""

from __future__ import annotations

from dataclasses import dataclass

BOM = "\ufeff"


@dataclass(frozen=True)
class Edit:
    """Replace text[start:end] (indices into the decoded text, without its BOM) by `text`."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Decoded:
    """A file's text as the parser saw it (no BOM), and how to give it back as bytes."""

    text: str
    bom: bool

    @property
    def newline(self) -> str:
        """The file's own line ending, for lines added to it."""
        return "\r\n" if "\r\n" in self.text else "\n"

    def encode(self, text: str) -> bytes:
        return ((BOM if self.bom else "") + text).encode("utf-8")


def decode(raw: bytes) -> Decoded:
    """UTF-8 bytes as text; raises UnicodeDecodeError (the parser reports it as Y003 first)."""
    text = raw.decode("utf-8")
    return Decoded(text.removeprefix(BOM), text.startswith(BOM))


def apply(text: str, edits: list[Edit]) -> str:
    """`text` with every edit made; edits must not overlap (insertions at one place keep
    their order)."""
    ordered = sorted(enumerate(edits), key=lambda pair: (pair[1].start, pair[1].end, pair[0]))
    out: list[str] = []
    at = 0
    for _, edit in ordered:
        if edit.start < at or edit.end < edit.start:
            raise ValueError(f"overlapping edits at {edit.start}")
        out.append(text[at:edit.start])
        out.append(edit.text)
        at = edit.end
    out.append(text[at:])
    return "".join(out)


def line_start(text: str, index: int) -> int:
    """The index where the line holding `index` begins."""
    return text.rfind("\n", 0, index) + 1
