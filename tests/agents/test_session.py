"""TableSession, the one authority a face answers through (agents/session.py), on the tiny
fixture ruleset (an auction, a payment the rules refuse, hidden hands): an answer that is
stale, from a seat that is not asked, of an option that does not exist or that the rules
refuse is refused and leaves the game exactly as it was (its fingerprint, the log, who
made each decision); `advance` plays the bots until a person is asked; `undo` takes back
the person's last decision and the log forgets what came after; `save` writes a save
that loads back to the same game; two answers at once are applied one at a time."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from legacies.agents.session import NotYourTurn, TableSession
from legacies.interpreter.errors import IllegalChoice, Refused
from legacies.interpreter.game import GameState
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.ruleset import load_ruleset

TINY = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "tiny"


@pytest.fixture(scope="module")
def spec() -> GameSpec:
    result = load_ruleset("tiny", TINY)
    assert result.ok and result.spec is not None, [d.headline() for d in result.diagnostics]
    return result.spec


def _at(session: TableSession) -> int:
    """The number an answer to the pending decision names."""
    return len(session.state.st.history)


def _option(session: TableSession, starts: str) -> int:
    d = session.state.decision
    assert d is not None
    return next(i for i, label in enumerate(d.labels()) if label.startswith(starts))


def _snapshot(session: TableSession) -> tuple[str, list[Any], list[int]]:
    return session.state.fingerprint(), list(session.chronicle.records), list(session.made_by)


def test_a_stale_answer_is_refused_and_changes_nothing(spec: GameSpec) -> None:
    session = TableSession(spec, ["human", "human"], seed=3)
    session.answer(0, _at(session), _option(session, "Play"))
    assert session.asked() == 1
    before = _snapshot(session)
    for number in (0, _at(session) + 1, -1):  # an answer to the decision already made, one to come
        with pytest.raises(NotYourTurn, match="look again"):
            session.answer(1, number, 0)
        assert _snapshot(session) == before


def test_an_answer_from_a_seat_not_asked_is_refused(spec: GameSpec) -> None:
    session = TableSession(spec, ["human", "human", "random"], seed=3)
    assert session.asked() == 0
    before = _snapshot(session)
    with pytest.raises(NotYourTurn, match="P2 is not asked now: P1 is"):
        session.answer(1, _at(session), 0)
    assert _snapshot(session) == before
    session.answer(0, _at(session), _option(session, "Play"))
    session.answer(1, _at(session), _option(session, "Play"))
    assert session.asked() == 2  # a bot's seat: no face answers for it
    before = _snapshot(session)
    with pytest.raises(NotYourTurn):
        session.answer(2, _at(session), 0)
    assert _snapshot(session) == before


def test_an_option_out_of_range_is_refused(spec: GameSpec) -> None:
    session = TableSession(spec, ["human", "random"], seed=3)
    before = _snapshot(session)
    options = len(session.state.decision.options)
    for index in (options, options + 5, -1, "0", None, 1.0, True):
        with pytest.raises(IllegalChoice):
            session.answer(0, _at(session), index)
        assert _snapshot(session) == before


def test_a_move_the_rules_refuse_leaves_the_game_unchanged(spec: GameSpec) -> None:
    session = TableSession(spec, ["human", "random"], seed=3)
    before = _snapshot(session)
    view = session.view(0).model_dump(mode="json")
    with pytest.raises(Refused, match="cannot pay 100 gold") as refused:
        session.answer(0, _at(session), _option(session, "Pay 100 gold"))
    assert not isinstance(refused.value, NotYourTurn | IllegalChoice)
    assert _snapshot(session) == before  # the point gained before the payment failed is undone too
    assert session.view(0).model_dump(mode="json") == view
    session.answer(0, _at(session), _option(session, "Play"))  # the same decision is still open
    assert _at(session) == 1


def test_advance_plays_the_bots_until_the_person_is_asked(spec: GameSpec) -> None:
    session = TableSession(spec, ["human", "random", "random"], seed=5)
    assert session.waiting_for_person() == 0
    session.advance()  # nothing for the bots to do: the person is asked
    assert _at(session) == 0
    session.answer(0, _at(session), _option(session, "Play"))
    assert session.waiting_for_person() is None and session.asked() == 1
    moves: list[int] = []
    session.advance(on_move=lambda: moves.append(_at(session)))
    assert session.over or session.waiting_for_person() == 0
    assert len(moves) >= 2 and moves == list(range(2, 2 + len(moves)))  # on_move after each bot's move
    assert session.made_by[:3] == [0, 1, 2]


def test_advance_plays_at_most_the_steps_asked(spec: GameSpec) -> None:
    session = TableSession(spec, ["random", "random", "human"], seed=5)
    assert session.asked() == 0 and session.waiting_for_person() is None
    session.advance(steps=1)
    assert _at(session) == 1
    session.advance(steps=0)
    assert _at(session) == 1


def test_undo_takes_back_the_persons_last_decision(spec: GameSpec) -> None:
    """P1 holds an auction and bids, the bot bids after; P1 takes the bid back: the game is
    where P1 was asked to bid, and the log as it was then. (An undo past a card the
    other seat drew or played unseen is refused by the rules of undo: not used here.)"""
    session = TableSession(spec, ["human", "random"], seed=4)
    session.answer(0, _at(session), _option(session, "Play"))
    session.advance()
    session.answer(0, _at(session), _option(session, "Hold an auction"))
    assert session.waiting_for_person() == 0  # P1 opens the bidding
    asked_at, fingerprint = _at(session), session.state.fingerprint()
    records = list(session.chronicle.records)
    session.answer(0, asked_at, _option(session, "bid 1"))
    session.advance()
    assert _at(session) > asked_at + 1 and session.made_by[asked_at:] == [0, 1]  # the bot bid after
    assert session.undo(0) == "your last decision is taken back"
    assert _at(session) == asked_at and session.state.fingerprint() == fingerprint
    assert session.waiting_for_person() == 0
    assert session.chronicle.records[:-1] == records  # what came after the undone decision is gone
    assert session.chronicle.records[-1].text == "P1 took back their last decision"
    assert len(session.made_by) == asked_at
    session.answer(0, asked_at, _option(session, "bid 2"))  # the game goes on from there
    assert session.made_by[-1] == 0


def test_a_finished_games_result_stands(spec: GameSpec) -> None:
    """A user's trial: `u` at the end reopened the game, and leaving then wrote the unfinished
    game over the save. Once the game is over, an undo is refused and nothing changes."""
    session = TableSession(spec, ["human", "random"], seed=4)
    for _ in range(500):
        if session.over:
            break
        session.advance()
        if session.over:
            break
        d = session.state.decision
        assert d is not None
        for index in range(d.count):
            try:
                session.answer(0, _at(session), index)
                break
            except Refused:
                continue
    assert session.over and 0 in session.made_by
    before = _snapshot(session)
    assert session.undo(0) == "the game is over: its result stands, and nothing is taken back"
    assert _snapshot(session) == before and session.over


def test_undo_with_nothing_to_take_back(spec: GameSpec) -> None:
    session = TableSession(spec, ["human", "random"], seed=4)
    before = _snapshot(session)
    assert session.undo(0) == "nothing of yours to undo yet"
    assert _snapshot(session) == before


def test_save_writes_a_save_that_loads_back_to_the_same_game(spec: GameSpec, tmp_path: Path) -> None:
    session = TableSession(spec, ["human", "random"], seed=9)
    session.answer(0, _at(session), _option(session, "Hold an auction"))
    session.advance()
    path = session.save(tmp_path / "game.json")
    loaded = GameState.deserialize(spec, path.read_text(encoding="utf-8"))
    assert loaded.fingerprint() == session.state.fingerprint()
    assert loaded.decision is not None and loaded.decision.player == session.asked()


def test_with_keep_to_every_change_is_in_the_file_before_anyone_is_told(spec: GameSpec, tmp_path: Path) -> None:
    """`keep_to` (serve --save): each answer, each bot's move and an undo are written under
    the lock as they are made, so whoever is told of a change (on_move, or the answer's
    return) finds the file holding it: CI once saw a page shown a decision one past the
    file, when the file was written after the bots' last move."""
    kept = tmp_path / "game.json"
    session = TableSession(spec, ["human", "random"], seed=4)
    session.keep_to = kept

    def in_the_file() -> GameState:
        return GameState.deserialize(spec, kept.read_text(encoding="utf-8"))

    session.answer(0, _at(session), _option(session, "Play"))
    assert in_the_file().fingerprint() == session.state.fingerprint()
    told: list[bool] = []
    session.advance(on_move=lambda: told.append(in_the_file().fingerprint() == session.state.fingerprint()))
    assert told and all(told)
    session.answer(0, _at(session), _option(session, "Hold an auction"))
    session.answer(0, _at(session), _option(session, "bid 1"))
    session.advance()
    assert session.undo(0) == "your last decision is taken back"
    assert in_the_file().fingerprint() == session.state.fingerprint()  # the undo is kept too
    kept.unlink()
    kept.mkdir()  # a file that cannot be written: the game goes on, the earlier save kept
    session.answer(0, _at(session), _option(session, "bid 2"))
    assert kept.is_dir()


def test_a_game_taken_up_from_a_save_knows_who_took_each_decision(spec: GameSpec, tmp_path: Path) -> None:
    """A person's undo reaches past the point where a saved game was taken up (a user's
    trial of `serve --resume` was told "nothing of yours to undo yet" after 13 decisions)."""
    session = TableSession(spec, ["human", "random"], seed=4)
    session.answer(0, _at(session), _option(session, "Play"))
    session.advance()
    session.answer(0, _at(session), _option(session, "Hold an auction"))
    session.answer(0, _at(session), _option(session, "bid 1"))
    session.advance()
    loaded = GameState.deserialize(spec, session.save(tmp_path / "game.json").read_text(encoding="utf-8"))
    again = TableSession(spec, ["human", "random"], seed=4, state=loaded)
    assert again.made_by == session.made_by and 0 in again.made_by and 1 in again.made_by
    assert again.undo(0) == session.undo(0) == "your last decision is taken back"
    assert again.state.fingerprint() == session.state.fingerprint()


def test_two_answers_at_once_are_applied_one_at_a_time(spec: GameSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both threads answer the same decision; applying one takes a while (slowed here), so
    without the session's lock both would pass the checks before either applied."""
    session = TableSession(spec, ["human", "human"], seed=3)
    number = _at(session)
    play = _option(session, "Play")
    real = session._apply

    def slow_apply(index: int) -> None:
        time.sleep(0.2)
        real(index)

    monkeypatch.setattr(session, "_apply", slow_apply)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def answer() -> None:
        start.wait()
        try:
            session.answer(0, number, play)
            outcomes.append("applied")
        except NotYourTurn as err:
            outcomes.append(f"refused: {err}")

    threads = [threading.Thread(target=answer) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes)[0] == "applied" and sorted(outcomes)[1].startswith("refused: that answer is for decision 0")
    assert _at(session) == number + 1 and session.made_by == [0]
    assert [r.kind for r in session.chronicle.records].count("choice") == 2  # one choice: named, and hidden to P2


def test_a_persons_undo_never_takes_back_another_persons_decision(spec: GameSpec) -> None:
    """Hot seat (two people): P1's undo would take back P2's decision made since, without
    P2: refused, nothing changed, at the table and in the plain terminal's match alike
    (agents/match.py `_take_back`); a bot's moves since are taken back with it (above)."""
    from legacies.agents.match import _take_back

    session = TableSession(spec, ["human", "human"], seed=4)
    while not (session.made_by and session.made_by[-1] == 1 and 0 in session.made_by):
        asked = session.asked()
        assert asked is not None
        session.answer(asked, _at(session), 0)
    before = _snapshot(session)
    said = session.undo(0)
    assert said == ("cannot undo: P2 has decided since, and an undo takes back only your own decisions and the "
                    "bots' moves after them")
    assert _snapshot(session) == before and session.takebacks == 0
    made_by = list(session.made_by)
    assert _take_back(session.state, 0, made_by, [0, 1]) == f"  P1: {said}"
    assert made_by == session.made_by and _snapshot(session) == before
    # the same decisions with P2 a bot: P1's undo takes P2's move back with P1's own
    assert _take_back(session.state, 0, made_by, [0]) == "  P1 takes back their last decision"


def test_an_answer_sent_before_an_undo_is_stale(spec: GameSpec) -> None:
    """After an undo a decision's number comes round again, perhaps with other options: an
    answer that names the undos made before it is refused (`takebacks`), and the view says
    the count an answer names."""
    session = TableSession(spec, ["human", "random"], seed=4)
    session.answer(0, _at(session), _option(session, "Play"))
    session.advance()
    number = _at(session)
    session.answer(0, number, 0, takebacks=0)
    session.advance()
    assert session.undo(0) == "your last decision is taken back"
    assert session.takebacks == 1 and _at(session) == number
    view = session.view(0)
    assert view.decision is not None and (view.decision.number, view.decision.takebacks) == (number, 1)
    before = _snapshot(session)
    with pytest.raises(NotYourTurn, match="sent before the table's last undo"):
        session.answer(0, number, 0, takebacks=0)
    assert _snapshot(session) == before
    session.answer(0, number, 0, takebacks=1)
    assert _at(session) > number


class _Watching:
    """A bot that, while it thinks, looks at the table as other seats would: whether the
    table's lock is free (a view would be answered), and, once, takes back the person's
    last decision (a page's undo while it thinks)."""

    name = "watching"

    def __init__(self, session: TableSession, undo_once: bool):
        self.session = session
        self.undo_once = undo_once
        self.lock_free: list[bool] = []

    def choose(self, state: GameState) -> int:
        free = self.session.lock.acquire(blocking=False)
        if free:
            self.session.lock.release()
        self.lock_free.append(free)
        if self.undo_once:
            self.undo_once = False
            assert self.session.undo(0) == "your last decision is taken back"
        return 0


def test_a_bot_thinks_without_holding_the_table(spec: GameSpec) -> None:
    """A hostile tester's trial: a search bot thinking for 8 s froze every page's view for
    8 s (it thought under the lock the views take), and a flood of views lengthened it. It
    thinks on its own copy, the lock free; an undo that lands meanwhile is not overtaken:
    the bot's move is not made on the game it no longer is."""
    session = TableSession(spec, ["human", "random"], seed=3)
    bot = _Watching(session, undo_once=False)
    session.agents[1] = bot
    session.answer(0, _at(session), _option(session, "Play"))
    session.advance(steps=1)
    assert bot.lock_free == [True] and session.made_by[-1] == 1
    undoing = TableSession(spec, ["human", "random"], seed=3)
    bot = _Watching(undoing, undo_once=True)
    undoing.agents[1] = bot
    undoing.answer(0, _at(undoing), _option(undoing, "Play"))
    undoing.advance()
    # the person's decision taken back while the bot thought: the game waits on the person
    # again, and the bot's move (chosen for the game before the undo) was never made
    assert bot.lock_free == [True] and _at(undoing) == 0 and undoing.waiting_for_person() == 0
