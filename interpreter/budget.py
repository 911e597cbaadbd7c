"""What one run of the rules may do: the step budget, charged with the work a step does,
how deep effects may run inside each other, how much a game may keep (its log, its
timed modifiers), and a wall-clock deadline that a check gives the games it runs.

The budget (`limits.step_budget`) is spent two ways, each up to the whole budget: the
frames count their steps (vm.State._step_frames), and a statement or expression whose
work grows with a collection charges that work here (`spend`): a walk over a collection
(`where`, `count of`'s filters, `total`, `ordered by`, selections, `is in` a list), a
shuffle, the pieces moved at once, the options of a choice, a straight-through loop.
One charge per walk (its length), never a call per member, so the hot path pays one
addition and one comparison. Work is charged when it is done: a definition's result
remembered is not charged again (the generated code remembers more than the closures,
so it may spend less for the same game).

A run is what happens between two real decisions: `State.run` and `State.answer` start
the budget afresh, and the decisions of a seat the rules run (`automated`) are answered
within the run that asked them, on the same budget (at most MAX_AUTOMATED_ANSWERS of
them), so a loop of such decisions stops as any other loop does. An expression read
outside a run (a score, a bot's evaluation, a screen) is charged too, and starts afresh
whenever the state is idle (`State.frozen`).

A deadline (`Deadline`, set on a state by `Game.new_state`) is looked at every POLL
steps, at no cost when none is set: the checks that run content (`legacies validate`'s
setup check, scenario tests, `legacies try`) stop there with DeadlinePassed, located at
the statement running.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import BudgetExceeded, ContentError, InternalError

if TYPE_CHECKING:
    from .vm import State

POLL = 1 << 16
"""Steps between two looks at the clock when a deadline is set."""

MAX_DEPTH = 2_000
"""The most frames on the stack at once: effects running inside each other through
procedures, `play`, triggers and hooks (the deepest a shipped game goes is under 20)."""

MAX_AUTOMATED_ANSWERS = 100_000
"""The most decisions of seats the rules run answered in one run (between two decisions
of players who decide)."""

MAX_LOG_LINES = 200_000
"""The most lines a game's log holds (a shipped game writes under 2,000)."""

MAX_TIMED = 10_000
"""The most timed modifiers (`until EVENT: ...`) waiting at once."""


@dataclass(frozen=True)
class Deadline:
    """A moment (time.monotonic) by which the runs of a check must be done, and what set it."""

    at: float
    seconds: float
    what: str

    @classmethod
    def after(cls, seconds: float, what: str) -> "Deadline":
        return cls(time.monotonic() + seconds, seconds, what)

    def passed(self) -> bool:
        return time.monotonic() > self.at


class DeadlinePassed(InternalError):
    """A check's deadline passed while the rules ran (the message says which check)."""


def deadline_passed(deadline: Deadline) -> DeadlinePassed:
    return DeadlinePassed(f"stopped at {deadline.what}'s deadline of {deadline.seconds:g} s: the rules were still "
                          "running (a loop that does too much, or a game that does not end)")


def walked(st: "State", items: Any) -> Any:
    """`items`, their walk charged to the step budget (`spend`, written out: the closures,
    selections and generated code call this for every walk over a collection)."""
    st.spent += len(items)
    if st.spent > st.limit:
        over(st)
    return items


def spend(st: "State", steps: int) -> None:
    """Charge `steps` of work to the run's budget."""
    st.spent += steps
    if st.spent > st.limit:
        over(st)


def over(st: "State") -> None:
    """The charge passed the state's limit: the budget is spent, or it is time to look at
    the clock (a deadline is set)."""
    budget = st.game.step_budget
    if st.spent > budget:
        raise BudgetExceeded(f"an effect used more than {budget:,} steps for one decision (a loop that does too "
                             "much, or walks over large collections inside a loop)")
    if st.deadline is not None and st.deadline.passed():
        raise deadline_passed(st.deadline)
    st.limit = budget if st.deadline is None else min(budget, st.spent + POLL)


def fresh(st: "State") -> None:
    """Start the budget afresh (a new run, or a read while the state is idle)."""
    st.spent = 0
    st.limit = st.game.step_budget if st.deadline is None else min(st.game.step_budget, POLL)


def log_full(limit: int) -> ContentError:
    return ContentError(f"the game's log is full ({limit:,} lines): a loop writes to it without end")


def too_deep(st: "State") -> ContentError:
    return ContentError(f"more than {MAX_DEPTH:,} effects running one inside another (a procedure that runs "
                        "itself, a trigger that announces its own event, or a card that plays itself, with "
                        "nothing to stop it)")


def check_depth(st: "State") -> None:
    """Before an effect starts inside the running one (a procedure, `play`, a trigger,
    a hook): the stack must not pass MAX_DEPTH."""
    if len(st.frames) >= MAX_DEPTH:
        raise too_deep(st)
