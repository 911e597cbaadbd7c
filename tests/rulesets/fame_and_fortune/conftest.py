"""Helpers for playing Fame and Fortune in tests: the host's `Table`
(tests/rulesets/leaders_legacy/conftest.py: setup played, a phase's menu reached, the map
arranged, the game's own decisions driven by label) on Leader's Legacy with the installed
expansion laid over it by name, as `legacies play -x fame-and-fortune` loads it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import pytest
import tables

from legacies.interpreter import mechanics as mech

RULESET = "leaders-legacy"
EXPANSION = "fame-and-fortune"


def _host_helpers() -> ModuleType:
    """The host's test helpers, loaded from their file (tests are no package)."""
    path = Path(__file__).parents[1] / "leaders_legacy" / "conftest.py"
    found = importlib.util.spec_from_file_location("leaders_legacy_helpers", path)
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


host = _host_helpers()
MENU, WINDOW, quiet, play_out = host.MENU, host.WINDOW, host.quiet, host.play_out


def spec():  # noqa: ANN201 - the GameSpec with the expansion, loaded once
    return tables.shipped_spec(RULESET, [EXPANSION])


def defn(content_id: str):  # noqa: ANN201 - an item's definition
    found = [d for d in spec().defs if d.id == content_id]
    assert len(found) == 1, content_id
    return found[0]


class Table(host.Table):  # type: ignore[misc, name-defined]
    def __init__(self, players: int = 3, seed: int = 0, options: dict[str, Any] | None = None,
                 answer: Callable[[list[str]], str] = quiet):
        super().__init__(players, seed, options, answer, ruleset=spec())

    def cards(self, zone: str, player: int | None = None) -> list[str]:
        """The ids of the pieces in a zone, bottom first."""
        return self.ids(zone, player)

    def put(self, content_id: str, zone: str, player: int | None = None) -> int:
        """One copy of an item moved to a zone (a player's when `player` is given), taken
        from wherever it is; returns the piece."""
        target = self.lay.game_zone[zone] if player is None else self.lay.player_zone[zone] + player
        pieces = self.lay.def_pieces[self.lay.def_index[content_id]]
        pid = next((p for p in pieces if self.st.loc[p] != target), pieces[0])
        mech.move(self.st, pid, target)
        return pid

    def empty_markers(self, calling: str) -> None:
        """Every marker of a calling out of the supply (to the box)."""
        for pid in self.zone("marker_supply"):
            if self.def_id(pid) == f"{calling}_marker":
                mech.move(self.st, pid, self.lay.game_zone["wonder_box"])

    def invested(self, content_id: str, player: int) -> int:
        """The markers on a player's investment card."""
        pid = next(p for p in self.zone("investments", player) if self.def_id(p) == content_id)
        return self.st.counters[self.lay.counter_slots("invested")[pid]]

    def to_turn_start(self, player: int) -> None:
        """Answer quietly until `player`'s turn has just begun: its `turn_started` fired, the
        event phase not yet played (the active player is `player`, phase 0)."""
        self.until(lambda t: t.active == player and t.counter("turn_phase") == 0 and t.decision is not None
                   and t.decision.player == player)


@pytest.fixture
def table():  # noqa: ANN201
    return Table
