"""Format versions of data files, and the steps that upgrade a file written for an older one.

Every data file (ruleset.yaml, procedures files, content files) states `format: N` at its
top; a file without it is format 1. CURRENT_FORMAT (models.py) is the format the models
describe. A change that makes an older file read differently is one more Step in STEPS:
a small function that turns what a format-N file says into what format N+1 says, through
a Document. A Document changes the plain data (what the loader goes on with) and records
the same change as a text edit at its position (what `legacies migrate` writes, keeping
the rest of the file byte for byte); each change also says where it is and what it did.

The loader reads an older file through the steps, in memory (`upgrade`): the file loads,
with F008 (a warning, at the first thing a step changed) saying that `legacies migrate`
upgrades it. A file without `format:` that no step changes reads the same in every
format, so nothing is said about it (only `legacies migrate` adds its `format:`). A file
for a newer format than this engine knows, or whose `format:` is not a format, is F009:
an error, and the file is not read further (what it means cannot be known).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from collections.abc import Callable
from typing import Any

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from legacies.dsl.diagnostics import WARNING, Diagnostic

from .models import CURRENT_FORMAT
from .schemas import describe
from .text_edit import Edit, line_start
from .yaml_source import YamlPath, YamlSource, bounded

FORMAT_KEY = "format"


@dataclass(frozen=True)
class Change:
    """One thing a step changed (or could not change) in a file, at (line, column) of its text."""

    line: int
    column: int
    what: str


@dataclass
class Document:
    """A parsed file being upgraded: its plain data, its node graph (positions), and
    the edits and changes made so far. `text` is needed only to state the format."""

    kind: str
    data: Any
    root: Node | None
    text: str = ""
    edits: list[Edit] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    problems: list[Change] = field(default_factory=list)

    def rename_key(self, path: YamlPath, old: str, new: str) -> None:
        """The key `old` of the mapping at `path` is called `new`, where it stands (its
        order, its quoting and its comments kept). Nothing when it is not there."""
        mapping, node = _data_at(self.data, path), _node_at(self.root, path)
        if not isinstance(mapping, dict) or old not in mapping:
            return
        key_node = _key_node(node, old)
        if key_node is None or new in mapping:
            where = key_node or node
            line, column = _line_column(where)
            why = (f"both `{old}` and `{new}` are given: keep `{new}`" if new in mapping
                   else f"`{old}` comes from an alias (`<<:`): rename it where it is written")
            self.problems.append(Change(line, column, why))
            return
        renamed = {(new if key == old else key): value for key, value in mapping.items()}
        mapping.clear()
        mapping.update(renamed)
        quote = 1 if key_node.style in ('"', "'") else 0
        self.edits.append(Edit(key_node.start_mark.index + quote, key_node.end_mark.index - quote, new))
        line, column = _line_column(key_node)
        self.changes.append(Change(line, column, f"`{old}` is now `{new}`"))
        key_node.value = new  # positions asked for under the new name find the old key's place

    def state_format(self, version: int, newline: str = "\n") -> None:
        """`format: VERSION` at the top of the file: its value replaced when it is there,
        else a line added before the first key."""
        root = self.root
        if not isinstance(root, MappingNode) or not isinstance(self.data, dict):
            raise TypeError("the top of the file is not a mapping")
        self.data[FORMAT_KEY] = version
        for key_node, value_node in root.value:
            if isinstance(key_node, ScalarNode) and key_node.value == FORMAT_KEY:
                self.edits.append(Edit(value_node.start_mark.index, value_node.end_mark.index, str(version)))
                line, column = _line_column(value_node)
                self.changes.append(Change(line, column, f"`format:` is now {version}"))
                return
        line_text = f"{FORMAT_KEY}: {version}"
        if not root.value:  # `{}`
            at = root.start_mark.index + 1
            self.edits.append(Edit(at, at, line_text))
        elif root.flow_style:
            at = root.value[0][0].start_mark.index
            self.edits.append(Edit(at, at, line_text + ", "))
        else:
            first = root.value[0][0]
            at = line_start(self.text, first.start_mark.index)
            before = self.text[at:first.start_mark.index]
            if before.strip():  # the key shares its line (`--- ruleset: x`): a line of its own, aligned
                at = first.start_mark.index
                self.edits.append(Edit(at, at, line_text + newline + " " * first.start_mark.column))
            else:
                self.edits.append(Edit(at, at, before + line_text + newline))
        line, column = _line_column(root.value[0][0] if root.value else root)
        self.changes.append(Change(line, column, f"`{line_text}` added"))


Upgrade = Callable[[Document], None]


@dataclass(frozen=True)
class Step:
    """Upgrade a file from format `to - 1` to format `to`."""

    to: int
    summary: str
    run: Upgrade


def _win_rates_by(doc: Document) -> None:
    """ruleset.yaml's `starting_choices:` names what `legacies simulate` groups win rates
    by, not choices a player makes at the start (a character may be dealt): `win_rates_by:`."""
    if doc.kind == "ruleset":
        doc.rename_key((), "starting_choices", "win_rates_by")


STEPS: tuple[Step, ...] = (
    Step(2, "ruleset.yaml: `starting_choices:` is `win_rates_by:`", _win_rates_by),
)
"""Every step, in order: STEPS[i] upgrades format i + 1 to i + 2; the last reaches CURRENT_FORMAT."""


def run_steps(doc: Document, version: int) -> None:
    """Upgrade `doc` from `version` to CURRENT_FORMAT, one step after the other."""
    for step in STEPS:
        if step.to > version:
            step.run(doc)


# --------------------------------------------------------------------------- reading a file's format


@dataclass(frozen=True)
class Stated:
    """The format a file is written for: `explicit` when it says so; `problem` (F009) when
    its `format:` is not one this engine can read."""

    version: int
    explicit: bool
    problem: Diagnostic | None = None


def stated_format(source: YamlSource) -> Stated:
    data = source.data
    if not isinstance(data, dict) or FORMAT_KEY not in data:
        return Stated(1, False)
    value = data[FORMAT_KEY]
    line, column = source.position((FORMAT_KEY,))
    if isinstance(value, int) and not isinstance(value, bool) and value > CURRENT_FORMAT:
        return Stated(value, True, Diagnostic(
            "F009", f"this file is written for format {value}; this version of legacies reads formats 1 to "
            f"{CURRENT_FORMAT}", line, column, file=source.label,
            hint="upgrade legacies (pip install --upgrade legacies) to read it"))
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        return Stated(1, True, bounded(Diagnostic(
            "F009", f"`format:` must be a whole number from 1 to {CURRENT_FORMAT}, not {describe(value)}",
            line, column, file=source.label, hint=f"write `format: {CURRENT_FORMAT}` for a file written today")))
    return Stated(value, True)


def upgrade(kind: str, source: YamlSource) -> tuple[YamlSource, list[Diagnostic]]:
    """The file as the current format reads it, for the loader: an older one upgraded in
    memory (F008, a warning, when that changed anything or it states an older format),
    or F009 (an error) when it cannot be read."""
    stated = stated_format(source)
    if stated.problem is not None:
        return source, [stated.problem]
    if stated.version == CURRENT_FORMAT:
        return source, []
    doc = Document(kind, source.data, source.root)
    run_steps(doc, stated.version)
    upgraded = replace(source)  # positions indexed afresh: keys may have been renamed
    if not doc.changes and not doc.problems and not stated.explicit:
        return upgraded, []
    hint = f"`legacies migrate {source.label}` upgrades it in place"
    out = []
    if doc.changes or stated.explicit:
        if doc.changes:
            line, column = doc.changes[0].line, doc.changes[0].column
            read = "; ".join(change.what for change in doc.changes)
        else:
            line, column = source.position((FORMAT_KEY,))
            read = "nothing in it reads differently"
        out.append(bounded(Diagnostic(
            "F008", f"this file is written for format {stated.version}; it is read as format {CURRENT_FORMAT} "
            f"({read})", line, column, severity=WARNING, hint=hint, file=source.label)))
    out += [Diagnostic("F008", f"this file is written for format {stated.version} and cannot be read as format "
                       f"{CURRENT_FORMAT} as it stands: {p.what}", p.line, p.column, severity=WARNING,
                       hint="fix it by hand, then run `legacies migrate`", file=source.label)
            for p in doc.problems]
    return upgraded, out


# --------------------------------------------------------------------------- walking data and nodes


def _data_at(data: Any, path: YamlPath) -> Any:
    for step in path:
        if isinstance(data, dict) and isinstance(step, str):
            data = data.get(step)
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            return None
    return data


def _node_at(node: Node | None, path: YamlPath) -> Node | None:
    """The node at `path`, through keys written in each mapping (not merged ones)."""
    for step in path:
        if isinstance(node, SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
            node = node.value[step]
        elif isinstance(node, MappingNode) and isinstance(step, str):
            key = _key_node(node, step)
            node = _value_of(node, key) if key is not None else None
        else:
            return None
    return node


def _key_node(node: Node | None, name: str) -> ScalarNode | None:
    if not isinstance(node, MappingNode):
        return None
    found = None
    for key_node, _ in node.value:
        if isinstance(key_node, ScalarNode) and key_node.value == name:
            found = key_node  # a repeated key: the later stands, as in the loader
    return found


def _value_of(node: MappingNode, key: Node) -> Node:
    return next(value for k, value in node.value if k is key)


def _line_column(node: Node | None) -> tuple[int, int]:
    if node is None or node.start_mark is None:
        return 1, 1
    return node.start_mark.line + 1, node.start_mark.column + 1
