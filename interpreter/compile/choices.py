"""Statements that ask a decision, and their prompt wording: `choose ... from`,
`choose a number`, `choose one:`, `may`, paying with cards, transfers, auctions,
`perform` (a menu of actions) and the compiled actions that build a menu's options.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterator, Sequence

from legacies.dsl import ast, printer
from legacies.dsl import resolution as r
from legacies.dsl.renderer import Wording, render_expr, render_member

from .. import mechanics as mech
from ..budget import spend
from .context import Fn, Instr, of_items
from .context import CompileContext, Compiles, Filled
from .general import GeneralCompiler
from .statements import StatementCompiler
from ..decisions import Choice, Label, Words
from ..errors import ContentError, Refused
from ..frames import AskFrame, AuctionFrame, ChooseManyFrame, PerformFrame, PoolChoice
from ..naming import namer_for
from ..spec import ActionSpec, Origin
from ..vm import Activation, Block, State, enter


class CompiledAction:
    __slots__ = ("name", "label", "var", "collection", "condition", "instrs", "gate", "items", "listed", "exists",
                 "always")

    def __init__(self, name: str, label: "str | Filled", var: str | None,
                 collection: Fn | None, condition: Fn | None, instrs: Block, gate: bool = False, items: bool = False):
        self.name = name
        self.label = label
        self.var = var
        self.collection = collection
        self.condition = condition
        self.instrs = instrs
        self.gate = gate  # the `if:` does not read the target: asked once, before the targets
        self.items = items  # the targets are pieces or items (not players, symbols or numbers)
        # no `choose:` and no `if:`: one option at every menu, nothing to work out or charge
        self.always = collection is None and condition is None
        # the same targets from generated code (interpreter/codegen.py), when it wrote them:
        # listed(st, me, this) every one, exists(st, me, this) whether there is one
        self.listed: Callable[[State, int, int], list] | None = None
        self.exists: Callable[[State, int, int], bool] | None = None

    def targets(self, st: State, act: Activation) -> Iterator[Any]:
        """Every target the rules allow now (None for an action without `choose:`)."""
        probe = Activation(st, act.me, act.this)
        if self.collection is None:
            if self.condition is None or self.condition(probe):
                yield None
            return
        if self.gate:
            assert self.condition is not None
            if not self.condition(probe):
                return
            yield from self.collection(probe)
            return
        targets = self.collection(probe)
        if self.condition is not None:
            spend(st, len(targets))  # the condition asked of each
        for target in targets:
            probe.env[self.var] = target
            if self.condition is None or self.condition(probe):
                yield target

    def values(self, st: State, act: Activation, index: int) -> list[tuple[int, Any]]:
        """Each option's value, (index, target): every target the rules allow now."""
        if self.always:
            return [(index, None)]
        targets = self.listed_now(st, act.me, act.this) if self.listed is not None else self.targets(st, act)
        return [(index, t) for t in targets]

    def choice(self, value: tuple[int, Any], me: int, this: int) -> Choice:
        """The option of `value` (values), its label made when read."""
        label = self.label
        if isinstance(label, str):
            if self.collection is None:
                return Choice(label, value)
            return Choice(label, value, value[1] if self.items else None)
        target = value[1]
        return Choice(None, value, target if self.items and target is not None else None,
                      _action_words(label, me, this, self.var))

    def options(self, st: State, act: Activation, index: int) -> list[Choice]:
        me, this = act.me, act.this
        return [self.choice(value, me, this) for value in self.values(st, act, index)]

    # While a menu is built (State.frozen: nothing changes), an action's targets are worked
    # out once for a player and an item, whoever asks: the menu lists them and `possible`
    # in another action's `if:` asks whether there are any (a pass offered only when no
    # other action is possible asks each of them). Kept in the menu's memo (as definitions
    # are; found there, nothing is charged again): the list under (action, me, this), and
    # a "yes" under (action, me, this, True), since whether there is one stops at the first.
    def _in_menu(self, st: State, me: int, this: int) -> tuple[dict, tuple, Any] | None:
        """The menu's memo, this action's key there and what it holds under it; None
        outside a menu, or for a player or item that cannot be a key (no shipped path
        makes one: asked afresh, as a definition's memo does)."""
        memo = st.memo
        if memo is None:
            return None
        key = (self, me, this)
        try:
            return memo, key, memo.get(key)
        except TypeError:
            return None

    def listed_now(self, st: State, me: int, this: int) -> list:
        """Every target from generated code (`listed`), once a menu."""
        assert self.listed is not None
        kept = self._in_menu(st, me, this)
        if kept is None:
            return self.listed(st, me, this)
        memo, key, found = kept
        if found is None:
            found = memo[key] = self.listed(st, me, this)
        return found

    def available_for(self, st: State, me: int, this: int) -> bool:
        """`available` for a player and an item (generated code has no Activation)."""
        if self.exists is None:
            return next(self.targets(st, Activation(st, me, this)), _NONE) is not _NONE
        kept = self._in_menu(st, me, this)
        if kept is None:
            return self.exists(st, me, this)
        memo, key, listed = kept
        if listed is not None:
            return len(listed) > 0
        yes = (self, me, this, True)
        if yes in memo:
            return True
        if self.exists(st, me, this):
            memo[yes] = True
            return True
        memo[key] = []  # none: every target was tested and none passed, as listing them would find
        return False

    def available(self, st: State, act: Activation) -> bool:
        """Whether any option exists, without building labels: `possible(...)`."""
        if self.exists is not None:
            return self.available_for(st, act.me, act.this)
        return next(self.targets(st, act), _NONE) is not _NONE

    def start(self, st: State, act: Activation, target: Any) -> None:
        """Run the action for `target`: at once when its statements cannot ask (vm.run_now),
        else as its frame, pushed; the menu or offer that asked stays below it either way."""
        env = {self.var: target} if self.var else {}
        enter(st, self.instrs, Activation(st, act.me, act.this, env))


_NONE = object()  # "no target" (None is a real target: an action without `choose:`)


def _action_words(label: Filled, me: int, this: int, var: str | None) -> Label:
    """An action's label with `{EXPR}` parts, each option's target bound, made when read.
    A menu's options are read while it is pending (never taken unasked:
    decisions.Decision), so the parts are worked out then, from the state it is pending in."""
    def words(reader: Any, value: Any) -> str:
        return label(reader, Activation(reader, me, this, {var: value[1]} if var else {}))
    return words


def _yes_no(st: State, a: Activation, data: Any) -> list[bool]:
    return [True, False]  # the values: each option made when read (_yes_or_no)


_NUMBER = PoolChoice(mech.number_name)  # a number's option, made when read


def _yes_or_no(yes: Any) -> Choice:
    return Choice("yes" if yes else "no", yes)  # new each time: an option belongs to one decision


def _paid_with(symbols: tuple[str, ...]) -> Label:
    """A way to pay, made when read: its symbols ("ore, wild")."""
    return lambda reader, cards: ", ".join(symbols)


def _direction(reader: Any, way: tuple[int, int]) -> str:
    """A transfer's way, made when read: "from ore to wool"."""
    names, label = reader.game.layout.counter_name, reader.game.spec.vocab.label
    return f"from {label(names[way[0]])} to {label(names[way[1]])}"


def _named_prompt(prompt: str, named: list[tuple[str, Callable[[Any, Any], str], Any]]) -> Words:
    """A prompt naming what the names bound earlier hold, made when read."""
    def words(reader: Any) -> str:
        asked = prompt
        for name, namer, value in named:
            asked = asked.replace("{" + name + "}", namer(reader, value))
        return asked
    return words


def _number_prompt(what: str, low: int, high: int, by: int, condition: str = "") -> Words:
    """`choose a number: 1 to 3`, with its step and its `where` (a user's trial: "1 to 3"
    offered only 2 and 3, and the prompt did not say why)."""
    return lambda reader: f"choose {what}: {low} to {high}" + (f" in steps of {by}" if by != 1 else "") + condition


def _all_of(parts: list[Fn]) -> Fn | None:
    """One condition that holds where every one of `parts` does (None: no condition)."""
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    return lambda a: all(part(a) for part in parts)


class ChoiceCompiler:
    def __init__(self, ctx: CompileContext, compiler: Compiles, stmts: StatementCompiler, general: GeneralCompiler):
        self.ctx = ctx
        self.compiler = compiler
        self.stmts = stmts
        self.general = general

    def s_PayCards(self, s: ast.PayCards) -> Instr:
        target = self.compiler.expr(s.target)
        source = self.compiler.expr(s.source)

        def build(st: State, a: Activation, data: Any) -> list[Choice]:
            return [Choice(None, cards, None, _paid_with(symbols)) for symbols, cards in mech.payments(st, data[0], data[1])]

        def then(st: State, a: Activation, cards: Any, data: Any) -> None:
            for pid in cards:
                mech.discard(st, pid)

        def empty(st: State, a: Activation) -> None:
            raise Refused("cannot pay for that with these cards")

        def pay_cards(st: State, a: Activation) -> None:
            st.frames.append(AskFrame(a, build, then, "choose how to pay", empty=empty,
                                      data=(target(a), source(a))))
        return pay_cards

    def s_Transfer(self, s: ast.Transfer) -> Instr:
        amount = self.compiler.expr(s.amount)
        src = self.stmts.lvalue(s.source)
        dst = self.stmts.lvalue(s.dest)
        up_to, either = s.up_to, s.either_way
        adjust = self.ctx.adjuster(s)

        def move_amount(st: State, frm: int, to: int, n: int) -> None:
            if st.counters[frm] - n < (st.game.layout.counter_min[frm] or 0):
                raise Refused(f"not enough to transfer {n}")
            adjust(st, frm, -n)
            adjust(st, to, n)

        def how_much(st: State, a: Activation, data: Any) -> list[Choice]:
            frm, _, most = data
            return [Choice(None, k, None, mech.number_name)
                    for k in mech.number_range(0, most, advice="transfer up to a smaller amount")]

        def chosen(st: State, a: Activation, k: Any, data: Any) -> None:
            move_amount(st, data[0], data[1], k)

        def ask_amount(st: State, a: Activation, frm: int, to: int) -> None:
            n = amount(a)
            if not up_to:
                move_amount(st, frm, to, n)
                return
            most = max(0, min(n, st.counters[frm] - (st.game.layout.counter_min[frm] or 0)))
            st.frames.append(AskFrame(a, how_much, chosen, "how much?", "number", data=(frm, to, most)))

        def directions(st: State, a: Activation, data: Any) -> list[Choice]:
            f, t = data
            return [Choice(None, (f, t), None, _direction), Choice(None, (t, f), None, _direction)]

        def direction(st: State, a: Activation, pair: Any, data: Any) -> None:
            ask_amount(st, a, pair[0], pair[1])

        def transfer(st: State, a: Activation) -> None:
            f, t = src(a), dst(a)
            if not either:
                ask_amount(st, a, f, t)
                return
            st.frames.append(AskFrame(a, directions, direction, "which way?", "one", data=(f, t)))
        return transfer

    def s_Auction(self, s: ast.Auction) -> Instr:
        bidders = self.compiler.expr(s.bidders)
        base = self.ctx.lay.player_counter[s.counter.name]
        winner, amount = s.winner, s.amount
        steps = tuple(self.ctx.v.bid_steps)
        frame: Callable[..., AuctionFrame] = AuctionFrame
        if self.ctx.ledger is not None and s.counter.name == self.ctx.spec.score_counter:
            frame = self.ctx.ledger.auction(self.ctx.ledger.source(self.ctx.where(s), s))
        return lambda st, a: st.frames.append(frame(a, list(bidders(a)), base, winner, amount, steps))

    def s_ChooseFrom(self, s: ast.ChooseFrom) -> Instr:
        count = self.compiler.expr(s.count)
        coll = self.compiler.expr(s.collection)
        zone = self.ctx.type_of(s.collection).tag == "zone"
        var = s.var
        single = isinstance(s.count, ast.Num) and s.count.value == 1 and s.mode == "exact"
        prompt = self.prompt(s)
        up_to = s.mode == "up_to"
        # players and numbers are ints: they read as players and numbers, never as the pieces of those ints
        element = self.ctx.type_of(s.collection).element().tag
        describe = mech.player_name if element == "player" else mech.number_name if element == "amount" \
            else mech.describe
        items = of_items(self.ctx.type_of(s.collection))

        def build(st: State, a: Activation, pool: Any) -> list:
            return pool  # the options' values: each made when read (choice)

        def choice(x: Any) -> Choice:
            return Choice(None, x, x if items else None, describe)

        def bind(st: State, a: Activation, value: Any, pool: Any) -> None:
            a.env[var] = value

        why = self.none_of(s)
        names = {n.name: namer_for(self.ctx.type_of(n).tag) for n in ast.walk(s.collection) if isinstance(n, ast.Name)
                 and isinstance(self.ctx.ref(n), r.Local) and "{" + n.name + "}" in prompt + (why or "")}

        def nothing_to_choose(st: State, a: Activation) -> str | Words | None:
            mech.abandon(st, a)
            if why is None or not names:
                return why
            return _named_prompt(why, [(name, namer, a.env.get(name)) for name, namer in names.items()])

        def choose(st: State, a: Activation) -> None:
            pool = list(st.zones[coll(a)] if zone else coll(a))
            spend(st, len(pool))
            asked: str | Words = prompt
            if names:  # "choose a resource in {V}'s cost" -> "... in Storm's cost", made when read
                asked = _named_prompt(prompt, [(name, namer, a.env.get(name)) for name, namer in names.items()])
            if single:
                st.frames.append(AskFrame(a, build, bind, asked, empty=nothing_to_choose, data=pool, choice=choice))
            else:
                st.frames.append(ChooseManyFrame(a, pool, count(a), var, up_to, asked, describe))
        return choose

    def none_of(self, s: ast.ChooseFrom) -> str | None:
        """What a question of a filtered pool had none of, in the card's words, for the log
        when nothing passes ("there are no player cards in your hand whose cost is more than
        3"): its prompt leaves the filter out. None for a pool with no filter."""
        if not isinstance(s.collection, ast.Where):
            return None
        return f"there are no {render_expr(s.collection, self._naming_bound(s.collection))}"

    def _naming_bound(self, e: ast.Expr) -> Wording:
        """The card's wording, a name bound earlier in the effect written as `{V}` (filled in
        when asked: `_named_prompt`)."""
        bound = {n.name: "{" + n.name + "}" for n in ast.walk(e)
                 if isinstance(n, ast.Name) and isinstance(self.ctx.ref(n), r.Local)}
        return dataclasses.replace(self.ctx.wording, labels={**self.ctx.wording.labels, **bound}) if bound \
            else self.ctx.wording

    def prompt(self, s: ast.ChooseFrom) -> str:
        """What a chooser is asked, in the card's words: `choose a card in your offer`. A
        name bound earlier reads as what it holds when asked (`{V}` is filled in by
        `ask_prompt`: "choose a resource in Storm's cost")."""
        what = s.collection.collection if isinstance(s.collection, ast.Where) else s.collection
        wording = self._naming_bound(what)
        text = render_expr(what, wording)
        if isinstance(what, ast.ListLiteral):  # "choose one of: 10, 20", "choose up to 2 of: ..."
            listed = ", ".join(render_expr(x, wording) for x in what.items)
            if isinstance(s.count, ast.Num) and s.count.value == 1 and s.mode == "exact":
                return f"choose one of: {listed}"
            return f"choose {'up to ' if s.mode == 'up_to' else ''}{render_expr(s.count, wording)} of: {listed}"
        if isinstance(s.count, ast.Num) and s.count.value == 1 and s.mode != "up_to" and (
                isinstance(what, ast.Relative) or isinstance(what, ast.Name) and what.name in ("players", "opponents")):
            return "choose an opponent" if isinstance(what, ast.Name) and what.name == "opponents" else "choose a player"
        if s.mode == "up_to":
            return f"choose up to {render_expr(s.count, self.ctx.wording)} of: {text}"
        if isinstance(s.count, ast.Num) and s.count.value == 1:
            one = render_member(what, wording)  # "a card in your offer", "one of your tokens on ..."
            if one:
                return f"choose {one}"
            if text.startswith("the "):  # a definition's words: "choose one of the players in range"
                return f"choose one of {text}"
            return f"choose {'an' if text[:1] in 'aeiou' else 'a'} {text}" if not text.startswith(("a ", "an ")) \
                else f"choose {text}"
        if isinstance(s.count, ast.Num):
            return f"choose {s.count.value}: {text}"
        return f"choose: {text}"

    def s_ChooseNumber(self, s: ast.ChooseNumber) -> Instr:
        low = self.compiler.expr(s.low)
        high = self.compiler.expr(s.high)
        step = self.compiler.expr(s.step) if s.step is not None else (lambda a: 1)
        var = s.var
        offered = self.general.numbers_where(s.condition) if s.condition is not None else None
        written = printer.print_statement(s)

        def build(st: State, a: Activation, bounds: Any) -> Sequence[int]:
            lo, hi, by = bounds
            numbers = mech.number_range(lo, hi, by)
            return numbers if offered is None else offered(st, a, numbers)  # the values: made when read (_NUMBER)

        def bind(st: State, a: Activation, value: Any, bounds: Any) -> None:
            a.env[var] = value

        # the designer's word for the number, when the name is one: `as gold_given` -> "gold given"
        what = var.replace("_", " ") if len(var) > 1 and var.lower() == var else "a number"

        # where the condition left every number out, said after the prompt, which holds the
        # range and the condition: "[choose a number: 4 to 6 where it is more than 5]: there
        # is no such number"
        condition = f" where {render_expr(s.condition, self.ctx.wording)}" if s.condition is not None else ""

        def abandoned(st: State, a: Activation) -> None:
            mech.abandon(st, a)

        def none_such(st: State, a: Activation) -> str:
            mech.abandon(st, a)
            return "there is no such number"

        def choose_number(st: State, a: Activation) -> None:
            by = step(a)
            if by <= 0:
                raise ContentError(f"`{written}`: a number is chosen in steps of {by}: a step must be at least 1")
            lo, hi = low(a), high(a)
            # every number left out by the condition: said so
            empty: Callable[[State, Activation], str | None] = none_such if condition and lo <= hi else abandoned
            st.frames.append(AskFrame(a, build, bind, _number_prompt(what, lo, hi, by, condition), "number",
                                      empty=empty, data=(lo, hi, by), choice=_NUMBER))
        return choose_number

    def s_Perform(self, s: ast.Perform) -> Instr:
        names = tuple(self.ctx.spec.vocab.action_names(n.name for n in s.actions))  # a menu: the actions joining it
        mode = s.mode

        def perform(st: State, a: Activation) -> None:
            st.frames.append(PerformFrame(a, mode, st.game.actions_named(names)))
        return perform

    def s_ChooseOne(self, s: ast.ChooseOne) -> Instr:
        options = [(self.compiler.text(o, o.label), self.compiler.expr(o.condition) if o.condition is not None else None,
                    self.compiler.block(o.body)) for o in s.options]
        coverage = self.ctx.coverage
        ids = [coverage.probe(self.ctx.where(o), f"option {o.label!r}", ((o.condition, True),) if o.condition else (),
                              self.stmts.body_lines(o.body)) for o in s.options] if coverage else []

        def build(st: State, a: Activation, data: Any) -> list[Choice]:
            return [Choice(label, i) if isinstance(label, str) else Choice(None, i, None, *label.labelled(a))
                    for i, (label, cond, _) in enumerate(options) if cond is None or cond(a)]

        def then(st: State, a: Activation, i: Any, data: Any) -> None:
            if coverage is not None:
                coverage.hits[ids[i]] += 1
            enter(st, options[i][2], a)  # the chosen option's statements: at once if they cannot ask

        def choose_one(st: State, a: Activation) -> None:  # the options' statements, for a preview (preview.py)
            st.frames.append(AskFrame(a, build, then, "choose one", "one", data=s))
        return choose_one

    def s_May(self, s: ast.May) -> Instr:
        body = self.compiler.block(s.body)
        prompt = self.compiler.text(s, s.prompt) if s.prompt else "do it?"
        coverage = self.ctx.coverage
        ids = (coverage.probe(self.ctx.where(s), "may: no"), coverage.probe(self.ctx.where(s), "may: yes")) if coverage else ()

        def then(st: State, a: Activation, yes: Any, data: Any) -> None:
            if coverage is not None:
                coverage.hits[ids[1 if yes else 0]] += 1
            if yes:
                enter(st, body, a)

        def may(st: State, a: Activation) -> None:
            asked = prompt if isinstance(prompt, str) else prompt.words(a)
            st.frames.append(AskFrame(a, _yes_no, then, asked, "may", auto=False, choice=_yes_or_no))
        return may

    # ------------------------------------------------------------------ declarations
    def compile_action(self, spec: ActionSpec) -> CompiledAction:
        what = f"action `{spec.name}`"
        self.ctx.origin = spec.choose_origin or Origin(what)
        coll = self.compiler.expr(spec.choose) if spec.choose is not None else None
        parts: list[Fn] = []
        for test, where in spec.conditions():  # its own `if:`, then each restriction, each where it is written
            self.ctx.origin = where or Origin(what)
            parts.append(self.compiler.expr(test))
        cond = _all_of(parts)
        gate = coll is not None and cond is not None and not any(
            isinstance(n, ast.Name) and n.name == spec.var for test, _ in spec.conditions() for n in ast.walk(test))
        items = spec.choose is not None and of_items(self.ctx.type_of(spec.choose))
        self.ctx.origin = spec.origin or Origin(what)
        label = self.compiler.text(spec.label_node, spec.label) if spec.label_node is not None else spec.label
        return CompiledAction(spec.name, label, spec.var, coll, cond,
                              self.compiler.program(spec.body, spec.origin or Origin(what)), gate, items)
