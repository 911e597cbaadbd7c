"""`legacies validate`: every problem in the content and rules given (pipeline/validate.py),
as text, JSON, GitHub annotations or SARIF; exit 0 when there is no error, 1 otherwise."""

from __future__ import annotations

from typing import List, Optional

import typer

from ..common import EXPANSION_HELP, ReportFormat, checked_folder, debug_traceback, fail_on, is_dir, version_text

app = typer.Typer()


@app.command()
def validate(
    paths: List[str] = typer.Argument(None, metavar="PATH", help="Files or folders to check (default: every installed ruleset)."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH",
                                          help="Check only this ruleset: an installed one, or a ruleset folder (the "
                                               "same as giving the folder as PATH)."),
    format: ReportFormat = typer.Option(ReportFormat.text, "--format", "-f", metavar="FORMAT",
                                          help="text; json (every field, with the span's start and end); github "
                                               "(annotations); sarif (SARIF 2.1.0, for code scanning)."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER",
                                         help=EXPANSION_HELP + " The stack is checked as `play -x` loads it; "
                                              "a PATH, if given, is the ruleset folder under them."),
) -> None:
    """Check content and rules: every problem in every file, with file:line:column.

    Exit codes: 0 no error (warnings may be listed), 1 errors found, 2 nothing could be
    checked as asked (a path, ruleset, expansion or format that does not exist)."""
    # (imported here: `legacies validate --help` imports no service)
    from legacies.pipeline.report import render_github, render_json, render_sarif, render_text
    from legacies.pipeline.validate import UsageError
    from legacies.pipeline.validate import validate as run_validate

    paths = list(paths or [])
    if ruleset is not None and is_dir(ruleset):  # a ruleset folder: checked as PATH is
        from ..ruleset_args import ruleset_arg

        name, root = ruleset_arg(ruleset)
        ruleset = name
        if not expansion:
            paths = [root or ruleset] + paths
        elif not paths:
            paths = [root or ruleset]
    try:
        result = run_validate(paths, ruleset, tuple(expansion))
    except UsageError as err:
        fail_on(err)
        return
    if format == ReportFormat.json:
        typer.echo(render_json(result.diagnostics))
    elif format == ReportFormat.sarif:
        typer.echo(render_sarif(result.diagnostics, version_text(), checked_folder(paths)))
    elif format == ReportFormat.github:
        out = render_github(result.diagnostics)
        if out:
            typer.echo(out)
    else:
        typer.echo(render_text(result.diagnostics, result.sources, checked=result.files))
    for d in result.diagnostics:
        debug_traceback(text=d.detail)
    raise typer.Exit(0 if result.ok else 1)

