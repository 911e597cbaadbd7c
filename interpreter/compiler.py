"""AST -> runnable code, once per ruleset and player count: the one public entry.

The compiler is passes that share a context, not a tower of classes. `Compiler` makes
them and is the entry point each of them compiles its children through (`expr`,
`stmt`, `block`, `program`, `text`), so the generator writes every node it can, at any
depth, and the closures take the rest:

- interpreter/compile/ (the closures, the reference path): `context` (what a compile
  shares, the helpers, straight-through blocks), `columns` (attribute columns, a piece's
  own state, effect attributes), `filters` (filters decided at compile time),
  `general` (general constructs, places and windows), `expressions`, `collections`
  (filters, selections, aggregates, orderings), `statements` (statements that act), `choices` (statements that ask, prompts, actions' menus) and
  `closures` (the dispatch from a node to its part);
- interpreter/codegen/ (the generator, in front): `writer` (the namespace), `expressions`,
  `names`, `definitions` (definitions and actions' targets), `statements`
  (straight-through statements), `runtime` (what generated code calls).

Each closure is over plain integers (counter slots, zone ids, attribute columns)
computed from the Layout, so running an effect indexes lists and never looks a name
up. Statements compile to instructions `(state, activation) -> None` that act at once
or push a frame (interpreter/frames.py); a block of them is a `Block` that knows where
each statement was written (its Where), so an error names the item and the
file:line:column. A builtin runs its function in interpreter/builtins.py (`RUN`),
registered against the name dsl/constructs.py declares.

Content mistakes that only show at run time raise ContentError (an InternalError):
a player that is `nobody`, a missing attribute used as a number, a list read past its
end. A player's inability (`pay` more than they have) raises Refused.
"""

from __future__ import annotations

from typing import Any, Callable

from legacies.dsl import ast
from legacies.dsl.types import T

from .codegen.expressions import ExpressionWriter
from .codegen.runtime import Unsupported, enabled_by_default
from .codegen.statements import StatementWriter
from .codegen.writer import CodeWriter
from .compile.choices import ChoiceCompiler, CompiledAction
from .compile.closures import Closures
from .compile.collections import CollectionCompiler
from .compile.columns import Columns, Table
from .compile.context import MISSING, CompileContext, Filled, Fn, Instr, fill_text, run_direct, spend
from .compile.expressions import ExpressionCompiler
from .compile.filters import StaticFilters
from .compile.general import GeneralCompiler
from .compile.statements import StatementCompiler
from .coverage import Coverage
from .layout import Layout
from .ledger import Ledger
from .spec import ActionSpec, GameSpec, Origin
from .vm import Activation, Block, State

__all__ = ["Compiler", "CompiledAction", "Table", "MISSING", "Fn", "Instr", "run_direct", "spend",
           "HANDLED_EXPRESSIONS", "HANDLED_STATEMENTS", "CLOSURE_PARTS"]


_LITERALS = (ast.Num, ast.Bool, ast.Text, ast.Percent)  # a closure returning a constant: nothing to write


class Compiler:
    """Compiles a ruleset's effects, definitions and actions for one Game: Python
    written by the generator where it can, closures elsewhere and everywhere when
    `codegen` is False (the reference path)."""

    def __init__(self, spec: GameSpec, lay: Layout, coverage: Coverage | None = None, ledger: Ledger | None = None,
                 codegen: bool | None = None):
        ctx = self.ctx = CompileContext(spec, lay, coverage, ledger)
        self.columns = Columns(ctx, self)
        self.filters = StaticFilters(ctx, self.columns)
        self.general = GeneralCompiler(ctx, self)
        self.collections = CollectionCompiler(ctx, self, self.columns, self.filters, self.general)
        self.exprs = ExpressionCompiler(ctx, self, self.columns, self.filters, self.general, self.collections)
        self.stmts = StatementCompiler(ctx, self, self.columns, self.exprs)
        self.choices = ChoiceCompiler(ctx, self, self.stmts, self.general)
        self.closures = Closures(self.general, self.exprs, self.collections, self.stmts, self.choices,
                                 straight=ctx.runs_straight)  # as CLOSURE_PARTS
        # branch probes are the closures' (interpreter/coverage.py): a game that keeps them is not generated
        self.codegen = (enabled_by_default() if codegen is None else codegen) and coverage is None
        self.writer = CodeWriter()
        self.gen = ExpressionWriter(ctx, self.writer, self.closures, self.columns, self.filters, self.exprs,
                                    self.general)
        self.gen_stmts = StatementWriter(ctx, self, self.writer, self.gen, self.closures, self.columns)

    # ------------------------------------------------------------------ entry points
    def expr(self, e: ast.Expr) -> Fn:
        if self.codegen and not isinstance(e, _LITERALS):
            try:
                return self.gen.function(e)
            except Unsupported:
                pass
        return self.closures.expr(e)

    def stmt(self, s: ast.Stmt) -> Instr:
        if self.codegen and self.gen_stmts.writes(s):
            try:
                return self.gen_stmts.function(s)
            except Unsupported:
                pass
        return self.closures.stmt(s)

    def block(self, body: ast.Body, origin: str | None = None) -> Block:
        origin = origin or self.ctx.origin.what
        if self.codegen and body and all(self.gen_stmts.writes(s) for s in body):
            # nothing in it can ask a decision or push a frame (no `choose`, no procedure,
            # no play, no event or move that fires a trigger or hook), decided here from its
            # statements alone (codegen/statements.py `_straight`): one instruction, one step
            try:
                whole = self.gen_stmts.block_function(body)
            except Unsupported:
                pass
            else:
                block = Block((whole,), (self.ctx.where(body[0]),), origin)
                block.run = whole
                return block
        return Block(tuple(self.stmt(s) for s in body), tuple(self.ctx.where(s) for s in body), origin)

    def program(self, program: ast.Program | None, origin: Origin | None = None) -> Block:
        if origin is not None:
            self.ctx.origin = origin
        if program is None:
            return Block((), (), self.ctx.origin.what)
        return self.block(program.statements)

    def player_or_me(self, e: ast.Expr | None) -> Fn:
        if e is None:
            return lambda a: a.me
        return self.expr(e)

    def text(self, node: ast.Node, text: str) -> "str | Filled":
        return fill_text(self, self.ctx, node, text)

    def compile_action(self, spec: ActionSpec) -> CompiledAction:
        action = self.choices.compile_action(spec)
        if self.codegen:
            try:
                action.listed, action.exists = self.gen.definitions.targets(spec)
            except Unsupported:
                pass
        return action

    def call_definition(self, name: str, arg_nodes: tuple | list, e: ast.Node) -> Fn:
        return self.exprs.call_definition(name, arg_nodes, e)

    def modifier_parts(self, m: ast.Modifier) -> tuple:
        subject = self.expr(m.subject) if m.subject is not None else None
        scope = self.expr(m.scope) if m.scope is not None else None
        plural = m.scope is not None and self.ctx.type_of(m.scope).tag == "players"
        return (m.quantity.name, subject, m.op, self.expr(m.value), scope, plural)

    def finish(self) -> None:
        """Compile the effect attributes read so far (compile/columns.py `finish`); call
        after compiling anything that may run."""
        self.columns.finish()

    # ------------------------------------------------------------------ what others read
    @property
    def origin(self) -> Origin:
        """Where the item being compiled was written; set it before compiling the item."""
        return self.ctx.origin

    @origin.setter
    def origin(self, origin: Origin) -> None:
        self.ctx.origin = origin

    @property
    def spec(self) -> GameSpec:
        return self.ctx.spec

    @property
    def era_slot(self) -> int:
        return self.ctx.era_slot

    def type_of(self, node: ast.Node) -> T:
        return self.ctx.type_of(node)

    def attribute_value(self, d: int, name: str) -> Any:
        return self.columns.attribute_value(d, name)

    def item(self, content_id: str) -> Any:
        return self.columns.item(content_id)

    def effect_source(self, code: Any) -> tuple[int, str, int] | None:
        return self.columns.effect_source(code)

    def static_test(self, e: ast.Expr) -> tuple[list[bool | None], list[bool | None]] | None:
        return self.filters.static_test(e)

    @property
    def generated(self) -> int:
        """Functions the generator wrote (tests, the bench's details)."""
        return self.writer.generated

    @property
    def sources(self) -> dict[str, str]:
        """What the generator wrote, by function name (tests, `legacies bench` profiles)."""
        return self.writer.sources


CLOSURE_PARTS = (GeneralCompiler, ExpressionCompiler, CollectionCompiler, StatementCompiler, ChoiceCompiler)
HANDLED_EXPRESSIONS = frozenset(n[2:] for part in CLOSURE_PARTS for n in dir(part) if n.startswith("x_"))
HANDLED_STATEMENTS = frozenset(n[2:] for part in CLOSURE_PARTS for n in dir(part) if n.startswith("s_"))
