"""The compiler is parts that share one CompileContext, not a tower of classes (issue
36): no class of interpreter/compiler.py, interpreter/compile/ or interpreter/codegen/
is built on another of its own (protocols and exceptions aside), none is over about 500
lines, and each node kind has one closure handler."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Protocol

from legacies.interpreter import compiler

INTERPRETER = Path(compiler.__file__).resolve().parent
MODULES = ["compiler"] + [f"{folder}.{p.stem}" for folder in ("compile", "codegen")
                          for p in sorted((INTERPRETER / folder).glob("*.py")) if p.stem != "__init__"]


def _classes() -> list[type]:
    found = []
    for name in MODULES:
        module = importlib.import_module(f"legacies.interpreter.{name}")
        found += [c for _, c in inspect.getmembers(module, inspect.isclass)
                  if c.__module__ == module.__name__ and Protocol not in c.__mro__ and not issubclass(c, BaseException)]
    return found


def test_no_part_of_the_compiler_inherits_another() -> None:
    classes = _classes()
    assert len(classes) >= 14
    towers = [f"{c.__name__}({', '.join(b.__name__ for b in c.__mro__[1:-1])})" for c in classes if len(c.__mro__) > 2]
    assert not towers, f"compiler classes built on others: {towers}"


def test_no_part_of_the_compiler_is_much_over_500_lines() -> None:
    sizes = {c.__name__: len(inspect.getsourcelines(c)[0]) for c in _classes()}
    assert not {n: s for n, s in sizes.items() if s > 520}, sizes


def test_each_node_kind_has_one_closure_handler() -> None:
    for prefix in ("x_", "s_"):
        names = [n for part in compiler.CLOSURE_PARTS for n in dir(part) if n.startswith(prefix)]
        assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
