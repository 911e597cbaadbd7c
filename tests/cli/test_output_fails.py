"""Output that cannot be written (issue 22, part 2, the rest of its class): a command's
standard output on a full disk (`> /dev/full`) or a pipe closed early (`| head`, or a reader gone) is
said in words, never a traceback, and never costs the user their work: `play --save`
keeps the game (finished, or as far as it went), `simulate` writes its report. Before,
`play --save g.json > log` on a full disk lost the game with a traceback, and
`simulate --out runs | head -1` lost the report silently.

The commands run as a user runs them, in a process of their own (the command's own
entry point is what turns the error into words)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-c", "from legacies.cli.main import app; app()"]
FULL = "/dev/full"
pytestmark = pytest.mark.skipif(not os.path.exists(FULL), reason="needs /dev/full (Linux)")


def _run(args: list[str], cwd: Path, stdout: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], cwd=cwd, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=300)


def _full(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    with open(FULL, "w", encoding="utf-8") as full:
        return _run(args, cwd, full)


def _closed(args: list[str], cwd: Path) -> tuple[int, str]:
    """The command with its output a pipe that nobody reads: closed before its first line
    (closed later, the pipe's buffer could take everything the command prints)."""
    proc = subprocess.Popen([*CLI, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    return proc.wait(timeout=300), err


def test_output_on_a_full_disk_is_said_in_words(tmp_path: Path) -> None:
    result = _full(["validate", "--ruleset", "legacy"], tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == "error: the output cannot be written: the disk is full"


def test_play_keeps_the_finished_game_when_its_result_cannot_be_printed(tmp_path: Path) -> None:
    args = ["play", "-r", "legacy", "-s", "random", "-s", "random", "--seed", "3", "-q", "--save", "game.json"]
    result = _full(args, tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "the game is saved to game.json" in result.stderr and "the disk is full" in result.stderr
    shown = _run(["replay", "game.json"], tmp_path, subprocess.PIPE)
    assert shown.returncode == 0 and "final scores:" in shown.stdout


def test_play_keeps_the_game_so_far_when_its_log_is_closed(tmp_path: Path) -> None:
    code, err = _closed(["play", "-r", "legacy", "-s", "random", "-s", "random", "--save", "game.json"], tmp_path)
    assert code == 1 and "Traceback" not in err
    assert "its output cannot be written; saved to game.json" in err
    data = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert data["seats"] == ["random", "random"]  # `legacies resume` continues it
    resumed = _run(["resume", "game.json", "-q"], tmp_path, subprocess.PIPE)
    assert resumed.returncode == 0 and "winner:" in resumed.stdout


@pytest.mark.parametrize("closed", [False, True], ids=["full disk", "closed pipe"])
def test_simulate_writes_its_report_when_its_summary_cannot_be_printed(tmp_path: Path, closed: bool) -> None:
    args = ["simulate", "-r", "legacy", "--games", "10", "--out", "runs"]
    if closed:
        code, err = _closed(args, tmp_path)
    else:
        result = _full(args, tmp_path)
        code, err = result.returncode, result.stderr
    assert code == 1 and "Traceback" not in err
    assert "the summary cannot be printed; the report is written" in err
    assert json.loads((tmp_path / "runs" / "report.json").read_text(encoding="utf-8"))["games"] == 10
