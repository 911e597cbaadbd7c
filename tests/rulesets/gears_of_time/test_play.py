"""Legacy: Gears of Time played by bots and by a person: random, greedy and search bots
play it to the end at 2, 3 and 4 players; greedy (the ruleset's evaluation) beats random
bots; a person plays a whole game at the terminal, with the timeline drawn as a picture
(timeframes left to right, their capacity, the technologies with their cubes by player,
the pawns, the Present Day) and each card's cost, reward and prerequisites readable."""

from __future__ import annotations

import re

import pytest
import tables

from legacies.agents.bots import SearchBot
from legacies.agents.match import play_match
from legacies.cli.board import board_lines

from .conftest import Table, spec


@pytest.mark.slow  # whole games of greedy bots, minutes: `-m slow`, a step of .ci/run (the suite's short
# form: tests/agents/test_bots.py, greedy and search choose through a game)
@pytest.mark.rule("GOT-5", "GOT-15")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_greedy_and_search_bots_play_to_the_end(players: int) -> None:
    seats = ["greedy", "random", "search", "random"][:players]
    agents = [SearchBot(players * 10 + i, think=None, iterations=8) if kind == "search" else None
              for i, kind in enumerate(seats)]
    from legacies.agents.match import make_agent

    agents = [a if a is not None else make_agent(kind, players, i) for i, (a, kind) in enumerate(zip(agents, seats))]
    result = play_match(spec(), seats, seed=players, agents=agents)
    assert result.state.is_terminal() and result.winner in range(players)
    assert result.state.st.counters[result.state.game.layout.game_counter["round"]] == 4
    assert all(isinstance(s, int) for s in result.scores)


@pytest.mark.slow  # minutes on two cores: `-m slow`, a step of .ci/run
def test_greedy_beats_random_bots() -> None:
    """Seeded: greedy against two random bots in 30 three-player games (seats rotated)
    wins well over its fair share of 10."""
    from legacies.agents.simulate import Request, simulate

    sim = simulate(Request("gears-of-time", players=3, seats=("greedy", "random", "random"), games=30))
    wins = sum(r.seats[r.winner] == "greedy" for r in sim.records)
    assert wins >= 15, wins


@pytest.mark.rule("GOT-2", "GOT-3")
def test_the_board_draws_the_timeline_as_a_picture() -> None:
    t = Table(3, seed=1)  # the Present Day on 6
    p = t.player
    fire = t.establish("fire", 1, p1=2, p2=1)
    t.establish("writing", 3, p3=1)
    t.fate_on("perfectly_laid_plans", fire, 0)
    t.move_pawn((p + 1) % 3, 3)
    t.establish("pottery", 5)
    t.establish("weaving", 5)  # beyond timeframe 5's capacity of 1, as We Need More Time allows
    lines = board_lines(t.state, p)
    start = lines.index("  the timeline (the past on the left):")
    first = lines[start + 1]
    headings = ["Timeframe 1", "Timeframe 2", "Timeframe 3", "Timeframe 4", "Timeframe 5 (II)"]
    assert first.split("  ") and all(h in first for h in headings)  # left to right, the first band
    assert [first.index(h) for h in headings] == sorted(first.index(h) for h in headings)
    assert lines[start + 2].split() == ["cap", "5,", "holds", "1", "cap", "4,", "holds", "0", "cap", "3,", "holds", "1",
                                        "cap", "2,", "holds", "0", "cap", "1,", "holds", "2"]
    # the row under it: the Present Day's mark, or a timeframe over its capacity said as such
    assert lines[start + 3][first.index("Timeframe 5 (II)"):].strip() == "over cap by a fate"
    assert lines[start + 3][:first.index("Timeframe 5 (II)")].strip() == ""
    column = first.index("Timeframe 1")
    rule = next(i for i in range(start, len(lines)) if "----------------" in lines[i])
    under = [line[column:column + 17].strip() for line in lines[rule + 1:rule + 4]]
    assert under[:2] == ["Fire", "P1 x2, P2"] and under[2].startswith("+ Perfectly Laid")
    pawns = lines[start + 4]
    assert f"pawns: P{(p + 1) % 3 + 1}" in pawns[first.index("Timeframe 3"):]
    rest = "\n".join(lines[start:])
    assert "Timeframe 6 (III)" in rest and "<< PRESENT DAY" in rest  # the present, on the next band
    me = "\n".join(lines[lines.index(next(line for line in lines if "(you)" in line)):])
    assert re.search(r"hand:\n      \w", me)  # the hand one card to a line, with what it prints
    assert "discard cost:" in me and "reward:" in me


@pytest.mark.rule("GOT-1")
def test_an_option_shows_the_card_it_names() -> None:
    from legacies.cli.terminal import option_text, screen

    t = Table(3)
    p = t.player
    t.give(p, "antibiotics", "fire", "pottery", "weaving")
    t.move_pawn(p, 2)
    t.refresh()
    index = t.labels().index("Establish Antibiotics")
    text = option_text(t.state, index)
    assert text.startswith("discard cost: 3 · reward: 7 · prerequisites: Hospital (4), Microscope (5), "
                           "Chemistry (5) · and before them: Medicine, University")
    assert any(line.startswith(f"  {index + 1}. Establish Antibiotics  — discard cost: 3") for line in screen(t.state, p))
    t.give(p, "time_folds_around_us")
    t.refresh()
    index = t.labels().index("Play Time Folds Around Us")
    assert option_text(t.state, index).startswith("text: Move any player's pawn one timeframe back or one "
                                                  "timeframe forward.")
    t.give(p, "bloodline_influence")
    t.establish("fire", 1, p2=1)
    t.refresh()
    index = t.labels().index("Play Bloodline Influence")
    # the menu line says what the card does, never only when it may be played
    line = next(line for line in screen(t.state, p) if line.startswith(f"  {index + 1}. Play Bloodline Influence"))
    assert "— text: Put one influence cube" in line


def test_a_whole_game_at_the_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = tables.play_at_a_terminal(pexpect, ["--ruleset", "gears-of-time", "--seat", "human", "--seat", "random",
                                                "--seed", "3"], rows=50)
    # a list of options, or amounts to type (the first amount chooses as "1" does in a list)
    prompt = tables.PROMPT
    child.expect(prompt)
    first = child.before  # the first question, with the board
    assert "═══ Legacy: Gears of Time ═══" in first and "the timeline (the past on the left):" in first
    assert "<< PRESENT DAY" in first and "pawns: P1, P2" in first and "cap 1, holds 0" in first
    assert "── P1 (you)" in first and re.search(r"── P2\s+legacy points 0", first)
    assert re.search(r"hand: \d+ face down", first.split("── P2")[1])
    child.sendline("?1")
    child.expect(prompt)
    assert "1. Travel to the past: Timeframe 1" in child.before
    seen = []
    for _ in range(3000):
        child.sendline(child.match.group(2) or "1")
        found = child.expect([prompt, re.compile(r"winner: .*\r?\n"), pexpect.EOF])
        seen.append(child.before)
        if found != 0:
            break
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "final scores:" in "".join(seen)


@pytest.mark.rule("GOT-4")
def test_the_setup_is_shown_as_the_setup_not_round_0() -> None:
    from legacies.interpreter.game import Game

    state = Game(spec(), 3).new_state(1)  # the setup: the first player chooses a turn-order spot
    lines = board_lines(state, state.decision.player)
    assert "  setup: choosing the turn order" in lines
    assert not any("round: 0" in line or "turn: 0" in line for line in lines)
    while state.st.counters[state.game.layout.game_counter["round"]] == 0:
        state.apply(0)
    assert "  round: 1 of 4 · turn: 1 of 4" in board_lines(state, state.decision.player)


def test_copies_of_a_card_are_told_apart_in_a_menu() -> None:
    """Two The Wheels in a hand read as two copies ("either is the same choice"), never as
    two options both labelled "Establish The Wheel"; on the timeline, by copy number."""
    from legacies.interpreter import sandbox

    t = Table(3, seed=1)
    p = t.player
    t.give(p, "the_wheel", "the_wheel")
    t.move_pawn(p, 2)
    t.refresh()
    labels = [label for label in t.labels() if "The Wheel" in label]
    assert labels == ["Establish The Wheel (copy 1 of 2)", "Establish The Wheel (copy 2 of 2)"]
    t.establish("fire", 1, p1=1)
    t.establish("fire", 3)
    asked = sandbox.run(t.state, "choose a technology in timeline as T", p, answers=["Fire #2"])
    assert asked[0].labels() == ["Fire #1", "Fire #2"]
