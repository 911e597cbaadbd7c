"""The commands that play many games: `legacies soak` (random games checked against every
invariant, agents/soak.py), `simulate` (bot games and a balance report, agents/simulate.py
and agents/report.py) and `bench` (the engine's speed figures, agents/bench.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..common import (EXPANSION_HELP, fail, fail_on, iterations_checked, lookahead_checked, output_failed, say,
                      short, think_checked)

if TYPE_CHECKING:  # bound by _services() when a command runs: `CMD --help` imports none of them
    from legacies.agents.bench import TARGETS, run_bench, table_rows
    from legacies.agents.cluster import address_problem
    from legacies.agents.comparison import compare as side_by_side
    from legacies.agents.comparison import comparison_lines
    from legacies.agents.report import actions_lines, build_report, report_html, report_json
    from legacies.agents.report_changes import what_if, what_if_lines
    from legacies.agents.simulate import MAX_GAMES as SIMULATE_MAX_GAMES
    from legacies.agents.simulate import Request, SimulationError, check_request, describe_changes, parse_change
    from legacies.agents.simulate import simulate as run_simulation
    from legacies.agents.soak import MAX_GAMES as SOAK_MAX_GAMES
    from legacies.agents.soak import SoakError, run_soak, soak_tables, table_name
    from legacies.cli.ruleset_args import default_ruleset, load_with, playable, ruleset_arg, where_given
    from legacies.cli.table_args import check_workers, known_seats, parse_options
    from legacies.interpreter.errors import TableError
    from legacies.pipeline import ruleset as loading  # by module: a test's stand-in for rulesets() is seen
    from legacies.pipeline.stack import installed_expansions
    from legacies.pipeline.table import seat_table
    from legacies.pipeline.writes import WriteError, check_folder, make_folder, write_files


def _services() -> None:
    """The services and helpers the commands call, imported when a command of this module
    runs (its `--help` imports none of them: docs/speed.md). Each command calls it first."""
    from legacies.agents.bench import TARGETS, run_bench, table_rows
    from legacies.agents.cluster import address_problem
    from legacies.agents.comparison import compare as side_by_side
    from legacies.agents.comparison import comparison_lines
    from legacies.agents.report import actions_lines, build_report, report_html, report_json
    from legacies.agents.report_changes import what_if, what_if_lines
    from legacies.agents.simulate import MAX_GAMES as SIMULATE_MAX_GAMES
    from legacies.agents.simulate import Request, SimulationError, check_request, describe_changes, parse_change
    from legacies.agents.simulate import simulate as run_simulation
    from legacies.agents.soak import MAX_GAMES as SOAK_MAX_GAMES
    from legacies.agents.soak import SoakError, run_soak, soak_tables, table_name
    from legacies.cli.ruleset_args import default_ruleset, load_with, playable, ruleset_arg, where_given
    from legacies.cli.table_args import check_workers, known_seats, parse_options
    from legacies.interpreter.errors import TableError
    from legacies.pipeline import ruleset as loading  # by module: a test's stand-in for rulesets() is seen
    from legacies.pipeline.stack import installed_expansions
    from legacies.pipeline.table import seat_table
    from legacies.pipeline.writes import WriteError, check_folder, make_folder, write_files

    globals().update(locals())


app = typer.Typer()


def _games(value: int, command: str) -> int:
    """`--games`: at least 1, at most what the command can keep (agents/soak.py's and
    agents/simulate.py's MAX_GAMES): a usage error, never a list of a quintillion games."""
    _services()
    most = SOAK_MAX_GAMES if command == "soak" else SIMULATE_MAX_GAMES
    if not 1 <= value <= most:
        raise typer.BadParameter(f"takes 1 to {most:,} games, not {value}")
    return value


@app.command()
def soak(
    games: int = typer.Option(1000, "--games", "-n", metavar="N", callback=lambda n: _games(n, "soak"),
                              help="How many games to play (at most 10,000,000)."),
    ruleset: List[str] = typer.Option([], "--ruleset", "-r", metavar="NAME", help="Only this ruleset (repeatable)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", metavar="N", help="Only this player count."),
    seed: int = typer.Option(0, "--seed", metavar="N", help="The first game's seed; game i plays seed + i."),
    workers: int = typer.Option(1, "--workers", "-w", metavar="N", min=1, help="Processes to play in."),
    out: Path = typer.Option(Path("soak-failures"), "--out", metavar="FOLDER", help="Where failing games are saved."),
    max_decisions: int = typer.Option(20_000, "--max-decisions", metavar="N", min=1, help="A game longer than this fails."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME",
                                        help="An installed expansion laid over the ruleset it extends (or over each "
                                             "--ruleset), soaked as a ruleset is (repeatable, in order)."),
    refusals: bool = typer.Option(False, "--refusals", help="Also list, per ruleset and per action, the options "
                                  "offered and then refused when taken."),
) -> None:
    """Play many seeded random games checking every invariant after every decision.

    Also counts, per ruleset and per action, the options offered and then refused."""
    _services()
    installed = loading.rulesets()
    unknown = [r for r in ruleset if r not in installed]
    if unknown:
        fail(f"unknown ruleset `{unknown[0]}`; installed: {', '.join(installed)}")
    expansions = _installed_expansions(expansion)
    if expansions and not ruleset:
        ruleset = [default_ruleset(None, list(expansions))]
    try:
        tables, broken = soak_tables(list(ruleset) or installed, players, expansions)
    except loading.ExpansionError as err:
        fail(str(err))
    for name in broken:
        typer.echo(f"error: ruleset `{name}` has content errors; run "
                   f"`legacies validate {where_given(name, None, [str(x) for x in expansion])}`", err=True)
    if not tables:
        fail("nothing to play" + (f": no ruleset takes {players} players" if players is not None else ""),
             1 if broken else 2)
    check_workers(workers)
    _check_out(out)
    names = sorted({table_name(t) for t in tables})
    columns = (TextColumn("soak"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[failures]} failures"),
               TimeElapsedColumn())
    failed: SoakError | None = None
    with Progress(*columns, console=_stderr_console(), transient=False) as bar:
        task = bar.add_task("soak", total=games, failures=0)
        try:
            result = run_soak(games, tables, seed, workers, max_decisions, out,
                              lambda done, failures, _: bar.update(task, completed=done, failures=failures))
        except SoakError as err:
            failed = err
            bar.update(task, visible=False)  # the error is the last line, not a bar drawn after it
    if failed is not None:
        fail_on(failed)
    for f, path in zip(result.failures, result.saved):
        laid = "".join(f" --expansion {x}" for x in f.expansions)
        again = (f"legacies replay --verify {path}" if isinstance(path, Path) else
                 f"legacies soak --ruleset {f.ruleset}{laid} --players {f.players} --seed {f.seed} --games 1 "
                 f"(not saved: {path})")
        typer.echo(f"FAIL {f.name} {f.players}p seed {f.seed}: {short(f.message, 300)}\n  reproduce: {again}")
    if not result.interrupted:  # counts of some games only: not said
        _say_refusals(result.refused, names, refusals)
    rate = result.games / result.seconds if result.seconds else 0.0
    typer.echo(("interrupted: " if result.interrupted else "")
               + f"{result.games} games ({', '.join(names)}; {len(tables)} table{'s' if len(tables) != 1 else ''}), "
               f"{result.decisions} decisions, {len(result.failures)} failures, {result.seconds:.1f} s "
               f"({rate:.0f} games/s)" + (f"; {games - result.games} of {games} not played" if result.interrupted
                                          else ""))
    if result.interrupted:
        raise typer.Exit(130)
    if result.failures or broken:
        raise typer.Exit(1)


def _installed_expansions(names: List[str]) -> tuple[str, ...]:
    """`soak --expansion`: installed expansions by name (soak plays installed rulesets)."""
    known = [e.name for e in installed_expansions()]
    for name in names:
        if name not in known:
            if Path(name).is_dir():  # (a user's trial: every other command takes a folder)
                given = short(name, 200)  # the commands said in full: a cut path cannot be run
                fail(f"soak plays installed expansions only, by name, and `{given}` is a folder: "
                     f"`legacies simulate -x {given}` plays it with bots, and `legacies validate -x "
                     f"{given}` checks it; installed: {', '.join(known) or 'none'}")
            fail(f"unknown expansion `{short(name)}`; installed: {', '.join(known) or 'none'}")
    return tuple(names)


def _say_refusals(refused: dict[tuple[str, str], int], names: list[str], each: bool) -> None:
    """The options offered and then refused: a line per ruleset, and with `each` a line per
    action or question under it."""
    for name in names:
        mine = sorted(((key, n) for (table, key), n in refused.items() if table == name), key=lambda kn: (-kn[1], kn[0]))
        typer.echo(f"refused offers {name}: {sum(n for _, n in mine)}")
        if each:
            for key, n in mine:
                typer.echo(f"  {n:>7}  {short(key, 200)}")


def _check_out(folder: Path) -> None:
    """Refuse, before any game, an output folder nothing could be written into."""
    try:
        check_folder(folder)
    except WriteError as err:
        fail_on(err, f"--out {folder}: nothing could be written there: {err.why}")


@app.command()
def simulate(
    out: Path = typer.Option(..., "--out", metavar="FOLDER", help="Where report.json and report.html are written."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH", show_default=False,
                                          help="The ruleset: an installed one or a ruleset folder; default: the one "
                                               "the --expansion extends, else legacies."),
    games: int = typer.Option(1000, "--games", "-n", metavar="N", callback=lambda n: _games(n, "simulate"),
                              help="How many games to play (at most 100,000)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", metavar="N",
                                          help="Seats at each table, the ones the rules run included (default: 4, "
                                               "or the ruleset's nearest count, more when more --seat are given; "
                                               "with a seat the rules run: the seats given). A seat that joins a "
                                               "table by itself (the ruleset's) comes on top."),
    seat: List[str] = typer.Option([], "--seat", "-s", metavar="KIND",
                                   help="A bot kind per seat, rotated over the games (repeatable; missing seats are "
                                        "random): random, greedy, rollout, search (see `legacies play --help`); or a "
                                        "seat the ruleset's rules run (`legacies rulesets` lists them), seated last."),
    option: List[str] = typer.Option([], "--option", "-o", metavar="NAME=VALUE",
                                     help="A setup option of the ruleset for every game (repeatable)."),
    seed: int = typer.Option(0, "--seed", metavar="N", help="The first game's seed; game i plays seed + i."),
    workers: int = typer.Option(1, "--workers", "-w", metavar="N", min=1, help="Local processes to play in."),
    cluster: Optional[str] = typer.Option(None, "--cluster", metavar="ADDRESS",
                                          help="Play on a Dask distributed scheduler (tcp://host:8786) instead; "
                                               "needs pip install 'legacies\\[cluster]'."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER",
                                         help=EXPANSION_HELP),
    item: List[str] = typer.Option([], "--item", "-i", metavar="ID", help="Also print this item's win-rate gap and "
                                   "the branches of its effects no game ran (repeatable; default: the items the "
                                   "expansions add)."),
    compare: bool = typer.Option(False, "--compare", help="With --expansion: also play the same games on the "
                                 "ruleset alone, and report both: game length, how games ended, win rates by "
                                 "seat and by starting choice, each change with a 95% interval paired by seed."),
    set_: List[str] = typer.Option([], "--set", metavar="ID.FIELD=VALUE", help="What if: play the same seeds "
                                   "again with this item's number changed (ID.FIELD, or ID.TABLE.KEY for a table's "
                                   "entry; repeatable), and report each item's gap "
                                   "before and after, the paired difference per seed and intervals on the change."),
    iterations: Optional[int] = typer.Option(None, "--iterations", metavar="N", callback=iterations_checked,
                                             help="Iterations a search seat runs per decision, 1 to 100,000 "
                                                  "(default: 200, about 2 minutes of CPU a Legacies game)."),
    think: Optional[float] = typer.Option(None, "--think", metavar="SECONDS", callback=think_checked,
                                          help="Seconds a search seat thinks per decision, above 0 and at most 600 "
                                               "(the moves then depend on the machine: a run does not repeat "
                                               "exactly); with --iterations, whichever ends first."),
    lookahead: Optional[int] = typer.Option(None, "--lookahead", metavar="N", callback=lookahead_checked,
                                            help="Options a greedy seat applies per decision, 0 to 100,000 "
                                                 "(default: the ruleset's `greedy_lookahead`, else 400; fewer "
                                                 "play faster and may play weaker: docs/cli.md has both measured)."),
) -> None:
    """Play many seeded bot games and write a balance report (report.json, report.html).

    Win rates by seat, turn position and starting choice with 95% intervals; scores and
    game length; for every item the win rate of players who chose it against those who
    did not, largest gaps first; and the branches of the rules and content no game ran.
    The same seeds give the same numbers with any --workers or on a --cluster."""
    _services()
    if compare and not expansion:
        fail("--compare compares a ruleset with its expansions and without: give --expansion")
    if compare and set_:
        fail("--set and --compare each play the games twice: give one of them")
    try:
        changes = tuple(parse_change(text) for text in set_)
    except SimulationError as err:
        fail(str(err))
    name, root = ruleset_arg(default_ruleset(ruleset, expansion))
    loaded = load_with(name, root, expansion)
    spec = playable(loaded, name, where_given(name, root, expansion))  # refused content: validate's diagnostics, exit 1
    unknown = [i for i in item if i not in loaded.build.items]
    if unknown:
        fail(f"--item {short(unknown[0])}: no such item in {spec.title}")
    shown = list(item) or ([i for i in loaded.build.items if i not in load_with(name, root, []).build.items]
                           if expansion else [])
    ruled = {k.name for k in spec.seats}
    given_ruled = [s for s in seat if s in ruled]
    if players is None:
        players = len(seat) if given_ruled else max(len(seat), min(max(4, spec.min_players), spec.max_players))
    if not 1 <= players <= spec.max_players:  # (before a list of that many seats is made)
        fail(f"{spec.title} is for {spec.min_players}-{spec.max_players} players, not {players}")
    if len(seat) > players:
        fail(f"{len(seat)} seats for {players} players")
    if cluster is not None:
        problem = address_problem(cluster)
        if problem:
            fail(problem)
    else:
        check_workers(workers)
    _check_out(out)  # before the games: a report with nowhere to go would be lost
    kinds = [s for s in seat if s not in ruled] + ["random"] * (players - len(seat)) + given_ruled
    try:  # the seats the rules run sit after the bots, as in `legacies play`
        kinds, _, options = seat_table(spec, kinds, [f"P{i + 1}" for i in range(len(kinds))], parse_options(option))
        known_seats(spec, kinds)
    except TableError as err:
        fail_on(err)
        return
    players = len(kinds)
    request = Request(name, root, tuple(str(x) for x in expansion), players, tuple(kinds), seed, games,
                      tuple(sorted((k, v) for k, v in options.items() if spec.option_defaults.get(k) != v)),
                      search_iterations=iterations, search_think=think, greedy_lookahead=lookahead)
    changed = replace(request, changes=changes)
    if changes:  # refused before any game: a change the ruleset does not take, in the checker's words
        try:
            described = describe_changes(changed)
            check_request(changed)
        except SimulationError as err:
            fail(str(err))
        shown = list(dict.fromkeys(list(item) + [c["item"] for c in described]))
        before = _simulated(request, games, workers, cluster, "before")
        if before.stopped:
            fail(f"{before.stopped}: the games before the change did not all finish; no report written",
                 130 if before.stopped == "interrupted" else 1)
    sim = _simulated(changed, games, workers, cluster, "after" if changes else "simulate")
    if sim.stopped and not sim.records:
        fail(f"{sim.stopped}; no game had finished: no report written", 130 if sim.stopped == "interrupted" else 1)
    report = build_report(sim)
    lines = _simulation_lines(report, sim, request, spec, games, shown, list(item), loaded)
    if changes and not sim.stopped:
        report["what_if"] = what_if(before, sim, described)
        lines += what_if_lines(report["what_if"])
    if compare and not sim.stopped:  # the same games on the ruleset alone, beside these
        base = load_with(name, root, []).spec
        alone = Request(name, root, (), players, tuple(kinds), seed, games,
                        tuple((k, v) for k, v in request.options if k in base.option_defaults),
                        search_iterations=iterations, search_think=think, greedy_lookahead=lookahead)
        base_sim = _simulated(alone, games, workers, cluster, "alone")
        if not base_sim.stopped:
            report["without_expansions"] = side_by_side(report, build_report(base_sim), sim, base_sim)
            report["base_title"] = base.title
            lines += comparison_lines(report["without_expansions"], base.title)
    try:  # what the run found first (a report that cannot be written still leaves it on the screen)...
        for line in lines:
            typer.echo(line)
    except OSError as err:  # ... and a summary that cannot be printed never loses the report
        if output_failed(err) and not sim.stopped and _write_report(out, report, spec.title):
            say(f"the summary cannot be printed; the report is written: {out / 'report.json'}, {out / 'report.html'}")
        raise
    if sim.stopped:  # a part of a run never replaces a report: the numbers above are all it gives
        kept = f"; {out} keeps the report it held" if (out / "report.json").exists() else ""
        fail(f"{sim.stopped}: {games - report['games']} of {games} games not played, no report written{kept}",
             130 if sim.stopped == "interrupted" else 1)
    if not _write_report(out, report, spec.title):
        raise typer.Exit(1)
    typer.echo(f"wrote {out / 'report.json'} and {out / 'report.html'}")


def _simulated(request: Request, games: int, workers: int, cluster: Optional[str], what: str) -> Any:
    """A simulation run with a progress bar (`what` names it); a usage problem exits 2,
    a game that cannot go on 1."""
    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=_stderr_console(), transient=False) as bar:
        task = bar.add_task(what, total=games)
        try:
            return run_simulation(request, workers, cluster, lambda done, _: bar.update(task, completed=done),
                                  lambda line: bar.console.print(line, highlight=False, markup=False))
        except SimulationError as err:
            failed = err
            bar.update(task, visible=False)  # the error is the last line, not a bar drawn after it
    fail_on(failed)


def _write_report(out: Path, report: dict[str, Any], title: str) -> bool:
    """Write report.json and report.html as one (pipeline/writes.py); a failure is said in
    words, the earlier report kept."""
    try:
        make_folder(out)
        write_files({out / "report.json": report_json(report), out / "report.html": report_html(report, title)})
    except WriteError as err:
        kept = f" ({out} keeps the report it held)" if (out / "report.json").exists() else ""
        typer.echo(f"error: the report is not written: {err}{kept}", err=True)
        return False
    return True


def _simulation_lines(report: dict[str, Any], sim: Any, request: Any, spec: Any, games: int,
                      shown: list[str], asked: list[str], loaded: Any) -> list[str]:
    """What `simulate` prints of a run: win rates by seat, the surest gaps, the actions
    each kind of seat chose, the items watched, branch coverage."""
    out: list[str] = []
    say = out.append
    run = report["run"]
    setup = "".join(f"; {k}={'yes' if v is True else 'no' if v is False else v}" for k, v in request.options)
    if report["search"]:
        setup += "; search: " + " or ".join(f"{v:,} {unit}" for v, unit in ((report["search"]["iterations"], "iterations"),
                                                                            (request.search_think, "s")) if v is not None)
    if report["greedy"] and request.greedy_lookahead is not None:  # asked
        setup += f"; greedy: lookahead {report['greedy']['lookahead']:,}"
    elif report["greedy"] and spec.greedy_lookahead is not None:  # the ruleset's own: said, as it is not the bot's 400
        setup += f"; greedy: lookahead {report['greedy']['lookahead']:,}, the ruleset's"
    say(("stopped, " if sim.stopped else "")
        + f"{report['games']} {'of ' + str(games) + ' ' if sim.stopped else ''}games of {spec.title} "
        f"({request.players} players: {', '.join(request.seats)}{setup}) on {run['where']} in "
        f"{run['seconds']:.1f} s ({_pace(run['games_per_s'])})")
    width = max([10] + [len(row["seat"]) for row in report["win_rate_by_seat"]])
    for row in report["win_rate_by_seat"]:
        say(f"  {row['seat']:<{width}} wins {100 * row['rate']:5.1f}%  (95% {100 * row['ci'][0]:.1f} to "
            f"{100 * row['ci'][1]:.1f}; fair share {100 * report['fair_share']:.0f}%)")
    if report.get("games_resorted"):
        say(f"  (turn positions are the turn order when the first turn began: the rules re-sorted it in "
            f"{report['games_resorted']} of {report['games']} games; report.html shows seats and positions)")
    gaps = [r for r in report["items"] if r["gap"] is not None and not r.get("little_data")][:3]
    if gaps:
        say("items with the surest win-rate gaps (players who had it minus those who did not):")
        out.extend(_gap_lines(gaps))
        many = report["multiple_comparisons"]
        say(f"  of {many['items_with_a_gap']} gaps, {many['intervals_excluding_zero']} intervals exclude 0 "
            f"(about {many['expected_by_chance']:.0f} would by chance); {many['survive_benjamini_hochberg']} "
            f"survive a Benjamini-Hochberg correction, {many['survive_holm']} a Holm correction")
    out.extend(actions_lines(report))
    cov = report["coverage"]
    if shown:
        rows = {r["id"]: r for r in report["items"]}
        say(f"{'your items' if not asked else 'items asked for'}:")
        gap_lines = dict(zip([i for i in shown if i in rows], _gap_lines([rows[i] for i in shown if i in rows])))
        for i in shown:  # each item's line, then the branches of its own effects that never ran
            say(gap_lines.get(i) or f"  {loaded.build.items[i][2].name} ({i}): never chosen or drawn in these games")
            for b in [b for b in cov["never_ran"] if f"`{i}` (" in b["in"]]:  # "KIND `ID` (NAME)": its own
                say(f"    never ran: {b['branch']} ({b['file']}:{b['line']}:{b['column']})")
    cannot = len(cov.get("cannot_run", []))
    say(f"branch coverage: {cov['ran']} of {cov['branches'] - cannot} branches that could run did; "
        f"{len(cov['never_ran'])} never did" + (f"; {cannot} cannot run under these options" if cannot else ""))
    if report["unfinished"]:
        say(f"warning: {report['unfinished']} games hit the turn limit before the end")
    return out


def _pace(games_per_s: float) -> str:
    """`22.7 games/s`, or for slow bots `29.0 s a game` (never `0.0 games/s`)."""
    if games_per_s >= 1 or games_per_s <= 0:
        return f"{games_per_s:.1f} games/s"
    return f"{1 / games_per_s:.1f} s a game"


def _gap_lines(rows: list[dict[str, Any]]) -> list[str]:
    """One line per item of a balance report: its win-rate gap with the interval and how
    many players chose it ("no winner either way" when every game went one way)."""
    width = max((len(f"{r['name']} ({r['id']})") for r in rows), default=0)
    lines = []
    for r in rows:
        drawn = r.get("basis") == "drawn"
        share = 100 * (r["drawn_rate"] if drawn else r["play_rate"])
        shown = f"{share:.1f}%" if share < 10 else f"{share:.0f}%"
        how = f"drawn in {shown} of games" if drawn else f"chosen by {shown} of players"
        label = f"{r['name']} ({r['id']})"
        if r["gap"] is None:
            why = "never chosen or drawn" if not share else "no one without it to compare" if share >= 100 else how
            lines.append(f"  {label:<{width}}  no gap to measure ({why})")
            continue
        mark = "; survives correction" if r.get("survives") else ""
        lines.append(f"  {label:<{width}}  {100 * r['gap']:+5.1f} points (95% {100 * r['gap_ci'][0]:+.1f} to "
                     f"{100 * r['gap_ci'][1]:+.1f}; {how}{mark})")
    return lines


@app.command()
def bench(
    as_json: bool = typer.Option(False, "--json", metavar="", help="Print one JSON object (every figure; null when unmeasured)."),
    quick: bool = typer.Option(False, "--quick", metavar="", help="Fewer games and repeats: to see that it works, not to compare."),
) -> None:
    """Measure the engine's speed figures on this machine, each beside its target.

    Games per second and µs per decision (Legacies and the Legacy card game, four
    random bots), cold `legacies validate` (the shipped content, and synthetic
    rulesets of 416 and 6,656 items: time and peak memory), the effect language's
    overhead over plain Python, clone, resuming a save, and two workers over one.
    Figures inside this process are CPU time; cold validates are wall time."""
    _services()
    console = _stderr_console()
    with console.status("measuring...") as status:
        figures = run_bench(quick, progress=lambda what: status.update(f"measuring: {what}"))
    if as_json:
        typer.echo(json.dumps({k: figures.get(k) for k in [*TARGETS, "details"]}, sort_keys=False))
        return

    table = Table(title="legacies bench" + (" --quick" if quick else ""), title_justify="left")
    for column in ("figure", "measured", "target", ""):
        table.add_column(column, justify="right" if column == "measured" else "left")
    for key, shown, target, verdict in table_rows(figures):
        style = {"met": "green", "missed": "red"}.get(verdict)
        table.add_row(key, shown, target, verdict, style=style)
    Console().print(table)
    if quick:
        typer.echo("(--quick: a few games and repeats, to see that it works; run without it for figures to compare)")
    details = figures["details"]
    notes = []
    if "clone" in details:
        c = details["clone"]
        notes.append(f"clone: {c['us']:.1f} µs at {c['decisions']} decisions, {c['us_at_100_decisions']:.1f} µs "
                     f"at 100 ({c['ruleset']})")
    if "resume" in details:
        r = details["resume"]
        notes.append(f"resume: a save of {r['decisions']} decisions ({r['ruleset']}); "
                     f"{r['ms_per_1000_decisions']:.0f} ms per 1,000 decisions replayed")
    if "effects" in details:
        e = details["effects"]
        worst = max(e["rows"], key=lambda row: row["ratio"])
        notes.append(f"effects: {e['effects']} effects; per effect, a geometric mean of {e['geomean']:.1f}x; the "
                     f"costliest against Python is `{worst['effect']}` ({worst['ratio']:.1f}x)")
    for note in notes:
        typer.echo(note)


def _stderr_console() -> Console:
    return Console(stderr=True)
