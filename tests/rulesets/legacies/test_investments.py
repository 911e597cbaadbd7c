"""Legacies: investments (INV-1 to INV-7), played through the game's menu on a table:
the card, the industry, minor or major, the gold and the share value read back."""

from __future__ import annotations

import pytest

from .conftest import Table

POLITICIAN, SOCIALITE, GENERAL = 1, 2, 3  # the General moves first (most Foundation)


def invest_hand(t: Table, industry: str) -> object:
    """The General holds one card showing `industry` (not one of the General's own
    industries, Military and Transportation) and 500 gold."""
    t.run("discard cards in my hand\nset my gold to 500", GENERAL)
    card = t.give(f"it has industry and its industry is {industry}", GENERAL)
    t.refresh()
    return card


@pytest.mark.rule("INV-1", "INV-2")
def test_buying_a_minor_investment() -> None:
    t = Table()
    card = invest_hand(t, "law")
    t.picks(f"Play {card.name}", "Buy an investment in Law", "a minor investment")
    # space 3 is worth 3: 2 shares cost 6; the value rises one space
    assert t.value("my gold", GENERAL) == 500 - 6
    assert t.value("law's space") == 4 and t.value("share_value(law)") == 4
    assert t.value("holds_minor(law)", GENERAL) is True and t.value("holds_major(law)", GENERAL) is False


@pytest.mark.rule("INV-1", "INV-2")
def test_buying_a_major_investment() -> None:
    t = Table()
    t.run("raise law's space by 1")  # worth 4
    card = invest_hand(t, "law")
    t.picks(f"Play {card.name}", "Buy an investment in Law", "a major investment")
    # 5 shares at 4; the value rises two spaces
    assert t.value("my gold", GENERAL) == 500 - 20
    assert t.value("law's space") == 6 and t.value("holds_major(law)", GENERAL) is True


@pytest.mark.rule("INV-1", "INV-2")
def test_selling_returns_the_token_at_the_current_value() -> None:
    t = Table()
    t.run("place my minor_token on law\nraise law's space by 3", GENERAL)  # space 6, worth 6
    supply = t.value("count of minor_tokens in my supply", GENERAL)
    card = invest_hand(t, "law")
    t.picks(f"Play {card.name}", "Sell an investment in Law")  # only the minor: not asked
    # 2 shares at 6; the value falls one space; the token goes home
    assert t.value("my gold", GENERAL) == 500 + 12
    assert t.value("law's space") == 5 and t.value("holds_minor(law)", GENERAL) is False
    assert t.value("count of minor_tokens in my supply", GENERAL) == supply + 1


@pytest.mark.rule("INV-1", "INV-2")
def test_selling_a_major_investment_returns_five_shares_and_the_value_falls_two_spaces() -> None:
    t = Table()
    t.run("place my major_token on law\nraise law's space by 3", GENERAL)  # space 6, worth 6
    supply = t.value("count of major_tokens in my supply", GENERAL)
    card = invest_hand(t, "law")
    t.picks(f"Play {card.name}", "Sell an investment in Law")  # only the major: not asked
    # 5 shares at 6; the value falls two spaces; the token goes home
    assert t.value("my gold", GENERAL) == 500 + 30
    assert t.value("law's space") == 4 and t.value("holds_major(law)", GENERAL) is False
    assert t.value("count of major_tokens in my supply", GENERAL) == supply + 1


@pytest.mark.rule("INV-1", "INV-2")
def test_selling_the_major_of_two_investments_keeps_the_minor() -> None:
    t = Table()
    t.run("place my minor_token on law\nplace my major_token on law\nraise law's space by 3", GENERAL)  # worth 6
    card = invest_hand(t, "law")
    t.picks(f"Play {card.name}", "Sell an investment in Law", "the major investment")
    assert t.value("my gold", GENERAL) == 500 + 30 and t.value("law's space") == 4
    assert t.value("holds_major(law)", GENERAL) is False and t.value("holds_minor(law)", GENERAL) is True


@pytest.mark.rule("INV-1")
def test_a_card_of_a_group_invests_in_any_industry_of_it() -> None:
    t = Table()
    t.run("discard cards in my hand\nset my gold to 500", GENERAL)
    card = t.give("it has group and its group is entertainment", GENERAL)
    t.refresh()
    t.pick(f"Play {card.name}")
    offered = {x.split(" (")[0] for x in t.labels() if x.startswith("Buy an investment in ")}  # before its prices
    assert offered == {"Buy an investment in Tourism", "Buy an investment in Museums", "Buy an investment in Theater"}


@pytest.mark.rule("INV-3")
def test_a_card_of_your_influenced_industry_is_wild() -> None:
    t = Table()
    t.run("discard cards in my hand\nset my gold to 500", GENERAL)
    card = t.give("it has industry and its industry is military", GENERAL)  # the General's own industry
    t.refresh()
    t.pick(f"Play {card.name}")
    offered = [x for x in t.labels() if x.startswith("Buy an investment in ")]
    assert len(offered) == 10  # any industry


@pytest.mark.rule("INV-4")
def test_one_minor_and_one_major_per_player_per_industry_any_number_of_players() -> None:
    t = Table()
    t.run("set my gold to 500\nplace my minor_token on law", GENERAL)
    assert t.value("can_buy_minor(law)", GENERAL) is False
    assert t.value("can_buy_major(law)", GENERAL) is True
    t.run("place my major_token on law", GENERAL)
    assert t.value("can_buy(law)", GENERAL) is False
    # the other players are not limited by the General's tokens
    t.run("set my gold to 500", POLITICIAN)
    assert t.value("can_buy_minor(law)", POLITICIAN) is True and t.value("can_buy_major(law)", POLITICIAN) is True
    t.run("place my minor_token on law", POLITICIAN)
    t.run("set my gold to 500\nplace my minor_token on law", SOCIALITE)
    assert t.value("count of minor_tokens in law") == 3


@pytest.mark.rule("INV-4")
def test_a_player_who_cannot_pay_is_not_offered_the_investment() -> None:
    t = Table()
    card = invest_hand(t, "law")
    t.run("set my gold to 5", GENERAL)  # a minor in Law costs 6
    t.refresh()
    t.pick(f"Play {card.name}")
    assert not any(x.startswith("Buy an investment in Law") for x in t.labels())


@pytest.mark.rule("INV-5")
def test_values_stop_at_the_ends_of_the_track() -> None:
    t = Table()
    t.run("raise law's space by 20\nlower science's space by 20")
    assert t.value("law's space") == 15 and t.value("share_value(law)") == 20
    assert t.value("science's space") == 1 and t.value("share_value(science)") == 1


@pytest.mark.rule("INV-6")
def test_a_card_moving_an_investment_leaves_both_values() -> None:
    """C3016 (Factory Relocation) moves your minor investment to another industry: the
    value of neither industry changes (INV-6), unlike buying or selling one."""
    t = Table()
    t.run("place my minor_token on law\nset century to 3", GENERAL)
    values = [t.value(f"{x}'s space") for x in ("law", "theater")]
    t.run("play C3016's opportunity", GENERAL, answers=["Theater"])  # the only investment: no other choice
    assert t.value("count of (minor_tokens in theater where owner of it is me)", GENERAL) == 1
    assert t.value("count of (minor_tokens in law where owner of it is me)", GENERAL) == 0
    assert [t.value(f"{x}'s space") for x in ("law", "theater")] == values


@pytest.mark.rule("INV-6")
def test_placing_or_removing_a_token_by_an_effect_leaves_the_value() -> None:
    t = Table()
    t.run("place my major_token on law\nplace my minor_token on theater", GENERAL)
    t.run("remove minor_tokens in theater", GENERAL)
    assert t.value("law's space") == 3 and t.value("theater's space") == 3


@pytest.mark.rule("INV-7", "CEN-3")
def test_the_overlays_inflate_share_values_in_later_centuries() -> None:
    t = Table()
    t.run("raise law's space by 7")  # space 10
    values = []
    for century in (1, 2, 3):
        t.run(f"set century to {century}")
        values.append(t.value("share_value(law)"))
    assert values == [10, 15, 20]


@pytest.mark.rule("INV-4")
def test_the_menu_says_which_investment_can_be_bought_and_why_the_other_cannot() -> None:
    """A user's trial: "Buy an investment in Tourism (a minor one 8 gold, a major one 20)"
    with no minor token left; the click paid 20 for the major one without a question."""
    t = Table()
    card = invest_hand(t, "law")
    t.run("place my minor_token on law", GENERAL)  # held: only the major one can be bought
    t.refresh()
    t.pick(f"Play {card.name}")
    [law] = [x for x in t.labels() if x.startswith("Buy an investment in Law")]
    assert law == "Buy an investment in Law (gold: minor 6, held; major 15)"
    t = Table()
    card = invest_hand(t, "law")
    t.run("for each X in industries where it is not law:\n    if count of minor_tokens in my supply > 0:\n"
          "        place my minor_token on X", GENERAL)  # every minor token placed elsewhere
    assert t.value("count of minor_tokens in my supply", GENERAL) == 0
    t.refresh()
    t.pick(f"Play {card.name}")
    [law] = [x for x in t.labels() if x.startswith("Buy an investment in Law")]
    assert law == "Buy an investment in Law (gold: minor 6, none left; major 15)"
    t = Table()
    card = invest_hand(t, "law")
    t.run("set my gold to 10", GENERAL)
    t.refresh()
    t.pick(f"Play {card.name}")
    [law] = [x for x in t.labels() if x.startswith("Buy an investment in Law")]
    assert law == "Buy an investment in Law (gold: minor 6; major 15, too dear)"
