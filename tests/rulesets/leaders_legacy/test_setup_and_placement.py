"""Leader's Legacy: setting up (LL-1), picking and snake-order placement (LL-2), the first
turn (LL-3) and the renown goal by player count (LL-17), played through the setup's own
decisions."""

from __future__ import annotations

from collections import Counter

import pytest

from legacies.interpreter.game import Game

from .conftest import Table, defn, provinces, spec


REDRAW = "draw another leader at random (you must keep it)"


def setup_decisions(players: int, seed: int, redraw: set[int] = frozenset()) -> tuple[Game, object, list]:
    """Play a setup, recording (prompt, player, label) of each decision; the players in
    `redraw` draw another leader."""
    state = Game(spec(), players).new_state(seed)
    seen = []
    lay = state.game.layout
    while state.decision is not None and state.st.counters[lay.game_counter["round"]] == 0:
        d = state.decision
        if REDRAW in d.labels():
            label = REDRAW if d.player in redraw else d.labels()[0]
        else:
            label = d.labels()[0]
        seen.append((d.prompt, d.player, label))
        state.apply_label(label)
    return state.game, state, seen


# ============================================================================ LL-1
@pytest.mark.rule("LL-1")
@pytest.mark.parametrize("players", [3, 6])
def test_ll1_decks_shuffled_three_side_objectives_a_leader_each(players: int) -> None:
    t = Table(players, seed=5)
    events = t.ids("event_deck") + t.ids("event_discard") + t.ids("current_event")
    assert len(events) == sum(d.copies for d in spec().defs if d.kind == "event")
    attack = t.ids("attack_deck") + t.ids("attack_discard")
    assert len(attack) == 28
    # shuffled: neither deck is in content order
    content_order = [d.id for d in spec().defs if d.kind == "attack_card" for _ in range(d.copies)]
    assert t.ids("attack_deck") != [i for i in content_order if i in t.ids("attack_deck")]
    # the resource piles: every player starts with none of the four resources
    assert all(t.counter(r, p) == 0 for p in range(players) for r in ("wood", "stone")) or t.counter("round") == 1
    # three side objectives face up, the main objectives (one per region and per leader type) on the table
    sides = t.ids("side_objectives")
    assert len(sides) == 3 and not any(defn(i).attrs.get("is_main") for i in sides)
    assert len(t.zone("side_deck")) == 5
    mains = t.ids("main_objectives")
    assert len(mains) == 12 and all(defn(i).attrs["is_main"] for i in mains)
    # a leader each, its card on the board, health and energy as printed
    assert len(t.zone("leader_deck")) == 9 - players
    for p in range(players):
        [card] = t.ids("leader_seat", p)
        assert t.counter("health", p) == defn(card).attrs["health"]
    assert t.lay.zone_visibility[t.lay.player_zone["leader_hand"]] == "owner"  # dealt face down


@pytest.mark.rule("LL-1")
def test_ll1_each_may_redraw_once_and_must_keep_the_second() -> None:
    game = Game(spec(), 4)
    state = game.new_state(11)
    lay = game.layout
    hand = lay.player_zone["leader_hand"]
    asked = []
    while state.decision is not None and REDRAW in state.decision.labels():
        p = state.decision.player
        asked.append(p)
        first = state.st.zones[hand + p][-1]
        card = spec().defs[game.layout.piece_def[first]]
        keep = f"keep {card.name} ({card.attrs['type']}: health {card.attrs['health']}, armor {card.attrs['armor']}, " \
               f"command {card.attrs['command_score']}, energy {card.attrs['energy']})"
        assert state.decision.labels() == [keep, REDRAW]  # the leader dealt is shown before the question
        if p == 1:
            state.apply_label(REDRAW)
            [second] = state.st.zones[hand + p]
            assert second != first and first in state.st.zones[lay.game_zone["leader_deck"]]
        else:
            state.apply_label(keep)
            assert first in state.st.zones[hand + p] + state.st.zones[lay.player_zone["leader_seat"] + p]
    assert asked == [0, 1, 2, 3]  # in turn, once each: the second card is kept without a question
    assert "P2 draws another leader" in state.st.log
    seat = lay.player_zone["leader_seat"]
    assert all(len(state.st.zones[seat + p]) == 1 for p in range(4))  # then each leader is revealed


# ============================================================================ LL-2
@pytest.mark.rule("LL-2")
@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2), (6, 3)])
def test_ll2_highest_card_places_first_then_snake_order_five_each(players: int, seed: int) -> None:
    game, state, seen = setup_decisions(players, seed)
    log = state.st.log
    first = next(line for line in log if line.endswith("places first"))
    first_player = int(first.split()[0][1:]) - 1
    # the draw-off: the first to place drew the highest card (of the last draw, ties drawing again)
    placers = [p for prompt, p, _ in seen if prompt == "choose a province"]
    assert len(placers) == 5 * players
    forward = [(first_player + i) % players for i in range(players)]
    snake = (forward + forward[::-1]) * 2 + forward
    assert placers == snake
    claimed = Counter(line.split()[0] for line in log if " claims " in line)
    assert set(claimed.values()) == {5}


@pytest.mark.rule("LL-2")
def test_ll2_five_more_armies_never_over_a_villages_limit() -> None:
    t = Table(3, seed=4)
    for p in range(3):
        lands = [v for v in provinces() if t.controller(v) == p]
        assert len(lands) == 5
        armies = [t.of("armies", v) for v in lands]
        assert all(t.of("level", v) == 1 for v in lands)  # all start as villages
        assert all(1 <= a <= 3 for a in armies)
        # ten armies each, less what the first turn changed (only the active player's bounty and building)
        if p != t.active:
            assert sum(armies) == 10


# ============================================================================ LL-3
@pytest.mark.rule("LL-3")
@pytest.mark.parametrize("players,seed", [(3, 7), (5, 8)])
def test_ll3_highest_attack_card_takes_the_first_turn_then_clockwise(players: int, seed: int) -> None:
    t = Table(players, seed=seed)
    log = t.st.log
    line = next(x for x in log if x.endswith("takes the first turn"))
    first = int(line.split()[0][1:]) - 1
    # the second draw-off decided it: the first player's card is the highest drawn last
    assert t.active == first and t.st.turn_order[0] == first
    assert t.st.turn_order == [(first + i) % players for i in range(players)]  # clockwise from them


@pytest.mark.rule("LL-3", "LL-2")
def test_ll3_the_draw_off_draws_again_on_a_tie() -> None:
    """Seed 3 at 4 players: two players tie on the first card and draw again."""
    t = Table(4, seed=3)
    log = t.st.log
    again = [x for x in log if " draws again: " in x]
    assert again, log
    line = next(x for x in log if x.endswith("takes the first turn"))
    winner = line.split()[0]
    assert any(x.startswith(winner + " draws again") for x in again)


# ============================================================================ LL-17 (the goal)
@pytest.mark.rule("LL-17")
@pytest.mark.parametrize("players,goal", [(3, 30), (4, 30), (5, 25), (6, 20)])
def test_ll17_the_renown_goal_by_player_count(players: int, goal: int) -> None:
    t = Table(players, seed=1)
    assert t.counter("renown_goal") == goal


class _KeepThenStop:
    """Keeps the leader dealt (the first option); stops the match at the first other question."""

    name = "keep"

    def choose(self, state) -> int:  # noqa: ANN001
        d = state.decision
        return 0 if d is not None and REDRAW in d.labels() else -1


@pytest.mark.rule("LL-1")
def test_ll1_a_leader_kept_face_down_is_named_only_to_its_player_in_the_log() -> None:
    from legacies.agents.match import play_match

    lines: list[str] = []
    play_match(spec(), ["random", "random", "human"], 1, agents=[_KeepThenStop()] * 3, on_event=lines.append)
    kept = [line for line in lines if "[choose one]" in line]
    assert len(kept) == 3
    assert kept[0].endswith("P1 [choose one]: (a hidden card)") and kept[1].endswith("P2 [choose one]: (a hidden card)")
    assert "P3 [choose one]: keep " in kept[2] and "health" in kept[2]  # the person at the table reads their own


@pytest.mark.rule("LL-5")
def test_the_docs_give_the_event_deck_as_the_content_has_it() -> None:
    """docs/assumptions-leaders-legacy.md's events table and its count (issue 35: the page
    said sixteen of a deck of 17)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "assumptions-leaders-legacy.md").read_text(encoding="utf-8")
    section = text[text.index("## Events (LL-5)"):]
    section = section[:section.index("\n## ", 5)]
    rows = dict((name, int(n)) for name, n in re.findall(r"^\| ([^|]+?) \| (\d+) \|", section, re.M))
    events = {d.name: d.copies for d in spec().defs if d.kind == "event"}
    assert rows == events
    words = dict(enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                           "fifteen sixteen seventeen eighteen nineteen twenty".split()))
    assert f"{words[sum(events.values())]} cards, {words[len(events)]} events" in section.lower()
