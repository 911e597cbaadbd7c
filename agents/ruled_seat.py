"""The agent of a seat the rules run: a player of a seat kind the ruleset declares under
`seats:` (its `automated:` counter marks such players), whose decisions the interpreter
answers itself. Its agent is never asked; if it were, the rules failed to mark the seat,
and the game stops."""

from __future__ import annotations

from legacies.interpreter.errors import InternalError
from legacies.interpreter.game import GameState


class RulesRunSeat:
    """The agent of a seat the rules run (its kind is the ruleset's seat kind)."""

    def __init__(self, kind: str):
        self.name = kind

    def choose(self, state: GameState) -> int:
        d = state.decision
        who = state.game.player_names[d.player] if d is not None else "?"
        raise InternalError(f"{who} sits in a seat the rules run ({self.name}), yet the rules asked them to decide "
                            f"({d.prompt if d is not None else 'nothing pending'}): the ruleset's `automated:` "
                            "counter is not set for this seat")
