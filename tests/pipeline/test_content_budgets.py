"""Content cannot escape the budgets (issue 22, part 1): numbers past the engine's limit
in effects and data files, a setup whose numbers run away, ids that can never be named
or that look like others. Each ends in a located diagnostic, quickly, never a traceback
or an engine bug (E302)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.pipeline.validate import validate

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "interpreter" / "fixtures" / "tiny"
runner = CliRunner()
HUGE = "9" * 5000


def _tiny(tmp_path: Path) -> Path:
    root = tmp_path / "tiny"
    shutil.copytree(TINY, root)
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _codes(root: Path) -> list[tuple[str, str, int, int]]:
    return sorted((d.code, Path(d.file).name, d.line, d.column) for d in validate([str(root)]).diagnostics
                  if d.code != "W305")  # tiny's runaway action, there on purpose


# --------------------------------------------------------------------------- numbers
def test_a_setup_whose_numbers_run_away_is_e300_at_the_statement_in_a_second(tmp_path: Path) -> None:
    root = _tiny(tmp_path)
    _edit(root / "rules/tiny/procedures.yaml", "game: |\n",
          "game: |\n  set rounds_played to 2\n  repeat 40 times:\n      set rounds_played to rounds_played * rounds_played\n")
    started = time.process_time()
    result = validate([str(root)])
    assert time.process_time() - started < 5
    (d,) = [d for d in result.diagnostics if d.code != "W305"]
    assert (d.code, Path(d.file).name, d.line, d.column) == ("E300", "procedures.yaml", 31, 7)
    assert "past the engine's limit" in d.message


def test_a_long_number_in_a_card_is_e112_at_the_number_not_an_engine_bug(tmp_path: Path) -> None:
    root = _tiny(tmp_path)
    with open(root / "content/tiny/cards.yaml", "a", encoding="utf-8") as f:
        f.write(f"  - id: huge\n    kind: card\n    name: Huge\n    effect: |\n      gain 1 points\n"
                f"      gain {HUGE} points\n")
    assert _codes(root) == [("E112", "cards.yaml", 11, 12)]


def test_a_long_number_in_try_run_is_e112_not_a_traceback() -> None:
    result = runner.invoke(app, ["try", "small", "--ruleset", str(TINY), "--run", f"gain {HUGE} points"])
    assert result.exit_code == 1, result.output  # an effect that does not check, as any other
    assert "E112" in result.output and "<effect>:1:6" in result.output and "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("file, old, new, code", [
    ("rules/tiny/ruleset.yaml", "gold: {start: 10}", "gold: {start: 10, max: 10000000000000000}", "S005"),
    ("rules/tiny/ruleset.yaml", "gold: {start: 10}", "gold: {start: -10000000000000000, min: null}", "S005"),
    ("content/tiny/cards.yaml", "worth: 3}", "worth: 10000000000000000}", "C004"),
    ("content/tiny/cards.yaml", "worth: 3}", f"worth: {HUGE}}}", "Y005"),
])
def test_a_number_past_the_limit_in_a_data_file_is_located(tmp_path: Path, file: str, old: str, new: str,
                                                          code: str) -> None:
    root = _tiny(tmp_path)
    _edit(root / file, old, new)
    codes = [c for c in _codes(root) if c[0] != "F003"]  # (a ruleset.yaml that does not load: no ruleset, F003)
    assert [c[:2] for c in codes] == [(code, Path(file).name)]


# --------------------------------------------------------------------------- names
def _with_cards(root: Path, *lines: str) -> Path:
    with open(root / "content/tiny/cards.yaml", "a", encoding="utf-8") as f:
        f.writelines(f"  - {line}\n" for line in lines)
    return root


def test_ids_the_language_takes_are_c008_and_those_it_reads_as_names_are_not(tmp_path: Path) -> None:
    root = _with_cards(_tiny(tmp_path), *(f"{{id: {i}, kind: card, name: Card {i}, attributes: {{worth: 1}}}}"
                                          for i in ("this", "me", "players", "total", "one", "gain", "discard_pile")))
    _edit(root / "rules/tiny/ruleset.yaml", "  points: {}\n", "  points: {}\n  owner: {}\n  top: {}\n")
    assert _codes(root) == [("C010", "cards.yaml", 6, 10), ("C010", "cards.yaml", 7, 10), ("C010", "cards.yaml", 8, 10),
                            ("C010", "cards.yaml", 9, 10), ("C010", "ruleset.yaml", 12, 3),
                            ("C010", "ruleset.yaml", 13, 3)]


def test_the_hint_to_rename_a_taken_name_names_it(tmp_path: Path) -> None:
    """The hint once said `this_card` whatever the name (`me`, a counter `owner`)."""
    root = _with_cards(_tiny(tmp_path), "{id: me, kind: card, name: Me, attributes: {worth: 1}}")
    _edit(root / "rules/tiny/ruleset.yaml", "  points: {}\n", "  points: {}\n  owner: {}\n")
    hints = [d.hint for d in validate([str(root)]).diagnostics if d.code == "C010"]
    assert hints == ["rename it (a capital letter or a suffix is enough: `Owner`, `owner_counter`)",
                     "rename it (a capital letter or a suffix is enough: `Me`, `me_item`)"]


def test_a_long_id_is_c009(tmp_path: Path) -> None:
    root = _with_cards(_tiny(tmp_path), f"{{id: {'x' * 10_000}, kind: card, name: Long, attributes: {{worth: 1}}}}",
                       f"{{id: {'y' * 64}, kind: card, name: Just short enough, attributes: {{worth: 1}}}}")
    assert _codes(root) == [("C011", "cards.yaml", 6, 10)]
    message = validate([str(root)]).diagnostics[0].message
    assert "10,000 characters" in message and len(message) < 100


@pytest.mark.parametrize("name, code, words", [
    ("Sma\u202ell", "C012", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),  # also looks like Small: C013
    ("B\u0456g", "C013", "CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I"),
    ("BIG", "C013", "`BIG` looks like the item name `Big`"),
    ("Sm\u200ball", "C012", "U+200B (ZERO WIDTH SPACE)"),
])
def test_names_that_hide_characters_or_look_alike_are_flagged(tmp_path: Path, name: str, code: str, words: str) -> None:
    root = _with_cards(_tiny(tmp_path), f'{{id: extra, kind: card, name: "{name}", attributes: {{worth: 1}}}}')
    found = [d for d in validate([str(root)]).diagnostics if d.code.startswith("C0")]
    assert code in {d.code for d in found} and all((d.line, d.column) == (6, 35) for d in found), found
    assert any(words in d.message for d in found if d.code == code)


def test_ids_that_look_alike_are_c011_and_the_shipped_rulesets_have_none(tmp_path: Path) -> None:
    root = _with_cards(_tiny(tmp_path), "{id: sma11, kind: card, name: Smalls, attributes: {worth: 1}}",
                       "{id: smal1, kind: card, name: Smallest, attributes: {worth: 1}}")
    _edit(root / "rules/tiny/ruleset.yaml", "  points: {}\n", "  points: {}\n  g\u043eld: {}\n")
    assert _codes(root) == [("C013", "cards.yaml", 6, 10), ("C013", "cards.yaml", 7, 10),  # both look like `small`
                            ("C013", "ruleset.yaml", 12, 3)]
    assert not [d for d in validate([]).diagnostics if d.code in ("C010", "C011", "C012", "C013")]
