"""The ruleset a command is given on its command line: `--ruleset NAME|PATH`, `--path
FOLDER`, `--expansion NAME|FOLDER` and the expansions a save names, chosen by
pipeline/ruleset_choice.py; a wrong one is a usage error in words (exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, List, Optional, TypeVar

from legacies.pipeline import ruleset_choice
from legacies.pipeline.stack import installed_expansions
from legacies.pipeline.validate import UsageError

import typer

from .common import fail, fail_on, short

_T = TypeVar("_T")


def expanded_ruleset(ruleset: Optional[str], root: Optional[str], expansions: List[str]) -> Optional[str]:
    """The ruleset `--expansion` is laid over (pipeline/ruleset_choice.py)."""
    return _chosen(ruleset_choice.expanded_ruleset, ruleset, root, expansions)


def default_ruleset(ruleset: Optional[str], expansions: List[str]) -> str:
    """`--ruleset` as given, else the ruleset the expansions extend, else Legacies."""
    if ruleset is not None:
        return ruleset
    return (expanded_ruleset(None, None, expansions) if expansions else None) or "legacies"


def _chosen(choose: Callable[..., _T], *args: Any) -> _T:
    """What a function of pipeline/ruleset_choice.py chooses; its UsageError a usage
    error (exit 2)."""
    try:
        return choose(*args)
    except UsageError as err:
        fail_on(err)
        raise AssertionError from err  # pragma: no cover - fail exits


def saved_expansions(data: dict[str, Any]) -> List[str]:
    """The expansions a save was played with, by name (laid again when none is given);
    one that is not installed must be given as a folder."""
    names = [x["name"] for x in data.get("expansions", [])]
    installed = {e.name for e in installed_expansions()}
    for name in names:
        if name not in installed:
            fail(f"the game was played with the expansion `{short(name)}`, which is not installed: give its "
                 "folder with --expansion FOLDER", 1)
    return names


def load_with(name: str, root: Optional[str], expansions: List[str]) -> Any:
    """load_ruleset with the expansions laid over it (pipeline/ruleset_choice.py)."""
    return _chosen(ruleset_choice.load_with, name, root, expansions)


def playable(loaded: Any, name: str, where: str) -> Any:
    """The spec of a ruleset that validation accepts, else exit 1 after printing its
    diagnostics as `legacies validate` prints them: content with any error (a file
    refused whole, an expansion validate rejects) is never played. `where` is what to
    give `legacies validate` to see them again."""
    if loaded.spec is not None:
        return loaded.spec
    from legacies.dsl.diagnostics import has_errors
    from legacies.pipeline.report import render_text

    shown = [d for d in loaded.diagnostics if has_errors([d])] or list(loaded.diagnostics)
    try:
        typer.echo(render_text(shown, loaded.load.sources).rstrip("\n"), err=True)
    except OSError:
        pass
    fail(f"ruleset `{short(name)}` has content errors (above): it is not played; `legacies validate {short(where, 200)}` "
         "says the same", 1)
    raise AssertionError  # pragma: no cover - fail exits


def where_given(name: str, root: Optional[str], expansions: List[str]) -> str:
    """What to give `legacies validate` to check the same game."""
    from legacies.pipeline.validate import validate_args

    return validate_args(name, root, expansions)


def ruleset_arg(value: str) -> tuple[str, Optional[str]]:
    """`--ruleset NAME|PATH` as (name, folder or None) (pipeline/ruleset_choice.py)."""
    return _chosen(ruleset_choice.ruleset_arg, value)


def folder_arg(path: Optional[Path]) -> Optional[str]:
    """A ruleset folder named on the command line, checked (pipeline/ruleset_choice.py)."""
    return _chosen(ruleset_choice.checked_folder, path)

