"""Declared ranges and enumerations of attributes (`min`, `max`, `values` on a kind's
attribute): every item's value, and the declared default, is checked (C004 at the
value); a declaration that cannot bound its type is R012. Issue 17: `century: 4` on a
Legacies card passed `validate` and the card never reached a deck."""

from __future__ import annotations

import shutil
from pathlib import Path
from textwrap import dedent

from legacies.content import __file__ as content_init
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import validate

CONTENT = Path(content_init).parent / "legacies"

RULESET = """\
format: 2
ruleset: ranged
title: Ranged
eras: [I, II, III]
era_counter: era_now
players: {min: 2, max: 3}
score: points
counters:
  points: {}
  era_now: {scope: game, start: 1, min: 1, max: 3}
zones:
  deck: {scope: game}
kinds:
  card:
    piece: card
    starts_in: deck
    attributes:
      %s
"""
PROCEDURES = "format: 2\ngame: |\n  take turns:\n      gain 1 points\n"


def check(tmp_path: Path, attributes: str, items: str) -> list:
    (tmp_path / "rules" / "ranged").mkdir(parents=True)
    (tmp_path / "content" / "ranged").mkdir(parents=True)
    (tmp_path / "rules" / "ranged" / "ruleset.yaml").write_text(RULESET % attributes, encoding="utf-8")
    (tmp_path / "rules" / "ranged" / "procedures.yaml").write_text(PROCEDURES, encoding="utf-8")
    (tmp_path / "content" / "ranged" / "cards.yaml").write_text(
        "format: 2\nruleset: ranged\nitems:\n" + dedent(items), encoding="utf-8")
    return load_ruleset("ranged", root=tmp_path).diagnostics


def test_a_century_outside_the_rulebooks_three_is_c004_at_the_card(tmp_path: Path) -> None:
    """The regression: a Legacies player card of century 4 is refused where it is written."""
    (tmp_path / "content" / "legacies").mkdir(parents=True)
    text = (CONTENT / "cards_i.yaml").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip() == "century: 1")
    lines[at] = lines[at].replace("century: 1", "century: 4")
    (tmp_path / "content" / "legacies" / "cards_i.yaml").write_text("".join(lines), encoding="utf-8")
    found = validate([str(tmp_path)]).diagnostics
    assert [(d.code, d.line) for d in found] == [("C004", at + 1)]
    assert "`century` is 4, outside its declared range (from 1 to 3)" in found[0].message
    assert found[0].file.endswith("cards_i.yaml")


def test_min_max_and_values_bound_numbers_lists_era_values_and_texts(tmp_path: Path) -> None:
    found = check(tmp_path, """level: {type: number, min: 1, max: 3}
      rows: {type: numbers, min: 0}
      colour: {type: text, values: [red, blue]}
      size: {type: number, values: [1, 2, 4], default: 2}""", """\
      - {id: a, kind: card, name: A, attributes: {level: 2, rows: [0, 3], colour: red, size: 4}}
      - {id: b, kind: card, name: B, attributes: {level: 0}}
      - {id: c, kind: card, name: C, attributes: {level: 1/2/5}}
      - {id: d, kind: card, name: D, attributes: {rows: [1, -1]}}
      - {id: e, kind: card, name: E, attributes: {colour: green}}
      - {id: f, kind: card, name: F, attributes: {size: 3}}
    """)
    messages = [(d.code, d.line, d.message) for d in found]
    assert [(c, line) for c, line, _ in messages] == [("C004", 5), ("C004", 6), ("C004", 7), ("C004", 8),
                                                      ("C004", 9)], messages
    assert "`level` is 0, outside its declared range (from 1 to 3)" in messages[0][2]
    assert "`level` is 5" in messages[1][2]  # the third era's number of 1/2/5
    assert "`rows` is -1, outside its declared range (at least 0)" in messages[2][2]
    assert "`colour` is 'green', not one of the values it may take (red, blue)" in messages[3][2]
    assert "`size` is 3" in messages[4][2]


def test_a_default_outside_the_range_is_c004_at_the_declaration(tmp_path: Path) -> None:
    found = check(tmp_path, "level: {type: number, min: 1, max: 3, default: 0}",
                  "- {id: a, kind: card, name: A, attributes: {level: 2}}\n")
    assert [(d.code, d.file.endswith("ruleset.yaml")) for d in found] == [("C004", True)]


def test_a_range_that_cannot_bound_its_type_is_r011(tmp_path: Path) -> None:
    found = check(tmp_path, """flagged: {type: flag, min: 1}
      level: {type: number, min: 5, max: 2}
      colour: {type: text, values: [1, 2]}
      hue: {type: "symbol:hue", values: [red]}""", "- {id: a, kind: card, name: A}\n")
    r011 = [d.message for d in found if d.code == "R012"]
    assert len(r011) == 4, [d.headline() for d in found]
    assert "bound a number or a list of numbers, not a yes/no condition" in r011[0]
    assert "`min: 5` is above `max: 2`" in r011[1]
    assert "are texts, not 1" in r011[2]


def test_the_shipped_legacies_ruleset_declares_the_rulebooks_ranges() -> None:
    spec = load_ruleset("legacies").spec
    kinds = spec.vocab.kinds
    for kind in ("player_card", "event", "solo_card"):
        rng = kinds[kind].ranges["century"]
        assert (rng.lo, rng.hi) == (1, 3)
    assert (kinds["difficulty_level"].ranges["number"].lo, kinds["difficulty_level"].ranges["number"].hi) == (1, 6)


def test_by_era_is_for_a_list_of_effects_or_numbers(tmp_path: Path) -> None:
    """`by_era: true` (one entry per era: card text at the table shows the current era's)
    on an attribute that is no list is R012 at `by_era`; on a list it is kept."""
    found = check(tmp_path, """level: {type: number, by_era: true}
      gifts: {type: effects, by_era: true, label: gifts}""", "- {id: a, kind: card, name: A}\n")
    assert [d.code for d in found] == ["R012"], [d.headline() for d in found]
    assert "`by_era` is for a list of effects or numbers, not" in found[0].message
    kind = load_ruleset("ranged", root=tmp_path).build.vocab.kinds["card"]
    assert kind.by_era == frozenset({"gifts"}) and kind.attribute_labels == {"gifts": "gifts"}
