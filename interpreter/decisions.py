"""The decision protocol: whenever the rules or an effect need a choice, the game
stops on a Decision (who decides, a prompt, the legal options) and waits for one of
them. Bots, the terminal and tests all answer through the same protocol.

An option is what it is (its value, the piece it names), not its words: a label is made
the first time someone reads one of the decision's options (a person, a log, the seat's
view), from the state as it stands at the decision, and alike labels are told apart then
(naming.told_apart). A bot that answers by index never makes one (issue 32, step 1).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Callable

from .errors import InternalError
from .naming import player_name, told_apart

if TYPE_CHECKING:  # pragma: no cover
    from .vm import State

Words = Callable[[Any], str]
"""Words made when read: given a reader (a State of the game, or anything with its
`game`), the text. Words read only what does not change in a game (names, labels) and
what they captured when they were made, so they read the same whenever they are made."""

Label = Callable[[Any, Any], str]
"""An option's label made when read: given a reader and the option's value. One function
serves every option of a pool (a piece's name, a player's, a number): no words and no
function are made per option until someone reads them."""


class Choice:
    """One option of a decision: its `value` (what answering it runs with), the piece (an
    int) or item (a DefRef) it names where its maker knows it does (`item`: players and
    numbers are ints too, so the value alone cannot tell), and its label: given as text,
    or made when first read by `words(reader, value)`."""

    __slots__ = ("value", "item", "_label", "_words", "_of", "shows")

    def __init__(self, label: str | None, value: object, item: object = None, words: Label | None = None,
                 shows: tuple[int, ...] = ()):
        self._label = label
        self.value = value
        self.item = item
        self._words = words
        # the pieces its words name, where they are not its item (`choose one:`'s "keep
        # {first}"): a log that tells others what was chosen hides it while one is hidden
        self.shows = shows
        # the decision it is an option of, where labels are told apart: by a weak reference,
        # so a decision and its options are no cycle and go when the game moves on (not at
        # the garbage collector's next pass: most decisions are answered unread)
        self._of: weakref.ref[Decision] | None = None

    @property
    def label(self) -> str:
        if self._of is None:
            raise InternalError("an option's label is read before it is offered (Choice.words reads it alone)")
        of = self._of()
        if of is None:
            raise InternalError("an option's label is read after its decision is gone (read it while the decision is "
                                "pending)")
        if not of.named:
            of.name_options()
        assert self._label is not None
        return self._label

    def words(self, reader: Any) -> str:
        """The label alone, as its maker worded it (not told apart from the others'):
        for an option taken without being asked (Taken)."""
        if self._label is not None:
            return self._label
        assert self._words is not None
        return self._words(reader, self.value)

    def __repr__(self) -> str:
        shown = self._label if self._label is not None else "<words not made>"
        return f"Choice({shown!r}, {self.value!r})"


class Decision:
    """A question waiting for an answer. `options` can be counted and answered by index
    without a word made; the first label read (or `labels()`) makes them all, told apart,
    while the decision is pending (State.ask gives it the state it is asked in)."""

    __slots__ = ("player", "_options", "kind", "named", "_prompt", "_st", "_build", "_values", "_choice",
                 "__weakref__")

    def __init__(self, player: int, prompt: str | Words, options: tuple[Choice, ...] | None, kind: str = "choose",
                 build: Callable[[State], tuple[Choice, ...]] | None = None, values: tuple | None = None,
                 choice: Callable[[Any], Choice] | None = None):
        self.player = player
        self._prompt = prompt
        self.kind = kind  # choose | one | may | number | action | bid
        self.named = False
        self._st: State | None = None
        # options made when first read (`build(state)`, from the state it is pending in): an
        # action menu or a response window in a bot's copy of the game, which a bot looking
        # ahead mostly weighs without reading (State.menus_when_read)
        self._build = build
        # or known by their values, each option made when first read (`choice(value)`): a bot
        # answers by index (`count`, `value`) and no option is made at all
        self._values = values
        self._choice = choice
        self._options: tuple[Choice, ...] | None = None
        if options is not None:
            self._offer(options)
        elif values is not None:
            if choice is None:
                raise InternalError("a decision's values come without a way to make their options")
        elif build is None:
            raise InternalError("a decision has neither options nor a way to make them")

    def _offer(self, options: tuple[Choice, ...]) -> None:
        self._options = options
        me = weakref.ref(self)
        for option in options:
            option._of = me

    @property
    def options(self) -> tuple[Choice, ...]:
        """The legal options, made now if they are made when read."""
        options = self._options
        if options is None:
            values, choice = self._values, self._choice
            if values is not None and choice is not None:
                options = tuple([choice(value) for value in values])
            else:
                build = self._build
                assert build is not None
                options = build(self._reader())  # a failure located by the builder (vm.made_when_read)
                self._build = None
            self._offer(options)
        return options

    @property
    def count(self) -> int:
        """How many options there are, none made where their values are known."""
        values = self._values
        return len(values) if values is not None else len(self.options)

    def value(self, index: int) -> Any:
        """What answering option `index` runs with, the option not made where it is not."""
        values = self._values
        return values[index] if values is not None else self.options[index].value

    @property
    def made(self) -> bool:
        """Whether its options are known: made, or known by their values (a decision whose
        options are made when read is not, until they are read)."""
        return self._options is not None or self._values is not None

    @property
    def prompt(self) -> str:
        prompt = self._prompt
        if not isinstance(prompt, str):
            prompt = self._prompt = prompt(self._reader())
        return prompt

    def labels(self) -> list[str]:
        if not self.named:
            self.name_options()
        return [o._label for o in self.options]  # type: ignore[misc]  # made by name_options

    def name_options(self) -> None:
        """Make every option's label and tell alike ones apart, from the state the
        decision is pending in: where each piece is is part of a told-apart label."""
        st = self._reader()
        if st.pending is not self:
            raise InternalError(f"the options of `{self.prompt}` are read after it was answered: a decision's "
                                "labels are read while it is pending")
        options = self.options
        labels = [o._label if o._label is not None else o._words(st, o.value) for o in options]  # type: ignore[misc]
        for option, label in zip(options, told_apart(st, self.player, options, labels)):
            option._label = label
        self.named = True

    def asked_in(self, st: State) -> None:
        self._st = st

    def is_in(self, st: State) -> bool:
        """Was it asked in `st` (not in the state `st` was copied from)?"""
        return self._st is st

    def bound(self, st: State) -> "Decision":
        """The same decision pending in `st` (a copy of the state it was asked in): its
        options new, so that labels read there are made from `st`."""
        if self._options is None:  # made from `st` when read, or from the values
            new = Decision(self.player, self._prompt, None, self.kind, self._build, self._values, self._choice)
            new._st = st
            return new
        new = Decision(self.player, self._prompt,
                       tuple(Choice(o._label, o.value, o.item, o._words, o.shows) for o in self._options), self.kind)
        new.named = self.named
        new._st = st
        return new

    def _reader(self) -> State:
        if self._st is None:
            raise InternalError("a decision's words are read before it was asked (State.ask)")
        return self._st

    def __eq__(self, other: object) -> bool:
        """The same question: who, what, which options (their values and words)."""
        if not isinstance(other, Decision):
            return NotImplemented
        return (self.player, self.kind, self.prompt, [(o.value, o.item) for o in self.options], self.labels()) == \
            (other.player, other.kind, other.prompt, [(o.value, o.item) for o in other.options], other.labels())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        count = "unmade" if self._options is None else len(self._options)
        return f"Decision(P{self.player + 1}, {self._prompt!r}, {count} options, {self.kind!r})"


class Taken(str):
    """The log line of a decision nobody was asked: its only possible answer was taken
    for `player` ("P1 [choose a resource]: ore (the only choice)"). `piece` is the answer
    when it is a piece, for a log that must not name a piece some players may not see."""

    player: int
    piece: int | None
    # the line's parts, for a log that says it otherwise or hides the answer: parsing the
    # line back cut a question holding ": " (`choose 2: cards in ...`) in two
    who: str
    question: str
    words: str

    @staticmethod
    def said(player: int, prompt: str | Words, choice: Choice) -> "Said":
        """The line, made when the log is read (vm.Log): the option's words and the
        prompt's are those it was made with."""
        return Said(_taken, (player, prompt, choice))


def _taken(reader: Any, player: int, prompt: str | Words, choice: Choice) -> "Taken":
    asked = prompt if isinstance(prompt, str) else prompt(reader)
    who, words = player_name(reader, player), choice.words(reader)
    line = Taken(f"{who} [{asked}]: {words} (the only choice)")
    line.player, line.who, line.question, line.words = player, who, asked, words
    # the piece the option names (or its words do), never its value: a number taken (a bid of 1) is no piece
    line.piece = choice.item if type(choice.item) is int else choice.shows[0] if choice.shows else None
    return line


def nothing_to_choose(player: int, prompt: str | Words, why: str | Words | None = None) -> "Said":
    """The log line of a question with no option, whose effect stops there ("P1 [choose a
    piece in your zone]: nothing to choose; the rest of the effect does not happen"): said
    as a question with one option is, so that a player, and a designer's `try`, see why
    what followed it did not happen (it stopped in silence). `why`: what there was none
    of, where the question leaves it out (a filter: "there are no cards in your hand whose
    cost is more than 3")."""
    return Said(_nothing, (player, prompt, why))


def _nothing(reader: Any, player: int, prompt: str | Words, why: str | Words | None = None) -> str:
    asked = prompt if isinstance(prompt, str) else prompt(reader)
    none = "nothing to choose" if why is None else why if isinstance(why, str) else why(reader)
    return f"{player_name(reader, player)} [{asked}]: {none}; the rest of the effect does not happen"


def nothing_to_pick(statement: str) -> str:
    """The log line of `pick at random` from nothing, whose effect stops there."""
    return f"[{statement}]: nothing to pick from; the rest of the effect does not happen"


class Said:
    """A log line made when the log is read (vm.Log): `make(reader, *args)`, the args
    captured when it was said (values, never the live state), so it reads the same
    whenever it is read."""

    __slots__ = ("make", "args")

    def __init__(self, make: Callable[..., str], args: tuple):
        self.make = make
        self.args = args

    def text(self, reader: Any) -> str:
        return self.make(reader, *self.args)
