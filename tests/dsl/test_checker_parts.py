"""The checker is parts that share one CheckState, not a tower of classes (issue 36):
no class of dsl/checker.py and dsl/check/ inherits another, none is over 500 lines, and every node kind
a part checks is checked by that part alone."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

from legacies.dsl import checker
from legacies.dsl.check.base import handler_names

DSL = Path(checker.__file__).resolve().parent
MODULES = ["checker"] + sorted(f"check.{p.stem}" for p in (DSL / "check").glob("*.py") if p.stem != "__init__")


def _classes() -> list[type]:
    found = []
    for name in MODULES:
        module = importlib.import_module(f"legacies.dsl.{name}")
        found += [c for _, c in inspect.getmembers(module, inspect.isclass) if c.__module__ == module.__name__]
    return found


def test_no_part_of_the_checker_inherits_another() -> None:
    classes = _classes()
    assert len(classes) >= 8
    towers = [f"{c.__name__}({', '.join(b.__name__ for b in c.__mro__[1:-1])})" for c in classes if len(c.__mro__) > 2]
    assert not towers, f"checker classes built on others: {towers}"


def test_no_part_of_the_checker_is_over_500_lines() -> None:
    sizes = {c.__name__: len(inspect.getsourcelines(c)[0]) for c in _classes()}
    assert not {n: s for n, s in sizes.items() if s > 500}, sizes


def test_each_node_kind_is_checked_by_one_part() -> None:
    for parts, prefix in ((checker.EXPRESSION_PARTS, "e_"), (checker.STATEMENT_PARTS, "s_")):
        names = [n for part in parts for n in handler_names(part, prefix)]
        assert len(names) == len(set(names))
        assert {n[len(prefix):] for n in names} == (checker.HANDLED_EXPRESSIONS if prefix == "e_"
                                                     else checker.HANDLED_STATEMENTS)


def test_the_checker_joins_the_parts_listed() -> None:
    from legacies.dsl.vocabulary import Vocabulary

    joined = checker.Checker(Vocabulary())
    assert tuple(type(p) for p in joined.c.parts) == checker.EXPRESSION_PARTS
    assert tuple(type(p) for p in joined.statements.parts) == checker.STATEMENT_PARTS
