"""`cached_game` (interpreter/game.py): one compiled Game per table's settings in a process,
shared by every state of it, the least recently used dropped first when more than
MAX_CACHED_GAMES are kept (the rulesets' test tables share Games through it: compiling
Legacies for every test was a sixth of the test command's time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.interpreter import game as game_module
from legacies.interpreter.game import cached_game
from legacies.pipeline.ruleset import load_ruleset

TINY = Path(__file__).resolve().parent / "fixtures" / "tiny"


def test_the_same_settings_share_a_game_and_the_least_recently_used_goes_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_ruleset("tiny", TINY)
    assert loaded.spec is not None
    spec = loaded.spec
    monkeypatch.setattr(game_module, "_GAMES", {})
    monkeypatch.setattr(game_module, "MAX_CACHED_GAMES", 2)
    two, three = cached_game(spec, 2), cached_game(spec, 3)
    assert cached_game(spec, 2) is two and two.players == 2  # used again: now the most recent
    assert cached_game(spec, 2, names=["Ann", "Bob"]) is not two  # other settings, another Game
    assert cached_game(spec, 2) is two  # kept: three was the least recently used
    assert cached_game(spec, 3) is not three
    a, b = cached_game(spec, 4).new_state(1), cached_game(spec, 4).new_state(1)
    assert a.game is b.game and a.fingerprint() == b.fingerprint()
