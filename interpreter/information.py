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

from .game import GameState


def hidden_zones(state: GameState, player: int) -> list[int]:
    lay = state.game.layout
    out = []
    for z in range(1, len(lay.zone_visibility)):  # not 0, the box: out of the game, never dealt back
        if not lay.visible_to(z, player):
            out.append(z)
    return out


def determinize(state: GameState, player: int, rng: random.Random) -> GameState:
    world = state.clone()
    st = world.st
    lay = world.game.layout
    defs = world.game.spec.defs
    slots: dict[str, list[tuple[int, int]]] = {}  # kind -> (zone, index) places of unseen pieces
    for z in hidden_zones(world, player):
        for i, pid in enumerate(st.zones[z]):
            if pid not in st.revealed:
                slots.setdefault(defs[lay.piece_def[pid]].kind, []).append((z, i))
    for places in slots.values():
        pieces = sorted(st.zones[z][i] for z, i in places)  # the real arrangement is not read
        rng.shuffle(pieces)
        for (z, i), pid in zip(places, pieces):
            st.zones[z][i] = pid
            st.loc[pid] = z
    st.rng = rng.getrandbits(64)  # the future is unknown too: the real game's next shuffles are not
    st.changed()
    return world
