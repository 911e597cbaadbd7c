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

Only regular files are read (a FIFO, a device such as /dev/zero, a socket is refused
unread: NotRegular, F006), and never more than MAX_FILE_BYTES + 1 bytes of one (the
loader reports F005 past the limit). Folders are walked by pipeline/walk.py, the one
bounded walk: a folder reached twice (a symbolic link loop, or two links to one folder)
is read once (SymlinkLoop, F007), a link out of the folder is not followed
(OutsideFolder, F010), and the walk stops at its bounds (WalkBound, F011).
"""

from __future__ import annotations

import os
import re
import stat
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Callable, NamedTuple

from .walk import MAX_FOLDER_DEPTH, NotRegular, OutsideFolder, SymlinkLoop, WalkBound, subfolders, walk

__all__ = ["MAX_FILE_BYTES", "NotRegular", "OutsideFolder", "SourceFile", "SymlinkLoop", "WalkBound",
           "disk_label", "guess_kind", "installed_rulesets", "kind_from_keys", "read_regular", "ruleset_files",
           "single_file"]

MAX_FILE_BYTES = 524_288
"""A data file may hold at most this many bytes (F005); split a larger one."""

RULES_PACKAGE = "legacies.rules"
CONTENT_PACKAGE = "legacies.content"
RULESET_FILE = "ruleset.yaml"
EXPANSION_FILES = ("expansion.yaml", "expansion.yml")
YAML_SUFFIXES = (".yaml", ".yml")

_TOP_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)\s*:", re.MULTILINE)


class SourceFile(NamedTuple):
    """One data file to load: `label` names it in diagnostics; `read()` gives its bytes.
    `layer` is the expansion it comes from ("" for the ruleset itself); `over`, the file
    of what it is laid over that sits at its place (pipeline/stack.py lays them)."""

    label: str
    kind: str
    read: Callable[[], bytes]
    layer: str = ""
    over: "SourceFile | None" = None


Labeler = Callable[[Traversable, str], str]


def read_regular(path: Path | str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file, at most `limit` + 1 of them (so that a caller sees a
    file past its limit without reading all of it). Opening never blocks (a FIFO)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = ("a folder" if stat.S_ISDIR(mode) else "a pipe (FIFO)" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket"
                    if stat.S_ISSOCK(mode) else "not a regular file")
            raise NotRegular(0, f"{kind}, not a regular file", str(path))
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def file_reader(entry: Traversable) -> Callable[[], bytes]:
    """How to read a discovered entry: a file on disk safely; a packaged one (a zip) by
    its own `open`, bounded too."""
    if isinstance(entry, Path):
        return lambda: read_regular(entry)

    def read() -> bytes:
        with entry.open("rb") as handle:
            return handle.read(MAX_FILE_BYTES + 1)
    return read


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
        if path.suffix.lower() in YAML_SUFFIXES and not path.is_dir():
            return [single_file(path)]
        rules, content = path / "rules" / name, path / "content" / name
        return _tree_files(rules, content, _disk_label, _disk_label)
    rules, content = root.joinpath("rules", name), root.joinpath("content", name)
    return _tree_files(rules, content, _package_label(f"rules/{name}"), _package_label(f"content/{name}"))


def single_file(path: Path) -> SourceFile:
    """One file on disk, its kind guessed from its location, name or top-level keys."""
    return SourceFile(disk_label(path), guess_kind(path, _peek(path)), lambda: read_regular(path))


def installed_rulesets() -> list[str]:
    """The rulesets shipped in `legacies.rules`: its folders that hold a ruleset.yaml."""
    top = resources.files(RULES_PACKAGE)
    return sorted(name for name in subfolders(top) if top.joinpath(name, RULESET_FILE).is_file())


def guess_kind(path: Path, text: str) -> str:
    """`ruleset`, `expansion`, `procedures` or `content`: by name and place first, then by
    top-level keys."""
    if path.name in ("ruleset.yaml", "ruleset.yml"):
        return "ruleset"
    if path.name in EXPANSION_FILES and kind_from_keys(text) in ("expansion", "procedures"):
        return "expansion"  # by its name, unless its keys say it is another kind of file
    parents = [parent.name for parent in path.parents]
    if "content" in parents:
        return "content"
    if len(parents) > 1 and parents[1] == "rules":
        return "procedures"
    return kind_from_keys(text)


def kind_from_keys(text: str) -> str:
    """`ruleset:` and `title:` -> ruleset; `expansion:` and `extends:` -> expansion;
    `items:` -> content; anything else -> procedures."""
    keys = set(_TOP_KEY.findall(text.removeprefix("\ufeff")))
    if {"ruleset", "title"} <= keys:
        return "ruleset"
    if {"expansion", "extends"} <= keys:
        return "expansion"
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
    """The ruleset file, the YAML files directly in rules/<name>/ and every one under
    content/<name>/, found by the one bounded walk (pipeline/walk.py): what it does not
    read (a link out of the folder, a loop, past its bounds, an OS error) is a file whose
    read raises that problem, so the loader says it at its place."""
    ruleset = rules.joinpath(RULESET_FILE)
    found = [SourceFile(rules_label(ruleset, RULESET_FILE), "ruleset", file_reader(ruleset))]
    for w in walk(rules, is_yaml, depth=0):
        if w.relative != RULESET_FILE and w.relative:
            read = file_reader(w.entry) if w.problem is None else _raiser(w.problem)
            found.append(SourceFile(rules_label(w.entry, w.relative), "procedures", read))
    for w in walk(content, is_yaml, too_deep=True):
        read = file_reader(w.entry) if w.problem is None else _raiser(w.problem)
        found.append(SourceFile(content_label(w.entry, w.relative or "."), "content", read))
    return found


def _raiser(problem: OSError) -> Callable[[], bytes]:
    def read() -> bytes:
        raise problem
    return read


def _entries(folder: Traversable) -> list[Traversable]:
    """The entries directly in `folder`, by the walk's rules (no link out, nothing of the
    system's): the folders and the YAML files."""
    return [w.entry for w in walk(folder, is_yaml, depth=0, skip=(), folders_too=True) if w.problem is None]


def is_yaml(name: str) -> bool:
    """A YAML file by its name, whatever the case of its suffix (`caps.YAML` was neither
    read nor said to be unread); a hidden file is none."""
    return name.lower().endswith(YAML_SUFFIXES) and not name.startswith(".")


def _package_label(prefix: str) -> Labeler:
    return lambda entry, relative: f"{prefix}/{relative}"


def _disk_label(entry: Traversable, relative: str) -> str:
    return disk_label(Path(str(entry)))


def _peek(path: Path) -> str:
    try:
        return read_regular(path).decode("utf-8-sig", errors="replace")
    except OSError:
        return ""
