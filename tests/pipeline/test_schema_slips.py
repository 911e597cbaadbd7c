"""A schema slip in ruleset.yaml or a procedures file (a user's trial): one counter's
`scope: everyone` refused ruleset.yaml whole, and validate said only that and "a ruleset
needs exactly one ruleset.yaml, found 0", hiding a misspelt statement in the cards and a
misspelt zone in the procedures. Now the entry the schema refuses is taken out, the rest
is checked, and what follows from the entry refused says so; a slip that nothing can be
taken out for (a key the schema requires) says that the other files wait for it."""

from __future__ import annotations

import shutil
from pathlib import Path

from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import validate

REPO = Path(__file__).resolve().parents[2]


def _legacy(root: Path, edits: dict[str, tuple[str, str]]) -> Path:
    for sub in ("rules/legacy", "content/legacy"):
        (root / sub).mkdir(parents=True)
        for f in (REPO / sub).glob("*.yaml"):
            shutil.copy(f, root / sub / f.name)
    for name, (old, new) in edits.items():
        path = root / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


TYPOS = {
    "content/legacy/cards.yaml": ("move given to", "mvoe given to"),
    "rules/legacy/procedures.yaml": ("value: cards in tableau of P", "value: cards in tablau of P"),
}


def test_a_counter_refused_hides_no_other_mistake(tmp_path: Path) -> None:
    root = _legacy(tmp_path, {**TYPOS, "rules/legacy/ruleset.yaml": ("points: {scope: player", "points: {scope: everyone")})
    found = validate([str(root / "rules/legacy")]).diagnostics
    by_code = {(d.code, Path(d.file).name) for d in found}
    assert {("S005", "ruleset.yaml"), ("E110", "cards.yaml"), ("E203", "procedures.yaml")} <= by_code
    assert "F003" not in {d.code for d in found}
    follows = [d for d in found if d.hint and "`points` in ruleset.yaml was refused (its error is in " in d.hint and "rules/legacy/ruleset.yaml)" in d.hint]
    assert follows and all("points" in d.message for d in follows)  # unknown counter `points`, `score` ...
    assert load_ruleset("legacy", root).spec is None  # never played: the file has an error


def test_a_definition_refused_in_procedures_hides_no_other_mistake(tmp_path: Path) -> None:
    root = _legacy(tmp_path, {**TYPOS, "rules/legacy/procedures.yaml": ("params: {P: player}", "params: [P]")})
    found = validate([str(root / "rules/legacy")]).diagnostics
    codes = {(d.code, Path(d.file).name) for d in found}
    assert ("E110", "cards.yaml") in codes and any(c[0].startswith("S") and c[1] == "procedures.yaml" for c in codes)
    follows = [d for d in found if d.hint and "`legacies_of` in procedures.yaml was refused" in d.hint]
    assert follows


def test_a_slip_in_a_required_key_says_the_other_files_wait(tmp_path: Path) -> None:
    root = _legacy(tmp_path, {**TYPOS, "rules/legacy/ruleset.yaml": ("players: {min: 2,", "players: {min: two,")})
    found = validate([str(root / "rules/legacy")]).diagnostics
    assert [(d.code, d.severity) for d in found if d.code != "S004"] == [("F003", "warning")]
    assert "not checked until its ruleset.yaml loads" in found[0].message + found[-1].message
    assert not any("found 0" in d.message for d in found)


def test_the_editor_says_so_on_each_open_file_left_unchecked(tmp_path: Path) -> None:
    """In the editor (cli/lsp/), an open procedures file whose ruleset.yaml is refused
    whole says why nothing in it is underlined, rather than showing nothing."""
    from legacies.cli.lsp.check import check_document

    root = _legacy(tmp_path, {"rules/legacy/ruleset.yaml": ("players: {min: 2,", "players: {min: two,")})
    procedures, ruleset = root / "rules/legacy/procedures.yaml", root / "rules/legacy/ruleset.yaml"
    texts = {p: p.read_text(encoding="utf-8") for p in (procedures, ruleset)}
    check = check_document(procedures, texts)
    said = [(Path(d.file).name, d.code, d.severity) for d in check.diagnostics]
    assert ("procedures.yaml", "F003", "warning") in said and ("ruleset.yaml", "S004", "error") in said
    assert any("this file's names and effects are not checked" in d.message for d in check.diagnostics
               if Path(d.file).name == "procedures.yaml")


def test_a_misspelt_key_is_mended_and_what_is_under_it_is_checked(tmp_path: Path) -> None:
    """A user's trial: `lable:` on an action was two errors (S002 and S003), took the action
    out, said every use of it was unknown, and hid a misspelt name in its body until a third
    run. It is one error, the action is read as if `label:` were written, and its body is
    checked; an optional key misspelt (a counter's `lable:`) is left out, the counter kept."""
    root = _legacy(tmp_path, {
        "rules/legacy/procedures.yaml": ("    label: Take a legacy card", "    lable: Take a legacy card"),
        "rules/legacy/ruleset.yaml": ("points: {scope: player, label: points}", "points: {scope: player, lable: points}"),
    })
    text = (root / "rules/legacy/procedures.yaml").read_text(encoding="utf-8")
    (root / "rules/legacy/procedures.yaml").write_text(text.replace("move kept to my hand", "move kep to my hand"),
                                                       encoding="utf-8")
    found = validate([str(root / "rules/legacy")]).diagnostics
    codes = sorted((d.code, Path(d.file).name) for d in found)
    assert codes == [("E201", "procedures.yaml"), ("S003", "procedures.yaml"), ("S003", "ruleset.yaml")], codes
    assert any("unknown name `kep`" in d.message for d in found)
    action = next(d for d in found if d.code == "S003" and "procedures" in d.file)
    assert action.message.endswith("unknown property 'lable', where the required 'label' is missing")
    assert action.hint == "write 'label' for 'lable'"


def test_a_value_yaml_reads_as_another_type_gets_the_fix_in_its_hint(tmp_path: Path) -> None:
    """A user's trial: `name: True` (and `1812`, `Null`) said only "expected text, got
    true"; `century: 1.5` and `1e9` said "expected a number, found 1.5"; an empty file
    said only that it was empty."""
    folder = tmp_path / "slips"
    (folder / "content" / "legacies").mkdir(parents=True)
    (folder / "expansion.yaml").write_text("format: 2\nexpansion: slips\nextends: legacies\ntitle: Slips\n",
                                           encoding="utf-8")
    (folder / "content" / "legacies" / "cards.yaml").write_text(
        "format: 2\nruleset: legacies\nitems:\n"
        "  - {id: Q1, kind: player_card, name: True, attributes: {century: 1, industry: law, resources: [gem]}}\n"
        "  - {id: Q2, kind: player_card, name: 1812, attributes: {century: 1, industry: law, resources: [gem]}}\n"
        "  - {id: Q3, kind: player_card, name: Fine, attributes: {century: 1.5, industry: law, resources: [gem]}}\n",
        encoding="utf-8")
    (folder / "content" / "legacies" / "empty.yaml").write_text("", encoding="utf-8")
    found = {(Path(d.file).name, d.line, d.code): d for d in validate([], "legacies", (folder,)).diagnostics}
    assert found[("cards.yaml", 4, "S004")].hint == \
        'YAML reads this as true or false: put it in quotes to mean the text (`name: "True"`)'
    assert found[("cards.yaml", 5, "S004")].hint.startswith("YAML reads this as a number: put it in quotes")
    whole = found[("cards.yaml", 6, "C004")]
    assert whole.message == "expected a whole number, found 1.5" and "no fraction" in str(whole.hint)
    assert "start it with `format:`" in str(found[("empty.yaml", 1, "S004")].hint)
