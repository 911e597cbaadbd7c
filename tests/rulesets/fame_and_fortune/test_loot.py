"""Fame and Fortune: loot after battle (FF-8), played through the installed expansion: the
host's attack through its combat menu with the attack deck stacked; each attack is a
battle, its attack card naming the side that loses. The winner loots the loser, a defender
who wins included: 1 loot when the loser had armies in the battle, 2 for a defended city,
an immediate win for a capital taken; the loot buys effects from the table, the same one
again if the winner likes; coins are taken, never investments (FF-3)."""

from __future__ import annotations

import pytest

from .conftest import MENU, Table

LOOT = "choose up to 1 of: loot effects"


def battle(level: int = 1, armies: int = 2, seed: int = 2) -> tuple[Table, int, int]:
    """The active player (p) at its combat menu holding Frostgate (5 armies); the defender (q)
    holds Kettleby next to it (a settlement of `level` with `armies`) and Brannoch, far away,
    with 6 gold, 2 coins and investments."""
    t = Table(3, seed=seed)
    p = t.active
    q = (p + 1) % 3
    t.to_phase_menu(4, p)
    t.clear_map()
    t.seat(p, "varra_steelhand")
    t.seat(q, "aldous_vane")
    t.land("frostgate", p, level=1, armies=5)
    t.land("kettleby", q, level=level, armies=armies)
    t.land("brannoch", q, level=1, armies=1)
    t.put_leader(p, "frostgate")
    t.put_leader(q, "brannoch")
    t.give(q, gold=6, coin_tokens=2, renown=3)
    t.give(p, gold=0, coin_tokens=0)
    t.refresh()
    return t, p, q


def fight(t: Table, card: str, target: str = "Kettleby") -> None:
    """Attack `target` with `card` on top of the attack deck, up to the battle's end."""
    t.stack("attack_deck", card)
    t.pick_start(f"Attack {target}")
    quiet = {"your leader engages in the attack (1 energy)": "no", "respond, or pass": "pass",
             "choose one": "leave the top attack card where it is"}
    while t.decision.prompt in quiet:
        t.pick(quiet[t.decision.prompt])


def conquer(t: Table, target: str = "Kettleby") -> None:
    """Attack `target` with a Rout on top: the defender loses 4; move every army in."""
    t.stack("attack_deck", "rout")
    t.pick_start(f"Attack {target}")
    quiet = {"your leader engages in the attack (1 energy)": "no", "respond, or pass": "pass",
             "choose one": "leave the top attack card where it is"}  # a city's defender looks at the top card
    while t.decision.prompt in quiet:
        t.pick(quiet[t.decision.prompt])
    t.pick(t.labels()[-1])  # the armies moving in
    if t.decision is not None and t.decision.prompt.startswith("your leader moves into"):
        t.pick("no")


@pytest.mark.rule("FF-8")
def test_ff8_a_province_the_loser_held_armies_in_gives_1_loot_spent_on_the_table() -> None:
    t, p, q = battle(level=1, armies=2)
    mark = len(t.st.log)
    conquer(t)
    assert t.controller("kettleby") == p
    assert t.decision.prompt.startswith(LOOT) and t.decision.player == p
    assert t.labels() == ["Plunder the Treasury", "Carry off the Treasures", "Seize the Stores", "Melt a Coin", "done"]
    t.pick("Plunder the Treasury")
    assert t.counter("gold", p) == 3 and t.counter("gold", q) == 3
    assert t.decision.prompt == MENU  # one loot: spent
    lines = t.log_since(mark)
    assert f"P{p + 1} wins 1 loot from P{q + 1}" in lines and f"P{p + 1} loots P{q + 1}: Plunder the Treasury" in lines
    assert f"P{p + 1} takes 3 gold from P{q + 1}" in lines


@pytest.mark.rule("FF-8")
def test_ff8_a_city_gives_2_loot_and_the_same_effect_may_be_bought_twice() -> None:
    t, p, q = battle(level=3, armies=2)
    conquer(t)
    assert "Learn from the Loser" in t.labels() or "Seize a Coin" in t.labels()  # 2-loot effects on offer
    t.pick("Plunder the Treasury")
    assert t.decision.prompt.startswith(LOOT)  # 1 loot left: the 1-loot effects only
    assert "Seize a Coin" not in t.labels() and "Kidnap a Great Person" not in t.labels()
    t.pick("Plunder the Treasury")
    assert t.counter("gold", p) == 6 and t.counter("gold", q) == 0


@pytest.mark.rule("FF-8")
def test_ff8_a_2_loot_effect_takes_a_coin_never_an_investment() -> None:
    t, p, q = battle(level=3, armies=1)
    t.run("let C be top of (cards in my investments)\nraise C's invested by 3", q)
    conquer(t)
    t.pick("Seize a Coin")
    assert t.counter("coin_tokens", p) == 1 and t.counter("coin_tokens", q) == 1
    assert t.value("invested_total(me)", q) == 3  # FF-3: investments are not coins


@pytest.mark.rule("FF-8")
def test_ff8_a_province_without_armies_gives_no_loot() -> None:
    t, p, q = battle(level=1, armies=0)
    conquer(t)
    assert t.controller("kettleby") == p and t.decision.prompt == MENU
    assert not any("loot" in line for line in t.st.log)


@pytest.mark.rule("FF-8")
def test_ff8_taking_the_losers_capital_wins_at_once() -> None:
    t, p, q = battle(level=4, armies=3)
    conquer(t)
    assert t.decision is None and t.st.ending[0] == p
    assert f"P{p + 1} wins: P{p + 1} takes P{q + 1}'s capital Kettleby: a military victory" in t.st.log


@pytest.mark.rule("FF-3")
def test_ff3_a_coin_melted_by_the_winner_leaves_the_losers_investments() -> None:
    t, p, q = battle(level=1, armies=2)
    t.run("let C be top of (cards in my investments)\nraise C's invested by 2", q)
    conquer(t)
    t.pick("Melt a Coin")
    assert t.counter("coin_tokens", q) == 1 and t.value("invested_total(me)", q) == 2


@pytest.mark.rule("FF-8")
def test_ff8_a_defender_who_wins_the_battle_loots_the_attacker() -> None:
    """Issue 35: the loser of a battle need not lose its province: an attacker repulsed had
    armies in the battle, and the defender who won takes 1 loot from it."""
    t, p, q = battle(level=1, armies=3)
    t.give(p, gold=5)
    mark = len(t.st.log)
    fight(t, "repulsed")
    assert t.controller("kettleby") == q and t.of("armies", "frostgate") == 4
    assert t.decision.prompt.startswith(LOOT) and t.decision.player == q
    t.pick("Plunder the Treasury")
    assert t.counter("gold", q) == 9 and t.counter("gold", p) == 2
    assert f"P{q + 1} wins 1 loot from P{p + 1}" in t.log_since(mark)


@pytest.mark.rule("FF-8")
def test_ff8_an_attacker_who_wins_a_battle_without_the_province_loots_the_defender() -> None:
    """A city's defender who loses a battle and keeps the city still loses 2 loot."""
    t, p, q = battle(level=3, armies=5)
    fight(t, "skirmish")
    assert t.controller("kettleby") == q and t.of("armies", "kettleby") == 4
    assert t.decision.prompt.startswith(LOOT) and t.decision.player == p
    assert "Seize a Coin" in t.labels()  # 2 loot: the 2-loot effects on offer
    t.pick("Seize a Coin")
    assert t.counter("coin_tokens", p) == 1 and t.counter("coin_tokens", q) == 1


@pytest.mark.rule("FF-8")
def test_ff8_an_attacker_with_no_armies_left_at_the_cards_loses_no_loot() -> None:
    """A fortification (FF-10) that takes every attacking army before the cards: the
    attacker had no figures in the battle, and the defender who wins takes nothing."""
    t, p, q = battle(level=1, armies=3)
    t.run("set frostgate's armies to 2\nset kettleby's fortified to 1")
    t.refresh()
    mark = len(t.st.log)
    fight(t, "repulsed")
    assert t.of("armies", "frostgate") == 0
    assert not any("loot" in line for line in t.log_since(mark))
