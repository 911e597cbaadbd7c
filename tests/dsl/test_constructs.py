"""One place per construct: every node kind of the language has its entry in the
registry (dsl/constructs.py) and a handler in every pass (checker, compiler, printer,
renderer), and docs/language.md's reference is the registry's, word for word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from legacies.dsl import ast
from legacies.dsl.checker import HANDLED_EXPRESSIONS as CHECKED_EXPRESSIONS
from legacies.dsl.checker import HANDLED_STATEMENTS as CHECKED_STATEMENTS
from legacies.dsl.checker import Checker, Context
from legacies.dsl.constructs import BUILTINS, CONSTRUCTS, reference_markdown
from legacies.dsl.parser import keywords, parse_program
from legacies.dsl.printer import print_program
from legacies.dsl.renderer import Wording, render_program
from legacies.dsl.types import thing
from legacies.interpreter.builtins import RUN
from legacies.interpreter.compiler import HANDLED_EXPRESSIONS as COMPILED_EXPRESSIONS
from legacies.interpreter.compiler import HANDLED_STATEMENTS as COMPILED_STATEMENTS
from legacies.pipeline.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "language.md"
FIXTURE = ROOT / "tests" / "fixtures" / "minilegacies"
EXAMPLES = ROOT / "tests" / "dsl" / "fixtures" / "examples"  # the words of the registry's examples

NODES = ast.node_classes()
EXPRESSIONS = [n for n in NODES if issubclass(n, ast.Expr)]
STATEMENTS = [n for n in NODES if issubclass(n, ast.Stmt)]


def test_every_node_kind_has_a_registry_entry() -> None:
    missing = [n.__name__ for n in NODES if n is not ast.Span and n not in CONSTRUCTS]
    assert not missing, f"add these to dsl/constructs.py: {missing}"
    assert {c.__name__ for c in CONSTRUCTS} <= {n.__name__ for n in NODES}


@pytest.mark.parametrize("node", EXPRESSIONS, ids=lambda n: n.__name__)
def test_every_expression_is_checked_and_compiled(node: type) -> None:
    assert node.__name__ in CHECKED_EXPRESSIONS, f"the checker (dsl/check*.py) has no e_{node.__name__}"
    assert node.__name__ in COMPILED_EXPRESSIONS, f"interpreter/compiler.py has no x_{node.__name__}"


@pytest.mark.parametrize("node", STATEMENTS, ids=lambda n: n.__name__)
def test_every_statement_is_checked_and_compiled(node: type) -> None:
    assert node.__name__ in CHECKED_STATEMENTS or CONSTRUCTS[node].roles, \
        f"the checker (dsl/check*.py) has no s_{node.__name__} and the registry gives no roles"
    assert node.__name__ in COMPILED_STATEMENTS, f"interpreter/compiler.py has no s_{node.__name__}"


def _examples() -> list[str]:
    """One program per statement kind (the registry's example, or the printer tests')."""
    from importlib import util
    spec = util.spec_from_file_location("_roundtrip", Path(__file__).with_name("test_printer_roundtrip.py"))
    assert spec is not None and spec.loader is not None
    module = util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [c.example for c in CONSTRUCTS.values() if c.example] + [src for _, src in module.EXAMPLES]


def test_every_node_kind_is_printed_and_worded() -> None:
    """Each example parses, prints back to itself and is worded as card text; together
    they hold every node kind, so a kind a pass forgot fails here."""
    seen: set[type] = set()
    for source in _examples():
        program = parse_program(source)
        seen.update(type(n) for n in ast.walk(program))
        assert parse_program(print_program(program)) == program, source
        text = render_program(program)
        bookkeeping = all(isinstance(s, (ast.Let, ast.Log, ast.Announce)) for s in program.statements)
        assert text.strip() or bookkeeping, source  # lets, logs and announcements are not card text
    missing = {n.__name__ for n in NODES} - {n.__name__ for n in seen} - {"Span"}
    assert not missing, f"no example uses {sorted(missing)}"


def test_every_builtin_is_declared_whole() -> None:
    for name, b in BUILTINS.items():
        assert b.form in ("name", "of", "call"), name
        assert b.syntax and b.doc and b.words, name
        assert (name in RUN) != b.special, f"{name}: interpreter/builtins.py runs it unless it is special"
        assert name in b.syntax


def test_the_reference_in_the_docs_is_the_registrys() -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index("<!-- reference:start -->\n"), text.index("<!-- reference:end -->")
    documented = text[start + len("<!-- reference:start -->\n"):end]
    assert documented == reference_markdown(), \
        "docs/language.md is stale: run `python -m legacies.dsl.language_doc docs/language.md`"


def test_the_keywords_in_the_docs_are_the_grammars() -> None:
    text = DOC.read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("| Keywords |"))
    listed = set(re.search(r"`([a-z ]+)`", line).group(1).split())  # type: ignore[union-attr]
    assert listed == set(keywords()), "docs/language.md is stale: run `python -m legacies.dsl.language_doc docs/language.md`"


def test_the_registrys_examples_check_clean() -> None:
    """Each construct's example is a program a designer could write: it checks clean
    against a neutral ruleset that declares its words (`this` is a card, `T` a marker,
    `P` a town, as an example's surroundings would bind them), and reads as card text
    in that ruleset's words."""
    loaded = load_ruleset("examples", root=EXAMPLES)
    assert loaded.ok and loaded.spec is not None, [d.headline() for d in loaded.diagnostics]
    bound = {"T": thing("marker"), "P": thing("town")}
    examples = [c.example for c in CONSTRUCTS.values() if c.example]
    assert len(examples) >= 25
    for source in examples:
        free = {n: t for n, t in bound.items() if re.search(rf"\b{n}\b", source)
                and not re.search(rf"\b(as|each) {n}\b", source)}
        diags = Checker(loaded.spec.vocab, loaded.spec.res).check_program(parse_program(source),
                                                                         Context(this=thing("card"), locals=free))
        assert not [d for d in diags if d.severity == "error"], (source, [d.headline() for d in diags])
        assert render_program(parse_program(source), Wording.of(loaded.spec.vocab)).strip(), source


def test_the_docs_examples_check_clean() -> None:
    loaded = load_ruleset("minilegacies", root=FIXTURE)
    assert loaded.ok and loaded.spec is not None
    blocks = re.findall(r"```legacies\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 7
    for block in blocks:
        checker = Checker(loaded.spec.vocab, loaded.spec.res)
        diags = checker.check_program(parse_program(block), Context())
        assert not [d for d in diags if d.severity == "error"], (block, [d.headline() for d in diags])
        render_program(parse_program(block), Wording.of(loaded.spec.vocab))


# ---- what the other passes know of a statement comes from the registry alone


def test_the_words_a_statement_starts_with_are_the_registrys() -> None:
    from legacies.dsl.parser import STATEMENT_WORDS
    assert set(STATEMENT_WORDS) <= set(keywords())
    for node in STATEMENTS:
        c = CONSTRUCTS[node]
        assert c.first_words() or node is ast.Run, f"{node.__name__}: its syntax starts with no keyword"
    assert {"if", "else", "gain", "pick", "end", "when", "while", "until"} <= set(STATEMENT_WORDS)


def test_the_fields_a_statement_changes_are_its_own() -> None:
    import dataclasses
    for node, c in CONSTRUCTS.items():
        fields = {f.name for f in dataclasses.fields(node)}
        assert set(c.changes) <= fields, node.__name__
        assert not c.modifies or c.modifies.split(".")[0] in fields, node.__name__
        assert not (c.direct and issubclass(node, ast.Expr)), node.__name__


def test_a_statement_that_changes_counters_says_so() -> None:
    """A statement whose compiled code changes counters (through the compiler's
    `adjuster`) declares the fields naming them (`changes`): the trigger-cycle check
    and the score labels read that, and forgetting it would silently weaken them."""
    import inspect

    from legacies.interpreter.compiler import CLOSURE_PARTS
    for node in STATEMENTS:
        method = next(getattr(part, "s_" + node.__name__) for part in CLOSURE_PARTS
                      if hasattr(part, "s_" + node.__name__))
        source = inspect.getsource(method)
        if "adjuster(" in source or "_counter_change(" in source:
            assert CONSTRUCTS[node].changes, f"{node.__name__} changes counters: give it `changes=` in dsl/constructs.py"


def test_straight_through_statements_are_the_registrys() -> None:
    from legacies.interpreter.compile.context import DIRECT_STATEMENTS
    assert DIRECT_STATEMENTS == {n for n, c in CONSTRUCTS.items() if c.direct}
    assert ast.Let in DIRECT_STATEMENTS and ast.ChooseFrom not in DIRECT_STATEMENTS


def test_every_construct_that_holds_statements_declares_its_blocks() -> None:
    """A field holding statements (a block, branches or options with blocks) is named in
    the construct's `blocks`, so the walks that read `child_blocks` (the preview, the
    trigger analysis, the generator's straight-through test, the card text's sources)
    walk into it: a new construct cannot be skipped by one of them."""
    import dataclasses
    import typing

    from legacies.dsl.constructs import child_blocks

    def holds(hint: object) -> str | None:
        text = str(hint)
        if "Stmt" in text:
            return ""
        for part in (ast.Branch, ast.Option):
            if part.__name__ in text:
                return part.__name__
        return None

    for node, c in CONSTRUCTS.items():
        hints = typing.get_type_hints(node, vars(ast))
        wanted = []
        for f in dataclasses.fields(node):
            kind = holds(hints[f.name])
            if kind == "":
                wanted.append(f.name)
            elif kind:
                wanted.append(f"{f.name}.body")
        assert list(c.blocks) == wanted, f"{node.__name__}: blocks={c.blocks}, its fields holding statements: {wanted}"


def test_child_blocks_and_with_blocks_walk_every_block() -> None:
    from legacies.dsl.constructs import child_blocks, with_blocks
    from legacies.dsl.parser import parse_program

    program = parse_program('if my gold > 1:\n    gain 1 gold\nelse if my gold > 0:\n    gain 2 gold\nelse:\n'
                            '    gain 3 gold\nchoose one:\n    "a": gain 4 gold\n    "b": gain 5 gold\n')
    blocks = [b for s in program.statements for b in child_blocks(s)]
    assert [len(b) for b in blocks] == [1, 1, 1, 1, 1]
    emptied = [with_blocks(s, lambda b: ()) for s in program.statements]
    assert all(not any(b) for s in emptied for b in child_blocks(s)) and all(len(child_blocks(s)) for s in emptied)
