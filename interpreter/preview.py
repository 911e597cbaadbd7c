"""What an option would play, read from the rules before anyone commits: the effects
an option's statements reach (an item's effect, an effect an item gives in an attribute:
an outcome a card gives, what a space gives), worked out from the state as it stands, without
running anything.

The option's statements are walked as the rules are written: a procedure is walked with
its arguments bound, an `if` takes the branch its condition chooses now (every branch
while the condition reads a name the walk cannot know yet: a choice still to be made, a
loop's member), a `choose one:` or `may` offers each of its bodies. An expression is
worked out only when every local name it reads is known; `as P:` blocks are not entered
(their `my` is another player's). Nothing changes in the state: the expressions are
read under `State.frozen`, as a menu's are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable
from weakref import WeakKeyDictionary

from legacies.dsl import ast
from legacies.dsl import resolution as r
from legacies.dsl.constructs import child_blocks

from .values import EffectRef
from .vm import Activation, GameRules, State


DEPTH = 8  # procedures called inside procedures: a recursive one stops here
MISSING = object()


@dataclass(frozen=True)
class Played:
    """An effect an option would play: the piece or item it comes from, and which of
    its effects (None: the item's own effect; else an attribute, and the entry of a
    list of effects, or -1)."""

    piece: int
    definition: int
    attribute: str | None = None
    entry: int = -1


_compiled: "WeakKeyDictionary[GameRules, dict[int, Callable[[Activation], Any]]]" = WeakKeyDictionary()


def _value(st: State, e: ast.Expr, act: Activation) -> Any:
    """An expression of the rules worked out now (compiled once per game)."""
    game = st.game
    cache = _compiled.setdefault(game, {})
    fn = cache.get(id(e))
    if fn is None:
        fn = cache[id(e)] = game.compiler.expr(e)
        game.compiler.finish()
    with st.frozen():
        return fn(act)


class _Walk:
    def __init__(self, st: State, me: int, this: int):
        self.st = st
        self.me = me
        self.this = this
        self.res = st.game.spec.res
        self.found: list[Played] = []

    def known(self, e: ast.Expr, env: dict[str, Any]) -> bool:
        """Every local name `e` reads is bound in `env`."""
        return all(not isinstance(ref := self.res.ref(n), r.Local) or ref.name in env
                   for n in ast.walk(e) if isinstance(n, ast.Name))

    def value(self, e: ast.Expr, env: dict[str, Any]) -> Any:
        if not self.known(e, env):
            return MISSING
        return _value(self.st, e, Activation(self.st, self.me, self.this, dict(env)))

    def body(self, statements: ast.Body, env: dict[str, Any], depth: int) -> None:
        env = dict(env)  # names bound inside stay inside
        for s in statements:
            self.statement(s, env, depth)

    def statement(self, s: ast.Stmt, env: dict[str, Any], depth: int) -> None:
        if isinstance(s, ast.Play):
            self.play(self.value(s.what, env))
        elif isinstance(s, ast.Run) and depth < DEPTH:
            procedure = self.st.game.spec.procedures[s.name.name]
            bound = {}
            for param, arg in zip(procedure.params, s.args):
                got = self.value(arg, env)
                if got is not MISSING:
                    bound[param] = got
            self.body(procedure.body.statements, bound, depth + 1)
        elif isinstance(s, ast.If):
            for branch in s.branches:
                holds = self.value(branch.condition, env)
                if holds is MISSING:  # not known yet: any branch from here on may run
                    for rest in s.branches[s.branches.index(branch):]:
                        self.body(rest.body, env, depth)
                    if s.otherwise is not None:
                        self.body(s.otherwise, env, depth)
                    return
                if holds:
                    self.body(branch.body, env, depth)
                    return
            if s.otherwise is not None:
                self.body(s.otherwise, env, depth)
        elif isinstance(s, ast.Let):
            got = self.value(s.value, env)
            if got is not MISSING:
                env[s.var] = got
            else:
                env.pop(s.var, None)
        else:  # any other statement's blocks may run: each option, `may`, loops, `as P:`...
            for block in child_blocks(s):
                self.body(block, env, depth)

    def play(self, what: Any) -> None:
        lay = self.st.game.layout
        for one in (what if isinstance(what, list) else [what]):
            if isinstance(one, EffectRef):
                source = self.st.game.compiler.effect_source(one.code)
                if source is not None:
                    d, attribute, entry = source
                    self.add(Played(one.this, d, attribute, entry))
            elif type(one) is int and 0 <= one < len(lay.piece_def):
                self.add(Played(one, lay.piece_def[one]))

    def add(self, played: Played) -> None:
        if played not in self.found:
            self.found.append(played)


def plays(st: State, statements: ast.Body, me: int, this: int = -1, env: dict[str, Any] | None = None) -> list[Played]:
    """The effects `statements` would play, run as `me` (with `this` and the local names
    of `env`), in the order the rules reach them."""
    walk = _Walk(st, me, this)
    walk.body(statements, dict(env or {}), 0)
    return walk.found
