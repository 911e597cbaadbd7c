"""Helpers for playing Legacy: Gears of Time in tests: a `Table` wraps one game state,
answers the setup's turn-order choices, lets a test arrange a scenario (cards into
hands, technologies onto the timeline with cubes on them, pawns and the Present Day)
and then drive the decisions by label, or run the end of the round's procedures as
the rules write them (rules/gears-of-time/flow.yaml)."""

from __future__ import annotations

from typing import Sequence

import pytest
import tables

from legacies.interpreter import mechanics as mech
from legacies.interpreter.game import GameState, cached_game

RULESET = "gears-of-time"
DRAW = "Draw 2 cards, keep 1"
END_OF_ROUND = "return_to_present()\nresolve_disputes()\nstrengthen_legacy()"


def spec():  # noqa: ANN201 - the GameSpec, loaded once
    return tables.shipped_spec(RULESET)


def is_spot_choice(state: GameState) -> bool:
    d = state.decision
    return d is not None and d.prompt.startswith("choose a number")


class Table(tables.Table):
    def __init__(self, players: int = 3, seed: int = 0, spots: Sequence[int] | None = None,
                 options: dict | None = None):
        """A new game (with setup `options`); the setup's turn-order spots are chosen in the
        order asked (the lowest free spot, or the spots given, one per player in the order
        they choose)."""
        super().__init__(cached_game(spec(), players, options=options), seed)
        self.reserved: set[int] = set()
        self.choosers: list[int] = []
        wanted = list(spots or [])
        while is_spot_choice(self.state):
            self.choosers.append(self.player)
            self.pick(str(wanted.pop(0)) if wanted else self.labels()[0])

    # ------------------------------------------------------------------ reading (more in tests/tables.py)
    def timeline(self) -> dict[int, list[str]]:
        """The technologies on the timeline by timeframe: {3: ["fire", "writing"]}."""
        out: dict[int, list[str]] = {}
        for pid in self.zone("timeline"):
            out.setdefault(self.time(pid), []).append(self.def_id(pid))
        return out

    def time(self, pid: int) -> int:
        return self.st.counters[self.lay.counter_slots("time")[pid]]

    def failed(self, pid: int) -> int:
        return self.st.counters[self.lay.counter_slots("failed")[pid]]

    def cubes(self, pid: int, player: int) -> int:
        """`player`'s cubes on the technology `pid`."""
        return sum(1 for t in mech.pieces_on(self.st, pid) if self.lay.piece_owner[t] == player)

    def pool(self, player: int) -> int:
        return len(self.zone("pool", player))

    def supply(self, player: int) -> int:
        return len(self.zone("supply", player))

    def points(self, player: int) -> int:
        return self.counter("points", player)

    # ------------------------------------------------------------------ arranging
    def spare(self, def_id: str) -> int:
        """A copy of `def_id` not yet placed by the test: from the deck or discards, else a hand."""
        copies = [p for p in self.lay.def_pieces[self.lay.def_index[def_id]] if p not in self.reserved]
        piles = {self.zid("deck"), self.zid("discards")}
        for pid in copies:
            if self.st.loc[pid] in piles:
                return pid
        for pid in copies:
            if self.st.loc[pid] != self.zid("timeline"):
                return pid
        raise AssertionError(f"no spare {def_id} left")

    def put(self, def_id: str, name: str, player: int | None = None) -> int:
        pid = self.spare(def_id)
        mech.move(self.st, pid, self.zid(name, player))
        self.reserved.add(pid)
        return pid

    def give(self, player: int, *def_ids: str) -> list[int]:
        """Make `player`'s hand hold exactly these cards."""
        for pid in self.zone("hand", player):
            mech.move(self.st, pid, self.zid("deck"))
            self.reserved.discard(pid)
        return [self.put(d, "hand", player) for d in def_ids]

    def establish(self, def_id: str, time: int, **cubes: int) -> int:
        """A technology on the timeline in timeframe `time`, with cubes (`p1=2, p3=1`)."""
        pid = self.put(def_id, "timeline")
        self.st.counters[self.lay.counter_slots("time")[pid]] = time
        for who, n in cubes.items():
            self.add_cubes(pid, int(who[1:]) - 1, n)
        return pid

    def add_cubes(self, pid: int, player: int, n: int, source: str = "supply") -> None:
        for _ in range(n):
            cube = self.zone(source, player)[-1]
            mech.move(self.st, cube, self.lay.holder_zone[pid])

    def fill_pool(self, player: int, n: int) -> None:
        for _ in range(n):
            mech.move(self.st, self.zone("supply", player)[-1], self.zid("pool", player))

    def fate_on(self, fate_id: str, pid: int, player: int, removes: str | None = None) -> int:
        """A fate card played to the technology `pid` by `player`."""
        fate = self.spare(fate_id)
        self.reserved.add(fate)
        mech.move(self.st, fate, self.lay.holder_zone[pid])
        self.st.values[self.lay.value_slots("played_by")[fate]] = player
        if removes is not None:
            self.st.values[self.lay.value_slots("removes")[fate]] = self.game.compiler.item(removes)
        return fate

    def move_pawn(self, player: int, time: int) -> None:
        self.set_counter("at", time, player)

    # ------------------------------------------------------------------ playing (pick, pick_piece, run, refresh: tests/tables.py)
    def end_of_round(self) -> None:
        """Return to the present, resolve the disputes and score, as the rules write them."""
        self.run(END_OF_ROUND)


@pytest.fixture
def table():  # noqa: ANN201
    """A factory: `table(players=3, seed=0, spots=None)` starts a game at the first player's first action."""
    return Table
