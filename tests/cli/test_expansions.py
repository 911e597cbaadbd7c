"""Expansions (`--expansion FOLDER`): data laid over a ruleset by place, one meaning for
validate, play, replay and try; the example expansions under docs/examples/ check clean
and play."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.pipeline.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_the_example_expansions_check_clean_and_add_their_items() -> None:
    for folder, name, new in (("legacy-expansion", "legacy", "harbour_master"), ("legacies-expansion", "legacies", "X1001")):
        code, out = run("validate", str(EXAMPLES / folder))
        assert code == 0 and "no problems" in out, out
        base = load_ruleset(name)
        laid = load_ruleset(name, None, [EXAMPLES / folder])
        assert base.spec is not None and laid.spec is not None
        assert new in laid.build.items and new not in base.build.items  # type: ignore[union-attr]
        assert laid.spec.content_hash != base.spec.content_hash


def test_play_replay_and_try_with_an_expansion(tmp_path: Path) -> None:
    expansion = str(EXAMPLES / "legacy-expansion")
    save = tmp_path / "g.json"
    code, out = run("play", "-r", "legacy", "-x", expansion, "-s", "random", "-s", "random", "--seed", "1",
                    "--save", str(save))
    assert code == 0 and "Harbour Master" in out
    code, out = run("replay", "--verify", str(save))
    assert code == 1 and "played with the expansion `the-harbour`, which is not installed: give its folder" in out
    code, out = run("replay", "--verify", str(save), "-x", expansion)
    assert code == 0 and "verified" in out
    code, out = run("try", "X1001", "-x", str(EXAMPLES / "legacies-expansion"), "--play", "6", "--choose", "1")
    assert code == 0 and "A Season at Brighton (X1001)" in out and "P1's gold: 60 -> 57" in out
    code, out = run("play", "-r", "legacy", "-x", str(EXAMPLES / "legacies-expansion"))
    assert code == 2 and "extends `legacies`, not `legacy`" in out


def test_a_file_at_the_place_of_a_base_file_replaces_it_only_when_it_says_so(tmp_path: Path) -> None:
    """Changed values: the expansion's content/legacy/cards.yaml stands where the base
    file stood (its items replace the base's) when it says `replaces: true`; without it,
    X002 names the base file and what it would remove."""
    cards = ROOT / "content" / "legacy" / "cards.yaml"
    changed = tmp_path / "content" / "legacy"
    changed.mkdir(parents=True)
    text = cards.read_text(encoding="utf-8").replace("name: Riot\n", "name: Uprising\n")
    (changed / "cards.yaml").write_text(text, encoding="utf-8")
    silent = load_ruleset("legacy", None, [tmp_path])
    x002 = [d for d in silent.diagnostics if d.code == "X002"]
    assert not silent.ok and len(x002) == 1, [d.headline() for d in silent.diagnostics]
    assert "content/legacy/cards.yaml" in x002[0].message and "13 items (gold_card, brick_card," in x002[0].message
    (changed / "cards.yaml").write_text("replaces: true\n" + text, encoding="utf-8")
    laid = load_ruleset("legacy", None, [tmp_path])
    assert laid.ok and laid.build is not None, [d.headline() for d in laid.diagnostics if d.severity == "error"]
    assert laid.build.items["riot"][2].name == "Uprising" and len(laid.build.items) == 13


def test_explain_content_test_and_validate_take_expansions_too(tmp_path: Path) -> None:
    """`--expansion` means the same for every command: explain, content, test and validate
    see the expansion's items; without it they do not."""
    expansion = str(EXAMPLES / "legacy-expansion")
    code, out = run("explain", "harbour_master", "-x", expansion)
    assert code == 0 and "Harbour Master  (harbour_master)" in out and "Draw 2 cards" in out
    code, out = run("explain", "harbour_master")
    assert code == 2 and "no item `harbour_master`" in out
    def ids(*args: str) -> list[str]:
        code, out = run("content", "-r", "legacy", "--json", *args)
        assert code == 0
        return [row["id"] for row in json.loads(out[:out.rindex("]") + 1])]
    assert ids("-x", expansion) == ids() + ["harbour_master", "lighthouse"]
    scenario = tmp_path / "harbour.yaml"
    scenario.write_text("- item: harbour_master\n  players: 2\n  refused: there is at least one of your legacies\n",
                        encoding="utf-8")
    code, out = run("test", str(scenario), "-x", expansion)
    assert code == 0 and "1 passed, 0 failed" in out, out
    code, out = run("test", str(scenario))
    assert code == 2 and "harbour_master" in out  # no such item without it: the test's own mistake (T002)
    code, out = run("validate", "-x", expansion)
    assert code == 0 and "no problems" in out
    code, out = run("content", "-x", str(tmp_path))
    assert code == 2 and "no ruleset" in out


def test_validate_checks_a_stack_of_expansions_as_play_loads_it(tmp_path: Path) -> None:
    """A second expansion that builds on the first checks clean only on top of it, and a
    mistake in it is reported at its own file and line."""
    second = tmp_path / "second" / "content" / "legacy"
    second.mkdir(parents=True)
    (second / "pier.yaml").write_text(
        "ruleset: legacy\nitems:\n  - id: pier\n    kind: legacy_card\n    name: Pier\n    copies: 1\n"
        "    attributes: {type: special}\n    effect: |\n      draw 1 from legacy_deck to my hand\n"
        "      discard top of (cards in my hand where it is lighthouse)\n", encoding="utf-8")
    head = "expansion: pier\nextends: legacy\ntitle: The Pier\n"
    (tmp_path / "second" / "expansion.yaml").write_text(head, encoding="utf-8")
    first = str(EXAMPLES / "legacy-expansion")
    code, out = run("validate", "-x", first, "-x", str(tmp_path / "second"))
    assert code == 0 and "no problems" in out, out
    code, out = run("validate", "-x", str(tmp_path / "second"))
    assert code == 1 and "pier.yaml:10:" in out and "lighthouse" in out, out
    code, out = run("validate", "-x", first, "-x", str(tmp_path / "second"), "--format", "json")
    assert code == 0 and json.loads(out) == []
    # said in its expansion.yaml: the requirement must be laid before it
    (tmp_path / "second" / "expansion.yaml").write_text(head + "requires: [the-harbour]\n", encoding="utf-8")
    code, out = run("validate", "-x", str(tmp_path / "second"))
    assert code == 2 and "expansion `pier` requires `the-harbour`: give it with --expansion" in out, out
    code, out = run("validate", "-x", first, "-x", str(tmp_path / "second"))
    assert code == 0 and "no problems" in out, out


def test_simulate_reports_the_items_an_expansion_adds(tmp_path: Path) -> None:
    expansion = str(EXAMPLES / "legacy-expansion")
    code, out = run("simulate", "-r", "legacy", "-x", expansion, "-n", "8", "-p", "2", "--out", str(tmp_path))
    assert code == 0, out
    mine = out.split("your items:\n")[1].split("branch coverage:")[0].splitlines()
    assert [line.split(" (")[0].strip() for line in mine if not line.startswith("    ")] == \
        ["Harbour Master", "Lighthouse"], out
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    harbour = next(r for r in report["items"] if r["id"] == "harbour_master")
    assert f"chosen by {100 * harbour['play_rate']:.0f}% of players" in out or harbour["play_rate"] < 0.1
    code, out = run("simulate", "-r", "legacy", "-n", "2", "--item", "riot", "--out", str(tmp_path))
    assert code == 0 and "items asked for:\n  Riot (riot)" in out
    code, out = run("simulate", "-r", "legacy", "-n", "2", "--item", "nope", "--out", str(tmp_path))
    assert code == 2 and "--item nope: no such item" in out
