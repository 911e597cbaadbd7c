"""Fame and Fortune: the wonder market built from three ages (FF-11) and the four new
civilizations' starting bonuses with the reusable keyword "immune to anarchy" (FF-12),
played through the installed expansion."""

from __future__ import annotations

import pytest

from .conftest import MENU, Table, defn


def ages(t: Table, zone: str) -> list[str]:
    return [defn(c).attrs["wonder_age"] for c in t.cards(zone)]


# ============================================================================ FF-11
@pytest.mark.rule("FF-11")
def test_ff11_the_deck_is_four_modern_under_four_medieval_under_four_ancient() -> None:
    dealt = set()
    for seed in range(4):
        t = Table(3, seed=seed)
        assert ages(t, "wonder_market") == ["ancient"] * 4  # the top four, face up
        assert ages(t, "wonder_deck") == ["modern"] * 4 + ["medieval"] * 4  # bottom first
        assert sorted(ages(t, "wonder_box")) == ["ancient"] * 3 + ["medieval"] * 3 + ["modern"] * 3
        dealt.add(tuple(sorted(t.cards("wonder_market"))))
    assert len(dealt) > 1  # four of seven, at random


def builder(seed: int = 0) -> tuple[Table, int]:
    """The active player at its building menu holding Ulmsted (a town) and Frostgate (a
    village), with resources for any wonder; Pyramids first in the market."""
    t = Table(3, seed=seed)
    p = t.active
    t.to_phase_menu(3, p)
    t.clear_map()
    t.land("ulmsted", p, level=2, armies=2)
    t.land("frostgate", p, level=1, armies=1)
    t.put_leader(p, "ulmsted")
    t.give(p, food=9, wood=9, stone=9, gold=9, renown=0)
    t.put("pyramids", "wonder_market")
    t.refresh()
    return t, p


@pytest.mark.rule("FF-11")
def test_ff11_a_wonder_bought_is_replaced_from_the_deck_at_once() -> None:
    t, p = builder()
    top = t.cards("wonder_deck")[-1]
    size = len(t.zone("wonder_market"))
    stone = t.value("town_stone", p)
    assert t.value("wonder_sites()", p) == [t.item("ulmsted")]  # a town or better of yours, not the village
    t.pick_start("Build Pyramids (1 food, 1 wood, 2 stone, 1 gold)")
    assert t.cards("wonders_built", p) == ["pyramids"] and "pyramids" not in t.cards("wonder_market")
    assert t.cards("wonder_market")[-1] == top and len(t.zone("wonder_market")) == size  # replaced at once
    assert t.counter("renown", p) == 1 and t.counter("stone", p) == 7
    assert t.value("town_stone", p) == stone - 1  # its ability, in force while it stands
    assert f"P{p + 1} builds Pyramids in Ulmsted and banks 1 renown" in t.st.log


@pytest.mark.rule("FF-11")
def test_ff11_obsoleting_may_target_a_wonder_in_the_market_which_is_replaced() -> None:
    t, p = builder()
    t.put("galileo_galilei", "great_person_hand", p)
    t.run("let M be top of (great_person_markers in marker_supply where its calling is scientist)\n"
          "move M to my markers_on_map\nset M's stands_in to ulmsted", p)
    t.refresh()
    market = t.cards("wonder_market")
    top = t.cards("wonder_deck")[-1]
    t.pick_start("Call on Galileo Galilei")
    assert set(t.labels()) == {defn(c).name for c in market}  # the ancient wonders: all in the market
    t.pick("Pyramids")
    assert "pyramids" not in t.cards("wonder_market") and "pyramids" in t.cards("wonder_box")
    assert t.cards("wonder_market")[-1] == top and len(t.zone("wonder_market")) == len(market)
    assert "Pyramids in the market is obsolete: discarded, and the market is filled from the deck" in t.st.log


@pytest.mark.rule("FF-11")
def test_ff11_an_obsolete_wonder_in_play_loses_its_ability() -> None:
    t, p = builder()
    t.pick_start("Build Pyramids")
    stone = t.value("town_stone", p)
    t.run("obsolete_wonder(top of (wonders in my wonders_built))", p)
    assert t.cards("obsolete_wonders", p) == ["pyramids"] and t.value("town_stone", p) == stone + 1


# ============================================================================ FF-12
def table_with(leader: str, players: int = 3) -> tuple[Table, int]:
    """A table where a player leads `leader` from the setup on (the first seed that deals it)."""
    for seed in range(200):
        t = Table(players, seed=seed)
        for p in range(players):
            if t.value("my leader is " + leader, p):
                t.until(lambda t: t.counter("turn_phase") >= 1)  # the starting bonuses played
                return t, p
    raise AssertionError(f"no seed deals {leader}")


@pytest.mark.rule("FF-12")
def test_ff12_arabia_starts_with_one_of_each_resource_and_invests_two_coins_a_turn() -> None:
    t, p = table_with("saladin")
    assert f"P{p + 1} (Arabia) starts with one of each resource" in t.st.log
    assert t.value("invest_limit", p) == 2 and t.value("invest_limit", (p + 1) % 3) == 1


@pytest.mark.rule("FF-12")
def test_ff12_india_starts_with_a_metropolis_spain_with_one_more_army() -> None:
    t, p = table_with("ashoka")
    assert t.value("count of (my_provinces(me) where its level = 2)", p) == 1
    assert any(line.startswith(f"P{p + 1} (India) starts with a metropolis") for line in t.st.log)
    t, p = table_with("isabella")
    armies = t.value("total armies of my_provinces(me)", p)
    others = [t.value("total armies of my_provinces(me)", q) for q in range(3) if q != p]
    assert armies == 11 and set(others) <= {10}


@pytest.mark.rule("FF-12")
def test_ff12_immune_to_anarchy_is_one_keyword_greece_and_notre_dame_share() -> None:
    t, p = table_with("pericles")
    others = [q for q in range(3) if q != p]
    t.put("notre_dame", "wonders_built", others[0])
    t.refresh()
    mark = len(t.st.log)
    t.run("play top of (cards in event_deck where it is revolution)", t.active)
    lines = t.log_since(mark)
    assert f"P{p + 1} is immune to anarchy" in lines and f"P{others[0] + 1} is immune to anarchy" in lines
    assert t.value("in_anarchy_now(me)", p) is False and t.value("in_anarchy_now(me)", others[0]) is False
    q = others[1]
    assert t.value("in_anarchy_now(me)", q) is True
    # anarchy: villages and towns cost 1 more wood, armies 1 more gold; no investing
    assert t.value("village_wood", q) == t.value("village_wood", p) + 1
    assert t.value("army_gold", q) == t.value("army_gold", p) + 1


@pytest.mark.rule("FF-12")
def test_ff12_a_player_in_anarchy_does_not_invest_and_leaves_it_at_the_next_event() -> None:
    t, p = table_with("aldous_vane")
    t.give(p, coin_tokens=3)
    t.run("fall_into_anarchy(me)\nset event_drawer to me", p)  # p draws the next event, in its event phase
    t.until(lambda t: t.active != p)
    asked: list[str] = []

    def drew(t: Table) -> bool:
        if t.decision.player == p and t.active == p:
            asked.append(t.decision.prompt)
        return f"P{p + 1} leaves anarchy" in t.st.log
    t.until(drew, limit=800)
    assert t.active == p and t.counter("coin_tokens", p) == 3  # its turn began in anarchy: no coin invested
    assert not any(a.startswith("invest a coin") for a in asked)
    t.until(lambda t: t.active == p and t.decision.prompt.startswith("invest a coin"), limit=800)  # the next one
