"""Which `let`s card text cannot word as what they stand for: a `let` is computed once,
where it is written, so `let n be my gold` / `gain 2 gold` / `gain n points` gives the
points of the gold before the gain; "gain points equal to your gold" after "gain 2 gold"
would say the gold after it. Such a `let` is worded where it stands ("note how much gold
you have") and read later as what was noted ("the noted amount").
"""

from __future__ import annotations

from typing import Sequence

from .. import ast
from ..analysis import changes, reads
from ..constructs import child_blocks

ANYTHING = "*anything"  # what a procedure, a menu or another card's effect may change
_LOOPS = (ast.Repeat, ast.ForEach, ast.TakeTurns)
_RUNS_OTHER_CODE = (ast.Run, ast.Perform, ast.Play, ast.Announce, ast.Offer, ast.TakeTurns)


def changed(stmt: ast.Stmt) -> set[str]:
    """What `stmt` (and its blocks) may change; ANYTHING when it runs code not written here."""
    out = changes(stmt)
    if any(isinstance(n, _RUNS_OTHER_CODE) for n in ast.walk(stmt)):
        out.add(ANYTHING)
    return out


def stale_lets(stmts: Sequence[ast.Stmt], bound: set[str]) -> set[int]:
    """The `let`s of `stmts` (by id) used after something they read may have changed: a
    statement before the use changes it, or the use is in a loop that changes it (its
    second pass); or used inside `as P:`, where "your" would name P. `bound`: names
    that hold a fixed thing (a chosen station, a player), which no change makes stale."""
    out: set[int] = set()
    for i, st in enumerate(stmts):
        if not isinstance(st, ast.Let) or not is_amount(st.value):
            continue
        read = reads(st.value) - bound - {st.var}
        if read - {"me"} and _stale_use(stmts[i + 1:], st.var, read, set()):
            out.add(id(st))
    return out


def _stale_use(stmts: Sequence[ast.Stmt], var: str, read: set[str], seen: set[str]) -> bool:
    """Whether `var` is used in `stmts` after a change to what it read (`seen`: the
    changes before them), each branch of a block followed on its own."""
    for st in stmts:
        if isinstance(st, ast.Let) and st.var == var and not _uses(st.value, var):
            return False  # named again: later uses are of the new value
        if _uses(st, var):
            if _meets(read - {"me"}, seen):
                return True
            if isinstance(st, ast.AsPlayer) and "me" in read:
                return True  # inside, "your gold" would be the other player's
            if isinstance(st, _LOOPS) and _meets(read, changed(st)):
                return True  # its second pass reads the value the first pass changed
            if any(_stale_use(block, var, read, set(seen)) for block in child_blocks(st)):
                return True
        if not isinstance(st, ast.Let):
            seen = seen | changed(st)
    return False


def is_amount(e: ast.Expr) -> bool:
    """Whether a value is a number ("note how much gold you have" fits it); a piece or a
    collection is worded as before."""
    if isinstance(e, ast.Of):
        return e.name not in ("owner", "holder", "track", "name")
    if isinstance(e, ast.Arith):  # `cards in my hand + cards in my discard` is a collection
        return any(is_amount(x) or isinstance(x, (ast.Num, ast.Era)) for x in (e.left, e.right))
    return isinstance(e, (ast.Aggregate, ast.Div, ast.Modulo, ast.Neg, ast.Cond)) \
        or isinstance(e, ast.Call) and e.name in ("min", "max", "held")


def _meets(read: set[str], changed_: set[str]) -> bool:
    return bool(changed_) and (ANYTHING in changed_ or bool(read & changed_))


def _uses(node: ast.Node, var: str) -> bool:
    return any(isinstance(n, ast.Name) and n.name == var for n in ast.walk(node))
