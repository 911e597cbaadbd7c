"""Finding the files a ruleset is made of, and what kind each one is.

This module owns discovery, before anything is read or parsed:
- rules/<name>/ruleset.yaml            kind `ruleset` (always listed, so a missing one is reported)
- rules/<name>/*.yaml (other files)    kind `procedures`
- content/<name>/**/*.yaml             kind `content`
taken from the installed packages `legacies.rules` and `legacies.content` by default,
from a folder holding rules/ and content/ (a content repository), or from one file
(whose kind is guessed from where it is, or else from its top-level keys).
Each file comes as a SourceFile: a label for diagnostics, its kind and a `read()` that
returns its bytes (and may raise OSError: the loader turns that into F001).
"""

from __future__ import annotations

import os
import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

RULES_PACKAGE = "legacies.rules"
CONTENT_PACKAGE = "legacies.content"
RULESET_FILE = "ruleset.yaml"
YAML_SUFFIXES = (".yaml", ".yml")

_TOP_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)\s*:", re.MULTILINE)


class SourceFile(NamedTuple):
    """One data file to load: `label` names it in diagnostics; `read()` gives its bytes."""

    label: str
    kind: str
    read: Callable[[], bytes]


Labeler = Callable[[Traversable, str], str]


# --------------------------------------------------------------------------- public


def ruleset_files(name: str, root: Traversable | Path | str | None = None) -> list[SourceFile]:
    """The files of ruleset `name`: the ruleset file first, then procedures, then content.

    root None: the installed packages. A folder: one holding rules/<name>/ and
    content/<name>/. A .yaml/.yml file: that file alone (kind guessed).
    """
    if root is None:
        rules = resources.files(RULES_PACKAGE).joinpath(name)
        content = resources.files(CONTENT_PACKAGE).joinpath(name)
        return _tree_files(rules, content, _package_label(f"rules/{name}"), _package_label(f"content/{name}"))
    if isinstance(root, (str, os.PathLike)):
        path = Path(root)
        if path.suffix in YAML_SUFFIXES and not path.is_dir():
            return [single_file(path)]
        rules, content = path / "rules" / name, path / "content" / name
        return _tree_files(rules, content, _disk_label, _disk_label)
    rules, content = root.joinpath("rules", name), root.joinpath("content", name)
    return _tree_files(rules, content, _package_label(f"rules/{name}"), _package_label(f"content/{name}"))


def single_file(path: Path) -> SourceFile:
    """One file on disk, its kind guessed from its location, name or top-level keys."""
    return SourceFile(disk_label(path), guess_kind(path, _peek(path)), path.read_bytes)


def installed_rulesets() -> list[str]:
    """The rulesets shipped in `legacies.rules`: its folders that hold a ruleset.yaml."""
    top = resources.files(RULES_PACKAGE)
    return sorted(entry.name for entry in _entries(top) if entry.is_dir() and entry.joinpath(RULESET_FILE).is_file())


def guess_kind(path: Path, text: str) -> str:
    """`ruleset`, `procedures` or `content`: by name and place first, then by top-level keys."""
    if path.name in ("ruleset.yaml", "ruleset.yml"):
        return "ruleset"
    parents = [parent.name for parent in path.parents]
    if "content" in parents:
        return "content"
    if len(parents) > 1 and parents[1] == "rules":
        return "procedures"
    return kind_from_keys(text)


def kind_from_keys(text: str) -> str:
    """`ruleset:` and `title:` -> ruleset; `items:` -> content; anything else -> procedures."""
    keys = set(_TOP_KEY.findall(text))
    if {"ruleset", "title"} <= keys:
        return "ruleset"
    if "items" in keys:
        return "content"
    return "procedures"


def disk_label(path: Path) -> str:
    """A path relative to the current directory when it lies under it, else absolute."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return absolute.as_posix()


# --------------------------------------------------------------------------- walking


def _tree_files(rules: Traversable, content: Traversable, rules_label: Labeler, content_label: Labeler) -> list[SourceFile]:
    ruleset = rules.joinpath(RULESET_FILE)
    found = [SourceFile(rules_label(ruleset, RULESET_FILE), "ruleset", ruleset.read_bytes)]
    for entry in sorted(_entries(rules), key=lambda e: e.name):
        if entry.is_file() and _is_yaml(entry.name) and entry.name != RULESET_FILE:
            found.append(SourceFile(rules_label(entry, entry.name), "procedures", entry.read_bytes))
    for relative, entry in _walk_yaml(content, ""):
        found.append(SourceFile(content_label(entry, relative), "content", entry.read_bytes))
    return found


def _walk_yaml(folder: Traversable, prefix: str) -> Iterator[tuple[str, Traversable]]:
    """Every YAML file under `folder`, depth first, in name order, with its relative path."""
    for entry in sorted(_entries(folder), key=lambda e: e.name):
        if entry.name.startswith((".", "__")):
            continue
        relative = f"{prefix}{entry.name}"
        if entry.is_dir():
            yield from _walk_yaml(entry, relative + "/")
        elif entry.is_file() and _is_yaml(entry.name):
            yield relative, entry


def _entries(folder: Traversable) -> list[Traversable]:
    try:
        return list(folder.iterdir()) if folder.is_dir() else []
    except OSError:
        return []


def _is_yaml(name: str) -> bool:
    return name.endswith(YAML_SUFFIXES) and not name.startswith(".")


def _package_label(prefix: str) -> Labeler:
    return lambda entry, relative: f"{prefix}/{relative}"


def _disk_label(entry: Traversable, relative: str) -> str:
    return disk_label(Path(str(entry)))


def _peek(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return ""
