"""The compiler's base: what every part of it shares.

The state a compile keeps (the ruleset, the layout, the checker's resolution, where
the statement being compiled was written), the dispatch from an AST node to its
`x_`/`s_` method, blocks and programs, a text with `{EXPR}` parts, and the
straight-through blocks: statements that never ask and never push a frame run
without frames (`run_direct`), their loops charged to the step budget (`spend`, from
interpreter/budget.py, as every walk over a collection is).
"""

from __future__ import annotations

import re

from typing import Any, Callable, Protocol

from legacies.dsl import ast
from legacies.dsl import resolution as r
from legacies.dsl.constructs import CONSTRUCTS
from legacies.dsl.renderer import Wording
from legacies.dsl.resolution import Resolution
from legacies.dsl.types import T

from .. import mechanics as mech
from ..naming import namer_for
from ..builtins import NOBODY
from ..coverage import Coverage
from ..decisions import Said
from ..budget import spend
from ..errors import ContentError, Refused, Where, locate
from ..layout import Layout
from ..ledger import Adjust, Ledger
from ..spec import GameSpec, Origin
from ..values import DefRef
from ..vm import Activation, Block, State


Fn = Callable[[Activation], Any]


Instr = Callable[[State, Activation], None]


MISSING = None  # an attribute an item does not give (and that has no default)


def aggregate_probe(res: Resolution, e: ast.Aggregate, ref: r.Ref, member: T) -> ast.Expr:
    """What `total NAME of C` reads of each member (`it`), as an expression the compilers
    compile: `its NAME` (an attribute, a counter, a builtin), or `NAME(it)` when NAME is a
    definition of one parameter; kept alive and typed in `res`."""
    it = ast.It(span=e.span)
    probe: ast.Expr = ast.Call(e.name, (it,), span=e.span) if isinstance(ref, r.Definition) \
        else ast.Of(e.name, it, span=e.span)
    res.keep.append(probe)
    res.refs[id(probe)] = ref
    res.types[id(probe)] = T("amount")
    res.types[id(it)] = member
    return probe


def no_player(what: str) -> ContentError:
    return ContentError(f"{what}: the player here is nobody (an auction no one won, or an effect no "
                        "player runs, such as a board item's trigger); check `P is not nobody` or name a player")


def as_def(piece_def: list[int], x: Any) -> int:
    """The definition index of a piece or of a card named in source."""
    return int(x) if isinstance(x, DefRef) else piece_def[x]


def of_items(t: T) -> bool:
    """Whether a collection's members are pieces or items (a zone's, or things'), not
    players, symbols or numbers: its choices then name the item they are."""
    return t.tag == "zone" or t.element().tag == "thing"


def base_of(st: State, slot: int) -> int:
    """The first slot of the player counter `slot` belongs to."""
    name = st.game.layout.counter_name[slot]
    return st.game.layout.player_counter.get(name, slot)


def indexable(items: Any) -> Any:
    """A collection read by position (`entry N of`, `top of`): a list or a tuple as it is
    (no copy: reading one member is not a walk), anything else as a list."""
    return items if type(items) in (list, tuple) else list(items)


def with_it(a: Activation, value: Any, cond: Fn) -> bool:
    saved = a.it
    a.it = value
    try:
        return bool(cond(a))
    finally:
        a.it = saved


# --------------------------------------------------------------------------- direct blocks
# Statements that never ask a decision and never push a frame (no triggers, no hooks):
# a block made of them alone runs straight through, without a frame per block or per
# loop turn. Loops over such blocks are charged to the step budget up front. Which
# statements they are is the registry's word (dsl/constructs.py `direct`).
DIRECT_STATEMENTS: frozenset[type] = frozenset(c.node for c in CONSTRUCTS.values() if c.direct)

# Statements that push a frame only through what a game may lack: moving a piece across
# the edge of play runs its kind's `when this enters/leaves play:` hooks, an event runs the
# triggers that listen to it, a transfer asks only with `up to` or `either way`. In a game
# without them they run straight through as the registry's direct statements do
# (CompileContext.quiet).
_MOVES_PIECES = frozenset((ast.Move, ast.Shift, ast.Draw, ast.Deal, ast.Discard, ast.Place, ast.Advance,
                           ast.Remove, ast.Dig))
_MOVES_ONLY_THEM = frozenset((ast.Discard, ast.Remove))  # no bump: the pieces named are all that move


def mark_direct(instr: Instr) -> Instr:
    instr.direct = True  # type: ignore[attr-defined]
    return instr


def is_direct(block: Block) -> bool:
    return all(getattr(instr, "direct", False) for instr in block)


def run_direct(st: State, a: Activation, block: Block) -> None:
    """Run a direct block now. An error is located at the statement that raised it (the
    frames would have said the same)."""
    i = 0
    try:
        for instr in block:
            instr(st, a)
            i += 1
    except Refused:
        raise
    except Exception as err:  # an internal error, or a bug: never a refusal, never silent
        raise locate(err, block.wheres[i])


class CompileContext:
    """What every part of a compile shares: the ruleset, the layout, the checker's
    resolution, the wording, where the statement being compiled was written
    (`origin`, set by whoever compiles an item), and the branch probes and score
    ledger a game may keep. Data and look-ups only: no part compiles through it."""

    def __init__(self, spec: GameSpec, lay: Layout, coverage: Coverage | None = None, ledger: Ledger | None = None):
        self.spec = spec
        self.coverage = coverage  # branch probes (interpreter.coverage); None: the usual closures
        self.ledger = ledger  # score changes recorded (interpreter.ledger); None: the usual closures
        self.v = spec.vocab
        self.lay = lay
        self.res: Resolution = spec.res
        self.origin: Origin = Origin("an effect")
        self.wording = Wording.of(self.v)
        self.piece_kind = [spec.defs[d].kind for d in lay.piece_def]
        self.def_kind = [d.kind for d in spec.defs]  # each card definition's kind (a card named in source)
        self.piece_class = {k: info.piece for k, info in self.v.kinds.items()}  # each kind's class (card, token...)
        self.era_slot = lay.game_counter.get(spec.era_counter or "", -1)
        # the quantities a piece's `while in play:` changes (Game.continuous); any other is
        # its default but for timed modifiers (State.timed)
        self.modified_quantities = {decl.modifier.quantity.name for d in spec.defs if d.effect is not None
                                    for decl in d.effect.declarations if isinstance(decl, ast.Continuous)}
        # the kinds whose pieces run hooks when they enter or leave play, and the events some
        # trigger listens to (a card's or a rules file's): what a move or an announce may
        # start (`quiet`)
        declared = [decl for d in spec.defs if d.effect is not None for decl in d.effect.declarations]
        self.hooked_kinds = frozenset(d.kind for d in spec.defs if d.effect is not None
                                      and any(isinstance(x, ast.Hook) for x in d.effect.declarations))
        self.heard_events = frozenset([x.event.name for x in declared if isinstance(x, ast.Trigger)]
                                      + [decl.event.name for _, decl, _ in spec.rule_triggers])

    def quiet(self, s: ast.Stmt) -> bool:
        """Whether a statement that may push a frame in some game (a move, an announce, a
        transfer: `_MOVES_PIECES`...) cannot in this one, so it runs straight through: no
        kind of piece it may move has a hook (every piece it moves is of a kind without one,
        or no kind has one), no trigger listens to the event it announces, a transfer that
        does not ask."""
        kind = type(s)
        if kind is ast.Announce:
            return s.event.name not in self.heard_events  # type: ignore[attr-defined]
        if kind is ast.Transfer:
            return not (s.up_to or s.either_way)  # type: ignore[attr-defined]
        if kind in _MOVES_PIECES:
            if not self.hooked_kinds:
                return True
            if kind in _MOVES_ONLY_THEM:
                moved = self.type_of(s.what).arg  # type: ignore[attr-defined]
                return moved is not None and moved not in self.hooked_kinds
        return False

    def runs_straight(self, s: ast.Stmt) -> bool:
        """Whether a statement never asks and never pushes a frame in this game: the
        registry's direct statements, and those `quiet` here."""
        return type(s) in DIRECT_STATEMENTS or self.quiet(s)

    def ref(self, node: ast.Node) -> r.Ref:
        return self.res.ref(node)

    def type_of(self, node: ast.Node) -> T:
        return self.res.type(node)

    def where(self, node: ast.Node) -> Where:
        line, column = self.origin.at(node.span)
        return Where(self.origin.what, self.origin.file, line, column)

    def adjuster(self, s: ast.Stmt) -> Adjust:
        """What a statement changes counters with: mechanics.adjust, or in a game that keeps
        a score ledger, one that also records this statement's changes of the score."""
        if self.ledger is None:
            return mech.adjust
        return self.ledger.adjuster(self.ledger.source(self.where(s), s))


class Compiles(Protocol):
    """The compiler's entry points that every part compiles its children through (the
    generator's where it writes, the closures elsewhere): interpreter/compiler.py."""

    def expr(self, e: ast.Expr) -> Fn: ...

    def stmt(self, s: ast.Stmt) -> Instr: ...

    def block(self, body: ast.Body, origin: str | None = None) -> Block: ...

    def program(self, program: ast.Program | None, origin: Origin | None = None) -> Block: ...

    def player_or_me(self, e: ast.Expr | None) -> Fn: ...

    def text(self, node: ast.Node, text: str) -> "str | Filled": ...


def fill_text(c: Compiles, ctx: CompileContext, node: ast.Node, text: str) -> "str | Filled":
    """A log line's, an option label's or a prompt's text; with `{EXPR}` parts, a Filled
    that fills them in: players and pieces by name, numbers as numbers."""
    parts = [(placeholder, c.expr(e), ctx.type_of(e).tag)
             for placeholder, e in ctx.res.log_parts.get(id(node), [])]
    if not parts:
        return text
    # "{n} chips" reads "1 chip" when n is 1: the noun after an amount, and its singular
    nouns = ctx.wording.count_nouns
    after = {placeholder: (f"{placeholder} {m.group(1)}", nouns[m.group(1)])
             for placeholder, _, tag in parts if tag == "amount"
             for m in [re.search(re.escape(placeholder) + r" ([a-z]+)\b", text)] if m and m.group(1) in nouns}
    return Filled(text, tuple(parts), after)


class Filled:
    """A text with `{EXPR}` parts. Its parts' values are read when it is said (`said`
    for a log line, `words` for a label or a prompt) and its words are made when they are
    read (decisions.Said, decisions.Words): a game nobody reads makes none. Called, it
    is the text now (a screen's line, a reason)."""

    __slots__ = ("text", "parts", "after")

    def __init__(self, text: str, parts: tuple[tuple[str, Fn, str], ...], after: dict[str, tuple[str, str]]):
        self.text = text
        self.parts = parts
        self.after = after

    def __call__(self, st: State, a: Activation) -> str:
        return self.made(st, self.values(a))

    def values(self, a: Activation) -> tuple:
        """The parts' values now (a collection copied: it may change after)."""
        out = []
        for _, value, _ in self.parts:
            v = value(a)
            out.append(tuple(v) if isinstance(v, list) else v)
        return tuple(out)

    def said(self, a: Activation) -> Said:
        return Said(self.made, (self.values(a),))

    def words(self, a: Activation) -> "Callable[[Any], str]":
        """Its words made when read (a prompt), the values now."""
        values = self.values(a)
        return lambda reader: self.made(reader, values)

    def labelled(self, a: Activation) -> "tuple[Callable[[Any, Any], str], tuple[int, ...]]":
        """An option's label made when read (decisions.Label), the values now, and the
        pieces its words name (decisions.Choice `shows`)."""
        values = self.values(a)
        shows: list[int] = []
        for (_, _, tag), v in zip(self.parts, values):
            if tag == "thing" and type(v) is int:
                shows.append(v)
            elif tag == "things" and isinstance(v, tuple):
                shows.extend(x for x in v if type(x) is int)
        return (lambda reader, value: self.made(reader, values)), tuple(shows)

    def made(self, reader: Any, values: tuple) -> str:
        """The text with `values` filled in, in words."""
        line = self.text
        after = self.after
        for (placeholder, _, tag), v in zip(self.parts, values):
            if placeholder in after and type(v) is int and v in (1, -1):
                written, one = after[placeholder]
                line = line.replace(written, f"{v} {one}", 1)
                continue
            if tag == "player":
                shown = mech.player_name(reader, v)
            elif isinstance(v, bool):
                shown = "yes" if v else "no"
            elif tag in ("flag", "text"):
                shown = str(v)
            elif isinstance(v, (list, tuple)) and not v:  # an empty collection, as an empty list of players
                shown = "none"
            else:  # by its type: a zone, a percent, numbers are ints, never read as the pieces of those numbers
                shown = namer_for(tag)(reader, v) if v is not None else mech.describe(reader, v)
            line = line.replace(placeholder, shown, 1)
        return line


def held_slot(table: dict[str, int], counter: Any, written: str) -> int:
    """The base slot of a counter held in a name (`R` from `choose a resource as R`)."""
    if counter is None:
        raise ContentError(f"`{written}` holds no counter (a value never set, or an attribute an item does "
                           "not give)")
    return table[counter]


def or_nobody(v: Any) -> Any:
    """A player-valued slot never set reads as nobody, never as None (which no player
    comparison or counter index understands)."""
    return NOBODY if v is None else v
