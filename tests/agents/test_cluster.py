"""`simulate --cluster` against peers that misbehave (issue 22, part 4): an address that
is not one, a listener that never answers, one that sends garbage, a real Dask scheduler
with no worker, a worker that joins late and one that dies mid-run. Each ends in words
within a stated time, or in the same report as in one process."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from legacies.agents.cluster import ClusterError, address_problem, connect
from legacies.agents.report import build_report
from legacies.agents.simulate import Request, simulate
from legacies.cli.main import app

distributed = pytest.importorskip("dask.distributed")
RUN = Request("legacy", players=2, seats=("random", "random"), seed=3, games=40)
runner = CliRunner()


def local_cluster(**options: Any) -> Any:
    """A real local Dask cluster on 127.0.0.1. Dask starts its event loop in a thread and
    gives it 10 s; on a machine busy with other tests that start can time out (an
    AssertionError inside `LoopRunner`, before anything of ours runs): try again, twice."""
    for attempt in range(3):
        try:
            return distributed.LocalCluster(processes=True, host="127.0.0.1", dashboard_address=None, **options)
        except AssertionError:
            if attempt == 2:
                raise
            time.sleep(1)
    raise AssertionError("unreachable")


def numbers(sim: Any) -> dict[str, Any]:
    return {k: v for k, v in build_report(sim).items() if k != "run"}


@pytest.fixture(scope="module")
def one_process() -> dict[str, Any]:
    return numbers(simulate(RUN))


def _peer(answer: bool) -> Iterator[str]:
    """A listener on 127.0.0.1 that accepts and, with `answer`, sends garbage (a frame
    length of exabytes, then random bytes); else it never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if answer:
                try:
                    conn.sendall((2 ** 62).to_bytes(8, "little") * 4 + os.urandom(4096))
                except OSError:
                    pass

    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    server.close()
    for conn in held:
        conn.close()


@pytest.fixture
def silent_peer() -> Iterator[str]:
    yield from _peer(answer=False)


@pytest.fixture
def garbage_peer() -> Iterator[str]:
    yield from _peer(answer=True)


@pytest.mark.parametrize("address", ["not a url", "tcp://", "http://example.com", "tcp://host", "host:99999",
                                     "tcp://a b:8786", "x" * 10_000])
def test_an_address_that_is_not_one_is_a_usage_error(address: str) -> None:
    assert address_problem(address) is not None
    result = runner.invoke(app, ["simulate", "-r", "legacy", "--games", "2", "--cluster", address, "--out", "unused"])
    assert result.exit_code == 2 and "--cluster takes a Dask scheduler's address" in result.output
    assert not isinstance(result.exception, ValueError) and len(result.output) < 400


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "127.0.0.1:8786", "tls://sched.example.org:8786",
                                     "tcp://[::1]:8786"])
def test_scheduler_addresses_are_accepted(address: str) -> None:
    assert address_problem(address) is None


def test_a_listener_that_never_answers_is_said_within_the_deadline(silent_peer: str) -> None:
    started = time.monotonic()
    with pytest.raises(ClusterError, match="no answer from .* within 1 s"):
        connect(silent_peer, seconds=1)
    assert time.monotonic() - started < 6


def test_a_peer_sending_garbage_is_not_a_scheduler_and_no_memory_error(garbage_peer: str) -> None:
    started = time.monotonic()
    with pytest.raises(ClusterError, match="is not a Dask scheduler") as caught:
        connect(garbage_peer, seconds=3)
    assert caught.value.usage and time.monotonic() - started < 8


def test_a_scheduler_with_no_worker_waits_says_so_then_gives_up_with_what_finished() -> None:
    said: list[str] = []
    with local_cluster(n_workers=0) as cluster:
        started = time.monotonic()
        sim = simulate(RUN, cluster=cluster.scheduler_address, say=said.append, cluster_wait=2)
    assert time.monotonic() - started < 20
    assert sim.stopped is not None and "no worker for 2 s" in sim.stopped and "0 of 4 tasks finished" in sim.stopped
    assert any("waiting for workers" in line for line in said) and not sim.records


def test_a_worker_that_joins_late_plays_every_game(one_process: dict[str, Any]) -> None:
    said: list[str] = []
    with local_cluster(n_workers=0, threads_per_worker=1) as cluster:
        threading.Timer(2.0, lambda: cluster.scale(1)).start()
        sim = simulate(RUN, cluster=cluster.scheduler_address, say=said.append, cluster_wait=60)
    assert sim.stopped is None and any("waiting for workers" in line for line in said)
    assert numbers(sim) == one_process
    assert sim.workers == 1 and sim.where.endswith("(1 workers)")  # the worker that played, not the none at the start


def test_the_games_of_a_worker_that_dies_are_played_by_another(one_process: dict[str, Any]) -> None:
    with local_cluster(n_workers=2, threads_per_worker=1) as cluster, distributed.Client(cluster) as client:
        pids = list(client.run(os.getpid).values())
        killed: list[int] = []

        def kill_one(done: int, total: int) -> None:
            if not killed:
                killed.append(pids[0])
                os.kill(pids[0], signal.SIGKILL)  # the nanny starts another; its tasks go elsewhere meanwhile

        sim = simulate(RUN, cluster=cluster.scheduler_address, progress=kill_one)
    assert killed and sim.stopped is None
    assert numbers(sim) == one_process


def test_the_command_says_when_it_waits_and_when_it_gives_up(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from legacies.agents import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "WAIT_SECONDS", 2.0)
    monkeypatch.setattr("legacies.agents.simulate.WAIT_SECONDS", 2.0)
    (tmp_path / "report.json").write_text("{}", encoding="utf-8")
    with local_cluster(n_workers=0) as cluster:
        result = runner.invoke(app, ["simulate", "-r", "legacy", "--games", "20", "--cluster",
                                     cluster.scheduler_address, "--out", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "waiting for workers" in result.output and "no worker for 2 s" in result.output
    assert "tasks finished; no game had finished: no report written" in result.output
    assert (tmp_path / "report.json").read_text(encoding="utf-8") == "{}"  # the old report is kept
