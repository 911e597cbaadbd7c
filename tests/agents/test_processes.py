"""Signals and processes (issue 22, part 3): Ctrl-C during `soak --workers 2` and
`simulate --workers 2` stops within seconds with the games done so far summarised;
workers end when their parent is killed; `--workers` is bounded by the machine;
`--think` is a finite number of seconds with a maximum. The commands run as a user
runs them: a process of their own, in a process group of their own, as a terminal
sends Ctrl-C to every process of the command."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.agents import processes
from legacies.agents.bots import SearchBot
from legacies.cli.main import app

runner = CliRunner()
pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups")
CLI = [sys.executable, "-c", "from legacies.cli.main import app; app()"]


def _start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    """The command, its standard error (the progress bar) going to cwd/stderr."""
    return subprocess.Popen([*CLI, *args], cwd=cwd, start_new_session=True, text=True, stdout=subprocess.PIPE,
                            stderr=open(cwd / "stderr", "w", encoding="utf-8"),  # noqa: SIM115 - the child's
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _group(pid: int) -> list[str]:
    """The live (not zombie) processes of a process group."""
    out = subprocess.run(["ps", "-o", "pid=,stat=", "-g", str(pid)], capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.split() and not line.split()[1].startswith("Z")]


def _wait_for_workers(proc: subprocess.Popen[str], cwd: Path, seconds: float = 60) -> None:
    """Until the command's two workers run (three processes in its group)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if len(_group(proc.pid)) >= 3:
            return
        time.sleep(0.2)
    raise AssertionError((cwd / "stderr").read_text(encoding="utf-8")[-500:])


@pytest.mark.parametrize("command", [["soak", "--games", "2000", "--ruleset", "legacy"],
                                     ["simulate", "--ruleset", "legacy", "--games", "20000"]])
def test_ctrl_c_stops_the_workers_within_seconds_and_summarises(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "report.json").write_text("{}", encoding="utf-8")
    proc = _start([*command, "--workers", "2", "--out", str(tmp_path / "out")], tmp_path)
    _wait_for_workers(proc, tmp_path)
    time.sleep(1.5)
    stopped = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert time.monotonic() - stopped < 5, "Ctrl-C must stop the run within seconds"
    assert proc.returncode == 130
    assert not _group(proc.pid), "no worker outlives the command"
    if command[0] == "soak":
        assert out.startswith("interrupted: ") and "not played" in out
    else:
        assert "wins" in out  # the games done so far, summarised
        assert (tmp_path / "out" / "report.json").read_text(encoding="utf-8") == "{}"  # never replaced by a part


def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    proc = _start(["soak", "--games", "2000", "--ruleset", "legacy", "--workers", "2", "--out", str(tmp_path)],
                  tmp_path)
    _wait_for_workers(proc, tmp_path)
    os.kill(proc.pid, signal.SIGKILL)  # the parent only, as `kill -9 PID` does
    proc.wait(timeout=10)
    deadline = time.monotonic() + 5
    while _group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _group(proc.pid)
    for pid in left:
        os.kill(int(pid), signal.SIGKILL)
    assert not left, "workers outlived their parent"


def test_workers_are_bounded_by_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    assert processes.workers_refused(1) is None and processes.workers_refused(2) is None
    too_many = processes.cores() * processes.WORKERS_PER_CORE + 1
    assert "core" in (processes.workers_refused(too_many) or "")
    for command in (["soak", "--games", "5"], ["simulate", "-r", "legacy", "--games", "5", "--out", "unused"]):
        result = runner.invoke(app, [*command, "--workers", "2000"])
        assert result.exit_code == 2 and "--workers 2000: this machine has" in result.output
    monkeypatch.setattr(processes, "free_memory_mb", lambda: 200)
    assert "200 MB of memory is free, enough for 1 workers" in (processes.workers_refused(2) or "")


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "0", "601", "1e400"])
def test_think_is_a_finite_number_of_seconds_with_a_maximum(value: str, tmp_path: Path) -> None:
    for command in (["play", "-r", "legacy", "-s", "search", "-s", "random", "-q"], ["resume", str(tmp_path / "s")],
                    ["simulate", "-r", "legacy", "-s", "search", "-n", "1", "--out", str(tmp_path / "run")]):
        result = runner.invoke(app, [*command, f"--think={value}"])
        assert result.exit_code == 2, result.output
        assert "above 0 and at most 600" in " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())
    with pytest.raises(ValueError):
        SearchBot(think=float(value))
    assert SearchBot(think=600).think == 600


@pytest.mark.parametrize("command", [["soak"], ["simulate", "-r", "legacy", "--out", "unused"]])
@pytest.mark.parametrize("games", ["99999999999999999999", "0"])
def test_games_are_bounded_before_anything_is_made(command: list[str], games: str) -> None:
    """`--games 99999999999999999999` made the list of its tasks first: a MemoryError
    traceback after 20 s. A number of games is one a run can hold."""
    started = time.monotonic()
    result = runner.invoke(app, [*command, "--games", games])
    assert result.exit_code == 2, result.output
    text = " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())
    assert f"takes 1 to {'10,000,000' if command == ['soak'] else '100,000'} games, not {games}" in text
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("players", ["99999999999999999999", "1000000000", "-3"])
def test_simulate_refuses_a_table_the_ruleset_cannot_seat_before_making_it(players: str) -> None:
    """--players 99999999999999999999 was an OverflowError traceback (a list of that many
    seats), a billion a MemoryError."""
    result = runner.invoke(app, ["simulate", "-r", "legacy", "--games", "2", "--out", "unused", "--players", players])
    assert result.exit_code == 2 and f"Legacy (card game) is for 2-6 players, not {players}" in result.output


def test_tasks_are_handed_to_workers_a_few_ahead_and_come_back_in_order() -> None:
    made: list[int] = []

    def tasks() -> Iterator[tuple[int]]:
        for n in range(40):
            made.append(n)
            yield (n,)

    with processes.worker_pool(2) as pool:
        results = processes.in_order(pool, abs, tasks(), ahead=4)
        assert next(results) == 0 and len(made) == 4  # taken from the iterable only as submitted
        assert list(results) == list(range(1, 40))


def test_compiled_kept_leaves_the_objects_alive_out_of_collections_and_gives_them_back() -> None:
    import gc

    from legacies.agents.processes import compiled_kept

    assert gc.get_freeze_count() == 0
    with compiled_kept():
        assert gc.get_freeze_count() > 0  # what was alive is out of the collector's walks
    assert gc.get_freeze_count() == 0
    try:
        with compiled_kept():
            raise KeyError("a failing game")
    except KeyError:
        pass
    assert gc.get_freeze_count() == 0  # given back however the block ends
