"""Expansions (`--expansion FOLDER`): data laid over a ruleset by place, one meaning for
validate, play, replay and try; the example expansions under docs/examples/ check clean
and play."""

from __future__ import annotations

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
    assert code == 1 and "the content changed since this game was saved" in out
    code, out = run("replay", "--verify", str(save), "-x", expansion)
    assert code == 0 and "verified" in out
    code, out = run("try", "X1001", "-x", str(EXAMPLES / "legacies-expansion"), "--play", "6", "--choose", "1")
    assert code == 0 and "A Season at Brighton (X1001)" in out and "P1's gold: 60 -> 57" in out
    code, out = run("play", "-r", "legacy", "-x", str(EXAMPLES / "legacies-expansion"))
    assert code == 2 and "holds nothing for ruleset `legacy`" in out


def test_a_file_at_the_place_of_a_base_file_replaces_it(tmp_path: Path) -> None:
    """Changed values: the expansion's content/legacy/cards.yaml stands where the base
    file stood (its items replace the base's), and new files come after."""
    cards = ROOT / "content" / "legacy" / "cards.yaml"
    changed = tmp_path / "content" / "legacy"
    changed.mkdir(parents=True)
    (changed / "cards.yaml").write_text(cards.read_text(encoding="utf-8").replace("name: Riot\n", "name: Uprising\n"),
                                        encoding="utf-8")
    laid = load_ruleset("legacy", None, [tmp_path])
    assert laid.ok and laid.build is not None
    assert laid.build.items["riot"][2].name == "Uprising" and len(laid.build.items) == 13
