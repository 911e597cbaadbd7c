"""`legacies play`, `replay` and `soak` with hostile or unlucky inputs (issue 7): a save
path that cannot be written, a player who leaves (EOF, Ctrl-C), human seats with
--json, an empty answer, a runaway effect; the soak run and `replay --verify`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from legacies.agents import soak as soak_mod
from legacies.cli import terminal
from legacies.cli.main import app
from legacies.interpreter.game import Game
from legacies.pipeline import ruleset as ruleset_mod

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests/interpreter/fixtures/tiny"
HUMAN_GAME = ["play", "-r", "legacy", "-s", "human", "-s", "random", "--seed", "2"]


# --------------------------------------------------------------------------- --save
@pytest.mark.parametrize("where", ["folder", "missing folder", "under a file", "a FIFO"])
def test_an_unwritable_save_path_is_refused_before_the_game(tmp_path: Path, where: str) -> None:
    target = {"folder": tmp_path, "missing folder": tmp_path / "no" / "g.json",
              "under a file": tmp_path / "f.txt" / "g.json", "a FIFO": tmp_path / "f.txt"}[where]
    if where == "a FIFO":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs")
        os.mkfifo(target)
    else:
        (tmp_path / "f.txt").write_text("x")
    result = runner.invoke(app, ["play", "-r", "legacy", "-s", "random", "-s", "random", "--save", str(target)])
    assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)
    assert "--save" in result.output and "turn 1" not in result.output  # nothing was played
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]  # and nothing was left behind


def test_a_good_save_path_is_written_whole(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "-r", "legacy", "-s", "random", "-s", "random", "-q", "--save", str(save)])
    assert result.exit_code == 0
    assert json.loads(save.read_text())["format"] == "legacies-save/2"
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left


# --------------------------------------------------------------------------- leaving a game
def test_end_of_input_saves_the_game_to_save(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(app, [*HUMAN_GAME, "--save", str(save)], input="1\n" * 5)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "end of input" in result.stderr and f"saved to {save}" in result.stderr
    data = json.loads(save.read_text())
    assert len(data["decisions"]) >= 5
    replay = runner.invoke(app, ["replay", str(save)])
    assert replay.exit_code == 0 and "the save ends here, before P1 decides" in replay.output


def test_ctrl_c_saves_the_game_to_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0}
    choose = terminal.HumanAgent.choose

    def interrupted(self: terminal.HumanAgent, state: Any) -> int:
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return choose(self, state)
    monkeypatch.setattr(terminal.HumanAgent, "choose", interrupted)
    save = tmp_path / "g.json"
    result = runner.invoke(app, [*HUMAN_GAME, "--save", str(save)], input="1\n" * 50)
    assert result.exit_code == 1 and "interrupted" in result.stderr and save.exists()
    assert runner.invoke(app, ["replay", str(save)]).exit_code == 0


def test_end_of_input_without_save_says_so() -> None:
    result = runner.invoke(app, HUMAN_GAME, input="")
    assert result.exit_code == 1 and "end of input: the game stopped before its end" in result.stderr
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- human seats
def test_with_json_a_human_seat_keeps_stdout_pure_json() -> None:
    result = runner.invoke(app, [*HUMAN_GAME, "--json"], input="1\n" * 600)
    assert result.exit_code == 0
    data = json.loads(result.stdout)  # the prompts went to stderr
    assert data["ruleset"] == "legacy" and data["actions"]
    assert "P1, choose an action:" in result.stderr and "choose an action" not in result.stdout.split('"actions"')[0]


def test_an_empty_line_chooses_nothing() -> None:
    spec = ruleset_mod.load_ruleset("legacy").spec
    first = Game(spec, 2).new_state(2).decision  # type: ignore[arg-type]
    assert first is not None and first.player == 0
    result = runner.invoke(app, HUMAN_GAME, input="\n\n" + "2\n" * 600)
    assert result.exit_code == 0
    assert result.stderr.count("type the number of an option") == 2  # asked again, twice
    taken = next(line for line in result.stdout.splitlines() if line.startswith("  P1 ["))
    assert taken == f"  P1 [{first.prompt}]: {first.labels()[1]}"  # the 2 typed next, not option 1


# --------------------------------------------------------------------------- runaway effects
@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The tiny fixture ruleset as if installed (its action `busy`, offered with the
    option `runaway`, never ends)."""
    loaded = ruleset_mod.load_ruleset("tiny", TINY)
    assert loaded.spec is not None
    real = ruleset_mod.load_ruleset
    monkeypatch.setattr(ruleset_mod, "rulesets", lambda: ["legacy", "tiny"])
    monkeypatch.setattr(ruleset_mod, "load_ruleset", lambda name, root=None, expansions=(): loaded if name == "tiny"
                        else real(name, root, expansions))
    monkeypatch.setattr(soak_mod, "load_ruleset", ruleset_mod.load_ruleset)
    return loaded.spec


def test_a_runaway_effect_is_named_and_its_game_saved(tiny: Any, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "-r", "tiny", "-s", "random", "-s", "random", "-o", "runaway=yes",
                                 "--seed", "0", "--save", str(save)])
    assert result.exit_code == 1
    message = result.stderr
    assert "the game stopped on an internal error (the action was undone)" in message
    assert "procedures.yaml:19:7: in action `busy`" in message and "more than 5,000 steps" in message
    assert "Traceback" not in result.output and "refuse every option" not in message
    data = json.loads(save.read_text())
    assert data["failure"]["choice"] is not None and "busy" in data["failure"]["message"]
    verified = runner.invoke(app, ["replay", "--verify", str(save)])
    assert verified.exit_code == 1 and "in action `busy`" in verified.output  # reproduced


def test_validate_warns_about_the_runaway_repeat() -> None:
    result = runner.invoke(app, ["validate", str(TINY)])
    assert result.exit_code == 0  # a warning
    assert "warning W305" in result.output and "procedures.yaml:19:7" in result.output


# --------------------------------------------------------------------------- soak
def test_soak_plays_clean_games_and_says_so(tmp_path: Path) -> None:
    result = runner.invoke(app, ["soak", "--games", "16", "--workers", "2", "--seed", "100", "--out",
                                 str(tmp_path / "fails")])
    assert result.exit_code == 0, result.output
    assert "16 games (gears-of-time, leaders-legacy, legacies, legacy; 16 tables)" in result.stdout and "0 failures" in result.stdout
    assert not (tmp_path / "fails").exists()


def test_soak_failures_are_saved_replayable_and_exit_1(tiny: Any, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for players in range(tiny.min_players, tiny.max_players + 1):  # the runaway action on offer
        monkeypatch.setitem(soak_mod._games, ("tiny", players), Game(tiny, players, {"runaway": True}))
    out = tmp_path / "fails"
    result = runner.invoke(app, ["soak", "--games", "6", "--ruleset", "tiny", "--players", "2", "--out", str(out)])
    assert result.exit_code == 1
    saves = sorted(out.glob("tiny-2p-seed*.json"))
    assert saves and "FAIL tiny 2p seed" in result.stdout and f"{len(saves)} failures" in result.stdout
    for save in saves:
        verified = runner.invoke(app, ["replay", "--verify", str(save)])
        assert verified.exit_code == 1 and "busy" in verified.output, verified.output


def test_replay_verify_passes_a_clean_save(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    assert runner.invoke(app, ["play", "-r", "legacy", "-s", "random", "-s", "random", "-q", "--save",
                               str(save)]).exit_code == 0
    result = runner.invoke(app, ["replay", "--verify", str(save)])
    assert result.exit_code == 0 and "verified:" in result.stdout and "every invariant holds" in result.stdout


def test_a_soak_failure_of_a_game_too_long_and_an_edited_failure_are_not_verified(tmp_path: Path) -> None:
    """A user's trial: a soak failure "not over after 1 decisions" was "verified" (exit 0),
    and a failure naming option -1 or 10**20 was passed over. The first stands (exit 1); the
    second is an edited save, refused."""
    out = tmp_path / "long"
    assert runner.invoke(app, ["soak", "--games", "1", "-r", "legacy", "--players", "2", "--max-decisions", "1",
                               "--out", str(out)]).exit_code == 1
    [save] = out.glob("*.json")
    verified = runner.invoke(app, ["replay", "--verify", str(save)])
    assert verified.exit_code == 1 and "the game is not over after 1 decisions" in verified.output, verified.output
    data = json.loads(save.read_text(encoding="utf-8"))
    for choice in (-1, 10**20):
        save.write_text(json.dumps({**data, "failure": {"choice": choice, "message": "x"}}), encoding="utf-8")
        edited = runner.invoke(app, ["replay", "--verify", str(save)])
        assert edited.exit_code == 1 and f"names option {choice} of" in edited.output, edited.output


def test_seats_of_the_rules_that_disagree_with_their_option_are_refused(tmp_path: Path) -> None:
    """A user's trial: a save edited to seat a nemesis its options do not have was played on
    until the rules asked the nemesis a question ("an internal error"), then rewritten."""
    save = tmp_path / "g.json"
    runner.invoke(app, ["play", "-r", "legacies", "-s", "human", "-s", "random", "-s", "random", "--seed", "2",
                        "--save", str(save)], input="1\n" * 3)  # end of input: saved mid-game
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["options"].get("nemesis") in (0, False, None)
    data["options"]["nemesis"] = 0
    save.write_text(json.dumps({**data, "seats": ["random", "random", "nemesis"]}), encoding="utf-8")
    before = save.read_bytes()
    for command in (["replay", str(save)], ["resume", str(save), "-q"]):
        refused = runner.invoke(app, command)
        assert refused.exit_code == 1 and "seat 1 nemesis where its option `nemesis` is 0" in refused.output, \
            refused.output
    assert save.read_bytes() == before


def test_resume_refuses_a_save_path_it_cannot_write_before_playing(tmp_path: Path) -> None:
    """A user's trial: `resume --save /missing/x.json` played the game to its end, then lost it."""
    save = tmp_path / "g.json"
    runner.invoke(app, [*HUMAN_GAME, "--save", str(save)], input="1\n" * 5)  # end of input: saved mid-game
    refused = runner.invoke(app, ["resume", str(save), "-q", "--save", str(tmp_path / "missing" / "x.json")])
    assert refused.exit_code == 2 and "resuming" not in refused.output, refused.output
    loop = tmp_path / "a.json"  # a link in a loop is said as one, not "no such save file"
    loop.symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(loop)
    looped = runner.invoke(app, ["resume", str(loop)])
    assert looped.exit_code == 2 and "Too many levels of symbolic links" in looped.output, looped.output


def test_soak_usage_errors() -> None:
    assert runner.invoke(app, ["soak", "--games", "3", "--ruleset", "nope"]).exit_code == 2
    assert runner.invoke(app, ["soak", "--games", "3", "--players", "40"]).exit_code == 2
    assert runner.invoke(app, ["soak", "--games", "0"]).exit_code == 2


def test_a_game_of_a_ruleset_folder_says_how_to_replay_it_with_the_folder(tmp_path: Path) -> None:
    """The hint said `legacies replay --verify SAVE`, which the installed ruleset refuses
    ("the content changed"): a save is replayed with the folder it was played from."""
    folder = str(REPO / "tests/interpreter/fixtures/numbers")
    save = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "-r", folder, "-s", "random", "-s", "random", "-o", "runaway=yes",
                                 "--seed", "0", "--save", str(save)])
    assert result.exit_code == 1, result.output
    hint = f"`legacies replay --verify {save} --ruleset {folder}` reproduces it"
    assert hint in result.stderr
    again = runner.invoke(app, ["replay", "--verify", str(save), "--ruleset", folder])  # the hint, as typed
    assert again.exit_code == 1 and "past the engine's limit" in again.output  # reproduced
