"""The board in lines of text (the line mode, `play --plain`, `replay --to`), drawn from
the seat's view (view/build.py), as the full-screen table and the browser draw it: the
table's parts, then every player's, in turn order, each part as the ruleset's `display:`
names it. Nothing here reads the game's state: what a seat may not see is not in its view.

The board is in sections, the table's then each player's (`board NAME` shows one), and
fits the screen's width: a line longer than it is broken between words and goes on
indented, places side by side go on below. Folded (a screen too short for the whole
board), another player's section is its first lines, with a hint to read the rest."""

from __future__ import annotations

from legacies.interpreter.game import GameState
from legacies.view.build import seat_view
from legacies.view.cards import wrapped
from legacies.view.model import Column, Part, Player, SeatView, Zone

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


def zone_text(zone: Zone, details: bool = False) -> str:
    """What a zone holds as the seat sees it: its pieces by name (with `details`, one card
    to a line with the attributes read on it), or how many lie face down."""
    if not zone.count:
        return "none"
    if not zone.face_down:
        if details and any(p.details for p in zone.pieces):
            return "".join(f"\n      {p.name}" + (f" · {p.details}" if p.details else "") for p in zone.pieces)
        return ", ".join(p.name for p in zone.pieces)
    shown = f" (revealed: {', '.join(p.name for p in zone.pieces)})" if zone.pieces else ""
    return f"{zone.count} face down{shown}"


def _column(column: Column) -> list[str]:
    lines = list(column.lines)
    for piece in column.pieces:
        lines.append(piece.name)
        lines += [f" {line}" for line in piece.holds]
    return lines


def _rows(part: Part, indent: str, width: int) -> list[str]:
    """A `rows:` part: its label, then a line per member (indented under the label)."""
    inner = indent if not part.label else indent + "  "
    shown = packed(part.rows, width - len(inner))
    heading = [] if not part.label else [f"{indent}{part.label}:" + ("" if part.rows else " none")]
    return wrapped(heading, width) + wrapped([inner + row for row in shown], width)


def _table_part(part: Part, width: int) -> list[str]:
    if part.kind == "columns":
        return ([f"  {part.label}:"] if part.label else []) + \
            side_by_side([_column(c) for c in part.columns], width=width)
    if part.kind == "rows":
        return _rows(part, "  ", width)
    if part.kind == "line":
        return wrapped([f"  {part.text}"], width)
    text = zone_text(part.zone) if part.kind == "zone" and part.zone is not None else part.text
    return wrapped([f"  {part.label}: {text}"], width)


def _player_lines(view: SeatView, player: Player, width: int) -> list[str]:
    marks = (" (you)" if player.you else "") + ("  ◀ to play" if player.to_play else "")
    lines = [f"── {player.name}{marks}"]
    short = [f"{c.label} {c.text}" for c in player.counters]
    long: list[str] = []
    for part in player.parts:
        if part.kind == "rows":
            long += _rows(part, "    ", width)
        elif part.kind == "line":
            long += wrapped([f"    {part.text}"], width)
        elif part.kind == "columns":
            long += ([f"    {part.label}:"] if part.label else []) + \
                side_by_side([_column(c) for c in part.columns], indent="      ", width=width)
        else:
            text = zone_text(part.zone, details=True) if part.kind == "zone" and part.zone is not None else part.text
            long += wrapped((f"    {part.label}:" + (text if text.startswith("\n") else f" {text}")).split("\n"),
                            width)
    return lines + (wrapped(["    " + " · ".join(short)], width) if short else []) + long


Section = tuple[str, list[str]]  # (what `board NAME` calls it: "table" or a player's name, its lines)


def view_sections(view: SeatView, width: int = ROW_WIDTH) -> list[Section]:
    """A seat's view as the board in sections: the table's, then each player's in turn
    order, each a list of lines of at most `width` characters (broken between words)."""
    lines = [f"═══ {view.title} ═══"]
    for part in view.table:
        lines += _table_part(part, width)
    sections: list[Section] = [("table", lines)]
    sections += [(player.name, _player_lines(view, player, width)) for player in view.players]
    return sections


def board_sections(state: GameState, viewer: int, width: int = ROW_WIDTH) -> list[Section]:
    """The board for `viewer` (a player index) in sections, drawn from their view."""
    return view_sections(seat_view(state, viewer), width)


def view_lines(view: SeatView, width: int = ROW_WIDTH, fold: bool = False) -> list[str]:
    """A seat's view as the board in lines of at most `width` characters; folded, every
    other player's section is its first lines (their counters) and a line saying how to
    read the rest."""
    lines: list[str] = []
    for name, section in view_sections(view, width):
        mine = name == "table" or section[0].startswith(f"── {name} (you)")
        if fold and not mine:
            kept = section[:2]  # the name, and the counters' line
            lines += kept + ([f"    … `board {name}` shows the rest"] if len(section) > len(kept) else [])
        else:
            lines += section
    return lines


def board_lines(state: GameState, viewer: int, width: int = ROW_WIDTH, fold: bool = False) -> list[str]:
    """The board for `viewer` as lines of plain text, drawn from their view."""
    return view_lines(seat_view(state, viewer), width, fold)
