"""Leader's Legacy: trade between neighbours, a province changing hands a round later with
its armies (LL-15); objectives main and side (LL-16); the first to the renown goal wins,
and the three-objective variant (LL-17)."""

from __future__ import annotations

import pytest

from legacies.interpreter.game import Game

from .conftest import Table, quiet, spec


def trading(players: int = 3, seed: int = 2) -> tuple[Table, int, int, int]:
    """The active player's building menu; p holds Frostgate, q Kettleby next to it by overland,
    r Silverfell far away (across the Northern Sea from Frostgate)."""
    t = Table(players, seed=seed)
    p = t.active
    q, r = (p + 1) % players, (p + 2) % players
    t.to_phase_menu(3, p)
    t.clear_map()
    for x, leader in ((p, "sela_windsong"), (q, "aldous_vane"), (r, "oskar_brand")):
        t.seat(x, leader)
    t.land("frostgate", p, level=2, armies=2)
    t.land("kettleby", q, level=1, armies=3)
    t.land("silverfell", r, level=1, armies=1)
    t.put_leader(p, "frostgate")
    t.put_leader(q, "kettleby")
    t.put_leader(r, "silverfell")
    t.give(p, food=0, wood=3, stone=0, gold=0)
    t.give(q, food=0, wood=0, stone=2, gold=4)
    for x in range(players):
        t.set_counter("proposed", 0, x)
    t.refresh()
    return t, p, q, r


# ============================================================================ LL-15
@pytest.mark.rule("LL-15")
def test_ll15_neighbours_by_land_trade_resources_at_once() -> None:
    t, p, q, r = trading()
    assert t.starting("Propose a trade") == [f"Propose a trade to P{q + 1}"]  # not r: no border, no port
    t.pick(f"Propose a trade to P{q + 1}")
    assert t.labels() == ["offer resources", "offer a province"]  # never armies or renown
    t.pick("offer resources")
    t.pick("3")  # wood, the only resource p has: not asked
    assert t.labels() == ["ask for resources", "ask for a province", "ask for nothing"]
    t.pick("ask for resources")
    assert t.labels() == ["stone", "gold"]
    t.pick("gold")
    t.pick("2")
    assert t.decision.player == q
    # the person asked reads the whole offer in the option (a user's trial: only the log held it)
    assert t.labels() == [f"accept the trade from P{p + 1}: you get 3 wood, you give 2 gold",
                          f"refuse the trade from P{p + 1}"]
    t.pick(f"accept the trade from P{p + 1}: you get 3 wood, you give 2 gold")
    assert (t.counter("wood", p), t.counter("gold", p)) == (0, 2)
    assert (t.counter("wood", q), t.counter("gold", q)) == (3, 2)
    assert t.counter("trades_done", p) == t.counter("trades_done", q) == 1
    assert not t.starting("Propose a trade")  # ours: one proposal a round


@pytest.mark.rule("LL-15")
def test_ll15_a_refused_trade_changes_nothing() -> None:
    t, p, q, r = trading()
    t.pick(f"Propose a trade to P{q + 1}")
    t.pick("offer resources")
    t.pick("1")
    t.pick("ask for nothing")
    t.pick(f"refuse the trade from P{p + 1}")
    assert (t.counter("wood", p), t.counter("wood", q)) == (3, 0)


@pytest.mark.rule("LL-15")
def test_ll15_by_sea_only_with_the_active_players_port_and_far_traders_anywhere() -> None:
    t, p, q, r = trading()
    t.land("frostgate", p, level=2, armies=2, port=1)  # on the Northern Sea, as Silverfell
    t.refresh()
    assert f"Propose a trade to P{r + 1}" in t.labels()
    t.land("frostgate", p, level=2, armies=2)
    t.seat(p, "maren_coinwright")  # Far Trader: any player
    t.refresh()
    assert f"Propose a trade to P{r + 1}" in t.labels()


@pytest.mark.rule("LL-15")
def test_ll15_a_province_traded_changes_hands_a_round_later_with_its_armies() -> None:
    t, p, q, r = trading()
    t.land("ulmsted", p, level=3, armies=4)  # a city: 2 renown
    t.refresh()
    t.pick(f"Propose a trade to P{q + 1}")
    t.pick("offer a province")
    t.pick("Ulmsted")
    t.pick("ask for resources")
    t.pick("gold")
    t.pick("4")
    t.pick(f"accept the trade from P{p + 1}: you get Ulmsted, you give 4 gold")
    assert t.counter("gold", p) == 4 and t.controller("ulmsted") == p  # the gold now, the province later
    renown_q = t.renown(q)
    # the round: p's turn ends, then q's and r's; the province passes at the end of p's next turn
    start = t.st.turns
    while t.controller("ulmsted") == p:
        turn, active = t.st.turns, t.active
        t.pick(quiet(t.labels()))
    assert active == p and turn == start + 3
    assert t.controller("ulmsted") == q and t.of("armies", "ulmsted") >= 1  # with its armies
    assert t.renown(q) >= renown_q + 2  # and the renown it is worth
    assert any(line.startswith("Ulmsted changes hands by trade") for line in t.st.log)


@pytest.mark.rule("LL-15", "LL-9")
def test_ll15_a_neighbour_proposes_to_the_active_player_in_the_window() -> None:
    t = Table(3, seed=2)
    p = t.active
    q = (p + 1) % 3
    t.clear_map()
    t.land("frostgate", p, level=1, armies=2)
    t.land("kettleby", q, level=1, armies=2)
    t.give(q, wood=2)
    for x in range(3):
        t.set_counter("proposed", 0, x)
        t.set_counter("energy", 0, x)
    asked = t.run("open_responses()", p, answers=[f"Propose a trade to P{p + 1}", "offer resources", "1", "ask for nothing",
                                           f"accept the trade from P{q + 1}: you get 1 wood, you give nothing"])
    # q proposes (offer, amount, ask) and p answers; q, having proposed this round, is not asked again
    assert [d.player for d in asked] == [q, q, q, q, p]
    assert t.counter("wood", p) >= 1 and t.counter("wood", q) == 1


# ============================================================================ LL-16
@pytest.mark.rule("LL-16")
def test_ll16_a_main_objective_per_region_and_per_leader_type() -> None:
    mains = [d for d in spec().defs if d.kind == "objective" and d.attrs.get("is_main")]
    regions = [d.id for d in spec().defs if d.kind == "realm"]
    assert len(mains) == len(regions) + 3
    sides = [d for d in spec().defs if d.kind == "objective" and not d.attrs.get("is_main")]
    assert len(sides) == 8 and all(d.attrs["renown_value"] >= 1 for d in mains + sides)


@pytest.mark.rule("LL-16")
def test_ll16_objectives_are_claimed_at_the_end_of_your_turn_for_their_renown() -> None:
    t = Table(3, seed=3)
    p = t.active
    q = (p + 1) % 3
    t.clear_map()
    t.seat(p, "sela_windsong")
    for v in ("frostgate", "ulmsted", "kettleby", "hoarwick", "brannoch"):
        t.land(v, p, level=1, armies=1)
    t.land("amberly", q, level=1, armies=1)
    t.give(p, renown=0, gold=10)
    t.run("move cards in side_objectives to side_deck\nmove top of (objectives in side_deck where it is treasury) "
          "to side_objectives", p)
    t.run("claim_objectives()", p)
    assert t.ids("held_objectives", p) == ["lord_of_norhold", "treasury"]
    assert t.counter("renown", p) == 3 + 2
    assert "lord_of_norhold" not in t.ids("main_objectives") and t.ids("side_objectives") == []
    t.run("claim_objectives()", p)
    assert t.counter("renown", p) == 5  # claimed once


@pytest.mark.rule("LL-16")
def test_ll16_a_leader_types_objective_only_for_that_type() -> None:
    t = Table(3, seed=3)
    p = t.active
    t.seat(p, "aldous_vane")  # civic
    t.set_counter("conquered_total", 5, p)
    t.run("claim_objectives()", p)
    assert "warlord" not in t.ids("held_objectives", p)
    t.seat(p, "varra_steelhand")
    t.run("claim_objectives()", p)
    assert "warlord" in t.ids("held_objectives", p)


@pytest.mark.rule("LL-16")
def test_ll16_three_random_side_objectives_a_game() -> None:
    seen = set()
    for seed in range(6):
        t = Table(3, seed=seed)
        sides = t.ids("side_objectives")
        assert len(sides) == 3
        seen.add(tuple(sorted(sides)))
    assert len(seen) > 1


# ============================================================================ LL-17
@pytest.mark.rule("LL-17")
def test_ll17_the_first_to_the_renown_goal_wins() -> None:
    t = Table(3, seed=3)
    p = t.active
    q = (p + 1) % 3
    t.set_counter("renown", 29, q)
    t.set_counter("renown", 29, p)
    t.to_phase_menu(3, p)
    assert t.decision is not None
    t.set_counter("renown", 30, q)  # another player reaches it during p's turn: checked after the phase
    t.refresh()
    t.pick("done")
    assert t.decision is None and t.state.is_terminal()
    assert t.st.ending is not None and t.st.ending[0] == q
    assert "reaches 30 renown" in t.st.log[-1]


@pytest.mark.rule("LL-17", "LL-16")
def test_ll17_the_variant_first_to_three_objectives() -> None:
    t = Table(3, seed=3, options={"three_objectives": True})
    p = t.active
    t.clear_map()
    t.give(p, renown=0, gold=10, food=10)
    t.run("move cards in side_objectives to side_deck\nfor each O in objectives in side_deck where it is treasury "
          "or it is granary:\n    move O to side_objectives", p)
    t.run("claim_objectives()", p)
    assert len(t.ids("held_objectives", p)) == 2 and t.counter("renown", p) == 0  # no renown in the variant
    assert t.value("standing", p) == 2
    for v in ("frostgate", "ulmsted", "kettleby", "hoarwick", "brannoch"):
        t.land(v, p, level=1, armies=1)
    t.run("claim_objectives()\ncheck_goal()", p)
    assert t.st.ending is not None and t.st.ending[0] == p
    assert "holds three objectives" in t.st.log[-1]
