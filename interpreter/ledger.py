"""The score ledger: where each change of the ruleset's score counter came from, and
those changes grouped into a breakdown a player reads at the end of a game.

A Game compiled with `ledger=True` changes counters (gain, lose, pay, transfer, set,
raise, lower, an auction's payment) through closures that, when the counter is a
player's score, also record the player, the statement (its Source) and the item whose
effect was running (`this`), with the change as it was applied (after the counter's
bounds). A game compiled without it runs the usual closures and pays nothing (as
interpreter.coverage does). The records live in the state, as an immutable chain in
`flags`: a copy, an undo or a refused choice keeps exactly the records of the state it
is. A breakdown is read from a ledger game that replayed a finished game's decisions.

Grouping, generic: a change made while an item's effect ran (its own effect, a trigger,
an effect attribute, a procedure the item ran) counts for the item's kind, labelled with
the kind's plural; one made by the rules counts for its procedure or action (or the
setup, or the game procedure), labelled with its `text:` or name. The ruleset's
`display: scoring:` may rename any of them and split a procedure or action by
statement; the counter's starting value is a part of its own. The parts add up to the
score. A score that is a definition (`score:` naming one) changes no counter: it has no
sources, and its breakdown is one part, the definition's value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from legacies.dsl import ast, printer
from legacies.dsl.render.sources import render_in_place
from legacies.dsl.wording import Wording

from . import mechanics as mech
from .errors import Where
from .frames import AuctionFrame
from .spec import GameSpec
from .vm import Activation, State

KEY = "ledger"  # the state's flags entry holding the records
STARTING_VALUE = "at the start"


@dataclass(frozen=True)
class Source:
    """A statement that can change a counter: where it is written (what it belongs to,
    file:line:column) and its text on one line, as a ruleset's labels name it."""

    where: Where
    text: str


Adjust = Callable[[State, int, int], None]


class Ledger:
    """The sources of one compiled Game and the slots of its score counter."""

    def __init__(self, first: int, players: int):
        self.sources: list[Source] = []
        self.first = first  # the score's slot for the first player (-1: no score counter)
        self.stop = first + players if first >= 0 else -1

    def source(self, where: Where, stmt: ast.Stmt) -> int:
        self.sources.append(Source(where, statement_text(stmt)))
        return len(self.sources) - 1

    def adjuster(self, source: int) -> Adjust:
        """mechanics.adjust that records a change of a score (the item running is read
        from the innermost frame: the statement's own, or its block's once an answer
        popped the frame that asked)."""
        first, stop = self.first, self.stop

        def adjust(st: State, slot: int, delta: int) -> None:
            if not first <= slot < stop:
                mech.adjust(st, slot, delta)
                return
            before = st.counters[slot]
            mech.adjust(st, slot, delta)
            record(st, slot - first, source, st.counters[slot] - before,
                   st.frames[-1].act.this if st.frames else -1)
        return adjust

    def auction(self, source: int) -> Callable[..., AuctionFrame]:
        """An AuctionFrame whose winner's payment is recorded (an auction paid in the score)."""
        def make(act: Activation, *args: Any) -> AuctionFrame:
            frame = RecordedAuction(act, *args)
            frame.source = source
            return frame
        return make


class RecordedAuction(AuctionFrame):
    """An auction whose payment, when it comes, is recorded against the winner's score."""

    __slots__ = ("source",)
    source: int

    def step(self, st: State) -> None:
        bidder = self.high_bidder
        slot = self.slot_base + bidder
        before = st.counters[slot] if bidder >= 0 else 0
        super().step(st)
        if bidder >= 0:  # the payment happens on the step that finds no one left to bid
            record(st, bidder, self.source, st.counters[slot] - before, self.act.this)


def statement_text(stmt: ast.Stmt) -> str:
    """A statement on one line: how a Source, and a label in `display: scoring:`, name it."""
    return " ".join(printer.print_statement(stmt).split())


def record(st: State, player: int, source: int, change: int, this: int) -> None:
    if change:
        flags = st.flags
        flags[KEY] = (player, source, change, this, flags.get(KEY))


def records(st: State) -> list[tuple[int, int, int, int]]:
    """(player, source, change, item running or -1) of every recorded change, in order."""
    out = []
    node = st.flags.get(KEY)
    while node is not None:
        out.append(node[:4])
        node = node[4]
    out.reverse()
    return out


# ---------------------------------------------------------------------- breakdown
@dataclass(frozen=True)
class Part:
    """Points from one place: its label, their sum, and what gave them (item names, or
    the statements of the rules), largest first."""

    label: str
    amount: int
    details: tuple[tuple[str, int], ...] = ()


def breakdown(st: State) -> list[list[Part]]:
    """Each player's score in parts, largest first: the parts and the starting value
    add up to the score (an empty ledger: only the starting value and what is missing).
    A score that is a definition is one part, its value (no ledger needed)."""
    game = st.game
    if game.score_value is not None:
        label = game.spec.vocab.label(game.spec.score_definition or "")
        with st.frozen():
            values = [int(game.score_value(Activation(st, p))) for p in range(game.players)]
        return [[Part(label, v)] if v else [] for v in values]
    ledger: Ledger | None = game.ledger
    if ledger is None:
        raise ValueError("this game keeps no score ledger: compile it with Game(..., ledger=True)")
    spec: GameSpec = game.spec
    rules = rule_names(spec)
    piece_def = game.layout.piece_def
    sums: list[dict[str, dict[str, int]]] = [{} for _ in range(game.players)]
    words = Words(spec)
    for player, source, change, this in records(st):
        label, detail = _place(spec, rules, ledger.sources[source], piece_def[this] if this >= 0 else -1, words)
        details = sums[player].setdefault(label, {})
        details[detail] = details.get(detail, 0) + change
    out = []
    for p in range(game.players):
        parts = [Part(label, sum(d.values()), tuple(sorted(d.items(), key=lambda x: (-x[1], x[0]))))
                 for label, d in sums[p].items()]
        start = game.layout.counter_start[ledger.first + p] if ledger.first >= 0 else 0
        if start:
            parts.append(Part(STARTING_VALUE, start))
        out.append(sorted((x for x in parts if x.amount), key=lambda x: (-x.amount, x.label)))
    return out


def rule_names(spec: GameSpec) -> dict[str, str]:
    """What a program of the rules is called in its Where -> its name in `display:
    scoring:` (a procedure's, action's or rules trigger's name, `setup`, `game`)."""
    names = {f"procedure `{n}`": n for n in spec.procedures} | {f"action `{n}`": n for n in spec.actions}
    names.update({f"trigger `{n}`": n for n, _, _ in spec.rule_triggers})
    names.update({p.origin.what: n for n, p in spec.procedures.items() if p.origin is not None})
    names.update({a.origin.what: n for n, a in spec.actions.items() if a.origin is not None})
    names[spec.setup_origin.what if spec.setup_origin else "setup"] = "setup"
    names[spec.game_origin.what if spec.game_origin else "the game procedure"] = "game"
    return names


class Words:
    """A statement of the rules as a player reads it in a breakdown ("gain stars equal to
    your gold divided by 10 (rounded down)"), each worded once."""

    def __init__(self, spec: GameSpec):
        self.spec = spec
        self.wording: Wording | None = None
        self.said: dict[tuple[str, str], str] = {}

    def __call__(self, name: str, written: str) -> str:
        key = (name, written)
        if key not in self.said:
            self.said[key] = self._word(name, written) or written
        return self.said[key]

    def _word(self, name: str, written: str) -> str | None:
        spec = self.spec
        self.wording = self.wording or Wording.of(spec.vocab)
        if name in spec.procedures:
            info = spec.vocab.procedures.get(name)
            return render_in_place(spec.procedures[name].body, written, self.wording,
                                   params=info.params if info is not None else ())
        if name in spec.actions:
            action = spec.actions[name]
            chosen = [(action.var, action.choose)] if action.var and action.choose is not None else []
            return render_in_place(action.body, written, self.wording, chosen=chosen)
        program = spec.setup if name == "setup" else spec.game if name == "game" else next(
            (ast.Program(t.body) for n, t, _ in spec.rule_triggers if n == name), None)
        return render_in_place(program, written, self.wording) if program is not None else None


def _place(spec: GameSpec, rules: dict[str, str], source: Source, d: int,
           words: Callable[[str, str], str] = lambda name, written: written) -> tuple[str, str]:
    """(the part's label, the detail within it) of a change: an item's name, or the rules'
    statement in words."""
    labels = spec.score_labels
    if d >= 0:
        pdef = spec.defs[d]
        label = labels.get(pdef.kind)
        return (label if isinstance(label, str) else kind_plural(spec, pdef.kind)), pdef.name
    name = rules.get(source.where.what)
    if name is None:  # an effect of an item with several copies, run by the rules: the item's own words
        return source.where.what, source.text
    given = labels.get(name)
    if isinstance(given, dict):
        given = given.get(source.text)
    return (given or _rule_label(spec, name)), words(name, source.text)


def _rule_label(spec: GameSpec, name: str) -> str:
    if name == "game":
        return "the game"
    text = spec.vocab.labels.get(name) if name in spec.procedures else None  # its `text:`, when it has no blanks
    return text if text and "{" not in text else name.replace("_", " ")


def kind_plural(spec: GameSpec, kind: str) -> str:
    """A kind's items in the ruleset's words: its plural's label, else its label made plural."""
    info = spec.vocab.kinds.get(kind)
    if info is not None and info.plural:
        return spec.vocab.label(info.plural)
    word = spec.vocab.label(kind)
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")
