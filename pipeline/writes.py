"""Writing the files a user keeps (saves, balance reports, soak failures, migrated and
new data files, schemas): whole or not at all, and a failure said in words.

A file is written to a temporary name in its own folder, flushed to the disk (fsync),
then renamed over the target, so a reader (or a crash, or a full disk) sees the old file
or the new one, never a part; the folder is synced after the rename when the system
allows. A write that fails removes its temporary file, leaves the old file as it was
and raises WriteError, whose message says what could not be written and why ("the disk
is full", "the file system is read-only"). `check_folder` refuses, before any work is
done, a folder that files could not be written into.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path

from legacies.dsl.errors import LegaciesError

_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOENT: "no such folder",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EISDIR: "it is a folder",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EFBIG: "the file would be too large",
    errno.EIO: "an input/output error (the disk)",
}


def reason(err: OSError) -> str:
    """Why a write failed, in words."""
    return _REASONS.get(err.errno or 0) or (err.strerror or str(err)).lower()


class WriteError(LegaciesError, OSError):
    """A file that could not be written; nothing was changed. `str()` says what, where
    and why. `usage`: the place the command was given cannot be written (exit code 2),
    found before any work."""

    def __init__(self, path: Path | str, why: str, code: int = 0, usage: bool = False):
        OSError.__init__(self, code, why, str(path))
        self.path = Path(path)
        self.why = why
        self.usage = usage

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.why}"


def write_whole(path: Path | str, data: bytes | str, private: bool = False) -> None:
    """Write `data` (text is written as UTF-8) to `path` through a temporary file in the
    same folder, synced and renamed over it. A symbolic link is followed (its target is
    written); an existing file keeps its permissions; a new `private` one is readable by
    its owner alone (a save: its seed and decisions tell every hidden card). Raises
    WriteError."""
    write_files({Path(path): data}, private)


def write_files(files: Mapping[Path, bytes | str], private: bool = False) -> None:
    """Write several files as one: every one to its temporary file first, and only when
    all are on the disk, each renamed into place (a report's pages never disagree
    because the disk filled up between them). Raises WriteError; nothing is changed
    then."""
    staged: list[tuple[Path, Path, Path]] = []  # (as given, target, temporary file)
    try:
        for path, data in files.items():
            staged.append(_stage(path, data.encode("utf-8") if isinstance(data, str) else data, private))
        for path, target, temp in staged:
            try:
                os.replace(temp, target)
            except OSError as err:
                raise WriteError(path, reason(err), err.errno or 0) from None
    finally:  # what was not renamed is removed (Ctrl-C too)
        for _, _, temp in staged:
            _remove(temp)
    for folder in dict.fromkeys(target.parent for _, target, _ in staged):
        _sync_folder(folder)


def _stage(path: Path, payload: bytes, private: bool = False) -> tuple[Path, Path, Path]:
    """`payload` written and synced to a temporary file beside `path`'s target."""
    target = Path(os.path.realpath(path))
    temp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        mode = None
        if target.exists():
            info = os.stat(target)
            if not stat.S_ISREG(info.st_mode):  # a device or a FIFO is never replaced by a file
                raise WriteError(path, "not a regular file", errno.EINVAL)
            mode = stat.S_IMODE(info.st_mode)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                     0o600 if private else 0o666)
    except OSError as err:
        if isinstance(err, WriteError):
            raise
        raise WriteError(path, reason(err), err.errno or 0) from None
    try:
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        if mode is not None:
            os.chmod(temp, mode)
    except OSError as err:
        _remove(temp)
        raise WriteError(path, reason(err), err.errno or 0) from None
    except BaseException:
        _remove(temp)
        raise
    return path, target, temp


def check_folder(folder: Path | str) -> None:
    """Refuse a folder files could not be written into, before any work: it must be a
    folder or be possible to make (its nearest existing parent a folder), and a file
    must be possible to make in it (tried: a probe file is made and removed; a folder
    that does not exist yet is not made). Raises WriteError."""
    folder = Path(folder)
    existing = folder
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise WriteError(folder, "not a folder" if existing == folder else f"{existing} is not a folder",
                         errno.ENOTDIR, usage=True)
    probe = existing / f".legacies-probe-{secrets.token_hex(4)}"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as err:
        raise WriteError(folder, reason(err) + (f" (in {existing})" if existing != folder else ""),
                         err.errno or 0, usage=True) from None
    _remove(probe)


def make_folder(folder: Path | str) -> None:
    """Make `folder` (and its parents) if missing. Raises WriteError."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise WriteError(folder, reason(err), err.errno or 0) from None


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the system can sync a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
