"""The machine that runs compiled effects: game state, activations and frames.

Control flow lives in an explicit stack of small frame objects instead of Python's
call stack, so a game can stop on a Decision anywhere (mid-effect, mid-turn) and still
be cloned, compared and saved: a clone copies plain lists and a few frames. Every
frame step spends from the step budget (starlark-go's habit): no effect runs forever.
"""

from __future__ import annotations

from typing import Any, Callable

from .decisions import Decision
from .errors import BudgetExceeded

Value = Any


class Activation:
    """One running effect: who it belongs to (`me`), the item it comes from (`this`),
    its local names (`env`) and the current `it` of a filter."""

    __slots__ = ("st", "me", "this", "env", "it")

    def __init__(self, st: "State", me: int, this: int = -1, env: dict | None = None):
        self.st = st
        self.me = me
        self.this = this
        self.env = env if env is not None else {}
        self.it: Value = None

    def copy_to(self, st: "State") -> "Activation":
        a = Activation(st, self.me, self.this, dict(self.env))
        a.it = self.it
        return a


class Frame:
    __slots__ = ("act",)
    act: Activation

    def step(self, st: "State") -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def resume(self, st: "State", value: Value) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def clone(self, acts: dict[int, Activation], st: "State") -> "Frame":
        cls = type(self)
        new = object.__new__(cls)
        for slot in _slots(cls):
            val = getattr(self, slot)
            setattr(new, slot, val[:] if type(val) is list else val)
        old = self.act
        key = id(old)
        if key not in acts:
            acts[key] = old.copy_to(st)
        new.act = acts[key]
        return new


Instr = Callable[["State", Activation], None]

_SLOTS: dict[type, tuple[str, ...]] = {}


def _slots(cls: type) -> tuple[str, ...]:
    """Every data slot of a frame class but `act` (cached: clone is on the hot path)."""
    found = _SLOTS.get(cls)
    if found is None:
        found = tuple(s for c in cls.__mro__ for s in getattr(c, "__slots__", ()) if s != "act")
        _SLOTS[cls] = found
    return found


class BlockFrame(Frame):
    __slots__ = ("instrs", "i")

    def __init__(self, instrs: tuple, act: Activation):
        self.instrs = instrs
        self.i = 0
        self.act = act

    def clone(self, acts: dict[int, Activation], st: "State") -> "Frame":
        new = BlockFrame(self.instrs, self.act)
        new.i = self.i
        key = id(self.act)
        act = acts.get(key)
        if act is None:
            act = acts[key] = self.act.copy_to(st)
        new.act = act
        return new

    def step(self, st: "State") -> None:
        i = self.i
        if i >= len(self.instrs):
            st.frames.pop()
            return
        self.i = i + 1
        self.instrs[i](st, self.act)


class State:
    """All that changes during a game, as plain lists; see interpreter/game.py for the API."""

    __slots__ = ("game", "counters", "zones", "loc", "turn_order", "active", "timed", "rng", "frames",
                 "pending", "history", "log", "over", "turns", "steps", "revealed", "flags")

    def __init__(self, game: Any):
        self.game = game
        self.counters: list[int] = []
        self.zones: list[list[int]] = []
        self.loc: list[int] = []
        self.turn_order: list[int] = []
        self.active = -1
        self.timed: list[tuple] = []
        self.rng = 0
        self.frames: list[Frame] = []
        self.pending: Decision | None = None
        self.history: list[int] = []
        self.log: list[str] = []
        self.over = False
        self.turns = 0
        self.steps = 0
        self.revealed: set[int] = set()
        self.flags: dict[str, Value] = {}

    # ------------------------------------------------------------------ running
    def run(self) -> None:
        """Step frames until a decision is pending or nothing is left to run."""
        frames = self.frames
        budget = self.game.spec.limits.step_budget
        steps = 0
        while frames and self.pending is None:
            frames[-1].step(self)
            steps += 1
            if steps > budget:
                raise BudgetExceeded(f"an effect used more than {budget} steps for one decision")
        self.steps += steps
        if not frames and self.pending is None:
            self.over = True

    def ask(self, decision: Decision) -> None:
        self.pending = decision

    # ------------------------------------------------------------------ copying
    def clone(self, share_logs: bool = False) -> "State":
        """An independent copy. `share_logs` (for a transaction's backup) shares the
        append-only history and log instead of copying them: `restore` cuts them back."""
        new = State.__new__(State)
        new.game = self.game
        new.counters = self.counters[:]
        new.zones = [z[:] for z in self.zones]
        new.loc = self.loc[:]
        new.turn_order = self.turn_order[:]
        new.active = self.active
        new.timed = self.timed[:]
        new.rng = self.rng
        acts: dict[int, Activation] = {}
        new.frames = [f.clone(acts, new) for f in self.frames]
        new.pending = self.pending
        new.history = self.history if share_logs else self.history[:]
        new.log = self.log if share_logs else self.log[:]
        new.flags = dict(self.flags)
        if share_logs:
            new.flags["__marks"] = (len(self.history), len(self.log))
        new.over = self.over
        new.turns = self.turns
        new.steps = self.steps
        new.revealed = set(self.revealed)
        if not share_logs:
            new.flags = dict(self.flags)
        return new

    def restore(self, other: "State") -> None:
        """Become exactly `other` (used to undo a refused action)."""
        for slot in State.__slots__:
            setattr(self, slot, getattr(other, slot))
        marks = self.flags.pop("__marks", None)
        if marks is not None:  # `other` shared the append-only lists: cut them back
            del self.history[marks[0]:]
            del self.log[marks[1]:]
        for f in self.frames:
            f.act.st = self
