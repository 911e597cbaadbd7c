"""A ruleset's `display: map:` (the board as a picture) checked once the definitions are
known: its places are a collection of one kind whose number attributes `x` and `y` every
item of the kind gives, the colour a player, the links drawn kinds of links of the
places' kind, the things written where they lie collections of kinds with the same
attributes, and the label, marks, names and title text lines whose `{EXPR}` parts are
checked as a `log` statement's (a problem points at its `{`). The last layer that draws
a map is drawn (an expansion's replaces the base's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from legacies.dsl import ast
from legacies.dsl.checker import Context
from legacies.dsl.types import thing
from legacies.interpreter.spec import MapNamesSpec, MapSpec

from .display import check_lines
from ..load import LoadedFile
from ..models import DisplayMap, MapMark
from ..size_bounds import MAX_COORDINATE

if TYPE_CHECKING:
    from .base import Builder

Path = tuple
WHERE = ("display", "map")


def check_map(b: "Builder", layers: list[LoadedFile]) -> MapSpec | None:
    """The map of the last layer that draws one, checked; None when none does."""
    found: tuple[LoadedFile, DisplayMap] | None = None
    for f in layers:
        display = f.model.display  # type: ignore[attr-defined]
        if display is not None and display.map is not None:
            found = (f, display.map)
    if found is None:
        return None
    f, entry = found
    places, kind = _collection(b, f, WHERE, "places", entry.places, entry.as_)
    if kind is not None:
        for key, attribute in (("x", entry.x), ("y", entry.y)):
            _coordinate(b, f, WHERE + (key,), attribute, kind)
    ctx = Context(locals={entry.as_: thing(kind)}, no_me=False)
    colour = b.expression(f, WHERE + ("colour",), entry.colour)
    if colour is not None:
        t, _ = b.check_expr(f, WHERE + ("colour",), colour, ctx)
        if t.tag not in ("player", "any"):
            b.at(f, WHERE + ("colour",), "R001", f"`colour:` is a player (or nobody), whose colour the place is "
                 f"drawn in; not {t}", hint=f"a player value of the place: `{entry.as_}'s owner`")
    label = _line(b, f, WHERE + ("label",), entry.label, ctx)
    marks = [_mark(b, f, WHERE + ("marks", i), mark, ctx) for i, mark in enumerate(entry.marks)]
    links = _links(b, f, entry, kind)
    names = []
    for i, written in enumerate(entry.names):
        path = WHERE + ("names", i)
        members, of_kind = _collection(b, f, path, "of", written.of, written.as_)
        if of_kind is not None:
            for attribute in (entry.x, entry.y):
                _coordinate(b, f, path + ("of",), attribute, of_kind)
        text = _line(b, f, path + ("text",), written.text, Context(locals={written.as_: thing(of_kind)}, no_me=False))
        if members is not None and text is not None:
            names.append(MapNamesSpec(members, written.as_, text))
    title = _line(b, f, WHERE + ("title",), entry.title, Context(no_me=False))
    if places is None:
        return None
    return MapSpec(places, entry.as_, entry.x, entry.y, colour, label, marks, links, names, title,
                   b.origin(f, WHERE, "the map"))


def _collection(b: "Builder", f: LoadedFile, path: Path, key: str, source: str,
                name: str) -> tuple[ast.Expr | None, str | None]:
    """A collection of pieces of one kind, checked, and that kind (None when it is not
    one); its members' name (`as:`) is no word of the ruleset."""
    members = b.expression(f, path + (key,), source)
    t, _ = b.check_expr(f, path + (key,), members, Context(no_me=False))
    kind = t.arg if t.tag == "things" and t.arg in b.vocab.kinds else None
    if members is not None and kind is None and t.tag != "any":
        b.at(f, path + (key,), "R001", f"`{key}:` is a collection of pieces of one kind (each drawn where its "
             f"attributes say), not {t}", hint="a kind's plural, or some of them: `spots where its open = 1`")
    if name in b.vocab.name_set():
        b.at(f, path + ("as",), "R001", f"`as: {name}` names each member, but `{name}` is a word of the ruleset",
             hint="choose a name the ruleset does not use (a capital letter: `V`)")
    return members, kind


def _coordinate(b: "Builder", f: LoadedFile, path: Path, attribute: str, kind: str) -> None:
    """`attribute` is a number attribute of `kind` that every item of the kind gives (or
    its default does)."""
    info = b.vocab.kinds[kind]
    numbers = [a for a, t in info.attributes.items() if t.tag == "amount"]
    if attribute not in numbers:
        b.at(f, path, "R001", f"the map places a {b.vocab.label(kind)} by the number attribute `{attribute}`, "
             f"which {kind} does not have", hint=b.suggest(attribute, numbers)
             or f"declare it on the kind (`{attribute}: number`)")
        return
    default = info.defaults.get(attribute)
    for item_file, item_path, item in b.items.values():
        if item.kind != kind:
            continue
        value = item.attributes.get(attribute, default)
        if value is None:
            b.at(item_file, item_path, "R001", f"`{item.id}` has no `{attribute}`: the map (`display: map:`) "
                 f"places every {b.vocab.label(kind)} by it", hint=f"give it `{attribute}: N`, or the kind a default")
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > MAX_COORDINATE:
            where = item_path + ("attributes", attribute) if attribute in item.attributes else item_path
            b.at(item_file, where, "C015", f"`{item.id}` is placed at {attribute} = {value:,}, farther than "
                 f"{MAX_COORDINATE:,} from 0: the map would be drawn too small to see", hint="map coordinates are "
                 "points of the drawing: tens to a few thousands")


def _mark(b: "Builder", f: LoadedFile, path: Path, mark: str | MapMark,
          ctx: Context) -> tuple[ast.Log, ast.Expr | None]:
    """A mark's line, and the condition it is written on (`if:`, a flag)."""
    if isinstance(mark, str):
        return check_lines(b, f, [(path, mark)], ctx)[0], None
    line = check_lines(b, f, [(path + ("text",), mark.text)], ctx)[0]
    condition = b.expression(f, path + ("if",), mark.if_)
    t, _ = b.check_expr(f, path + ("if",), condition, ctx)
    if condition is not None and t.tag not in ("flag", "any"):
        b.at(f, path + ("if",), "R001", f"`if:` is a condition (the mark is written while it holds), not {t}",
             hint="compare it: `V's guards > 0`")
    return line, condition


def _line(b: "Builder", f: LoadedFile, path: Path, text: str | None, ctx: Context) -> ast.Log | None:
    return None if text is None else check_lines(b, f, [(path, text)], ctx)[0]


def _links(b: "Builder", f: LoadedFile, entry: DisplayMap, kind: str | None) -> list[tuple[str, str, bool]]:
    """The link kinds drawn, each a kind of link the places' kind has."""
    out: list[tuple[str, str, bool]] = []
    joined = b.vocab.kinds[kind].links if kind is not None else tuple(b.vocab.links)
    for link, style in entry.links.items():
        if link not in joined:
            what = "a kind of link of the ruleset" if link not in b.vocab.links else \
                f"a link of {b.vocab.label(kind or '')} (its kind's `links:`)"
            b.at(f, WHERE + ("links", link), "R001", f"`links:` names kinds of links to draw; `{link}` is not "
                 f"{what}", hint=b.suggest(link, joined), key=True)
            continue
        out.append((link, style.style, style.arc))
    return out
