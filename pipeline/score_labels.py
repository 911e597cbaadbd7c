"""`display: scoring:` checked: the words a ruleset gives the parts of a player's score
in the breakdown at the end of a game (interpreter/ledger.py groups the points).

Each key names a kind (the points its items' effects gave), or a program of the rules:
a procedure, an action, a rules trigger, `setup` or `game`. Its value is a label, or for a program a map
from some of its statements, as written on one line, to labels (the program's other
statements keep its default label). A name that is none of these, or a statement the
program does not have, is an R001 diagnostic with what would fit.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from legacies.dsl import ast
from legacies.interpreter.ledger import statement_text


Report = Callable[[tuple, str, str, "str | None"], None]  # (path, code, message, hint)
CHANGES = (ast.Gain, ast.Lose, ast.Pay, ast.Transfer, ast.SetTo, ast.Raise, ast.Lower, ast.Auction)


def check_score_labels(given: Mapping[str, str | dict[str, str]], kinds: Collection[str],
                       programs: dict[str, ast.Program | None], report: Report,
                       suggest: Callable[[str, list[str]], str | None]) -> dict[str, str | dict[str, str]]:
    """The labels that fit, of one file's `display: scoring:` (`kinds`: the ruleset's;
    `programs`: procedures and actions by name, `setup`, `game`)."""
    out: dict[str, str | dict[str, str]] = {}
    for key, value in given.items():
        path: tuple = ("display", "scoring", key)
        if key not in kinds and key not in programs:
            report(path, "R001", f"`display: scoring:` names kinds, procedures, actions, triggers, `setup` and `game`; "
                   f"`{key}` is none of them", suggest(key, list(kinds) + list(programs)))
            continue
        if isinstance(value, str):
            out[key] = value
            continue
        if key in kinds:
            report(path, "R001", f"kind `{key}` takes one label (its items' points are one part)", None)
            continue
        program = programs[key]
        written = {statement_text(n): n for n in ast.walk(program) if isinstance(n, CHANGES)} if program else {}
        labels: dict[str, str] = {}
        for statement, label in value.items():
            text = " ".join(statement.split())
            if text in written:
                labels[text] = label
                continue
            report(path + (statement,), "R001", f"`{key}` has no statement `{text}` that changes a counter",
                   suggest(text, list(written)) or ("its statements that do: " + "; ".join(written) if written
                                                    else f"`{key}` changes no counter"))
        out[key] = labels
    return out
