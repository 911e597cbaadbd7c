"""The seat's view as a type: everything one seat may know and do at one moment, as plain
JSON-ready data (OpenSpiel's observation, boardgame.io's filtered player view). Every face
draws this and nothing else: the full-screen terminal table, the line mode, the browser
and the tests. `SeatView.model_json_schema()` is published as
schemas/seat-view.schema.json (a test keeps the two the same).

Ids are stable for a game: a piece is "p<number>", an item named by the rules but not a
piece (a kind's item offered as a choice) "d<number>", a player their seat number. A piece
hidden from the seat never appears: not its id, not its name; a zone hidden from the seat
is a count of the pieces it holds.

Nothing here is worked out: view/build.py fills it in from a game's state, the ruleset's
`display:` and the table's chronicle (view/chronicle.py)."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

VIEW_FORMAT = "legacies-view/1"


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Card(_Data):
    """A piece or an item the seat may read in full."""

    id: str = Field(description="p<piece> or d<item>: the key other parts of the view name it by")
    name: str = Field(description="its name, told apart from its copies where copies must be")
    kind: str = Field(description="its kind, as the ruleset calls it")
    details: str = Field(default="", description="the attributes the ruleset prints beside a card (`display: card:`)")
    lines: list[str] = Field(description="the card in full: attributes, where it is, its own state, its text")


class Listed(_Data):
    """A piece as the board lists it: by name with what it holds, or face down."""

    card: Optional[str] = Field(default=None, description="the card's id in `cards`; none for a piece face down")
    name: str = Field(description="its name, or `(face down)`")
    details: str = Field(default="", description="the attributes printed beside it (`display: card:`)")
    holds: list[str] = Field(default_factory=list, description="what it holds or carries, a line each")


class Zone(_Data):
    """A zone: its pieces where the seat may see them, else how many there are."""

    count: int
    face_down: int = Field(default=0, description="pieces the seat may not see (counted, never named)")
    pieces: list[Listed] = Field(default_factory=list)


class Column(_Data):
    """One place of a row of places side by side: its lines, then the pieces on it."""

    lines: list[str]
    pieces: list[Listed] = Field(default_factory=list)


class Part(_Data):
    """One entry of the board, as the ruleset's `display:` declares it.

    `line`: a sentence (text); `field`: a labelled value (label, text); `counter`: a
    number (label, text), drawn side by side with the others; `zone`: a zone's pieces;
    `columns`: places side by side (a row of markets, a line of spaces); `rows`: a line per
    member of a collection."""

    kind: Literal["line", "field", "counter", "zone", "columns", "rows"]
    label: str = ""
    text: str = ""
    zone: Optional[Zone] = None
    columns: list[Column] = Field(default_factory=list)
    rows: list[str] = Field(default_factory=list)


class Player(_Data):
    """A player's part of the board, as this seat sees it."""

    index: int
    name: str
    you: bool = Field(description="this seat's own part")
    to_play: bool = Field(description="the player whose turn it is (nobody's between turns)")
    deciding: bool = Field(description="the player the pending decision asks")
    score: int
    counters: list[Part] = Field(description="the player's numbers, drawn side by side (`counter` parts)")
    parts: list[Part] = Field(description="the rest of the player's part, in the ruleset's order")


class Option(_Data):
    """One option of the pending decision."""

    index: int = Field(description="what the seat answers to take it (0 first)")
    label: str
    card: Optional[str] = Field(default=None, description="the card the option names, its id in `cards`")
    details: str = Field(default="", description="what the ruleset prints beside that card: its cost, its reward")
    hint: str = Field(default="", description="the first line of the card's text or of what the option plays")
    plays: list[str] = Field(default_factory=list, description="what the option would play, a line each")
    amount: Optional[int] = Field(default=None, description="the amount itself, where the options are amounts")
    passes: bool = Field(default=False, description="the option that passes (a bid not made)")


class Amounts(_Data):
    """Where the options are amounts (a number to choose, a bid): the amounts offered."""

    values: list[int]
    words: str = Field(description="the amounts as a player reads them: `0 to 90 in steps of 5`")
    can_pass: bool


class DecisionView(_Data):
    """The decision the game waits on."""

    number: int = Field(description="how many decisions were made before this one: an answer names it, "
                                    "so a stale answer is refused")
    takebacks: int = Field(default=0, description="how many times the table had taken decisions back (undo) when "
                                                  "this one was asked: an answer names it too, so an answer sent "
                                                  "before an undo, whose number may come round again, is refused")
    player: int
    player_name: str
    yours: bool = Field(description="this seat is asked; else the options are not shown")
    kind: str = Field(description="choose | one | may | number | bid | action")
    prompt: str = Field(description="the question, as the rules ask it")
    purpose: str = Field(description="what the decision is for, as a sentence")
    options: list[Option] = Field(default_factory=list)
    amounts: Optional[Amounts] = None


class Entry(_Data):
    """A line of the table's log, as this seat may read it."""

    decision: int = Field(description="the decisions made when it was written")
    turn: int = Field(description="the turn it belongs to (0: the setup)")
    kind: Literal["turn", "choice", "rules", "change", "table"]
    text: str


class MapPlace(_Data):
    card: Optional[str] = Field(default=None, description="the place's card id; none when it is face down")
    label: str
    x: float
    y: float
    player: int = Field(description="whose colour it is drawn in; -1 nobody")
    marks: list[str] = Field(default_factory=list)


class MapLine(_Data):
    start: int = Field(description="index of a place in `places`")
    end: int
    link: str
    style: Literal["solid", "dashed", "dotted"]
    arc: bool = False
    one_way: bool = False


class MapName(_Data):
    text: str
    x: float
    y: float


class MapKey(_Data):
    label: str
    style: Literal["solid", "dashed", "dotted"]
    arc: bool = False


class MapView(_Data):
    """The ruleset's map (`display: map:`), as this seat sees it."""

    title: str
    places: list[MapPlace]
    lines: list[MapLine]
    names: list[MapName]
    keys: list[MapKey]


class Result(_Data):
    """How the game ended."""

    scores: list[int]
    ranking: list[int] = Field(description="players, best first")
    winner: int
    reason: str = ""


class SeatView(_Data):
    """What one seat may know and do now."""

    format: Literal["legacies-view/1"] = "legacies-view/1"
    ruleset: str
    title: str
    seat: int
    seat_name: str
    decisions: int = Field(description="decisions made so far in the game")
    turn: int
    table: list[Part] = Field(description="the table's part of the board, in the ruleset's order")
    players: list[Player] = Field(description="every player, in turn order")
    cards: dict[str, Card] = Field(description="every card the view names, by id, readable in full")
    decision: Optional[DecisionView] = None
    changes: list[Entry] = Field(default_factory=list, description="what happened since this seat last chose")
    log: list[Entry] = Field(default_factory=list, description="the table's log as this seat may read it, the "
                                                                "latest last")
    log_from: int = Field(default=1, ge=1, description="the number of `log`'s first entry in the whole log this "
                                                       "seat may read (1: the log is whole; the earlier are left out)")
    map: Optional[MapView] = None
    result: Optional[Result] = None
