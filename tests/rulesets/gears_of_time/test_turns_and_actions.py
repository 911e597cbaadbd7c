"""Legacy: Gears of Time: rounds and turns, the four actions and playing fate cards
(GOT-5 to GOT-9, GOT-16), played through the game's own decisions."""

from __future__ import annotations

import random

import pytest

from legacies.agents.bots import apply_random_option
from legacies.interpreter.game import Game

from .conftest import DRAW, is_spot_choice, spec


def establish_options(t) -> list[str]:  # noqa: ANN001
    return [label for label in t.labels() if label.startswith("Establish")]


# ============================================================================ GOT-5
@pytest.mark.rule("GOT-5", "GOT-10", "GOT-14")
@pytest.mark.parametrize("players,seed", [(2, 21), (3, 22), (4, 23)])
def test_got5_four_rounds_of_four_turns_each(players: int, seed: int) -> None:
    """A random game: each round every player takes four turns in that round's order,
    then the end of the round; four rounds, three refreshes, and the game is over."""
    state = Game(spec(), players).new_state(seed)
    rng = random.Random(seed)
    lay = state.game.layout
    turns: dict[int, list[int]] = {}
    last = None
    while state.decision is not None:
        rnd = state.st.counters[lay.game_counter["round"]]
        if rnd and state.st.turns != last and not is_spot_choice(state):
            last = state.st.turns
            turns.setdefault(rnd, []).append(state.st.active)
        apply_random_option(state, rng)
    assert sorted(turns) == [1, 2, 3, 4]
    for rnd, who in turns.items():
        assert len(who) == 4 * players, rnd
        assert sorted(who) == sorted(list(range(players)) * 4)
        assert who[:players] * 4 == who  # the same order for the four turns of a round
    log = state.st.log
    assert sum(1 for line in log if line.startswith("the Present Day moves")) == 4
    assert sum(1 for line in log if line.startswith("turn order:")) == 4  # setup, then three refreshes
    assert state.st.counters[lay.game_counter["present"]] == {2: 9, 3: 10, 4: 11}[players]
    assert state.is_terminal()


# ============================================================================ GOT-6
@pytest.mark.rule("GOT-6")
def test_got6_a_turn_is_three_actions_repeats_allowed(table) -> None:
    t = table(3, seed=2)
    p = t.player
    for n in range(3):  # three draws: the same action three times
        assert t.player == p and t.counter("actions_left", p) == 3 - n
        t.pick(DRAW)
        t.pick(t.labels()[0])
    assert t.player != p  # three actions and the turn is over
    assert len(t.zone("hand", p)) == 6 + t.st.turn_order.index(p) + 3


@pytest.mark.rule("GOT-6")
def test_got6_travel_moves_the_pawn_left_any_number_of_timeframes(table) -> None:
    t = table(3)  # the Present Day on 6
    p = t.player
    assert [label for label in t.labels() if label.startswith("Travel")] == [
        "Travel to the past: Timeframe 1", "Travel to the past: Timeframe 2", "Travel to the past: Timeframe 3",
        "Travel to the past: Timeframe 4", "Travel to the past: Timeframe 5 (II)"]
    t.pick("Travel to the past: Timeframe 4")
    assert t.counter("at", p) == 4
    assert [label for label in t.labels() if label.startswith("Travel")][-1] == "Travel to the past: Timeframe 3"
    t.pick("Travel to the past: Timeframe 1")
    assert t.counter("at", p) == 1
    assert not any(label.startswith("Travel") for label in t.labels())  # never forward


@pytest.mark.rule("GOT-6")
def test_got6_draw_two_keep_one_discard_the_other_face_down(table) -> None:
    t = table(3)
    p = t.player
    first, second = t.zone("deck")[-1], t.zone("deck")[-2]
    t.pick(DRAW)
    assert sorted(t.decision.options[i].value for i in range(2)) == sorted([first, second])
    t.pick_piece(second)
    assert second in t.zone("hand", p) and t.zone("discards") == [first]
    assert t.lay.zone_visibility[t.zid("discards")] == "hidden"
    assert t.zone("drawn", p) == []


# ============================================================================ GOT-7
@pytest.mark.rule("GOT-7")
def test_got7_establish_discards_its_cost_and_moves_as_many_cubes_onto_it(table) -> None:
    t = table(3)
    p = t.player
    agriculture, fire, pottery, weaving = t.give(p, "agriculture", "fire", "pottery", "weaving")
    t.refresh()
    t.pick("Travel to the past: Timeframe 2")
    t.pick("Establish Agriculture")  # discard cost 2
    assert t.decision.player == p and t.decision.prompt.startswith("choose")
    t.pick_piece(fire)
    t.pick_piece(weaving)
    assert agriculture in t.zone("timeline") and t.time(agriculture) == 2
    assert t.cubes(agriculture, p) == 2 and t.supply(p) == 58
    assert t.zone("hand", p) == [pottery] and sorted(t.zone("discards")) == sorted([fire, weaving])
    assert t.counter("actions_left", p) == 1


@pytest.mark.rule("GOT-7")
def test_got7_a_cost_0_technology_takes_no_discard_and_no_cube(table) -> None:
    t = table(3)
    p = t.player
    [weaving] = t.give(p, "weaving")
    t.refresh()
    t.pick("Travel to the past: Timeframe 1")
    t.pick("Establish Weaving")
    assert t.timeline() == {1: ["weaving"]} and t.cubes(weaving, p) == 0 and t.supply(p) == 60


@pytest.mark.rule("GOT-7")
def test_got7_not_where_that_technology_already_is_nor_without_cards_to_discard(table) -> None:
    t = table(3)
    p = t.player
    t.establish("fire", 3, p2=1)
    t.give(p, "fire", "agriculture")
    t.move_pawn(p, 3)
    t.refresh()
    assert establish_options(t) == []  # Fire is there; Agriculture's 2 discards are more than the hand
    t.move_pawn(p, 2)
    t.refresh()
    assert establish_options(t) == ["Establish Fire"]  # Fire again, elsewhere
    t.give(p, "fire", "agriculture", "pottery")
    t.move_pawn(p, t.counter("present"))
    t.refresh()
    assert establish_options(t) == []  # never in the Present Day
    t.move_pawn(p, 3)
    t.refresh()
    assert establish_options(t) == ["Establish Agriculture", "Establish Pottery"]


# ============================================================================ GOT-8
@pytest.mark.rule("GOT-8")
def test_got8_influence_adds_any_number_of_pool_cubes_to_a_technology_in_your_timeframe(table) -> None:
    t = table(3)
    p = t.player
    here = t.establish("writing", 3, p3=1)
    there = t.establish("fire", 2, p3=1)
    t.move_pawn(p, 3)
    t.refresh()
    assert not any(label.startswith("Influence") for label in t.labels())  # an empty pool
    t.fill_pool(p, 4)
    t.refresh()
    assert [label for label in t.labels() if label.startswith("Influence")] == ["Influence Writing "
                                                                               "(cubes from your pool)"]
    t.pick("Influence Writing (cubes from your pool)")
    assert t.labels() == ["1", "2", "3", "4"]
    t.pick("3")
    assert t.cubes(here, p) == 3 and t.pool(p) == 1 and t.supply(p) == 56 and t.cubes(there, p) == 0


# ============================================================================ GOT-9
@pytest.mark.rule("GOT-9")
def test_got9_fate_cards_are_no_actions_and_may_follow_the_last_action(table) -> None:
    t = table(3)
    p = t.player
    t.establish("fire", 1, p2=1)
    t.give(p, "bloodline_influence", "time_folds_around_us")
    t.refresh()
    t.pick("Play Bloodline Influence")  # a technology in another timeframe: the pawn stays home
    assert t.counter("actions_left", p) == 3
    for _ in range(3):
        t.pick(DRAW)
        t.pick(t.labels()[0])
    assert t.player == p and t.labels() == ["Play Time Folds Around Us", "done"]  # after the third action
    t.pick("done")
    assert t.player != p


@pytest.mark.rule("GOT-9", "GOT-16")
def test_got9_we_need_more_time_goes_with_an_establish_action_in_your_timeframe(table) -> None:
    t = table(2)  # the Present Day on 5: timeframe 4 holds one technology
    p = t.player
    t.establish("fire", 4, p2=1)
    more, pottery, weaving = t.give(p, "we_need_more_time", "pottery", "weaving")
    t.refresh()
    assert not any(label.startswith("Play We Need") for label in t.labels())  # never alone
    t.move_pawn(p, 4)
    t.refresh()
    assert establish_options(t) == ["Establish Pottery", "Establish Weaving"]
    t.pick("Establish Pottery")  # We Need More Time played with it; Weaving discarded for the cost
    assert t.timeline() == {4: ["fire", "pottery"]}
    assert more not in t.zone("hand", p) and t.zone("hand", p) == [] and weaving in t.zone("discards")
    t.end_of_round()
    assert more in t.zone("discards")  # fate cards on the table are discarded at the end of the round


# ============================================================================ GOT-16
@pytest.mark.rule("GOT-16")
def test_got16_bloodline_influence_puts_a_supply_cube_on_any_technology(table) -> None:
    t = table(3)
    p = t.player
    far = t.establish("fire", 1, p3=1)
    [card] = t.give(p, "bloodline_influence")
    t.refresh()
    t.pick("Play Bloodline Influence")
    assert t.cubes(far, p) == 1 and t.supply(p) == 59 and card in t.zone("discards")


@pytest.mark.rule("GOT-16")
def test_got16_not_what_we_hoped_for_makes_a_reward_0_but_not_a_pursuit_reward(table) -> None:
    t = table(3)
    p = t.player
    t.run("set my character to the_banker", p)
    banking = t.establish("banking", 4, **{f"p{p + 1}": 2})
    t.establish("fire", 1, **{f"p{p + 1}": 1})
    t.give(p, "not_what_we_hoped_for")
    t.refresh()
    t.pick("Play Not What We Hoped For")
    t.pick_piece(banking)
    assert t.value("reward_of(top of (on_timeline() where it is banking))") == 0
    t.run("strengthen_legacy()")  # nothing failed: every card stands
    # the pursuit reward 4 stands; Banking's own reward is 0, its prerequisites Currency and
    # Mathematics (3 each) are given again; Fire's 1
    assert t.points(p) == 4 + 0 + 3 + 3 + 1
    assert t.value("reward_of(top of (on_timeline() where it is banking))") == 4  # fate cards discarded


@pytest.mark.rule("GOT-16")
def test_got16_a_zeroed_technology_scores_0_as_a_prerequisite_too(table) -> None:
    t = table(3)
    t.run("set my character to the_banker")
    writing = t.establish("writing", 2, p2=1)
    t.establish("mathematics", 3, p1=1)
    t.fate_on("not_what_we_hoped_for", writing, 2)
    t.run("strengthen_legacy()")
    assert t.points(0) == 3  # Mathematics 3, Writing's 3 given again is 0
    assert t.points(1) == 1  # Writing's own reward is 0; Pottery's 1 given again


@pytest.mark.rule("GOT-16")
def test_got16_perfectly_laid_plans_protects_from_the_others_only(table) -> None:
    t = table(3)
    p = t.player
    other = (p + 1) % 3
    guarded = t.establish("writing", 2, **{f"p{other + 1}": 1})
    t.fate_on("perfectly_laid_plans", guarded, other)
    open_card = t.establish("fire", 2, p1=1, p2=1, p3=1)
    t.give(p, "bloodline_influence", "not_what_we_hoped_for", "willed_into_existence")
    t.fill_pool(p, 2)
    t.move_pawn(p, 2)
    t.refresh()
    assert "Influence Writing (cubes from your pool)" not in t.labels()
    assert "Influence Fire (cubes from your pool)" in t.labels()
    assert "Play Willed Into Existence" not in t.labels()  # the only card with a prerequisite is protected
    t.pick("Play Bloodline Influence")
    assert t.decision is not None and guarded not in [o.value for o in t.decision.options]
    t.pick_piece(open_card)
    # the player who played it may still influence it
    assert t.value("shielded(top of (on_timeline() where it is writing))", other) is False
    assert t.value("shielded(top of (on_timeline() where it is writing))", p) is True


@pytest.mark.rule("GOT-16")
def test_got16_time_folds_moves_a_player_one_timeframe_never_past_the_present(table) -> None:
    t = table(3)  # the Present Day on 6
    p = t.player
    other = (p + 1) % 3
    [card] = t.give(p, "time_folds_around_us")
    t.refresh()
    t.pick("Play Time Folds Around Us")
    t.pick(f"P{other + 1}")  # on the Present Day: only back (no question)
    assert t.counter("at", other) == 5 and card in t.zone("discards")
    t.move_pawn(other, 1)
    t.reserved.clear()  # the card comes back from the discards
    t.give(p, "time_folds_around_us")
    t.refresh()
    t.pick("Play Time Folds Around Us")
    t.pick(f"P{other + 1}")  # at timeframe 1: only forward
    assert t.counter("at", other) == 2
    t.move_pawn(other, 4)
    t.reserved.clear()
    t.give(p, "time_folds_around_us")
    t.refresh()
    t.pick("Play Time Folds Around Us")
    t.pick(f"P{other + 1}")
    assert t.labels() == ["back one timeframe", "forward one timeframe"]
    t.pick("forward one timeframe")
    assert t.counter("at", other) == 5


@pytest.mark.rule("GOT-16", "GOT-11", "GOT-12")
def test_got16_willed_into_existence_removes_a_dependency_and_its_points(table) -> None:
    t = table(3)
    t.run("set my character to the_printer")
    mathematics = t.establish("mathematics", 3, p1=1)  # needs Writing, which is nowhere
    t.run("resolve_disputes()")
    assert t.failed(mathematics) == 1
    t.run("for each C in on_timeline():\n    set C's failed to 0")
    t.fate_on("willed_into_existence", mathematics, 1, removes="writing")
    t.run("resolve_disputes()")
    assert t.failed(mathematics) == 0  # as if Writing were not printed on it
    t.run("strengthen_legacy()")
    assert t.points(0) == 3


@pytest.mark.rule("GOT-16", "GOT-12")
def test_got16_no_points_for_the_dependency_removed_even_when_it_stands(table) -> None:
    t = table(3)
    t.run("set my character to the_printer")
    t.establish("pottery", 1, p2=1)
    t.establish("writing", 2, p2=1)
    mathematics = t.establish("mathematics", 3, p1=1)
    t.give(0, "willed_into_existence")
    t.run("play top of (cards in my hand)", 0, answers=["Mathematics"])  # its only dependency: no question
    t.run("resolve_disputes()")
    assert t.failed(mathematics) == 0
    t.run("strengthen_legacy()")
    assert t.points(0) == 3  # Mathematics, and not Writing's 3 again
