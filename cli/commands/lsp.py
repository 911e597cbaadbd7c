"""`legacies lsp`: the language server for editors (cli/lsp/server.py), over standard input and
output or a TCP port. pygls is an optional dependency (`legacies[lsp]`): the server is
imported when the command runs, and its absence is said in words."""

from __future__ import annotations

from typing import Optional

import typer

from ..common import fail, fail_on, short

app = typer.Typer()


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
            fail(f"--tcp takes HOST:PORT (127.0.0.1:2087), not `{short(tcp)}`")
        address = (host.removeprefix("[").removesuffix("]"), int(port))  # [::1]:2087 too
    try:
        from legacies.cli.lsp.server import ListenError, serve  # pygls is optional: said in words when missing
    except ModuleNotFoundError as err:
        if (err.name or "").partition(".")[0] not in ("pygls", "lsprotocol"):
            raise
        fail("the language server needs pygls: pip install 'legacies[lsp]'")
        return
    try:
        serve(address)
    except ListenError as err:
        fail_on(err)

