"""What the checker found each name and `of` to mean: typed records, one class per
meaning (jlox's resolver side table, keyed by node identity). The compiler reads
them: a `PlayerCounter` compiles to a counter slot, an `Attribute` to a column...

Records are frozen and small; `subject` is the expression the meaning is asked of
(None: the acting player, or nothing)."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ast
from .types import T


@dataclass(frozen=True, slots=True)
class Ref:
    """Base of every resolved meaning."""


@dataclass(frozen=True, slots=True)
class Local(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class BuiltinName(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class GameCounter(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class PlayerCounter(Ref):
    name: str
    subject: ast.Expr | None = None


@dataclass(frozen=True, slots=True)
class CounterOf(Ref):
    """A player counter chosen at run time (`R` from `choose a resource as R`): `gain 1 R`,
    `my R`. `holder` is the expression that gives the counter's name."""

    holder: ast.Expr
    subject: ast.Expr | None = None


@dataclass(frozen=True, slots=True)
class ItemCounter(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class ItemValue(Ref):
    """A value slot of each piece of a kind (`X's marked_by`): each copy its own."""

    name: str


@dataclass(frozen=True, slots=True)
class GameValue(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class PlayerValue(Ref):
    name: str
    subject: ast.Expr | None = None


@dataclass(frozen=True, slots=True)
class GameZone(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class PlayerZone(Ref):
    name: str
    subject: ast.Expr | None = None
    plural: bool = False


@dataclass(frozen=True, slots=True)
class Symbol(Ref):
    symbol: str


@dataclass(frozen=True, slots=True)
class Enum(Ref):
    enum: str


@dataclass(frozen=True, slots=True)
class CounterSet(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class Option(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class Quantity(Ref):
    name: str
    subject: ast.Expr | None = None
    of_player: bool = True  # asked of a player (else of an item, for the acting player)


@dataclass(frozen=True, slots=True)
class KindAll(Ref):
    kind: str


@dataclass(frozen=True, slots=True)
class BoardItem(Ref):
    id: str


@dataclass(frozen=True, slots=True)
class CardDef(Ref):
    id: str


@dataclass(frozen=True, slots=True)
class CardPiece(Ref):
    """A card named where one piece is wanted (`claim(K7)`, `move C12 to my hand`):
    its only copy."""
    id: str


@dataclass(frozen=True, slots=True)
class Definition(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class Procedure(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class Action(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class Attribute(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class Supply(Ref):
    kind: str
    subject: ast.Expr | None = None


@dataclass(frozen=True, slots=True)
class BuiltinOf(Ref):
    name: str


@dataclass(frozen=True, slots=True)
class Selection(Ref):
    """`KIND in SOURCE`. `kind` None: a generic noun (`cards`, `tokens`), of `piece`
    class (card, token; None: any piece). `on`: what a collection of items gives:
    "" its members of the kind (a filter), "on" the pieces on each item (tokens on a
    track or a holder), "either" decided per member (a member of the kind stays, an item
    that holds pieces gives the ones on it): the source's kind is not known."""

    kind: str | None
    on: str = ""
    piece: str | None = None


@dataclass(frozen=True, slots=True)
class PileEnd(Ref):
    """`top of` / `bottom of` pieces selected from zones (`cards in deck where ...`): read
    from the zone's top (its last pieces) or bottom, as `top of deck` is."""


@dataclass(frozen=True, slots=True)
class Unknown(Ref):
    """Already reported where it was found; the program will not be compiled."""


@dataclass
class Resolution:
    """The checker's side table: each node's type and meaning, keyed by id(node)."""

    types: dict[int, T] = field(default_factory=dict)
    refs: dict[int, Ref] = field(default_factory=dict)
    keep: list[ast.Node] = field(default_factory=list)  # keeps ids alive and unique
    # a `log` statement's `{...}` parts, parsed and checked: id(stmt) -> [(placeholder, expr)]
    log_parts: dict[int, list[tuple[str, ast.Expr]]] = field(default_factory=dict)

    def ref(self, node: ast.Node) -> Ref:
        return self.refs.get(id(node), UNKNOWN)

    def type(self, node: ast.Node) -> T:
        return self.types.get(id(node), T("any"))


UNKNOWN = Unknown()
