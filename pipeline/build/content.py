"""The build's passes over the content: attributes against their kinds (types, eras,
declared ranges), each item's effect, condition and effect attributes checked, the links
between places, and the columns `legacies content` lists."""

from __future__ import annotations

import difflib
from typing import Any

from legacies.dsl import ast
from legacies.dsl.checker import Context
from legacies.dsl.diagnostics import WARNING, Diagnostic
from legacies.dsl.english import article, plural
from legacies.dsl.numbers import in_range, limit_words, written
from legacies.dsl.types import FLAG, T, thing
from legacies.dsl.vocabulary import Vocabulary
from legacies.interpreter.spec import PieceDef

from ..attribute_ranges import range_problem
from .base import Builder, Path, announced_by
from .display import display_attributes
from ..load import LoadedFile
from ..models import AttributeExtension, ExpansionFile
from ..yaml_source import excerpt


_ITEM_FIELDS = frozenset(("id", "kind", "name", "copies", "links", "requires", "effect", "flavor", "replaces"))
"""A content item's own fields (pipeline/models.py ContentItem), which an attribute is not."""


def check_attributes(b: Builder, items: dict[str, tuple[LoadedFile, Path, Any]], rf: LoadedFile) -> None:
    """Every item's attributes against its kind (C003, C004), an id that is also a word
    of the vocabulary (C006), and every kind's declared defaults."""
    v = b.vocab
    uses: dict[str, int] = {}  # how many times each name is taken (content ids included)
    for name in v.all_names():
        uses[name] = uses.get(name, 0) + 1
    for cid, (f, path, item) in items.items():
        kind = v.kinds[item.kind]
        for a, value in item.attributes.items():
            if a not in kind.attributes:
                if a in _ITEM_FIELDS and a not in kind.attributes:  # indented under `attributes:` by mistake
                    hint = (f"`{a}` is a field of the item, not an attribute: write it at the item's indentation, "
                            "beside `attributes:`")
                else:
                    hint = b.suggest(a, kind.attributes) or f"attributes: {', '.join(kind.attributes) or 'none'}"
                b.at(f, path + ("attributes", a), "C003",
                     f"{article(item.kind.replace('_', ' '))} {item.kind} has no attribute `{a}`", hint=hint, key=True)
                continue
            t = kind.attributes[a]
            if t.tag == "table" and isinstance(value, dict):  # each entry said where it is, every one
                # (a user's trial: `{genral: 3, nobody_at_all: 3}` reported `genral` alone, under the whole table)
                bad = False
                for k, x in value.items():
                    for problem, key in ((_attribute_problem(v, T("thing", t.arg), k), True),
                                         (_attribute_problem(v, T("amount"), x), False)):
                        if problem:
                            bad = True
                            b.at(f, path + ("attributes", a, k), "C004", problem[0], hint=problem[1], key=key)
                if bad:
                    continue
            problem = _attribute_problem(v, t, value) or range_problem(kind.ranges.get(a), value, a)
            if problem:
                b.at(f, path + ("attributes", a), "C004", problem[0], hint=problem[1])
            elif isinstance(value, (int, str)) and not isinstance(value, bool):
                v.content_values.setdefault(item.kind, {}).setdefault(a, set()).add(value)
        if uses.get(cid, 0) > 1:
            b.at(f, path + ("id",), "C006", f"id `{cid}` is also a name in the ruleset's vocabulary",
                 hint="content ids and vocabulary names share one namespace")
    check_links(b, items)
    for kname, kinfo in v.kinds.items():
        for a, default in kinfo.defaults.items():
            problem = _attribute_problem(v, kinfo.attributes[a], default) or range_problem(kinfo.ranges.get(a), default, a)
            if problem:
                f, path = _declared_at(b, kname, a, rf)
                b.at(f, path, "C004", problem[0], hint=problem[1])


def _declared_at(b: Builder, kind: str, attribute: str, rf: LoadedFile) -> tuple[LoadedFile, Path]:
    """Where a kind's attribute is declared: its kind's file, or an expansion's `extend_kinds`."""
    for f in b.files:
        if isinstance(f.model, ExpansionFile) and attribute in getattr(f.model.extend_kinds.get(kind), "attributes", {}) \
                and not isinstance(f.model.extend_kinds[kind].attributes[attribute], AttributeExtension):
            return f, ("extend_kinds", kind, "attributes", attribute, "default")
    declared = b.stack.declared.get(kind)
    f = declared[1] if declared is not None else rf
    return f, ("kinds", kind, "attributes", attribute, "default")


def check_content(b: Builder, items: dict[str, tuple[LoadedFile, Path, Any]],
                  sources: list[tuple[ast.Node, LoadedFile, Path, bool]]) -> tuple[list[PieceDef], list[Any]]:
    """Every item's effect, condition and effect attributes, checked; its PieceDef; the
    triggers its effect declares (for the trigger-cycle analysis)."""
    v = b.vocab
    in_play_zones = any(z.in_play for z in v.zones.values())
    defs: list[PieceDef] = []
    triggers: list[tuple[str, ast.Trigger, frozenset[str], LoadedFile, Path]] = []
    for cid, (f, path, item) in items.items():
        kind = v.kinds[item.kind]
        this = thing(item.kind)
        what = f"{v.label(item.kind)} `{cid}` ({item.name})"
        effect = b.program(f, path + ("effect",), item.effect)
        requires = b.expression(f, path + ("requires",), item.requires)
        board = kind.piece == "board"
        b.check_program(f, path + ("effect",), effect, Context(this=this, allow_declarations=True, owner_less=board,
                                                                playing="effect"))
        b.check_expr(f, path + ("requires",), requires, Context(this=this), FLAG)
        origins = {"effect": b.origin(f, path + ("effect",), what)}
        if requires is not None:
            origins["requires"] = b.origin(f, path + ("requires",), what, expression=True)
        if effect is not None:
            for decl in effect.declarations:
                if isinstance(decl, (ast.Trigger, ast.Hook)) and not board and not in_play_zones:
                    b.place(f, path + ("effect",), [Diagnostic(
                        "E219", f"a {v.label(item.kind)} is never in play (this ruleset has no `in_play` zone), "
                        "so this never runs", decl.span.line if decl.span else 1, decl.span.column if decl.span else 1,
                        hint="mark the zone such pieces are played to `in_play: true`, or make the kind a board kind")])
                if isinstance(decl, ast.Trigger):
                    triggers.append((what, decl, announced_by(decl.body, v), f, path + ("effect",)))
        programs: dict[str, ast.Program | list[ast.Program]] = {}
        for a, value in item.attributes.items():
            at = kind.attributes.get(a)
            if at is None or at.tag not in ("effect", "effects"):
                continue
            texts = [value] if at.tag == "effect" else list(value) if isinstance(value, list) else []
            compiled: list[ast.Program] = []
            for i, text in enumerate(texts):
                apath = path + ("attributes", a) + ((i,) if at.tag == "effects" else ())
                if not isinstance(text, str):
                    continue
                prog = b.program(f, apath, text)
                b.check_program(f, apath, prog, Context(this=this, playing=a))  # the rest of one that does not parse too
                if prog is None:
                    continue
                compiled.append(prog)
                sources.append((prog, f, apath, False))
                key = a if at.tag == "effect" else f"{a}.{i + 1}"
                origins[key] = b.origin(f, apath, f"{a} of {what}")
            if compiled:
                programs[a] = compiled[0] if at.tag == "effect" else compiled
        defs.append(PieceDef(cid, item.kind, item.name, item.copies, dict(item.attributes),
                             {k: list(n) for k, n in item.links.items()}, effect, requires, programs, origins))
        if effect is not None:
            sources.append((effect, f, path + ("effect",), False))
    return defs, triggers


def never_played(b: Builder, defs: list[PieceDef]) -> None:
    """W309 at an item's `effect:` whose statements nothing can run: only a `play` runs an
    item's effect, and no rule or effect plays a piece of its kind (a user's trial: a card's
    `effect:` validated, `explain`ed and `try`d well, and no game ever ran it: the rules
    play the kind's effect attribute instead). Said only when every `play` of the ruleset
    names its kind; its triggers and hooks (declarations) are E219's."""
    if None in b.played:
        return
    v = b.vocab
    for piece in defs:
        if piece.effect is None or not piece.effect.statements or piece.kind in b.played:
            continue
        f, path, _ = b.items[piece.id]
        kind = v.kinds[piece.kind]
        others = [f"`{a}`" for a, t in kind.attributes.items() if t.tag in ("effect", "effects")]
        b.at(f, path + ("effect",), "W309", f"no rule or effect plays a {v.label(piece.kind)}, and only a `play` "
             "runs an item's `effect:`: this never runs in a game", key=True, severity=WARNING,
             hint=(f"write it in the effect the rules run: {', '.join(others)}" if others else
                   f"play it from the rules (`play C` for a {v.label(piece.kind)} C), or remove it"))


def content_columns(b: Builder, layers: list[LoadedFile]) -> list[str]:
    """`display: content:`: attributes of some kind, each once (R001 for another name)."""
    return display_attributes(b, layers, "content")


def check_links(b: Builder, items: dict[str, tuple[LoadedFile, Path, Any]]) -> None:
    """Each item's `links:` (C009): link kinds its kind uses, neighbours that exist, of a
    kind that uses the same link, never the item itself; a link of a symmetric kind
    listed on one end only joins both ways and is reported (W306)."""
    v = b.vocab
    listed: dict[tuple[str, str, str], tuple[LoadedFile, Path]] = {}  # (link, from, to) -> where
    for cid, (f, path, item) in items.items():
        kind = v.kinds[item.kind]
        for link, neighbours in item.links.items():
            lpath = path + ("links", link)
            if link not in kind.links:
                b.at(f, lpath, "C009", f"a {item.kind} has no `{link}` links", key=True,
                     hint=b.suggest(link, kind.links) or f"its kind's `links:` lists {', '.join(kind.links) or 'none'}")
                continue
            for i, other in enumerate(neighbours):
                where = lpath + (i,)
                if other == cid:
                    b.at(f, where, "C009", f"`{cid}` lists itself as its own `{link}` neighbour")
                elif other not in v.content:
                    close = difflib.get_close_matches(other, list(items), n=1)
                    b.at(f, where, "C009", f"unknown place `{excerpt(other)}`",
                         hint=f"did you mean `{close[0]}`?" if close else None)
                elif link not in v.kinds[v.content[other]].links:
                    b.at(f, where, "C009", f"`{other}` is a {v.content[other]}, which `{link}` links do not join",
                         hint=f"`{link}` joins {', '.join(v.links[link].kinds)}")
                else:
                    listed[(link, cid, other)] = (f, where)
    for (link, one, other), (f, where) in listed.items():
        if v.links[link].symmetric and (link, other, one) not in listed:
            b.at(f, where, "W306", f"`{one}` lists `{other}` as a `{link}` neighbour but `{other}` does not list "
                 f"`{one}`: the link joins both ways", severity=WARNING,
                 hint=f"add `{one}` to {other}'s `{link}:` (or declare `{link}` with `symmetric: false`)")


def _era_problem(v: Vocabulary, value: str) -> tuple[str, str | None] | None:
    parts = value.split("/")
    if not all(p.strip().isdigit() for p in parts) or len(parts) < 2:
        return (f"expected a number or an era value like `20/50/100`, found {excerpt(repr(value))}", None)
    if any(written(p.strip()) is None for p in parts):
        return (f"the era value {excerpt(repr(value))} has a part too large", limit_words())
    if len(parts) != v.eras:
        return (f"an era value needs {v.eras} parts, one per era; found {len(parts)}",
                "declare `eras:` in ruleset.yaml" if not v.eras else None)
    return None


def _attribute_problem(v: Vocabulary, t: T, value: Any) -> tuple[str, str | None] | None:  # noqa: C901
    if t.tag == "any":
        return None
    if t.tag in ("symbol", "counter", "thing", "def") and not isinstance(value, str):  # a name, never a list or mapping
        shown = "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else excerpt(repr(value))
        return (f"expected a name, found {shown}", None)
    if t.tag == "amount":
        if isinstance(value, str):
            return _era_problem(v, value)
        if isinstance(value, int) and not isinstance(value, bool):
            return None if in_range(value) else (f"the number {excerpt(repr(value))} is too large", limit_words())
        if isinstance(value, float):  # `1.5`, `1e9` (YAML reads an exponent as a fraction)
            return (f"expected a whole number, found {excerpt(repr(value))}",
                    "no fraction, no exponent (`1e9` is written 1000000000)")
        return (f"expected a number, found {excerpt(repr(value))}", None)
    if t.tag == "numbers":
        if not isinstance(value, list):
            return (f"expected a list of numbers, found {excerpt(repr(value))}", "write [1, 2, 3]")
        for x in value:
            p = _attribute_problem(v, T("amount"), x)
            if p:
                return p
        return None
    if t.tag == "flag":
        return None if isinstance(value, bool) else (f"expected yes/no (true/false), found {excerpt(repr(value))}", None)
    if t.tag in ("text", "effect"):
        return None if isinstance(value, str) else (f"expected {'an effect' if t.tag == 'effect' else 'text'}, "
                                                    f"found {excerpt(repr(value))}", None)
    if t.tag == "effects":
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            return (f"expected a list of effects, found {excerpt(repr(value))}", "write a list of effect texts")
        return None
    if t.tag == "symbol":
        values = v.enums.get(t.arg or "", ())
        if value not in values:
            close = difflib.get_close_matches(str(value), values, n=1)
            return (f"`{excerpt(value)}` is not {article(t.arg or '')} {t.arg} (one of {', '.join(values)})",
                    f"did you mean `{close[0]}`?" if close else None)
        return None
    if t.tag == "counter":
        members = v.counter_sets.get(t.arg or "", ())
        if value not in members:
            close = difflib.get_close_matches(str(value), members, n=1)
            return (f"`{excerpt(value)}` is not one of the {plural(t.arg or '')} ({', '.join(members)})",
                    f"did you mean `{close[0]}`?" if close else None)
        return None
    if t.tag in ("symbols", "counters", "things"):
        if not isinstance(value, list):
            return (f"expected a list, found {excerpt(repr(value))}", "write [a, b, c]")
        element = {"symbols": "symbol", "counters": "counter", "things": "thing"}[t.tag]
        for x in value:
            p = _attribute_problem(v, T(element, t.arg), x)
            if p:
                return p
        return None
    if t.tag == "table":
        if not isinstance(value, dict):
            return (f"expected a table (item: number), found {excerpt(repr(value))}", "write {red: 3, blue: 6}")
        for k, x in value.items():
            p = _attribute_problem(v, T("thing", t.arg), k) or _attribute_problem(v, T("amount"), x)
            if p:
                return p
        return None
    if t.tag in ("thing", "def"):
        if value not in v.content:
            close = difflib.get_close_matches(str(value), list(v.content), n=1)
            return (f"unknown content id `{excerpt(value)}`", f"did you mean `{close[0]}`?" if close else None)
        if t.arg and v.content[value] != t.arg:
            return (f"`{excerpt(value)}` is a {v.content[value]}, not a {t.arg}", None)
    return None
