"""The language's constructs, one entry each: how a construct is written, what it
means, how it is printed back as source and worded as card text, and (for builtins)
its types and what it computes.

Every pass reads this registry instead of keeping its own if-chain: the parser's
transformer, the printer and the renderer take a statement's shape and wording from
here, the checker its operand roles, the compiler a builtin's `run`, and
docs/language.md's reference is generated from it (tests/dsl/test_constructs.py
checks that the file matches and that every node class has an entry and a handler
in each pass).

What a builtin computes is interpreter/builtins.py's (dsl/ declares, interpreter/
runs); `special` marks one the compiler builds itself (`possible`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from . import ast

N = TypeVar("N", bound=ast.Node)
from .types import ACTION, AMOUNT, ANY, FLAG, PLAYER, PLAYERS, TEXT, TRACK, ZONE, T

if TYPE_CHECKING:  # pragma: no cover
    from .check.base import CheckState

# ---------------------------------------------------------------------- builtins


@dataclass(frozen=True)
class Builtin:
    """A name (`me`), a one-argument form (`owner of X`) or a call (`max(A, B)`)."""

    name: str
    form: str  # name | of | call
    syntax: str
    doc: str
    words: str  # card text; {0}, {1}... are the arguments, {all} all of them joined with "and"
    check: Callable[["CheckState", ast.Expr, list[ast.Expr]], T]
    needs_me: bool = False
    special: bool = False  # compiled by a form of its own, not run from interpreter/builtins.py


def _const(t: T) -> Callable[["CheckState", ast.Expr, list[ast.Expr]], T]:
    return lambda c, e, args: t


def _check_count(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    t = c.expr(args[0])
    if not t.is_collection and t.tag not in ("any", "zone"):
        c.error(args[0], "E202", f"`count of` needs a collection, found {t}")
    return AMOUNT


def _check_owner(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    t = c.piece(args[0], c.expr(args[0]))
    if t.tag not in ("thing", "any"):
        c.error(args[0], "E202", f"`owner of` needs a piece, found {t}")
    return PLAYER


def _check_track(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    t = c.piece(args[0], c.expr(args[0]))
    if t.tag not in ("thing", "any"):
        c.error(args[0], "E202", f"`track of` needs an item, found {t}")
    elif t.arg and (c.v.kinds.get(t.arg) is None or c.v.kinds[t.arg].track is None):
        c.error(e, "E203", f"{T('thing', t.arg)} has no track")
    return TRACK


def _check_holder(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    t = c.piece(args[0], c.expr(args[0]))
    if t.tag not in ("thing", "any"):
        c.error(args[0], "E202", f"`holder of` needs a piece, found {t}")
    return T("thing")


def _check_name(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    c.expr(args[0])
    return TEXT


def _check_position(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    t = c.expr(args[0])
    if t.tag not in ("thing", "player", "any"):
        c.error(args[0], "E202", f"`position of` needs a token on a track or a player, found {t}")
    return AMOUNT


def _check_amounts(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    if not args:
        c.error(e, "E212", f"`{getattr(e, 'name', '?')}` needs at least one amount",
                hint=f"write `{getattr(e, 'name', '?')}(A, B)`")
    for a in args:
        c.amount(a)
    return AMOUNT


def _check_affordable(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    if c.arity(e, args, ("CARD", "ZONE")):
        c.expect(args[0], c.expr(args[0]), T("thing"))
        c.expect(args[1], c.expr(args[1]), ZONE)
    if c.v.payment is None:
        c.error(e, "E202", "this ruleset declares no card payment", hint="add `payment:` to ruleset.yaml")
    return FLAG


def _check_playable(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    if c.arity(e, args, ("CARD",)):
        c.expect(args[0], c.expr(args[0]), T("thing"))
    return FLAG


def _check_possible(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    if not args:
        c.error(e, "E212", "`possible(ACTION, ...)` names at least one action")
    for a in args:
        if not (isinstance(a, ast.Name) and (a.name in c.v.actions or a.name in c.v.menus)):
            c.error(a, "E206", "`possible` takes names of actions and menus",
                    hint=c.suggest(getattr(a, "name", ""), list(c.v.actions) + list(c.v.menus)))
        else:
            c.record(a, ACTION)
    return FLAG


def _check_held(c: "CheckState", e: ast.Expr, args: list[ast.Expr]) -> T:
    if len(args) not in (1, 2):
        c.arity(e, args, ("COUNTER", "PLAYER") if len(args) > 2 else ("COUNTER",))
        return AMOUNT
    t = c.expr(args[0])
    if t.tag not in ("counter", "any"):
        c.error(args[0], "E202", f"`held` takes a counter held in a name (`R` from `choose a resource as R`), "
                f"found {t}", hint="for a named counter write `my gold`")
    if len(args) == 2:
        c.expect(args[1], c.expr(args[1]), PLAYER)
    else:
        c.need_me(e, "`held(R)` (how much of it you have)")
    return AMOUNT


BUILTINS: dict[str, Builtin] = {b.name: b for b in (
    Builtin("me", "name", "me", "The player the effect is running for (`my X` is `X of me`).", "you",
            _const(PLAYER), needs_me=True),
    Builtin("active_player", "name", "active_player", "The player whose turn it is.", "the active player",
            _const(PLAYER)),
    Builtin("nobody", "name", "nobody",
            "No player (an auction nobody won). Compare with it (`W is nobody`); using it as a player "
            "(its counters, its zones) stops the game with an error naming the effect.", "nobody",
            _const(PLAYER)),
    Builtin("players", "name", "players", "Every player, in turn order.", "every player",
            _const(PLAYERS)),
    Builtin("opponents", "name", "opponents", "Every other player, in turn order.", "your opponents",
            _const(PLAYERS), needs_me=True),
    Builtin("final_round", "name", "final_round", "Yes once `begin final round` ran in the current turn loop.",
            "this is the final round", _const(FLAG)),
    Builtin("era", "name", "era", "The current era, 1-based (the ruleset's `era_counter`).", "the current era",
            _const(AMOUNT)),
    Builtin("player_count", "name", "player_count", "How many players the game has.", "the number of players",
            _const(AMOUNT)),
    Builtin("count", "of", "count of COLLECTION", "How many members a collection (or pieces a zone) has.",
            "the number of {0}", _check_count),
    Builtin("owner", "of", "owner of X", "The player a piece belongs to (a token's owner, else the "
            "owner of the zone it is in; `nobody` for a piece in a game zone).", "the owner of {0}",
            _check_owner),
    Builtin("track", "of", "track of X", "The track of an item (the item itself): `advance track of X by 1`.",
            "{0}'s track", _check_track),
    Builtin("holder", "of", "holder of T", "The piece a piece is on (on its track or held by it: a board item, "
            "or a card that is a holder); nothing when it is on none: `collect_reward(holder of T, position of T)`.",
            "what {0} is on", _check_holder),
    Builtin("name", "of", "name of X", "What a player reads for a piece, a player or a symbol.", "the name of {0}",
            _check_name),
    Builtin("position", "of", "position of X", "The space (1-based) a token is on, on its track (0 when "
            "it is on none); for a player, their place in turn order (1 is first).", "the position of {0}",
            _check_position),
    Builtin("max", "call", "max(A, B, ...)", "The largest of the amounts.", "the highest of {all}",
            _check_amounts),
    Builtin("min", "call", "min(A, B, ...)", "The smallest of the amounts.", "the lowest of {all}",
            _check_amounts),
    Builtin("held", "call", "held(COUNTER[, PLAYER])", "How much of a counter held in a name a player has "
            "(yours unless a player is given): `choose a resource where held(it) >= 2 as R`.",
            "your amount of {0}", _check_held),
    Builtin("affordable", "call", "affordable(CARD, ZONE)", "Whether the cards in ZONE can pay CARD's "
            "symbol cost (the ruleset's `payment:`).", "{0} can be paid for from {1}",
            _check_affordable),
    Builtin("playable", "call", "playable(CARD)", "Whether CARD's `requires:` condition holds for you.",
            "{0} can be played", _check_playable),
    Builtin("possible", "call", "possible(ACTION, ...)", "Whether any of the named actions (or the actions "
            "of a named menu) has a legal option for you now.", "you can {any}", _check_possible, special=True),
)}


# ---------------------------------------------------------------------- statements and expressions


@dataclass(frozen=True)
class Construct:
    """A statement, expression or declaration form of the language.

    `written` is the canonical source template (the printer's): `{field}` prints a
    field, `{field:count}` a count (a number, or an expression in parentheses),
    `[...]` an optional part printed when every field in it is set (`{?flag}` is set
    when the flag is true, `{!flag}` when it is false). `words` is the card text
    template, in the same notation, or "" when the renderer words it itself. `roles`
    say what each field must be, for the checker's generic pass (a construct without
    roles is checked by its own method)."""

    node: type[ast.Node]
    section: str
    syntax: str
    doc: str
    written: str = ""
    words: str = ""
    roles: dict[str, str] = field(default_factory=dict)
    example: str = ""
    # what the other passes need to know of a statement (one place: no list elsewhere)
    starts: tuple[str, ...] = ()  # words it begins with besides its syntax's first (`else` of `if`)
    direct: bool = False  # never asks a decision, never pushes a frame (no hook, no trigger): runs straight through
    changes: tuple[str, ...] = ()  # its fields naming the counters or value slots it changes
    modifies: str = ""  # the field (a dotted path) naming a quantity it changes for a while
    moves_pieces: bool = False  # moves, draws, places... pieces
    # its fields that hold blocks of statements, in written order: "body", or "branches.body"
    # for each branch's (child_blocks; the walks of the other passes read this, not a type test)
    blocks: tuple[str, ...] = ()

    def first_words(self) -> tuple[str, ...]:
        """The words this statement or declaration can begin with (none for an expression,
        a part, or a form that begins with a name of the ruleset)."""
        if self.section in ("expressions", "places", "parts"):
            return ()
        first = [alternative.split(" ", 1)[0] for alternative in _top_level_alternatives(self.syntax)]
        return tuple(dict.fromkeys([w for w in first if w.isalpha() and w.islower()] + list(self.starts)))


def _top_level_alternatives(syntax: str) -> list[str]:
    """`A | B` and `A / B` outside brackets: the forms a syntax line gives."""
    out: list[str] = []
    depth = start = 0
    text = syntax.replace(" / ", " | ")
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif depth == 0 and text.startswith(" | ", i):
            out.append(text[start:i])
            start = i + 3
    out.append(text[start:])
    return [a.strip() for a in out if a.strip()]


_S: list[Construct] = [
    # ---- counters and values
    Construct(ast.Gain, "counters", "gain N COUNTER [for P]",
              "Add N to a player's counter (yours unless `for P`); it stops at the counter's `max`. "
              "COUNTER may be a counter held in a name (`choose a resource as R` then `gain 1 R`).",
              "gain {amount} {counter}[ for {player}]", "",
              {"amount": "amount", "counter": "counter", "player": "player?"}, "gain 2 points",
              direct=True, changes=("counter",)),
    Construct(ast.Lose, "counters", "lose N COUNTER [for P]",
              "Subtract N; the counter stops at its `min` (0 by default): you lose what you have, never more. "
              "Never refused.",
              "lose {amount} {counter}[ for {player}]", "",
              {"amount": "amount", "counter": "counter", "player": "player?"}, "lose 3 gold for active_player",
              direct=True, changes=("counter",)),
    Construct(ast.Pay, "counters", "pay N COUNTER [for P]",
              "Subtract N. If that would take the counter below its `min`, the payment is **refused**: the "
              "whole action the player chose is undone and the player is told why.",
              "pay {amount} {counter}[ for {player}]", "",
              {"amount": "amount", "counter": "counter", "player": "player?"}, "pay 10 gold",
              direct=True, changes=("counter",)),
    Construct(ast.PayCards, "counters", "pay for X from Z",
              "Pay X's symbol cost (the ruleset's `payment:`) with cards from zone Z; the player picks one of "
              "the distinct ways to pay (at most `max_wild` wilds). No way to pay: refused.",
              "pay for {target} from {source}", "pay for {target} with cards from {source}", moves_pieces=True),
    Construct(ast.Transfer, "counters", "transfer [up to] N from COUNTER to COUNTER [either way]",
              "Move N from one counter to another. Without `up to` it is refused if the source would drop "
              "below its minimum; with `up to` the player picks an amount from 0 to N; with `either way` the "
              "player first picks the direction.",
              "transfer [up to{?up_to} ]{amount} from {source} to {dest}[ either way{?either_way}]",
              "transfer [up to{?up_to} ]{amount} from {source} to {dest}[ (or vice versa){?either_way}]",
              example="transfer up to 20 from my savings to my gold either way", changes=("source", "dest")),
    Construct(ast.SetTo, "counters", "set TARGET to VALUE",
              "Set a counter (a value past its bounds stops the game at the statement: never clamped in "
              "silence) or a value slot (`set starter to me`, `set my character to K`).", "set {target} to {value}", "set {target} to {value}", example="set my savings to 0",
              direct=True, changes=("target",)),
    Construct(ast.Raise, "counters", "raise COUNTER by N", "Add N, clamped to the counter's bounds.",
              "raise {target} by {amount}", "raise {target} by {amount}", {"target": "lvalue", "amount": "amount"},
              "raise harbour's value by 2", direct=True, changes=("target",)),
    Construct(ast.Lower, "counters", "lower COUNTER by N", "Subtract N, clamped to the counter's bounds.",
              "lower {target} by {amount}", "lower {target} by {amount}", {"target": "lvalue", "amount": "amount"},
              "lower my gold by 5", direct=True, changes=("target",)),
    # ---- pieces and zones
    Construct(ast.Move, "pieces", "move X to Z [at top | at bottom] [without bumping]",
              "Move a piece, or every piece of a collection, to zone Z (on top unless `at bottom`), or onto a "
              "piece that holds pieces (`move G to C`, C of a kind with `holder: true`). Crossing "
              "into or out of an `in_play` zone runs the piece's enter/leave hooks. Onto a space of a track that "
              "bumps (`space 2 of K`), a token already there is bumped one space along, cascading, unless "
              "`without bumping`.",
              "move {what} to {dest}[ at {at}][ without bumping{!bump}]", "", {},
              "move cards in my hand to discard at bottom", moves_pieces=True),
    Construct(ast.Shift, "pieces", "move TOKEN by N [without bumping]",
              "Move one token N spaces along its track (back when N is negative). Past the last space it goes "
              "back to its owner's supply; before the first it stops on the first. On a track that bumps, a "
              "token on the space it lands on is bumped one space further the same way, unless `without "
              "bumping`.",
              "move {what} by {amount}[ without bumping{!bump}]", "", {"amount": "amount"}, "move T by -1",
              moves_pieces=True),
    Construct(ast.Draw, "pieces", "draw N from Z [to Z2]",
              "Move N pieces one at a time from the top of Z to Z2 (without `to`, the ruleset's `hand` of the "
              "player). An empty deck is first rebuilt from its `refill_from` pile; when nothing is left, "
              "drawing stops.",
              "draw {count:count} from {source}[ to {dest}]", "", {}, "draw 2 from deck", moves_pieces=True),
    Construct(ast.Deal, "pieces", "deal N from Z to ZONES",
              "N rounds of one piece from the top of Z to each destination in turn.",
              "deal {count:count} from {source} to {dest}", "deal {count} from {source} to {dest}",
              {"count": "amount", "source": "zone", "dest": "zones"}, "deal 1 from deck to hand of players",
              moves_pieces=True),
    Construct(ast.Discard, "pieces", "discard X",
              "To the `discard_to` pile of the zone X is in (else of the zone it started in; else out of the "
              "game). Tokens go back to their owner's supply.", "discard {what}", "discard {what}",
              {"what": "pieces"}, "discard this", moves_pieces=True),
    Construct(ast.Shuffle, "pieces", "shuffle Z", "Shuffle a zone with the game's seeded generator.",
              "shuffle {zone}", "shuffle {zone}", {"zone": "zone"}, "shuffle deck", direct=True),
    Construct(ast.Reveal, "pieces", "reveal X",
              "Make hidden pieces visible to every player until they move to a zone that is not public or "
              "their zone is shuffled.", "reveal {what}", "reveal {what}", {"what": "pieces"}, "reveal top 2 of deck",
              direct=True),
    Construct(ast.Place, "pieces", "place TOKEN on TARGET [without bumping]",
              "Place a token: `my marker` takes one from your supply (refused when you have none "
              "left). On an item with a track: the first space (or the space named, `space 2 of K`), bumping "
              "what is there one space along, cascading; a token pushed past the last space goes back to its "
              "owner. On a holder: it goes there; a holder with a `capacity` that is full sends its oldest "
              "token back to its owner first.",
              "place {piece} on {target}[ without bumping{!bump}]", "", {}, "place my marker on tower",
              moves_pieces=True),
    Construct(ast.Advance, "pieces", "advance TRACK by N",
              "Every token on the item's track moves N spaces (each token once; back when N is negative); past "
              "the end, back to its owner's supply; before the start, on the first space.",
              "advance {track} by {amount}", "advance every token on {track} by {amount}",
              {"track": "track", "amount": "amount"}, "advance tower by 1", moves_pieces=True),
    Construct(ast.Remove, "pieces", "remove X",
              "Out of the game: cards go to the box; tokens back to their owner's supply.",
              "remove {what}", "remove {what}", {"what": "pieces"}, moves_pieces=True),
    Construct(ast.Dig, "pieces", "dig for KIND in Z where CONDITION to Z2",
              "Turn pieces from the top of Z one by one until one matches; it goes to Z2, the others are "
              "discarded. Rebuilds the deck when needed; always ends.",
              "dig for {wanted} to {dest}", "reveal {wanted} from the top until one turns up and put it into {dest}",
              moves_pieces=True),
    Construct(ast.Play, "pieces", "play X | play X's EFFECT",
              "Run a piece's effect (with `this` = X and `me` = you; it does not move X and does not check "
              "`requires:`), or an effect an item gives in an attribute of type `effect` "
              "(`play my character's ability`, `play entry S of K's rewards`).",
              "play {what}", ""),
    Construct(ast.Run, "procedures", "PROCEDURE(ARG, ...)",
              "Run one of the ruleset's procedures with these arguments: a rule written once and used from "
              "rules and content alike. The procedure runs for the same player as the caller.",
              "", "", {}, "collect_reward(tower, 2)"),
    # ---- choices
    Construct(ast.ChooseFrom, "choices", "choose a ... as V | choose N ... as V | choose up to N ... as V",
              "The player picks one member of a collection (a kind, a zone's pieces, players, symbols of an "
              "enum, counters of a counter set...); V names it. If there is nothing to choose, the rest of the "
              "effect does not happen, and the log says so (`P1 [choose a station]: nothing to choose; the rest "
              "of the effect does not happen`, as a question with one option is said with its answer; where a `where` "
              "filter left nothing, it says what there was none of: `there are no stations whose level is more "
              "than 3`). `choose N` "
              "picks exactly N (all of them, without a question, when there are no more: none when there are "
              "none, and the effect goes on); `choose up to N` offers `done` at each step.",
              "", "", {}, "choose a station as X"),
    Construct(ast.ChooseNumber, "choices", "choose a number from N to M [step S] [where CONDITION] as V",
              "Pick a whole number from N to M (in steps of S: N, N+S, ... up to M). With `where`, only the "
              "numbers for which CONDITION holds (`it` is each) are offered; if none is, the rest of the effect "
              "does not happen. A step below 1 is an error (E202 when written as a number).",
              "choose a number from {low} to {high:or}[ step {step:or}][ where {condition}] as {var}", "", {},
              "choose a number from 0 to 5 as N"),
    Construct(ast.ChooseOne, "choices", "choose one: \"LABEL\" [if CONDITION]: ...",
              "Offer the options whose condition holds; run the one chosen. None: nothing happens. A label's "
              "`{EXPR}` parts show values, as in `log`: `\"raise {X}\"`, `\"{20/50/100} gold\"`.", "", "",
              blocks=("options.body",)),
    Construct(ast.May, "choices", "may [\"PROMPT\"]: ...", "Ask yes/no (always asked); on yes run the block. The prompt's `{EXPR}` parts "
              "show values, as in `log`.",
              "", "", blocks=("body",)),
    Construct(ast.Perform, "choices", "perform one of A, B | perform up to one of A | perform any of A, B",
              "Offer every legal (action, target) pair of the named actions and run the one chosen; `up to one` "
              "allows passing; `any` offers again until the player is done (at most `limits.max_repeats`). A "
              "menu (ruleset `menus:`) names every action that joins it, the base's and each expansion's.",
              "", "", {}, "perform one of trade, pass_turn"),
    Construct(ast.Offer, "choices", "offer ACTION, ACTION ... to PLAYERS",
              "A response window (acting out of turn): in the order of PLAYERS, each player who has a legal "
              "option among the actions is asked to perform one of them (as themselves: `me` is the responder) "
              "or pass; players with nothing legal are not asked. After an action the others are asked again; "
              "the window closes when every player who can act has passed since the last action, or after "
              "`limits.max_repeats` actions.", "", "", {}, "offer trade, pass_turn to opponents"),
    Construct(ast.Auction, "choices", "auction among PLAYERS for COUNTER as W and B",
              "An open auction: in order, each bidder still in raises (a choice of raises, never more than "
              "they can pay; the raises are the ruleset's `bid_steps`) or passes and is out, until one bid "
              "stands; the winner pays it. W is the winner (`nobody` when no one bid), B the bid.",
              "auction among {bidders} for {counter} as {winner} and {amount}", "", changes=("counter",)),
    # ---- control
    Construct(ast.Let, "control", "let V be EXPR", "Name a value (computed once, now).",
              "let {var} be {value}", "", direct=True),
    Construct(ast.If, "control", "if C: ... else if C: ... else: ...", "The first branch whose condition holds.",
              "", "", starts=("else",), blocks=("branches.body", "otherwise")),
    Construct(ast.ForEach, "control", "for each V in COLLECTION: ...",
              "Run the block once per member; the collection is computed once, before the first pass.", "", "",
              blocks=("body",)),
    Construct(ast.Repeat, "control", "repeat N times: ...", "N is computed once.", "", "", blocks=("body",)),
    Construct(ast.AsPlayer, "control", "as P: ...",
              "The block runs for player P: P answers its choices and `me`/`my`/`opponents` mean P.", "", "",
              blocks=("body",)),
    Construct(ast.Log, "control", "log \"TEXT\"",
              "Add a line to the game log (not card text). Each `{EXPR}` in the text shows a value: players "
              "and pieces by name, a zone as the zone (`P1's hand`; `{cards in my hand}` lists what it holds), "
              "numbers as numbers: `log \"{me} plays {C} with {my gold} gold\"`.",
              "log {text}", "", direct=True),
    Construct(ast.Announce, "control", "announce EVENT [with PARAM = EXPR, ...]",
              "Raise an event: first every `until EVENT` modifier ends, then every `when EVENT` trigger fires "
              "(pieces in play and board items, in piece order, each run by its owner).",
              "", ""),
    Construct(ast.TimedModifier, "control", "until EVENT: MODIFIER",
              "A modifier that lasts until EVENT is next announced; its value, subject and players are fixed "
              "when the statement runs.", "", "", direct=True, modifies="modifier.quantity"),
    # ---- game flow
    Construct(ast.TakeTurns, "flow", "take turns [until C]: ...",
              "The players take turns in turn order; each turn runs the block for the player whose turn it is. "
              "The loop ends when C holds (tested before each turn), when `stop taking turns` ran, when a final "
              "round comes back to the player who began it, or after `limits.max_turns` turns.", "", "",
              blocks=("body",)),
    Construct(ast.BeginFinalRound, "flow", "begin final round",
              "Every other player gets one more turn; `final_round` is then yes.", "begin final round",
              "begin the final round"),
    Construct(ast.StopTurns, "flow", "stop taking turns", "The innermost turn loop ends before the next turn.",
              "stop taking turns", "stop taking turns"),
    Construct(ast.SortTurnOrder, "flow", "sort turn order by EXPR [descending | ascending]",
              "Reorder the players by EXPR (`its` is each player); descending by default; ties keep their "
              "order.", "", ""),
    # ---- declarations
    Construct(ast.Trigger, "declarations", "when EVENT [where CONDITION] [once per turn]: ...",
              "Runs each time EVENT is announced while its item is in play (board items always are), as the "
              "item's owner; the event's parameters are names in the block. `once per turn` fires at most once "
              "per turn of the turn loop.", "", "", blocks=("body",)),
    Construct(ast.Hook, "declarations", "when this enters play: ... / when this leaves play: ...",
              "Runs once each time the item enters (NOW) or leaves (RETIRE) an in-play zone.", "", "",
              blocks=("body",)),
    Construct(ast.Continuous, "declarations", "while in play: MODIFIER",
              "A modifier that applies while the item is in play.", "", ""),
    Construct(ast.Modifier, "declarations", "QUANTITY [of X] (* PERCENT | + N | - N | = V) [for PLAYERS]",
              "A change to a quantity the ruleset declares: `trade_cost * 150%`, `may_choose of A = no "
              "for opponents`.", "", ""),
    # ---- expressions
    Construct(ast.Num, "expressions", "12", "A whole number."),
    Construct(ast.Era, "expressions", "20/50/100", "One number per era; the one of the current era is used."),
    Construct(ast.Percent, "expressions", "150%", "Only after `*`: the product rounds up."),
    Construct(ast.Text, "expressions", "\"text\"", "Text in double quotes."),
    Construct(ast.Bool, "expressions", "yes | no", "The two flag values."),
    Construct(ast.Name, "expressions", "NAME", "A word of the ruleset, a local name or a builtin."),
    Construct(ast.This, "expressions", "this", "The content item the effect is written on."),
    Construct(ast.It, "expressions", "it / its NAME", "The member being tested in `where`, `ordered by`, "
              "`sort turn order by`."),
    Construct(ast.Of, "expressions", "X's NAME | NAME of X | my NAME | its NAME",
              "An attribute, counter, value, zone or quantity of an item or a player, or a one-argument builtin."),
    Construct(ast.Empty, "expressions", "X is empty | X is not empty", "Whether a zone, holder or collection is empty."),
    Construct(ast.Has, "expressions", "X has ATTRIBUTE | X has no ATTRIBUTE",
              "Whether an item gives an attribute (a declared default counts as given)."),
    Construct(ast.Compare, "expressions", "A is B | A is not B | A is in B | A < B | A >= B ...",
              "Comparisons; `is` compares players, items (a card named in source matches its copies), symbols "
              "and amounts."),
    Construct(ast.BoolOp, "expressions", "A and B | A or B", "Both / either condition."),
    Construct(ast.Not, "expressions", "not C", "The opposite condition."),
    Construct(ast.Arith, "expressions", "A + B | A - B | A * B",
              "Arithmetic on amounts; `A * 150%` rounds up; `A + B` of two collections joins them."),
    Construct(ast.Div, "expressions", "A divided by B [rounded up | rounded down]",
              "Division; rounds up unless `rounded down`."),
    Construct(ast.Neg, "expressions", "-A", "Minus."),
    Construct(ast.Cond, "expressions", "A if CONDITION else B", "A when the condition holds, else B."),
    Construct(ast.Where, "expressions", "COLLECTION where CONDITION", "The members for which the condition holds "
              "(`it` is each member)."),
    Construct(ast.Ordered, "expressions", "COLLECTION ordered by KEY [descending]",
              "A stable sort by KEY (`it` is each member); ties keep their order."),
    Construct(ast.Select, "expressions", "KIND in Z", "The pieces of a kind in a zone, on a holder or on a track; "
              "`cards in Z` any kind."),
    Construct(ast.Top, "expressions", "top [N] of Z | bottom [N] of Z",
              "The top (or bottom) piece(s) of a zone, and of pieces selected from one (`cards in deck "
              "where ...` keeps the zone's order: its top is the highest of them); of any other collection "
              "(players, items, a list, an `ordered by`), the first (last) member(s)."),
    Construct(ast.Entry, "expressions", "entry N of LIST | entry K of TABLE",
              "The N-th member (1-based) of a list attribute, or the number a table attribute gives item K."),
    Construct(ast.SpaceOf, "expressions", "space N of ITEM", "The N-th space (1-based) of an item's track: "
              "a zone to move or place a token on."),
    Construct(ast.Aggregate, "expressions", "total NAME of C | highest NAME of C | lowest NAME of C",
              "The sum, largest or smallest of NAME of every member of C (0 for an empty C): an attribute, "
              "a counter, a one-argument builtin, or a definition of one parameter asked of each member "
              "(`total trade_value of (tokens in my supply)`)."),
    Construct(ast.Relative, "expressions", "players after P | players before P | players starting with P "
              "| player after P | player before P",
              "Turn order around P: the players after P (not wrapping round), before P, or everyone from P "
              "round to the player before P; `player after P` / `player before P` is the one next player / the "
              "one previous player, wrapping round (after the last comes the first)."),
    Construct(ast.Call, "expressions", "NAME(ARG, ...)", "A definition of the ruleset or a builtin function."),
    # ---- places joined by links (the ruleset's `links:`; interpreter/graph.py)
    Construct(ast.Neighbours, "places", "neighbours of X [by LINK [or LINK ...]]",
              "The places one link away from X (by any link its kind uses, or by the links named), in content "
              "order. A link with a condition (`if:` in `links:`) counts only while it holds. X may be several "
              "places: then the places one link away from any of them (one of them too, when it is next to "
              "another).",
              example="for each P in neighbours of home by road or ferry:\n    gain 1 gold"),
    Construct(ast.Within, "places", "places within N of X [by LINK ...] [through CONDITION]",
              "The places at most N links from X, X included, in content order; with `through`, every place "
              "passed on the way (not X, not the place reached) meets CONDITION (`it`). A kind's noun in place "
              "of `places` (`towns within 2 of X`) keeps the places of that kind.",
              example="choose one of places within 2 of home by road through its owner is me as P"),
    Construct(ast.Distance, "places", "distance from X to Y [by LINK ...] [through CONDITION]",
              "The fewest links from X to Y (0 from X to itself); with `through`, every place passed on the way "
              "meets CONDITION. No path: 1,000,000, more than any path, so `distance ... <= 2` is simply no.",
              example="if distance from home to P by road <= 2:\n    gain 1 gold"),
    Construct(ast.ConnectedGroup, "places", "connected group of X [by LINK ...] where CONDITION",
              "X and every place reachable from X through places that meet CONDITION (`it`), in content order; "
              "nothing when X does not meet it (all the places of one region held by one player).",
              example="gain count of (connected group of home where its owner is me) gold"),
    # ---- parts of other constructs
    Construct(ast.Branch, "parts", "if C: ...", "One branch of `if`.", blocks=("body",)),
    Construct(ast.Option, "parts", "\"LABEL\" [if C]: ...", "One option of `choose one`.", blocks=("body",)),
    Construct(ast.Arg, "parts", "PARAM = EXPR", "One parameter of `announce`."),
    Construct(ast.Program, "parts", "statements and declarations", "A whole effect.", blocks=("statements",)),
    # ---- general constructs: lists written out, modulo, the same card, a random pick, ending the game
    Construct(ast.ListLiteral, "expressions", "[A, B, ...]",
              "A list of values of one type, usable wherever a collection is: `for each X in [a, b]`, "
              "`X is in [1, 3, 5]`, `choose one of [...]`, `choose 2 of [...]`, `pick at random one of [...]`. "
              "`[]` is an empty collection."),
    Construct(ast.Modulo, "expressions", "A modulo B",
              "The remainder of A divided by B: from 0 to B - 1 (`-1 modulo 4` is 3). B must be more than 0: "
              "E202 when written as a number, else an error at run time naming the statement."),
    Construct(ast.SameCard, "expressions", "A is the same card as B | A is not the same card as B",
              "Whether two pieces are copies of one content item (two copies of one card are the same card; "
              "`A is B` is one piece)."),
    Construct(ast.PickRandom, "choices", "pick at random a ... as V | pick at random N ... as V",
              "Chance, not a choice: N different members of a collection (one with `a`/`an`/`one of`) drawn "
              "with the game's seeded generator; nobody is asked. Fewer than N: all of them. None: the rest of "
              "the effect does not happen. V names the member (the list of them for N).",
              "", "", {}, "pick at random a card in my hand as C"),
    Construct(ast.EndGame, "control", "end the game [with P as the winner] [because \"TEXT\"]",
              "The game is over now: nothing else runs (no turn, no trigger, no rest of the effect). The winner "
              "named wins (then the others by the ranking); without one the ranking decides. The reason is "
              "logged (`P2 wins: TEXT`) and kept with the game's result.",
              "end the game[ with {winner} as the winner][ because {reason:text}]", "", {},
              "end the game with active_player as the winner because \"five in a row\""),
]

CONSTRUCTS: dict[type[ast.Node], Construct] = {c.node: c for c in _S}

SECTIONS = {
    "counters": "Counters and values",
    "pieces": "Pieces, zones and tracks",
    "procedures": "Procedures",
    "choices": "Choices",
    "control": "Control and events",
    "flow": "Game flow (rules only)",
    "declarations": "Declarations (content only)",
    "expressions": "Expressions",
    "places": "Places joined by links",
    "parts": "Parts of other constructs",
}


def construct(node: type[ast.Node]) -> Construct:
    return CONSTRUCTS[node]


def child_blocks(node: ast.Node) -> list[ast.Body]:
    """The blocks of statements `node` holds, in written order (its construct's `blocks`):
    what every pass that walks into statements walks into."""
    found = CONSTRUCTS.get(type(node))
    out: list[ast.Body] = []
    for path in found.blocks if found is not None else ():
        field_name, _, inner = path.partition(".")
        value = getattr(node, field_name)
        if value is None:
            continue
        if inner:
            out.extend(getattr(part, inner) for part in value)
        else:
            out.append(value)
    return out


def with_blocks(node: N, each: Callable[[ast.Body], ast.Body]) -> N:
    """`node` with each of its blocks replaced by `each(block)` (a copy; `node` itself
    when it holds none)."""
    found = CONSTRUCTS.get(type(node))
    changes: dict[str, Any] = {}
    for path in found.blocks if found is not None else ():
        field_name, _, inner = path.partition(".")
        value = getattr(node, field_name)
        if value is None:
            continue
        changes[field_name] = tuple(dataclasses.replace(part, **{inner: each(getattr(part, inner))})
                                    for part in value) if inner else each(value)
    return dataclasses.replace(node, **changes) if changes else node


def fill(template: str, node: ast.Node, fmt: Callable[[str, Any, str], str]) -> str:
    """Fill a `written`/`words` template with `node`'s fields: `fmt(field, value, spec)`
    formats one field (`spec` is what follows `:` in `{field:spec}`, or "")."""
    out: list[str] = []
    i = 0
    while i < len(template):
        ch = template[i]
        if ch == "[":
            end = template.index("]", i)
            group = template[i + 1:end]
            if _group_set(group, node):
                out.append(_fill_flat(group, node, fmt))
            i = end + 1
        else:
            j = template.find("[", i)
            j = len(template) if j < 0 else j
            out.append(_fill_flat(template[i:j], node, fmt))
            i = j
    return "".join(out)


def _fields(text: str) -> list[str]:
    names = []
    i = text.find("{")
    while i >= 0:
        j = text.index("}", i)
        names.append(text[i + 1:j])
        i = text.find("{", j)
    return names


def _group_set(group: str, node: ast.Node) -> bool:
    for ref in _fields(group):
        if ref.startswith("?"):
            if not getattr(node, ref[1:]):
                return False
        elif ref.startswith("!"):
            if getattr(node, ref[1:]):
                return False
        elif getattr(node, ref.partition(":")[0]) is None:
            return False
    return True


def _fill_flat(text: str, node: ast.Node, fmt: Callable[[str, Any, str], str]) -> str:
    out: list[str] = []
    i = 0
    while i < len(text):
        j = text.find("{", i)
        if j < 0:
            out.append(text[i:])
            break
        out.append(text[i:j])
        k = text.index("}", j)
        ref = text[j + 1:k]
        if not ref.startswith(("?", "!")):
            name, _, spec = ref.partition(":")
            out.append(fmt(name, getattr(node, name), spec))
        i = k + 1
    return "".join(out)


def reference_markdown() -> str:
    """The language reference section of docs/language.md, generated from the registry."""
    out: list[str] = ["<!-- generated from dsl/constructs.py by `python -m legacies.dsl.constructs`; do not edit -->",
                      ""]
    for section, title in SECTIONS.items():
        entries = [c for c in _S if c.section == section]
        if not entries:
            continue
        out.append(f"### {title}")
        out.append("")
        out.append("| Form | Meaning |")
        out.append("| --- | --- |")
        for c in entries:
            out.append(f"| `{c.syntax}` | {c.doc} |")
        out.append("")
    out.append("### Builtins")
    out.append("")
    out.append("| Form | Meaning |")
    out.append("| --- | --- |")
    for b in BUILTINS.values():
        out.append(f"| `{b.syntax}` | {b.doc} |")
    out.append("")
    return "\n".join(out)
