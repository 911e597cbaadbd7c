"""The board drawn from a ruleset's `display:` (cli/board.py): what the ruleset names,
in its order, and nothing the viewing player may not see."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from legacies.cli.board import board_lines
from legacies.view.build import tokens_on
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.mechanics import describe
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import validate

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "interpreter" / "fixtures" / "tiny"


def legacy(players: int = 3) -> GameState:
    return Game(load_ruleset("legacy").spec, players, names=["Ann", "Bob", "Cy"][:players]).new_state(4)


def test_a_player_sees_their_hand_and_only_the_size_of_the_others() -> None:
    state = legacy()
    lines = "\n".join(board_lines(state, 0))
    lay, st = state.game.layout, state.st
    mine = [describe(st, p) for p in st.zones[lay.player_zone["hand"]]]
    bobs = st.zones[lay.player_zone["hand"] + 1]
    ann, bob = lines.split("── Bob")[0].split("── Ann")[1], lines.split("── Bob")[1].split("── Cy")[0]
    assert f"legacy hand: {', '.join(mine)}" in ann
    assert f"legacy hand: {len(bobs)} face down" in bob
    assert "(you)" in lines.split("── Ann")[1].split("\n")[0]
    # the same board from Bob's seat shows Bob's cards and hides Ann's
    from_bob = "\n".join(board_lines(state, 1))
    assert f"legacy hand: {len(st.zones[lay.player_zone['hand']])} face down" in from_bob.split("── Ann")[1]


def test_the_ruleset_decides_what_and_in_which_order() -> None:
    lines = board_lines(legacy(2), 0)
    assert lines[0] == "═══ Legacy (card game) ═══"
    assert lines[1].startswith("  round: ") and lines[2].startswith("  Legacies to finish: ")
    ann = lines[lines.index(next(x for x in lines if x.startswith("── Ann"))) + 1:]
    assert ann[0].strip().startswith("points ") and ann[1].strip().startswith("legacy hand:")
    assert ann[2].strip().startswith("resources:") and ann[3].strip().startswith("tableau:")


def test_legacies_shows_the_table_a_person_reads() -> None:
    state = Game(load_ruleset("legacies").spec, 4).new_state(1)
    text = "\n".join(board_lines(state, 0))
    for words in ("generation 0 of 6, century 1", "current event: none; upcoming: ", "industries (level",
                  "Communications 3 (3 gold)", "investments: none", "relationships (spaces 1 to 5",
                  "legendary figures this century", "player card market:", "successors face up:", "fame ", "gold ",
                  "Foundation ", "resources: dye", "heirlooms to acquire"):
        assert words in text, words


def test_without_display_the_game_counters_and_each_players_zones() -> None:
    state = Game(load_ruleset("tiny", TINY).spec, 2).new_state(0)
    text = "\n".join(board_lines(state, 0))
    assert "rounds played: 0" in text and "points 0" in text and "hand:" in text and "table: none" in text


def display_problems(tmp_path: Path, players: str) -> list:
    """R001 diagnostics of a copy of the Legacy card game whose `display: players:` is
    `players`."""
    for part in ("rules", "content"):
        shutil.copytree(REPO / part / "legacy", tmp_path / part / "legacy")
    path = tmp_path / "rules" / "legacy" / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("players: [points, hand, resources, tableau]", f"players: {players}"),
                    encoding="utf-8")
    return [d for d in validate([str(tmp_path)]).diagnostics if d.code == "R001"]


def test_a_display_naming_nothing_is_a_located_error(tmp_path: Path) -> None:
    found = display_problems(tmp_path, "[points, hadn, round_number]")
    assert [d.message.split(";")[1].strip() for d in found] == ["`hadn` is not one", "`round_number` is not one"]
    assert found[0].hint == "did you mean `hand`?" and found[0].line == found[1].line


def test_a_track_shows_who_stands_on_which_space() -> None:
    import random

    state = Game(load_ruleset("legacies").spec, 3, names=["Ann", "Bob", "Cy"]).new_state(2)
    lay, st = state.game.layout, state.st
    rng = random.Random(2)

    def placed() -> list[tuple[int, int, int]]:  # (character, space, owner) of every token on a track
        return [(pid, s, lay.piece_owner[t]) for pid in lay.kind_pieces["character"]
                for s, z in enumerate(lay.track_zones[pid], 1) for t in st.zones[z]]
    while not placed():
        d = state.decision
        assert d is not None
        state.apply(rng.randrange(len(d.options)))
    text = "\n".join(board_lines(state, 0))  # Legacies lists each token on a track (a `rows:` entry)
    for pid, space, owner in placed():
        assert f"{describe(st, pid)}, space {space}: {state.game.player_names[owner]}" in text
    # a kind with a track named in `display:` (`{show: character}`): who stands on which space
    line = tokens_on(state, 0, "character")
    for pid, space, owner in placed():
        entry = next(e for e in line.split("; ") if e.startswith(describe(st, pid) + " ("))
        assert f"space {space}: " in entry and state.game.player_names[owner] in entry.split(f"space {space}: ")[1]


def test_an_entry_with_when_shows_only_for_the_players_who_have_that_part() -> None:
    """`when: npc`: the solo cards of a non-player character, on its part of the board
    only; a game without one shows none."""
    import random

    spec = load_ruleset("legacies").spec
    plain = "\n".join(board_lines(Game(spec, 3).new_state(1), 0))
    assert "solo cards played" not in plain and "row of its last solo card" not in plain
    state = Game(spec, 3, {"nemesis": 1}, names=["Ann", "Bob", "Nemesis"]).new_state(1)
    rng = random.Random(1)
    while not state.st.zones[state.game.layout.player_zone["solo_played"] + 2]:
        d = state.decision
        assert d is not None
        state.apply(rng.randrange(len(d.options)))
    text = "\n".join(board_lines(state, 0))
    people, nemesis = text.split("── Nemesis")[0], text.split("── Nemesis")[1]
    assert "solo cards played" not in people and "row of its last solo card " in nemesis
    played = [describe(state.st, p) for p in state.st.zones[state.game.layout.player_zone["solo_played"] + 2]]
    assert f"solo cards played (the top one last): {', '.join(played)}" in nemesis


def test_when_must_name_a_player_counter(tmp_path: Path) -> None:
    found = display_problems(tmp_path, "[points, {show: hand, when: pionts}]")
    assert len(found) == 1 and "`pionts` is not one" in found[0].message and found[0].hint == "did you mean `points`?"


@pytest.mark.parametrize("ruleset", ["legacies", "legacy", "gears-of-time", "leaders-legacy"])
def test_replay_at_an_80_column_terminal_fits_its_log_and_board(ruleset: str, tmp_path: Path) -> None:
    """`replay --to N` at a terminal prints its log and the board as `play` does: fitted to
    the screen's width, broken between words (a pipe or a file gets whole lines)."""
    pexpect = pytest.importorskip("pexpect")
    save = tmp_path / "game.json"
    command = [sys.executable, "-c", "from legacies.cli.main import main; main()"]
    done = subprocess.run(command + ["play", "--ruleset", ruleset, "--seed", "5", "--quiet", "--save", str(save)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    child = pexpect.spawn(command[0], command[1:] + ["replay", str(save), "--to", "100", "--as", "1"],
                          encoding="utf-8", timeout=120, dimensions=(24, 80),
                          env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin", "TERM": "xterm",
                               "COLUMNS": "80", "LINES": "24"})
    child.expect(pexpect.EOF)
    lines = child.before.replace("\r", "").split("\n")
    assert any(line.startswith("the board after decision 100") for line in lines)
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    piped = subprocess.run(command + ["replay", str(save), "--to", "100", "--as", "1"],
                           capture_output=True, text=True, timeout=300).stdout.split("\n")
    assert max(len(line) for line in piped) > 80  # whole lines where nobody reads at a width
