"""The JSON Schemas of the data files, and checking plain data against them.

This module owns the "checker" step of loading: the pydantic models (models.py) are
the source of truth; `schema_for` turns one into a JSON Schema (draft 2020-12); the
files shipped in the package `legacies.schemas` (schemas/ in the repo) are written by
`python -m legacies.pipeline.schemas` and kept in sync by tests/pipeline/test_schemas.py.
`validate_data` runs jsonschema over data read from YAML and turns every error into a
Diagnostic placed at the offending node, in the designer's words:

S001 other schema violation, S002 missing required property, S003 unknown property,
S004 wrong type, S005 bad value (enum, pattern, minimum, maximum...).
"""

from __future__ import annotations

import difflib
import json
import re
import sys
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from legacies.dsl.diagnostics import Diagnostic
from legacies.pipeline.models import FILE_MODELS
from legacies.pipeline.writes import make_folder, write_files
from legacies.pipeline.yaml_source import YamlPath, bounded

KINDS: tuple[str, ...] = tuple(FILE_MODELS)
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_PACKAGE = "legacies.schemas"

PositionFn = Callable[[YamlPath], tuple[int, int]]

_DESCRIPTIONS = {
    "ruleset": "rules/<name>/ruleset.yaml: a ruleset's vocabulary (counters, zones, kinds, "
    "symbols, events, quantities, options) and limits.",
    "procedures": "rules/<name>/*.yaml: a ruleset's actions, definitions, setup, game flow and scores.",
    "content": "content/<name>/*.yaml: the pieces of a ruleset (cards, tiles, figures...) with their effects.",
    "expansion": "EXPANSION/expansion.yaml: an expansion's name, the ruleset it extends and the vocabulary it adds.",
}
_VALUE_CHECKS = frozenset((
    "enum", "const", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems",
    "uniqueItems", "minProperties", "maxProperties",
))
_TYPE_WORDS = {
    "string": "text", "integer": "a whole number", "number": "a number",
    "boolean": "true or false", "null": "nothing (null)", "object": "a mapping", "array": "a list",
}
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


# --------------------------------------------------------------------------- schemas


def schema_for(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one file kind, generated from its pydantic model."""
    generated = FILE_MODELS[kind].model_json_schema(by_alias=True)
    generated.pop("title", None)
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": f"https://legacies.invalid/schemas/{kind}.schema.json",
        "title": f"Legacies {kind} file",
        "description": _DESCRIPTIONS[kind],
        **generated,
    }


def schema_text(kind: str) -> str:
    """The exact text of a shipped schema file."""
    return json.dumps(schema_for(kind), indent=2, ensure_ascii=False) + "\n"


def schema_filename(kind: str) -> str:
    return f"{kind}.schema.json"


def shipped_schema(kind: str) -> Path:
    """Where the installed schema of a file kind lies (schemas/)."""
    return _default_directory() / schema_filename(kind)


def write_schemas(directory: Path) -> list[Path]:
    """Write every kind's schema into `directory`; returns the files written."""
    make_folder(directory)
    files = {directory / schema_filename(kind): schema_text(kind) for kind in KINDS}
    write_files(files)  # whole, all or none (pipeline/writes.py)
    return list(files)


@lru_cache(maxsize=None)
def load_schema(kind: str) -> dict[str, Any]:
    """The schema shipped in the package `legacies.schemas` (generated if it is missing)."""
    try:
        text = resources.files(SCHEMA_PACKAGE).joinpath(schema_filename(kind)).read_text(encoding="utf-8")
        return json.loads(text)
    except (OSError, ValueError, ModuleNotFoundError):
        return schema_for(kind)


@lru_cache(maxsize=None)
def _validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(load_schema(kind))


# --------------------------------------------------------------------------- validation


def validate_data(
    kind: str,
    data: Any,
    file: str,
    position: PositionFn | None = None,
    *,
    key_position: PositionFn | None = None,
) -> list[Diagnostic]:
    """Every schema violation of `data` as a Diagnostic, in source order.

    `position(path)` gives the (line, column) of a value, `key_position(path)` of a key
    (defaults to `position`); both come from yaml_source.YamlSource.
    """
    return [d for _, d in schema_problems(kind, data, file, position, key_position=key_position)]


def schema_problems(kind: str, data: Any, file: str, position: PositionFn | None = None, *,
                    key_position: PositionFn | None = None) -> list[tuple[YamlPath, Diagnostic]]:
    """validate_data's diagnostics, each with the path of the value it is about (a loader
    that drops one bad item of a file, and checks the rest, knows which)."""
    if kind not in FILE_MODELS:
        return [((), Diagnostic("S001", f"unknown file kind {kind!r} (one of {', '.join(KINDS)})", file=file))]
    place = _Placer(file, position, key_position or position)
    found: list[tuple[tuple[int, int], str, YamlPath, Diagnostic]] = []
    seen: set[tuple[str, int, int, str]] = set()
    for error in _validator(kind).iter_errors(data):
        for path, diagnostic in _convert(error, place):
            key = (diagnostic.code, diagnostic.line, diagnostic.column, diagnostic.message)
            if key not in seen:
                seen.add(key)
                found.append(((diagnostic.line, diagnostic.column), yaml_path(path), path, diagnostic))
    found.sort(key=lambda entry: (entry[0], entry[1], entry[3].code))
    return _misspelt_required([(path, d) for _, _, path, d in found])


def _misspelt_required(found: list[tuple[YamlPath, Diagnostic]]) -> list[tuple[YamlPath, Diagnostic]]:
    """A required property written misspelt is one mistake, said once (a user's trial: `lable:`
    was two errors, the unknown `lable` and the missing `label`): the S003 at the misspelt
    key says which property it stands for, and the S002 of that property goes."""
    missing = {(path, d.message.rsplit("'", 2)[-2]): i for i, (path, d) in enumerate(found)
               if d.code == "S002" and d.message.endswith("'")}
    dropped: set[int] = set()
    out: list[tuple[YamlPath, Diagnostic]] = []
    for path, d in found:
        meant = re.match(r"did you mean '([^']+)'\?", d.hint or "") if d.code == "S003" else None
        at = (path[:-1], meant.group(1)) if meant else None
        if meant is not None and at in missing:
            dropped.add(missing[at])
            d = replace(d, message=f"{d.message}{_STANDS_FOR.format(meant.group(1))}",
                        hint=f"write '{meant.group(1)}' for '{path[-1]}'")
        out.append((path, d))
    return [entry for i, entry in enumerate(out) if i not in dropped]


_STANDS_FOR = ", where the required '{}' is missing"


def misspelt_required(d: Diagnostic) -> str | None:
    """The required key an S003's unknown key stands for (`_misspelt_required`), or None."""
    meant = re.search(_STANDS_FOR.format("([^']+)") + "$", d.message) if d.code == "S003" else None
    return meant.group(1) if meant else None


class _Placer:
    """Builds Diagnostics at a value's or a key's position."""

    def __init__(self, file: str, position: PositionFn | None, key_position: PositionFn | None):
        self.file, self.position, self.key_position = file, position, key_position

    def at(self, path: YamlPath, code: str, message: str, hint: str | None = None, *, key: bool = False) -> Diagnostic:
        locate = self.key_position if key else self.position
        line, column = locate(path) if locate is not None else (1, 1)
        return bounded(Diagnostic(code, message, line, column, hint=hint, file=self.file))


def _convert(error: ValidationError, place: _Placer) -> Iterator[tuple[YamlPath, Diagnostic]]:
    path: YamlPath = tuple(error.absolute_path)
    validator = error.validator
    if validator in ("anyOf", "oneOf") and error.context:
        yield from _convert_alternatives(error, place)
    elif validator == "required":
        yield from _missing(error, path, place)
    elif validator == "additionalProperties" and isinstance(error.instance, dict):
        yield from _unknown(error, path, place)
    elif validator == "type" and not path and error.instance is None:
        yield path, place.at(path, "S004", "the file is empty: expected a mapping of properties",
                             "start it with `format:` and the keys of its kind (docs/authoring.md shows each file)")
    elif validator == "type":
        yield path, place.at(path, "S004", _prefix(path) + _type_message(error.validator_value, error.instance),
                             _quote_hint(error.validator_value, error.instance))
    elif validator in _VALUE_CHECKS:
        yield path, place.at(path, "S005", _prefix(path) + error.message, _enum_hint(error))
    else:
        yield path, place.at(path, "S001", _prefix(path) + error.message)


def _convert_alternatives(error: ValidationError, place: _Placer) -> Iterator[tuple[YamlPath, Diagnostic]]:
    """`X | None` and other unions: report the branch of the right shape, else the types."""
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context or []:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    shaped = [errs for errs in branches.values() if not _only_shape_mismatch(errs, error)]
    if shaped:
        for sub in min(shaped, key=len):
            yield from _convert(sub, place)
        return
    path: YamlPath = tuple(error.absolute_path)
    expected = [t for errs in branches.values() for sub in errs for t in _as_list(sub.validator_value)]
    yield path, place.at(path, "S004", _prefix(path) + _type_message(expected, error.instance))


def _only_shape_mismatch(errors: list[ValidationError], parent: ValidationError) -> bool:
    return all(e.validator == "type" and list(e.absolute_path) == list(parent.absolute_path) for e in errors)


def _missing(error: ValidationError, path: YamlPath, place: _Placer) -> Iterator[tuple[YamlPath, Diagnostic]]:
    instance = error.instance if isinstance(error.instance, dict) else {}
    for name in error.validator_value:
        if name not in instance:
            yield path, place.at(path, "S002", f"{_prefix(path)}missing required property '{name}'")


def _unknown(error: ValidationError, path: YamlPath, place: _Placer) -> Iterator[tuple[YamlPath, Diagnostic]]:
    allowed = list(error.schema.get("properties", {}))
    patterns = [re.compile(p) for p in error.schema.get("patternProperties", {})]
    for name in error.instance:
        if name in allowed or any(p.search(name) for p in patterns):
            continue
        message = f"{_prefix(path)}unknown property '{name}'"
        yield path + (name,), place.at(path + (name,), "S003", message, _did_you_mean(name, allowed), key=True)


# --------------------------------------------------------------------------- words


def yaml_path(path: Iterable[str | int]) -> str:
    """A path the way a designer reads it: `items[3].copies`, `kinds["two words"].label`."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        elif len(step) > 40:
            out += f"[{json.dumps(step[:40])}...]"
        elif _PLAIN_KEY.fullmatch(step):
            out += f".{step}" if out else step
        else:
            out += f"[{json.dumps(step)}]"
    return out


def _prefix(path: YamlPath) -> str:
    return f"{yaml_path(path)}: " if path else ""


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _quote_hint(expected: Any, instance: Any) -> str | None:
    """Where text is expected and YAML read the value as something else (`name: True`,
    `name: 1812`, `name: Null`): quote it. A whole number written with a fraction: say so."""
    wanted = _as_list(expected)
    if "string" in wanted and (instance is None or isinstance(instance, (bool, int, float))):
        return "YAML reads this as " + ("nothing" if instance is None else "true or false" if isinstance(instance, bool)
                                        else "a number") + ": put it in quotes to mean the text (`name: \"True\"`)"
    if "integer" in wanted and isinstance(instance, float):
        return "a whole number: no fraction, no exponent (`1e9` is written 1000000000)"
    return None


def _type_message(expected: Any, instance: Any) -> str:
    words = list(dict.fromkeys(_TYPE_WORDS.get(t, str(t)) for t in _as_list(expected)))
    return f"expected {' or '.join(words)}, got {describe(instance)}"


def describe(value: Any) -> str:
    """A value in a designer's words: `the text 'two'`, `the number 3`, `a list`."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text {shown!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _did_you_mean(name: str, allowed: list[str]) -> str | None:
    if not allowed:
        return "no properties are allowed here"
    close = difflib.get_close_matches(name, allowed, n=1, cutoff=0.7)
    listing = "allowed: " + ", ".join(allowed)
    return f"did you mean '{close[0]}'? {listing}" if close else listing


def _enum_hint(error: ValidationError) -> str | None:
    if error.validator == "pattern" and isinstance(error.instance, str):
        return _pattern_hint(error.instance)
    if error.validator != "enum" or not isinstance(error.instance, str):
        return None
    options = [str(option) for option in error.validator_value]
    close = difflib.get_close_matches(error.instance, options, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def _pattern_hint(text: str) -> str | None:
    """What in a name breaks its pattern, when a person cannot see it (a user's trial: a
    zero-width space in an id was told only the pattern): the first character that is
    invisible, a space of another kind, or a look-alike of a Latin letter, by its code."""
    import unicodedata

    from legacies.dsl.syntax_errors import latin_look_alike

    for n, ch in enumerate(text, 1):
        if ch.isascii():
            continue
        code = f"U+{ord(ch):04X} ({unicodedata.name(ch, 'a control character')})"
        latin = latin_look_alike(ch)
        if latin is not None:
            return f"character {n} is {code}, which looks like `{latin}`: write the Latin `{latin}`"
        if unicodedata.category(ch) in ("Cf", "Cc", "Zs", "Zl", "Zp"):
            return f"character {n} is {code}, which cannot be seen: delete it (it was likely pasted in)"
        return f"character {n} is {code}: names use the letters A-Z and a-z, digits and `_`"
    return None


# --------------------------------------------------------------------------- script


def _default_directory() -> Path:
    return Path(str(resources.files(SCHEMA_PACKAGE)))


def main(argv: list[str] | None = None) -> int:
    """`python -m legacies.pipeline.schemas [DIR]`: write every schema (default: the package's folder)."""
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0]) if args else _default_directory()
    for written in write_schemas(directory):
        print(f"wrote {written}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
