"""No module takes another module's private name: `from .x import _y` couples a module
to what the other keeps for itself (a rename there breaks it here, and the structure
pictures and editors cannot see the dependency as part of either's public face). A name
that another module needs is public (no underscore). Names of other libraries are
their own business (dsl/grammar_cache.py's Lark name is pinned and tested there)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("dsl", "interpreter", "pipeline", "view", "agents", "cli")


def private_imports(path: Path) -> list[str]:
    """`file:line name` for each private name the file imports from this project."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        ours = node.level > 0 or (node.module or "").startswith("legacies")
        if not ours:
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {alias.name}")
    return found


def test_no_module_imports_another_modules_private_name() -> None:
    modules = [p for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))]
    assert len(modules) > 100
    found = [hit for p in modules for hit in private_imports(p)]
    assert not found, "private names imported across modules:\n" + "\n".join(found)


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    """The check itself finds what it looks for: relative and absolute, on one line or many."""
    sample = ROOT / "tests" / "_private_import_sample.py"
    sample.write_text("from .files import (a,\n    _b)\nfrom legacies.dsl.ast import _c\nfrom os import _exit\n",
                      encoding="utf-8")
    try:
        hits = private_imports(sample)
    finally:
        sample.unlink()
    assert [h.split(" ")[1] for h in hits] == ["_b", "_c"]
