"""The `legacies` command. Each command calls a service (pipeline.validate,
agents.match, pipeline.explain), renders its result as text, JSON or GitHub
annotations, and exits with a meaningful code: 0 ok, 1 problems found, 2 usage error.
No traceback reaches the user."""

from __future__ import annotations

import errno
import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Any, Callable, List, Optional, TypeVar

import typer

from .help_text import tidy

_T = TypeVar("_T")

_OUTPUT_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE)


def output_failed(err: OSError) -> bool:
    """Whether `err` is the command's output (standard output or error) that cannot be
    written: a full disk under a redirection, `> /dev/full`, a closed pipe. The files a
    command writes itself go through pipeline/writes.py and name their path."""
    return err.errno in _OUTPUT_ERRORS and err.filename is None and not isinstance(err, FileNotFoundError)


class _Legacies(typer.Typer):
    """The command. Output that cannot be written is said in words (on standard error,
    when that can be written) with exit 1, never a traceback; the commands that keep a
    user's work (a save, a report) write it first (`_kept_despite_output`)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except OSError as err:
            if not output_failed(err):
                raise
            from legacies.pipeline.writes import reason

            _debug_traceback(err)
            try:
                sys.stderr.write(f"error: the output cannot be written: {reason(err)}\n")
                sys.stderr.flush()
            except OSError:
                pass
            sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # nothing more at exit
            sys.exit(1)


app = _Legacies(add_completion=False, no_args_is_help=True,
                help="Legacies: a rules-as-data engine for board and card games.")


def _version_text() -> str:
    """The installed version ("" when run from a source tree without installing)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("legacies")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree without installing
        return ""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"legacies {_version_text() or '(not installed)'}")
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
    global _DEBUG
    _DEBUG = debug


_DEBUG = False  # `legacies --debug COMMAND`: internal errors print their traceback


def _debug_traceback(err: BaseException | None = None, text: str | None = None) -> None:
    """With --debug, the traceback of an internal error, on stderr."""
    if not _DEBUG:
        return
    if text is None and err is not None:
        from legacies.pipeline.internal_errors import traceback_text

        text = traceback_text(err)
    if text:
        typer.echo(text.rstrip("\n"), err=True)


class Format(str, Enum):
    text = "text"
    json = "json"
    github = "github"


class ValidateFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


EXPANSION_HELP = ("An expansion laid over the ruleset: an installed one by name, or a folder (repeatable, in order; "
                  "each comes after the expansions it requires).")


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _say(message: str) -> None:
    """A line on standard error when it can be written (it may be the output that failed)."""
    try:
        typer.echo(message, err=True)
    except OSError:
        pass


@app.command()
def validate(
    paths: List[str] = typer.Argument(None, metavar="PATH", help="Files or folders to check (default: every installed ruleset)."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH",
                                          help="Check only this ruleset: an installed one, or a ruleset folder (the "
                                               "same as giving the folder as PATH)."),
    format: ValidateFormat = typer.Option(ValidateFormat.text, "--format", "-f", metavar="FORMAT",
                                          help="text; json (every field, with the span's start and end); github "
                                               "(annotations); sarif (SARIF 2.1.0, for code scanning)."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER",
                                         help=EXPANSION_HELP + " The stack is checked as `play -x` loads it; "
                                              "a PATH, if given, is the ruleset folder under them."),
) -> None:
    """Check content and rules: every problem in every file, with file:line:column."""
    from legacies.pipeline.report import render_github, render_json, render_sarif, render_text
    from legacies.pipeline.validate import UsageError, validate as run

    paths = list(paths or [])
    if ruleset is not None and Path(ruleset).is_dir():  # a ruleset folder: checked as PATH is
        name, root = _ruleset_arg(ruleset)
        ruleset = name
        if not expansion:
            paths = [root or ruleset] + paths
        elif not paths:
            paths = [root or ruleset]
    try:
        result = run(paths, ruleset, tuple(expansion))
    except UsageError as err:
        _fail(str(err))
        return
    if format == ValidateFormat.json:
        typer.echo(render_json(result.diagnostics))
    elif format == ValidateFormat.sarif:
        typer.echo(render_sarif(result.diagnostics, _version_text()))
    elif format == ValidateFormat.github:
        out = render_github(result.diagnostics)
        if out:
            typer.echo(out)
    else:
        typer.echo(render_text(result.diagnostics, result.sources, checked=result.files))
    for d in result.diagnostics:
        _debug_traceback(text=d.detail)
    raise typer.Exit(0 if result.ok else 1)


def _parse_options(items: list[str]) -> dict[str, object]:
    """`--option NAME=VALUE`: a number, yes/no, or a name (an option whose values the
    ruleset names, checked with the table: pipeline/table.py)."""
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
                out[key] = value.strip()
    return out


def _known_seats(spec: Any, seats: list[str]) -> None:
    """Every seat kind is a person's, a bot's or one the ruleset declares."""
    from legacies.agents.bots import BOTS
    from legacies.interpreter.errors import TableError

    ruled = [s.name for s in spec.seats]
    for kind in seats:
        if kind != "human" and kind not in BOTS and kind not in ruled:
            raise TableError(f"--seat {_short(kind)}: choose from human, {', '.join(BOTS)}"
                             + (f" or the seats {spec.title}'s rules run: {', '.join(ruled)}" if ruled else ""))


def _check_save_path(path: Path) -> None:
    """Refuse a --save path that cannot be written, before the game starts (a finished
    game must never be lost to a bad path). Leaves no file behind."""
    if path.is_dir():
        _fail(f"--save {path}: is a folder; give a file name")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        _fail(f"--save {path}: no folder {folder}")
    existed = path.exists()
    if existed and not path.is_file():  # a FIFO, a device: opening it could block
        _fail(f"--save {path}: not a regular file")
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as err:
        _fail(f"--save {path}: cannot write there ({err.strerror or err})")
    if not existed:
        try:
            path.unlink()
        except OSError:
            pass


def _think(value: Optional[float]) -> Optional[float]:
    """`--think`: a finite number of seconds above 0, at most agents.bots.MAX_THINK."""
    from legacies.agents.bots import think_problem

    problem = think_problem(value) if value is not None else None
    if problem:
        raise typer.BadParameter(problem.removeprefix("--think "))
    return value


def _iterations(value: Optional[int]) -> Optional[int]:
    """`--iterations`: a whole number from 1 to agents.bots.MAX_ITERATIONS."""
    from legacies.agents.bots import iterations_problem

    problem = iterations_problem(value) if value is not None else None
    if problem:
        raise typer.BadParameter(problem.removeprefix("--iterations "))
    return value


def _games(value: int, command: str) -> int:
    """`--games`: at least 1, at most what the command can keep (agents/soak.py's and
    agents/simulate.py's MAX_GAMES): a usage error, never a list of a quintillion games."""
    if command == "soak":
        from legacies.agents.soak import MAX_GAMES
    else:
        from legacies.agents.simulate import MAX_GAMES
    if not 1 <= value <= MAX_GAMES:
        raise typer.BadParameter(f"takes 1 to {MAX_GAMES:,} games, not {value}")
    return value


def _write_save(path: Path, text: str) -> bool:
    """Write a save whole (pipeline/writes.py); a failure is said in words, the earlier
    save kept."""
    from legacies.pipeline.writes import WriteError, write_whole

    try:
        write_whole(path, text)
    except WriteError as err:
        kept = "; the earlier save in it is kept" if path.is_file() else ""
        typer.echo(f"error: the game is not saved: {err}{kept}", err=True)
        return False
    return True


@app.command()
def play(
    ruleset: str = typer.Option("legacies", "--ruleset", "-r", metavar="NAME|PATH",
                                help="Which ruleset to play: an installed one (see `legacies rulesets`) or a ruleset "
                                     "folder (rules/NAME, content/NAME)."),
    seat: List[str] = typer.Option([], "--seat", "-s", metavar="KIND", help="One per player, in turn order: human (you, "
                                   "at this terminal; one per person for hot-seat), random (any legal move), greedy (the "
                                   "move that leaves it best placed, one action ahead), rollout (random games to the end "
                                   "from each move), search (tree search over the worlds it cannot tell apart). "
                                   "KIND:NAME names the player (human:Ann). Default: you against three greedy bots "
                                   "(four random bots when the input is not a terminal)."),
    think: Optional[float] = typer.Option(None, "--think", metavar="SECONDS", callback=_think,
                                          help="How long a search bot thinks per decision, above 0 and at most 600 "
                                               "(default: a fixed 200 iterations, the same moves on every machine)."),
    search_workers: int = typer.Option(1, "--search-workers", metavar="N", min=1,
                                       help="Processes each search bot thinks in (its two trees at once: the same "
                                            "moves, sooner)."),
    seed: int = typer.Option(0, "--seed", metavar="N", help="Same seed and decisions give the same game."),
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
) -> None:
    """Play a game in the terminal: bots, hot-seat humans and the seats the rules run.

    A ruleset may declare kinds of seats its rules run (`legacies rulesets` lists them
    with their options): `--seat KIND` adds one after the other seats, and what tunes
    them is a setup option (`--option NAME=VALUE`, a value the ruleset names or a number)."""
    from legacies.interpreter.errors import InternalError, TableError
    from legacies.pipeline.table import seat_table

    if not seat:
        seat = ["human", "greedy", "greedy", "greedy"] if sys.stdin.isatty() else ["random"] * 4
        if not sys.stdin.isatty() and not (as_json or quiet):
            typer.echo("(no terminal to play at: four random bots play)", err=True)
    seat, names = _seats(list(seat))
    ruleset, root = _ruleset_arg(ruleset)
    loaded = _load_with(ruleset, root, expansion)
    if loaded.spec is None:
        where = " ".join(str(x) for x in expansion) if expansion else root if root is not None \
            else f"--ruleset {ruleset}"
        _fail(f"ruleset `{ruleset}` has content errors; run `legacies validate {where}`", 1)
        return
    from legacies.interpreter.game import Game

    options = _parse_options(option)
    try:  # the table as asked: its seats and options (a usage problem when wrong)
        seat, names, options = seat_table(loaded.spec, seat, names, options)
        _known_seats(loaded.spec, seat)
        game = Game(loaded.spec, len(seat), options, names)
    except TableError as err:
        _fail(str(err))
        return
    except InternalError as err:  # the ruleset cannot be compiled: said, never a traceback
        _debug_traceback(err)
        _fail(f"the game cannot start: {err}; `legacies validate` shows where", 1)
        return
    if save is not None:
        _check_save_path(save)
    try:
        first = game.new_state(seed)
    except InternalError as err:  # the setup fails (under these options): said and located, never a traceback
        _debug_traceback(err)
        _fail(f"the game stopped during its setup: {err}; `legacies validate` checks the setup under every option", 1)
        return
    _check_workers(search_workers)
    _play_on(loaded.spec, list(seat), seed, options, first, save, as_json, quiet, think, fast, root, search_workers)


def _seats(given: list[str]) -> tuple[list[str], list[str]]:
    """`--seat KIND[:NAME]` values: the kinds, and the players' names (P1, P2... unless
    named); a name used twice, empty or unreadable is a usage error."""
    kinds, names = [], []
    for i, value in enumerate(given):
        kind, _, name = value.partition(":")
        name = name.strip() or f"P{i + 1}"
        if len(name) > 24 or not name.isprintable():
            _fail(f"--seat {_short(value)}: a player's name is at most 24 printable characters")
        if name in names:
            _fail(f"--seat {_short(value)}: two players are called {name}")
        kinds.append(kind.strip())
        names.append(name)
    return kinds, names


def _fitted(line: str) -> list[str]:
    """A line of a game's log as printed: at a terminal, fitted to its width (broken
    between words); in a pipe or a file, whole."""
    from .cards import wrapped
    from .terminal import width

    return wrapped([line], width()) if sys.stdout.isatty() else [line]


def _echo_fitted(line: str) -> None:
    for part in _fitted(line):
        typer.echo(part)


def _play_on(spec: Any, seat: list[str], seed: int, options: dict[str, object], state: Any,
             save: Optional[Path], as_json: bool, quiet: bool, think: Optional[float], fast: bool = True,
             folder: Optional[str] = None, search_workers: int = 1) -> None:
    """Play a table to its end (a new game, or a resumed one), print the result, and keep
    the game in `save` when it ends or stops early. `folder`: the ruleset folder played
    from (what the save is replayed with), None for an installed ruleset."""
    import time

    from legacies.agents.match import GameStopped, make_agent, play_match
    from legacies.interpreter.errors import InternalError

    from .terminal import HumanAgent, PlayerQuit, ThinkingShown, continued_by

    humans = seat.count("human")
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
        _fail(str(err))
        return
    except PlayerQuit:
        typer.echo("you left the game", err=True)
        raise typer.Exit(0)
    except (EOFError, KeyboardInterrupt) as err:  # the player left: keep the game when asked to
        why = "end of input" if isinstance(err, EOFError) else "interrupted"
        if save is not None and _write_save(save, state.serialize(seats=seat)):
            _fail(f"{why}: the game stopped before its end; saved to {save} ({continued_by(save, folder)})", 1)
        _fail(f"{why}: the game stopped before its end", 1)
        return
    except InternalError as err:  # the game cannot go on: a bug in the content (or the engine), located
        note = ""
        if save is not None:
            choice = err.choice if isinstance(err, GameStopped) else None
            if _write_save(save, state.serialize(failure=(choice, str(err)), seats=seat)):
                again = f" --ruleset {folder}" if folder is not None else ""
                note = f"\nsaved to {save}: `legacies replay --verify {save}{again}` reproduces it"
        _debug_traceback(err)
        _fail(f"the game stopped on an internal error (the action was undone): {err}{note}", 1)
        return
    except OSError as err:  # the log cannot be written (a full disk, a closed pipe): the game is kept all the same
        if save is not None and output_failed(err) and _write_save(save, state.serialize(seats=seat)):
            _say(f"the game stopped before its end: its output cannot be written; saved to {save} "
                 f"({continued_by(save, folder)})")
        raise
    from .scoring import add_breakdown, final_score_lines

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
            _say(f"the result cannot be printed; the game is saved to {save} (`legacies replay {save}{again}` shows it)")
        raise
    if not keep():
        raise typer.Exit(1)


def ended_note(state: Any) -> str | None:
    """How the rules ended the game (`end the game`), in words; None when it ended as usual."""
    if state.st.ending is None:
        return None
    reason = state.end_reason()
    how = "the rules named the winner" if state.winner_named() else "the rules ended the game; the ranking decides"
    return f"{how}" + (f": {reason}" if reason else "")


def tie_break_note(state: Any) -> str | None:
    """How a tie on the score was broken, in words: the ruleset's tie-break that
    separated the players tied first, or turn order; None when nobody tied the winner (or the rules
    named the winner)."""
    from legacies.dsl.renderer import Wording, render_expr

    if state.winner_named():
        return None
    ranking = state.ranking()
    if len(ranking) < 2:
        return None
    first, second = state.rank_key(ranking[0]), state.rank_key(ranking[1])
    if first[0] != second[0]:
        return None
    spec = state.game.spec
    for i, expr in enumerate(spec.tie_breaks, 1):
        if first[i] != second[i]:
            words = render_expr(expr, Wording.of(spec.vocab))
            return f"tie on the score broken by {words}: {-first[i]} against {-second[i]}"
    return "tie on the score (and every tie-break) broken by turn order: the earlier player wins"


@app.command()
def resume(
    file: Path = typer.Argument(..., metavar="FILE", help="A save: `play --save`, or `save` typed during a game."),
    seat: List[str] = typer.Option([], "--seat", "-s", metavar="KIND",
                                   help="Who sits where now, one per player (default: as when it was saved)."),
    think: Optional[float] = typer.Option(None, "--think", metavar="SECONDS", callback=_think,
                                          help="How long a search bot thinks per decision (above 0, at most 600)."),
    save: Optional[Path] = typer.Option(None, "--save", metavar="FILE",
                                        help="Where to keep the game (default: the file it was resumed from)."),
    as_json: bool = typer.Option(False, "--json", metavar="", help="Print one JSON object instead of the log."),
    quiet: bool = typer.Option(False, "--quiet", "-q", metavar="", help="Only the final scores."),
    fast: bool = typer.Option(False, "--fast", metavar="", help="Show the bots' moves at once."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER",
                                        help=EXPANSION_HELP + " Default: the installed expansions the save names."),
) -> None:
    """Continue a saved game: its decisions are replayed exactly, then play goes on."""
    from legacies.interpreter.errors import CorruptSave
    from legacies.interpreter.game import GameState
    from legacies.pipeline.ruleset import load_ruleset, rulesets
    from legacies.pipeline.saves import read_save_file

    if not file.exists():
        _fail(f"no such save file: {file}")
    try:
        text, data = read_save_file(file)  # sized before it is read
    except OSError as err:
        _fail(f"cannot read {file}: {err.strerror or err}")
        return
    except CorruptSave as err:
        _fail(f"{file}: {err}", 1)
        return
    if data["ruleset"] not in rulesets():
        _fail(f"{file} is a game of `{data['ruleset']}`, which is not installed", 1)
    loaded = _load_with(data["ruleset"], None, list(expansion) or _saved_expansions(data))
    if loaded.spec is None:
        _fail(f"ruleset `{data['ruleset']}` has content errors; run `legacies validate --ruleset {data['ruleset']}`", 1)
        return
    try:
        state = GameState.deserialize(loaded.spec, text)
    except CorruptSave as err:
        _fail(f"{file}: {err}", 1)
        return
    seats = list(seat) or list(data.get("seats") or [])
    if len(seats) != data["players"]:
        _fail(f"the save is a {data['players']}-player game; give one --seat per player"
              + ("" if data.get("seats") else " (it does not record who sat where)"))
    if state.is_terminal():
        _fail(f"{file} is a finished game: `legacies replay {file}` shows it", 1)
    typer.echo(f"resuming {file}: {len(state.st.history)} decisions replayed", err=True)
    _play_on(loaded.spec, seats, int(data["seed"]), dict(data["options"]), state, save or file, as_json, quiet, think,
             fast)


@app.command()
def replay(
    save: Path = typer.Argument(..., metavar="FILE", help="A save file written by `legacies play --save` or `legacies soak`."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH",
                                          help="Default: the installed ruleset the save names; or a ruleset folder."),
    verify: bool = typer.Option(False, "--verify", metavar="", help="Check every invariant after every decision (no log)."),
    to: Optional[int] = typer.Option(None, "--to", metavar="N", min=0,
                                     help="Stop after decision N (the log numbers them) and show the board there."),
    view: Optional[int] = typer.Option(None, "--as", metavar="SEAT", min=1,
                                       help="With --to: the board as this player (1-based) sees it (default: the "
                                            "player who decides next)."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER",
                                         help=EXPANSION_HELP),
) -> None:
    """Replay a saved game decision by decision, with its log; or verify it.

    Each decision is numbered; --to N stops after decision N and draws the board as it
    stood then (what the player to decide next could see, or --as SEAT's view)."""
    from legacies.agents.match import replay_save, verify_save
    from legacies.interpreter.errors import CorruptSave, InternalError
    from legacies.pipeline.ruleset import rulesets
    from legacies.pipeline.saves import read_save_file

    try:
        text, data = read_save_file(save)  # sized before it is read
        name = data["ruleset"]
    except OSError as err:
        _fail(f"cannot read {save}: {err.strerror or err}", 1)
        return
    except CorruptSave as err:
        _fail(f"refused: {err}", 1)
        return
    if view is not None and view > data["players"]:
        _fail(f"--as {view}: the game has {data['players']} players")
    expansion = list(expansion) or _saved_expansions(data)
    root = None
    if ruleset is not None:
        name, root = _ruleset_arg(ruleset)
    elif name not in rulesets():
        _fail(f"the save is for ruleset `{_short(name)}`, which is not installed (give its folder with --ruleset)", 1)
        return
    loaded = _load_with(name, root, expansion)
    if loaded.spec is None:
        _fail(f"ruleset `{name}` has content errors; run `legacies validate {root or '--ruleset ' + name}`", 1)
        return
    try:
        if verify:
            found = verify_save(loaded.spec, text)
        else:
            result = replay_save(loaded.spec, text, on_event=_echo_fitted, to=to)
    except CorruptSave as err:
        _fail(f"refused: {err}", 1)
        return
    except InternalError as err:
        _debug_traceback(err)
        _fail(f"the replay stopped on an internal error: {err}", 1)
        return
    if verify:
        if found.failure:
            typer.echo(f"the save records a failure: {found.failure}")
        for number, problem in found.problems:
            typer.echo(f"after decision {number}: {problem}" if number else f"at the start: {problem}")
        if found.problems:
            _fail(f"{len(found.problems)} problem(s) in {found.decisions} decisions", 1)
        typer.echo(f"verified: {found.decisions} decisions, every invariant holds")
        return
    if to is not None and result.state is not None and not result.state.is_terminal():
        from .board import ROW_WIDTH, board_lines
        from .terminal import width

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
        from .scoring import final_score_lines

        typer.echo("\n".join(final_score_lines(result.state, result.names, result.scores)))


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
) -> None:
    """Play many seeded random games checking every invariant after every decision."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from legacies.agents.soak import SoakError, run_soak, soak_tables
    from legacies.pipeline.ruleset import rulesets

    installed = rulesets()
    unknown = [r for r in ruleset if r not in installed]
    if unknown:
        _fail(f"unknown ruleset `{unknown[0]}`; installed: {', '.join(installed)}")
    tables, broken = soak_tables(list(ruleset) or installed, players)
    for name in broken:
        typer.echo(f"error: ruleset `{name}` has content errors; run `legacies validate --ruleset {name}`", err=True)
    if not tables:
        _fail("nothing to play" + (f": no ruleset takes {players} players" if players is not None else ""),
              1 if broken else 2)
    _check_workers(workers)
    _check_out(out)
    names = sorted({t[0] for t in tables})
    columns = (TextColumn("soak"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[failures]} failures"),
               TimeElapsedColumn())
    with Progress(*columns, console=_stderr_console(), transient=False) as bar:
        task = bar.add_task("soak", total=games, failures=0)
        try:
            result = run_soak(games, tables, seed, workers, max_decisions, out,
                              lambda done, failures, _: bar.update(task, completed=done, failures=failures))
        except SoakError as err:
            _fail(str(err), 1)
            return
    for f, path in zip(result.failures, result.saved):
        again = (f"legacies replay --verify {path}" if isinstance(path, Path) else
                 f"legacies soak --ruleset {f.ruleset} --players {f.players} --seed {f.seed} --games 1 (not saved: "
                 f"{path})")
        typer.echo(f"FAIL {f.ruleset} {f.players}p seed {f.seed}: {_short(f.message, 300)}\n  reproduce: {again}")
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


def _check_workers(workers: int) -> None:
    from legacies.agents.processes import workers_refused

    refused = workers_refused(workers)
    if refused:
        _fail(refused)


def _check_out(folder: Path) -> None:
    """Refuse, before any game, an output folder nothing could be written into."""
    from legacies.pipeline.writes import WriteError, check_folder

    try:
        check_folder(folder)
    except WriteError as err:
        _fail(f"--out {folder}: nothing could be written there: {err.why}")


@app.command()
def simulate(
    out: Path = typer.Option(..., "--out", metavar="FOLDER", help="Where report.json and report.html are written."),
    ruleset: str = typer.Option("legacies", "--ruleset", "-r", metavar="NAME|PATH",
                                help="The ruleset: an installed one or a ruleset folder."),
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
    iterations: Optional[int] = typer.Option(None, "--iterations", metavar="N", callback=_iterations,
                                             help="Iterations a search seat runs per decision, 1 to 100,000 "
                                                  "(default: 200, about 2 minutes of CPU a Legacies game)."),
    think: Optional[float] = typer.Option(None, "--think", metavar="SECONDS", callback=_think,
                                          help="Seconds a search seat thinks per decision, above 0 and at most 600 "
                                               "(the moves then depend on the machine: a run does not repeat "
                                               "exactly); with --iterations, whichever ends first."),
) -> None:
    """Play many seeded bot games and write a balance report (report.json, report.html).

    Win rates by seat, turn position and starting choice with 95% intervals; scores and
    game length; for every item the win rate of players who chose it against those who
    did not, largest gaps first; and the branches of the rules and content no game ran.
    The same seeds give the same numbers with any --workers or on a --cluster."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from legacies.agents.report import build_report
    from legacies.agents.simulate import Request, SimulationError
    from legacies.agents.simulate import simulate as run_simulation

    name, root = _ruleset_arg(ruleset)
    loaded = _load_with(name, root, expansion)
    if loaded.spec is None:
        where = " ".join(str(x) for x in expansion) if expansion else root if root is not None else f"--ruleset {name}"
        _fail(f"ruleset `{name}` has content errors; run `legacies validate {where}`", 1)
        return
    spec = loaded.spec
    unknown = [i for i in item if i not in loaded.build.items]
    if unknown:
        _fail(f"--item {_short(unknown[0])}: no such item in {spec.title}")
    shown = list(item) or ([i for i in loaded.build.items if i not in _load_with(name, root, []).build.items]
                           if expansion else [])
    ruled = {k.name for k in spec.seats}
    given_ruled = [s for s in seat if s in ruled]
    if players is None:
        players = len(seat) if given_ruled else max(len(seat), min(max(4, spec.min_players), spec.max_players))
    if not 1 <= players <= spec.max_players:  # (before a list of that many seats is made)
        _fail(f"{spec.title} is for {spec.min_players}-{spec.max_players} players, not {players}")
    if len(seat) > players:
        _fail(f"{len(seat)} seats for {players} players")
    if cluster is not None:
        from legacies.agents.cluster import address_problem

        problem = address_problem(cluster)
        if problem:
            _fail(problem)
    else:
        _check_workers(workers)
    _check_out(out)  # before the games: a report with nowhere to go would be lost
    kinds = [s for s in seat if s not in ruled] + ["random"] * (players - len(seat)) + given_ruled
    from legacies.interpreter.errors import TableError
    from legacies.pipeline.table import seat_table

    try:  # the seats the rules run sit after the bots, as in `legacies play`
        kinds, _, options = seat_table(spec, kinds, [f"P{i + 1}" for i in range(len(kinds))], _parse_options(option))
        _known_seats(spec, kinds)
    except TableError as err:
        _fail(str(err))
        return
    players = len(kinds)
    request = Request(name, root, tuple(str(x) for x in expansion), players, tuple(kinds), seed, games,
                      tuple(sorted((k, v) for k, v in options.items() if spec.option_defaults.get(k) != v)),
                      search_iterations=iterations, search_think=think)
    columns = (TextColumn("simulate"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=_stderr_console(), transient=False) as bar:
        task = bar.add_task("simulate", total=games)
        try:
            sim = run_simulation(request, workers, cluster, lambda done, _: bar.update(task, completed=done),
                                 lambda line: bar.console.print(line, highlight=False, markup=False))
        except SimulationError as err:
            _fail(str(err), 2 if err.usage else 1)
            return
    if sim.stopped and not sim.records:
        _fail(f"{sim.stopped}; no game had finished: no report written", 130 if sim.stopped == "interrupted" else 1)
    report = build_report(sim)
    lines = _simulation_lines(report, sim, request, spec, games, shown, list(item), loaded)
    try:  # what the run found first (a report that cannot be written still leaves it on the screen)...
        for line in lines:
            typer.echo(line)
    except OSError as err:  # ... and a summary that cannot be printed never loses the report
        if output_failed(err) and not sim.stopped and _write_report(out, report, spec.title):
            _say(f"the summary cannot be printed; the report is written: {out / 'report.json'}, {out / 'report.html'}")
        raise
    if sim.stopped:  # a part of a run never replaces a report: the numbers above are all it gives
        kept = f"; {out} keeps the report it held" if (out / "report.json").exists() else ""
        _fail(f"{sim.stopped}: {games - report['games']} of {games} games not played, no report written{kept}",
              130 if sim.stopped == "interrupted" else 1)
    if not _write_report(out, report, spec.title):
        raise typer.Exit(1)
    typer.echo(f"wrote {out / 'report.json'} and {out / 'report.html'}")


def _write_report(out: Path, report: dict[str, Any], title: str) -> bool:
    """Write report.json and report.html as one (pipeline/writes.py); a failure is said in
    words, the earlier report kept."""
    from legacies.agents.report import report_html, report_json
    from legacies.pipeline.writes import WriteError, make_folder, write_files

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
    from legacies.agents.report import actions_lines

    out: list[str] = []
    say = out.append
    run = report["run"]
    setup = "".join(f"; {k}={'yes' if v is True else 'no' if v is False else v}" for k, v in request.options)
    if report["search"]:
        setup += "; search: " + " or ".join(f"{v:,} {unit}" for v, unit in ((report["search"]["iterations"], "iterations"),
                                                                            (request.search_think, "s")) if v is not None)
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
    gaps = [r for r in report["items"] if r["gap"] is not None][:3]
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
        out.extend(_gap_lines([rows[i] for i in shown if i in rows]))
        for i in shown:
            if i not in rows:
                say(f"  {loaded.build.items[i][2].name} ({i}): never chosen or drawn in these games")
            for b in [b for b in cov["never_ran"] if b["in"].endswith(f"`{i}`)")]:
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
    from legacies.agents.bench import TARGETS, run_bench, table_rows

    console = _stderr_console()
    with console.status("measuring...") as status:
        figures = run_bench(quick, progress=lambda what: status.update(f"measuring: {what}"))
    if as_json:
        typer.echo(json.dumps({k: figures.get(k) for k in [*TARGETS, "details"]}, sort_keys=False))
        return
    from rich.console import Console
    from rich.table import Table

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


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


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
    from legacies.pipeline.explain import ExplainError, explain as run
    from legacies.pipeline.ruleset import ExpansionError

    root = _folder(path)
    if ruleset is not None and root is None and Path(ruleset).is_dir():
        ruleset, root = _ruleset_arg(ruleset)
    ruleset = _expanded_ruleset(ruleset, root, expansion)
    try:
        text = run(item, ruleset, show_ast, root, tuple(expansion))
    except (ExplainError, ExpansionError) as err:
        _fail(str(err))
        return
    typer.echo(text)


def _expanded_ruleset(ruleset: Optional[str], root: Optional[str], expansions: List[str]) -> Optional[str]:
    """The ruleset `--expansion` is laid over (pipeline/ruleset_choice.py)."""
    from legacies.pipeline.ruleset_choice import expanded_ruleset

    return _chosen(expanded_ruleset, ruleset, root, expansions)


def _chosen(choose: Callable[..., _T], *args: Any) -> _T:
    """What a function of pipeline/ruleset_choice.py chooses; its UsageError a usage
    error (exit 2)."""
    from legacies.pipeline.validate import UsageError

    try:
        return choose(*args)
    except UsageError as err:
        _fail(str(err))
        raise AssertionError from err  # pragma: no cover - _fail exits


def _saved_expansions(data: dict[str, Any]) -> List[str]:
    """The expansions a save was played with, by name (laid again when none is given);
    one that is not installed must be given as a folder."""
    from legacies.pipeline.stack import installed_expansions

    names = [x["name"] for x in data.get("expansions", [])]
    installed = {e.name for e in installed_expansions()}
    for name in names:
        if name not in installed:
            _fail(f"the game was played with the expansion `{_short(name)}`, which is not installed: give its "
                  "folder with --expansion FOLDER", 1)
    return names


def _load_with(name: str, root: Optional[str], expansions: List[str]) -> Any:
    """load_ruleset with the expansions laid over it (pipeline/ruleset_choice.py)."""
    from legacies.pipeline.ruleset_choice import load_with

    return _chosen(load_with, name, root, expansions)


def _ruleset_arg(value: str) -> tuple[str, Optional[str]]:
    """`--ruleset NAME|PATH` as (name, folder or None) (pipeline/ruleset_choice.py)."""
    from legacies.pipeline.ruleset_choice import ruleset_arg

    return _chosen(ruleset_arg, value)


def _folder(path: Optional[Path]) -> Optional[str]:
    """A ruleset folder named on the command line, checked (pipeline/ruleset_choice.py)."""
    from legacies.pipeline.ruleset_choice import checked_folder

    return _chosen(checked_folder, path)


@app.command()
def content(
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH",
                                          help="Only this ruleset: installed, or a ruleset folder."),
    kind: Optional[str] = typer.Option(None, "--kind", "-k", metavar="KIND", help="Only this kind (its name or plural)."),
    path: Optional[Path] = typer.Option(None, "--path", "-p", metavar="FOLDER",
                                        help="A ruleset folder on disk (rules/NAME and content/NAME inside)."),
    as_json: bool = typer.Option(False, "--json", metavar="", help="A JSON list of {ruleset, id, kind, name, the "
                                                       "ruleset's content columns, file, line}."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER", help=EXPANSION_HELP),
) -> None:
    """List the content: id, kind, name, the ruleset's content columns (Legacies: the
    era), file and line of every item."""
    from legacies.pipeline.content import ContentError, content_rows
    from legacies.pipeline.explain import folder_rulesets
    from legacies.pipeline.ruleset import ExpansionError

    root = _folder(path)
    if ruleset is not None and root is None and Path(ruleset).is_dir():
        ruleset, root = _ruleset_arg(ruleset)
    ruleset = _expanded_ruleset(ruleset, root, expansion)
    try:
        if root is not None and ruleset is None:
            rows = [row for name in folder_rulesets(root) for row in content_rows(name, kind, root)]
        else:
            rows = content_rows(ruleset, kind, root, tuple(expansion))
    except (ContentError, ExpansionError) as err:
        _fail(str(err))
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
    from legacies.agents.trial import Scenario, TrialError, run_trial
    from legacies.pipeline.ruleset import rulesets

    if scenario is not None and not scenario.exists():  # (a FIFO or a device: refused unread below, F006)
        _fail(f"--scenario {scenario}: no such file")
    try:
        plan = Scenario.read(scenario) if scenario is not None else Scenario()
    except TrialError as err:
        _fail(str(err))
        return
    for value, attr in ((seat, "seat"), (seed, "seed"), (players, "players"), (play, "play")):
        if value is not None:
            setattr(plan, attr, value)
    answers: list[int] = []
    for part in (choose or "").replace(" ", "").split(","):
        if part:
            if not part.isdigit() or int(part) < 1:
                _fail(f"--choose takes option numbers from 1 (`1,3,2`), not `{_short(part)}`")
            answers.append(int(part) - 1)
    if ruleset is not None:
        names = [_ruleset_arg(ruleset)]
    else:  # the installed rulesets (those an expansion is for, when one is given)
        wanted = _expanded_ruleset(None, None, expansion) if expansion else None
        names = [(n, None) for n in rulesets() if wanted is None or n == wanted]
    from legacies.pipeline.explain import _find, _near

    found = None
    near: list[str] = []
    for name, root in names:
        loaded = _load_with(name, root, expansion)
        if loaded.build is None:
            continue
        match = _find(item, loaded.build)  # an id, any case, or a name
        if match is not None:
            found = (name, root, loaded)
            item = match
            break
        near.extend(_near(item, loaded.build))
    if found is None:
        hint = f"did you mean {', '.join(near[:3])}?" if near else "`legacies content` lists them"
        _fail(f"no item `{_short(item)}` in {'that ruleset' if ruleset else 'any installed ruleset'}; {hint}")
        return
    name, root, loaded = found
    if loaded.spec is None:
        _fail(f"ruleset `{name}` has content errors; run `legacies validate {root or '--ruleset ' + name}`", 1)
        return
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
        _fail(str(err), 2 if err.usage else 1)
        return
    except EOFError:
        _fail("end of input: nothing was tried", 1)
        return
    typer.echo(f"{trial.item} ({item}), played by {trial.seat}" + (f": {run}" if run else "")
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
    format: Format = typer.Option(Format.text, "--format", "-f", metavar="FORMAT", help="text, json or github annotations."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER", help=EXPANSION_HELP),
) -> None:
    """Run scenario tests: items tried in scenarios, with what must hold afterwards.

    A test file names an item, sets the stage like `legacies try --scenario`, answers its
    decisions (`choose`) and states `expect` (effect-language expressions and their
    values), `changes` (the whole difference) or `refused` (docs/cli.md)."""
    from legacies.agents.scenario_tests import find_tests, run_tests
    from legacies.pipeline.report import render_github, render_json
    from legacies.pipeline.ruleset import ExpansionError

    root = None
    only = None
    if ruleset is not None:
        only, root = _ruleset_arg(ruleset)
    only = _expanded_ruleset(only, root, expansion)
    missing = [p for p in paths if not p.exists()]
    if missing:
        _fail(f"no such file or folder: {missing[0]}")
    tests, problems = find_tests(list(paths))
    if not tests and not problems:
        _fail(f"no scenario tests (YAML files with `item:`) in {', '.join(str(p) for p in paths)}")
    try:
        result = run_tests(tests, root, only, tuple(expansion))
    except ExpansionError as err:
        _fail(str(err))
        return
    failures = problems + result.failures
    if format == Format.json:
        typer.echo(render_json(failures))
    elif format == Format.github:
        out = render_github(failures)
        if out:
            typer.echo(out)
    else:
        failed = {(d.file, d.line) for d in result.failures}
        for t in tests:
            mark = "FAIL" if (t.file, t.line) in failed else "ok  "
            typer.echo(f"{mark} {t.file}:{t.line}  {t.label}")
        for d in failures:
            typer.echo(f"\n{d.file}:{d.line}: {d.code}: {d.message}" + (f"\n    {d.hint}" if d.hint else ""))
        typer.echo(f"\n{result.passed} passed, {result.failed} failed"
                   + (f", {len(problems)} unreadable" if problems else ""))
    raise typer.Exit(0 if not failures else 2 if result.malformed else 1)


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
    from legacies.pipeline.migrate import MigrateUsageError, migrate as run
    from legacies.pipeline.models import CURRENT_FORMAT

    try:
        result = run([str(p) for p in paths], write=not (check or diff))
    except MigrateUsageError as err:
        _fail(str(err))
        return
    would = "would upgrade" if check or diff else "upgraded"
    for f in result.files:
        if f.status == "upgraded":
            if diff:
                typer.echo(f.diff(), nl=False)
                continue
            changes = [f"{c.line}:{c.column}: {c.what}" for c in sorted(f.changes, key=lambda c: (c.line, c.column))]
            head = f"{would} {f.label} (format {f.version} -> {CURRENT_FORMAT})"
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
                                     "installed ruleset is copied to a folder first."),
    path: Optional[Path] = typer.Option(None, "--path", "-p", metavar="FOLDER",
                                        help="The folder, when it holds several rulesets (--ruleset then names one)."),
    item_id: Optional[str] = typer.Option(None, "--id", metavar="ID",
                                          help="The new item's id (default: the next free one in its kind's pattern)."),
    file: Optional[str] = typer.Option(None, "--file", metavar="FILE",
                                       help="The content file to write to: its name in content/NAME/ (cards_ii) or "
                                            "a path; a new name makes a new file (default: the file holding most "
                                            "items of the kind)."),
    like: Optional[str] = typer.Option(None, "--like", metavar="ID",
                                       help="Take the shape of this item: its file and its values (effects are left "
                                            "to write)."),
    expansion: Optional[Path] = typer.Option(None, "--expansion", "-x", metavar="FOLDER",
                                             help="Write into this expansion folder (made if missing), laid over the "
                                                  "ruleset: its content/NAME/ files; the ruleset may be installed."),
) -> None:
    """Write a new content item, valid at once: the next free id, into the right file.

    The item copies the shape of the last item of its kind in that file (or of --like):
    every attribute all items of the kind give, with that item's values, and effects
    that only log that they are not written yet. It is appended to the file (comments
    and layout kept), the ruleset is validated, and the file is put back as it was if
    that finds an error."""
    from legacies.pipeline.explain import folder_rulesets
    from legacies.pipeline.new_item import NewItemError, new_item as run
    from legacies.pipeline.report import render_text

    root = _folder(path)
    if root is None:
        name, root = _ruleset_arg(ruleset)
        if root is None and expansion is None:
            from importlib import resources

            rules, content = (resources.files(f"legacies.{part}").joinpath(name) for part in ("rules", "content"))
            _fail(f"`legacies new` writes into a ruleset folder, not into the installed ruleset `{name}`: copy it "
                  f"first, then name the copy:\n  mkdir -p my-{name}/rules my-{name}/content\n"
                  f"  cp -r {rules} my-{name}/rules/ && cp -r {content} my-{name}/content/\n"
                  f"  legacies new {kind} --ruleset my-{name}\n"
                  f"or write it into an expansion laid over `{name}`: legacies new {kind} --ruleset {name} "
                  f"--expansion my-expansion")
            return
    else:
        name = ruleset
        if name not in folder_rulesets(root):
            _fail(f"{root} holds no ruleset `{_short(name)}` (it holds: {', '.join(folder_rulesets(root))})")
    if expansion is not None and expansion.exists() and not expansion.is_dir():
        _fail(f"--expansion {expansion}: not a folder")
    try:
        made = run(Path(root) if root is not None else None, name, kind, item_id, file, like, expansion)
    except NewItemError as err:
        if err.diagnostics:
            typer.echo(render_text(err.diagnostics, err.sources), err=True)
        _fail(str(err), 2 if err.usage else 1)
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


@app.command("rulesets")
def list_rulesets() -> None:
    """List the installed rulesets, each with the installed expansions that extend it
    (`--expansion NAME` lays one over it)."""
    from legacies.pipeline.ruleset import load_ruleset, rulesets
    from legacies.pipeline.stack import installed_expansions

    expansions = installed_expansions()
    for name in rulesets():
        r = load_ruleset(name)
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
            laid = load_ruleset(name, None, [exp])
            added = (len(laid.build.items) - items) if laid.build is not None and r.spec is not None else None
            needs = f", requires {', '.join(exp.requires)}" if exp.requires else ""
            state = (f"{added:+d} items{needs}" if laid.ok and added is not None
                     else f"has errors: run `legacies validate -x {exp.name}`")
            typer.echo(f"  + {exp.name}\t{exp.title}\t(--expansion {exp.name})\t{state}")
    orphans = [e for e in expansions if e.ruleset() not in rulesets()]
    for exp in orphans:
        typer.echo(f"{exp.name}\t{exp.title}\t(an expansion of `{exp.ruleset()}`, which is not installed)")


@app.command()
def lsp(
    stdio: bool = typer.Option(True, "--stdio", metavar="", show_default=False,
                               help="Talk to the editor over standard input and output (the default)."),
    tcp: Optional[str] = typer.Option(None, "--tcp", metavar="HOST:PORT", help="Listen on a TCP port instead."),
) -> None:
    """Serve an editor: a language server for content and rules files.

    Diagnostics as you type (those of `legacies validate`, inside effects too), the card
    text of an item or an effect on hover, go to the declaration of an id or a name, and
    completion of the names the ruleset declares (docs/cli.md)."""
    del stdio  # accepted because editors pass it; standard input and output are the default
    address = None
    if tcp is not None:
        host, _, port = tcp.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            _fail(f"--tcp takes HOST:PORT (127.0.0.1:2087), not `{_short(tcp)}`")
        address = (host.removeprefix("[").removesuffix("]"), int(port))  # [::1]:2087 too
    try:
        from .lsp import ListenError, serve
    except ModuleNotFoundError as err:
        if (err.name or "").partition(".")[0] not in ("pygls", "lsprotocol"):
            raise
        _fail("the language server needs pygls: pip install 'legacies[lsp]'")
        return
    try:
        serve(address)
    except ListenError as err:
        _fail(str(err))


tidy(app)  # help texts read as a manual (cli/help_text.py)


def main() -> None:  # pragma: no cover - console entry
    app()
