"""The end of a game on screen: each player's final score with where it came from, how
the game ended when the rules ended it and how a tie was broken, for `legacies play`,
`resume` and `replay`.

The game played carries no ledger (normal play pays nothing for one): its decisions are
replayed into a Game compiled with `ledger=True` (interpreter/ledger.py), which must
reach the same game, and the breakdown is read there. The parts and the starting value
add up to each score.
"""

from __future__ import annotations

from typing import Any

from legacies.dsl.english import counted
from legacies.dsl.renderer import render_expr
from legacies.dsl.wording import Wording
from legacies.interpreter.errors import GameError, InternalError
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.ledger import Part, breakdown

WIDTH = 80
INDENT = "      "


def score_parts(state: GameState) -> list[list[Part]] | None:
    """Each player's score in parts, largest first; None (said on stderr by the caller)
    when the finished game does not replay to itself, which is an engine bug. A score
    that is a definition has no parts to trace: it is one part, the definition's value."""
    g = state.game
    if g.spec.score_definition is not None:  # nothing to replay: its one part is its value
        return breakdown(state.st)
    try:
        ledger_game = Game(g.spec, g.players, dict(g.options), list(g.player_names), ledger=True)
        replayed = ledger_game.replay(int(state.st.flags.get("seed", 0)), state.st.history.tolist())
    except (GameError, InternalError):
        return None
    if replayed.fingerprint() != state.fingerprint():
        return None
    return breakdown(replayed.st)


def final_score_lines(state: GameState | None, names: list[str], scores: list[int]) -> list[str]:
    """`  NAME: SCORE UNIT` for each player, best score first, each followed by its parts
    wrapped to the terminal's 80 columns (`      14 from cards, 9 from tiles, ...`)."""
    parts = score_parts(state) if state is not None else None
    unit = state.game.spec.vocab.label(state.game.spec.score_counter) if state is not None else ""
    definition = state.game.spec.score_definition if state is not None else None
    nouns = Wording.of(state.game.spec.vocab).count_nouns if state is not None else {}
    lines = []
    for p in sorted(range(len(names)), key=lambda i: -scores[i]):
        lines.append(f"  {names[p]}: {scores[p]}" + (f" {counted(unit, scores[p], nouns)}" if unit else ""))
        if parts is not None and definition is None:  # what gave the points: "6 from crates"
            lines.extend(_wrapped([f"{x.amount} from {x.label}" for x in parts[p]] or ["nothing scored"]))
    if definition is not None:
        lines.append(f"  (the score is the ruleset's definition `{definition}`, worked out from the board: "
                     "it has no breakdown)")
    if state is not None and parts is None:
        lines.append("  (no breakdown of the scores: the game did not replay to itself, an engine bug)")
    return lines


def _wrapped(items: list[str]) -> list[str]:
    """Items joined by commas, broken between items (never inside one) before WIDTH."""
    lines: list[str] = []
    line = INDENT
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if line != INDENT and len(line) + 1 + len(piece) > WIDTH:
            lines.append(line)
            line = INDENT
        line += ("" if line == INDENT else " ") + piece
    lines.append(line)
    return lines


def add_breakdown(data: dict[str, Any], state: GameState | None) -> dict[str, Any]:
    """`--json`: each player's `breakdown`, a list of {label, amount, from: [{name,
    amount}]} largest first (`from`: the items or statements of the rules that gave the
    points); null when the game did not replay to itself."""
    parts = score_parts(state) if state is not None else None
    for p, player in enumerate(data.get("players", [])):
        player["breakdown"] = None if parts is None else [
            {"label": x.label, "amount": x.amount, "from": [{"name": n, "amount": a} for n, a in x.details]}
            for x in parts[p]]
    return data


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

