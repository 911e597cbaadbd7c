"""The closures' dispatch: an AST node to the part that compiles it.

Each part of interpreter/compile/ names its handlers `x_<Node>` (an expression) and
`s_<Node>` (a statement); this builds one table of each from the parts, so a node's
handler is found by its kind and no part reaches another through inheritance. A
statement that runs straight through in the game being compiled (the registry's `direct`
ones, dsl/constructs.py, and those the game makes quiet: context.py `runs_straight`) is
marked so, for the blocks that run straight through (context.run_direct).
"""

from __future__ import annotations

from typing import Any, Callable

from legacies.dsl import ast

from ..errors import InternalError
from .context import Fn, Instr


def _handlers(parts: tuple[Any, ...], prefix: str) -> dict[str, Callable[[Any], Any]]:
    table: dict[str, Callable[[Any], Any]] = {}
    for part in parts:
        for name in dir(part):
            if name.startswith(prefix):
                if name[2:] in table:  # two parts for one node: which runs would be an accident of order
                    raise InternalError(f"two compilers handle `{name[2:]}`")
                table[name[2:]] = getattr(part, name)
    return table


class Closures:
    """The reference path's entry points: `expr` and `stmt` of any node."""

    def __init__(self, *parts: Any, straight: Callable[[ast.Stmt], bool]):
        self.expressions = _handlers(parts, "x_")
        self.statements = _handlers(parts, "s_")
        self.straight = straight

    def expr(self, e: ast.Expr) -> Fn:
        fn: Fn = self.expressions[type(e).__name__](e)
        return fn

    def stmt(self, s: ast.Stmt) -> Instr:
        instr: Instr = self.statements[type(s).__name__](s)
        if self.straight(s):
            instr.direct = True  # type: ignore[attr-defined]
        return instr
