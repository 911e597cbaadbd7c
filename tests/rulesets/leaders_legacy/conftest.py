"""Helpers for playing Leader's Legacy in tests: a `Table` wraps one game state, plays
the setup (first options, or the answers given), brings a turn to a phase's menu, lets a
test arrange the map (who controls a province, its settlement, armies, port; where a
leader stands; resources) and then drives the game's own decisions by label, or runs a
procedure as the rules write it (rules/leaders-legacy/)."""

from __future__ import annotations

from typing import Any, Callable

import pytest
import tables

from legacies.interpreter import mechanics as mech
from legacies.interpreter.game import GameState, cached_game

RULESET = "leaders-legacy"
MENU = "choose an action"
WINDOW = "respond, or pass"


def spec():  # noqa: ANN201 - the GameSpec, loaded once
    return tables.shipped_spec(RULESET)


def defn(content_id: str):  # noqa: ANN201 - an item's definition
    found = [d for d in spec().defs if d.id == content_id]
    assert len(found) == 1, content_id
    return found[0]


def provinces() -> list[str]:
    return [d.id for d in spec().defs if d.kind == "province"]


def quiet(labels: list[str]) -> str:
    """The answer that changes least: pass a window, stop a list, keep the leader; else the first."""
    for wanted in ("pass", "done", "no"):
        if wanted in labels:
            return wanted
    return labels[0]


class Table(tables.Table):
    def __init__(self, players: int = 3, seed: int = 0, options: dict[str, Any] | None = None,
                 answer: Callable[[list[str]], str] = quiet, ruleset: Any = None):
        """A new game, its setup answered by `answer` (the quietest option by default),
        stopped at the first turn's first question. `ruleset`: another GameSpec than
        Leader's Legacy's own (the ruleset with an expansion laid over it)."""
        super().__init__(cached_game(ruleset or spec(), players, options=options or {}), seed)
        self.players = players
        while self.decision is not None and self.counter("round") == 0:
            self.pick(answer(self.labels()))

    # ------------------------------------------------------------------ reading (more in tests/tables.py)
    @property
    def active(self) -> int:
        return self.st.active

    def item(self, content_id: str) -> int:
        return self.lay.board_item[content_id]

    def of(self, name: str, content_id: str) -> int:
        """A province's (a board item's) own counter: `t.of("armies", "frostgate")`."""
        return self.st.counters[self.lay.counter_slots(name)[self.item(content_id)]]

    def controller(self, content_id: str) -> int:
        return self.st.values[self.lay.value_slots("controller")[self.item(content_id)]]

    def ids(self, name: str, player: int | None = None) -> list[str]:  # type: ignore[override]
        """What a zone holds, bottom first, as content ids."""
        return [self.def_id(p) for p in self.zone(name, player)]

    def renown(self, player: int) -> int:
        return self.value("renown_of(me)", player)

    def log_since(self, mark: int) -> list[str]:
        return self.st.log[mark:]

    # ------------------------------------------------------------------ arranging (run, refresh: tests/tables.py)
    def clear_map(self) -> None:
        """Every province undeveloped and empty, every leader off the map's provinces."""
        self.run("for each V in provinces:\n    set V's controller to nobody\n    set V's level to 0\n"
                 "    set V's armies to 0\n    set V's has_port to 0\n    set V's traded_to to nobody\n"
                 "    set V's handover to 0\nfor each R in realms:\n    set R's capital_built to 0")

    def land(self, content_id: str, player: int | None, level: int = 1, armies: int = 0, port: int = 0) -> None:
        """A province controlled by `player` (None: nobody) with a settlement, armies and a port."""
        owner = "me" if player is not None else "nobody"
        self.run(f"set {content_id}'s controller to {owner}\nset {content_id}'s level to {level}\n"
                 f"set {content_id}'s armies to {armies}\nset {content_id}'s has_port to {port}", player or 0)

    def put_leader(self, player: int, content_id: str) -> None:
        self.run(f"set my leader_at to {content_id}", player)

    def seat(self, player: int, leader_id: str) -> None:
        """Give `player` the leader `leader_id` (its card on the board, health and energy full)."""
        for pid in self.zone("leader_seat", player) + self.zone("sidelined", player):
            mech.move(self.st, pid, self.lay.game_zone["leader_deck"])
        pid = self.lay.def_pieces[self.lay.def_index[leader_id]][0]
        mech.move(self.st, pid, self.lay.player_zone["leader_seat"] + player)
        self.run(f"set my leader to top of my leader_seat\nset my leader_type to my leader's type\n"
                 f"set my health to my leader's health\nset my energy to my leader's energy", player)

    def stack(self, zone: str, *content_ids: str) -> list[int]:
        """Copies of these cards on top of a game zone (the last named on top), taken from
        wherever they are not already stacked."""
        target = self.lay.game_zone[zone]
        placed: list[int] = []
        for cid in content_ids:
            pid = next(p for p in self.lay.def_pieces[self.lay.def_index[cid]] if p not in placed)
            mech.move(self.st, pid, target)
            placed.append(pid)
        return placed

    def give(self, player: int, **amounts: int) -> None:
        for name, n in amounts.items():
            self.set_counter(name, n, player)

    # ------------------------------------------------------------------ playing (pick: tests/tables.py)
    def pick_start(self, prefix: str) -> str:
        """Pick the option whose label starts with `prefix` (there must be exactly one)."""
        found = [label for label in self.labels() if label.startswith(prefix)]
        assert len(found) == 1, (prefix, self.labels())
        self.pick(found[0])
        return found[0]

    def starting(self, prefix: str) -> list[str]:
        return [label for label in self.labels() if label.startswith(prefix)]

    def until(self, done: Callable[["Table"], bool], answer: Callable[[list[str]], str] = quiet,
              limit: int = 500) -> None:
        """Answer quietly until `done(self)` holds."""
        for _ in range(limit):
            if done(self):
                return
            assert self.decision is not None, "the game ended first"
            self.pick(answer(self.labels()))
        raise AssertionError(f"not reached after {limit} decisions: {self.decision.prompt} {self.labels()}")

    def to_phase_menu(self, phase: int, player: int | None = None) -> None:
        """Bring the game to the menu of a phase (3 building, 4 combat, 5 end) of the turn
        of `player` (the current active player when None)."""
        def there(t: Table) -> bool:
            d = t.decision
            return (d is not None and d.prompt == MENU and t.counter("turn_phase") == phase
                    and (player is None or t.active == player) and d.player == t.active)
        self.until(there)


@pytest.fixture
def table():  # noqa: ANN201
    """A factory: `table(players=3, seed=0)` plays the setup and stops at the first turn's first question."""
    return Table


def play_out(state: GameState, seed: int, limit: int = 20000) -> GameState:
    import random

    from legacies.agents.bots import apply_random_option

    rng = random.Random(seed)
    for _ in range(limit):
        if state.decision is None:
            break
        apply_random_option(state, rng)
    return state
