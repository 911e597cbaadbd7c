"""The names a ruleset gives, checked for what an effect cannot refer to and what a
reader cannot tell apart (C010-C013, C017, C018; pipeline/build/passes.py places them in
their files).

- C010: a content id or a vocabulary name that is a word of the effect language an
  effect can never use as a name: a builtin (`me`, `players`, `owner`), `this`, or a
  keyword that starts something of the language's own where a value goes (`total`,
  `top`, `yes`; `discard` or `one` read as names there, and are allowed).
- C011: an id or a vocabulary name longer than MAX_NAME characters, an item's name
  longer than MAX_ITEM_NAME (every message, menu and card shows them).
- C012: a name with an invisible or direction-changing character (a right-to-left
  override, a zero-width space...): it reads as something else than it is.
- C017: a vocabulary name an effect cannot write: not letters, digits and `_` starting
  with no digit (`9lives`, `two words`), or starting with `__` (the engine's).
- C018: an item's name that is empty or only spaces.
- C013: two names that look alike but differ: the same once invisible characters are
  dropped, look-alike letters of other scripts and `0`/`O`, `1`/`l`/`I` are read as
  one, and case is ignored (`explain` and `try` find an item by its name in any case).
  Content ids and vocabulary names are compared with each other (one namespace), items'
  names with each other.

Only names that differ are compared: two items may share a name (copies of a card in
another set), an id is unique already (C001, C006).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

from legacies.dsl import ast
from legacies.dsl.check.base import RESERVED_PREFIX
from legacies.dsl.constructs import BUILTINS
from legacies.dsl.parser import SyntaxErrors, parse_expression

from .models import NAME_PATTERN

MAX_NAME = 64
MAX_ITEM_NAME = 120

# letters that look like Latin ones in common fonts (after NFKC, which already folds
# full-width and mathematical letters); Unicode's confusables.txt, cut to the letters a
# name is likely to hold
_LOOKALIKE = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
    "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "к": "k", "м": "m", "н": "h", "т": "t",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W",
    # Greek
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "υ": "u", "ς": "c", "τ": "t",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    # Latin and digits that pass for each other
    "0": "O", "1": "l", "I": "l", "|": "l", "ı": "i", "ℓ": "l",
})


@dataclass(frozen=True)
class Named:
    """A name as written: its text, what it names (`content id`, `counter`...), and
    where (`at`: whatever the caller places a diagnostic with)."""

    text: str
    what: str
    at: Any
    group: str  # names of one group are compared with each other: "ids" or "item names"


@dataclass(frozen=True)
class Problem:
    at: Any
    code: str
    message: str
    hint: str | None = None


@lru_cache(maxsize=1)
def language_words() -> frozenset[str]:
    """Every word the grammar spells out (`gain`, `where`, `this`...), read from its text
    (building the parser is not needed to know them), and every builtin's name."""
    grammar = resources.files("legacies.dsl").joinpath("effects.lark").read_text(encoding="utf-8")
    return frozenset(re.findall(r'"([a-z_]+)"', grammar)) | frozenset(BUILTINS)


VOCABULARY_TAKEN = frozenset(BUILTINS) | {"this", "it", "its"}
"""Names the language gives its own meaning wherever they are written."""


@lru_cache(maxsize=None)
def _reads_as_name(word: str) -> bool:
    """Whether a keyword written where a value goes is read as a name (`discard`, `one`,
    `up` are; `total`, `top`, `yes` start something of the language's own)."""
    try:
        expr = parse_expression(word)
    except SyntaxErrors:
        return False
    return isinstance(expr, ast.Name) and expr.name == word


def unseen(text: str) -> list[str]:
    """The invisible and direction-changing characters of `text` (format and control
    characters), each as `U+202E (RIGHT-TO-LEFT OVERRIDE)`."""
    found = []
    for ch in text:
        if unicodedata.category(ch) in ("Cf", "Cc") and ch not in found:
            found.append(ch)
    return [f"U+{ord(ch):04X} ({unicodedata.name(ch, 'a control character')})" for ch in found]


def skeletons(text: str) -> tuple[str, str]:
    """What a name looks like, two ways: its letters read as their look-alikes, and its
    letters in any case (one mapping for both would read `Mail` as `Mall`). Two names
    with a skeleton in common are hard to tell apart."""
    shown = "".join(ch for ch in unicodedata.normalize("NFKC", text) if unicodedata.category(ch) not in ("Cf", "Cc"))
    return "look:" + shown.translate(_LOOKALIKE).replace("rn", "m"), "case:" + shown.casefold()


def name_problems(names: Iterable[Named]) -> list[Problem]:
    """C010-C013 for every name given, in the order given."""
    problems: list[Problem] = []
    first: dict[tuple[str, str], Named] = {}  # (group, skeleton) -> the first name that looked so
    words = language_words()  # (a keyword is parsed only when a name is one: rarely)
    for n in names:
        # (a name with an invisible character is C012's to say)
        unwritable = _unwritable(n) if n.group in ("ids", "attributes") and n.what != "content id" \
            and not unseen(n.text) else None
        if unwritable is not None:
            problems.append(Problem(n.at, "C017", unwritable[0], unwritable[1]))
        elif n.group == "ids" and (n.text in VOCABULARY_TAKEN or n.text in words and not _reads_as_name(n.text)):
            thing = "item" if n.what == "content id" else n.what
            problems.append(Problem(n.at, "C010", f"the {n.what} `{n.text}` is a word of the effect language: in "
                                    f"an effect, `{n.text}` means the language's word, never this {thing}",
                                    f"rename it (a capital letter or a suffix is enough: `{n.text.capitalize()}`, "
                                    f"`{n.text}_{thing.replace(' ', '_')}`)"))
        if n.group == "item names" and not n.text.strip():
            problems.append(Problem(n.at, "C018", "the item's name is empty" + (" (spaces only)" if n.text else ""),
                                    "give it the name players read: every menu, card and log line shows it"))
            continue
        limit = MAX_ITEM_NAME if n.group == "item names" else MAX_NAME
        if len(n.text) > limit:
            problems.append(Problem(n.at, "C011", f"the {n.what} is {len(n.text):,} characters long, more than "
                                    f"{limit}", "a name is read in every message and menu: shorten it"))
        marks = unseen(n.text)
        if marks:
            problems.append(Problem(n.at, "C012", f"the {n.what} holds {_listed(marks)}: it does not read as "
                                    "what it is", "remove the invisible or direction-changing characters"))
        others = [first.setdefault((n.group, key), n) for key in skeletons(n.text)]
        other = next((o for o in others if o.text != n.text), None)
        if other is not None:
            foreign = [f"U+{ord(ch):04X} ({unicodedata.name(ch, '?')})" for ch in dict.fromkeys(n.text + other.text)
                       if not ch.isascii() and unicodedata.category(ch) not in ("Cf", "Cc")]
            problems.append(Problem(n.at, "C013", f"the {n.what} {_shown(n.text)} looks like the {other.what} "
                                    f"{_shown(other.text)}" + (f" (they hold {_listed(foreign)})" if foreign else ""),
                                    "make names differ in more than look-alike letters, case or invisible "
                                    "characters"))
    return problems


def _listed(marks: list[str]) -> str:
    return marks[0] if len(marks) == 1 else ", ".join(marks[:3]) + (" ..." if len(marks) > 3 else "")


def _shown(text: str) -> str:
    """A name quoted so that what it hides shows (`Swap\\u202e`), cut short."""
    escaped = "".join(ch if unicodedata.category(ch) not in ("Cf", "Cc") else f"\\u{ord(ch):04x}" for ch in text)
    return f"`{escaped[:60]}{'...' if len(escaped) > 60 else ''}`"


WRITTEN_NAME = re.compile(NAME_PATTERN)


def _unwritable(n: Named) -> tuple[str, str] | None:
    """C017: why an effect could never write the vocabulary name `n` (message, hint), or
    None. Content ids are held to the same shape by the schema (S-codes)."""
    text = n.text
    if not WRITTEN_NAME.fullmatch(text):
        fixed = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_") or n.what.replace(" ", "_")
        fixed = f"{n.what.replace(' ', '_')}_{fixed}" if fixed[0].isdigit() else fixed
        return (f"the {n.what} {_shown(text)} cannot be written in an effect: a name is letters, digits and `_`, "
                "and does not start with a digit", f"rename it `{fixed}`")
    if text.startswith(RESERVED_PREFIX):
        return (f"the {n.what} `{text}` starts with `{RESERVED_PREFIX}`: such names are kept for the engine",
                f"rename it `{text.lstrip('_') or n.what.replace(' ', '_')}`")
    return None


def ruleset_names(ruleset: Any, rules: Any, procedures: list[Any], items: dict[str, tuple[Any, Any, Any]]) -> list[Named]:
    """Every name a ruleset gives, with where it is written as (file, YAML path, at the
    key?): the vocabulary of ruleset.yaml (`ruleset`: its LoadedFile, `rules`: its
    model), the actions, definitions and procedures of the procedures files, then the
    content ids and the items' names (`items`: id -> (file, path, item))."""
    out: list[Named] = []
    for table in ("counters", "values", "counter_sets", "zones", "kinds", "events", "quantities", "options"):
        what = {"counter_sets": "counter set", "quantities": "quantity"}.get(table, table[:-1])
        out += [Named(name, what, (ruleset, (table, name), True), "ids") for name in getattr(rules, table)]
    for enum, symbols in rules.enums.items():
        out += [Named(str(s), "symbol", (ruleset, ("enums", enum, i), False), "ids") for i, s in enumerate(symbols)]
    for kind, decl in rules.kinds.items():
        out += [Named(a, "attribute", (ruleset, ("kinds", kind, "attributes", a), True), "attributes")
                for a in decl.attributes]
    for f in procedures:
        for table in ("actions", "definitions", "procedures"):
            out += [Named(name, table[:-1], (f, (table, name), True), "ids") for name in getattr(f.model, table)]
    for item_id, (f, path, item) in items.items():
        out.append(Named(item_id, "content id", (f, path + ("id",), False), "ids"))
    for f, path, item in items.values():
        out.append(Named(item.name, "item name", (f, path + ("name",), False), "item names"))
    return out
