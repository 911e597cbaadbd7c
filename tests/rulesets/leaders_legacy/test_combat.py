"""Leader's Legacy: combat (LL-11): declaring, the defender's check from a city (LL-8),
the attack cards drawn by command, losses no more than the enemy's armies, damage to
leaders through armor, capture and a defending leader's retreat or capture; incapacity,
revival and ransom (LL-12); a military leader's renown (LL-10). Played through the combat
menu with the attack deck stacked."""

from __future__ import annotations

import random

import pytest
import tables

from legacies.agents.bots import apply_random_option
from legacies.interpreter.game import Undo, cached_game

from .conftest import MENU, Table


def combat(attacker_leader: str = "varra_steelhand", defender_leader: str = "aldous_vane",
           seed: int = 2) -> tuple[Table, int, int]:
    """A table at the active player's combat menu, the map cleared: the attacker (p) holds
    Frostgate with 4 armies and its leader; the defender (q) holds Kettleby (a village, 2
    armies) next to it by overland, its leader in Brannoch, far away."""
    t = Table(3, seed=seed)
    p = t.active
    q = (p + 1) % 3
    t.to_phase_menu(4, p)
    t.clear_map()
    t.seat(p, attacker_leader)
    t.seat(q, defender_leader)
    t.land("frostgate", p, level=1, armies=4)
    t.land("kettleby", q, level=1, armies=2)
    t.land("brannoch", q, level=1, armies=1)
    t.put_leader(p, "frostgate")
    t.put_leader(q, "brannoch")
    t.give(p, renown=0, energy=3)
    t.refresh()
    return t, p, q


def attack(t: Table, target: str, engage: bool | None = None) -> None:
    """Declare an attack on `target` from the one province next to it; pass the window."""
    t.pick_start(f"Attack {target}")
    if engage is not None:
        assert t.decision.prompt == "your leader engages in the attack (1 energy)"
        t.pick("yes" if engage else "no")
    while t.decision.prompt == "respond, or pass":
        t.pick("pass")


# ============================================================================ LL-11
@pytest.mark.rule("LL-11")
def test_ll11_an_engaged_leader_draws_its_command_in_cards_and_reveals_one() -> None:
    t, p, q = combat()
    t.stack("attack_deck", "repulsed", "rout")  # the command is 2: these two are drawn
    energy = t.counter("energy", p)
    attack(t, "Kettleby", engage=True)
    assert t.counter("energy", p) == energy - 1
    assert sorted(t.labels()) == ["Repulsed (attacker loses 1)", "Rout (defender loses 4)"]
    t.pick("Rout (defender loses 4)")
    # the defender loses 4 or the attacker's 4 armies, whichever is lower: all of its 2
    assert t.of("armies", "kettleby") == 0
    assert t.decision.prompt.startswith("choose a number") and t.labels() == ["1", "2", "3", "4"]
    t.pick("3")
    assert t.controller("kettleby") == p and t.of("armies", "kettleby") == 3 and t.of("armies", "frostgate") == 1
    assert t.decision.prompt == "your leader moves into Kettleby too"
    t.pick("yes")
    assert t.value("my leader_at is kettleby", p) is True
    assert t.ids("attack_discard")[-2:] in (["repulsed", "rout"], ["rout", "repulsed"])  # both discarded
    assert t.counter("conquests", p) == 1


@pytest.mark.rule("LL-11")
def test_ll11_without_the_leader_one_card_and_losses_capped_by_the_enemys_armies() -> None:
    t, p, q = combat()
    t.land("frostgate", p, level=1, armies=1)
    t.land("kettleby", q, level=1, armies=3)
    t.refresh()
    t.stack("attack_deck", "breakthrough")
    attack(t, "Kettleby", engage=False)
    # one card, revealed without a choice: 3, but the attacker has 1 army: the defender loses 1
    assert t.of("armies", "kettleby") == 2 and t.controller("kettleby") == q
    assert any("reveals Breakthrough (defender loses 3): " in line and "loses 1 army" in line for line in t.st.log)
    assert t.decision.prompt == MENU


@pytest.mark.rule("LL-11", "LL-12")
def test_ll11_a_losing_engaged_attacker_leader_takes_damage_less_armor() -> None:
    t, p, q = combat(attacker_leader="flynt_mire")  # armor 1, health 6
    t.land("kettleby", q, level=1, armies=3)
    t.refresh()
    t.stack("attack_deck", "skirmish", "ambushed", "counterattack")  # command 3: all three drawn
    attack(t, "Kettleby", engage=True)
    t.pick("Ambushed (attacker loses 3)")  # a bad choice, to see the damage
    assert t.of("armies", "frostgate") == 1  # 3 lost
    assert t.counter("health", p) == 6 - (3 - 1)


@pytest.mark.rule("LL-11", "LL-12", "LL-10")
def test_ll11_a_defending_leader_in_the_province_is_hurt_and_may_be_incapacitated() -> None:
    t, p, q = combat(attacker_leader="oskar_brand", defender_leader="maren_coinwright")  # armor 0
    t.land("kettleby", q, level=1, armies=5)
    t.put_leader(q, "kettleby")
    t.set_counter("health", 3, q)
    t.refresh()
    t.stack("attack_deck", "rout")
    attack(t, "Kettleby", engage=False)
    # 4 armies lost, 4 - 0 armor damage: Maren (3 health) is incapacitated, off the board
    assert t.of("armies", "kettleby") == 1 and t.counter("health", q) == 0
    assert t.value("on_board(me)", q) is False and t.ids("sidelined", q) == ["maren_coinwright"]
    assert t.value("my captor", q) == -1  # incapacitated, not captured
    # Oskar's side incapacitated an enemy leader: 3 renown to a military leader
    assert t.counter("renown", p) == 3 and t.counter("leaders_felled", p) == 1


@pytest.mark.rule("LL-11")
def test_ll11_a_defending_leader_retreats_to_a_next_settlement_of_its_own() -> None:
    t, p, q = combat()
    t.land("hoarwick", q, level=1, armies=0)  # next to Kettleby
    t.put_leader(q, "kettleby")
    t.refresh()
    t.stack("attack_deck", "assault")
    attack(t, "Kettleby", engage=False)
    t.pick("4")  # all of Frostgate's armies move in
    t.pick("no")  # the attacker's leader stays
    # Hoarwick is the one refuge: the leader goes there without a question
    assert t.controller("kettleby") == p and t.value("my leader_at is hoarwick", q) is True
    assert t.value("on_board(me)", q) is True


@pytest.mark.rule("LL-11", "LL-12", "LL-10")
def test_ll11_a_defending_leader_with_nowhere_to_go_is_captured() -> None:
    t, p, q = combat(attacker_leader="varra_steelhand", defender_leader="maren_coinwright")
    t.put_leader(q, "kettleby")
    t.set_counter("health", 5, q)
    t.refresh()
    t.stack("attack_deck", "assault")
    attack(t, "Kettleby", engage=False)  # Maren (armor 0) loses 2 health, then has nowhere to go
    t.pick("1")
    t.pick("no")
    assert t.counter("health", q) == 3 and t.ids("sidelined", q) == ["maren_coinwright"]
    assert t.value("my captor", q) == p
    assert t.counter("renown", p) == 3  # a military leader captured an enemy leader
    assert any("held by" in line and "ransom of 3 gold" in line for line in t.st.log)


@pytest.mark.rule("LL-11", "LL-8")
def test_ll11_a_city_lets_the_defender_look_at_the_top_card_and_put_it_at_the_bottom() -> None:
    t, p, q = combat()
    t.land("kettleby", q, level=3, armies=2)  # a city
    t.refresh()
    skirmish, rout = t.stack("attack_deck", "skirmish", "rout")  # Rout on top, Skirmish under it
    attack(t, "Kettleby", engage=False)
    assert t.decision.player == q and t.labels() == ["leave the top attack card where it is",
                                                     "put the top attack card at the bottom of the deck"]
    assert t.zone("looked_at", q) == [rout]  # the defender sees it; nobody else does
    assert t.lay.zone_visibility[t.lay.player_zone["looked_at"]] == "owner"
    t.pick("put the top attack card at the bottom of the deck")
    assert t.zone("attack_deck")[0] == rout
    assert t.of("armies", "kettleby") == 1  # the Skirmish was drawn instead


@pytest.mark.rule("LL-11", "LL-8")
def test_ll11_a_village_gives_no_look() -> None:
    t, p, q = combat()
    t.stack("attack_deck", "skirmish")
    attack(t, "Kettleby", engage=False)
    assert t.decision.prompt == MENU and t.of("armies", "kettleby") == 1


@pytest.mark.rule("LL-11", "LL-10")
def test_ll11_conquering_a_city_or_capital_is_renown_for_a_military_leader() -> None:
    t, p, q = combat(attacker_leader="varra_steelhand")
    t.land("kettleby", q, level=4, armies=1)
    t.refresh()
    t.stack("attack_deck", "skirmish", "assault")  # the defender may look: leave it
    attack(t, "Kettleby", engage=False)
    t.pick("leave the top attack card where it is")
    t.pick("1")
    assert t.controller("kettleby") == p and t.of("level", "kettleby") == 4  # a capital stays one
    assert t.counter("renown", p) == 2


@pytest.mark.rule("LL-11")
def test_ll11_only_neighbours_can_be_attacked_and_not_during_a_truce() -> None:
    t, p, q = combat()
    t.land("silverfell", q, level=1, armies=1)  # far away
    t.refresh()
    assert t.starting("Attack") == ["Attack Kettleby (P%d: 2 armies)" % (q + 1)]
    t.run("until round_ended: war = no", p)
    t.refresh()
    assert not t.starting("Attack")


# ============================================================================ LL-12
@pytest.mark.rule("LL-12", "LL-9")
def test_ll12_an_incapacitated_leader_has_no_passives_and_earns_no_renown() -> None:
    t, p, q = combat(attacker_leader="varra_steelhand")
    assert t.value("armor_of(me)", p) == 3  # Iron Guard: 2 + 1
    t.run("incapacitate(me, nobody)", p)
    assert t.value("armor_bonus", p) == 0  # the passive stops with the card off the board
    t.set_counter("conquests", 1, p)
    t.run("end_phase()", p)
    assert t.counter("renown", p) == 0  # no military renown while incapacitated
    # renown earned before stays: it is never lost
    t.set_counter("renown", 5, p)
    t.run("incapacitate(me, nobody)", p)
    assert t.counter("renown", p) == 5


@pytest.mark.rule("LL-12")
def test_ll12_revive_for_2_food_2_gold_in_a_city_or_capital() -> None:
    t = Table(3, seed=4)
    p = t.active
    t.to_phase_menu(3, p)
    t.clear_map()
    t.land("frostgate", p, level=1, armies=1)
    t.run("incapacitate(me, nobody)", p)
    t.give(p, food=2, gold=2)
    t.refresh()
    assert not t.starting("Revive")  # no city or capital
    t.land("ulmsted", p, level=3, armies=1)
    for food, gold in ((0, 0), (1, 2), (2, 1)):  # issue 35: never offered to a player who cannot pay
        t.give(p, food=food, gold=gold)
        t.refresh()
        assert not t.starting("Revive"), (food, gold)
    t.give(p, food=2, gold=2)
    t.refresh()
    assert t.starting("Revive") == ["Revive your leader in Ulmsted (2 food, 2 gold)"]
    t.pick("Revive your leader in Ulmsted (2 food, 2 gold)")
    assert t.value("on_board(me)", p) is True and t.value("my leader_at is ulmsted", p) is True
    assert t.counter("health", p) == t.value("max_health(me)", p)  # ours: back at full health
    assert (t.counter("food", p), t.counter("gold", p)) == (0, 0)


@pytest.mark.rule("LL-12")
def test_ll12_a_captured_leader_waits_for_3_gold_paid_to_the_captor() -> None:
    t = Table(3, seed=4)
    p = t.active
    q = (p + 1) % 3
    t.to_phase_menu(3, p)
    t.clear_map()
    t.land("frostgate", p, level=1, armies=1)
    t.land("amberly", p, level=3, armies=1)
    t.run("capture(me, player after me)", p)
    assert t.value("my captor", p) == q
    t.give(p, gold=2, food=5)
    t.set_counter("gold", 0, q)
    t.refresh()
    assert not t.starting("Pay the ransom")  # issue 35: 2 gold cannot pay it: not offered
    t.give(p, gold=3)
    t.refresh()
    assert not t.starting("Revive")  # a captured leader is not revived: it is ransomed
    assert t.starting("Pay the ransom") == [
        f"Pay the ransom for your leader and place it in {v} (3 gold to P{q + 1})" for v in ("Frostgate", "Amberly")]
    t.pick(f"Pay the ransom for your leader and place it in Frostgate (3 gold to P{q + 1})")
    assert t.counter("gold", p) == 0 and t.counter("gold", q) == 3
    assert t.value("on_board(me)", p) is True and t.value("my captor", p) == -1
    assert t.value("my leader_at is frostgate", p) is True


# What `attack_targets` lists, said the way the rules first said it: each of the other players'
# provinces that has a province of yours with an army next to it (`attack_sources`). The
# rules now walk from your armies instead (`attack_front`, one walk a menu): the same places.
EACH_TARGET_ASKED = ("provinces where its controller is not me and its controller is not nobody "
                     "and not sanctuary of it and count of attack_sources(it) > 0")


def _targets(t: Table, player: int) -> tuple[list[str], list[str]]:
    """(what the rules list, what asking each province lists), as content ids."""
    def ids(source: str) -> list[str]:
        return [t.def_id(pid) for pid in t.value(source, player)]
    return ids("attack_targets()"), ids(EACH_TARGET_ASKED)


@pytest.mark.rule("LL-11", "LL-8")
def test_ll11_a_province_may_be_attacked_from_one_next_to_it_by_land_or_by_a_sea_route_with_a_port() -> None:
    t, p, q = combat()
    t.land("tallon_pass", q, level=1, armies=1)  # across the Northern Sea from Frostgate
    t.land("silverfell", p, level=1, armies=0)  # p's other coast of it, no army there
    t.land("ulmsted", q, level=1, armies=1)  # next to Frostgate by land
    t.refresh()
    targets, asked = _targets(t, p)
    assert targets == asked == ["ulmsted", "kettleby"]  # no port on the Northern Sea: by land only
    t.land("frostgate", p, level=1, armies=4, port=1)  # a port on the Northern Sea: the route opens
    t.refresh()
    targets, asked = _targets(t, p)
    assert targets == asked == ["ulmsted", "kettleby", "tallon_pass"]
    assert _targets(t, q) == (["frostgate"], ["frostgate"])  # q's armies next to Frostgate by land
    t.run("until event_drawn: seas_open = no", p)  # the sea routes closed (a storm): by land again
    assert _targets(t, p)[0] == _targets(t, p)[1] == ["ulmsted", "kettleby"]
    t.land("frostgate", p, level=1, armies=0, port=1)  # no army left to attack from
    assert _targets(t, p) == ([], [])


@pytest.mark.rule("LL-11")
@pytest.mark.parametrize("expansions", [(), ("fame-and-fortune",)], ids=["base", "fame-and-fortune"])
def test_ll11_the_provinces_open_to_attack_are_those_asked_one_by_one_throughout_random_games(
        expansions: tuple[str, ...]) -> None:
    """Every fifth decision of two random 4-player games: for every player, the provinces
    `attack_targets` lists (walked from their armies) are those with an `attack_sources` of
    their own (each province asked)."""
    game = cached_game(tables.shipped_spec("leaders-legacy", expansions), 4)
    compared = nonempty = 0
    for seed in (1, 2):
        t = tables.Table(game, seed)
        rng = random.Random(seed)
        for n in range(400):
            if t.state.is_terminal():
                break
            if n % 5 == 0:
                for player in range(4):
                    targets, asked = _targets(t, player)
                    assert targets == asked, (seed, n, player)
                    compared += 1
                    nonempty += bool(targets)
            apply_random_option(t.state, rng, undo=Undo.NONE)
    assert compared >= 400 and nonempty >= 40, (compared, nonempty)
