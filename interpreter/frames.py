"""The frames that give the effect language its control flow: loops, choices, the
action menu, the turn loop and the auction. Each holds plain data (indices, lists,
flags) and a reference to compiled code, so the whole stack clones cheaply. What a
frame needs between its steps (a choice's pool, a transfer's counters) lives in
its own slots, never in the designer's names."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .budget import spend
from .decisions import Choice, Decision, Said, Taken, Words, nothing_to_choose
from .mechanics import adjust, describe, player_name
from .vm import Activation, BlockFrame, Frame, State, made_when_read

Builder = Callable[[State, Activation, Any], Sequence[Any]]  # (state, activation, data) -> the options (or their values)
Then = Callable[[State, Activation, Any, Any], None]  # (state, activation, chosen value, data)


def _listed(labeler: Callable[[Any, Any], str], values: tuple) -> Callable[[Any, Any], str]:
    """Several members' labels in one, made when read ("ore, wool")."""
    return lambda reader, value: ", ".join(labeler(reader, v) for v in values)


def _counted(prompt: str | Words, count: str) -> Words:
    """A prompt with how far the asking has gone ("choose 2 (1 of 2)"), made when read."""
    if isinstance(prompt, str):
        return lambda reader: prompt + count
    return lambda reader: prompt(reader) + count


def _bid(reader: Any, amount: int) -> str:
    return f"bid {amount}"


def _auction_won(reader: Any, bidder: int, high: int) -> str:
    return f"{player_name(reader, bidder)} wins the auction with {high}"


class AskFrame(Frame):
    """Ask one question; `then` continues with the answer. A question with a single
    possible answer is not asked (`auto`). `data` is the question's own working data.
    With `choice`, `build` gives the options' values and `choice(value)` makes an option
    when it is read (a bot answers by index: none is made)."""

    __slots__ = ("build", "then", "prompt", "kind", "auto", "empty", "data", "choice")
    # from the rules, never the game's data: left out of the canonical form (game._frame_data),
    # so a save made before the slot was added (None in most questions) replays to its fingerprint
    RULES_ONLY = ("choice",)

    def __init__(self, act: Activation, build: Builder, then: Then, prompt: str | Words, kind: str = "choose",
                 auto: bool = True, empty: Callable[[State, Activation], str | Words | None] | None = None,
                 data: Any = None, choice: Callable[[Any], Choice] | None = None):
        self.act = act
        self.build = build
        self.then = then
        self.prompt = prompt
        self.kind = kind
        self.auto = auto
        self.empty = empty
        self.data = data
        self.choice = choice

    def step(self, st: State) -> None:
        froze = st.freeze()  # State.frozen without its `with`: a question is asked at most decisions
        try:
            options = self.build(st, self.act, self.data)
        finally:
            if froze:
                st.memo = None
        spend(st, len(options))  # each option made
        who = self.act.me if self.act.me >= 0 else st.active
        if not options:
            st.frames.pop()
            if self.empty is not None:
                # the rest abandoned (or a refusal, said by its own words); what there was none of
                why = self.empty(st, self.act)
                st.log.append(nothing_to_choose(who, self.prompt, why))
            return
        choice = self.choice
        if self.auto and len(options) == 1:
            st.frames.pop()
            only = options[0] if choice is None else choice(options[0])
            st.log.append(Taken.said(who, self.prompt, only))  # not asked: said
            self.then(st, self.act, only.value, self.data)
            return
        if choice is None:
            st.ask(Decision(who, self.prompt, tuple(options), self.kind))
        else:
            st.ask(Decision(who, self.prompt, None, self.kind, values=tuple(options), choice=choice))

    def resume(self, st: State, value: Any) -> None:
        st.frames.pop()
        self.then(st, self.act, value, self.data)


class ChooseManyFrame(Frame):
    """Choose several members of a pool one at a time (exactly N, or up to N with
    a `done` option); the picks are bound to `var` as a list."""

    __slots__ = ("pool", "need", "total", "picked", "var", "up_to", "prompt", "labeler")

    def __init__(self, act: Activation, pool: list, need: int, var: str, up_to: bool, prompt: str | Words,
                 labeler: Callable[[Any, Any], str]):
        self.act = act
        self.pool = pool
        self.need = need
        self.total = need
        self.picked: list = []
        self.var = var
        self.up_to = up_to
        self.prompt = prompt
        self.labeler = labeler

    def _finish(self, st: State) -> None:
        st.frames.pop()
        self.act.env[self.var] = list(self.picked)

    def step(self, st: State) -> None:
        if self.need <= 0 or not self.pool:
            self._finish(st)
            return
        spend(st, len(self.pool))  # each member offered
        if not self.up_to and len(self.pool) <= self.need:  # one possible answer: every one, not asked
            who = self.act.me if self.act.me >= 0 else st.active
            everything = Choice(None, self.pool[0], self.pool[0] if self.labeler is describe else None,
                                _listed(self.labeler, tuple(self.pool)))  # once, when every member is taken
            st.log.append(Taken.said(who, _counted(self.prompt, f" ({self.total})"), everything))
            self.picked.extend(self.pool)
            self.pool = []
            self._finish(st)
            return
        # each option made when read (a bot answers by index): None is "done"
        values = tuple(self.pool) + (None,) if self.up_to else tuple(self.pool)
        n = len(self.picked) + 1
        who = self.act.me if self.act.me >= 0 else st.active
        st.ask(Decision(who, _counted(self.prompt, f" ({n} of {self.total})"), None, "choose", values=values,
                        choice=PoolChoice(self.labeler)))

    def resume(self, st: State, value: Any) -> None:
        if value is None:
            self._finish(st)
            return
        self.picked.append(value)
        self.pool = [v for v in self.pool if v != value]
        self.need -= 1


class PoolChoice:
    """An option of a pool made from its value when read: pieces are labelled by
    mechanics.describe, players by player_name, numbers by number_name (only pieces are
    items); None is "done"."""

    __slots__ = ("labeler",)

    def __init__(self, labeler: Callable[[Any, Any], str]):
        self.labeler = labeler

    def __call__(self, value: Any) -> Choice:
        if value is None:
            return Choice("done", None)
        labeler = self.labeler
        return Choice(None, value, value if labeler is describe else None, labeler)


class ForEachFrame(Frame):
    __slots__ = ("items", "i", "var", "instrs")

    def __init__(self, act: Activation, items: list, var: str, instrs: tuple):
        self.act = act
        self.items = items
        self.i = 0
        self.var = var
        self.instrs = instrs

    def step(self, st: State) -> None:
        if self.i >= len(self.items):
            st.frames.pop()
            return
        self.act.env[self.var] = self.items[self.i]
        self.i += 1
        st.frames.append(BlockFrame(self.instrs, self.act))


class RepeatFrame(Frame):
    __slots__ = ("left", "instrs")

    def __init__(self, act: Activation, times: int, instrs: tuple):
        self.act = act
        self.left = times
        self.instrs = instrs

    def step(self, st: State) -> None:
        if self.left <= 0:
            st.frames.pop()
            return
        self.left -= 1
        st.frames.append(BlockFrame(self.instrs, self.act))


def offers(st: State, actions: tuple, act: Activation) -> bool:
    """Whether any of `actions` has a target for `act` now, without listing them: what a
    menu made when read (State.menus_when_read) asks before it is asked."""
    with st.frozen():
        return any(action.available(st, act) for action in actions)


class PerformFrame(Frame):
    """The action menu: offer every legal (action, target) pair; `any` repeats until
    the player is done, `one` takes exactly one, `up_to_one` allows passing."""

    __slots__ = ("mode", "actions", "done")
    keeps_option = True  # the chosen action runs above the menu: a refusal in it refuses the choice

    def __init__(self, act: Activation, mode: str, actions: tuple):
        self.act = act
        self.mode = mode
        self.actions = actions  # compiled actions (see compiler.CompiledAction)
        self.done = 0

    def values(self, st: State) -> list:
        """Every (action index, target) the rules allow now, then None ("done") unless one
        must be taken: the options' values."""
        out: list = []
        act = self.act
        froze = st.freeze()  # State.frozen without its `with`: a menu is made at most decisions
        try:
            for index, action in enumerate(self.actions):
                out.extend(action.values(st, act, index))
        finally:
            if froze:
                st.memo = None
        if self.mode != "one":
            out.append(None)
        return out

    def _taken(self, st: State) -> bool:
        """Whether the menu has given all it may: one action (`one`, `up_to_one`), or the
        ruleset's `max_repeats` (`any`)."""
        return self.done >= (1 if self.mode != "any" else st.game.spec.limits.max_repeats)

    def step(self, st: State) -> None:
        if self._taken(st):
            st.frames.pop()
            return
        if st.menus_when_read:
            if not offers(st, self.actions, self.act):  # "done" alone is not asked
                st.frames.pop()
                return
            st.ask(Decision(self.act.me, "choose an action", None, "action", made_when_read))
            return
        values = self.values(st)
        if not values or (len(values) == 1 and values[0] is None):
            st.frames.pop()
            return
        # the options made only when read: a bot answers by index
        choice = _MenuChoice(self.actions, self.act.me, self.act.this)
        st.ask(Decision(self.act.me, "choose an action", None, "action", values=tuple(values), choice=choice))

    def menu(self, st: State) -> tuple[Choice, ...]:
        """Every (action, target) the rules allow now, then "done" unless one must be taken."""
        choice = _MenuChoice(self.actions, self.act.me, self.act.this)
        return tuple([choice(value) for value in self.values(st)])

    def resume(self, st: State, value: Any) -> None:
        if value is None:
            st.frames.pop()
            return
        self.done += 1
        index, target = value
        self.actions[index].start(st, self.act, target)
        frames = st.frames
        if frames and frames[-1] is self and self._taken(st):  # the action ran at once: no step to end the menu
            frames.pop()


class _MenuChoice:
    """A menu's option made from its value when read: the action's, or "done". It holds
    the actions and the player, not the frame: a decision pending in a dropped copy of a
    state keeps no frame of it alive."""

    __slots__ = ("actions", "me", "this")

    def __init__(self, actions: tuple, me: int, this: int):
        self.actions = actions
        self.me = me
        self.this = this

    def __call__(self, value: Any) -> Choice:
        if value is None:
            return Choice("done", None)
        return self.actions[value[0]].choice(value, self.me, self.this)


class TurnsFrame(Frame):
    """Players take turns in turn order until a condition holds, the rules stop the
    loop, or a final round started by one player comes back round to them."""

    __slots__ = ("until", "instrs", "index", "final_from", "stop", "count")

    def __init__(self, act: Activation, until: Callable[[Activation], bool] | None, instrs: tuple):
        self.act = act
        self.until = until
        self.instrs = instrs
        self.index = 0
        self.final_from = -1
        self.stop = False
        self.count = 0

    def step(self, st: State) -> None:
        order = st.turn_order
        nxt = order[self.index % len(order)] if order else -1
        if (self.stop or not order or nxt == self.final_from
                or (self.until is not None and self.until(self.act))
                or self.count >= st.game.spec.limits.max_turns):
            if self.count >= st.game.spec.limits.max_turns:
                st.log.append(f"turn limit of {self.count} turns reached")  # once a game: said now
            st.frames.pop()
            return
        self.index += 1
        self.count += 1
        st.turns += 1
        st.set_active(nxt)
        st.turn_starts.append((len(st.log), st.turns, nxt))
        st.frames.append(BlockFrame(self.instrs, Activation(st, nxt)))


def innermost_turns(st: State) -> TurnsFrame | None:
    for f in reversed(st.frames):
        if isinstance(f, TurnsFrame):
            return f
    return None


class AuctionFrame(Frame):
    """An open auction (a generic bid): bidders in order raise or pass until one bid
    stands. Every raise is higher than the last and no bid exceeds what the bidder
    can pay, so it always ends. The raises offered are the lowest legal bid plus each
    of the ruleset's `steps` (and all-in). The winner pays; winner and bid are bound."""

    __slots__ = ("bidders", "slot_base", "high", "high_bidder", "passed", "turn", "asked", "winner_var",
                 "amount_var", "steps")

    def __init__(self, act: Activation, bidders: list, slot_base: int, winner_var: str, amount_var: str,
                 steps: tuple[int, ...]):
        self.act = act
        self.bidders = bidders
        self.slot_base = slot_base
        self.high = 0
        self.high_bidder = -1
        self.passed: list = []
        self.turn = 0
        self.asked = -1
        self.winner_var = winner_var
        self.amount_var = amount_var
        self.steps = steps

    def step(self, st: State) -> None:
        live = [p for p in self.bidders if p not in self.passed and p != self.high_bidder]
        if not live:
            st.frames.pop()
            if self.high_bidder >= 0:
                adjust(st, self.slot_base + self.high_bidder, -self.high)
                st.log.append(Said(_auction_won, (self.high_bidder, self.high)))
            self.act.env[self.winner_var] = self.high_bidder
            self.act.env[self.amount_var] = self.high
            return
        bidder = self.bidders[self.turn % len(self.bidders)]
        self.turn += 1
        if bidder not in live:
            return
        slot = self.slot_base + bidder
        low, most = self.high + 1, st.counters[slot] - (st.game.layout.counter_min[slot] or 0)
        if low > most:
            self.passed.append(bidder)
            return
        amounts = sorted({a for a in [low + s for s in self.steps] + [most] if low <= a <= most})
        options = (Choice("pass", None),) + tuple(Choice(None, a, None, _bid) for a in amounts)
        self.asked = bidder
        st.ask(Decision(bidder, _counted("bid", f" (highest so far {self.high})"), options, "bid"))

    def resume(self, st: State, value: Any) -> None:
        if value is None:
            self.passed.append(self.asked)
        else:
            self.high, self.high_bidder = value, self.asked
