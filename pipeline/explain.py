"""The service behind `legacies explain ID`: an item's name, kind, attributes (costs),
the card text generated from its effect, the effect source, and optionally its AST."""

from __future__ import annotations

from legacies.dsl import ast

from .files import installed_rulesets
from .ruleset import load_ruleset


class ExplainError(Exception):
    pass


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


def explain(item_id: str, ruleset: str | None = None, show_ast: bool = False) -> str:
    names = [ruleset] if ruleset else installed_rulesets()
    for name in names:
        loaded = load_ruleset(name)
        build = loaded.build
        if build is None or item_id not in build.items:
            continue
        f, path, item = build.items[item_id]
        vocab = build.vocab
        out = [f"{item.name}  ({item_id})", f"ruleset: {name}    kind: {vocab.label(item.kind) if vocab else item.kind}"
               + (f"    copies: {item.copies}" if item.copies != 1 else "")]
        for key, value in item.attributes.items():
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            out.append(f"{key}: {shown}")
        spec_def = next((d for d in (loaded.spec.defs if loaded.spec else []) if d.id == item_id), None)
        text = _card_text(spec_def, vocab)
        if item.requires:
            out.append(f"playable when: {_condition_text(spec_def, vocab) or item.requires.strip()}")
        out.append("")
        out.append("card text:")
        out.append("  " + (text or "(no effect of its own: the rules' actions use its attributes)"))
        if item.effect:
            line = f.position(path + ("effect",))[0]
            out.append("")
            out.append(f"effect source ({f.label}:{line}):")
            out.extend("  " + ln for ln in item.effect.rstrip().splitlines())
        if show_ast and spec_def is not None and spec_def.effect is not None:
            out.append("")
            out.append("AST:")
            out.extend("  " + ln for ln in _dump(spec_def.effect))
        return "\n".join(out)
    where = f"ruleset `{ruleset}`" if ruleset else "any installed ruleset"
    raise ExplainError(f"no item `{item_id}` in {where}")


def _labels(vocab: object) -> dict[str, str]:
    labels = dict(getattr(vocab, "labels", {}) or {})
    if vocab is not None:
        for name in vocab.all_names():  # type: ignore[attr-defined]
            labels.setdefault(name, vocab.label(name))  # type: ignore[attr-defined]
    return labels


def _condition_text(spec_def: object, vocab: object) -> str:
    requires = getattr(spec_def, "requires", None)
    if requires is None:
        return ""
    from legacies.dsl.renderer import render_expr
    return render_expr(requires, _labels(vocab))


def _card_text(spec_def: object, vocab: object) -> str:
    effect = getattr(spec_def, "effect", None)
    if effect is None:
        return ""
    try:
        from legacies.dsl.renderer import render_program
    except ImportError:  # the renderer ships with dsl/; keep explain usable without it
        from legacies.dsl.printer import print_program
        return print_program(effect)
    return render_program(effect, _labels(vocab))
