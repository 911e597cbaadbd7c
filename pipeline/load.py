"""Loading data files: YAML -> schema check -> frozen pydantic model, per file.

This module owns the sequence of the first passes and the per-file result:
`load_file` reads one file's text (yaml_source), reads a file written for an older
format as the current one (formats), checks it against its kind's JSON
Schema (schemas) and only when both pass builds the pydantic model (models). Every
problem along the way is a Diagnostic; a pydantic ValidationError that survives the
schema check becomes S006. Nothing raises. `load_sources` runs it over the files that
files.ruleset_files found and keeps every file's source lines for the reporters.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from pydantic import BaseModel, ValidationError

from legacies.dsl.diagnostics import WARNING, Diagnostic, has_errors
from legacies.pipeline.files import SourceFile
from legacies.pipeline.formats import upgrade
from legacies.pipeline.models import FILE_MODELS
from legacies.pipeline.schemas import misspelt_required, schema_problems, validate_data, yaml_path
from legacies.pipeline.size_bounds import Tally
from legacies.pipeline.yaml_source import (YamlPath, YamlSource, excerpt, lines_of, load_yaml, unreadable,
                                           walk_diagnostic, with_keys_mended, without_items)


@dataclass(frozen=True, eq=False)
class LoadedFile:
    """One file that passed YAML, schema and model checks."""

    label: str
    kind: str
    model: BaseModel
    data: Any = field(repr=False)
    lines: list[str] = field(repr=False)
    source: YamlSource = field(repr=False)
    layer: str = ""  # the expansion it comes from ("" for the ruleset itself)
    over: SourceFile | None = field(default=None, repr=False)  # the base file at its place, if any
    # what its schema refused, the rest loaded: a content file's items by id ("" for none),
    # another file's entries by name (`_without_bad_entries`); none where keys were mended
    dropped: tuple[str, ...] = ()

    def position(self, path: YamlPath) -> tuple[int, int]:
        """(line, column) of the value at `path` (of its parent mapping when missing)."""
        return self.source.position(path)

    def key_position(self, path: YamlPath) -> tuple[int, int]:
        """(line, column) of the key ending `path`."""
        return self.source.key_position(path)

    def span(self, path: YamlPath, *, key: bool = False) -> tuple[int, int, int | None]:
        """(line, column, end_column or None) of the value (or key) at `path`."""
        return self.source.span(path, key=key)

    def origin(self, path: YamlPath) -> tuple[int, int] | None:
        """(line_offset, column_offset) of the string at `path`: see Diagnostic.shifted."""
        return self.source.origin(path)

    def joined(self, path: YamlPath) -> bool:
        """Whether the string at `path` is written over several lines that YAML joins into one."""
        return self.source.joined(path)


@dataclass
class LoadResult:
    """Every file loaded, every problem found, and every file's lines for rendering."""

    files: list[LoadedFile] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, list[str]] = field(default_factory=dict)
    stopped: bool = False  # a size bound was passed (pipeline/size_bounds.py), or ruleset.yaml refused: nothing is built
    ruleset_refused: str = ""  # the ruleset's ruleset.yaml, when it was refused whole

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def load_file(label: str, kind: str, text: str | bytes) -> tuple[LoadedFile | None, list[Diagnostic]]:
    """Parse, schema-check and model one file. None when any error was found."""
    if kind not in FILE_MODELS:
        return None, [Diagnostic("F002", f"unknown file kind {kind!r} (one of {', '.join(FILE_MODELS)})", file=label)]
    source, problems = load_yaml(label, text)
    # a duplicate key is reported, and the file still loads (the later value stands) so
    # that every other problem in it is found too
    if source is None or has_errors(d for d in problems if d.code != "Y002"):
        return None, problems
    source, format_problems = upgrade(kind, source)  # a file for an older format, read as today's
    problems += format_problems
    if has_errors(format_problems):
        return None, problems
    found = schema_problems(kind, source.data, label, source.position, key_position=source.key_position)
    problems += [d for _, d in found]
    if has_errors(d for _, d in found):
        kept = _partial(kind, source, found)
        if kept is None:
            return None, problems
        partial, dropped = kept
        model, model_problems = build_model(kind, partial)
        if model is None:
            return None, problems + model_problems
        return LoadedFile(label, kind, model, partial.data, partial.lines, partial, dropped=dropped), problems
    model, model_problems = build_model(kind, source)
    if model is None:
        return None, problems + model_problems
    return LoadedFile(label, kind, model, source.data, source.lines, source), problems


def _partial(kind: str, source: YamlSource, found: list[tuple[YamlPath, Diagnostic]]
             ) -> tuple[YamlSource, tuple[str, ...]] | None:
    """What of a file its schema refused can still be checked, and what was taken out:
    its keys mended where nothing else is wrong, else the content items or the entries
    the errors lie in taken out; None: the file is refused whole."""
    mended = _keys_mended(kind, source, found)
    if mended is not None:
        return mended, ()
    if kind == "content":
        source, found = _items_mended(source, found)
        if not has_errors(d for _, d in found):
            return source, ()
        return _without_bad_items(kind, source, found)
    return _without_bad_entries(kind, source, found)


_STAND_INS: dict[str, Any] = {"name": None, "flavor": None, "effect": None, "requires": None, "copies": 1}
"""An item's keys whose wrong or missing value is stood in for (`_items_mended`), and by
what: the name by the item's id, a text that is not text by none, a number of copies by one.
What the item says and does is checked with them so (its id, kind and attributes are never
stood in for: an item wrong there is left out)."""


def _items_mended(source: YamlSource, found: list[tuple[YamlPath, Diagnostic]]
                  ) -> tuple[YamlSource, list[tuple[YamlPath, Diagnostic]]]:
    """A content file with a stand-in for each of an item's values the schema refused that
    the item can be checked without (`_STAND_INS`: a missing or wrong name, flavor, effect,
    requires or number of copies) and each unknown key of an item mended (read as the
    required key it misspells, else left out), in its data only (the positions stay where
    they were written), and the schema errors left to answer for. Such an item is then
    checked whole, its effect too, where it was taken out: a missing `name:`, `copies: two`
    or a `colour:` key had hidden a misspelt counter in the same item's effect until it was
    mended (a user's trial: four rounds of validate for one file). Each error mended is
    still reported; the file's other errors are left as they were."""
    items = source.data.get("items") if isinstance(source.data, dict) else None
    if not isinstance(items, list):
        return source, found
    stand_ins: dict[int, dict[str, Any]] = {}  # per item: a key's stand-in
    unknown: list[tuple[YamlPath, Diagnostic]] = []  # an item's unknown keys: mended as `_keys_mended` mends them
    left: list[tuple[YamlPath, Diagnostic]] = []
    for path, d in found:
        at = path[1] if len(path) >= 2 and path[0] == "items" and isinstance(path[1], int) else None
        item = items[at] if at is not None and 0 <= at < len(items) else None
        if not (isinstance(item, dict) and isinstance(item.get("id"), str)):
            left.append((path, d))
            continue
        assert at is not None
        if len(path) == 3 and d.code == "S003":
            unknown.append((path, d))
        elif len(path) == 3 and path[2] in _STAND_INS:
            stand_ins.setdefault(at, {})[str(path[2])] = item["id"] if path[2] == "name" else _STAND_INS[str(path[2])]
        elif len(path) == 2 and d.code == "S002" and d.message.endswith("'name'"):
            stand_ins.setdefault(at, {})["name"] = item["id"]
        else:
            left.append((path, d))
    mended = with_keys_mended(source, {tuple(path): misspelt_required(d) for path, d in unknown}) if unknown else None
    if mended is None:  # none, or not written plainly: those errors stand as they are
        left += unknown
    else:
        source = mended
    if not stand_ins:
        return source, left
    data = dict(source.data)
    data["items"] = [dict(item, **stand_ins[i]) if i in stand_ins else item for i, item in enumerate(data["items"])]
    return YamlSource(source.label, data, source.lines, source.root), left


def _without_bad_items(kind: str, source: YamlSource, found: list[tuple[YamlPath, Diagnostic]]
                       ) -> tuple[YamlSource, tuple[str, ...]] | None:
    """A content file whose schema errors all lie inside some of its items, with those items
    taken out, and their ids: the rest of the file is checked as any other (a user's trial:
    `copies: -3` on one card hid every mistake of the file's other cards, and the rules that
    name its cards said they did not exist). None when an error lies outside the items, or
    what is left is still refused: the file is refused whole, as before."""
    bad: set[int] = set()
    for path, d in found:
        if d.severity != "error":
            continue
        if len(path) < 2 or path[0] != "items" or not isinstance(path[1], int):
            return None
        bad.add(path[1])
    partial = without_items(source, "items", bad)
    if partial is None or has_errors(validate_data(kind, partial.data, source.label, partial.position)):
        return None
    items = source.data["items"]
    ids = tuple(str(items[i]["id"]) if isinstance(items[i], dict) and isinstance(items[i].get("id"), str) else ""
                for i in sorted(bad))
    return partial, ids


def _without_bad_entries(kind: str, source: YamlSource, found: list[tuple[YamlPath, Diagnostic]]
                         ) -> tuple[YamlSource, tuple[str, ...]] | None:
    """A ruleset, procedures or expansion file whose schema errors all lie inside entries
    it can be checked without, with those taken out, and their names: an entry of a
    top-level mapping (a counter, a zone, a definition, `display`'s `players`) or an
    optional top-level key. The rest of the file, and every file that uses its names, is
    checked as any other (a user's trial: one counter's `scope: everyone` in ruleset.yaml
    hid every mistake of every file, and said the ruleset had no ruleset.yaml). None when an
    error lies where nothing can be taken out (a key the schema requires, such as `players`)
    or what is left is still refused: the file is refused whole."""
    data = source.data
    if not isinstance(data, dict):
        return None
    bad: set[tuple[str, ...]] = set()
    for path, d in found:
        if d.severity != "error":
            continue
        if not path or not isinstance(path[0], str):
            return None
        if len(path) >= 2 and isinstance(path[1], str) and isinstance(data.get(path[0]), dict):
            bad.add((path[0], path[1]))
        else:
            bad.add((path[0],))
    bad = {path for path in bad if path[:1] not in bad or len(path) == 1}  # a key taken out takes its entries
    partial = with_keys_mended(source, dict.fromkeys(bad))
    if partial is None or has_errors(validate_data(kind, partial.data, source.label, partial.position)):
        return None
    return partial, tuple(sorted(path[-1] for path in bad))


def _keys_mended(kind: str, source: YamlSource, found: list[tuple[YamlPath, Diagnostic]]) -> YamlSource | None:
    """A file whose every schema error is an unknown key, with those keys mended: one that
    stands for a required key it misspells read as that key (`lable:` as `label:`), any
    other left out. Nothing then goes missing (an optional key misspelt took its whole
    counter out, and every use of the counter was said to be unknown): the rest, the entry
    included, is checked as written. None when another error remains."""
    mends: dict[tuple[Any, ...], str | None] = {}
    for path, d in found:
        if d.severity != "error":
            continue
        if d.code != "S003" or not path:
            return None
        mends[tuple(path)] = misspelt_required(d)  # the key it stands for, or None: left out
    partial = with_keys_mended(source, mends)
    if partial is None or has_errors(validate_data(kind, partial.data, source.label, partial.position)):
        return None
    return partial


def build_model(kind: str, source: YamlSource) -> tuple[BaseModel | None, list[Diagnostic]]:
    """The pydantic model of already schema-checked data; its errors become S006."""
    try:
        return FILE_MODELS[kind].model_validate(source.data), []
    except ValidationError as exc:  # bad data; anything else is a bug in the models (an internal error, E302)
        return None, pydantic_diagnostics(exc, source)


def pydantic_diagnostics(exc: ValidationError, source: YamlSource) -> list[Diagnostic]:
    """One S006 Diagnostic per pydantic error, at the node its `loc` names."""
    out = []
    for error in exc.errors(include_url=False):
        path: YamlPath = tuple(step for step in error.get("loc", ()) if isinstance(step, (str, int)))
        line, column = source.position(path)
        where = f"{yaml_path(path)}: " if path else ""
        out.append(Diagnostic("S006", f"{where}{error.get('msg', 'invalid value')}", line, column, file=source.label))
    return out


def load_source(source: SourceFile) -> tuple[LoadedFile | None, list[Diagnostic], list[str]]:
    """Read and load one discovered file: (file or None, problems, its source lines)."""
    try:
        raw = source.read()
    except OSError as exc:  # missing, unreadable, not walked (pipeline/walk.py): in words, at the file
        return None, [walk_diagnostic(source.label, exc)], []
    except ValueError as exc:  # missing, unreadable (a Traversable's too), a path with a NUL byte
        return None, [unreadable(source.label, exc)], []
    loaded, problems = load_file(source.label, source.kind, raw)
    if loaded is not None and (source.layer or source.over is not None):
        loaded = replace(loaded, layer=source.layer, over=source.over)
    return loaded, problems, loaded.lines if loaded is not None else lines_of(raw)


def load_sources(sources: Iterable[SourceFile]) -> LoadResult:
    """Load every file, collecting every problem (never stopping at the first), until a
    size bound is passed (pipeline/size_bounds.py: said once, the rest not read)."""
    result = LoadResult()
    tally = Tally()
    sources = list(sources)
    for source in sources:
        refused = tally.admit(source.label, len(sources))
        if tally.stopped:
            if refused is not None:
                result.diagnostics.append(refused)
            break
        loaded, problems, lines = load_source(source)
        result.sources[source.label] = lines
        result.diagnostics.extend(problems)
        result.diagnostics.extend(tally.count(loaded, sum(len(line) for line in lines)))
        took(result, source, loaded)
    return finished(result, tally)


def took(result: LoadResult, source: SourceFile, loaded: LoadedFile | None) -> None:
    """One file's outcome added to `result`: loaded, or refused."""
    if loaded is not None:
        result.files.append(loaded)
    elif source.kind == "ruleset" and not source.layer:
        result.ruleset_refused = source.label


def finished(result: LoadResult, tally: Tally) -> LoadResult:
    """`result` once every file was read: stopped past a size bound, or when the ruleset's
    ruleset.yaml was refused whole. Every other file names what it declares: built without
    it, each of its names was said to be unknown, and "found 0 ruleset.yaml" was said (a
    user's trial); the warning says why nothing else is checked."""
    result.stopped = tally.stopped
    if result.ruleset_refused and result.files and not result.stopped and \
            not any(f.kind == "ruleset" for f in result.files):
        result.diagnostics.append(Diagnostic(
            "F003", "the names and effects of the ruleset's other files are not checked until its ruleset.yaml "
            "loads (see its errors; each file's own shape is checked above)",
            severity=WARNING, file=result.ruleset_refused,
            hint="fix ruleset.yaml's errors first: the names every other file uses are declared there"))
        result.stopped = True
    return result
