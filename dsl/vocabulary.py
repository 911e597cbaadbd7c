"""What a ruleset names, as the checker sees it.

The language knows no game: every counter, value, zone, kind, symbol, counter set,
event, quantity, option, action, definition and procedure comes from a ruleset's
data and is described here. pipeline/ builds a Vocabulary from the YAML models;
tests build small ones by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .types import T


@dataclass
class CounterInfo:
    scope: str  # player | game | item
    label: str | None = None
    min: int | None = 0
    max: int | None = None
    start: int = 0
    # how card text says the counter is 1 / 0 ("{0} drew a card this round"):
    # `{0}` is whose counter it is; none: "X's LABEL is 1"
    text_true: str | None = None
    text_false: str | None = None


@dataclass
class ValueInfo:
    """A named slot that holds a player, an item, a symbol, a counter, a flag...: "the
    player who ended the round", "your character"."""

    scope: str  # player | game | item (a value slot of each piece of a kind)
    type: T
    label: str | None = None


@dataclass
class LinkInfo:
    """A kind of link between places (board items): a road, a sea route. `condition` is
    the expression under which a link may be used (`here` and `there` name its ends)."""

    symmetric: bool = True
    label: str | None = None
    condition: object = None  # the parsed expression (dsl.ast.Expr), or None: always usable
    kinds: tuple[str, ...] = ()  # the kinds whose items it joins
    needs_me: bool = False  # the condition uses `me`: a player must act where the link is used


@dataclass
class ZoneInfo:
    scope: str  # player | game
    label: str | None = None
    visibility: str = "public"
    discard_to: str | None = None
    refill_from: str | None = None
    in_play: bool = False


@dataclass
class KindInfo:
    piece: str  # card | board | token
    label: str | None = None
    plural: str | None = None
    attributes: dict[str, T] = field(default_factory=dict)
    counters: dict[str, CounterInfo] = field(default_factory=dict)  # each piece's own (each copy of a card)
    values: dict[str, ValueInfo] = field(default_factory=dict)  # each piece's own value slots
    links: tuple[str, ...] = ()  # the link kinds joining its items (places)
    track: int | None = None  # spaces, for kinds with a track
    bump: bool = True
    holder: bool = False
    capacity: int | None = None  # a holder that holds at most this many pieces
    supply: int | None = None
    supply_zone: str | None = None
    starts_in: str | None = None
    defaults: dict[str, Any] = field(default_factory=dict)  # attribute -> value when an item gives none
    ranges: dict[str, "AttributeRange"] = field(default_factory=dict)  # attribute -> the values it may take
    attribute_labels: dict[str, str] = field(default_factory=dict)  # attribute -> what card text calls it
    by_era: frozenset[str] = frozenset()  # list attributes with one entry per era


@dataclass(frozen=True)
class AttributeRange:
    """The values an attribute may take, as its kind declares them (`min`, `max`, `values`)."""

    lo: int | None = None
    hi: int | None = None
    values: tuple[int | str, ...] | None = None


@dataclass
class EventInfo:
    params: dict[str, T] = field(default_factory=dict)
    label: str | None = None


@dataclass
class QuantityInfo:
    type: T
    default: int | bool
    per: str = "player"
    subject: str | None = None
    label: str | None = None
    text_true: str | None = None  # a yes/no quantity in card text, as for CounterInfo
    text_false: str | None = None


@dataclass
class DefinitionInfo:
    params: list[tuple[str, T]]
    source: object = None  # the parsed expression (dsl.ast.Expr)
    type: T | None = None  # what it evaluates to, once checked
    needs_me: bool = False  # uses `me` (or a definition that does): a player must act where it is used


@dataclass
class ProcedureInfo:
    """A named effect with parameters (`collect_reward(K, S)`), written once in rules."""

    params: list[tuple[str, T]]
    source: object = None  # the parsed program (dsl.ast.Program)
    needs_me: bool = False
    announces: frozenset[str] = frozenset()  # events its body can announce (trigger-cycle analysis)


@dataclass
class PaymentInfo:
    cost: str
    symbol: str
    wild: str | None = None
    max_wild: int = 1


@dataclass
class Vocabulary:
    counters: dict[str, CounterInfo] = field(default_factory=dict)
    values: dict[str, ValueInfo] = field(default_factory=dict)
    zones: dict[str, ZoneInfo] = field(default_factory=dict)
    kinds: dict[str, KindInfo] = field(default_factory=dict)
    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)
    counter_sets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    events: dict[str, EventInfo] = field(default_factory=dict)
    links: dict[str, LinkInfo] = field(default_factory=dict)
    quantities: dict[str, QuantityInfo] = field(default_factory=dict)
    options: dict[str, T] = field(default_factory=dict)
    actions: dict[str, object] = field(default_factory=dict)
    # a menu's actions, in load order: the base's, then each expansion's that joins it
    menus: dict[str, tuple[str, ...]] = field(default_factory=dict)
    definitions: dict[str, DefinitionInfo] = field(default_factory=dict)
    procedures: dict[str, ProcedureInfo] = field(default_factory=dict)
    content: dict[str, str] = field(default_factory=dict)  # content id -> kind
    content_names: dict[str, str] = field(default_factory=dict)  # content id -> the name a player reads
    content_copies: dict[str, int] = field(default_factory=dict)  # content id -> its copies
    content_values: dict[str, dict[str, set]] = field(default_factory=dict)  # kind -> attribute -> values given
    eras: int = 0
    era_names: list[str] = field(default_factory=list)
    era_word: str = "era"
    payment: PaymentInfo | None = None
    hand: str | None = None
    labels: dict[str, str] = field(default_factory=dict)
    bid_steps: tuple[int, ...] = (0, 1, 4, 9, 24)  # an auction's raises above the lowest legal bid
    _names: list[str] | None = field(default=None, repr=False)
    _name_set: frozenset[str] | None = field(default=None, repr=False)

    def symbol_enum(self, value: str) -> str | None:
        for enum, values in self.enums.items():
            if value in values:
                return enum
        return None

    def kind_of_word(self, word: str) -> tuple[bool, str | None]:
        """A selection noun: (True, kind) for a kind or its plural; (True, None) for a
        generic noun (card, tokens...); (False, None) for anything else."""
        if word in self.kinds:
            return True, word
        for name, info in self.kinds.items():
            if info.plural == word:
                return True, name
        return word in GENERIC_NOUNS, None

    def label(self, name: str) -> str:
        if name in self.labels:
            return self.labels[name]
        if name in self.content_names:
            return self.content_names[name]
        for table in (self.counters, self.values, self.zones, self.kinds, self.events, self.quantities, self.links):
            info = table.get(name)
            label = getattr(info, "label", None) if info is not None else None
            if isinstance(label, str) and label:
                return label
        return name.replace("_", " ")

    def all_names(self) -> list[str]:
        """Every name the ruleset takes (computed once: the vocabulary is complete when asked)."""
        if self._names is None:
            names: list[str] = []
            for table in (self.counters, self.values, self.zones, self.kinds, self.events, self.quantities,
                          self.options, self.actions, self.definitions, self.procedures, self.content,
                          self.counter_sets, self.menus, self.links):
                names.extend(table)
            for values in self.enums.values():
                names.extend(values)
            for info in self.kinds.values():
                if info.plural:
                    names.append(info.plural)
            return names
        return self._names

    def freeze_names(self) -> None:
        """Remember all_names() from now on (call when the vocabulary is complete)."""
        self._names = None
        self._name_set = None
        self._names = self.all_names()

    def name_set(self) -> frozenset[str]:
        """all_names() as a set (kept once the names are frozen: a checker per program
        used to build it again, which made checking quadratic in the content's size)."""
        if self._names is None:
            return frozenset(self.all_names())
        if self._name_set is None:
            self._name_set = frozenset(self._names)
        return self._name_set

    def action_names(self, names: Iterable[str]) -> list[str]:
        """Names of actions and menus -> the actions, a menu standing for its members in
        load order; each action once, where it first comes."""
        out: list[str] = []
        for name in names:
            for action in self.menus.get(name, (name,)):
                if action not in out:
                    out.append(action)
        return out

    def attribute_type(self, kind: str, name: str) -> T | None:
        info = self.kinds.get(kind)
        return info.attributes.get(name) if info is not None else None


GENERIC_NOUNS = frozenset({"card", "cards", "piece", "pieces", "token", "tokens", "item", "items",
                           "thing", "things", "place", "places"})
# the class of piece a generic noun names (the others name any piece)
GENERIC_CLASS = {"card": "card", "cards": "card", "token": "token", "tokens": "token"}
