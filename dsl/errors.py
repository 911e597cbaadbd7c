"""The root of every error legacies raises on purpose, in the lowest layer so that every
layer can derive from it (dsl < interpreter < pipeline < view < agents < cli).

Each error says what kind of failure it is by `usage`: True when what was asked cannot
be done as asked (an unknown ruleset, a path that is not a folder, a bad scenario: the
command's exit code 2), False when the work found something wrong (problems in the
content, a save refused, a bug met while running: exit code 1). cli/common.py's
`exit_code` is the one place that turns this into an exit code; the families below the
root keep their own names, and callers catch those:

- dsl/diagnostics.py `DiagnosticError` (and dsl/syntax_errors.py `SyntaxErrors`): the
  content's problems, as diagnostics;
- interpreter/errors.py `GameError` (the rules or the table say no: `Refused`,
  `TableError`, `CorruptSave`) and `InternalError` (a bug in the engine or the content:
  `ContentError`, `BudgetExceeded`), with `locate`, the one way an error gets its place;
- pipeline/ `StackError`, `WriteError`, `UsageError` and the services' errors; agents/
  the runs' errors; cli/ `ListenError`.
"""

from __future__ import annotations


class LegaciesError(Exception):
    """An error legacies raises on purpose. `usage`: what was asked cannot be done as
    asked (exit code 2), rather than what the work found (exit code 1); a class sets its
    default, an instance may set its own."""

    usage: bool = False
