"""The Legacy card game, played rule by rule (checklist LCG-1 .. LCG-15).

Each test builds a game, arranges a scenario by moving given cards into given zones
(the `table` fixture of conftest.py), drives the decisions by label or by piece and asserts what the
rules say must happen to the zones, the counters and the scores. The game stops at P1's
first decision after setup: 4 resource + 4 legacy cards dealt to everyone, and P1 has
already drawn the first 2 resource cards of their turn.
"""

from __future__ import annotations

from collections import Counter

import pytest

from legacies.interpreter.errors import GameError
from legacies.interpreter.game import Game

TAKE = "Take a legacy card (look at the top 3, keep 1)"
BUILD = "Build and destroy"

RESOURCE_IDS = {"gold_card", "brick_card", "subject_card", "wild_card"}
LEGACY_IDS = {"bank_card", "monument_card", "parade_card"}
DESTROY_IDS = {"robbery", "vandalism", "riot"}
SPECIAL_IDS = {"swap", "protect", "destroy_special"}


def offer_three(t, *def_ids: str) -> list[int]:
    """Stack the legacy deck so that the next `take a legacy` looks at these cards."""
    assert len(def_ids) == 3
    return t.stack("legacy_deck", *def_ids)


def turn_owners(t, turns: int) -> list[int]:
    """Let `turns` turns pass (everyone takes a legacy card) and say whose they were."""
    seen = []
    for _ in range(turns):
        seen.append(t.player)
        t.pass_turn()
    return seen


# ============================================================================ LCG-1
@pytest.mark.rule("LCG-1")
def test_lcg1_two_decks_with_their_own_discard_piles(table):
    """LCG-1: resource cards live in the resource deck, legacy cards in the legacy deck;
    a spent resource goes to the resource discard, a looked-at legacy to the legacy discard."""
    t = table(3)
    assert set(t.ids("resource_deck")) <= RESOURCE_IDS
    assert set(t.ids("resource_deck")) == RESOURCE_IDS  # all four kinds of resource card
    assert set(t.ids("legacy_deck")) <= LEGACY_IDS | DESTROY_IDS | SPECIAL_IDS
    assert t.zone("resource_discard") == [] and t.zone("legacy_discard") == []
    for p in range(3):
        assert set(t.ids("resources", p)) <= RESOURCE_IDS
        assert set(t.ids("hand", p)) <= LEGACY_IDS | DESTROY_IDS | SPECIAL_IDS

    # P1 takes a legacy card: the two not kept go to the legacy discard pile
    bank, mon, parade = offer_three(t, "bank_card", "monument_card", "parade_card")
    t.pick(TAKE)
    t.pick_piece(mon)
    assert mon in t.zone("hand", 0)
    assert sorted(t.zone("legacy_discard")) == sorted([bank, parade])
    assert t.zone("resource_discard") == []

    # P2 builds a Bank: the three resource cards paid go to the resource discard pile
    assert t.player == 1
    paid = t.give(1, "resources", "gold_card", "gold_card", "brick_card")
    [b] = t.give(1, "hand", "bank_card")
    t.refresh()
    t.pick(BUILD)
    t.build(b)
    assert sorted(t.zone("resource_discard")) == sorted(paid)
    assert sorted(t.zone("legacy_discard")) == sorted([bank, parade])
    t.check_consistent()


@pytest.mark.rule("LCG-1")
def test_lcg1_empty_resource_deck_is_rebuilt_from_its_discards(table):
    """LCG-1: when the resource deck is empty, its discard pile is shuffled into a new deck."""
    t = table(3)
    t.empty_into("resource_deck", "resource_discard")
    discarded = set(t.zone("resource_discard"))
    assert t.zone("resource_deck") == [] and len(discarded) > 2
    p2_before = set(t.zone("resources", 1))
    t.pass_turn()  # P1 -> P2 draws two cards from the empty deck
    assert t.player == 1
    drawn = set(t.zone("resources", 1)) - p2_before
    assert len(drawn) == 2 and drawn <= discarded
    assert t.zone("resource_discard") == []
    assert set(t.zone("resource_deck")) == discarded - drawn
    assert any("the resource deck is rebuilt" in line for line in t.st.log)
    t.check_consistent()


@pytest.mark.rule("LCG-1")
def test_lcg1_empty_legacy_deck_is_rebuilt_from_its_discards(table):
    """LCG-1: taking a legacy card from an empty legacy deck reshuffles the legacy discards."""
    t = table(3)
    t.empty_into("legacy_deck", "legacy_discard")
    discarded = set(t.zone("legacy_discard"))
    hand = set(t.zone("hand", 0))
    t.pick(TAKE)
    assert t.prompt == "choose a card in your offer"
    offered = t.piece_options()
    assert len(offered) == 3 and set(offered) <= discarded
    t.pick_piece(offered[0])
    assert set(t.zone("hand", 0)) == hand | {offered[0]}
    assert set(t.zone("legacy_discard")) == set(offered[1:])
    assert len(t.zone("legacy_deck")) == len(discarded) - 3
    t.check_consistent()


# ============================================================================ LCG-2
@pytest.mark.rule("LCG-2")
def test_lcg2_card_kinds_and_their_costs(table):
    """LCG-2: Legacies and Specific Destroys cost 3 resources, Specials nothing;
    one Specific Destroy per legacy type."""
    defn = table(2).defn
    for d in LEGACY_IDS:
        assert defn(d).attrs["type"] == "legacy" and len(defn(d).attrs["cost"]) == 3
    assert Counter(defn("monument_card").attrs["cost"]) == Counter(brick=2, subject=1)
    for d in DESTROY_IDS:
        assert defn(d).attrs["type"] == "destroy" and len(defn(d).attrs["cost"]) == 3
    assert {defn(d).attrs["destroys"] for d in DESTROY_IDS} == {"bank", "monument", "parade"}
    assert defn("riot").attrs["destroys"] == "parade"
    assert Counter(defn("riot").attrs["cost"]) == Counter(subject=2, brick=1)
    for d in SPECIAL_IDS:
        assert defn(d).attrs["type"] == "special" and not defn(d).attrs.get("cost")


@pytest.mark.rule("LCG-2")
def test_lcg2_monument_costs_two_bricks_and_a_subject(table):
    """LCG-2: a Monument is built with exactly 2 Bricks + 1 Subject."""
    t = table(3)
    t.give(0, "resources", "brick_card", "subject_card", "subject_card", "gold_card")
    [mon] = t.give(0, "hand", "monument_card")
    t.refresh()
    assert t.labels() == [TAKE]  # one brick short: nothing to build
    t.clear("resources", 0)
    paid = t.give(0, "resources", "brick_card", "brick_card", "subject_card")
    gold = t.put("gold_card", "resources", 0)
    t.refresh()
    t.pick(BUILD)
    t.build(mon)  # one way to pay: no question asked
    assert t.zone("tableau", 0) == [mon]
    assert t.zone("resources", 0) == [gold]
    assert sorted(t.zone("resource_discard")) == sorted(paid)


@pytest.mark.rule("LCG-2")
def test_lcg2_riot_destroys_a_parade_for_two_subjects_and_a_brick(table):
    """LCG-2: Riot is paid with 2 Subjects + 1 Brick and destroys a Parade."""
    t = table(3)
    [parade] = t.give(1, "tableau", "parade_card")
    [bank] = t.give(2, "tableau", "bank_card")
    paid = t.give(0, "resources", "subject_card", "subject_card", "brick_card")
    [riot] = t.give(0, "hand", "riot")
    t.refresh()
    t.pick(BUILD)
    assert t.labels() == ["Play Riot", "done"]
    t.pick("Play Riot")
    assert t.where(parade) == ("legacy_discard", -1)
    assert t.where(riot) == ("legacy_discard", -1)
    assert t.zone("tableau", 2) == [bank]  # a Riot touches Parades only
    assert set(paid) <= set(t.zone("resource_discard"))


@pytest.mark.rule("LCG-2")
def test_lcg2_specials_cost_nothing(table):
    """LCG-2: a Special is played with no resource cards at all."""
    t = table(3)
    t.give(0, "resources")
    [protect] = t.give(0, "hand", "protect")
    offer_three(t, "bank_card", "bank_card", "bank_card")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)  # keep a Bank
    assert t.player == 0 and "Play Protect" in t.labels()
    t.pick("Play Protect")
    assert t.zone("tableau", 0) == [protect]
    assert t.zone("resources", 0) == [] and t.zone("resource_discard") == []


# ============================================================================ LCG-3
@pytest.mark.rule("LCG-3")
def test_lcg3_payment_options_use_at_most_one_wild(table):
    """LCG-3: a Wild may replace one resource, but two Wilds never pay for one card."""
    t = table(3)
    gold1, gold2, brick, wild1, wild2 = t.give(
        0, "resources", "gold_card", "gold_card", "brick_card", "wild_card", "wild_card")
    [bank] = t.give(0, "hand", "bank_card")
    t.refresh()
    t.pick(BUILD)
    t.pick_piece(bank)
    assert t.prompt == "choose how to pay"
    assert sorted(t.labels()) == ["brick, gold, gold", "brick, gold, wild", "gold, gold, wild"]
    assert all(label.count("wild") <= 1 for label in t.labels())
    t.pick("gold, gold, wild")
    assert t.zone("tableau", 0) == [bank]
    left = t.zone("resources", 0)
    assert len(left) == 2 and brick in left and len({wild1, wild2} & set(left)) == 1
    assert {gold1, gold2} <= set(t.zone("resource_discard"))


@pytest.mark.rule("LCG-3")
def test_lcg3_two_wilds_cannot_pay_for_a_legacy(table):
    """LCG-3: Gold + 2 Wilds does not pay for a Bank (Gold, Gold, Brick); Gold + Wild + Brick does."""
    t = table(3)
    t.give(0, "resources", "gold_card", "wild_card", "wild_card", "subject_card")
    [bank] = t.give(0, "hand", "bank_card")
    t.refresh()
    assert t.labels() == [TAKE]
    paid = t.give(0, "resources", "gold_card", "wild_card", "brick_card")
    t.refresh()
    t.pick(BUILD)
    t.build(bank)
    assert t.zone("tableau", 0) == [bank]
    assert sorted(t.zone("resource_discard")) == sorted(paid)


@pytest.mark.rule("LCG-3")
def test_lcg3_one_wild_per_specific_destroy(table):
    """LCG-3: the one-Wild limit holds for a Specific Destroy too."""
    t = table(3)
    [parade] = t.give(1, "tableau", "parade_card")
    t.give(0, "resources", "subject_card", "wild_card", "wild_card")
    t.give(0, "hand", "riot")
    t.refresh()
    assert t.labels() == [TAKE]
    assert t.zone("tableau", 1) == [parade]
    paid = t.give(0, "resources", "subject_card", "wild_card", "brick_card")
    t.refresh()
    t.pick(BUILD)
    t.pick("Play Riot")
    assert t.where(parade) == ("legacy_discard", -1)
    assert set(paid) <= set(t.zone("resource_discard"))


# ============================================================================ LCG-4
@pytest.mark.rule("LCG-4")
@pytest.mark.parametrize("players", [0, 1, 7, 8])
def test_lcg4_fewer_than_2_or_more_than_6_players_are_refused(table, players):
    """LCG-4: the game is for 2-6 players."""
    spec = table(2).game.spec
    with pytest.raises(GameError):
        Game(spec, players)


@pytest.mark.rule("LCG-4")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_lcg4_everyone_is_dealt_4_resource_and_4_legacy_cards(table, players):
    """LCG-4: 4 resource + 4 legacy cards each; P1 (the dealer's left) plays first and
    has drawn the 2 resource cards of their first turn."""
    t = table(players)
    assert t.player == 0
    assert t.labels()[0] == TAKE
    for p in range(players):
        assert len(t.zone("hand", p)) == 4
        assert set(t.ids("hand", p)) <= LEGACY_IDS | DESTROY_IDS | SPECIAL_IDS
        assert len(t.zone("resources", p)) == (6 if p == 0 else 4)
        assert set(t.ids("resources", p)) <= RESOURCE_IDS
        assert t.zone("tableau", p) == []
    total_resources = len(t.lay.kind_pieces["resource_card"])
    assert len(t.zone("resource_deck")) == total_resources - 4 * players - 2
    t.check_consistent()


@pytest.mark.rule("LCG-4")
def test_lcg4_play_goes_clockwise_from_the_dealers_left(table):
    """LCG-4: turns go P1, P2, P3, P4, P1, ..."""
    t = table(4)
    assert turn_owners(t, 6) == [0, 1, 2, 3, 0, 1]


# ============================================================================ LCG-5
@pytest.mark.rule("LCG-5")
def test_lcg5_a_turn_starts_by_drawing_two_resource_cards(table):
    """LCG-5: the next player's turn begins with the top 2 resource cards drawn."""
    t = table(3)
    top = t.stack("resource_deck", "wild_card", "subject_card")
    before = t.zone("resources", 1)
    t.pass_turn()
    assert t.player == 1
    after = t.zone("resources", 1)
    assert len(after) == len(before) + 2
    assert set(after) - set(before) == set(top)


@pytest.mark.rule("LCG-5")
def test_lcg5_take_a_legacy_look_at_three_keep_one_discard_two_face_down(table):
    """LCG-5: take a legacy card: look at the top 3, keep 1, the other 2 go face down to the discard."""
    t = table(3)
    bank, riot, swap = offer_three(t, "bank_card", "riot", "swap")
    hand = t.zone("hand", 0)
    t.pick(TAKE)
    assert t.player == 0 and t.prompt == "choose a card in your offer"
    assert sorted(t.piece_options()) == sorted([bank, riot, swap])
    t.pick_piece(riot)
    assert t.zone("hand", 0) == hand + [riot]
    assert sorted(t.zone("legacy_discard")) == sorted([bank, swap])
    assert t.zone("offer", 0) == []
    seen_by_p2 = t.state.view(1)["zones"]["legacy_discard"]
    assert seen_by_p2["hidden"] == 2 and seen_by_p2["revealed"] == []


@pytest.mark.rule("LCG-5")
def test_lcg5_taking_a_legacy_card_ends_the_choice_no_build_after(table):
    """LCG-5: a player who takes a legacy card cannot build in the same turn."""
    t = table(3)
    paid = t.give(0, "resources", "gold_card", "gold_card", "brick_card")
    [bank] = t.give(0, "hand", "bank_card")
    mon = offer_three(t, "monument_card", "parade_card", "parade_card")[0]
    t.refresh()
    assert t.labels() == [TAKE, BUILD]
    t.pick(TAKE)
    t.pick_piece(mon)
    assert t.player == 1  # P1's turn is over
    assert t.zone("tableau", 0) == []
    assert set(t.zone("hand", 0)) == {bank, mon}
    assert sorted(t.zone("resources", 0)) == sorted(paid)


@pytest.mark.rule("LCG-5")
def test_lcg5_building_excludes_taking_a_legacy_card_and_may_repeat(table):
    """LCG-5: build as many legacies as wanted, but then no legacy card is taken."""
    t = table(3)
    t.give(0, "resources", "gold_card", "gold_card", "brick_card",
           "brick_card", "brick_card", "subject_card", "subject_card")
    bank, mon = t.give(0, "hand", "bank_card", "monument_card")
    deck = len(t.zone("legacy_deck"))
    t.refresh()
    t.pick(BUILD)
    assert TAKE not in t.labels()
    t.build(bank)
    assert t.player == 0 and TAKE not in t.labels()
    assert "Build Monument" in t.labels()
    t.build(mon)
    assert t.player == 1  # nothing else to do: the turn ended
    assert sorted(t.zone("tableau", 0)) == sorted([bank, mon])
    assert t.zone("hand", 0) == []
    assert len(t.zone("legacy_deck")) == deck  # no legacy card taken
    assert t.ids("resources", 0) == Counter(subject_card=1)


@pytest.mark.rule("LCG-5")
def test_lcg5_specials_come_after_building(table):
    """LCG-5: a Special is not offered among the builds, only at the end of the turn."""
    t = table(3)
    t.give(0, "resources", "gold_card", "gold_card", "brick_card")
    bank, protect = t.give(0, "hand", "bank_card", "protect")
    t.refresh()
    t.pick(BUILD)
    assert t.labels() == ["Build Bank", "done"]
    t.build(bank)
    assert t.player == 0 and t.labels() == ["Play Protect", "done"]
    t.pick("Play Protect")
    assert sorted(t.zone("tableau", 0)) == sorted([bank, protect])
    assert t.player == 1


@pytest.mark.rule("LCG-5")
def test_lcg5_at_most_one_special_per_turn(table):
    """LCG-5: after one Special the turn ends even with another playable Special in hand."""
    t = table(3)
    [bank] = t.give(0, "tableau", "bank_card")
    mon, parade = t.give(1, "tableau", "monument_card", "parade_card")
    swap, destroy = t.give(0, "hand", "swap", "destroy_special")
    offer_three(t, "bank_card", "bank_card", "bank_card")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    assert t.player == 0 and t.labels() == ["Play Swap", "Play Destroy", "done"]
    t.pick("Play Swap")
    t.pick_piece(mon)  # take P2's Monument, give the only Bank
    assert t.player == 1
    assert t.zone("tableau", 0) == [mon]
    assert destroy in t.zone("hand", 0)
    assert sorted(t.zone("tableau", 1)) == sorted([parade, bank])


@pytest.mark.rule("LCG-5")
def test_lcg5_end_of_turn_discard_down_to_seven_chosen_by_the_player(table):
    """LCG-5: a player with 9 resource cards at the end of the turn discards 2 of their choice."""
    t = table(3)
    cards = t.give(0, "resources", "gold_card", "gold_card", "gold_card", "brick_card", "brick_card",
                   "subject_card", "subject_card", "wild_card", "wild_card")
    t.give(0, "hand")
    offer_three(t, "riot", "riot", "riot")
    t.refresh()
    assert t.labels() == [TAKE]
    t.pick(TAKE)
    t.state.apply(0)
    assert t.player == 0 and t.prompt.startswith("choose: cards in your resources (1 of ")
    wild1, wild2 = cards[-2:]
    t.pick_piece(wild1)
    assert t.prompt.startswith("choose: cards in your resources (2 of ")
    t.pick_piece(wild2)
    assert t.player == 1
    assert sorted(t.zone("resources", 0)) == sorted(cards[:-2])
    assert sorted(t.zone("resource_discard")) == sorted([wild1, wild2])


@pytest.mark.rule("LCG-5")
def test_lcg5_eight_resource_cards_lose_one(table):
    """LCG-5: one card over the limit: the player discards exactly one, of their choice."""
    t = table(3)
    cards = t.give(0, "resources", *["gold_card"] * 7, "subject_card")
    t.give(0, "hand")
    offer_three(t, "riot", "riot", "riot")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    assert t.player == 0 and t.prompt.startswith("choose: cards in your resources (1 of ")
    t.pick_piece(cards[0])
    assert t.player == 1
    assert sorted(t.zone("resources", 0)) == sorted(cards[1:])
    assert t.zone("resource_discard") == [cards[0]]


@pytest.mark.rule("LCG-5")
def test_lcg5_seven_resource_cards_are_kept(table):
    """LCG-5: exactly 7 resource cards at the end of the turn: nothing to discard."""
    t = table(3)
    cards = t.give(0, "resources", *["gold_card"] * 7)
    t.give(0, "hand")
    offer_three(t, "riot", "riot", "riot")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    assert t.player == 1
    assert sorted(t.zone("resources", 0)) == sorted(cards)
    assert t.zone("resource_discard") == []


# ============================================================================ LCG-6
@pytest.mark.rule("LCG-6")
def test_lcg6_build_pays_the_cost_and_moves_the_legacy_to_the_tableau(table):
    """LCG-6: building a Bank spends Gold, Gold, Brick and puts the Bank in the tableau."""
    t = table(3)
    gold1, gold2, brick, subject = t.give(0, "resources", "gold_card", "gold_card", "brick_card", "subject_card")
    bank, parade = t.give(0, "hand", "bank_card", "parade_card")
    t.refresh()
    t.pick(BUILD)
    assert t.labels() == ["Build Bank", "done"]  # the Parade is not affordable
    t.build(bank)
    assert t.zone("tableau", 0) == [bank]
    assert t.zone("hand", 0) == [parade]
    assert t.zone("resources", 0) == [subject]
    assert sorted(t.zone("resource_discard")) == sorted([gold1, gold2, brick])
    assert t.player == 1


@pytest.mark.rule("LCG-6")
def test_lcg6_only_affordable_legacies_can_be_built(table):
    """LCG-6: with Gold, Brick, Brick, Subject only the Monument can be built."""
    t = table(3)
    t.give(0, "resources", "gold_card", "brick_card", "brick_card", "subject_card")
    bank, mon, parade = t.give(0, "hand", "bank_card", "monument_card", "parade_card")
    t.refresh()
    t.pick(BUILD)
    assert t.labels() == ["Build Monument", "done"]
    t.build(mon)
    assert t.zone("tableau", 0) == [mon]
    assert sorted(t.zone("hand", 0)) == sorted([bank, parade])
    assert t.ids("resources", 0) == Counter(gold_card=1)


# ============================================================================ LCG-7
@pytest.mark.rule("LCG-7")
def test_lcg7_specific_destroy_pays_discards_both_and_digs_two_resources(table):
    """LCG-7: Riot on P2's Parade: pay, discard both, then dig a Gold and a Subject
    (the Parade's cost types) out of the resource deck, discarding what is turned over."""
    t = table(3)
    [parade] = t.give(1, "tableau", "parade_card")
    paid = t.give(0, "resources", "subject_card", "subject_card", "brick_card")
    [riot] = t.give(0, "hand", "riot")
    # top of the resource deck: Brick, Gold, Brick, Subject
    brick1, gold, brick2, subject = t.stack("resource_deck", "brick_card", "gold_card", "brick_card", "subject_card")
    t.refresh()
    t.pick(BUILD)
    t.pick("Play Riot")  # P2 is the only player with a Parade: no target question
    assert t.where(parade) == ("legacy_discard", -1)
    assert t.where(riot) == ("legacy_discard", -1)
    assert t.labels() == ["yes", "no"]  # the bonus is the destroyer's choice
    t.pick("yes")
    assert t.prompt == "choose a resource in Parade's cost" and sorted(t.labels()) == ["gold", "subject"]
    t.pick("gold")
    assert t.zone("resources", 0) == [gold]
    assert t.where(brick1) == ("resource_discard", -1)
    t.pick("subject")
    assert sorted(t.zone("resources", 0)) == sorted([gold, subject])
    assert sorted(t.zone("resource_discard")) == sorted(paid + [brick1, brick2])
    assert t.zone("tableau", 1) == []


@pytest.mark.rule("LCG-7")
def test_lcg7_two_resources_of_the_same_type(table):
    """LCG-7: the destroyer may take both resources of one type (2 Bricks for a Bank)."""
    t = table(3)
    [bank] = t.give(2, "tableau", "bank_card")
    t.give(0, "resources", "brick_card", "brick_card", "subject_card")
    t.give(0, "hand", "robbery")
    t.refresh()
    t.pick(BUILD)
    t.pick("Play Robbery")
    t.pick("yes")
    assert sorted(t.labels()) == ["brick", "gold"]
    t.pick("brick")
    t.pick("brick")
    assert t.ids("resources", 0) == Counter(brick_card=2)
    assert t.where(bank) == ("legacy_discard", -1)


@pytest.mark.rule("LCG-7")
def test_lcg7_destroyer_may_decline_the_bonus(table):
    """LCG-7: "you can now choose to get two resources": declining leaves the deck alone."""
    t = table(3)
    t.give(2, "tableau", "bank_card")
    paid = t.give(0, "resources", "brick_card", "brick_card", "subject_card")
    t.give(0, "hand", "robbery")
    t.refresh()
    t.pick(BUILD)
    t.pick("Play Robbery")
    t.pick("no")
    assert t.zone("resources", 0) == []  # nothing dug up
    assert sorted(t.zone("resource_discard")) == sorted(paid)  # nothing turned over either


@pytest.mark.rule("LCG-7")
def test_lcg7_target_must_have_the_linked_legacy(table):
    """LCG-7: a Riot needs an opponent with a Parade (one's own Parade does not count)."""
    t = table(3)
    t.give(1, "tableau", "bank_card", "monument_card")
    t.give(2, "tableau", "bank_card")
    [own] = t.give(0, "tableau", "parade_card")
    t.give(0, "resources", "subject_card", "subject_card", "brick_card")
    t.give(0, "hand", "riot")
    t.refresh()
    assert t.labels() == [TAKE]
    [parade] = t.give(2, "tableau", "bank_card", "parade_card")[1:]
    t.refresh()
    t.pick(BUILD)
    t.pick("Play Riot")
    assert t.where(parade) == ("legacy_discard", -1)
    assert t.zone("tableau", 0) == [own]


@pytest.mark.rule("LCG-7")
def test_lcg7_destroyer_names_the_player_to_attack(table):
    """LCG-7: with Parades in two tableaux the destroyer chooses which one goes."""
    t = table(3)
    [p2_parade] = t.give(1, "tableau", "parade_card")
    [p3_parade] = t.give(2, "tableau", "parade_card")
    t.give(0, "resources", "subject_card", "subject_card", "brick_card")
    t.give(0, "hand", "riot")
    t.refresh()
    t.pick(BUILD)
    t.pick("Play Riot")
    assert t.prompt == "choose a card in an opponent's tableau" and sorted(t.piece_options()) == sorted([p2_parade, p3_parade])
    t.pick_piece(p3_parade)
    assert t.zone("tableau", 1) == [p2_parade]
    assert t.where(p3_parade) == ("legacy_discard", -1)


# ============================================================================ LCG-8
@pytest.mark.rule("LCG-8")
def test_lcg8_swap_takes_a_card_and_gives_one_back(table):
    """LCG-8: Swap: P1 takes P2's Parade into their tableau and gives their Bank in exchange."""
    t = table(3)
    bank, mon = t.give(0, "tableau", "bank_card", "monument_card")
    p2_mon, p2_parade = t.give(1, "tableau", "monument_card", "parade_card")
    [swap] = t.give(0, "hand", "swap")
    offer_three(t, "riot", "riot", "riot")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    t.pick("Play Swap")
    assert t.prompt == "choose a card in an opponent's tableau" and sorted(t.piece_options()) == sorted([p2_mon, p2_parade])
    t.pick_piece(p2_parade)
    assert t.prompt == "choose a card in your tableau" and sorted(t.piece_options()) == sorted([bank, mon])
    t.pick_piece(bank)
    assert sorted(t.zone("tableau", 0)) == sorted([mon, p2_parade])
    assert sorted(t.zone("tableau", 1)) == sorted([p2_mon, bank])
    assert t.where(swap) == ("legacy_discard", -1)
    assert t.player == 1


@pytest.mark.rule("LCG-8")
def test_lcg8_swap_needs_a_card_to_give(table):
    """LCG-8: with an empty tableau there is nothing to exchange: no Swap."""
    t = table(3)
    t.give(1, "tableau", "parade_card")
    [swap] = t.give(0, "hand", "swap")
    offer_three(t, "riot", "riot", "riot")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    assert t.player == 1
    assert swap in t.zone("hand", 0)


# ============================================================================ LCG-9
@pytest.mark.rule("LCG-9")
def test_lcg9_protect_blocks_specific_destroys_but_not_swaps(table):
    """LCG-9: P1's Protect stops P2's Riot; P2 can still Swap P1's Parade away."""
    t = table(3)
    [parade] = t.give(0, "tableau", "parade_card")
    [protect] = t.give(0, "hand", "protect")
    offer_three(t, "bank_card", "bank_card", "bank_card")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    t.pick("Play Protect")
    assert sorted(t.zone("tableau", 0)) == sorted([parade, protect])

    assert t.player == 1
    t.give(1, "resources", "subject_card", "subject_card", "brick_card")
    [p2_bank] = t.give(1, "tableau", "bank_card")
    [riot, swap] = t.give(1, "hand", "riot", "swap")
    offer_three(t, "monument_card", "monument_card", "monument_card")
    t.refresh()
    assert t.labels() == [TAKE]  # the protected Parade is no target
    t.pick(TAKE)
    t.state.apply(0)
    assert t.labels() == ["Play Swap", "done"]
    t.pick("Play Swap")
    assert t.zone("tableau", 1) == [parade]
    assert sorted(t.zone("tableau", 0)) == sorted([p2_bank, protect])
    assert riot in t.zone("hand", 1)


@pytest.mark.rule("LCG-9")
def test_lcg9_protect_shields_legacies_from_the_destroy_special(table):
    """LCG-9: the Destroy special cannot hit the legacies of a protected tableau."""
    t = table(3)
    [parade] = t.give(1, "tableau", "parade_card")
    t.put("protect", "tableau", 1)
    [bank] = t.give(2, "tableau", "bank_card")
    t.give(0, "hand", "destroy_special")
    offer_three(t, "riot", "riot", "riot")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    t.pick("Play Destroy")
    assert sorted(t.labels()) == ["destroy a Protect card", "destroy two legacies"]
    t.pick("destroy two legacies")  # only P3's Bank can go
    assert t.where(bank) == ("legacy_discard", -1)
    assert t.where(parade) == ("tableau", 1)


@pytest.mark.rule("LCG-9")
def test_lcg9_destroy_special_removes_protect_then_legacies_are_exposed(table):
    """LCG-9: the Destroy special removes the Protect card; afterwards a Riot works again."""
    t = table(3)
    [parade] = t.give(1, "tableau", "parade_card")
    protect = t.put("protect", "tableau", 1)
    [destroy] = t.give(0, "hand", "destroy_special")
    t.give(2, "hand", "riot")
    offer_three(t, "bank_card", "bank_card", "bank_card")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    t.pick("Play Destroy")
    # no unprotected legacy anywhere: removing the Protect is the only use
    assert t.zone("tableau", 1) == [parade]
    assert t.where(protect) == ("legacy_discard", -1)
    assert t.where(destroy) == ("legacy_discard", -1)
    t.pass_turn()  # P2
    assert t.player == 2
    t.give(2, "resources", "subject_card", "subject_card", "brick_card")
    t.refresh()
    t.pick(BUILD)
    t.pick("Play Riot")
    assert t.where(parade) == ("legacy_discard", -1)


@pytest.mark.rule("LCG-9")
def test_lcg9_a_tableau_holds_one_protect(table):
    """LCG-9: a second Protect is not played into an already protected tableau."""
    t = table(3)
    first = t.put("protect", "tableau", 0)
    [second] = t.give(0, "hand", "protect")
    offer_three(t, "riot", "riot", "riot")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    assert t.player == 1
    assert t.zone("tableau", 0) == [first] and second in t.zone("hand", 0)


# ============================================================================ LCG-10
@pytest.mark.rule("LCG-10")
def test_lcg10_destroy_special_destroys_two_legacies_of_different_players(table):
    """LCG-10: the Destroy special takes any 2 legacies, here one of P2's and one of P3's."""
    t = table(3)
    p2_bank, p2_mon = t.give(1, "tableau", "bank_card", "monument_card")
    [p3_parade] = t.give(2, "tableau", "parade_card")
    [destroy] = t.give(0, "hand", "destroy_special")
    offer_three(t, "riot", "riot", "riot")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    t.pick("Play Destroy")
    # no Protect anywhere: "destroy two legacies" is the only way, so it is not asked
    assert t.prompt == "choose 2: cards in any player's tableau (1 of 2)"
    assert sorted(t.piece_options()) == sorted([p2_bank, p2_mon, p3_parade])
    t.pick_piece(p2_bank)
    assert t.prompt == "choose 2: cards in any player's tableau (2 of 2)"
    t.pick_piece(p3_parade)
    assert t.zone("tableau", 1) == [p2_mon]
    assert t.zone("tableau", 2) == []
    assert {p2_bank, p3_parade, destroy} <= set(t.zone("legacy_discard"))
    assert t.player == 1


@pytest.mark.rule("LCG-10")
def test_lcg10_or_destroys_a_single_protect_card(table):
    """LCG-10: used on a Protect, the Destroy special removes that one card only."""
    t = table(3)
    [bank] = t.give(1, "tableau", "bank_card")
    [mon] = t.give(2, "tableau", "monument_card")
    protect = t.put("protect", "tableau", 2)
    t.give(0, "hand", "destroy_special")
    offer_three(t, "riot", "riot", "riot")
    t.refresh()
    t.pick(TAKE)
    t.state.apply(0)
    t.pick("Play Destroy")
    t.pick("destroy a Protect card")
    assert t.where(protect) == ("legacy_discard", -1)
    assert t.zone("tableau", 1) == [bank] and t.zone("tableau", 2) == [mon]


# ============================================================================ LCG-11
def _arrange_build(t, p: int, tableau: list[str], build: str) -> int:
    """At p's decision: give p this tableau, the legacy `build` in hand and exactly its cost."""
    assert t.player == p
    t.give(p, "tableau", *tableau)
    [card] = t.give(p, "hand", build)
    t.give(p, "resources", *(f"{r}_card" for r in t.defn(build).attrs["cost"]))
    t.refresh()
    return card


@pytest.mark.rule("LCG-11")
def test_lcg11_fifth_legacy_gives_every_other_player_one_more_turn(table):
    """LCG-11: P2 builds a 5th legacy; P3 and P1 get one more turn each, then the game ends."""
    t = table(3)
    t.pass_turn()  # P1
    card = _arrange_build(t, 1, ["bank_card"] * 4, "bank_card")
    turns = t.st.turns
    t.pick(BUILD)
    t.build(card)
    assert len(t.zone("tableau", 1)) == 5
    assert turn_owners(t, 2) == [2, 0]
    assert t.decision is None and t.state.is_terminal()
    assert t.st.turns == turns + 2


@pytest.mark.rule("LCG-11")
def test_lcg11_others_may_also_build_their_fifth_in_the_last_tour(table):
    """LCG-11: during the final tour P3 builds a 5th legacy too; the game still ends after P1."""
    t = table(3)
    t.pass_turn()
    card = _arrange_build(t, 1, ["bank_card"] * 4, "bank_card")
    t.pick(BUILD)
    t.build(card)
    card = _arrange_build(t, 2, ["monument_card"] * 4, "monument_card")
    t.pick(BUILD)
    t.build(card)
    assert len(t.zone("tableau", 2)) == 5
    assert t.player == 0
    t.pass_turn()
    assert t.state.is_terminal()


@pytest.mark.rule("LCG-11")
def test_lcg11_five_legacies_cannot_be_destroyed_but_can_be_swapped(table):
    """LCG-11: P2's five legacies are safe from Riot and Destroy; Swap still works."""
    t = table(3)
    p2 = t.give(1, "tableau", "parade_card", "bank_card", "bank_card", "bank_card", "bank_card")
    [own] = t.give(0, "tableau", "monument_card")
    t.give(0, "resources", "subject_card", "subject_card", "brick_card")
    t.give(0, "hand", "riot", "swap", "destroy_special")
    offer_three(t, "bank_card", "bank_card", "bank_card")
    t.refresh()
    assert t.labels() == [TAKE]  # the Riot has no target
    t.pick(TAKE)
    t.state.apply(0)
    # the Destroy special could only hit P1's own Monument
    t.pick("Play Destroy")
    assert t.where(own) == ("legacy_discard", -1)
    assert sorted(t.zone("tableau", 1)) == sorted(p2)

    t2 = table(3)
    p2 = t2.give(1, "tableau", "parade_card", "bank_card", "bank_card", "bank_card", "bank_card")
    [own] = t2.give(0, "tableau", "monument_card")
    t2.give(0, "hand", "swap")
    offer_three(t2, "riot", "riot", "riot")
    t2.refresh()
    t2.pick(TAKE)
    t2.state.apply(0)
    t2.pick("Play Swap")
    t2.pick_piece(p2[0])
    assert t2.zone("tableau", 0) == [p2[0]]
    assert sorted(t2.zone("tableau", 1)) == sorted(p2[1:] + [own])


# ============================================================================ LCG-12
@pytest.mark.rule("LCG-12")
def test_lcg12_first_to_finish_scores_two_bonus_points(table):
    """LCG-12: P1 finishes first (+2 at once); P3 finishes later and gets no bonus."""
    t = table(3)
    card = _arrange_build(t, 0, ["bank_card"] * 4, "bank_card")
    t.pick(BUILD)
    t.build(card)
    assert t.player == 1
    assert t.state.scores() == [2, 0, 0]
    t.pass_turn()  # P2
    card = _arrange_build(t, 2, ["bank_card"] * 4, "bank_card")
    t.pick(BUILD)
    t.build(card)
    assert t.state.is_terminal()
    assert t.state.scores() == [5 * 3 + 2, 0, 5 * 3]
    assert t.state.winner() == 0


# ============================================================================ LCG-13
@pytest.mark.rule("LCG-13")
def test_lcg13_rulebook_examples_13_and_11_points(table):
    """LCG-13: P2 finishes first with 2 Banks, 2 Monuments, 1 Parade = 2x3 + 3x1 + 2 = 11;
    P1 ends with 4 Banks and 1 Monument = 4x3 + 1 = 13."""
    t = table(3)
    t.give(0, "tableau", *["bank_card"] * 4)
    t.give(0, "hand")
    t.pass_turn()  # P1 takes a legacy card
    card = _arrange_build(t, 1, ["bank_card", "bank_card", "monument_card", "monument_card"], "parade_card")
    t.pick(BUILD)
    t.build(card)
    assert t.state.scores() == [0, 2, 0]
    t.pass_turn()  # P3
    card = _arrange_build(t, 0, ["bank_card"] * 4, "monument_card")
    t.pick(BUILD)
    t.build(card)
    assert t.state.is_terminal()
    assert t.ids("tableau", 0) == Counter(bank_card=4, monument_card=1)
    assert t.ids("tableau", 1) == Counter(bank_card=2, monument_card=2, parade_card=1)
    assert t.state.scores() == [13, 11, 0]


@pytest.mark.rule("LCG-13")
def test_lcg13_tie_for_majority_and_specials_do_not_score(table):
    """LCG-13: an equal majority scores one type at 3 (2 Banks, 2 Parades, 1 Monument = 9,
    + 2 for finishing first); a Protect card in the tableau scores nothing."""
    t = table(3)
    t.give(2, "tableau", "bank_card", "monument_card", "parade_card")
    t.put("protect", "tableau", 2)
    card = _arrange_build(t, 0, ["bank_card", "bank_card", "parade_card", "parade_card"], "monument_card")
    t.pick(BUILD)
    t.build(card)
    t.pass_turn()
    t.pass_turn()
    assert t.state.is_terminal()
    assert t.state.scores() == [2 * 3 + 3 + 2, 0, 3 + 2]


# ============================================================================ LCG-14
@pytest.mark.rule("LCG-14")
def test_lcg14_continuous_play_adds_points_over_rounds(table):
    """LCG-14: with rounds=2 a second round is dealt afresh and its points add to the first's."""
    t = table(3, rounds=2)
    assert t.counter("round_number") == 1
    card = _arrange_build(t, 0, ["bank_card"] * 4, "bank_card")
    t.pick(BUILD)
    t.build(card)
    t.pass_turn()
    t.pass_turn()
    # round 2: fresh deal, points kept
    assert not t.state.is_terminal()
    assert t.counter("round_number") == 2
    assert t.state.scores() == [17, 0, 0]
    assert t.player == 0
    for p in range(3):
        assert t.zone("tableau", p) == []
        assert len(t.zone("hand", p)) == 4
        assert len(t.zone("resources", p)) == (6 if p == 0 else 4)
    assert t.zone("resource_discard") == [] and t.zone("legacy_discard") == []
    t.reserved.clear()
    t.pass_turn()  # P1
    card = _arrange_build(t, 1, ["monument_card"] * 4, "monument_card")
    t.pick(BUILD)
    t.build(card)
    t.pass_turn()  # P3
    t.pass_turn()  # P1
    assert t.state.is_terminal()
    assert t.state.scores() == [17, 17, 0]


@pytest.mark.rule("LCG-14")
def test_lcg14_one_round_by_default(table):
    """LCG-14: without the option the game is a single round."""
    t = table(3)
    card = _arrange_build(t, 0, ["parade_card"] * 4, "parade_card")
    t.pick(BUILD)
    t.build(card)
    t.pass_turn()
    t.pass_turn()
    assert t.state.is_terminal()
    assert t.counter("round_number") == 1
    assert t.state.scores() == [17, 0, 0]


# ============================================================================ LCG-15
@pytest.mark.rule("LCG-15")
def test_lcg15_two_players_need_six_legacies(table):
    """LCG-15: with two players a 5th legacy does not end the game; a 6th does."""
    t = table(2)
    assert t.counter("finish_size") == 6
    card = _arrange_build(t, 0, ["bank_card"] * 4, "bank_card")
    t.pick(BUILD)
    t.build(card)
    assert len(t.zone("tableau", 0)) == 5
    assert t.state.scores() == [0, 0]  # no bonus: not finished
    t.pass_turn()  # P2
    assert t.player == 0  # the game goes on
    card = _arrange_build(t, 0, ["bank_card"] * 5, "bank_card")
    t.pick(BUILD)
    t.build(card)
    assert t.state.scores() == [2, 0]
    assert turn_owners(t, 1) == [1]
    assert t.state.is_terminal()
    assert t.state.scores() == [6 * 3 + 2, 0]


@pytest.mark.rule("LCG-15")
def test_lcg15_two_players_specific_destroy_gives_nothing_back(table):
    """LCG-15: with two players a Riot destroys the Parade but returns no resource cards."""
    t = table(2)
    [parade] = t.give(1, "tableau", "parade_card")
    t.give(0, "resources", "subject_card", "subject_card", "brick_card")
    t.give(0, "hand", "riot")
    deck = t.zone("resource_deck")
    t.refresh()
    t.pick(BUILD)
    t.pick("Play Riot")
    assert t.where(parade) == ("legacy_discard", -1)
    assert t.zone("resources", 0) == []
    assert t.player == 1  # no resource question: the turn went on to P2
    assert len(t.zone("resource_deck")) == len(deck) - 2  # only P2's draw
    assert len(t.zone("resource_discard")) == 3


@pytest.mark.rule("LCG-15")
def test_lcg15_without_specials_leaves_out_protect_and_destroy(table):
    """LCG-15: the `without_specials` option removes every Protect and Destroy card from play."""
    plain = table(2, seed=5)
    t = table(2, seed=5, without_specials=True)
    for def_id in ("protect", "destroy_special"):
        pieces = t.lay.def_pieces[t.lay.def_index[def_id]]
        assert pieces and all(t.st.loc[p] == 0 for p in pieces)  # the box: out of the game
        assert not any(plain.st.loc[p] == 0 for p in pieces)
    swaps = t.lay.def_pieces[t.lay.def_index["swap"]]
    assert not any(t.st.loc[p] == 0 for p in swaps)
    for p in range(2):
        assert len(t.zone("hand", p)) == 4
        assert not set(t.ids("hand", p)) & {"protect", "destroy_special"}
    assert not set(t.ids("legacy_deck")) & {"protect", "destroy_special"}
    n_removed = sum(len(t.lay.def_pieces[t.lay.def_index[d]]) for d in ("protect", "destroy_special"))
    total = lambda tab: len(tab.zone("legacy_deck")) + sum(len(tab.zone("hand", p)) for p in range(2))  # noqa: E731
    assert total(t) == total(plain) - n_removed
