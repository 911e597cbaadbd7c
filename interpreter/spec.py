"""What the interpreter is given: a checked ruleset as plain objects (GameSpec).

pipeline/ builds it from data files; tests build small ones by hand. Nothing here
names a game: the vocabulary supplies every word. Every program carries an Origin
(which item, which file, where its text starts) so that an error while it runs can
name the item and the file:line:column of the statement."""

from __future__ import annotations

from dataclasses import dataclass, field

from legacies.dsl import ast
from legacies.dsl.resolution import Resolution
from legacies.dsl.vocabulary import Vocabulary


@dataclass(frozen=True)
class Origin:
    """Where a program's text sits: what it belongs to ("card `storm` (Storm)"), its file,
    and the offsets that turn a span inside the text into a file position. An
    expression is parsed behind a `let` prefix of `prefix` columns on its first line."""

    what: str
    file: str | None = None
    line_offset: int = 0
    column_offset: int = 0
    prefix: int = 0

    def at(self, span: ast.Span | None) -> tuple[int | None, int | None]:
        if span is None:
            return (1 + self.line_offset if self.file else None), None
        column = span.column - (self.prefix if span.line == 1 else 0)
        return span.line + self.line_offset, max(1, column) + self.column_offset


@dataclass
class PieceDef:
    """A content item (card, board item) or a token kind."""

    id: str
    kind: str
    name: str
    copies: int = 1
    attrs: dict[str, object] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)  # link kind -> neighbour ids, as listed
    effect: ast.Program | None = None
    requires: ast.Expr | None = None
    # attributes of type `effect` / `effects`: their programs (a list for `effects`)
    programs: dict[str, ast.Program | list[ast.Program]] = field(default_factory=dict)
    origins: dict[str, Origin] = field(default_factory=dict)  # "effect", "requires", "ATTR", "ATTR.2"...


@dataclass
class ActionSpec:
    name: str
    label: str
    body: ast.Program
    choose: ast.Expr | None = None
    var: str | None = None
    condition: ast.Expr | None = None
    origin: Origin | None = None
    choose_origin: Origin | None = None
    condition_origin: Origin | None = None
    label_node: ast.Node | None = None  # the label as a node whose `{EXPR}` parts the checker recorded
    # conditions other rules add (`restrictions:`), each with where it is written: all must hold too
    restrictions: list[tuple[ast.Expr, Origin]] = field(default_factory=list)

    def conditions(self) -> list[tuple[ast.Expr, Origin | None]]:
        """Its own `if:` (when it has one) and every restriction on it."""
        own: list[tuple[ast.Expr, Origin | None]] = [] if self.condition is None else [
            (self.condition, self.condition_origin)]
        return own + list(self.restrictions)


@dataclass
class DefinitionSpec:
    name: str
    params: list[str]
    value: ast.Expr
    origin: Origin | None = None
    charge: int = 0
    """Steps charged to the budget each time the value is computed (0: none, it does little;
    pipeline/definition_nesting.py)."""


@dataclass
class ProcedureSpec:
    name: str
    params: list[str]
    body: ast.Program
    origin: Origin | None = None


@dataclass(frozen=True)
class SeatSpec:
    """A kind of seat the rules run, seated by an option (an amount: how many of the last
    seats; a flag: one seat, sitting down by itself at a table of `joins` others)."""

    name: str
    label: str
    option: str
    option_type: str  # amount | flag
    joins: int | None = None
    description: str | None = None


@dataclass
class DisplayPart:
    """A part of the screen the rules work out (a ruleset's `display:` `text:`,
    `columns:`, `rows:` and `kinds:` entries): text lines with `{EXPR}` parts (each a
    `log` statement's text, checked as one), and for places side by side or a line per
    member, the collection whose members are the columns or rows, the name the lines call
    a member, the pieces listed under the lines (each by its name and what it holds, or by
    lines worked out for it, `piece_lines`), and the condition it is shown on (`if:`)."""

    lines: list[ast.Log]
    members: ast.Expr | None = None  # None: one line of text (`text:`)
    name: str | None = None
    pieces: ast.Expr | None = None
    label: str | None = None
    origin: Origin | None = None
    condition: ast.Expr | None = None
    piece_name: str | None = None  # the name `piece_lines` call a listed piece
    piece_lines: list[ast.Log] = field(default_factory=list)  # in place of a piece's name and holdings


@dataclass
class MapNamesSpec:
    """Other things a map writes where they lie (`display: map: names:`): the members of
    a collection, each by a text line worked out with it named."""

    members: ast.Expr
    name: str
    text: ast.Log


@dataclass
class MapSpec:
    """The board as a picture (a ruleset's `display: map:`): the places (a collection of
    one kind) at the coordinates two number attributes give, each named `name` in the
    expressions and lines; the player whose colour a place is drawn in; its label and
    marks; the link kinds drawn as lines (kind, style, arc); other things written where
    they lie; a title."""

    places: ast.Expr
    name: str
    x: str
    y: str
    colour: ast.Expr | None = None
    label: ast.Log | None = None  # None: the place's name
    marks: list[tuple[ast.Log, ast.Expr | None]] = field(default_factory=list)  # a line, written while it holds
    links: list[tuple[str, str, bool]] = field(default_factory=list)
    names: list[MapNamesSpec] = field(default_factory=list)
    title: ast.Log | None = None
    origin: Origin | None = None


@dataclass
class Limits:
    max_turns: int = 1000
    step_budget: int = 2_000_000
    max_repeats: int = 200


@dataclass
class GameSpec:
    name: str
    title: str
    vocab: Vocabulary
    min_players: int
    max_players: int
    defs: list[PieceDef]
    res: Resolution
    actions: dict[str, ActionSpec] = field(default_factory=dict)
    definitions: dict[str, DefinitionSpec] = field(default_factory=dict)
    procedures: dict[str, ProcedureSpec] = field(default_factory=dict)
    setup: ast.Program | None = None
    game: ast.Program | None = None
    setup_origin: Origin | None = None
    game_origin: Origin | None = None
    score_counter: str = "score"  # the name `score:` gives: a player counter, or the definition below
    score_definition: str | None = None  # the score is this definition (no parameters), read as each player
    # what a score breakdown calls where points came from: a kind, procedure or action (or
    # `setup`, `game`) -> a label, or for a program -> {statement as written: label}
    score_labels: dict[str, str | dict[str, str]] = field(default_factory=dict)
    tie_breaks: list[ast.Expr] = field(default_factory=list)
    automated: str | None = None  # a player counter: its players' decisions take the first allowed option
    starting_choices: list[str] = field(default_factory=list)  # player values a balance report groups seats by
    evaluation: ast.Expr | None = None  # how well a player stands, for bots (None: the score)
    greedy_lookahead: int | None = None  # the greedy bot's options applied per decision (None: the bot's own default)
    # what the terminal screen shows: {"table"|"players": [(what, name, label or None)]}
    display: dict[str, list[tuple[str, str, str | None, str | None]]] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    eras: list[str] = field(default_factory=list)
    era_counter: str | None = None
    option_defaults: dict[str, int | bool] = field(default_factory=dict)
    option_rules: dict[str, tuple[str, int | None, int | None]] = field(default_factory=dict)  # type, min, max
    content_hash: str = ""  # SHA-256 of the ruleset's rules and content as loaded: a save records it
    # a rules file's `triggers:`: (name, the `when` declaration, its origin), run by nobody
    rule_triggers: list[tuple[str, ast.Trigger, Origin]] = field(default_factory=list)
    expansions: list[tuple[str, str]] = field(default_factory=list)  # (name, content hash) laid over, in order
    content_columns: list[str] = field(default_factory=list)  # attributes `legacies content` shows as columns
    seats: list[SeatSpec] = field(default_factory=list)  # the kinds of seats the rules run, in declaration order
    option_names: dict[str, dict[str, int]] = field(default_factory=dict)  # option -> item name or id -> value
    # a link kind's condition (`here` and `there` its ends) and where it is written
    link_conditions: dict[str, tuple[ast.Expr, Origin]] = field(default_factory=dict)
    # the screen's parts the rules work out (display `text:`, `columns:`), by the index the
    # `display` entries ("text" | "columns", index) name
    display_parts: list[DisplayPart] = field(default_factory=list)
    card_attributes: list[str] = field(default_factory=list)  # display `card:`: read beside a card's text
    map: MapSpec | None = None  # display `map:`: the board as a picture (interpreter/map_view.py)
    # display `kinds:`: a kind -> the display_parts (lines, `this` the piece) its pieces show in full
    display_kinds: dict[str, list[int]] = field(default_factory=dict)
    unprinted: list[str] = field(default_factory=list)  # display `unprinted:`: attributes a card never shows
    unlogged: list[str] = field(default_factory=list)  # display `unlogged:`: counters, values the log leaves out
    # what a kind's attribute is called where a player reads it (its `label:`): (kind, attribute) -> label
    attribute_labels: dict[tuple[str, str], str] = field(default_factory=dict)
