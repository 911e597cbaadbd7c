"""Issue 33, section 5: words and numbers. Inputs echoed in messages are cut (a
100,000-character name is not printed whole, and a name too long for the file system is
a sentence, never a traceback); `--option` reads ASCII digits only; `try -p 0` is a usage
error; `replay --svg` checks that the ruleset has a map and the file can be written
before it replays."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.common import cut_echoes
from legacies.cli.main import app
from legacies.cli.table_args import parse_options

runner = CliRunner()
LONG = "n" * 100_000


@pytest.mark.parametrize("args", [
    ["try", LONG], ["explain", LONG], ["content", "--kind", LONG], ["play", "--option", f"x={LONG}"],
    ["play", "--option", LONG], ["validate", "--ruleset", LONG], ["validate", LONG], ["test", LONG],
    ["resume", LONG], ["replay", LONG], ["migrate", LONG], ["rulesets", LONG], ["play", "--ruleset", LONG],
    ["play", "-x", LONG], ["try", "protect", "--ruleset", "legacy", "--effect", LONG],
], ids=lambda a: " ".join(x if len(x) < 20 else "LONG" for x in a))
def test_a_long_input_is_echoed_cut_and_never_a_traceback(args: list[str]) -> None:
    out = runner.invoke(app, args)
    assert out.exit_code in (1, 2), out.output[:300]
    assert out.exception is None or isinstance(out.exception, SystemExit), repr(out.exception)[:300]
    assert len(out.output) < 2_000 and "Traceback" not in out.output, out.output[:500]
    assert "(100,000 characters)" in out.output or "100,00" in out.output or LONG not in out.output


def test_cut_echoes_keeps_short_words_and_cuts_long_runs() -> None:
    assert cut_echoes("no item `protect` here") == "no item `protect` here"
    cut = cut_echoes(f"no item `{LONG}` here")
    assert cut.startswith("no item `" + "n" * 80 + "... (100,000 characters)`") and cut.endswith(" here")


def test_option_values_are_ascii_digits_only() -> None:
    assert parse_options(["players=333", "x=-2", "y=yes"]) == {"players": 333, "x": -2, "y": True}
    read = parse_options(["players=٣٣٣", "z=1_000", "w=３"])
    assert read == {"players": "٣٣٣", "z": "1_000", "w": "３"}  # names, never numbers: the table refuses them
    out = runner.invoke(app, ["play", "--ruleset", "legacy", "--seat", "random", "--seat", "random",
                              "--option", "players=٣٣٣"])
    assert out.exit_code == 2 and "needs a number" in out.output


@pytest.mark.parametrize("players", ["0", "-1", "99"])
def test_try_with_a_table_the_ruleset_does_not_take_is_a_usage_error(players: str) -> None:
    out = runner.invoke(app, ["try", "protect", "--ruleset", "legacy", "-p", players])
    assert out.exit_code == 2 and f"not {players}" in out.output, out.output
    assert "changes:" not in out.output


def test_replay_svg_checks_the_map_and_the_file_before_replaying(tmp_path: Path) -> None:
    def saved(ruleset: str, seats: int) -> Path:
        save = tmp_path / f"{ruleset}.json"
        out = runner.invoke(app, ["play", "--ruleset", ruleset, *["--seat", "random"] * seats, "--quiet",
                                  "--save", str(save)])
        assert save.is_file(), out.output
        return save

    legacy, kern = saved("legacy", 2), saved("leaders-legacy", 3)
    for save, svg, words in [(legacy, tmp_path / "m.svg", "draws no map"),
                             (kern, tmp_path / "no" / "such" / "m.svg", "no folder"),
                             (kern, tmp_path, "a folder")]:
        out = runner.invoke(app, ["replay", str(save), "--svg", str(svg)])
        assert out.exit_code == 2 and words in out.output, out.output[-500:]
        assert len(out.output.splitlines()) < 5  # refused before the replay: no log of the game
    out = runner.invoke(app, ["replay", str(kern), "--svg", str(tmp_path / "m.svg"), "--to", "3"])
    assert out.exit_code == 0 and (tmp_path / "m.svg").read_text().startswith("<svg")
