"""Reading a save file (`legacies resume`, `legacies replay`): one reader, and the size
is checked before the file is read.

A save is a regular file (a FIFO or a device is refused unopened for reading), at most
interpreter.game.MAX_SAVE_CHARS bytes (its size is asked first, and no more than that
is ever read: a file of gigabytes costs nothing), UTF-8 JSON with every field of the
right type (interpreter.game.read_save). Whatever is wrong is CorruptSave in words; a
file that cannot be opened at all is OSError.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from legacies.interpreter.errors import CorruptSave
from legacies.interpreter.game import MAX_SAVE_CHARS, read_save

from .files import NotRegular, read_regular


def read_save_file(path: Path | str) -> tuple[str, dict[str, Any]]:
    """(the save's text, its fields). Raises CorruptSave (not a save) or OSError."""
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0  # read_regular says why it cannot be opened
    if size > MAX_SAVE_CHARS:
        raise CorruptSave(f"not a save file: {size:,} bytes (a save is at most {MAX_SAVE_CHARS:,}); nothing was read")
    try:
        raw = read_regular(path, MAX_SAVE_CHARS)
    except NotRegular as err:
        raise CorruptSave(f"not a save file: {err.strerror}") from None
    if len(raw) > MAX_SAVE_CHARS:  # it grew while being read
        raise CorruptSave(f"not a save file: more than {MAX_SAVE_CHARS:,} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CorruptSave("not a save file: it is not UTF-8 text") from None
    return text, read_save(text)


DEFAULT_SAVE = "legacies-save.json"
"""Where a table's save key keeps the game when no --save was given: in the folder the
table was started from, under this name or the first `legacies-save-N.json` not taken."""


def unused_save_path(folder: Path | str = ".") -> Path:
    """The first of legacies-save.json, legacies-save-2.json, ... in `folder` that does not
    exist: a table with no --save never writes over a file it did not write (another game's
    save, a user's file). The table keeps the path for its later saves of the same game."""
    folder = Path(folder)
    stem, suffix = Path(DEFAULT_SAVE).stem, Path(DEFAULT_SAVE).suffix
    n = 1
    while True:
        path = folder / (DEFAULT_SAVE if n == 1 else f"{stem}-{n}{suffix}")
        if not os.path.lexists(path):
            return path
        n += 1
