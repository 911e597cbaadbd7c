"""Fame and Fortune: coins and investments (FF-1 to FF-3), played through the installed
expansion: investing a coin token at the start of a turn, thresholds where only the
highest active ability applies, and investments that are never coins (the economic
victory counts coins only)."""

from __future__ import annotations

import pytest

from .conftest import MENU, Table

INVEST = "invest a coin in one of your investment cards"


def next_player(t: Table) -> int:
    order = list(t.st.turn_order)
    return order[(order.index(t.active) + 1) % len(order)]


def prompts_until_building(t: Table, player: int) -> list[str]:
    """Answer quietly until `player`'s building phase menu, and return every prompt asked of
    `player` on the way."""
    seen: list[str] = []

    def there(t: Table) -> bool:
        d = t.decision
        if d is not None and d.player == player:
            seen.append(d.prompt)
        return d is not None and d.prompt == MENU and t.active == player and t.counter("turn_phase") == 3
    t.until(there)
    return seen


# ============================================================================ FF-1
@pytest.mark.rule("FF-1")
def test_ff1_a_coin_token_is_invested_at_the_start_of_a_turn_on_any_investment_card() -> None:
    t = Table(3, seed=0)
    q = next_player(t)
    assert t.cards("investments", q) == ["military_industrial_complex", "trade_routes", "public_works",
                                         "patronage_of_the_arts"]  # four cards each, one of each
    t.give(q, coin_tokens=2)
    t.until(lambda t: t.decision.prompt.startswith(INVEST))
    assert t.active == q and t.decision.player == q and t.labels() == ["yes", "no"]
    t.pick("yes")
    assert t.decision.prompt == "choose a card in your investments" and t.labels() == [
        "Military-Industrial Complex", "Trade Routes", "Public Works", "Patronage of the Arts"]
    t.pick("Trade Routes")
    assert t.counter("coin_tokens", q) == 1 and t.invested("trade_routes", q) == 1
    assert f"P{q + 1} places an investment marker on Trade Routes (1 marker)" in t.st.log
    # one coin a turn: the next question is the turn's, not another investment
    assert not t.decision.prompt.startswith(INVEST)


@pytest.mark.rule("FF-1")
def test_ff1_only_coin_tokens_are_invested_gold_is_not() -> None:
    t = Table(3, seed=0)
    q = next_player(t)
    t.give(q, coin_tokens=0, gold=9)
    assert not any(p.startswith(INVEST) for p in prompts_until_building(t, q))
    assert t.counter("gold", q) >= 9 and sum(t.invested(c, q) for c in ("military_industrial_complex", "trade_routes",
                                                                         "public_works", "patronage_of_the_arts")) == 0


@pytest.mark.rule("FF-1")
def test_ff1_markers_pile_on_one_card_turn_after_turn_and_coins_are_struck_from_gold() -> None:
    t = Table(3, seed=0)
    q = next_player(t)
    t.give(q, coin_tokens=2)
    for _ in range(2):
        t.until(lambda t: t.decision.prompt.startswith(INVEST) and t.active == q)
        t.pick("yes")
        t.pick("Public Works")
    assert t.invested("public_works", q) == 2 and t.counter("coin_tokens", q) == 0
    t.to_phase_menu(3, q)
    t.give(q, gold=3)
    t.refresh()
    t.pick("Strike a coin (2 gold)")
    assert t.counter("coin_tokens", q) == 1 and t.counter("gold", q) == 1


# ============================================================================ FF-2
def set_invested(t: Table, player: int, content_id: str, n: int) -> None:
    pid = next(p for p in t.zone("investments", player) if t.def_id(p) == content_id)
    t.st.counters[t.lay.counter_slots("invested")[pid]] = n
    t.st.changed()


@pytest.mark.rule("FF-2")
def test_ff2_an_ability_is_active_at_its_threshold_and_only_the_highest_applies() -> None:
    t = Table(3, seed=0)
    q = next_player(t)
    t.seat(q, "aldous_vane")  # a leader who draws no more attack cards of its own
    set_invested(t, q, "military_industrial_complex", 1)
    assert t.value("extra_draws", q) == 0  # below the first threshold: nothing
    t.give(q, coin_tokens=2)
    t.until(lambda t: t.decision.prompt.startswith(INVEST))
    t.pick("yes")
    t.pick("Military-Industrial Complex")
    assert t.value("extra_draws", q) == 1  # 2 markers: one more attack card
    assert "the ability of Military-Industrial Complex for 2 markers is now active (it supersedes any below it)" \
        in t.st.log
    set_invested(t, q, "military_industrial_complex", 3)
    assert t.value("extra_draws", q) == 1  # 3 markers: still the 2-marker ability
    t.until(lambda t: t.decision.prompt.startswith(INVEST) and t.active == q)
    t.pick("yes")
    t.pick("Military-Industrial Complex")
    assert t.value("extra_draws", q) == 2  # 4 markers: two more, not three: the lower one ceased


@pytest.mark.rule("FF-2")
def test_ff2_the_highest_ability_replaces_the_lower_at_the_bounty() -> None:
    t = Table(3, seed=0)
    q = next_player(t)
    set_invested(t, q, "trade_routes", 1)
    t.to_phase_menu(3, q)
    assert f"P{q + 1}'s Trade Routes bring 1 gold" in t.st.log
    set_invested(t, q, "trade_routes", 3)
    mark = len(t.st.log)
    coins = t.counter("coin_tokens", q)
    t.until(lambda t: t.active != q)
    t.to_phase_menu(3, q)
    lines = t.log_since(mark)
    assert f"P{q + 1}'s Trade Routes bring a coin" in lines and f"P{q + 1}'s Trade Routes bring 1 gold" not in lines
    assert t.counter("coin_tokens", q) == coins + 1


@pytest.mark.rule("FF-2")
def test_ff2_an_engaged_attack_draws_the_cards_the_highest_ability_gives() -> None:
    t = Table(3, seed=2)
    p = t.active
    q = (p + 1) % 3
    t.to_phase_menu(4, p)
    t.clear_map()
    t.seat(p, "varra_steelhand")  # command 2
    t.land("frostgate", p, level=1, armies=4)
    t.land("kettleby", q, level=1, armies=2)
    t.put_leader(p, "frostgate")
    t.put_leader(q, "kettleby")
    set_invested(t, p, "military_industrial_complex", 4)
    t.refresh()
    t.stack("attack_deck", "skirmish", "assault", "repulsed", "rout")
    t.pick_start("Attack Kettleby")
    t.pick("yes")  # the leader engages
    while t.decision.prompt == "respond, or pass":
        t.pick("pass")
    assert len(t.labels()) == 2 + 2  # command 2, and 2 more from the 4-marker ability


# ============================================================================ FF-3
@pytest.mark.rule("FF-3")
def test_ff3_coin_tokens_win_the_economic_victory_and_investments_do_not_count() -> None:
    t = Table(3, seed=0)
    q = next_player(t)
    goal = t.value("coin_goal", q)
    assert goal == 15
    t.give(q, coin_tokens=goal - 1)
    set_invested(t, q, "patronage_of_the_arts", 6)  # six coins invested: still 14 coins
    t.until(lambda t: t.active == q and t.counter("turn_phase") == 3)
    assert t.decision is not None
    t.give(q, coin_tokens=goal)
    t.until(lambda t: t.decision is None, limit=400)
    assert t.st.ending[0] == q
    assert f"P{q + 1} wins: P{q + 1} holds {goal} coins: an economic victory" in t.st.log
