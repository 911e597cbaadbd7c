"""Fame and Fortune at the command line: installed by name for every command (play and
simulate need no --ruleset: the one it extends), listed under Leader's Legacy, checked as
play loads it (a deliberate mistake in a copy of the expansion is reported at its own file
and line), its items explained with their card text, tried and tested in scenarios, and
its items' win-rate gaps in the simulate report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from legacies.cli.main import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "expansions" / "fame-and-fortune"


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_validate_checks_the_stack_as_play_loads_it() -> None:
    code, out = run("validate", "-x", "fame-and-fortune")
    assert code == 0 and "no problems" in out, out
    code, out = run("validate", str(FOLDER))  # the folder as PATH: the same stack
    assert code == 0 and "no problems" in out, out


def test_a_mistake_in_the_expansion_is_reported_at_its_own_file_and_line(tmp_path: Path) -> None:
    copy = tmp_path / "fame-and-fortune"
    shutil.copytree(FOLDER, copy)
    wonders = copy / "content" / "leaders-legacy" / "wonders.yaml"
    text = wonders.read_text(encoding="utf-8")
    line = text.splitlines().index("      while in play: town_stone - 1") + 1
    wonders.write_text(text.replace("while in play: town_stone - 1", "while in play: town_stnoe - 1"),
                       encoding="utf-8")
    relics = copy / "rules" / "leaders-legacy" / "relics.yaml"
    rtext = relics.read_text(encoding="utf-8")
    rline = rtext.splitlines().index("    action: build_city") + 1
    relics.write_text(rtext.replace("    action: build_city", "    action: build_ctiy"), encoding="utf-8")
    code, out = run("validate", "-x", str(copy), "--format", "json")
    assert code == 1
    found = {(Path(d["file"]).name, d["line"], d["code"]) for d in json.loads(out)}
    assert ("wonders.yaml", line, "E201") in found or any(f[:2] == ("wonders.yaml", line) for f in found), found
    assert ("relics.yaml", rline, "R014") in found, found
    code, out = run("validate", "-x", str(copy))
    assert "did you mean `town_stone`?" in out and "did you mean `build_city`?" in out


def test_explain_content_try_and_test_take_the_expansion(tmp_path: Path) -> None:
    code, out = run("explain", "military_industrial_complex", "-x", "fame-and-fortune")
    assert code == 0 and "Military-Industrial Complex  (military_industrial_complex)" in out
    assert "markers needed: 2, 4" in out and "card text:" in out and "While in play: attack cards drawn" in out
    code, out = run("explain", "hannibal", "-x", "fame-and-fortune")
    assert code == 0 and "calling: general" in out and "Raise your free army moves left by 3." in out
    code, out = run("explain", "hannibal", "--ruleset", "leaders-legacy")
    assert code == 2  # off by default
    code, out = run("content", "-x", "fame-and-fortune", "--kind", "wonder", "--json")
    assert code == 0 and len(json.loads(out[:out.rindex("]") + 1])) == 21
    code, out = run("try", "jakob_fugger", "-x", "fame-and-fortune", "--seed", "1")
    assert code == 0 and "gold: " in out and "-> " in out, out
    scenario = tmp_path / "fugger.yaml"
    scenario.write_text("- item: jakob_fugger\n  players: 3\n  counters: {1: {gold: 2}}\n  expect:\n    my gold: 5\n",
                        encoding="utf-8")
    code, out = run("test", str(scenario), "-x", "fame-and-fortune")
    assert code == 0 and "1 passed, 0 failed" in out, out


def test_play_needs_no_ruleset_and_a_save_replays() -> None:
    save = Path(runner.make_env().get("TMPDIR", "/tmp")) / "fame-save.json"
    code, out = run("play", "-x", "fame-and-fortune", "-s", "random", "-s", "random", "-s", "random", "--seed", "5",
                    "--quiet", "--save", str(save))
    assert code == 0 and "winner:" in out, out
    code, out = run("replay", "--verify", str(save))
    assert code == 0 and "verified" in out, out
    save.unlink()


def test_simulate_compares_and_reports_the_expansions_items(tmp_path: Path) -> None:
    code, out = run("simulate", "-x", "fame-and-fortune", "-n", "4", "-p", "3", "--out", str(tmp_path))
    assert code == 0, out
    mine = out.split("your items:\n")[1]
    assert "Pyramids" in mine or "Hannibal" in mine or "Trade Routes" in mine
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["games"] == 4
