"""The state the build's passes share (pipeline/build/passes.py runs them in order): the
`Builder` (diagnostics placed in their YAML files, parsing and checking a program or an
expression, the vocabulary being built, the resolution table), the rules files'
declarations by name (`Rules`), and the order things that use each other are checked in."""

from __future__ import annotations

import difflib
import graphlib
import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from legacies.dsl import ast
from legacies.dsl.checker import Checker, Context
from legacies.dsl.diagnostics import Diagnostic
from legacies.dsl.parser import EXPRESSION_PREFIX, SyntaxErrors, parse_expression, parse_program
from legacies.dsl.resolution import Resolution
from legacies.dsl.types import ANY, T
from legacies.dsl.vocabulary import Vocabulary
from legacies.interpreter.spec import Origin

from .vocabulary import Stack, type_of
from ..load import LoadedFile
from ..yaml_source import bounded

Path = tuple
MAX_PIECES = 20_000  # pieces (copies of every content item) in one ruleset (C007)


class Builder:
    def __init__(self, files: list[LoadedFile]):
        self.files = files
        self.diags: list[Diagnostic] = []
        self.res = Resolution()
        self.vocab = Vocabulary()
        self.display: dict[str, list[tuple[str, str, str | None, str | None]]] = {"table": [], "players": []}
        self.stack = Stack()  # every declaration of the ruleset and its expansions
        self.played: set[str | None] = set()  # the kinds whose effect some `play` runs (None: any kind's)
        self.items: dict[str, tuple[LoadedFile, Path, Any]] = {}  # content items by id, once collected
        self.display_parts: list[tuple[LoadedFile, Path, Any]] = []  # display `text:` and `columns:` entries
        self.display_kinds: dict[str, list[int]] = {}  # display `kinds:`: kind -> its lines' display_parts
        self.unprinted: list[str] = []  # display `unprinted:`
        self.unlogged: list[str] = []  # display `unlogged:`
        self.attribute_labels: dict[tuple[str, str], str] = {}  # (kind, attribute) -> its declared `label:`
        # effects with syntax errors whose rest parsed (SyntaxErrors.recovered), by file and
        # path: checked when their place's check comes, never built
        self.recovered: dict[tuple[str, Path], SyntaxErrors] = {}

    # ------------------------------------------------------------------ reporting
    def at(self, f: LoadedFile, path: Path, code: str, message: str, hint: str | None = None,
           key: bool = False, severity: str = "error") -> None:
        line, col, end = f.span(path, key=key)
        self.diags.append(bounded(Diagnostic(code, message, line, col, severity, hint=hint, file=f.label,
                                             end_column=end)))

    def offsets(self, f: LoadedFile, path: Path) -> tuple[int, int]:
        origin = f.origin(path)
        if origin is None:
            line, col = f.position(path)
            origin = (line - 1, col - 1)
        return origin

    def place(self, f: LoadedFile, path: Path, diags: Iterable[Diagnostic], expression: bool = False) -> None:
        line_offset, column_offset = self.offsets(f, path)
        for d in diags:
            if expression and d.line == 1:
                d = Diagnostic(d.code, d.message, d.line, max(1, d.column - EXPRESSION_PREFIX), d.severity, d.hint,
                               d.file, d.end_column - EXPRESSION_PREFIX if d.end_column else None)
            self.diags.append(bounded(d.shifted(f.label, line_offset, column_offset)))

    def origin(self, f: LoadedFile, path: Path, what: str, expression: bool = False) -> Origin:
        line_offset, column_offset = self.offsets(f, path)
        return Origin(what, f.label, line_offset, column_offset, EXPRESSION_PREFIX if expression else 0)

    def suggest(self, name: str, names: Iterable[str]) -> str | None:
        pool = {n.lower(): n for n in names if n != name}
        close = difflib.get_close_matches(name.lower(), list(pool), n=1, cutoff=0.6)
        return f"did you mean `{pool[close[0]]}`?" if close else None

    # ------------------------------------------------------------------ parsing
    def program(self, f: LoadedFile, path: Path, source: str | None) -> ast.Program | None:
        if source is None:
            return None
        try:
            return parse_program(source)
        except SyntaxErrors as err:
            found = err.diagnostics
            if f.joined(path):  # a user's trial: "unexpected 'lose'", where two lines had been joined
                note = ("its lines were read as one: an effect over several lines is written after `|` "
                        "(`effect: |`, its lines under it)")
                found = [replace(d, hint=f"{d.hint}; {note}" if d.hint else note) for d in found]
            self.place(f, path, found)
            if err.recovered is not None:
                self.recovered[(f.label, path)] = err
            return None

    def expression(self, f: LoadedFile, path: Path, source: str | None) -> ast.Expr | None:
        if source is None:
            return None
        try:
            return parse_expression(source)
        except SyntaxErrors as err:
            self.place(f, path, err.diagnostics, expression=True)
            return None

    def check_program(self, f: LoadedFile, path: Path, program: ast.Program | None, ctx: Context) -> Checker:
        checker = Checker(self.vocab, self.res)
        if program is not None:
            self.place(f, path, checker.check_program(program, ctx))
            self.played |= checker.played
        else:
            self.check_recovered(f, path, ctx)
        return checker

    def check_recovered(self, f: LoadedFile, path: Path, ctx: Context) -> None:
        """The rest of an effect with syntax errors checked too, so that every mistake in
        it is said at once; what only follows from a statement set aside is left out (a
        name it bound, used later; anything on a line recovery moved). Nothing of it is
        built: the effect stays unbuilt, as its syntax errors say."""
        err = self.recovered.pop((f.label, path), None)
        if err is None:
            return
        lines, words = err.aside
        found = Checker(self.vocab, self.res).check_program(err.recovered, ctx)
        self.place(f, path, [d for d in found if d.line not in lines and not _names_any(d.message, words)])

    def check_expr(self, f: LoadedFile, path: Path, expr: ast.Expr | None, ctx: Context,
                   expected: T | None = None) -> tuple[T, Checker]:
        checker = Checker(self.vocab, self.res)
        if expr is None:
            return ANY, checker
        t = checker.check_expression(expr, ctx, expected)
        self.place(f, path, checker.diags, expression=True)
        return t, checker

    # ------------------------------------------------------------------ vocabulary
    def type_of(self, f: LoadedFile, path: Path, text: str) -> T:
        return type_of(self, f, path, text, self.stack)


def _names_any(message: str, words: frozenset[str]) -> bool:
    """Whether a message quotes (in backticks) any of `words`."""
    return any(w in words for quoted in re.findall(r"`([^`]*)`", message)
               for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", quoted))


def dependency_order(uses: dict[str, set[str]]) -> tuple[list[str], list[list[str]]]:
    """Names in the order they depend on each other (graphlib), and the cycles found."""
    graph = {name: {u for u in deps if u in uses} for name, deps in uses.items()}
    cycles: list[list[str]] = []
    while True:
        try:
            return list(graphlib.TopologicalSorter(graph).static_order()), cycles
        except graphlib.CycleError as err:
            cycle = list(dict.fromkeys(reversed(err.args[1])))  # graphlib lists it used-before-user
            cycles.append(cycle)
            for name in cycle:  # break this cycle and look for the next
                graph[name] = {u for u in graph[name] if u not in cycle}


def names_used(node: ast.Node, table: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, (ast.Call, ast.Name)) and n.name in table:
            out.add(n.name)
        elif isinstance(n, ast.Run) and n.name.name in table:
            out.add(n.name.name)
    return out


def aggregated(node: ast.Node, table: dict[str, Any]) -> set[str]:
    """The names of `table` that `total NAME of C` (or `highest`, `lowest`) may ask of each
    member: a definition's, unless the members have an attribute or counter of that name
    (the checker decides)."""
    return {n.name for n in ast.walk(node) if isinstance(n, ast.Aggregate) and n.name in table}


@dataclass
class Rules:
    """The rules files' declarations by name: (file, name, declaration), in load order."""

    actions: dict[str, tuple[LoadedFile, str, Any]] = field(default_factory=dict)
    definitions: dict[str, tuple[LoadedFile, str, Any]] = field(default_factory=dict)
    procedures: dict[str, tuple[LoadedFile, str, Any]] = field(default_factory=dict)
    triggers: dict[str, tuple[LoadedFile, str, str]] = field(default_factory=dict)
    restrictions: dict[str, tuple[LoadedFile, str, Any]] = field(default_factory=dict)
    restricting: dict[str, ast.Expr] = field(default_factory=dict)  # each restriction's condition, once checked
    # a hooked procedure or action -> the hooks that run at its start and at its end, in load order
    hooks: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    setup: tuple[LoadedFile, ast.Program | None] | None = None
    game: tuple[LoadedFile, ast.Program | None] | None = None


def announced_by(body: ast.Body, v: Vocabulary) -> frozenset[str]:
    """Events a block announces, directly or through the procedures it runs."""
    out: set[str] = set()
    for stmt in body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Announce):
                out.add(n.event.name)
            elif isinstance(n, ast.Run) and n.name.name in v.procedures:
                out.update(v.procedures[n.name.name].announces)
    return frozenset(out)
