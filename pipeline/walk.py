"""The one walk of a folder, for every folder the program reads (a ruleset's rules/ and
content/, an expansion folder and what it holds unread, a folder of scenario tests, the
files `migrate` and `new` look through).

A walk is bounded and stays where it was sent:
- it never leaves the folder it was given: a symbolic link whose target lies outside it
  is not followed (OutsideFolder, F010), and one that points back to a folder above it,
  or to a folder already walked, is not walked again (SymlinkLoop, F007);
- it never reads the system's own folders (/proc, /sys, /dev): not as the folder given,
  not when met inside it (`-x /`);
- it looks at no more than MAX_WALK_ENTRIES names and MAX_WALK_FOLDERS folders, and goes
  no more than MAX_FOLDER_DEPTH folders down (WalkBound, F011: the rest is not read);
- every OS error (a folder that cannot be listed, a name too long) comes back as the
  entry's `problem`, an OSError whose `strerror` is a sentence; nothing is raised.
Entries come depth first, in name order (the same order on every machine).
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Callable, Iterator

MAX_FOLDER_DEPTH = 16  # folders below the folder walked
MAX_WALK_FOLDERS = 2_000
MAX_WALK_ENTRIES = 40_000  # names looked at in one walk (files and folders, read or not)
SYSTEM_FOLDERS = ("/proc", "/sys", "/dev")


class NotRegular(OSError):
    """A path that is not a regular file (a FIFO, a device, a socket): never read."""


class SymlinkLoop(OSError):
    """A folder already walked (through a symbolic link): not walked again."""


class OutsideFolder(OSError):
    """A symbolic link out of the folder walked, or into a folder of the system: not followed."""


class WalkBound(OSError):
    """The walk's bounds were reached here: what is left is not read."""


@dataclass(frozen=True)
class Walked:
    """One file the walk found (or one place it stopped at): its path relative to the
    folder walked (with `/`), the entry, and `problem` when it is not to be read."""

    relative: str
    entry: Traversable
    problem: OSError | None = None


def os_sentence(err: BaseException) -> str:
    """An OS error as words, without Python's `[Errno N]` dressing."""
    if isinstance(err, OSError):
        if err.errno == errno.ENAMETOOLONG:
            return "the name is too long for the file system"
        if err.strerror:
            return err.strerror
    return str(err) or type(err).__name__


def system_folder(path: str) -> str | None:
    """The system folder (/proc, /sys, /dev) `path` (a real path) lies in, if any."""
    for top in SYSTEM_FOLDERS:
        if path == top or path.startswith(top + "/"):
            return top
    return None


def real_path(path: Path | str) -> str:
    """The path with every link resolved (as far as it exists)."""
    return os.path.realpath(path)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


class Walk:
    """One walk's bounds, shared by the folders it goes through (`walk` makes one; give the
    same Walk to several calls to bound them together)."""

    def __init__(self, entries: int | None = None, folders: int | None = None) -> None:
        entries = MAX_WALK_ENTRIES if entries is None else entries
        folders = MAX_WALK_FOLDERS if folders is None else folders
        self.entries_left = entries
        self.folders_left = folders
        self.max_entries = entries
        self.max_folders = folders
        self.stopped = False
        self.too_deep = False

    def bound_problem(self, where: str) -> WalkBound:
        self.stopped = True
        return WalkBound(0, f"more than {self.max_entries:,} files and folders, or {self.max_folders:,} folders, "
                         "in the folders read: the walk stopped here and the rest is not read", where)


def walk(root: Traversable, want: Callable[[str], bool], *, depth: int = MAX_FOLDER_DEPTH,
         skip: tuple[str, ...] = (".", "__"), bounds: Walk | None = None,
         folders_too: bool = False, too_deep: bool = False) -> Iterator[Walked]:
    """The files under `root` whose name `want` accepts (and, with `folders_too`, every
    folder as an entry of its own, its relative path ending in `/`), names starting with
    one of `skip` left out, `depth` folders down at most (0: `root`'s own files; with
    `too_deep`, a folder below that is an entry with a WalkBound problem, else passed)."""
    bounds = bounds or Walk()
    bounds.too_deep = too_deep
    if isinstance(root, Path) or isinstance(root, os.PathLike):
        yield from _walk_disk(Path(root), want, depth, skip, bounds, folders_too)
    else:
        yield from _walk_traversable(root, "", want, depth, skip, bounds, folders_too)


# --------------------------------------------------------------------------- on disk


def _walk_disk(root: Path, want: Callable[[str], bool], depth: int, skip: tuple[str, ...], bounds: Walk,
               folders_too: bool) -> Iterator[Walked]:
    try:
        if not root.is_dir():
            return
        top = real_path(root)
    except OSError as err:
        yield Walked("", root, _as_problem(err, root))
        return
    system = system_folder(top)
    if system is not None:
        yield Walked("", root, OutsideFolder(0, f"{system} is a folder of the system, never read", str(root)))
        return
    seen: set[tuple[int, int]] = set()
    yield from _folder(root, top, top, "", want, depth, skip, bounds, folders_too, seen)


def _folder(folder: Path, real: str, top: str, prefix: str, want: Callable[[str], bool], depth: int,
            skip: tuple[str, ...], bounds: Walk, folders_too: bool,
            seen: set[tuple[int, int]]) -> Iterator[Walked]:
    if bounds.stopped:
        return
    try:
        info = os.stat(real)
        key = (info.st_dev, info.st_ino)
    except OSError as err:
        yield Walked(prefix.rstrip("/"), folder, _as_problem(err, folder))
        return
    if key in seen:
        yield Walked(prefix.rstrip("/"), folder, _loop(folder))
        return
    seen.add(key)
    bounds.folders_left -= 1
    if bounds.folders_left < 0:
        yield Walked(prefix.rstrip("/"), folder, bounds.bound_problem(str(folder)))
        return
    try:
        with os.scandir(folder) as listing:
            names = []
            for item in listing:
                bounds.entries_left -= 1
                if bounds.entries_left < 0:
                    break
                names.append(item)
    except OSError as err:
        yield Walked(prefix.rstrip("/"), folder, _as_problem(err, folder))
        return
    names.sort(key=lambda e: e.name)
    for item in names:
        if bounds.stopped:
            return
        if item.name.startswith(skip):
            continue
        relative = f"{prefix}{item.name}"
        path = folder / item.name
        try:
            link = item.is_symlink()
            target = real_path(path) if link else os.path.join(real, item.name)
            is_dir = item.is_dir()  # follows a link
        except OSError as err:
            if want(item.name):
                yield Walked(relative, path, _as_problem(err, path))
            continue
        if link:
            system = system_folder(target)
            if is_dir and _inside(real, target) and target != "/" and system is None:
                yield Walked(relative, path, _loop(path))  # a link to this folder or one above it: a loop
                continue
            if system is not None or not _inside(target, top):
                if is_dir or want(item.name):
                    where = f"into a folder of the system ({system})" if system else "out of the folder being read"
                    yield Walked(relative, path, OutsideFolder(
                        0, f"a symbolic link {where}: not followed", str(path)))
                continue
        elif is_dir and system_folder(target) is not None:  # /proc met while walking /
            continue
        if is_dir:
            if folders_too:
                yield Walked(relative + "/", path)
            if depth <= 0:
                if bounds.too_deep:
                    yield Walked(relative, path, _too_deep(path))
                continue
            yield from _folder(path, target, top, relative + "/", want, depth - 1, skip, bounds, folders_too, seen)
        elif want(item.name):
            try:
                mode = os.stat(path).st_mode
            except OSError as err:  # a broken link, a file gone since
                yield Walked(relative, path, _as_problem(err, path))
                continue
            if stat.S_ISREG(mode):
                yield Walked(relative, path)
            else:
                yield Walked(relative, path, NotRegular(0, "not a regular file", str(path)))
    if bounds.entries_left < 0 and not bounds.stopped:
        yield Walked(prefix.rstrip("/"), folder, bounds.bound_problem(str(folder)))


def _too_deep(path: Path | Traversable) -> WalkBound:
    return WalkBound(0, f"folders nest more than {MAX_FOLDER_DEPTH} deep here: not read", str(path))


def _loop(path: Path) -> SymlinkLoop:
    return SymlinkLoop(0, "this folder was already read (a symbolic link loop, or a second link to it): "
                       "not read again", str(path))


def _as_problem(err: OSError, path: Path | Traversable) -> OSError:
    """The OS error with a sentence for its words."""
    return OSError(err.errno or 0, os_sentence(err), str(path)[:200])


# --------------------------------------------------------------------------- packaged


def _walk_traversable(folder: Traversable, prefix: str, want: Callable[[str], bool], depth: int,
                      skip: tuple[str, ...], bounds: Walk, folders_too: bool) -> Iterator[Walked]:
    """An installed package's folder (a zip, say): no links to follow, the same bounds."""
    if bounds.stopped:
        return
    bounds.folders_left -= 1
    if bounds.folders_left < 0:
        yield Walked(prefix.rstrip("/"), folder, bounds.bound_problem(prefix or "."))
        return
    try:
        entries = sorted(folder.iterdir(), key=lambda e: e.name) if folder.is_dir() else []
    except OSError as err:
        yield Walked(prefix.rstrip("/"), folder, OSError(err.errno or 0, os_sentence(err)))
        return
    for entry in entries:
        bounds.entries_left -= 1
        if bounds.entries_left < 0:
            yield Walked(prefix.rstrip("/"), folder, bounds.bound_problem(prefix or "."))
            return
        if entry.name.startswith(skip):
            continue
        relative = f"{prefix}{entry.name}"
        if entry.is_dir():
            if folders_too:
                yield Walked(relative + "/", entry)
            if depth > 0:
                yield from _walk_traversable(entry, relative + "/", want, depth - 1, skip, bounds, folders_too)
            elif bounds.too_deep:
                yield Walked(relative, entry, _too_deep(entry))
        elif want(entry.name):
            yield Walked(relative, entry)


def subfolders(folder: Path | Traversable, skip: tuple[str, ...] = (".", "_")) -> list[str]:
    """The names of the folders directly in `folder` (the walk's rules: not out of it, not
    the system's), in name order; none when it cannot be listed."""
    return [w.relative.rstrip("/") for w in walk(folder, lambda name: False, depth=0, skip=skip, folders_too=True)
            if w.problem is None and w.relative.endswith("/")]
