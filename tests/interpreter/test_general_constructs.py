"""The general constructs of the effect language (issue 16), played on the `gadgets`
fixture (tests/interpreter/fixtures/gadgets/, neutral words): lists written out, the
next and previous player round the table, modulo, numbers chosen where a condition
holds, random picks, "the same card as", ending the game with a winner and a reason,
and a score that is a definition."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.agents.match import play_match
from legacies.interpreter import mechanics as mech
from legacies.interpreter import sandbox
from legacies.interpreter.errors import ContentError, IllegalChoice, InternalError
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

GADGETS = Path(__file__).parent / "fixtures" / "gadgets"
PROCEDURES = "gadgets/procedures.yaml"
ENDINGS = {"endings": True}  # the actions that end the game are offered


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("gadgets", GADGETS)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return result.spec


def counter(state: GameState, name: str, p: int) -> int:
    return state.st.counters[state.game.layout.player_counter[name] + p]


def set_counter(state: GameState, name: str, p: int, value: int) -> None:
    state.st.counters[state.game.layout.player_counter[name] + p] = value


def zone(state: GameState, name: str, p: int) -> list[int]:
    return state.st.zones[state.game.layout.player_zone[name] + p]


def copies(state: GameState, card: str) -> list[int]:
    lay = state.game.layout
    return list(lay.def_pieces[lay.def_index[card]])


def give(state: GameState, pieces: list[int], where: str, p: int) -> None:
    """Move pieces into a player's zone by hand (tests then apply with the default undo)."""
    for pid in pieces:
        mech.move(state.st, pid, state.game.layout.player_zone[where] + p)


def empty_hand(state: GameState, p: int) -> None:
    for pid in list(zone(state, "hand", p)):
        mech.move(state.st, pid, state.game.layout.game_zone["pile"])


# ---------------------------------------------------------------------- lists, turn order, modulo, numbers
def test_a_list_written_out_is_a_collection(spec) -> None:
    s = Game(spec, 3).new_state(1)
    s.apply_label("Count up")  # for each N in [1, 2, 3]: gain N coins; if my coins is in [6, 7]: gain 1 marks
    assert counter(s, "coins", 0) == 6 and counter(s, "marks", 0) == 1


def test_choosing_from_a_list_of_numbers_offers_the_numbers(spec) -> None:
    s = Game(spec, 2).new_state(1)
    asked = sandbox.run(s, "choose one of [10, 20, 30] as N\ngain N coins", answers=["20"])
    assert asked[0].prompt == "choose one of: 10, 20, 30" and asked[0].labels() == ["10", "20", "30"]
    assert all(o.item is None for o in asked[0].options)  # numbers, not the pieces with those ids
    asked = sandbox.run(s, "choose 2 of [1, 2, 3] as L\nfor each N in L:\n    gain N coins", answers=["3", "1"])
    assert asked[0].prompt == "choose 2 of: 1, 2, 3 (1 of 2)" and asked[0].labels() == ["1", "2", "3"]
    assert all(o.item is None for o in asked[0].options)
    assert counter(s, "coins", 0) == 24
    assert sandbox.value(s, "[me, player after me]", 0) == [0, 1]
    assert sandbox.value(s, "count of ([cog, lever] + [])", 0) == 2
    assert sandbox.value(s, "count of (cards in deck where it is in [cog, lever])", 0) == sum(
        1 for p in s.st.zones[s.game.layout.game_zone["deck"]] if s.game.piece_names[p] in ("Cog", "Lever"))


def test_player_after_and_player_before_wrap_round(spec) -> None:
    s = Game(spec, 3).new_state(1)
    s.apply_label("Pass round the table")  # P1: the next is P2; the one before P1 is P3 (wrapping round)
    assert [counter(s, "coins", p) for p in range(3)] == [0, 1, 0]
    assert [counter(s, "marks", p) for p in range(3)] == [0, 0, 2]
    s.apply_label("Pass round the table")  # P2
    s.apply_label("Pass round the table")  # P3: the next is P1 (wrapping round)
    assert [counter(s, "coins", p) for p in range(3)] == [1, 1, 1]
    assert [counter(s, "marks", p) for p in range(3)] == [2, 2, 2]


def test_player_after_follows_the_turn_order_as_sorted(spec) -> None:
    s = Game(spec, 3).new_state(1)
    s.st.turn_order[:] = [2, 0, 1]
    s.st.active = 0  # P1 plays; after P1 comes P2, before P1 is P3
    s.apply_label("Pass round the table")
    assert counter(s, "coins", 1) == 1 and counter(s, "marks", 2) == 2


def test_modulo_keeps_the_remainder(spec) -> None:
    for coins, left in ((0, 2), (3, 0), (4, 1), (12, 4)):
        s = Game(spec, 2).new_state(1)
        set_counter(s, "coins", 0, coins)
        s.apply_label("Keep the remainder")  # set my coins to (my coins + 7) modulo 5
        assert counter(s, "coins", 0) == left, coins


def test_choose_a_number_where_offers_only_the_numbers_that_hold(spec) -> None:
    s = Game(spec, 2).new_state(1)
    s.apply_label("Pick a multiple of three")  # choose a number from 1 to 10 where it modulo 3 is 0 as N
    assert s.decision.player == 0 and s.decision.labels() == ["3", "6", "9"]
    s.apply_label("6")
    assert counter(s, "coins", 0) == 6


@pytest.mark.parametrize("label, written, words", [
    ("Count in steps of your marks", "`choose a number from 1 to 5 step my marks as N`", "steps of 0"),
    ("Divide by your marks", "`3 modulo my marks`", "modulo 0: the divisor must be at least 1"),
])
def test_a_computed_step_or_divisor_below_one_is_an_internal_error_naming_the_statement(
        spec, label: str, written: str, words: str) -> None:
    s = Game(spec, 2, {"broken": True}).new_state(1)
    before = s.fingerprint()
    with pytest.raises(ContentError) as caught:
        s.apply_label(label)
    err = caught.value
    assert isinstance(err, InternalError) and written in err.message and words in err.message
    assert err.where is not None and err.where.file.endswith(PROCEDURES) and err.where.line is not None
    assert s.fingerprint() == before  # the action was undone


# ---------------------------------------------------------------------- random picks
def test_a_random_pick_asks_nothing_and_is_the_same_for_a_seed(spec) -> None:
    picked = []
    for _ in range(2):
        s = Game(spec, 3).new_state(4)
        rng_before = s.st.rng
        s.apply_label("Play a card at random")  # pick at random a card in my hand as C; move C to my table
        assert s.decision.player == 1 and s.decision.prompt == "choose an action"  # nobody was asked
        assert len(zone(s, "table", 0)) == 1 and len(zone(s, "hand", 0)) == 2
        assert s.st.rng != rng_before  # the state's seeded generator drew
        picked.append(zone(s, "table", 0)[0])
    assert picked[0] == picked[1]


def test_a_random_pick_spreads_over_the_seeds(spec) -> None:
    places = [0, 0, 0]  # where in the hand the picked card was
    for seed in range(60):
        s = Game(spec, 3).new_state(seed)
        hand = list(zone(s, "hand", 0))
        s.apply_label("Play a card at random")
        places[hand.index(zone(s, "table", 0)[0])] += 1
    assert sum(places) == 60 and min(places) >= 10, places


def test_picking_n_draws_distinct_members(spec) -> None:
    pairs = set()
    for seed in range(30):
        s = Game(spec, 3).new_state(seed)
        s.apply_label("Two players at random")  # pick at random 2 players as P; each gains 1 mark
        marks = [counter(s, "marks", p) for p in range(3)]
        assert sorted(marks) == [0, 1, 1], marks
        pairs.add(tuple(p for p in range(3) if marks[p]))
    assert pairs == {(0, 1), (0, 2), (1, 2)}


def test_picking_more_than_there_are_picks_all_of_them(spec) -> None:
    s = Game(spec, 3).new_state(2)
    s.apply_label("Five players at random")  # pick at random 5 players as P; gain count of P coins
    assert counter(s, "coins", 0) == 3


def test_picking_from_nothing_stops_the_rest_of_the_effect(spec) -> None:
    s = Game(spec, 2).new_state(1)
    assert zone(s, "table", 0) == []
    s.apply_label("A card from your table at random")  # pick ... in my table as C; gain 100 coins
    assert counter(s, "coins", 0) == 0
    assert s.decision.player == 1 and s.decision.prompt == "choose an action"  # the turn went on


def test_a_random_pick_shows_no_hidden_card(spec) -> None:
    s = Game(spec, 2).new_state(3)
    hand = list(zone(s, "hand", 0))
    log_before = len(s.st.log)
    view_before = s.view(1)
    s.apply_label("Hide a card at random")  # pick at random a card in my hand as C; move C to deck at bottom
    hidden = next(p for p in hand if p not in zone(s, "hand", 0))
    assert s.st.zones[s.game.layout.game_zone["deck"]][0] == hidden
    name = s.game.piece_names[hidden]
    assert not any(name in line for line in s.st.log[log_before:])
    view_after = s.view(1)
    assert view_after["zones"]["hand[P1]"] == {"hidden": 2, "revealed": []}
    assert view_after["zones"]["deck"]["revealed"] == view_before["zones"]["deck"]["revealed"] == []


# ---------------------------------------------------------------------- the same card
def test_the_same_card_compares_copies_and_is_keeps_its_meaning(spec) -> None:
    s = Game(spec, 2).new_state(1)
    empty_hand(s, 0)
    cog_a, cog_b = copies(s, "cog")[:2]
    spring = copies(s, "spring")[0]
    give(s, [cog_a, cog_b, spring], "hand", 0)
    s.apply_label("Match a pair")
    assert s.decision.labels() == ["Cog (copy 1 of 2)", "Cog (copy 2 of 2)", "Spring"]  # copies in a hand: said so
    s.apply(0)  # cog_a: one other copy of the same card; `it is C` is cog_a alone; `it is cog` is both copies
    assert counter(s, "marks", 0) == 1 and counter(s, "coins", 0) == 10 + 2

    s = Game(spec, 2).new_state(1)
    empty_hand(s, 0)
    give(s, [cog_a, cog_b, spring], "hand", 0)
    s.apply_label("Match a pair")
    s.apply(2)  # the spring: no other copy in the hand
    assert counter(s, "marks", 0) == 0 and counter(s, "coins", 0) == 10 + 2


# ---------------------------------------------------------------------- ending the game
def test_ending_the_game_names_the_winner_and_the_reason(spec) -> None:
    s = Game(spec, 3, ENDINGS).new_state(1)
    set_counter(s, "coins", 2, 9)
    s.apply_label("Win for the next player")  # end the game with player after me as the winner because "..."
    assert s.is_terminal() and s.st.over and not s.st.frames and s.legal_actions() == []
    assert s.winner() == 1 and s.winner_named() and s.end_reason() == "the last gadget"
    assert s.returns() == [0.0, 1.0, 0.0]
    assert s.ranking() == [1, 2, 0]  # the named winner, then by points
    assert s.st.log[-1] == "P2 wins: the last gadget"
    with pytest.raises(IllegalChoice, match="the game is over"):
        s.apply(0)


def test_ending_the_game_without_a_winner_lets_the_ranking_decide(spec) -> None:
    s = Game(spec, 3, ENDINGS).new_state(1)
    set_counter(s, "coins", 2, 5)
    s.apply_label("Call the game")  # end the game; gain 50 coins
    assert s.is_terminal() and counter(s, "coins", 0) == 0  # nothing ran after it
    assert s.winner() == 2 and not s.winner_named() and s.end_reason() is None
    assert s.returns() == [0.0, 0.0, 1.0] and s.st.log[-1] == "the game ends"


def test_a_trigger_ends_the_game_in_the_middle_of_an_effect(spec) -> None:
    s = Game(spec, 3, ENDINGS).new_state(1)
    give(s, copies(s, "bomb"), "table", 1)  # the bomb (worth 0) in play on P2's table
    set_counter(s, "coins", 0, 4)
    s.apply_label("Tick")  # announce tick (the bomb: end the game because ...); gain 5 coins
    assert s.is_terminal() and counter(s, "coins", 0) == 4
    assert s.end_reason() == "the bomb went off" and not s.winner_named() and s.winner() == 0
    assert s.st.log[-1] == "the game ends: the bomb went off"


def test_a_procedure_ends_the_game_with_its_reason_filled_in(spec) -> None:
    s = Game(spec, 2, ENDINGS).new_state(1)
    s.apply_label("Finish")  # finish(me): end the game with P as the winner because "{P} finished"
    assert s.winner() == 0 and s.end_reason() == "P1 finished" and s.st.log[-1] == "P1 wins: P1 finished"


def test_the_setup_can_end_the_game(spec) -> None:
    s = Game(spec, 3, {"instant": True}).new_state(1)
    assert s.is_terminal() and s.winner() == 1 and s.end_reason() == "a quick game"
    assert s.st.turns == 0


def test_an_ended_game_clones_saves_and_replays(spec) -> None:
    s = Game(spec, 3, ENDINGS).new_state(6)
    s.apply_label("Count up")
    s.apply_label("Win for the next player")
    copy = s.clone()
    assert copy.st.ending == s.st.ending and copy.fingerprint() == s.fingerprint()
    loaded = GameState.deserialize(spec, s.serialize())
    assert loaded.canonical() == s.canonical() and loaded.canonical()["ending"] == [2, "the last gadget"]
    assert loaded.winner() == 2 and loaded.end_reason() == "the last gadget"
    other = s.clone()
    other.st.ending = (0, "the last gadget")
    assert other.fingerprint() != s.fingerprint()  # the fingerprint holds how the game ended


def test_a_game_that_ends_as_usual_keeps_its_fingerprint_shape(spec) -> None:
    s = Game(spec, 2).new_state(1)
    assert s.st.ending is None and "ending" not in s.canonical()


def test_a_match_reports_how_the_rules_ended_it(spec) -> None:
    result = play_match(spec, ["random", "random", "random"], 5, options={"instant": True})
    assert result.winner == 1 and result.scores == [0, 0, 0]
    data = result.as_json()
    assert data["winner"] == result.names[1]
    assert data["ended_by_rules"] == {"winner_named": True, "reason": "a quick game"}
    assert any(line.endswith("P2 wins: a quick game") for line in result.log), result.log


# ---------------------------------------------------------------------- a score that is a definition
def test_a_score_defined_as_a_value(spec) -> None:
    s = Game(spec, 3, ENDINGS).new_state(1)
    assert s.game.score_base == -1 and s.scores() == [0, 0, 0]
    set_counter(s, "coins", 0, 2)
    give(s, copies(s, "lever")[:1], "table", 1)  # points: my coins + total worth of (cards in my table)
    give(s, copies(s, "spring")[:2], "table", 2)
    assert s.scores() == [2, 3, 4]
    assert s.ranking() == [2, 1, 0] and s.rank_key(2)[0] == -4
    assert s.evaluate(1) == 3.0  # no `evaluation:`: bots steer by the score
    s.apply_label("Call the game")
    assert s.winner() == 2 and s.returns() == [0.0, 0.0, 1.0]
