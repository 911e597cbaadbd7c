"""Helpers the mechanism tests share: the checker's findings for a piece of source, and
the build's findings for a fixture ruleset copied and edited."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import pytest

from legacies.dsl.checker import Checker, Context
from legacies.dsl.parser import parse_program
from legacies.pipeline.ruleset import load_ruleset

FIXTURES = Path(__file__).parent / "fixtures"
Findings = list[tuple[str, str, str | None]]  # (code, message, hint)


@pytest.fixture()
def checked() -> Callable[..., Findings]:
    """`checked(spec, source)`: what the checker says of `source`, run as a player's effect."""
    def check(spec, source: str) -> Findings:  # type: ignore[no-untyped-def]
        diags = Checker(spec.vocab, spec.res).check_program(parse_program(source), Context())
        return [(d.code, d.message, d.hint) for d in diags]
    return check


@pytest.fixture()
def edited(tmp_path: Path) -> Callable[..., Findings]:
    """`edited(name, {file: (old, new)})`: the build's findings for fixture `name` with
    each file's `old` text replaced by `new` (each edit in a copy of its own)."""
    copies = iter(range(1000))

    def build(name: str, edits: dict[str, tuple[str, str]]) -> Findings:
        root = tmp_path / str(next(copies)) / name
        shutil.copytree(FIXTURES / name, root)
        for rel, (old, new) in edits.items():
            path = root / rel
            text = path.read_text(encoding="utf-8")
            assert old in text, old
            path.write_text(text.replace(old, new), encoding="utf-8")
        return [(d.code, d.message, d.hint) for d in load_ruleset(name, root).diagnostics]
    return build


@pytest.fixture(scope="module")
def holders_spec():  # type: ignore[no-untyped-def]
    """The built `holders` fixture (cards that hold pieces)."""
    result = load_ruleset("holders", FIXTURES / "holders")
    assert result.ok, [d.headline() for d in result.diagnostics]
    return result.spec
