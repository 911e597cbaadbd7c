"""How `legacies ... --help` reads: like a tool's manual, not like Python.

Typer prints a command's docstring line by line as written in the source (a paragraph
broken where the source wraps) and, in the type column, Python's annotations
(`<list[Path]>`, `<bool>` beside `--help`). `tidy(app)` joins each docstring paragraph
into one flowing paragraph and leaves the type column to the metavars the commands
name (FILE, N, NAME...): an argument already shows its name, a flag takes no value.
"""

from __future__ import annotations

import inspect
from typing import Any

import typer
from typer.core import TyperArgument, TyperOption


def reflow(doc: str | None) -> str | None:
    """Paragraphs (split at blank lines) each joined into one line."""
    if not doc:
        return doc
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def _argument_type(self: TyperArgument, ctx: Any) -> str | None:
    return None  # the name column shows the argument's metavar (PATH, ID...)


_option_type = TyperOption.display_type_rich


def _flag_or_metavar(self: TyperOption, ctx: Any) -> str | None:
    if self.is_flag and not self.metavar:
        return None  # --help, --json, --quick: nothing to type after them
    return _option_type(self, ctx)


def tidy(app: typer.Typer) -> None:
    """Reflow every command's help and hide Python types in every command's help."""
    for info in app.registered_commands:
        if info.help is None and info.callback is not None:
            info.help = reflow(info.callback.__doc__)
    TyperArgument.display_type_rich = _argument_type  # type: ignore[method-assign, assignment]
    TyperOption.display_type_rich = _flag_or_metavar  # type: ignore[method-assign]
