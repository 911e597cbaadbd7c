"""What a move changed, as the match log prints it (agents/moves.py): a piece's own value
slot is named by its piece and read by its type, and a value of a card nobody may see is
not told (issue 21: Leader's Legacy's log read "controller: -1 -> a card nobody may see"
when a province changed hands)."""

from __future__ import annotations

from pathlib import Path

from legacies.agents.moves import MoveEffects
from legacies.interpreter.game import Game
from legacies.interpreter.mechanics import describe
from legacies.pipeline.ruleset import load_ruleset

FIXTURES = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures"


def _slot(game: Game, kind: str, value: str, pid: int) -> int:
    lay = game.layout
    return lay.item_value[(kind, value)] + lay.kind_pieces[kind].index(pid)


def test_a_place_s_player_value_reads_as_its_place_and_a_player() -> None:
    spec = load_ruleset("places", FIXTURES / "places").spec
    game = Game(spec, 2)
    state = game.new_state(1)
    effects = MoveEffects(state)
    birch = next(pid for pid in game.layout.kind_pieces["spot"] if describe(state.st, pid) == "Birch")
    state.st.values[_slot(game, "spot", "held_by", birch)] = 1
    assert effects.changes() == ["Birch is now held by P2"]  # a sentence, not "held by: nobody -> P2"
    state.st.values[_slot(game, "spot", "held_by", birch)] = 0
    assert effects.changes() == ["Birch is now held by P1"]
    state.st.values[_slot(game, "spot", "held_by", birch)] = None
    assert effects.changes() == ["Birch is no longer held by P1"]


def test_a_hidden_card_s_value_is_not_told_until_it_is_seen() -> None:
    spec = load_ruleset("holders", FIXTURES / "holders").spec
    game = Game(spec, 2)
    state = game.new_state(1)
    st, lay = state.st, game.layout
    effects = MoveEffects(state)
    deck = next(z for z, name in enumerate(lay.zone_name) if name == "deck")
    crate = next(pid for pid in lay.kind_pieces["crate"] if st.loc[pid] == deck)
    st.values[_slot(game, "crate", "marked_by", crate)] = 0
    assert effects.changes() == []  # in the deck: nobody may see the crate, nor what it holds
    st.revealed.add(crate)  # shown to every player
    st.values[_slot(game, "crate", "marked_by", crate)] = 1
    lines = effects.changes()
    assert len(lines) == 1 and lines[0].startswith("Crate") and lines[0].endswith(" is now marked by P2"), lines


def _log(ruleset: str, seed: int, expansions: tuple[str, ...] = ()) -> list[str]:
    from legacies.agents.match import play_match

    lines: list[str] = []
    play_match(load_ruleset(ruleset, expansions=expansions).spec, ["random"] * 3, seed, on_event=lines.append)
    return lines


def test_leaders_legacys_log_reads_as_sentences() -> None:
    """Issue 30: the log read "attacker: P4 -> P1", "none -> X", "phase 3 -> 4"; each
    change is now a sentence ("P1 is now the attacker", "Sela Windsong is now P1's
    leader", "P1's combat phase")."""
    lines = _log("leaders-legacy", 1)
    changes = [line.strip() for line in lines if line.startswith("      ")]
    assert changes and not [line for line in changes if " -> " in line or "none" in line.split() or "None" in line]
    said = "\n".join(changes)
    assert "is now the attacker" in said and "is now P1's leader" in said
    assert any(line.endswith("'s combat phase") for line in lines)
    assert not any("phase (1 event" in line for line in lines)


def test_a_players_flag_going_back_is_not_said_as_news() -> None:
    """Legacies said "P1 has not put a successor in play this generation" under the move
    in which a successor was put in play (the flag going back for the next generation);
    a yes going back to no is a fresh start, not said."""
    lines = _log("legacies", 1)
    assert any(line.strip().endswith("put a successor in play this generation") for line in lines)
    assert not any("has not put a successor in play" in line for line in lines)
    assert any(line.strip().startswith("the generation moves on to ") for line in lines)
