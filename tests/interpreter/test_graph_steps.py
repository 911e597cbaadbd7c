"""What a step on the map asks of a link's condition (interpreter/graph.py): while the
state is only read (a menu being built, `State.frozen`) a walk from the same place is made
once, and a single step is asked afresh (a menu steps from each place once: remembering it
did not pay); a condition that does not read `there` is asked once per place, not once per
neighbour, and not at all where its link adds no place. The answers are those of asking
every time (fixture `places`: a bridge that may be taken only into an unguarded
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


def test_a_condition_is_not_asked_where_its_link_adds_no_place(tmp_path: Path) -> None:
    """One link with a condition that does not read `there`, asked with others: a step
    reads the places of them all, joined once per place, and asks the condition only
    where its link adds a place the others do not reach (here a path joins Ash and Elm
    too, so from Ash the bridge adds nothing). Every answer, for every place, guarded or
    not, is the one of asking the condition for each neighbour."""
    root = tmp_path / "places"
    shutil.copytree(PLACES, root)
    rules = root / "rules" / "places" / "ruleset.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "if: \"there's guards = 0\"", "if: \"here's guards = 0\""), encoding="utf-8")
    spots = root / "content" / "places" / "spots.yaml"
    text = spots.read_text(encoding="utf-8")
    assert "links: {path: [spot_b], bridge: [spot_e]}" in text
    spots.write_text(text.replace("links: {path: [spot_b], bridge: [spot_e]}",
                                  "links: {path: [spot_b, spot_e], bridge: [spot_e]}"), encoding="utf-8")
    state = _game(root)
    asked = _counted(state, "bridge")
    st, graph = state.st, state.game.graph
    spot_a, spot_e = _place(state, "spot_a"), _place(state, "spot_e")
    names = state.game.piece_names
    assert [names[p] for p in graph.step(st, 0, None, spot_a, ("path", "bridge"))] == ["Birch", "Elm"]
    assert asked == []  # Elm is on a path from Ash: the bridge adds nothing, nothing asked
    assert [names[p] for p in graph.step(st, 0, None, spot_e, ("path", "bridge"))] == ["Ash", "Dune"]
    assert asked == [spot_e]  # Dune only by the bridge: asked, once
    places = range(len(graph.adjacent["path"]))  # every piece: a place, or one no link leaves
    for guarded in (False, True):
        if guarded:
            sandbox.run(state, "raise spot_e's guards by 1")
        for x in places:
            by_path = set(graph.step(st, 0, None, x, ("path",)))
            by_bridge = set(graph.step(st, 0, None, x, ("bridge",)))
            assert graph.step(st, 0, None, x, ("path", "bridge")) == tuple(sorted(by_path | by_bridge))
    assert graph.step(st, 0, None, spot_e, ("path", "bridge")) == (spot_a,)  # out of a guarded Elm: the path


def test_a_menu_walks_from_a_place_once(there_state: GameState) -> None:
    """While the state is frozen (a menu), every distance from the same place is read from
    one walk, and a single step is asked again; the answers are those outside."""
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
        withins = [graph.within(a, spot_a, ("path", "bridge", "slide"), most) for most in (-1, 0, 2)]
        assert len(asked) == once  # the three distances and the `within`s: one walk
        for most, found in zip((-1, 0, 2), withins):
            assert found == sorted(graph.distances(a, spot_a, ("path", "bridge", "slide"), most))
        before = len(asked)
        assert graph.step(st, 0, None, spot_d, ("path", "bridge", "slide")) == (
            _place(state, "spot_c"), _place(state, "spot_e"))
        assert len(asked) > before  # a step is asked afresh, not remembered
        assert graph.distance(a, spot_f, spot_a, ("path", "slide")) == UNREACHABLE
    assert inside == outside
    assert once < walked_outside  # three walks outside, one inside
    with st.frozen():
        graph.step(st, 0, None, spot_d, ("bridge",))
    before = len(asked)
    sandbox.run(state, "raise spot_e's guards by 1")  # outside a menu nothing is remembered
    assert graph.step(st, 0, None, spot_d, ("bridge",)) == () and len(asked) > before


@pytest.mark.parametrize("condition", ["there's guards = 0", "here's guards = 0"])
def test_a_definition_that_walks_a_conditioned_link_is_kept_until_what_the_condition_reads_changes(
        tmp_path: Path, condition: str) -> None:
    """A definition's result is kept across menus with the count of changes of what it reads
    (codegen/definitions.py); a walk by a link with a condition reads what the condition
    reads (codegen/expressions.py `_link_reads`), so raising a spot's guards, which the
    bridge's condition reads, makes the walk be worked out again, as the closures do."""
    root = tmp_path / "places"
    shutil.copytree(PLACES, root)
    rules = root / "rules" / "places"
    (rules / "ruleset.yaml").write_text((rules / "ruleset.yaml").read_text(encoding="utf-8").replace(
        "there's guards = 0", condition), encoding="utf-8")
    procedures = rules / "procedures.yaml"
    procedures.write_text(procedures.read_text(encoding="utf-8").replace("format: 2\n", (
        "format: 2\ndefinitions:\n  across:\n    params: {S: \"kind:spot\"}\n"
        "    text: \"the spots across a bridge from {S}\"\n    value: neighbours of S by bridge\n"), 1),
        encoding="utf-8")
    result = load_ruleset("places", root)
    assert result.ok and result.spec is not None, [d.headline() for d in result.diagnostics]
    made, reference = (Game(result.spec, 2, codegen=codegen).new_state(1) for codegen in (True, False))
    # (a place named by a non-constant: a call with constants is written in place, not kept)
    across = "count of across(home of bottom of players)" if condition.startswith("there") else \
        "count of across(home of top of players)"
    for state in (made, reference):
        state.apply_label("Claim Elm")  # P1's home is now Elm
        state.apply_label("Wait")
        before = sandbox.value(state, across)
        if state is made:
            assert any("def _d" in source and "_rt_neighbours" in source and "stamp = " in source
                       for source in made.game.compiler.sources.values())  # kept across menus, by what it reads
        assert sandbox.value(state, across) == before  # (kept, in the generated code)
        state.apply_label("Guard Elm")  # in play (sandbox.run would forget what is kept)
        assert sandbox.value(state, "spot_e's guards") == 1
        # from Dune into a guarded Elm no bridge leads; out of a guarded Elm none does
        assert (before, sandbox.value(state, across)) == ((1, 0) if condition.startswith("there") else (2, 0))
