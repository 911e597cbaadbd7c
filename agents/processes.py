"""Worker processes for `soak` and `simulate`: no more than the machine bears, quiet
under Ctrl-C, and gone with their parent.

- `workers_refused(n)`: why `--workers n` is too many for this machine (None when it is
  not): at most WORKERS_PER_CORE a core (more only share the cores) and no more than the
  free memory holds at WORKER_MB each.
- `in_order(pool, f, tasks)`: `f(*task)` for each task, results in the tasks' order, with
  only a few tasks submitted ahead (a run of millions of games holds a few futures, and
  Ctrl-C has little to cancel).
- `worker_pool(n)`: a process pool whose workers ignore Ctrl-C (the terminal sends it to
  every process of the command; the parent alone decides what it means) and end when
  their parent ends, however it ends (SIGKILL too): on Linux the kernel sends them
  SIGKILL (PR_SET_PDEATHSIG), elsewhere a thread in each worker sees its parent change
  within a second. When the `with` block is left by an exception (Ctrl-C's
  KeyboardInterrupt in the parent) queued tasks are cancelled and the workers are
  stopped at once, not after the tasks they hold.
- `compiled_kept()`: while games already compiled are played, what is alive (the compiled
  games) is left out of the cyclic collector's walks.
"""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_all_start_methods, get_context
from typing import Any

WORKERS_PER_CORE = 2
AHEAD_PER_WORKER = 4  # tasks submitted ahead of the one awaited, per worker (enough to keep each busy)
WORKER_MB = 150  # what a worker may grow to playing the largest shipped ruleset (about 60 MB measured)
_PR_SET_PDEATHSIG = 1


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def free_memory_mb() -> int | None:
    """Memory available to new processes, in MB (None when the system does not say)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1024 * 1024)
    except (AttributeError, ValueError, OSError):
        return None


def workers_refused(workers: int, option: str = "--workers") -> str | None:
    """Why `workers` processes are too many for this machine, in words (`option` is the
    command-line option that asked for them); None if they fit."""
    count = cores()
    most = count * WORKERS_PER_CORE
    if workers > most:
        return (f"{option} {workers}: this machine has {count} core{'s' if count != 1 else ''}; at most {most} "
                f"workers ({WORKERS_PER_CORE} a core: more would only share the cores)")
    memory = free_memory_mb()
    if memory is not None and workers > max(1, memory // WORKER_MB):
        return (f"{option} {workers}: {memory:,} MB of memory is free, enough for {max(1, memory // WORKER_MB)} "
                f"workers of about {WORKER_MB} MB")
    return None


@contextmanager
def compiled_kept() -> Iterator[None]:
    """Play games of compiled Games in the block: every object alive when it starts (the
    compiled games, their rulesets) is left out of the cyclic collector's walks
    (`gc.freeze`) and given back to it when the block ends (`gc.unfreeze`). The states a
    run makes and drops (undo checkpoints, a search's copies) hold cycles through their
    frames, so full collections come every few games, and each walked the whole compiled
    game again: about 15% of a run of Legacies games (measured). Nothing is lost: an object
    left out is collected as before once given back; freezing and giving back cost O(1)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of `workers` processes (forked where the system can: they inherit what the
    parent compiled), stopped with the parent; see the module's docstring."""
    method = "fork" if "fork" in get_all_start_methods() else "spawn"
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context(method), initializer=_worker_started,
                               initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        stop(pool)
        raise
    pool.shutdown(wait=True)


def in_order(pool: ProcessPoolExecutor, function: Callable[..., Any], tasks: Iterable[tuple[Any, ...]],
             ahead: int) -> Iterator[Any]:
    """`function(*task)` for every task, on `pool`, results in the tasks' order; at most
    `ahead` tasks are submitted and not yet handed back (the tasks are taken from the
    iterable only as they are submitted)."""
    pending: deque[Future[Any]] = deque()
    for task in tasks:
        pending.append(pool.submit(function, *task))
        if len(pending) >= max(1, ahead):
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and end the workers now (the games they hold are dropped)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:  # (it shuts the pool down too)
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())  # before 3.14: the pool's own list
    pool.shutdown(wait=False, cancel_futures=True)  # (which forgets that list)
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + 2
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()


def _worker_started(parent: int) -> None:
    """In each worker, first: Ctrl-C is the parent's to handle, and the worker ends with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the worker could ask
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="legacies-parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)  # orphaned: nobody will read what this worker makes
