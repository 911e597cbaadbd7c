"""`legacies serve`: a game served to browsers (cli/web/). The table is set as `legacies
play` sets it (its seats, options, expansions), or taken up from a save (`--resume`);
one secret link per person's seat is printed (with --hot-seat, one link every person
shares, on one device), and the server runs until Ctrl-C, keeping the game in --save
after every decision."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from ..common import EXPANSION_HELP, SEED_HELP, debug_traceback, fail, read_save_or_fail, table_seed, think_checked
from .play import check_save_path, seat_names

if TYPE_CHECKING:  # bound by _services() when a command runs: `CMD --help` imports none of them
    from legacies.agents.session import TableSession
    from legacies.cli.ruleset_args import default_ruleset, load_with, playable, ruleset_arg, saved_expansions, where_given
    from legacies.cli.table_args import known_seats, parse_options, saved_seats
    from legacies.cli.terminal import continued_by
    from legacies.interpreter.errors import CorruptSave, InternalError, TableError
    from legacies.interpreter.game import Game, GameState
    from legacies.pipeline.table import seat_table


def _services() -> None:
    """The services and helpers the commands call, imported when a command of this module
    runs (its `--help` imports none of them: docs/speed.md). Each command calls it first."""
    from legacies.agents.session import TableSession
    from legacies.cli.ruleset_args import default_ruleset, load_with, playable, ruleset_arg, saved_expansions, where_given
    from legacies.cli.table_args import known_seats, parse_options, saved_seats
    from legacies.cli.terminal import continued_by
    from legacies.interpreter.errors import CorruptSave, InternalError, TableError
    from legacies.interpreter.game import Game, GameState
    from legacies.pipeline.table import seat_table

    globals().update(locals())


app = typer.Typer()

DEFAULT_SEATS = ["human", "greedy", "greedy", "greedy"]


@app.command()
def serve(
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="NAME|PATH", show_default=False,
                                          help="An installed ruleset or a ruleset folder; default: the one the "
                                               "--expansion extends, else legacies."),
    expansion: List[str] = typer.Option([], "--expansion", "-x", metavar="NAME|FOLDER", help=EXPANSION_HELP),
    seat: List[str] = typer.Option([], "--seat", "-s", metavar="KIND",
                                   help="One per player, in turn order: human (a person, at their own link), "
                                        "random, greedy, rollout, search; KIND:NAME names the player. Default: "
                                        "one person against three greedy bots."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="N", show_default=False, help=SEED_HELP),
    option: List[str] = typer.Option([], "--option", "-o", metavar="NAME=VALUE", help="Setup option (repeatable)."),
    think: Optional[float] = typer.Option(None, "--think", metavar="SECONDS", callback=think_checked,
                                          help="How long a search bot thinks per decision (above 0, at most 600)."),
    host: str = typer.Option("127.0.0.1", "--host", metavar="ADDR",
                             help="The address to listen on: this machine only by default; 0.0.0.0 lets other "
                                  "machines of the network in (each player still needs their link; the links are sent "
                                  "unencrypted: a network you trust)."),
    port: int = typer.Option(8000, "--port", metavar="N", min=0, max=65535,
                             help="The port to listen on (0: one the system picks)."),
    save: Optional[Path] = typer.Option(None, "--save", metavar="FILE",
                                        help="Keep the game in FILE after every decision (`--resume FILE` continues "
                                             "it; with --resume, default: the file resumed)."),
    resume: Optional[Path] = typer.Option(None, "--resume", metavar="SAVE",
                                          help="Continue a saved game (`play --save`, `serve --save`) with the seats "
                                               "it was saved with (or --seat); its links are new."),
    hot_seat: bool = typer.Option(False, "--hot-seat",
                                  help="Every person plays at one shared link, on one device: the page shows "
                                       "the seat the game waits on, and between two people it covers the screen "
                                       "(\"P2's turn: pass the device\") until the next one clicks that only they "
                                       "can see it. With one person, the same as their own link."),
) -> None:
    """Serve a game to browsers: a secret link per person's seat, the bots on the server.

    Every person opens their own link (on this machine, or on another with --host) and
    plays at a table drawn from their seat's view; the page shows only what that seat may
    see. With --hot-seat the people share one link on one device, the screen covered
    between two of them until the next one is ready. Ctrl-C stops the server; with --save the game is kept after every decision and
    `legacies serve --resume FILE` continues it with new links."""
    _services()
    if resume is not None:
        session, folder = _resumed(resume, ruleset, expansion, list(seat), think)
        save = save or resume
    else:
        if seed is not None:
            typer.echo(f"(--seed {seed}: whoever knows the seed can work out every hidden card; leave it out for a "
                       "game among people)", err=True)
        session, folder = _new(ruleset, expansion, list(seat) or list(DEFAULT_SEATS), table_seed(seed, True), option,
                               think)
    if save is not None:
        check_save_path(save)
    if not session.humans:
        fail("no person is seated: give at least one --seat human")

    from ..web.server import bind, serve as run
    from ..web.table import ServedTable

    table = ServedTable(session, save, hot_seat=hot_seat)
    try:
        sock = bind(host, port)
    except OSError as err:
        fail(f"--host {host} --port {port}: cannot listen there ({err.strerror or err})", 1)
        return
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    if bound_host in ("0.0.0.0", "::"):
        shown = "localhost"
        typer.echo(f"listening on every interface ({host}): from another machine, put this machine's address "
                   "in place of localhost")
    if table.hot_seat:
        typer.echo(f"{session.state.game.spec.title}: one link for every person, on one device (hot seat: the "
                   "screen is covered between two people; keep it secret: it is every person's seat)")
    else:
        typer.echo(f"{session.state.game.spec.title}: one link per person (keep each secret: it is that seat)")
    for name, link in table.links(f"http://{shown}:{bound_port}"):
        typer.echo(f"  {name}: {link}")

    def ready() -> None:  # said once a Ctrl-C stops the server (web/server.py `serve`)
        typer.echo("Ctrl-C stops the server" + (f"; the game is kept in {save}" if save is not None else ""))
        sys.stdout.flush()

    try:
        run(table, sock, ready)
    except KeyboardInterrupt:  # a Ctrl-C before the server's handlers were in place
        pass
    if save is not None and not session.over and table.stopped is None:
        from legacies.pipeline.writes import WriteError

        try:  # (written after every change already: this says where, or why the file is behind)
            session.save(save)
        except WriteError as err:
            typer.echo(f"the game could not be saved to {save}: {err}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"the game is saved to {save} ({_continued(save, folder)})", err=True)


def _continued(save: Path, folder: Optional[str]) -> str:
    if folder is None:
        return f"`legacies serve --resume {save}` continues it"
    return continued_by(save, folder)


def _new(ruleset: Optional[str], expansion: List[str], given: List[str], seed: int, option: List[str],
         think: Optional[float]) -> tuple[TableSession, Optional[str]]:
    """A new game's session, set as `legacies play` sets its table."""
    kinds, names = seat_names(given)
    name, root = ruleset_arg(default_ruleset(ruleset, expansion))
    loaded = load_with(name, root, expansion)
    playable(loaded, name, where_given(name, root, expansion))
    options = parse_options(option)
    try:
        kinds, names, options = seat_table(loaded.spec, kinds, names, options)
        known_seats(loaded.spec, kinds)
        state = Game(loaded.spec, len(kinds), options, names).new_state(seed)
        return TableSession(loaded.spec, kinds, seed, options, names, state=state, think=think), root
    except TableError as err:
        fail(str(err))
    except ValueError as err:  # a seat kind that does not exist
        fail(str(err))
    except InternalError as err:
        debug_traceback(err)
        fail(f"the game cannot start: {err}; `legacies validate` shows where", 1)
    raise AssertionError("unreachable")


def _resumed(file: Path, ruleset: Optional[str], expansion: List[str], given: List[str],
             think: Optional[float]) -> tuple[TableSession, Optional[str]]:
    """A saved game's session, its decisions replayed (as `legacies resume` takes one up)."""
    text, data = read_save_or_fail(file)
    name, root = ruleset_arg(ruleset) if ruleset is not None else (data["ruleset"], None)
    loaded = load_with(name, root, list(expansion) or saved_expansions(data))
    playable(loaded, name, where_given(name, root, list(expansion) or saved_expansions(data)))
    kinds, wrong = saved_seats(loaded.spec, data, list(given))
    if wrong:
        fail(f"{file}: {wrong}", 1)
    try:
        state = GameState.deserialize(loaded.spec, text)
    except CorruptSave as err:
        fail(f"{file}: {err}", 1)
        raise
    if len(kinds) != data["players"]:
        fail(f"the save is a {data['players']}-player game; give one --seat per player")
    if state.is_terminal():
        fail(f"{file} is a finished game: `legacies replay {file}` shows it", 1)
    kinds = [k.partition(":")[0].strip() for k in kinds]
    try:
        known_seats(loaded.spec, kinds)
        session = TableSession(loaded.spec, kinds, int(data["seed"]), dict(data["options"]), state=state,
                               think=think)
    except (TableError, ValueError) as err:
        fail(str(err))
        raise
    typer.echo(f"resuming {file}: {len(state.st.history)} decisions replayed", err=True)
    return session, root
