"""`legacies new KIND`: a new item with the next free id, valid at once, appended to the
file where its kind lives, in a copy of the shipped rulesets; refused with a reason when
it cannot be (a taken id, an unknown kind, the installed ruleset)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.pipeline import new_item as new_item_module
from legacies.pipeline.new_item import next_id
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.schemas import write_schemas
from legacies.pipeline.validate import validate

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for name in ("legacies", "legacy"):
        for part in ("rules", "content"):
            shutil.copytree(REPO / part / name, tmp_path / part / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def new(root: Path, *args: str, ruleset: str = "legacies") -> tuple[int, str]:
    result = runner.invoke(app, ["new", *args, "--ruleset", ruleset, "--path", str(root)])
    return result.exit_code, result.output


def written(output: str) -> tuple[str, str, int]:
    """(id, file, line) from `wrote KIND ID (...) to FILE:LINE`."""
    match = re.search(r"^wrote \S+ (\S+) \(.*\) to (\S+):(\d+)", output, re.MULTILINE)
    assert match, output
    return match.group(1), match.group(2), int(match.group(3))


@pytest.mark.parametrize("kind, args, ruleset, expected_id, file", [
    ("successor", [], "legacies", None, "content/legacies/successors.yaml"),
    ("player_card", ["--like", "C1003"], "legacies", "C1051", "content/legacies/cards_i.yaml"),
    ("heirlooms", [], "legacies", None, "content/legacies/heirlooms.yaml"),
    ("legacy card", [], "legacy", "legacy_card_1", "content/legacy/cards.yaml"),
], ids=["successor", "player card like C1003", "heirloom by its plural", "legacy card by its label"])
def test_a_new_item_is_valid_at_once_and_explained(root: Path, kind: str, args: list[str], ruleset: str,
                                                   expected_id: str | None, file: str) -> None:
    path = root / file
    before = path.read_text(encoding="utf-8")
    code, out = new(root, kind, *args, ruleset=ruleset)
    assert code == 0, out
    item_id, shown, line = written(out)
    assert expected_id is None or item_id == expected_id
    assert Path(shown).resolve() == path.resolve()
    after = path.read_text(encoding="utf-8")
    assert after.startswith(before)  # appended: every comment and line of the file kept
    assert after.splitlines()[line - 1].strip() == f"- id: {item_id}"
    assert "the ruleset validates with no errors" in out and f"legacies explain {item_id}" in out
    assert validate([str(root)], ruleset).ok
    explained = runner.invoke(app, ["explain", item_id, "--ruleset", ruleset, "--path", str(root)])
    assert explained.exit_code == 0 and f"({item_id})" in explained.output, explained.output


def test_like_keeps_every_field_and_the_effect(root: Path) -> None:
    """Issue 34 §4: `--like ID` copies the item named whole (its requires, every attribute,
    its effects), under a new id and name; without it, only what every item of the kind
    has, the effects left to write."""
    code, out = new(root, "player_card", "--like", "C1003", ruleset="legacies")
    assert code == 0, out
    item_id, shown, line = written(out)
    text = Path(shown).read_text(encoding="utf-8").splitlines()[line - 1:]
    block = "\n".join(text[:text.index("", 1)] if "" in text[1:] else text)
    assert "requires: " in block and "my gold >= 2" in block
    assert "industry: military" in block and "resources: [iron]" in block
    assert "opportunity: |\n        pay 2 gold\n        choose an industry as X\n        raise X's space by 1" in block
    assert "is not written yet" not in block
    explained = runner.invoke(app, ["explain", item_id, "--ruleset", "legacies", "--path", str(root)])
    assert "Pay 2 gold. Choose an industry." in explained.output, explained.output


def test_ids_follow_the_pattern_and_increment(root: Path) -> None:
    path = root / "content/legacies/successors.yaml"
    last = int(re.findall(r"- id: S(\d+)", path.read_text(encoding="utf-8"))[-1])
    _, first = new(root, "successor")
    _, second = new(root, "successor")
    assert (written(first)[0], written(second)[0]) == (f"S{last + 1:02d}", f"S{last + 2:02d}")
    text = path.read_text(encoding="utf-8")
    # a card number that follows the id follows it
    assert f"number: {last + 2}" in text.split(f"- id: S{last + 2:02d}")[1]
    assert next_id("C3050", "player_card", {"C3051"}) == "C3052"
    assert next_id("S09", "successor_card", set()) == "S10"
    assert next_id("politician", "character", {"character_1"}) == "character_2"


def test_a_new_file_is_made_when_asked(root: Path) -> None:
    code, out = new(root, "event", "--file", "more_events")
    assert code == 0 and "(a new file)" in out, out
    made = root / "content/legacies/more_events.yaml"
    first, rest = made.read_text(encoding="utf-8").split("\n", 1)
    assert first.startswith("# yaml-language-server: $schema=")  # the schema, for an editor
    assert rest.startswith("format: 2\nruleset: legacies\nitems:\n  - id: E316\n")


@pytest.mark.parametrize("args, words", [
    (["successor", "--id", "S01"], "--id S01: taken by `S01`"),
    (["successor", "--id", "s01"], "--id s01: taken by `S01`"),
    (["successor", "--id", "9 lives"], "an id is a letter or `_`"),
    (["card"], "has no kind `card`; did you mean"),
    (["successr"], "has no kind `successr`; did you mean successor_card? its kinds"),  # each kind once
    (["successor", "--like", "C1003"], "--like C1003: `C1003` is a player_card, not a successor_card"),
])
def test_a_request_that_cannot_be_met_is_refused_and_nothing_is_written(root: Path, args: list[str],
                                                                         words: str) -> None:
    before = {p: p.read_bytes() for p in root.rglob("*.yaml")}
    code, out = new(root, *args)
    assert code == 2 and words in out, out
    assert {p: p.read_bytes() for p in root.rglob("*.yaml")} == before


def test_the_installed_ruleset_is_never_written(root: Path) -> None:
    result = runner.invoke(app, ["new", "successor", "--ruleset", "legacies"])
    assert result.exit_code == 2
    assert "not into the installed ruleset `legacies`: copy it first" in result.output
    assert "legacies new successor --ruleset my-legacies" in result.output


def test_an_item_that_would_not_validate_is_taken_back(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = new_item_module._item
    monkeypatch.setattr(new_item_module, "_item", lambda *args: {**made(*args), "effect": "gain 1 nonsense\n"})
    path = root / "content/legacy/cards.yaml"
    before = path.read_bytes()
    code, out = new(root, "legacy_card", ruleset="legacy")
    assert code == 1 and "would not validate, so nothing was written" in out and "nonsense" in out, out
    assert path.read_bytes() == before


def test_a_new_item_goes_into_an_expansion_over_the_installed_ruleset(tmp_path: Path) -> None:
    """A designer's own expansion: the installed ruleset is never written to; the items go
    into the expansion's content/NAME/ (a new file per kind), each shaped like the last of
    its kind there, and the stack validates and explains them."""
    expansion = tmp_path / "my-expansion"

    def new_x(*args: str) -> tuple[int, str]:
        result = runner.invoke(app, ["new", *args, "--ruleset", "legacies", "--expansion", str(expansion)])
        return result.exit_code, result.output
    code, out = new_x("player_card", "--id", "X2001", "--like", "C1003")
    assert code == 0, out
    assert written(out) == ("X2001", f"{expansion}/content/legacies/player_cards.yaml", 5) and "a new file" in out
    assert f"wrote {expansion}/expansion.yaml" in out  # a new expansion declares itself
    assert "expansion: my-expansion\nextends: legacies\n" in (expansion / "expansion.yaml").read_text()
    code, out = new_x("player_card")
    assert code == 0 and written(out)[:2] == ("X2002", f"{expansion}/content/legacies/player_cards.yaml")
    assert "shaped like X2001" in out
    # the ruleset has a successors.yaml: the expansion's own file never sits at its place (issue 16)
    code, out = new_x("successor")
    assert code == 0 and written(out)[1] == f"{expansion}/content/legacies/my_expansion_successors.yaml", out
    assert sorted(p.name for p in (expansion / "content" / "legacies").iterdir()) == [
        "my_expansion_successors.yaml", "player_cards.yaml"]
    assert not validate([], "legacies", (expansion,)).diagnostics
    stacked = load_ruleset("legacies", None, [expansion])
    assert stacked.build is not None
    assert sum(1 for _, _, item in stacked.build.items.values() if item.kind == "successor_card") == 61
    code, out = new_x("successor", "--file", "successors.yaml")
    assert code == 2 and "is at the place of a file of `legacies`" in out, out
    explained = runner.invoke(app, ["explain", "X2002", "-x", str(expansion)])
    assert explained.exit_code == 0 and "New player card X2002  (X2002)" in explained.output
    code, out = new_x("player_card", "--id", "X2001")
    assert code == 2 and "X2001" in out
    code, out = runner.invoke(app, ["new", "player_card", "--ruleset", "legacies"]).exit_code, ""
    assert code == 2


def test_a_new_numbered_item_gets_a_free_number_or_says_how_to_widen(tmp_path: Path) -> None:
    """Issue 34 §1: `new scoring_tile` copied the last tile's number (12, taken); every
    number of the declared range 1-12 is taken, so it says how to widen it and writes
    nothing; widened by the expansion, the new tile gets 13, then 14. A 9th global action
    goes past the base's `slot` bound: the rules refuse it, said as theirs, not as a bug."""
    expansion = tmp_path / "tiles"

    def new_x(*args: str) -> tuple[int, str]:
        result = runner.invoke(app, ["new", *args, "--ruleset", "legacies", "--expansion", str(expansion)])
        return result.exit_code, result.output
    code, out = new_x("scoring_tile")
    assert code != 0 and "every scoring_tile `number` from 1 to 12 is taken" in out, out
    assert "`extend_kinds: {scoring_tile: {attributes: {number: {extends: true, max: 13}}}}`" in out
    assert not (expansion / "content" / "legacies").exists() or not any((expansion / "content" / "legacies").iterdir())
    expansion.mkdir(exist_ok=True)
    (expansion / "expansion.yaml").write_text(
        "format: 2\nexpansion: tiles\nextends: legacies\ntitle: Tiles\nextend_kinds:\n  scoring_tile:\n"
        "    attributes:\n      number: {extends: true, max: 14}\n", encoding="utf-8")
    for number in (13, 14):
        code, out = new_x("scoring_tile")
        assert code == 0, out
        assert f"number: {number}\n" in (expansion / "content" / "legacies" / "scoring_tiles.yaml").read_text()
    code, out = new_x("global_action")
    assert code != 0 and "a bug" not in out and "`set` gives `global_action_1`'s slot 9" in out, out
    assert "extends: true" in out


def test_an_item_shaped_like_one_with_an_effect_gets_a_placeholder_effect(root: Path) -> None:
    """A user's trial: a new Legacy card shaped like the special card `destroy_special`
    came with no effect (the kind's legacy cards have none), and a special card without
    one sat in the hand doing nothing. Its effect is a placeholder that says so when it runs."""
    code, out = new(root, "legacy card", ruleset="legacy")
    assert code == 0 and "shaped like destroy_special" in out, out
    item_id, shown, line = written(out)
    block = Path(shown).read_text(encoding="utf-8").splitlines()[line - 1:]
    assert "type: special" in "\n".join(block)
    assert f'log "New legacy card {item_id}: its effect is not written yet"' in "\n".join(block)


def test_the_files_new_makes_name_a_schema_an_editor_can_open(tmp_path: Path) -> None:
    """A user's trial: a new expansion.yaml named its schema by a web address that resolves
    nowhere, and the editor said the schema would not load. The first line of each file
    `new` makes names the installed schema of its kind by a path from the file's folder."""
    expansion = tmp_path / "mine"
    result = runner.invoke(app, ["new", "successor", "--ruleset", "legacies", "--expansion", str(expansion)])
    assert result.exit_code == 0, result.output
    made = [expansion / "expansion.yaml", *sorted((expansion / "content" / "legacies").glob("*.yaml"))]
    assert len(made) == 2
    for path, kind in zip(made, ("expansion", "content")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=") and "invalid" not in first
        schema = (path.parent / first.split("=", 1)[1]).resolve()
        assert schema == (REPO / "schemas" / f"{kind}.schema.json").resolve() and schema.is_file()
    # a repository that keeps its own copies (`python -m legacies.pipeline.schemas schemas`) is
    # pointed at them: a path that holds wherever it is cloned, not one into this machine's package
    kept = tmp_path / "repo"
    write_schemas(kept / "schemas")
    result = runner.invoke(app, ["new", "successor", "--ruleset", "legacies", "--expansion", str(kept / "mine")])
    assert result.exit_code == 0, result.output
    first = (kept / "mine" / "expansion.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schemas/expansion.schema.json", first
