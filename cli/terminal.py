"""A human at the terminal: shows the decision and reads the chosen option number.
Hot-seat: each human seat is asked in turn; what a player sees is their own view."""

from __future__ import annotations

import typer

from legacies.interpreter.game import GameState


class HumanAgent:
    def __init__(self, seat: int):
        self.seat = seat
        self.name = f"human{seat + 1}"

    def choose(self, state: GameState) -> int:
        d = state.decision
        assert d is not None
        view = state.view(d.player)
        typer.echo("")
        typer.echo(f"{state.game.player_names[d.player]}, {d.prompt}:")
        for zone, cards in view["zones"].items():
            if isinstance(cards, list) and cards and state.game.player_names[d.player] in zone:
                typer.echo(f"  {zone}: {', '.join(cards)}")
        for i, option in enumerate(d.options, 1):
            typer.echo(f"  {i}. {option.label}")
        while True:
            raw = typer.prompt("choose", default="1")
            try:
                n = int(raw)
            except ValueError:
                typer.echo("type the number of an option")
                continue
            if 1 <= n <= len(d.options):
                return n - 1
            typer.echo(f"choose a number from 1 to {len(d.options)}")
