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
loader reports F005 past the limit). A folder reached twice while walking (a symbolic
link loop, or two links to one folder) is read once (the second is SymlinkLoop, F007).
"""

from __future__ import annotations

import os
import re
import stat
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

MAX_FILE_BYTES = 524_288
"""A data file may hold at most this many bytes (F005); split a larger one."""

RULES_PACKAGE = "legacies.rules"
CONTENT_PACKAGE = "legacies.content"
RULESET_FILE = "ruleset.yaml"
EXPANSION_FILES = ("expansion.yaml", "expansion.yml")
YAML_SUFFIXES = (".yaml", ".yml")
MAX_FOLDER_DEPTH = 16  # folders below content/<name>/

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


class NotRegular(OSError):
    """A path that is not a regular file (a FIFO, a device, a socket): never read."""


class SymlinkLoop(OSError):
    """A folder already walked (through a symbolic link): not walked again."""


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


def _reader(entry: Traversable) -> Callable[[], bytes]:
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
        if path.suffix in YAML_SUFFIXES and not path.is_dir():
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
    return sorted(entry.name for entry in _entries(top) if entry.is_dir() and entry.joinpath(RULESET_FILE).is_file())


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
    ruleset = rules.joinpath(RULESET_FILE)
    found = [SourceFile(rules_label(ruleset, RULESET_FILE), "ruleset", _reader(ruleset))]
    for entry in sorted(_entries(rules), key=lambda e: e.name):
        if entry.is_file() and _is_yaml(entry.name) and entry.name != RULESET_FILE:
            found.append(SourceFile(rules_label(entry, entry.name), "procedures", _reader(entry)))
    for relative, entry, problem in _walk_yaml(content, "", set()):
        read = _reader(entry) if problem is None else _raiser(problem)
        found.append(SourceFile(content_label(entry, relative), "content", read))
    return found


def _walk_yaml(folder: Traversable, prefix: str,
               seen: set[tuple[int, int]]) -> Iterator[tuple[str, Traversable, OSError | None]]:
    """Every YAML file under `folder`, depth first, in name order, with its relative path.
    A folder on disk already walked (a link loop, two links to one folder) yields one
    entry with a SymlinkLoop problem instead of its files."""
    if isinstance(folder, Path):
        try:
            info = folder.stat()
        except OSError:
            return
        key = (info.st_dev, info.st_ino)
        if key in seen:
            problem = SymlinkLoop(0, "this folder was already read (a symbolic link loop, or a second link to it): "
                                  "not read again", str(folder))
            yield prefix.rstrip("/"), folder, problem
            return
        seen.add(key)
    for entry in sorted(_entries(folder), key=lambda e: e.name):
        if entry.name.startswith((".", "__")):
            continue
        relative = f"{prefix}{entry.name}"
        if entry.is_dir():
            if prefix.count("/") >= MAX_FOLDER_DEPTH:
                yield relative, entry, OSError(0, f"folders nest more than {MAX_FOLDER_DEPTH} deep here: not read",
                                               str(entry))
                continue
            yield from _walk_yaml(entry, relative + "/", seen)
        elif entry.is_file() and _is_yaml(entry.name):
            yield relative, entry, None
        elif _is_yaml(entry.name) and isinstance(entry, Path):  # a FIFO, a device, a broken link: said, not read
            try:
                os.stat(entry)
                yield relative, entry, NotRegular(0, "not a regular file", str(entry))
            except OSError as exc:
                yield relative, entry, exc


def _raiser(problem: OSError) -> Callable[[], bytes]:
    def read() -> bytes:
        raise problem
    return read


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
        return read_regular(path).decode("utf-8-sig", errors="replace")
    except OSError:
        return ""
