"""Legacies: the global actions (GA-1 to GA-11) and the successors they bring (SUC-1),
with the rulebook's worked examples: the Socialite's heirloom income, a contribution
matched by the bank, dividends, and the century II trade conference bid in Foundation."""

from __future__ import annotations

import pytest

from .conftest import Table

POLITICIAN, SOCIALITE, GENERAL = 1, 2, 3  # the General moves first (most Foundation)


def ready(t: Table, player: int = GENERAL) -> None:
    """`player` has played two cards this generation: global actions are open to them."""
    t.run("set my cards_played to 2", player)
    t.refresh()


@pytest.mark.rule("GA-1")
def test_a_global_action_needs_two_cards_played_and_turns_face_down() -> None:
    t = Table()
    t.run("set my cards_played to 1", GENERAL)
    t.refresh()
    assert not any(x.startswith("Trigger ") for x in t.labels())
    ready(t)
    assert "Trigger Collect Dividends" in t.labels()
    assert "Trigger Contribute to Your Foundation" not in t.labels()  # never the first of a generation (GA-8)
    t.pick("Trigger Collect Dividends")
    t.run_all("")  # nothing pending for the sandbox; the game waits for the successor choice
    assert t.value("ga_dividends's face_up") == 0
    assert t.value("my actions_triggered", GENERAL) == 1 and t.value("optional_triggered") == 1


@pytest.mark.rule("GA-2", "SUC-1")
def test_the_first_mandatory_action_takes_a_face_up_successor_and_puts_one_in_play() -> None:
    t = Table()
    ready(t)
    offered = [t.card(p).name for p in t.value("cards in successor_offer")]
    in_hand = [t.card(p).name for p in t.value("cards in my successor_hand", GENERAL)]
    t.pick("Trigger Resolve Current Event")
    for _ in range(4):  # the event's outcome, perhaps a scoring tile, then the face-up successors
        if set(t.labels()) == set(offered):
            break
        t.pick(t.labels()[0])
    assert t.current == GENERAL and set(t.labels()) == set(offered)
    t.pick(offered[0])
    # now the hand holds the dealt successor and the one taken: one goes in play
    assert sorted(t.labels()) == sorted(in_hand + [offered[0]])
    t.pick(offered[0])
    while t.current == GENERAL and t.decision.prompt != "choose an action":  # its NOW ability, if it asks
        t.pick(t.labels()[0])
    assert [t.card(p).name for p in t.value("cards in my successor", GENERAL)] == [offered[0]]
    assert t.value("count of cards in my successor_hand", GENERAL) == 0  # the rest discarded
    assert t.value("my successor_placed", GENERAL) == 1


@pytest.mark.rule("GA-3", "SUC-1")
def test_the_first_optional_action_draws_a_successor_and_puts_one_in_play() -> None:
    t = Table()
    ready(t)
    deck = t.value("count of cards in successor_deck")
    t.pick("Trigger Collect Dividends")
    assert t.value("count of cards in successor_deck") == deck - 1
    assert t.current == GENERAL and len(t.labels()) == 2  # the dealt one and the drawn one
    t.pick(t.labels()[1])
    while t.current == GENERAL and t.decision.prompt != "choose an action":  # its NOW ability, if it asks
        t.pick(t.labels()[0])
    assert t.value("count of cards in my successor", GENERAL) == 1
    assert t.value("count of cards in my successor_hand", GENERAL) == 0


@pytest.mark.rule("SUC-1")
def test_a_second_global_action_brings_no_successor() -> None:
    t = Table()
    t.run("set my actions_triggered to 1\nset my successor_placed to 1", GENERAL)
    deck = t.value("count of cards in successor_deck")
    t.run("set my cards_played to 2", GENERAL)
    t.refresh()
    t.pick("Trigger Collect Dividends")
    assert t.value("count of cards in successor_deck") == deck
    assert t.current != GENERAL  # the turn passed: nothing asked


@pytest.mark.rule("GA-4", "EVT-1")
def test_resolving_the_event_lets_the_least_famous_pick_a_matching_scoring_tile() -> None:
    t = Table()
    event = t.card(t.value("top of current_event"))
    top_icon = t.value("(top of current_event)'s top_icon")
    t.run("set my fame to 1", POLITICIAN)
    t.run("set my fame to 1", SOCIALITE)  # a tie: the later in turn order (the Socialite) chooses
    t.run("set my fame to 9", GENERAL)
    century_tiles = t.value("count of scoring_tiles in century_tiles")
    asked = t.run_all("resolve_current_event()", GENERAL)
    assert asked[0].player + 1 == GENERAL and asked[0].labels() == ["the top outcome", "the bottom outcome"]
    choosers = [d.player + 1 for d in asked if d.prompt.startswith("choose a scoring_tile")]
    assert choosers in ([SOCIALITE], [])  # no tile left showing the icon: nothing to choose
    assert t.value(f"{event.id} is in resolved_events") is True
    assert t.value("current_event is empty") is True
    if choosers:
        assert t.value("count of scoring_tiles in century_tiles") == century_tiles + 1
        tile = t.value("top of century_tiles")
        assert top_icon in t.card(tile).attrs["icons"]


@pytest.mark.rule("GA-5", "REL-9")
def test_advance_relationships_collects_moves_and_pays_everyone() -> None:
    t = Table()
    t.run("set politician's bonus to 0\nset socialite's bonus to 0\nset general's bonus to 0")
    t.run("place my relationship_token on socialite", GENERAL)  # space 1
    t.run("place my relationship_token on general\nadvance general by 4", POLITICIAN)  # space 5, the last
    t.run("set my fame to 0\nset my gold to 0", GENERAL)
    t.run("set my fame to 0\nset my gold to 0", POLITICIAN)
    supply = t.value("count of relationship_tokens in my supply", POLITICIAN)
    t.run("advance_relationships()", GENERAL)
    # the trigger collects the Socialite's space 1 (2 fame); every token moves on: the General's
    # token to space 2 of the Socialite (a dye and 5 gold), the Politician's past the end, home
    assert t.value("position of top of my_tokens_on(socialite)", GENERAL) == 2
    assert t.value("count of relationship_tokens in my supply", POLITICIAN) == supply + 1
    assert t.value("my fame", GENERAL) == 2 and t.value("my gold", GENERAL) == 5
    assert t.value("my fame + my gold", POLITICIAN) == 0


@pytest.mark.rule("GA-5")
def test_a_successor_can_stop_your_tokens_advancing() -> None:
    t = Table()
    t.run("place my relationship_token on socialite", GENERAL)
    t.run("place my relationship_token on general", POLITICIAN)
    t.run("set politician's bonus to 0")
    # a modifier the General's successor might give: `relationships_advance = no`
    t.run("until generation_end: relationships_advance = no", GENERAL)
    t.run("advance_relationships()", GENERAL, answers=[])
    assert t.value("position of top of my_tokens_on(socialite)", GENERAL) == 1
    assert t.value("position of top of my_tokens_on(general)", POLITICIAN) == 2


@pytest.mark.rule("GA-6")
def test_heirloom_income_the_socialite_example() -> None:
    t = Table()
    # Theater at 10 and Communications at 9 in century I; the Socialite owns one heirloom
    t.run("raise theater's space by 7\nraise communications's space by 6")
    assert t.value("share_value(theater) + share_value(communications)") == 19
    assert t.value("count of heirlooms in my own_heirlooms", SOCIALITE) == 1
    gold = t.value("my gold", SOCIALITE)
    t.run("heirloom_income()", GENERAL)
    assert t.value("my gold", SOCIALITE) == gold + 19
    t.run("heirloom_income()", SOCIALITE)  # she triggers it: one heirloom more
    assert t.value("my gold", SOCIALITE) == gold + 19 + 38


@pytest.mark.rule("GA-7", "ACT-7")
def test_heirloom_fame_one_industry_per_controlled_heirloom_both_for_the_trigger() -> None:
    t = Table()
    t.run("raise theater's space by 7\nraise communications's space by 6")  # 10 and 9
    t.run("move H1001 to my controlled\nmove H1002 to my controlled\nset my fame to 0", GENERAL)
    t.run("move H1003 to my controlled\nset my fame to 0", POLITICIAN)
    # the General triggers: both industries on one heirloom (19), one on the other (Theater, 10);
    # the Politician: one industry (Theater, 10)
    t.run("heirloom_fame()", GENERAL, answers=["Rainbow Boa", "Theater", "Theater"])
    assert t.value("my fame", GENERAL) == 19 + 10
    assert t.value("my fame", POLITICIAN) == 10


@pytest.mark.rule("GA-8", "FND-2")
def test_a_contribution_is_matched_by_the_bank_the_others_are_not() -> None:
    t = Table()
    t.run("set my gold to 100\nset my foundation to 30", POLITICIAN)
    t.run("set my gold to 100\nset my foundation to 60", SOCIALITE)
    t.run("set my gold to 100\nset my foundation to 50", GENERAL)
    # the General: 20 gold (century I), the bank matches; steps of 5 from 50 up
    asked = t.run("contribute()", GENERAL, answers=["20", "7", "10"])
    assert [str(x) for x in asked[0].labels()][:3] == ["0", "5", "10"] and asked[0].labels()[-1] == "20"
    assert t.value("my gold", GENERAL) == 80 and t.value("my foundation", GENERAL) == 90
    # then the others in turn order (the Politician: steps of 1 below 50; the Socialite: 5s)
    assert [d.player + 1 for d in asked[1:]] == [POLITICIAN, SOCIALITE]
    assert t.value("my gold", POLITICIAN) == 93 and t.value("my foundation", POLITICIAN) == 37
    assert t.value("my gold", SOCIALITE) == 90 and t.value("my foundation", SOCIALITE) == 70


@pytest.mark.rule("GA-9")
def test_influence_industries_both_for_the_trigger_one_for_the_others() -> None:
    t = Table()
    t.run("influence_industries()", GENERAL, answers=["raise Military", "lower Transportation", "Law", "raise Law", "Theater", "lower Theater"])
    # the General: Military up, Transportation down; the Politician raises Law; the Socialite lowers Theater
    assert [t.value(f"{x}'s space") for x in ("military", "transportation", "law", "theater")] == [4, 2, 4, 2]


@pytest.mark.rule("GA-10")
def test_dividends_single_for_all_double_for_the_trigger() -> None:
    t = Table()
    t.run("raise education's space by 10")  # space 13: a top row, dividend 5 in century I
    t.run("place my minor_token on education\nplace my major_token on education\nset my gold to 0", GENERAL)
    t.run("place my minor_token on education\nset my gold to 0", POLITICIAN)
    t.run("place my major_token on education\nset my gold to 0", SOCIALITE)
    t.run("collect_dividends()", GENERAL)
    assert t.value("my gold", POLITICIAN) == 5 and t.value("my gold", SOCIALITE) == 10  # the rulebook's 5 and 10
    assert t.value("my gold", GENERAL) == 2 * (5 + 10)
    # the bottom three rows pay nothing
    t.run("lower education's space by 11\nset my gold to 0", POLITICIAN)
    t.run("collect_dividends()", GENERAL)
    assert t.value("my gold", POLITICIAN) == 0


@pytest.mark.rule("GA-11", "FND-2")
def test_the_century_ii_trade_conference_of_the_rulebook() -> None:
    t = Table(["politician", "socialite", "general", "inventor", "promoter"])
    t.run("set century to 2")
    white = t.current
    order = [p + 1 for p in t.value("players starting with me", white)]
    white, purple, blue, green, yellow = order
    for p in order:
        t.run("set my foundation to 100\nset my gold to 0\nset my fame to 0\nset my dye to 0\nset my gear to 0\n"
              "set my gem to 0\nset my iron to 0", p)
    asked = t.run("trade_conference()", white, answers=[
        "Trade Conference - Foundation",
        "Fame - row 2",                       # White bids 10 on Fame
        "bid", "Fame - row 1",                # Purple 5 on Fame
        "bid", "Resources - row 3",           # Blue 25 on Resources
        "bid", "Fame - row 3",                # Green 25 on Fame
        "bid", "Gold - row 1",                # Yellow 5 on Gold
        "move your bid", "Fame - row 4",      # White moves up to 50 on Fame
        "dye", "gear", "gem",                 # Blue's 3 resources
    ])
    assert asked[1].player + 1 == white
    # the host decides whether to move their bid reading every bid: their own in the option,
    # the others' in the log
    [host] = [d for d in asked if "move your bid" in d.labels()]
    assert host.labels()[0] == "keep your bid of 10 Foundation for Fame (Fame - row 2)"
    bids = [line for line in t.state.st.log if " bids " in line]
    assert bids == [f"P{white} bids 10 Foundation for Fame (Fame - row 2)",
                    f"P{purple} bids 5 Foundation for Fame (Fame - row 1)",
                    f"P{blue} bids 25 Foundation for Resources (Resources - row 3)",
                    f"P{green} bids 25 Foundation for Fame (Fame - row 3)",
                    f"P{yellow} bids 5 Foundation for Gold (Gold - row 1)"]
    assert f"P{white} moves the bid: 50 Foundation for Fame (Fame - row 4)" in t.state.st.log
    # Yellow spends 5 Foundation for 100 gold; White 50 for 5 fame; Green 25 for 2 fame;
    # Blue 25 for 3 resources; Purple nothing (two places pay in century II)
    assert (t.value("my foundation", yellow), t.value("my gold", yellow)) == (95, 100)
    assert (t.value("my foundation", white), t.value("my fame", white)) == (50, 5)
    assert (t.value("my foundation", green), t.value("my fame", green)) == (75, 2)
    assert (t.value("my foundation", blue), t.value("my dye + my gear + my gem + my iron", blue)) == (75, 3)
    assert (t.value("my foundation", purple), t.value("my fame", purple)) == (100, 0)
    assert t.value("count of bidding_cubes in bid_spaces") == 0  # the cubes go home


@pytest.mark.rule("GA-11")
def test_a_bid_must_be_affordable_and_move_foundation_back_a_step() -> None:
    t = Table()
    t.run("set currency to tc_foundation")
    t.run("set my foundation to 200", GENERAL)  # from 150 up, steps of 25
    assert t.value("can_bid(bid_fame_2)", GENERAL) is False  # 10 moves no step back
    assert t.value("can_bid(bid_fame_3)", GENERAL) is True   # 25
    t.run("set my foundation to 20", GENERAL)
    assert t.value("can_bid(bid_fame_4)", GENERAL) is False  # 50 is more than they have
    assert t.value("can_bid(bid_foundation_1)", GENERAL) is False  # never the currency's own column
