"""Parsed effects kept between processes (the way Python keeps bytecode in __pycache__):
a cold `legacies validate` of unchanged content reads its syntax trees instead of
parsing every effect again, which was a third of its time.

The cache is one SQLite file in the user's cache folder (`LEGACIES_CACHE_DIR`, else
`$XDG_CACHE_HOME/legacies` or `~/.cache/legacies`). An entry is keyed by the hash of
the effect's text together with the hash of the grammar and of the modules that build
the tree (dsl/ast.py, dsl/grammar.py, dsl/to_ast.py, dsl/parser.py): any change to them
is a different key, so a stale tree is never read. Only effects that parse are kept (a syntax error is parsed
again, so its diagnostics are always fresh). Every read builds a new tree: two items
with the same text never share nodes.

What the file holds is data, never code: a tree is kept as plain JSON and read back
building only the syntax tree's own classes (dsl/cache_codec.py; the file once held
pickles, which run whatever they name: that table is dropped unread). Each entry
begins with its own key, the hash of its text, checked on read: a tree copied from
another entry (another text) is never taken for this one. An entry that does not
check, does not decode, is larger than its text could make, or is not the tree its
kind needs is parsed again (and written again).

Only a folder and files this user owns and no other user may write are used (`owned`): a
cache folder others can write to (LEGACIES_CACHE_DIR set to a shared folder, a folder
another user made) is as good as none, since anyone who can write an entry can write the
tree of another text under the right key (the key is a hash of public things). A cache
file that is not a regular file (a FIFO, a device) is never opened.

The cache is an optimisation only: when the folder or the file cannot be used (read
only, locked by another process, damaged, not the user's own) effects are parsed as if it
did not exist. `LEGACIES_CACHE_DIR=off` turns it off."""

from __future__ import annotations

import atexit
import hashlib
import os
import sqlite3
import stat
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Callable, TypeVar

if TYPE_CHECKING:  # (the tree's classes are imported when a tree is read or written: the check
    from . import ast  # cache (pipeline/check_cache.py) shares this module's folder and needs none)

T = TypeVar("T", bound="ast.Node")

KEY_BYTES = 32  # a SHA-256
MAX_ENTRY_PER_CHARACTER = 400
"""An entry is at most this many bytes a character of its text (plus a little): a tree
of the text could not be larger (measured: under 40), so a larger one is not read."""
MAX_BYTES = 64 * 1024 * 1024
"""A cache file past this size is deleted when it is opened (it only grows: every
version of an edited effect is kept)."""


def cache_folder(sub: str = "") -> str | None:
    """The folder for legacies' caches (or its subfolder `sub`), made if missing; None when
    caching is off, or the folder cannot be made or is not the user's own."""
    chosen = os.environ.get("LEGACIES_CACHE_DIR")
    if chosen == "off":
        return None
    base = chosen or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "legacies")
    for folder in [base, os.path.join(base, sub)] if sub else [base]:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            if not owned(os.stat(folder), stat.S_ISDIR):
                return None
        except OSError:
            return None
    return os.path.join(base, sub) if sub else base


def owned(info: os.stat_result, kind: Callable[[int], bool] = stat.S_ISREG) -> bool:
    """Whether a cache file (or, with `kind` S_ISDIR, folder) may be trusted: of that kind,
    owned by this user (where the system has owners) and not writable by other users."""
    if not kind(info.st_mode) or info.st_mode & stat.S_IWOTH:
        return False
    return not hasattr(os, "geteuid") or info.st_uid == os.geteuid()


def read_owned(path: str, limit: int) -> bytes | None:
    """A cache file's bytes; None unless it is a regular file the user owns (`owned`) of
    at most `limit` bytes. Opened without waiting (a FIFO in its place never blocks)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        if not owned(info) or info.st_size > limit:
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            raw = f.read(limit + 1)
    finally:
        os.close(fd)
    return raw if len(raw) <= limit else None


@lru_cache(maxsize=1)
def _version() -> bytes:
    """What the trees depend on besides the text: the grammar and the tree builders."""
    digest = hashlib.sha256()
    package = resources.files(__package__)
    for name in ("effects.lark", "ast.py", "grammar.py", "to_ast.py", "parser.py", "parse_cache.py", "cache_codec.py"):
        try:
            digest.update(package.joinpath(name).read_bytes())
        except OSError:  # an installed copy without sources: never share trees across versions
            digest.update(os.urandom(16))
    return digest.digest()


class ParseCache:
    """Trees by key, read from and written to one SQLite file; misses are written at exit."""

    def __init__(self, path: str | None):
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._pending: dict[bytes, bytes] = {}
        self._opened = False
        self.hits = 0
        self.misses = 0

    def _connect(self) -> sqlite3.Connection | None:
        if not self._opened:
            self._opened = True
            if self.path is not None:
                try:
                    info = os.stat(self.path)
                    if not owned(info):  # a FIFO, a device, another user's file: not opened
                        return None
                    if info.st_size > MAX_BYTES:
                        os.remove(self.path)  # old trees of edited effects pile up: start afresh
                except OSError:  # (none yet: SQLite makes it)
                    pass
                try:
                    db = sqlite3.connect(self.path, timeout=0.5)
                    db.execute("DROP TABLE IF EXISTS trees")  # pickles, from before: never read
                    db.execute("CREATE TABLE IF NOT EXISTS entries (key BLOB PRIMARY KEY, entry BLOB NOT NULL)")
                    self._db = db
                    atexit.register(self.flush)
                except sqlite3.Error:
                    self._db = None
        return self._db

    def key(self, kind: str, text: str) -> bytes:
        return hashlib.sha256(_version() + kind.encode() + b"\0" + text.encode("utf-8", "surrogatepass")).digest()

    def get(self, key: bytes, text: str, root: type[T]) -> T | None:
        """The tree kept for `text` under `key`, if the entry checks: it begins with the
        key, it is no larger than the text could make, it decodes to a tree whose root
        is a `root`. None otherwise (the caller parses)."""
        db = self._connect()
        if db is None:
            return None
        try:
            entry = self._pending.get(key)
            if entry is None:
                row = db.execute("SELECT entry FROM entries WHERE key = ? AND length(entry) <= ?",
                                 (key, KEY_BYTES + 1024 + MAX_ENTRY_PER_CHARACTER * len(text))).fetchone()
                entry = None if row is None else row[0]
            if not isinstance(entry, bytes) or entry[:KEY_BYTES] != key:  # missing, or another text's tree
                return None
            from .cache_codec import load_tree

            tree = load_tree(entry[KEY_BYTES:])
        except (sqlite3.Error, ValueError, RecursionError):  # damaged, garbage, nested past json's limit
            return None  # parsed again (and written again)
        return tree if type(tree) is root else None

    def put(self, key: bytes, tree: ast.Node) -> None:
        if self._connect() is None:
            return
        from .cache_codec import dump_tree

        try:
            self._pending[key] = key + dump_tree(tree).encode("utf-8", "surrogatepass")
        except (TypeError, RecursionError):  # a tree the codec cannot write: it is parsed each time
            return
        if len(self._pending) >= 2000:
            self.flush()

    def flush(self) -> None:
        db = self._db
        if db is None or not self._pending:
            return
        rows, self._pending = list(self._pending.items()), {}
        try:
            with db:
                db.executemany("INSERT OR REPLACE INTO entries (key, entry) VALUES (?, ?)", rows)
        except sqlite3.Error:
            pass  # another process holds the file: the trees are parsed again next time

    def cached(self, kind: str, text: str, parse: Callable[[str], T], root: type[T]) -> T:
        """`parse(text)`, or the tree kept from an earlier call with the same text (a
        tree whose root is a `root`)."""
        key = self.key(kind, text)
        tree = self.get(key, text, root)
        if tree is not None:
            self.hits += 1
            return tree
        self.misses += 1
        tree = parse(text)  # a syntax error propagates and is never kept
        self.put(key, tree)
        return tree


_cache: ParseCache | None = None


def parse_cache() -> ParseCache:
    """The process's cache (its file chosen on first use)."""
    global _cache
    if _cache is None:
        folder = cache_folder()
        _cache = ParseCache(os.path.join(folder, "trees.sqlite3") if folder else None)
    return _cache


def reset(path: str | None = None) -> ParseCache:
    """A new process cache at `path` (tests); the old one's pending trees are written."""
    global _cache
    if _cache is not None:
        _cache.flush()
    _cache = ParseCache(path)
    return _cache
