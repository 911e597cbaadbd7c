"""One statement of a program in words, as it reads where it is written: for a score's
breakdown, which says what gave a player points ("gain stars equal to your gold divided by
10 (rounded down)", not `gain by_gold stars for P`). The whole program is worded, so the
names bound before the statement read as what they hold; the player a statement is for,
when a `for each` names them, reads "you" (the breakdown is that player's).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from .. import ast
from ..constructs import child_blocks, with_blocks
from ..english import agree, sentence, tidy
from ..printer import print_statement
from ..renderer import renderer_for
from ..wording import Wording


def one_line(stmt: ast.Stmt) -> str:
    """A statement on one line, as a ruleset's `display: scoring:` names it."""
    return " ".join(print_statement(stmt).split())


def render_in_place(program: ast.Program, written: str, wording: Wording, params: Sequence[tuple[str, Any]] = (),
                    chosen: Sequence[tuple[str, ast.Expr]] = ()) -> str | None:
    """The sentence the statement of `program` written `written` (one line) reads as in
    place, or None when the program has no such statement. `params`: a procedure's
    (name, type) pairs; `chosen`: an action's target (its name and what it is chosen from)."""
    found = _find(program.statements, written, [])
    if found is None:
        return None
    stmt, loops = found
    player = getattr(stmt, "player", None)
    loop = next((f for f in reversed(loops) if isinstance(player, ast.Name) and f.var == player.name), None)
    if loop is not None:  # `for each P in players: gain ... for P`: P's own points read "you"
        program = _replaced(program, loop, dataclasses.replace(loop, body=_named(loop.body, loop.var)))
    renderer = renderer_for(wording, params)
    for var, collection in chosen:
        noun = renderer.noun_of(collection)
        renderer.bind(var, renderer.name_for(var, noun, True), player=renderer.is_players(collection))
        renderer.var_nouns[var] = noun
    renderer.kept = {}
    renderer.program(program)
    target = _find(program.statements, one_line(stmt) if loop is None else _me_line(stmt, loop.var), [])
    text = renderer.kept.get(id(target[0])) if target is not None else None
    return agree(tidy(sentence(text)), wording.count_nouns) if text else None


def _find(body: Sequence[ast.Stmt], written: str, loops: list[ast.ForEach]) -> tuple[ast.Stmt, list] | None:
    """The first statement written `written`, and the `for each` loops around it."""
    for stmt in body:
        if one_line(stmt) == written:
            return stmt, loops
        inner = [*loops, stmt] if isinstance(stmt, ast.ForEach) else loops
        for block in _blocks(stmt):
            found = _find(block, written, inner)
            if found is not None:
                return found
    return None


def _blocks(stmt: ast.Stmt) -> list[Sequence[ast.Stmt]]:
    return list(child_blocks(stmt))


def _me_line(stmt: ast.Stmt, var: str) -> str:
    return one_line(_rename(stmt, var))


def _named(body: Sequence[ast.Stmt], var: str) -> tuple[ast.Stmt, ...]:
    return tuple(_rename(s, var) for s in body)


def _rename(node: Any, var: str) -> Any:
    """`node` with the name `var` read as `me` ("P's gold" -> "my gold"), `for P` dropped."""
    if isinstance(node, ast.Name) and node.name == var:
        return ast.Name("me")
    if isinstance(node, tuple):
        return tuple(_rename(x, var) for x in node)
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        if f.name in ("span", "name_span"):
            continue
        old = getattr(node, f.name)
        new = _rename(old, var)
        if new is not old:
            changes[f.name] = new
    if isinstance(node, (ast.Gain, ast.Lose, ast.Pay)) and isinstance(changes.get("player"), ast.Name) \
            and changes["player"].name == "me":
        changes["player"] = None  # `gain ... for me` reads "gain ..."
    return dataclasses.replace(node, **changes) if changes else node


def _replaced(program: ast.Program, old: ast.Stmt, new: ast.Stmt) -> ast.Program:
    """`program` with the statement `old` (by identity) replaced by `new`."""
    def body(stmts: Sequence[ast.Stmt]) -> tuple[ast.Stmt, ...]:
        return tuple(new if s is old else _within(s) for s in stmts)

    def _within(s: ast.Stmt) -> ast.Stmt:
        return with_blocks(s, body)
    return dataclasses.replace(program, statements=body(program.statements))
