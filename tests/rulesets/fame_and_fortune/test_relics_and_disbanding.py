"""Fame and Fortune: relics (FF-9) and disbanding armies to fortify or send caravans
(FF-10), played through the installed expansion: relics lie on wild provinces of their
terrain, no city is built next to one, the first armies to end their move there (settling
it) claim it and its one-time ability; an army disbanded in a settlement fortifies it
(the attacker loses armies before the cards; spent after a defence that holds) or brings
it a caravan (resources once); one marker a settlement."""

from __future__ import annotations

import pytest

from .conftest import MENU, Table


def only_relic(t: Table, relic: str, province: str) -> None:
    """`relic` lies in `province`; the other relics are claimed already."""
    t.run("for each R in relics:\n    set R's lying to 0\n"
          f"set {relic}'s lies_in to {province}\nset {relic}'s lying to 1")


def building(seed: int = 0) -> tuple[Table, int]:
    """The active player at its building menu, the map cleared: it holds Ulmsted, a town with
    3 armies (next to Frostgate, Skarrow and Hoarwick, all wild) and plenty of resources."""
    t = Table(3, seed=seed)
    p = t.active
    t.to_phase_menu(3, p)
    t.clear_map()
    t.seat(p, "aldous_vane")
    t.land("ulmsted", p, level=2, armies=3)
    t.put_leader(p, "ulmsted")
    t.give(p, food=9, wood=9, stone=9, gold=9, coin_tokens=0)
    t.refresh()
    return t, p


def settle(t: Table, province: str) -> None:
    """Build a village in `province` from Ulmsted with one army; the leader stays."""
    t.pick_start(f"Build a village in {province}")
    while t.decision.player == t.active and t.decision.prompt != MENU:
        prompt = t.decision.prompt
        if prompt.startswith("choose a number"):
            t.pick("1")
        elif prompt.startswith("your leader moves"):
            t.pick("no")
        else:
            return


# ============================================================================ FF-9
@pytest.mark.rule("FF-9")
def test_ff9_each_relic_lies_on_a_wild_province_of_its_terrain() -> None:
    for seed in range(3):
        t = Table(3, seed=seed)
        for relic, test in (("atlantis", "it has sea_lane"), ("school_of_confucius", "its resource is stone"),
                            ("seven_cities_of_gold", "its resource is wood")):
            assert t.value(f"{relic}'s lying", 0) == 1
            assert t.value(f"count of (provinces where it is {relic}'s lies_in and {test} "
                           "and its controller is nobody)", 0) == 1, (seed, relic)


@pytest.mark.rule("FF-9")
def test_ff9_no_city_beside_a_lying_relic_and_the_first_armies_to_enter_claim_it() -> None:
    t, p = building()
    only_relic(t, "school_of_confucius", "skarrow")
    t.refresh()
    assert not t.starting("Build a city in Ulmsted")  # a relic lies next to it
    settle(t, "Skarrow")
    # School of Confucius: two great people at once (their markers placed or kept)
    while t.decision.prompt == "choose one":
        t.pick(t.labels()[-1])  # keep the marker in reserve
    assert t.value("school_of_confucius's lying", p) == 0 and t.controller("skarrow") == p
    assert len(t.zone("great_person_hand", p)) == 2
    assert f"P{p + 1}'s armies end their move in Skarrow: P{p + 1} removes School of Confucius and gains its " \
           "ability" in t.st.log
    assert t.starting("Build a city in Ulmsted")  # once removed, the square is as any other


@pytest.mark.rule("FF-9")
def test_ff9_atlantis_grows_a_settlement_at_the_start_of_the_next_turn() -> None:
    t, p = building()
    only_relic(t, "atlantis", "frostgate")
    t.refresh()
    settle(t, "Frostgate")
    assert t.counter("free_upgrades", p) == 1
    t.until(lambda t: t.active != p)
    t.until(lambda t: t.active == p and t.decision.prompt == "choose a province in the provinces you control")
    t.pick("Ulmsted")  # the town grows into a city, for free
    assert t.of("level", "ulmsted") == 3 and t.counter("free_upgrades", p) == 0
    assert "Ulmsted grows into a city for free" in t.st.log


@pytest.mark.rule("FF-9")
def test_ff9_the_seven_cities_of_gold_invest_two_coins_for_free_at_the_next_turn() -> None:
    t, p = building()
    only_relic(t, "seven_cities_of_gold", "hoarwick")
    t.refresh()
    settle(t, "Hoarwick")
    assert t.counter("free_investments", p) == 2
    t.until(lambda t: t.active != p)
    for _ in range(2):
        t.until(lambda t: t.active == p and t.decision.prompt == "choose a card in your investments")
        t.pick("Patronage of the Arts")
    assert t.invested("patronage_of_the_arts", p) == 2 and t.counter("coin_tokens", p) == 0


# ============================================================================ FF-10
@pytest.mark.rule("FF-10")
def test_ff10_an_army_disbanded_fortifies_a_settlement_one_marker_each() -> None:
    t, p = building()
    t.pick("Disband an army in Ulmsted to fortify it")
    assert t.of("armies", "ulmsted") == 2 and t.of("fortified", "ulmsted") == 1
    assert not t.starting("Disband an army in Ulmsted")  # a fortification or a caravan, never both


@pytest.mark.rule("FF-10")
def test_ff10_a_fortification_costs_the_attacker_armies_and_is_spent_by_a_defence_that_holds() -> None:
    t = Table(3, seed=2)
    p = t.active
    q = (p + 1) % 3
    t.to_phase_menu(4, p)
    t.clear_map()
    t.seat(p, "varra_steelhand")
    t.land("frostgate", p, level=1, armies=4)
    t.land("kettleby", q, level=1, armies=2)
    t.put_leader(p, "frostgate")
    t.put_leader(q, "kettleby")
    t.run("set kettleby's fortified to 1")
    t.refresh()
    t.stack("attack_deck", "skirmish")  # the defender loses 1: it holds
    t.pick_start("Attack Kettleby")
    while t.decision.prompt in ("your leader engages in the attack (1 energy)", "respond, or pass"):
        t.pick("no" if t.decision.prompt.startswith("your leader") else "pass")
    assert t.of("armies", "frostgate") == 2  # 2 lost before the cards
    assert t.of("armies", "kettleby") == 1 and t.controller("kettleby") == q
    assert t.of("fortified", "kettleby") == 0  # spent
    assert "Kettleby's fortification holds: Frostgate loses 2 armies before the cards" in t.st.log
    assert f"P{q + 1} held Kettleby: its fortification is spent" in t.st.log


@pytest.mark.rule("FF-10")
def test_ff10_an_army_disbanded_sends_a_caravan_unloaded_once_for_resources() -> None:
    t, p = building()
    t.pick("Disband an army in Ulmsted to send it a caravan")
    assert t.of("caravan", "ulmsted") == 1 and not t.starting("Disband an army in Ulmsted")
    wood = t.counter("wood", p)  # Ulmsted yields wood
    t.pick("Unload the caravan in Ulmsted (2 wood)")
    assert t.counter("wood", p) == wood + 2 and t.of("caravan", "ulmsted") == 0
    assert not t.starting("Unload the caravan")  # once


@pytest.mark.rule("FF-9")
def test_ff9_a_relic_with_no_wild_province_of_its_terrain_stays_out_and_the_rest_is_dealt() -> None:
    from .conftest import quiet, spec

    stone = {d.name for d in spec().defs if d.kind == "province" and d.attrs.get("resource") == "stone"}

    def claim_stone(labels: list[str]) -> str:  # at placement, every stone province first
        return next((label for label in labels if label in stone), quiet(labels))
    t = Table(3, seed=0, answer=claim_stone)
    assert t.value("school_of_confucius's lying", 0) == 0 and t.value("atlantis's lying", 0) == 1
    assert t.value("seven_cities_of_gold's lying", 0) == 1  # the relic after it is placed: nothing stopped
    assert "School of Confucius finds no wild province of its terrain: it is not in this game" in t.st.log
    assert len(t.zone("wonder_market")) == 4 and len(t.zone("investments", 0)) == 4
