"""The seat of a non-player character: a player the rules run (the ruleset's
`automated:` counter), whose decisions the interpreter answers itself. Its agent is
never asked; if it were, the rules failed to mark the seat, and the game stops."""

from __future__ import annotations

from legacies.interpreter.errors import InternalError
from legacies.interpreter.game import GameState

NPC_SEAT = "npc"
"""The seat kind of a non-player character (`legacies play --nemesis N` seats them)."""


class RulesRunSeat:
    """The agent of a non-player character's seat."""

    name = NPC_SEAT

    def choose(self, state: GameState) -> int:
        d = state.decision
        who = state.game.player_names[d.player] if d is not None else "?"
        raise InternalError(f"{who} is a non-player character, yet the rules asked them to decide "
                            f"({d.prompt if d is not None else 'nothing pending'}): the ruleset's `automated:` "
                            "counter is not set for this seat")
