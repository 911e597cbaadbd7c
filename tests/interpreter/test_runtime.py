"""The generic runtime on a tiny ruleset: auctions (bids), transactions, the step
budget, hidden information in per-player views, clones and saves."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.interpreter.errors import BudgetExceeded, CorruptSave, GameError, IllegalChoice, Refused
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

TINY = Path(__file__).parent / "fixtures" / "tiny"


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("tiny", TINY)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return result.spec


def gold(state: GameState, p: int) -> int:
    lay = state.game.layout
    return state.st.counters[lay.player_counter["gold"] + p]


def points(state: GameState, p: int) -> int:
    return state.scores()[p]


def test_auction_highest_bid_wins_and_pays(spec) -> None:
    s = Game(spec, 3).new_state(1)
    s.apply_label("Hold an auction for 5 points")
    assert s.decision.player == 0 and s.decision.labels()[0] == "pass"
    s.apply_label("bid 2")
    assert s.decision.player == 1
    s.apply_label("bid 4")  # min is 3: 3, 4, 7, 10 offered
    assert s.decision.player == 2
    s.apply_label("pass")
    assert s.decision.player == 0  # P1 may raise
    assert "bid 2" not in s.decision.labels() and "bid 5" in s.decision.labels()
    s.apply_label("pass")  # P2's 4 stands
    assert gold(s, 1) == 10 - 4
    assert points(s, 1) == 5
    assert gold(s, 0) == 10 and gold(s, 2) == 10


def test_auction_bids_never_exceed_what_a_bidder_has(spec) -> None:
    s = Game(spec, 2).new_state(1)
    s.apply_label("Hold an auction for 5 points")
    assert max(int(x.split()[1]) for x in s.decision.labels() if x != "pass") == 10
    s.apply_label("bid 10")
    # P2 cannot outbid 10 with 10 gold: the auction ends without asking them
    assert points(s, 0) == 5 and gold(s, 0) == 0


def test_refused_payment_leaves_state_exactly_as_it_was(spec) -> None:
    s = Game(spec, 2).new_state(3)
    before = s.canonical()
    with pytest.raises(Refused, match="cannot pay 100 gold"):
        s.apply_label("Pay 100 gold for a point")
    assert s.canonical() == before  # the `gain 1 points` before the failed pay is undone too


def test_step_budget_stops_a_runaway_effect_and_names_it(spec) -> None:
    s = Game(spec, 2, {"runaway": True}).new_state(3)
    before = s.fingerprint()
    with pytest.raises(BudgetExceeded) as caught:
        s.apply_label("Count to a million")
    assert s.fingerprint() == before
    err = caught.value
    assert not isinstance(err, GameError), "a runaway effect is a bug, never a refusal"
    assert err.where is not None and err.where.file.endswith("tiny/procedures.yaml")
    # the loop never asks a decision, so it runs straight through, charged to the budget up
    # front: the error names the loop (`repeat 1000000 times:`), before a point is gained
    assert err.where.line == 19 and "action `busy`" in err.where.what
    assert "action `busy`" in err.running
    assert "procedures.yaml:19:7" in str(err)


def test_illegal_option_is_refused(spec) -> None:
    s = Game(spec, 2).new_state(3)
    before = s.canonical()
    with pytest.raises(IllegalChoice):
        s.apply(99)
    with pytest.raises(IllegalChoice):
        s.apply_label("win the game")
    assert s.canonical() == before


def test_view_hides_other_hands_and_the_deck(spec) -> None:
    s = Game(spec, 2).new_state(5)
    v0, v1 = s.view(0), s.view(1)
    assert isinstance(v0["zones"]["hand[P1]"], list) and len(v0["zones"]["hand[P1]"]) == 2
    assert v0["zones"]["hand[P2]"] == {"hidden": 2, "revealed": []}
    assert isinstance(v1["zones"]["hand[P2]"], list)
    assert v0["zones"]["deck"]["hidden"] == 4
    assert "options" in v0["decision"] and "options" not in v1["decision"]


def test_clone_is_equal_and_independent(spec) -> None:
    s = Game(spec, 2).new_state(5)
    c = s.clone()
    assert c.canonical() == s.canonical()
    c.apply_label("Hold an auction for 5 points")
    assert c.canonical() != s.canonical()
    assert s.decision.prompt == "choose an action"


def test_save_round_trip_and_refusals(spec) -> None:
    s = Game(spec, 2).new_state(9)
    s.apply_label("Hold an auction for 5 points")
    s.apply_label("bid 1")
    text = s.serialize()
    loaded = GameState.deserialize(spec, text)
    assert loaded.canonical() == s.canonical()
    with pytest.raises(CorruptSave):
        GameState.deserialize(spec, text[:-10])
    with pytest.raises(CorruptSave):
        GameState.deserialize(spec, text.replace('"decisions": [0, 1]', '"decisions": [0, 3]'))


def test_turn_limit_ends_the_game(spec) -> None:
    s = Game(spec, 2).new_state(2)
    while not s.is_terminal():
        s.apply_label("Play Small") if "Play Small" in s.decision.labels() else s.apply(0 if s.decision.labels()[0] != "Hold an auction for 5 points" else 0)
    assert s.st.turns == 6  # limits.max_turns
    assert s.st.counters[s.game.layout.game_counter["rounds_played"]] == 1
    assert any("turn limit" in line for line in s.st.log)


def test_wrong_player_count_is_refused(spec) -> None:
    with pytest.raises(GameError):
        Game(spec, 5)
    with pytest.raises(GameError, match="unknown option"):
        Game(spec, 2, {"nope": 1})


def test_a_journal_copies_share_until_one_appends() -> None:
    """vm.Journal: copies in O(1) and each copy keeps its own entries."""
    from legacies.interpreter.vm import Journal

    a = Journal([1, 2, 3])
    b = a.copy()
    a.append(4)
    b.append(5)  # b's list was shared and a appended to it: b goes alone
    a.append(6)
    assert a == [1, 2, 3, 4, 6] and b == [1, 2, 3, 5]
    assert len(a) == 5 and a[-1] == 6 and a[1:3] == [2, 3] and list(b) == [1, 2, 3, 5]
    c = a.copy()
    c.truncate(2)
    c.append(9)
    assert c == [1, 2, 9] and a == [1, 2, 3, 4, 6]
    with pytest.raises(IndexError):
        _ = b[4]


def test_cloning_a_state_does_not_copy_its_history() -> None:
    """A clone's cost does not grow with the game's length: its history and log are
    shared with the original until either appends, and stay independent after."""
    from legacies.pipeline.ruleset import load_ruleset

    spec = load_ruleset("legacy").spec
    assert spec is not None
    gs = Game(spec, 3).new_state(1)
    gs.apply(0)
    copy = gs.clone()
    assert copy.st.history._items is gs.st.history._items  # shared, not copied
    copy.apply(0)
    assert len(copy.st.history) == len(gs.st.history) + 1 and gs.st.history == copy.st.history[:-1]
