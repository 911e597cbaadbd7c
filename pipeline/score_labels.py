"""The ruleset's score checked: what `score:` names (a player counter, or a definition
with no parameters giving an amount, read as each player), and `display: scoring:`, the
words a ruleset gives the parts of a player's score in the breakdown at the end of a
game (interpreter/ledger.py groups the points; a score that is a definition has no parts).

Each key names a kind (the points its items' effects gave), or a program of the rules:
a procedure, an action, a rules trigger, `setup` or `game`. Its value is a label, or for a program a map
from some of its statements, as written on one line, to labels (the program's other
statements keep its default label). A name that is none of these, or a statement the
program does not have, is an R001 diagnostic with what would fit.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from legacies.dsl import ast
from legacies.dsl.constructs import CONSTRUCTS
from legacies.dsl.vocabulary import Vocabulary
from legacies.interpreter.ledger import statement_text

from .models import RulesetFile

Report = Callable[[tuple, str, str, "str | None"], None]  # (path, code, message, hint)
# the statements that change a counter or a value slot: the registry's (dsl/constructs.py `changes`)
CHANGES: tuple[type[ast.Stmt], ...] = tuple(
    c.node for c in CONSTRUCTS.values() if c.changes and issubclass(c.node, ast.Stmt))


def check_score(r: RulesetFile, v: Vocabulary, report: Report,
                suggest: Callable[[str, list[str]], str | None]) -> str | None:
    """`score:` names a player counter, or a definition with no parameters whose value is
    an amount (read as each player: `me` is the player). Returns the definition's name
    when it is one, else None; anything else is R001 at `score:`."""
    counter = r.counters.get(r.score)
    if counter is not None and counter.scope == "player":
        return None
    d = v.definitions.get(r.score)
    if d is None:
        candidates = [n for n, c in r.counters.items() if c.scope == "player"] + list(v.definitions)
        report(("score",), "R001", f"`score` must name a player counter or a definition, not `{r.score}`",
               suggest(r.score, candidates) or "a definition with no parameters works too: "
               "`definitions: {points: {value: \"my coins + 2 * count of (cards in my table)\"}}`")
        return None
    if d.params:
        report(("score",), "R001", f"`score` names definition `{r.score}`, which takes parameters "
               f"({', '.join(p for p, _ in d.params)})", "the score is read as each player (`me` is the player): "
               "define it with no parameters")
        return None
    if d.type is not None and d.type.tag not in ("amount", "any"):
        report(("score",), "R001", f"`score` names definition `{r.score}`, which is {d.type}, not an amount",
               "a score is a number: `count of (...)`, `my coins + ...`")
        return None
    if r.display is not None and r.display.scoring:
        report(("display", "scoring"), "R001", f"the score is definition `{r.score}`: it has no parts for "
               "`display: scoring:` to name", "remove `display: scoring:`, or keep the score in a counter")
    return r.score


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
