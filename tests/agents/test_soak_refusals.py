"""The soak counts the options offered and then refused, per ruleset and per action
(issue 35), and soaks an expansion as a ruleset (`soak --expansion`, issue 33)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from legacies.agents import soak
from legacies.cli.main import app
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import load_ruleset

TINY = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "tiny"
runner = CliRunner()


def test_an_offer_refused_when_taken_is_counted_by_its_action() -> None:
    """The tiny fixture offers `splurge` (pay 100 gold for a point) to players who never
    have 100 gold: every time a random player takes it, it is refused and counted."""
    spec = load_ruleset("tiny", TINY).spec
    assert spec is not None
    table = ("tiny-offers", 2)
    soak._games[table] = Game(spec, 2)
    try:
        result = soak.run_soak(6, [table])
    finally:
        del soak._games[table]
    assert result.ok
    assert set(result.refused) == {("tiny-offers", "action splurge")}
    assert result.refused["tiny-offers", "action splurge"] >= 1


def test_soak_says_the_refused_offers_of_each_ruleset() -> None:
    result = runner.invoke(app, ["soak", "--games", "4", "-r", "legacy", "--refusals"])
    assert result.exit_code == 0, result.output
    assert "refused offers legacy: 0" in result.stdout


def test_soak_lays_an_expansion_over_the_ruleset_it_extends(tmp_path: Path) -> None:
    result = runner.invoke(app, ["soak", "--games", "4", "-x", "fame-and-fortune", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "4 games (leaders-legacy+fame-and-fortune; 4 tables)" in result.stdout
    assert "refused offers leaders-legacy+fame-and-fortune:" in result.stdout


def test_soak_expansion_usage_errors() -> None:
    unknown = runner.invoke(app, ["soak", "--games", "2", "-x", "nope"])
    assert unknown.exit_code == 2 and "unknown expansion `nope`" in unknown.output
    elsewhere = runner.invoke(app, ["soak", "--games", "2", "-x", "fame-and-fortune", "-r", "legacy"])
    assert elsewhere.exit_code == 2 and "extends `leaders-legacy`" in elsewhere.output


def test_an_expansions_failure_is_named_with_its_expansions() -> None:
    failure = soak.SoakFailure("leaders-legacy", 3, 7, "broken", None, ("fame-and-fortune",))
    assert failure.name == "leaders-legacy+fame-and-fortune"
