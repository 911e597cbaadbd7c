"""The service behind `legacies migrate`: upgrade data files written for an older format,
in place, keeping everything else in them.

For each file named (or each YAML file in a folder named, in name order, skipping names
that start with `.` or `__`): read it (yaml_source), decide its kind (ruleset,
procedures, content: by its place and its top-level keys; any other YAML file, a
scenario test or a CI config, is skipped), run the format steps (formats.STEPS) as text
edits, state `format:` at its top, read the result again to check that it holds what
the steps intended, and write it whole (text_edit.write_whole). A file that cannot be
read, is not valid YAML, or is for a newer format is refused and left untouched. A file
already at the current format is not touched, so running it twice changes nothing.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from legacies.dsl.diagnostics import Diagnostic, has_errors
from legacies.dsl.errors import LegaciesError

from .files import YAML_SUFFIXES, NotRegular, disk_label, guess_kind, read_regular
from .formats import FORMAT_KEY, Change, Document, run_steps, stated_format
from .models import CURRENT_FORMAT, FILE_MODELS
from .text_edit import Edit, apply, decode
from .writes import write_whole
from .yaml_source import load_yaml, not_regular, unreadable

Status = Literal["upgraded", "current", "skipped", "refused"]


class MigrateUsageError(LegaciesError):
    """A path that does not exist (exit code 2)."""

    usage = True


@dataclass
class FileResult:
    """What happened (or, with `write` off, would happen) to one file."""

    label: str
    status: Status
    version: int | None = None
    changes: list[Change] = field(default_factory=list)
    problem: Diagnostic | None = None
    reason: str = ""
    before: str = ""
    after: str = ""

    def diff(self) -> str:
        """A unified diff of the change (empty when nothing changes)."""
        if self.before == self.after:
            return ""
        return "".join(difflib.unified_diff(self.before.splitlines(keepends=True), self.after.splitlines(keepends=True),
                                            f"a/{self.label}", f"b/{self.label}"))


@dataclass
class MigrateResult:
    files: list[FileResult] = field(default_factory=list)
    named: set[str] = field(default_factory=set)  # labels the user named one by one

    def count(self, status: Status) -> int:
        return sum(1 for f in self.files if f.status == status)

    @property
    def ok(self) -> bool:
        return self.count("refused") == 0


def migrate(paths: list[str], write: bool = True) -> MigrateResult:
    """Upgrade every data file under `paths` (written back only when `write`)."""
    result = MigrateResult()
    for raw in paths:
        path = Path(raw)
        if not os.path.lexists(path):
            raise MigrateUsageError(f"no such file or folder: {raw}")
        if path.is_dir():
            for found in _yaml_files(path):
                result.files.append(migrate_file(found, write) if isinstance(found, Path) else found)
        else:
            result.named.add(disk_label(path))
            result.files.append(migrate_file(path, write))
    return result


def migrate_file(path: Path, write: bool = True) -> FileResult:
    """Upgrade one file; never raises on its content."""
    label = disk_label(path)
    try:
        raw = read_regular(path)
    except NotRegular as exc:
        return FileResult(label, "refused", problem=not_regular(label, exc))
    except OSError as exc:
        return FileResult(label, "refused", problem=unreadable(label, exc))
    outcome = upgrade_text(label, raw, path)
    if outcome.status == "upgraded" and write:
        try:
            write_whole(path, decode(raw).encode(outcome.after))
        except OSError as exc:
            return FileResult(label, "refused", outcome.version, problem=Diagnostic(
                "F001", f"cannot write {label}: {exc.strerror or exc}", file=label))
    return outcome


def upgrade_text(label: str, raw: bytes, path: Path) -> FileResult:
    """The file's text upgraded to the current format (`after`), or why it is not."""
    source, problems = load_yaml(label, raw)
    if source is None or has_errors(problems):
        return FileResult(label, "refused", problem=problems[0] if problems else None,
                          reason="it is not valid YAML")
    text = decode(raw)
    kind = data_kind(path, source.data, text.text)
    if kind is None and _scenario_tests(source.data):
        return _upgrade_wording(label, source.root, text.text, source.data)
    if kind is None:
        return FileResult(label, "skipped", reason="not a rules or content file")
    stated = stated_format(source)
    if stated.problem is not None:
        return FileResult(label, "refused", stated.version, problem=stated.problem)
    if stated.version == CURRENT_FORMAT:
        return FileResult(label, "current", stated.version, before=text.text, after=text.text)
    doc = Document(kind, source.data, source.root, text.text)
    run_steps(doc, stated.version)
    if doc.problems:
        first = doc.problems[0]
        return FileResult(label, "refused", stated.version, problem=Diagnostic(
            "F008", f"cannot upgrade this file from format {stated.version}: {first.what}", first.line,
            first.column, file=label, hint="fix it by hand, then run `legacies migrate` again"))
    doc.state_format(CURRENT_FORMAT, text.newline)
    after = apply(text.text, doc.edits)
    reread, problems = load_yaml(label, after)
    if reread is None or problems or reread.data != doc.data:  # never write what the steps did not mean
        return FileResult(label, "refused", stated.version, problem=Diagnostic(
            "F008", "the upgraded text would not read as intended (a bug in legacies): the file is left as it is",
            file=label, hint="upgrade it by hand (docs/authoring.md, \"Format versions and migrating\")"))
    return FileResult(label, "upgraded", stated.version, doc.changes, before=text.text, after=after)


# How `legacies try` words what changed, as it was and as it is: a scenario test's
# `changes:` lines written in the old words are rewritten (each pattern, its replacement,
# what it is). 528b876/eee7d04: a label after a possessive lost its article.
WORDING: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"\b(P\d+)(''|')s the "), r"\1\2s ", "a label after a possessive reads without its article "
     "(\"P1's player card being played\", not \"P1's the player card being played\")"),
]


def _scenario_tests(data: object) -> bool:
    """A scenario test file (`legacies test`): a list of tests, each naming its item."""
    return isinstance(data, list) and bool(data) and all(isinstance(t, dict) and "item" in t for t in data)


def _upgrade_wording(label: str, root: Node | None, text: str, data: object) -> FileResult:
    """A scenario test file with its `changes:` lines in today's words (WORDING)."""
    edits: list[Edit] = []
    changes: list[Change] = []
    for entry in root.value if isinstance(root, SequenceNode) else []:
        for key, value in entry.value if isinstance(entry, MappingNode) else []:
            if getattr(key, "value", None) != "changes" or not isinstance(value, SequenceNode):
                continue
            for line in value.value:
                if not isinstance(line, ScalarNode):
                    continue
                start, end = line.start_mark.index, line.end_mark.index
                written = new = text[start:end]
                for pattern, replacement, what in WORDING:
                    new, n = pattern.subn(replacement, new)
                    if n:
                        changes.append(Change(line.start_mark.line + 1, line.start_mark.column + 1, what))
                if new != written:
                    edits.append(Edit(start, end, new))
    if not edits:
        return FileResult(label, "skipped", reason="not a rules or content file (scenario tests, their `changes:` "
                          "in today's words)")
    after = apply(text, edits)
    reread, problems = load_yaml(label, after)
    if reread is None or problems or not _scenario_tests(reread.data):
        return FileResult(label, "refused", problem=Diagnostic(
            "F008", "the upgraded text would not read as intended (a bug in legacies): the file is left as it is",
            file=label, hint="upgrade its `changes:` by hand (`legacies test` shows today's words)"))
    return FileResult(label, "upgraded", None, changes, before=text, after=after)


def data_kind(path: Path, data: object, text: str) -> str | None:
    """`ruleset`, `procedures` or `content` for a rules or content file (by its place and
    name, else its top-level keys); None for any other YAML file, which migrate leaves alone."""
    if not isinstance(data, dict) or not data:
        return None
    kind = guess_kind(path, text)
    known = {info.alias or name for name, info in FILE_MODELS[kind].model_fields.items()} - {FORMAT_KEY}
    return kind if known & set(data) else None


def _yaml_files(folder: Path) -> list[Path | FileResult]:
    """The YAML files under `folder`, in name order, by the one bounded walk
    (pipeline/walk.py); what it does not read is a file refused, in words, at its place."""
    from .walk import walk
    from .yaml_source import walk_diagnostic

    found: list[Path | FileResult] = []
    for w in walk(folder, lambda name: name.lower().endswith(YAML_SUFFIXES), too_deep=True):
        label = disk_label(Path(str(w.entry)))
        found.append(Path(str(w.entry)) if w.problem is None
                     else FileResult(label, "refused", problem=walk_diagnostic(label, w.problem)))
    return found
