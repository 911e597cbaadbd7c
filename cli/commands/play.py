"""The commands that play one game: `legacies play` (a new game at the terminal: bots,
hot-seat humans and the seats the rules run), `resume` (a saved game played on) and
`replay` (a save shown decision by decision, verified, or its board at a decision).
`_play_on` plays a table to its end and keeps the game in its save file."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from ..common import (EXPANSION_HELP, SEED_HELP, debug_traceback, exists, fail, output_failed, read_save_or_fail, say,
                      short, table_seed, think_checked)

if TYPE_CHECKING:  # bound by _services() when a command runs: `play --help` imports none of them
    from legacies.agents.map_svg import save_map
    from legacies.agents.match import GameStopped, MatchResult, make_agent, play_match, replay_save, verify_save
    from legacies.cli.board import ROW_WIDTH, board_lines
    from legacies.cli.ruleset_args import default_ruleset, load_with, playable, ruleset_arg, saved_expansions, where_given
    from legacies.cli.scoring import add_breakdown, ended_note, final_score_lines, tie_break_note
    from legacies.cli.table_args import check_workers, known_seats, parse_options
    from legacies.cli.terminal import HumanAgent, PlayerQuit, ThinkingShown, continued_by, width
    from legacies.dsl.diagnostics import visible
    from legacies.interpreter.errors import CorruptSave, InternalError, TableError
    from legacies.interpreter.game import Game, GameState
    from legacies.pipeline import ruleset as loading  # by module: a test's stand-in for rulesets() is seen
    from legacies.pipeline.saves import read_save_file
    from legacies.pipeline.table import seat_table
    from legacies.pipeline.writes import WriteError, write_whole
    from legacies.view.cards import wrapped


def _services() -> None:
    """The services and helpers the commands call, imported when a command of this module
    runs: its `--help` (docs/speed.md, `help_s`) imports none of them. Each command calls
    it first."""
    from legacies.agents.map_svg import save_map
    from legacies.agents.match import GameStopped, MatchResult, make_agent, play_match, replay_save, verify_save
    from legacies.cli.board import ROW_WIDTH, board_lines
    from legacies.cli.ruleset_args import default_ruleset, load_with, playable, ruleset_arg, saved_expansions, where_given
    from legacies.cli.scoring import add_breakdown, ended_note, final_score_lines, tie_break_note
    from legacies.cli.table_args import check_workers, known_seats, parse_options
    from legacies.cli.terminal import HumanAgent, PlayerQuit, ThinkingShown, continued_by, width
    from legacies.dsl.diagnostics import visible
    from legacies.interpreter.errors import CorruptSave, InternalError, TableError
    from legacies.interpreter.game import Game, GameState
    from legacies.pipeline import ruleset as loading  # by module: a test's stand-in for rulesets() is seen
    from legacies.pipeline.saves import read_save_file
    from legacies.pipeline.table import seat_table
    from legacies.pipeline.writes import WriteError, write_whole
    from legacies.view.cards import wrapped

    globals().update(locals())


app = typer.Typer()


def check_save_path(path: Path) -> None:
    """Refuse a --save path that cannot be written, before the game starts (a finished
    game must never be lost to a bad path). Leaves no file behind."""
    if path.is_dir():
        fail(f"--save {path}: is a folder; give a file name")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        fail(f"--save {path}: no folder {folder}")
    existed = path.exists()
    if existed and not path.is_file():  # a FIFO, a device: opening it could block
        fail(f"--save {path}: not a regular file")
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as err:
        fail(f"--save {path}: cannot write there ({err.strerror or err})")
    if not existed:
        try:
            path.unlink()
        except OSError:
            pass


def _write_save(path: Path, text: str) -> bool:
    """Write a save whole (pipeline/writes.py); a failure is said in words, the earlier
    save kept."""
    try:
        write_whole(path, text, private=True)
    except WriteError as err:
        kept = "; the earlier save in it is kept" if path.is_file() else ""
        typer.echo(f"error: the game is not saved: {err}{kept}", err=True)
        return False
    return True


@app.command()
def play(
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH", show_default=False,
                                          help="Which ruleset to play: an installed one (see `legacies rulesets`) or "
                                               "a ruleset folder (rules/NAME, content/NAME); default: the one the "
                                               "--expansion extends, else legacies."),
    seat: List[str] = typer.Option([], "--seat", "-s", metavar="KIND", help="One per player, in turn order: human (you, "
                                   "at this terminal; one per person for hot-seat), random (any legal move), greedy (the "
                                   "move that leaves it best placed, one action ahead), rollout (random games to the end "
                                   "from each move), search (tree search over the worlds it cannot tell apart). "
                                   "KIND:NAME names the player (human:Ann). Default: you against three greedy bots "
                                   "(four random bots when the input is not a terminal)."),
    think: Optional[float] = typer.Option(None, "--think", metavar="SECONDS", callback=think_checked,
                                          help="How long a search bot thinks per decision, above 0 and at most 600 "
                                               "(default: a fixed 200 iterations, the same moves on every machine)."),
    search_workers: int = typer.Option(1, "--search-workers", metavar="N", min=1,
                                       help="Processes each search bot thinks in (its two trees at once: the same "
                                            "moves, sooner)."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="N", show_default=False, help=SEED_HELP),
    option: List[str] = typer.Option([], "--option", "-o", metavar="NAME=VALUE",
                                     help="Setup option NAME=VALUE (repeatable); `legacies rulesets` lists each "
                                          "ruleset's seats the rules run and options with names, and what they do."),
    as_json: bool = typer.Option(False, "--json", metavar="", help="Print one JSON object instead of the log."),
    save: Optional[Path] = typer.Option(None, "--save", metavar="FILE", help="Write a save file when the game ends or stops."),
    quiet: bool = typer.Option(False, "--quiet", "-q", metavar="", help="Only the final scores."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER",
                                         help=EXPANSION_HELP),
    fast: bool = typer.Option(False, "--fast", metavar="", help="Show the bots' moves at once (with a human "
                              "seated, they are shown at a pace a person can follow)."),
    plain: bool = typer.Option(False, "--plain", metavar="", help="Play in lines of text (for a screen reader, a "
                               "pipe or a log) instead of the full-screen table."),
) -> None:
    """Play a game in the terminal: bots, hot-seat humans and the seats the rules run.

    A ruleset may declare kinds of seats its rules run (`legacies rulesets` lists them
    with their options): `--seat KIND` adds one after the other seats, and what tunes
    them is a setup option (`--option NAME=VALUE`, a value the ruleset names or a number)."""
    _services()
    if not seat:
        seat = ["human", "greedy", "greedy", "greedy"] if sys.stdin.isatty() else ["random"] * 4
        if not sys.stdin.isatty() and not (as_json or quiet):
            typer.echo("(no terminal to play at: four random bots play)", err=True)
    seat, names = seat_names(list(seat))
    ruleset, root = ruleset_arg(default_ruleset(ruleset, expansion))
    loaded = load_with(ruleset, root, expansion)
    playable(loaded, ruleset, where_given(ruleset, root, expansion))

    options = parse_options(option)
    try:  # the table as asked: its seats and options (a usage problem when wrong)
        seat, names, options = seat_table(loaded.spec, seat, names, options)
        known_seats(loaded.spec, seat)
        game = Game(loaded.spec, len(seat), options, names)
    except TableError as err:
        fail(str(err))
        return
    except InternalError as err:  # the ruleset cannot be compiled: said, never a traceback
        debug_traceback(err)
        fail(f"the game cannot start: {err}; `legacies validate` shows where", 1)
        return
    if save is not None:
        check_save_path(save)
    seed = table_seed(seed, "human" in seat)
    try:
        first = game.new_state(seed)
    except InternalError as err:  # the setup fails (under these options): said and located, never a traceback
        debug_traceback(err)
        fail(f"the game stopped during its setup: {err}; `legacies validate` checks the setup under every option", 1)
        return
    check_workers(search_workers, "--search-workers")
    _play_on(loaded.spec, list(seat), seed, options, first, save, as_json, quiet, think, fast, root, search_workers,
             plain)


def seat_names(given: list[str]) -> tuple[list[str], list[str]]:
    """`--seat KIND[:NAME]` values: the kinds, and the players' names (P1, P2... unless
    named); a name used twice, empty or unreadable is a usage error."""
    kinds, names = [], []
    for i, value in enumerate(given):
        kind, _, name = value.partition(":")
        name = name.strip() or f"P{i + 1}"
        if len(name) > 24 or not name.isprintable():
            fail(f"--seat {short(value)}: a player's name is at most 24 printable characters")
        if name in names:
            fail(f"--seat {short(value)}: two players are called {name}")
        kinds.append(kind.strip())
        names.append(name)
    return kinds, names


def _fitted(line: str) -> list[str]:
    """A line of a game's log as printed: at a terminal, fitted to its width (broken
    between words); in a pipe or a file, whole."""
    return wrapped([line], width()) if sys.stdout.isatty() else [line]


def _echo_fitted(line: str) -> None:
    for part in _fitted(line):
        typer.echo(part)


def _play_on(spec: Any, seat: list[str], seed: int, options: dict[str, object], state: Any,
             save: Optional[Path], as_json: bool, quiet: bool, think: Optional[float], fast: bool = True,
             folder: Optional[str] = None, search_workers: int = 1, plain: bool = False) -> None:
    """Play a table to its end (a new game, or a resumed one), print the result, and keep
    the game in `save` when it ends or stops early. `folder`: the ruleset folder played
    from (what the save is replayed with), None for an installed ruleset. With a person
    seated at a terminal, the full-screen table (cli/tui/), unless `plain`."""
    humans = seat.count("human")
    if humans and not (plain or as_json or quiet) and full_screen_possible():
        result = _full_screen(spec, seat, seed, state, save, think, folder, search_workers)
        _print_result(result, seat, save, as_json, folder)
        return
    paced = humans > 0 and not fast and sys.stdout.isatty()

    def at_a_pace(line: str) -> None:  # a person follows the bots' moves as they happen
        typer.echo(line)
        time.sleep(0.15 if line.startswith("  ") and not line.startswith("  ·") else 0.05)

    shown = None if (as_json or quiet) else at_a_pace if paced else typer.echo
    said: list[str] = []  # the game's log as it was printed: a person's `log` key reads it

    def echo(line: str) -> None:
        said.append(line)
        if shown is not None:
            for part in _fitted(line):
                shown(part)

    def human(i: int) -> HumanAgent:
        return HumanAgent(i, save_path=save, hot_seat=humans > 1, seats=seat, folder=folder, log=said)

    try:
        ruled = {s.name for s in spec.seats}
        agents = [make_agent(kind, seed, i, human, think, ruled, search_workers) for i, kind in enumerate(seat)]
        if humans and sys.stderr.isatty():  # a person waits: say which bot is thinking, and for how long
            agents = [a if kind == "human" else ThinkingShown(a, f"{state.game.player_names[i]} ({kind})")
                      for i, (a, kind) in enumerate(zip(agents, seat))]
        result = play_match(spec, seat, seed, options, on_event=echo if humans or shown else None, state=state,
                            agents=agents)
    except ValueError as err:  # a seat kind that does not exist
        fail(str(err))
        return
    except PlayerQuit:
        typer.echo("you left the game", err=True)
        raise typer.Exit(0)
    except (EOFError, KeyboardInterrupt) as err:  # the player left: keep the game when asked to
        why = "end of input" if isinstance(err, EOFError) else "interrupted"
        if save is not None and _write_save(save, state.serialize(seats=seat)):
            fail(f"{why}: the game stopped before its end; saved to {save} ({continued_by(save, folder)})", 1)
        fail(f"{why}: the game stopped before its end", 1)
        return
    except InternalError as err:  # the game cannot go on: a bug in the content (or the engine), located
        note = ""
        if save is not None:
            choice = err.choice if isinstance(err, GameStopped) else None
            if _write_save(save, state.serialize(failure=(choice, str(err)), seats=seat)):
                again = f" --ruleset {folder}" if folder is not None else ""
                note = f"\nsaved to {save}: `legacies replay --verify {save}{again}` reproduces it"
        debug_traceback(err)
        fail(f"the game stopped on an internal error (the action was undone): {err}{note}", 1)
        return
    except OSError as err:  # the log cannot be written (a full disk, a closed pipe): the game is kept all the same
        if save is not None and output_failed(err) and _write_save(save, state.serialize(seats=seat)):
            say(f"the game stopped before its end: its output cannot be written; saved to {save} "
                f"({continued_by(save, folder)})")
        raise
    _print_result(result, seat, save, as_json, folder)


def full_screen_possible() -> bool:
    """A person is at a terminal the full-screen table can draw on."""
    import os

    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM", "") not in ("", "dumb")


def _full_screen(spec: Any, seat: list[str], seed: int, state: Any, save: Optional[Path], think: Optional[float],
                 folder: Optional[str], search_workers: int) -> MatchResult:
    """The game played at the full-screen table to its end, or until the person leaves (the
    game kept in `save` when given, as the line mode keeps it)."""
    from legacies.agents.session import TableSession
    from ..tui.app import TableApp

    try:
        session = TableSession(spec, seat, seed, state=state, think=think, search_workers=search_workers)
    except ValueError as err:  # a seat kind that does not exist
        fail(str(err))
        raise
    table = TableApp(session, save_path=save, folder=folder)
    table.run()
    if table.stopped is not None:
        note = ""
        if save is not None and _write_save(save, state.serialize(failure=(None, table.stopped), seats=seat)):
            again = f" --ruleset {folder}" if folder is not None else ""
            note = f"\nsaved to {save}: `legacies replay --verify {save}{again}` reproduces it"
        fail(f"the game stopped on an internal error (the action was undone): {table.stopped}{note}", 1)
    if not session.over:  # left (q, or the terminal's own quit key): a game --save promised to keep is kept
        if save is not None and not table.saved_here():
            _write_save(save, state.serialize(seats=seat))
        kept = f"; saved to {save} ({continued_by(save, folder)})" if save is not None and save.is_file() else ""
        if save is None and table.saved_to is not None and table.saved_to.is_file():  # saved at the table (s, or q y)
            when = "" if table.saved_at == len(state.st.history) else f" as it stood after decision {table.saved_at}"
            kept = f"; saved{when} to {table.saved_to} ({continued_by(table.saved_to, folder)})"
        typer.echo(f"you left the game{kept}", err=True)
        raise typer.Exit(0)
    names = [f"{state.game.player_names[i]} ({kind})" for i, kind in enumerate(seat)]
    return MatchResult(spec.name, seed, list(seat), names, state.scores(), state.winner(), [], [], state)


def _print_result(result: MatchResult, seat: list[str], save: Optional[Path], as_json: bool,
                  folder: Optional[str]) -> None:
    """The final scores (or the JSON), then the game kept in `save`."""
    def keep() -> bool:
        return save is None or result.state is None or _write_save(save, result.state.serialize(seats=seat))

    try:  # the result first: a save that cannot be written never loses it
        if as_json:
            typer.echo(json.dumps(add_breakdown(result.as_json(), result.state), sort_keys=True))
        else:
            typer.echo("")
            typer.echo("final scores:")
            typer.echo("\n".join(final_score_lines(result.state, result.names, result.scores)))
            typer.echo(f"winner: {result.names[result.winner]}")
            ended = ended_note(result.state) if result.state is not None else None
            if ended:
                typer.echo(ended)
            tie = tie_break_note(result.state) if result.state is not None else None
            if tie:
                typer.echo(tie)
    except OSError as err:  # ... and a result that cannot be printed never loses the save
        if output_failed(err) and save is not None and keep():
            again = f" --ruleset {folder}" if folder is not None else ""
            say(f"the result cannot be printed; the game is saved to {save} (`legacies replay {save}{again}` shows it)")
        raise
    if not keep():
        raise typer.Exit(1)


@app.command()
def resume(
    file: Path = typer.Argument(..., metavar="FILE", help="A save: `play --save`, or `save` typed during a game."),
    seat: List[str] = typer.Option([], "--seat", "-s", metavar="KIND",
                                   help="Who sits where now, one per player (default: as when it was saved)."),
    think: Optional[float] = typer.Option(None, "--think", metavar="SECONDS", callback=think_checked,
                                          help="How long a search bot thinks per decision (above 0, at most 600)."),
    save: Optional[Path] = typer.Option(None, "--save", metavar="FILE",
                                        help="Where to keep the game (default: the file it was resumed from)."),
    as_json: bool = typer.Option(False, "--json", metavar="", help="Print one JSON object instead of the log."),
    quiet: bool = typer.Option(False, "--quiet", "-q", metavar="", help="Only the final scores."),
    fast: bool = typer.Option(False, "--fast", metavar="", help="Show the bots' moves at once."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER",
                                        help=EXPANSION_HELP + " Default: the installed expansions the save names."),
    plain: bool = typer.Option(False, "--plain", metavar="", help="Play in lines of text instead of the "
                               "full-screen table."),
) -> None:
    """Continue a saved game: its decisions are replayed exactly, then play goes on."""
    _services()
    if not exists(file) and not os.path.lexists(file):  # a link to nothing (or in a loop) is read, and said why
        fail(f"no such save file: {file}")
    text, data = read_save_or_fail(file)  # sized before it is read
    if data["ruleset"] not in loading.rulesets():
        fail(f"{file} is a game of `{data['ruleset']}`, which is not installed", 1)
    loaded = load_with(data["ruleset"], None, list(expansion) or saved_expansions(data))
    playable(loaded, data["ruleset"], where_given(data["ruleset"], None, list(expansion) or saved_expansions(data)))
    from legacies.cli.table_args import saved_seats

    seats, wrong = saved_seats(loaded.spec, data, list(seat))
    if wrong:
        fail(f"{file}: {wrong}", 1)
    try:
        state = GameState.deserialize(loaded.spec, text)
    except CorruptSave as err:
        fail(f"{file}: {err}", 1)
        return
    if len(seats) != data["players"]:
        fail(f"the save is a {data['players']}-player game; give one --seat per player"
             + ("" if data.get("seats") else " (it does not record who sat where)"))
    if state.is_terminal():
        fail(f"{file} is a finished game: `legacies replay {file}` shows it", 1)
    if save is not None:  # as `play` does: a game is never played to be lost at its end
        check_save_path(save)
    typer.echo(f"resuming {file}: {len(state.st.history)} decisions replayed", err=True)
    _play_on(loaded.spec, seats, int(data["seed"]), dict(data["options"]), state, save or file, as_json, quiet, think,
             fast, plain=plain)


def _check_svg(spec: Any, svg: Path) -> None:
    """`replay --svg FILE`: the ruleset draws a map (`display: map:`) and FILE can be
    written (its folder exists, it is not a folder): a usage error before any replay."""
    from legacies.pipeline.writes import WriteError, check_folder

    if spec.map is None:
        fail(f"--svg: ruleset `{short(spec.name)}` draws no map (its `display:` has no `map:`)")
    try:
        if svg.is_dir():
            fail(f"--svg {short(str(svg), 200)}: a folder; give a file name (map.svg)")
        if not svg.parent.is_dir():
            fail(f"--svg {short(str(svg), 200)}: no folder {short(str(svg.parent), 200)} to write it in")
        check_folder(svg.parent)
    except WriteError as err:
        fail(f"--svg {short(str(svg), 200)}: {err}")
    except OSError as err:
        fail(f"--svg {short(str(svg), 200)}: {err.strerror or err}")


@app.command()
def replay(
    save: Path = typer.Argument(..., metavar="FILE", help="A save file written by `legacies play --save` or `legacies soak`."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH",
                                          help="Default: the installed ruleset the save names; or a ruleset folder."),
    verify: bool = typer.Option(False, "--verify", metavar="", help="Check every invariant after every decision (no log)."),
    to: Optional[int] = typer.Option(None, "--to", metavar="N", min=0,
                                     help="Stop after decision N (the log numbers them) and show the board there."),
    view: Optional[int] = typer.Option(None, "--as", metavar="SEAT", min=1,
                                       help="With --to or --svg: the board as this player (1-based) sees it "
                                            "(default: the player who decides next)."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER",
                                         help=EXPANSION_HELP),
    svg: Optional[Path] = typer.Option(None, "--svg", metavar="FILE",
                                       help="Also draw the map (a ruleset's `display: map:`) where the replay "
                                            "stops, as an SVG picture in FILE."),
) -> None:
    """Replay a saved game decision by decision, with its log; or verify it.

    Each decision is numbered; --to N stops after decision N and draws the board as it
    stood then (what the player to decide next could see, or --as SEAT's view); --svg
    FILE draws the map there too."""
    _services()
    try:
        text, data = read_save_file(save)  # sized before it is read
        name = data["ruleset"]
    except OSError as err:
        fail(f"cannot read {save}: {err.strerror or err}", 1)
        return
    except CorruptSave as err:
        fail(f"refused: {err}", 1)
        return
    if view is not None and view > data["players"]:
        fail(f"--as {view}: the game has {data['players']} players")
    if svg is not None and verify:
        fail("--svg draws the map where a replay stops; --verify shows no game")
    expansion = list(expansion) or saved_expansions(data)
    root = None
    if ruleset is not None:
        name, root = ruleset_arg(ruleset)
    elif name not in loading.rulesets():
        fail(f"the save is for ruleset `{short(name)}`, which is not installed (give its folder with --ruleset)", 1)
        return
    loaded = load_with(name, root, expansion)
    playable(loaded, name, where_given(name, root, expansion))
    from legacies.cli.table_args import saved_seats

    _, wrong = saved_seats(loaded.spec, data, [], how="")  # a save broken there is broken: never replayed
    if wrong:
        fail(f"refused: {wrong}", 1)
        return
    if svg is not None:  # what --svg needs, before the replay: a map to draw and a folder to write it in
        _check_svg(loaded.spec, svg)
    try:
        if verify:
            found = verify_save(loaded.spec, text)
        else:
            result = replay_save(loaded.spec, text, on_event=_echo_fitted, to=to)
    except CorruptSave as err:
        fail(f"refused: {err}", 1)
        return
    except InternalError as err:
        debug_traceback(err)
        fail(f"the replay stopped on an internal error: {err}", 1)
        return
    if svg is not None and result.state is not None:
        problem = save_map(result.state, view, svg)
        if problem is not None:
            fail(problem, 1)
    if verify:
        # a save's words are shown as a terminal may be sent them (an edited save could hold escapes)
        if found.failure:
            typer.echo(f"the save records a failure: {visible(found.failure)}")
        for number, problem in found.problems:
            typer.echo(visible(f"after decision {number}: {problem}" if number else f"at the start: {problem}"))
        if found.problems:
            fail(f"{len(found.problems)} problem(s) in {found.decisions} decisions", 1)
        typer.echo(f"verified: {found.decisions} decisions, every invariant holds")
        return
    if to is not None and result.state is not None and not result.state.is_terminal():
        shown = result.state
        decision = shown.decision
        viewer = view - 1 if view is not None else decision.player if decision is not None else 0
        typer.echo("")
        typer.echo(f"the board after decision {len(shown.st.history)}, as {shown.game.player_names[viewer]} sees it:")
        # at a terminal, fitted to its width as at the table; a pipe or a file gets whole lines
        typer.echo("\n".join(board_lines(shown, viewer, width() if sys.stdout.isatty() else ROW_WIDTH)))
        return
    if result.state is not None and result.state.is_terminal():
        typer.echo("")
        typer.echo("final scores:")
        typer.echo("\n".join(final_score_lines(result.state, result.names, result.scores)))

