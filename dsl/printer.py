"""AST -> canonical effect-language source: the inverse of `dsl.parser`.

This module owns the one canonical spelling of every node kind: `print_program`
writes a whole effect (statements first, then declarations, blocks indented by four
spaces), `print_statement` one statement and `print_expr` one expression, adding
parentheses only where the grammar's precedence needs them. One-line statements are
written from their `written` template in dsl/constructs.py. The contract, checked by
tests/dsl/test_printer_roundtrip.py, is

    parse_program(print_program(p)) == p

for every AST the parser can produce (spans are out of equality).

Where the grammar resolves a shift/reduce conflict greedily it shapes the output:
`'s` after a postfix is always shifted, so `X's name` is only written when the
subject is a bare name (or `me` -> `my`, `it` -> `its`); every other subject is
written `name of SUBJECT`, which nests to the right without ambiguity.
"""

from __future__ import annotations

from typing import Any

from . import ast
from .constructs import CONSTRUCTS, fill

__all__ = ["print_program", "print_statement", "print_expr", "precedence", "INDENT"]

INDENT = "    "

# Binding strength, loosest first (see effects.lark, "expressions").
COND, WHERE, OR, AND, NOT, COMPARE, SUM, PRODUCT, UNARY, POSTFIX, ATOM = range(11)

_COMPARE_WORDS = {"=": "is", "!=": "is not", "in": "is in"}


# ------------------------------------------------------------------ expressions


def precedence(expr: ast.Expr) -> int:
    """How tightly `expr` binds: COND (loosest) .. ATOM (tightest)."""
    if isinstance(expr, ast.Cond):
        return COND
    if isinstance(expr, (ast.Where, ast.Ordered)):
        return WHERE
    if isinstance(expr, ast.BoolOp):
        return OR if expr.op == "or" else AND
    if isinstance(expr, ast.Not):
        # `x is not empty` and `x is not in y` are comparisons, not a `not ...`.
        return COMPARE if _negated_comparison(expr) else NOT
    if isinstance(expr, (ast.Compare, ast.Empty, ast.Has)):
        return COMPARE
    if isinstance(expr, ast.Arith):
        return PRODUCT if expr.op == "*" else SUM
    if isinstance(expr, (ast.Div, ast.Modulo)):
        return PRODUCT
    if isinstance(expr, ast.SameCard):
        return COMPARE
    if isinstance(expr, ast.Neg):
        return UNARY
    if isinstance(expr, (ast.Of, ast.Top, ast.Entry, ast.SpaceOf, ast.Aggregate)):
        return POSTFIX
    if isinstance(expr, _GRAPH):
        return _graph_precedence(expr)
    return ATOM


def _negated_comparison(e: ast.Not) -> bool:
    return isinstance(e.operand, ast.Empty) or (isinstance(e.operand, ast.Compare) and e.operand.op == "in")


def print_expr(expr: ast.Expr, min_precedence: int = COND) -> str:
    """The canonical text of `expr`, parenthesized if it binds looser than `min_precedence`."""
    text = _expr(expr)
    if precedence(expr) < min_precedence:
        return f"({text})"
    return text


def _index(e: ast.Expr) -> str:
    """The position of `entry N of` / `space N of`: a number, a name or ( expression )."""
    if isinstance(e, ast.Num) or (isinstance(e, ast.Name)):
        return _expr(e)
    return f"({print_expr(e)})"


def _expr(e: ast.Expr) -> str:  # noqa: C901 - one branch per expression kind
    if isinstance(e, ast.Num):
        return str(e.value)
    if isinstance(e, ast.Era):
        return "/".join(str(v) for v in e.values)
    if isinstance(e, ast.Percent):
        return f"{e.value}%"
    if isinstance(e, ast.Text):
        return _string(e.value)
    if isinstance(e, ast.Bool):
        return "yes" if e.value else "no"
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.This):
        return "this"
    if isinstance(e, ast.It):
        return "it"
    if isinstance(e, ast.Of):
        subject = e.subject
        if isinstance(subject, ast.Name):
            if subject.name == "me":
                return f"my {e.name}"
            return f"{subject.name}'s {e.name}"
        if isinstance(subject, ast.It):
            return f"its {e.name}"
        return f"{e.name} of {print_expr(subject, POSTFIX)}"
    if isinstance(e, ast.Top):
        count = "" if e.count is None else f" {_count(e.count)}"
        return f"{e.end}{count} of {print_expr(e.source, POSTFIX)}"
    if isinstance(e, ast.Entry):
        return f"entry {_index(e.index)} of {print_expr(e.source, POSTFIX)}"
    if isinstance(e, ast.SpaceOf):
        return f"space {_index(e.index)} of {print_expr(e.track, POSTFIX)}"
    if isinstance(e, ast.Aggregate):
        return f"{e.fn} {e.name} of {print_expr(e.collection, POSTFIX)}"
    if isinstance(e, ast.Select):
        return f"{e.word} in {print_expr(e.source, POSTFIX)}"
    if isinstance(e, ast.Relative):
        word = "starting with" if e.relation == "starting" else e.relation
        return f"{e.word} {word} {print_expr(e.player, POSTFIX)}"
    if isinstance(e, ast.Call):
        return f"{e.name}({', '.join(print_expr(a) for a in e.args)})"
    if isinstance(e, ast.Neg):
        return f"-{print_expr(e.operand, UNARY)}"
    if isinstance(e, ast.Arith):
        if e.op == "*":
            return f"{print_expr(e.left, PRODUCT)} * {print_expr(e.right, UNARY)}"
        return f"{print_expr(e.left, SUM)} {e.op} {print_expr(e.right, PRODUCT)}"
    if isinstance(e, ast.Div):
        rounding = f" rounded {e.rounding}" if e.rounding else ""
        return f"{print_expr(e.left, PRODUCT)} divided by {print_expr(e.right, UNARY)}{rounding}"
    if isinstance(e, ast.Empty):
        return f"{print_expr(e.subject, SUM)} is empty"
    if isinstance(e, ast.Has):
        return f"{print_expr(e.subject, SUM)} has {'no ' if e.negated else ''}{e.attribute}"
    if isinstance(e, ast.Compare):
        op = _COMPARE_WORDS.get(e.op, e.op)
        return f"{print_expr(e.left, SUM)} {op} {print_expr(e.right, SUM)}"
    if isinstance(e, ast.Not):
        if isinstance(e.operand, ast.Empty):
            return f"{print_expr(e.operand.subject, SUM)} is not empty"
        if isinstance(e.operand, ast.Compare) and e.operand.op == "in":
            return f"{print_expr(e.operand.left, SUM)} is not in {print_expr(e.operand.right, SUM)}"
        return f"not {print_expr(e.operand, NOT)}"
    if isinstance(e, ast.BoolOp):
        level = OR if e.op == "or" else AND
        return f"{_before(e.op, e.left, level)} {e.op} {print_expr(e.right, level + 1)}"
    if isinstance(e, ast.Where):
        return f"{print_expr(e.collection, OR)} where {print_expr(e.condition, OR)}"
    if isinstance(e, ast.Ordered):
        direction = " descending" if e.descending else ""
        return f"{print_expr(e.collection, OR)} ordered by {print_expr(e.key, OR)}{direction}"
    if isinstance(e, ast.Cond):
        return f"{print_expr(e.yes, WHERE)} if {print_expr(e.condition, WHERE)} else {print_expr(e.no, COND)}"
    general = _general_expr(e)
    if general is not None:
        return general
    if isinstance(e, _GRAPH):
        return _graph(e)
    raise TypeError(f"cannot print expression node {type(e).__name__}")


def _general_expr(e: ast.Expr) -> str | None:
    """Lists written out, modulo and "the same card as"."""
    if isinstance(e, ast.ListLiteral):
        return f"[{', '.join(print_expr(x) for x in e.items)}]"
    if isinstance(e, ast.Modulo):
        return f"{print_expr(e.left, PRODUCT)} modulo {print_expr(e.right, UNARY)}"
    if isinstance(e, ast.SameCard):
        return f"{print_expr(e.left, SUM)} is {'not ' if e.negated else ''}the same card as {print_expr(e.right, SUM)}"
    return None


# ------------------------------------------------------------------ places joined by links
# Their forms end in optional parts (`by LINK or LINK`, `through CONDITION`), which the
# grammar takes greedily: a form written where one of those words follows it is put in
# parentheses (`_tail` says which words the end of an expression would swallow).

_GRAPH = (ast.Neighbours, ast.Within, ast.Distance, ast.ConnectedGroup)


def _graph_precedence(e: ast.Expr) -> int:
    """A form ending in a condition binds as loosely as `where`; one ending in its place
    or its links as a postfix form (an `or` after its links: see `_tail`)."""
    if isinstance(e, ast.ConnectedGroup) or getattr(e, "through", None) is not None:
        return WHERE
    return POSTFIX


def _tail(e: ast.Expr, min_precedence: int = COND) -> frozenset[str]:  # noqa: C901 - the rightmost child of each form
    """The words (`by`, `or`, `through`) that would continue `e` printed at `min_precedence`."""
    if precedence(e) < min_precedence:
        return frozenset()  # in parentheses
    if isinstance(e, ast.Neighbours):
        return frozenset({"or"}) if e.links else frozenset({"by"}) | _tail(e.place, POSTFIX)
    if isinstance(e, (ast.Within, ast.Distance)):
        if e.through is not None:
            return _tail(e.through, OR)
        if e.links:
            return frozenset({"or", "through"})
        return frozenset({"by", "through"}) | _tail(e.place if isinstance(e, ast.Within) else e.dest, POSTFIX)
    if isinstance(e, ast.ConnectedGroup):
        return _tail(e.condition, OR)
    if isinstance(e, ast.Of):
        return frozenset() if isinstance(e.subject, (ast.Name, ast.It)) else _tail(e.subject, POSTFIX)
    if isinstance(e, (ast.Top, ast.Entry, ast.Select)):
        return _tail(e.source, POSTFIX)
    if isinstance(e, ast.SpaceOf):
        return _tail(e.track, POSTFIX)
    if isinstance(e, ast.Aggregate):
        return _tail(e.collection, POSTFIX)
    if isinstance(e, ast.Relative):
        return _tail(e.player, POSTFIX)
    if isinstance(e, ast.Modulo):
        return _tail(e.right, UNARY)
    if isinstance(e, ast.SameCard):
        return _tail(e.right, SUM)
    if isinstance(e, ast.Neg):
        return _tail(e.operand, UNARY)
    if isinstance(e, ast.Arith):
        return _tail(e.right, UNARY if e.op == "*" else PRODUCT)
    if isinstance(e, ast.Div):
        return frozenset() if e.rounding else _tail(e.right, UNARY)
    if isinstance(e, ast.Compare):
        return _tail(e.right, SUM)
    if isinstance(e, ast.BoolOp):
        return _tail(e.right, (OR if e.op == "or" else AND) + 1)
    if isinstance(e, ast.Not):
        if isinstance(e.operand, ast.Compare) and e.operand.op == "in":
            return _tail(e.operand.right, SUM)
        return frozenset() if isinstance(e.operand, ast.Empty) else _tail(e.operand, NOT)
    if isinstance(e, ast.Where):
        return _tail(e.condition, OR)
    if isinstance(e, ast.Ordered):
        return frozenset() if e.descending else _tail(e.key, OR)
    if isinstance(e, ast.Cond):
        return _tail(e.no, COND)
    return frozenset()


def _before(word: str, e: ast.Expr, min_precedence: int) -> str:
    """`e` printed where `word` comes next: in parentheses if `word` would continue it."""
    text = print_expr(e, min_precedence)
    return f"({text})" if word in _tail(e, min_precedence) else text


def _via(links: tuple[ast.Name, ...]) -> str:
    return " by " + " or ".join(n.name for n in links) if links else ""


def _graph(e: ast.Expr) -> str:
    if isinstance(e, ast.Neighbours):
        return f"neighbours of {_before('by', e.place, POSTFIX) if e.links else print_expr(e.place, POSTFIX)}" \
               f"{_via(e.links)}"
    if isinstance(e, ast.ConnectedGroup):
        place = _before("by", e.place, POSTFIX) if e.links else print_expr(e.place, POSTFIX)
        return f"connected group of {place}{_via(e.links)} where {print_expr(e.condition, OR)}"
    assert isinstance(e, (ast.Within, ast.Distance))
    last = e.place if isinstance(e, ast.Within) else e.dest
    next_word = "by" if e.links else "through" if e.through is not None else ""
    end = _before(next_word, last, POSTFIX) if next_word else print_expr(last, POSTFIX)
    through = f" through {print_expr(e.through, OR)}" if e.through is not None else ""
    if isinstance(e, ast.Within):
        return f"{e.word} within {_count(e.steps)} of {end}{_via(e.links)}{through}"
    return f"distance from {print_expr(e.origin, POSTFIX)} to {end}{_via(e.links)}{through}"


def _string(value: str) -> str:
    if '"' in value or "\n" in value:
        raise ValueError(f"text {value!r} cannot be written in the effect language")
    return f'"{value}"'


def _count(count: ast.Expr) -> str:
    """`count_n`: a bare integer or a parenthesized expression."""
    if isinstance(count, ast.Num):
        return str(count.value)
    return f"({print_expr(count)})"


def _field(name: str, value: Any, spec: str) -> str:
    if spec == "count":
        return _count(value)
    if spec == "or":  # an operand a `where` or `if` may follow: `to (A if C else B) where ...`
        return print_expr(value, OR)
    if spec == "text":
        return _string(value)
    if isinstance(value, ast.Name):
        return value.name
    if isinstance(value, ast.Expr):
        return print_expr(value)
    if name == "text":
        return _string(value)
    return str(value)


# ------------------------------------------------------------------ statements


def _for(player: ast.Expr | None) -> str:
    return "" if player is None else f" for {print_expr(player)}"


def _modifier(m: ast.Modifier) -> str:
    subject = "" if m.subject is None else f" of {print_expr(m.subject, POSTFIX)}"
    return f"{m.quantity.name}{subject} {m.op} {print_expr(m.value)}{_for(m.scope)}"


def _simple(s: ast.Stmt) -> str | None:
    """One-line statements; None for compound ones."""
    spec = CONSTRUCTS.get(type(s))
    if spec is not None and spec.written:
        before_by = {name for name in ("what", "target", "track") if "{" + name + "} by" in spec.written}

        def field(name: str, value: Any, fmt: str) -> str:
            if name in before_by and isinstance(value, ast.Expr):
                return _before("by", value, COND)
            return _field(name, value, fmt)
        return fill(spec.written, s, field)
    if isinstance(s, ast.Offer):
        return f"offer {', '.join(a.name for a in s.actions)} to {print_expr(s.players)}"
    if isinstance(s, ast.Run):
        return f"{s.name.name}({', '.join(print_expr(a) for a in s.args)})"
    if isinstance(s, ast.Announce):
        args = ", ".join(f"{a.name} = {print_expr(a.value)}" for a in s.args)
        return f"announce {s.event.name}" + (f" with {args}" if args else "")
    if isinstance(s, ast.ChooseFrom):
        if s.mode == "up_to":
            count = f"up to {_count(s.count)}"
        elif isinstance(s.count, ast.Num) and s.count.value == 1:
            count = "a"
        else:
            count = _count(s.count)
        if isinstance(s.collection, ast.ListLiteral):  # `choose one of [A, B]`, `choose 2 of [A, B, C]`
            count = "one of" if count == "a" else f"{count} of"
        return f"choose {count} {print_expr(s.collection)} as {s.var}"
    if isinstance(s, ast.Perform):
        mode = {"one": "one", "up_to_one": "up to one", "any": "any"}[s.mode]
        return f"perform {mode} of {', '.join(a.name for a in s.actions)}"
    if isinstance(s, ast.SortTurnOrder):
        direction = "descending" if s.descending else "ascending"
        return f"sort turn order by {print_expr(s.key)} {direction}"
    if isinstance(s, ast.TimedModifier):
        return f"until {s.until.name}: {_modifier(s.modifier)}"
    if isinstance(s, ast.PickRandom):
        count = "a" if isinstance(s.count, ast.Num) and s.count.value == 1 else _count(s.count)
        what = print_expr(s.collection)
        if isinstance(s.collection, ast.ListLiteral):  # `one of [a, b]`, `2 of [a, b, c]`
            count = "one of" if count == "a" else f"{count} of"
        elif not isinstance(s.collection, ast.Name):  # `one of (cards in my hand)`, never "a cards in ..."
            count, what = ("one of" if count == "a" else f"{count} of"), f"({what})"
        elif count == "a" and what[:1] in "aeiou":  # `an outpost`: the same tree as `a`
            count = "an"
        return f"pick at random {count} {what} as {s.var}"
    return None


def _block(header: str, body: ast.Body, depth: int) -> list[str]:
    lines = [f"{INDENT * depth}{header}:"]
    for stmt in body:
        lines.extend(_statement_lines(stmt, depth + 1))
    return lines


def _statement_lines(s: ast.Stmt, depth: int) -> list[str]:
    simple = _simple(s)
    if simple is not None:
        return [INDENT * depth + simple]
    if isinstance(s, ast.If):
        lines: list[str] = []
        for i, branch in enumerate(s.branches):
            keyword = "if" if i == 0 else "else if"
            lines.extend(_block(f"{keyword} {print_expr(branch.condition)}", branch.body, depth))
        if s.otherwise is not None:
            lines.extend(_block("else", s.otherwise, depth))
        return lines
    if isinstance(s, ast.ChooseOne):
        lines = [f"{INDENT * depth}choose one:"]
        for option in s.options:
            cond = "" if option.condition is None else f" if {print_expr(option.condition)}"
            lines.extend(_block(f"{_string(option.label)}{cond}", option.body, depth + 1))
        return lines
    if isinstance(s, ast.May):
        prompt = "" if s.prompt is None else f" {_string(s.prompt)}"
        return _block(f"may{prompt}", s.body, depth)
    if isinstance(s, ast.ForEach):
        return _block(f"for each {s.var} in {print_expr(s.collection)}", s.body, depth)
    if isinstance(s, ast.Repeat):
        return _block(f"repeat {print_expr(s.count)} times", s.body, depth)
    if isinstance(s, ast.AsPlayer):
        return _block(f"as {print_expr(s.player)}", s.body, depth)
    if isinstance(s, ast.TakeTurns):
        until = "" if s.until is None else f" until {print_expr(s.until)}"
        return _block(f"take turns{until}", s.body, depth)
    raise TypeError(f"cannot print statement node {type(s).__name__}")


def print_statement(stmt: ast.Stmt, depth: int = 0) -> str:
    """The canonical text of one statement (several lines for a compound one), no final newline."""
    return "\n".join(_statement_lines(stmt, depth))


# ------------------------------------------------------------------ declarations


def _declaration_lines(d: ast.Node) -> list[str]:
    if isinstance(d, ast.Trigger):
        cond = "" if d.condition is None else f" where {print_expr(d.condition)}"
        once = " once per turn" if d.once else ""
        return _block(f"when {d.event.name}{cond}{once}", d.body, 0)
    if isinstance(d, ast.Hook):
        return _block(f"when this {d.kind} play", d.body, 0)
    if isinstance(d, ast.Continuous):
        return [f"while in play: {_modifier(d.modifier)}"]
    raise TypeError(f"cannot print declaration node {type(d).__name__}")


def print_program(program: ast.Program) -> str:
    """Canonical source for a whole effect: statements, then declarations; ends with a newline."""
    lines: list[str] = []
    for stmt in program.statements:
        lines.extend(_statement_lines(stmt, 0))
    for decl in program.declarations:
        lines.extend(_declaration_lines(decl))
    return "".join(line + "\n" for line in lines)

