"""Loop-invariant parts of a generated expression, worked out once per evaluation.

`top(C, P)` written as `share(C, P) > 0 and count of (players where share(C, it) >
share(C, P)) = 0` asks `share(C, P)` again for every player the filter walks, though
it does not depend on the player. This pass finds such parts in the Python the
generator wrote (a comprehension's element, its conditions and its inner walks: what
runs once an item) that read no name the comprehensions around them bind, and that cost
something (a walk, a definition's call); each is then read from a slot of the
evaluation's own list `_h` and worked out the first time it is reached:

    (_h[0] if _h[0] is not _UNSET else _rt_hoisted(_h, 0, PART))

So it is worked out where the expression as written first works it out, or never (a
part behind an `and` that is never reached), and an error it raises is raised there, as
before; the expression reads the state, which nothing changes while it is evaluated, so
the part's later readings would have given the same value. What differs is the work
charged to the step budget: the part's walks are charged once an evaluation, as a
definition remembered in a menu is (codegen/definitions.py).

The function that evaluates the expression makes `_h` afresh before each evaluation
(`fresh_slots`): a slot never outlives the evaluation it was filled in.
"""

from __future__ import annotations

import ast
import re

_LOOPS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
# never a slot's value: a generator is used up by its first reader, a function costs nothing,
# and `*xs` or `a:b` are not values at all (parts of a call or a subscript)
_NOT_SLOTTED = (ast.GeneratorExp, ast.Lambda, ast.Starred, ast.Slice)
# calls that cost a walk or more: a definition's function, the pieces on a holder, a walk
_COSTLY_CALL = re.compile(r"^(?:_d\d+|_pieces_on|_rt_walk|_rt_walk2|_rt_count|_rt_aggregate|_rt_ordered)$")
_CACHE: dict[str, tuple[str, int]] = {}  # a body -> (its hoisted form, its slots): Games share them
_CACHE_MAX = 20_000


def hoisted(body: str) -> tuple[str, int]:
    """`body` (one Python expression) with its loop-invariant costly parts read from slots
    of `_h`, and how many slots it uses (0: `body` unchanged)."""
    found = _CACHE.get(body)
    if found is not None:
        return found
    made = (body, 0)
    if " for " in body:
        try:
            tree = ast.parse(body, mode="eval")
            hoister = _Hoister()
            tree.body = hoister.visit(tree.body, frozenset(), False)  # type: ignore[assignment]
            if hoister.slots:
                made = (ast.unparse(tree), hoister.slots)
        except (SyntaxError, RecursionError):
            # nested deeper than Python's parser (or this pass) goes: left as written, where
            # compiling it meets the same limit and the closures take it (CodeWriter.define)
            made = (body, 0)
    if len(_CACHE) > _CACHE_MAX:
        _CACHE.clear()
    _CACHE[body] = made
    return made


def fresh_slots(slots: int) -> str:
    """The line (without indentation) that makes an evaluation's slots: '' when none."""
    return f"_h = [_UNSET] * {slots}" if slots else ""


class _Hoister:
    """One expression's pass: `visit` returns the node with its invariant parts slotted."""

    def __init__(self) -> None:
        self.slots = 0

    def visit(self, node: ast.AST, bound: frozenset[str], in_loop: bool) -> ast.AST:
        """`node`, inside comprehensions binding `bound` (`in_loop`: it runs once an item)."""
        if (in_loop and isinstance(node, ast.expr) and not isinstance(node, _NOT_SLOTTED) and _costly(node)
                and not (_names(node) & bound)):
            return self._slot(node)
        if isinstance(node, _LOOPS):
            return self._loop(node, bound, in_loop)
        if isinstance(node, ast.Lambda):  # run where it is written, its parameters bound
            params = {a.arg for a in node.args.args}
            node.body = self.visit(node.body, bound | params, in_loop)  # type: ignore[assignment]
            return node
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                setattr(node, field, [self.visit(v, bound, in_loop) if isinstance(v, ast.AST) else v for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value, bound, in_loop))
        return node

    def _loop(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, bound: frozenset[str],
              in_loop: bool) -> ast.AST:
        gens = node.generators
        # the first walk's collection is worked out once, where the comprehension stands
        gens[0].iter = self.visit(gens[0].iter, bound, in_loop)  # type: ignore[assignment]
        inner = bound
        for n, gen in enumerate(gens):
            if n:
                gen.iter = self.visit(gen.iter, inner, True)  # type: ignore[assignment]
            inner = inner | _names(gen.target)
            gen.ifs = [self.visit(test, inner, True) for test in gen.ifs]  # type: ignore[misc]
        if isinstance(node, ast.DictComp):
            node.key = self.visit(node.key, inner, True)  # type: ignore[assignment]
            node.value = self.visit(node.value, inner, True)  # type: ignore[assignment]
        else:
            node.elt = self.visit(node.elt, inner, True)  # type: ignore[assignment]
        return node

    def _slot(self, node: ast.expr) -> ast.expr:
        # what the part itself walks is worked out once inside it (its own invariants slotted too)
        node = self.visit(node, frozenset(), False)  # type: ignore[assignment]
        k = self.slots
        self.slots += 1
        read = ast.Subscript(value=ast.Name("_h", ast.Load()), slice=ast.Constant(k), ctx=ast.Load())
        unset = ast.Compare(left=read, ops=[ast.IsNot()], comparators=[ast.Name("_UNSET", ast.Load())])
        fill = ast.Call(func=ast.Name("_rt_hoisted", ast.Load()),
                        args=[ast.Name("_h", ast.Load()), ast.Constant(k), node], keywords=[])
        return ast.IfExp(test=unset, body=read, orelse=fill)


def _names(node: ast.AST) -> frozenset[str]:
    """Every name `node` mentions (a name its own comprehensions bind as well: counting
    more than it reads only keeps a part in place)."""
    return frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name))


def _costly(node: ast.expr) -> bool:
    """Whether `node` walks something or calls what may: a comprehension or a costly call."""
    for n in ast.walk(node):
        if isinstance(n, _LOOPS):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and _COSTLY_CALL.match(n.func.id):
            return True
    return False
