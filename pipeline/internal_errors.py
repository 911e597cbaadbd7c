"""A bug met while loading, checking or setting up a ruleset is never reported as a
data problem. Loading, parsing and checking catch only the errors that mean bad data
(a YAML error, a schema or model violation, an unreadable file); anything else reaches
one of the few places that turn it into an internal error, here: a Diagnostic (E302,
or E301 for compiling and setting up) that says it is a bug in legacies, not in the
files, and keeps the traceback, both in the Diagnostic (`detail`, which
`legacies --debug ...` prints) and in a file its hint names.

Every internal error made here is also recorded (`REPORTED`): the test suite fails any
test during which one was made (tests/conftest.py), unless the test is about one."""

from __future__ import annotations

import os
import tempfile
import time
import traceback
from dataclasses import replace
from pathlib import Path

from legacies.dsl.diagnostics import Diagnostic

from .yaml_source import excerpt

REPORTED: list[str] = []  # the traceback of every internal error made in this process, in order
FOLDER = "legacies-bugs"  # in the temporary folder: where each traceback is written


def internal_error(label: str, err: BaseException, code: str = "E302",
                   doing: str = "checking this ruleset") -> Diagnostic:
    """The internal error for `err`, met while `doing`, reported at file `label`."""
    what = "Python's recursion limit" if isinstance(err, RecursionError) else f"{type(err).__name__}: {err}"
    text = traceback_text(err)
    REPORTED.append(text)
    written = write_traceback(text, label)
    where = f"its traceback is in {written}" if written is not None else "its traceback could not be written"
    return replace(Diagnostic(code, f"internal error while {doing} (a bug in legacies, not in your files): "
                                    f"{excerpt(what, 300)}", file=label,
                              hint=f"{where} (`legacies --debug ...` prints it); please report it with the files"),
                   detail=text)


def traceback_text(err: BaseException) -> str:
    return "".join(traceback.format_exception(type(err), err, err.__traceback__))


def write_traceback(text: str, label: str) -> Path | None:
    """Write a traceback to a new file in the temporary folder; its path, or None when it
    cannot be written (the Diagnostic still carries the traceback)."""
    try:
        folder = Path(tempfile.gettempdir()) / FOLDER
        folder.mkdir(mode=0o700, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        fd, name = tempfile.mkstemp(prefix=f"{stamp}-", suffix=".txt", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(f"legacies internal error while checking {label}\n\n{text}")
        return Path(name)
    except OSError:
        return None
