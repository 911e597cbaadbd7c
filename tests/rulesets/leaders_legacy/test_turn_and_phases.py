"""Leader's Legacy: a turn's five phases in order (LL-4), events drawn counterclockwise
(LL-5), the bounty (LL-6), free moves pooled across settlements (LL-13) and the end phase
(LL-14), played through the game's decisions and the rules' own procedures."""

from __future__ import annotations

import random

import pytest

from legacies.agents.bots import apply_random_option
from legacies.interpreter.game import Game

from .conftest import MENU, Table, spec


def random_game(players: int, seed: int, rounds: int):  # noqa: ANN201
    """A random game played until `rounds` rounds began; each decision's (round, turn,
    active, phase, player, prompt, labels) recorded, and each log line with the player
    whose turn it was."""
    state = Game(spec(), players).new_state(seed)
    lay = state.game.layout
    rng = random.Random(seed)
    seen = []
    while state.decision is not None and state.st.counters[lay.game_counter["round"]] <= rounds:
        d = state.decision
        seen.append((state.st.counters[lay.game_counter["round"]], state.st.turns, state.st.active,
                     state.st.counters[lay.game_counter["turn_phase"]], d.player, d.prompt, d.labels()))
        apply_random_option(state, rng)
    # each log line with the player whose turn it was when it was written (a turn that asks
    # nothing runs inside one decision's answer: the turns' starts tell them apart)
    starts = [(at, player) for at, _, player in state.st.turn_starts]
    lines: list[tuple[int, str]] = []
    for i, line in enumerate(state.st.log):
        begun = [player for at, player in starts if at <= i]
        lines.append((begun[-1] if begun else -1, line))
    return state, seen, lines


# ============================================================================ LL-4
@pytest.mark.rule("LL-4")
@pytest.mark.parametrize("players,seed", [(3, 1), (5, 2)])
def test_ll4_five_phases_in_order_never_back(players: int, seed: int) -> None:
    state, seen, _ = random_game(players, seed, rounds=4)
    by_turn: dict[int, list[int]] = {}
    for rnd, turn, active, phase, player, prompt, labels in seen:
        if rnd == 0:
            continue
        by_turn.setdefault(turn, []).append(phase)
        if prompt == MENU and player == active:
            building = any(label.startswith(("Build", "Buy an army")) for label in labels)
            attacking = any(label.startswith("Attack") for label in labels)
            assert not building or phase == 3, (phase, labels)  # building only in the building phase
            assert not attacking or phase == 4, (phase, labels)  # attacks only in the combat phase
    assert len(by_turn) >= 3 * players
    for phases in by_turn.values():
        assert phases == sorted(phases)  # never back to an earlier phase
    assert {3, 4}.issubset({p for phases in by_turn.values() for p in phases})


@pytest.mark.rule("LL-4")
def test_ll4_once_combat_begins_nothing_can_be_built() -> None:
    t = Table(3, seed=2)
    p = t.active
    t.to_phase_menu(3)
    t.give(p, food=9, wood=9, stone=9, gold=9)
    t.refresh()
    assert t.starting("Buy an army") and t.starting("Build")
    t.pick("done")
    t.until(lambda t: t.decision.prompt == MENU and t.decision.player == p)
    assert t.counter("turn_phase") == 4
    assert not t.starting("Build") and not t.starting("Buy an army")


# ============================================================================ LL-5
@pytest.mark.rule("LL-5")
@pytest.mark.parametrize("players,seed", [(4, 3), (5, 4)])
def test_ll5_the_first_player_draws_the_first_event_then_counterclockwise(players: int, seed: int) -> None:
    state, _, lines = random_game(players, seed, rounds=6)
    order = state.st.turn_order
    draws = [(active, line.split()[0]) for active, line in lines if " draws the event " in line]
    drawers = [int(name[1:]) - 1 for _, name in draws]
    assert all(active == drawer for (active, _), drawer in zip(draws, drawers))  # on their own turn
    assert drawers[0] == order[0]  # the first player draws the first event
    for before, after in zip(drawers, drawers[1:]):
        assert order.index(after) == (order.index(before) - 1) % players  # counterclockwise
    assert len(drawers) >= 6 * players // (players - 1) - 1


@pytest.mark.rule("LL-5")
def test_ll5_events_are_drawn_on_the_drawers_own_turn_and_last_as_they_say(table) -> None:
    t = table(4, seed=6)
    p = t.active
    assert t.value("event_drawer") == t.st.turn_order[-1]  # the first player drew; the last one draws next
    # Storms at Sea closes the sea routes until the next event is drawn
    nxt = t.value("event_drawer")
    t.run("move top of (events in event_deck + events in event_discard where it is storms_at_sea) to event_deck", nxt)
    t.run("event_phase()", nxt)
    assert t.ids("current_event") == ["storms_at_sea"] and t.value("seas_open") is False
    assert t.value("event_drawer") == t.st.turn_order[-2]
    t.run("event_phase()", p)  # not the drawer: nothing is drawn
    assert t.ids("current_event") == ["storms_at_sea"] and t.value("seas_open") is False
    t.run("move top of (events in event_deck where it is not storms_at_sea) to event_deck", 0)
    t.run("event_phase()", t.st.turn_order[-2])
    assert t.value("seas_open") is True and "storms_at_sea" in t.ids("event_discard")


# ============================================================================ LL-6
@pytest.mark.rule("LL-6")
def test_ll6_bounty_resources_armies_leader_and_cultural_renown(table) -> None:
    t = table(3, seed=1)
    p = t.active
    t.clear_map()
    t.seat(p, "sela_windsong")  # cultural
    # all of Norhold: a stone village, a wood town, a food village with a port, a wood capital, a gold city
    t.land("frostgate", p, level=1, armies=1)
    t.land("ulmsted", p, level=2, armies=1)
    t.land("kettleby", p, level=1, armies=1, port=1)
    t.land("hoarwick", p, level=4, armies=1)
    t.land("brannoch", p, level=3, armies=1)
    t.land("amberly", p, level=1, armies=1)  # a food village that keeps its food
    t.put_leader(p, "hoarwick")
    t.give(p, food=0, wood=0, stone=0, gold=0, health=2, energy=1, renown=0)
    t.run("bounty_phase()", p, answers=["Kettleby", "done", "Kettleby's port yields 1 gold"])
    assert t.counter("stone", p) == 1  # single from a village
    assert t.counter("wood", p) == 1 + 2  # single from a town, double from a capital
    assert t.counter("gold", p) == 2 + 1  # double from a city, the port's gold undoubled
    assert t.counter("food", p) == 1  # Kettleby made an army instead; Amberly yields its food
    assert t.of("armies", "kettleby") == 2 and t.of("armies", "amberly") == 1
    assert t.of("armies", "ulmsted") == 2 and t.of("armies", "brannoch") == 3 and t.of("armies", "hoarwick") == 4
    assert t.of("armies", "frostgate") == 1  # a village produces none
    assert t.counter("health", p) == 3 and t.counter("energy", p) == 2  # 1 each back
    assert t.counter("renown", p) == 1  # a cultural leader: 1 per whole region (Norhold)


@pytest.mark.rule("LL-6")
def test_ll6_ports_may_yield_food_and_leaders_stop_at_their_card(table) -> None:
    t = table(3, seed=1)
    p = t.active
    t.clear_map()
    t.seat(p, "varra_steelhand")  # military: no renown from regions
    t.land("kettleby", p, level=1, armies=1, port=1)
    t.land("frostgate", p, level=2, armies=0, port=1)
    t.put_leader(p, "frostgate")
    t.give(p, food=0, stone=0, renown=0)
    t.give(p, gold=0)
    asked = t.run("bounty_phase()", p, answers=["done", "Frostgate's port yields 1 gold", "Kettleby's port yields 1 food"])
    assert [d.prompt for d in asked][0].startswith("choose up to")
    # each port chooses its own resource (issue 35): one gold, one food
    assert [d.labels() for d in asked[1:]] == [["Frostgate's port yields 1 gold", "Frostgate's port yields 1 food"],
                                               ["Kettleby's port yields 1 gold", "Kettleby's port yields 1 food"]]
    assert t.counter("food", p) == 1 + 1 and t.counter("gold", p) == 1 and t.counter("stone", p) == 1
    assert t.counter("health", p) == 8 and t.counter("energy", p) == 3  # full: not over the card
    assert t.counter("renown", p) == 0


# ============================================================================ LL-13
@pytest.mark.rule("LL-13")
def test_ll13_free_moves_of_settlements_combine(table) -> None:
    """The rulebook's example: a town in Minselm and a city in Vitwood: three moves, one from
    Minselm to Vitwood, then two from Vitwood on."""
    t = table(3, seed=2)
    p = t.active
    t.clear_map()
    t.land("minselm", p, level=2, armies=2)
    t.land("vitwood", p, level=3, armies=1)
    t.land("sallowby", p, level=1, armies=0)
    t.land("toadwater", (p + 1) % 3, level=1, armies=1)
    t.put_leader(p, "minselm")
    t.to_phase_menu(3, p)
    assert t.counter("army_moves", p) == 3
    t.pick("Move an army from Minselm")
    assert t.labels() == ["Sallowby", "Vitwood"]  # your own provinces next to it, in map order
    t.pick("Vitwood")
    t.pick("Move an army from Vitwood")
    t.pick("Sallowby")
    t.pick("done")  # the combat phase: moves too
    t.until(lambda t: t.decision.prompt == MENU and t.decision.player == p)
    t.pick("Move an army from Vitwood")
    t.pick("Sallowby")
    assert t.counter("army_moves", p) == 0 and not t.starting("Move an army")
    assert t.of("armies", "sallowby") == 2
    # the leader's own moves: as many as its command
    command = t.value("command_of(me)", p)
    assert t.counter("leader_moves", p) == command
    t.pick("Move your leader to Vitwood")
    assert t.value("my leader_at is vitwood", p) is True and t.counter("leader_moves", p) == command - 1


@pytest.mark.rule("LL-13", "LL-8")
def test_ll13_a_ports_move_is_only_by_sea(table) -> None:
    t = table(3, seed=2)
    p = t.active
    t.clear_map()
    t.land("cairnhold", p, level=1, armies=2, port=1)
    t.land("crossford", p, level=1, armies=0)
    t.land("owlmoor", p, level=1, armies=0)
    t.put_leader(p, "cairnhold")
    t.to_phase_menu(3, p)
    assert t.counter("army_moves", p) == 0 and t.counter("sea_moves", p) == 1
    assert not t.starting("Move an army")  # villages grant no move; the port only by seaway
    t.pick("Sail an army from Cairnhold")  # Crossford, the only province of yours across the Mere: not asked
    assert t.of("armies", "crossford") == 1 and not t.starting("Sail")


# ============================================================================ LL-14
@pytest.mark.rule("LL-14", "LL-8")
def test_ll14_armies_over_the_population_limit_are_removed(table) -> None:
    t = table(3, seed=3)
    p = t.active
    other = (p + 1) % 3
    t.clear_map()
    t.seat(p, "sela_windsong")
    t.land("frostgate", p, level=1, armies=5)
    t.land("ulmsted", p, level=2, armies=6)
    t.land("hoarwick", p, level=3, armies=8)
    t.land("brannoch", p, level=4, armies=12)
    t.land("kettleby", other, level=1, armies=7)  # another player's: their own end phase
    t.put_leader(p, "frostgate")
    t.run("end_phase()", p, answers=["done"])
    assert [t.of("armies", v) for v in ("frostgate", "ulmsted", "hoarwick", "brannoch")] == [3, 4, 6, 9]
    assert t.of("armies", "kettleby") == 7


@pytest.mark.rule("LL-14", "LL-10")
def test_ll14_a_military_leader_scores_for_a_turn_with_a_conquest(table) -> None:
    t = table(3, seed=3)
    p = t.active
    t.seat(p, "varra_steelhand")
    t.give(p, renown=0)
    t.run("end_phase()", p, answers=["done"])
    assert t.counter("renown", p) == 0
    t.set_counter("conquests", 2, p)
    t.run("end_phase()", p, answers=["done"])
    assert t.counter("renown", p) == 1  # one a turn, however many conquests


@pytest.mark.rule("LL-14", "LL-13")
def test_ll14_the_limit_holds_after_the_end_phases_free_moves(table) -> None:
    """The population limit is applied at the end of the turn, after the end phase's free
    moves (issue 35): an army moved into a full village in the end phase is removed then,
    and no settlement holds more than its limit through the other players' turns."""
    t = table(3, seed=2)
    p = t.active
    t.clear_map()
    t.land("minselm", p, level=2, armies=4)  # a town: limit 4
    t.land("sallowby", p, level=1, armies=3)  # a village: limit 3
    t.put_leader(p, "minselm")
    t.set_counter("army_moves", 1, p)
    mark = len(t.st.log)
    t.run("end_phase()", p, answers=["Move an army from Minselm", "done"])  # Sallowby: the only one
    assert t.of("armies", "minselm") == 3 and t.of("armies", "sallowby") == 3
    assert any("Sallowby holds 4 armies, over its limit of 3: 1 removed" in line for line in t.log_since(mark))


@pytest.mark.rule("LL-14")
def test_ll14_armies_moved_out_in_the_end_phase_are_not_removed_first(table) -> None:
    t = table(3, seed=2)
    p = t.active
    t.clear_map()
    t.land("minselm", p, level=2, armies=0)
    t.land("sallowby", p, level=1, armies=4)  # one over: moved out before the limit applies
    t.put_leader(p, "minselm")
    t.set_counter("army_moves", 1, p)
    t.run("end_phase()", p, answers=["Move an army from Sallowby", "done"])
    assert t.of("armies", "sallowby") == 3 and t.of("armies", "minselm") == 1
