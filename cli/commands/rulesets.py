"""`legacies rulesets`: the installed rulesets, the seats their rules run and the options
that tune them, and the installed expansions that extend each."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:  # bound by _services() when a command runs: `CMD --help` imports none of them
    from legacies.pipeline import ruleset as loading  # by module: a test's stand-in for rulesets() is seen
    from legacies.pipeline.stack import installed_expansions


def _services() -> None:
    """The services and helpers the commands call, imported when a command of this module
    runs (its `--help` imports none of them: docs/speed.md). Each command calls it first."""
    from legacies.pipeline import ruleset as loading  # by module: a test's stand-in for rulesets() is seen
    from legacies.pipeline.stack import installed_expansions

    globals().update(locals())


app = typer.Typer()


@app.command("rulesets")
def list_rulesets() -> None:
    """List the installed rulesets, each with the installed expansions that extend it
    (`--expansion NAME` lays one over it)."""
    _services()
    expansions = installed_expansions()
    for name in loading.rulesets():
        r = loading.load_ruleset(name)
        if r.spec is not None:
            s = r.spec
            items = len(r.build.items) if r.build is not None else len(s.defs)  # content items, as `content` lists
            typer.echo(f"{name}\t{s.title}\t{s.min_players}-{s.max_players} players\t{items} items")
        else:
            typer.echo(f"{name}\t(has content errors: run `legacies validate --ruleset {name}`)")
        if r.spec is not None:
            for k in r.spec.seats:  # the seats its rules run, and the options that tune them
                typer.echo(f"  seat {k.name}\t{k.label}: {k.description or 'run by the rules'}"
                           + (f" (joins a table of {k.joins} by itself)" if k.joins else ""))
            declared = next((getattr(f.model, "options", {}) for f in r.load.files if f.kind == "ruleset"), {})
            for opt, values in r.spec.option_names.items():
                named = sorted(values, key=lambda n: (values[n], n))
                about = getattr(declared.get(opt), "description", None)  # what the levels change, in the ruleset's words
                typer.echo(f"  option {opt}\t{', '.join(n for n in named if not n.isdigit())}"
                           + (f": {' '.join(about.split())}" if about else ""))
        for exp in (e for e in expansions if e.ruleset() == name):
            laid = loading.load_ruleset(name, None, [exp])
            added = (len(laid.build.items) - items) if laid.build is not None and r.spec is not None else None
            needs = f", requires {', '.join(exp.requires)}" if exp.requires else ""
            state = (f"{added:+d} items{needs}" if laid.ok and added is not None
                     else f"has errors: run `legacies validate -x {exp.name}`")
            typer.echo(f"  + {exp.name}\t{exp.title}\t(--expansion {exp.name})\t{state}")
    orphans = [e for e in expansions if e.ruleset() not in loading.rulesets()]
    for exp in orphans:
        typer.echo(f"{exp.name}\t{exp.title}\t(an expansion of `{exp.ruleset()}`, which is not installed)")

