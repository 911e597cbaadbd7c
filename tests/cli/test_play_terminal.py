"""`legacies play` as a person plays it (issue 10): in a pseudo-terminal, answering its
prompts, reading its screen. A whole game of the Legacy card game against a bot: the
board with the opponent's public pieces (and not their hand), the keys (`?N`, `log`,
`board`, a refused answer), the final scores; then a game saved with `save`, left with
`quit` and continued with `legacies resume`."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

COMMAND = [sys.executable, "-c", "from legacies.cli.main import main; main()"]
# a list of options, or amounts to type (the first amount chooses as "1" does in a list)
PROMPT = re.compile(r"(?:choose 1-(\d+)|type an amount, (-?\d+)[^\r\n]*?) \(help for keys\): ")
END = re.compile(r"winner: .*\r?\n")


def spawn(*args: str, cwd: Path | None = None) -> "pexpect.spawn":
    child = pexpect.spawn(COMMAND[0], [*COMMAND[1:], *args], encoding="utf-8", timeout=60, cwd=cwd,
                          dimensions=(50, 160), env={"PYTHONIOENCODING": "utf-8", "COLUMNS": "160",
                                                     "PATH": "/usr/bin:/bin", "TERM": "dumb"})
    child.delaybeforesend = None  # a person types slowly; the test need not
    return child


def answer(child: "pexpect.spawn", text: str) -> str:
    """Type a line at the prompt; what the screen showed until the next prompt."""
    child.sendline(text)
    child.expect(PROMPT)
    return str(child.before)


def play_to_the_end(child: "pexpect.spawn", limit: int = 2000) -> str:
    """Answer 1 to every question until the game ends; everything the screen showed.
    (The games run with --fast: at a person's pace they would take minutes.)"""
    seen = []
    for _ in range(limit):
        found = child.expect([PROMPT, END, pexpect.EOF])
        seen.append(child.before + (child.after if isinstance(child.after, str) else ""))
        if found != 0:
            return "".join(seen)
        child.sendline(child.match.group(2) or "1")
    raise AssertionError("the game did not end")


def test_a_whole_game_at_the_terminal(tmp_path: Path) -> None:
    child = spawn("play", "--ruleset", "legacy", "--seat", "human", "--seat", "random", "--seed", "4", "--fast")
    child.expect(PROMPT)
    first = child.before
    # the board: the table, then both players; the opponent's hand is a count, never its cards
    assert "═══ Legacy (card game) ═══" in first and "Legacies to finish:" in first
    assert "── P1 (you)" in first and "── P2" in first
    p2 = first.split("── P2")[1]
    assert re.search(r"legacy hand: \d+ face down", p2) and "tableau:" in p2
    assert "P1, choose an action:" in first and "1. Take a legacy card" in first
    assert "1. Take a legacy card" in answer(child, "?1")
    assert "'nonsense' is not an option or a key" in answer(child, "nonsense")
    assert "there is no option 7: choose a number from 1 to" in answer(child, "7")
    assert "── P2" in answer(child, "board")
    assert "nothing of yours to undo yet" in answer(child, "undo")
    offer = answer(child, "1")  # take a legacy card: three come off the face-down deck
    assert "P1, choose a card in your offer:" in offer
    refused = answer(child, "undo")  # not across a hidden draw: the same question again
    assert "cannot undo: a card has left the legacy deck since then" in refused
    assert "P1, choose a card in your offer:" in refused
    next_turn = answer(child, "1")
    assert "P1, choose an action:" in next_turn
    answer(child, "2")  # build and destroy: nothing drawn
    back = answer(child, "undo")
    assert "P1 takes back their last decision" in back and "P1, choose an action:" in back
    child.sendline("1")
    screen = play_to_the_end(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "final scores:" in screen and "winner:" in screen
    assert re.search(r"tableau: (?!none)\w", screen)  # somebody built something, and the board showed it


def test_save_quit_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = spawn("play", "--ruleset", "legacy", "--seat", "human", "--seat", "random", "--seed", "9", "--fast")
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    assert f"saved to {save}" in answer(child, f"save {save}")
    child.sendline("quit")  # saved as it stands: leaving asks nothing
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "you left the game" in child.before
    assert "save the game before leaving" not in child.before
    data = json.loads(save.read_text())
    assert data["seats"] == ["human", "random"] and len(data["decisions"]) >= 3

    resumed = spawn("resume", str(save), "--fast")
    resumed.expect(PROMPT)
    assert re.search(r"resuming .*game\.json: \d+ decisions replayed", resumed.before)
    resumed.sendline("1")
    screen = play_to_the_end(resumed)
    resumed.expect(pexpect.EOF)
    resumed.close()
    assert resumed.exitstatus == 0 and "winner:" in screen
    finished = json.loads(save.read_text())  # the resumed game keeps itself in the file it came from
    assert len(finished["decisions"]) > len(data["decisions"])
    # the end counts the game's decisions, those replayed from the save too
    assert f"and {len(finished['decisions'])} decisions" in screen


def test_a_bare_save_never_writes_over_a_file_this_game_did_not_write(tmp_path: Path) -> None:
    """A user's trial: `save` with no --save wrote over another game's legacies-save.json
    in the folder. It takes the first free legacies-save-N.json, and keeps to it."""
    precious = tmp_path / "legacies-save.json"
    precious.write_text("another game's save", encoding="utf-8")
    child = spawn("play", "--ruleset", "legacy", "--seat", "human", "--seat", "random", "--seed", "9", "--fast",
                  cwd=tmp_path)
    child.expect(PROMPT)
    assert f"saved to {tmp_path / 'legacies-save-2.json'} " in answer(child, "save")
    child.sendline("1")
    child.expect(PROMPT)
    assert f"saved to {tmp_path / 'legacies-save-2.json'} " in answer(child, "save")  # its own file again
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert precious.read_text(encoding="utf-8") == "another game's save"
    assert not (tmp_path / "legacies-save-3.json").exists()


def test_a_bare_save_says_where_and_quit_asks_once_more_moves_were_made(tmp_path: Path) -> None:
    child = spawn("play", "--ruleset", "legacy", "--seat", "human", "--seat", "random", "--seed", "9", "--fast",
                  cwd=tmp_path)
    child.expect(PROMPT)
    said = answer(child, "save")
    assert f"saved to {tmp_path / 'legacies-save.json'} " in said  # the whole path, not only the name
    child.sendline("1")  # a move since the save: leaving asks again
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(r"save the game before leaving\? \(y/n\): ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_line_says_which_bot_is_thinking_while_it_thinks() -> None:
    child = pexpect.spawn(COMMAND[0], [*COMMAND[1:], "play", "--ruleset", "legacy", "--seat", "human",
                                       "--seat", "search", "--think", "0.8", "--seed", "4", "--fast", "--plain"],
                          encoding="utf-8", timeout=60, dimensions=(50, 160),
                          env={"PYTHONIOENCODING": "utf-8", "COLUMNS": "160", "PATH": "/usr/bin:/bin",
                               "TERM": "xterm"})  # a terminal that can redraw a line (a dumb one gets none)
    child.delaybeforesend = None
    child.expect(PROMPT)
    child.sendline("1")
    seen = ""
    for _ in range(6):  # the search bot's turn comes within a few of the person's decisions
        found = child.expect([r"P2 \(search\) is thinking… \d+\.\d s", PROMPT])
        seen += str(child.before)
        if found == 0:
            break
        child.sendline("1")
    else:
        raise AssertionError("no thinking line was shown:\n" + seen[-2000:])
    child.expect(PROMPT)  # the bot decided: the line went and the person is asked again
    assert "P2 [" in str(child.before)
    child.sendline("quit")
    child.expect("save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)


def _kept(raw: str) -> str:
    """What a terminal still holds, on screen or in its scrollback: everything written
    since its history was last erased (ED 3, `ESC [ 3 J`). Erasing the screen alone
    (ED 2) keeps the lines: most terminals push them into the scrollback."""
    return raw[raw.rfind("\033[3J") + len("\033[3J"):] if "\033[3J" in raw else raw


def test_hot_seat_clears_the_scrollback_between_players() -> None:
    child = spawn("play", "--ruleset", "legacy", "--seat", "human", "--seat", "human", "--seed", "4", "--fast")
    raw = ""
    turn = re.compile(r"(P\d)'s turn: press Enter when only they can see the screen")
    child.expect(turn)
    raw += child.before + child.after
    assert child.match.group(1) == "P1"
    child.sendline("")
    child.expect(PROMPT)
    raw += child.before + child.after
    p1_hand = re.search(r"── P1 \(you\).*?\n\s*legacy hand: ([^\r\n]+)", raw, re.S)
    assert p1_hand and "face down" not in p1_hand.group(1)  # P1 sees their own hand
    for _ in range(20):  # P1 plays until the screen waits for P2
        child.sendline("1")
        found = child.expect([turn, PROMPT])
        raw += child.before + child.after
        if found == 0 and child.match.group(1) == "P2":
            break
    else:
        raise AssertionError("P2's turn never came")
    child.sendline("")
    child.expect(PROMPT)
    raw += child.before + child.after
    kept = _kept(raw)
    assert "── P2 (you)" in kept and "── P1 (you)" not in kept  # P2's board, and nothing of P1's view
    assert p1_hand.group(0) not in kept and "legacy hand: " + p1_hand.group(1) not in kept
    child.sendline("quit")
    child.expect("save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_the_readmes_first_command_seats_a_person_at_a_terminal() -> None:
    child = spawn("play", "--seed", "1", "--fast")  # README: `legacies play`, no seats given
    child.expect(PROMPT)
    assert "═══ Legacies ═══" in child.before and "── P1 (you)" in child.before
    assert "P1, choose a character:" in child.before
    child.sendline("quit")
    child.expect("save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_quitting_a_hot_seat_game_played_with_save_keeps_it_there(tmp_path: Path) -> None:
    """`--save FILE` promises the game is kept in FILE when it stops: leaving with `quit`
    writes it there, whatever the person would have answered to "save before leaving?"
    (they answered `n`, and the game was lost)."""
    from io import StringIO

    from legacies.cli.terminal import HumanAgent, PlayerQuit
    from legacies.interpreter.game import Game, GameState
    from legacies.pipeline.ruleset import load_ruleset

    spec = load_ruleset("legacy").spec
    state = Game(spec, 2).new_state(9)
    for _ in range(3):
        state.apply(0)
    save = tmp_path / "game.json"
    said: list[str] = []
    person = HumanAgent(state.decision.player, stdin=StringIO("\nquit\nn\n"), write=said.append, save_path=save,
                        hot_seat=True, seats=["human", "human"])
    with pytest.raises(PlayerQuit):
        person.choose(state)
    assert "save the game before leaving" not in "".join(said) and f"saved to {save}" in "".join(said)
    kept = GameState.deserialize(spec, save.read_text())
    assert kept.fingerprint() == state.fingerprint() and json.loads(save.read_text())["seats"] == ["human", "human"]


def test_a_save_naming_no_seat_kind_is_refused_before_anything_is_replayed(tmp_path: Path) -> None:
    """A user's trial: a save whose `seats` held `nosuch` replayed its decisions, then stopped
    with a usage error (exit 2) as if the person had typed it. The save is refused before
    any replay, as the broken save it is (exit 1); seats given with --seat still take it up."""
    from typer.testing import CliRunner

    from legacies.agents.session import TableSession
    from legacies.cli.main import app
    from legacies.pipeline.ruleset import load_ruleset

    spec = load_ruleset("legacy").spec
    assert spec is not None
    session = TableSession(spec, ["human", "random"], seed=3)
    session.advance()
    session.answer(0, len(session.state.st.history), 0)
    save = tmp_path / "game.json"
    session.save(save)
    data = json.loads(save.read_text())
    save.write_text(json.dumps({**data, "seats": ["human", "nosuch"]}), encoding="utf-8")
    for command in (["resume", str(save), "--plain"], ["serve", "--resume", str(save)], ["replay", str(save)],
                    ["replay", "--verify", str(save)]):
        said = CliRunner().invoke(app, command, input="")
        assert said.exit_code == 1, said.output
        assert "the save's `seats` names `nosuch`, which is no seat kind" in said.output
        assert "replayed" not in said.output
    said = CliRunner().invoke(app, ["resume", str(save), "--plain", "--seat", "random", "--seat", "random", "--quiet"])
    assert said.exit_code == 0 and "replayed" in said.output, said.output
