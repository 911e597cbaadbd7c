"""What the CLI shows of two general constructs (issue 16), on the `gadgets` fixture: a
game the rules ended (`end the game with P as the winner because "TEXT"`) and a score
that is a definition (the board, the final scores, `--json`, saves and replays)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from legacies.cli.board import board_lines
from legacies.cli.main import app
from legacies.cli.scoring import ended_note, final_score_lines, score_parts, tie_break_note
from legacies.interpreter import mechanics as mech
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset

GADGETS = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "gadgets"
PLAY = ["play", "--ruleset", str(GADGETS), "--seat", "random", "--seat", "random", "--seat", "random",
        "--seed", "3", "--option", "instant=true"]
runner = CliRunner()


def test_play_prints_the_winner_the_rules_named_and_why(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = runner.invoke(app, [*PLAY, "--save", str(save)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "P2 wins: a quick game" in out
    assert "winner: P2 (random)" in out
    assert "the rules named the winner: a quick game" in out
    assert "tie on the score" not in out  # every score is 0, but the rules named the winner
    replayed = runner.invoke(app, ["replay", str(save), "--ruleset", str(GADGETS)])
    assert replayed.exit_code == 0, replayed.output
    assert "P2 wins: a quick game" in replayed.output


def test_play_json_says_how_the_rules_ended_the_game() -> None:
    result = runner.invoke(app, [*PLAY, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["winner"] == "P2 (random)"
    assert data["ended_by_rules"] == {"winner_named": True, "reason": "a quick game"}
    assert [p["breakdown"] for p in data["players"]] == [[], [], []]  # a defined score: one part, its value (0)


def test_a_defined_score_on_the_board_and_at_the_end() -> None:
    spec = load_ruleset("gadgets", GADGETS).spec
    state = Game(spec, 2, {"endings": True}).new_state(1)
    lay = state.game.layout
    state.st.counters[lay.player_counter["coins"] + 1] = 4
    lever = lay.def_pieces[lay.def_index["lever"]][0]
    mech.move(state.st, lever, lay.player_zone["table"] + 1)
    text = "\n".join(board_lines(state, 0))
    assert "points 0" in text.split("── P2")[0] and "points 7" in text.split("── P2")[1]
    state.apply_label("Call the game")
    assert state.scores() == [0, 7]
    parts = score_parts(state)
    assert parts is not None and [[(x.label, x.amount) for x in p] for p in parts] == [[], [("points", 7)]]
    lines = final_score_lines(state, ["P1", "P2"], state.scores())
    assert lines[0] == "  P2: 7 points" and lines[1] == "  P1: 0 points"
    assert "the score is the ruleset's definition `points`" in lines[-1]
    assert ended_note(state) == "the rules ended the game; the ranking decides"
    assert tie_break_note(state) is None  # no tie: 7 against 0
