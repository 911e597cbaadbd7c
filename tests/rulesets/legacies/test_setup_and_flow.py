"""Legacies: setup, the generations, century end and game end (SET, GEN, CEN, END,
VAL, FND), each rule played: a table set up, decisions taken, the outcome asserted."""

from __future__ import annotations

import random

import pytest

from legacies.agents.bots import apply_random_option

from .conftest import Table, spec


def finish_generation(t: Table, rng: random.Random | None = None) -> None:
    """Random legal play until the generation counter moves on (or the game ends)."""
    rng = rng or random.Random(0)
    start = t.value("generation")
    while t.decision is not None and t.value("generation") == start:
        index, _ = apply_random_option(t.state, rng)
        assert index is not None, f"stuck at {t.decision.prompt}: {t.labels()}"


# ---------------------------------------------------------------------- setup


@pytest.mark.rule("SET-1")
def test_industries_start_at_3_and_the_generation_marker_on_1() -> None:
    t = Table()
    assert {t.value(f"share_value({x})") for x in ("law", "theater", "science")} == {3}
    assert t.value("count of (industries where its space = 3)") == 10
    assert t.value("generation") == 1 and t.value("century") == 1


@pytest.mark.rule("SET-2")
def test_three_century_decks_and_the_successor_deck_are_shuffled() -> None:
    a, b = Table(seed=1), Table(seed=2)
    for t in (a, b):
        for deck, century in (("deck_i", 1), ("deck_ii", 2), ("deck_iii", 3)):
            assert t.value(f"count of (player_cards in {deck} where its century is not {century})") == 0
    # different seeds, different orders (the market is dealt from the top of the century I deck)
    assert a.value("cards in deck_ii") != b.value("cards in deck_ii")


@pytest.mark.rule("SET-3")
def test_a_random_bonus_token_beside_each_character_in_play() -> None:
    t = Table(["politician", "socialite", "general"])
    bonuses = [t.value(f"{k}'s bonus") for k in ("politician", "socialite", "general")]
    assert all(b > 0 for b in bonuses) and len(set(bonuses)) == 3
    assert t.value("count of (characters where its bonus > 0)") == 3  # only the characters in play
    assert t.value("count of bonus_tokens in bonus_placed") == 3


@pytest.mark.rule("SET-4")
def test_three_figures_face_up_for_century_i_and_one_face_down_for_ii_and_iii() -> None:
    t = Table()
    assert t.value("count of (legendary_figures where its slot = 1 and its revealed = 1)") == 3
    assert t.value("count of (legendary_figures where its slot = 2 and its revealed = 0)") == 1
    assert t.value("count of (legendary_figures where its slot = 3 and its revealed = 0)") == 1
    assert t.value("count of (legendary_figures where its slot = 0)") == 3  # out of this game


@pytest.mark.rule("SET-5")
def test_global_actions_face_up_in_their_order() -> None:
    t = Table()
    assert t.value("count of (global_actions where its face_up = 1)") == 8
    assert [t.value(f"{a}'s order") for a in ("ga_event", "ga_relationships", "ga_conference")] == [1, 2, 8]
    assert t.value("count of (global_actions where its mandatory)") == 2


@pytest.mark.rule("SET-6")
def test_one_century_end_and_one_game_end_tile_in_play() -> None:
    t = Table()
    assert t.value("count of scoring_tiles in century_tiles") == 1
    assert t.value("count of scoring_tiles in game_tiles") == 1
    assert t.value("count of (scoring_tiles in century_tiles where its tile is end_of_century)") == 1
    assert t.value("count of (scoring_tiles in game_tiles where its tile is end_of_game)") == 1
    assert t.value("count of scoring_tiles in tile_supply") == 10


@pytest.mark.rule("SET-7", "GEN-2")
def test_the_event_deck_holds_two_events_per_century_in_order() -> None:
    t = Table()
    # generation 1 has begun: the first event is current, the second upcoming, four in the deck
    assert t.value("count of events in current_event") == 1 and t.value("count of events in upcoming_event") == 1
    assert t.value("(top of current_event)'s century") == 1 and t.value("(top of upcoming_event)'s century") == 1
    deck = t.value("events in event_deck")  # bottom first
    assert [t.value(f"(entry {i} of (events in event_deck))'s century") for i in (1, 2, 3, 4)] == [3, 3, 2, 2]
    assert len(deck) == 4
    assert t.value("count of events in event_box") == t.value("count of events") - 6


@pytest.mark.rule("SET-8", "SET-9")
def test_players_pick_characters_and_sides_and_take_their_starting_values() -> None:
    t = Table(["politician", "socialite", "general"], sides=["aboveboard", "underhanded", "aboveboard"])
    pol = spec().defs[t.lay.def_index["politician"]].attrs
    assert t.value("my character is politician", 1) and t.value("my character is socialite", 2)
    assert t.value("my side is underhanded", 2) and t.value("my side is aboveboard", 3)
    assert t.value("my foundation", 1) == pol["start_foundation"]
    assert t.value("my fame", 1) == pol["start_fame"]
    assert t.value("my gold", 1) == pol["start_gold"]
    assert t.value(f"my {pol['start_resource']}", 1) == 1
    # COMP-11: 5 relationship, 3 major and 3 minor tokens on the mat; one of each to unlock
    assert t.of("count of relationship_tokens in my supply") == [5, 5, 5]
    assert t.of("count of major_tokens in my supply") == [3, 3, 3]
    assert t.of("count of minor_tokens in my supply") == [3, 3, 3]
    assert t.of("count of cards in my locked") == [3, 3, 3]


@pytest.mark.rule("SET-10")
def test_the_level_0_heirloom_starts_acquired_and_the_others_wait_on_the_mat() -> None:
    t = Table(["politician", "socialite", "general"])
    for p in (1, 2, 3):
        assert t.value("count of (heirlooms in my own_heirlooms where its level = 0)", p) == 1
        assert t.value("count of heirlooms in my mat", p) == 6
        assert t.value("count of (heirlooms in my mat where its character is not my character)", p) == 0


# ---------------------------------------------------------------------- a generation


@pytest.mark.rule("GEN-1")
def test_turn_order_by_foundation_largest_first_ties_keep_the_order() -> None:
    t = Table(["politician", "socialite", "general"])  # starting Foundation 45, 40, 50
    assert t.value("position of me", 3) == 1 and t.value("position of me", 1) == 2
    assert t.value("position of me", 2) == 3
    t.run("set my foundation to 60", 2)
    t.run("set my foundation to 60", 1)
    t.run("sort turn order by its foundation", 1)  # as the next generation starts
    # P1 and P2 tie on 60: P1 was ahead of P2, so it stays ahead; the General (50) is last now
    assert [t.value("position of me", p) for p in (1, 2, 3)] == [1, 2, 3]


@pytest.mark.rule("GEN-3", "GEN-4", "GEN-5")
def test_a_generation_deals_hands_the_market_and_successors() -> None:
    t = Table()
    assert t.of("count of player_cards in my hand") == [3, 3, 3]
    assert t.value("count of (player_cards in hand of players where its century is not 1)") == 0
    assert t.value("count of player_cards in market") == 3
    assert t.of("count of successors in my successor_hand") == [1, 1, 1]
    assert t.value("count of successors in successor_offer") == 2


@pytest.mark.rule("GEN-5")
def test_no_successors_are_dealt_in_generation_6() -> None:
    t = Table()
    t.run("set generation to 6\nset century to 3\ndiscard cards in successor_offer\n"
          "discard cards in successor_hand of players\nstart_generation()", 1)
    assert t.value("count of successors in successor_offer") == 0
    assert t.of("count of successors in my successor_hand") == [0, 0, 0]


@pytest.mark.rule("GEN-6", "GA-1")
def test_a_turn_plays_a_card_and_a_global_action_needs_two_played_cards() -> None:
    t = Table(["politician", "socialite", "general"])
    first = t.decision.player + 1
    labels = t.labels()
    assert any(x.startswith("Play ") for x in labels) and any(x.startswith("Take ") for x in labels)
    assert not any(x.startswith("Trigger ") for x in labels)  # no card played yet
    t.run("raise my cards_played by 2", first)
    t.refresh()
    assert any(x.startswith("Trigger ") for x in t.labels())


@pytest.mark.rule("GEN-7")
def test_a_player_action_may_first_swap_a_hand_card_with_a_market_card() -> None:
    t = Table(["politician", "socialite", "general"])
    p = t.decision.player + 1
    market = t.value("cards in market")
    hand = t.value("cards in my hand", p)
    taken = next(x for x in t.labels() if x.startswith("Take "))
    t.pick(taken)
    t.pick(t.labels()[0])  # the hand card given to the market
    assert t.value("count of cards in market") == 3
    assert t.value("count of cards in my hand", p) == 2
    assert t.value("my current_card", p) in market
    assert t.value("count of cards in my played", p) == 1
    assert set(t.value("cards in market")) - set(market) <= set(hand)


@pytest.mark.rule("GEN-8")
@pytest.mark.parametrize("players, needed", [(3, 3), (4, 3), (5, 4), (6, 4)])
def test_the_generation_ends_after_both_mandatory_and_enough_optional_actions(players: int, needed: int) -> None:
    chars = ["politician", "socialite", "general", "inventor", "promoter", "explorer"][:players]
    t = Table(chars)
    assert t.value("threshold") == needed
    t.run(f"set mandatory_triggered to 2\nset optional_triggered to {needed - 1}", 1)
    assert t.value("generation_over") is False
    t.run(f"set optional_triggered to {needed}", 1)
    assert t.value("generation_over") is True
    t.run("set mandatory_triggered to 1", 1)
    assert t.value("generation_over") is False


@pytest.mark.rule("GEN-9", "GEN-12")
def test_the_honorarium_goes_to_the_players_after_the_ender() -> None:
    t = Table(["politician", "socialite", "general"])  # turn order: general (P3), politician (P1), socialite (P2)
    t.run("set ender to me", 3)
    gold = t.of("my gold")
    asked = t.run("honorarium()", 1, answers=["20 gold", "1 resource", "iron"])
    assert [d.player + 1 for d in asked] == [1, 2, 2]  # the players after the General, in turn order
    assert t.of("my gold") == [gold[0] + 20, gold[1], gold[2]]
    assert t.value("my iron", 2) == 1


@pytest.mark.rule("GEN-10", "SUC-1")
def test_at_the_end_a_player_without_a_successor_puts_one_in_play() -> None:
    t = Table(["politician", "socialite", "general"])
    t.run("set ender to me", 2)  # the last in turn order: no honorarium
    t.run_all("end_generation()", 1)
    assert t.of("count of successors in my successor") == [1, 1, 1]
    assert t.of("my successor_placed") == [1, 1, 1]
    assert t.of("count of successors in my successor_hand") == [0, 0, 0]


@pytest.mark.rule("GEN-11")
def test_global_actions_turn_face_up_and_the_table_is_cleared() -> None:
    t = Table(["politician", "socialite", "general"])
    t.run("set ga_income's face_up to 0\nplace my relationship_token on ga_dividends\nmove top of my hand to my played", 1)
    t.run("set ender to me", 2)
    t.run_all("end_generation()", 1)
    assert t.value("count of (global_actions where its face_up = 1)") == 8
    assert t.value("ga_dividends is empty") is True
    assert t.value("count of cards in market") == 0
    assert t.value("count of cards in played of players") == 0
    assert t.value("count of cards in successor_offer") == 0


@pytest.mark.rule("GEN-13")
def test_a_player_with_no_card_and_no_global_action_ends_the_generation() -> None:
    t = Table(["politician", "socialite", "general"])
    t.run("set ender to me", 3)
    t.run("raise my cards_played by 2", 1)
    t.run("for each A in global_actions:\n    set A's face_up to 0", 1)  # every action taken or blocked
    t.run("discard cards in my hand\nturn()", 1)
    assert t.value("stalled") == 1 and t.value("generation_over") is True
    assert t.value("ender") == 2  # the previous player (the General) ended the generation


@pytest.mark.rule("GEN-12", "CEN-1", "CEN-2")
def test_the_century_ends_after_generation_2() -> None:
    t = Table(["politician", "socialite", "general"])
    rng = random.Random(3)
    finish_generation(t, rng)
    assert t.value("century") == 1 and t.value("generation") == 2
    tile = t.value("top of century_tiles")
    finish_generation(t, rng)
    assert t.value("generation") == 3 and t.value("century") == 2
    in_play = ("player_cards in deck_i + player_cards in card_discard + player_cards in market"
               " + player_cards in hand of players + player_cards in played of players")
    assert t.value(f"count of ({in_play} where its century = 1)") == 0  # hands included
    assert tile in t.value("cards in scored_tiles")


@pytest.mark.rule("CEN-3")
def test_after_century_i_the_next_figure_is_revealed_and_the_overlays_apply() -> None:
    t = Table(["politician", "socialite", "general"])
    law_i = t.value("share_value(law)")
    t.run("end_century()", 1)
    assert t.value("count of (legendary_figures where its slot = 2 and its revealed = 1)") == 1
    t.run("set century to 2", 1)
    assert t.value("share_value(law)") > law_i  # INV-7: the overlay inflates the share values


@pytest.mark.rule("VAL-1")
def test_era_values_follow_the_century() -> None:
    t = Table()
    t.run("gain 20/50/100 gold", 1)
    t.run("set century to 3", 1)
    before = t.value("my gold", 2)
    t.run("gain 20/50/100 gold", 2)
    assert t.value("my gold", 2) == before + 100


@pytest.mark.rule("VAL-3")
def test_values_from_modifiers_round_up() -> None:
    t = Table()
    t.run("until generation_end: investment_cost * 150%", 1)
    # 3 gold x 5 shares x 150% = 22.5 -> 23
    assert t.value("price_of(law, 5)", 1) == 23
    assert t.value("price_of(law, 5)", 2) == 15


@pytest.mark.rule("FND-2")
def test_foundation_steps() -> None:
    t = Table()
    t.run("set my foundation to 49", 1)
    assert t.value("foundation_step(me)", 1) == 1
    t.run("set my foundation to 50", 1)
    assert t.value("foundation_step(me)", 1) == 5
    t.run("set my foundation to 150", 1)
    assert t.value("foundation_step(me)", 1) == 25
    t.run("set my foundation to 950", 1)
    assert t.value("foundation_step(me)", 1) == 25


@pytest.mark.rule("END-1", "FND-1", "SUC-2")
def test_the_game_end_scores_foundation_gold_resources_and_heirlooms() -> None:
    t = Table(["politician", "socialite", "general"])
    t.run("discard cards in game_tiles\nset my foundation to 100\nset my gold to 250\nset my gem to 3\n"
          "set my dye to 1\nset my fame to 0", 1)
    levels = t.value("heirloom_levels(me)", 1)
    t.run("end_game()", 1)
    assert t.value("my fame", 1) == 100 // 25 + 250 // 100 + 4 + levels


@pytest.mark.rule("END-2", "END-3")
def test_most_fame_wins_ties_by_foundation_then_turn_order() -> None:
    t = Table(["politician", "socialite", "general"])
    t.run("set my fame to 30\nset my foundation to 10", 1)
    t.run("set my fame to 30\nset my foundation to 20", 2)
    t.run("set my fame to 29", 3)
    assert t.state.ranking()[0] == 1  # P2: the larger Foundation
    t.run("set my foundation to 10", 2)
    first = min((1, 2), key=lambda p: t.value("position of me", p))
    assert t.state.ranking()[0] == first - 1  # then the earlier in turn order


@pytest.mark.rule("FND-2")
def test_champion_a_cause_moves_foundation_in_the_tracks_steps() -> None:
    """C1045, the rulebook's own card: move up to 20 between Foundation and gold. The
    amount a player moves is in the steps of the Foundation track, as a contribution or a
    Foundation bid is (from 50 up, fives; from 150 up, twenty-fives)."""
    t = Table()
    t.run("set my foundation to 60\nset my gold to 100", 1)
    asked = t.run("play C1045's opportunity", 1, answers=["move gold to your Foundation", "15"])
    assert asked[1].labels() == ["0", "5", "10", "15", "20"]
    assert t.value("my foundation", 1) == 75 and t.value("my gold", 1) == 85
    t.run("set my foundation to 160", 1)
    asked = t.run("play C1045's opportunity", 1, answers=["move Foundation to your gold"])
    assert len(asked) == 1 and t.value("my foundation", 1) == 160  # a step of 25 is more than the card moves
    assert t.st.log[-1].endswith(": 0 (the only choice)")
    t.run("set my foundation to 30", 1)
    asked = t.run("play C1045's opportunity", 1, answers=["move Foundation to your gold", "7"])
    assert len(asked[1].labels()) == 21 and t.value("my foundation", 1) == 23
