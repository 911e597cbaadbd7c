"""Response windows (fixture `windows`): after a Build, the opponents may Block (one coin)
or Echo (two coins), in turn order, until all pass; after a card is shown, every player
may claim it. Who is asked, what they may do, the bound, and that saves, clones, bots,
the terminal and hidden information work when the deciding player is not the active one."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from legacies.agents.bots import GreedyBot, RandomBot, SearchBot
from legacies.cli.terminal import screen
from legacies.dsl.parser import parse_program
from legacies.dsl.printer import print_program
from legacies.dsl.renderer import Wording, render_program
from legacies.interpreter import sandbox
from legacies.interpreter.errors import Refused
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.information import determinize
from legacies.interpreter.windows import OfferFrame
from legacies.pipeline.ruleset import load_ruleset

WINDOWS = Path(__file__).parent / "fixtures" / "windows"
PASSES = ["pass", "pass for the rest of this turn"]  # every window offers both before its actions


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("windows", WINDOWS)
    assert result.ok and not result.diagnostics, [d.headline() for d in result.diagnostics]
    return result.spec


def coins(state: GameState) -> list[int]:
    base = state.game.layout.player_counter["coins"]
    return state.st.counters[base:base + state.game.players]


def asked(state: GameState) -> tuple[int, list[str]]:
    d = state.decision
    assert d is not None
    return d.player, d.labels()


def test_opponents_respond_in_turn_until_all_pass(spec) -> None:
    state = Game(spec, 3).new_state(1)
    state.apply_label("Build")  # P1 gains 2 points, then the window opens for P2 and P3
    assert state.scores() == [2, 0, 0]
    assert asked(state) == (1, PASSES + ["Block", "Echo"])
    state.apply_label("Block")  # P2 acts out of turn: P1 loses a point, P2 a coin
    assert state.scores() == [1, 0, 0] and coins(state) == [2, 1, 2]
    assert state.st.active == 0  # still P1's turn
    assert asked(state) == (2, PASSES + ["Block", "Echo"])
    state.apply_label("pass")
    assert asked(state) == (1, PASSES + ["Block"])  # after an action, the others are asked again
    state.apply_label("pass")  # everyone who can act has passed since the last action: closed
    assert asked(state) == (1, ["Build", "Rest", "Show a card"]) and state.st.active == 1


def test_only_players_with_something_legal_are_asked(spec) -> None:
    state = Game(spec, 3).new_state(1)
    sandbox.run(state, "lose 2 coins for top of opponents")  # P2 has no coin: nothing legal
    state.apply_label("Build")
    assert asked(state) == (2, PASSES + ["Block", "Echo"])  # P3 first: P2 is not asked
    state.apply_label("Echo")  # P3: two coins, one point
    assert coins(state) == [2, 0, 0] and state.scores() == [2, 0, 1]
    # nobody can respond any more (P2 never could, P3 spent its coins): the window closes unasked
    assert asked(state) == (1, ["Build", "Rest", "Show a card"])


def test_a_window_after_a_card_is_revealed(spec) -> None:
    state = Game(spec, 3).new_state(1)
    state.apply_label("Show a card")  # a board item's trigger offers `claim` to every player
    assert asked(state) == (0, PASSES + ["Claim Plain"])
    state.apply_label("pass")
    assert asked(state) == (1, PASSES + ["Claim Plain"])
    state.apply_label("Claim Plain")
    lay = state.game.layout
    assert len(state.st.zones[lay.player_zone["hand"] + 1]) == 1  # P2 took it, out of turn
    assert asked(state) == (1, ["Build", "Rest", "Show a card"])  # nothing left to claim


def test_passing_for_the_rest_of_the_turn_closes_every_window_of_the_turn(spec) -> None:
    """A player who passes for the rest of the turn is not asked by another window that
    turn, though they still have something legal; a copy and a save keep it; the next turn
    asks them again."""
    state = Game(spec, 3).new_state(1)
    twice = "offer block, echo to opponents\noffer block, echo to opponents"
    decisions = sandbox.run(state, twice, answers=["pass for the rest of this turn", "pass", "pass"])
    assert [d.player for d in decisions] == [1, 2, 2]  # the second window asks P3 alone
    state = Game(spec, 3).new_state(1)
    state.apply_label("Build")
    state.apply_label("pass for the rest of this turn")
    assert asked(state) == (2, PASSES + ["Block", "Echo"])
    loaded = GameState.deserialize(spec, state.serialize())
    for copy in (state, state.clone(), loaded):
        assert [d.player for d in sandbox.run(copy, "offer block to opponents", answers=["pass"])] == [2]
    state.apply_label("Block")  # after an action everyone is asked again, but P2 passed the turn
    assert asked(state) == (2, PASSES + ["Block"])
    state.apply_label("pass")
    assert asked(state) == (1, ["Build", "Rest", "Show a card"])  # P2's turn
    state.apply_label("Build")
    state.apply_label("pass")
    state.apply_label("pass")
    state.apply_label("Build")  # P3's turn: P1, then P2 are asked again
    assert asked(state) == (0, PASSES + ["Block", "Echo"])
    state.apply_label("pass")
    assert asked(state)[0] == 1


def test_a_window_is_bounded_by_max_repeats(spec) -> None:
    state = Game(spec, 2).new_state(1)
    decisions = sandbox.run(state, "offer rest to opponents", answers=["Rest"] * 6)  # limits.max_repeats: 6
    assert [d.player for d in decisions] == [1] * 6
    assert coins(state)[1] == 2 + 6


def test_a_game_stopped_in_a_window_clones_saves_and_replays(spec) -> None:
    state = Game(spec, 3).new_state(2)
    state.apply_label("Build")
    assert isinstance(state.st.frames[-1], OfferFrame)
    copy = state.clone()
    copy.apply_label("Block")
    assert asked(state) == (1, PASSES + ["Block", "Echo"]) and asked(copy)[0] == 2  # independent
    loaded = GameState.deserialize(spec, copy.serialize())
    assert loaded.fingerprint() == copy.fingerprint() and asked(loaded) == asked(copy)
    before = state.fingerprint()
    with pytest.raises(Refused):  # a refused response leaves the window as it was
        sandbox.run(state, "pay 5 coins")
    assert state.fingerprint() == before


def test_pass_is_the_first_option(spec) -> None:
    """A player the rules run (the ruleset's `automated`) takes the first option the rules
    list: in a window, that is to pass."""
    state = Game(spec, 2).new_state(1)
    state.apply_label("Build")
    assert isinstance(state.st.frames[-1], OfferFrame) and state.decision is not None
    assert state.decision.options[0].label == "pass" and state.decision.options[0].value is None


def test_a_player_the_rules_run_never_holds_a_window_up(tmp_path: Path) -> None:
    root = tmp_path / "windows"
    shutil.copytree(WINDOWS, root)
    ruleset = root / "rules" / "windows" / "ruleset.yaml"
    text = ruleset.read_text(encoding="utf-8")
    ruleset.write_text(text.replace("score: points\n", "score: points\nautomated: robot\n")
                       .replace("  points: {}\n", "  points: {}\n  robot: {}\n"), encoding="utf-8")
    spec = load_ruleset("windows", root).spec
    assert spec is not None
    state = Game(spec, 3).new_state(1)
    sandbox.run(state, "raise robot of top of opponents by 1")  # P2 is run by the rules
    state.apply_label("Build")
    assert asked(state) == (2, PASSES + ["Block", "Echo"])  # P2 passed without a question
    assert coins(state) == [2, 2, 2] and state.scores() == [2, 0, 0]


@pytest.mark.parametrize("bot", [RandomBot(3), GreedyBot(3), SearchBot(3, think=None, iterations=30)],
                         ids=["random", "greedy", "search"])
def test_bots_answer_for_the_responder(spec, bot) -> None:
    state = Game(spec, 3).new_state(5)
    out_of_turn = 0
    while not state.is_terminal():
        d = state.decision
        assert d is not None
        if d.player != state.st.active:
            out_of_turn += 1
            assert d.prompt == "respond, or pass"
        state.apply(bot.choose(state))
    assert out_of_turn > 0


def test_the_responder_decides_with_their_own_information(spec) -> None:
    state = Game(spec, 3).new_state(1)
    sandbox.run(state, "move top of deck to my hand\nmove top of deck to hand of top of opponents")
    state.apply_label("Build")
    responder = asked(state)[0]
    assert responder != state.st.active
    lay = state.game.layout
    for seed in range(4):
        world = determinize(state, responder, random.Random(seed))
        assert world.st.zones[lay.player_zone["hand"] + responder] == state.st.zones[lay.player_zone["hand"] + responder]
        assert world.decision == state.decision
    assert screen(state, responder)[1:] == ["P2, respond, or pass:", "  1. pass", "  2. pass for the rest of this turn",
                                            "  3. Block", "  4. Echo"]
    assert screen(state, state.st.active)[2:] == []  # the active player sees no options that are not theirs
    assert "options" in state.view(responder)["decision"] and "options" not in state.view(0)["decision"]


def test_the_hot_seat_terminal_calls_the_responder_out_of_turn(spec) -> None:
    from io import StringIO

    from legacies.cli.terminal import HumanAgent

    state = Game(spec, 3).new_state(1)
    state.apply_label("Build")
    said: list[str] = []
    human = HumanAgent(1, stdin=StringIO("\n3\n"), write=said.append, hot_seat=True)
    assert human.choose(state) == 2  # Block
    text = "".join(said)
    assert "P2, on P1's turn: press Enter" in text and "P2, respond, or pass:" in text and "3. Block" in text


def test_the_checker_refuses_what_cannot_work(spec, checked) -> None:
    check = checked
    found = check(spec, "offer blok, echo to opponents")
    assert found == [("E206", "unknown action `blok`", "did you mean `block`?")]
    found = check(spec, "offer block to 3")
    assert found[0][0] == "E202" and "offered to players" in found[0][1]
    assert check(spec, "offer block to active_player") == []


def test_card_text_and_round_trip(spec) -> None:
    source = "offer block, echo to opponents\n"
    program = parse_program(source)
    assert print_program(program) == source and parse_program(print_program(program)) == program
    assert render_program(program, Wording.of(spec.vocab)) == (
        "Your opponents may respond in turn with Block or Echo (each may pass; after a response the others may "
        "respond again).")
