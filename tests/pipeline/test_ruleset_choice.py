"""Which ruleset a command or the language server means (pipeline/ruleset_choice.py):
an installed name or a folder holding one ruleset, the ruleset expansions are laid over,
the load with them; anything else a UsageError naming what was wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.pipeline.ruleset_choice import (UsageError, checked_folder, expanded_ruleset, expansion_stack, load_with,
                                              ruleset_arg)

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "interpreter" / "fixtures" / "tiny"
SALONS = REPO / "expansions" / "salons"


def test_an_installed_name_or_a_folder_holding_one_ruleset() -> None:
    assert ruleset_arg("legacy") == ("legacy", None)
    assert ruleset_arg(str(TINY)) == ("tiny", str(TINY))
    assert checked_folder(TINY) == str(TINY) and checked_folder(None) is None


def test_what_names_no_ruleset_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown ruleset `nosuch`; installed: .*legacy"):
        ruleset_arg("nosuch")
    with pytest.raises(UsageError, match="holds no ruleset"):
        ruleset_arg(str(tmp_path))
    for name in ("one", "two"):
        (tmp_path / "rules" / name).mkdir(parents=True)
        (tmp_path / "rules" / name / "ruleset.yaml").write_text("format: 2\n", encoding="utf-8")
    with pytest.raises(UsageError, match=r"holds several rulesets \(one, two\)"):
        ruleset_arg(str(tmp_path))
    with pytest.raises(UsageError, match="is not a folder"):
        checked_folder(tmp_path / "missing")


def test_the_ruleset_expansions_extend() -> None:
    assert expanded_ruleset("legacy", None, []) == "legacy"
    assert expanded_ruleset(None, None, ["salons"]) == "legacies"
    name, stack = expansion_stack(None, [SALONS])
    assert name == "legacies" and [e.name for e in stack] == ["salons"]
    with pytest.raises(UsageError, match=f"the expansions are for `legacies`, and {TINY} holds tiny"):
        expanded_ruleset(None, str(TINY), ["salons"])
    with pytest.raises(UsageError, match="no such folder, and no expansion of that name"):
        expansion_stack(None, ["nosuch"])


def test_the_load_with_expansions_laid_over() -> None:
    loaded = load_with("legacies", None, ["salons"])
    assert loaded.ok and [e.name for e in loaded.expansions] == ["salons"]
    with pytest.raises(UsageError):
        load_with("legacy", None, ["salons"])  # salons extends legacies, not legacy
