"""What a decision is for (view/purpose.py), read by the seat asked: an action another
player takes names who takes it (a user's trial: P1, asked to accept a trade, read
"Propose a trade to P1: choose one", as if they were proposing it)."""

from __future__ import annotations

import random

from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset
from legacies.view.purpose import purpose


def test_an_action_another_player_takes_names_them_once() -> None:
    spec = load_ruleset("leaders-legacy").spec
    assert spec is not None
    gs = Game(spec, 3).new_state(4)
    rng = random.Random(4)
    own = None
    while gs.decision is not None and len(gs.st.history) < 3000:
        d = gs.decision
        if d.labels()[0].startswith("accept the trade from"):
            break
        if own is None and "choose what you offer" in purpose(gs, d, d.player):
            own = purpose(gs, d, d.player)  # the proposer's own question: no "(by ...)"
        gs.apply(rng.randrange(d.count))
    d = gs.decision
    assert d is not None and d.labels()[0].startswith("accept the trade from P2:"), "no trade asked: the test checks nothing"
    assert d.player == 0
    for viewer in range(3):
        assert purpose(gs, d, viewer) == "Propose a trade to P1 (by P2): choose one"
    assert own is not None and own.startswith("Propose a trade to ") and "(by " not in own


def test_what_a_player_plays_themselves_is_named_to_them_and_hidden_from_the_others() -> None:
    """A user's trial: after playing a card in the Legacy card game, the player's own next
    question read "Build and destroy — a hidden card": the card had gone where nobody sees
    it, though they had just played it. It is named to them; the others read it hidden."""
    spec = load_ruleset("legacy").spec
    assert spec is not None
    gs = Game(spec, 3).new_state(0)
    rng = random.Random(0)
    while len(gs.st.history) < 18:  # P1 has played Robbery, and takes two resources of what it destroyed
        d = gs.decision
        assert d is not None
        gs.apply(rng.randrange(d.count))
    d = gs.decision
    assert d is not None and d.player == 0
    question = "take two resources of the destroyed legacy's cost"
    assert purpose(gs, d, 0) == f"Build and destroy — Play Robbery: {question}"
    for other in (1, 2):
        assert purpose(gs, d, other) == f"Build and destroy — a hidden card: {question}"


def _purposes(ruleset: str, players: int, seed: int, decisions: int) -> set[str]:
    spec = load_ruleset(ruleset).spec
    assert spec is not None
    gs = Game(spec, players).new_state(seed)
    rng = random.Random(seed)
    seen = set()
    while gs.decision is not None and len(gs.st.history) < decisions:
        d = gs.decision
        seen.add(purpose(gs, d, d.player))
        gs.apply(rng.randrange(d.count))
    return seen


def test_a_discard_a_placement_and_each_half_of_an_offer_say_what_they_are_for() -> None:
    """Two users' trials: the Legacy hand limit read only "Cards in your resources (1 of 2)",
    Gears of Time's discard cost "Establish Fire: cards in your hand (1 of 1)", Leader's
    Legacy's six placements the same "Choose a province in the provinces you control", and
    what a trade asks for "choose what you offer". Each is a procedure that says what it does."""
    legacy = _purposes("legacy", 2, 3, 400)
    assert any(p.startswith("Discard down to 7 resources: ") for p in legacy)
    gears = _purposes("gears-of-time", 3, 3, 300)
    assert any(" — pay the discard cost of " in p and p.endswith(" with cards from your hand: cards in your hand (1 of 1)")
               or " with cards from your hand: cards in your hand (1 of " in p for p in gears)
    leaders = _purposes("leaders-legacy", 3, 3, 600)
    for n in range(1, 6):
        assert f"Place army {n} of 5 in a province of yours: choose a province in the provinces you control" in leaders
    assert "Place your leader in a province of yours: choose a province in the provinces you control" in leaders
    assert any("choose what you ask" in p and "for in return" in p for p in leaders)


def test_another_players_question_reads_in_the_third_person() -> None:
    """A user's trial (the browser): Bo read "Ann: Take a legacy card (look at the top 3,
    keep 1): choose a card in your offer", the "your" said to Ann. Another seat reads the
    question, and its purpose, in the third person; the player asked reads "your"."""
    from legacies.agents.session import TableSession
    from legacies.pipeline.ruleset import load_ruleset

    spec = load_ruleset("legacy").spec
    assert spec is not None
    session = TableSession(spec, ["human", "human", "random"], seed=3)
    d = session.state.decision
    assert d is not None and d.kind == "action"
    session.answer(d.player, 0, 0)  # take a legacy card: a question of the offer next
    asked, other = session.state.decision.player, 1 - session.state.decision.player
    own, theirs = session.view(asked).decision, session.view(other).decision
    assert own is not None and theirs is not None
    assert own.prompt == "choose a card in your offer" and own.purpose.endswith("choose a card in your offer")
    assert theirs.prompt == "choose a card in their offer" and theirs.purpose.endswith("choose a card in their offer")
