"""Which ruleset a command or the language server means, and its load: `--ruleset
NAME|PATH` (an installed ruleset's name, or a folder on disk holding one ruleset), the
ruleset `--expansion`s are laid over (the one named, else the one they extend), and
load_ruleset with the expansions laid over it. What cannot make a game (an unknown
name, a folder holding no ruleset or several, expansions for another ruleset) is a
UsageError: the commands exit 2 with its message, the language server says it on the
file. cli/main.py and cli/lsp/check.py share this; neither resolves a ruleset itself."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .explain import folder_rulesets
from . import ruleset as loading  # by module: a caller's stand-in for load_ruleset or rulesets is seen
from .stack import Expansion, StackError, resolve
from .validate import UsageError
from .walk import os_sentence

__all__ = ["UsageError", "checked_folder", "expanded_ruleset", "expansion_stack", "load_with", "ruleset_arg"]


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def ruleset_arg(value: str) -> tuple[str, str | None]:
    """`--ruleset NAME|PATH`: an installed ruleset's name, or a folder on disk holding one
    ruleset (rules/NAME/ruleset.yaml and content/NAME/), which replaces an installed
    ruleset of the same name. Returns (name, folder or None)."""
    folder = Path(value)
    try:
        is_dir = folder.is_dir()
    except OSError as err:  # a name too long for the file system, a folder that cannot be looked into
        raise UsageError(f"--ruleset {_short(value)}: {os_sentence(err)}") from None
    if is_dir:
        names = folder_rulesets(folder)
        if len(names) == 1:
            return names[0], str(folder)
        if not names:
            raise UsageError(f"{_short(value)} holds no ruleset: expected {value}/rules/NAME/ruleset.yaml (and content/NAME/)")
        raise UsageError(f"{_short(value)} holds several rulesets ({', '.join(names)}): name one with --ruleset and the "
                         "folder with --path")
    if value in loading.rulesets():
        return value, None
    raise UsageError(f"unknown ruleset `{_short(value)}`; installed: {', '.join(loading.rulesets())} (or give a ruleset "
                     "folder)")


def checked_folder(path: Path | None) -> str | None:
    """A ruleset folder named on the command line (`--path`), checked: it must hold
    rules/NAME/ruleset.yaml."""
    if path is None:
        return None
    try:
        is_dir = path.is_dir()
    except OSError as err:
        raise UsageError(f"{_short(str(path))}: {os_sentence(err)}") from None
    if not is_dir:
        raise UsageError(f"{_short(str(path))} is not a folder")
    if not folder_rulesets(path):
        raise UsageError(f"{_short(str(path))} holds no ruleset: expected {path}/rules/NAME/ruleset.yaml (and content/NAME/)")
    return str(path)


def expansion_stack(ruleset: str | None, expansions: Sequence[str | Path]) -> tuple[str, list[Expansion]]:
    """The ruleset the expansions are laid over (the one named, else the one they extend)
    and the expansions in the order they are laid (pipeline/stack.py)."""
    try:
        name, stack = resolve(ruleset, expansions)
    except StackError as err:
        raise UsageError(str(err)) from err
    if name is None:
        raise UsageError("the expansions name no ruleset: an expansion's expansion.yaml says `extends: RULESET`")
    return name, stack


def expanded_ruleset(ruleset: str | None, root: str | None, expansions: Sequence[str]) -> str | None:
    """The ruleset `--expansion` is laid over: the one named, else the one the expansions
    extend; with a ruleset folder, it must be the folder's."""
    if not expansions:
        return ruleset
    name, _ = expansion_stack(ruleset, expansions)
    if root is not None and name not in folder_rulesets(root):
        raise UsageError(f"the expansions are for `{name}`, and {root} holds "
                         f"{', '.join(folder_rulesets(root)) or 'no ruleset'}")
    return name


def load_with(name: str, root: str | None, expansions: Sequence[str]) -> loading.RulesetResult:
    """load_ruleset with the expansions laid over it (installed ones by name, folders)."""
    try:
        return loading.load_ruleset(name, root, list(expansions))
    except loading.ExpansionError as err:
        raise UsageError(str(err)) from err
