"""The board as one player sees it, drawn from the ruleset's `display:` (ruleset.yaml):
the table's counters, zones and values, then every player's, in turn order. The runner
knows no game: the ruleset names what to show, and this module shows only what the
viewing player may see (a hidden zone is a count; a value holding a card the viewer
cannot see is "hidden"), by the rule `GameState.view` uses (`Layout.visible_to`).

A ruleset without `display:` shows its game counters, then each player's score and
zones."""

from __future__ import annotations

from typing import Any

from legacies.interpreter import mechanics as mech
from legacies.interpreter.game import GameState
from legacies.interpreter.mechanics import describe
from legacies.interpreter.values import DefRef

Entries = list[tuple[str, str, str | None, str | None]]  # (what, name, label or None, when: a counter or None)


def _default_display(state: GameState) -> dict[str, Entries]:
    v = state.game.spec.vocab
    table: Entries = [("counter", n, None, None) for n, c in v.counters.items() if c.scope == "game"]
    spec = state.game.spec
    players: Entries = [("score" if spec.score_definition else "counter", spec.score_counter, None, None)]
    players += [("zone", n, None, None) for n, z in v.zones.items() if z.scope == "player"]
    return {"table": table, "players": players}


def _zone_text(state: GameState, zone: int, viewer: int) -> str:
    st = state.st
    pieces = st.zones[zone]
    if state.game.layout.visible_to(zone, viewer):
        return ", ".join(describe(st, p) for p in pieces) if pieces else "none"
    shown = [describe(st, p) for p in pieces if p in st.revealed]
    count = f"{len(pieces)} face down" if pieces else "none"
    return count + (f" (revealed: {', '.join(shown)})" if shown else "")


def _value_text(state: GameState, value: Any, viewer: int) -> str:
    st = state.st
    if value is None:
        return "none"
    if type(value) is int and not isinstance(value, bool) and 0 <= value < len(st.loc):
        zone = st.loc[value]  # a piece: shown when the viewer can see where it is
        if zone >= 0 and not state.game.layout.visible_to(zone, viewer) and value not in st.revealed:
            return "hidden"
    if isinstance(value, (list, tuple)):
        return ", ".join(_value_text(state, x, viewer) for x in value) or "none"
    if isinstance(value, DefRef) or isinstance(value, (int, str)):
        return describe(st, value)
    return str(value)


def _label(state: GameState, name: str, label: str | None) -> str:
    return label or state.game.spec.vocab.label(name)


def _owners(state: GameState, tokens: list[int]) -> str:
    """Whose tokens these are: "P1, P2 x2"."""
    owners: dict[str, int] = {}
    for token in tokens:
        who = mech.player_name(state.st, state.game.layout.piece_owner[token])
        owners[who] = owners.get(who, 0) + 1
    return ", ".join(f"{w} x{n}" if n > 1 else w for w, n in owners.items())


def _table_entry(state: GameState, what: str, name: str, viewer: int) -> str:
    lay, st = state.game.layout, state.st
    if what == "counter":
        return str(st.counters[lay.game_counter[name]])
    if what == "zone":
        return _zone_text(state, lay.game_zone[name], viewer)
    if what == "value":
        return _value_text(state, st.values[lay.game_value[name]], viewer)
    if what == "tokens_on":  # whose tokens are on each item of a kind with a track or a holder
        out = []
        for pid in lay.kind_pieces.get(name, []):
            if pid in lay.track_zones:  # a track: who stands on which space
                spaces = [f"{s}: {_owners(state, st.zones[z])}" for s, z in enumerate(lay.track_zones[pid], 1)
                          if st.zones[z]]
                if spaces:
                    out.append(f"{describe(st, pid)} (space {', space '.join(spaces)})")
                continue
            tokens = mech.pieces_on(st, pid)
            if tokens:
                out.append(f"{describe(st, pid)} ({_owners(state, tokens)})")
        return "; ".join(out) or "none"
    kind = next(k for (k, n) in lay.item_counter if n == name)  # item_counter: each piece's own, of a kind
    base = lay.item_counter[(kind, name)]
    # a card's own counter shows while it is on the table (public: every viewer sees it)
    return ", ".join(f"{describe(st, pid)} {st.counters[base + i]}"
                     for i, pid in enumerate(lay.kind_pieces.get(kind, [])) if mech.on_table(st, pid)) or "none"


def _player_entry(state: GameState, what: str, name: str, player: int, viewer: int) -> str:
    lay, st = state.game.layout, state.st
    if what == "score":  # a score that is a definition: its value for the player
        return str(state.score(player))
    if what == "counter":
        return str(st.counters[lay.player_counter[name] + player])
    if what == "zone":
        return _zone_text(state, lay.player_zone[name] + player, viewer)
    if what == "value":
        return _value_text(state, st.values[lay.player_value[name] + player], viewer)
    members = state.game.spec.vocab.counter_sets[name]
    return ", ".join(f"{state.game.spec.vocab.label(m)} {st.counters[lay.player_counter[m] + player]}"
                     for m in members)


def board_lines(state: GameState, viewer: int) -> list[str]:
    """The board for `viewer` (a player index), as lines of plain text."""
    spec = state.game.spec
    display = spec.display if spec.display and (spec.display.get("table") or spec.display.get("players")) \
        else _default_display(state)
    st = state.st
    names = state.game.player_names
    lines = [f"═══ {spec.title} ═══"]
    for what, name, label, _ in display.get("table", []):
        lines.append(f"  {_label(state, name, label)}: {_table_entry(state, what, name, viewer)}")
    order = st.turn_order or list(range(state.game.players))
    lay = state.game.layout
    for p in order:
        marks = (" (you)" if p == viewer else "") + ("  ◀ to play" if p == st.active else "")
        lines.append(f"── {names[p]}{marks}")
        short: list[str] = []  # counters side by side on one line; the rest one to a line after them
        long: list[str] = []
        for what, name, label, when in display.get("players", []):
            if when is not None and not st.counters[lay.player_counter[when] + p]:
                continue  # a part of the board this player does not have
            text = _player_entry(state, what, name, p, viewer)
            if what in ("counter", "score"):
                short.append(f"{_label(state, name, label)} {text}")
            else:
                long.append(f"    {_label(state, name, label)}: {text}")
        lines += (["    " + " · ".join(short)] if short else []) + long
    return lines
