"""Reading one YAML file: plain data, safely, with the position of every node.

This module owns the first step of loading (the "loader" of check-jsonschema's
loader -> checker -> result -> reporter): bytes or text in, a `YamlSource` out.
- The text is composed with ruamel.yaml's round-trip parser into a node graph; no
  Python object is ever constructed from a tag. The plain data (dict, list, str, int,
  float, bool, None) is built here from the nodes, and only the standard tags of
  JSON-like YAML are accepted (str, int, float, bool, null, map, seq, timestamps kept
  as text, merge keys); any other tag (`!!python/object`, `!!binary`, `!custom`) is
  refused with a Diagnostic.
- The nodes are kept, so `position(path)` finds the line and column of any key or
  value and `origin(path)` says where the text of a string value (an effect) starts,
  so that a diagnostic inside an effect can be shifted into the file.
- Every problem is a Diagnostic; nothing here raises.

Codes: F001 unreadable file, Y001 malformed YAML, Y002 duplicate key, Y003 not UTF-8,
Y004 tag refused, Y005 a value that does not fit its explicit tag, Y006 alias that
expands without bound (recursive, or too many values added through aliases), Y007 a
key that is not a scalar, Y008 nesting too deep, F005 a file too large. Reading is
linear in the file's size and never recursive past MAX_DEPTH.
"""

from __future__ import annotations

import re
import threading
import warnings
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Iterator, Union

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.reader import ReaderError

from legacies.dsl.diagnostics import Diagnostic

from .files import MAX_FILE_BYTES, NotRegular, read_regular  # noqa: F401 - MAX_FILE_BYTES is also read from here

PathItem = Union[str, int]
YamlPath = tuple[PathItem, ...]

MAX_ALIAS_NODES = 200_000
"""Aliases may add at most this many values to a document, counted at every use (Y006)."""
MAX_DEPTH = 64
"""Mappings and lists may nest at most this deep (Y008)."""
EXCERPT = 60
"""Characters of a value a message quotes (the rest is elided)."""

_STD = "tag:yaml.org,2002:"
_SCALAR_TAGS = frozenset(_STD + t for t in ("str", "int", "float", "bool", "null", "timestamp"))
_MAP_TAG = _STD + "map"
_SEQ_TAG = _STD + "seq"
_MERGE_TAG = _STD + "merge"
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_TRUES = frozenset(("true", "True", "TRUE"))
_FALSES = frozenset(("false", "False", "FALSE"))
_INFS = frozenset((".inf", ".Inf", ".INF"))
_NANS = frozenset((".nan", ".NaN", ".NAN"))
_BLOCK_HEADER = re.compile(r"[|>]([1-9])?[-+]?([1-9])?")


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, eq=False)
class YamlSource:
    """One parsed YAML file: its plain data, its source lines and its node graph."""

    label: str
    data: Any
    lines: list[str] = field(repr=False)
    root: Node | None = field(repr=False)

    def position(self, path: YamlPath) -> tuple[int, int]:
        """(line, column), 1-based, of the value at `path`; for a missing key, of its parent."""
        line, column, _ = self.span(path)
        return line, column

    def key_position(self, path: YamlPath) -> tuple[int, int]:
        """(line, column) of the key that ends `path` (of the item, in a list)."""
        line, column, _ = self.span(path, key=True)
        return line, column

    def span(self, path: YamlPath, *, key: bool = False) -> tuple[int, int, int | None]:
        """(line, column, end_column or None) of a value (or its key), for a wide caret."""
        found, key_node, node = _walk(self.root, path, self._keys)
        target = node
        if found and key_node is not None and (key or _is_empty(node) or id(node) in self._shared):
            target = key_node  # a value reached through an alias: its own key, not the anchor
        if target is None:
            return 1, 1, None
        return _node_span(target)

    @cached_property
    def _keys(self) -> dict[int, tuple[dict[str, tuple[Node, Node]], list[Node]]]:
        """Each mapping node's children by key, and its merged mappings (`<<:`), indexed
        when first walked through: a file's thousands of positions cost one pass each."""
        return {}

    @cached_property
    def _shared(self) -> frozenset[int]:
        """The nodes reached from more than one place (anchors used by aliases): a
        value there was written at the anchor, so a problem with it is shown at the key
        that uses it. Found once, without recursion, when a position is first asked."""
        seen: set[int] = set()
        shared: set[int] = set()
        stack = [self.root] if self.root is not None else []
        while stack:
            for child in _children(stack.pop()):
                if id(child) in seen:
                    shared.add(id(child))
                    continue
                seen.add(id(child))
                stack.append(child)
        return frozenset(shared)

    def origin(self, path: YamlPath) -> tuple[int, int] | None:
        """(line_offset, column_offset) placing the text of the string at `path` in the file.

        A diagnostic at (l, c) of the string (1-based) is at (l + line_offset,
        c + column_offset) of the file. Exact for one-line plain and quoted scalars and
        for literal blocks (`|`); for folded or multi-line flow scalars only the first
        line is exact. None when `path` is not a string scalar.
        """
        found, _, node = _walk(self.root, path, self._keys)
        if not found or not isinstance(node, ScalarNode) or _tag(node) != _STD + "str":
            return None
        return _scalar_origin(node, self.lines)

    def joined(self, path: YamlPath) -> bool:
        """Whether the string at `path` is written over several lines that YAML joins into
        one (a plain scalar, or one folded with `>`): an effect's lines, read as one."""
        found, _, node = _walk(self.root, path, self._keys)
        return found and isinstance(node, ScalarNode) and _tag(node) == _STD + "str" and _joined(node)


def _joined(node: ScalarNode) -> bool:
    """A plain or folded (`>`) scalar over several lines: YAML reads its lines as one."""
    if node.style not in (None, "", ">") or node.end_mark is None:
        return False
    last = node.end_mark.line - (1 if node.style == ">" and node.end_mark.column == 0 else 0)
    return last > node.start_mark.line + (1 if node.style == ">" else 0)


def lines_of(source: str | bytes) -> list[str]:
    """The source lines used to render carets (bytes decoded leniently)."""
    if isinstance(source, bytes):
        source = source.decode("utf-8-sig", errors="replace")
    return source.splitlines()


# --------------------------------------------------------------------------- entry points


def load_yaml(label: str, source: str | bytes) -> tuple[YamlSource | None, list[Diagnostic]]:
    """Parse one YAML document. None (with diagnostics) when it cannot be read at all."""
    size = len(source.encode("utf-8", errors="surrogatepass")) if isinstance(source, str) else len(source)
    if size > MAX_FILE_BYTES:
        return None, [too_large(label)]
    text, problems = _decode(label, source)
    if text is None:
        return None, problems
    lines = text.splitlines()
    root, problems = _compose(label, text)
    if problems:
        return None, problems
    if root is not None:
        problems = _check_size(label, root)
        if problems:
            return None, problems
    builder = _Builder(label)
    data = builder.build(root) if root is not None else None
    return YamlSource(label, data, lines, root), builder.problems


def read_yaml_file(path: Path, label: str | None = None) -> tuple[YamlSource | None, list[Diagnostic]]:
    """Read and parse a file on disk; a missing or unreadable file is F001."""
    label = label if label is not None else str(path)
    try:
        raw = read_regular(path)
    except NotRegular as exc:
        return None, [not_regular(label, exc)]
    except OSError as exc:
        return None, [unreadable(label, exc)]
    return load_yaml(label, raw)


def unreadable(label: str, exc: BaseException) -> Diagnostic:
    """The F001 diagnostic for a file that cannot be read."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return Diagnostic("F001", f"cannot read {label}: {excerpt(reason, 200)}", file=label)


def not_regular(label: str, exc: OSError) -> Diagnostic:
    """F006: a path that is not a regular file (a FIFO, a device...), never read."""
    return Diagnostic("F006", f"cannot read {label}: {exc.strerror or 'not a regular file'}", file=label,
                      hint="give a YAML file")


def symlink_loop(label: str) -> Diagnostic:
    """F007 (a warning): a folder reached a second time while walking, not read again."""
    return Diagnostic("F007", "this folder was already read (a symbolic link loop, or a second link to it): "
                      "not read again", file=label, severity="warning")


def walk_diagnostic(label: str, problem: OSError) -> Diagnostic:
    """What the walk of a folder did not read (pipeline/walk.py), said at its place: a
    loop F007 (a warning: read once), a link out of the folder F010, the walk's bounds
    F011, not a regular file F006, any other OS error F001, in words."""
    from .walk import NotRegular, OutsideFolder, SymlinkLoop, WalkBound, os_sentence

    if isinstance(problem, SymlinkLoop):
        return symlink_loop(label)
    if isinstance(problem, NotRegular):
        return not_regular(label, problem)
    if isinstance(problem, OutsideFolder):
        return Diagnostic("F010", f"not read: {problem.strerror}", file=label,
                          hint="a ruleset or expansion folder holds its own files: copy the file or folder in "
                          "instead of linking to it")
    if isinstance(problem, WalkBound):
        return Diagnostic("F011", f"not read: {problem.strerror}", file=label,
                          hint="a ruleset holds its files in rules/NAME/ and content/NAME/: give the folder that "
                          "holds them, or fewer files and folders")
    return Diagnostic("F001", f"cannot read {label}: {excerpt(os_sentence(problem), 200)}", file=label)


MAX_MESSAGE = 400  # characters of a message or a hint


def bounded(d: Diagnostic) -> Diagnostic:
    """The diagnostic with its message and hint cut to MAX_MESSAGE characters: a value
    quoted from a file never makes the output (or the memory) grow with the file."""
    if len(d.message) <= MAX_MESSAGE and (d.hint is None or len(d.hint) <= MAX_MESSAGE):
        return d
    hint = d.hint if d.hint is None or len(d.hint) <= MAX_MESSAGE else excerpt(d.hint, MAX_MESSAGE)
    return replace(d, message=excerpt(d.message, MAX_MESSAGE), hint=hint)


def too_large(label: str) -> Diagnostic:
    """F005: a file past MAX_FILE_BYTES (not read further)."""
    return Diagnostic("F005", f"the file is too large: a data file may hold at most {MAX_FILE_BYTES:,} bytes "
                      f"({MAX_FILE_BYTES // 1024} KiB); it is not read further",
                      file=label, hint="split it: a ruleset's content may be spread over any number of files")


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """A value as a message quotes it: its text (or repr), at most `limit` characters."""
    text = value if isinstance(value, str) else repr(value) if not isinstance(value, (dict, list)) else \
        ("a mapping" if isinstance(value, dict) else "a list")
    if len(text) <= limit:
        return text
    return text[:limit] + f"... ({len(text):,} characters)"



def without_items(source: YamlSource, key: str, dropped: set[int]) -> YamlSource | None:
    """`source` with the members `dropped` (indexes) of its top-level list `key` taken out,
    of its data and of its node graph alike: every position of what is left stays where
    it was written. None when the list is not written as a plain list there (an alias)."""
    import copy

    data, root = source.data, source.root
    if not isinstance(data, dict) or not isinstance(data.get(key), list) or not isinstance(root, MappingNode):
        return None
    for n, (k, v) in enumerate(root.value):
        if isinstance(k, ScalarNode) and k.value == key:
            if not isinstance(v, SequenceNode) or len(v.value) != len(data[key]):
                return None
            kept = copy.copy(v)
            kept.value = [node for i, node in enumerate(v.value) if i not in dropped]
            new_root = copy.copy(root)
            new_root.value = root.value[:n] + [(k, kept)] + root.value[n + 1:]
            new_data = dict(data)
            new_data[key] = [item for i, item in enumerate(data[key]) if i not in dropped]
            return YamlSource(source.label, new_data, source.lines, new_root)
    return None

def with_keys_mended(source: YamlSource, mends: dict[tuple[Any, ...], str | None]) -> YamlSource | None:
    """`source` with mapping keys mended, at any depth: a key taken out (None) or renamed
    (`lable` read as `label`), of its data and of its node graph alike, every position
    where it was written. A path runs through mappings (names) and lists (indexes). None
    when a path is not written plainly there (an alias, a merge key, a key that is not text)."""
    import copy

    def mend(data: Any, node: Node, path: tuple[Any, ...], new: str | None) -> tuple[Any, Node] | None:
        step, rest = path[0], path[1:]
        if isinstance(node, SequenceNode) and isinstance(data, list) and isinstance(step, int):
            if not 0 <= step < len(node.value) or len(node.value) != len(data):
                return None
            done = mend(data[step], node.value[step], rest, new) if rest else None
            if done is None:
                return None
            data, node = list(data), copy.copy(node)
            node.value = list(node.value)
            data[step], node.value[step] = done
            return data, node
        if not isinstance(node, MappingNode) or not isinstance(data, dict) or step not in data:
            return None
        for n, (k, v) in enumerate(node.value):
            if isinstance(k, ScalarNode) and k.value == step:
                data, node = dict(data), copy.copy(node)
                node.value = list(node.value)
                if rest:
                    done = mend(data[step], v, rest, new)
                    if done is None:
                        return None
                    data[step], child = done
                    node.value[n] = (k, child)
                elif new is None:
                    del data[step]
                    del node.value[n]
                else:
                    if new in data:
                        return None
                    key = copy.copy(k)
                    key.value = new
                    data = {new if name == step else name: value for name, value in data.items()}
                    node.value[n] = (key, v)
                return data, node
        return None

    data, root = source.data, source.root
    for path, new in mends.items():
        if not path or root is None:
            return None
        done = mend(data, root, path, new)
        if done is None:
            return None
        data, root = done
    return YamlSource(source.label, data, source.lines, root)

# --------------------------------------------------------------------------- decoding and parsing


def _decode(label: str, source: str | bytes) -> tuple[str | None, list[Diagnostic]]:
    if isinstance(source, str):
        return source.removeprefix("\ufeff"), []
    try:
        return source.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line, column = _byte_position(source, exc.start)
        message = f"not valid UTF-8: byte 0x{source[exc.start]:02x} cannot be decoded"
        hint = "save the file as UTF-8"
        return None, [Diagnostic("Y003", message, line, column, hint=hint, file=label)]


def _byte_position(raw: bytes, offset: int) -> tuple[int, int]:
    before = raw[:offset]
    return before.count(b"\n") + 1, offset - (before.rfind(b"\n") + 1) + 1


def _compose(label: str, text: str) -> tuple[Node | None, list[Diagnostic]]:
    # ruamel's C parser (ruamel.yaml.clib; pure Python where no wheel exists) is ten
    # times faster than the round-trip one, but its composer recurses in C: nesting is
    # measured first from the parser's events, which never recurse.
    yaml = _yaml()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            deep = _deep_position(yaml, text)
            if deep is not None:
                return None, [_too_deep(label, *deep)]
            return yaml.compose(text), []
    except MarkedYAMLError as exc:
        return None, [_marked_error(label, exc, text)]
    except ReaderError as exc:
        return None, [_reader_error(label, text, exc)]
    except YAMLError as exc:
        return None, [Diagnostic("Y001", f"malformed YAML: {excerpt(str(exc), 200)}", file=label)]
    except RecursionError:
        return None, [_too_deep(label, 1, 1)]
    # anything else is a bug (ours or the YAML library's), never "malformed YAML": an
    # internal error for the ruleset (pipeline/internal_errors.py), its traceback kept


_LOADERS = threading.local()


def _yaml() -> YAML:
    """This thread's YAML reader, made once: making one per file looked for plug-ins on
    disk each time (a glob), a fifth of the cost of a small file."""
    yaml = getattr(_LOADERS, "yaml", None)
    if yaml is None:
        yaml = _LOADERS.yaml = YAML(typ="safe", pure=False)
    return yaml


def _too_deep(label: str, line: int, column: int) -> Diagnostic:
    return Diagnostic("Y008", f"mappings and lists nest more than {MAX_DEPTH} levels deep", line, column,
                      file=label, hint="data files need only a few levels: check the indentation and brackets")


def _deep_position(yaml: YAML, text: str) -> tuple[int, int] | None:
    """Where the nesting first passes MAX_DEPTH (None when it never does), from the
    parser's events. A malformed file raises the parser's own error here."""
    depth = 0
    for event in yaml.parse(text):
        if isinstance(event, CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        elif isinstance(event, CollectionEndEvent):
            depth -= 1
    return None


def _marked_error(label: str, exc: MarkedYAMLError, text: str = "") -> Diagnostic:
    """The parser's error, at the place a person would fix: an unclosed quote or bracket
    at where it opens (the parser notices it at the end of the file), a tab at the tab;
    the commonest mistakes said in words, with a hint that fixes them."""
    lines = text.splitlines()
    problem, context = exc.problem or "", exc.context or ""
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    if lines and line > len(lines):  # past the end: the last line
        line, column = len(lines), len(lines[-1]) + 1
    opened = exc.context_mark
    at_open = (opened.line + 1, opened.column + 1) if opened is not None else (line, column)
    message, hint = f"malformed YAML: {problem or context or 'malformed YAML'}", None
    if context == "while scanning a quoted scalar" and "end of stream" in problem:
        quote = _char_at(lines, *at_open) or "quote"
        return Diagnostic("Y001", f"malformed YAML: this {quote} is never closed", *at_open, file=label,
                          hint="close it where the text ends; a text of several lines is written after `|` "
                               "(kept as written) or `>` (joined into one)")
    if context.startswith("while parsing a flow ") and problem.startswith("did not find expected"):
        bracket = _char_at(lines, *at_open) or "bracket"
        closing = {"[": "]", "{": "}"}.get(bracket, "the bracket")
        return Diagnostic("Y001", f"malformed YAML: this `{bracket}` is not closed before line {line}", *at_open,
                          file=label, hint=f"close it with `{closing}`, or write the entries as a block, one per line")
    if "tab" in problem or (problem == "found character that cannot start any token" and _char_at(lines, line, column) == "\t"):
        message, hint = "malformed YAML: a tab where YAML wants spaces", "indent with spaces, never tabs"
    elif problem == "mapping values are not allowed in this context":
        hint = "a value with `: ` in it is quoted: `name: \"a: b\"`, or written after `|`"
    elif problem == "did not find expected key" and context == "while parsing a block mapping":
        message = "malformed YAML: this line's indentation lines up with no key above it"
        hint = "indent it as the keys it belongs with"
    elif problem == "did not find expected '-' indicator":
        message = "malformed YAML: this line's indentation matches neither the list above it nor its entries"
        hint = "a list's entries start with `- ` at one indentation; an entry's keys line up with its first key"
    elif context and problem:
        hint = context + (f" (line {at_open[0]}, column {at_open[1]})" if opened is not None else "")
    return Diagnostic("Y001", message, line, column, hint=hint, file=label)


def _char_at(lines: list[str], line: int, column: int) -> str:
    if 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]):
        return lines[line - 1][column - 1]
    return ""


def _reader_error(label: str, text: str, exc: ReaderError) -> Diagnostic:
    offset = exc.position if isinstance(exc.position, int) else 0
    before = text[:offset]
    line, column = before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1
    char = exc.character if isinstance(exc.character, str) else chr(exc.character)
    message = f"malformed YAML: the character {char!r} cannot appear in a YAML file"
    return Diagnostic("Y001", message, line, column, hint=str(exc.reason), file=label)


# --------------------------------------------------------------------------- alias bombs


def _check_size(label: str, root: Node) -> list[Diagnostic]:
    """Refuse nesting past MAX_DEPTH (Y008), recursive aliases and aliases that add more
    than MAX_ALIAS_NODES values to the document (Y006). Without recursion, in time
    linear in the number of distinct nodes: each node's expanded size is computed once."""
    sizes: dict[int, int] = {}
    active: set[int] = set()
    stack: list[tuple[Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        if done:
            active.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in _children(node))
            continue
        if key in sizes:
            continue
        if key in active:
            line, column, _ = _node_span(node)
            return [Diagnostic("Y006", "an alias refers to a node that contains it", line, column, file=label)]
        if depth > MAX_DEPTH:
            line, column, _ = _node_span(node)
            return [_too_deep(label, line, column)]
        active.add(key)
        stack.append((node, depth, True))
        stack.extend((child, depth + 1, False) for child in _children(node))
    added = sizes[id(root)] - len(sizes)  # values that exist only through aliases
    if added > MAX_ALIAS_NODES:
        message = f"aliases add more than {MAX_ALIAS_NODES:,} values to the document"
        return [Diagnostic("Y006", message, file=label,
                           hint="an alias copies what its anchor holds at every use: use fewer, or smaller, aliases")]
    return []


def _children(node: Node) -> Iterator[Node]:
    if isinstance(node, MappingNode):
        for key_node, value_node in node.value:
            yield key_node
            yield value_node
    elif isinstance(node, SequenceNode):
        yield from node.value


# --------------------------------------------------------------------------- building plain data


class _Builder:
    """Nodes -> plain data, collecting Y002, Y004, Y005 and Y007 on the way."""

    def __init__(self, label: str):
        self.label = label
        self.problems: list[Diagnostic] = []

    def problem(self, code: str, message: str, node: Node, hint: str | None = None) -> None:
        line, column, end = _node_span(node)
        self.problems.append(bounded(Diagnostic(code, message, line, column, hint=hint, file=self.label,
                                                end_column=end)))

    def build(self, node: Node) -> Any:
        tag = _tag(node)
        if isinstance(node, MappingNode) and tag == _MAP_TAG:
            return self.mapping(node)
        if isinstance(node, SequenceNode) and tag == _SEQ_TAG:
            return [self.build(item) for item in node.value]
        if isinstance(node, ScalarNode) and tag in _SCALAR_TAGS:
            return self.scalar(node, tag)
        self.problem("Y004", f"the tag {excerpt(_short(tag))} is not allowed", node,
                     "only plain YAML is allowed: mappings, lists, text, numbers, true/false, null")
        return None

    def mapping(self, node: MappingNode) -> dict[str, Any]:
        out: dict[str, Any] = {}
        merged: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if _tag(key_node) == _MERGE_TAG:
                merged = {**self.merge_source(value_node), **merged}
                continue
            key = self.key(key_node)
            if key is None:
                continue
            if key in out:
                self.problem("Y002", f"duplicate key '{excerpt(key)}'", key_node, "a key may appear once in a mapping")
            out[key] = self.build(value_node)
        return {**merged, **out}

    def merge_source(self, node: Node) -> dict[str, Any]:
        """The mapping(s) a `<<:` key merges in (earlier ones win, as in YAML 1.1)."""
        sources = node.value if isinstance(node, SequenceNode) else [node]
        merged: dict[str, Any] = {}
        for source in reversed(sources):
            value = self.build(source)
            if isinstance(value, dict):
                merged.update(value)
            else:
                self.problem("Y004", "`<<` merges only mappings", source)
        return merged

    def key(self, node: Node) -> str | None:
        if isinstance(node, ScalarNode) and _tag(node) in _SCALAR_TAGS:
            return _key_text(node)
        self.problem("Y007", "a key must be a plain value (text or a number)", node)
        return None

    def scalar(self, node: ScalarNode, tag: str) -> Any:
        try:
            return _scalar_value(node, tag)
        except ValueError:
            self.problem("Y005", f"{excerpt(repr(str(node.value)))} is not a valid {_short(tag)[2:]}", node)
            return None


def _tag(node: Node) -> str:
    tag = node.tag
    return str(getattr(tag, "value", tag))


def _short(tag: str) -> str:
    return "!!" + tag[len(_STD):] if tag.startswith(_STD) else tag


def _key_text(node: ScalarNode) -> str:
    return str(node.value)


def _scalar_value(node: ScalarNode, tag: str) -> Any:
    text = str(node.value)
    kind = tag[len(_STD):]
    if kind == "str":
        return text.replace("\a", "") if node.style == ">" else text
    if kind == "timestamp":
        return text
    if kind == "null":
        if text not in _NULLS:
            raise ValueError(text)
        return None
    if kind == "bool":
        if text not in _TRUES | _FALSES:
            raise ValueError(text)
        return text in _TRUES
    if kind == "int":
        return _parse_int(text)
    return _parse_float(text)


def _parse_int(text: str) -> int:
    body = text.replace("_", "")
    sign = -1 if body.startswith("-") else 1
    body = body.lstrip("+-")
    for prefix, base in (("0x", 16), ("0o", 8), ("0b", 2)):
        if body.lower().startswith(prefix):
            return sign * int(body[2:], base)
    if not body.isdigit():
        raise ValueError(text)
    return sign * int(body, 10)


def _parse_float(text: str) -> float:
    body = text.replace("_", "")
    sign = -1.0 if body.startswith("-") else 1.0
    bare = body.lstrip("+-")
    if bare in _INFS:
        return sign * float("inf")
    if body in _NANS:
        return float("nan")
    if not re.fullmatch(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?", body):
        raise ValueError(text)
    return float(body)


# --------------------------------------------------------------------------- positions


def _walk(root: Node | None, path: YamlPath,
          index: dict[int, tuple[dict[str, tuple[Node, Node]], list[Node]]] | None = None,
          ) -> tuple[bool, Node | None, Node | None]:
    """Follow `path` from the root: (found, the key node of the last step, the node reached).

    When a step is missing, the walk stops at the deepest node found (the parent).
    `index` keeps each mapping's keys between walks (see YamlSource._keys).
    """
    node, key_node = root, None
    for step in path:
        child = _child(node, step, {} if index is None else index)
        if child is None:
            return False, key_node, node
        key_node, node = child
    return True, key_node, node


def _child(node: Node | None, step: PathItem,
           index: dict[int, tuple[dict[str, tuple[Node, Node]], list[Node]]]) -> tuple[Node, Node] | None:
    if isinstance(node, SequenceNode) and isinstance(step, int) and not isinstance(step, bool):
        if 0 <= step < len(node.value):
            return node.value[step], node.value[step]
        return None
    if not isinstance(node, MappingNode):
        return None
    keys = index.get(id(node))
    if keys is None:
        by_key: dict[str, tuple[Node, Node]] = {}
        merges: list[Node] = []
        for key_node, value_node in node.value:
            if _tag(key_node) == _MERGE_TAG:
                merges.extend(value_node.value if isinstance(value_node, SequenceNode) else [value_node])
            elif isinstance(key_node, ScalarNode):
                by_key[_key_text(key_node)] = (key_node, value_node)  # a repeated key: the later stands
        keys = index[id(node)] = (by_key, merges)
    found = keys[0].get(str(step))
    if found is not None:
        return found
    for merged in keys[1]:
        child = _child(merged, step, index)
        if child is not None:
            return child
    return None


def _is_empty(node: Node | None) -> bool:
    """An empty value (`key:` alone): ruamel marks it at the next line, so use the key."""
    return isinstance(node, ScalarNode) and node.value == "" and not node.style


def _node_span(node: Node) -> tuple[int, int, int | None]:
    start, end = node.start_mark, node.end_mark
    end_column = end.column + 1 if end is not None and end.line == start.line and end.column > start.column else None
    if isinstance(node, ScalarNode) and node.style in ("|", ">"):
        end_column = None
    return start.line + 1, start.column + 1, end_column


def _scalar_origin(node: ScalarNode, lines: list[str]) -> tuple[int, int]:
    line0, column0 = node.start_mark.line, node.start_mark.column
    if node.style in ("|", ">"):
        return line0 + 1, _block_indent(lines, line0, column0)
    quoted = 1 if node.style in ('"', "'") else 0
    return line0, column0 + quoted


def _block_indent(lines: list[str], header_line0: int, header_column0: int) -> int:
    """The indentation of a block scalar's content: explicit (`|2`) or its first non-blank line."""
    header = lines[header_line0][header_column0:] if header_line0 < len(lines) else ""
    match = _BLOCK_HEADER.match(header)
    explicit = match and (match.group(1) or match.group(2))
    if explicit:
        parent = lines[header_line0]
        return len(parent) - len(parent.lstrip(" ")) + int(explicit)
    for text in lines[header_line0 + 1:]:
        if text.strip():
            return len(text) - len(text.lstrip(" "))
    return 0
