"""Hidden information stays hidden, for every view handed out (issue 7).

Over random games of every installed ruleset and fixture ruleset, at every player count:
whatever is handed to a player or a bot must not change when the pieces that player
cannot see are rearranged (another player's hand, the order of a face-down deck; the
kind of a hidden piece counts as known, as a card's back shows its deck). Checked for
every view of every step:

- `GameState.view(p)` for every player p;
- the screen the terminal prints for the player who decides (`cli.terminal.screen`);
- the determinization a search bot plays from (`interpreter.information.determinize`),
  whole, for the same bot random numbers;
- the option a rollout bot picks (sampled: it plays many games per decision);
- the hot-seat log: a line never names a piece that only hidden zones hold.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from legacies.agents.bots import RolloutBot
from legacies.agents.match import play_match
from legacies.cli.terminal import screen
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.information import determinize, hidden_zones
from legacies.interpreter.mechanics import describe

from legacies.interpreter.errors import Refused
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.ruleset import load_ruleset, rulesets

TESTS = Path(__file__).resolve().parent

SEEDS = (0,)
ROLLOUT_EVERY = 40  # steps between two (costly) rollout-bot comparisons


def _all_rulesets() -> list[str]:
    """Every installed ruleset, and every fixture ruleset under tests/ that loads
    (`name@folder`), as the random simulation plays them."""
    keys = list(rulesets())
    for path in sorted(TESTS.glob("**/rules/*/ruleset.yaml")):
        key = f"{path.parent.name}@{path.parents[2]}"
        if _load(key).spec is not None:
            keys.append(key)
    return keys


def _load(key: str):  # type: ignore[no-untyped-def]
    name, _, folder = key.partition("@")
    return load_ruleset(name, folder) if folder else load_ruleset(name)


def _spec(key: str) -> GameSpec:
    spec = _load(key).spec
    assert spec is not None, f"{key} does not load"
    return spec


def rearranged(state: GameState, player: int, rng: random.Random) -> GameState:
    """A copy where the pieces `player` cannot see swap places among themselves (within
    their kind): the same game as far as `player` knows."""
    other = state.clone()
    st = other.st
    lay, defs = other.game.layout, other.game.spec.defs
    slots: dict[str, list[tuple[int, int]]] = {}
    for z in hidden_zones(other, player):
        for i, pid in enumerate(st.zones[z]):
            if pid not in st.revealed:
                slots.setdefault(defs[lay.piece_def[pid]].kind, []).append((z, i))
    for places in slots.values():
        pieces = [st.zones[z][i] for z, i in places]
        rng.shuffle(pieces)
        for (z, i), pid in zip(places, pieces):
            st.zone(z)[i] = pid
            st.loc[pid] = z
    return other


def world(state: GameState, player: int, seed: int) -> str:
    return json.dumps(determinize(state, player, random.Random(seed)).canonical(), sort_keys=True, default=repr)


def check_step(state: GameState, rng: random.Random, step: int) -> None:
    d = state.decision
    assert d is not None
    for p in range(state.game.players):
        other = rearranged(state, p, rng)
        assert other.view(p) == state.view(p), f"view({p}) depends on what P{p + 1} cannot see"
        if p != d.player:
            continue
        assert screen(other, p) == screen(state, p), "the terminal shows what the player cannot see"
        seed = rng.randrange(1 << 30)
        assert world(other, p, seed) == world(state, p, seed), "a bot's sampled world depends on hidden cards"
        if step % ROLLOUT_EVERY == 0 and len(d.options) > 1:
            bot_seed = rng.randrange(1 << 30)
            chose = RolloutBot(bot_seed, rollouts=2).choose(state)
            assert RolloutBot(bot_seed, rollouts=2).choose(other) == chose, "the rollout bot peeks"


def _long(label: str, players: int) -> bool:
    """The tables whose games are the longest (minutes each on two cores): a step of
    their own (`-m slow`)."""
    return label == "leaders-legacy" or (label == "legacies" and players >= 5)


def _cases() -> list[object]:
    out = []
    for name in _all_rulesets():
        spec = _spec(name)
        for players in range(spec.min_players, spec.max_players + 1):
            for seed in SEEDS:
                label = name.split("@")[0]
                out.append(pytest.param(name, players, seed, id=f"{label}-{players}p-seed{seed}",
                                        marks=[pytest.mark.slow] if _long(label, players) else []))
    return out


@pytest.mark.parametrize("name, players, seed", _cases())
def test_no_view_depends_on_hidden_pieces(name: str, players: int, seed: int) -> None:
    state = Game(_spec(name), players).new_state(seed)
    rng = random.Random(f"hidden/{name}/{players}/{seed}")
    checked = 0
    step = 0
    while not state.is_terminal():
        check_step(state, rng, step)
        checked += 1
        order = list(range(len(state.decision.options)))  # type: ignore[union-attr]
        rng.shuffle(order)
        for index in order:
            try:
                state.apply(index)
                break
            except Refused:
                continue
        step += 1
    assert checked > 5


class _Scripted:
    """A 'human' seat answering at random: the match runner treats the game as hot-seat."""

    name = "scripted"

    def __init__(self, seat: int):
        self.rng = random.Random(seat)

    def choose(self, state: GameState) -> int:
        assert state.decision is not None
        return self.rng.randrange(len(state.decision.options))


@pytest.mark.parametrize("name", _all_rulesets(), ids=lambda key: key.split("@")[0])
def test_the_hot_seat_log_never_names_a_piece_only_hidden_zones_hold(name: str) -> None:
    spec = _spec(name)
    players = spec.min_players
    seen: list[tuple[str, set[str], set[str]]] = []  # (line, names shown, names only hidden zones hold)
    state = Game(spec, players).new_state(3)

    def names(gs: GameState) -> tuple[set[str], set[str]]:
        st, lay = gs.st, gs.game.layout
        shown: set[str] = set()
        held: set[str] = set()
        for z, pieces in enumerate(st.zones):
            public = z > 0 and lay.zone_visibility[z] == "public"
            for pid in pieces:
                (shown if public or pid in st.revealed else held).add(describe(st, pid))
        return shown, held - shown

    def on_event(line: str) -> None:
        seen.append((line, *names(state)))

    play_match(spec, ["human"] * players, 3, human=_Scripted, on_event=on_event, state=state)
    assert len(seen) > 10
    before = names(Game(spec, players).new_state(3))
    for line, shown, hidden in seen:
        # a choice line is printed once the choice is applied: the piece was chosen where it
        # was before (`before`), and may be public now (played) or hidden now (taken)
        if "]: " in line:
            said = line.split("]: ", 1)[1]
            leak = said in before[1] and said not in before[0] and said not in shown
            assert not leak, f"the hot-seat log shows a hidden piece: {line!r}"
        before = (shown, hidden)
