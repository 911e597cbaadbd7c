"""Nothing a user made is lost (issue 22, parts 2 and 7): every command that writes a
file the user keeps (simulate's report, soak's failures, play's and the terminal's
saves, migrate, new) checks where it writes before the work when it can, writes whole,
keeps the old file on a full disk or a read-only file system and says what failed in
words, after what the run found is printed. Saves are sized before they are read."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
OLD_REPORT = '{"an earlier": "report"}'


def _listing(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


# --------------------------------------------------------------------------- simulate
def test_simulate_refuses_an_out_folder_it_could_not_write_before_the_games(tmp_path: Path, read_only: Any) -> None:
    (tmp_path / "file").write_text("")
    started = time.monotonic()
    result = runner.invoke(app, ["simulate", "-r", "legacy", "--games", "100000", "--out",
                                 str(tmp_path / "file" / "r")])
    assert result.exit_code == 2 and "nothing could be written there" in result.output and "wins" not in result.output
    read_only()
    result = runner.invoke(app, ["simulate", "-r", "legacy", "--games", "100000", "--out", str(tmp_path / "ro")])
    assert result.exit_code == 2 and "the file system is read-only" in result.output
    assert time.monotonic() - started < 30  # no game was played


def test_simulate_on_a_full_disk_keeps_the_earlier_report_and_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                       full_disk: Any) -> None:
    (tmp_path / "report.json").write_text(OLD_REPORT)
    (tmp_path / "report.html").write_text("<p>earlier</p>")
    full_disk(after=10_000)
    result = runner.invoke(app, ["simulate", "-r", "legacy", "--games", "20", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "wins" in result.output  # what the run found is printed first
    assert "the report is not written: cannot write" in result.output and "the disk is full" in result.output
    assert (tmp_path / "report.json").read_text() == OLD_REPORT and (tmp_path / "report.html").read_text() == \
        "<p>earlier</p>"
    assert _listing(tmp_path) == ["report.html", "report.json"]  # no temporary file left
    monkeypatch.undo()
    result = runner.invoke(app, ["simulate", "-r", "legacy", "--games", "20", "--out", str(tmp_path)])
    assert result.exit_code == 0 and json.loads((tmp_path / "report.json").read_text())["games"] == 20


# --------------------------------------------------------------------------- soak
def test_soak_failures_that_cannot_be_saved_are_said_and_the_summary_printed(tmp_path: Path, full_disk: Any) -> None:
    full_disk(after=0)
    result = runner.invoke(app, ["soak", "-r", "legacy", "--games", "3", "--max-decisions", "3", "--out",
                                 str(tmp_path / "failures")])  # every game is too long: a failure to save
    assert result.exit_code == 1
    assert result.output.count("(not saved: cannot write") == 3 and "the disk is full" in result.output
    assert "legacies soak --ruleset legacy --players 2 --seed 0 --games 1" in result.output  # how to get it again
    assert "3 games (legacy; 5 tables)" in result.output and "3 failures" in result.output
    assert not list((tmp_path / "failures").glob("*"))


def test_soak_refuses_an_out_folder_it_could_not_write_before_the_games(tmp_path: Path, read_only: Any) -> None:
    read_only()
    result = runner.invoke(app, ["soak", "-r", "legacy", "--games", "100000", "--out", str(tmp_path / "f")])
    assert result.exit_code == 2 and "--out" in result.output and "read-only" in result.output


# --------------------------------------------------------------------------- saves
def test_play_on_a_full_disk_prints_the_scores_first_and_keeps_the_old_save(tmp_path: Path, full_disk: Any) -> None:
    save = tmp_path / "g.json"
    save.write_text("the earlier save")
    full_disk()
    result = runner.invoke(app, ["play", "-r", "legacy", "-s", "random", "-s", "random", "--seed", "4", "--save",
                                 str(save)])
    assert result.exit_code == 1
    assert "final scores:" in result.stdout and "winner:" in result.stdout
    assert f"the game is not saved: cannot write {save}: the disk is full; the earlier save in it is kept" \
        in result.stderr
    assert save.read_text() == "the earlier save" and _listing(tmp_path) == ["g.json"]


def test_the_save_key_on_a_full_disk_says_so_and_the_game_goes_on(tmp_path: Path, full_disk: Any) -> None:
    save = tmp_path / "g.json"
    save.write_text("the earlier save")
    full_disk()
    result = runner.invoke(app, ["play", "-r", "legacy", "-s", "human", "-s", "random", "--seed", "2"],
                           input=f"save {save}\nquit\nn\n")
    assert "not saved: cannot write" in result.stderr and "the disk is full" in result.stderr
    assert save.read_text() == "the earlier save" and _listing(tmp_path) == ["g.json"]


@pytest.mark.parametrize("command", ["resume", "replay"])
def test_a_huge_save_is_refused_by_its_size_unread(tmp_path: Path, command: str) -> None:
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(5 * 1024 ** 3)  # 5 GB, sparse: nothing on the disk, everything to a reader
    started = time.process_time()
    result = runner.invoke(app, [command, str(huge)])
    assert result.exit_code == 1 and "5,368,709,120 bytes (a save is at most 4,000,000); nothing was read" \
        in result.output
    assert time.process_time() - started < 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
@pytest.mark.parametrize("command", ["resume", "replay"])
def test_a_save_that_is_a_fifo_or_a_device_is_refused_unread(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "save.json"
    os.mkfifo(fifo)  # opened to read, it would wait for a writer forever
    for path, what in ((fifo, "a pipe (FIFO), not a regular file"), (Path("/dev/zero"), "a device")):
        result = runner.invoke(app, [command, str(path)])
        assert result.exit_code == 1 and f"not a save file: {what}" in result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_scenario_that_is_a_fifo_is_refused_unread_as_what_it_is(tmp_path: Path) -> None:
    """`try --scenario FIFO` said "no such file", `test FIFO` "no such file or folder"."""
    fifo = tmp_path / "scenario.yaml"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["try", "protect", "-r", "legacy", "--scenario", str(fifo)])
    assert result.exit_code == 2 and "F006 cannot read" in result.output and "a pipe (FIFO)" in result.output
    result = runner.invoke(app, ["test", str(fifo)])
    assert result.exit_code == 1 and "error F006: cannot read" in result.output and "a pipe (FIFO)" in result.output


# --------------------------------------------------------------------------- migrate, new
def test_migrate_and_new_on_a_read_only_file_system_say_so(tmp_path: Path, read_only: Any) -> None:
    root = tmp_path / "copy"
    for part in ("rules/legacy", "content/legacy"):
        shutil.copytree(REPO / part, root / part)
    ruleset = root / "rules/legacy/ruleset.yaml"
    ruleset.write_text(ruleset.read_text().replace("format: 2\n", ""))  # a format-1 file: migrate would write it
    before = ruleset.read_text()
    read_only()
    result = runner.invoke(app, ["migrate", str(ruleset)])
    assert result.exit_code == 1 and "the file system is read-only" in result.output
    result = runner.invoke(app, ["new", "legacy_card", "--ruleset", str(root)])
    assert result.exit_code != 0 and "read-only" in result.output and "Traceback" not in result.output
    assert ruleset.read_text() == before
