"""Find references and rename for `legacies lsp`: every place a name is written across
the files of a check (the ruleset and its expansions, open documents as the editor holds
them) and the scenario tests beside them (`legacies test` files: a YAML list of entries
with `item:`).

A name is renamed where it stands as a whole word in a key, a value or effect text;
never inside prose (`name:`, `text:`, `label:`, `description:`, `flavor:`, a label's
wording in `labels:`, a scenario test's `changes:`) nor in a comment. What may be
renamed: a content item's id, a kind, a counter and a quantity (a kind's declared
`plural:` is a word of its own, left as written). A name declared in the installed
package (not a folder the designer edits) is found, never renamed. One prose is renamed
too: a scenario test's `changes:` lines word a counter, kind or quantity by its label,
which is its name in words ("major investment") unless the ruleset gives one, so a
rename without a label given rewrites those words there, or the tests would fail.

Positions are 0-based lines and columns in characters. No editor protocol lives here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from legacies.pipeline.files import CONTENT_PACKAGE, RULES_PACKAGE
from legacies.pipeline.validate import ruleset_folder

from .check import Check
from .query import file_of, with_vocab, word_at

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PROSE = frozenset({"name", "text", "label", "labels", "description", "flavor", "flavour", "title", "help",
                    "summary", "changes", "note", "notes", "why"})
_KEY = re.compile(r"^(?P<indent>\s*)(?:-\s+)?(?P<key>[A-Za-z_][A-Za-z0-9_]*|\"[^\"]*\"|'[^']*')\s*:(?=\s|$)")
_MAX_TESTS = 400  # scenario test files read at most, under one folder


class RenameRefused(Exception):
    """The name cannot be renamed (said to the editor)."""


@dataclass(frozen=True)
class Hit:
    """One place a name is written: a file and a 0-based line, start and end column."""

    path: Path
    line: int
    start: int
    end: int
    text: str | None = None  # what to write there, when not the new name (a label's words)


def renamable(checks: Sequence[Check], word: str) -> str | None:
    """What `word` is when it may be renamed (item, kind, counter, quantity), else None."""
    for build, vocab in with_vocab(checks):
        if word in build.items or word in vocab.content:
            return "item"
        for table, what in ((vocab.kinds, "kind"), (vocab.counters, "counter"), (vocab.quantities, "quantity")):
            if word in table:
                return what
    return None


def name_at(text: str, line: int, column: int) -> tuple[str, int, int] | None:
    lines = text.split("\n")
    return word_at(lines[line], column) if 0 <= line < len(lines) else None


def references(checks: Sequence[Check], word: str, texts: Mapping[Path, str]) -> list[Hit]:
    """Every place `word` is written in the check's files and the scenario tests beside
    them (the editor's text for an open document)."""
    check = next((c for c in checks if c.build is not None), checks[0] if checks else None)
    if check is None:
        return []
    hits: list[Hit] = []
    seen: set[Path] = set()
    for f in check.files:
        path = file_of(check, f.label)
        if path is None or path in seen:
            continue
        seen.add(path)
        lines = texts[path].split("\n") if path in texts else [line.rstrip("\r\n") for line in f.lines]
        hits.extend(Hit(path, n, a, b) for n, a, b in _words(lines, word))
    for path in _scenario_tests(check, texts):
        if path in seen:
            continue
        seen.add(path)
        try:
            text = texts[path] if path in texts else path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        hits.extend(Hit(path, n, a, b) for n, a, b in _words(text.split("\n"), word))
    return hits


def rename(checks: Sequence[Check], word: str, new: str, texts: Mapping[Path, str]) -> dict[Path, list[Hit]]:
    """The places to write `new` in place of `word`, by file; RenameRefused says why not."""
    what = renamable(checks, word)
    if what is None:
        raise RenameRefused(f"`{word}` is not an item id, kind, counter or quantity of this ruleset")
    if not _NAME.match(new):
        raise RenameRefused(f"`{new}` is not a name (letters, digits and `_`, not starting with a digit)")
    if new != word and any(new in table for _, vocab in with_vocab(checks) for table in _all_tables(vocab)):
        raise RenameRefused(f"`{new}` already names something in this ruleset")
    hits = references(checks, word, texts)
    installed = [s.path for s in hits if _installed(s.path)]
    if installed:
        raise RenameRefused(f"`{word}` is written in the installed ruleset ({installed[0].name}), which is not "
                            "yours to edit: rename it in a copy of the ruleset (a folder holding rules/ and content/)")
    if what != "item" and all(vocab.label(word) == word.replace("_", " ") for _, vocab in with_vocab(checks)):
        hits += _wording(checks, texts, word.replace("_", " "), new.replace("_", " "))
    by_file: dict[Path, list[Hit]] = {}
    for hit in hits:
        by_file.setdefault(hit.path, []).append(hit)
    return by_file


def _wording(checks: Sequence[Check], texts: Mapping[Path, str], old: str, new: str) -> list[Hit]:
    """The places the scenario tests' `changes:` lines word a renamed name by its label
    (`old`, the name in words), with `new` to write there."""
    check = next((c for c in checks if c.build is not None), checks[0] if checks else None)
    if check is None or old == new:
        return []
    # what a change is of, as `try` words it: "P1's gold: 200 -> 197", "market: + Crate"; never
    # a word inside another's label ("P1's extra gold when exploring: 0 -> 5")
    pattern = re.compile(rf"(?:(?<=\")|(?<=')|(?<='s )|(?<=- )){re.escape(old)}(?=:)")
    hits: list[Hit] = []
    for path in _scenario_tests(check, texts):
        try:
            text = texts[path] if path in texts else path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for n, line in _changes_lines(text.split("\n")):
            hits.extend(Hit(path, n, m.start(), m.end(), new) for m in pattern.finditer(line))
    return hits


def _changes_lines(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(line number, line) of each line of a `changes:` list (its entries, however
    indented: YAML lets a list stand at its key's own indent)."""
    under: int | None = None  # the indent of the `changes:` key being read
    for n, text in enumerate(lines):
        stripped = text.strip()
        indent = len(text) - len(text.lstrip(" "))
        if under is not None and stripped and not stripped.startswith("#"):
            if indent > under or (indent == under and stripped.startswith("- ")):
                yield n, text
                continue
            under = None
        key = _KEY.match(text)
        if key is not None and key.group("key") == "changes":
            under = len(key.group("indent")) + (text.index("changes") - len(key.group("indent"))
                                                 if text.lstrip(" ").startswith("- ") else 0)


def _all_tables(vocab: object) -> Iterator[Mapping[str, object]]:
    for name in ("content", "counters", "values", "zones", "kinds", "events", "quantities", "options", "actions",
                 "definitions", "procedures", "counter_sets", "enums", "menus"):
        table = getattr(vocab, name, None)
        if isinstance(table, Mapping):
            yield table


def _installed(path: Path) -> bool:
    for package in (RULES_PACKAGE, CONTENT_PACKAGE):
        root = resources.files(package)
        if isinstance(root, Path) and path.is_relative_to(root):
            return True
    return False


# --------------------------------------------------------------------------- scanning


def _words(lines: list[str], word: str) -> Iterator[tuple[int, int, int]]:
    """(line, start, end) of each whole-word `word` outside prose and comments."""
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])")
    prose_below: int | None = None  # lines indented deeper than this belong to a prose key
    labels_below: int | None = None  # inside `labels:`: keys are names, values wording
    for n, text in enumerate(lines):
        stripped = text.strip()
        indent = len(text) - len(text.lstrip(" "))
        if stripped and not stripped.startswith("#"):
            if prose_below is not None and indent > prose_below:
                continue
            prose_below = None
            if labels_below is not None and indent <= labels_below:
                labels_below = None
        key = _KEY.match(text)
        searched_from, searched_to = 0, _comment_start(text)
        if key is not None:
            name = key.group("key").strip("\"'")
            if labels_below is not None:  # a label's key is a name; its wording is prose
                searched_to = min(searched_to, key.end())
            elif name in _PROSE:
                depth = len(key.group("indent"))
                if name == "labels":
                    labels_below = depth
                rest = text[key.end():searched_to].strip()
                if rest == "" or rest[0] in "|>":
                    prose_below = depth if name != "labels" else None
                searched_to = key.start("key")  # nothing of a prose value
        if word not in text:
            continue
        for match in pattern.finditer(text, searched_from, max(searched_to, 0)):
            yield n, match.start(), match.end()


def _comment_start(text: str) -> int:
    """Where a YAML comment starts on the line (outside quotes), else its length."""
    quote: str | None = None
    for i, ch in enumerate(text):
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in "\"'" and (i == 0 or not text[i - 1].isalnum()):
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return i
    return len(text)


def _scenario_tests(check: Check, texts: Mapping[Path, str]) -> list[Path]:
    """The scenario test files beside the ruleset's folders (any `tests/` folder at the
    root of a ruleset or expansion folder on disk, and the open documents that are
    scenario tests)."""
    roots: set[Path] = set()
    for f in check.files:
        path = file_of(check, f.label)
        if path is None or _installed(path):
            continue
        around = ruleset_folder(path)
        if around is not None:
            roots.add(around[0])
    found = [p for p, text in texts.items() if _is_scenario_test(text)]
    for root in sorted(roots):
        count = 0
        top: list[tuple[str, list[str], list[str]]] = (
            [(str(root), [], [p.name for p in root.iterdir() if p.is_file()])] if root.is_dir() else [])
        for folder, dirs, files in [*top, *os.walk(root / "tests")]:
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("rules", "content", "node_modules",
                                                                                "__pycache__")]
            for name in files:
                if not name.endswith((".yaml", ".yml")):
                    continue
                count += 1
                if count > _MAX_TESTS:
                    break
                path = Path(folder) / name
                try:
                    head = path.read_text(encoding="utf-8")[:4000]
                except (OSError, UnicodeDecodeError):
                    continue
                if _is_scenario_test(head):
                    found.append(path.absolute())
    return list(dict.fromkeys(found))


def _is_scenario_test(text: str) -> bool:
    return re.search(r"^-\s+item\s*:", text, re.MULTILINE) is not None
