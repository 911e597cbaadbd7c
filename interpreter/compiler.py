"""AST -> closures, once per ruleset and player count: the one public entry.

A table from node kind to a compile method (python-jsonschema's keyword table);
each returns a closure over plain integers (counter slots, zone ids, attribute
columns) computed from the Layout, so running an effect indexes lists and never looks
a name up. Statements compile to instructions `(state, activation) -> None` that act
at once or push a frame (interpreter/frames.py); a block of them is a `Block` that
knows where each statement was written (its Where), so an error names the item and
the file:line:column. A builtin runs its function in interpreter/builtins.py (`RUN`),
registered against the name dsl/constructs.py declares.

Content mistakes that only show at run time raise ContentError (an InternalError):
a player that is `nobody`, a missing attribute used as a number, a list read past its
end. A player's inability (`pay` more than they have) raises Refused.

`Compiler` is made of one part per job, each in its own module, each part a base of
the next: compile_base (dispatch, blocks, direct blocks), compile_columns (attribute
columns), compile_filters (filters decided at compile time), compile_general (the
general constructs, places and windows), compile_expressions, compile_statements,
compile_choices (statements that ask, their prompts, menus of actions), and in front
of them the code generator: codegen (expressions, definitions, an action's targets),
codegen_statements (straight-through statements), codegen_runtime (what the
generated code calls), the closures as its fallback and reference.
"""

from __future__ import annotations

from legacies.dsl import ast

from .compile_base import MISSING, Fn, Instr, run_direct, spend
from .codegen_runtime import enabled_by_default
from .codegen_statements import StatementCodegen
from .compile_choices import CompiledAction
from .compile_columns import Table
from .coverage import Coverage
from .layout import Layout
from .ledger import Ledger
from .spec import GameSpec

__all__ = ["Compiler", "CompiledAction", "Table", "MISSING", "Fn", "Instr", "run_direct", "spend",
           "HANDLED_EXPRESSIONS", "HANDLED_STATEMENTS"]


class Compiler(StatementCodegen):
    """Compiles a ruleset's effects, definitions and actions for one Game: Python
    written by the generator (interpreter/codegen.py) where it can, closures elsewhere
    and everywhere when `codegen` is False (the reference path)."""

    def __init__(self, spec: GameSpec, lay: Layout, coverage: Coverage | None = None, ledger: Ledger | None = None,
                 codegen: bool | None = None):
        super().__init__(spec, lay, coverage, ledger)
        self.setup_codegen(enabled_by_default() if codegen is None else codegen)

    def modifier_parts(self, m: ast.Modifier) -> tuple:
        subject = self.expr(m.subject) if m.subject is not None else None
        scope = self.expr(m.scope) if m.scope is not None else None
        plural = m.scope is not None and self.type_of(m.scope).tag == "players"
        return (m.quantity.name, subject, m.op, self.expr(m.value), scope, plural)


HANDLED_EXPRESSIONS = frozenset(n[2:] for n in dir(Compiler) if n.startswith("x_"))
HANDLED_STATEMENTS = frozenset(n[2:] for n in dir(Compiler) if n.startswith("s_"))
