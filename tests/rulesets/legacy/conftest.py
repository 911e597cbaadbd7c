"""Helpers for playing the Legacy card game in tests: a `Table` wraps one game state
and lets a test arrange a scenario (move given cards into given zones, keeping
`st.zones` and `st.loc` consistent) and then drive the decisions by label or by piece.
"""

from __future__ import annotations

from typing import Any, Iterable

import pytest
import tables

from legacies.interpreter import mechanics as mech
from legacies.interpreter.game import cached_game

TAKE = "Take a legacy card (look at the top 3, keep 1)"
BUILD = "Build and destroy"


def spec():  # noqa: ANN201 - the GameSpec, loaded once
    return tables.shipped_spec("legacy")


# the deck every card comes from (and goes back to when a test clears a zone)
_HOME = {"resource_card": "resource_deck", "legacy_card": "legacy_deck"}
_PILES = ("resource_deck", "resource_discard", "legacy_deck", "legacy_discard")


class Table(tables.Table):
    def __init__(self, players: int = 3, seed: int = 0, **options: Any):
        super().__init__(cached_game(spec(), players, options), seed)
        self.reserved: set[int] = set()

    # ------------------------------------------------------------------ reading (more in tests/tables.py)
    def defn(self, def_id: str):
        return spec().defs[self.lay.def_index[def_id]]

    def where(self, pid: int) -> tuple[str, int]:
        z = self.st.loc[pid]
        return self.lay.zone_name[z], self.lay.zone_owner[z]

    def check_consistent(self) -> None:
        st = self.st
        seen = set()
        for z, pieces in enumerate(st.zones):
            for pid in pieces:
                assert st.loc[pid] == z
                assert pid not in seen
                seen.add(pid)
        assert seen == set(range(len(st.loc)))

    # ------------------------------------------------------------------ arranging
    def spare(self, def_id: str) -> int:
        """A copy of `def_id` lying in a deck or discard pile and not yet placed by the test."""
        piles = {self.zid(n) for n in _PILES}
        dealt = {self.zid(n, p) for n in ("resources", "hand") for p in range(self.game.players)}
        copies = [p for p in self.lay.def_pieces[self.lay.def_index[def_id]] if p not in self.reserved]
        for where in (piles, dealt):  # a dealt card only when the piles have none left
            for pid in copies:
                if self.st.loc[pid] in where:
                    return pid
        raise AssertionError(f"no spare {def_id} left")

    def put(self, def_id: str, name: str, player: int | None = None, bottom: bool = False) -> int:
        pid = self.spare(def_id)
        self.place(pid, self.zid(name, player), bottom)
        self.reserved.add(pid)
        return pid

    def place(self, pid: int, zone: int, bottom: bool = False) -> None:
        """Move a piece to the top (or bottom) of a zone, even within the same zone."""
        if self.st.loc[pid] == zone:
            pieces = self.st.zones[zone]
            pieces.remove(pid)
            pieces.insert(0, pid) if bottom else pieces.append(pid)
        else:
            mech.move(self.st, pid, zone, bottom=bottom)

    def clear(self, name: str, player: int | None = None) -> None:
        """Send every card of a zone back under its own deck."""
        for pid in self.zone(name, player):
            kind = spec().defs[self.lay.piece_def[pid]].kind
            self.place(pid, self.zid(_HOME[kind]), bottom=True)
            self.reserved.discard(pid)

    def give(self, player: int, name: str, *def_ids: str) -> list[int]:
        """Make `name` of `player` hold exactly these cards (in this order, last on top)."""
        self.clear(name, player)
        return [self.put(d, name, player) for d in def_ids]

    def stack(self, deck: str, *def_ids: str) -> list[int]:
        """Put cards on top of a deck so that they are drawn in the order given."""
        pids = [self.put(d, deck) for d in reversed(def_ids)]
        return list(reversed(pids))

    def empty_into(self, src: str, dest: str) -> None:
        for pid in self.zone(src):
            mech.move(self.st, pid, self.zid(dest))

    # ------------------------------------------------------------------ playing (more in tests/tables.py)
    @property
    def prompt(self) -> str:
        return self.decision.prompt

    def piece_options(self) -> list[int]:
        out = []
        for o in self.decision.options:
            v = o.value
            out.append(v[1] if isinstance(v, tuple) else v)
        return out

    def pass_turn(self) -> None:
        """The current player takes a legacy card (keeps the first offered), plays no
        special and discards the first cards offered if over the limit."""
        p = self.player
        while self.decision is not None and self.player == p:
            labels = self.labels()
            if TAKE in labels:
                self.pick(TAKE)
            elif "done" in labels:
                self.pick("done")
            else:
                self.state.apply(0)

    def build(self, pid: int, pay: str | None = None) -> None:
        """From the build menu: build this legacy (choosing a payment if asked)."""
        self.pick_piece(pid)
        if pay is not None:
            assert self.prompt == "choose how to pay"
            self.pick(pay)


@pytest.fixture
def table():
    """A factory: `table(players=3, seed=0, **options)` starts a game at P1's first decision."""
    return Table
