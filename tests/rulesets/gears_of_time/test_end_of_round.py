"""Legacy: Gears of Time: End of Round Bureaucracy (return to the present, historical
disputes, strengthen your legacy), Refresh, and the end of the game (GOT-10 to GOT-15),
run as the rules write them (rules/gears-of-time/flow.yaml) on arranged timelines."""

from __future__ import annotations

import pytest

from legacies.interpreter.game import Game

from .conftest import Table, spec


def no_pursuits(t: Table) -> None:
    """Every player pursues a technology no test here puts on the timeline."""
    for p, who in enumerate(["the_printer", "the_banker", "the_navigator", "the_industrialist"][:t.game.players]):
        t.run(f"set my character to {who}", p)


# ============================================================================ GOT-10
@pytest.mark.rule("GOT-10")
def test_got10_pawns_return_to_the_present_which_moves_right_and_capacities_grow(table) -> None:
    t = table(3)  # the Present Day on 6
    for p, where in enumerate([1, 4, 6]):
        t.move_pawn(p, where)
    before = [t.value(f"capacity({n})") for n in range(1, 8)]
    t.run("return_to_present()")
    assert t.counter("present") == 7
    assert [t.counter("at", p) for p in range(3)] == [7, 7, 7]
    assert [t.value(f"capacity({n})") for n in range(1, 8)] == [c + 1 for c in before[:6]] + [0]
    assert before == [5, 4, 3, 2, 1, 0, 0]


# ============================================================================ GOT-11
@pytest.mark.rule("GOT-11")
def test_got11_cards_with_no_cubes_are_discarded(table) -> None:
    t = table(3)
    bare = t.establish("weaving", 2)
    kept = t.establish("fire", 2, p1=1)
    t.run("resolve_disputes()")
    assert bare in t.zone("discards") and kept in t.zone("timeline")


@pytest.mark.rule("GOT-11")
def test_got11_a_technology_succeeds_when_each_prerequisite_succeeds_earlier(table) -> None:
    t = table(4)
    fire = t.establish("fire", 1, p1=1)
    stone = t.establish("stone_tools", 2, p1=1)
    bronze = t.establish("bronze_working", 2, p2=1)  # Stone Tools in the same timeframe: not earlier
    iron = t.establish("iron_working", 3, p3=1)  # its prerequisite failed: it fails too
    pottery = t.establish("pottery", 1, p1=1)
    writing = t.establish("writing", 2, p2=1)
    maths = t.establish("mathematics", 5, p3=1)  # Writing two timeframes earlier: fine
    t.run("resolve_disputes()")
    assert [t.failed(x) for x in (fire, stone, bronze, iron, pottery, writing, maths)] == [0, 0, 1, 1, 0, 0, 0]
    assert bronze in t.zone("timeline") and iron in t.zone("timeline")  # failed cards stay (tilted)


@pytest.mark.rule("GOT-11")
def test_got11_of_a_technology_the_earliest_successful_card_is_kept(table) -> None:
    t = table(4)
    t.establish("pottery", 1, p4=1)
    early_fail = t.establish("writing", 1, p1=3)  # no earlier Pottery: fails
    good = t.establish("writing", 2, p2=1)
    t.run("resolve_disputes()")
    assert t.zone("timeline").count(good) == 1 and early_fail in t.zone("discards")
    assert t.cubes(good, 1) == 1 and t.supply(0) == 60  # the discarded card's cubes went back


@pytest.mark.rule("GOT-11")
def test_got11_with_no_successful_card_the_latest_failed_card_is_kept(table) -> None:
    t = table(4)
    first = t.establish("writing", 1, p1=2)
    last = t.establish("writing", 3, p2=1, p3=1)
    t.run("resolve_disputes()")
    assert t.failed(last) == 1 and last in t.zone("timeline")
    assert first in t.zone("discards") and t.supply(0) == 60
    assert "Writing in timeframe 1 is a duplicate: discarded, its cubes back to their supplies" in t.st.log


# ============================================================================ GOT-12
@pytest.mark.rule("GOT-12")
def test_got12_the_most_influence_over_a_successful_card_scores_it_and_its_prerequisites(table) -> None:
    t = table(4)
    no_pursuits(t)
    t.establish("pottery", 1, p2=1)
    t.establish("writing", 2, p1=3, p2=2)
    t.establish("fire", 3, p3=1, p4=1)  # a tie: reward 1 split two ways, rounded down: 0 each
    t.establish("mathematics", 4, p4=1)
    t.run("resolve_disputes()\nstrengthen_legacy()")
    # P1: Writing 3 + Pottery 1 again; P2: Pottery 1; P4: Mathematics 3 + Writing 3 again
    assert [t.points(p) for p in range(4)] == [4, 1, 0, 6]


@pytest.mark.rule("GOT-12")
def test_got12_ties_split_every_reward_and_round_down(table) -> None:
    t = table(3)
    no_pursuits(t)
    t.establish("pottery", 1, p3=1)
    t.establish("fire", 1, p3=2)
    t.establish("glassmaking", 2, p1=2, p2=2)  # reward 2, Fire 1 and Pottery 1 again
    t.run("resolve_disputes()\nstrengthen_legacy()")
    assert t.points(0) == t.points(1) == 2 // 2 + 1 // 2 + 1 // 2 == 1


@pytest.mark.rule("GOT-12")
def test_got12_a_pursuit_scores_only_for_the_sole_most_influence(table) -> None:
    t = table(3)
    no_pursuits(t)
    t.run("set my character to the_navigator", 0)  # pursues Navigation for 5
    t.run("set my character to the_printer", 1)
    navigation = t.establish("navigation", 2, p1=2, p2=2)  # fails: nothing earlier
    t.run("resolve_disputes()\nstrengthen_legacy()")
    assert t.failed(navigation) == 1 and t.points(0) == 0  # tied: no pursuit reward
    t.add_cubes(navigation, 0, 1)
    t.run("resolve_disputes()\nstrengthen_legacy()")
    assert t.points(0) == 5  # the sole most, on a failed card: the pursuit needs no success
    assert t.points(1) == 0


def navigation_that_succeeds(t: Table) -> int:
    """Navigation in timeframe 5, P1 alone on it, every prerequisite (and theirs) earlier,
    led by P3."""
    for tech, time in (("weaving", 1), ("pottery", 1), ("agriculture", 1), ("sailing", 2), ("writing", 2),
                       ("irrigation", 2), ("mathematics", 3), ("calendar", 3), ("astronomy", 4)):
        t.establish(tech, time, p3=1)
    return t.establish("navigation", 5, p1=2)


@pytest.mark.rule("GOT-12")
@pytest.mark.parametrize("needs_success", [False, True])
def test_got12_the_pursuit_reading_and_the_other_one_as_an_option(needs_success: bool) -> None:
    """Ours (docs/assumptions-gears-of-time.md): the pursuit reward for the sole most
    influence whether the card succeeded or not; `--option pursuit_needs_success=yes` pays it
    only for a successful card (issue 35). A success pays under both."""
    t = Table(3, options={"pursuit_needs_success": needs_success})
    no_pursuits(t)
    t.run("set my character to the_navigator", 0)  # pursues Navigation for 5
    failed = t.establish("navigation", 2, p1=2)  # fails: nothing earlier
    t.run("resolve_disputes()\nstrengthen_legacy()")
    assert t.failed(failed) == 1 and t.points(0) == (0 if needs_success else 5)
    t2 = Table(3, options={"pursuit_needs_success": needs_success})
    no_pursuits(t2)
    t2.run("set my character to the_navigator", 0)
    navigation = navigation_that_succeeds(t2)
    t2.run("resolve_disputes()\nstrengthen_legacy()")
    assert t2.failed(navigation) == 0
    assert t2.points(0) == 5 + 5 + 2 + 4  # the pursuit, Navigation, and Sailing's and Astronomy's again


@pytest.mark.rule("GOT-12")
def test_got12_failed_cards_score_nothing(table) -> None:
    t = table(3)
    no_pursuits(t)
    t.establish("writing", 2, p1=4)
    t.run("resolve_disputes()\nstrengthen_legacy()")
    assert t.points(0) == 0


# ============================================================================ GOT-13
@pytest.mark.rule("GOT-13")
def test_got13_one_cube_of_each_leader_leaves_each_card(table) -> None:
    t = table(3)
    no_pursuits(t)
    good = t.establish("fire", 1, p1=3, p2=1)
    tied = t.establish("pottery", 1, p1=2, p2=2, p3=1)
    bad = t.establish("writing", 1, p1=1, p3=2)  # fails: Pottery is not earlier
    t.run("resolve_disputes()\nstrengthen_legacy()")
    assert [t.cubes(good, p) for p in range(3)] == [2, 1, 0]
    assert [t.cubes(tied, p) for p in range(3)] == [1, 1, 1]
    assert [t.cubes(bad, p) for p in range(3)] == [1, 0, 1]
    # from successful cards to the pool (our reading: docs/assumptions-gears-of-time.md), from failed to the supply
    assert [t.pool(p) for p in range(3)] == [2, 1, 0]
    assert t.supply(2) == 60 - 3 + 1


@pytest.mark.rule("GOT-13")
def test_got13_as_printed_every_leaders_cube_goes_to_the_supply() -> None:
    """`--option leaders_cubes_to_supply=yes` plays the rule as printed (issue 35): the
    cubes of a successful card's leaders go back to their supplies too, never the pool."""
    t = Table(3, options={"leaders_cubes_to_supply": True})
    no_pursuits(t)
    good = t.establish("fire", 1, p1=3, p2=1)
    t.establish("pottery", 1, p1=2, p2=2, p3=1)
    t.run("resolve_disputes()\nstrengthen_legacy()")
    assert [t.cubes(good, p) for p in range(3)] == [2, 1, 0]
    assert [t.pool(p) for p in range(3)] == [0, 0, 0]
    assert [t.supply(p) for p in range(3)] == [60 - 5 + 2, 60 - 3 + 1, 60 - 1]


@pytest.mark.rule("GOT-13")
def test_got13_fate_cards_on_the_table_are_discarded(table) -> None:
    t = table(3)
    no_pursuits(t)
    card = t.establish("fire", 1, p1=1)
    plans = t.fate_on("perfectly_laid_plans", card, 0)
    hoped = t.fate_on("not_what_we_hoped_for", card, 1)
    t.end_of_round()
    assert plans in t.zone("discards") and hoped in t.zone("discards")
    assert card in t.zone("timeline") and t.points(0) == 0  # Fire's reward was 0 this round


# ============================================================================ GOT-14
@pytest.mark.rule("GOT-14")
def test_got14_refresh_deals_up_to_six_resets_failed_cards_and_chooses_order_anew(table) -> None:
    t = table(3, seed=4)
    t.give(0, "fire", "fire", "pottery", "pottery", "weaving", "weaving", "agriculture", "agriculture")
    t.give(1, "writing")
    t.give(2)
    failed = t.establish("writing", 2, p1=1)
    t.run("resolve_disputes()")
    assert t.failed(failed) == 1
    # fewer cubes in pool first; then fewer points; then earlier previous order
    order = list(t.st.turn_order)
    t.fill_pool(order[0], 2)
    t.set_counter("points", 5, order[1])
    t.set_counter("points", 5, order[2])
    choosers = []
    t.run("refresh()", answers=[lambda d: (choosers.append(d.player), d.labels()[-1])[1]] * 2)
    assert choosers == [order[1], order[2]]  # the pool-holder chooses last (its spot is forced)
    assert t.st.turn_order == [order[0], order[2], order[1]]  # each took the last free spot
    assert [len(t.zone("hand", p)) for p in range(3)] == [8, 6, 6]
    assert t.failed(failed) == 0


@pytest.mark.rule("GOT-14")
def test_got14_no_refresh_after_the_last_round() -> None:
    import random

    state = Game(spec(), 2).new_state(9)
    rng = random.Random(9)
    lay = state.game.layout
    while state.decision is not None:
        state.apply(rng.randrange(len(state.decision.options)))
    assert state.st.counters[lay.game_counter["round"]] == 4
    log = state.st.log
    assert len([line for line in log if line.startswith("turn order:")]) == 4  # the setup's and three refreshes
    last_round = log[max(i for i, line in enumerate(log) if line.startswith("the Present Day moves")):]
    assert not any(line.startswith("turn order:") for line in last_round)
    # the cards the last disputes tilted are tilted still: failed cards are not reset
    tilted = {line[:-len(" fails")] for line in last_round if line.endswith(" fails")}
    for pid in state.st.zones[lay.game_zone["timeline"]]:
        name = f"{state.game.piece_names[pid]} in timeframe {state.st.counters[lay.counter_slots('time')[pid]]}"
        assert state.st.counters[lay.counter_slots("failed")[pid]] == (1 if name in tilted else 0), name
    assert tilted


# ============================================================================ GOT-15
@pytest.mark.rule("GOT-15")
def test_got15_most_points_wins_then_the_larger_pool_then_earlier_turn_order(table) -> None:
    t = table(3)
    order = list(t.st.turn_order)
    for p in range(3):
        t.set_counter("points", 10, p)
    assert t.state.ranking() == order  # all tied, empty pools: turn order
    t.fill_pool(order[2], 1)
    assert t.state.ranking()[0] == order[2]  # the larger pool
    t.set_counter("points", 11, order[1])
    assert t.state.ranking()[:2] == [order[1], order[2]]  # points first
