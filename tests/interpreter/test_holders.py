"""Pieces that hold pieces, with state of their own per copy (fixture `holders`): a card
kind that is a holder (crates hold chips and gadgets), its own counters and value slots,
what happens to them when it leaves the table, and that views, boards, saves and
determinizations handle them without leaking what is hidden."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from legacies.cli.board import board_lines
from legacies.dsl.parser import parse_program
from legacies.dsl.printer import print_program
from legacies.dsl.renderer import Wording, render_program
from legacies.interpreter import sandbox
from legacies.interpreter.builtins import holder
from legacies.interpreter.errors import InternalError
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.information import determinize
from legacies.interpreter.invariants import problems
from legacies.pipeline.ruleset import load_ruleset

HOLDERS = Path(__file__).parent / "fixtures" / "holders"


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("holders", HOLDERS)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return result.spec


def table_state(spec, players: int = 2) -> GameState:
    """A game with every crate on P1's table and every gadget in P1's hand."""
    state = Game(spec, players).new_state(1)
    sandbox.run(state, "move cards in hand of players to deck\nmove crates in deck to my table\n"
                       "move gadgets in deck to my hand")
    return state


def first(decision) -> str:
    """The first option: copies of one card on the table are told apart by number
    ("Crate #2"), and any crate does here."""
    return decision.labels()[0]


def crates(state: GameState) -> list[int]:
    return list(state.game.layout.kind_pieces["crate"])


def own(state: GameState, pid: int, name: str):
    """A piece's own counter or value, read through the language."""
    lay = state.game.layout
    slots = lay.counter_slots(name) if (("crate", name) in lay.item_counter) else lay.value_slots(name)
    return state.st.counters[slots[pid]] if ("crate", name) in lay.item_counter else state.st.values[slots[pid]]


def test_two_copies_of_one_card_hold_different_things(spec) -> None:
    state = table_state(spec)
    sandbox.run(state, """choose a crate in my table as A
choose a crate in my table where it is not A as B
raise A's charge by 2
set A's marked_by to me
set B's colour to blue
place my chip on A
place my chip on A
move top of (gadgets in my hand) to B
""", answers=[first, first])
    st, lay = state.st, state.game.layout
    a = next(pid for pid in crates(state) if own(state, pid, "charge") == 2)
    b = next(pid for pid in crates(state) if own(state, pid, "colour") == "blue")
    assert a != b and lay.piece_def[a] == lay.piece_def[b]  # two copies of one card
    assert own(state, b, "charge") == 0
    assert own(state, a, "marked_by") == 0 and own(state, b, "marked_by") == -1  # nobody
    assert own(state, a, "colour") is None and own(state, b, "colour") == "blue"
    assert [lay.piece_def[p] for p in st.zones[lay.holder_zone[a]]] == [lay.token_def["chip"]] * 2
    assert [state.game.piece_names[p] for p in st.zones[lay.holder_zone[b]]] == ["Gadget"]
    assert sandbox.value(state, "count of (chips in (top of (crates in my table where its charge = 2)))") == 2
    assert sandbox.value(state, "count of (gadgets in (top of (crates in my table where its colour is blue)))") == 1
    gadget = st.zones[lay.holder_zone[b]][0]
    assert holder(st, gadget) == b  # `holder of G`
    assert sandbox.value(state, "count of (gadgets in (holder of top of (cards in (top of (crates in my table "
                                "where its colour is blue)))))") == 1
    assert problems(state) == []


def test_leaving_the_table_gives_back_what_a_piece_holds_and_resets_its_state(spec) -> None:
    state = table_state(spec)
    sandbox.run(state, """choose a crate in my table as A
raise A's charge by 3
set A's marked_by to me
set A's colour to red
place my chip on A
move top of (gadgets in my hand) to A
discard A
""", answers=[first])
    st, lay = state.st, state.game.layout
    supply = lay.player_zone["supply"]
    discard = lay.game_zone["discard"]
    crate = next(p for p in crates(state) if st.loc[p] == discard)
    assert len(st.zones[supply]) == 3  # the chip is back in its owner's supply
    assert [state.game.piece_names[p] for p in st.zones[discard]] == ["Gadget", "Crate"]  # what it held, then it
    assert not st.zones[lay.holder_zone[crate]]
    assert own(state, crate, "charge") == 0 and own(state, crate, "marked_by") == -1 and own(state, crate, "colour") is None
    assert problems(state) == []


def test_a_piece_moved_from_table_to_table_keeps_its_state(spec) -> None:
    state = table_state(spec)
    sandbox.run(state, """choose a crate in my table as A
raise A's charge by 1
place my chip on A
move A to table of top of opponents
""", answers=[first])
    st, lay = state.st, state.game.layout
    moved = next(p for p in crates(state) if st.loc[p] == lay.player_zone["table"] + 1)
    assert own(state, moved, "charge") == 1 and len(st.zones[lay.holder_zone[moved]]) == 1


def test_a_full_holder_gives_back_the_piece_it_got_first(spec) -> None:
    state = table_state(spec)
    sandbox.run(state, """choose a crate in my table as A
move top of (gadgets in my hand) to A
place my chip on A
place my chip on A
place my chip on A
""", answers=[first])  # capacity 3: the gadget goes to its discard pile to make room
    st, lay = state.st, state.game.layout
    held = [state.game.piece_names[p] for z in (lay.holder_zone[p] for p in crates(state)) for p in st.zones[z]]
    assert held == ["Chip", "Chip", "Chip"]
    assert [state.game.piece_names[p] for p in st.zones[lay.game_zone["discard"]]] == ["Gadget"]


def test_changing_the_state_of_a_piece_off_the_table_is_an_error(spec) -> None:
    state = Game(spec, 2).new_state(1)
    sandbox.run(state, "move cards in hand of players to deck\nmove crates in deck to my hand")
    before = state.fingerprint()
    for source in ("raise (top of (crates in my hand))'s charge by 1",
                   "set (top of (crates in my hand))'s marked_by to me",
                   "place my chip on top of (crates in my hand)"):
        with pytest.raises(InternalError, match="is not on the table"):
            sandbox.run(state, source)
        assert state.fingerprint() == before
    assert sandbox.value(state, "(top of (crates in my hand))'s charge") == 0  # reading is fine


def test_a_played_game_charges_stashes_and_scraps(spec) -> None:
    state = Game(spec, 2).new_state(4)
    st, lay = state.st, state.game.layout
    labels = state.decision.labels()
    state.apply_label(next(x for x in labels if x.startswith("Play Crate")))  # P1 plays a crate
    state.apply_label(state.decision.labels()[0])  # P2 does something
    state.apply_label("Charge Crate")  # P1 charges it: its own counter, value and a chip
    crate = next(p for p in crates(state) if st.loc[p] == lay.player_zone["table"])
    assert own(state, crate, "charge") == 1 and own(state, crate, "marked_by") == 0
    assert len(st.zones[lay.holder_zone[crate]]) == 1
    state.apply_label(state.decision.labels()[0])
    state.apply_label("Scrap Crate")  # gain its charge in points, then discard it: the chip goes home
    assert state.scores()[0] == 1
    assert st.loc[crate] == lay.game_zone["discard"] and own(state, crate, "charge") == 0
    assert len(st.zones[lay.player_zone["supply"]]) == 3
    loaded = GameState.deserialize(spec, state.serialize())  # saves replay per-copy state exactly
    assert loaded.fingerprint() == state.fingerprint()


def test_saves_clones_and_fingerprints_carry_each_copys_state(spec) -> None:
    state = table_state(spec)
    sandbox.run(state, "choose a crate in my table as A\nraise A's charge by 2", answers=[first])
    copy = state.clone()
    assert copy.fingerprint() == state.fingerprint()
    sandbox.run(copy, "choose a crate in my table as A\nset A's colour to red", answers=[first])
    assert copy.fingerprint() != state.fingerprint()
    assert state.canonical()["values"] != copy.canonical()["values"]


def test_views_and_the_board_show_no_counters_of_cards_off_the_table(spec) -> None:
    state = table_state(spec)
    sandbox.run(state, "choose a crate in my table as A\nraise A's charge by 2\nmove A to my hand", answers=[first])
    lay = state.game.layout
    view = state.view(1)
    shown = [k for k in view["counters"] if k.startswith("charge[")]
    assert len(shown) == 3  # the crate in P1's hand shows none; the three on the table do
    in_hand = next(p for p in crates(state) if state.st.loc[p] == lay.player_zone["hand"])
    assert own(state, in_hand, "charge") == 0  # it left the table: reset
    state.game.spec.display["table"] = [("item_counter", "charge", None, None)]
    try:
        line = next(x for x in board_lines(state, 1) if "charge" in x)
    finally:
        state.game.spec.display["table"] = []
    assert line.count("Crate 0") == 3


def test_a_determinized_world_moves_hidden_cards_with_their_starting_state(spec) -> None:
    state = table_state(spec)
    sandbox.run(state, "choose a crate in my table as A\nraise A's charge by 2\nplace my chip on A\n"
                       "choose a crate in my table where it is not A as B\nmove B to my hand", answers=[first, first])
    for seed in range(5):
        world = determinize(state, 1, random.Random(seed))
        assert problems(world) == []  # every hidden crate is as it started
        assert sorted(world.st.counters) == sorted(state.st.counters)


def test_the_checker_refuses_what_cannot_work(spec, checked) -> None:
    check = checked
    found = check(spec, "choose a gadget in my hand as G\nraise G's charge by 1")
    assert found[0][0] == "E203" and "has no `charge`" in found[0][1]
    found = check(spec, "choose a gadget in my hand as G\nchoose a crate in my table as C\nmove C to G")
    assert found[0][0] == "E202" and "holds nothing" in found[0][1] and "holder: true" in found[0][2]
    found = check(spec, "choose a gadget in my hand as G\nplace my chip on G")
    assert found[0][0] == "E202" and "holds no tokens" in found[0][1] and "holder: true" in found[0][2]
    found = check(spec, "choose a gadget in my hand as G\nlet n be count of (cards in G)")
    assert found[0][0] == "E202" and "holds nothing" in found[0][1]
    found = check(spec, "let n be box_crate's charge")
    assert found[0][0] == "E203" and "its own" in found[0][1] and "copies" in found[0][2]
    found = check(spec, "choose a crate in my table as C\nset C's marked_by to 3")
    assert found[0][0] == "E202" and "expected a player" in found[0][1]
    assert check(spec, "choose a crate in my table as C\nset C's marked_by to me\nmove C to my hand") == []


RULES = "rules/holders/ruleset.yaml"


def test_a_token_kind_cannot_hold_or_carry_state(edited) -> None:
    found = edited("holders", {RULES: ("chip: {piece: token, plural: chips, supply: 3, supply_zone: supply}",
                   "chip: {piece: token, plural: chips, supply: 3, supply_zone: supply, counters: {wear: {}}}")})
    assert [c for c, _, _ in found] == ["R011"] and "token kind cannot have `counters`" in found[0][1]


def test_a_capacity_needs_a_holder(edited) -> None:
    found = edited("holders", {RULES: ("    holder: true\n", "")})
    assert ("R011" in [c for c, _, _ in found]) and any("holder: true" in (h or "") for _, _, h in found)


def test_card_text_and_round_trip(spec) -> None:
    source = ("choose a crate in my table as C\nraise C's charge by 1\nset C's marked_by to me\n"
              "move top of (gadgets in my hand) to C\nplace my chip on C\n")
    program = parse_program(source)
    assert parse_program(print_program(program)) == program
    text = render_program(program, Wording.of(spec.vocab))
    assert text == ("Choose a crate in your table. Raise that crate's charge by 1. Set that crate's marked by to you. "
                    "Move the top of gadgets in your hand to that crate. Place your chip on that crate.")
