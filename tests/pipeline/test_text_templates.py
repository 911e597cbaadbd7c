"""Issue 33, section 5: a `text:` template (a definition's or procedure's card text) may
name only its parameters. `{P.__class__.__mro__}`, `{0}` and format specs are located
errors (R015), and such a template is never formatted or printed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from legacies.pipeline.build.layers import template_problem
from legacies.pipeline.explain import card_texts
from legacies.pipeline.validate import validate

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("text", ["{P.__class__.__mro__}'s legacies", "{0}'s legacies", "{P:>10}'s legacies",
                                  "{P!r}'s legacies", "{P[0]}'s legacies", "{}'s legacies", "{P's legacies",
                                  "P}'s legacies", "{Q}'s legacies", "{{P}}'s legacies"])
def test_a_template_that_names_anything_but_a_parameter_is_a_located_error(tmp_path: Path, text: str) -> None:
    for sub in ("rules/legacy", "content/legacy"):
        shutil.copytree(REPO / sub, tmp_path / sub, ignore=shutil.ignore_patterns("__*"))
    procedures = tmp_path / "rules/legacy/procedures.yaml"
    source = procedures.read_text(encoding="utf-8")
    assert "    text: \"{P}'s legacies\"\n" in source
    procedures.write_text(source.replace("    text: \"{P}'s legacies\"\n", f"    text: {json.dumps(text)}\n"),
                          encoding="utf-8")
    result = validate([str(tmp_path)])
    r015 = [d for d in result.diagnostics if d.code == "R015"]
    assert len(r015) == 1 and not result.ok, [d.headline() for d in result.diagnostics]
    assert r015[0].file.endswith("procedures.yaml") and r015[0].line == 7 and r015[0].column > 1
    assert "__mro__" not in r015[0].message or "not one of its parameters" in r015[0].message
    texts = " ".join(card_texts("legacy", str(tmp_path)).values())
    assert "__mro__" not in texts and "object" not in texts and "{" not in texts


def test_the_shipped_templates_name_only_their_parameters() -> None:
    assert template_problem("{P}'s legacies", ["P"]) is None
    assert template_problem("turn-order spot {N} is free", ["N"]) is None
    assert template_problem("plain words", []) is None
    assert "not one of its parameters" in template_problem("{0}", ["P"])  # type: ignore[operator]
