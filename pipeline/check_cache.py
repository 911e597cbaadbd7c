"""What `legacies validate` found in a ruleset, kept between processes: an unchanged
ruleset's check prints the same diagnostics without loading, building or setting up
anything (the build and the setup check were most of a warm `validate`).

An entry is the result of checking one ruleset's files (`pipeline/validate.py`
`_check_ruleset`: its diagnostics and the source lines they are shown with), keyed by a
SHA-256 of everything that result is made from:
- every file read: its label, kind, layer and bytes, and the same of the file it is laid
  over (an expansion's file at a base file's place reads it);
- the engine: the bytes of every file of legacies.dsl, .interpreter, .pipeline and
  .schemas (the code that loads, builds and checks; the rendering is done afresh), the
  Python version, the file, size and time of each library the check calls (pydantic,
  jsonschema, lark, ruamel.yaml...) and the LEGACIES_* settings.
A change to any of them is another key: the entry is never read for it.

What the file holds is data, never code, and is checked on read as the parse cache's
entries are (dsl/parse_cache.py): plain JSON whose first field repeats its key, each
diagnostic eight fields of the types a Diagnostic has, each source either its lines or
null ("the lines of this file's bytes", kept only when that is what the check showed).
An entry that does not read, does not check, is too large, or is not a regular file of
this user's own (`owned`, in a folder of the user's own: `cache_folder`) is ignored and
the ruleset checked again (and the entry written again, whole: a temporary file
renamed). A result that depends on more than its files is never kept: an internal error
(its traceback), a setup check (E30x) that may have met its deadline, a file that could
not be read. `LEGACIES_CACHE_DIR=off` turns it off with the parse cache.

`USED` is False in the test suite (tests/conftest.py): a test that changes the engine in
its process (a stand-in function, a smaller bound) must see the check run, not an answer
made before; the tests of this module turn it on."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from functools import lru_cache
from typing import Any, Callable, Sequence

from legacies.dsl.diagnostics import ERROR, WARNING, Diagnostic
from legacies.dsl.parse_cache import cache_folder, read_owned

from . import size_bounds
from .files import SourceFile

USED = True
FORMAT = 1
ENGINE_PACKAGES = ("legacies.dsl", "legacies.interpreter", "legacies.pipeline", "legacies.schemas")
LIBRARIES = ("pydantic", "pydantic_core", "jsonschema", "jsonschema_specifications", "referencing", "lark",
             "ruamel.yaml", "yaml", "typing_extensions")
MAX_ENTRY_BYTES = 16 * 1024 * 1024
MAX_ENTRIES = 64
"""At most this many results are kept; writing one more removes the oldest."""
_SEVERITIES = (ERROR, WARNING)
_FOLDER = "checks"


@lru_cache(maxsize=1)
def engine_version() -> bytes | None:
    """A hash of what a check's result depends on besides its files (see the module's
    docstring); None when the engine's files cannot all be read (then nothing is kept)."""
    digest = hashlib.sha256(f"check-cache/{FORMAT}\0{sys.version}\0{sys.platform}\0".encode())
    try:
        for package in ENGINE_PACKAGES:
            spec = importlib.util.find_spec(package)
            folders = list(spec.submodule_search_locations or []) if spec is not None else []
            if not folders:
                return None
            for folder in folders:
                digest.update(package.encode() + b"\0")
                for root, dirs, files in os.walk(folder):
                    dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                    for name in sorted(files):
                        if name.endswith((".pyc", ".pyo")):
                            continue
                        path = os.path.join(root, name)
                        with open(path, "rb") as f:
                            data = f.read()
                        digest.update(os.path.relpath(path, folder).encode("utf-8", "surrogateescape") + b"\0")
                        digest.update(len(data).to_bytes(8, "big") + data)
        for name in LIBRARIES:
            try:
                spec = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                spec = None
            origin = spec.origin if spec is not None else None
            if origin and os.path.isfile(origin):
                info = os.stat(origin)
                digest.update(f"{name}\0{origin}\0{info.st_size}\0{info.st_mtime_ns}\0".encode("utf-8", "replace"))
            else:
                digest.update(f"{name}\0-\0".encode())
    except (OSError, ImportError, ValueError):
        return None
    for name in sorted(os.environ):
        if name.startswith("LEGACIES_") and name != "LEGACIES_CACHE_DIR":
            digest.update(f"{name}={os.environ[name]}\0".encode("utf-8", "surrogateescape"))
    return digest.digest()


def _file_digest(digest: Any, source: SourceFile, raws: dict[str, bytes], read: list[int], depth: int = 0) -> None:
    raw = source.read()  # OSError, ValueError: the caller keeps nothing
    raws[source.label] = raw
    read[0] += len(raw)
    for part in (source.label, source.kind, source.layer):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    digest.update(len(raw).to_bytes(8, "big") + raw)
    if source.over is not None and depth < 16:
        digest.update(b"over\0")
        _file_digest(digest, source.over, {}, read, depth + 1)
    digest.update(b"end\0")


def key_of(sources: Sequence[SourceFile]) -> tuple[str, dict[str, bytes]] | None:
    """The key of checking `sources` (hex), and the bytes of each file read by label;
    None when a file cannot be read, the files pass a size bound (pipeline/size_bounds.py:
    the check stops reading there, so must this) or the engine's version is not known."""
    if len(sources) > size_bounds.MAX_FILES:  # past a size bound: checked (and stopped) as without a cache
        return None
    engine = engine_version()
    if engine is None:
        return None
    digest = hashlib.sha256(engine)
    raws: dict[str, bytes] = {}
    read = [0]
    try:
        for source in sources:
            _file_digest(digest, source, raws, read)
            if read[0] > size_bounds.MAX_BYTES:
                return None
    except (OSError, ValueError):
        return None
    return digest.hexdigest(), raws


def _path(key: str) -> str | None:
    if not USED:
        return None
    folder = cache_folder(_FOLDER)
    return os.path.join(folder, f"{key}.json") if folder is not None else None


def read(key: str, raws: dict[str, bytes]) -> tuple[list[Diagnostic], dict[str, list[str]]] | None:
    """The diagnostics and source lines kept under `key`, if its entry checks; else None."""
    path = _path(key)
    if path is None:
        return None
    try:
        raw = read_owned(path, MAX_ENTRY_BYTES)
        return decode(raw, key, raws) if raw is not None else None
    except (OSError, ValueError, RecursionError):
        return None


def decode(raw: bytes, key: str, raws: dict[str, bytes]) -> tuple[list[Diagnostic], dict[str, list[str]]] | None:
    """An entry's bytes back as (diagnostics, sources), or None unless every part is what
    this version writes for `key`."""
    from .yaml_source import lines_of

    if len(raw) > MAX_ENTRY_BYTES:
        return None
    entry = json.loads(raw.decode("utf-8"))
    if not isinstance(entry, dict) or set(entry) != {"key", "format", "diagnostics", "sources"}:
        return None
    if entry["key"] != key or entry["format"] != FORMAT:
        return None
    found, kept = entry["diagnostics"], entry["sources"]
    if not isinstance(found, list) or not isinstance(kept, list):
        return None
    diagnostics = []
    for d in found:
        if not (isinstance(d, list) and len(d) == 8):
            return None
        code, message, line, column, severity, hint, file, end = d
        if not (_text(code) and _text(message) and _whole(line) and _whole(column) and severity in _SEVERITIES
                and (hint is None or _text(hint)) and _text(file) and (end is None or _whole(end))):
            return None
        diagnostics.append(Diagnostic(code, message, line, column, severity, hint, file, end))
    sources: dict[str, list[str]] = {}
    for s in kept:
        if not (isinstance(s, list) and len(s) == 2 and _text(s[0])):
            return None
        label, lines = s
        if lines is None:
            if label not in raws:
                return None
            sources[label] = lines_of(raws[label])
        elif isinstance(lines, list) and all(_text(line) for line in lines):
            sources[label] = lines
        else:
            return None
    return diagnostics, sources


def _text(value: object) -> bool:
    return type(value) is str


def _whole(value: object) -> bool:
    return type(value) is int


def keepable(diagnostics: Sequence[Diagnostic]) -> bool:
    """Whether a check's result depends on its files and the engine only: no internal
    error (a traceback) and no setup check failure (which may be its deadline)."""
    return not any(d.detail is not None or d.code.startswith("E30") for d in diagnostics)


def encode(key: str, diagnostics: Sequence[Diagnostic], sources: dict[str, list[str]],
           raws: dict[str, bytes]) -> bytes:
    from .yaml_source import lines_of

    kept: list[list[Any]] = []
    for label, lines in sources.items():
        same = label in raws and lines_of(raws[label]) == lines
        kept.append([label, None if same else list(lines)])
    found = [[d.code, d.message, d.line, d.column, d.severity, d.hint, d.file, d.end_column] for d in diagnostics]
    body = {"key": key, "format": FORMAT, "diagnostics": found, "sources": kept}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


def write(key: str, diagnostics: Sequence[Diagnostic], sources: dict[str, list[str]], raws: dict[str, bytes]) -> None:
    """Keep a check's result under `key` (whole: a temporary file renamed); nothing when
    it cannot be kept or written."""
    if not keepable(diagnostics):
        return
    path = _path(key)
    if path is None:
        return
    try:
        data = encode(key, diagnostics, sources, raws)
    except (TypeError, ValueError, UnicodeError):
        return
    if len(data) > MAX_ENTRY_BYTES:
        return
    folder = os.path.dirname(path)
    temporary = os.path.join(folder, f".{key}.{os.getpid()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except OSError:
        try:
            os.remove(temporary)
        except OSError:
            pass
        return
    _prune(folder)


def _prune(folder: str) -> None:
    """Remove the oldest entries past MAX_ENTRIES."""
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".json")]
        if len(names) <= MAX_ENTRIES:
            return
        aged = sorted(names, key=lambda n: os.stat(os.path.join(folder, n)).st_mtime_ns)
        for name in aged[:len(names) - MAX_ENTRIES]:
            os.remove(os.path.join(folder, name))
    except OSError:
        pass


def cached_check(sources: Sequence[SourceFile],
                 check: Callable[[], tuple[list[Diagnostic], dict[str, list[str]]]]
                 ) -> tuple[list[Diagnostic], dict[str, list[str]]]:
    """`check()`'s (diagnostics, source lines) for `sources`, or the result kept for the
    same files and engine. A result is kept only when the files read the same after the
    check as before it (one edited meanwhile is checked again next time)."""
    if not USED:
        return check()
    before = key_of(sources)
    if before is not None:
        kept = read(*before)
        if kept is not None:
            return kept
    diagnostics, lines = check()
    if before is not None:
        after = key_of(sources)
        if after is not None and after[0] == before[0]:
            write(before[0], diagnostics, lines, before[1])
    return diagnostics, lines
