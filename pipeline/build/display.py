"""The parts of a ruleset's `display:` the rules work out, checked once the definitions
are known: `text:` lines, `columns:` (places side by side) and `kinds:` (the lines a
piece of a kind shows in full, `this` the piece), whose `{EXPR}` parts,
collections and pieces are the effect language's; and `display: card:`, the attributes
a player reads beside a card's text. What the entries of `display:` name otherwise is
checked with the vocabulary (pipeline/build/vocabulary.py).

A line's text is checked as the text of a `log` statement, so its `{EXPR}` parts show
values as the log does (players and pieces by name, numbers as numbers), and a problem
points at its `{` in the YAML file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from legacies.dsl import ast
from legacies.dsl.checker import Context
from legacies.dsl.types import T, thing
from legacies.interpreter.spec import DisplayPart

from ..load import LoadedFile
from ..models import DisplayColumns, DisplayRows, DisplayText

if TYPE_CHECKING:
    from .base import Builder

Path = tuple
LOG_LEAD = len('log "')  # where a log statement's text starts: its `{EXPR}` parts are placed from there


def _template(text: str) -> ast.Log:
    """A line as a `log` statement's text, placed so that a problem's column is the
    column in the YAML string (the checker counts from after `log "`)."""
    return ast.Log(text, span=ast.Span(1, 1 - LOG_LEAD, 1, 1 - LOG_LEAD + len(text)))


def check_lines(b: "Builder", f: LoadedFile, texts: list[tuple[Path, str]], ctx: Context) -> list[ast.Log]:
    """Each (where, text) checked as a `log` statement's text."""
    out = []
    for path, text in texts:
        line = _template(text)
        b.check_program(f, path, ast.Program((line,), ()), ctx)
        out.append(line)
    return out


def check_display_parts(b: "Builder") -> list[DisplayPart]:
    """Every `text:` and `columns:` entry of every file's `display:`, in the order the
    vocabulary pass met them (their index is the one its display entry names)."""
    v = b.vocab
    parts: list[DisplayPart] = []
    for f, path, entry in b.display_parts:
        if isinstance(entry, DisplayText):
            _check_when(b, f, path, entry.when)
            if path[1] == "kinds":  # a line a piece of a kind shows in full: `this` is the piece
                lines = check_lines(b, f, [(path, entry.text)], Context(this=thing(path[2]), no_me=False))
                parts.append(DisplayPart(lines, origin=b.origin(f, path, f"a line of a {path[2]} in full")))
                continue
            lines = check_lines(b, f, [(path + ("text",), entry.text)], Context(no_me=False))
            parts.append(DisplayPart(lines, origin=b.origin(f, path + ("text",), "a line of the screen"),
                                     condition=_condition(b, f, path, entry.if_)))
            continue
        if isinstance(entry, DisplayRows):
            _check_when(b, f, path, entry.when)
            members, ctx = _members(b, f, path, "rows", entry.rows, entry.as_)
            lines = check_lines(b, f, [(path + ("line",), entry.line)], ctx)
            parts.append(DisplayPart(lines, members, entry.as_, None, entry.label,
                                     b.origin(f, path, "the screen's " + (entry.label or "rows")),
                                     _condition(b, f, path, entry.if_)))
            continue
        assert isinstance(entry, DisplayColumns)
        members, ctx = _members(b, f, path, "columns", entry.columns, entry.as_)
        lines = check_lines(b, f, [(path + ("lines", i), text) for i, text in enumerate(entry.lines)], ctx)
        pieces = b.expression(f, path + ("pieces",), entry.pieces)
        pt = T("any")
        if pieces is not None:
            pt, _ = b.check_expr(f, path + ("pieces",), pieces, ctx)
            if pt.tag not in ("things", "zone", "any", "empty"):
                b.at(f, path + ("pieces",), "R001", f"`pieces:` is a collection of pieces or a zone, not {pt}",
                     hint="`cards in Z`, `KIND in X`, or a definition giving pieces")
        piece_lines = _piece_lines(b, f, path, entry, pieces, pt, ctx)
        parts.append(DisplayPart(lines, members, entry.as_, pieces, entry.label,
                                 b.origin(f, path, "the screen's " + (entry.label or "columns")),
                                 piece_name=entry.piece_as if piece_lines else None, piece_lines=piece_lines))
    return parts


def _piece_lines(b: "Builder", f: LoadedFile, path: Path, entry: DisplayColumns, pieces: ast.Expr | None,
                 pieces_type: T, ctx: Context) -> list[ast.Log]:
    """`piece_lines:` checked with the listed piece named `piece_as` (and the member named
    `as`): lines in place of each piece's name and what it holds."""
    if not entry.piece_lines and entry.piece_as is None:
        return []
    if pieces is None or entry.piece_as is None or not entry.piece_lines:
        missing = "pieces" if pieces is None else "piece_as" if entry.piece_as is None else "piece_lines"
        b.at(f, path, "R001", f"`piece_lines:` and `piece_as:` go together, with `pieces:`; `{missing}:` is missing",
             hint="`pieces: places_in(R)`, `piece_as: V`, `piece_lines: [\"{V}: {V's owner}\"]`")
        return []
    if entry.piece_as in b.vocab.name_set() or entry.piece_as == entry.as_:
        b.at(f, path + ("piece_as",), "R001", f"`piece_as: {entry.piece_as}` names each listed piece, but "
             f"`{entry.piece_as}` is " + ("the member's name (`as:`)" if entry.piece_as == entry.as_
                                          else "a word of the ruleset"),
             hint="choose another name the ruleset does not use (a capital letter: `V`)")
    element = pieces_type.element() if pieces_type.is_collection else T("any")
    if pieces_type.tag == "zone":
        element = T("thing")
    inner = Context(locals={**ctx.locals, entry.piece_as: element}, no_me=False)
    return check_lines(b, f, [(path + ("piece_lines", i), text) for i, text in enumerate(entry.piece_lines)], inner)


def _condition(b: "Builder", f: LoadedFile, path: Path, source: str | None) -> ast.Expr | None:
    """An entry's `if:`, checked: a condition (a flag)."""
    if source is None:
        return None
    condition = b.expression(f, path + ("if",), source)
    t, _ = b.check_expr(f, path + ("if",), condition, Context(no_me=False))
    if condition is not None and t.tag not in ("flag", "any"):
        b.at(f, path + ("if",), "R001", f"`if:` is a condition (a line is shown while it holds), not {t}",
             hint="compare it: `my marker is not nobody`, `count of (cards in my hand) > 0`")
    return condition


def _check_when(b: "Builder", f: LoadedFile, path: Path, when: str | None) -> None:
    """An entry's `when:` names a player counter, in `display: players`."""
    v = b.vocab
    if when is not None and not (when in v.counters and v.counters[when].scope == "player" and path[1] == "players"):
        b.at(f, path + ("when",), "R001", f"`when` names a player counter, for an entry of `display: players`; "
             f"`{when}` is not one", hint=b.suggest(when, [n for n, c in v.counters.items() if c.scope == "player"]))


def _members(b: "Builder", f: LoadedFile, path: Path, key: str, source: str, name: str) -> tuple:
    """The collection of a `columns:` or `rows:` entry, checked, and the context its lines
    are checked in (the member named `name`; `my` is the viewer's, or each player's)."""
    members = b.expression(f, path + (key,), source)
    t, _ = b.check_expr(f, path + (key,), members, Context(no_me=False))
    if members is not None and not t.is_collection and t.tag != "any":
        b.at(f, path + (key,), "R001", f"`{key}:` is a collection (one {key[:-1]} per member), not {t}",
             hint="write the places to draw side by side: `places where its number <= last`" if key == "columns"
             else "write the members to list, one to a line: `stalls`")
    if name in b.vocab.name_set():
        b.at(f, path + ("as",), "R001", f"`as: {name}` names the member, but `{name}` is a word of "
             "the ruleset", hint="choose a name the ruleset does not use (a capital letter: `T`)")
    return members, Context(locals={name: t.element() if t.is_collection else T("any")}, no_me=False)


def card_attributes(b: "Builder", layers: list[LoadedFile]) -> list[str]:
    """`display: card:`: attributes of some kind, each once (R001 for another name)."""
    return display_attributes(b, layers, "card")


def display_attributes(b: "Builder", layers: list[LoadedFile], entry: str) -> list[str]:
    """An entry of `display:` that lists attributes (`card:`, `content:`): attributes of
    some kind, each once, in the order the layers give them (R001 for another name)."""
    attributes = {a for k in b.vocab.kinds.values() for a in k.attributes}
    out: list[str] = []
    for f in layers:
        display = f.model.display  # type: ignore[attr-defined]
        for i, name in enumerate(getattr(display, entry) if display is not None else []):
            if name not in attributes:
                b.at(f, ("display", entry, i), "R001", f"`display: {entry}:` names attributes of the kinds; "
                     f"`{name}` is none", hint=b.suggest(name, attributes))
            elif name not in out:
                out.append(name)
    return out
