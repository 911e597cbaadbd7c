"""Completion by context for `legacies lsp`: the names that fit where the cursor stands,
not every name of the ruleset everywhere.

Inside effect-language text (an item's effect or effect attribute, `requires:`, a
procedure's `do:`, an action's `choose:`/`if:`/`do:`, a definition's `value:`, setup,
the game procedure), the words before the cursor decide: at the start of a statement,
the statements and procedures; after `my`, what a player has (counters, values, zones,
quantities, token kinds); after `play`, the cards; after `gain`, `lose`, `pay`, what a
number can be; at the start of an action's `choose:`, collections, and of an `if:`,
`requires:` or a definition's `value:`, an expression; after `its` or `X's`, what an item or a player has
(attributes, item counters...); after `gain N`, `lose N`, `pay N`, counters; after
`perform one of` or `possible(`, actions and menus; after `announce`, `when` or `until`,
events; after `choose a`, `for each X in`, `pick at random`, collections (kinds and their
plurals, zones, counter sets, enums); after `to`, `from`, `shuffle`, zones; elsewhere in
an expression, every name a value can be. In the YAML around it: after `kind:`, kinds;
in an item's `attributes:`, the attributes its kind declares, and after one of them the
values of its type (items of its kind, symbols of its enum, counters of its set).
In a rules file: after `after:`/`before:` (a hook), procedures and actions; after
`action:` (a restriction), actions; in `menus:`, menus; after `starts_in:`, zones; after
a parameter's name in `params: {...}`, the types (`kind:KIND`...).
Anywhere else nothing: the editor's own completion (the JSON Schemas) answers there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from legacies.dsl.constructs import BUILTINS
from legacies.dsl.parser import STATEMENT_WORDS
from legacies.dsl.types import TYPE_WORDS
from legacies.dsl.vocabulary import Vocabulary

from .check import Check
from .query import Name, describe, effects_in, label_of, rule_texts, text_lines, what_of, with_vocab

_PARTIAL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_ITEM_KEY = re.compile(r"^(\s*)(?:-\s+)?kind:\s*([A-Za-z_][A-Za-z0-9_]*)?\s*$")

# the words before the cursor -> what fits there (checked in this order, on the text of
# the statement before the word being typed)
_CONTEXTS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^\s*$"), "statement"),
    (re.compile(r"\bmy\s*$"), "mine"),
    (re.compile(r"(\bits|'s)\s*$"), "its"),
    (re.compile(r"\b(gain|lose|pay)\s+\S+\s+$"), "counter"),
    (re.compile(r"\b(gain|lose|pay)\s+$"), "amount"),
    (re.compile(r"(^|[\s:])play\s+$"), "card"),
    (re.compile(r"(\bperform\s+(one|any|up\s+to\s+one)\s+of|\bpossible\s*\()[\sA-Za-z0-9_,]*$"), "action"),
    (re.compile(r"^\s*(announce|when|until)\s+$"), "event"),
    (re.compile(r"(\bchoose\s+(a|an|one\s+of|\d+|up\s+to\s+\d+)|\bpick\s+at\s+random\s+(a|an|one\s+of|\d+)"
                r"|\bfor\s+each\s+\w+\s+in|\bdig\s+for)\s+$"), "collection"),
    (re.compile(r"(\bplace\s+my)\s+$"), "token"),
    (re.compile(r"(\bto|\bfrom|\bshuffle|\bin)\s+$"), "zone"),
    (re.compile(r"^\s*(set|raise|lower)\s+$"), "changeable"),
]


def completions(checks: Sequence[Check], path: Path | None = None, text: str | None = None, line: int = 0,
                column: int = 0) -> list[Name]:
    """The names that fit at (line, column) of the document `path` holding `text`; with
    no document, every name the ruleset declares."""
    vocab = next((v for _, v in with_vocab(checks)), None)
    if vocab is None:
        return []
    if path is None or text is None:
        return _named(vocab, dict.fromkeys(vocab.all_names()))
    lines = text.split("\n")
    current = lines[line] if 0 <= line < len(lines) else ""
    before = current[:column]
    head = before[:len(before) - len(m.group())] if (m := _PARTIAL.search(before)) else before
    start = _in_effect(checks, path, line + 1, head)
    if start is not None:
        return _named(vocab, _effect_names(vocab, _statement_head(head), start))
    return _named(vocab, _yaml_names(vocab, lines, line, head))


def _named(vocab: Vocabulary, names: Iterable[str]) -> list[Name]:
    out = []
    for name in dict.fromkeys(names):
        out.append(Name(name, what_of(vocab, name) if name not in BUILTINS and name not in STATEMENT_WORDS
                        else "keyword" if name in STATEMENT_WORDS else "builtin",
                        describe(vocab, name) or ("a statement" if name in STATEMENT_WORDS else "builtin")))
    return out


# --------------------------------------------------------------------------- effect text
def _in_effect(checks: Sequence[Check], path: Path, line: int, head: str) -> str | None:
    """What the effect-language text that 1-based `line` lies in starts with (on the key's
    own line, only after its `:`): "statement" (an effect, a `do:`), "expression" (an
    `if:`, `requires:`, a definition's `value:`) or "collection" (an action's `choose:`);
    None outside effect text."""
    for check in checks:
        spans = [(span, "expression" if key == "requires" else "statement") for _, span, key, _ in
                 effects_in(check, path)]
        label = label_of(check, path)
        for f in check.files:
            if f.label == label and f.kind != "content" and isinstance(f.data, dict):
                spans += [(s, _STARTS.get(where[-1], "statement")) for where in rule_texts(f.data)
                          if (s := text_lines(f, where)) is not None]
        for (first, last), start in spans:
            if first <= line <= last and (line > first or ": " in head or head.rstrip().endswith(":")):
                return start
        if spans:
            return None
    return None


# what the text of a rules key starts with (a statement elsewhere)
_STARTS = {"choose": "collection", "if": "expression", "value": "expression"}


def _statement_head(head: str) -> str:
    """The part of a line before the cursor that belongs to the statement being written:
    after a block opener's `:` on the same line, or a YAML key's (`do: |` aside)."""
    if ": " in head:
        head = head.rsplit(": ", 1)[1]
    return head.lstrip('"')


def _effect_names(vocab: Vocabulary, head: str, start: str = "statement") -> list[str]:
    context = next((what for pattern, what in _CONTEXTS if pattern.search(head)), "expression")
    if context == "statement" and start != "statement":  # the start of an expression or a collection
        context = start
    players = [n for n, c in vocab.counters.items() if c.scope == "player"]
    if context == "statement":
        return list(STATEMENT_WORDS) + list(vocab.procedures)
    if context == "mine":
        return (players + [n for n, v in vocab.values.items() if v.scope == "player"]
                + [n for n, z in vocab.zones.items() if z.scope == "player"]
                + [n for n, q in vocab.quantities.items() if q.per == "player"]
                + [k for k, info in vocab.kinds.items() if info.piece == "token"])
    if context == "its":
        attributes = [a for info in vocab.kinds.values() for a in info.attributes]
        item_counters = [c for info in vocab.kinds.values() for c in info.counters]
        return (attributes + item_counters + players + [n for n, v in vocab.values.items() if v.scope == "player"]
                + [n for n, z in vocab.zones.items() if z.scope == "player"]
                + [n for n, q in vocab.quantities.items() if q.subject is not None]
                + [n for n, b in BUILTINS.items() if b.form == "of"])
    if context == "counter":
        return players + [n for n, c in vocab.counters.items() if c.scope != "player"]
    if context == "amount":  # `gain N COUNTER`: what a number can be
        return (["my", "count"] + [n for n, b in BUILTINS.items() if b.form in ("name", "call")]
                + list(vocab.quantities) + list(vocab.definitions) + list(vocab.values) + list(vocab.options)
                + list(vocab.counters))
    if context == "card":  # `play X`: a card (the ruleset's cards by id)
        return [i for i, k in vocab.content.items() if vocab.kinds.get(k) and vocab.kinds[k].piece == "card"]
    if context == "action":
        return list(vocab.actions) + list(vocab.menus)
    if context == "event":
        return list(vocab.events)
    if context == "collection":
        return _collections(vocab)
    if context == "token":
        return [k for k, info in vocab.kinds.items() if info.piece == "token"]
    if context == "zone":
        return list(vocab.zones) + _collections(vocab) + [i for i, k in vocab.content.items()
                                                           if vocab.kinds.get(k) and vocab.kinds[k].piece == "board"]
    if context == "changeable":
        return list(vocab.counters) + list(vocab.values) + ["my", "its"]
    return ([n for n, b in BUILTINS.items() if b.form in ("name", "call")] + list(vocab.counters) + list(vocab.values)
            + list(vocab.zones) + _collections(vocab) + list(vocab.quantities) + list(vocab.options)
            + list(vocab.definitions) + list(vocab.content) + [s for values in vocab.enums.values() for s in values])


def _collections(vocab: Vocabulary) -> list[str]:
    """What `choose`, `for each`, `KIND in` take: kinds and plurals, counter sets, enums, players."""
    return (["players", "opponents", "cards", "tokens"] + [n for k, info in vocab.kinds.items()
                                                           for n in (k, info.plural) if n]
            + list(vocab.counter_sets) + list(vocab.enums))


# --------------------------------------------------------------------------- the YAML around
# a rules file's key -> what its value names (after `key: `, or in its `[...]` list)
def _rules_keys(vocab: Vocabulary) -> dict[str, list[str]]:
    return {"after": list(vocab.procedures) + list(vocab.actions),
            "before": list(vocab.procedures) + list(vocab.actions),
            "action": list(vocab.actions), "menus": list(vocab.menus), "starts_in": list(vocab.zones),
            "kind": list(vocab.kinds)}


def _yaml_names(vocab: Vocabulary, lines: list[str], line: int, head: str) -> list[str]:
    key = re.match(r"^\s*(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*):\s*\[?([^\]]*,\s*)?$", head)
    if re.search(r"\bparams:\s*\{(?:[^{}]*,)?\s*[A-Za-z_][A-Za-z0-9_]*:\s*\"?$", head):  # a parameter's type
        return _type_words(vocab)
    if key is not None and key.group(1) in _rules_keys(vocab):
        return _rules_keys(vocab)[key.group(1)]
    kind, in_attributes = _item_kind(lines, line)
    info = vocab.kinds.get(kind) if kind else None
    if info is None or not in_attributes:
        return []
    if key is None:  # a key of `attributes:` being written
        return list(info.attributes) if re.match(r"^\s*$", head) else []
    t = info.attributes.get(key.group(1))
    if t is None:
        return []
    if t.tag in ("thing", "things", "table") and t.arg:
        return [i for i, k in vocab.content.items() if k == t.arg]
    if t.tag in ("symbol", "symbols") and t.arg:
        return list(vocab.enums.get(t.arg, ()))
    if t.tag in ("counter", "counters") and t.arg:
        return list(vocab.counter_sets.get(t.arg, ()))
    return []


def _type_words(vocab: Vocabulary) -> list[str]:
    """The types a `params:` entry or an attribute declares, with the ruleset's kinds,
    enums and counter sets filled in (`kind:KIND` for each kind)."""
    out = [w for w in TYPE_WORDS if "<" not in w]
    for word in TYPE_WORDS:
        tag, _, what = word.partition(":")
        tables: dict[str, Iterable[str]] = {"<kind>": vocab.kinds, "<enum>": vocab.enums,
                                            "<set>": vocab.counter_sets}
        names = tables.get(what, ())
        out += [f"{tag}:{name}" for name in names]
    return out


def _item_kind(lines: list[str], line: int) -> tuple[str | None, bool]:
    """The kind of the content item the line is in, and whether the line is inside its
    `attributes:` mapping (read upwards to the item's `- id:`)."""
    indent = len(lines[line]) - len(lines[line].lstrip(" ")) if 0 <= line < len(lines) else 0
    in_attributes = False
    kind = None
    for n in range(line, -1, -1):
        text = lines[n]
        stripped = text.strip()
        depth = len(text) - len(text.lstrip(" "))
        if n < line and stripped.startswith("attributes:") and depth < indent:
            in_attributes = True
        found = _ITEM_KEY.match(text)
        if found is not None and found.group(2) and kind is None:
            kind = found.group(2)
        if stripped.startswith("- ") or stripped == "items:":
            break
    if kind is None:  # `kind:` below the cursor, within the same item
        for text in lines[line + 1:]:
            if text.strip().startswith("- ") or text.strip() == "items:":
                break
            found = _ITEM_KEY.match(text)
            if found is not None and found.group(2):
                kind = found.group(2)
                break
    return kind, in_attributes
