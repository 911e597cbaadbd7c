"""Leader's Legacy played by bots and by a person: random, greedy and search bots play it
to the goal at 3 to 6 players; greedy (the ruleset's evaluation) beats random bots; the
terminal board draws Kern region by region (each province's controller, settlement,
armies, a leader, a port) from display data; an option and `?N` show the card or the
province it names, a province with its neighbours; a person plays a whole game."""

from __future__ import annotations

import re

import pytest
import tables

from legacies.agents.bots import SearchBot
from legacies.agents.match import make_agent, play_match
from legacies.cli.board import board_lines

from .conftest import Table, spec


@pytest.mark.slow  # whole games of greedy bots, minutes: `-m slow`, a step of .ci/run (the suite's short
# form: tests/agents/test_bots.py, greedy and search choose through a game)
@pytest.mark.rule("LL-17", "LL-4")
@pytest.mark.parametrize("players", [3, 6])
def test_random_greedy_and_search_bots_play_to_the_goal(players: int) -> None:
    seats = ["greedy", "random", "search", "random", "random", "greedy"][:players]
    agents = [SearchBot(players * 10 + i, think=None, iterations=2) if kind == "search"
              else make_agent(kind, players, i) for i, kind in enumerate(seats)]
    result = play_match(spec(), seats, seed=players, agents=agents)
    assert result.state.is_terminal() and result.winner in range(players)
    ending = result.state.st.ending
    assert ending is not None and ending[0] == result.winner and "renown" in ending[1]  # by the goal
    assert result.scores[result.winner] >= {3: 30, 6: 20}[players]


def test_a_game_nobody_wins_ends_at_the_turn_limit() -> None:
    """Soak's seed 62627 at three players once reached a stalemate (every province at its
    population limit, provinces traded back and forth) and was still playing after 20,000
    decisions, at turn 2,681 of a limit of 3,000. The limit is 300 turns (the rulebook has
    none; docs/assumptions-leaders-legacy.md): a game that reaches it ends, by the
    ruleset's own reason and with a winner by renown. Random games that stall are rare
    (none of seeds 62000 to 62826 since windows may be passed for a turn), so the game is brought
    near the limit: its turns loop is told 295 turns went by."""
    import random

    from legacies.agents.bots import apply_random_option
    from legacies.interpreter.frames import innermost_turns
    from legacies.interpreter.game import Game

    state = Game(spec(), 3).new_state(62627)
    rng = random.Random(1)
    while innermost_turns(state.st) is None:
        state.apply(0)
    loop = innermost_turns(state.st)
    assert loop is not None
    loop.count = 295
    decisions = 0
    while state.decision is not None and decisions < 5_000:
        apply_random_option(state, rng)
        decisions += 1
    ending = state.st.ending
    assert ending is not None and "turn limit" in ending[1], ending
    assert loop.count == 300


@pytest.mark.slow  # minutes on two cores: `-m slow`, a step of .ci/run
def test_greedy_beats_random_bots() -> None:
    """Seeded: greedy against two random bots in 9 three-player games (seats rotated) wins
    well over its fair share of 3 (docs/assumptions-leaders-legacy.md has the long run)."""
    from legacies.agents.simulate import Request, simulate

    sim = simulate(Request("leaders-legacy", players=3, seats=("greedy", "random", "random"), games=9))
    wins = sum(r.seats[r.winner] == "greedy" for r in sim.records)
    assert wins >= 5, wins


@pytest.mark.rule("LL-8", "LL-9")
def test_the_board_draws_kern_region_by_region() -> None:
    t = Table(4, seed=3)
    p = t.active
    t.clear_map()
    t.land("frostgate", 0, level=3, armies=4, port=1)
    t.land("ulmsted", 1, level=2, armies=2)
    for v in ("skarrow", "tallon_pass", "greyspire", "owlmoor", "cairnhold", "redmantle"):
        t.land(v, 2, level=1, armies=1)
    t.put_leader(0, "frostgate")
    t.put_leader(2, "owlmoor")
    t.put_leader(1, "hoarwick")  # standing nowhere of its own: no mark on the map
    lines = board_lines(t.state, p)
    start = lines.index("  Kern (controller, settlement, armies x; L a leader; ~ a port):")
    heads = lines[start + 1]
    regions = ["Norhold", "Highcrag", "Vael", "Amberfen", "Heartmere"]
    assert [heads.index(r) for r in regions] == sorted(heads.index(r) for r in regions)  # side by side
    norhold, highcrag, vael = heads.index("Norhold"), heads.index("Highcrag"), heads.index("Vael")

    def column(at: int, to: int) -> list[str]:
        return [line[at:to].strip() for line in lines[start + 2:start + 15]]

    assert column(norhold, highcrag)[:5] == ["all held by: none", "Frostgate ~", "P1 city x4 L", "Ulmsted", "P2 town x2"]
    assert column(norhold, highcrag)[5:7] == ["Kettleby", "-- wilds x0"]
    assert column(highcrag, vael)[:5] == ["all held by: P3", "Skarrow", "P3 village x1", "Tallon Pass", "P3 village x1"]
    assert "P3 village x1 L" in column(highcrag, vael)  # Owlmoor, with P3's leader
    rest = "\n".join(lines[start:])
    assert "Eastmarch" in rest and "Thornwild" in rest  # the other regions on the band below
    me = "\n".join(lines[lines.index(next(line for line in lines if "(you)" in line)):])
    assert re.search(r"leader: .* in [A-Z][a-z]+; health \d+, energy \d+, armor \d+, command \d+", me)


@pytest.mark.rule("LL-1", "LL-2")
def test_a_leader_not_yet_placed_is_said_so_on_the_board() -> None:
    """Between the leaders' reveal and their placement the board said "at None"."""
    from legacies.interpreter.game import Game

    state = Game(spec(), 3).new_state(1)
    while state.decision is not None and not state.decision.prompt.startswith("choose a province"):
        state.apply(0)  # keep the leaders dealt, up to the first province claimed
    me = "\n".join(board_lines(state, 0))
    assert "None" not in me
    assert re.search(r"leader: .* \((military|cultural|civic|religious)\), not yet placed; health \d+", me), me


@pytest.mark.rule("LL-9", "LL-11")
def test_an_option_shows_the_card_or_province_it_names() -> None:
    from legacies.cli.terminal import option_text, screen

    t = Table(3, seed=2)
    p = t.active
    q = (p + 1) % 3
    t.to_phase_menu(4, p)
    t.clear_map()
    t.land("frostgate", p, level=1, armies=3)
    t.land("kettleby", q, level=1, armies=1)
    t.seat(p, "flynt_mire")
    t.put_leader(p, "frostgate")
    t.put_leader(q, "hoarwick")
    t.land("hoarwick", q, level=1, armies=1)
    t.set_counter("energy", 4, p)
    t.refresh()
    index = t.labels().index(f"Attack Kettleby (P{q + 1}: 1 army)")
    text = option_text(t.state, index)
    assert text.splitlines()[:3] == ["region: Norhold · resource: food · sea route: the Western Sound",
                                     "land border: Frostgate, Hoarwick, Amberly, Rushmere",
                                     "sea crossing: Amberly, Saltmarsh"]
    label = next(label for label in t.labels() if label.startswith("Assassinate"))
    text = option_text(t.state, t.labels().index(label))
    assert text.startswith("energy: 3 · range in provinces: 2 · text: An enemy leader within 2 provinces")
    assert any(line.startswith(f"  {index + 1}. Attack Kettleby") and "region: Norhold" in line
               for line in screen(t.state, p))


def test_a_whole_game_at_the_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = tables.play_at_a_terminal(pexpect, ["--ruleset", "leaders-legacy", "--seat", "human", "--seat", "random",
                                                "--seat", "random", "--seed", "3"], rows=300)
    # a list of options, or amounts to type (the first amount chooses as "1" does in a list)
    prompt = tables.PROMPT
    child.expect(prompt)
    first = child.before  # the first question, with the board
    assert "═══ Leader's Legacy ═══" in first and "Kern (controller, settlement, armies x" in first
    assert "Norhold" in first and "-- wilds x0" in first and "── P1 (you)" in first
    assert "draw another leader at random (you must keep it)" in first
    seen = []
    asked_card = False
    for _ in range(3000):
        screen = child.before
        amount = child.match.group(2)
        if not asked_card and "Attack " in screen and "1. Attack" in screen:
            child.sendline("?1")  # the province attacked, with its neighbours
            child.expect(prompt)
            assert "land border:" in child.before
            asked_card = True
        child.sendline(amount or "1")
        found = child.expect([prompt, re.compile(r"winner: .*\r?\n"), pexpect.EOF])
        seen.append(child.before)
        if found != 0:
            break
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "final scores:" in "".join(seen) and asked_card
