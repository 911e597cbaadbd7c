"""A whole zone moved at once (interpreter/mechanics.py `move_all`, what a deck's refill
from its discard pile does): the same zones, places, revealed cards and work charged as
moving each piece in turn, the changes counted; and one piece at a time, hooks run, where
the pieces cross into play."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.interpreter import mechanics as mech
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.layout import PART_PIECES

from tables import small_ruleset

RULESET = """format: 2
ruleset: piles
title: Piles
players: {min: 2, max: 2}
score: points
limits: {max_turns: 4, step_budget: 100000}
counters:
  points: {}
zones:
  deck: {scope: game, visibility: hidden, refill_from: pile}
  pile: {scope: game}
  table: {scope: game, visibility: public, in_play: true}
kinds:
  chip: {piece: card, starts_in: pile}
  bell: {piece: card, starts_in: pile}
"""
PROCEDURES = """format: 2
game: |
  take turns:
      gain 1 points
"""
ITEMS = """  - {id: red_chip, kind: chip, name: Red Chip, copies: 600}
  - {id: blue_chip, kind: chip, name: Blue Chip, copies: 600}
  - id: brass_bell
    kind: bell
    name: Bell
    copies: 3
    effect: |
      when this enters play:
          gain 1 points
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return Game(small_ruleset(tmp_path_factory.mktemp("piles"), "piles", RULESET, PROCEDURES, ITEMS), 2)


def _zones(game: Game) -> tuple[int, int, int]:
    z = game.layout.game_zone
    return z["deck"], z["pile"], z["table"]


def _one_by_one(state: GameState, src: int, dest: int) -> None:
    for pid in list(state.st.zones[src]):
        mech.move(state.st, pid, dest)


def _seen(state: GameState) -> tuple:
    st = state.st
    return ([z[:] for z in st.zones], st.loc[:], sorted(st.revealed), st.spent, st.counters[:], len(st.frames))


def test_a_pile_moved_at_once_is_as_if_moved_piece_by_piece(game: Game) -> None:
    deck, pile, _ = _zones(game)
    at_once, each = game.new_state(1), game.new_state(1)
    for state in (at_once, each):
        st = state.st
        assert len(st.zones[pile]) > 1024 + 50  # large enough that taking from the bottom is charged
        st.zone(deck).extend([])  # the deck, made this state's own before it changes (as a copy's would be)
        st.revealed.update(st.zones[pile][:5])  # revealed cards going into a hidden deck are hidden again
        st.spent = 0
    before = (at_once.st.versions[PART_PIECES], at_once.st.zone_versions[deck], at_once.st.zone_versions[pile])
    mech.move_all(at_once.st, pile, deck)
    _one_by_one(each, pile, deck)
    assert _seen(at_once) == _seen(each)
    st = at_once.st
    assert not st.zones[pile] and not st.revealed and st.spent > 0  # the shifts along a long pile, charged
    after = (st.versions[PART_PIECES], st.zone_versions[deck], st.zone_versions[pile])
    assert all(a > b for a, b in zip(after, before))  # what was computed from either zone no longer stands


def test_a_refill_moves_the_pile_at_once_then_shuffles(game: Game) -> None:
    deck, pile, _ = _zones(game)
    state = game.new_state(2)
    st = state.st
    count = len(st.zones[pile])
    assert mech.refill(st, deck)
    assert len(st.zones[deck]) == count and not st.zones[pile]
    assert all(st.loc[pid] == deck for pid in st.zones[deck])
    assert st.zones[deck] != sorted(st.zones[deck])  # shuffled


def _moved_both_ways(game: Game, seed: int, src: int, dest: int) -> GameState:
    """A new state's `src` moved onto `dest` at once, which must end as moving piece by piece does."""
    at_once, each = game.new_state(seed), game.new_state(seed)
    mech.move_all(at_once.st, src, dest)
    _one_by_one(each, src, dest)
    assert _seen(at_once) == _seen(each)
    return at_once


def test_pieces_moved_into_play_go_one_by_one_and_their_hooks_run(game: Game) -> None:
    _, pile, table = _zones(game)
    moved = _moved_both_ways(game, 3, pile, table)
    assert len(moved.st.frames) >= 3  # each bell's `when this enters play`, pushed to run


def test_a_pile_moved_onto_itself_stays_as_it_was(game: Game) -> None:
    _, pile, _ = _zones(game)
    moved = _moved_both_ways(game, 4, pile, pile)
    assert moved.st.zones[pile] == game.new_state(4).st.zones[pile]
