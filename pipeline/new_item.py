"""The service behind `legacies new KIND`: a new content item, valid at once, appended to
the file where items of its kind live, in a ruleset folder on disk, or to an expansion
folder laid over a ruleset (installed or on disk): then it goes into the expansion's own
content/<ruleset>/ files (a new `<kinds>.yaml` when none holds its kind yet).

The new item copies a model item of its kind. The one named with `like` is copied whole
(every field, effects and `requires:` too). Otherwise the last one in the file it goes to
gives its shape: every attribute that every item of the kind gives, with the model's
values, except that effects are a placeholder that runs and says it is one. Either way a
number equal to the model id's number follows the new id (K60's number 60 becomes K61's
61). Its id is the next free one after the model's in the same pattern (C350 -> C351,
K09 -> K10, T115 -> T116); an id without a number gets `<kind>_<n>`.
The item is written as text at the end of the file's `items:` list (the file's comments,
layout and line endings kept, written whole: text_edit), read back to check it, then the
whole ruleset is validated; when that finds an error the file is put back as it was.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from legacies.dsl.diagnostics import Diagnostic, has_errors
from legacies.dsl.errors import LegaciesError
from legacies.dsl.parser import parse_program

from .content import close_kinds, kind_words, word_key
from .files import EXPANSION_FILES, YAML_SUFFIXES, disk_label, is_yaml, read_regular
from .formats import FORMAT_KEY
from .models import CURRENT_FORMAT, NAME_PATTERN, AttributeDecl, ContentItem, KindDecl, RulesetFile
from .ruleset import load_ruleset
from .schemas import schema_filename, shipped_schema
from .stack import StackError, place_of
from .text_edit import Edit, apply, decode
from .writes import WriteError, make_folder, write_whole
from .yaml_source import load_yaml

ID_PATTERN = re.compile(NAME_PATTERN)
_NUMBERED = re.compile(r"^(.*?)(\d+)$")
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_ .'()/-]*$")  # no `,`: it ends a value in `[...]`
_RESERVED = frozenset(("y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"))


class NewItemError(LegaciesError):
    """Nothing was written. `usage`: the request cannot be met (exit 2); else the
    ruleset does not validate (exit 1), with its diagnostics."""

    def __init__(self, message: str, usage: bool = True, diagnostics: list[Diagnostic] | None = None,
                 sources: dict[str, list[str]] | None = None):
        super().__init__(message)
        self.usage = usage
        self.diagnostics = diagnostics or []
        self.sources = sources or {}


@dataclass
class NewItem:
    """What was written, and where."""

    id: str
    kind: str
    name: str
    file: str
    line: int
    model: str | None  # the id of the item whose shape it copies
    files_of_kind: list[str] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    created: bool = False
    expansion_file: str | None = None  # the expansion.yaml written for a new expansion folder


@dataclass(frozen=True)
class _Existing:
    id: str
    file: Path
    item: ContentItem


def new_item(root: Path | None, ruleset: str, kind: str, item_id: str | None = None, file: str | None = None,
             like: str | None = None, expansion: Path | None = None) -> NewItem:
    """Write a new item of `kind` into ruleset `ruleset` held in folder `root` (None: the
    installed one), or, with `expansion`, into that expansion folder laid over it."""
    assert root is not None or expansion is not None, "the installed ruleset is never written to"
    content = (expansion if expansion is not None else root) / "content" / ruleset  # type: ignore[operator]
    stack: tuple[Path, ...] = (expansion,) if expansion is not None else ()
    where = " ".join(([str(root)] if root is not None else []) + [f"-x {x}" for x in stack])
    made_head = None
    if expansion is not None:
        try:
            make_folder(content)
        except WriteError as err:
            raise NewItemError(f"nothing was written: {err}", usage=False) from None
        made_head = _expansion_head(expansion, ruleset)
    try:
        loaded = load_ruleset(ruleset, root, stack)
    except StackError as err:
        _forget(made_head)
        raise NewItemError(str(err)) from None
    if loaded.build is None or not loaded.ok or not loaded.load.files or loaded.build.stack is None:
        _forget(made_head)
        raise NewItemError(f"ruleset `{ruleset}` has errors now: run `legacies validate {where}` and fix "
                           "them first (then a new item's problems are its own)", usage=False,
                           diagnostics=loaded.diagnostics, sources=loaded.load.sources)
    rules = loaded.load.files[0].model
    assert isinstance(rules, RulesetFile)
    kinds = loaded.build.stack.kinds
    kind = _kind_named(kind, rules.ruleset, kinds)
    base_places = {place_of(f.label, ruleset) for f in loaded.load.files if not f.layer}
    existing = [_Existing(i, Path(f.label), item) for i, (f, _, item) in loaded.build.items.items()]
    of_kind = [e for e in existing if e.item.kind == kind]
    files_of_kind = list(dict.fromkeys(disk_label(e.file) for e in of_kind))
    if expansion is not None and file is None and like is None:  # the expansion's own file of the kind, or a new one
        own = [e for e in of_kind if _inside(e.file, content)]
        file = str(own[-1].file) if own else _own_file(kinds[kind], kind, ruleset, expansion, base_places)
    model = _model(like, kind, existing, of_kind, file, content)
    if expansion is not None and (model is None or not _inside(model.file, content)) and file is None:
        file = _own_file(kinds[kind], kind, ruleset, expansion, base_places)  # never at a base file's place
    target = _target(file, content, model, of_kind)
    if expansion is not None and place_of(disk_label(target), ruleset) in base_places:
        _forget(made_head)
        raise NewItemError(f"{disk_label(target)} is at the place of a file of `{ruleset}`: an expansion writes "
                           f"files of its own (leave out --file, or name another file)")
    taken = {e.id for e in existing}
    new_id = _checked_id(item_id, taken) if item_id else next_id(model.id if model else None, kind, taken)
    label = kinds[kind].label or kind.replace("_", " ")
    item = _item(new_id, kind, f"New {label} {new_id}", kinds[kind], model, of_kind, like is not None)
    try:
        _free_numbers(item, kind, of_kind, loaded.spec.vocab.kinds[kind].ranges if loaded.spec else {},
                      expansion is not None)
    except NewItemError:
        _forget(made_head)
        raise
    created = not target.exists()
    original = read_regular(target) if not created else None
    try:
        line = _write(target, ruleset, item, original)
    except WriteError as err:  # a full disk, a read-only folder: the file is as it was
        raise NewItemError(f"nothing was written: {err}", usage=False) from None
    try:
        from .validate import validate

        result = validate([str(root)] if root is not None else [], ruleset, (expansion,) if expansion else ())
    except Exception:
        _restore(target, original)
        _forget(made_head)
        raise
    if has_errors(result.diagnostics):
        _restore(target, original)
        _forget(made_head)
        own_error = any(disk_label(Path(d.file)) == disk_label(target) for d in result.diagnostics
                  if d.severity == "error")
        why = ("a bug in `legacies new` for this kind: please report it" if own_error else
               "the rules refuse it where they run, above: a bound the new item goes past is widened with "
               "`extends: true` in an expansion's `extend_kinds:`, or a higher `max` in the ruleset")
        raise NewItemError(f"the new {label} would not validate, so nothing was written ({why})", usage=False,
                           diagnostics=result.diagnostics, sources=result.sources)
    return NewItem(new_id, kind, item["name"], disk_label(target), line, model.id if model else None,
                   files_of_kind, [d for d in result.diagnostics if disk_label(Path(d.file)) == disk_label(target)],
                   created, disk_label(made_head) if made_head is not None else None)


def _own_file(decl: KindDecl, kind: str, ruleset: str, expansion: Path, base_places: set[str | None]) -> str:
    """The expansion's own file for a kind: `<plural>.yaml`, or, when the ruleset has a file
    of that name (an expansion's file there would replace it), `<expansion>_<plural>.yaml`."""
    name = f"{decl.plural or kind + 's'}.yaml"
    if f"content/{ruleset}/{name}" in base_places:
        slug = re.sub(r"[^a-z0-9]+", "_", expansion.resolve().name.lower()).strip("_") or "expansion"
        name = f"{slug}_{name}"
    return name


def _expansion_head(folder: Path, ruleset: str) -> Path | None:
    """A new expansion folder gets its expansion.yaml (its name from the folder's): the
    path written, or None when it has one."""
    if any((folder / name).is_file() for name in EXPANSION_FILES):
        return None
    slug = re.sub(r"[^a-z0-9_-]+", "-", folder.resolve().name.lower()).strip("-_")[:64] or "my-expansion"
    title = folder.resolve().name.replace("-", " ").replace("_", " ").strip().title() or "My Expansion"
    head = folder / EXPANSION_FILES[0]
    text = (f"{_modeline(head, 'expansion')}"
            f"# What this expansion is: written by `legacies new`; add the words it needs here (counters,\n"
            f"# kinds, zones, events, quantities, menus...: the keys of a ruleset.yaml).\n"
            f"format: {CURRENT_FORMAT}\nexpansion: {slug}\nextends: {ruleset}\ntitle: {json.dumps(title)}\n")
    write_whole(head, text.encode("utf-8"))
    return head


def _kept_schema(target: Path, kind: str) -> Path | None:
    """The schema of `kind` a content repository keeps beside its rules (a `schemas/` folder
    in the new file's folder or above it, as the project's own is): a path from the file that
    holds wherever the repository is cloned, where one to the installed package holds on this
    machine only (a user's trial: `../../../../../work/main/schemas/...`)."""
    name = schema_filename(kind)
    for folder in target.resolve().parents:
        found = folder / "schemas" / name
        if found.is_file():
            return found
    return None


def _modeline(target: Path, kind: str) -> str:
    """The first line of a new file, for an editor's YAML language server to check and
    complete it: the installed schema of its kind (schemas/), by a path from the file's
    folder (a user's trial: a web address that resolves nowhere made the editor report
    that the schema would not load)."""
    schema = _kept_schema(target, kind) or shipped_schema(kind).resolve()
    try:
        where = os.path.relpath(schema, target.resolve().parent)
    except ValueError:  # another drive (Windows): the whole path
        where = str(schema)
    return f"# yaml-language-server: $schema={Path(where).as_posix()}\n"


def _forget(head: Path | None) -> None:
    """Take back an expansion.yaml this call wrote (nothing else was written)."""
    if head is not None:
        head.unlink(missing_ok=True)


# --------------------------------------------------------------------------- choosing


def _kind_named(name: str, ruleset: str, kinds: dict[str, KindDecl]) -> str:
    """A kind by its name, plural or label (`crate`, `gold card`, `crates`)."""
    wanted = word_key(name)
    names = kind_words(kinds)
    if wanted in names:
        return names[wanted]
    kinds_close = close_kinds(name, names)
    hint = f"did you mean {', '.join(kinds_close)}? " if kinds_close else ""
    raise NewItemError(f"ruleset `{ruleset}` has no kind `{name}`; {hint}its kinds: {', '.join(kinds)}")


def _model(like: str | None, kind: str, existing: list[_Existing], of_kind: list[_Existing], file: str | None,
           content: Path) -> _Existing | None:
    """The item whose shape the new one copies: `like`, else the last of its kind in the
    file named, else the last of its kind in the file holding most of them."""
    if like is not None:
        found = [e for e in existing if e.id == like] or [e for e in existing if e.id.lower() == like.lower()]
        if not found:
            raise NewItemError(f"--like {like}: no item `{like}` in this ruleset")
        if found[0].item.kind != kind:
            raise NewItemError(f"--like {like}: `{found[0].id}` is a {found[0].item.kind}, not a {kind}")
        return found[0]
    if not of_kind:
        return None
    if file is not None:
        path = _content_file(file, content)
        in_file = [e for e in of_kind if _same(e.file, path)]
        return in_file[-1] if in_file else of_kind[-1]
    counts: dict[str, int] = {}
    for e in of_kind:
        counts[str(e.file)] = counts.get(str(e.file), 0) + 1
    most = max(counts.values())
    chosen = [f for f, n in counts.items() if n == most][-1]
    return [e for e in of_kind if str(e.file) == chosen][-1]


def _target(file: str | None, content: Path, model: _Existing | None, of_kind: list[_Existing]) -> Path:
    if file is not None:
        return _content_file(file, content)
    if model is not None:
        return model.file
    from .walk import walk

    files = [Path(str(w.entry)) for w in walk(content, is_yaml) if w.problem is None]
    if len(files) == 1:
        return files[0]
    raise NewItemError(f"no item of this kind yet, and {content} holds {len(files)} files: name the one to write "
                       "to with --file (a new file name makes a new file)")


def _content_file(file: str, content: Path) -> Path:
    """--file: a path, or a name inside content/<ruleset>/ (`.yaml` may be left out)."""
    given = Path(file)
    candidates = [given, content / given, content / f"{file}.yaml"]
    for path in candidates:
        if path.is_file():
            if not _inside(path, content):
                raise NewItemError(f"--file {file}: not a file of this ruleset's content ({content})")
            return path
    path = given if _inside(given, content) else content / given
    if path.suffix.lower() not in YAML_SUFFIXES:
        path = path.with_name(path.name + ".yaml")
    if not path.parent.is_dir():
        raise NewItemError(f"--file {file}: no folder {path.parent}")
    return path


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def _same(a: Path, b: Path) -> bool:
    return a.resolve() == b.resolve()


# --------------------------------------------------------------------------- ids


def next_id(model: str | None, kind: str, taken: set[str]) -> str:
    """The next free id after `model` in its pattern (a prefix and a number, the number's
    width kept: K09 -> K10); `<kind>_<n>` when the model's id has no number."""
    match = _NUMBERED.match(model) if model else None
    if match is None:
        n = 1
        while f"{kind}_{n}" in taken:
            n += 1
        return f"{kind}_{n}"
    prefix, digits = match.groups()
    n = int(digits) + 1
    while f"{prefix}{n:0{len(digits)}d}" in taken:
        n += 1
    return f"{prefix}{n:0{len(digits)}d}"


def _number(item_id: str) -> int | None:
    match = _NUMBERED.match(item_id)
    return int(match.group(2)) if match else None


def _checked_id(item_id: str, taken: set[str]) -> str:
    if not ID_PATTERN.match(item_id):
        raise NewItemError(f"--id {item_id!r}: an id is a letter or `_` followed by letters, digits and `_` "
                           "(C1051, S61, my_item)")
    same = [t for t in taken if t.lower() == item_id.lower()]
    if same:
        raise NewItemError(f"--id {item_id}: taken by `{same[0]}` (ids are matched in any case by "
                           "`legacies explain`); leave --id out for the next free one")
    return item_id


# --------------------------------------------------------------------------- the item


def _item(item_id: str, kind: str, name: str, decl: KindDecl, model: _Existing | None,
          of_kind: list[_Existing], like: bool = False) -> dict[str, Any]:
    """id, kind, name, the attributes every item of the kind gives (the model's values,
    effects a placeholder) and a placeholder effect where the model has one; `like` (the
    model named by `--like`): every field of the model as it is, its effects and
    `requires:` included."""
    item: dict[str, Any] = {"id": item_id, "kind": kind, "name": name}
    if model is None:
        return item
    if like:
        return _copied(item, model, item_id)
    always = set(model.item.attributes)
    for e in of_kind:
        always &= set(e.item.attributes)
    attributes: dict[str, Any] = {}
    for attr in model.item.attributes:  # in the model's order
        if attr not in always:
            continue
        declared = decl.attributes.get(attr)
        kind_of_value = declared.type if isinstance(declared, AttributeDecl) else declared
        value = model.item.attributes[attr]
        if value == _number(model.id) and isinstance(value, int) and not isinstance(value, bool):
            value = _number(item_id)  # a card number that follows the id (K60 is number 60)
        if kind_of_value == "effect":
            value = _placeholder(name, attr)
        elif kind_of_value == "effects" and isinstance(value, list):
            value = [_placeholder(name, f"{attr} ({i + 1} of {len(value)})") for i in range(len(value))]
        attributes[attr] = value
    if attributes:
        item["attributes"] = attributes
    if model.item.effect is not None:  # shaped like its model (a user's trial: a Legacy special card came
        # with no effect, as the kind's legacy cards have none, and sat in the hand doing nothing)
        item["effect"] = _effect_placeholder(name, model.item.effect)
    return item


def _free_numbers(item: dict[str, Any], kind: str, of_kind: list[_Existing], ranges: dict[str, Any],
                  expansion: bool) -> None:
    """A number that numbers the kind's items (each item gives one, no two the same: a
    card's `number`) gets one no item has: the next after the highest within the
    attribute's declared range, else the lowest free one in it; none free is NewItemError
    with the widening to write."""
    attributes = item.get("attributes", {})
    for attr, value in list(attributes.items()):
        if type(value) is not int:
            continue
        given = [e.item.attributes.get(attr) for e in of_kind]
        if len(given) < 2 or any(type(g) is not int for g in given) or len(set(given)) != len(given):
            continue
        taken: set[int] = set(given)  # type: ignore[arg-type]
        if value not in taken:
            continue
        rng = ranges.get(attr)
        lo = rng.lo if rng is not None and rng.lo is not None else min(taken)
        hi = rng.hi if rng is not None else None
        after = max(taken) + 1
        free = after if hi is None or after <= hi else next((n for n in range(lo, hi + 1) if n not in taken), None)
        if free is None:
            widen = (f"`extend_kinds: {{{kind}: {{attributes: {{{attr}: {{extends: true, max: {(hi or 0) + 1}}}}}}}}}` "
                     "in its expansion.yaml" if expansion else f"a higher `max` on the kind's `{attr}`")
            raise NewItemError(f"every {kind} `{attr}` from {lo} to {hi} is taken (the range the kind declares), "
                               f"so a new one has none of its own: widen it with {widen}")
        attributes[attr] = free


def _copied(item: dict[str, Any], model: _Existing, item_id: str) -> dict[str, Any]:
    """The new item as a copy of the model: its copies, requires, attributes (a card
    number that follows the id follows the new id), links, effect and flavor."""
    m = model.item
    if m.copies != 1:
        item["copies"] = m.copies
    if m.requires is not None:
        item["requires"] = m.requires
    attributes = {attr: _number(item_id) if value == _number(model.id) and isinstance(value, int)
                  and not isinstance(value, bool) else value for attr, value in m.attributes.items()}
    if attributes:
        item["attributes"] = attributes
    if m.links:
        item["links"] = {link: list(ids) for link, ids in m.links.items()}
    for key in ("effect", "flavor"):
        if getattr(m, key) is not None:
            item[key] = getattr(m, key)
    return item


def _effect_placeholder(name: str, model: str) -> str:
    """The placeholder of an item's `effect:`, in its model's shape: statements, or, for
    an effect that only declares (`when this leaves play:`, and nothing else; its statements
    would never run, W309), its model's first declaration's head over the placeholder."""
    placeholder = _placeholder(name, "effect")
    try:
        program = parse_program(model)
    except LegaciesError:
        return placeholder
    if program.statements or not program.declarations or program.declarations[0].span is None:
        return placeholder
    head = model.splitlines()[program.declarations[0].span.line - 1].strip()
    return f"{head}\n    {placeholder}" if head.endswith(":") else placeholder


def _placeholder(name: str, what: str) -> str:
    """An effect that runs, changes nothing, and says in the game log that it is to be written."""
    return f'log "{name}: its {what} is not written yet"\n'


# --------------------------------------------------------------------------- writing


def _write(target: Path, ruleset: str, item: dict[str, Any], original: bytes | None) -> int:
    """Append the item's text to the file's `items:` list; returns the line of its `- id:`."""
    if original is None:
        header = f"{_modeline(target, 'content')}{FORMAT_KEY}: {CURRENT_FORMAT}\nruleset: {ruleset}\nitems:\n"
        raw, text, newline, insert_at, indent, gap = header.encode(), header, "\n", len(header), 2, False
        decoded = decode(raw)
    else:
        raw = original
        label = disk_label(target)
        source, problems = load_yaml(label, raw)
        if source is None or has_errors(problems) or not isinstance(source.data, dict):
            raise NewItemError(f"{label} cannot be read as a content file: run `legacies validate`")
        decoded = decode(raw)
        text, newline = decoded.text, decoded.newline
        insert_at, indent, gap = _place(source.root, text, label)
    block = _render(item, indent, newline)
    ends_line = insert_at == 0 or text[:insert_at].endswith(("\n", "\r"))
    block = ("" if ends_line else newline) + (newline if gap else "") + block
    after = apply(text, [Edit(insert_at, insert_at, block)])
    source, problems = load_yaml(str(target), after)
    items = source.data.get("items") if source is not None and isinstance(source.data, dict) else None
    if problems or not isinstance(items, list) or item not in items:  # never write what was not meant
        raise NewItemError(f"cannot add an item to {disk_label(target)} without changing the rest of it (its "
                           "`items:` list is not a plain list at the end of the file?): add it by hand")
    write_whole(target, decoded.encode(after))
    blank = len(block) - len(block.lstrip("\r\n"))
    return text[:insert_at].count("\n") + block[:blank].count("\n") + 1


def _place(root: Node | None, text: str, label: str) -> tuple[int, int, bool]:
    """Where the new item's text goes (after the last item, before whatever top-level key
    follows `items:`), its indentation, and whether items are separated by blank lines."""
    keys = root.value if isinstance(root, MappingNode) else []
    index = next((i for i, (k, _) in enumerate(keys) if isinstance(k, ScalarNode) and k.value == "items"), None)
    if index is None:
        raise NewItemError(f"{label} has no `items:` list: add `items:` at its end first")
    items = keys[index][1]
    if isinstance(items, ScalarNode) and items.value == "":  # `items:` with nothing yet
        return _after_key(keys, index, text), 2, False
    if not isinstance(items, SequenceNode) or items.flow_style:
        raise NewItemError(f"{label}: `items:` is not written as a list of `- ` entries: add the item by hand")
    at = _after_key(keys, index, text)
    first = items.value[0] if items.value else None
    indent = max(0, first.start_mark.column - 2) if first is not None else 2
    last = items.value[-1] if items.value else None
    gap = False
    if last is not None and len(items.value) > 1:
        previous_line = last.start_mark.line - 1
        lines = text.splitlines()
        gap = 0 <= previous_line < len(lines) and not lines[previous_line].strip()
    return at, indent, gap


def _after_key(keys: list[tuple[Node, Node]], index: int, text: str) -> int:
    """The end of the file, or the start of the line of the top-level key after `items:`."""
    if index + 1 < len(keys):
        following = keys[index + 1][0].start_mark.index
        return text.rfind("\n", 0, following) + 1
    return len(text)


def _render(item: dict[str, Any], indent: int, newline: str) -> str:
    pad = " " * indent
    lines: list[str] = []
    for n, (key, value) in enumerate(item.items()):
        lead = f"{pad}- " if n == 0 else f"{pad}  "
        lines += _field(lead, key, value, indent + 2)
    return newline.join(lines) + newline


def _field(lead: str, key: str, value: Any, depth: int) -> list[str]:
    if isinstance(value, str) and "\n" in value:
        body = [" " * (depth + 2) + line for line in value.rstrip("\n").split("\n")]
        return [f"{lead}{key}: |", *body]
    if isinstance(value, dict) and value:
        out = [f"{lead}{key}:"]
        for sub, inner in value.items():
            out += _field(" " * (depth + 2), sub, inner, depth + 2)
        return out
    if isinstance(value, list) and any(isinstance(v, str) and "\n" in v for v in value):
        out = [f"{lead}{key}:"]
        for entry in value:
            out += [" " * (depth + 2) + "- |", *(" " * (depth + 4) + line for line in entry.rstrip("\n").split("\n"))]
        return out
    return [f"{lead}{key}: {_flow(value)}"]


def _flow(value: Any) -> str:
    """A value in YAML flow style: plain words where they read the same, else quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        plain = _PLAIN.match(value) and value.lower() not in _RESERVED and ": " not in value and " #" not in value
        return value if plain else json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(str(k))}: {_flow(v)}" for k, v in value.items()) + "}"
    return json.dumps(str(value))


def _restore(target: Path, original: bytes | None) -> None:
    if original is None:
        target.unlink(missing_ok=True)
    else:
        write_whole(target, original)
