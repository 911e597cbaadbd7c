"""What a step on the map asks of a link's condition (interpreter/graph.py): while the
state is only read (a menu being built, `State.frozen`) a conditioned step is remembered
per place and player, and a walk from the same place is made once; a condition that does
not read `there` is asked once per place, not once per neighbour. The answers are those
of asking every time (fixture `places`: a bridge that may be taken only into an unguarded
spot, `there's guards = 0`; and the same map with a bridge closed from a guarded spot,
`here's guards = 0`)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from legacies.interpreter import sandbox
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.graph import UNREACHABLE
from legacies.interpreter.vm import Activation
from legacies.pipeline.ruleset import load_ruleset

PLACES = Path(__file__).parent / "fixtures" / "places"


def _game(root: Path) -> GameState:
    result = load_ruleset("places", root)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return Game(result.spec, 2).new_state(1)


def _counted(state: GameState, link: str) -> list[Any]:
    """The `here` of every time `link`'s condition is asked from now on."""
    graph = state.game.graph
    asked: list[Any] = []
    condition = graph.conditions[link]

    def counting(a: Activation) -> Any:
        asked.append(a.env["here"])
        return condition(a)
    graph.conditions = {**graph.conditions, link: counting}
    return asked


@pytest.fixture()
def there_state() -> GameState:
    return _game(PLACES)


@pytest.fixture()
def here_state(tmp_path: Path) -> GameState:
    root = tmp_path / "places"
    shutil.copytree(PLACES, root)
    rules = root / "rules" / "places" / "ruleset.yaml"
    text = rules.read_text(encoding="utf-8")
    assert "if: \"there's guards = 0\"" in text
    rules.write_text(text.replace("if: \"there's guards = 0\"", "if: \"here's guards = 0\""), encoding="utf-8")
    return _game(root)


def _place(state: GameState, name: str) -> int:
    return sandbox.piece_of(state, name)


def test_a_condition_that_reads_there_is_asked_for_each_neighbour(there_state: GameState) -> None:
    state = there_state
    asked = _counted(state, "bridge")
    st, graph = state.st, state.game.graph
    spot_e = _place(state, "spot_e")
    assert [state.game.piece_names[p] for p in graph.step(st, 0, None, spot_e, ("bridge",))] == ["Ash", "Dune"]
    assert len(asked) == 2  # Ash, then Dune: each neighbour's guards


def test_a_condition_without_there_is_asked_once_a_place(here_state: GameState) -> None:
    state = here_state
    asked = _counted(state, "bridge")
    st, graph = state.st, state.game.graph
    spot_e = _place(state, "spot_e")
    assert [state.game.piece_names[p] for p in graph.step(st, 0, None, spot_e, ("bridge",))] == ["Ash", "Dune"]
    assert asked == [spot_e]  # once, not once for Ash and once for Dune
    sandbox.run(state, "raise spot_e's guards by 1")
    assert graph.step(st, 0, None, spot_e, ("bridge",)) == ()  # out of a guarded spot: no bridge
    # a neighbour found by another link first is not asked about again (nor is the condition)
    del asked[:]
    spot_a = _place(state, "spot_a")
    assert [state.game.piece_names[p] for p in graph.step(st, 0, None, spot_a, ("path", "bridge"))] == [
        "Birch", "Elm"]
    assert asked == [spot_a]


def test_a_menu_asks_each_step_once_and_walks_from_a_place_once(there_state: GameState) -> None:
    """While the state is frozen (a menu), the same step is not asked again, and every
    distance from the same place is read from one walk; the answers are those outside."""
    state = there_state
    asked = _counted(state, "bridge")
    spot_a, spot_d, spot_f = (_place(state, n) for n in ("spot_a", "spot_d", "spot_f"))
    outside = [sandbox.value(state, f"distance from spot_a to {n}") for n in ("spot_d", "spot_f", "hut_h")]
    walked_outside = len(asked)
    assert outside == [2, 3, 2] and walked_outside > 0
    del asked[:]
    st, graph = state.st, state.game.graph
    a = Activation(st, 0, None)
    with st.frozen():
        inside = [graph.distance(a, spot_a, _place(state, n), ("path", "bridge", "slide"))
                  for n in ("spot_d", "spot_f", "hut_h")]
        once = len(asked)
        for most in (-1, 0, 2):
            assert graph.within(a, spot_a, ("path", "bridge", "slide"), most) == sorted(
                graph.distances(a, spot_a, ("path", "bridge", "slide"), most))
        assert graph.step(st, 0, None, spot_d, ("path", "bridge", "slide")) == (
            _place(state, "spot_c"), _place(state, "spot_e"))
        assert len(asked) == once  # every step was remembered from the one walk
        assert graph.distance(a, spot_f, spot_a, ("path", "slide")) == UNREACHABLE
    assert inside == outside
    assert once < walked_outside  # three walks outside, one inside
    with st.frozen():
        graph.step(st, 0, None, spot_d, ("bridge",))
    before = len(asked)
    sandbox.run(state, "raise spot_e's guards by 1")  # outside a menu nothing is remembered
    assert graph.step(st, 0, None, spot_d, ("bridge",)) == () and len(asked) > before
