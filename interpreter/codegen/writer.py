"""The generator's namespace and source: fresh names, values bound for generated code to
read, constants in source, a function's source compiled and run into the namespace,
and what a function's first lines read from its activation.

Nothing from content is ever source: identifiers are the writer's own (`_k3`, `_t2`,
`_d5`), and every value enters through `repr` of an int, a bool or a str, or as a name
bound here. The scope helpers say which of `st`, `me`, `this` a piece of source uses, so
the function's prelude reads only those.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from legacies.dsl import ast

from .. import mechanics as mech
from ..budget import spend
from ..errors import ContentError
from ..values import DefRef, EraValue
from ..vm import Activation
from .runtime import MISSING_MEMO, NOT_TABLED, RUNTIME, UNSET, Reads, Scope, Unsupported, compile_source, simple


class WritesExpressions(Protocol):
    """What the writers of names and definitions write their parts through
    (codegen/expressions.py's ExpressionWriter), so any node inside goes back to it."""

    def g(self, e: ast.Expr, s: Scope, reads: Reads) -> str: ...

    def fallback(self, e: ast.Expr, scope: Scope) -> str: ...

    def player(self, subject: ast.Expr | None, s: Scope, reads: Reads) -> str: ...

    def call(self, name: str, arg_nodes: list, e: ast.Node, s: Scope, reads: Reads) -> str: ...

    def filter(self, e: ast.Where, s: Scope, reads: Reads) -> tuple[str, str, str]: ...  # member, its `for`s, test


class CodeWriter:
    """One Game's generated code: its namespace and every function written into it."""

    def __init__(self) -> None:
        self.ns: dict[str, Any] = {"_MISSING": MISSING_MEMO, "_NOT_TABLED": NOT_TABLED, "_UNSET": UNSET,
                                   "_Activation": Activation, "_spend": spend,
                                   "_adjust": mech.adjust, "_describe": mech.describe, "_quantity": mech.quantity,
                                   "_pieces_on": mech.pieces_on, "_ContentError": ContentError,
                                   "_EraValue": EraValue, "_DefRef": DefRef, "_owner": mech.owner, **RUNTIME,
                                   # per generated definition: calls looked up, results computed, memo off
                                   "_memo_calls": [], "_memo_made": [], "_memo_off": [],
                                   "_kept_calls": [], "_kept_made": [], "_kept_off": []}
        self._consts: dict[tuple[type, Any], str] = {}
        self._fresh = 0
        self.generated = 0  # functions written (for tests and the bench's details)
        self.sources: dict[str, str] = {}

    def name(self, prefix: str) -> str:
        self._fresh += 1
        return f"_{prefix}{self._fresh}"

    def bind(self, value: Any, prefix: str = "k") -> str:
        """A value for generated code to read: a fresh name bound in the namespace."""
        key = (type(value), id(value))
        found = self._consts.get(key)
        if found is not None and self.ns[found] is value:
            return found
        name = self.name(prefix)
        self.ns[name] = value
        self._consts[key] = name
        return name

    def lit(self, value: Any) -> str:
        """A constant in source: repr of an int, a bool, a str or None, else a bound name."""
        if value is None or type(value) in (int, bool, str):
            return repr(value)
        return self.bind(value)

    def define(self, source: str, name: str) -> Any:
        try:
            code = compile_source(source)
        except SyntaxError as err:  # Python's own limit on nesting; any other is a bug of the generator
            if "nested blocks" not in str(err):
                raise
            raise Unsupported("nested deeper than Python compiles") from None
        except RecursionError:  # an expression nested deeper than Python's compiler goes
            raise Unsupported("nested deeper than Python compiles") from None
        exec(code, self.ns)  # noqa: S102 - source written here from the AST, no content text in it
        self.generated += 1
        self.sources[name] = source  # to read what was written (tests, `legacies bench` profiles)
        return self.ns[name]


def prelude(scope: Scope, a: str = "a") -> list[str]:
    """A function's first lines: what its body uses, read once from the activation `a`."""
    out = []
    if "st" in scope.uses:
        out.append(f"st = {a}.st")
    if "me" in scope.uses:
        out.append(f"me = {a}.me")
    if "this" in scope.uses:
        out.append(f"this = {a}.this")
    if "env" in scope.uses:
        out.append(f"env = {a}.env")
    return out


def st_in(s: Scope) -> str:
    """The state, in source, as a scope reads it."""
    s.uses.add("st")
    return "st"


def me_in(s: Scope) -> str:
    """The acting player, in source."""
    if s.me == "me":
        s.uses.add("me")
    return s.me


def this_in(s: Scope) -> str:
    """The piece whose effect runs, in source."""
    if s.this == "this":
        s.uses.add("this")
    return s.this


def guarded(player: str, then: Callable[[str], str], what: str) -> str:
    """`then(p)` for a player `p` that must not be nobody (read once)."""
    if player.isidentifier():
        return f"({then(player)} if {player} >= 0 else _rt_nobody({what!r}))"
    return then(f"_rt_player({player}, {what!r})")


def counter_read(reads: Reads, slot: int) -> None:
    """A counter slot read: what a remembered result is stamped with."""
    if slot >= 0:
        reads.site(f"sv[{slot!r}]")


# The pieces on an item and a token's owner are read in place where the item or piece is
# held in a name (read twice, so it must cost nothing to read): from the tables the
# expression writer binds (`_hz`, the layout's holder zone of each item; `_to`, the owner
# of each token that has one, which never changes), falling back to mechanics' functions
# for anything else (a track, a card, an unhashable value, nothing), which say the same.
# What is charged to the step budget is what those functions charge.
def pieces_on(st: str, src: str, copy: bool = True, holders: bool = True) -> str:
    """`mechanics.pieces_on(st, src)` as code: a list of its own (`copy`), or one only
    walked; the call where the game has no holder (`holders`: nothing to read in place)."""
    call = f"_pieces_on({st}, {src})"
    if not simple(src) or not holders:
        return call
    return f"(_rt_walk({st}, {st}.zones[_hz[{src}]]){'[:]' if copy else ''} if {src} in _hz else {call})"


def owner_of(st: str, subj: str, tokens: bool) -> str:
    """`mechanics.owner(st, subj)` as code: a token's owner read from the table, where
    the subject is of a kind of tokens with owners (`tokens`; a card's owner is its
    zone's, which the helper reads)."""
    call = f"_owner({st}, {subj})"
    if not simple(subj) or not tokens:
        return call
    return f"(_to[{subj}] if type({subj}) is int and {subj} in _to else {call})"
