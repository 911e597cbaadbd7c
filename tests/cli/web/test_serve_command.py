"""`legacies serve` as a person runs it (issue 31): it prints one secret link per person's
seat on the loopback address; the game is kept in --save after every decision; the server
killed and started again with --resume continues the game at new links, the old ones
refused with 403."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from typer.testing import CliRunner
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from legacies.cli.main import app


def _start(*args: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """The server in a new process; the links it prints (player -> link), read as printed."""
    proc = subprocess.Popen([sys.executable, "-c", "from legacies.cli.main import app; app()", "serve", "--port", "0",
                             *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    links: dict[str, str] = {}
    for line in proc.stdout:
        found = re.match(r"\s+(\S+): (http://\S+/t/\S+)$", line)
        if found:
            links[found.group(1)] = found.group(2)
        if line.startswith("Ctrl-C"):
            return proc, links
    raise AssertionError(f"the server printed no links: {proc.stderr.read() if proc.stderr else ''}")


def _messages(link: str) -> Iterator[dict[str, Any]]:
    with connect(link.replace("http://", "ws://") + "/ws", open_timeout=60) as ws:
        ws.send(json.dumps({"type": "view"}))
        while True:
            yield json.loads(ws.recv(timeout=120))


def _answer(link: str, times: int) -> int:
    """Answer the seat's decisions `times` times (option 0); the decision asked after them."""
    with connect(link.replace("http://", "ws://") + "/ws", open_timeout=60) as ws:
        ws.send(json.dumps({"type": "view"}))
        answered, last = 0, -1
        while True:
            m = json.loads(ws.recv(timeout=120))
            d = m["view"]["decision"] if m["type"] == "view" else None
            if not d or not d["yours"] or d["number"] <= last:
                continue
            if answered == times:
                return int(d["number"])
            ws.send(json.dumps({"type": "answer", "decision": d["number"], "takebacks": d["takebacks"], "option": 0}))
            answered, last = answered + 1, d["number"]


def _saved_decisions(save: Path, wanted: int) -> int:
    """The decisions in the save once it holds `wanted` (the server writes it after the bots'
    moves are sent: waited for, up to a minute)."""
    deadline = time.monotonic() + 60
    found = -1
    while time.monotonic() < deadline:
        if save.is_file():
            found = len(json.loads(save.read_text(encoding="utf-8"))["decisions"])
            if found == wanted:
                return found
        time.sleep(0.05)
    return found


def test_serve_prints_a_link_per_person_and_keeps_the_game_across_a_kill(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    proc, links = _start("--ruleset", "gears-of-time", "--seat", "human:Ann", "--seat", "random", "--seed", "1",
                         "--save", str(save))
    try:
        assert list(links) == ["Ann"]
        link = links["Ann"]
        assert link.startswith("http://127.0.0.1:")  # the loopback address unless asked
        token = link.rsplit("/", 1)[1]
        assert len(token) >= 32
        at = _answer(link, 3)
        assert _saved_decisions(save, at) == at
    finally:
        proc.send_signal(signal.SIGKILL)  # killed: nothing more is written
        proc.wait(30)
    proc, again = _start("--resume", str(save))
    try:
        new = again["Ann"]
        assert new != link
        first = next(m for m in _messages(new) if m["type"] == "view" and m["view"]["decision"]
                     and m["view"]["decision"]["yours"])
        assert first["view"]["decision"]["number"] == at  # the game goes on where it was
        old = new.rsplit("/", 1)[0] + "/" + token
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(old + "/view", timeout=60)
        assert refused.value.code == 403 and refused.value.read() == b"forbidden"
        with pytest.raises(InvalidStatus) as closed:  # the old link's WebSocket: 403 before any message
            connect(old.replace("http://", "ws://") + "/ws", open_timeout=60)
        assert closed.value.response.status_code == 403
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert "saved to" in err and "serve --resume" in err


def test_serve_refuses_a_table_with_no_person() -> None:
    result = CliRunner().invoke(app, ["serve", "--ruleset", "legacy", "--seat", "random", "--seat", "random"])
    assert result.exit_code == 2 and "no person is seated" in result.output


def test_serve_listens_on_the_loopback_address_by_default() -> None:
    shown = CliRunner().invoke(app, ["serve", "--help"], terminal_width=200).output
    assert "127.0.0.1" in shown and "--resume" in shown and "--save" in shown


@pytest.mark.slow
def test_a_ctrl_c_the_moment_serve_says_so_stops_it(tmp_path: Path) -> None:
    """Ctrl-C sent as soon as the server says "Ctrl-C stops the server" stops it, however
    soon and however it was started: four servers at once on a cold cache, two of them
    started with Ctrl-C ignored (as a script's background job is), each sent SIGINT the
    moment it says so; all stop, and say where the game is kept. (uvicorn and asyncio put
    their handlers in place only as the server started: such a Ctrl-C ended the process
    before its last line (exit 130), or, started ignored, reached no handler and the
    server went on serving.)"""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LEGACIES_CACHE_DIR": str(tmp_path / "cache")}

    def started(n: int) -> subprocess.Popen[str]:
        disposition = signal.SIG_IGN if n % 2 else signal.SIG_DFL
        return subprocess.Popen([sys.executable, "-c", "from legacies.cli.main import app; app()", "serve", "--port", "0",
                                 "--ruleset", "legacy", "--seat", "human:Ann", "--seat", "random", "--seed", str(n),
                                 "--save", str(tmp_path / f"game{n}.json")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, disposition))

    procs = [started(n) for n in range(4)]
    stopped: list[int | None] = []
    said = []
    try:
        for proc in procs:
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("Ctrl-C"):
                    proc.send_signal(signal.SIGINT)
                    break
        for proc in procs:
            try:
                said.append(proc.communicate(timeout=120)[1])
                stopped.append(proc.returncode)
            except subprocess.TimeoutExpired:
                stopped.append(None)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    assert stopped == [0, 0, 0, 0]
    assert all("the game is saved to" in err for err in said), said


def test_serve_deals_from_a_seed_nobody_can_guess_unless_told_one(tmp_path: Path) -> None:
    """A hostile tester's trial: every served game was dealt from seed 0, so a player who
    played the game out on their own machine from the public decisions read every hidden
    hand. Without --seed the seed is one nobody can guess (kept in the save, which only its
    owner can read); a seed given is used, with a warning of what it tells."""
    seeds, warned = [], []
    for n, given in enumerate(([], [], ["--seed", "3"])):
        save = tmp_path / f"game{n}.json"
        proc, links = _start("--ruleset", "legacy", "--seat", "human:Ann", "--seat", "random", "--save", str(save),
                             *given)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert "saved to" in err
        seeds.append(json.loads(save.read_text(encoding="utf-8"))["seed"])
        warned.append("whoever knows the seed can work out every hidden card" in err)
        if os.name == "posix":
            assert save.stat().st_mode & 0o077 == 0  # the save tells every hidden card: its owner's alone
    assert seeds[0] != seeds[1] and 0 not in seeds[:2] and seeds[2] == 3
    assert warned == [False, False, True]
