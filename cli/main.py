"""The `legacies` command: the app, its --version and --debug, and the table of its
commands. Each command lives in a module of cli/commands/ that imports its services
(pipeline, agents, interpreter) when one of its commands runs, so that its `--help`
imports none of them; the table names each command's module and
its one-line help, so `legacies --help` lists the commands without importing any of
them, and a module is imported only when one of its commands runs or shows its own
help. Every command calls a service, renders its result as text, JSON or GitHub
annotations, and exits with a meaningful code: 0 ok, 1 problems found, 2 usage error.
No traceback reaches the user."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from .common import cut_echoes, debug_traceback, output_failed, set_debug, version_text
from .help_text import tidy

# name: (its module in cli/commands/, the first paragraph of its docstring as `--help` lists it;
# tests/cli/test_command_table.py holds the two to the commands' own docstrings)
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("validate", "Check content and rules: every problem in every file, with file:line:column."),
    "play": ("play", "Play a game in the terminal: bots, hot-seat humans and the seats the rules run."),
    "resume": ("play", "Continue a saved game: its decisions are replayed exactly, then play goes on."),
    "replay": ("play", "Replay a saved game decision by decision, with its log; or verify it."),
    "soak": ("runs", "Play many seeded random games checking every invariant after every decision."),
    "simulate": ("runs", "Play many seeded bot games and write a balance report (report.json, report.html)."),
    "bench": ("runs", "Measure the engine's speed figures on this machine, each beside its target."),
    "explain": ("items", "Show an item: its name, kind, costs, generated card text and effect source."),
    "content": ("items", "List the content: id, kind, name, the ruleset's content columns (Legacies: the era), "
                         "file and line of every item."),
    "try": ("items", "Try an item in a situation you choose: play its effect and show what changed."),
    "test": ("items", "Run scenario tests: items tried in scenarios, with what must hold afterwards."),
    "migrate": ("files", "Upgrade files written for an older format, in place."),
    "new": ("files", "Write a new content item, valid at once: the next free id, into the right file."),
    "rulesets": ("rulesets", "List the installed rulesets, each with the installed expansions that extend it "
                             "(`--expansion NAME` lays one over it)."),
    "lsp": ("lsp", "Serve an editor: a language server for content and rules files."),
    "serve": ("serve", "Serve a game to browsers: a secret link per person's seat, the bots on the server."),
}


def command_module(name: str) -> Any:
    """The module of cli/commands/ that holds command `name`, imported, its help texts tidied."""
    module = importlib.import_module(f"legacies.cli.commands.{COMMANDS[name][0]}")
    tidy(module.app)  # help texts read as a manual (cli/help_text.py)
    return module


class _Commands(TyperGroup):
    """The commands, loaded when used: listed from COMMANDS (the listing imports nothing),
    a command's module imported when it runs or shows its own help."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # the listing (and "Did you mean ...?" after a typo) reads these: names and one-line helps
        self.commands = {name: TyperCommand(name, help=summary) for name, (_, summary) in COMMANDS.items()}
        self._listing = False

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in COMMANDS:
            return None
        if self._listing:
            return self.commands[cmd_name]
        group = typer.main.get_group(command_module(cmd_name).app)
        return group.get_command(ctx, cmd_name)

    def get_help_option(self, ctx: Any) -> Any:
        # `legacies CMD ...` reads this group's --help as not given: None, which Typer
        # coerces through pydantic (imported for it, a tenth of a second); False, a bool,
        # is passed through as given. `legacies CMD --help` then imports no pydantic.
        option = super().get_help_option(ctx)
        if option is not None and option.default is None:
            option.default = False
        return option

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


class _Legacies(typer.Typer):
    """The command. Output that cannot be written is said in words (on standard error,
    when that can be written) with exit 1, never a traceback; the commands that keep a
    user's work (a save, a report) write it first (commands/play.py's `_play_on`,
    commands/runs.py's `simulate`)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except OSError as err:
            if not output_failed(err):
                _os_error(err)  # a path the command was given that cannot be looked at: a sentence, never a traceback
            from legacies.pipeline.writes import reason  # (the services are not imported for `legacies --help`)

            debug_traceback(err)
            try:
                sys.stderr.write(f"error: the output cannot be written: {reason(err)}\n")
                sys.stderr.flush()
            except OSError:
                pass
            sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # nothing more at exit
            sys.exit(1)


def _cut_click_messages() -> None:
    """Click's own usage errors echo what they were given (`Got unexpected extra argument
    (...)`, `Invalid value for ...`): cut as `fail` cuts ours (cli/common.py cut_echoes).
    Typer carries its own click (typer._click), whose errors are the ones printed."""
    import importlib

    for name in ("typer._click", "click"):
        try:
            exceptions: Any = importlib.import_module(name)
        except ImportError:
            continue
        said = exceptions.ClickException.format_message
        if getattr(said, "cut", False):
            continue

        def format_message(self: Any, said: Any = said) -> str:
            return cut_echoes(said(self))

        format_message.cut = True  # type: ignore[attr-defined]
        exceptions.ClickException.format_message = format_message


_cut_click_messages()


def _os_error(err: OSError) -> None:
    """An OS error no command said in its own words (a name too long for the file system,
    a folder that cannot be looked into): `error: PATH: REASON`, the path cut, exit 2 when
    it is what was given (a name too long, not there, not a folder), else 1."""
    import errno

    debug_traceback(err)
    where = f"{cut_echoes(str(err.filename))}: " if err.filename else ""
    given = err.errno in (errno.ENAMETOOLONG, errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ELOOP)
    try:
        sys.stderr.write(f"error: {where}{err.strerror or err}\n")
        sys.stderr.flush()
    except OSError:
        pass
    sys.exit(2 if given else 1)


app = _Legacies(cls=_Commands, add_completion=False, no_args_is_help=True,
                help="Legacies: a rules-as-data engine for board and card games.")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"legacies {version_text() or '(not installed)'}")
        raise typer.Exit(0)


@app.callback()
def _main(
    show_version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, metavar="",
                                      help="Print the version and exit."),
    debug: bool = typer.Option(False, "--debug", metavar="",
                               help="Print the traceback of an internal error (a bug in legacies), as well as "
                                    "the file it is written to."),
) -> None:
    """Legacies: a rules-as-data engine for board and card games."""
    set_debug(debug)


tidy(app)  # the options of `legacies --help` too (cli/help_text.py)


def main() -> None:  # pragma: no cover - console entry
    app()
