"""The setup check of `legacies validate`: compile the checked ruleset and set a game up,
at the smallest player count and seed 0, under the option values that change the
setup, taking the first option the rules allow at each decision until the setup is
done. What the checker cannot see (a runaway setup, a zone empty at the start, a list
read past its end when an option adds pieces) is reported at the statement that
failed, with the options that led there, never raised.

Which values change the setup is found by running it: an option the setup never read
cannot have changed it (a game is deterministic), so the search starts from the
defaults and tries other values only of the options a run read (a flag's other value;
a number's smallest, next and largest), alone and then together with the values that
made them read, skipping an assignment that agrees with an earlier run on everything
that run read. At most MAX_SETUPS setups per ruleset, all of them within SETUP_SECONDS
of wall-clock time (interpreter/budget.py's Deadline): past it, the setup running stops
where it is, said as E300 at that statement (or at the ruleset file), and no other setup
is tried."""

from __future__ import annotations

import copy
from typing import Any

from legacies.dsl.diagnostics import Diagnostic

MAX_SETUPS = 24
MAX_SETUP_DECISIONS = 400  # a setup that asks more is stopped here (its decisions are checked so far)
SETUP_SECONDS = 60.0  # every setup of one ruleset together (a shipped ruleset's take well under a second)


class _Reads(dict):
    """A game's options that remember which of them were read."""

    def __init__(self, values: dict[str, Any]):
        super().__init__(values)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)


def check_setup(spec: Any, label: str, seconds: float | None = None,
                what: str = "the setup check") -> list[Diagnostic]:
    """Every located failure of setting the game up (E300), one per failing statement;
    the setups run within `seconds` (SETUP_SECONDS unless given) from when the game is
    compiled, `what` naming the deadline where it stops them."""
    from legacies.interpreter.budget import Deadline
    from legacies.interpreter.errors import GameError, InternalError
    from legacies.interpreter.game import Game

    try:
        game = Game(spec, spec.min_players, codegen=False)  # the closures: compiled faster for a few setups
    except GameError as err:
        return [Diagnostic("E300", f"the game cannot be set up: {err}", 1, 1, file=label)]
    except InternalError as err:
        return [_located(err, {}, label)]
    deadline = Deadline.after(SETUP_SECONDS if seconds is None else seconds, what)
    out: list[Diagnostic] = []
    seen: set[tuple] = set()
    for options, failure in _failures(game, spec, deadline):
        d = _located(failure, {k: v for k, v in options.items() if v != spec.option_defaults.get(k)}, label)
        key = (d.file, d.line, d.column, failure.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _failures(game: Any, spec: Any, deadline: Any) -> list[tuple[dict[str, Any], Any]]:
    """(options, the InternalError) of each setup that failed; the search stops at the
    deadline."""
    from legacies.interpreter.budget import DeadlinePassed

    runs: list[tuple[dict[str, Any], set[str]]] = []
    queue: list[dict[str, Any]] = [dict(game.options)]
    failed: list[tuple[dict[str, Any], Any]] = []
    while queue and len(runs) < MAX_SETUPS:
        options = queue.pop(0)
        if any(all(options[k] == done[k] for k in read) for done, read in runs):
            continue  # the same setup as an earlier run: it read nothing this changes
        read, err = _set_up(game, options, deadline)
        runs.append((options, read))
        if err is not None:
            failed.append((options, err))
            if isinstance(err, DeadlinePassed):
                break
            continue
        for name in sorted(read):
            for value in _values(spec, name):
                if value != options[name]:
                    queue.append({**options, name: value})
    return failed


def _values(spec: Any, name: str) -> list[Any]:
    """The values of an option worth a setup: a flag's two; a number's smallest, next
    and largest (only its default when it has no bounds)."""
    kind, lo, hi = spec.option_rules.get(name, (None, None, None))
    default = spec.option_defaults[name]
    if kind == "flag" or type(default) is bool:
        return [False, True]
    if lo is None or hi is None:
        return [default]
    return sorted({lo, min(lo + 1, hi), hi})


def _set_up(game: Any, options: dict[str, Any], deadline: Any) -> tuple[set[str], Any]:
    """Set a game up with `options` (the compiled game shared: options are read as the
    game runs): which options it read, and the InternalError it stopped on (or None)."""
    from legacies.interpreter.errors import InternalError, Refused
    from legacies.interpreter.vm import BlockFrame

    table = copy.copy(game)
    table.options = reads = _Reads(options)
    try:
        state = table.new_state(0, deadline=deadline)
        for _ in range(MAX_SETUP_DECISIONS):
            st = state.st
            if st.pending is None or not any(isinstance(f, BlockFrame) and f.instrs is table.setup for f in st.frames):
                break  # the setup is done
            for index in range(len(st.pending.options)):
                try:
                    state.apply(index)
                    break
                except Refused:
                    continue
            else:
                raise InternalError(f"every option of `{st.pending.prompt}` is refused during the setup")
    except InternalError as err:
        return reads.read, err
    return reads.read, None


def _located(err: Any, options: dict[str, Any], label: str) -> Diagnostic:
    where = err.where
    running = f" (running: {'; '.join(err.running)})" if err.running else ""
    under = f" with {', '.join(f'{k}={_shown(v)}' for k, v in options.items())}" if options else ""
    flags = "".join(f" --option {k}={_shown(v)}" for k, v in options.items())
    hint = f"try `legacies play{flags}` with random seats to see the game up to the failure"
    if where is not None and where.file:
        return Diagnostic("E300", f"the game fails at setup{under}, in {where.what}: {err.message}{running}",
                          where.line or 1, where.column or 1, file=where.file, hint=hint)
    return Diagnostic("E300", f"the game fails at setup{under}: {err}", 1, 1, file=label, hint=hint)


def _shown(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)
