"""Issue 33, section 2: content that validation refuses is never played. A content file
with a schema error used to be dropped whole and the rest played (an empty deck, a
balance report of it, exit 0); `play -x` of an expansion `validate` rejects played it.
Every command that runs content now refuses it, exit 1, with validate's diagnostics."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.pipeline.ruleset import load_ruleset

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture()
def refused(tmp_path: Path) -> Path:
    """A copy of the Legacy card game with one more content file, whose only card asks
    for 100,000,000 copies: the file is refused whole (S005) and nothing else names it,
    so the rest builds (the case that was played)."""
    root = tmp_path / "big"
    for sub in ("rules/legacy", "content/legacy"):
        shutil.copytree(REPO / sub, root / sub, ignore=shutil.ignore_patterns("__*"))
    (root / "content/legacy/more.yaml").write_text(
        "items:\n  - {id: more_gold, kind: resource_card, name: More Gold, copies: 100000000, "
        "attributes: {resource: gold}}\n", encoding="utf-8")
    return root


def test_a_ruleset_with_a_refused_file_has_no_spec_to_play(refused: Path) -> None:
    loaded = load_ruleset("legacy", str(refused))
    assert loaded.spec is None and not loaded.ok  # what soak, simulate's workers and scenario tests read
    assert loaded.built_spec is not None  # the rest builds: only the refusal keeps it from being played
    assert any(d.code == "S005" and d.file.endswith("more.yaml") for d in loaded.diagnostics)


@pytest.mark.parametrize("args", [
    ["play", "--seat", "random", "--seat", "random", "--quiet"],
    ["simulate", "--games", "2"],
    ["try", "gold_card"],
    ["serve", "--seat", "random", "--seat", "random"],
])
def test_every_command_that_runs_content_refuses_it(refused: Path, tmp_path: Path, args: list[str]) -> None:
    extra = ["--out", str(tmp_path / "report")] if args[0] == "simulate" else []
    out = runner.invoke(app, [*args, "--ruleset", str(refused), *extra])
    assert out.exit_code == 1, out.output
    assert "content errors" in out.output and "Traceback" not in out.output
    assert "more.yaml:2:" in out.output and "S005" in out.output  # validate's own diagnostics, at their place
    assert not (tmp_path / "report").exists()


def test_play_x_of_an_expansion_validate_rejects_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "salons"
    shutil.copytree(REPO / "expansions/salons", folder, ignore=shutil.ignore_patterns("__*"))
    content = next((folder / "content/legacies").glob("*.yaml"))
    content.write_text(content.read_text(encoding="utf-8") + "\nbogus_key: 1\n", encoding="utf-8")
    checked = runner.invoke(app, ["validate", "-x", str(folder)])
    assert checked.exit_code == 1
    out = runner.invoke(app, ["play", "-x", str(folder), "--seat", "random", "--seat", "random", "--seat", "random",
                              "--quiet"])
    assert out.exit_code == 1 and "it is not played" in out.output, out.output
    assert content.name in out.output
