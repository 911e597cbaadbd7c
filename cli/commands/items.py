"""The commands about content items: `legacies explain` (an item, its card text and
source), `content` (every item listed), `try` (an item played in a situation chosen,
agents/trial.py) and `test` (scenario tests, agents/scenario_tests.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from ..common import EXPANSION_HELP, ReportFormat, checked_folder, exists, fail, fail_on, is_dir, short, version_text

if TYPE_CHECKING:  # bound by _services() when a command runs: `CMD --help` imports none of them
    from legacies.agents.scenario_tests import find_tests, run_tests
    from legacies.agents.trial import Scenario, TrialError, run_trial
    from legacies.dsl.diagnostics import Diagnostic
    from legacies.cli.ruleset_args import expanded_ruleset, folder_arg, load_with, playable, ruleset_arg, where_given
    from legacies.pipeline import ruleset as loading  # by module: a test's stand-in for rulesets() is seen
    from legacies.pipeline.content import ContentError, content_rows
    from legacies.pipeline.explain import ExplainError, find_item, folder_rulesets, near_items
    from legacies.pipeline.explain import explain as run_explain
    from legacies.pipeline.report import render_github, render_json, render_sarif
    from legacies.pipeline.ruleset import ExpansionError


def _services() -> None:
    """The services and helpers the commands call, imported when a command of this module
    runs (its `--help` imports none of them: docs/speed.md). Each command calls it first."""
    from legacies.agents.scenario_tests import find_tests, run_tests
    from legacies.agents.trial import Scenario, TrialError, run_trial
    from legacies.cli.ruleset_args import expanded_ruleset, folder_arg, load_with, playable, ruleset_arg, where_given
    from legacies.pipeline import ruleset as loading  # by module: a test's stand-in for rulesets() is seen
    from legacies.pipeline.content import ContentError, content_rows
    from legacies.pipeline.explain import ExplainError, find_item, folder_rulesets, near_items
    from legacies.pipeline.explain import explain as run_explain
    from legacies.pipeline.report import render_github, render_json, render_sarif
    from legacies.pipeline.ruleset import ExpansionError

    globals().update(locals())


app = typer.Typer()


@app.command()
def explain(
    item: str = typer.Argument(..., metavar="ID-OR-NAME", help="A content id or an item's name (`legacies content` lists them)."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH",
                                          help="Only this ruleset: installed, or a ruleset folder."),
    path: Optional[Path] = typer.Option(None, "--path", "-p", metavar="FOLDER",
                                        help="A ruleset folder on disk (rules/NAME and content/NAME inside)."),
    show_ast: bool = typer.Option(False, "--ast", metavar="", help="Also print the syntax tree."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER", help=EXPANSION_HELP),
) -> None:
    """Show an item: its name, kind, costs, generated card text and effect source."""
    _services()
    root = folder_arg(path)
    if ruleset is not None and root is None and is_dir(ruleset):
        ruleset, root = ruleset_arg(ruleset)
    ruleset = expanded_ruleset(ruleset, root, expansion)
    try:
        text = run_explain(item, ruleset, show_ast, root, tuple(expansion))
    except (ExplainError, ExpansionError) as err:
        fail_on(err)
        return
    typer.echo(text)


@app.command()
def content(
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH",
                                          help="Only this ruleset: installed, or a ruleset folder."),
    kind: Optional[str] = typer.Option(None, "--kind", "-k", metavar="KIND",
                                       help="Only this kind (its name, plural or label, as `new` takes it)."),
    path: Optional[Path] = typer.Option(None, "--path", "-p", metavar="FOLDER",
                                        help="A ruleset folder on disk (rules/NAME and content/NAME inside)."),
    as_json: bool = typer.Option(False, "--json", metavar="", help="A JSON list of {ruleset, id, kind, name, the "
                                                       "ruleset's content columns, file, line}."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER", help=EXPANSION_HELP),
) -> None:
    """List the content: id, kind, name, the ruleset's content columns (Legacies: the
    era), file and line of every item."""
    _services()
    root = folder_arg(path)
    if ruleset is not None and root is None and is_dir(ruleset):
        ruleset, root = ruleset_arg(ruleset)
    ruleset = expanded_ruleset(ruleset, root, expansion)
    try:
        if root is not None and ruleset is None:
            rows = [row for name in folder_rulesets(root) for row in content_rows(name, kind, root)]
        else:
            rows = content_rows(ruleset, kind, root, tuple(expansion))
    except (ContentError, ExpansionError) as err:
        fail_on(err)
        return
    if as_json:
        typer.echo(json.dumps([row.as_dict() for row in rows], indent=1))
        return
    width = max((len(r.id) for r in rows), default=2)
    kinds = max((len(r.kind) for r in rows), default=4)
    names = [c for c, _ in rows[0].columns] if rows else []
    sizes = [max([len(str(r.column(c))) for r in rows if r.column(c) is not None] + [1]) for c in names]
    for r in rows:
        cells = "".join(f"  {str(v) if v is not None else '-':>{size}}" for (_, v), size in zip(r.columns, sizes))
        typer.echo(f"{r.id:<{width}}  {r.kind:<{kinds}}{cells}  {r.name}  ({r.file}:{r.line})")
    typer.echo(f"{len(rows)} items", err=True)


@app.command("try")
def try_item(
    item: str = typer.Argument(..., metavar="ID", help="The content item to try: an id or a name (`legacies content` lists them)."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH",
                                          help="The item's ruleset: installed, or a ruleset folder (default: the "
                                               "installed ruleset that has the item)."),
    scenario: Optional[Path] = typer.Option(None, "--scenario", metavar="FILE",
                                            help="A scenario: players, seed, as, play, counters, before "
                                                 "(docs/cli.md)."),
    seat: Optional[int] = typer.Option(None, "--as", metavar="N", help="The seat that plays it (1-based)."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="N", help="The setup's seed."),
    players: Optional[int] = typer.Option(None, "--players", "-p", metavar="N", help="How many players."),
    play: Optional[int] = typer.Option(None, "--play", metavar="N",
                                       help="First take the first option of N decisions (the game's setup)."),
    effect: Optional[str] = typer.Option(None, "--effect", "-e", metavar="NAME",
                                         help="Which of the item's effect attributes (`legacies explain ID` names them)."),
    run: Optional[str] = typer.Option(None, "--run", metavar="SOURCE",
                                      help="Effect-language source to run instead (`gain 2 points`, a procedure's call)."),
    choose: Optional[str] = typer.Option(None, "--choose", "-c", metavar="1,2,...",
                                         help="Answers to its decisions, by option number; the rest are asked."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER",
                                         help=EXPANSION_HELP),
) -> None:
    """Try an item in a situation you choose: play its effect and show what changed.

    The state comes from a seeded setup, changed by a scenario file that states only what
    matters. Decisions are answered from --choose, then asked at the terminal."""
    _services()
    if scenario is not None and not exists(scenario):  # (a FIFO or a device: refused unread below, F006)
        fail(f"--scenario {scenario}: no such file")
    try:
        plan = Scenario.read(scenario) if scenario is not None else Scenario()
    except TrialError as err:
        fail_on(err)
        return
    for value, attr in ((seat, "seat"), (seed, "seed"), (players, "players"), (play, "play")):
        if value is not None:
            setattr(plan, attr, value)
    answers: list[int] = []
    for part in (choose or "").replace(" ", "").split(","):
        if part:
            if not part.isdigit() or int(part) < 1:
                fail(f"--choose takes option numbers from 1 (`1,3,2`), not `{short(part)}`")
            answers.append(int(part) - 1)
    if ruleset is not None:
        names = [ruleset_arg(ruleset)]
    else:  # the installed rulesets (those an expansion is for, when one is given)
        wanted = expanded_ruleset(None, None, expansion) if expansion else None
        names = [(n, None) for n in loading.rulesets() if wanted is None or n == wanted]

    found = None
    near: list[str] = []
    for name, root in names:
        loaded = load_with(name, root, expansion)
        if len(names) == 1:  # the ruleset named: refused whole when it has an error, whatever the item
            playable(loaded, name, where_given(name, root, expansion))
        if loaded.build is None:
            continue
        match = find_item(item, loaded.build)  # an id, any case, or a name
        if match is not None:
            found = (name, root, loaded)
            item = match
            break
        near.extend(near_items(item, loaded.build))
    if found is None:
        hint = f"did you mean {', '.join(near[:3])}?" if near else "`legacies content` lists them"
        fail(f"no item `{short(item)}` in {'that ruleset' if ruleset else 'any installed ruleset'}; {hint}")
        return
    name, root, loaded = found
    playable(loaded, name, where_given(name, root, expansion))
    interactive = sys.stdin.isatty()

    def ask(d: Any) -> int:
        if not interactive:
            raise TrialError(f"\"{d.prompt}\" ({', '.join(d.labels())}): no answer left; add it to --choose",
                             usage=True)
        typer.echo(f"{d.prompt}:", err=True)
        for n, label in enumerate(d.labels(), 1):
            typer.echo(f"  {n}. {label}", err=True)
        while True:
            text = input("> ").strip()
            if text.isdigit() and 1 <= int(text) <= len(d.options):
                return int(text) - 1
            typer.echo(f"type a number from 1 to {len(d.options)}", err=True)

    try:
        trial = run_trial(loaded.spec, item, plan, effect=effect, run=run, answers=answers, ask=ask)
    except TrialError as err:
        fail_on(err)
        return
    except EOFError:
        fail("end of input: nothing was tried", 1)
        return
    lines = run.strip().splitlines() if run else []  # a source of several lines: its first, then "…"
    typer.echo(f"{trial.item} ({item}), played by {trial.seat}"
               + (f": {lines[0]}" + (" …" if len(lines) > 1 else "") if lines else "")
               + f"   (turn order: {', '.join(trial.turn_order)})")
    for who, prompt, labels, taken in trial.asked:
        typer.echo(f"  {who}, {prompt}: {taken}   (of {', '.join(labels)})")
    if trial.unused:
        typer.echo(f"  ({trial.unused} answer{'s' if trial.unused != 1 else ''} of --choose not needed)")
    if trial.log:
        typer.echo("log:")
        for line in trial.log:
            typer.echo(f"  {line}")
    typer.echo("changes:" if trial.changes else "nothing changed")
    for line in trial.changes:
        typer.echo(f"  {line}")


@app.command("test")
def test_scenarios(
    paths: List[Path] = typer.Argument(..., metavar="PATH", help="Scenario test files or folders holding them."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH",
                                          help="Test against this ruleset folder (default: the installed ones)."),
    format: ReportFormat = typer.Option(ReportFormat.text, "--format", "-f", metavar="FORMAT",
                                          help="text, json, github annotations or sarif (SARIF 2.1.0, as `validate`)."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER", help=EXPANSION_HELP),
) -> None:
    """Run scenario tests: items tried in scenarios, with what must hold afterwards.

    A test file names an item, sets the stage like `legacies try --scenario`, answers its
    decisions (`choose`) and states `expect` (effect-language expressions and their
    values), `changes` (the whole difference) or `refused` (docs/cli.md)."""
    _services()
    root = None
    only = None
    if ruleset is not None:
        only, root = ruleset_arg(ruleset)
    only = expanded_ruleset(only, root, expansion)
    missing = [p for p in paths if not exists(p)]
    if missing:
        fail(f"no such file or folder: {missing[0]}")
    tests, problems = find_tests(list(paths))
    if not tests and not problems:
        fail(f"no scenario tests (YAML files with `item:`) in {', '.join(str(p) for p in paths)}")
    try:
        result = run_tests(tests, root, only, tuple(expansion))
    except ExpansionError as err:
        fail_on(err)
        return
    failures = problems + result.failures
    if format == ReportFormat.json:
        typer.echo(render_json(failures))
    elif format == ReportFormat.sarif:
        typer.echo(render_sarif(failures, version_text(), checked_folder(paths)))
    elif format == ReportFormat.github:
        out = render_github(failures)
        if out:
            typer.echo(out)
    else:
        failed = {id(t) for t in result.failed_tests}
        for t in tests:
            mark = "FAIL" if id(t) in failed else "ok  "
            typer.echo(f"{mark} {t.file}:{t.line}  {t.label}")
        read: dict[str, list[str] | None] = {}
        for d in failures:  # as `validate` prints: file:line:column, the line and a caret, the hint
            if d.file not in read:
                read[d.file] = _lines(d.file)
            typer.echo("\n" + d.render(read[d.file]))
        unread = _unreadable(problems)
        typer.echo(f"\n{result.passed} passed, {result.failed} failed" + (f", {unread} unreadable" if unread else ""))
    # a test that cannot be read or run as written (T002) is the tests' own mistake: a usage error
    raise typer.Exit(0 if not failures else 2 if any(d.code == "T002" for d in failures) else 1)


def _unreadable(problems: list[Diagnostic]) -> int:
    """What could not be run: each test written wrong (a T002 at its line), each file that
    cannot be read (however many problems it has: two duplicate keys are one file)."""
    return len({(d.file, d.line) if d.code == "T002" else (d.file, None) for d in problems})


def _lines(file: str | None) -> list[str] | None:
    """A test file's lines, for a failure's caret (None when it cannot be read now, or is no
    regular file: a FIFO named as a test, opened to read, would wait for a writer forever)."""
    from legacies.pipeline.files import read_regular

    try:
        return read_regular(file).decode("utf-8", errors="replace").splitlines() if file else None
    except OSError:  # NotRegular too
        return None
