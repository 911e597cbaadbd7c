"""The board as one player sees it, drawn from the ruleset's `display:` (ruleset.yaml):
the table's counters, zones and values, then every player's, in turn order. The runner
knows no game: the ruleset names what to show, and this module shows only what the
viewing player may see (a hidden zone is a count; a value holding a card the viewer
cannot see is "hidden"), by the rule `GameState.view` uses (`Layout.visible_to`).

The board is in sections, the table's then each player's (`board NAME` shows one), and
fits the screen's width: a line longer than it is broken between words and goes on
indented, places side by side go on below. Folded (a screen too short for the whole
board), another player's section is its first lines, with a hint to read the rest.

A ruleset without `display:` shows its game counters, then each player's score and
zones."""

from __future__ import annotations

from typing import Any

from legacies.interpreter import builtins
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


def _zone_text(state: GameState, zone: int, viewer: int, details: bool = False) -> str:
    """What a zone holds as the viewer sees it; with `details` (a player's zone, and the
    ruleset's `display: card:`), one card to a line with the attributes read on it."""
    st = state.st
    pieces = st.zones[zone]
    if state.game.layout.visible_to(zone, viewer):
        if details and pieces and state.game.spec.card_attributes:
            return "".join(f"\n      {line}" for line in _detailed(state, pieces))
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


def _detailed(state: GameState, pieces: list[int]) -> list[str]:
    """Each card by name with what a player reads on it (`display: card:`)."""
    from legacies.pipeline.explain import card_details

    spec, lay = state.game.spec, state.game.layout
    era = builtins.era(state.st) if spec.era_counter else None  # at the table: the current era's values
    out = []
    for pid in pieces:
        details = card_details(spec.defs[lay.piece_def[pid]], spec.vocab, spec.card_attributes, era)
        out.append(describe(state.st, pid) + (f" · {details}" if details else ""))
    return out


COLUMN_WIDTH = 20  # characters of a column of places side by side (longer lines are cut)
ROW_WIDTH = 100  # characters of the screen a row of columns fills before it goes on below (default)


def side_by_side(columns: list[list[str]], indent: str = "    ", width: int = ROW_WIDTH) -> list[str]:
    """Columns of text drawn next to each other, as many to a band as fit `width`
    characters; each column as wide as its longest line (at most COLUMN_WIDTH)."""
    cut = [[line if len(line) <= COLUMN_WIDTH else line[:COLUMN_WIDTH - 1] + "…" for line in col] for col in columns]
    widths = [max((len(line) for line in col), default=0) for col in cut]
    lines: list[str] = []
    start = 0
    while start < len(cut):
        end, used = start, len(indent)
        while end < len(cut) and (end == start or used + widths[end] + 2 <= width):
            used += widths[end] + 2
            end += 1
        band = range(start, end)
        for row in range(max(len(cut[i]) for i in band)):
            text = "  ".join((cut[i][row] if row < len(cut[i]) else "").ljust(widths[i]) for i in band)
            lines.append((indent + text).rstrip())
        start = end
        if start < len(cut):
            lines.append("")
    return lines


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
    if what == "text":  # a line the rules work out, as the viewer
        return state.game.display_parts[int(name)].text(st, viewer)
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
        return _zone_text(state, lay.player_zone[name] + player, viewer, details=True)
    if what == "value":
        return _value_text(state, st.values[lay.player_value[name] + player], viewer)
    if what == "text":  # a line the rules work out, as this player
        return state.game.display_parts[int(name)].text(st, player)
    members = state.game.spec.vocab.counter_sets[name]
    return ", ".join(f"{state.game.spec.vocab.label(m)} {st.counters[lay.player_counter[m] + player]}"
                     for m in members)


Section = tuple[str, list[str]]  # (what `board NAME` calls it: "table" or a player's name, its lines)


def board_sections(state: GameState, viewer: int, width: int = ROW_WIDTH) -> list[Section]:
    """The board for `viewer` (a player index) in sections: the table's, then each
    player's in turn order, each a list of lines of at most `width` characters (broken
    between words)."""
    from legacies.view.cards import wrapped

    spec = state.game.spec
    display = spec.display if spec.display and (spec.display.get("table") or spec.display.get("players")) \
        else _default_display(state)
    st = state.st
    names = state.game.player_names
    lines = [f"═══ {spec.title} ═══"]
    parts = state.game.display_parts
    for what, name, label, _ in display.get("table", []):
        if what in ("text", "rows") and not parts[int(name)].shown(st, viewer):
            continue  # its `if:` does not hold now
        if what == "columns":  # places side by side, under their label
            part = state.game.display_parts[int(name)]
            lines += ([f"  {label}:"] if label else []) + side_by_side(part.columns(st, viewer), width=width)
        elif what == "rows":  # a line per member, under their label
            lines += _rows(state, name, label, viewer, "  ", width)
        elif what == "text":
            lines += wrapped([f"  {_table_entry(state, what, name, viewer)}"], width)
        else:
            lines += wrapped([f"  {_label(state, name, label)}: {_table_entry(state, what, name, viewer)}"], width)
    sections: list[Section] = [("table", lines)]
    order = st.turn_order or list(range(state.game.players))
    lay = state.game.layout
    for p in order:
        marks = (" (you)" if p == viewer else "") + ("  ◀ to play" if p == st.active else "")
        lines = [f"── {names[p]}{marks}"]
        short: list[str] = []  # counters side by side on one line; the rest one to a line after them
        long: list[str] = []
        for what, name, label, when in display.get("players", []):
            if when is not None and not st.counters[lay.player_counter[when] + p]:
                continue  # a part of the board this player does not have
            if what in ("text", "rows") and not parts[int(name)].shown(st, p):
                continue  # its `if:` does not hold for this player now
            if what == "rows":
                long += _rows(state, name, label, p, "    ", width)
                continue
            text = _player_entry(state, what, name, p, viewer)
            if what in ("counter", "score"):
                short.append(f"{_label(state, name, label)} {text}")
            elif what == "text":
                long += wrapped([f"    {text}"], width)
            else:
                long += wrapped((f"    {_label(state, name, label)}:" + (text if text.startswith("\n") else f" {text}"))
                                .split("\n"), width)
        lines += (wrapped(["    " + " · ".join(short)], width) if short else []) + long
        sections.append((names[p], lines))
    return sections


def _rows(state: GameState, index: str, label: str | None, player: int, indent: str, width: int) -> list[str]:
    """A `rows:` entry: its label, then a line per member (indented under the label)."""
    from legacies.view.cards import wrapped

    rows = state.game.display_parts[int(index)].rows(state.st, player)
    inner = indent if label is None else indent + "  "
    shown = packed(rows, width - len(inner))
    heading = [] if label is None else [f"{indent}{label}:" + ("" if rows else " none")]
    return wrapped(heading, width) + wrapped([inner + row for row in shown], width)


def packed(rows: list[str], width: int) -> list[str]:
    """Short lines set in as many columns as fit `width`, read down each column then
    across (a list of ten places in two columns of five); long ones one to a line."""
    if len(rows) < 2:
        return rows
    wide = max(len(row) for row in rows) + 3
    across = min(len(rows), max(1, (width + 3) // wide))
    if across < 2:
        return rows
    down = -(-len(rows) // across)
    return ["".join(rows[c * down + r].ljust(wide) for c in range(across) if c * down + r < len(rows)).rstrip()
            for r in range(down)]


def board_lines(state: GameState, viewer: int, width: int = ROW_WIDTH, fold: bool = False) -> list[str]:
    """The board for `viewer` as lines of plain text, at most `width` characters each;
    folded, every other player's section is its first lines (their counters) and a
    line saying how to read the rest."""
    lines: list[str] = []
    for name, section in board_sections(state, viewer, width):
        mine = name == "table" or section[0].startswith(f"── {name} (you)")
        if fold and not mine:
            kept = section[:2]  # the name, and the counters' line
            lines += kept + ([f"    … `board {name}` shows the rest"] if len(section) > len(kept) else [])
        else:
            lines += section
    return lines
