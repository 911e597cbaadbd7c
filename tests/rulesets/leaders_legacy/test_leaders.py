"""Leader's Legacy: leaders (LL-9): types and numbers, abilities passive and active, active
ones paid in energy and usable on any player's turn: offered in response windows to every
player who can use one (and only to them), in the active player's own menus, and in the
window between an attack's declaration and its cards; ranges in provinces by the map's
distance."""

from __future__ import annotations

import pytest

from .conftest import MENU, WINDOW, Table, defn, spec


def no_trades(t: Table) -> None:
    """Everyone has proposed this round's trade: a window offers only abilities."""
    for p in range(t.players):
        t.set_counter("proposed", 1, p)


# ============================================================================ LL-9
@pytest.mark.rule("LL-9")
def test_ll9_leader_cards_three_types_numbers_and_three_abilities_each() -> None:
    leaders = [d for d in spec().defs if d.kind == "leader_card"]
    assert {d.attrs["type"] for d in leaders} == {"military", "civic", "cultural"}
    for d in leaders:
        assert {"health", "armor", "command_score", "energy"} <= set(d.attrs)
        abilities = [a for a in spec().defs if a.kind == "leader_ability" and a.attrs["leader"] == d.id]
        assert len(abilities) == 3, d.id
        for a in abilities:
            passive = a.attrs.get("passive", False)
            # an active ability costs energy and has its effect; a passive one's rule is on the card
            assert passive or (a.attrs["cost"] >= 1 and a.effect is not None), a.id
    assert defn("flynt_mire").attrs["type"] == "military"  # the rulebook's example leader
    assert {a.id for a in spec().defs if a.kind == "leader_ability" and a.attrs["leader"] == "flynt_mire"} \
        >= {"cold_blooded", "assassinate"}


@pytest.mark.rule("LL-9")
def test_ll9_a_window_asks_every_player_who_can_use_an_ability_and_only_them() -> None:
    t = Table(4, seed=5)
    p = t.active
    q, r, s = [(p + i) % 4 for i in (1, 2, 3)]
    no_trades(t)
    t.seat(q, "maren_coinwright")  # Levy: 2 energy, no condition
    t.seat(r, "aldous_vane")
    t.set_counter("energy", 1, r)  # Quarry Rights and Census cost more than 1; Census only on its turn
    t.seat(s, "varra_steelhand")  # Rally needs its province to be s's; Forced March s's own turn
    t.run("set my leader_at to top of (provinces where its controller is nobody)", s)
    t.set_counter("gold", 0, q)
    asked = t.run("open_responses()", p, answers=["Levy (2 energy): Gain 2 gold.", "pass"])
    assert [(d.player, d.prompt) for d in asked] == [(q, WINDOW), (q, WINDOW)]  # asked again after acting
    assert asked[0].labels() == ["pass", "pass for the rest of this turn", "Levy (2 energy): Gain 2 gold."]
    assert t.counter("gold", q) == 2 and t.counter("energy", q) == 5 - 2
    # with too little energy left for another Levy, not even asked
    t.set_counter("energy", 1, q)
    assert t.run("open_responses()", p) == []


@pytest.mark.rule("LL-9")
def test_ll9_a_player_who_passes_for_the_rest_of_the_turn_is_not_asked_again_that_turn() -> None:
    """Issue 30: "respond, or pass" was asked ten times in a turn of a player who meant to
    pass them all; a window offers to pass for the rest of the turn."""
    t = Table(4, seed=5)
    p = t.active
    q = (p + 1) % 4
    no_trades(t)
    t.seat(q, "maren_coinwright")  # Levy: 2 energy, no condition: q may always respond
    for other in ((p + 2) % 4, (p + 3) % 4):
        t.set_counter("energy", 0, other)
    asked = t.run("open_responses()", p, answers=["pass for the rest of this turn"])
    assert [(d.player, d.prompt) for d in asked] == [(q, WINDOW)]
    assert t.run("open_responses()", p) == []  # still Levy to use, but not asked again this turn
    assert t.run("offer any_time to players where it is not me", p) == []


@pytest.mark.rule("LL-9")
def test_ll9_the_active_player_uses_abilities_from_its_menus() -> None:
    t = Table(3, seed=5)
    p = t.active
    t.seat(p, "aldous_vane")
    t.to_phase_menu(3, p)
    t.set_counter("energy", 4, p)
    t.clear_map()
    t.land("frostgate", p, level=2, armies=1)
    t.land("ulmsted", p, level=2, armies=1)
    t.put_leader(p, "frostgate")
    t.refresh()
    census = "Census (3 energy): On your turn: each of your towns makes 1 army now."
    assert census in t.labels()
    t.pick(census)
    assert t.of("armies", "frostgate") == 2 and t.of("armies", "ulmsted") == 2 and t.counter("energy", p) == 1
    assert census not in t.labels()  # 1 energy left


@pytest.mark.rule("LL-9")
def test_ll9_ranges_are_counted_in_provinces_by_the_map() -> None:
    t = Table(4, seed=5)
    p = t.active
    q, r, s = [(p + i) % 4 for i in (1, 2, 3)]
    t.clear_map()
    t.seat(p, "flynt_mire")
    for x, leader in ((q, "aldous_vane"), (r, "hesta_rook"), (s, "sela_windsong")):
        t.seat(x, leader)
    t.put_leader(p, "frostgate")
    t.put_leader(q, "hoarwick")  # 1 province away
    t.put_leader(r, "toadwater")  # 2: Frostgate - Hoarwick - Toadwater
    t.put_leader(s, "marrowbank")  # 3
    assert t.value("distance from frostgate to marrowbank by overland or seaway", p) == 3
    assert t.value("enemy_leaders_within(2)", p) == [q, r]
    t.set_counter("energy", 4, p)
    t.set_counter("health", 6, r)
    t.run("pay 3 energy\nplay assassinate", p, answers=[f"P{r + 1}"])
    assert t.counter("health", r) == 6 - (3 - 1)  # Hesta's armor is 1
    # a sea route counts only for a player with a port on it
    t.put_leader(q, "tallon_pass")  # across the Northern Sea from Frostgate
    assert q not in t.value("enemy_leaders_within(1)", p)
    t.land("frostgate", p, level=1, armies=1, port=1)
    assert q in t.value("enemy_leaders_within(1)", p)


@pytest.mark.rule("LL-9", "LL-11")
def test_ll9_an_ability_used_in_the_window_of_an_attack() -> None:
    """Flynt Mire defends: Ambush, in the window after the attack is declared, costs the
    attacking province an army before the cards are drawn."""
    t = Table(3, seed=2)
    p = t.active
    q = (p + 1) % 3
    no_trades(t)
    t.to_phase_menu(4, p)
    t.clear_map()
    t.seat(p, "aldous_vane")
    t.seat(q, "flynt_mire")
    t.land("frostgate", p, level=1, armies=2)
    t.land("kettleby", q, level=1, armies=2)
    t.put_leader(p, "ulmsted")
    t.put_leader(q, "brannoch")
    t.refresh()
    t.stack("attack_deck", "rout")
    t.pick_start("Attack Kettleby")
    assert t.decision.player == q and t.decision.prompt == WINDOW
    t.pick("Ambush (2 energy): When a province of yours is attacked: the attacking province loses 1 army "
           "before the cards are drawn (once an attack).")
    assert t.of("armies", "frostgate") == 1
    while t.decision.prompt == WINDOW:
        assert not any(label.startswith("Ambush") for label in t.labels())  # once an attack
        t.pick("pass")
    # the Rout: the defender loses 4 or the attacker's 1 army, whichever is lower
    assert t.of("armies", "kettleby") == 1 and t.controller("kettleby") == q
    assert t.decision.prompt == MENU and t.decision.player == p
    assert t.counter("in_combat") == 0


@pytest.mark.rule("LL-9")
def test_ll9_passive_abilities_apply_while_the_leader_is_on_the_board() -> None:
    t = Table(3, seed=5)
    p = t.active
    t.seat(p, "maren_coinwright")  # Thrift: armies cost no food; Far Trader
    assert t.value("army_food", p) == 0 and t.value("trades_anywhere", p) is True
    t.seat(p, "hesta_rook")  # Shipwright
    assert t.value("port_stone", p) == 1 and t.value("port_bonus", p) == 1 and t.value("army_food", p) == 1
    t.seat(p, "oskar_brand")  # Veteran: one more card when engaged
    t.set_counter("engaged", 1, p)
    assert t.value("attack_draws()", p) == 3 + 1
    t.set_counter("engaged", 0, p)
    assert t.value("attack_draws()", p) == 1


@pytest.mark.rule("LL-9")
def test_ll9_cold_blooded_regains_more_energy_after_a_turn_without_moving() -> None:
    t = Table(3, seed=5)
    p = t.active
    t.seat(p, "flynt_mire")
    t.clear_map()
    t.land("frostgate", p, level=1, armies=1)
    t.put_leader(p, "frostgate")
    t.set_counter("energy", 0, p)
    t.set_counter("stood_still", 1, p)
    t.run("bounty_phase()", p)
    assert t.counter("energy", p) == 2  # 1 for every active leader, 1 for Cold Blooded
    t.set_counter("stood_still", 0, p)  # Flynt moved since
    t.run("bounty_phase()", p)
    assert t.counter("energy", p) == 3


def test_card_text_says_region_never_the_rules_internal_realm() -> None:
    """The rules call a region a `realm` (its label is "region"); a card's printed text says
    region, as the rulebook does (Festival said "Sela's realm")."""
    said = {d.name: d.attrs["rule"] for d in spec().defs if isinstance(d.attrs.get("rule"), str)}
    assert "region where Sela stands" in said["Festival"]
    assert not [name for name, text in said.items() if "realm" in text.lower()]
