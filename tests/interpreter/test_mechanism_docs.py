"""docs/language.md's examples for the mechanisms that need a ruleset of their own
(a block fenced ```legacies NAME```) check clean against the fixture ruleset NAME in
tests/interpreter/fixtures/, and are worded as card text."""

from __future__ import annotations

import re
from pathlib import Path

from legacies.dsl.checker import Checker, Context
from legacies.dsl.parser import parse_program
from legacies.dsl.renderer import Wording, render_program
from legacies.pipeline.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"


def test_the_docs_examples_on_fixture_rulesets_check_clean() -> None:
    blocks = re.findall(r"```legacies (\w+)\n(.*?)```", (ROOT / "docs" / "language.md").read_text(encoding="utf-8"), re.S)
    assert {name for name, _ in blocks} >= {"holders", "places", "windows"}
    for name, block in blocks:
        spec = load_ruleset(name, FIXTURES / name).spec
        assert spec is not None, name
        diags = Checker(spec.vocab, spec.res).check_program(parse_program(block), Context())
        assert not diags, (block, [d.headline() for d in diags])
        assert render_program(parse_program(block), Wording.of(spec.vocab))
