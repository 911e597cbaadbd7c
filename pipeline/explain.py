"""The service behind `legacies explain ID`: an item's name, kind, attributes (costs),
the card text generated from its effect, the effect source, and optionally its AST."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Sequence

from legacies.dsl import ast
from legacies.dsl.errors import LegaciesError
from legacies.dsl.renderer import Wording, render_expr, render_program
from legacies.dsl.types import T
from legacies.dsl.vocabulary import Vocabulary
from legacies.interpreter.spec import PieceDef

from .files import installed_rulesets
from .ruleset import load_ruleset


class ExplainError(LegaciesError):
    """The item cannot be explained as asked: an unknown item, a ruleset that does not load
    (exit code 2)."""

    usage = True


def _dump(node: object, indent: int = 0) -> list[str]:
    pad = "  " * indent
    if isinstance(node, ast.Node):
        lines = [f"{pad}{type(node).__name__}"]
        for name in node.__dataclass_fields__:
            if name in ("span", "name_span"):
                continue
            value = getattr(node, name)
            if isinstance(value, (ast.Node, tuple)) and value != ():
                lines.append(f"{pad}  {name}:")
                lines.extend(_dump(value, indent + 2))
            else:
                lines.append(f"{pad}  {name}: {value!r}")
        return lines
    if isinstance(node, tuple):
        out: list[str] = []
        for item in node:
            out.extend(_dump(item, indent))
        return out
    return [f"{pad}{node!r}"]


def folder_rulesets(root: str | Path) -> list[str]:
    """The rulesets a folder on disk holds whole (`rules/NAME/ruleset.yaml`)."""
    from .walk import subfolders

    rules = Path(root) / "rules"
    return [name for name in subfolders(rules) if (rules / name / "ruleset.yaml").is_file()]


def find_item(query: str, build: object) -> str | None:
    """An item by id, else by its name (any case), else by a part of its name found in one item only."""
    items = build.items  # type: ignore[attr-defined]
    if query in items:
        return query
    by_lower = {i.lower(): i for i in items}
    if query.lower() in by_lower:  # `c101`
        return by_lower[query.lower()]
    wanted = query.strip().lower()
    exact = [i for i, (_, _, item) in items.items() if item.name.lower() == wanted]
    if len(exact) == 1:
        return exact[0]
    part = [i for i, (_, _, item) in items.items() if wanted and wanted in item.name.lower()]
    return part[0] if len(part) == 1 else None


def explain(item_id: str, ruleset: str | None = None, show_ast: bool = False, root: str | None = None,
            expansions: tuple[str | Path, ...] = ()) -> str:
    """An item, by id or name, of `ruleset` (else of every installed ruleset, or of every
    ruleset in the folder `root`), with expansion folders laid over it."""
    names = [ruleset] if ruleset else (folder_rulesets(root) if root else installed_rulesets())
    near: list[str] = []
    for name in names:
        loaded = load_ruleset(name, root, expansions)
        build = loaded.build
        if build is None or build.vocab is None:
            continue
        found = find_item(item_id, build)
        if found is None:
            near.extend(near_items(item_id, build))
            continue
        item_id = found
        f, path, item = build.items[item_id]
        vocab = build.vocab
        wording = Wording.of(vocab)
        out = [f"{item.name}  ({item_id})", f"ruleset: {name}    kind: {vocab.label(item.kind)}"
               + (f"    copies: {item.copies}" if item.copies != 1 else "")]
        others = [] if ruleset else [other for other in names if other != name and _holds(other, item_id, root)]
        if others:
            out.append(f"(also in {', '.join(f'`{o}`' for o in others)}: add --ruleset NAME to choose)")
        kind = vocab.kinds[item.kind]
        spec_def = next((d for d in (loaded.spec.defs if loaded.spec else []) if d.id == item_id), None)
        effects: list[str] = []
        for key, value in item.attributes.items():
            t = kind.attributes.get(key)
            if t is not None and t.tag in ("effect", "effects") and spec_def is not None and key in spec_def.programs:
                effects.extend(effect_lines(spec_def, vocab, wording, key))
                continue
            out.append(f"{attribute_label(vocab, item.kind, key)}: {attribute_text(vocab, t, value)}")
        if spec_def is not None:
            out.extend(link_lines(spec_def, vocab))
        text = _card_text(spec_def, vocab)
        if item.requires:
            out.append(f"playable when: {_condition_text(spec_def, vocab) or item.requires.strip()}")
        out.append("")
        out.append("card text:")
        if loaded.spec is None:  # the ruleset has errors: nothing was built to word
            from .validate import validate_args

            shown = (f"(not shown: ruleset `{name}` has content errors; run "
                     f"`legacies validate {validate_args(name, root, expansions)}` to see them)")
            out.append("  " + shown)
        elif text or not effects:  # one line per paragraph (a declaration each), all indented
            shown = text or "(none: this item has no effect of its own; the rules use the values above)"
            out.extend("  " + line for line in shown.splitlines())
        out.extend("  " + line for effect in effects for line in effect.splitlines())
        if _uses_eras(item, spec_def) and vocab.era_names:
            word = vocab.era_word
            out.append(f"  (a / b / c values: {word} {' / '.join(vocab.era_names)})")
        if item.effect:
            line = f.position(path + ("effect",))[0]
            out.append("")
            out.append(f"effect source ({f.label}:{line}):")
            out.extend("  " + ln for ln in item.effect.rstrip().splitlines())
        for key, value in item.attributes.items():  # effects written as attributes: their source too
            t = kind.attributes.get(key)
            if t is None or t.tag not in ("effect", "effects") or not value:
                continue
            sources = value if isinstance(value, list) else [value]
            line = f.position(path + ("attributes", key))[0]
            out.append("")
            out.append(f"{attribute_label(vocab, item.kind, key)} source ({f.label}:{line}):")
            for n, source in enumerate(sources, 1):
                lines = str(source).rstrip().splitlines()
                if len(sources) > 1:
                    out.append(f"  {n}.")
                out.extend(("    " if len(sources) > 1 else "  ") + ln for ln in lines)
        if show_ast and spec_def is not None and spec_def.effect is not None:
            out.append("")
            out.append("AST:")
            out.extend("  " + ln for ln in _dump(spec_def.effect))
        return "\n".join(out)
    where = f"ruleset `{ruleset}`" if ruleset else (f"the rulesets in {root}" if root else "any installed ruleset")
    hint = f"; did you mean {', '.join(near[:3])}?" if near else "; `legacies content` lists every item"
    if ruleset and not root:  # an item of another installed ruleset: said where it is (a user's trial)
        elsewhere = [other for other in installed_rulesets() if other != ruleset and _holds(other, item_id, None)]
        if elsewhere:
            hint = f"; it is an item of {', '.join(f'`{o}`' for o in elsewhere)} (--ruleset {elsewhere[0]})"
    raise ExplainError(f"no item `{item_id}` in {where}{hint}")


def _holds(name: str, item_id: str, root: str | None) -> bool:
    """Whether ruleset `name` has an item by this id or name (as `find_item` takes it)."""
    build = load_ruleset(name, root).build
    return build is not None and find_item(item_id, build) is not None


def near_items(query: str, build: object) -> list[str]:
    """Ids or names close to a query that matched nothing (a typo, or a name in part)."""
    import difflib

    items = build.items  # type: ignore[attr-defined]
    by_name = {item.name.lower(): i for i, (_, _, item) in items.items()}
    by_lower = {i.lower(): i for i in items}  # `c101` is C101's typo too
    found = [by_lower[i] for i in difflib.get_close_matches(query.lower(), list(by_lower), n=3, cutoff=0.75)]
    found += [by_name[name] for name in difflib.get_close_matches(query.lower(), list(by_name), n=3, cutoff=0.6)]
    wanted = query.strip().lower()
    found += [i for i, (_, _, item) in items.items() if len(wanted) >= 3 and wanted in item.name.lower()]
    # each item once, as `id` (Name)
    return [f"`{i}` ({items[i][2].name})" for i in dict.fromkeys(found)]


def attribute_label(vocab: Vocabulary, kind: str, name: str) -> str:
    """What card text calls an attribute of a kind: the ruleset's `labels:` entry, else the
    attribute's own `label`, else its name in words."""
    info = vocab.kinds.get(kind)
    own = info.attribute_labels.get(name) if info is not None else None
    return vocab.labels.get(name) or own or vocab.label(name)


def effect_lines(d: PieceDef, vocab: Vocabulary, wording: Wording, key: str, era: int | None = None) -> list[str]:
    """An effect attribute's card text, one line per effect: "label: text", numbered when
    it lists several ("label 2: ..."); one listed per era (`by_era`) shows the current
    era's at the table (`era`), else each under its era's name ("label (era II): ...")."""
    programs = d.programs.get(key)
    if programs is None:
        return []
    label = attribute_label(vocab, d.kind, key)
    info = vocab.kinds.get(d.kind)
    listed = programs if isinstance(programs, list) else [programs]
    if isinstance(programs, list) and info is not None and key in info.by_era and listed:
        if era is not None:
            now = min(max(era, 1), len(listed))
            return [f"{label}: {render_program(listed[now - 1], replace(wording, era=now))}"]
        names = list(vocab.era_names)
        return [f"{label} ({vocab.era_word} {names[i] if i < len(names) else i + 1}): "
                f"{render_program(program, replace(wording, era=i + 1))}" for i, program in enumerate(listed)]
    if isinstance(programs, list) and len(programs) > 1:  # one per space, slot...: numbered
        return [f"{label} {n}: {render_program(program, wording)}" for n, program in enumerate(programs, 1)]
    return [f"{label}: {render_program(program, wording)}" for program in listed]


def attribute_text(vocab: Vocabulary, t: T | None, value: object, era: int | None = None) -> str:
    """An attribute's value as a player reads it: items by name, symbols by label, the
    current era's number at the table (`era`)."""
    if t is None:
        return str(value)
    if t.tag in ("thing", "def") and isinstance(value, str):
        return vocab.content_names.get(value, value)
    if t.tag in ("things", "defs", "symbols", "counters") and isinstance(value, list):
        one = T({"things": "thing", "defs": "def", "symbols": "symbol", "counters": "counter"}[t.tag], t.arg)
        return ", ".join(attribute_text(vocab, one, x, era) for x in value) or "none"
    if t.tag == "table" and isinstance(value, dict):
        return ", ".join(f"{vocab.content_names.get(k, k)} ({_era(v, era)})" for k, v in value.items())
    if t.tag in ("symbol", "counter") and isinstance(value, str):
        return vocab.label(value)
    if t.tag == "flag":
        return "yes" if value else "no"
    if t.tag == "numbers" and isinstance(value, list):
        return ", ".join(_era(v, era) for v in value)
    return _era(value, era)


def _era(value: object, era: int | None = None) -> str:
    """`20/50/100` as "20 / 50 / 100", or the current era's number ("50") at the table."""
    if not (isinstance(value, str) and "/" in value):
        return str(value)
    values = [v.strip() for v in value.split("/")]
    if era is not None:
        return values[min(max(era, 1), len(values)) - 1]
    return " / ".join(values)


def _uses_eras(item: object, spec_def: PieceDef | None) -> bool:
    if spec_def is None:
        return False
    programs: list[ast.Node] = [p for p in (spec_def.effect, spec_def.requires) if p is not None]
    for value in spec_def.programs.values():
        programs.extend(value if isinstance(value, list) else [value])
    if any(isinstance(n, ast.Era) for p in programs for n in ast.walk(p)):
        return True
    return any(isinstance(v, str) and "/" in v for v in spec_def.attrs.values())


def _condition_text(spec_def: PieceDef | None, vocab: Vocabulary) -> str:
    if spec_def is None or spec_def.requires is None:
        return ""
    return render_expr(spec_def.requires, Wording.of(vocab))


def _card_text(spec_def: PieceDef | None, vocab: Vocabulary) -> str:
    if spec_def is None or spec_def.effect is None:
        return ""
    return render_program(spec_def.effect, Wording.of(vocab))


def card_texts(ruleset: str, root: str | None = None) -> dict[str, str]:
    """Every item's card text (its effect and its effect attributes), by id: what a
    player reads, for golden tests and reports."""
    loaded = load_ruleset(ruleset, root)
    if loaded.spec is None or loaded.build is None or loaded.build.vocab is None:
        return {}
    vocab = loaded.build.vocab
    wording = Wording.of(vocab)
    out: dict[str, str] = {}
    for d in loaded.spec.defs:
        if d.id not in loaded.build.items:
            continue
        text = item_text(d, vocab, wording)
        if text:
            out[d.id] = text
    return out


def card_details(d: PieceDef, vocab: Vocabulary, attributes: Sequence[str], era: int | None = None) -> str:
    """The attributes a player reads on a card beside its text (the ruleset's
    `display: card:`), those the item has: "discard cost 2 · reward 5 · ..."."""
    kind = vocab.kinds.get(d.kind)
    if kind is None:
        return ""
    shown = []
    for name in attributes:
        t = kind.attributes.get(name)
        value = d.attrs.get(name, kind.defaults.get(name))
        if t is None or value is None or value in ([], {}, ""):
            continue
        shown.append(f"{attribute_label(vocab, d.kind, name)}: {attribute_text(vocab, t, value, era)}")
    return " · ".join(shown)


def link_lines(d: PieceDef, vocab: Vocabulary) -> list[str]:
    """A place's neighbours as it lists them, one line per kind of link: "path: Ash,
    Cedar, Hut"."""
    lines = []
    for link, neighbours in d.links.items():
        if neighbours:
            info = vocab.links.get(link)
            label = info.label if info is not None and info.label else link
            lines.append(f"{label}: " + ", ".join(vocab.content_names.get(n, n) for n in neighbours))
    return lines


def item_text(d: PieceDef, vocab: Vocabulary, wording: Wording | None = None,
              attributes: Sequence[str] = (), era: int | None = None) -> str:
    """An item's card text: the attributes a player reads beside it (`attributes`, the
    ruleset's `display: card:`), a place's neighbours by each kind of link, when it is
    playable, its effect and its effect attributes (one line each); empty for an item
    with none. `era`: the current era, where the text is shown in play (each `a/b/c` reads
    as that era's value, a `by_era` list as that era's entry); None shows every era's."""
    wording = wording or Wording.of(vocab)
    if era is not None:
        wording = replace(wording, era=era)
    parts = []
    details = card_details(d, vocab, list(attributes), era) if attributes else ""
    if details:
        parts.append(details)
    parts.extend(link_lines(d, vocab))
    if d.requires is not None:
        parts.append("Playable when " + render_expr(d.requires, wording) + ".")
    if d.effect is not None:
        parts.append(render_program(d.effect, wording))
    for key in d.programs:
        parts.extend(effect_lines(d, vocab, wording, key, era))
    return "\n".join(parts)
