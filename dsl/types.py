"""The checker's types: what an expression denotes (an amount, a player, pieces of a
kind, a zone, a symbol of an enum...). Types are small frozen values; `arg` narrows a
type to a kind, an enum or a zone scope."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class T:
    tag: str
    arg: str | None = None

    def __str__(self) -> str:
        names = {
            "amount": "an amount", "flag": "a yes/no condition", "text": "a text", "percent": "a percentage",
            "player": "a player", "players": "players", "zone": "a zone", "zones": "zones",
            "track": "a track", "any": "anything", "none": "nothing", "action": "an action",
        }
        if self.tag in names:
            return names[self.tag]
        if self.tag == "thing":
            return f"a {self.arg}" if self.arg else "a piece"
        if self.tag == "things":
            return f"{self.arg} pieces" if self.arg else "pieces"
        if self.tag == "symbol":
            return f"a {self.arg}" if self.arg else "a symbol"
        if self.tag == "symbols":
            return f"a list of {self.arg}" if self.arg else "symbols"
        if self.tag == "def":
            return f"a {self.arg} card name" if self.arg else "a card name"
        if self.tag == "supply":
            return f"a {self.arg} from a supply"
        return self.tag

    @property
    def is_collection(self) -> bool:
        return self.tag in ("things", "players", "symbols", "zones")

    def element(self) -> "T":
        return {"things": T("thing", self.arg), "players": PLAYER, "symbols": T("symbol", self.arg),
                "zones": ZONE}.get(self.tag, ANY)

    def collection(self) -> "T":
        return {"thing": T("things", self.arg), "player": PLAYERS, "symbol": T("symbols", self.arg),
                "zone": ZONES}.get(self.tag, ANY)


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


def thing(kind: str | None = None) -> T:
    return T("thing", kind)


def things(kind: str | None = None) -> T:
    return T("things", kind)


def parse_type(text: str) -> T | None:
    """Types as a ruleset writes them: amount, flag, text, player, players, zone,
    <kind>, symbol:<enum>, symbols:<enum>, kind:<kind>, number."""
    simple = {"amount": AMOUNT, "number": AMOUNT, "flag": FLAG, "text": TEXT, "player": PLAYER,
              "players": PLAYERS, "zone": ZONE, "track": TRACK, "thing": thing(), "things": things()}
    if text in simple:
        return simple[text]
    if ":" in text:
        tag, _, arg = text.partition(":")
        if tag in ("symbol", "symbols"):
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
    if actual.tag != expected.tag:
        return False
    return expected.arg is None or actual.arg is None or actual.arg == expected.arg
