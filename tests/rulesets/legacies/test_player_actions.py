"""Legacies: the other player actions (ACT-1 to ACT-11): opportunities, exploring the
city, obtaining resources, heirlooms and special actions, played on a table."""

from __future__ import annotations

import pytest

from .conftest import Table

POLITICIAN, SOCIALITE, GENERAL = 1, 2, 3  # the General moves first (most Foundation)


def hand_of(t: Table, where: str, player: int = GENERAL) -> object:
    t.run("discard cards in my hand\nset my gold to 100\nset my fame to 10", player)
    card = t.give(where, player)
    t.refresh()
    return card


@pytest.mark.rule("ACT-1")
def test_an_opportunity_is_paid_and_resolved() -> None:
    t = Table()
    card = hand_of(t, "it is C1003")  # Spoils of War: pay 2 gold, raise an industry 1 space
    t.picks(f"Play {card.name}", "Take the opportunity", "Law")
    assert t.value("my gold", GENERAL) == 98 and t.value("law's space") == 4
    assert t.value("count of cards in my played", GENERAL) == 1


@pytest.mark.rule("ACT-1")
def test_an_opportunity_whose_price_you_cannot_pay_is_not_offered() -> None:
    """Issue 35: an opportunity that begins by paying (its card's `requires:`) is not offered
    to a player who cannot pay it, who is never shown a move that fails."""
    t = Table()
    card = hand_of(t, "it is C1003")  # Spoils of War: pay 2 gold first
    t.run("set my gold to 1", GENERAL)
    t.refresh()
    t.picks(f"Play {card.name}")
    assert "Take the opportunity" not in t.labels() and "Explore the city" in t.labels()
    t2 = Table()
    card = hand_of(t2, "it is C1003")
    t2.run("set my gold to 2", GENERAL)
    t2.refresh()
    t2.picks(f"Play {card.name}", "Take the opportunity", "Law")
    assert t2.value("my gold", GENERAL) == 0


@pytest.mark.rule("ACT-1")
def test_a_may_that_pays_is_asked_only_of_a_player_who_can_pay() -> None:
    """Cargo from Canton's "Pay 8 gold for one more of that resource?" is not asked with 7."""
    for gold, asked in ((7, False), (8, True)):
        t = Table()
        card = hand_of(t, "it is C1022")
        t.run(f"set my gold to {gold}", GENERAL)
        t.refresh()
        t.picks(f"Play {card.name}", "Take the opportunity", "dye")
        assert (t.decision is not None and t.decision.prompt == "Pay 8 gold for one more of that resource?") is asked


@pytest.mark.rule("ACT-1")
@pytest.mark.parametrize("gold,asked", [(1, False), (2, True)])
def test_instant_replay_offers_an_opportunity_again_only_when_it_can_be_paid(gold: int, asked: bool) -> None:
    """C3013 takes another card's opportunity again: not offered when that opportunity's
    price cannot be paid (the soak found it offered and refused, issue 35)."""
    t = Table()
    t.run("move top of (player_cards in deck_i where it is C1003) to my played", GENERAL)
    t.run(f"set century to 3\nset my gold to {gold}", GENERAL)
    asks = t.run("play C3013's opportunity", GENERAL, answers=[lambda d: d.labels()[-1]] if asked else [])
    assert [d.prompt for d in asks] == (["take its opportunity again"] if asked else [])


@pytest.mark.rule("ACT-2")
def test_exploring_pays_per_card_played_this_one_included_and_a_successor() -> None:
    t = Table()
    card = hand_of(t, "it has industry")
    t.run("set my cards_played to 1", GENERAL)
    successors = t.value("count of cards in my successor_hand", GENERAL)
    t.picks(f"Play {card.name}", "Explore the city")
    # century I: 5 gold per card played this generation (2 with this one); no successor in
    # play yet, so one more successor to the hand
    assert t.value("my gold", GENERAL) == 100 + 10
    assert t.value("count of cards in my successor_hand", GENERAL) == successors + 1


@pytest.mark.rule("ACT-2", "CEN-3")
def test_exploring_in_century_iii_uses_the_overlay() -> None:
    t = Table()
    t.run("set century to 3\nset my cards_played to 2\nset my successor_placed to 1", GENERAL)
    successors = t.value("count of cards in my successor_hand", GENERAL)
    t.run("set my gold to 0\nset my fame to 0\nexplore_city()", GENERAL)
    assert t.value("my gold", GENERAL) == 30 and t.value("my fame", GENERAL) == 2
    assert t.value("count of cards in my successor_hand", GENERAL) == successors  # one is in play


@pytest.mark.rule("ACT-3")
def test_obtaining_the_cards_resources() -> None:
    t = Table()
    card = hand_of(t, "it is C1003")  # one iron
    iron = t.value("my iron", GENERAL)
    t.picks(f"Play {card.name}", "Obtain the card's resources")
    assert t.value("my iron", GENERAL) == iron + 1


def stock(t: Table, player: int, dye: int = 0, gear: int = 0, gem: int = 0, iron: int = 0) -> None:
    t.run(f"set my dye to {dye}\nset my gear to {gear}\nset my gem to {gem}\nset my iron to {iron}", player)


@pytest.mark.rule("ACT-4", "ACT-5", "ACT-7", "VAL-2")
def test_acquiring_an_opponents_heirloom_pays_the_bank_and_the_fee_to_its_owner() -> None:
    t = Table()
    stock(t, GENERAL, dye=1, gem=1)
    fame = t.of("my fame")
    card = hand_of(t, "it has industry")
    t.run("set my fame to 10", GENERAL)
    t.picks(f"Play {card.name}", "Acquire Gilded Autograph Book")  # the Socialite's level 2: dye and gem, fee 2
    assert t.value("my dye + my gem", GENERAL) == 0
    assert t.value("my fame", GENERAL) == 8 and t.value("my fame", SOCIALITE) == fame[SOCIALITE - 1] + 2
    assert t.value("H1002 is in my controlled", GENERAL) is True


@pytest.mark.rule("ACT-4")
def test_a_token_on_the_characters_track_waives_one_resource() -> None:
    t = Table()
    stock(t, GENERAL, gem=1)  # the dye is missing
    t.run("place my relationship_token on socialite", GENERAL)
    assert t.value("can_acquire(H1002)", GENERAL) is True
    t.run("acquire(H1002)", GENERAL)  # only the dye can be waived: not asked
    assert t.value("my gem", GENERAL) == 0 and t.value("H1002 is in my controlled", GENERAL) is True
    # without the token the same price is out of reach
    t2 = Table()
    stock(t2, GENERAL, gem=1)
    assert t2.value("can_acquire(H1002)", GENERAL) is False


@pytest.mark.rule("ACT-5")
def test_a_hostile_character_pays_no_fee() -> None:
    t = Table(["politician", "underworld_boss", "general"])  # the Politician is hostile to the Boss
    heirloom = t.card(t.value("top of (heirlooms in mat of players where its character is underworld_boss "
                              "and its level = 1)"))
    t.run("set my dye to 5\nset my gear to 5\nset my gem to 5\nset my iron to 5\nset my fame to 10", POLITICIAN)
    boss_fame = t.value("my fame", 2)
    t.run(f"acquire({heirloom.id})", POLITICIAN)
    assert t.value("my fame", POLITICIAN) == 10 and t.value("my fame", 2) == boss_fame


@pytest.mark.rule("ACT-6")
def test_own_heirlooms_go_income_side_up_and_the_own_level_6_is_controlled() -> None:
    t = Table()
    assert t.value("H4000 is in my own_heirlooms", GENERAL) is True  # level 0 starts acquired (SET-10)
    stock(t, GENERAL, dye=9, gear=9, gem=9, iron=9)
    fame = t.value("my fame", GENERAL)
    t.run("acquire(H4001)", GENERAL)
    assert t.value("H4001 is in my own_heirlooms", GENERAL) is True
    assert t.value("my fame", GENERAL) == fame  # no fee to yourself
    for level in (2, 3, 4, 5):
        t.run(f"acquire(H400{level})", GENERAL)
    t.run("acquire(H4006)", GENERAL)
    assert t.value("H4006 is in my controlled", GENERAL) is True


@pytest.mark.rule("ACT-8")
def test_heirlooms_per_opponent_two_with_three_players_one_more_if_amicable() -> None:
    t = Table()
    stock(t, GENERAL, dye=20, gear=20, gem=20, iron=20)
    t.run("set my fame to 100", GENERAL)
    # the Socialite is neutral to the General: two of hers
    t.run("acquire(H1001)\nacquire(H1002)", GENERAL)
    assert t.value("can_acquire(H1003)", GENERAL) is False
    # the Politician is amicable: three of his
    t.run("acquire(H2003)\nacquire(H2004)", GENERAL)
    assert t.value("can_acquire(H2005)", GENERAL) is True
    t.run("acquire(H2005)", GENERAL)
    assert t.value("from_character(politician)", GENERAL) == 3


@pytest.mark.rule("ACT-8")
def test_one_heirloom_per_opponent_with_four_players() -> None:
    t = Table(["politician", "socialite", "general", "inventor"])
    assert t.value("heirloom_limit(socialite)", 3) == 1 and t.value("heirloom_limit(politician)", 3) == 2


@pytest.mark.rule("ACT-9")
def test_one_heirloom_of_each_level_and_level_6_last() -> None:
    t = Table()
    stock(t, GENERAL, dye=20, gear=20, gem=20, iron=20)
    t.run("set my fame to 100\nacquire(H1001)", GENERAL)
    assert t.value("can_acquire(H2001)", GENERAL) is False  # a level 1 already
    assert t.value("can_acquire(H4006)", GENERAL) is False  # levels 2-5 missing
    for level in (2, 3, 4, 5):
        t.run(f"acquire(H400{level})", GENERAL)
    assert t.value("can_acquire(H4006)", GENERAL) is True


@pytest.mark.rule("ACT-10", "ACT-11")
def test_an_opponents_level_6_costs_no_fee_and_teaches_their_special_action() -> None:
    t = Table()
    stock(t, GENERAL, dye=20, gear=20, gem=20, iron=20)
    t.run("set my fame to 100", GENERAL)
    for heirloom in ("H4001", "H4002", "H4003", "H4004", "H4005"):
        t.run(f"acquire({heirloom})", GENERAL)
    socialite_fame = t.value("my fame", SOCIALITE)
    t.run("acquire(H1006)", GENERAL)  # the Socialite's deep dark secret
    assert t.value("my fame", GENERAL) == 100 and t.value("my fame", SOCIALITE) == socialite_fame
    assert t.value("taught(socialite)", GENERAL) is True
    # the special action now offers the Socialite's (aboveboard: 3 fame, 10 gold to each opponent)
    asked = t.run("special_action()", GENERAL, answers=["The Socialite"])
    assert [d.labels() for d in asked] == [["The Socialite", "The General"]] or \
        [sorted(d.labels()) for d in asked] == [["The General", "The Socialite"]]
    assert t.value("my fame", GENERAL) == 103


@pytest.mark.rule("ACT-11", "REL-8")
def test_your_own_character_on_a_card_performs_the_special_action() -> None:
    t = Table()
    card = hand_of(t, "count of (characters in its relationships where it is general) > 0")
    iron, gear = t.value("my iron", GENERAL), t.value("my gear", GENERAL)
    t.picks(f"Play {card.name}", "Use your own character", "perform your special action")
    # the General's aboveboard action: an iron, a gear and a fame
    assert (t.value("my iron", GENERAL), t.value("my gear", GENERAL), t.value("my fame", GENERAL)) == \
        (iron + 1, gear + 1, 11)


@pytest.mark.rule("ACT-5")
def test_a_player_who_cannot_pay_the_fee_is_not_offered_the_heirloom() -> None:
    t = Table()
    stock(t, GENERAL, dye=5, gear=5, gem=5, iron=5)
    t.run("set my fame to 2", GENERAL)
    assert t.value("fee_due(H1003)", GENERAL) == 3 and t.value("can_acquire(H1003)", GENERAL) is False
    assert t.value("can_acquire(H1002)", GENERAL) is True  # a fee of 2
    assert t.value("fee_due(H1006)", GENERAL) == 0  # a level 6 has no fee
