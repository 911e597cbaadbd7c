"""The checker's types: what an expression denotes (an amount, a player, an item of a
kind, a zone, a symbol of an enum, a counter of a counter set, an effect...). Types
are small frozen values; `arg` narrows a type to a kind, an enum or a counter set.

A collection type (`things`, `players`, `symbols`, `counters`, `numbers`, `table`,
`effects`, `zones`) has an element type; `table:<kind>` is a list of items of the kind,
each with a number (`entry K of T`)."""

from __future__ import annotations

from dataclasses import dataclass

_WORDS = {
    "amount": "an amount", "flag": "a yes/no condition", "text": "a text", "percent": "a percentage",
    "player": "a player", "players": "players", "zone": "a zone", "zones": "zones",
    "track": "a track", "any": "anything", "none": "nothing", "action": "an action",
    "numbers": "a list of numbers", "effect": "an effect", "effects": "a list of effects",
}

# collection tag -> element tag ("defs": card names written in a list, `[storm, flood]`;
# "empty": `[]`, a collection of nothing, which fits wherever a collection does)
_ELEMENT = {"things": "thing", "players": "player", "symbols": "symbol", "zones": "zone", "counters": "counter",
            "numbers": "amount", "effects": "effect", "table": "thing", "defs": "def", "empty": "any"}
_COLLECTION = {"thing": "things", "player": "players", "symbol": "symbols", "zone": "zones",
               "counter": "counters", "amount": "numbers", "effect": "effects", "def": "defs"}
_NARROWED = ("thing", "symbol", "counter", "def")  # element tags that keep the collection's `arg`


@dataclass(frozen=True, slots=True)
class T:
    tag: str
    arg: str | None = None

    def __str__(self) -> str:
        if self.tag in _WORDS:
            return _WORDS[self.tag]
        arg = self.arg.replace("_", " ") if self.arg else None
        if self.tag == "thing":
            return _a(arg) if arg else "a piece"
        if self.tag == "things":
            return f"{arg} pieces" if arg else "pieces"
        if self.tag == "symbol":
            return _a(arg) if arg else "a symbol"
        if self.tag == "symbols":
            return f"a list of {arg}" if arg else "symbols"
        if self.tag == "counter":
            return f"{_a(arg)} counter" if arg else "a counter"
        if self.tag == "counters":
            return f"{arg} counters" if arg else "counters"
        if self.tag == "table":
            return f"a table of {arg} numbers" if arg else "a table"
        if self.tag == "def":
            return f"{_a(arg)} card name" if arg else "a card name"
        if self.tag == "defs":
            return f"{arg} card names" if arg else "card names"
        if self.tag == "empty":
            return "an empty list"
        if self.tag == "supply":
            return f"{_a(arg or 'token')} from a supply"
        return self.tag

    @property
    def is_collection(self) -> bool:
        return self.tag in _ELEMENT

    def element(self) -> "T":
        tag = _ELEMENT.get(self.tag)
        if tag is None:
            return ANY
        return T(tag, self.arg if tag in _NARROWED else None)

    def collection(self) -> "T":
        tag = _COLLECTION.get(self.tag)
        if tag is None:
            return ANY
        return T(tag, self.arg if self.tag in _NARROWED else None)


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


AMOUNT = T("amount")
FLAG = T("flag")
TEXT = T("text")
PERCENT = T("percent")
PLAYER = T("player")
PLAYERS = T("players")
ZONE = T("zone")
ZONES = T("zones")
TRACK = T("track")
ANY = T("any")
NONE = T("none")
ACTION = T("action")
NUMBERS = T("numbers")
EFFECT = T("effect")
EFFECTS = T("effects")


def thing(kind: str | None = None) -> T:
    return T("thing", kind)


def things(kind: str | None = None) -> T:
    return T("things", kind)


TYPE_WORDS = ("number", "amount", "flag", "text", "player", "players", "zone", "track", "numbers", "effect",
              "effects", "symbol:<enum>", "symbols:<enum>", "kind:<kind>", "kinds:<kind>", "table:<kind>",
              "counter:<set>", "counters:<set>")


def parse_type(text: str) -> T | None:
    """Types as a ruleset writes them: number (amount), flag, text, player, players,
    zone, numbers, effect, effects, symbol:<enum>, symbols:<enum>, kind:<kind>,
    kinds:<kind>, table:<kind>, counter:<set>, counters:<set>."""
    simple = {"amount": AMOUNT, "number": AMOUNT, "flag": FLAG, "text": TEXT, "player": PLAYER,
              "players": PLAYERS, "zone": ZONE, "track": TRACK, "thing": thing(), "things": things(),
              "numbers": NUMBERS, "effect": EFFECT, "effects": EFFECTS}
    if text in simple:
        return simple[text]
    if ":" in text:
        tag, _, arg = text.partition(":")
        if not arg:
            return None
        if tag in ("symbol", "symbols", "counter", "counters", "table"):
            return T(tag, arg)
        if tag == "kind":
            return thing(arg)
        if tag == "kinds":
            return things(arg)
    return None


def fits(actual: T, expected: T) -> bool:
    """May a value of `actual` stand where `expected` is wanted?"""
    if actual.tag == "any" or expected.tag == "any":
        return True
    if actual.tag == "empty":  # `[]`: an empty collection of any kind
        return expected.is_collection or expected.tag == "empty"
    if actual.tag != expected.tag:
        return False
    return expected.arg is None or actual.arg is None or actual.arg == expected.arg
