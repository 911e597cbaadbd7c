"""The `legacies` command. Each command calls a service (pipeline.validate,
agents.match, pipeline.explain), renders its result as text, JSON or GitHub
annotations, and exits with a meaningful code: 0 ok, 1 problems found, 2 usage error.
No traceback reaches the user."""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Legacies: a rules-as-data engine for board and card games.")


class Format(str, Enum):
    text = "text"
    json = "json"
    github = "github"


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@app.command()
def validate(
    paths: List[str] = typer.Argument(None, help="Files or folders to check (default: every installed ruleset)."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", help="Check only this ruleset."),
    format: Format = typer.Option(Format.text, "--format", "-f", help="text, json or github annotations."),
) -> None:
    """Check content and rules: every problem in every file, with file:line:column."""
    from legacies.pipeline.report import render_github, render_json, render_text
    from legacies.pipeline.validate import UsageError, validate as run

    try:
        result = run(list(paths or []), ruleset)
    except UsageError as err:
        _fail(str(err))
        return
    if format == Format.json:
        typer.echo(render_json(result.diagnostics))
    elif format == Format.github:
        out = render_github(result.diagnostics)
        if out:
            typer.echo(out)
    else:
        typer.echo(render_text(result.diagnostics, result.sources, checked=result.files))
    raise typer.Exit(0 if result.ok else 1)


def _parse_options(items: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            _fail(f"--option takes NAME=VALUE, not {item!r}")
        lowered = value.strip().lower()
        if lowered in ("true", "yes", "on"):
            out[key] = True
        elif lowered in ("false", "no", "off"):
            out[key] = False
        else:
            try:
                out[key] = int(value)
            except ValueError:
                _fail(f"option {key} needs a number or yes/no, not {value!r}")
    return out


@app.command()
def play(
    ruleset: str = typer.Option(..., "--ruleset", "-r", help="Which ruleset to play (see `legacies rulesets`)."),
    seat: List[str] = typer.Option(..., "--seat", "-s", help="One per player: human, random, rollout, strong."),
    seed: int = typer.Option(0, "--seed", help="Same seed and decisions give the same game."),
    option: List[str] = typer.Option([], "--option", "-o", help="Setup option NAME=VALUE (repeatable)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of the log."),
    save: Optional[Path] = typer.Option(None, "--save", help="Write a save file when the game ends."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the final scores."),
) -> None:
    """Play a game in the terminal: bots and hot-seat humans."""
    from legacies.agents.match import play_match
    from legacies.interpreter.errors import InternalError, TableError
    from legacies.pipeline.ruleset import load_ruleset, rulesets

    from .terminal import HumanAgent

    if ruleset not in rulesets():
        _fail(f"unknown ruleset `{ruleset}`; installed: {', '.join(rulesets())}")
    loaded = load_ruleset(ruleset)
    if loaded.spec is None:
        _fail(f"ruleset `{ruleset}` has content errors; run `legacies validate --ruleset {ruleset}`", 1)
        return
    from legacies.interpreter.game import Game

    options = _parse_options(option)
    echo = None if (as_json or quiet) else typer.echo
    try:  # the table as asked: player count and options (a usage problem when wrong)
        game = Game(loaded.spec, len(seat), options, [f"P{i + 1}" for i in range(len(seat))])
    except TableError as err:
        _fail(str(err))
        return
    try:
        result = play_match(loaded.spec, list(seat), seed, options, human=HumanAgent, on_event=echo,
                            state=game.new_state(seed))
    except ValueError as err:  # a seat kind that does not exist
        _fail(str(err))
        return
    except InternalError as err:  # the game cannot go on: a bug in the content (or the engine), located
        _fail(f"the game stopped on an internal error: {err}", 1)
        return
    if save is not None and result.state is not None:
        save.write_text(result.state.serialize(), encoding="utf-8")
    if as_json:
        typer.echo(json.dumps(result.as_json(), sort_keys=True))
        return
    typer.echo("")
    typer.echo("final scores:")
    for name, score in sorted(zip(result.names, result.scores), key=lambda x: -x[1]):
        typer.echo(f"  {name}: {score}")
    typer.echo(f"winner: {result.names[result.winner]}")


@app.command()
def replay(
    save: Path = typer.Argument(..., help="A save file written by `legacies play --save`."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", help="Default: the ruleset the save names."),
) -> None:
    """Replay a saved game decision by decision, with its log."""
    from legacies.agents.match import replay_save
    from legacies.interpreter.errors import CorruptSave
    from legacies.pipeline.ruleset import load_ruleset, rulesets

    try:
        text = save.read_text(encoding="utf-8")
        name = ruleset or json.loads(text).get("ruleset")
    except (OSError, ValueError, AttributeError) as err:
        _fail(f"cannot read {save}: {err}", 1)
        return
    if name not in rulesets():
        _fail(f"the save is for ruleset `{name}`, which is not installed", 1)
        return
    loaded = load_ruleset(name)
    if loaded.spec is None:
        _fail(f"ruleset `{name}` has content errors; run `legacies validate --ruleset {name}`", 1)
        return
    try:
        result = replay_save(loaded.spec, text, on_event=typer.echo)
    except CorruptSave as err:
        _fail(f"refused: {err}", 1)
        return
    if result.state is not None and result.state.is_terminal():
        typer.echo("")
        typer.echo("final scores:")
        for pname, score in sorted(zip(result.names, result.scores), key=lambda x: -x[1]):
            typer.echo(f"  {pname}: {score}")


@app.command()
def explain(
    item: str = typer.Argument(..., help="A content id, e.g. riot."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r"),
    show_ast: bool = typer.Option(False, "--ast", help="Also print the syntax tree."),
) -> None:
    """Show an item: its name, kind, costs, generated card text and effect source."""
    from legacies.pipeline.explain import ExplainError, explain as run

    try:
        text = run(item, ruleset, show_ast)
    except ExplainError as err:
        _fail(str(err))
        return
    typer.echo(text)


@app.command("rulesets")
def list_rulesets() -> None:
    """List the installed rulesets."""
    from legacies.pipeline.ruleset import load_ruleset, rulesets

    for name in rulesets():
        r = load_ruleset(name)
        if r.spec is not None:
            s = r.spec
            typer.echo(f"{name}\t{s.title}\t{s.min_players}-{s.max_players} players\t{len(s.defs)} items")
        else:
            typer.echo(f"{name}\t(has content errors: run `legacies validate --ruleset {name}`)")


def main() -> None:  # pragma: no cover - console entry
    app()
