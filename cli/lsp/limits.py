"""What the language server gives one check of the running game: a time and a memory
limit. The static checks are bounded by the files' own limits (F005, Y006, E111); the
setup a check runs to its first decision (pipeline/validate.py's smoke check) runs the
content, whose budgets count steps, the work inside them and the size of numbers, not
seconds or bytes. An editor must never freeze or swell on a file being typed, so the
setup check is given SETUP_SECONDS (interpreter/budget.py's Deadline: the rules stop
there, E300 at the statement running), and in the server that run is made in a forked
child with a memory limit (RLIMIT_AS: what the server uses plus SETUP_MB), killed when it
passes that or SETUP_SECONDS + KILL_GRACE (what the deadline cannot stop); the check
then says so at the ruleset file (E300). Where processes cannot be forked (Windows) it
runs in the server, bounded by the deadline alone.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

SETUP_SECONDS = 10.0
KILL_GRACE = 2.0
SETUP_MB = 1024


class LimitPassed(Exception):
    """The run passed a limit (the message says which); the child was killed."""


def bounded(run: Callable[[], T], seconds: float | None = None, megabytes: int | None = None) -> T:
    """`run()` in a forked child within `seconds` and `megabytes` more memory than this
    process holds; its result comes back pickled (from this program's own child: never
    read from anywhere else). Raises LimitPassed; an exception in the child is raised
    here as LimitPassed too, with its words."""
    seconds = SETUP_SECONDS if seconds is None else seconds
    megabytes = SETUP_MB if megabytes is None else megabytes
    if not hasattr(os, "fork"):
        return run()
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, send, leave without running the parent's exit handlers
        os.close(readable)
        code = 0
        try:
            _limit_memory(megabytes)
            payload = pickle.dumps(("ok", run()))
        except MemoryError:
            payload = pickle.dumps(("memory", ""))
        except BaseException as err:  # noqa: BLE001 - said to the parent, which reports it as a check's problem
            payload, code = pickle.dumps(("error", f"{type(err).__name__}: {err}")), 1
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(writable, view):]
        finally:
            os._exit(code)
    os.close(writable)
    try:
        answer = _read_until(readable, time.monotonic() + seconds)
    finally:
        os.close(readable)
        _end(pid)
    if answer is None:
        raise LimitPassed(f"the setup did not reach its first decision within {seconds:.0f} s (the editor's limit)")
    kind, value = pickle.loads(answer)
    if kind == "memory":
        raise LimitPassed(f"the setup used more than {megabytes:,} MB of memory (the editor's limit)")
    if kind == "error":
        raise LimitPassed(f"the setup stopped: {value}")
    return value


def _read_until(fd: int, deadline: float) -> bytes | None:
    """Everything the child writes, or None when it is not done by the deadline (or
    dies without a word)."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks) or None
        chunks.append(chunk)


def _end(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _limit_memory(megabytes: int) -> None:
    try:
        import resource
    except ImportError:  # not a Unix: the deadline alone holds
        return
    held = _address_space()
    if held is None:
        return
    limit = held + megabytes * 1024 * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _address_space() -> int | None:
    """This process's address space in bytes (Linux; None elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None
