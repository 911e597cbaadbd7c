"""The typed syntax tree of the effect language.

One frozen dataclass per node kind. Every node carries a source `span`, kept out
of equality and hashing (like CPython's `_attributes`), so two programs that say
the same thing compare equal wherever they were written. `children()` is the one
generic walk every pass uses.

What each statement and builtin means, how it is written and worded is declared
once in `dsl/constructs.py`; this module only holds the shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Iterator, Union


@dataclass(frozen=True, slots=True)
class Span:
    """Where a node was written: 1-based line and column, end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int


_NOT_CHILDREN = ("span", "name_span", "reason_span")
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}  # class -> its fields that may hold nodes (fields() is slow)


@dataclass(frozen=True, slots=True)
class Node:
    span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)

    def children(self) -> Iterator["Node"]:
        names = _CHILD_FIELDS.get(type(self))
        if names is None:
            names = _CHILD_FIELDS[type(self)] = tuple(f.name for f in fields(self) if f.name not in _NOT_CHILDREN)
        for name in names:
            value = getattr(self, name)
            if isinstance(value, Node):
                yield value
            elif isinstance(value, tuple):
                for item in value:
                    if isinstance(item, Node):
                        yield item


def walk(node: Node) -> Iterator[Node]:
    """Every node below and including `node`, parents first (no recursion: deep trees are fine)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(current.children())))


# ------------------------------------------------------------------ expressions


@dataclass(frozen=True, slots=True)
class Expr(Node):
    pass


@dataclass(frozen=True, slots=True)
class Num(Expr):
    value: int


@dataclass(frozen=True, slots=True)
class Era(Expr):
    """`20/50/100`: one value per era of the ruleset (VAL-1)."""

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Percent(Expr):
    """`150%`: only as the right side of `*`; the product rounds up."""

    value: int


@dataclass(frozen=True, slots=True)
class Text(Expr):
    value: str


@dataclass(frozen=True, slots=True)
class Bool(Expr):
    value: bool


@dataclass(frozen=True, slots=True)
class Name(Expr):
    name: str


@dataclass(frozen=True, slots=True)
class This(Expr):
    pass


@dataclass(frozen=True, slots=True)
class It(Expr):
    pass


@dataclass(frozen=True, slots=True)
class Of(Expr):
    """`X's name`, `name of X`, `my name`, `its name`: one node, resolved by the checker
    into an attribute, a counter, a zone, a value, a quantity or a one-argument builtin."""

    name: str
    subject: Expr
    name_span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Empty(Expr):
    subject: Expr


@dataclass(frozen=True, slots=True)
class Has(Expr):
    """`X has ATTRIBUTE` / `X has no ATTRIBUTE`: whether an item gives the attribute."""

    subject: Expr
    attribute: str
    negated: bool = False
    name_span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Compare(Expr):
    op: str  # = != > < >= <= in
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class BoolOp(Expr):
    op: str  # and | or
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True)
class Arith(Expr):
    """`+ - *` on amounts; `+` also joins two collections of the same kind."""

    op: str  # + - *
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Div(Expr):
    """Division; rounds up unless written `rounded down` (VAL-3)."""

    left: Expr
    right: Expr
    rounding: str | None = None  # None (up), "up", "down"


@dataclass(frozen=True, slots=True)
class Neg(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True)
class Cond(Expr):
    """`A if CONDITION else B`: a value chosen by a condition."""

    condition: Expr
    yes: Expr
    no: Expr


@dataclass(frozen=True, slots=True)
class Where(Expr):
    collection: Expr
    condition: Expr


@dataclass(frozen=True, slots=True)
class Ordered(Expr):
    """`COLLECTION ordered by KEY [descending]`: a stable sort (ties keep their order);
    `it` is each member while KEY is computed."""

    collection: Expr
    key: Expr
    descending: bool = False


@dataclass(frozen=True, slots=True)
class Select(Expr):
    """`cards in my hand`, `tokens in X`: pieces of a zone, or every item of a kind."""

    word: str
    source: Expr
    name_span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Top(Expr):
    end: str  # top | bottom
    count: Expr | None
    source: Expr


@dataclass(frozen=True, slots=True)
class Entry(Expr):
    """`entry N of LIST`: the N-th member (1-based) of a list; `entry K of TABLE`: K's number."""

    index: Expr
    source: Expr


@dataclass(frozen=True, slots=True)
class SpaceOf(Expr):
    """`space N of ITEM`: the N-th space (1-based) of an item's track, a zone."""

    index: Expr
    track: Expr


@dataclass(frozen=True, slots=True)
class Aggregate(Expr):
    """`total NAME of C`, `highest NAME of C`, `lowest NAME of C`: NAME of every member."""

    fn: str  # total | highest | lowest
    name: str
    collection: Expr
    name_span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Relative(Expr):
    """`players after P` / `players before P` (no wrapping around) and `players starting
    with P` (everyone, in turn order, from P round to the player before P); `player after
    P` / `player before P` (`word` "player"): the next / previous player, wrapping round.
    The checker refuses any other word."""

    relation: str  # after | before | starting
    player: Expr
    word: str = "players"  # players | player (one player: the next or previous, wrapping round)


@dataclass(frozen=True, slots=True)
class Call(Expr):
    name: str
    args: tuple[Expr, ...]


# ------------------------------------------------------------------ statements


@dataclass(frozen=True, slots=True)
class Stmt(Node):
    pass


Body = tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Let(Stmt):
    var: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Gain(Stmt):
    amount: Expr
    counter: Name
    player: Expr | None = None


@dataclass(frozen=True, slots=True)
class Lose(Stmt):
    """Lose as much as there is, down to the counter's floor; never refused."""

    amount: Expr
    counter: Name
    player: Expr | None = None


@dataclass(frozen=True, slots=True)
class Pay(Stmt):
    """Pay the amount out of the game; refused (the whole action undone) if it cannot be afforded."""

    amount: Expr
    counter: Name
    player: Expr | None = None


@dataclass(frozen=True, slots=True)
class PayCards(Stmt):
    """`pay for X from my resources`: pay X's symbol cost with matching cards."""

    target: Expr
    source: Expr


@dataclass(frozen=True, slots=True)
class Transfer(Stmt):
    amount: Expr
    source: Expr
    dest: Expr
    up_to: bool = False
    either_way: bool = False


@dataclass(frozen=True, slots=True)
class SetTo(Stmt):
    target: Expr
    value: Expr


@dataclass(frozen=True, slots=True)
class Raise(Stmt):
    target: Expr
    amount: Expr


@dataclass(frozen=True, slots=True)
class Lower(Stmt):
    target: Expr
    amount: Expr


@dataclass(frozen=True, slots=True)
class Move(Stmt):
    """Move pieces to a zone; onto a space of a bumping track, what is there is bumped
    along unless `without bumping`."""

    what: Expr
    dest: Expr
    at: str | None = None  # top | bottom
    bump: bool = True


@dataclass(frozen=True, slots=True)
class Shift(Stmt):
    """`move T by N [without bumping]`: one token N spaces along its track (left when N
    is negative); past the last space it goes back to its owner, before the first it
    stops on the first."""

    what: Expr
    amount: Expr
    bump: bool = True


@dataclass(frozen=True, slots=True)
class Draw(Stmt):
    count: Expr
    source: Expr
    dest: Expr | None = None


@dataclass(frozen=True, slots=True)
class Deal(Stmt):
    count: Expr
    source: Expr
    dest: Expr


@dataclass(frozen=True, slots=True)
class Discard(Stmt):
    what: Expr


@dataclass(frozen=True, slots=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True, slots=True)
class Reveal(Stmt):
    what: Expr


@dataclass(frozen=True, slots=True)
class Place(Stmt):
    """Place a token (taken from the owner's supply) on a track, a space or a holder; a
    track bumps, a full holder sends its oldest token home."""

    piece: Expr
    target: Expr
    bump: bool = True


@dataclass(frozen=True, slots=True)
class Advance(Stmt):
    """Move every token on a track that many spaces along; tokens past the end go home."""

    track: Expr
    amount: Expr


@dataclass(frozen=True, slots=True)
class Remove(Stmt):
    what: Expr


@dataclass(frozen=True, slots=True)
class Dig(Stmt):
    """`dig for CARDS where COND to ZONE`: turn cards from the top of their zone until one
    matches; it goes to ZONE, the others are discarded (rebuilding the deck if needed)."""

    wanted: Expr
    dest: Expr


@dataclass(frozen=True, slots=True)
class Auction(Stmt):
    """`auction among PLAYERS for COUNTER as W and B`: an open auction; bidders in order
    raise or pass until one bid stands; the winner pays it. Binds the winner (W, `nobody`
    when no one bid) and the winning bid (B)."""

    bidders: Expr
    counter: Name
    winner: str
    amount: str


@dataclass(frozen=True, slots=True)
class Arg(Node):
    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Announce(Stmt):
    event: Name
    args: tuple[Arg, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseFrom(Stmt):
    mode: str  # exact | up_to
    count: Expr
    collection: Expr
    var: str


@dataclass(frozen=True, slots=True)
class ChooseNumber(Stmt):
    """`choose a number from N to M [step S] [where CONDITION] as V`: only the numbers for
    which CONDITION holds (`it` is each) are offered."""

    low: Expr
    high: Expr
    var: str
    step: Expr | None = None
    condition: Expr | None = None


@dataclass(frozen=True, slots=True)
class Perform(Stmt):
    mode: str  # one | up_to_one | any
    actions: tuple[Name, ...]


@dataclass(frozen=True, slots=True)
class Play(Stmt):
    """`play X`: run a piece's effect; `play X's ATTRIBUTE`: run an effect an item gives."""

    what: Expr


@dataclass(frozen=True, slots=True)
class Run(Stmt):
    """`NAME(ARG, ...)`: run a procedure of the ruleset with these arguments."""

    name: Name
    args: tuple[Expr, ...] = ()


@dataclass(frozen=True, slots=True)
class SortTurnOrder(Stmt):
    key: Expr
    descending: bool = True


@dataclass(frozen=True, slots=True)
class BeginFinalRound(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class StopTurns(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class Modifier(Node):
    """`quantity [of subject] op value [for players]`: a continuous change to a quantity."""

    quantity: Name
    subject: Expr | None
    op: str  # * + - =
    value: Expr
    scope: Expr | None = None


@dataclass(frozen=True, slots=True)
class TimedModifier(Stmt):
    until: Name
    modifier: Modifier


@dataclass(frozen=True, slots=True)
class Log(Stmt):
    text: str


@dataclass(frozen=True, slots=True)
class Branch(Node):
    condition: Expr
    body: Body


@dataclass(frozen=True, slots=True)
class If(Stmt):
    branches: tuple[Branch, ...]
    otherwise: Body | None = None


@dataclass(frozen=True, slots=True)
class Option(Node):
    label: str
    condition: Expr | None
    body: Body


@dataclass(frozen=True, slots=True)
class ChooseOne(Stmt):
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class May(Stmt):
    prompt: str | None
    body: Body


@dataclass(frozen=True, slots=True)
class ForEach(Stmt):
    var: str
    collection: Expr
    body: Body


@dataclass(frozen=True, slots=True)
class AsPlayer(Stmt):
    """`as P:` — the block runs for player P: P makes its choices, `me`/`my` mean P.
    How "each opponent chooses..." is said (`for each P in opponents: as P: ...`)."""

    player: Expr
    body: Body


@dataclass(frozen=True, slots=True)
class Repeat(Stmt):
    count: Expr
    body: Body


@dataclass(frozen=True, slots=True)
class TakeTurns(Stmt):
    until: Expr | None
    body: Body


# ------------------------------------------------------------------ general constructs
# (a list written out, modulo, "the same card as", a random pick, ending the game)


@dataclass(frozen=True, slots=True)
class ListLiteral(Expr):
    """`[A, B, C]`: a list of values of one type; `[]` is an empty collection."""

    items: tuple[Expr, ...] = ()


@dataclass(frozen=True, slots=True)
class Modulo(Expr):
    """`A modulo B`: the remainder, from 0 to B - 1 (B must be more than 0)."""

    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class SameCard(Expr):
    """`A is [not] the same card as B`: both pieces are copies of one content item."""

    left: Expr
    right: Expr
    negated: bool = False


@dataclass(frozen=True, slots=True)
class PickRandom(Stmt):
    """`pick at random a|N COLLECTION as V`: chance, not a choice: N distinct members drawn
    with the game's seeded generator (all of them when there are fewer); none: the rest of
    the effect does not happen."""

    count: Expr
    collection: Expr
    var: str


@dataclass(frozen=True, slots=True)
class EndGame(Stmt):
    """`end the game [with P as the winner] [because "TEXT"]`: the game is over now;
    nothing else runs. Without a winner named, the ranking decides."""

    winner: Expr | None = None
    reason: str | None = None  # its `{EXPR}` parts show values, as in `log`
    reason_span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)
# ------------------------------------------------------------------ places joined by links; response windows
# (the graph's run-time code is interpreter/graph.py, the window's interpreter/windows.py)


@dataclass(frozen=True, slots=True)
class Neighbours(Expr):
    """`neighbours of X [by LINK or LINK]`: the places one link away from X (from any of them, when X
    is several places)."""

    place: Expr
    links: tuple[Name, ...] = ()


@dataclass(frozen=True, slots=True)
class Within(Expr):
    """`places within N of X [by LINK...] [through CONDITION]`: the places at most N links
    from X (X included), every place passed on the way meeting CONDITION (`it`). `word` is
    `places` or a kind's noun (only the places of that kind)."""

    word: str
    steps: Expr
    place: Expr
    links: tuple[Name, ...] = ()
    through: Expr | None = None
    name_span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Distance(Expr):
    """`distance from X to Y [by LINK...] [through CONDITION]`: the fewest links from X to
    Y; a number larger than any path (graph.UNREACHABLE) when no path joins them."""

    origin: Expr
    dest: Expr
    links: tuple[Name, ...] = ()
    through: Expr | None = None


@dataclass(frozen=True, slots=True)
class ConnectedGroup(Expr):
    """`connected group of X [by LINK...] where CONDITION`: X and every place reachable from
    X through places meeting CONDITION (`it`); empty when X does not meet it."""

    place: Expr
    condition: Expr
    links: tuple[Name, ...] = ()


@dataclass(frozen=True, slots=True)
class Offer(Stmt):
    """`offer A, B to PLAYERS`: a response window. In the order of PLAYERS, each player with
    a legal option among the actions performs one or passes; after an action the others are
    asked again; it closes when every player who can act has passed since the last action
    (at most `limits.max_repeats` actions)."""

    actions: tuple[Name, ...]
    players: Expr


# ------------------------------------------------------------------ declarations


@dataclass(frozen=True, slots=True)
class Trigger(Node):
    """`when EVENT [where COND] [once per turn]: ...` — runs while its item is in play
    (board items always are)."""

    event: Name
    condition: Expr | None
    body: Body
    once: bool = False


@dataclass(frozen=True, slots=True)
class Hook(Node):
    """`when this enters play:` / `when this leaves play:` — once per entry or exit."""

    kind: str  # enters | leaves
    body: Body


@dataclass(frozen=True, slots=True)
class Continuous(Node):
    """`while in play: MODIFIER`."""

    modifier: Modifier


Declaration = Union[Trigger, Hook, Continuous]


@dataclass(frozen=True, slots=True)
class Program(Node):
    """A whole effect: statements run in order when the effect resolves, plus declarations."""

    statements: Body
    declarations: tuple[Node, ...] = ()


def node_classes() -> list[type[Node]]:
    """Every concrete node class (what a pass must handle)."""
    abstract = {Node, Expr, Stmt}
    out: list[type[Node]] = []
    for value in list(globals().values()):
        if isinstance(value, type) and issubclass(value, Node) and value not in abstract:
            out.append(value)
    return out


def _fast_pickling(cls: type) -> None:
    """Pickling by a fixed list of field names: the parse cache unpickles thousands of
    trees, and a slotted dataclass's own __setstate__ asks fields() for every node."""
    names = tuple(f.name for f in fields(cls))
    setter = object.__setattr__

    def getstate(self: Any) -> tuple:
        return tuple([getattr(self, name) for name in names])

    def setstate(self: Any, state: tuple) -> None:
        for name, value in zip(names, state):
            setter(self, name, value)
    cls.__getstate__ = getstate  # type: ignore[method-assign, assignment]
    cls.__setstate__ = setstate  # type: ignore[attr-defined]


for _cls in node_classes() + [Node, Expr, Stmt, Span]:
    _fast_pickling(_cls)
