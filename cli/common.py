"""What every command of `legacies` shares: errors and notes on standard error
(`fail`, `say`), the --debug traceback, output that cannot be written, the formats and
help texts several commands take. Light on purpose: cli/main.py imports it, and
`legacies --help` imports no service (pipeline, agents, interpreter)."""

from __future__ import annotations

import errno
import os
import re
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Sequence

import typer

if TYPE_CHECKING:
    from pathlib import Path

_OUTPUT_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE)


def output_failed(err: OSError) -> bool:
    """Whether `err` is the command's output (standard output or error) that cannot be
    written: a full disk under a redirection, `> /dev/full`, a closed pipe. The files a
    command writes itself go through pipeline/writes.py and name their path."""
    return err.errno in _OUTPUT_ERRORS and err.filename is None and not isinstance(err, FileNotFoundError)


def version_text() -> str:
    """The installed version ("" when run from a source tree without installing)."""
    from importlib.metadata import PackageNotFoundError, version  # (slow to import: only --version and SARIF read it)

    try:
        return version("legacies")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree without installing
        return ""


_DEBUG = False  # `legacies --debug COMMAND`: internal errors print their traceback


def set_debug(on: bool) -> None:
    """`legacies --debug`: from now on internal errors print their traceback."""
    global _DEBUG
    _DEBUG = on


def debug_traceback(err: BaseException | None = None, text: str | None = None) -> None:
    """With --debug, the traceback of an internal error, on stderr."""
    if not _DEBUG:
        return
    if text is None and err is not None:  # (the services are not imported for `legacies --help`)
        from legacies.pipeline.internal_errors import traceback_text

        text = traceback_text(err)
    if text:
        typer.echo(text.rstrip("\n"), err=True)


class ReportFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


EXPANSION_HELP = ("An expansion laid over the ruleset: an installed one by name, or a folder (repeatable, in order; "
                  "each comes after the expansions it requires).")


USAGE_ERROR = 2  # what was asked cannot be done as asked
PROBLEM = 1  # the work found something wrong: problems in the content, a save refused, an internal error


def exit_code(err: BaseException) -> int:
    """The one table from an error to the command's exit code: 2 for an error of what was
    asked (dsl/errors.py: a LegaciesError whose `usage` is true: an unknown ruleset, a
    path that is not a folder, a player count the ruleset does not take), 1 for any other
    (what the work found: a refused save, an internal error, a run that stopped)."""
    return USAGE_ERROR if getattr(err, "usage", False) is True else PROBLEM


def fail(message: str, code: int = USAGE_ERROR) -> NoReturn:
    """`error: MESSAGE` on standard error, and exit with `code`; a long run of characters
    in it (a name or path the user gave, echoed) cut (`cut_echoes`)."""
    typer.echo(f"error: {cut_echoes(message)}", err=True)
    raise typer.Exit(code)


_LONG_RUN = re.compile(r"[^\s`'\":;]{241,}")


def cut_echoes(text: str) -> str:
    """`text` with every run of more than 240 characters without a space or quote (an
    input echoed: a 100,000-character name) cut to its first 80 and its length."""
    return _LONG_RUN.sub(lambda m: f"{m.group(0)[:80]}... ({len(m.group(0)):,} characters)", text)


def fail_on(err: BaseException, message: str | None = None) -> NoReturn:
    """Fail on `err`: its words (or `message`, which says them in the command's terms), with
    the exit code `exit_code` gives it."""
    fail(str(err) if message is None else message, exit_code(err))


def say(message: str) -> None:
    """A line on standard error when it can be written (it may be the output that failed)."""
    try:
        typer.echo(cut_echoes(message), err=True)
    except OSError:
        pass


def is_dir(path: Any) -> bool:
    """Whether `path` is a folder; False when it cannot be looked at (a name too long for
    the file system, a folder that cannot be looked into): the caller then says what it
    says of a path that is not there, never a traceback."""
    from pathlib import Path

    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


def exists(path: Any) -> bool:
    """Whether `path` is there (as `is_dir`, False when it cannot be looked at)."""
    from pathlib import Path

    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False


def short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."



def read_save_or_fail(file: Any) -> tuple[str, dict[str, Any]]:
    """A save file's text and fields (sized before it is read), or a usage error for a file
    that cannot be read and exit 1 for one that is no save (`resume`, `serve --resume`)."""
    from legacies.interpreter.errors import CorruptSave
    from legacies.pipeline.saves import read_save_file

    try:
        return read_save_file(file)
    except OSError as err:
        fail(f"cannot read {file}: {err.strerror or err}")
        raise
    except CorruptSave as err:
        fail(f"{file}: {err}", 1)
        raise


def _effort_checked(option: str) -> Callable[[Any], Any]:
    """The callback of a bot's effort option (`--think`, `--iterations`, `--lookahead`):
    cli/table_args.py's bot_effort, imported when it is called (a command's `--help`
    imports no bot)."""
    def checked(value: Any) -> Any:
        from .table_args import bot_effort

        return bot_effort(option, value)
    return checked


think_checked = _effort_checked("--think")
iterations_checked = _effort_checked("--iterations")
lookahead_checked = _effort_checked("--lookahead")


def checked_folder(paths: Sequence[Any]) -> "Path":
    """The folder a check is of, for SARIF's %SRCROOT%: the one folder given, the folder
    holding every file and folder given, or (none given) the working folder."""
    from pathlib import Path

    folders = [os.path.abspath(p) if is_dir(p) else os.path.dirname(os.path.abspath(p)) for p in paths]
    return Path(os.path.commonpath(folders)) if folders else Path.cwd()


SEED_HELP = ("Same seed and decisions give the same game. Default: with a person seated, a seed nobody can guess "
             "(a known seed tells every hidden card: the deal is worked out from it); with bots alone, 0.")


def table_seed(seed: int | None, person_seated: bool) -> int:
    """The seed a game starts from: the one given; else, with a person seated, one nobody
    can guess (a seed and the public decisions tell every hidden card and every draw to
    come, and seed 0 for every game dealt each person the same hands); else 0, so that bots
    alone play the same game each time, as scripts and measurements want."""
    if seed is not None:
        return seed
    if not person_seated:
        return 0
    import secrets

    return secrets.randbelow(10**15)  # about 2**50: past any search from a hand seen; a number a save keeps exactly
