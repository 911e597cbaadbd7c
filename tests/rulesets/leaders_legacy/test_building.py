"""Leader's Legacy: the building phase by the settlement table (LL-7), what settlements are
worth (LL-8) and a civic leader's renown for building (LL-10), played through the building
menu."""

from __future__ import annotations

import pytest

from .conftest import Table


def building(players: int = 3, seed: int = 2, leader: str = "sela_windsong") -> tuple[Table, int]:
    """A table at the active player's building menu, on an empty map; the player's leader given."""
    t = Table(players, seed=seed)
    p = t.active
    t.clear_map()
    t.seat(p, leader)
    t.land("frostgate", p, level=1, armies=3)
    t.put_leader(p, "frostgate")
    t.to_phase_menu(3, p)
    t.give(p, food=0, wood=0, stone=0, gold=0, renown=0)
    t.refresh()
    return t, p


# ============================================================================ LL-7
@pytest.mark.rule("LL-7")
def test_ll7_a_village_on_undeveloped_land_next_to_yours_with_an_army_moving_in() -> None:
    t, p = building()
    assert not t.starting("Build a village")  # no wood
    t.land("kettleby", (p + 1) % 3, level=1, armies=1)  # another player's
    t.land("ulmsted", p, level=1, armies=0)  # yours, but no army to move
    t.give(p, wood=1)
    t.refresh()
    # next to Frostgate (with armies): Hoarwick (Ulmsted is yours, Kettleby is taken); next to
    # Ulmsted (no army): nothing
    assert t.starting("Build a village") == ["Build a village in Hoarwick (1 wood)"]
    t.pick("Build a village in Hoarwick (1 wood)")
    assert t.decision.prompt.startswith("choose a number") and t.labels() == ["1", "2", "3"]
    t.pick("2")
    assert t.decision.prompt == "your leader moves into Hoarwick too"
    t.pick("yes")
    assert t.controller("hoarwick") == p and t.of("level", "hoarwick") == 1 and t.of("armies", "hoarwick") == 2
    assert t.of("armies", "frostgate") == 1 and t.value("my leader_at is hoarwick", p) is True
    assert t.counter("wood", p) == 0 and not t.starting("Build a village")


@pytest.mark.rule("LL-7")
def test_ll7_towns_cities_and_their_costs() -> None:
    t, p = building()
    assert not t.starting("Build a town")
    t.give(p, wood=2, stone=1)
    t.refresh()
    t.pick("Build a town in Frostgate (2 wood, 1 stone)")
    assert t.of("level", "frostgate") == 2 and (t.counter("wood", p), t.counter("stone", p)) == (0, 0)
    assert not t.starting("Build a city")
    t.give(p, wood=1, stone=2, gold=1)
    t.refresh()
    t.pick("Build a city in Frostgate (1 wood, 2 stone, 1 gold)")
    assert t.of("level", "frostgate") == 3
    assert [t.counter(r, p) for r in ("wood", "stone", "gold")] == [0, 0, 0]
    assert t.counter("renown", p) == 0  # a cultural leader earns nothing for building


@pytest.mark.rule("LL-7", "LL-10")
def test_ll7_a_capital_only_with_the_whole_region_one_per_region() -> None:
    t, p = building(leader="aldous_vane")  # civic
    t.land("frostgate", p, level=3, armies=3)
    t.land("ulmsted", p, level=3, armies=1)
    t.land("kettleby", p, level=1, armies=1)
    t.land("hoarwick", p, level=1, armies=1)
    t.land("brannoch", (p + 1) % 3, level=1, armies=1)  # Norhold is not all yours
    t.give(p, food=4, stone=4, gold=6)
    t.refresh()
    assert not t.starting("Build the capital")
    t.land("brannoch", p, level=1, armies=1)
    t.refresh()
    assert t.starting("Build the capital") == ["Build the capital of Norhold in Frostgate (2 stone, 3 gold, 2 food)",
                                               "Build the capital of Norhold in Ulmsted (2 stone, 3 gold, 2 food)"]
    t.pick("Build the capital of Norhold in Frostgate (2 stone, 3 gold, 2 food)")
    assert t.of("level", "frostgate") == 4 and t.value("norhold's capital_built", p) == 1
    assert [t.counter(r, p) for r in ("food", "stone", "gold")] == [2, 2, 3]
    assert t.counter("renown", p) == 2  # a civic leader: 2 for a capital
    assert not t.starting("Build the capital")  # one per region, though Ulmsted could pay
    # a capital stays one when it changes hands (permanent)
    t.land("frostgate", (p + 1) % 3, level=4, armies=1)
    assert t.value("count of (provinces where its level = 4)", p) == 1


@pytest.mark.rule("LL-7", "LL-10")
def test_ll7_a_civic_leader_earns_renown_for_a_city() -> None:
    t, p = building(leader="hesta_rook")
    t.land("frostgate", p, level=2, armies=3)
    t.give(p, wood=1, stone=2, gold=1)
    t.refresh()
    t.pick("Build a city in Frostgate (1 wood, 2 stone, 1 gold)")
    assert t.counter("renown", p) == 1


@pytest.mark.rule("LL-7", "LL-8")
def test_ll7_a_port_only_on_a_sea_route() -> None:
    t, p = building()
    t.land("ulmsted", p, level=1, armies=1)  # inland
    t.give(p, stone=4)
    t.refresh()
    assert t.starting("Build a port") == ["Build a port in Frostgate (2 stone)"]  # the Northern Sea
    t.pick("Build a port in Frostgate (2 stone)")
    assert t.of("has_port", "frostgate") == 1 and t.counter("stone", p) == 2
    assert not t.starting("Build a port")


@pytest.mark.rule("LL-7")
def test_ll7_armies_cost_a_gold_and_a_food_placed_anywhere_in_your_empire() -> None:
    t, p = building()
    t.land("silverfell", p, level=1, armies=0)  # far from Frostgate
    t.give(p, food=2, gold=1)
    t.refresh()
    assert t.starting("Buy an army") == ["Buy an army for Frostgate (1 gold, 1 food)",
                                         "Buy an army for Silverfell (1 gold, 1 food)"]
    t.pick("Buy an army for Silverfell (1 gold, 1 food)")
    assert t.of("armies", "silverfell") == 1 and (t.counter("food", p), t.counter("gold", p)) == (1, 0)
    assert not t.starting("Buy an army")


# ============================================================================ LL-8
@pytest.mark.rule("LL-8")
def test_ll8_settlement_renown_town_1_city_2_capital_4_port_1() -> None:
    t, p = building()
    assert t.renown(p) == 0  # a village is worth nothing
    t.land("frostgate", p, level=2, armies=1)
    assert t.renown(p) == 1
    t.land("ulmsted", p, level=3, armies=1)
    assert t.renown(p) == 3
    t.land("hoarwick", p, level=4, armies=1)
    assert t.renown(p) == 7
    t.land("kettleby", p, level=1, armies=1, port=1)
    assert t.renown(p) == 8
    # renown of settlements is what you hold now: it goes with the province
    t.land("ulmsted", (p + 1) % 3, level=3, armies=1)
    assert t.renown(p) == 6 and t.renown((p + 1) % 3) == 2
    assert [t.value(f"population_limit({v})", p) for v in ("kettleby", "frostgate", "ulmsted", "hoarwick")] \
        == [3, 4, 6, 9]
    assert [t.value(f"moves_granted({v})", p) for v in ("kettleby", "frostgate", "ulmsted", "hoarwick")] \
        == [0, 1, 2, 3]
