"""The machine that runs compiled effects: game state, activations and frames.

Control flow lives in an explicit stack of small frame objects instead of Python's
call stack, so a game can stop on a Decision anywhere (mid-effect, mid-turn) and still
be cloned, compared and saved: a clone copies plain lists and a few frames. Every
frame step spends from the step budget (starlark-go's habit), and so does the work inside a
step that grows with a collection (interpreter/budget.py): no effect runs forever. A block
that cannot ask is one generated instruction, a single step, and where a statement would
push its frame it runs at once (`run_now`): a frame is for what may stop on a Decision.

An exception out of a frame is either a refusal (`Refused`: the caller restores the
state) or, for anything else, an InternalError naming the statement that was running
(its Where, from the compiled block) and every item and event on the stack.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, NoReturn, Protocol, Self

from . import budget
from .decisions import Choice, Decision, Said
from .errors import BudgetExceeded, InternalError, Refused, Where, locate
from .coverage import Coverage
from .layout import FIRST_COUNTER_PART, PART_ACTIVE, Layout
from .spec import GameSpec
from .naming import GameReader, describe, player_name
from .versions import tick


Value = Any


class Block(tuple):
    """A compiled block: its instructions, plus where each statement was written
    (`wheres`, one Where per instruction) and what the block belongs to (`origin`).

    A block that cannot ask a decision and pushes no frame (every statement straight
    through: compiler.py `Compiler.block`) is one instruction, the whole block as one
    generated function, which is also its `run`: a frame steps it once, and a caller
    that would push its frame may run it at once instead (`run_now`)."""

    wheres: tuple[Where | None, ...]
    origin: str
    run: "Instr | None" = None

    def __new__(cls, instrs: tuple = (), wheres: tuple = (), origin: str = "") -> "Block":
        block = super().__new__(cls, instrs)
        block.wheres = tuple(wheres) if wheres else (None,) * len(instrs)
        block.origin = origin
        return block


EMPTY_BLOCK = Block()


class Activation:
    """One running effect: who it belongs to (`me`), the item it comes from (`this`),
    its local names (`env`, shared with the `as P:` blocks inside it) and the current
    `it` of a filter."""

    __slots__ = ("st", "me", "this", "env", "it")

    def __init__(self, st: "State", me: int, this: int = -1, env: dict | None = None):
        self.st = st
        self.me = me
        self.this = this
        self.env = env if env is not None else {}
        self.it: Value = None

    def copy_to(self, st: "State", memo: dict[int, Any]) -> "Activation":
        """A copy in `st`; activations and local tables shared in the original stay shared."""
        env = memo.get(id(self.env))
        if env is None:
            env = memo[id(self.env)] = self.env.copy()
        a = _new(Activation)  # the slots set here, not through __init__: a state's copy copies several
        a.st, a.me, a.this, a.env, a.it = st, self.me, self.this, env, self.it
        return a


_new = object.__new__


class Frame:
    __slots__ = ("act",)
    act: Activation
    # True for a frame whose answer runs above it while it stays on the stack (the action
    # menu: the chosen action): the answer's consequences are what runs while it is there.
    # Otherwise they are what runs while the effect that asked (its activation's names) is.
    keeps_option = False

    def step(self, st: "State") -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def resume(self, st: "State", value: Value) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def menu(self, st: "State") -> "tuple[Choice, ...]":
        """The options of the decision it asked (a menu made when read: `made_when_read`)."""
        raise InternalError(f"a decision's options are read from {type(self).__name__}, which asks none of its own")

    def clone(self, memo: dict[int, Any], st: "State") -> "Frame":
        """A copy in `st` (lists copied, activations through `memo`). Each frame class
        gets its own copy of this, written for its slots (see __init_subclass__)."""
        return _make_cloner(type(self))(self, memo, st)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "clone" not in cls.__dict__:
            cls.clone = _make_cloner(cls)  # type: ignore[method-assign]


def _make_cloner(cls: type) -> Callable[..., Frame]:
    """Frame.clone for one class as straight-line code over its slots: cloning frames
    is most of cloning a state (a search bot clones thousands of times a second), and
    a loop of getattr/setattr over slot names costs twice as much."""
    lines = ["def clone(self, memo, st):", "    new = _new(_cls)"]
    for slot in _slots(cls):
        if not slot.isidentifier():  # pragma: no cover - slots are our own names
            raise TypeError(f"odd slot name {slot!r}")
        lines += [f"    v = self.{slot}", f"    new.{slot} = v[:] if v.__class__ is _list else v"]
    lines += ["    old = self.act", "    act = memo.get(id(old))", "    if act is None:",
              "        act = memo[id(old)] = old.copy_to(st, memo)", "    new.act = act", "    return new"]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_list": list}
    exec("\n".join(lines), namespace)  # noqa: S102 - code made from our own slot names only
    return namespace["clone"]


def made_when_read(st: "State") -> "tuple[Choice, ...]":
    """The options of a state's pending decision that makes them when read: the frame
    that asked is on top while the decision is pending (decisions.Decision `build`). A
    failure is what the run that asked would have raised (State.fail): nothing is being
    answered, so a refusal here is the rules' own mistake."""
    try:
        return st.frames[-1].menu(st)
    except Exception as err:
        st.fail(err)


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

    def step(self, st: "State") -> None:
        i = self.i
        if i >= len(self.instrs):
            st.frames.pop()
            return
        self.i = i + 1
        self.instrs[i](st, self.act)


def run_now(st: "State", block: Block, act: Activation) -> bool:
    """Run a block that cannot ask (`block.run`) at once, in place of pushing its frame:
    the steps its frame would have taken (its one instruction and its end) charged to the
    step budget as work, an error located at its statement by the block itself. False,
    doing nothing, for a block that may ask: the caller pushes its frame."""
    run = block.run
    if run is None:
        return False
    st.spent += 2  # budget.spend, written out
    if st.spent > st.limit:
        budget.over(st)
    try:
        run(st, act)
    except BaseException:
        # the stack as its frame would have left it: there, for what was running to name
        # it (an error) and for a refusal to be told the player's or the rules' own (in_option)
        frame = BlockFrame(block, act)
        frame.i = len(block)
        st.frames.append(frame)
        raise
    return True


def enter(st: "State", block: Block, act: Activation, call: bool = False) -> None:
    """Start `block` for `act` inside what is running: at once when it cannot ask
    (`run_now`), else as its frame, pushed; a `call` (an effect played or resolved, a
    procedure) nests a level, so the stack's depth is checked first."""
    if block.run is not None and run_now(st, block, act):  # looked at here first: most blocks entered may ask
        return
    if call:
        budget.check_depth(st)
    st.frames.append(BlockFrame(block, act))


class Journal:
    """An append-only list (a game's decisions, its log) that copies in O(1), so cloning
    a state costs the same at decision 10 and at decision 10,000. Copies share one
    Python list and each knows its own length; a copy that appends after another has
    appended copies its own part first (Go's slices, made safe). Reads behave as a
    list's: len, iteration, indexes and slices (a slice is a new list), equality with
    a list. With a `limit`, an entry past it is a content error (a log that a loop fills
    without end: interpreter/budget.py)."""

    __slots__ = ("_items", "_n", "_limit")

    def __init__(self, items: Iterable[Any] = (), limit: int | None = None):
        self._items: list[Any] = list(items)
        self._n = len(self._items)
        self._limit = limit

    def append(self, item: Any) -> None:
        items = self._items
        if len(items) != self._n:  # another copy appended to the shared list: go alone
            items = self._items = items[:self._n]
        if self._limit is not None and self._n >= self._limit:
            raise budget.log_full(self._limit)
        items.append(item)
        self._n += 1

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new._items = self._items
        new._n = self._n
        new._limit = self._limit
        return new

    def truncate(self, n: int) -> None:
        """Forget everything after the first `n` entries."""
        self._n = max(0, min(n, self._n))

    def tolist(self) -> list[Any]:
        return self._items[:self._n]

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items[:self._n]) if len(self._items) != self._n else iter(self._items)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self._items[:self._n][index]
        n = self._n
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("journal index out of range")
        return self._items[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Journal):
            return self.tolist() == other.tolist()
        if isinstance(other, list):
            return self.tolist() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Journal({self.tolist()!r})"


class Log(Journal):
    """A game's log: its lines said as text, or as Said (words made when the log is read:
    a game nobody reads makes none). A line made is kept in place of its Said: every copy
    sharing the list reads the same words, as the Said reads only what it captured."""

    __slots__ = ("_reader",)

    def __init__(self, reader: GameReader, limit: int | None = None):
        super().__init__((), limit)
        self._reader = reader

    def copy(self) -> "Log":
        new = super().copy()
        new._reader = self._reader
        return new

    def _line(self, i: int) -> Any:
        """Line `i` (0 <= i < len), made: its Said replaced in the shared list."""
        line = self._items[i]
        if type(line) is Said:
            line = self._items[i] = line.text(self._reader)
        return line

    def tolist(self) -> list[Any]:
        return [self._line(i) for i in range(self._n)]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.tolist())

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self.tolist()[index]
        super().__getitem__(index)  # its bounds, as a list's
        return self._line(index + self._n if index < 0 else index)

    def __repr__(self) -> str:
        return f"Log({self.tolist()!r})"


def refusal_outside_option(err: Refused) -> InternalError:
    """A refusal no player's option led to: the rules' own statements refused themselves."""
    return InternalError(f"the rules refused their own statement ({err}): no option of the last decision led to "
                         "it, so no player can be asked to choose again; guard it (`if ...:`) or fix the rules")


class _Frozen:
    __slots__ = ("st", "outer")

    def __init__(self, st: "State"):
        self.st = st

    def __enter__(self) -> None:
        self.outer = None if self.st.freeze() else self.st.memo

    def __exit__(self, *exc: object) -> None:
        if self.outer is None:
            self.st.memo = None


class GameRules(Protocol):
    """What a running state reads of its game (`State.game`): the compiled rules of one
    ruleset at one player count, so the machinery that runs a state names what it
    depends on and the type checker holds every read to it. interpreter/game.py's
    `Game` is the one implementation. What is made above this module is typed `Any`
    here, its type named beside it: the run does not import the compiler."""

    spec: GameSpec
    step_budget: int  # spec.limits.step_budget, read at every run
    players: int
    options: dict[str, Any]
    player_names: list[str]
    zone_names: dict[tuple[int, int, bool], str]
    layout: Layout
    piece_names: list[str]
    pay_symbol: list[Any]
    pay_need: list[dict[Any, int]]
    pay_plans: dict[int, Any]  # mechanics.PaymentPlan of each definition paid for
    coverage: Coverage | None
    ledger: Any  # ledger.Ledger | None
    era_slot: int
    actions: dict[str, Any]  # compile/choices.py CompiledAction
    procedures: dict[str, Block]
    effects: list[Block]
    requires: dict[int, Callable[[Activation], Any]]
    triggers: dict[str, list[tuple[str, int, Any, Block, bool]]]
    hooks_enter: dict[int, Block]
    hooks_leave: dict[int, Block]
    continuous: dict[str, list[tuple]]
    setup: Block
    main: Block
    score_base: int
    score_value: Callable[[Activation], Any] | None
    automated: int
    graph: Any  # graph.py Graph
    tie_breaks: list[Callable[[Activation], Any]]
    evaluation: Callable[[Activation], Any] | None
    compiler: Any  # compiler.py Compiler
    unseen: tuple[list[list[int]], list[str]] | None


    def actions_named(self, names: tuple[str, ...]) -> tuple[Any, ...]: ...  # game.py Game.actions_named

class State:
    """All that changes during a game, as plain lists; see interpreter/game.py for the API.

    Its slots are in three parts, and every slot is in exactly one
    (tests/interpreter/test_state_parts.py): a new mechanism's slot says which, so it
    cannot be forgotten by the canonical form, a clone or a restore.
    - GAME_DATA: what the game is. All of it is in the canonical form and the
      fingerprint (game.py `canonical`), copied by `clone`, and made again by a replay.
    - DERIVED: worked out from the data or kept for speed (where each piece is, results
      remembered and the counts of changes that stamp them); never in the fingerprint.
    - RUN: this run's machinery (the compiled game, the step budget, the deadline, the
      answer being run) and its words (the log, whether anyone reads them).
    """

    GAME_DATA = ("counters", "values", "zones", "turn_order", "active", "timed", "rng", "frames", "pending",
                 "history", "over", "turns", "revealed", "flags", "fired", "ending")
    DERIVED = ("loc", "memo", "keep", "versions", "slot_versions", "zone_versions", "value_versions", "own_zones")
    RUN = ("game", "spent", "limit", "deadline", "option", "steps", "log", "turn_starts", "menus_when_read")
    __slots__ = GAME_DATA + DERIVED + RUN

    def __init__(self, game: GameRules):
        self.game = game
        self.counters: list[int] = []
        self.values: list[Value] = []  # value slots: a player, an item, a symbol... (`starter`, `my character`)
        self.zones: list[list[int]] = []
        # the zones whose lists are this state's alone since it was last copied (None: all
        # of them): a copy shares the others with its original until one of them writes
        # (`zone`), so a copy costs the zones it changes, not all of them
        self.own_zones: set[int] | None = None
        self.loc: list[int] = []
        self.turn_order: list[int] = []
        self.active = -1
        self.timed: list[tuple] = []
        self.rng = 0
        self.frames: list[Frame] = []
        self.pending: Decision | None = None
        self.history = Journal()  # every decision's option, in order
        self.log = Log(GameReader(game), limit=budget.MAX_LOG_LINES)  # what happened, its words made when read
        # where each turn began in the log: (lines logged before it, its number, whose turn),
        # so a reader can head each turn's lines, those of a seat the rules run included
        self.turn_starts = Journal()
        self.over = False
        self.turns = 0
        self.steps = 0
        self.revealed: set[int] = set()
        self.flags: dict[str, Value] = {}
        self.fired: dict[str, int] = {}  # `once per turn` triggers: (trigger, piece) -> the turn it last fired
        # definition results while options are built (nothing changes meanwhile): see `frozen`
        self.memo: dict[tuple, Any] | None = None
        # work charged to this run (interpreter/budget.py): straight-through loops, walks over
        # collections...; past `limit` budget.over looks at the budget and the deadline
        self.spent = 0
        self.limit = 0
        self.deadline: budget.Deadline | None = None  # a check's wall-clock deadline (budget.py)
        # how the rules ended the game (`end the game`): (the winner named or -1, the reason or ""); see ending.py
        self.ending: tuple[int, str] | None = None
        # what the answer being run belongs to (see `refused`): a frame, or the names (env) of
        # the effect that asked; None while no answer runs (setup, rules between decisions)
        self.option: object | None = None
        # an action menu's or a response window's options made when first read, not when
        # asked (its copies too): a bot's copy, where most menus reached are weighed unread
        # (frames.PerformFrame, windows.OfferFrame)
        self.menus_when_read = False
        # how many times each part of the state changed (interpreter/layout.py's parts), and
        # definitions' results kept across menus with the counts of what they read (codegen)
        lay = getattr(game, "layout", None)
        self.versions: list[int] = [0] * getattr(lay, "parts", FIRST_COUNTER_PART)
        self.slot_versions: list[int] = [0] * getattr(lay, "n_counters", 0)  # each counter slot's changes
        self.value_versions: list[int] = [0] * len(getattr(lay, "value_start", ()))  # each value slot's changes
        self.zone_versions: list[int] = [0] * len(getattr(lay, "zone_name", ()))  # each zone's changes
        self.keep: dict[tuple, tuple[Any, Any]] = {}  # key -> (what it read then, the result)

    # ------------------------------------------------------------------ running
    def run(self) -> None:
        """Step frames until a decision is pending for a player who decides (one the
        rules run is answered here, see `_decide_automated`) or nothing is left to run."""
        budget.fresh(self)
        self._run()

    def _run(self) -> None:
        game = self.game
        left = self._step_frames(game.step_budget)
        automated = game.automated
        if automated >= 0 and self.pending is not None and self.counters[automated + self.pending.player]:
            self._decide_automated(automated, left)
        budget.fresh(self)  # what is read before the next run (a score, a screen) starts afresh

    def _decide_automated(self, automated: int, left: int) -> None:
        """Answer every decision of a player the rules run (the ruleset's `automated`
        counter is not 0 for them) with the first option the rules do not refuse, in
        the order the options are listed: the rules put their preferred option first.
        Nothing is recorded in the history: replaying the real decisions makes the same
        answers. Every option refused is a mistake in the rules, not a refusal of the
        last real decision. The answers are part of the run that asked them: they spend
        its budget (`left` frame steps, and the work charged), at most
        MAX_AUTOMATED_ANSWERS of them."""
        answered = 0
        while self.pending is not None and self.counters[automated + self.pending.player]:
            decision = self.pending
            answered += 1
            if answered > budget.MAX_AUTOMATED_ANSWERS:
                located = InternalError(f"{self.player_name(decision.player)} is run by the rules and answered more "
                                        f"than {budget.MAX_AUTOMATED_ANSWERS:,} decisions in a row (`{decision.prompt}`): "
                                        "a loop of decisions that does not end")
                raise self.located(located)
            for n, option in enumerate(decision.options, 1):
                last = n == len(decision.options)
                backup = None if last else self.clone()
                spent = self.spent
                try:
                    self.pending = None
                    self._resume(option.value)
                    left = self._step_frames(left)
                    if backup is not None:  # not needed
                        backup.discard()
                    break
                except Refused as err:
                    if last:
                        located = InternalError(f"{self.player_name(decision.player)} is run by the rules and every "
                                                f"option of `{decision.prompt}` was refused (the last: {err})")
                        raise self.located(located) from None
                    assert backup is not None
                    self.restore(backup)
                    self.spent, self.limit = spent, 0  # the next charge sets the limit again (budget.over)

    def _step_frames(self, allowed: int) -> int:
        """Step frames within `allowed` frame steps; the steps left."""
        frames = self.frames
        steps = 0
        deadline = self.deadline
        check = allowed if deadline is None else min(allowed, budget.POLL)  # when to look at the clock
        try:
            if deadline is not None and deadline.passed():  # between runs
                raise budget.deadline_passed(deadline)
            while frames and self.pending is None:
                frame = frames[-1]
                if type(frame) is BlockFrame:  # BlockFrame.step, written in place: most steps are a block's
                    i = frame.i
                    instrs = frame.instrs
                    if i >= len(instrs):
                        frames.pop()
                    else:
                        frame.i = i + 1
                        instrs[i](self, frame.act)
                else:
                    frame.step(self)
                steps += 1
                if steps > check:
                    if steps > allowed:
                        limit = self.game.step_budget
                        raise BudgetExceeded(f"an effect used more than {limit:,} steps for one decision "
                                             "(a loop of triggers or of decisions the rules answer, or an effect that does too much)")
                    if deadline is not None and deadline.passed():
                        raise budget.deadline_passed(deadline)
                    check = min(allowed, steps + budget.POLL)
        except Exception as err:  # a refusal the player's answer led to goes on; any other, located
            self.fail(err)
        self.steps += steps
        if not frames and self.pending is None:
            self.over = True
        return allowed - steps

    def fail(self, err: Exception) -> NoReturn:
        """Raise what a run that met `err` raises: a refusal the answer being run led to, as
        it is (the player's option is refused); a refusal of the rules' own statements, as
        the mistake it is; an internal error or a bug, never a refusal, never silent, located
        at the statement running."""
        if isinstance(err, Refused):
            if self.in_option():
                raise err
            located = refusal_outside_option(err)
            if isinstance(err.where, Where):  # from a block run in one step: the statement it was running
                located.where = err.where
            raise self.located(located) from err
        failure = self.located(err)
        if failure is err:
            raise err
        raise failure from err

    def answer(self, value: Value) -> None:
        """Resume the frame that asked with the chosen value, then run on."""
        budget.fresh(self)
        self._resume(value)
        self._run()

    def in_option(self) -> bool:
        """Whether what runs now is the consequence of the answer being run: the frame that
        keeps the option (the action menu, while the chosen action runs), or the effect that
        asked (any frame with its names) is still on the stack. A refusal there refuses
        the option; anywhere else (the rules' own statements after it, or with no answer
        at all: setup) it is a mistake in the rules, not the player's."""
        option = self.option
        if option is None:
            return False
        for f in self.frames:
            if f is option or f.act.env is option:
                return True
        return False

    def start_option(self, frame: "Frame") -> None:
        """`frame` is about to run an answer (or an effect tried on its own): mark what the
        answer's consequences are, for `in_option`."""
        self.option = frame if frame.keeps_option else frame.act.env

    def _resume(self, value: Value) -> None:
        frame = self.frames[-1]
        self.start_option(frame)
        try:
            frame.resume(self, value)
        except Refused:
            raise
        except Exception as err:  # an internal error or a bug, located
            raise self.located(err)

    def where_now(self) -> Where | None:
        """The statement running now: the innermost block that has started one."""
        for f in reversed(self.frames):
            if isinstance(f, BlockFrame) and f.i > 0:
                wheres = getattr(f.instrs, "wheres", None)
                if wheres:
                    return wheres[f.i - 1]
        return None

    def running(self) -> tuple[str, ...]:
        """What is on the stack, innermost first: items, actions, triggers and their events."""
        seen: list[str] = []
        for f in reversed(self.frames):
            origin = getattr(getattr(f, "instrs", None), "origin", "") if isinstance(f, BlockFrame) else ""
            if origin and origin not in seen:
                seen.append(origin)
        return tuple(seen)

    def located(self, err: BaseException) -> BaseException:
        """`err` located at the statement running now, with what is on the stack
        (interpreter/errors.py `locate`)."""
        return locate(err, self.where_now(), self.running())

    def ask(self, decision: Decision) -> None:
        decision.asked_in(self)
        self.pending = decision

    def decision(self) -> Decision | None:
        """The pending decision, its words made from this state: a copy's pending
        decision was asked in the state it was copied from (and copies share it until
        one reads its words)."""
        pending = self.pending
        if pending is not None and not pending.is_in(self):
            pending = self.pending = pending.bound(self)
        return pending

    # ------------------------------------------------------------------ names
    def describe(self, x: Any) -> str:
        return describe(self, x)

    def player_name(self, p: int) -> str:
        return player_name(self, p)

    # ------------------------------------------------------------------ copying
    def freeze(self) -> bool:
        """Start a read (`frozen` without its `with`, where a menu or a question is made at
        every decision): True when this call started it, and the caller ends it with
        `self.memo = None`; False inside a read already under way."""
        if self.memo is not None:
            return False
        self.memo = {}
        if self.pending is not None or not self.frames:  # idle (no run): a read of its own, on a fresh budget
            budget.fresh(self)
        return True

    def frozen(self) -> "_Frozen":
        """`with st.frozen():` while only reading (building a decision's options): a
        definition called again with the same arguments returns its first result."""
        return _Frozen(self)

    def clone(self, share_logs: bool = False) -> "State":
        """An independent copy (`share_logs` is no longer needed: the history and the
        log are Journals, which every copy shares until it appends)."""
        new = State.__new__(State)
        new.game = self.game
        new.counters = self.counters[:]
        new.values = self.values[:]
        new.zones = self.zones[:]  # each zone's list shared until one of the two writes to it (`zone`)
        new.own_zones = set()
        self.own_zones = set()
        new.loc = self.loc[:]
        new.turn_order = self.turn_order[:]
        new.active = self.active
        new.timed = self.timed[:]
        new.rng = self.rng
        memo: dict[int, Any] = {}
        new.frames = [f.clone(memo, new) for f in self.frames]
        pending = new.pending = self.pending
        if pending is not None and not pending.made:  # made here, from this state, before either moves on
            pending.options
        new.history = self.history.copy()
        new.log = self.log.copy()
        new.turn_starts = self.turn_starts.copy()
        new.flags = dict(self.flags)
        new.over = self.over
        new.turns = self.turns
        new.steps = self.steps
        new.revealed = set(self.revealed)
        new.fired = dict(self.fired)
        new.memo = None
        new.deadline = self.deadline
        budget.fresh(new)
        new.ending = self.ending
        new.option = None  # it names frames of this state: a copy runs no answer yet
        new.menus_when_read = self.menus_when_read
        new.versions = self.versions[:]
        new.slot_versions = self.slot_versions[:]
        new.value_versions = self.value_versions[:]
        new.zone_versions = self.zone_versions[:]
        new.keep = self.keep  # shared: a result kept stands where the numbers it read are the same (versions.py)
        return new

    def set_active(self, player: int) -> None:
        """Whose turn it is: what was computed from the active player no longer stands
        (codegen's keep). Every change of the active player is made here."""
        self.active = player
        self.versions[PART_ACTIVE] = tick()

    def changed(self) -> None:
        """Something changed outside the mechanisms (a tool, a test, a sampled world):
        nothing kept from before is used again, here or by what shares this state's keep."""
        now = tick()
        for counts in (self.versions, self.slot_versions, self.value_versions, self.zone_versions):
            counts[:] = [now] * len(counts)
        self.keep = {}

    def discard(self) -> None:
        """This state is not used again: break the cycles it makes (its frames' activations
        and its pending decision point back at it), so reference counting frees it at once.
        Left to the garbage collector, every dropped copy (an undo's backup, a bot's
        lookahead) waited for a pass that walks every live object: a third of a greedy
        bot's time and a sixth of a random game's (issue 32)."""
        self.frames = []
        self.pending = None
        self.option = None

    def zone(self, z: int) -> list[int]:
        """Zone `z`'s list, to change: made this state's own first when a copy shares it.
        Every change to a zone's pieces goes through here (mechanics.move, shuffle...);
        reading goes straight to `zones`."""
        own = self.own_zones
        if own is None or z in own:
            return self.zones[z]
        own.add(z)
        mine = self.zones[z] = self.zones[z][:]
        return mine

    def restore(self, other: "State") -> None:
        """Become exactly `other` (used to undo a refused action)."""
        for slot in State.__slots__:
            setattr(self, slot, getattr(other, slot))
        if self.pending is not None and not self.pending.is_in(self):
            self.pending = self.pending.bound(self)
        for f in self.frames:
            f.act.st = self
