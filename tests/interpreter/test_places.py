"""A graph of places (fixture `places`): spots joined by paths, bridges usable only into
an unguarded spot, one-way slides, and a hut on a path. Neighbours, places within N,
distances (unreachable is a number larger than any path), connected groups, link
conditions, the build's checks of the links, and a played game."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.dsl.parser import parse_program
from legacies.dsl.printer import print_program
from legacies.dsl.renderer import Wording, render_program
from legacies.interpreter import sandbox
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.graph import UNREACHABLE
from legacies.pipeline.ruleset import load_ruleset

PLACES = Path(__file__).parent / "fixtures" / "places"


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("places", PLACES)
    assert result.ok, [d.headline() for d in result.diagnostics]
    assert not result.diagnostics, [d.headline() for d in result.diagnostics]
    return result.spec


@pytest.fixture()
def state(spec) -> GameState:
    return Game(spec, 2).new_state(1)


def names(state: GameState, source: str, player: int = 0) -> list[str]:
    return [state.game.piece_names[p] for p in sandbox.value(state, source, player)]


def test_neighbours_by_every_link_or_by_the_links_named(state) -> None:
    assert names(state, "neighbours of spot_b") == ["Ash", "Cedar", "Hut"]
    assert names(state, "neighbours of spot_a") == ["Birch", "Elm"]  # a path and a bridge
    assert names(state, "neighbours of spot_a by path") == ["Birch"]
    assert names(state, "neighbours of spot_d by path or bridge") == ["Cedar", "Elm"]
    # spot_e lists no path: its bridges were listed by spot_a and spot_d, and join both ways
    assert names(state, "neighbours of spot_e") == ["Ash", "Dune"]
    assert names(state, "neighbours of spot_c by slide") == ["Fern"]
    assert names(state, "neighbours of spot_f") == []  # a slide goes one way
    assert names(state, "spots in neighbours of spot_b") == ["Ash", "Cedar"]


def test_neighbours_of_several_places_are_the_places_next_to_any_of_them(spec) -> None:
    """`neighbours of` a collection: every place one link from one of its places, in content
    order, one of them too when it is next to another; a link's condition asked from each
    (`here` the place stepped from); the same on generated code and on the closures."""
    for codegen in (True, False):
        state = Game(spec, 2, codegen=codegen).new_state(1)
        assert names(state, "neighbours of [spot_a, spot_d]") == ["Birch", "Cedar", "Elm"]
        assert names(state, "neighbours of [spot_a, spot_b]") == ["Ash", "Birch", "Cedar", "Elm", "Hut"]
        assert names(state, "neighbours of [spot_d, spot_a] by bridge") == ["Elm"]  # found once
        assert names(state, "neighbours of (spots where its guards = 3)") == []  # no place: nowhere
        assert names(state, "spots where its held_by is me") == ["Ash"]  # P1's home
        sandbox.run(state, "set spot_c's held_by to me\nset spot_f's held_by to me")
        assert names(state, "neighbours of (spots where its held_by is me) by path or slide") == [
            "Birch", "Dune", "Fern"]  # Birch twice (Ash's and Cedar's), Fern by Cedar's slide, none out of Fern
        sandbox.run(state, "raise spot_e's guards by 1")  # no bridge into a guarded spot...
        assert names(state, "neighbours of [spot_a, spot_d] by bridge") == []
        assert names(state, "neighbours of [spot_e, spot_f] by bridge") == ["Ash", "Dune"]  # ...out of it: yes
        # each pair of places: the two steps joined
        spots = [f"spot_{c}" for c in "abcdef"] + ["hut_h"]
        for one in spots:
            for other in spots:
                joined = set(names(state, f"neighbours of {one}")) | set(names(state, f"neighbours of {other}"))
                order = [state.game.piece_names[p] for p in sorted(sandbox.piece_of(state, x) for x in spots)]
                assert names(state, f"neighbours of [{one}, {other}]") == [n for n in order if n in joined]


def test_a_step_on_the_map_is_charged_to_the_step_budget(state) -> None:
    """`neighbours of X`, on generated code and on the closures alike (Graph.neighbours),
    charges one step for each place it finds: a loop of them spends the budget."""
    spot_a = sandbox.piece_of(state, "spot_a")
    before = state.st.spent
    found = state.game.graph.neighbours(state.st, 0, -1, spot_a, ("path",))
    assert found and state.st.spent - before == len(found)
    # from several places: each place stepped from, and each place found
    spot_d = sandbox.piece_of(state, "spot_d")
    before = state.st.spent
    found = state.game.graph.neighbours(state.st, 0, -1, [spot_a, spot_d], ("path", "bridge"))
    assert len(found) == 3 and state.st.spent - before == 2 + 3


def test_places_within_n_steps(state) -> None:
    assert names(state, "places within 0 of spot_a") == ["Ash"]
    assert names(state, "places within 1 of spot_a") == ["Ash", "Birch", "Elm"]
    assert names(state, "places within 2 of spot_a") == ["Ash", "Birch", "Cedar", "Dune", "Elm", "Hut"]
    assert names(state, "spots within 2 of spot_a by path") == ["Ash", "Birch", "Cedar"]
    assert names(state, "huts within 3 of spot_d") == ["Hut"]
    # through: every place passed on the way meets the condition; the places reached need not
    sandbox.run(state, "set spot_b's held_by to me")
    assert names(state, "places within 3 of spot_a by path through its held_by is nobody") == ["Ash", "Birch"]
    assert names(state, "places within 3 of spot_a by path through its held_by is me") == [
        "Ash", "Birch", "Cedar", "Hut"]


def test_distance_and_what_no_path_reads_as(state) -> None:
    assert sandbox.value(state, "distance from spot_a to spot_a") == 0
    assert sandbox.value(state, "distance from spot_a to spot_d") == 2  # over spot_e's bridges
    assert sandbox.value(state, "distance from spot_a to spot_d by path") == 3
    assert sandbox.value(state, "distance from spot_a to spot_f") == 3  # a, b, c, then the slide
    assert sandbox.value(state, "distance from spot_f to spot_a") == UNREACHABLE == 1_000_000
    assert sandbox.value(state, "distance from spot_f to spot_a <= 2") is False  # never an error
    assert sandbox.value(state, "distance from spot_f to spot_a > 2") is True
    assert sandbox.value(state, "distance from spot_a to spot_d by path through it is not spot_c") == UNREACHABLE


def test_a_link_with_a_condition_counts_only_while_it_holds(state) -> None:
    assert names(state, "neighbours of spot_a by bridge") == ["Elm"]
    sandbox.run(state, "raise spot_e's guards by 1")  # a bridge may not be taken into a guarded spot
    assert names(state, "neighbours of spot_a by bridge") == []
    assert names(state, "neighbours of spot_e by bridge") == ["Ash", "Dune"]  # out of it: yes
    assert sandbox.value(state, "distance from spot_a to spot_d") == 3
    assert sandbox.value(state, "distance from spot_e to spot_d") == 1


def test_a_connected_group(state) -> None:
    p1 = "top of players"
    assert names(state, f"connected group of spot_a where its held_by is {p1}") == ["Ash"]
    sandbox.run(state, "set spot_b's held_by to me\nset spot_e's held_by to me\nset spot_c's held_by to me")
    assert names(state, "connected group of spot_a where its held_by is me") == [
        "Ash", "Birch", "Cedar", "Elm"]
    assert names(state, "connected group of spot_a by path where its held_by is me") == ["Ash", "Birch", "Cedar"]
    assert names(state, "connected group of spot_d where its held_by is me") == []  # spot_d is P2's
    assert sandbox.value(state, "count of (connected group of spot_b where its held_by is me)") == 4


def test_a_played_game_claims_guards_and_scores_groups(spec) -> None:
    state = Game(spec, 2).new_state(1)
    st, lay = state.st, state.game.layout
    assert state.decision.labels() == ["Claim Birch", "Claim Elm", "Guard Ash", "Wait"]
    state.apply_label("Claim Birch")  # P1: within 1 of spot_a, held by nobody
    spot_b = lay.board_item["spot_b"]
    assert st.values[lay.value_slots("held_by")[spot_b]] == 0
    assert st.values[lay.player_value["home"] + 0] == spot_b
    assert state.decision.labels() == ["Claim Cedar", "Claim Elm", "Guard Dune", "Wait"]
    state.apply_label("Guard Dune")  # P2 guards: the bridge into spot_d closes
    assert st.counters[lay.counter_slots("guards")[lay.board_item["spot_d"]]] == 1
    assert "Guard Ash" in state.decision.labels() and "Guard Birch" in state.decision.labels()
    while not state.is_terminal():
        state.apply_label("Wait")
    assert state.scores() == [2, 1]  # P1 holds a connected group of two, P2 one spot


def test_the_graph_is_built_once_per_game(spec) -> None:
    game = Game(spec, 2)
    one, two = game.new_state(1), game.new_state(2)
    assert one.game.graph is two.game.graph is one.clone().game.graph
    assert game.graph.adjacent["path"][game.layout.board_item["spot_a"]] == (game.layout.board_item["spot_b"],)


def test_the_checker_refuses_what_cannot_work(spec, checked) -> None:
    check = checked
    found = check(spec, "let v be neighbours of spot_a by road")
    assert found[0][0] == "E201" and "unknown link kind `road`" in found[0][1]
    found = check(spec, "let v be neighbours of spot_a by pth")
    assert found[0][2] == "did you mean `path`?"
    found = check(spec, "let v be neighbours of hut_h by bridge")
    assert found[0][0] == "E202" and "no `bridge` links" in found[0][1] and "path" in found[0][2]
    found = check(spec, "let v be neighbours of 3")
    assert found[0][0] == "E202" and "expected a place or places, found an amount" in found[0][1]
    found = check(spec, "let v be neighbours of players")
    assert found[0][0] == "E202" and "expected a place or places, found players" in found[0][1]
    found = check(spec, "let v be places within 1 of [spot_a, spot_b]")
    assert found[0][0] == "E202" and "expected a place, found" in found[0][1]  # one start: a distance is from one
    assert check(spec, "let v be neighbours of (spots where its guards > 0) by path") == []
    found = check(spec, "let v be places within 2 of spot_a through its held_by")
    assert found[0][0] == "E202"  # a condition, not a player
    found = check(spec, "let v be cards within 2 of spot_a\nlet w be rocks within 1 of spot_a")
    assert [c for c, _, _ in found] == ["E201"] and "rocks" in found[0][1]
    assert check(spec, "let v be distance from spot_a to hut_h by path through its held_by is me <= 2") == []


SPOTS = "content/places/spots.yaml"
RULES = "rules/places/ruleset.yaml"


def test_the_build_checks_every_link(edited) -> None:
    found = edited("places", {SPOTS: ("links: {path: [spot_a, spot_c, hut_h]}",
                                      "links: {path: [spot_a, spot_x, hut_h, spot_b], slide: [spot_f], lane: [spot_a]}")})
    codes = sorted((c, m) for c, m, _ in found)
    assert [c for c, _ in codes] == ["C009", "C009", "C009", "W306"], codes
    messages = " | ".join(m for _, m in codes)
    assert "unknown place `spot_x`" in messages and "its own `path` neighbour" in messages
    assert "has no `lane` links" in messages
    assert "`spot_c` lists `spot_b` as a `path` neighbour but `spot_b` does not list `spot_c`" in messages


def test_a_neighbour_of_a_kind_the_link_does_not_join(edited) -> None:
    found = edited("places", {SPOTS: ("links: {bridge: [spot_a, spot_d]}", "links: {bridge: [spot_a, spot_d, hut_h]}")})
    assert [(c, m) for c, m, _ in found] == [("C009", "`hut_h` is a hut, which `bridge` links do not join")]
    assert "bridge` joins spot" in found[0][2]


def test_links_belong_to_board_kinds_and_declared_link_kinds(edited) -> None:
    found = edited("places", {RULES: ("    plural: huts\n    links: [path]", "    plural: huts\n    links: [path, lane]")})
    assert found[0][0] == "R001" and "unknown link kind `lane`" in found[0][1]
    found = edited("places", {RULES: ("  hut:\n    piece: board", "  hut:\n    piece: card")})
    assert "R011" in [c for c, _, _ in found]
    found = edited("places", {RULES: ("  slide: {label: slide, symmetric: false}",
                                            "  slide: {label: slide, symmetric: false}\n  lane: {}")})
    assert [(c, "lane" in m) for c, m, _ in found] == [("W307", True)]


def test_a_link_condition_is_checked(edited) -> None:
    found = edited("places", {RULES: ("if: \"there's guards = 0\"", "if: \"there's gards = 0\"")})
    assert found[0][0] == "E203" and "gards" in found[0][1] and found[0][2] == "did you mean `guards`?"


def test_card_text_and_round_trip(spec) -> None:
    wording = Wording.of(spec.vocab)
    cases = {
        "for each S in neighbours of spot_a by path or bridge:\n    raise S's guards by 1\n":
            "For each of the places next to Ash by path or bridge: raise that place's guards by 1.",
        "choose one of spots within 2 of spot_a through its held_by is me as S\nset my home to S\n":
            "Choose one of the spots at most 2 steps from Ash, passing only through places where its held by "
            "is you. Set your home to that spot.",
        "if distance from spot_a to spot_d by path <= 2:\n    gain 1 points\n":
            "If the number of steps from Ash to Dune by path is at most 2: gain 1 point.",
        "gain count of (connected group of spot_a where its held_by is me) points\n":
            "Gain points equal to the number of Ash and the places connected to it, all where its held by is you.",
        "for each S in neighbours of (spots where its held_by is me) by path:\n    raise S's guards by 1\n":
            "For each of the places next to any of spots whose held by is you by path: raise that place's guards "
            "by 1.",
    }
    for source, text in cases.items():
        program = parse_program(source)
        assert parse_program(print_program(program)) == program
        assert render_program(program, wording) == text


def test_a_places_card_text_lists_its_neighbours_by_link(spec, state) -> None:
    """`?N` at the terminal and `legacies explain` show a place's neighbours, one line per
    kind of link, as its item lists them."""
    from legacies.cli.terminal import option_text
    from legacies.pipeline.explain import explain, item_text

    birch = next(d for d in spec.defs if d.id == "spot_b")
    assert item_text(birch, spec.vocab) == "path: Ash, Cedar, Hut"
    ash = next(d for d in spec.defs if d.id == "spot_a")
    assert item_text(ash, spec.vocab).splitlines() == ["path: Birch", "bridge: Elm"]
    assert "path: Ash, Cedar, Hut" in explain("spot_b", "places", root=str(PLACES))
    index = next(i for i, o in enumerate(state.decision.options) if o.label == "Claim Birch")
    assert option_text(state, index) == "path: Ash, Cedar, Hut"
    from legacies.view.cards import card_lines

    assert "path: Ash, Cedar, Hut" in card_lines(state, state.decision.options[index].item, 0)  # ?N in full
