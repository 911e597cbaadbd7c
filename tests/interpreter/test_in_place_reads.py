"""The pieces on an item, a token's owner and the version of an item's pieces, read in
place by generated code (codegen/writer.py `pieces_on`, `owner_of`; runtime.py
`Reads.held`) where the item or piece is held in a name: the same values, the same
errors and the same work charged as the helpers they stand for (mechanics.pieces_on,
mechanics.owner, runtime._rt_held_version), for every piece of a game and for what is no
piece; and no judgement of size moves (a definition written where it is called is still
written there: the code is measured as the calls it stands for)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from legacies.interpreter import mechanics as mech
from legacies.interpreter.codegen.runtime import _rt_held_version, Reads, as_called, inlined
from legacies.interpreter.codegen.writer import owner_of, pieces_on
from legacies.interpreter.errors import ContentError
from legacies.agents.bench import mid_game
from legacies.interpreter.game import GameState
from legacies.interpreter.values import DefRef



def _state(name: str) -> GameState:
    """A game of `name` 150 random decisions in: pieces on its holders."""
    gs = mid_game(name, 4, 150)
    assert gs is not None
    return gs


def _subjects(gs: GameState) -> list[Any]:
    """Every piece, then what is no piece: a player's number past the pieces, -1, none,
    a card named in source, a text, a list (unhashable)."""
    n = len(gs.game.layout.piece_def)
    return list(range(n)) + [n, n + 5, -1, -7, None, DefRef(0), "text", [1, 2], True]


def _outcome(call: Any, gs: GameState) -> tuple:
    """What a read gives: its value (or the error's type and words) and the work charged.
    Only the errors the helpers say by contract are outcomes (a thing that holds no pieces,
    an unhashable value); any other is a bug, and fails the test."""
    st = gs.st
    st.spent, st.limit = 0, 10**9
    try:
        value = call()
    except (ContentError, TypeError) as err:
        return ("error", type(err).__name__, str(err), st.spent)
    return (value, st.spent)


@pytest.mark.parametrize("name", ["gears-of-time", "legacies"])
def test_read_in_place_as_the_helpers_read(name: str) -> None:
    gs = _state(name)
    ns = gs.game.compiler.writer.ns
    on = eval(f"lambda st, x: {pieces_on('st', 'x')}", ns)  # noqa: S307 - the writer's own code
    walked = eval(f"lambda st, x: [p for p in {pieces_on('st', 'x', copy=False)}]", ns)  # noqa: S307
    owner = eval(f"lambda st, x: {owner_of('st', 'x', tokens=True)}", ns)  # noqa: S307
    held = eval(f"lambda st, zv, _p0: {_site()}", ns)  # noqa: S307
    lay = gs.game.layout
    holders = tracks = tokens = 0
    for x in _subjects(gs):
        want = _outcome(lambda: mech.pieces_on(gs.st, x), gs)
        assert _outcome(lambda: on(gs.st, x), gs) == want, x
        assert _outcome(lambda: walked(gs.st, x), gs) == want, x
        if type(x) is int and (x in lay.holder_zone or x in lay.track_zones):
            assert want[0] != "error", x  # a holder's or a track's pieces are read, never refused
        got = on(gs.st, x) if want[0] != "error" else None
        if got is not None and type(x) is int and x in lay.holder_zone:
            assert got is not gs.st.zones[lay.holder_zone[x]]  # a value: a list of its own
        assert _outcome(lambda: owner(gs.st, x), gs) == _outcome(lambda: mech.owner(gs.st, x), gs), x
        assert _outcome(lambda: held(gs.st, gs.st.zone_versions, x), gs) == \
            _outcome(lambda: _rt_held_version(gs.st, x), gs), x
        if isinstance(x, int) and not isinstance(x, bool) and 0 <= x < len(lay.piece_def):
            holders += bool(x in lay.holder_zone and gs.st.zones[lay.holder_zone[x]])  # with pieces on it
            tracks += x in lay.track_zones
            tokens += lay.piece_owner[x] >= 0
    assert holders and tokens  # each read in place was met
    assert tracks or name != "legacies"  # ... and the helpers' other way, a track's spaces


def _site() -> str:
    reads = Reads()
    reads.held("_p0")
    (site,) = reads.own
    assert "_hz[_p0]" in site  # read in place
    return site


def test_a_definition_written_where_it_is_called_still_is() -> None:
    """Gears of Time's `leads(C, P)` calls `cubes_of(C, P)`, small enough to be written in
    place; read in place, its code is longer, and is still measured as the calls it stands
    for (a definition called instead would be kept by a coarser stamp: every holder's)."""
    gs = _state("gears-of-time")
    made = gs.game.compiler.gen.definitions._def_fns
    cubes_of, leads = made["cubes_of"], made["leads"]
    assert "_hz[" in cubes_of[3] and "_to[" in cubes_of[3]  # its body reads in place
    assert not inlined(cubes_of[3].replace("_pieces_on(", "_pieces_on_and_more_than_can_be_written_in_place("))
    assert inlined(cubes_of[3]) and len(cubes_of[3]) > len(as_called(cubes_of[3]))
    source = gs.game.compiler.writer.sources[leads[0]]
    assert f"{cubes_of[0]}(" not in source  # written in place, not called
    stamp = re.search(r"stamp = (.*)", source)
    assert stamp is not None and "_hz[_p0]" in stamp.group(1)  # C's own pieces, not every holder's

