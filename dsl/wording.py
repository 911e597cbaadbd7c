"""A ruleset's words for card text (`Wording`, read from dsl/vocabulary.py's
Vocabulary): labels, era names and the era word, nouns and plurals of kinds, the board
items tokens sit on, yes/no attributes and counters in the ruleset's own words, what a
definition lists, the names an event binds, menus. dsl/renderer.py words effects with
it; the compiler fills prompts and labels with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence


@dataclass
class Wording:
    """The words of a ruleset: labels of names, names of items, templates of definitions
    and procedures ({0}, {1}... or {PARAM} are the arguments), the eras."""

    labels: Mapping[str, str] = field(default_factory=dict)
    era_names: Sequence[str] = ()
    era_word: str = "era"
    nouns: Mapping[str, str] = field(default_factory=dict)  # a collection word (kind, plural, set) -> its noun
    zones: frozenset[str] = frozenset()  # names of zones (pieces are "in" them, "on" items)
    tables: frozenset[str] = frozenset()  # attributes that are tables (item: number)
    board_items: frozenset[str] = frozenset()  # ids of board items (tokens are "on" them)
    item_lists: frozenset[str] = frozenset()  # attributes holding board items
    board_nouns: frozenset[str] = frozenset()  # nouns of board kinds
    flags: frozenset[str] = frozenset()  # yes/no attributes (`its sealed` reads "it is sealed")
    results: Mapping[str, str] = field(default_factory=dict)  # a definition -> the noun of what it lists
    plurals: Mapping[str, str] = field(default_factory=dict)  # a noun -> its plural
    event_params: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # names a trigger's event binds
    kind_plurals: Mapping[str, str] = field(default_factory=dict)  # a kind's plural name -> its words
    plural_words: frozenset[str] = frozenset()  # nouns in the plural: a comparison after them reads "are"
    yes_no: Mapping[str, tuple[str | None, str | None]] = field(default_factory=dict)  # name -> (true, false) text
    menus: frozenset[str] = frozenset()  # names of menus of actions: "perform one of your turn actions"

    @staticmethod
    def of(vocab: Any) -> "Wording":
        """The wording of a dsl.vocabulary.Vocabulary."""
        labels = {name: vocab.label(name) for name in vocab.all_names()}
        for info in vocab.kinds.values():  # an item counter's label: "North's level on the trade track"
            for name, counter in info.counters.items():
                if counter.label and name not in labels:
                    labels[name] = counter.label
        labels.update(vocab.labels)
        labels.update(vocab.content_names)
        nouns: dict[str, str] = {}
        for kind, info in vocab.kinds.items():
            noun = info.label or kind.replace("_", " ")
            nouns[kind] = noun
            if info.plural:
                nouns[info.plural] = noun
        for name in vocab.counter_sets:
            nouns[name] = labels.get(name, name.replace("_", " "))
        for name in vocab.enums:
            nouns[name] = labels.get(name, name.replace("_", " "))
        tables = frozenset(a for k in vocab.kinds.values() for a, t in k.attributes.items() if t.tag == "table")
        boards = {k for k, info in vocab.kinds.items() if info.piece == "board"}
        board_items = frozenset(i for i, k in vocab.content.items() if k in boards)
        item_lists = frozenset(a for k in vocab.kinds.values() for a, t in k.attributes.items()
                               if t.tag in ("thing", "things") and t.arg in boards)
        board_nouns = frozenset(nouns[k] for k in boards)
        flags = frozenset(a for k in vocab.kinds.values() for a, t in k.attributes.items() if t.tag == "flag")
        results = {name: nouns[d.type.arg] for name, d in vocab.definitions.items()
                   if d.type is not None and d.type.tag == "things" and d.type.arg in nouns}
        plurals = {nouns[k]: (info.plural or k).replace("_", " ") for k, info in vocab.kinds.items()
                   if info.plural}
        event_params = {name: tuple(e.params) for name, e in vocab.events.items()}
        kind_plurals = {info.plural: plurals[nouns[k]] for k, info in vocab.kinds.items() if info.plural}
        plural_words = frozenset(w.rsplit(" ", 1)[-1] for w in plurals.values()) | frozenset(
            nouns[name].rsplit(" ", 1)[-1] + "s" for name in vocab.counter_sets)
        yes_no = {name: (info.text_true, info.text_false)
                  for table in (vocab.counters, vocab.quantities, *(k.counters for k in vocab.kinds.values()))
                  for name, info in table.items() if info.text_true or info.text_false}
        return Wording(labels, list(vocab.era_names), vocab.era_word, nouns, frozenset(vocab.zones), tables,
                       board_items, item_lists, board_nouns, flags, results, plurals, event_params, kind_plurals,
                       plural_words, yes_no, frozenset(vocab.menus))
