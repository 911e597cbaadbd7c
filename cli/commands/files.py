"""The commands that write a ruleset's files: `legacies migrate` (files of an older format
upgraded in place, pipeline/migrate.py) and `legacies new` (a new content item, valid at
once, pipeline/new_item.py)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from ..common import fail, fail_on, short

if TYPE_CHECKING:  # bound by _services() when a command runs: `CMD --help` imports none of them
    from legacies.cli.ruleset_args import folder_arg, ruleset_arg
    from legacies.pipeline.explain import folder_rulesets
    from legacies.pipeline.migrate import MigrateUsageError
    from legacies.pipeline.migrate import migrate as run_migrate
    from legacies.pipeline.models import CURRENT_FORMAT
    from legacies.pipeline.new_item import NewItemError
    from legacies.pipeline.new_item import new_item as run_new_item
    from legacies.pipeline.report import render_text


def _services() -> None:
    """The services and helpers the commands call, imported when a command of this module
    runs (its `--help` imports none of them: docs/speed.md). Each command calls it first."""
    from legacies.cli.ruleset_args import folder_arg, ruleset_arg
    from legacies.pipeline.explain import folder_rulesets
    from legacies.pipeline.migrate import MigrateUsageError
    from legacies.pipeline.migrate import migrate as run_migrate
    from legacies.pipeline.models import CURRENT_FORMAT
    from legacies.pipeline.new_item import NewItemError
    from legacies.pipeline.new_item import new_item as run_new_item
    from legacies.pipeline.report import render_text

    globals().update(locals())


app = typer.Typer()


@app.command()
def migrate(
    paths: List[Path] = typer.Argument(..., metavar="PATH", help="Rules and content files, or folders holding them."),
    check: bool = typer.Option(False, "--check", metavar="", help="Change nothing: list what would change, and "
                               "exit 1 if anything would."),
    diff: bool = typer.Option(False, "--diff", metavar="", help="Change nothing: show what would change as a "
                              "unified diff."),
) -> None:
    """Upgrade files written for an older format, in place.

    Renames what later formats renamed and states `format:` at the top of each file,
    keeping comments, quoting and layout. A file already at the current format is left
    as it is; other YAML files (scenario tests, CI configs) are skipped; a file that is
    not valid YAML is reported and left as it is."""
    _services()
    try:
        result = run_migrate([str(p) for p in paths], write=not (check or diff))
    except MigrateUsageError as err:
        fail_on(err)
        return
    would = "would upgrade" if check or diff else "upgraded"
    for f in result.files:
        if f.status == "upgraded":
            if diff:
                typer.echo(f.diff(), nl=False)
                continue
            changes = [f"{c.line}:{c.column}: {c.what}" for c in sorted(f.changes, key=lambda c: (c.line, c.column))]
            head = f"{would} {f.label} " + (f"(format {f.version} -> {CURRENT_FORMAT})" if f.version is not None
                                             else "(scenario tests: today's wording)")
            typer.echo(f"{head}: {changes[0]}" if len(changes) == 1 else "\n    ".join([head, *changes]))
        elif f.status == "refused" and f.problem is not None:
            typer.echo(f"{f.problem.headline()} (left as it is)" + (f"\n    hint: {f.problem.hint}"
                                                                      if f.problem.hint else ""))
        elif f.status == "skipped" and f.label in result.named:
            typer.echo(f"skipped {f.label}: {f.reason}")
    upgraded, current = result.count("upgraded"), result.count("current")
    done = "would be upgraded" if check or diff else "upgraded"
    parts = [f"{upgraded} file{'s' if upgraded != 1 else ''} {done} to format {CURRENT_FORMAT}",
             f"{current} already at format {CURRENT_FORMAT}"]
    parts += [f"{result.count('refused')} refused"] if result.count("refused") else []
    parts += [f"{result.count('skipped')} skipped (not rules or content)"] if result.count("skipped") else []
    typer.echo(", ".join(parts), err=diff)
    raise typer.Exit(1 if not result.ok or (check and upgraded) else 0)


@app.command("new")
def new_item(
    kind: str = typer.Argument(..., metavar="KIND", help="What to make: a kind of the ruleset, by its name, plural "
                               "or label (card, crate, crates)."),
    ruleset: str = typer.Option(..., "--ruleset", "-r", metavar="NAME|PATH",
                                help="The ruleset folder to write into (rules/NAME and content/NAME inside); an "
                                     "installed ruleset, only with --expansion (copy it to a folder to change it)."),
    path: Optional[Path] = typer.Option(None, "--path", "-p", metavar="FOLDER",
                                        help="The folder, when it holds several rulesets (--ruleset then names one)."),
    item_id: Optional[str] = typer.Option(None, "--id", metavar="ID",
                                          help="The new item's id (default: the next free one in its kind's pattern)."),
    file: Optional[str] = typer.Option(None, "--file", metavar="FILE",
                                       help="The content file to write to: its name in content/NAME/ (cards_ii) or "
                                            "a path; a new name makes a new file (default: the file holding most "
                                            "items of the kind)."),
    like: Optional[str] = typer.Option(None, "--like", metavar="ID",
                                       help="Copy this item whole (its values, effects and requires), into its "
                                            "file, under the new id and name."),
    expansion: Optional[Path] = typer.Option(None, "--expansion", "-x", metavar="FOLDER",
                                             help="Write into this expansion folder (made if missing), laid over the "
                                                  "ruleset: its content/NAME/ files; the ruleset may be installed."),
) -> None:
    """Write a new content item, valid at once: the next free id, into the right file.

    The item copies the shape of the last item of its kind in that file: every attribute
    all items of the kind give, with that item's values, and effects (where that item
    has them) that only log that they are not written yet; with --like ID, it is a copy
    of that item whole. It is appended to the file (comments and layout kept), the
    ruleset is validated, and the file is put back as it was if that finds an error."""
    _services()
    root = folder_arg(path)
    if root is None:
        name, root = ruleset_arg(ruleset)
        if root is None and expansion is None:
            rules, content = (resources.files(f"legacies.{part}").joinpath(name) for part in ("rules", "content"))
            fail(f"`legacies new` writes into a ruleset folder, not into the installed ruleset `{name}`: copy it "
                 f"first, then name the copy:\n  mkdir -p my-{name}/rules my-{name}/content\n"
                 f"  cp -r {rules} my-{name}/rules/ && cp -r {content} my-{name}/content/\n"
                 f"  legacies new {kind} --ruleset my-{name}\n"
                 f"or write it into an expansion laid over `{name}`: legacies new {kind} --ruleset {name} "
                 f"--expansion my-expansion")
            return
    else:
        name = ruleset
        if name not in folder_rulesets(root):
            fail(f"{root} holds no ruleset `{short(name)}` (it holds: {', '.join(folder_rulesets(root))})")
    if expansion is not None and expansion.exists() and not expansion.is_dir():
        fail(f"--expansion {expansion}: not a folder")
    try:
        made = run_new_item(Path(root) if root is not None else None, name, kind, item_id, file, like, expansion)
    except NewItemError as err:
        if err.diagnostics:
            typer.echo(render_text(err.diagnostics, err.sources), err=True)
        fail_on(err)
        return
    shape = f", shaped like {made.model}" if made.model else ""
    if made.expansion_file is not None:
        typer.echo(f"wrote {made.expansion_file}: the expansion's name and the ruleset it extends (add the words "
                   "it needs there)")
    typer.echo(f"wrote {made.kind} {made.id} ({made.name}{shape}) to {made.file}:{made.line}"
               + (" (a new file of the expansion's own)" if made.created and expansion is not None
                  else " (a new file)" if made.created else ""))
    others = [f for f in made.files_of_kind if Path(f).resolve() != Path(made.file).resolve()]
    if others and expansion is None:
        typer.echo(f"  items of this kind are also in {', '.join(others)}: --file or --like ID chooses")
    typer.echo("  the ruleset validates with no errors" + (f" ({len(made.warnings)} warnings in this file)"
                                                          if made.warnings else ""))
    where = f"--ruleset {name} --path {root}" if path is not None else f"--ruleset {root or name}"
    typer.echo(f"  see it: legacies explain {made.id} {where}" + (f" -x {expansion}" if expansion else ""))

