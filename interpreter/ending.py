"""The rules end the game: `end the game [with P as the winner] [because "TEXT"]`.

The frame stack is cleared, so nothing else runs (no rest of the effect, no trigger, no
turn), and the state records how the game ended in `State.ending`: (the winner named, or
-1 when the ranking decides; the reason, or ""). `GameState` reads it for the winner,
the ranking and the returns; it is part of the state's canonical form (so of a save's
fingerprint) and is copied by a clone like any other slot."""

from __future__ import annotations

from typing import Any

from .decisions import Said
from .mechanics import player_name
from .vm import State

NOT_NAMED = -1  # `end the game` without a winner: the ranking decides


def end_game(st: State, winner: int, reason: str | None) -> None:
    """Stop the game now, as the rules say (called from a running statement: the step
    loop finds no frame left and marks the game over)."""
    st.frames.clear()  # in place: the step loop holds this list
    st.pending = None
    st.ending = (winner, reason or "")
    st.over = True
    st.log.append(Said(_ended, (winner, reason)))


def _ended(reader: Any, winner: int, reason: str | None) -> str:
    because = f": {reason}" if reason else ""
    return f"{player_name(reader, winner)} wins{because}" if winner != NOT_NAMED else f"the game ends{because}"


def named_winner(st: State) -> int:
    """The winner the rules named when they ended the game, else NOT_NAMED."""
    return st.ending[0] if st.ending is not None else NOT_NAMED


def reason(st: State) -> str | None:
    """Why the rules ended the game (None: they did not, or gave no reason)."""
    return st.ending[1] or None if st.ending is not None else None
