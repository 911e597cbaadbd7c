"""README.md says what the program does: its first command seats the reader (a terminal:
a person and bots; no terminal: bots), and every count of items it states is the one
`legacies rulesets` prints."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from legacies.cli.main import app

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_every_item_count_in_the_readme_is_the_programs() -> None:
    listed = CliRunner().invoke(app, ["rulesets"]).output
    counts = {line.split("\t")[0]: int(re.search(r"(\d+) items", line).group(1))  # type: ignore[union-attr]
              for line in listed.splitlines() if not line.startswith(" ") and "items" in line}
    stated = re.findall(r"`(\w[\w-]*)`, the flagship \(.*?(\d+) items\)", README, re.S)
    assert stated, "the README no longer states the flagship's item count where this test looks"
    for name, count in stated:
        assert counts[name] == int(count), f"README says {name} has {count} items; `legacies rulesets`: {counts[name]}"


def test_the_first_command_plays_with_the_default_seats() -> None:
    first = re.search(r"```sh\n(.*?)\n```", README, re.S)
    assert first is not None
    command = first.group(1).split("&&")[-1].strip()
    assert command == "legacies play"  # no --seat: a person at a terminal, bots elsewhere (tests/cli)
    result = CliRunner().invoke(app, ["play", "--quiet", "--seed", "1"])  # no terminal here: four random bots
    assert result.exit_code == 0 and "winner:" in result.output


def _table_row(command: str) -> str:
    row = re.search(rf"^\| `legacies {command}\b[^\n]*$", README, re.M)
    assert row is not None, f"README's commands table has no row for `legacies {command}`"
    return row.group(0)


def test_the_commands_table_lists_every_command() -> None:
    from legacies.cli.main import COMMANDS

    for name in COMMANDS:
        _table_row(name)


def test_the_play_row_agrees_with_play_help() -> None:
    """Every option `legacies play --help` lists is in the README's row, optional ones in
    brackets (`--seed` has a default), and the default seats are the ones play uses: a
    person against three greedy bots at a terminal."""
    row = _table_row("play")
    shown = CliRunner().invoke(app, ["play", "--help"], terminal_width=200).output
    options = set(re.findall(r"(--[a-z][a-z-]+)", shown)) - {"--help"}
    assert options and all(option in row for option in options), sorted(o for o in options if o not in row)
    usage = row.split("` |", 1)[0]
    assert "[--seed N]" in usage and " --seed N " not in usage.replace("[--seed N]", "")
    assert "you against three greedy bots at a terminal" in row
    assert "three greedy bots" in shown and "four random bots" in shown  # what the help says, the row says
