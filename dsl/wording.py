"""A ruleset's words for card text (`Wording`, read from dsl/vocabulary.py's
Vocabulary): labels, era names and the era word (and the current era, where text is
shown in play), nouns and plurals of kinds, the nouns a number counts (a plural and its
singular: "crates", "crate"), the zones of the game (read "the deck"), the board items
tokens sit on, yes/no attributes and counters in the ruleset's own words, what a
definition lists, the names an event binds, menus, actions by their labels.
dsl/renderer.py words effects with it; the compiler fills prompts, labels and log
lines with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .english import article, plural, singular
from .vocabulary import GENERIC_NOUNS


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
    count_nouns: Mapping[str, str] = field(default_factory=dict)  # a plural a number counts -> its singular
    game_zones: frozenset[str] = frozenset()  # zones of the game, not of a player: "the deck"
    actions: Mapping[str, str] = field(default_factory=dict)  # an action -> its label, blanks filled: "Buy a crate"
    player_counters: frozenset[str] = frozenset()  # counters each player has: "you have 3 coins"
    era: int | None = None  # the current era (1-based), where text is shown in play: one value of `a/b/c`

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
        game_zones = frozenset(name for name, z in vocab.zones.items() if z.scope == "game")
        counted = count_nouns(vocab, labels, nouns)
        plural_words |= frozenset(counted)  # a counter in the plural too: "whose crates are more than 0"
        return Wording(labels, list(vocab.era_names), vocab.era_word, nouns, frozenset(vocab.zones), tables,
                       board_items, item_lists, board_nouns, flags, results, plurals, event_params, kind_plurals,
                       plural_words, yes_no, frozenset(vocab.menus), counted,
                       game_zones, action_labels(vocab, {**nouns, **results}),
                       frozenset(n for n, c in vocab.counters.items() if c.scope == "player"))


def count_nouns(vocab: Any, labels: Mapping[str, str], nouns: Mapping[str, str]) -> dict[str, str]:
    """The nouns a number counts, plural -> singular (the last word of each): every
    kind's ("crates" -> "crate", "ponies" -> "pony"), every counter set's, every
    counter's (a player's or a piece's own) whose label ends in a plural ("legacy points"
    -> "point"; "gold" counts nothing), and the engine's own pieces (cards, tokens,
    spaces...)."""
    out: dict[str, str] = {}

    def add(one: str, many: str) -> None:
        one, many = one.rsplit(" ", 1)[-1], many.rsplit(" ", 1)[-1]
        if one != many and (singular(many) == one or plural(one) == many) and re.fullmatch(r"[a-z]+", many):
            out.setdefault(many, one)
    for kind, info in vocab.kinds.items():
        one = nouns.get(kind, kind.replace("_", " "))
        add(one, info.plural.replace("_", " ") if info.plural else plural(one))
        if info.plural and labels.get(info.plural):
            add(one, labels[info.plural])
    for name in vocab.counter_sets:
        one = nouns.get(name, name.replace("_", " "))
        add(one, plural(one))
    counted = [(name, None) for name in vocab.counters]
    counted += [(name, c.label) for info in vocab.kinds.values() for name, c in info.counters.items()]
    for name, own in counted:  # a player's counters and each piece's own ("crates" on a shelf)
        label = labels.get(name) or own or name.replace("_", " ")
        last = label.rsplit(" ", 1)[-1]
        if singular(last) != last:
            add(singular(last), last)
    for word in sorted(GENERIC_NOUNS) + ["space", "step", "time", "turn", "round", "player", "share"]:
        if not word.endswith("s"):
            add(word, plural(word))
    return out


def action_labels(vocab: Any, nouns: Mapping[str, str]) -> dict[str, str]:
    """Each action's label as card text names it: its blanks (`Buy {X}`) filled with
    what the action chooses ("Buy a crate"), or its name in words when it has no label.
    `nouns`: a collection's name (a kind, its plural, a definition listing things) -> the
    noun of its members."""
    out: dict[str, str] = {}
    for name, action in vocab.actions.items():
        label = getattr(action, "label", None) or name.replace("_", " ")
        chosen = re.match(r"\s*([a-z_]+)", getattr(action, "choose", None) or "")
        noun = nouns.get(chosen.group(1), "") if chosen else ""
        if not noun and chosen and chosen.group(1) in GENERIC_NOUNS:
            noun = singular(chosen.group(1))
        filler = f"{article(noun)} {noun}" if noun else "one"
        # what the label adds in brackets for the person choosing (a cost worked out now:
        # "(a small one {cost} gold)") is no card text: only the chosen thing's blank is filled
        label = _without_worked_out_brackets(label, getattr(action, "as_", None))
        out[name] = re.sub(r"\{[^{}]*\}", filler, label)
    return out


def _without_worked_out_brackets(label: str, var: str | None) -> str:
    """A label less each bracketed part that holds a `{EXPR}` other than `{var}` (the
    brackets inside an `{EXPR}`, `{cost_of(X, 2)}`, are the expression's own)."""
    out: list[str] = []
    start = -1  # where the open bracket at the top level began, in `out`'s text
    depth = 0  # inside an {EXPR}
    for ch in label:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if depth == 0 and ch == "(" and start < 0:
            start = len("".join(out))
        out.append(ch)
        if depth == 0 and ch == ")" and start >= 0:
            text = "".join(out)
            part = text[start:]
            if any(blank != "{" + str(var) + "}" for blank in re.findall(r"\{[^{}]*\}", part)):
                out = [text[:start].rstrip()]
            start = -1
    return "".join(out)

