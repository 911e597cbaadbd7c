"""Compile-time filters: a `where` condition that reads only fixed attributes of `it`
compared with constants is decided once per piece and per definition (True, False,
or None where the condition must still run).
"""

from __future__ import annotations

from typing import Any, Callable

from legacies.dsl import ast
from legacies.dsl import resolution as r

from .columns import Columns
from .context import CompileContext


_STATIC_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda v, c: v == c, "!=": lambda v, c: v != c, ">": lambda v, c: v > c,
    "<": lambda v, c: v < c, ">=": lambda v, c: v >= c, "<=": lambda v, c: v <= c}


_MIRRORED = {">": "<", "<": ">", ">=": "<=", "<=": ">="}


def _and3(x: bool | None, y: bool | None) -> bool | None:
    """`and` of decided (True/False) and undecided (None) tests, left first as the
    condition runs: an undecided left side leaves the whole undecided."""
    return x if x is not True else y


def _or3(x: bool | None, y: bool | None) -> bool | None:
    return x if x is not False else y


# `count of (C where T) OP N` that only asks whether any member passes: (OP, N) -> the
# answer when one does (the walk stops at the first)
_EXISTS: dict[tuple[str, int], bool] = {(">", 0): True, (">=", 1): True, ("!=", 0): True,
                                        ("=", 0): False, ("<", 1): False, ("<=", 0): False}


def existence(ctx: CompileContext, e: ast.Compare) -> tuple[ast.Where, bool] | None:
    """(the filter, True for "some pass" / False for "none pass") when `e` compares the
    count of a filtered collection with 0 or 1 only to ask whether any member passes;
    None otherwise. Both the closures and the generated code then stop at the first
    member that passes, so both charge and fail alike."""
    count, number, op = e.left, e.right, e.op
    if isinstance(count, ast.Num):  # `0 < count of ...`
        count, number, op = number, count, _MIRRORED.get(op, op)
    if not (isinstance(number, ast.Num) and isinstance(count, ast.Of) and isinstance(count.subject, ast.Where)):
        return None
    ref = ctx.ref(count)
    if not (isinstance(ref, r.BuiltinOf) and ref.name == "count" and ctx.type_of(count.subject).is_collection):
        return None
    some = _EXISTS.get((op, number.value))
    return None if some is None else (count.subject, some)


class StaticFilters:
    """Filters decided once per piece and per definition, kept by the test they make."""

    def __init__(self, ctx: CompileContext, columns: Columns):
        self.ctx = ctx
        self.columns = columns
        self._static: dict[tuple, tuple[list[bool | None], list[bool | None]]] = {}

    def static_test(self, e: ast.Expr) -> tuple[list[bool | None], list[bool | None]] | None:
        """A filter that reads only fixed attributes of `it` compared with constants
        (`its suit is hearts and its cost > 2`), decided once per piece and per
        definition: True, False, or None where the condition must run (an order on a
        missing number, which is a located error). None for any other condition.
        Built once per distinct test in a ruleset (content repeats the same filters)."""
        key = self._static_key(e)
        return None if key is None else self.static_test_of(key)

    def _static_key(self, e: ast.Expr) -> tuple | None:
        """The test a condition makes, resolved: ("=", attribute, constant), ("and", A, B),
        ("not", A); None when it reads anything but fixed attributes of `it`."""
        if isinstance(e, ast.BoolOp):
            left, right = self._static_key(e.left), self._static_key(e.right)
            return None if left is None or right is None else (e.op, left, right)
        if isinstance(e, ast.Not):
            inner = self._static_key(e.operand)
            return None if inner is None else ("not", inner)
        if not isinstance(e, ast.Compare) or e.op not in _STATIC_OPS:
            return None
        attr, const, op = e.left, e.right, e.op
        if not self._its_attribute(attr):
            attr, const, op = e.right, e.left, _MIRRORED.get(op, op)
        if not self._its_attribute(attr) or not isinstance(const, (ast.Name, ast.Num)):
            return None
        assert isinstance(attr, ast.Of)
        if isinstance(const, ast.Name):
            ref = self.ctx.ref(const)
            if not isinstance(ref, r.Symbol):
                return None
            value: Any = ref.symbol
        else:
            value = const.value
        if self.ctx.type_of(attr).tag not in ("symbol", "amount", "text"):
            return None
        if any(self.columns.era_column(attr.name, self.columns.column(attr.name)[1])):
            return None
        return (op, attr.name, value)

    def _decide(self, key: tuple) -> tuple[list[bool | None], list[bool | None]]:
        if key[0] in ("and", "or"):
            left, right = self.static_test_of(key[1]), self.static_test_of(key[2])
            both = _and3 if key[0] == "and" else _or3
            return ([both(x, y) for x, y in zip(left[0], right[0])], [both(x, y) for x, y in zip(left[1], right[1])])
        if key[0] == "not":
            inner = self.static_test_of(key[1])
            return [None if x is None else not x for x in inner[0]], [None if x is None else not x for x in inner[1]]
        op, name, value = key
        by_piece, by_def = self.columns.column(name)
        test = _STATIC_OPS[op]
        if op in ("=", "!="):
            def decide(v: Any) -> bool | None:
                return test(v, value) if v is None or type(v) in (int, str) else None
        else:  # an order needs a number (a missing one is an error the condition reports)
            def decide(v: Any) -> bool | None:
                return test(v, value) if type(v) is int else None
        return [decide(v) for v in by_piece], [decide(v) for v in by_def]

    def static_test_of(self, key: tuple) -> tuple[list[bool | None], list[bool | None]]:
        found = self._static.get(key)
        if found is None:
            found = self._static[key] = self._decide(key)
        return found

    def _its_attribute(self, e: ast.Expr) -> bool:
        return isinstance(e, ast.Of) and isinstance(e.subject, ast.It) and isinstance(self.ctx.ref(e), r.Attribute)
