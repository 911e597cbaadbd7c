"""Legacies: relationships (REL-1 to REL-10), each played on a table: cards played
through the game's own menu, or the rules' procedures run as a player, the board
and the counters read back."""

from __future__ import annotations

import pytest

from .conftest import Table

# In a game of Politician (45 Foundation), Socialite (40) and General (50) the General
# moves first: turn order follows Foundation (GEN-1).
POLITICIAN, SOCIALITE, GENERAL = 1, 2, 3


def shows(character: str) -> str:
    """A card filter: the card offers a relationship with `character`."""
    return f"count of (characters in its relationships where it is {character}) > 0"


def fresh_hand(t: Table, player: int, where: str) -> object:
    """Replace `player`'s hand with one card matching `where` and give them 100 gold."""
    t.run("discard cards in my hand\nset my gold to 100\nset my fame to 10", player)
    card = t.give(where, player)
    t.refresh()
    return card


@pytest.mark.rule("REL-1", "REL-2", "REL-4", "REL-5")
def test_a_card_buys_a_relationship_at_its_cost_for_a_neutral_character() -> None:
    t = Table()
    assert t.current == GENERAL
    t.run("set socialite's bonus to 4")  # the gear token
    card = fresh_hand(t, GENERAL, shows("socialite"))
    cost = t.value(f"entry socialite of {card.id}'s relationships")
    gear = t.value("my gear", GENERAL)
    t.picks(f"Play {card.name}", "Make a relationship with The Socialite")
    # neutral: the printed cost; space 1 of the Socialite pays 2 fame; the bonus token beside
    # her track (number 4, a gear) pays too
    assert t.value("my gold", GENERAL) == 100 - cost
    assert t.value("my fame", GENERAL) == 10 + 2
    assert t.value("socialite's bonus") == 4 and t.value("my gear", GENERAL) == gear + 1
    assert t.value("count of my_tokens_on(socialite)", GENERAL) == 1
    assert t.value("position of top of relationship_tokens in socialite") == 1


@pytest.mark.rule("REL-5")
def test_the_bonus_token_pays_every_new_relationship_all_game() -> None:
    t = Table()
    t.run("set socialite's bonus to 4")  # the gear token
    gear = t.of("my gear")
    t.run("make_relationship(socialite, 0)", GENERAL)
    t.run("make_relationship(socialite, 0)", POLITICIAN)
    assert t.of("my gear") == [gear[0] + 1, gear[1], gear[2] + 1]


@pytest.mark.rule("REL-2")
def test_amicable_costs_nothing_and_hostile_costs_the_card_and_two_fame() -> None:
    t = Table(["politician", "underworld_boss", "general"])
    t.run("set general's bonus to 0\nset underworld_boss's bonus to 0", POLITICIAN)
    wealth = "my gold * 1000 + my fame"

    def space_one(character: str) -> int:
        """What space 1 of the character's track pays (gold x 1000 + fame)."""
        t.run("set my fame to 10\nset my gold to 100", POLITICIAN)
        t.run(f"collect_benefit({character}, 1)", POLITICIAN)
        return t.value(wealth) - 100_010
    general, boss = space_one("general"), space_one("underworld_boss")
    # the Politician is amicable with the General: no gold, only the benefit
    t.run("set my fame to 10\nset my gold to 100\nmake_relationship(general, 12)", POLITICIAN)
    assert t.value(wealth) - 100_010 == general
    # ... and hostile with the Underworld Boss: the card's 12 gold and 2 fame, then the benefit
    t.run("set my fame to 10\nset my gold to 100\nmake_relationship(underworld_boss, 12)", POLITICIAN)
    assert t.value(wealth) - 100_010 == boss - 12_000 - 2


@pytest.mark.rule("REL-3", "REL-4", "REL-9")
def test_a_new_token_bumps_the_row_and_the_last_returns_to_its_owner() -> None:
    t = Table(["politician", "socialite", "general", "inventor", "promoter", "explorer"])
    t.run("set politician's bonus to 0")
    # five tokens of players 2-6 on the Politician's track: each new one bumps the others right
    for p in (2, 3, 4, 5, 6):
        t.run("place my relationship_token on politician", p)
    assert [t.value("position of top of my_tokens_on(politician)", p) for p in (2, 3, 4, 5, 6)] == [5, 4, 3, 2, 1]
    supply = t.value("count of relationship_tokens in my supply", 2)
    wealth = t.of("my fame + my gold + my foundation + my dye + my gear + my gem + my iron")
    # the General makes a second one by the rules: everyone moves right, player 2 falls off
    t.run("set my gold to 100\nmake_relationship(politician, 0)", 3)
    assert t.value("count of relationship_tokens in politician") == 5
    assert t.value("count of my_tokens_on(politician)", 2) == 0
    assert t.value("count of relationship_tokens in my supply", 2) == supply + 1
    assert [t.value("position of top of my_tokens_on(politician)", p) for p in (4, 5, 6)] == [4, 3, 2]
    # REL-4: only the active player collects; the bumped collect nothing
    after = t.of("my fame + my gold + my foundation + my dye + my gear + my gem + my iron")
    assert [after[i] for i in (0, 1, 3, 4, 5)] == [wealth[i] for i in (0, 1, 3, 4, 5)]


@pytest.mark.rule("REL-6")
def test_a_legendary_figure_sends_the_rival_home_with_a_draw() -> None:
    t = Table()
    t.run("set the_oracle's revealed to 1\nset the_oracle's slot to 1")  # in century I it pays 3 fame
    t.run("place my relationship_token on the_oracle", POLITICIAN)
    supply = t.value("count of relationship_tokens in my supply", POLITICIAN)
    hand = t.value("count of cards in my hand", POLITICIAN)
    card = fresh_hand(t, GENERAL, "it has figure_cost")
    cost = t.value(f"{card.id}'s figure_cost")
    t.picks(f"Play {card.name}", "Make a relationship with The Oracle")
    # the Politician's token goes home; with no successor in play this generation they may
    # draw a successor instead of a player card
    assert t.current == POLITICIAN and t.labels() == ["draw a player card", "draw a successor"]
    t.pick("draw a player card")
    assert t.value("count of relationship_tokens in my supply", POLITICIAN) == supply + 1
    assert t.value("count of cards in my hand", POLITICIAN) == hand + 1
    assert t.value("count of my_tokens_on(the_oracle)", GENERAL) == 1
    assert t.value("my gold", GENERAL) == 100 - cost and t.value("my fame", GENERAL) == 10 + 3


@pytest.mark.rule("REL-6")
def test_after_a_successor_the_bumped_player_may_only_draw_a_card() -> None:
    t = Table()
    figure = t.card(t.value("top of (legendary_figures where its revealed = 1)"))
    t.run(f"place my relationship_token on {figure.id}\nset my successor_placed to 1", POLITICIAN)
    hand = t.value("count of cards in my hand", POLITICIAN)
    successors = t.value("count of cards in my successor_hand", POLITICIAN)
    asked = t.run(f"befriend({figure.id})", GENERAL)
    assert asked == []  # one option left: the draw is not asked
    assert t.value("count of cards in my hand", POLITICIAN) == hand + 1
    assert t.value("count of cards in my successor_hand", POLITICIAN) == successors


@pytest.mark.rule("REL-7")
def test_never_your_own_track_never_twice_at_most_two_figures() -> None:
    t = Table()
    assert t.value("can_relate(general)", GENERAL) is False  # own track
    assert t.value("can_relate(politician)", GENERAL) is True
    t.run("place my relationship_token on politician", GENERAL)
    assert t.value("can_relate(politician)", GENERAL) is False  # already a relationship
    figures = [t.card(f).id for f in t.value("legendary_figures where its revealed = 1")]
    assert t.value(f"can_befriend({figures[0]})", GENERAL) is True
    t.run(f"place my relationship_token on {figures[0]}\nplace my relationship_token on {figures[1]}", GENERAL)
    assert t.value(f"can_befriend({figures[2]})", GENERAL) is False  # two already
    assert t.value("can_relate(inventor)", GENERAL) is False  # nobody plays the Inventor


@pytest.mark.rule("REL-7")
def test_the_menu_offers_no_relationship_the_rules_forbid() -> None:
    t = Table()
    card = fresh_hand(t, GENERAL, shows("politician"))
    t.run("place my relationship_token on politician", GENERAL)
    t.refresh()
    t.pick(f"Play {card.name}")
    assert not any(x.startswith("Make a relationship with The Politician") for x in t.labels())


@pytest.mark.rule("REL-8")
def test_your_own_character_on_a_card_is_wild() -> None:
    t = Table()
    t.run("set socialite's bonus to 0")
    card = fresh_hand(t, GENERAL, shows("general"))
    own_cost = t.value(f"entry general of {card.id}'s relationships")
    t.picks(f"Play {card.name}", "Use your own character")
    assert t.labels() == ["perform your special action", "make a relationship with any other character"]
    t.pick("make a relationship with any other character")
    assert "The General" not in t.labels() and "The Socialite" in t.labels()
    t.pick("The Socialite")
    # the card's cost for the General; no disposition applies
    assert t.value("my gold", GENERAL) == 100 - own_cost
    assert t.value("count of my_tokens_on(socialite)", GENERAL) == 1
    assert t.value("my fame", GENERAL) == 10 + 2  # space 1 of the Socialite


@pytest.mark.rule("REL-10")
def test_a_special_action_moving_tokens_pays_no_one() -> None:
    t = Table(sides=["aboveboard", "underhanded", "aboveboard"])
    t.run("place my relationship_token on general", POLITICIAN)
    wealth = t.of("my fame + my gold + my foundation")
    t.run("special_action()", SOCIALITE)  # one character, one rival token: nothing to ask
    assert t.value("position of top of my_tokens_on(general)", POLITICIAN) == 2
    after = t.of("my fame + my gold + my foundation")
    assert after[0] == wealth[0] and after[2] == wealth[2]  # the moved token's owner: nothing
    assert after[1] == wealth[1] + 1  # the Socialite's underhanded action: 1 fame


@pytest.mark.rule("REL-1", "REL-3", "REL-4")
def test_the_rulebooks_politician_bump() -> None:
    """Blue plays Controlling the Masses (C1011) for the Politician: pays 3 gold, bumps
    Yellow's token one space right, collects 3 fame."""
    t = Table(["politician", "inventor", "explorer"])  # Blue: the Inventor; Yellow: the Explorer
    blue, yellow = 2, 3
    t.run("set politician's bonus to 0")
    t.run("place my relationship_token on politician", yellow)
    t.run("discard cards in my hand\nset my gold to 100\nset my fame to 10", blue)
    t.run("move C1011 to my hand", blue)
    while t.current != blue:  # play on until Blue's turn: the others pass the time with a card each
        t.pick(t.labels()[0])
        while t.decision.prompt != "choose an action":
            t.pick(t.labels()[0])
    t.run("set my gold to 100\nset my fame to 10", blue)
    t.refresh()
    t.picks("Play Controlling the Masses", "Make a relationship with The Politician")
    assert t.value("my gold", blue) == 97 and t.value("my fame", blue) == 13
    assert t.value("position of top of my_tokens_on(politician)", blue) == 1
    assert t.value("position of top of my_tokens_on(politician)", yellow) == 2


@pytest.mark.rule("GA-5")
def test_the_rulebooks_advance_relationships() -> None:
    """Blue collects their Underworld Boss benefit of 20 gold; every token advances, Red's
    falls off the end; every token left pays its new space."""
    t = Table(["underworld_boss", "inventor", "general"])  # Blue: the Inventor; Red: the General
    blue, red = 2, 3
    t.run("set underworld_boss's bonus to 0\nset inventor's bonus to 0")
    t.run("place my relationship_token on underworld_boss", blue)  # space 1: 20 gold
    t.run("place my relationship_token on inventor\nadvance inventor by 4", red)  # the last space
    for p in (blue, red):
        t.run("set my gold to 0\nset my fame to 0\nset my iron to 0", p)
    red_supply = t.value("count of relationship_tokens in my supply", red)
    t.run("advance_relationships()", blue)
    # 20 gold collected first; then the token moves to space 2 and pays an iron
    assert t.value("my gold", blue) == 20 and t.value("my iron", blue) == 1
    assert t.value("count of relationship_tokens in my supply", red) == red_supply + 1
    assert t.value("my gold + my fame + my iron", red) == 0


# ---------------------------------------------------------------------- tokens never share a space (issue 21)
def on_politician(t: Table, *players: int) -> None:
    """Relationship tokens on the Politician's track, the first named on space 1, the
    next on space 2... (each placed bumps the ones before it)."""
    t.run("set politician's bonus to 0")
    for p in reversed(players):
        t.run("place my relationship_token on politician", p)
    assert [t.value("position of top of my_tokens_on(politician)", p) for p in players] == \
        list(range(1, len(players) + 1))


def positions(t: Table, *players: int) -> list[int]:
    return [t.value("position of top of my_tokens_on(politician)", p) for p in players]


@pytest.mark.rule("REL-3", "REL-10")
def test_a_card_moving_your_token_back_bumps_and_pays_you_its_new_space() -> None:
    """C1015 strengthens your relationship: the token moves back a space by the bump
    rules (the token there goes one space on) and, moved by a player card, it pays the
    benefit of its new space to you (the rulebook exempts only events)."""
    t = Table()
    on_politician(t, SOCIALITE, GENERAL)
    card = fresh_hand(t, GENERAL, "it is C1015")
    fame = t.of("my fame + my gold")
    t.picks(f"Play {card.name}", "Take the opportunity")  # one token of the General's may move back
    assert positions(t, GENERAL, SOCIALITE) == [1, 2]  # never two tokens on a space
    after = t.of("my fame + my gold")
    assert after[GENERAL - 1] == fame[GENERAL - 1] + 3 + 1  # the Politician's space 1: 3 fame; the card: 1
    assert after[SOCIALITE - 1] == fame[SOCIALITE - 1]  # a bumped token pays nothing (REL-4)


@pytest.mark.rule("REL-3", "REL-10")
def test_every_token_moved_back_by_a_card_pays_its_new_space() -> None:
    t = Table()
    on_politician(t, SOCIALITE, GENERAL)
    t.run("set general's bonus to 0\nplace my relationship_token on general", SOCIALITE)
    t.run("place my relationship_token on general", POLITICIAN)  # the Socialite's: space 2 of the General
    t.run("set century to 3")
    wealth = t.value("my fame + my gold + resources_of(me)", SOCIALITE)
    t.run("play C3037's opportunity", SOCIALITE)  # Election Night Landslide: each of yours moves back
    # on the General's track the Socialite's token goes to space 1, bumping the Politician's
    assert t.value("position of top of my_tokens_on(general)", SOCIALITE) == 1
    assert t.value("position of top of my_tokens_on(general)", POLITICIAN) == 2
    assert positions(t, SOCIALITE, GENERAL) == [1, 2]  # already on space 1: it stays
    # the card's 3 fame, and the benefit of space 1 of the General's track in century III
    assert t.value("my fame + my gold + resources_of(me)", SOCIALITE) > wealth + 3


@pytest.mark.rule("REL-3", "REL-10")
@pytest.mark.parametrize("card,era,paid", [("C2024", 2, -10), ("C3037", 3, 3)])
def test_a_token_on_space_1_does_not_move_and_pays_nothing(card: str, era: int, paid: int) -> None:
    """Issue 35: C2024 and C3037 move each of your tokens back a space and pay its new
    space; a token already on space 1 cannot move back, so it pays nothing (it paid the
    benefit of space 1 again: +4 fame in century II for not moving)."""
    t = Table()
    on_politician(t, SOCIALITE, GENERAL)
    t.run(f"set century to {era}\nset my gold to 20", SOCIALITE)
    wealth = t.value("my fame + my gold + my foundation + resources_of(me)", SOCIALITE)
    t.run(f"play {card}'s opportunity", SOCIALITE)
    assert positions(t, SOCIALITE, GENERAL) == [1, 2]  # it stayed
    assert t.value("my fame + my gold + my foundation + resources_of(me)", SOCIALITE) == wealth + paid


@pytest.mark.rule("EVT-2", "REL-3")
def test_an_event_strengthening_relationships_bumps_and_pays_nothing() -> None:
    """E108's bottom outcome: each of your tokens moves back a space, by the bump rules,
    and no benefit is paid (EVT-2)."""
    t = Table()
    on_politician(t, SOCIALITE, GENERAL)
    wealth = t.of("my fame + my gold + my foundation + resources_of(me)")
    t.run("play E108's bottom", GENERAL)
    assert positions(t, GENERAL, SOCIALITE) == [1, 2]
    assert t.of("my fame + my gold + my foundation + resources_of(me)") == wealth


@pytest.mark.rule("EVT-2", "REL-3")
def test_weakening_every_rival_moves_the_leading_tokens_first() -> None:
    """E305's top: every opponent's token moves on a space. Moved from the front, no
    token bumps one that is still to move (each moves once)."""
    t = Table()
    on_politician(t, GENERAL, SOCIALITE)
    t.run("play E305's top", POLITICIAN)
    assert positions(t, GENERAL, SOCIALITE) == [2, 3]


@pytest.mark.rule("GA-5", "REL-3")
def test_a_token_that_does_not_advance_is_bumped_by_one_that_does() -> None:
    """The Homebody Daughter (S13): the Socialite's tokens do not advance. The General's
    token behind it does, and lands on its space: by the bump rules it goes one on."""
    t = Table()
    on_politician(t, GENERAL, SOCIALITE)
    t.run("move S13 to my successor", SOCIALITE)
    t.run_all("advance_relationships()", POLITICIAN)
    assert positions(t, GENERAL, SOCIALITE) == [2, 3]
    t.run("discard cards in my successor", SOCIALITE)
    t.run_all("advance_relationships()", POLITICIAN)
    assert positions(t, GENERAL, SOCIALITE) == [3, 4]


@pytest.mark.rule("REL-3")
def test_moving_a_track_back_keeps_its_tokens_apart() -> None:
    """C3030 moves every token of a track back a space: the one on space 1 stays, the one
    behind it stops on space 2 (tokens never share a space), and the player of the card
    collects the benefit of their token's new space."""
    t = Table()
    on_politician(t, GENERAL, SOCIALITE)
    fame = t.value("my fame", SOCIALITE)
    t.run("set century to 3\nplay C3030's opportunity", SOCIALITE)
    assert positions(t, GENERAL, SOCIALITE) == [1, 2]
    assert t.value("my fame", SOCIALITE) > fame  # the card's 3 fame, and space 2 of the Politician


@pytest.mark.rule("REL-7")
def test_relationships_only_with_characters_in_play() -> None:
    """Our reading (docs/assumptions-legacies.md): a character nobody plays has no track in
    play; a card showing one offers no relationship with it, and the wild relationship of
    your own character offers only the characters in play."""
    t = Table()
    card = fresh_hand(t, GENERAL, shows("inventor"))
    t.pick(f"Play {card.name}")
    assert not any(x.startswith("Make a relationship with The Inventor") for x in t.labels())
    assert t.value("count of (characters where can_relate(it))", GENERAL) == 2  # the Politician and the Socialite


def test_a_legendary_figure_at_the_table_shows_the_benefit_of_this_century() -> None:
    """Issue 21: a figure's option showed century I's benefit in century II. Its benefits
    are `by_era`: `?N` shows this century's; `explain` shows each under its century."""
    from legacies.cli.terminal import option_text
    from legacies.interpreter import sandbox
    from legacies.pipeline.explain import explain

    t = Table()
    t.run("set century to 2", POLITICIAN)
    sandbox.start(t.state, "choose a legendary_figure as F\ngain 1 fame", POLITICIAN - 1)
    t.refresh()
    index = t.labels().index("The Oracle")
    assert option_text(t.state, index) == "relationship benefits: Gain 5 fame."
    t.run("set century to 3", POLITICIAN)
    assert option_text(t.state, index) == "relationship benefits: Gain 8 fame."
    text = explain("the_oracle", "legacies")
    assert "relationship benefits (century I): Gain 3 fame.\n  relationship benefits (century II): Gain 5 fame." in text
