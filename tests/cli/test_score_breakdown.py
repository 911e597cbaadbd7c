"""The end of `legacies play` and `legacies replay`: each player's final score, then where
it came from, in parts that add up to it (text wrapped to 80 columns, and `breakdown`
in the JSON)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from legacies.cli.main import app
from typer.testing import CliRunner

runner = CliRunner()
SCORE = re.compile(r"^  (\S+ \(random\)): (-?\d+) (\w+)$")
PART = re.compile(r"(-?\d+) from ([^,]+)")


def final_scores(out: str) -> dict[str, tuple[int, list[tuple[int, str]]]]:
    """name -> (score, [(amount, label)...]) from the `final scores:` block."""
    block = out.split("\nfinal scores:\n", 1)[1].split("\nwinner: ", 1)[0]
    found: dict[str, tuple[int, list[tuple[int, str]]]] = {}
    name = ""
    for line in block.splitlines():
        assert len(line) <= 80, line
        m = SCORE.match(line)
        if m:
            name = m.group(1)
            found[name] = (int(m.group(2)), [])
            continue
        assert line.startswith("      ") and name, line
        found[name][1].extend((int(a), label.strip()) for a, label in PART.findall(line))
    return found


def test_play_shows_each_score_in_parts_that_add_up() -> None:
    result = runner.invoke(app, ["play", *["--seat", "random"] * 4, "--seed", "4"])
    assert result.exit_code == 0, result.output[-800:]
    scores = final_scores(result.output)
    assert len(scores) == 4
    for name, (score, parts) in scores.items():
        assert parts and sum(a for a, _ in parts) == score, (name, parts)
        assert [a for a, _ in parts] == sorted((a for a, _ in parts), reverse=True)
    labels = {label for _, parts in scores.values() for _, label in parts}
    assert "scoring tiles" in labels and "Foundation at the end" in labels
    assert "fame" in result.output.split("\nfinal scores:\n", 1)[1].splitlines()[0]


def test_json_gives_each_player_a_breakdown() -> None:
    result = runner.invoke(app, ["play", "--ruleset", "legacy", *["--seat", "random"] * 3, "--seed", "7", "--json"])
    assert result.exit_code == 0, result.output
    for player in json.loads(result.output)["players"]:
        parts = player["breakdown"]
        assert sum(x["amount"] for x in parts) == player["score"]
        assert {x["label"] for x in parts} <= {"legacies built", "finishing first"}
        for x in parts:
            assert sum(d["amount"] for d in x["from"]) == x["amount"]


def test_replay_of_a_finished_game_shows_the_same_breakdown(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    played = runner.invoke(app, ["play", *["--seat", "random"] * 3, "--seed", "2", "--save", str(save)])
    assert played.exit_code == 0, played.output[-800:]
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0, replayed.output[-800:]
    shown = replayed.output.split("\nfinal scores:\n", 1)[1].replace("(replay)", "(random)")
    assert played.output.split("\nfinal scores:\n", 1)[1].startswith(shown)  # the replay names no winner
    assert final_scores(played.output)


def test_a_score_of_one_reads_in_the_singular() -> None:
    """'P1: 1 legacy point', not '1 legacy points' (the ruleset's count nouns)."""
    from legacies.cli.scoring import final_score_lines
    from legacies.interpreter.game import Game
    from legacies.pipeline.ruleset import load_ruleset

    spec = load_ruleset("gears-of-time").spec
    assert spec is not None
    state = Game(spec, 2).new_state(1)
    lines = final_score_lines(state, ["P1", "P2"], [1, 2])
    assert lines[0] == "  P2: 2 legacy points" and "  P1: 1 legacy point" in lines
