"""Running a piece of effect source beside a game: the language's tests, scenario tests
and `legacies try` use it. The game's pending decision is set aside and restored
afterwards; the effect's own decisions are answered from a list (by label, or by a
function of the Decision). Like `GameState.apply`, a refusal or an error leaves the
game exactly as it was.

Source is checked against the game's ruleset first: a program that does not check is
refused with its diagnostics, never run."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from legacies.dsl import ast
from legacies.dsl.checker import Checker, Context
from legacies.dsl.diagnostics import ERROR, DiagnosticError
from legacies.dsl.parser import parse_expression, parse_program
from legacies.dsl.types import PLAYER, T, thing

from . import mechanics as mech
from .decisions import Decision
from .game import GameState
from .spec import Origin
from .vm import Activation, BlockFrame

Answer = str | Callable[[Decision], str]


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def context_for(state: GameState, this: str | None) -> Context:
    spec = state.game.spec
    if this is None:
        return Context()
    return Context(this=thing(spec.vocab.content[this]), allow_declarations=True)


def piece_of(state: GameState, content_id: str | None, player: int = -1) -> int:
    """The piece of a board item, or a card's copy: the first that `player` (0-based)
    owns (in their zones, or a token of theirs), else the first copy (-1 for none)."""
    if content_id is None:
        return -1
    lay = state.game.layout
    if content_id in lay.board_item:
        return lay.board_item[content_id]
    pieces = lay.def_pieces[lay.def_index[content_id]]
    if player >= 0:
        theirs = next((p for p in pieces if mech.owner(state.st, p) == player), None)
        if theirs is not None:
            return theirs
    return pieces[0] if pieces else -1


def checked_program(state: GameState, source: str, this: str | None = None) -> ast.Program:
    program = parse_program(source)
    checker = Checker(state.game.spec.vocab, state.game.spec.res)
    errors = [d for d in checker.check_program(program, context_for(state, this)) if d.severity == ERROR]
    if errors:
        raise DiagnosticError(errors)
    return program


def checked_expression(state: GameState, source: str, this: str | None = None) -> ast.Expr:
    return typed_expression(state, source, this)[0]


def typed_expression(state: GameState, source: str, this: str | None = None,
                     names: dict[str, T] | None = None) -> tuple[ast.Expr, T]:
    """The expression parsed and checked, with the type the checker found for it; `names`,
    local names it may read (bound by the caller when it runs)."""
    expr = parse_expression(source)
    checker = Checker(state.game.spec.vocab, state.game.spec.res)
    ctx = context_for(state, this)
    if names:
        ctx.locals.update(names)
    t = checker.check_expression(expr, ctx)
    errors = [d for d in checker.diags if d.severity == ERROR]
    if errors:
        raise DiagnosticError(errors)
    return expr, t


def start(state: GameState, source: str | tuple[ast.Program, Origin], player: int = 0,
          this: str | None = None) -> None:
    """Push `source` to run next, as `player` (0-based), without running it: the caller
    drives it (`state.st.run()`, then `apply`), e.g. to clone at one of its decisions.
    `source` is text, checked here, or a program of the ruleset's own (checked with it)
    with where its text sits, so that an error names the file and line."""
    if isinstance(source, str):
        program, origin = checked_program(state, source, this), Origin(f"effect tried as P{player + 1}")
    else:
        program, origin = source
    compiler = state.game.compiler
    code = compiler.program(program, origin)
    compiler.finish()
    st = state.st
    frame = BlockFrame(code, Activation(st, player, piece_of(state, this, player)))
    st.frames.append(frame)
    st.start_option(frame)  # the effect tried is the option: a refusal in it refuses it


@contextmanager
def as_seat(state: GameState, player: int) -> Iterator[None]:
    """Run what the block pushes as `player`'s, as if it were their turn: the run under way
    (its frames, pending decision, end) is set aside and put back after it; on any failure
    the game is put back as it was and the failure goes on."""
    st = state.st
    saved = (st.frames, st.pending, st.over, st.active)
    backup = st.clone()
    st.frames, st.pending = [], None
    st.set_active(player)
    try:
        yield
    except BaseException:
        st.restore(backup)
        raise
    st.frames, st.pending, st.over = saved[:3]
    st.set_active(saved[3])


def run(state: GameState, source: str, player: int = 0, this: str | None = None,
        answers: Sequence[Answer] = ()) -> list[Decision]:
    """Run `source` as `player` (0-based) to its end, answering its decisions in order;
    `player` is the active player meanwhile, as if it were their turn. Returns the
    decisions asked. Refused or failing: the game is left as it was."""
    st = state.st
    asked: list[Decision] = []
    with as_seat(state, player):
        st.changed()
        start(state, source, player, this)
        st.run()
        left = list(answers)
        while st.pending is not None:
            decision = st.pending
            asked.append(decision)
            if not left:
                raise AssertionError(f"no answer left for {decision.prompt!r}: {decision.labels()}")
            answer = left.pop(0)
            state.apply_label(answer(decision) if callable(answer) else answer)
        if left:
            raise AssertionError(f"answers left over: {left}")
    st.changed()
    return asked


def value(state: GameState, source: str, player: int = 0, this: str | None = None) -> Any:
    """The value of an expression for `player` (0-based): a read of its own, on a fresh
    step budget when no run is under way (State.frozen)."""
    return typed_value(state, source, player, this)[0]


def typed_value(state: GameState, source: str, player: int = 0, this: str | None = None,
                players_named: bool = False) -> tuple[Any, T]:
    """`value`, with the expression's type: a number, a player and a piece are all ints
    at run time, and only the type tells which to show. `players_named`: the players'
    names as the game prints them (`P2's gold`) may be read as players."""
    named = player_names(state) if players_named else {}
    expr, t = typed_expression(state, source, this, {name: PLAYER for name in named})
    fn = state.game.compiler.expr(expr)
    state.game.compiler.finish()
    with state.st.frozen():
        return fn(Activation(state.st, player, piece_of(state, this, player), dict(named))), t


def player_names(state: GameState) -> dict[str, int]:
    """The players' names that can be read as names in an expression (`P2`): those that
    are a name the language can write and that nothing of the ruleset is called."""
    taken = state.game.spec.vocab.name_set()
    return {name: p for p, name in enumerate(state.game.player_names)
            if _NAME.fullmatch(name) and name not in taken}
