"""Quick fixes, find references and rename in `legacies lsp` (issue 34 §2), driven as an
editor drives them: the server a subprocess spoken to in JSON-RPC (the Editor of
tests/cli/test_lsp.py), a diagnostic's code action asked for and its edit applied to the
text, which the server then checks clean; a rename's workspace edit applied to the files
on disk, which `legacies validate` then finds clean."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest

from legacies.agents.scenario_tests import find_tests, run_tests
from legacies.pipeline.validate import validate

pytest.importorskip("pygls")

_spec = importlib.util.spec_from_file_location("lsp_editor_driver", Path(__file__).with_name("test_lsp.py"))
assert _spec is not None and _spec.loader is not None
driver = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(driver)
Editor, editor = driver.Editor, driver.editor  # the editor's end, and the fixture that starts one
REPO = Path(__file__).resolve().parents[2]


def applied(text: str, edits: list[dict[str, Any]]) -> str:
    """`text` with an editor's TextEdits applied (ASCII text: characters are UTF-16 units)."""
    lines = text.split("\n")

    def offset(p: dict[str, int]) -> int:
        return sum(len(line) + 1 for line in lines[:p["line"]]) + p["character"]

    for e in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        text = text[:offset(e["range"]["start"])] + e["newText"] + text[offset(e["range"]["end"]):]
    return text


def fixes_for(editor: Editor, uri: str, d: dict[str, Any]) -> list[dict[str, Any]]:
    return list(editor.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": d["range"],
                                                           "context": {"diagnostics": [d]}}) or [])


def only_edit(action: dict[str, Any], uri: str) -> list[dict[str, Any]]:
    assert list(action["edit"]["changes"]) == [uri]
    return list(action["edit"]["changes"][uri])


def test_a_did_you_mean_and_a_parenthesised_form_are_quick_fixes(editor: Editor, tmp_path: Path) -> None:
    driver._copy_ruleset(tmp_path)
    cards = tmp_path / "content" / "legacies" / "cards_i.yaml"
    good = cards.read_text(encoding="utf-8")
    broken = good.replace("choose an industry as X", "choose an industri as X", 1).replace(
        "pay 2 gold", "gain count of (industries + characters in my hand) gold", 1)
    uri = driver._open(editor, cards, broken)
    found = {d["code"]: d for d in editor.diagnostics(uri)}
    assert {"E201", "E221"} <= set(found)

    [fix] = fixes_for(editor, uri, found["E201"])
    assert fix["title"] == "Change `industri` to `industry`" and fix["kind"] == "quickfix" and fix["isPreferred"]
    assert fix["diagnostics"][0]["code"] == "E201"
    [edit] = only_edit(fix, uri)
    assert edit["newText"] == "industry" and edit["range"] == found["E201"]["range"]
    text = applied(broken, [edit])

    both, every = fixes_for(editor, uri, found["E221"])
    assert both["title"] == "Write `(industries in my hand) + (characters in my hand)`" and both["isPreferred"]
    assert every["title"] == "Write `industries + (characters in my hand)`"
    text = applied(text, only_edit(both, uri))
    assert "gain count of ((industries in my hand) + (characters in my hand)) gold" in text

    driver._change(editor, uri, 2, text)
    after = editor.diagnostics(uri)
    assert not [d for d in after if d["code"] in ("E201", "E221")]
    assert driver._said(after) == driver._validated(tmp_path, text)
    # no hint, no fix: a diagnostic whose hint names no edit gets no action
    line = next(n for n, t in enumerate(text.split("\n")) if "- id: C1003" in t)
    nothing = editor.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {
        "start": {"line": line, "character": 0}, "end": {"line": line, "character": 4}}, "context": {"diagnostics": []}})
    assert nothing == []


def test_an_expansions_replaces_and_a_hooks_params_are_quick_fixes(editor: Editor, tmp_path: Path) -> None:
    folder = tmp_path / "seaside"
    shutil.copytree(REPO / "docs" / "examples" / "legacies-expansion", folder)
    content = folder / "content" / "legacies" / "the_seaside.yaml"
    cards = content.read_text(encoding="utf-8").replace("  - id: X1002", "  - id: C1005", 1)  # a base card's id
    hooks = folder / "rules" / "legacies" / "seaside_hooks.yaml"
    hooks.parent.mkdir(parents=True)
    hook_text = ("format: 2\nprocedures:\n  after_benefit:\n    after: collect_benefit\n    do: |\n      gain 1 fame\n"
                 "  after_a_card:\n    after: play_card\n    params: {}\n    do: |\n      gain 1 gold\n")
    hooks.write_text(hook_text, encoding="utf-8")
    hooks_uri = driver._open(editor, hooks, hook_text)
    editor.diagnostics(hooks_uri)
    content_uri = driver._open(editor, content, cards)
    reused = [d for d in editor.diagnostics(content_uri) if d["code"] == "C001"]
    hook = [d for d in editor.diagnostics(hooks_uri) if d["code"] == "R013"]
    assert reused and hook

    [fix] = fixes_for(editor, content_uri, reused[0])
    assert fix["title"] == "Write `replaces: true`"
    cards = applied(cards, only_edit(fix, content_uri))
    assert "  - id: C1005\n    replaces: true\n    kind: player_card" in cards

    by_hook = {d["message"].split("`")[1]: d for d in hook}
    [fix] = fixes_for(editor, hooks_uri, by_hook["after_benefit"])
    assert fix["title"] == 'Declare `params: {K: "kind:character", S: number}`'
    edits = only_edit(fix, hooks_uri)
    [fix] = fixes_for(editor, hooks_uri, by_hook["after_a_card"])  # an action's: its `as:` name, of its type
    assert fix["title"] == 'Declare `params: {C: "kind:player_card"}`'
    hook_text = applied(hook_text, edits + only_edit(fix, hooks_uri))
    assert '  after_benefit:\n    params: {K: "kind:character", S: number}\n    after: collect_benefit' in hook_text
    assert '  after_a_card:\n    after: play_card\n    params: {C: "kind:player_card"}\n' in hook_text  # `{}` rewritten

    content.write_text(cards, encoding="utf-8")
    hooks.write_text(hook_text, encoding="utf-8")
    driver._change(editor, content_uri, 2, cards)
    driver._change(editor, hooks_uri, 2, hook_text)
    for uri in (content_uri, hooks_uri):
        assert not [d for d in editor.diagnostics(uri) if d["code"] in ("C001", "R013")]
    assert not [d for d in validate([str(folder)]).diagnostics if d.severity == "error"]


def test_references_and_rename_reach_every_file_and_the_scenario_tests(editor: Editor, tmp_path: Path) -> None:
    driver._copy_ruleset(tmp_path)
    (tmp_path / "tests").mkdir()
    scenario = tmp_path / "tests" / "cards_i.yaml"
    shutil.copy(REPO / "tests" / "scenarios" / "legacies" / "cards_i.yaml", scenario)
    cards = tmp_path / "content" / "legacies" / "cards_i.yaml"
    text = cards.read_text(encoding="utf-8")
    uri = driver._open(editor, cards, text)
    editor.diagnostics(uri)
    lines = text.split("\n")
    where = next(n for n, line in enumerate(lines) if line.strip() == "- id: C1005")
    at = {"textDocument": {"uri": uri}, "position": {"line": where, "character": lines[where].index("C1005") + 1}}

    span = editor.request("textDocument/prepareRename", at)
    assert span == {"start": {"line": where, "character": 8}, "end": {"line": where, "character": 13}}
    found = editor.request("textDocument/references", {**at, "context": {"includeDeclaration": True}})
    assert {f["uri"] for f in found} == {uri, scenario.as_uri()}
    edit = editor.request("textDocument/rename", {**at, "newName": "C1905"})
    assert set(edit["changes"]) == {uri, scenario.as_uri()}
    assert all(e["newText"] == "C1905" for edits in edit["changes"].values() for e in edits)

    # a counter, in every file of the ruleset: applied on disk, the ruleset is still valid
    gold = next(n for n, line in enumerate(lines) if "pay 2 gold" in line)
    at = {"textDocument": {"uri": uri}, "position": {"line": gold, "character": lines[gold].index("gold") + 1}}
    found = editor.request("textDocument/references", {**at, "context": {"includeDeclaration": True}})
    edit = editor.request("textDocument/rename", {**at, "newName": "coin"})
    worded = scenario.read_text(encoding="utf-8").count("'s gold:")  # the changes that word it by its label
    assert sum(len(e) for e in edit["changes"].values()) == len(found) + worded and len(found) > 100 and worded > 5
    assert len(edit["changes"]) > 5 and (tmp_path / "rules" / "legacies" / "ruleset.yaml").as_uri() in edit["changes"]
    for file_uri, edits in edit["changes"].items():
        path = Path(file_uri.removeprefix("file://"))
        path.write_text(applied(path.read_text(encoding="utf-8"), edits), encoding="utf-8")
    assert not [d for d in validate([str(tmp_path / "content" / "legacies" / "cards_i.yaml")]).diagnostics
                if d.severity == "error"]
    # and the scenario tests beside it still pass: their `changes:` word the counter by its
    # label, the name in words, renamed with it ("P1's coin: 200 -> 197"), never a word of
    # another's label ("P1's extra gold when exploring", a quantity labelled in the rules)
    renamed = scenario.read_text(encoding="utf-8")
    assert "P1's coin: 200 -> 197" in renamed and "P1's gold:" not in renamed
    assert "extra gold when exploring" in renamed
    tests, problems = find_tests([scenario])
    run = run_tests(tests, str(tmp_path), "legacies")
    assert not problems and run.passed == len(tests) > 10, [d.message for d in run.failures]

    # refused, in words: a name already taken
    with pytest.raises(AssertionError, match="already names something"):
        editor.request("textDocument/rename", {**at, "newName": "fame"})
