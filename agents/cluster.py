"""Tasks on a Dask distributed scheduler (`legacies simulate --cluster ADDRESS`), with a
peer that may be slow, absent, not a scheduler at all, or lose its workers.

- The address is checked first: `[tcp|tls|ws|wss]://HOST:PORT` or `HOST:PORT`
  (`address_problem`: a usage error, never a traceback from deep in Dask).
- Nothing listening at the address is said at once (a TCP connection is tried first).
- Connecting has a deadline (CONNECT_SECONDS): a listener that accepts and never answers,
  or answers with anything but Dask's protocol (garbage that Dask reads as a frame
  length of exabytes), is said in words and nothing is sent. The connection is made on
  a thread of its own, so that the deadline holds whatever Dask waits for.
- While tasks run, the scheduler's workers are counted once a second; with none (at the
  start, or once every worker is gone) the run says "waiting for workers" and gives up
  after WAIT_SECONDS with none, with the number of tasks finished (ClusterLost). A worker
  lost mid-task is Dask's to handle: the scheduler gives its tasks to the other workers
  (up to `distributed.scheduler.allowed-failures` times, then the task fails: ClusterLost
  too). A task that raises is not run again (a game stopped by an internal error would
  stop again).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from legacies.dsl.errors import LegaciesError

CONNECT_SECONDS = 10.0
WAIT_SECONDS = 60.0
SAY_EVERY = 5.0  # seconds between two "waiting for workers" lines

_ADDRESS = re.compile(r"^(?:(?:tcp|tls|ws|wss)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}))"
                      r":(?P<port>\d{1,5})$")


class ClusterError(LegaciesError):
    """The run cannot use the cluster: an address that is not one, a peer that cannot be
    reached or is not a Dask scheduler (the address is wrong: `usage`), Dask missing."""

    def __init__(self, message: str, usage: bool = True):
        super().__init__(message)
        self.usage = usage


class ClusterLost(Exception):
    """The cluster went away while tasks ran: no worker for WAIT_SECONDS, a task whose
    workers kept dying, or the scheduler itself gone. `finished` tasks had ended."""

    def __init__(self, message: str, finished: int):
        super().__init__(message)
        self.finished = finished


def address_problem(address: str) -> str | None:
    """Why `address` is not a scheduler's address, in words (None when it is one)."""
    found = _ADDRESS.match(address)
    if found is None or not 0 < int(found.group("port")) < 65536:
        shown = address if len(address) <= 60 else address[:60] + "..."
        return (f"--cluster takes a Dask scheduler's address, tcp://HOST:PORT (tcp://10.0.0.5:8786) or HOST:PORT, "
                f"not `{shown}`")
    return None


def connect(address: str, seconds: float = CONNECT_SECONDS) -> Any:
    """A dask.distributed Client of the scheduler at `address`, within `seconds`; raises
    ClusterError when Dask is missing or the peer does not answer as a scheduler."""
    problem = address_problem(address)
    if problem:
        raise ClusterError(problem)
    try:
        from dask.distributed import Client
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'legacies[cluster]'") from None
    _knock(address, seconds)
    outcome: dict[str, Any] = {}

    def attempt() -> None:
        try:
            outcome["client"] = Client(address, timeout=f"{seconds}s")
        except BaseException as err:  # noqa: BLE001 - a foreign peer: whatever it made Dask raise is said below
            outcome["error"] = err

    thread = threading.Thread(target=attempt, name="legacies-cluster-connect", daemon=True)
    thread.start()
    thread.join(seconds + 2.0)
    if thread.is_alive():  # connected, but no answer to Dask's greeting: left to the daemon thread
        raise ClusterError(f"no answer from {address} within {seconds:.0f} s: something is listening there, but it "
                           "is not answering as a Dask scheduler does (is it `dask scheduler`?)")
    err = outcome.get("error")
    if isinstance(err, OSError):  # refused, unreachable, timed out (Dask's CommClosedError is one too)
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {err}")
    if err is not None:  # garbage: a frame length of exabytes (MemoryError), bytes that do not decode...
        raise ClusterError(f"{address} is not a Dask scheduler: what it sent is not Dask's protocol "
                           f"({type(err).__name__}{': ' + str(err)[:100] if str(err) else ''})")
    return outcome["client"]


def _knock(address: str, seconds: float) -> None:
    """Raise ClusterError at once when nothing listens at `address`: Dask retries a refused
    connection until its whole deadline, so a mistyped port took 10 s to be said."""
    found = _ADDRESS.match(address)
    assert found is not None  # address_problem passed it
    try:
        socket.create_connection((found.group("host").strip("[]"), int(found.group("port"))), timeout=seconds).close()
    except OSError as err:  # refused, no such host, unreachable, timed out
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {err.strerror or err}") from None


def run_tasks(address: str, function: Callable[..., Any], arguments: Sequence[tuple[Any, ...]],
              take: Callable[[Any], None], say: Callable[[str], None] | None = None,
              connect_seconds: float = CONNECT_SECONDS, wait_seconds: float = WAIT_SECONDS) -> int:
    """Run `function(*args)` for each of `arguments` on the cluster at `address`, handing
    each result to `take` as it finishes (in any order); returns the most workers the
    scheduler had while they ran. Raises ClusterError (cannot start), ClusterLost (see
    the module's docstring) or what a task raised; Ctrl-C cancels what is left."""
    from dask.distributed import wait
    from distributed.scheduler import KilledWorker

    say = say or (lambda line: None)
    say(f"connecting to the Dask scheduler at {address} (giving up after {connect_seconds:.0f} s)")
    client = connect(address, connect_seconds)
    finished = 0
    futures: list[Any] = []
    try:
        workers = _workers(client, address, finished)
        futures = client.map(function, *zip(*arguments), pure=False)
        pending = set(futures)
        alone_since: float | None = None
        said = 0.0
        while pending:
            try:
                # Dask's wait uses the process's current client: ours, not another the
                # caller made (its loop may differ: a future's event is bound to one loop)
                with client.as_current():
                    wait(list(pending), timeout=1.0, return_when="FIRST_COMPLETED")
            except TimeoutError:  # Dask's wait raises when nothing finished in time
                pass
            done = [f for f in futures if f in pending and f.done()]  # in submission order
            pending.difference_update(done)
            for future in done:
                try:
                    result = future.result()
                except KilledWorker as err:
                    raise ClusterLost(f"workers kept dying while running a task ({err}); {finished} of "
                                      f"{len(futures)} tasks had finished", finished) from None
                take(result)
                finished += 1
            if not pending:
                break
            now = time.monotonic()
            joined = _workers(client, address, finished)
            workers = max(workers, joined)
            if joined > 0:
                alone_since = None
                continue
            alone_since = alone_since or now
            left = wait_seconds - (now - alone_since)
            if left <= 0:
                raise ClusterLost(f"the Dask scheduler at {address} has had no worker for {wait_seconds:.0f} s: gave "
                                  f"up with {finished} of {len(futures)} tasks finished", finished)
            if now - said >= SAY_EVERY:
                said = now
                say(f"waiting for workers at {address}: none connected ({finished} of {len(futures)} tasks done; "
                    f"giving up in {left:.0f} s)")
        try:  # (all done within the first second: the workers that joined meanwhile count too)
            return max(workers, _workers(client, address, finished))
        except ClusterLost:  # the scheduler went away once everything was done: the run is complete
            return workers
    finally:
        if futures:
            try:
                client.cancel(futures)
            except OSError:  # the scheduler is gone already
                pass
        client.close(timeout=2)


def _workers(client: Any, address: str, finished: int) -> int:
    """How many workers the scheduler has now; a scheduler that stops answering is lost."""
    try:
        return len(client.scheduler_info().get("workers", {}))
    except OSError as err:
        raise ClusterLost(f"lost the Dask scheduler at {address}: {err}", finished) from None
