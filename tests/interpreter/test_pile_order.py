"""One order for every collection of pieces (issue 34 §1): a zone, the pieces on a holder
and the pieces selected from either are read the same way. They are listed from the
bottom, the piece put there first, up; `top of` is the piece put there last, `bottom of`
the first; `top N of` lists the topmost first; `for each` and `entry N of` count from the
bottom. Before, the pieces on a holder were read from their first member, so `bottom of
(chips in C)` was the newest chip. Tracks: tests/interpreter/test_validates_but_misbehaves.py."""

from __future__ import annotations

import pytest

from legacies.interpreter import sandbox
from legacies.interpreter.game import Game, GameState


@pytest.fixture(scope="module")
def spec(holders_spec):  # the built holders fixture (conftest.py)
    return holders_spec


def stacked(spec) -> tuple[GameState, list[int]]:
    """Three gadgets put one by one onto a crate on P1's table: the order they went,
    oldest first."""
    state = Game(spec, 2).new_state(1)
    sandbox.run(state, "move cards in hand of players to deck\nmove top of (crates in deck) to my table\n"
                       "move gadgets in deck to my hand")
    went = []
    for _ in range(3):
        g = sandbox.value(state, "top of (gadgets in my hand)", 0)
        went.append(g)
        sandbox.run(state, "move top of (gadgets in my hand) to top of (crates in my table)")
    return state, went


ON = "(gadgets in (top of (crates in my table)))"


@pytest.mark.parametrize("source", [ON, f"({ON[1:-1]} where 1 = 1)",
                                    "(gadgets in (crates in my table))", "(cards in (crates in my table))"])
def test_a_holders_top_is_the_piece_put_there_last(spec, source: str) -> None:
    state, went = stacked(spec)
    v = lambda text: sandbox.value(state, text, 0)  # noqa: E731
    assert v(f"top of {source}") == went[-1]
    assert v(f"bottom of {source}") == went[0]
    assert v(f"top 2 of {source}") == [went[2], went[1]]
    assert v(f"bottom 2 of {source}") == [went[0], went[1]]
    assert v(f"entry 1 of {source}") == went[0]


def test_a_zone_reads_the_same_way(spec) -> None:
    state, went = stacked(spec)
    sandbox.run(state, "move gadgets in (top of (crates in my table)) to deck")  # moved one by one, oldest first
    v = lambda text: sandbox.value(state, text, 0)  # noqa: E731
    assert v("top of deck") == v("top of (gadgets in deck)") == went[-1]
    assert v("top 2 of deck") == v("top 2 of (gadgets in deck)") == [went[2], went[1]]


def test_moving_the_bottom_piece_of_a_holder_moves_the_oldest(spec) -> None:
    """The designer's case: `move bottom of (cubes in ENGINE) ...` pushed out the newest."""
    state, went = stacked(spec)
    sandbox.run(state, "move bottom of (gadgets in (top of (crates in my table))) to my hand")
    assert sandbox.value(state, "count of (gadgets in (top of (crates in my table)))", 0) == 2
    assert went[0] in sandbox.value(state, "gadgets in my hand", 0)
    assert went[2] not in sandbox.value(state, "gadgets in my hand", 0)
