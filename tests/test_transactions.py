"""The transaction property (issue 7): for random states of every installed ruleset and
every fixture ruleset, and every illegal option there (out of range, of a wrong type,
or refused by the rules), `apply` refuses it (Refused) and `serialize(state)` is byte
for byte what it was before, as is the state's canonical form. An InternalError (a bug)
is never taken for a refusal: it fails this test."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from legacies.agents.bots import apply_random_option
from legacies.interpreter.errors import Refused
from legacies.interpreter.game import Game, GameState, Undo
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.ruleset import load_ruleset, rulesets

TESTS = Path(__file__).resolve().parent


def _keys() -> list[str]:
    keys = list(rulesets())
    for path in sorted(TESTS.glob("**/rules/*/ruleset.yaml")):
        key = f"{path.parent.name}@{path.parents[2]}"
        if _spec(key) is not None:
            keys.append(key)
    return keys


def _spec(key: str) -> GameSpec | None:
    name, _, folder = key.partition("@")
    return (load_ruleset(name, folder) if folder else load_ruleset(name)).spec


KEYS = _keys()
_games: dict[tuple[str, int], Game] = {}


def _game(key: str, players: int) -> Game:
    if (key, players) not in _games:
        spec = _spec(key)
        assert spec is not None
        _games[(key, players)] = Game(spec, players)
    return _games[(key, players)]


def _frozen(state: GameState) -> str:
    return json.dumps(state.canonical(), sort_keys=True, default=repr)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(KEYS), players=st.integers(2, 6), seed=st.integers(0, 10_000),
       steps=st.integers(0, 400), undo=st.sampled_from([Undo.COPY, Undo.REPLAY]))
def test_every_illegal_option_is_refused_and_changes_nothing(key: str, players: int, seed: int, steps: int,
                                                             undo: bool | str) -> None:
    """Both ways of undoing: a copy before each decision, and a checkpoint every
    CHECKPOINT_EVERY decisions replayed forward (`undo=Undo.REPLAY`)."""
    spec = _spec(key)
    assert spec is not None
    players = max(spec.min_players, min(spec.max_players, players))
    state = _game(key, players).new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):  # a random state: random accepted options from the start
        if state.is_terminal():
            break
        for index in rng.sample(range(len(state.decision.options)), len(state.decision.options)):  # type: ignore[union-attr]
            try:
                state.apply(index, undo=undo)
                break
            except Refused:
                continue
    if state.is_terminal():
        return
    d = state.decision
    assert d is not None
    saved, frozen = state.serialize(), _frozen(state)
    illegal: list[object] = [len(d.options), len(d.options) + 7, -1, -len(d.options) - 1, True, "0", 0.0, None]
    for index in illegal:  # not options at all: refused on the state itself
        try:
            state.apply(index, undo=undo)  # type: ignore[arg-type]
        except Refused:
            assert state.serialize() == saved, f"refusing {index!r} changed the save"
            assert _frozen(state) == frozen, f"refusing {index!r} changed the state"
            continue
        raise AssertionError(f"{index!r} is not an option, yet it was accepted")
    for index in range(len(d.options)):  # options the rules may refuse: each tried on the state or a copy
        trial = state.clone()
        try:
            trial.apply(index, undo=undo)
        except Refused:
            assert trial.serialize() == saved, f"refusing option {index} ({d.labels()[index]!r}) changed the save"
            assert _frozen(trial) == frozen
            try:
                state.apply(index, undo=undo)
            except Refused:
                assert state.serialize() == saved and _frozen(state) == frozen
            else:
                raise AssertionError(f"option {index} refused on a copy, accepted on the state")
    assert state.serialize() == saved and _frozen(state) == frozen


def _refused_options(state: GameState) -> list[int]:
    d = state.decision
    assert d is not None
    refused = []
    for index in range(len(d.options)):
        try:
            state.clone().apply(index)
        except Refused:
            refused.append(index)
    return refused


@pytest.mark.slow  # minutes on two cores: `-m slow`, a step of .ci/run
def test_undo_by_replay_rewinds_every_decision_since_the_checkpoint() -> None:
    """Refused options met in random games played with `undo=Undo.REPLAY`, each refused
    on the state itself with decisions made since its checkpoint: the state is byte for
    byte what it was (a rewind that skipped the replay would lose those decisions)."""
    found = 0
    for key in KEYS:
        spec = _spec(key)
        assert spec is not None
        for seed in range(4):
            state = _game(key, spec.min_players).new_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal() and len(state.st.history) < 600:
                checkpoint = state._checkpoint
                since = len(state.st.history) - len(checkpoint.history) if checkpoint is not None else 0
                refused = _refused_options(state) if since > 0 else []
                for index in refused:
                    saved, frozen = state.serialize(), _frozen(state)
                    try:
                        state.apply(index, undo=Undo.REPLAY)
                    except Refused:
                        pass
                    else:
                        raise AssertionError(f"option {index} refused on a copy, accepted on the state")
                    assert state.serialize() == saved and _frozen(state) == frozen, f"{key} seed {seed}"
                    found += 1
                assert apply_random_option(state, rng, undo=Undo.REPLAY)[0] is not None
    assert found >= 10, f"only {found} refused options met: the test shows too little"
