"""Expressions of one piece's printed attributes, worked out per piece when the code is
written: `count of (X's cost where it is ore)` for a parameter X of a kind is one number
per piece of that kind, whatever the state, so generated code reads it from a table
(`_ft7[_p0]`) instead of walking the list at every call.

An expression is tabled when everything it reads is fixed for the piece: attributes of
that one piece with no era values, the members of its printed lists (symbols and
numbers), constants (numbers, texts, symbols) and the operators over them; it names one
piece (a definition's parameter, or `it` of a filter over pieces) and does some work (a
walk, a count, or two attributes read). Its value must be a number, a yes/no, a text or a
symbol: a table never hands out a list another statement could change.

Each piece of the variable's kind is worked out once, by the expression's own generated
code run with a state that holds nothing but a step counter (what it reads is all in
the code's constant columns). A piece whose value cannot be worked out (an error: a
missing attribute, a division by zero) is left out of the table: at that piece the
expression runs as it would untabled and reports its error where it stands; so does a
piece whose value is not a number, a yes/no or a text, and a card name (not a piece) in
place of the piece. Running the code in that bare state is what makes a table safe: any
read of the game (a counter, a zone, the acting player) is refused there (_ReadsTheGame),
and the piece runs the expression as written. Any other failure is a bug of the
generator: the compile stops with an InternalError naming the piece and the expression.
A table read is not charged to the step budget: what it stands for is fixed work per
piece, done once per Game.
"""

from __future__ import annotations

import ast as pyast
import keyword
import re
from typing import Any, Callable

from legacies.dsl import ast, printer
from legacies.dsl import resolution as r

from ..compile.columns import Columns
from ..compile.context import CompileContext
from ..errors import ContentError, InternalError
from .runtime import NOT_TABLED, Reads, Scope, Unsupported
from .writer import CodeWriter

_CONST = ("const",)  # the analysis's mark for "fixed, names no piece"

# the kinds of value a table may hold (never a collection: a list is another's to change)
_SCALAR_TAGS = frozenset({"amount", "flag", "text", "symbol"})

# attribute types whose values are fixed data (never effects, which run)
_FIXED_TAGS = frozenset({"amount", "flag", "text", "symbol", "symbols", "numbers", "counter", "counters"})
_LISTS = ("symbols", "numbers", "counters")  # printed lists a fixed expression may walk


class _ReadsTheGame(Exception):
    """The code a table's entry is worked out by touched the state beyond its step counter:
    the expression is not fixed for that piece after all."""


class _Probe:
    """The state a table's entries are worked out in: a step counter and nothing else
    (a table's expression reads only the code's constant columns, so touching anything
    else says _ReadsTheGame, and the piece is left out of the table)."""

    __slots__ = ("spent", "limit")

    def __init__(self) -> None:
        self.spent = 0
        self.limit = 1 << 62

    def __getattr__(self, name: str) -> Any:
        raise _ReadsTheGame(name)


class PieceTables:
    """Finds the expressions worth a table and writes their reads (ExpressionWriter asks
    `read` of every node of MAY_TABLE's kinds it writes)."""

    def __init__(self, ctx: CompileContext, writer: CodeWriter, columns: Columns):
        self.ctx = ctx
        self.writer = writer
        self.columns = columns
        self._working = False  # writing a table's own expression: nothing inside it is tabled again
        self._tables: dict[tuple[str, str], str | None] = {}  # (kind, its code) -> the table's name

    def read(self, e: ast.Expr, s: Scope, write: Callable[[ast.Expr, Scope, Reads], str],
             reads: Reads) -> str | None:
        """`e` (one of MAY_TABLE) read from a table by piece, or None when it is not one
        (`write` writes a node as the generator does)."""
        if self._working or (type(e) is ast.Of and e.name != "count"):
            return None  # (an attribute alone is a column already)
        if not s.params and not _name(s.it):
            return None  # no piece here to be the table's (a definition's parameter, or a filter's member)
        if self.ctx.type_of(e).tag not in _SCALAR_TAGS:
            return None
        found = self._analyse(e, None, s)
        if found is None or found is _CONST or not self._worth(e):
            return None
        var, kind = found
        table = self._table(e, var, kind, s, write)
        if table is None:
            return None
        written = write(e, s, reads)  # where the table has no entry, and for a card name
        return f"({table}[{var}] if type({var}) is int and {table}[{var}] is not _NOT_TABLED else {written})"

    # ------------------------------------------------------------------ the analysis
    def _analyse(self, e: ast.Expr, it: Any, s: Scope) -> Any:
        """What `e` depends on: _CONST (nothing), (variable, kind) (one piece, by the
        Python name it has in `s`), or None (anything else: not tabled). `it` is what
        `it` stands for here (None: not fixed)."""
        if isinstance(e, (ast.Num, ast.Text, ast.Bool)):
            return _CONST
        if isinstance(e, ast.It):
            if it is not None:
                return it
            return self._piece(e, s.it)
        if isinstance(e, ast.Name):
            ref = self.ctx.ref(e)
            if isinstance(ref, r.Symbol):
                return _CONST
            if isinstance(ref, r.Local) and ref.name in s.params:
                return self._piece(e, s.params[ref.name])
            return None
        if isinstance(e, ast.Of):
            ref = self.ctx.ref(e)
            if isinstance(ref, r.Attribute):  # (its era values, if any, are looked for once it is worth a table)
                return self._analyse(e.subject, it, s) if self.ctx.type_of(e).tag in _FIXED_TAGS else None
            if isinstance(ref, r.BuiltinOf) and ref.name == "count" and self.ctx.type_of(e.subject).tag in _LISTS:
                return self._analyse(e.subject, it, s)
            return None
        if isinstance(e, ast.Where):
            if self.ctx.type_of(e.collection).tag not in _LISTS:
                return None  # pieces' filters read where the pieces are
            source = self._analyse(e.collection, it, s)
            if source is None:
                return None
            return _joined(source, self._analyse(e.condition, source, s))
        if isinstance(e, ast.Compare) and e.op in ("=", "!=", ">", "<", ">=", "<=", "in"):
            if e.op == "in" and self.ctx.type_of(e.right).tag not in _LISTS:
                return None
            return self._all((e.left, e.right), it, s)
        if isinstance(e, (ast.BoolOp, ast.Arith)):
            return None if self.ctx.type_of(e).is_collection else self._all((e.left, e.right), it, s)
        if isinstance(e, (ast.Not, ast.Neg)):
            return self._analyse(e.operand, it, s)
        if isinstance(e, ast.Cond):
            return self._all((e.condition, e.yes, e.no), it, s)
        return None

    def _all(self, parts: tuple[ast.Expr, ...], it: Any, s: Scope) -> Any:
        """The parts' dependence together (the first part that is not fixed ends it)."""
        found: Any = _CONST
        for part in parts:
            found = _joined(found, self._analyse(part, it, s))
            if found is None:
                return None
        return found

    def _piece(self, e: ast.Expr, code: str) -> Any:
        """A name for a piece of a kind, as a table's variable (None: not a piece, or
        not a Python name)."""
        t = self.ctx.type_of(e)
        if t.tag != "thing" or not t.arg or not _name(code) or t.arg not in self.ctx.lay.kind_pieces:
            return None
        return (code, t.arg)

    def _worth(self, e: ast.Expr) -> bool:
        """Whether reading a table saves work (a walk or a count, or two attributes read),
        and every attribute it reads is the same in every era."""
        walks = attributes = 0
        stack: list[Any] = [e]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Where):
                walks += 1
            elif isinstance(node, ast.Of):
                if isinstance(self.ctx.ref(node), r.BuiltinOf):
                    walks += 1
                elif any(self.columns.era_column(node.name, self.columns.column(node.name)[1])):
                    return False  # `20/50/100`: read for the era now
                else:
                    attributes += 1
            stack.extend(_children(node))
        return walks > 0 or attributes >= 2

    # ------------------------------------------------------------------ the table
    def _table(self, e: ast.Expr, var: str, kind: str, s: Scope,
               write: Callable[[ast.Expr, Scope, Reads], str]) -> str | None:
        """The table's name in the namespace, its entries worked out (None: no piece of
        the kind has one)."""
        scope = Scope(None, "me", "this", None, "_v" if var == s.it else "None",
                      {name: "_v" for name, code in s.params.items() if code == var}, {"st"})
        self._working = True
        try:
            body = write(e, scope, Reads())
        except Unsupported:
            return None
        finally:
            self._working = False
        if scope.uses - {"st"}:
            return None  # it reads the acting player or the item after all: not fixed
        key = (kind, _renamed(body))  # the same expression of the same kind (content repeats them): one table
        if key in self._tables:
            return self._tables[key]
        self._tables[key] = None
        name = self.writer.name("fx")
        try:
            fn = self.writer.define(f"def {name}(st, _v):\n    return {body}\n", name)
        except Unsupported:  # nested deeper than Python compiles: written as it is
            return None
        entries: list[Any] = [NOT_TABLED] * len(self.ctx.lay.piece_def)
        probe = _Probe()
        for pid in self.ctx.lay.kind_pieces[kind]:
            try:
                value = fn(probe, pid)
            except (ContentError, _ReadsTheGame):  # the content's error, said where the expression runs untabled
                continue
            except Exception as err:  # a bug of the generator: said now, never a silent untabled piece
                raise InternalError(f"a table of fixed values could not be worked out for piece {pid} "
                                    f"(`{printer.print_expr(e)}`): {err!r}") from err
            if type(value) in (int, bool, str):
                entries[pid] = value
        if all(v is NOT_TABLED for v in entries):
            return None
        found = self._tables[key] = self.writer.bind(entries, "ft")
        return found


MAY_TABLE = frozenset({ast.Of, ast.Compare, ast.BoolOp, ast.Arith, ast.Not, ast.Neg, ast.Cond})
"""The nodes a table may stand for (the writer asks `read` of these only)."""


def _joined(a: Any, b: Any) -> Any:
    """Two parts' dependence together: fixed with one piece at most."""
    if a is None or b is None:
        return None
    if a is _CONST:
        return b
    if b is _CONST or a == b:
        return a
    return None


def _name(code: str) -> bool:
    """Whether generated code is a Python local (a table is indexed by it)."""
    return code.isidentifier() and not keyword.iskeyword(code)


def _renamed(code: str) -> str:
    """Generated code with its comprehensions' names numbered by first use: two writings
    of one expression compare equal. Names only: a text in the code (the content's) that
    looks like one is left as it is, so two expressions that differ in it stay apart."""
    names: dict[str, str] = {}
    try:
        tree = pyast.parse(code, mode="eval")
        for node in pyast.walk(tree):
            if isinstance(node, pyast.Name) and _LOOP_NAME.fullmatch(node.id):
                node.id = names.setdefault(node.id, f"_i{len(names)}")
        return pyast.unparse(tree)
    except (SyntaxError, RecursionError):
        return code  # nested past Python's parser: as written (never one table with another)


_LOOP_NAME = re.compile(r"_i\d+")


def _children(node: Any) -> list[Any]:
    return [getattr(node, f) for f in getattr(node, "__dataclass_fields__", ())
            if isinstance(getattr(node, f), ast.Expr)]
