"""The pydantic models of every data file a ruleset is made of.

Four file kinds, one JSON Schema each (schemas/, generated from these models and
kept in sync by tests/pipeline/test_schemas.py):
- `ruleset`    rules/<name>/ruleset.yaml: the vocabulary (counters, zones, kinds,
               symbols, events, quantities, options, menus) and limits;
- `procedures` rules/<name>/*.yaml: actions, definitions, triggers, setup, the game flow;
- `content`    content/<name>/*.yaml: the pieces (cards, tiles, figures...) with effects;
- `expansion`  EXPANSION/expansion.yaml: an expansion's name, the ruleset it extends and
               the vocabulary it adds (everything a ruleset may declare).
A declaration in an expansion that reuses a name of what it is laid over replaces it
only when it says `replaces: true` (pipeline/build/passes.py checks it).
Effects and conditions are strings in the effect language, parsed later.
Every file may state `format:` (the version of this file format it is written for; a file
without it is format 1): pipeline/formats.py reads an older one as the current one.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from legacies.dsl.numbers import MAX_NUMBER


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _replaces() -> Any:
    return Field(False, description="In an expansion: this declaration replaces the one of the same name in what "
                 "the expansion is laid over (without it, reusing a name is an error).")


CURRENT_FORMAT = 2
"""The file format these models describe. A change that makes an older file read
differently raises it by one and adds a step to pipeline/formats.py."""


def _format() -> Any:
    """Every file kind's `format:` (last among its fields, so hints list the others first)."""
    return Field(1, ge=1, le=CURRENT_FORMAT, description=f"The format this file is written for (1 to "
                 f"{CURRENT_FORMAT}; without it, 1): `legacies migrate FILE` upgrades an older one.")


NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
"""A name as an effect writes it (the grammar's NAME, dsl/effects.lark): content ids, and
the vocabulary's names (C017, pipeline/names.py)."""

Scope = Literal["player", "game"]
Number = Annotated[int, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)]  # the engine's limit on numbers (dsl/numbers.py)


class Players(_Model):
    min: int = Field(ge=1, le=12)
    max: int = Field(ge=1, le=12)


class Limits(_Model):
    max_turns: int = Field(1000, ge=1, le=100_000, description="A turn loop stops after this many turns.")
    step_budget: int = Field(2_000_000, ge=1000, le=20_000_000, description="Interpreter steps allowed per decision.")
    max_repeats: int = Field(200, ge=1, le=10_000, description="`perform any` offers at most this many actions in a row.")


class CounterDecl(_Model):
    scope: Scope = "player"
    start: Number = 0
    min: Number | None = 0
    max: Number | None = None
    label: str | None = None
    text_true: str | None = Field(None, description="Card text for the counter at 1 ({0} is whose): "
                                  "\"{0} drew a card this round\".")
    text_false: str | None = Field(None, description="Card text for the counter at 0 ({0} is whose).")
    replaces: bool = _replaces()


class ZoneDecl(_Model):
    scope: Scope = "player"
    visibility: Literal["public", "owner", "hidden"] = "public"
    discard_to: str | None = Field(None, description="Where `discard` sends a piece from this zone.")
    refill_from: str | None = Field(None, description="An empty deck is rebuilt by shuffling this zone into it.")
    in_play: bool = Field(False, description="Pieces here are in play: their triggers and modifiers apply.")
    label: str | None = None
    replaces: bool = _replaces()


AttributeType = str  # number | text | flag | numbers | effect | effects | symbol:<enum> | symbols:<enum> |
# kind:<kind> | kinds:<kind> | table:<kind> | counter:<set> | counters:<set>


class AttributeDecl(_Model):
    type: AttributeType = Field(description="number, text, flag, numbers, effect, effects, symbol:<enum>, "
                                "symbols:<enum>, kind:<kind>, kinds:<kind>, table:<kind>, counter:<set>, counters:<set>.")
    default: Any = Field(None, description="The value of an item that does not give this attribute.")
    label: str | None = None
    min: int | None = Field(None, description="A number (or each number of a list) is at least this (C004 "
                            "at an item that gives less).")
    max: int | None = Field(None, description="A number (or each number of a list) is at most this (C004 "
                            "at an item that gives more).")
    values: list[int | str] | None = Field(None, min_length=1, description="The only values a number, a "
                                           "number of a list or a text may take (C004 at an item that gives "
                                           "another).")
    by_era: bool = Field(False, description="A list (effects, numbers) with one entry per era: card text at "
                         "the table shows the current era's entry, and each entry under its era's name elsewhere.")


class TrackDecl(_Model):
    spaces: int = Field(ge=1, le=1000)
    bump: bool = True
    label: str | None = None


class SlotDecl(_Model):
    type: str = Field(description="What it holds: player, flag, number, symbol:<enum>, kind:<kind>...")
    label: str | None = None


class KindDecl(_Model):
    piece: Literal["card", "board", "token"]
    label: str | None = None
    plural: str | None = None
    attributes: dict[str, Union[AttributeType, AttributeDecl]] = Field(
        default_factory=dict, description="name: type, or name: {type, default, label}.")
    counters: dict[str, CounterDecl] = Field(default_factory=dict, description="Counters of each piece of this kind "
                                             "(each copy of a card its own): `X's value`, `raise X's value by 1`.")
    values: dict[str, Union[str, SlotDecl]] = Field(
        default_factory=dict, description="Value slots of each piece of this kind (each copy its own), holding a "
        "player, an item, a symbol or a flag: name: type, or name: {type, label}. `set X's marked_by to me`.")
    starts_in: str | None = Field(None, description="The game zone cards of this kind start in.")
    track: TrackDecl | None = None
    holder: bool = Field(False, description="Pieces of this kind hold tokens and other pieces (`place T on X`, "
                         "`move C to X`).")
    capacity: int | None = Field(None, ge=1, le=1000, description="A holder holds at most this many pieces: one more "
                                 "sends the oldest back (a token to its owner, a card to its discard pile).")
    links: list[str] = Field(default_factory=list, description="The link kinds (ruleset `links:`) joining the items "
                             "of this board kind: each item lists its neighbours under `links:`.")
    supply: int | None = Field(None, ge=0, le=1000, description="Tokens of this kind each player starts with.")
    supply_zone: str | None = Field(None, description="The player zone holding a player's unplaced tokens.")
    replaces: bool = _replaces()


class ValueDecl(_Model):
    scope: Scope = "player"
    type: str = Field(description="What it holds: player, flag, number, symbol:<enum>, kind:<kind>, counter:<set>...")
    label: str | None = None
    replaces: bool = _replaces()


class LinkDecl(_Model):
    """A kind of link between places (a road, a sea route): content items of the kinds that
    use it list their neighbours (`links: {road: [b, c]}`)."""

    label: str | None = None
    symmetric: bool = Field(True, description="A link joins both ways (listing it on one end is enough; W306 says "
                            "when only one end lists it). `false`: from the item that lists it to its neighbour only.")
    if_: str | None = Field(None, alias="if", description="A condition under which the link may be used, with the "
                            "two places named `here` (where a step starts) and `there` (where it goes): "
                            "`not there's flooded`.")
    replaces: bool = _replaces()


class EventDecl(_Model):
    label: str | None = None
    params: dict[str, str] = Field(default_factory=dict)
    replaces: bool = _replaces()


class QuantityDecl(_Model):
    type: Literal["amount", "flag"]
    default: Union[bool, Number]
    per: Scope = "player"
    subject: str | None = Field(None, description="A kind: the quantity is asked of one item of it.")
    label: str | None = None
    text_true: str | None = Field(None, description="Card text for a yes/no quantity that is yes ({0} is whose): "
                                  "\"{0}'s markers advance\".")
    text_false: str | None = Field(None, description="Card text for it being no ({0} is whose).")
    replaces: bool = _replaces()


class OptionNames(_Model):
    """An amount option whose values may be given by name: each item of `kind` names the
    value its `attribute` holds (`--option level=hard`)."""

    kind: str
    attribute: str = Field(description="The item's number attribute that is the option's value.")


class OptionDecl(_Model):
    type: Literal["amount", "flag"]
    default: Union[bool, Number]
    label: str | None = None
    description: str | None = None
    min: Number | None = None
    max: Number | None = None
    names: OptionNames | None = Field(None, description="Items whose names (or ids) stand for the option's values.")
    replaces: bool = _replaces()


class SeatDecl(_Model):
    """A kind of seat the rules run (the ruleset's `automated:` players), which a table may
    add after the players: `--seat KIND` in `legacies play` and `simulate`."""

    label: str = Field(description="What the seat is called (its players are named so: Helper, Helper 2).")
    option: str = Field(description="The option that seats them: an amount (how many, the last seats) or a flag "
                        "(one seat).")
    description: str | None = Field(None, description="What the seat is, for `legacies rulesets` and `--help`.")
    joins: int | None = Field(None, ge=1, le=12, description="A flag seat that sits down by itself at a table of "
                              "exactly this many other seats (the two-player rules' extra player).")
    replaces: bool = _replaces()


class PaymentDecl(_Model):
    cost: str = Field(description="The attribute (symbols) that holds a piece's cost.")
    symbol: str = Field(description="The attribute (symbol) a paying card provides.")
    wild: str | None = Field(None, description="A symbol that pays for any one symbol.")
    max_wild: int = Field(1, ge=0)


class DisplayEntry(_Model):
    show: str = Field(description="A counter, zone, value or counter set the ruleset declares.")
    label: str | None = Field(None, description="What the screen calls it (default: its declared label).")
    when: str | None = Field(None, description="A player counter: the entry is shown only for players whose "
                             "counter is not 0 (a part of the board some players have: a non-player character's).")


class DisplayText(_Model):
    """A line the rules compute: text with `{EXPR}` parts, as in `log`."""

    text: str = Field(description="Text with `{EXPR}` parts (as in `log`), worked out as the viewing player (in "
                      "`display: table`) or as each player (in `display: players`: `my` is theirs). It may read "
                      "anything: show only what every player may see.")
    when: str | None = Field(None, description="As for an entry: a player counter; shown only where it is not 0.")
    if_: str | None = Field(None, alias="if", description="A condition (as the viewer, or as each player in "
                            "`display: players`): the line is shown only while it holds (`my marker "
                            "is not nobody`: not before a marker is placed).")


class DisplayColumns(_Model):
    """Places side by side (a row of places, a row of markets): one column per member of a
    collection, left to right, each the text lines worked out for it and the pieces listed
    under them, each with what it holds (tokens by owner, pieces by name)."""

    columns: str = Field(description="A collection (an expression), in the order the columns are drawn: "
                         "`places where its number <= last`.")
    as_: str = Field(alias="as", description="The name the lines and `pieces` call the member.")
    label: str | None = Field(None, description="What the screen calls the row.")
    lines: list[str] = Field(default_factory=list, description="Text with `{EXPR}` parts (as in `log`), worked out "
                             "for each member as the viewing player.")
    pieces: str | None = Field(None, description="A collection of pieces listed under the lines, one to a line, "
                               "each with what it holds (an expression with the member named).")
    piece_as: str | None = Field(None, description="The name `piece_lines` call each listed piece.")
    piece_lines: list[str] = Field(default_factory=list, description="Text with `{EXPR}` parts (as in `log`), "
                                   "worked out for each listed piece (named `piece_as`, the member too) in place of "
                                   "its name and what it holds: a place's owner, its buildings, what stands on it.")


class DisplayRows(_Model):
    """One line per member of a collection, top to bottom: a table's rows (each stall
    with its level and who holds it, each card still to buy with its cost)."""

    rows: str = Field(description="A collection (an expression), in the order the lines are drawn: "
                      "`stalls`, `cards in my hand`.")
    as_: str = Field(alias="as", description="The name the line calls the member.")
    label: str | None = Field(None, description="A heading over the lines (none: the lines alone).")
    line: str = Field(description="Text with `{EXPR}` parts (as in `log`), worked out for each member: as the "
                      "viewing player in `display: table`, as each player in `display: players` (`my` is theirs).")
    when: str | None = Field(None, description="As for an entry: a player counter; shown only where it is not 0.")
    if_: str | None = Field(None, alias="if", description="A condition, as for a `text:` line: the rows are shown "
                            "only while it holds.")


class MapLink(_Model):
    """How the lines of one kind of link are drawn on the map."""

    style: Literal["solid", "dashed", "dotted"] = Field("solid", description="The line: solid, dashed or dotted.")
    arc: bool = Field(False, description="Drawn as an arc bowing away from the middle of the map (a long link, a "
                      "sea route, passes round the places between its ends, not through them).")


class MapMark(_Model):
    """A mark written under a place only while a condition holds."""

    text: str = Field(description="Text with `{EXPR}` parts (as in `log`), the place named.")
    if_: str = Field(alias="if", description="A condition, the place named: the mark is written only while it "
                     "holds (`V's guards > 0`).")


class MapNames(_Model):
    """Other things written on the map where they lie (a region's name, a sea's)."""

    of: str = Field(description="A collection of pieces of one kind that has the map's `x` and `y` attributes: "
                    "`regions`.")
    as_: str = Field(alias="as", description="The name `text` calls each.")
    text: str = Field(description="Text with `{EXPR}` parts (as in `log`), worked out as the viewer, written at "
                      "the piece's x and y under the places: `\"{R}\"`.")


class DisplayMap(_Model):
    """The board as a picture (`legacies replay --svg`, the balance report): places at
    the coordinates their attributes give, joined by lines for their links, each in the
    colour of the player it names, with a label and short marks beside it, worked out for
    the viewer."""

    places: str = Field(description="A collection of places (pieces of one kind): `spots`.")
    as_: str = Field(alias="as", description="The name `colour`, `label` and `marks` call each place.")
    x: str = Field(description="A number attribute of the places' kind: where a place is across, left to right.")
    y: str = Field(description="A number attribute of the places' kind: where a place is down, top to bottom.")
    colour: str | None = Field(None, description="A player, or nobody (an expression with the place named): the "
                               "place is drawn in that player's colour (nobody: grey). `V's holder`.")
    label: str | None = Field(None, description="Text with `{EXPR}` parts (as in `log`) beside each place "
                              "(default: its name).")
    marks: list[str | MapMark] = Field(default_factory=list, description="Short lines with `{EXPR}` parts "
                                       "written under each label (one that works out empty is not drawn), or "
                                       "`{text: ..., if: CONDITION}`: what is built there, what stands there.")
    links: dict[str, MapLink] = Field(default_factory=dict, description="Kinds of links of the places' kind drawn "
                                      "as lines between places on the map, each with its style: `{road: {}, sea: "
                                      "{style: dashed, arc: true}}`.")
    names: list[MapNames] = Field(default_factory=list, description="Other things written on the map where they "
                                  "lie: regions, seas.")
    title: str | None = Field(None, description="Text with `{EXPR}` parts over the map: `\"the valley, round {round}\"`.")


class Display(_Model):
    """What `legacies play` draws for a person, in order: the table's part, then each
    player's (the runner shows only what the viewing player may see)."""

    table: list[str | DisplayEntry | DisplayText | DisplayColumns | DisplayRows] = Field(
        default_factory=list, description="Game counters and zones, game values, counters of board items "
        "(each item's level), lines the rules compute (`text:`), places side by side (`columns:`) and a line per member "
        "of a collection (`rows:`) for the table.")
    players: list[str | DisplayEntry | DisplayText | DisplayRows] = Field(
        default_factory=list, description="Player counters, zones, values, counter sets, lines the rules "
        "compute (`text:`) and a line per member of a collection (`rows:`), shown for every player.")
    kinds: dict[str, list[str]] = Field(
        default_factory=dict, description="Lines a piece of a kind shows when a player reads it in full (`?N` at the "
        "terminal, `look NAME`): text with `{EXPR}` parts (as in `log`), worked out as the viewing player with "
        "`this` the piece: `shelf: [\"your mark: {mark_of(this)}\"]`. Show only what every player may see.")
    unlogged: list[str] = Field(default_factory=list, description="Counters and values whose changes the log does not "
                                "print under each move (the rules' bookkeeping: the card being played, a count the "
                                "board shows); a piece's own counters by their name too.")
    unprinted: list[str] = Field(default_factory=list, description="Attributes a player never reads on a card (the "
                                 "rules' own bookkeeping: what a space is worth to a bot): left out of a card in "
                                 "full.")
    card: list[str] = Field(default_factory=list, description="Attributes a player reads on a card beside its text: "
                            "shown with the card's text (`?N` at the terminal, an option's line) and beside each "
                            "card of a zone the screen lists (a discard cost, a reward).")
    content: list[str] = Field(default_factory=list, description="Attributes `legacies content` lists as columns "
                               "beside each item's id, kind and name (an era, a cost), where the item has them.")
    scoring: dict[str, Union[str, dict[str, str]]] = Field(
        default_factory=dict, description="What the breakdown of each player's score at the end of a game calls "
        "where points came from: a kind (its items' points; default: its plural), a procedure or an action "
        "(default: its text or name), `setup` or `game` -> a label. For a program, a map from some of its "
        "statements as written (`gain by_gold points for P`) to labels splits it. Parts with one label are added up.")
    map: DisplayMap | None = Field(None, description="The board as a picture (`legacies replay --svg`, the balance "
                                   "report): places at coordinates, joined by their links, coloured by a player. "
                                   "An expansion's `map:` replaces the one it is laid over.")


class MenuDecl(_Model):
    """A list of actions others may join: `perform one of MENU` offers every action that
    names the menu in its `menus:`, the base's and every expansion's, in load order."""

    label: str | None = Field(None, description="What card text calls the menu (\"your turn actions\").")
    replaces: bool = _replaces()


class _VocabularyTables(_Model):
    """The declarations a ruleset makes and an expansion may add to."""

    enums: dict[str, list[str]] = Field(default_factory=dict)
    counters: dict[str, CounterDecl] = Field(default_factory=dict)
    values: dict[str, ValueDecl] = Field(default_factory=dict, description="Named slots holding a player, an "
                                         "item, a symbol... (the player who ended the round, your colour).")
    counter_sets: dict[str, list[str]] = Field(default_factory=dict, description="Named sets of player counters "
                                               "(resources: [wood, stone, ore]): `choose a resource as R`.")
    zones: dict[str, ZoneDecl] = Field(default_factory=dict)
    kinds: dict[str, KindDecl] = Field(default_factory=dict)
    links: dict[str, LinkDecl] = Field(default_factory=dict, description="Kinds of links joining places (board "
                                       "items): `neighbours of X by road`, `distance from X to Y`.")
    events: dict[str, EventDecl] = Field(default_factory=dict)
    quantities: dict[str, QuantityDecl] = Field(default_factory=dict)
    options: dict[str, OptionDecl] = Field(default_factory=dict)
    menus: dict[str, MenuDecl] = Field(default_factory=dict, description="Lists of actions that others may join "
                                       "(an action says `menus: [NAME]`): `perform one of NAME`.")
    seats: dict[str, SeatDecl] = Field(default_factory=dict, description="Kinds of seats the rules run, which a "
                                       "table may add after its players (`--seat KIND`), each seated by an option.")
    display: Display | None = Field(None, description="What the terminal screen shows (default: the game "
                                    "counters, and each player's score and zones). An expansion's entries come "
                                    "after the base's.")
    win_rates_by: list[str] = Field(default_factory=list, description="Player values a balance report groups "
                                    "seats by (a colour, a side): `legacies simulate` gives each its "
                                    "win rate, read when the game ends. Format 1 called it `starting_choices`.")
    labels: dict[str, str] = Field(default_factory=dict, description="Display text for names in card text.")


class _RulesetHead(_Model):
    """What only a ruleset says (its first keys)."""

    ruleset: str
    title: str
    description: str | None = None
    players: Players
    eras: list[str] = Field(default_factory=list)
    era_counter: str | None = Field(None, description="Game counter holding the current era (1-based).")
    era_word: str | None = Field(None, description="What the ruleset calls an era in card text (age).")
    hand: str | None = Field(None, description="Player zone that `draw` fills when no zone is named.")
    score: str = Field(description="Player counter holding the score, or a definition with no parameters giving "
                       "it (an amount, read as each player: `me` is the player).")
    tie_breaks: list[str] = Field(default_factory=list, description="Expressions (higher wins) after the score.")
    automated: str | None = Field(None, description="A player counter: a player whose counter is not 0 is run by "
                                  "the rules (a non-player character). Nobody is asked their decisions: each takes "
                                  "the first of its options, in the order the rules list them, that the rules do "
                                  "not refuse.")
    evaluation: str | None = Field(None, description="How well a player stands (an amount, higher is better, read "
                                   "as each player): what the greedy and search bots steer by. Default: the score.")
    greedy_lookahead: int | None = Field(None, ge=0, le=100_000, description="How many options the greedy bot "
                                         "applies per decision, following its own decisions of the turn, unless a "
                                         "seat is given its own (`--lookahead`): fewer think faster and may play "
                                         "weaker. Default: 400.")
    limits: Limits = Field(default_factory=lambda: Limits.model_validate({}))


class RulesetFile(_VocabularyTables, _RulesetHead):
    """rules/<name>/ruleset.yaml (pydantic lists a base's fields first: the head's, then
    the vocabulary's, then these)."""

    payment: PaymentDecl | None = None
    bid_steps: list[Number] = Field(default_factory=lambda: [0, 1, 4, 9, 24], description="An auction offers the "
                                 "lowest legal bid plus each of these (and all the bidder has).")
    format: int = _format()


class AttributeExtension(_Model):
    """An attribute of what an expansion is laid over, its range widened (`extends: true`)."""

    extends: Literal[True] = Field(description="Widen the attribute the kind has: a lower `min`, a higher `max`, "
                                   "more `values` (it may not narrow them).")
    min: int | None = Field(None, description="The new lowest value (at most the base's).")
    max: int | None = Field(None, description="The new highest value (at least the base's).")
    values: list[int | str] | None = Field(None, min_length=1, description="Values added to the base's list.")


class CounterExtension(_Model):
    """A counter of what an expansion is laid over, its bounds widened (`extends: true`)."""

    extends: Literal[True] = Field(description="Widen the counter the kind has: a lower `min`, a higher `max` "
                                   "(it may not narrow them).")
    min: Number | None = Field(None, description="The new lowest value (at most the base's).")
    max: Number | None = Field(None, description="The new highest value (at least the base's).")


class KindAdditions(_Model):
    """What an expansion adds to a kind of what it is laid over."""

    attributes: dict[str, Union[AttributeType, AttributeExtension, AttributeDecl]] = Field(
        default_factory=dict, description="New attributes: name: type, or name: {type, default, label}; an "
        "attribute the kind has, its range widened: name: {extends: true, max: N}.")
    counters: dict[str, Union[CounterExtension, CounterDecl]] = Field(
        default_factory=dict, description="New per-item counters; a counter the kind has, its bounds widened: "
        "name: {extends: true, max: N}.")
    values: dict[str, Union[str, SlotDecl]] = Field(default_factory=dict, description="New value slots of each "
                                                    "piece: name: type, or name: {type, label}.")


EXPANSION_NAME = r"^[a-z0-9][a-z0-9_-]{0,63}$"


class _ExpansionHead(_Model):
    """What only an expansion says (its first keys)."""

    expansion: str = Field(pattern=EXPANSION_NAME, description="Its name (`--expansion NAME`): lower-case "
                           "letters, digits, - and _.")
    extends: str = Field(description="The ruleset it is laid over.")
    title: str
    description: str | None = None
    requires: list[str] = Field(default_factory=list, description="Expansions it builds on (by name): they are "
                                "laid over the ruleset before it.")


class ExpansionFile(_VocabularyTables, _ExpansionHead):
    """EXPANSION/expansion.yaml: an expansion declares itself and the words it adds."""

    extend_kinds: dict[str, KindAdditions] = Field(default_factory=dict, description="Attributes and counters "
                                                   "added to kinds of what it is laid over.")
    evaluation: str | None = Field(None, description="A term added to the evaluation the bots steer by (an "
                                   "amount, read as each player): `my coins * 5`.")
    removes: list[str] = Field(default_factory=list, description="Content ids of what it is laid over that "
                               "this expansion takes out of the game.")
    format: int = _format()


class ActionDecl(_Model):
    label: str
    choose: str | None = Field(None, description="A collection; one option per member.")
    as_: str | None = Field(None, alias="as")
    if_: str | None = Field(None, alias="if")
    do: str
    menus: list[str] = Field(default_factory=list, description="The menus this action joins (`perform one of "
                             "MENU` offers it).")
    replaces: bool = _replaces()


class DefinitionDecl(_Model):
    params: dict[str, str] = Field(default_factory=dict)
    value: str
    text: str | None = Field(None, description="How card text says it; {NAME} stands for a parameter.")
    replaces: bool = _replaces()


class ProcedureDecl(_Model):
    params: dict[str, str] = Field(default_factory=dict)
    do: str = Field(description="What it does, in the effect language.")
    text: str | None = Field(None, description="How card text says it; {NAME} stands for a parameter.")
    before: str | None = Field(None, description="A procedure or action this one runs at the start of, each time it "
                               "runs, with its parameters (an action's: its `as:` name): a hook.")
    after: str | None = Field(None, description="A procedure or action this one runs at the end of, each time it "
                              "runs to its end, with its parameters (an action's: its `as:` name): a hook.")
    replaces: bool = _replaces()


class RestrictionDecl(_Model):
    action: str = Field(description="The action it restricts (this file's, another's, or what an expansion is "
                        "laid over).")
    if_: str = Field(alias="if", description="A condition that must hold too for the action to be offered, with "
                     "the action's `as:` name bound.")


class ProceduresFile(_Model):
    actions: dict[str, ActionDecl] = Field(default_factory=dict)
    definitions: dict[str, DefinitionDecl] = Field(default_factory=dict)
    procedures: dict[str, ProcedureDecl] = Field(default_factory=dict, description="Named effects with "
                                                 "parameters, run as a statement: `score_row(K, 2)`.")
    triggers: dict[str, str] = Field(default_factory=dict, description="Rules that answer events: name: `when "
                                     "EVENT [where CONDITION]:` and a block, run by nobody (`as P:` acts for a "
                                     "player) each time the event is announced.")
    restrictions: dict[str, RestrictionDecl] = Field(default_factory=dict, description="Conditions added to "
                                                     "actions (an expansion's to its base's): name: `action:` and "
                                                     "`if:`; the action is offered only where every one holds.")
    setup: str | None = None
    game: str | None = None
    replaces: bool = Field(False, description="In an expansion: this file replaces the file at its place in what "
                           "the expansion is laid over (without it, a file at a base file's place is an error).")
    format: int = _format()


class ContentItem(_Model):
    id: str = Field(pattern=NAME_PATTERN)
    kind: str
    name: str
    copies: int = Field(1, ge=0, le=1000)
    attributes: dict[str, Any] = Field(default_factory=dict)
    links: dict[str, list[str]] = Field(default_factory=dict, description="Neighbours per link kind its kind uses "
                                        "(`road: [b, c]`): ids of items of kinds that use that link.")
    requires: str | None = None
    effect: str | None = None
    flavor: str | None = None
    replaces: bool = Field(False, description="In an expansion: this item replaces the item with its id in what "
                           "the expansion is laid over, where that one stood.")


class ContentFile(_Model):
    ruleset: str
    items: list[ContentItem]
    replaces: bool = Field(False, description="In an expansion: this file replaces the file at its place in what "
                           "the expansion is laid over (without it, a file at a base file's place is an error).")
    format: int = _format()


FILE_MODELS: dict[str, type[_Model]] = {
    "ruleset": RulesetFile,
    "procedures": ProceduresFile,
    "content": ContentFile,
    "expansion": ExpansionFile,
}
