"""Source text -> AST: the Lark LALR parser, the indentation post-lexer and the
Transformer that builds `dsl.ast` nodes with their spans.

Syntax errors never escape as Lark exceptions: `parse_program` returns the AST or
raises `SyntaxErrors`, which carries one Diagnostic per bad line (E1xx). After an
error the parser recovers: the bad line is set aside (a block opener becomes a
blank opener, any other line a no-op) and parsing starts again, so every syntax
error of an effect is reported at once, each at its own line.

The grammar and its parser are dsl/grammar.py, the tree builder dsl/to_ast.py, the
wording of syntax errors dsl/syntax_errors.py; this module parses, recovers and
caches (dsl/parse_cache.py).
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError

from . import ast
from .diagnostics import Diagnostic
from .grammar import STATEMENT_WORDS, EffectIndenter, effect_parser, grammar_text, keywords
from .parse_cache import parse_cache
from .syntax_errors import SyntaxErrors, close_word, line_depths, statement_start, syntax_diagnostic
from .to_ast import ToAst

__all__ = ["EXPRESSION_LEAD", "EXPRESSION_PREFIX", "MAX_DEPTH", "MAX_SYNTAX_ERRORS", "STATEMENT_WORDS",
           "EffectIndenter", "SyntaxErrors", "close_word", "grammar_text", "keywords", "parse_expression",
           "parse_program"]

MAX_SYNTAX_ERRORS = 20  # per effect; a file with more gets the first twenty
MAX_DEPTH = 100
"""How deep an effect's syntax tree may nest (E111). Each operator counts one level, a
block statement (`if`, `for each`...) two: the statement and its block. The passes
after parsing (the transformer, checker, compiler, printer, renderer) walk the tree
recursively; this limit keeps them far from Python's recursion limit."""


# ---------------------------------------------------------------------- recovery


def _normalize(source: str) -> str:
    text = source.expandtabs(4)
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.endswith("\n"):
        text += "\n"
    return text


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _in_options(lines: list[str], index: int, indent: int) -> bool:
    """Line `index` (0-based) sits among the options of a `choose one:`."""
    for earlier in reversed(lines[:index]):
        if _code(earlier) and _indent(earlier) < indent:
            return earlier.split("#", 1)[0].split() == ["choose", "one:"] or \
                earlier.split("#", 1)[0].replace(" ", "") == "chooseone:"
    return False


def _set_aside(text: str, line: int) -> str | None:
    """The text with the statement on line `line` (all its lines, when parentheses carry
    it over several) replaced by one that cannot fail at its indentation: `if yes:` when
    the next line is indented deeper (it opened a block), else `log ""` (`"":` among
    the options of a `choose one:`). None when there is nothing to replace."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines) or not lines[line - 1].strip():
        return None
    depths = line_depths(text)
    start = statement_start(text, line)
    end = line
    while end < len(lines) and depths[end] > 0:
        end += 1
    current = lines[start - 1]
    indent = _indent(current)
    deeper = next((_indent(later) > indent for later in lines[end:] if _code(later)), False)
    if _in_options(lines, start - 1, indent):
        filler = '"":' if deeper else '"": log ""'
    else:
        filler = "if yes:" if deeper else 'log ""'
    lines[start - 1] = " " * indent + filler
    for i in range(start, end):
        lines[i] = ""
    return "\n".join(lines)


def _reindent(text: str, line: int, width: int) -> str | None:
    """The text with line `line`, and the lines after it indented as deep or deeper, moved
    left to indentation `width` (keeping their indentation relative to each other)."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return None
    shift = _indent(lines[line - 1]) - width
    if shift <= 0:
        return None
    first = _indent(lines[line - 1])
    for i in range(line - 1, len(lines)):
        if not _code(lines[i]):
            continue
        if i > line - 1 and _indent(lines[i]) < first:
            break
        lines[i] = lines[i][shift:]
    return "\n".join(lines)


def _previous_indent(text: str, line: int) -> int:
    lines = text.split("\n")
    depths = line_depths(text)
    for i in range(line - 2, -1, -1):
        if _code(lines[i]) and depths[i] == 0:
            return _indent(lines[i])
    return 0


def _dedent_problem(text: str) -> tuple[int, int, list[int]]:
    """The first line whose indentation matches no enclosing block: (line, its
    indentation, the indentations of the blocks open above it)."""
    widths = [0]
    depths = line_depths(text)
    for number, raw in enumerate(text.split("\n"), 1):
        if not _code(raw) or depths[number - 1] > 0:
            continue
        width = _indent(raw)
        if width > widths[-1]:
            widths.append(width)
            continue
        around = list(widths)
        while width < widths[-1]:
            widths.pop()
        if widths[-1] != width:
            return number, width, around
    return 1, 0, [0]


def _too_deep(tree: Tree) -> Diagnostic | None:
    """E111 at the first place (in line order) where the tree nests past MAX_DEPTH;
    measured without recursion, before anything walks the tree recursively."""
    deepest: list[Tree] = []
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            deepest.append(node)
            continue
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    if not deepest:
        return None
    line, column = min(_tree_position(node) for node in deepest)
    return Diagnostic("E111", f"this is nested too deeply: more than {MAX_DEPTH} levels of operators and blocks",
                      line, column, hint="split it: name a part with `let NAME be ...`, or move an inner block "
                      "into a procedure")


def _tree_position(node: Tree) -> tuple[int, int]:
    meta = node.meta
    if not getattr(meta, "empty", True):
        return meta.line, meta.column
    stack: list[Any] = [node]
    while stack:  # the first token below, without recursion (the subtree may be deep)
        current = stack.pop()
        if isinstance(current, Token) and current.line is not None:
            return current.line, current.column or 1
        if isinstance(current, Tree):
            stack.extend(reversed(current.children))
    return 1, 1


def _parse_text(text: str) -> ast.Program:
    try:
        tree = effect_parser().parse(text)
        deep = _too_deep(tree)
        if deep is not None:
            raise SyntaxErrors([deep])
        return ToAst().transform(tree)
    except VisitError as err:  # unwrap, as lark's docs advise
        raise err.orig_exc from None


def parse_program(source: str) -> ast.Program:
    """Parse an effect. Raises SyntaxErrors carrying every syntax problem, one per line,
    in line order: after an error the bad statement is set aside (a mis-indented line
    is moved back in line) and the parser starts again. An effect parsed before (in
    any process) is read from the parse cache (dsl/parse_cache.py)."""
    return parse_cache().cached("program", _normalize(source), _parse_normalized, ast.Program)


def _set_aside_words(original: str, recovered: str) -> tuple[frozenset[int], frozenset[str]]:
    """The lines recovery changed (1-based) and the words written on them."""
    changed = [(n, old) for n, (old, new) in enumerate(zip(original.split("\n"), recovered.split("\n")), 1)
               if old != new]
    words = {w for _, old in changed for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", old)}
    return frozenset(n for n, _ in changed), frozenset(words)


def _parse_normalized(text: str) -> ast.Program:
    original = text
    found: list[Diagnostic] = []
    lines_seen: set[int] = set()
    for _ in range(MAX_SYNTAX_ERRORS):
        try:
            program = _parse_text(text)
        except UnexpectedInput as err:
            d = syntax_diagnostic(err, text)
            if isinstance(err, UnexpectedToken) and err.token.type == "_INDENT":
                aside = _reindent(text, d.line, _previous_indent(text, d.line))
            else:
                aside = _set_aside(text, d.line)
        except DedentError:
            line, width, widths = _dedent_problem(text)
            shown = " or ".join(str(w) for w in widths)
            d = Diagnostic("E103", "the indentation does not match any outer block", line, width + 1,
                           hint=f"this line is indented {width} spaces, the blocks around it {shown}: "
                                "indent it like the block it belongs to")
            aside = _reindent(text, line, max(w for w in widths if w < width))
        except SyntaxErrors as err:
            d = err.diagnostics[0]
            aside = _set_aside(text, d.line)
        else:
            if found:  # the rest parsed: checked by whoever can (pipeline/build/base.py)
                raise SyntaxErrors(sorted(found, key=lambda x: (x.line, x.column)), program,
                                   _set_aside_words(original, text))
            return program
        if d.line in lines_seen:
            break  # no progress: what follows is a consequence of an error already reported
        found.append(d)
        lines_seen.add(d.line)
        if d.code == "E101" or aside is None or aside == text:
            break
        text = aside
    raise SyntaxErrors(sorted(found, key=lambda x: (x.line, x.column)))


def parse_expression(source: str) -> ast.Expr:
    """Parse a single expression (a condition or a value written in YAML)."""
    program = parse_program(f"{EXPRESSION_LEAD}{source}")
    stmt = program.statements[0] if program.statements else None
    if len(program.statements) != 1 or program.declarations or not isinstance(stmt, ast.Let):
        raise SyntaxErrors([Diagnostic("E109", "expected a single expression", 1, 1)])
    return stmt.value


# An expression written in YAML is parsed as the value of this `let`; spans of an
# expression are measured inside this prefix on line 1 (pipeline/build/passes.py takes it off).
EXPRESSION_LEAD = "let __value be "
EXPRESSION_PREFIX = len(EXPRESSION_LEAD)
