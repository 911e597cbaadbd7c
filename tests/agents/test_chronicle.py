"""The table's log as records (agents/chronicle.py), read through view.log.readable, on
the tiny fixture ruleset (hidden hands): a card chosen from a hand is named to the seat
that chose it and is "a hidden card" to the others; what each move changed and where
each turn begins are lines of the log; an undo drops the records written after the
decision it takes back."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.agents.chronicle import asked
from legacies.agents.session import TableSession
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.ruleset import load_ruleset
from legacies.view.log import readable

TINY = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "tiny"


@pytest.fixture(scope="module")
def spec() -> GameSpec:
    result = load_ruleset("tiny", TINY)
    assert result.ok and result.spec is not None, [d.headline() for d in result.diagnostics]
    return result.spec


def _play_a_card(session: TableSession, seat: int) -> str:
    """The seat plays the first card of its hand; the option's label ("Play Big")."""
    d = session.state.decision
    assert d is not None and d.player == seat
    index = next(i for i, label in enumerate(d.labels()) if label.startswith("Play "))
    label = d.labels()[index]
    session.answer(seat, len(session.state.st.history), index)
    return label


def _texts(session: TableSession, seat: int, kind: str | None = None) -> list[str]:
    return [r.text for r in readable(session.chronicle.records, seat) if kind is None or r.kind == kind]


def test_a_card_chosen_from_a_hand_is_named_to_its_chooser_only(spec: GameSpec) -> None:
    session = TableSession(spec, ["human", "human", "human"], seed=3)
    label = _play_a_card(session, 0)
    card = label.removeprefix("Play ")
    assert f"P1 chose {label}" in _texts(session, 0, "choice")
    for seat in (1, 2):
        choices = _texts(session, seat, "choice")
        assert choices == ["P1 chose a hidden card"]
        assert not any(label in text for text in choices)
    assert _texts(session, 0, "choice") == [f"P1 chose {label}"]
    # the card is on the table now: the move is named to everyone, as every player sees it land
    assert any(card in text and "P1's hand" in text and "P1's table" in text for text in _texts(session, 1, "change"))
    # the seat's view keeps the records written for it, and only those
    assert [e.text for e in session.view(1).log if e.kind == "choice"] == _texts(session, 1, "choice")
    assert [e.text for e in session.view(0).log if e.kind == "choice"] == _texts(session, 0, "choice")


def test_a_public_choice_reads_the_same_for_everyone(spec: GameSpec) -> None:
    session = TableSession(spec, ["human", "human"], seed=3)
    d = session.state.decision
    assert d is not None
    session.answer(0, 0, d.labels().index("Hold an auction for 5 points"))
    line = "P1 chose Hold an auction for 5 points"
    assert _texts(session, 0, "choice") == _texts(session, 1, "choice") == [line]


def test_what_changed_and_where_each_turn_begins_are_lines(spec: GameSpec) -> None:
    session = TableSession(spec, ["human", "human"], seed=3)
    assert _texts(session, 0, "turn") == ["Turn 1: P1"]
    _play_a_card(session, 0)
    _play_a_card(session, 1)
    for seat in (0, 1):
        assert _texts(session, seat, "turn") == ["Turn 1: P1", "Turn 2: P2", "Turn 3: P1"]
        changes = _texts(session, seat, "change")
        # the points each gained (agents/moves.py words them: "P1 gains 3 points")
        assert any(text.startswith("P1 ") and "point" in text for text in changes)
        assert any(text.startswith("P2 ") and "point" in text for text in changes)
    records = session.chronicle.records
    turns = [r for r in records if r.kind == "turn"]
    assert [(r.decision, r.turn) for r in turns] == [(0, 1), (1, 2), (2, 3)]
    # in order: a turn's line, then its choice, then what the choice changed
    kinds = [r.kind for r in records if r.readers is None or 1 in r.readers]
    assert kinds[:3] == ["turn", "choice", "change"]


def test_an_undo_drops_the_records_after_the_undone_decision(spec: GameSpec) -> None:
    session = TableSession(spec, ["human", "random"], seed=4)
    _play_a_card(session, 0)
    session.advance()
    d = session.state.decision
    assert d is not None
    session.answer(0, len(session.state.st.history), d.labels().index("Hold an auction for 5 points"))
    asked_at = len(session.state.st.history)  # P1 opens the bidding
    kept = list(session.chronicle.records)
    assert all(r.decision <= asked_at for r in kept)
    session.answer(0, asked_at, session.state.decision.labels().index("bid 1"))
    session.advance()  # the bot bids
    after = session.chronicle.records[len(kept):]
    # a bid is no card: everyone reads it (its amount, an int, is not taken for a piece)
    assert [r.text for r in after if r.kind == "choice"][0] == "P1 chose bid 1 — bid (highest so far 0)"
    assert all(r.readers is None for r in after) and any(r.player == 1 for r in after)
    assert session.undo(0) == "your last decision is taken back"
    assert session.chronicle.records[:len(kept)] == kept
    assert [r.text for r in session.chronicle.records[len(kept):]] == ["P1 took back their last decision"]
    # the game goes on from there, and the log with it: the next records are of the new moves
    session.answer(0, asked_at, session.state.decision.labels().index("bid 2"))
    assert _texts(session, 1, "choice")[-1] == "P1 chose bid 2 — bid (highest so far 0)"
    assert all(r.decision == asked_at + 1 for r in session.chronicle.records[len(kept) + 1:])


@pytest.mark.parametrize(("prompt", "told"), [
    ("choose an action", ""),  # the action chosen says it all
    ("choose: cards in your resources (1 of 2)", " — cards in their resources (1 of 2)"),
    ("choose a province in the provinces you control", " — choose a province in the provinces they control"),
    ("Your move: is the card yours?", " — Their move: is the card theirs?"),
    ("bid (highest so far 0)", " — bid (highest so far 0)"),
    ("choose a young ally, or a yourself card", " — choose a young ally, or a yourself card"),  # words, not parts
])
def test_a_question_is_told_in_the_third_person(prompt: str, told: str) -> None:
    assert asked(prompt) == told


def test_an_option_whose_words_name_a_face_down_card_is_hidden_from_the_others() -> None:
    """A user's trial (the browser's log): in Leader's Legacy, "Ann chose keep Oskar Brand
    (military: health 7, ...)" went to every seat while the leader lay face down in her
    leader_hand. A `choose one:` option that names a piece in its words (no item of its own)
    is hidden from the others as a card chosen from a hand is."""
    result = load_ruleset("leaders-legacy")
    assert result.spec is not None
    session = TableSession(result.spec, ["human", "human", "human"], seed=1)
    d = session.state.decision
    assert d is not None and d.labels()[0].startswith("keep ")
    first = d.player
    leader = d.options[0].shows[0]
    name = session.state.game.piece_names[leader]
    assert name in d.labels()[0] and d.options[0].item is None
    session.answer(first, len(session.state.st.history), 0)
    mine = _texts(session, first, "choice")
    assert any(name in text for text in mine)
    for seat in {0, 1, 2} - {first}:
        theirs = _texts(session, seat)
        assert not any(name in text for text in theirs), theirs
        assert f"{session.state.game.player_names[first]} chose a hidden card" in " ".join(theirs)
