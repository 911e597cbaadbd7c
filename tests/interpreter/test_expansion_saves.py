"""A save records each expansion's content hash beside its name (interpreter/game.py
`open_save`): a save made before an expansion's content changed is refused, by the
engine and by `legacies resume`, naming the expansion; one made with the same content
is resumed. (A changed installed expansion once resumed unnoticed.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.interpreter.errors import CorruptSave
from legacies.interpreter.game import Game, GameState
from legacies.pipeline import ruleset as loading
from legacies.pipeline import stack
from legacies.pipeline.ruleset import load_ruleset

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]


def _changed_copy(source: Path, to: Path, rel: str, old: str, new: str) -> Path:
    """A copy of expansion folder `source` at `to`, with `old` replaced by `new` in `rel`."""
    shutil.copytree(source, to)
    path = to / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return to


def test_a_save_made_before_an_expansion_changed_is_refused_naming_it(tmp_path: Path) -> None:
    spec = load_ruleset("relay", FIXTURES / "relay", [FIXTURES / "relay-extra"]).spec
    assert spec is not None
    state = Game(spec, 2).new_state(1)
    state.apply_label("Rest")
    text = state.serialize()
    assert GameState.deserialize(spec, text).fingerprint() == state.fingerprint()  # unchanged: resumed
    changed = _changed_copy(FIXTURES / "relay-extra", tmp_path / "relay-extra", "rules/relay/extra.yaml",
                            "do: gain 1 cheers", "do: gain 2 cheers")
    later = load_ruleset("relay", FIXTURES / "relay", [changed]).spec
    assert later is not None
    with pytest.raises(CorruptSave, match="the expansion `relay-extra` changed since this game was saved"):
        GameState.deserialize(later, text)


def test_resume_refuses_a_save_whose_installed_expansion_changed(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    spec = load_ruleset("legacies", None, ["salons"]).spec
    assert spec is not None
    state = Game(spec, 3).new_state(5)
    save = tmp_path / "game.json"
    save.write_text(state.serialize(), encoding="utf-8")
    assert [x["name"] for x in json.loads(save.read_text())["expansions"]] == ["salons"]
    # the installed salons, reinstalled with one salon renamed
    changed = _changed_copy(REPO / "expansions" / "salons", tmp_path / "salons",
                            "content/legacies/salons.yaml", "name: Literary Salon", "name: Poets' Salon")
    reinstalled = [stack.read_expansion(changed, "expansions/salons", installed=True)]
    monkeypatch.setattr(stack, "installed_expansions", lambda: reinstalled)
    monkeypatch.setattr("legacies.cli.ruleset_args.installed_expansions", lambda: reinstalled)
    monkeypatch.setattr(loading, "_cache", {})  # the specs this process built from the salons as they were
    result = CliRunner().invoke(app, ["resume", str(save), "--seat", "random", "--seat", "random", "--seat", "random",
                                      "--quiet"])
    assert result.exit_code == 1, result.output
    assert "the expansion `salons` changed since this game was saved" in result.output
