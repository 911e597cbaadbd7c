"""Plain JSON forms of what the caches keep between processes, read back without running
anything: syntax trees (dsl/parse_cache.py) and Lark's parse tables (dsl/grammar_cache.py).

A cache folder is a place other programs (or people) can write to; what it holds is
data, never code (pickle, which both caches used, calls whatever a file names). So:

- a tree is JSON: a node is `{"k": its class, "f": [its fields], "s": [its span]}`, a
  span alone `{"k": 0, "s": [...]}`, a tuple a list. Decoding builds only the classes of
  dsl/ast.py, each with exactly its fields; anything else (another class number, another
  number of fields, a span that is not four whole numbers) is TreeMismatch. JSON holds
  no shared references, so a tree read back is a tree (never a graph that a walk would
  follow exponentially often).
- Lark's data is dicts, lists, tuples, text, numbers, yes/no and null; JSON keeps dicts
  with text keys, and the rest is tagged (`{"\\u0000items": [[key, value]...]}`,
  `{"\\u0000tuple": [...]}`).

Both raise TreeMismatch (or json's ValueError, RecursionError) on data they do not
expect: the caller parses again.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from . import ast

_CLASSES: list[type] = [ast.Span] + sorted(ast.node_classes(), key=lambda c: c.__name__)
_NUMBER = {c: i for i, c in enumerate(_CLASSES)}
_FIELDS: list[tuple[str, ...]] = [()] + [tuple(f.name for f in fields(c) if f.name != "span") for c in _CLASSES[1:]]
_new = object.__new__
_set = object.__setattr__


class TreeMismatch(ValueError):
    """Cached data that is not what this version writes."""


# --------------------------------------------------------------------------- trees
def dump_tree(node: ast.Node) -> str:
    return json.dumps(_plain(node), separators=(",", ":"), ensure_ascii=False)


def _plain(value: Any) -> Any:
    if isinstance(value, ast.Node):
        out: dict[str, Any] = {"k": _NUMBER[type(value)],
                               "f": [_plain(getattr(value, name)) for name in _FIELDS[_NUMBER[type(value)]]]}
        if value.span is not None:
            out["s"] = _span_list(value.span)
        return out
    if isinstance(value, ast.Span):
        return {"k": 0, "s": _span_list(value)}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float)):  # bool is an int
        return value
    raise TypeError(f"a syntax tree holds {type(value).__name__}, which the cache cannot keep")


def _span_list(span: ast.Span) -> list[int]:
    return [span.line, span.column, span.end_line, span.end_column]


def load_tree(text: str | bytes) -> ast.Node:
    """The tree `dump_tree` wrote; TreeMismatch (a ValueError) for anything else."""
    try:
        tree = json.loads(text, object_hook=_node)
    except (KeyError, IndexError, TypeError) as err:
        raise TreeMismatch(f"not a tree: {type(err).__name__}") from None
    if not isinstance(tree, ast.Node):
        raise TreeMismatch("not a tree")
    return tree


def _node(d: dict[str, Any]) -> Any:
    k = d["k"]
    if type(k) is not int or not 0 <= k < len(_CLASSES) or len(d) > 3:
        raise TreeMismatch("an unknown node")
    span = d.get("s")
    if span is not None:
        if type(span) is not list or len(span) != 4 or any(type(x) is not int for x in span):
            raise TreeMismatch("a span is four whole numbers")
        made = _new(ast.Span)
        _set(made, "line", span[0])
        _set(made, "column", span[1])
        _set(made, "end_line", span[2])
        _set(made, "end_column", span[3])
        span = made
    if k == 0:
        if span is None:
            raise TreeMismatch("a span without its numbers")
        return span
    names = _FIELDS[k]
    values = d["f"]
    if type(values) is not list or len(values) != len(names):
        raise TreeMismatch("a node with other fields")
    node: Any = _new(_CLASSES[k])
    _set(node, "span", span)
    for name, value in zip(names, values):
        _set(node, name, _tuples(value) if type(value) is list else value)
    return node


def _tuples(value: list[Any]) -> tuple[Any, ...]:
    return tuple(_tuples(v) if type(v) is list else v for v in value)


# --------------------------------------------------------------------------- plain data
_ITEMS = "\u0000items"
_TUPLE = "\u0000tuple"


def dump_data(value: Any) -> str:
    return json.dumps(_tagged(value), separators=(",", ":"))


def _tagged(value: Any) -> Any:
    if isinstance(value, dict):
        if all(type(k) is str for k in value) and _ITEMS not in value and _TUPLE not in value:
            return {k: _tagged(v) for k, v in value.items()}
        return {_ITEMS: [[_tagged(k), _tagged(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {_TUPLE: [_tagged(v) for v in value]}
    if isinstance(value, list):
        return [_tagged(v) for v in value]
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"{type(value).__name__} is not plain data")


def load_data(text: str | bytes) -> Any:
    """The data `dump_data` wrote (dicts, lists, tuples, text, numbers)."""
    try:
        return json.loads(text, object_hook=_untagged)
    except TypeError as err:  # a key that cannot be one (a list)
        raise TreeMismatch(f"not plain data: {err}") from None


def _untagged(d: dict[str, Any]) -> Any:
    if _ITEMS in d:
        return {k: v for k, v in d[_ITEMS]}
    if _TUPLE in d:
        return tuple(d[_TUPLE])
    return d
