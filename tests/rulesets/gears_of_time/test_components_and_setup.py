"""Legacy: Gears of Time: the components and the setup (GOT-1 to GOT-4, GOT-17): the deck
of 66 technologies and 6 fate cards, the technology tree and what each card prints, the
timeline and its capacities, what each player starts with, and turn order."""

from __future__ import annotations

from collections import Counter

import pytest

from legacies.interpreter import mechanics as mech

from .conftest import DRAW, Table, spec

FATES = {"bloodline_influence": "Bloodline Influence", "not_what_we_hoped_for": "Not What We Hoped For",
         "perfectly_laid_plans": "Perfectly Laid Plans", "time_folds_around_us": "Time Folds Around Us",
         "we_need_more_time": "We Need More Time", "willed_into_existence": "Willed Into Existence"}


def technologies() -> dict:
    return {d.id: d for d in spec().defs if d.kind == "technology"}


def depth(tech: str) -> int:
    pre = technologies()[tech].attrs.get("prerequisites", {})
    return 0 if not pre else 1 + max(depth(p) for p in pre)


# ============================================================================ GOT-1
@pytest.mark.rule("GOT-1")
def test_got1_one_deck_of_66_technologies_and_6_fate_cards() -> None:
    t = Table(2, seed=3)
    cards = Counter()
    for pid in t.lay.kind_pieces["technology"] + t.lay.kind_pieces["fate"]:
        cards[spec().defs[t.lay.piece_def[pid]].kind] += 1
    assert cards == {"technology": 66, "fate": 6}
    assert {d.id: d.name for d in spec().defs if d.kind == "fate"} == FATES
    # every card started in the one deck: after dealing, the deck and the hands hold all 72
    held = len(t.zone("deck")) + sum(len(t.zone("hand", p)) for p in range(2))
    assert held == 72
    assert t.lay.zone_visibility[t.zid("discards")] == "hidden"  # discards are face down


@pytest.mark.rule("GOT-1")
def test_got1_each_technology_prints_cost_reward_and_its_prerequisites_with_their_rewards() -> None:
    techs = technologies()
    assert len(techs) == 44 and sum(d.copies for d in techs.values()) == 66
    for tid, d in techs.items():
        assert isinstance(d.attrs["cost"], int) and 0 <= d.attrs["cost"] <= 3, tid
        assert isinstance(d.attrs["reward"], int) and d.attrs["reward"] >= 1, tid
        pre = d.attrs.get("prerequisites", {})
        for p, printed in pre.items():
            assert printed == techs[p].attrs["reward"], (tid, p)  # the reward printed is the prerequisite's
        # indented below: the prerequisites of the prerequisites (not already listed)
        deeper = []
        for p in pre:
            deeper += [q for q in techs[p].attrs.get("prerequisites", {}) if q not in pre and q not in deeper]
        assert d.attrs.get("earlier", []) == deeper, tid
    # a tree of sensible depth and fan-in: seven levels, up to three prerequisites each
    assert Counter(depth(t) for t in techs) == {0: 6, 1: 8, 2: 8, 3: 7, 4: 7, 5: 4, 6: 4}
    assert max(len(d.attrs.get("prerequisites", {})) for d in techs.values()) == 3
    # the technologies everything starts from come twice, the later ones once
    assert all(d.copies == (2 if depth(tid) <= 2 else 1) for tid, d in techs.items())


@pytest.mark.rule("GOT-1")
def test_got1_a_draw_from_an_empty_deck_rebuilds_it_from_the_face_down_discards(table) -> None:
    t = table(2, seed=1)
    p = t.player
    for pid in t.zone("deck")[:-3]:  # all but the top three cards of the deck are discarded
        mech.move(t.st, pid, t.zid("discards"))
    t.refresh()
    t.pick(DRAW)
    t.pick(t.labels()[0])  # keep one: 1 card left in the deck, the other discarded face down
    assert len(t.zone("deck")) == 1 and t.player == p
    t.pick(DRAW)  # one card from the deck, then the discards are shuffled into a new deck
    assert "the deck is rebuilt from the discard pile (face down)" in t.st.log
    assert t.zone("discards") == [] and len(t.zone("deck")) > 50


# ============================================================================ GOT-2
@pytest.mark.rule("GOT-2")
@pytest.mark.parametrize("players,present", [(2, 5), (3, 6), (4, 7)])
def test_got2_the_present_day_starts_on_the_timeframe_marked_for_the_players(players: int, present: int) -> None:
    t = Table(players)
    assert t.counter("present") == present
    marked = {d.attrs.get("mark", 0): d.name for d in spec().defs if d.kind == "timeframe"}
    assert marked[players].startswith(f"Timeframe {present} (")  # marked II, III or IV
    assert marked[players].endswith({2: "(II)", 3: "(III)", 4: "(IV)"}[players])


@pytest.mark.rule("GOT-2")
def test_got2_capacity_is_one_left_of_the_present_and_grows_to_the_left() -> None:
    t = Table(4)  # the Present Day on timeframe 7
    assert [t.value(f"capacity({n})") for n in range(1, 9)] == [6, 5, 4, 3, 2, 1, 0, 0]
    assert len([d for d in spec().defs if d.kind == "timeframe"]) == 11


@pytest.mark.rule("GOT-2", "GOT-7")
def test_got2_a_full_timeframe_takes_no_more_technologies(table) -> None:
    t = table(2)  # the Present Day on 5: timeframe 4 holds 1
    p = t.player
    t.establish("fire", 4, **{f"p{p + 1}": 1})
    t.give(p, "pottery", "weaving", "agriculture")
    t.move_pawn(p, 4)
    t.refresh()
    assert not any(label.startswith("Establish") for label in t.labels())
    t.move_pawn(p, 3)  # timeframe 3 holds 2
    t.refresh()
    assert "Establish Pottery" in t.labels()


# ============================================================================ GOT-3
@pytest.mark.rule("GOT-3")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_got3_each_player_starts_with_a_character_cubes_an_empty_pool_a_pawn_and_six_cards(players: int) -> None:
    t = Table(players, seed=players)
    characters = [t.st.values[t.lay.player_value["character"] + p] for p in range(players)]
    assert len(set(characters)) == players  # each a different character card
    for p in range(players):
        pursuit = t.value("my character's pursuit", p)
        assert spec().defs[int(pursuit)].kind == "technology"
        assert t.value("my character's bonus", p) >= 4
        assert t.supply(p) == 60 and t.pool(p) == 0
        assert t.counter("at", p) == t.counter("present")  # the pawn on the Present Day
        assert t.points(p) == 0
        position = t.st.turn_order.index(p)
        assert len(t.zone("hand", p)) == 6 + position  # GOT-4: 1/2/3 more for 2nd/3rd/4th


# ============================================================================ GOT-4
@pytest.mark.rule("GOT-4")
def test_got4_turn_order_is_chosen_clockwise_from_a_start_player_on_free_spots() -> None:
    seen = set()
    for seed in range(12):
        t = Table(4, seed=seed, spots=[4, 1, 3])  # the first to choose takes spot 4, the next 1, then 3
        first = t.choosers[0]
        assert t.choosers == [first, (first + 1) % 4, (first + 2) % 4]  # clockwise from the start player
        seen.add(first)
        # the last chooser is left spot 2: no question for them
        assert t.st.turn_order == [(first + 1) % 4, (first + 3) % 4, (first + 2) % 4, first]
        for position, p in enumerate(t.st.turn_order):
            assert len(t.zone("hand", p)) == 6 + position
    assert len(seen) > 1  # the start player is drawn at random


@pytest.mark.rule("GOT-4")
def test_got4_only_free_spots_are_offered() -> None:
    from legacies.interpreter.game import Game

    state = Game(spec(), 3).new_state(5)
    d = state.decision
    assert d.labels() == ["1", "2", "3"]
    state.apply_label("2")
    assert state.decision.labels() == ["1", "3"]


# ============================================================================ GOT-17
@pytest.mark.rule("GOT-17", "GOT-12")
def test_got17_antibiotics_prints_the_hospital_reward_as_4_and_scores_it() -> None:
    techs = technologies()
    assert techs["antibiotics"].attrs["prerequisites"] == {"hospital": 4, "microscope": 5, "chemistry": 5}
    assert techs["hospital"].attrs["reward"] == 4
    t = Table(4)
    t.run("set my character to the_printer")  # a pursuit that is not on the timeline
    t.establish("hospital", 2, p2=1)
    t.establish("microscope", 2, p2=1)
    t.establish("chemistry", 3, p2=1)
    t.establish("antibiotics", 4, p1=2)
    t.run("strengthen_legacy()")  # every card standing (none failed)
    assert t.points(0) == 7 + 4 + 5 + 5  # Antibiotics, and Hospital's 4 given again
