"""`legacies validate` sets the game up under the option values that change the setup
(pipeline/setup_check.py), not only the defaults. Issue 17: an expansion with two more
global action tiles validated clean, and `legacies play --nemesis 1` crashed with a
Python traceback ("there is no entry 9: the list has 8")."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.pipeline import setup_check
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import validate

TILES = """\
format: 2
ruleset: legacies
items:
  - id: ga_market_day
    kind: global_action
    name: Market Day
    attributes: {mandatory: false, order: 9, resolve: "gain 10 gold"}
  - id: ga_festival
    kind: global_action
    name: Festival
    attributes: {mandatory: false, order: 10, resolve: "gain 1 fame"}
"""


def two_more_tiles(root: Path) -> Path:
    (root / "content" / "legacies").mkdir(parents=True)
    # slots 9 and 10 widened (issue 34 §1: else `set A's slot to A's order` stops the default setup too)
    (root / "expansion.yaml").write_text("format: 2\nexpansion: tiles\nextends: legacies\ntitle: Two more tiles\n"
                                         "extend_kinds:\n  global_action:\n    counters:\n"
                                         "      slot: {extends: true, max: 10}\n", encoding="utf-8")
    (root / "content" / "legacies" / "tiles.yaml").write_text(TILES, encoding="utf-8")
    return root


def test_a_setup_that_fails_only_with_a_nemesis_is_e300_at_the_statement(tmp_path: Path) -> None:
    folder = two_more_tiles(tmp_path)
    found = validate([], expansions=(str(folder),)).diagnostics
    assert [(d.code, Path(d.file).name, d.line) for d in found] == [("E300", "flow.yaml", 249)]
    d = found[0]
    assert "the game fails at setup with nemesis=1, in setup: there is no entry 9: the list has 8" in d.message
    assert "legacies play --option nemesis=1" in (d.hint or "")


def test_play_with_the_failing_option_says_so_without_a_traceback(tmp_path: Path) -> None:
    folder = two_more_tiles(tmp_path)
    out = CliRunner().invoke(app, ["play", "-x", str(folder), "--seat", "nemesis", "--seat", "random",
                                   "--seat", "random", "--seed", "1"])
    assert out.exit_code == 1, out.output
    assert "Traceback" not in out.output and "there is no entry 9: the list has 8" in out.output
    assert "flow.yaml:249" in out.output


def test_only_the_options_a_setup_reads_are_varied_and_the_search_is_bounded() -> None:
    spec = load_ruleset("legacies").spec
    runs: list[dict] = []
    original = setup_check._set_up

    def spy(game, options, deadline):
        runs.append(dict(options))
        return original(game, options, deadline)

    setup_check._set_up = spy
    try:
        assert setup_check.check_setup(spec, "ruleset.yaml") == []
    finally:
        setup_check._set_up = original
    assert runs[0] == spec.option_defaults
    assert 1 < len(runs) <= setup_check.MAX_SETUPS
    # the difficulty is read only with a Nemesis: never varied without one
    assert all(r["difficulty"] == 2 for r in runs if r["nemesis"] == 0)
    assert {r["nemesis"] for r in runs} == {0, 1, 5} and {r["rising_star"] for r in runs} == {False, True}
    assert len({tuple(sorted(r.items())) for r in runs}) == len(runs)  # no setup twice


# --------------------------------------------------------------------------- the deadline (issue 22)
WORK = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "work"


def long_setup(tmp_path: Path) -> Path:
    """The `work` fixture with the schema's largest budget and a setup that runs for minutes
    within it (a million shuffles of 400 tiles)."""
    import shutil

    root = tmp_path / "work"
    shutil.copytree(WORK, root)
    ruleset = root / "rules/work/ruleset.yaml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("step_budget: 200000", "step_budget: 20000000"),
                       encoding="utf-8")
    procedures = root / "rules/work/procedures.yaml"
    procedures.write_text(procedures.read_text(encoding="utf-8").replace(
        "setup: |\n", "setup: |\n  repeat 10000 times:\n      repeat 100 times:\n          shuffle bag\n"), encoding="utf-8")
    return root


def test_a_setup_past_the_checks_deadline_is_e300_at_the_statement_running(tmp_path: Path, monkeypatch) -> None:
    """`legacies validate` gives every setup of a ruleset SETUP_SECONDS together: past it,
    the setup stops where it is, said as E300 at that statement, and no other setup is
    tried. Without the deadline this took hours (20,000,000 steps of shuffles)."""
    import time

    root = long_setup(tmp_path)
    monkeypatch.setattr(setup_check, "SETUP_SECONDS", 1.0)
    started = time.monotonic()
    result = validate([str(root)])
    assert time.monotonic() - started < 30
    (found,) = [d for d in result.diagnostics if d.code == "E300"]
    assert "stopped at the setup check's deadline of 1 s" in found.message, found.message
    assert (Path(found.file).name, found.line, found.column) == ("procedures.yaml", 16, 11)

