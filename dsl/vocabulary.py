"""What a ruleset names, as the checker sees it.

The language knows no game: every counter, zone, kind, symbol, event, quantity,
option, action and definition comes from a ruleset's data and is described here.
pipeline/ builds a Vocabulary from the YAML models; tests build small ones by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .types import T


@dataclass
class CounterInfo:
    scope: str  # player | game
    label: str | None = None
    min: int | None = 0
    max: int | None = None
    start: int = 0


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
    counters: dict[str, CounterInfo] = field(default_factory=dict)
    track: int | None = None  # spaces, for board kinds with a track
    bump: bool = True
    holder: bool = False
    supply: int | None = None
    supply_zone: str | None = None
    starts_in: str | None = None


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


@dataclass
class DefinitionInfo:
    params: list[tuple[str, T]]
    source: object = None  # the parsed expression (dsl.ast.Expr)
    type: T | None = None  # what it evaluates to, once checked


@dataclass
class PaymentInfo:
    cost: str
    symbol: str
    wild: str | None = None
    max_wild: int = 1


@dataclass
class Vocabulary:
    counters: dict[str, CounterInfo] = field(default_factory=dict)
    zones: dict[str, ZoneInfo] = field(default_factory=dict)
    kinds: dict[str, KindInfo] = field(default_factory=dict)
    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)
    events: dict[str, EventInfo] = field(default_factory=dict)
    quantities: dict[str, QuantityInfo] = field(default_factory=dict)
    options: dict[str, T] = field(default_factory=dict)
    actions: dict[str, object] = field(default_factory=dict)
    definitions: dict[str, DefinitionInfo] = field(default_factory=dict)
    content: dict[str, str] = field(default_factory=dict)  # content id -> kind
    eras: int = 0
    payment: PaymentInfo | None = None
    hand: str | None = None
    labels: dict[str, str] = field(default_factory=dict)

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
        for table in (self.counters, self.zones, self.kinds, self.events, self.quantities):
            info = table.get(name)
            label = getattr(info, "label", None) if info is not None else None
            if isinstance(label, str) and label:
                return label
        return name.replace("_", " ")

    def all_names(self) -> list[str]:
        names: list[str] = []
        for table in (self.counters, self.zones, self.kinds, self.events, self.quantities, self.options,
                      self.actions, self.definitions, self.content):
            names.extend(table)
        for values in self.enums.values():
            names.extend(values)
        return names


GENERIC_NOUNS = frozenset({"card", "cards", "piece", "pieces", "token", "tokens", "item", "items",
                           "thing", "things"})
