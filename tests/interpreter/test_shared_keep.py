"""A copy of a state shares what its original kept (State.keep): a generated definition's
result stands in any copy holding the same numbers for what it read, since each change
takes a number of one clock no other change took (interpreter/versions.py). Greedy's
lines, a search's worlds and an undo's replay so find what the game before them
computed. Here every value read through the shared keep is checked against the same
value computed with nothing kept, in copies that went their own ways."""

from __future__ import annotations

import random

import pytest

from legacies.agents.bots import apply_random_option
from legacies.interpreter.errors import Refused
from legacies.interpreter.game import Game, GameState, Undo
from legacies.interpreter.information import determinize
from legacies.pipeline.ruleset import load_ruleset

RULESETS = ("legacies", "legacy", "gears-of-time", "leaders-legacy")


def _fresh(state: GameState) -> GameState:
    """The same state, computing everything anew: a copy with a keep of its own."""
    copy = state.clone()
    copy.st.keep = {}
    return copy


def _seen(state: GameState) -> tuple:  # type: ignore[type-arg]
    """What a bot reads of a state: every player's evaluation and the menu asked."""
    d = state.decision
    menu = None if d is None else (d.player, d.prompt, tuple(o.value for o in d.options), tuple(d.labels()))
    return tuple(state.evaluate(p) for p in range(state.game.players)), menu


def _remembering(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every generated definition remembers, in menus and outside them, whatever its memo
    or its kept results find (what does not pay stops remembering: runtime._rt_memo_pays),
    so every one is checked."""
    ns = game.compiler.writer.ns
    monkeypatch.setitem(ns, "_memo_off", [False] * len(ns["_memo_off"]))
    monkeypatch.setitem(ns, "_kept_off", [False] * len(ns["_kept_off"]))

    def judged(calls: list[int], made: list[int], off: list[bool], k: int, finds: int = 0) -> None:
        calls[k] = made[k] = 0

    monkeypatch.setitem(ns, "_rt_memo_pays", judged)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_what_copies_share_is_what_each_would_compute(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(load_ruleset(ruleset).spec, 4 if ruleset != "legacy" else 3)
    _remembering(game, monkeypatch)
    rng = random.Random(5)
    state = game.new_state(5)
    compared = kept_found = 0
    for turn in range(16):
        for _ in range(20):
            if state.decision is None:
                break
            apply_random_option(state, rng, undo=Undo.REPLAY)
        if state.decision is None:
            break
        _seen(state)  # the real game's values kept: a sampled world shares them
        world = determinize(state, state.decision.player, rng)
        assert _seen(world) == _seen(_fresh(world))  # nothing kept from a zone dealt again; the world's values kept
        lines = [world.clone() for _ in range(len(world.decision.options))]  # type: ignore[union-attr]
        for index, line in enumerate(lines):  # each copy goes its own way, a few decisions deep
            try:
                line.apply(index, undo=Undo.NONE)
            except Refused:
                continue
            for _ in range(rng.randrange(4)):
                if line.decision is None:
                    break
                apply_random_option(line, rng, undo=Undo.NONE)
            before = len(line.st.keep)
            shared = _seen(line)
            kept_found += before > 0
            assert shared == _seen(_fresh(line)), f"{ruleset}: turn {turn}, line {index}"
            compared += 1
    assert compared >= 10 and kept_found >= compared // 2  # lines read a keep their original had filled


def test_a_copy_finds_what_its_original_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sharing pays: a Gears of Time line that changed one technology's cubes finds
    the standing of every other technology kept (fewer results computed than afresh)."""
    game = Game(load_ruleset("gears-of-time").spec, 4)
    _remembering(game, monkeypatch)
    state = game.new_state(2)
    rng = random.Random(2)
    for _ in range(150):
        apply_random_option(state, rng, undo=Undo.REPLAY)
    assert state.decision is not None
    world = determinize(state, state.decision.player, rng)
    _seen(world)
    made = game.compiler.writer.ns["_memo_made"]
    counts = []
    for copy in (world.clone(), _fresh(world)):
        copy.apply(0, undo=Undo.NONE)
        start = sum(made)
        _seen(copy)
        counts.append(sum(made) - start)
    assert counts[0] < counts[1]
