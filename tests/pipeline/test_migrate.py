"""Format versions and `legacies migrate`: a file written for format 1 (no `format:`,
`starting_choices:` in ruleset.yaml) is read as format 2 with a warning (F008), and
upgraded in place, text edited where the format changed and nowhere else. The format-1
files here are written by the tests themselves, so that migrating the repository's
files never changes what these tests see."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.pipeline import formats, text_edit
from legacies.pipeline.load import load_file
from legacies.pipeline.migrate import migrate, upgrade_text
from legacies.pipeline.models import CURRENT_FORMAT
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import validate

runner = CliRunner()

OLD_RULESET = """\
# yaml-language-server: $schema=../../schemas/ruleset.schema.json
# Race to ten: the header comment stays first.
ruleset: 'race'          # quoted, with a comment
title: "Race to ten"
players: {min: 2,   max: 4}   # odd spacing kept

hand: hand
score: points
"starting_choices": [first_card]    # the quotes stay too
# values a report groups by
values:
  first_card: {scope: player, type: "kind:card"}
counters:
  points: {}
zones:
  deck: {scope: game, visibility: hidden, refill_from: discard, discard_to: discard}
  discard: {scope: game}
  hand: {visibility: owner, discard_to: discard}
kinds:
  card: {piece: card, starts_in: deck, attributes: {worth: number}}
"""

NEW_RULESET = """\
# yaml-language-server: $schema=../../schemas/ruleset.schema.json
# Race to ten: the header comment stays first.
format: 2
ruleset: 'race'          # quoted, with a comment
title: "Race to ten"
players: {min: 2,   max: 4}   # odd spacing kept

hand: hand
score: points
"win_rates_by": [first_card]    # the quotes stay too
# values a report groups by
values:
  first_card: {scope: player, type: "kind:card"}
counters:
  points: {}
zones:
  deck: {scope: game, visibility: hidden, refill_from: discard, discard_to: discard}
  discard: {scope: game}
  hand: {visibility: owner, discard_to: discard}
kinds:
  card: {piece: card, starts_in: deck, attributes: {worth: number}}
"""

PROCEDURES = """\
actions:
  play_card:
    label: "Play {C}"
    choose: cards in my hand
    as: C
    do: |
      gain C's worth points
      discard C
  draw_card:
    label: Draw a card
    do: |
      draw 1 from deck
setup: |
  shuffle deck
  deal 3 from deck to hand of players
game: |
  take turns:
      perform one of play_card, draw_card
      if my points >= 10:
          stop taking turns
"""

CARDS = """\
ruleset: race
items:
  - {id: one, kind: card, name: One, copies: 8, attributes: {worth: 1}}
  - {id: three, kind: card, name: Three, copies: 4, attributes: {worth: 3}}
"""


def race(root: Path, ruleset: str = OLD_RULESET) -> Path:
    """The race game of docs/authoring.md, written for format 1, in `root`."""
    (root / "rules" / "race").mkdir(parents=True)
    (root / "content" / "race").mkdir(parents=True)
    (root / "rules" / "race" / "ruleset.yaml").write_text(ruleset, encoding="utf-8")
    (root / "rules" / "race" / "procedures.yaml").write_text(PROCEDURES, encoding="utf-8")
    (root / "content" / "race" / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return root


def test_the_steps_reach_the_current_format() -> None:
    assert [step.to for step in formats.STEPS] == list(range(2, CURRENT_FORMAT + 1))


def test_a_format_1_file_is_upgraded_to_exactly_the_expected_text(tmp_path: Path) -> None:
    path = race(tmp_path) / "rules" / "race" / "ruleset.yaml"
    result = migrate([str(path)])
    assert [(f.status, f.version) for f in result.files] == [("upgraded", 1)]
    assert path.read_text(encoding="utf-8") == NEW_RULESET
    changes = sorted((c.line, c.column, c.what) for c in result.files[0].changes)
    assert changes == [(3, 1, "`format: 2` added"), (9, 1, "`starting_choices` is now `win_rates_by`")]


def test_migrating_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    race(tmp_path)
    first = migrate([str(tmp_path)])
    assert {f.status for f in first.files} == {"upgraded"} and len(first.files) == 3
    before = {p: p.read_bytes() for p in tmp_path.rglob("*.yaml")}
    again = migrate([str(tmp_path)])
    assert {f.status for f in again.files} == {"current"}
    assert {p: p.read_bytes() for p in tmp_path.rglob("*.yaml")} == before


def test_a_migrated_folder_validates_with_no_diagnostic_and_reads_the_same(tmp_path: Path) -> None:
    race(tmp_path)
    old = load_ruleset("race", tmp_path)
    assert old.spec is not None and old.spec.starting_choices == ["first_card"]
    migrate([str(tmp_path)])
    assert validate([str(tmp_path)]).diagnostics == []
    new = load_ruleset("race", tmp_path)
    assert new.spec is not None and new.spec.starting_choices == ["first_card"]
    for path in tmp_path.rglob("*.yaml"):
        assert path.read_text(encoding="utf-8").count("format: 2\n") == 1


def test_validate_warns_about_a_format_1_file_and_still_loads_it(tmp_path: Path) -> None:
    race(tmp_path)
    result = validate([str(tmp_path)])
    assert result.ok
    [warning] = result.diagnostics
    assert (warning.code, warning.severity) == ("F008", "warning")
    assert warning.file.endswith("rules/race/ruleset.yaml") and (warning.line, warning.column) == (9, 1)
    assert "written for format 1" in warning.message and "`starting_choices` is now `win_rates_by`" in warning.message
    assert warning.hint is not None and warning.hint.startswith("`legacies migrate ") and "ruleset.yaml" in warning.hint
    out = runner.invoke(app, ["validate", str(tmp_path)])
    assert out.exit_code == 0 and "warning F008" in out.output and "legacies migrate" in out.output


def test_a_problem_in_a_renamed_key_points_at_the_key_as_written(tmp_path: Path) -> None:
    race(tmp_path, OLD_RULESET.replace("[first_card]", "[first_card, points]"))
    result = validate([str(tmp_path)])
    [r001] = [d for d in result.diagnostics if d.code == "R001"]
    assert "`win_rates_by` must name player values, not `points`" in r001.message
    written = '"starting_choices": [first_card, points]'
    assert (r001.line, r001.column) == (9, written.index("points") + 1)  # where the file says it


def test_a_file_without_format_that_nothing_renames_loads_silently() -> None:
    loaded, problems = load_file("cards.yaml", "content", CARDS)
    assert loaded is not None and problems == []


def test_a_file_stating_an_older_format_is_warned_at_its_format() -> None:
    loaded, problems = load_file("cards.yaml", "content", "format: 1\n" + CARDS)
    assert loaded is not None
    assert [(d.code, d.severity, d.line, d.column) for d in problems] == [("F008", "warning", 1, 9)]


@pytest.mark.parametrize("value, words", [
    ("3", "written for format 3; this version of legacies reads formats 1 to 2"),
    ("two", "`format:` must be a whole number from 1 to 2, not the text 'two'"),
    ("0", "not the number 0"),
    ("true", "not true"),
])
def test_a_format_this_engine_cannot_read_is_an_error(tmp_path: Path, value: str, words: str) -> None:
    loaded, problems = load_file("cards.yaml", "content", f"ruleset: race\nformat: {value}\nitems: []\n")
    assert loaded is None
    assert [(d.code, d.severity, d.line, d.column) for d in problems] == [("F009", "error", 2, 9)]
    assert words in problems[0].message
    path = tmp_path / "cards.yaml"
    path.write_text(f"ruleset: race\nformat: {value}\nitems: []\n", encoding="utf-8")
    result = migrate([str(path)])
    assert [f.status for f in result.files] == ["refused"] and path.read_text().startswith("ruleset: race\nformat:")


def test_format_2_reads_the_new_name_and_refuses_the_old_one() -> None:
    new = NEW_RULESET.replace("format: 2\n", "format: 2\n")
    loaded, problems = load_file("ruleset.yaml", "ruleset", new)
    assert loaded is not None and problems == []
    assert loaded.model.win_rates_by == ["first_card"]  # type: ignore[attr-defined]
    old_name = NEW_RULESET.replace('"win_rates_by"', "starting_choices")
    loaded, problems = load_file("ruleset.yaml", "ruleset", old_name)
    assert [d.code for d in problems] == ["S003"]  # the rest of the file loads, to be checked: the key refused
    assert loaded is not None and "starting_choices" not in loaded.data  # left out, the rest read as written


def test_both_names_in_a_format_1_file_is_refused_and_said(tmp_path: Path) -> None:
    both = OLD_RULESET.replace("# values a report", "win_rates_by: [first_card]\n# values a report")
    path = tmp_path / "ruleset.yaml"
    path.write_text(both, encoding="utf-8")
    result = migrate([str(path)])
    assert [f.status for f in result.files] == ["refused"] and path.read_text(encoding="utf-8") == both
    assert result.files[0].problem is not None and "both `starting_choices` and `win_rates_by`" in \
        result.files[0].problem.message
    _, problems = load_file("ruleset.yaml", "ruleset", both)
    assert "F008" in [d.code for d in problems] and "S003" in [d.code for d in problems]


def test_check_reports_without_writing_and_exits_1_while_something_would_change(tmp_path: Path) -> None:
    race(tmp_path)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*.yaml")}
    out = runner.invoke(app, ["migrate", "--check", str(tmp_path)])
    assert out.exit_code == 1, out.output
    assert "would upgrade" in out.output and "`starting_choices` is now `win_rates_by`" in out.output
    assert {p: p.read_bytes() for p in tmp_path.rglob("*.yaml")} == before
    diff = runner.invoke(app, ["migrate", "--diff", str(tmp_path)])
    assert diff.exit_code == 0 and '-"starting_choices": [first_card]' in diff.output and "+format: 2" in diff.output
    assert {p: p.read_bytes() for p in tmp_path.rglob("*.yaml")} == before
    done = runner.invoke(app, ["migrate", str(tmp_path)])
    assert done.exit_code == 0 and "3 files upgraded to format 2" in done.output
    clean = runner.invoke(app, ["migrate", "--check", str(tmp_path)])
    assert clean.exit_code == 0 and "0 files would be upgraded to format 2, 3 already at format 2" in clean.output


def test_a_broken_file_is_refused_untouched_and_the_others_are_migrated(tmp_path: Path) -> None:
    race(tmp_path)
    broken = tmp_path / "content" / "race" / "broken.yaml"
    broken.write_bytes(b"ruleset: race\nitems:\n  - {id: x, kind: card\n")
    binary = tmp_path / "content" / "race" / "blob.yaml"
    binary.write_bytes(b"\x00\xff\xfe garbage")
    out = runner.invoke(app, ["migrate", str(tmp_path)])
    assert out.exit_code == 1
    assert "broken.yaml:3:5: error Y001" in out.output and "(left as it is)" in out.output  # at the `{` left open
    assert "2 refused" in out.output and "3 files upgraded" in out.output
    assert broken.read_bytes() == b"ruleset: race\nitems:\n  - {id: x, kind: card\n"
    assert binary.read_bytes() == b"\x00\xff\xfe garbage"
    assert "Traceback" not in out.output


def test_other_yaml_files_are_skipped_and_a_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    scenario = tmp_path / "choices.yaml"
    scenario.write_text("- name: a scenario test\n  item: C1003\n", encoding="utf-8")
    config = tmp_path / ".pre-commit-hooks.yaml"
    config.write_text("- id: hook\n", encoding="utf-8")
    out = runner.invoke(app, ["migrate", str(scenario)])
    assert out.exit_code == 0 and "skipped" in out.output and "not a rules or content file" in out.output
    assert scenario.read_text(encoding="utf-8") == "- name: a scenario test\n  item: C1003\n"
    missing = runner.invoke(app, ["migrate", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "no such file or folder" in missing.output


def test_line_endings_and_a_byte_order_mark_are_kept() -> None:
    raw = ("\ufeff" + OLD_RULESET.replace("\n", "\r\n")).encode("utf-8")
    result = upgrade_text("ruleset.yaml", raw, Path("rules/race/ruleset.yaml"))
    assert result.status == "upgraded"
    written = text_edit.decode(raw).encode(result.after)
    assert written == ("\ufeff" + NEW_RULESET.replace("\n", "\r\n")).encode("utf-8")


@pytest.mark.parametrize("old, new", [
    ("--- # a document marker\nruleset: race\nitems: []\n", "--- # a document marker\nformat: 2\nruleset: race\nitems: []\n"),
    ("{ruleset: race, items: []}\n", "{format: 2, ruleset: race, items: []}\n"),
    ("ruleset: race\nformat: 1\nitems: []\n", "ruleset: race\nformat: 2\nitems: []\n"),
])
def test_the_format_is_stated_whatever_the_file_looks_like(old: str, new: str) -> None:
    result = upgrade_text("cards.yaml", old.encode(), Path("content/race/cards.yaml"))
    assert (result.status, result.after) == ("upgraded", new)


def test_a_failed_write_leaves_the_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = race(tmp_path) / "rules" / "race" / "ruleset.yaml"

    def fail(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    result = migrate([str(path)])
    assert [f.status for f in result.files] == ["refused"]
    assert result.files[0].problem is not None and "the disk is full" in result.files[0].problem.message
    assert path.read_text(encoding="utf-8") == OLD_RULESET
    assert sorted(p.name for p in path.parent.iterdir()) == ["procedures.yaml", "ruleset.yaml"]  # no temporary file


def test_scenario_tests_in_the_old_wording_are_upgraded(tmp_path: Path) -> None:
    """Issue 34 §4: a scenario test whose `changes:` were recorded before `try` dropped the
    article after a possessive ("P1's the player card being played") failed; `migrate`
    rewrites them in today's words, in any quoting, touching nothing else, once."""
    tests = tmp_path / "tests.yaml"
    tests.write_text("# my tests\n- item: C1005\n  seed: 5\n  changes:\n"
                     "    - \"P1's the player card being played: - The X\"   # kept\n"
                     "    - 'P2''s the extra fame each relationship costs: 2 -> 0'\n"
                     "    - \"P1's gold: 200 -> 197\"\n", encoding="utf-8")
    result = runner.invoke(app, ["migrate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "(scenario tests: today's wording)" in result.output and "5:7:" in result.output
    assert tests.read_text(encoding="utf-8") == (
        "# my tests\n- item: C1005\n  seed: 5\n  changes:\n"
        "    - \"P1's player card being played: - The X\"   # kept\n"
        "    - 'P2''s extra fame each relationship costs: 2 -> 0'\n"
        "    - \"P1's gold: 200 -> 197\"\n")
    again = migrate([str(tmp_path)])
    assert [f.status for f in again.files] == ["skipped"]
