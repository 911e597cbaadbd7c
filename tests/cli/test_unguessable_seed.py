"""The seed a game at a terminal starts from (cli/common.py `table_seed`): given, it is
used; with a person seated and none given, one nobody can guess (seed 0 for every game
dealt each person the same hands, and told anyone who played it out every hidden card);
bots alone play seed 0, the same game each time. A save, which tells every hidden card,
is its owner's alone."""

from __future__ import annotations

import json
import os
from pathlib import Path

from typer.testing import CliRunner

from legacies.cli.common import table_seed
from legacies.cli.main import app


def _saved_seed(tmp_path: Path, name: str, *args: str) -> int:
    save = tmp_path / name
    # no input: the person's first question ends the game, and it is saved
    CliRunner().invoke(app, ["play", "-r", "legacy", "-s", "human", "-s", "random", "--plain", "--save", str(save),
                             *args], input="")
    if os.name == "posix":
        assert save.stat().st_mode & 0o077 == 0
    return int(json.loads(save.read_text(encoding="utf-8"))["seed"])


def test_a_game_with_a_person_is_dealt_from_a_seed_nobody_can_guess(tmp_path: Path) -> None:
    first, second = _saved_seed(tmp_path, "a.json"), _saved_seed(tmp_path, "b.json")
    assert first != second and 0 not in (first, second)
    assert _saved_seed(tmp_path, "c.json", "--seed", "7") == 7


def test_bots_alone_play_seed_0_unless_told() -> None:
    out = CliRunner().invoke(app, ["play", "-r", "legacy", "-s", "random", "-s", "random", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["seed"] == 0
    assert table_seed(None, False) == 0 and table_seed(5, True) == 5
    assert len({table_seed(None, True) for _ in range(20)}) == 20
