"""Hidden information for search: a determinization of a state for one player.

A search bot must not peek. `determinize` returns a copy of the state in which every
piece the player cannot see (in another player's hand, in a face-down deck) is shuffled
with the other unseen pieces of its kind, zone sizes and kinds per zone kept: a world
that agrees with everything the player knows. The world depends on what the player
knows and on the bot's own random numbers only: the unseen pieces are shuffled from a
fixed order (by piece), so the real order of a face-down deck or of another player's
hand cannot leak into it, not even through the seed. Rollouts from such worlds decide with
the player's information only (perfect-information Monte Carlo over sampled worlds).
A piece's own state (what it holds, its counters and value slots) stays with the piece,
which is safe because a piece off the table, as every hidden one is, has none: it gave it
up when it left (mechanics.release).

The deciding player need not be the active one (a response window asks others out of
turn): a bot determinizes for `decision.player`, whoever that is."""

from __future__ import annotations

import random

from .game import Game, GameState
from .layout import PART_HOLDERS, PART_PIECES, Layout
from .versions import tick


def hidden_zones(state: GameState, player: int) -> list[int]:
    return _hidden(state.game.layout, player)


def _hidden(lay: Layout, player: int) -> list[int]:
    out = []
    for z in range(1, len(lay.zone_visibility)):  # not 0, the box: out of the game, never dealt back
        if not lay.visible_to(z, player):
            out.append(z)
    return out


def _unseen(game: Game, player: int) -> tuple[list[int], list[str]]:
    """The zones `player` cannot see and each piece's kind, worked out once per game
    (a search bot determinizes every iteration; the layout does not change)."""
    found = game.unseen
    if found is None:
        lay = game.layout
        zones = [_hidden(lay, p) for p in range(game.players)]
        kinds = [game.spec.defs[d].kind for d in lay.piece_def]
        found = game.unseen = (zones, kinds)
    return found[0][player], found[1]


def determinize(state: GameState, player: int, rng: random.Random) -> GameState:
    world = state.clone()
    st = world.st
    zones, revealed = st.zones, st.revealed
    hidden, kinds = _unseen(world.game, player)
    slots: dict[str, list[tuple[int, int]]] = {}  # kind -> (zone, index) places of unseen pieces
    for z in hidden:
        if zones[z]:
            st.zone(z)  # this copy's own: its pieces are dealt again
        for i, pid in enumerate(zones[z]):
            if pid not in revealed:
                places = slots.get(kinds[pid])
                if places is None:
                    places = slots[kinds[pid]] = []
                places.append((z, i))
    loc = st.loc
    for places in slots.values():
        pieces = sorted([zones[z][i] for z, i in places])  # the real arrangement is not read
        rng.shuffle(pieces)
        for (z, i), pid in zip(places, pieces):
            zones[z][i] = pid  # a list of this copy's own (made so above)
            loc[pid] = z
    st.rng = rng.getrandbits(64)  # the future is unknown too: the real game's next shuffles are not
    # what was computed from a zone dealt again no longer stands; the rest of what the
    # real game kept does, and the world shares it (interpreter/versions.py)
    now = tick()
    dealt = {z for places in slots.values() for z, _ in places}  # the zones dealt again
    for z in dealt:
        st.zone_versions[z] = now
    st.versions[PART_PIECES] = now
    if any(st.game.layout.zone_holds[z] for z in dealt):
        st.versions[PART_HOLDERS] = now
    return world
