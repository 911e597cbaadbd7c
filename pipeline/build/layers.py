"""The build's first passes: what each expansion file replaces (X002, X005-X007), the
content items and rules declarations collected by name (an expansion replacing one only
with `replaces: true`, removing by id), and the menus actions join."""

from __future__ import annotations

import re
from typing import Any

from legacies.dsl.diagnostics import WARNING
from legacies.dsl.vocabulary import DefinitionInfo, ProcedureInfo, Vocabulary

from .base import MAX_PIECES, Builder, Path, Rules
from ..files import SourceFile
from ..load import LoadedFile, load_source
from ..models import ContentFile, ExpansionFile, ProceduresFile, RulesetFile
from ..size_bounds import MAX_PLACES


def check_layers(b: Builder, files: list[LoadedFile], r: RulesetFile, expansions: list[LoadedFile]) -> None:
    """What each expansion says it replaces, against what it lands on: an expansion's file
    at the place of a base file replaces it only when it says `replaces: true` (X002,
    naming what it would remove; a file given alone to `validate` stands for the base
    file at its place, as an edited copy of it); `replaces: true` with nothing at its place is X007; an expansion for
    another ruleset is X005; one laid before an expansion it requires is X006."""
    for f in files:
        says = bool(getattr(f.model, "replaces", False))
        if f.over is not None and f.layer and not says:
            b.at(f, (), "X002", f"this file sits at the place of {f.over.label} and replaces it, "
                 f"removing {_what_it_holds(f.over)}: an expansion adds files of its own",
                 hint="give this file another name to add to the base, or write `replaces: true` at its top to "
                 "replace the whole base file")
        elif says and f.over is None:
            b.at(f, ("replaces",), "X007", "`replaces: true`, but no file of what this is laid over sits at this "
                 "file's place" if f.layer else "`replaces: true` in a file of the ruleset itself: there is "
                 "nothing under it to replace", hint="remove `replaces: true`")
    seen: list[str] = []
    for f in expansions:
        model: ExpansionFile = f.model  # type: ignore[assignment]
        if model.extends != r.ruleset:
            b.at(f, ("extends",), "X005", f"this expansion extends `{model.extends}`, and it is laid over "
                 f"`{r.ruleset}`", hint=f"lay it over `{model.extends}` (--ruleset {model.extends})")
        for i, req in enumerate(model.requires):
            if req not in seen:
                b.at(f, ("requires", i), "X006", f"this expansion requires `{req}`, which is not laid before it",
                     hint=f"add --expansion {req} before it")
        seen.append(model.expansion)


def _what_it_holds(source: SourceFile) -> str:
    """What a base file defines, for X002: its items' ids or its rules' names."""
    loaded, _, _ = load_source(source)
    if loaded is None:
        return "what it defines"
    model = loaded.model
    if isinstance(model, ContentFile):
        ids = [item.id for item in model.items]
        listed = ", ".join(ids[:4]) + (", ..." if len(ids) > 4 else "")
        return f"its {len(ids)} item{'s' if len(ids) != 1 else ''} ({listed})" if ids else "nothing"
    if isinstance(model, ProceduresFile):
        names = list(model.actions) + list(model.definitions) + list(model.procedures) + list(model.triggers)
        names += list(model.restrictions)
        names += [k for k in ("setup", "game") if getattr(model, k) is not None]
        listed = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        return f"its {len(names)} rule{'s' if len(names) != 1 else ''} ({listed})" if names else "nothing"
    return "what it declares"



def _declare(b: Builder, f: LoadedFile, v: Any, section: str, what: str, name: str, item: Any, table: dict, infos: dict,
             info: Any) -> None:
    """A definition or procedure laid in: replacing an earlier one only as `replaces:` says
    (R007), its parameters typed, its `text:` template checked."""
    path = (section, name)
    earlier = table.get(name)
    if earlier is not None:
        if not _replacing(b, f, path, what, name, item.replaces, (earlier[0], path), "R007"):
            return
    else:
        _replacing(b, f, path, what, name, item.replaces, None, "R007")
    params = [(p, b.type_of(f, path + ("params", p), text)) for p, text in item.params.items()]
    table[name] = (f, name, item)
    infos[name] = info(params)
    names = [p for p, _ in params]
    _template(v, name, _checked_text(b, f, path, item.text, names), names, replace=earlier is not None)

def _replacing(b: Builder, f: LoadedFile, path: Path, what: str, name: str, replaces: bool,
               earlier: tuple[LoadedFile, Path] | None, code: str) -> bool:
    """Whether a declaration may take the place of an earlier one of the same name (an
    expansion's, saying `replaces: true`); reports the name reused without it (`code`)
    and `replaces: true` with nothing to replace (R009). True: it replaces."""
    if earlier is not None:
        if replaces and f.layer and earlier[0].layer != f.layer:
            return True
        line = earlier[0].position(earlier[1])[0]
        hint = ("an expansion adds names of its own: name this one differently, or write `replaces: true` in it "
                "to replace the one it is laid over" if f.layer and earlier[0].layer != f.layer
                else "each name is defined once across a ruleset's files")
        b.at(f, path, code, f"{what} `{name}` is already defined in {earlier[0].label}:{line}", key=True, hint=hint)
        return False
    if replaces:
        b.at(f, path + ("replaces",), "R009", f"{what} `{name}` replaces nothing: "
             + ("what this expansion is laid over defines none" if f.layer else "this is the ruleset itself"),
             hint="remove `replaces: true`")
    return False


def collect_items(b: Builder, contents: list[LoadedFile], r: RulesetFile,
                  expansions: list[LoadedFile]) -> dict[str, tuple[LoadedFile, Path, Any]]:
    """Content items by id, in load order; an expansion's item with `replaces: true` takes
    the place of the one it replaces, and its `removes:` take items out (C008)."""
    v = b.vocab
    items: dict[str, tuple[LoadedFile, Path, Any]] = {}
    for f in contents:
        cf: ContentFile = f.model  # type: ignore[assignment]
        if cf.ruleset != r.ruleset:
            b.at(f, ("ruleset",), "C005", f"this file is for ruleset `{cf.ruleset}`, not `{r.ruleset}`")
        for i, item in enumerate(cf.items):
            path = ("items", i)
            earlier = items.get(item.id)
            if earlier is not None and not _replacing(b, f, path + ("id",), "item", item.id, item.replaces,
                                                      (earlier[0], earlier[1] + ("id",)), "C001"):
                continue
            if earlier is None:
                _replacing(b, f, path, "item", item.id, item.replaces, None, "C001")
            if item.kind not in v.kinds:
                b.at(f, path + ("kind",), "C002", f"unknown kind `{item.kind}`", hint=b.suggest(item.kind, v.kinds))
                continue
            items[item.id] = (f, path, item)
    for f in expansions:
        for i, cid in enumerate(f.model.removes):  # type: ignore[attr-defined]
            if cid in items and items[cid][0].layer != f.layer:
                del items[cid]
            else:
                b.at(f, ("removes", i), "C008", f"`{cid}` is no item of what this expansion is laid over",
                     hint=b.suggest(cid, [k for k, e in items.items() if e[0].layer != f.layer]))
    _names_reused(b, items)
    for cid, (_, _, item) in items.items():
        v.content[cid] = item.kind
        v.content_names[cid] = item.name
        v.content_copies[cid] = item.copies
    pieces = sum(item.copies for _, _, item in items.values())
    if pieces > MAX_PIECES:
        b.at(b.files[0], ("ruleset",), "C007", f"the content makes {pieces:,} pieces, more than {MAX_PIECES:,}",
             hint="fewer copies: every copy is a piece of every game")
    places = 0
    for f, path, item in items.values():  # a board's places: items of a kind joined by links
        places += bool(v.kinds[item.kind].links)
        if places > MAX_PLACES:
            b.at(f, path, "C014", f"the content reaches {places:,} places (items of a kind joined by links), more "
                 f"than {MAX_PLACES:,}, here", hint="a board has tens or hundreds of places")
            break
    return items


def collect_rules(b: Builder, procedures: list[LoadedFile]) -> Rules:
    """The names of every action, definition, procedure and trigger first, so that
    everything can refer to everything; an expansion's declaration with `replaces: true`
    takes the place of the one it replaces."""
    v = b.vocab
    rules = Rules()
    for f in procedures:
        pf: ProceduresFile = f.model  # type: ignore[assignment]
        for name, action in pf.actions.items():
            earlier = rules.actions.get(name)
            path = ("actions", name)
            if earlier is not None:
                if not _replacing(b, f, path, "action", name, action.replaces, (earlier[0], path), "R007"):
                    continue
            else:
                _replacing(b, f, path, "action", name, action.replaces, None, "R007")
            rules.actions[name] = (f, name, action)
            v.actions[name] = action
        for name, d in pf.definitions.items():
            _declare(b, f, v, "definitions", "definition", name, d, rules.definitions, v.definitions, DefinitionInfo)
        for name, pr in pf.procedures.items():
            if name in rules.definitions:
                b.at(f, ("procedures", name), "R007", f"`{name}` is already defined (a definition)", key=True)
                continue
            _declare(b, f, v, "procedures", "procedure", name, pr, rules.procedures, v.procedures, ProcedureInfo)
        for section, what, table in (("triggers", "trigger", rules.triggers),
                                     ("restrictions", "restriction", rules.restrictions)):
            for name, entry in getattr(pf, section).items():  # named once each, never replaced
                if name in table:
                    b.at(f, (section, name), "R007", f"{what} `{name}` is already defined in {table[name][0].label}",
                         key=True, hint=f"each {what} has a name of its own")
                    continue
                table[name] = (f, name, entry)
        for key in ("setup", "game"):
            if getattr(pf, key) is None:
                continue
            earlier_flow = getattr(rules, key)
            if earlier_flow is not None and not (f.layer and pf.replaces and f.over is not None):
                b.at(f, (key,), "R007", f"`{key}:` is already given in {earlier_flow[0].label}", key=True,
                     hint="an expansion hooks into the flow with triggers on the events it announces"
                     if f.layer else None)
                continue
            setattr(rules, key, (f, b.program(f, (key,), getattr(pf, key))))
    return rules


def join_menus(b: Builder, rules: Rules) -> None:
    """Each action joins the menus it names, in load order (R001 for an unknown menu)."""
    v = b.vocab
    members: dict[str, list[str]] = {m: [] for m in v.menus}
    for name, (f, _, action) in rules.actions.items():
        for i, menu in enumerate(action.menus):
            if menu not in members:
                b.at(f, ("actions", name, "menus", i), "R001", f"unknown menu `{menu}`",
                     hint=b.suggest(menu, v.menus) or ("declare it under `menus:` in ruleset.yaml or expansion.yaml"
                                                       if not v.menus else f"menus: {', '.join(v.menus)}"))
                continue
            members[menu].append(name)
    v.menus = {m: tuple(names) for m, names in members.items()}


_BRACES = re.compile(r"\{([^{}]*)\}|[{}]")


def template_problem(text: str, params: list[str]) -> str | None:
    """What is wrong with a `text:` template, or None: a `{...}` may hold only the name
    of a parameter (`{P}`); a number (`{0}`), an attribute or index (`{P.__class__}`,
    `{P[0]}`), a format spec (`{P:>10}`), an empty or lone brace are refused."""
    for m in _BRACES.finditer(text):
        inner = m.group(1)
        if inner is None:
            return f"a lone `{m.group(0)}` (a `{{` and `}}` enclose a parameter's name: `{{NAME}}`)"
        if inner not in params:
            shown = inner if len(inner) <= 40 else inner[:40] + "..."
            named = f"parameters: {', '.join(params)}" if params else "it has no parameters"
            return f"`{{{shown}}}` is not one of its parameters ({named}): a template names parameters only"
    return None


def _checked_text(b: Builder, f: LoadedFile, path: tuple, text: str | None, params: list[str]) -> str | None:
    """The `text:` template when it names only its parameters; else R015 at it and no
    template (the card text words the call itself): never formatted, never printed."""
    if not text:
        return text
    problem = template_problem(text, params)
    if problem is None:
        return text
    b.at(f, path + ("text",), "R015", f"`text:` {problem}", hint="write `{NAME}` for a parameter, and the rest as "
         "plain words")
    return None


def _template(v: Vocabulary, name: str, text: str | None, params: list[str], replace: bool = False) -> None:
    """A definition's or procedure's `text:` becomes its card-text template ({0}, {1}...)
    (a replacing declaration's text replaces the one it replaces)."""
    if not text:
        if replace:
            v.labels.pop(name, None)
        return
    template = text
    for i, p in enumerate(params):
        template = template.replace("{" + p + "}", "{" + str(i) + "}")
    if replace:
        v.labels[name] = template
    else:
        v.labels.setdefault(name, template)


def _names_reused(b: Builder, items: dict[str, tuple[LoadedFile, tuple, Any]]) -> None:
    """C016 (a warning): an expansion's item under the name of an item of what it is laid
    over (another id). A player reads names, never ids: the two read as one card in every
    menu, log line and card text, and a designer's `try` of one is easily the other."""
    earlier: dict[str, tuple[str, LoadedFile]] = {}
    for cid, (f, path, item) in items.items():
        if not f.layer:
            earlier.setdefault(item.name.casefold(), (cid, f))
    for cid, (f, path, item) in items.items():
        if not f.layer:
            continue
        base = earlier.get(item.name.casefold())
        if base is not None and base[0] != cid:
            b.at(f, path + ("name",), "C016", f"`{cid}` is named {item.name!r}, as the base's `{base[0]}` "
                 f"({base[1].label}) is: players read one name for two cards", severity=WARNING,
                 hint=f"name it differently, or write `id: {base[0]}` with `replaces: true` to replace the base's card")

