"""A setup that fails at run time (issue 22, part 1: `repeat 40 times: set X to X * X`
in a setup) is a located content error in every command that sets a game up: `play`
said so already; `soak`, `simulate`, `try` (and scenario tests through it) gave a
Python traceback. `validate` finds it first (E300), but these commands play a ruleset
as it is, and a setup may fail only for some seeds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.agents import soak
from legacies.cli.main import app
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset

NUMBERS = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "numbers"
runner = CliRunner()
RUNAWAY = "set pile to 2\n  repeat 40 times:\n      set pile to pile * pile\n"


@pytest.fixture
def runaway(tmp_path: Path) -> Path:
    """The numbers fixture whose setup squares a number forty times (line 18 of its
    procedures file: the squaring)."""
    root = tmp_path / "numbers"
    shutil.copytree(NUMBERS, root)
    procedures = root / "rules" / "numbers" / "procedures.yaml"
    text = procedures.read_text(encoding="utf-8")
    procedures.write_text(text.replace("game: |\n", "setup: |\n  " + RUNAWAY + "game: |\n"), encoding="utf-8")
    assert procedures.read_text(encoding="utf-8").splitlines()[17].strip() == "set pile to pile * pile"
    return root


def _said(text: str) -> None:
    assert "Traceback" not in text
    assert "numbers/procedures.yaml:18:7" in text and "past the engine's limit" in text


def test_play_says_the_game_stopped_during_its_setup(runaway: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "--ruleset", str(runaway), "-s", "random", "-s", "random", "--save",
                                 str(save)])
    assert result.exit_code == 1 and "the game stopped during its setup" in result.output
    _said(result.output)
    assert not save.exists()  # no decision was made: nothing to keep


def test_soak_counts_a_setup_that_fails_as_a_failing_game(runaway: Path, tmp_path: Path) -> None:
    spec = load_ruleset("numbers", runaway).spec
    assert spec is not None
    table = ("numbers-with-a-runaway-setup", 2)
    soak._games[table] = Game(spec, 2)  # (soak plays installed rulesets by name: this one is given by hand)
    try:
        result = soak.run_soak(3, [table], out=tmp_path / "failures")
    finally:
        del soak._games[table]
    assert result.games == 3 and result.decisions == 0 and len(result.failures) == 3
    for failure, saved in zip(result.failures, result.saved):
        _said(failure.message)
        assert failure.save is None and isinstance(saved, str) and "in its setup" in saved
    assert not (tmp_path / "failures").exists()  # nothing to save: no decision was made


def test_simulate_says_which_game_stopped_in_its_setup(runaway: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--ruleset", str(runaway), "--games", "2", "--players", "2",
                                 "--out", str(tmp_path / "report")])
    assert result.exit_code == 1, result.output
    assert "game 0 (seed 0) stopped in its setup" in result.output
    _said(result.output)
    assert not (tmp_path / "report").exists()


def test_try_and_scenario_tests_say_the_setup_stopped(runaway: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["try", "one", "--ruleset", str(runaway), "--run", "gain 1 points"])
    assert result.exit_code == 1, result.output
    assert "the game stopped in its setup" in result.output
    _said(result.output)
    (tmp_path / "one.yaml").write_text("item: one\nrun: gain 1 points\nexpect:\n  my points: 1\n", encoding="utf-8")
    result = runner.invoke(app, ["test", str(tmp_path / "one.yaml"), "--ruleset", str(runaway)])
    assert result.exit_code == 1, result.output
    assert "FAIL" in result.output and "the game stopped in its setup" in result.output
    _said(result.output)


def test_try_play_says_which_decision_stopped_the_game(tmp_path: Path) -> None:
    root = tmp_path / "numbers"
    shutil.copytree(NUMBERS, root)
    ruleset = root / "rules" / "numbers" / "ruleset.yaml"  # the runaway action offered (first) every turn
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("default: false", "default: true"),
                       encoding="utf-8")
    result = runner.invoke(app, ["try", "one", "--ruleset", str(root), "--play", "3", "--run", "gain 1 points"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert '`play: 3`: decision 1 ("' in result.output and "Square the pile) stopped the game" in result.output
    assert "numbers/procedures.yaml:10:11" in result.output
