"""A base's bounds an expansion can widen (issue 34 §1): `extends: true` on an attribute
or an item counter in `extend_kinds:` widens its declared range or list without copying
the kind; it never narrows (R012) and names what the kind has (R009). The designer's
cases, over the shipped Legacies: a 9th and 10th global action (`slot` stopped at 8) and
a 13th scoring tile (`scoring_tile.number` stops at 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.interpreter import sandbox
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import RulesetResult, load_ruleset

WIDENS = """
extend_kinds:
  scoring_tile:
    attributes:
      number: {extends: true, max: 14}
  global_action:
    counters:
      slot: {extends: true, max: 10}
"""
CONTENT = """format: 2
ruleset: legacies
items:
  - {id: ga_gala, kind: global_action, name: Hold a Gala, attributes: {order: 9, resolve: "gain 1 fame"}}
  - {id: ga_fair, kind: global_action, name: Hold a Fair, attributes: {order: 10, resolve: "gain 1 fame"}}
  - id: thirteenth
    kind: scoring_tile
    name: Thirteenth Bonus
    attributes: {tile: end_of_game, number: 13, icons: [power], score: "gain 1 fame"}
"""


def expansion(tmp_path: Path, head: str) -> Path:
    folder = tmp_path / "galas"
    (folder / "content" / "legacies").mkdir(parents=True)
    (folder / "expansion.yaml").write_text("format: 2\nexpansion: galas\nextends: legacies\ntitle: Galas\n" + head,
                                           encoding="utf-8")
    (folder / "content" / "legacies" / "galas.yaml").write_text(CONTENT, encoding="utf-8")
    return folder


def found(result: RulesetResult) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in result.diagnostics if d.severity == "error"]


def test_an_expansion_widens_a_range_and_a_counters_bounds(tmp_path: Path) -> None:
    without = load_ruleset("legacies", expansions=[expansion(tmp_path / "a", "")])
    assert any(code == "C004" and "13" in message for code, message in found(without)), found(without)
    laid = load_ruleset("legacies", expansions=[expansion(tmp_path / "b", WIDENS)])
    assert laid.ok, found(laid)
    kinds = laid.spec.vocab.kinds
    assert kinds["scoring_tile"].ranges["number"].hi == 14 and kinds["scoring_tile"].ranges["number"].lo == 1
    assert kinds["global_action"].counters["slot"].max == 10
    state = Game(laid.spec, 3).new_state(1)
    assert sandbox.value(state, "ga_gala's slot", 0) == 9  # was clamped to 8 without a word
    assert sandbox.value(state, "ga_fair's slot", 0) == 10


@pytest.mark.parametrize("head, code, words", [
    ("extend_kinds:\n  scoring_tile:\n    attributes:\n      number: {extends: true, max: 10}\n", "R012",
     "`max: 10` does not widen `number` (its max is 12)"),
    ("extend_kinds:\n  global_action:\n    counters:\n      slot: {extends: true, min: 1, max: 10}\n", "R012",
     "`min: 1` does not widen `slot` (its min is 0)"),
    ("extend_kinds:\n  scoring_tile:\n    attributes:\n      numbr: {extends: true, max: 14}\n", "R009",
     "`extends: true` widens nothing: a scoring_tile has no attribute `numbr`"),
    ("extend_kinds:\n  scoring_tile:\n    attributes:\n      score: {extends: true, max: 14}\n", "R012",
     "`score` declares no `min`, `max` or `values`"),
])
def test_an_expansion_never_narrows_a_bound(tmp_path: Path, head: str, code: str, words: str) -> None:
    laid = load_ruleset("legacies", expansions=[expansion(tmp_path, head)])
    assert any(c == code and words in m for c, m in found(laid)), found(laid)


def test_validate_reports_the_value_the_base_would_clamp(tmp_path: Path) -> None:
    """Without `extends:`, the 9th global action's `set A's slot to A's order` was clamped
    to 8 in silence; now validate's setup check says so at the statement."""
    from legacies.pipeline.validate import validate
    folder = expansion(tmp_path, "")
    data = folder / "content" / "legacies" / "galas.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("number: 13", "number: 12"), encoding="utf-8")
    found = [d for d in validate([], "legacies", (folder,)).diagnostics if d.severity == "error"]
    assert [(d.code, Path(d.file).name, d.line) for d in found][:1] == [("E300", "flow.yaml", 253)], found
    assert "`set` gives `ga_gala`'s slot 9, outside its bounds (0 to 8)" in found[0].message


def test_a_base_cards_name_reused_by_an_expansion_is_a_warning(tmp_path: Path) -> None:
    """Issue 34 §1: an expansion's card under a base card's name (another id) read as one
    card to players, in silence; now C016, a warning at the name, with the way out."""
    folder = expansion(tmp_path, WIDENS)
    data = folder / "content" / "legacies" / "galas.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("name: Thirteenth Bonus", "name: Magnetic Bonus"),
                    encoding="utf-8")
    laid = load_ruleset("legacies", expansions=[folder])
    assert laid.ok, found(laid)
    [warning] = [d for d in laid.diagnostics if d.code == "C016"]
    assert warning.severity == "warning" and Path(warning.file).name == "galas.yaml" and warning.line == 8
    assert "`thirteenth` is named 'Magnetic Bonus', as the base's `magnetic`" in warning.message
    assert "`replaces: true`" in (warning.hint or "")
    assert not [d for d in load_ruleset("legacies", expansions=[expansion(tmp_path / "b", WIDENS)]).diagnostics
                if d.code == "C016"]
