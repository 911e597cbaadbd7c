"""What an editor asks of a checked ruleset (cli/check.Check): the name under the
cursor, the card text shown on hover (an item's, or the effect the cursor is in), the
place a name is declared (a kind's plural too); the names to complete by context are
cli/complete.py's.

Positions here are 0-based lines and columns counted in characters of the text; the
server converts them to and from the editor's units. Each question takes the checks to
ask in order (the current one first, then the last one with no error): while a
document has errors, hover and definition answer from the last good check.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from legacies.dsl.renderer import Wording, render_expr, render_program
from legacies.dsl.vocabulary import Vocabulary
from legacies.interpreter.spec import GameSpec, PieceDef
from legacies.pipeline.build.passes import BuildResult
from legacies.pipeline.explain import item_text
from legacies.pipeline.files import CONTENT_PACKAGE, RULES_PACKAGE
from legacies.pipeline.load import LoadedFile

from .check import Check

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Name:
    """A name the ruleset declares, as completion offers it."""

    name: str
    what: str  # counter, zone, kind, procedure, item...
    detail: str  # what it is, in words ("counter of each player: Gold")


@dataclass(frozen=True)
class Place:
    """Where a name is declared: a file and a 0-based line and column."""

    path: Path
    line: int
    column: int


def word_at(line: str, column: int) -> tuple[str, int, int] | None:
    """The name at `column` of `line` (or just before it): (word, start, end)."""
    for match in _WORD.finditer(line):
        if match.start() <= column <= match.end():
            return match.group(), match.start(), match.end()
    return None


# --------------------------------------------------------------------------- hover


def hover(checks: Sequence[Check], path: Path, text: str, line: int, column: int) -> str | None:
    """Markdown for the cursor at (line, column) of the document at `path`: an item id
    shows that item's card text, a declared name what it is; elsewhere inside an effect,
    the card text of that effect."""
    lines = text.split("\n")
    found = word_at(lines[line], column) if 0 <= line < len(lines) else None
    parts = []
    if found is not None:
        word = found[0]
        if any(word in build.items for build, _ in _with_items(checks)):
            return _item_hover(checks, word)
        described = next((d for _, vocab in with_vocab(checks) if (d := describe(vocab, word)) is not None), None)
        if described is not None:
            parts.append(f"`{word}`: {described}")
    effect = _effect_hover(checks, path, line + 1) or _rules_hover(checks, path, line + 1)
    if effect is not None:
        parts.append(effect)
    return "\n\n---\n\n".join(parts) or None


def _item_hover(checks: Sequence[Check], item_id: str) -> str:
    head = _item_head(checks, item_id)
    built = _built(checks, item_id)
    if built is None:
        return f"{head}\n\n_(no card text: the ruleset has errors; fix them to see it)_"
    piece, vocab, stale = built
    text = item_text(piece, vocab) or "(no effect of its own)"
    return f"{head}\n\n{_paragraphs(text)}{_stale_note(stale)}"


def _effect_hover(checks: Sequence[Check], path: Path, line: int) -> str | None:
    """The card text of the effect written at 1-based `line` of the document."""
    for check in checks:
        for item_id, place, key, index in effects_in(check, path):
            first, last = place
            if not first <= line <= last:
                continue
            built = _built(checks, item_id)
            if built is None:
                return f"{_item_head(checks, item_id)}\n\n_(no card text: the ruleset has errors; fix them to see it)_"
            piece, vocab, stale = built
            shown = _effect_text(piece, vocab, key, index)
            if shown is None:
                return None
            return f"{_item_head(checks, item_id)}\n\n{_paragraphs(shown)}{_stale_note(stale)}"
    return None


def _rules_hover(checks: Sequence[Check], path: Path, line: int) -> str | None:
    """The card text of the procedure, action, definition, setup or game procedure
    written at 1-based `line` of a rules document."""
    for check in checks:
        label = label_of(check, path)
        f = next((f for f in check.files if f.label == label and f.kind != "content"), None)
        if f is None or not isinstance(f.data, dict):
            continue
        for where in rule_texts(f.data):
            span = text_lines(f, where)
            if span is None or not span[0] <= line <= span[1]:
                continue
            for n, built in enumerate(checks):
                shown = _rule_text(built.spec, where) if built.spec is not None else None
                if shown:
                    return f"{_paragraphs(shown)}{_stale_note(n > 0)}"
            return "_(no text: the ruleset has errors; fix them to see it)_"
        return None
    return None


def rule_texts(data: dict[str, Any]) -> Iterator[tuple[str, ...]]:
    """The paths of every piece of effect language in a rules file's data."""
    for top in ("setup", "game"):
        if isinstance(data.get(top), str):
            yield (top,)
    for table, keys in (("procedures", ("do",)), ("actions", ("choose", "if", "do")), ("definitions", ("value",))):
        entries = data.get(table)
        if not isinstance(entries, dict):
            continue
        for name, entry in entries.items():
            for key in keys:
                if isinstance(entry, dict) and isinstance(entry.get(key), str):
                    yield (table, name, key)


def _rule_text(spec: GameSpec, where: tuple[str, ...]) -> str | None:
    wording = Wording.of(spec.vocab)
    if where == ("setup",) or where == ("game",):
        program = spec.setup if where == ("setup",) else spec.game
        return f"**{where[0]}**: {render_program(program, wording)}" if program is not None else None
    table, name, key = where
    if table == "procedures" and name in spec.procedures:
        return f"**{name}** (procedure): {render_program(spec.procedures[name].body, wording)}"
    if table == "definitions" and name in spec.definitions:
        return f"**{name}** (definition): {render_expr(spec.definitions[name].value, wording)}"
    action = spec.actions.get(name) if table == "actions" else None
    if action is None:
        return None
    if key == "choose" and action.choose is not None:
        return f"**{name}** (action) chooses from {render_expr(action.choose, wording)}"
    if key == "if" and action.condition is not None:
        return f"**{name}** (action) is possible when {render_expr(action.condition, wording)}"
    return f"**{name}** (action): {render_program(action.body, wording)}"


def effects_in(check: Check, path: Path) -> Iterator[tuple[str, tuple[int, int], str, int | None]]:
    """Every effect written in the document: (item id, (first line, last line), key,
    index in a list of effects or None); lines are 1-based and include the key's."""
    build = check.build
    label = label_of(check, path)
    if build is None or build.vocab is None or label is None:
        return
    for item_id, (f, item_path, item) in build.items.items():
        if f.label != label:
            continue
        places: list[tuple[tuple[Any, ...], str, int | None]] = [
            (("effect",), "effect", None), (("requires",), "requires", None)]
        kind = build.vocab.kinds.get(item.kind)
        for key, value in (item.attributes or {}).items():
            t = kind.attributes.get(key) if kind is not None else None
            if t is not None and t.tag == "effect":
                places.append((("attributes", key), key, None))
            elif t is not None and t.tag == "effects" and isinstance(value, list):
                places.extend((("attributes", key, i), key, i) for i in range(len(value)))
        for sub, key, index in places:
            span = text_lines(f, item_path + sub)
            if span is not None:
                yield item_id, span, key, index


def text_lines(f: LoadedFile, path: tuple[Any, ...]) -> tuple[int, int] | None:
    """(first, last) 1-based lines of the string at `path`, its key's line first."""
    value: Any = f.data
    for step in path:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return None
    origin = f.origin(path)
    if not isinstance(value, str) or origin is None:
        return None
    key_line, key_column = f.key_position(path[:-1] if isinstance(path[-1], int) else path)
    last = origin[0] + 1
    for n in range(last, len(f.lines)):  # what follows, indented deeper than the key, is the value's too
        text = f.lines[n]
        if text.strip() and len(text) - len(text.lstrip(" ")) < key_column:
            break
        if text.strip():
            last = n + 1
    return min(key_line, origin[0] + 1), last


def _effect_text(piece: PieceDef, vocab: Vocabulary, key: str, index: int | None) -> str | None:
    wording = Wording.of(vocab)
    if key == "effect":
        return render_program(piece.effect, wording) if piece.effect is not None else None
    if key == "requires":
        return "Playable when " + render_expr(piece.requires, wording) + "." if piece.requires is not None else None
    programs = piece.programs.get(key)
    if isinstance(programs, list):
        if index is None or index >= len(programs):
            return None
        return f"{vocab.label(key)} {index + 1}: {render_program(programs[index], wording)}"
    return f"{vocab.label(key)}: {render_program(programs, wording)}" if programs is not None else None


def _item_head(checks: Sequence[Check], item_id: str) -> str:
    for build, vocab in _with_items(checks):
        found = build.items.get(item_id)
        if found is not None:
            return f"**{found[2].name}** (`{item_id}`, {vocab.label(found[2].kind)})"
    return f"`{item_id}`"


def _built(checks: Sequence[Check], item_id: str) -> tuple[PieceDef, Vocabulary, bool] | None:
    """The item as the first check whose spec has it built it: (piece, vocabulary,
    stale: from a check older than the current one)."""
    for n, check in enumerate(checks):
        spec = check.spec
        piece = next((d for d in spec.defs if d.id == item_id), None) if spec is not None else None
        if piece is not None and spec is not None:
            return piece, spec.vocab, n > 0
    return None


def _stale_note(stale: bool) -> str:
    return "\n\n_(as last checked without errors: the ruleset has errors now)_" if stale else ""


def _paragraphs(text: str) -> str:
    return "\n\n".join(line for line in text.splitlines() if line.strip())


def _tables(vocab: Vocabulary) -> list[tuple[Mapping[str, Any], str]]:
    """The vocabulary's tables of names and what each holds (content items first)."""
    return [(vocab.content, "item"), (vocab.counters, "counter"), (vocab.values, "value"), (vocab.zones, "zone"),
            (vocab.kinds, "kind"), (vocab.events, "event"), (vocab.quantities, "quantity"),
            (vocab.options, "option"), (vocab.actions, "action"), (vocab.definitions, "definition"),
            (vocab.procedures, "procedure"), (vocab.counter_sets, "counter set")]


def describe(vocab: Vocabulary, name: str) -> str | None:
    """What a declared name is, in words; None for a name the ruleset does not declare."""
    label = vocab.label(name)
    shown = f": {label}" if label != name.replace("_", " ") else ""
    if name in vocab.content:
        return f"{vocab.label(vocab.content[name])}{shown}"
    for table, what in _tables(vocab)[1:]:
        if name in table:
            info = table[name]
            scope = getattr(info, "scope", None)
            params = getattr(info, "params", None)
            if isinstance(params, (list, dict)) and params:
                names = [p[0] if isinstance(p, tuple) else str(p) for p in params]
                what += "(" + ", ".join(names) + ")"
                for n, param in enumerate(names):  # a template's {0}, {1}...: the parameters' names
                    shown = shown.replace(f"{{{n}}}", param)
            return (f"{what} of {'each player' if scope == 'player' else 'each item' if scope == 'item' else 'the game'}"
                    if scope else what) + shown
    for kind, info in vocab.kinds.items():
        if info.plural == name:
            return f"plural of kind `{kind}`"
    for enum, values in vocab.enums.items():
        if name in values:
            return f"one of `{enum}`{shown}"
    return None


# --------------------------------------------------------------------------- definition


def definition(checks: Sequence[Check], text: str, line: int, column: int) -> Place | None:
    """Where the name at (line, column) of `text` is declared: an item's `id:`, or the
    key that declares it in a ruleset or procedures file (counters, zones, kinds,
    procedures, definitions...)."""
    lines = text.split("\n")
    found = word_at(lines[line], column) if 0 <= line < len(lines) else None
    return declared(checks, found[0]) if found is not None else None


def declared(checks: Sequence[Check], word: str) -> Place | None:
    """Where `word` is declared (see `definition`)."""
    for check in checks:
        found = check.build.items.get(word) if check.build is not None else None
        if found is not None:
            f, path, _ = found
            line, column = f.position(path + ("id",))
            return _place(check, f.label, line, column)
    for _, vocab in with_vocab(checks):  # a kind's plural (`crates`): its `plural:`, else the kind
        kind = next((k for k, info in vocab.kinds.items() if info.plural == word), None)
        if kind is not None:
            return _plural_place(checks, kind) or declared(checks, kind)
    for check in checks:
        for f in check.files:
            if f.kind == "content" or not isinstance(f.data, dict):
                continue
            for top, table in f.data.items():
                if isinstance(table, dict) and word in table and top != "labels":  # labels name, never declare
                    line, column = f.key_position((top, word))
                    return _place(check, f.label, line, column)
    return None


def _plural_place(checks: Sequence[Check], kind: str) -> Place | None:
    """Where a kind's `plural:` is written (in `kinds:`, or an expansion's `extend_kinds:`)."""
    for check in checks:
        for f in check.files:
            if f.kind == "content" or not isinstance(f.data, dict):
                continue
            for top in ("kinds", "extend_kinds"):
                table = f.data.get(top)
                entry = table.get(kind) if isinstance(table, dict) else None
                if isinstance(entry, dict) and "plural" in entry:
                    line, column = f.position((top, kind, "plural"))
                    return _place(check, f.label, line, column)
    return None


def _place(check: Check, label: str, line: int, column: int) -> Place | None:
    path = file_of(check, label)
    return Place(path, line - 1, column - 1) if path is not None else None


def file_of(check: Check, label: str) -> Path | None:
    """The file a label names: an open document, a file on disk (labels are relative to
    the working folder), or a file of an installed ruleset (`content/NAME/...`)."""
    if label in check.labels:
        return check.labels[label]
    path = Path(label)
    if path.is_absolute() or path.is_file():
        return path.absolute()
    package, _, rest = label.partition("/")
    if package in ("rules", "content"):
        entry = resources.files(RULES_PACKAGE if package == "rules" else CONTENT_PACKAGE).joinpath(*rest.split("/"))
        if isinstance(entry, Path) and entry.is_file():
            return entry
    return None


def label_of(check: Check, path: Path) -> str | None:
    return next((label for label, p in check.labels.items() if p == path), None)


# --------------------------------------------------------------------------- names


def what_of(vocab: Vocabulary, name: str) -> str:
    for table, what in _tables(vocab):
        if name in table:
            return what
    return "symbol"


def with_vocab(checks: Sequence[Check]) -> Iterator[tuple[BuildResult, Vocabulary]]:
    """(build, vocabulary) of each check that built a vocabulary, in order."""
    for check in checks:
        if check.build is not None and check.build.vocab is not None:
            yield check.build, check.build.vocab


def _with_items(checks: Sequence[Check]) -> Iterator[tuple[BuildResult, Vocabulary]]:
    return ((build, vocab) for build, vocab in with_vocab(checks) if build.items)
