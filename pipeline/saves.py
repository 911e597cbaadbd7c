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
