"""The seat's view drawn as text for the panes of the full-screen table: the board's parts
(places side by side as columns, zones as their cards or a count), a player's part, a card
in full, the log, and the map as a picture of characters. Plain functions from the view's
data (view/model.py) to rich Text: every name from the content is text, never markup, so
a name like `[bold]` shows as written."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from legacies.view.model import Card, Column, Entry, Listed, MapView, Part, Player, SeatView

PLAYER_STYLES = ("bold red", "bold blue", "bold green", "bold magenta", "bold cyan", "bold yellow")
"""Each player's colour, by seat (the map's owners, the players' names)."""


def player_style(index: int) -> str:
    return PLAYER_STYLES[index % len(PLAYER_STYLES)] if index >= 0 else "dim"


def listed(piece: Listed, details: bool = True) -> Text:
    # a styled span's leading spaces are dropped when drawn: the space ends the span before it
    details = details and bool(piece.details)
    text = Text(piece.name + ("  " if details else ""), style="italic dim" if piece.card is None else "")
    if details:
        text.append(piece.details, style="dim")
    for line in piece.holds:
        text.append(f"\n   {line}", style="dim")
    return text


COLUMN_WIDTH = 18  # characters of one place of a row of places (a longer line is cut)


def _column(column: Column) -> list[Text]:
    """A place's lines, then its pieces, each line cut to COLUMN_WIDTH."""
    lines = [Text(line, style="bold" if i == 0 else "") for i, line in enumerate(column.lines)]
    for piece in column.pieces:
        lines += listed(piece, details=False).split("\n")  # a place's pieces by name: the reader has the rest
    for line in lines:
        line.truncate(COLUMN_WIDTH, overflow="ellipsis")
    return lines


def _bands(columns: list[Column], width: int) -> list[Text]:
    """Places side by side, as many to a band as fit `width`; the rest go on below."""
    cut = [_column(c) for c in columns]
    widths = [max((line.cell_len for line in col), default=0) for col in cut]
    out: list[Text] = []
    start = 0
    while start < len(cut):
        end, used = start, 0
        while end < len(cut) and (end == start or used + widths[end] + 2 <= width):
            used += widths[end] + 2
            end += 1
        for row in range(max(len(cut[i]) for i in range(start, end))):
            line = Text()
            for i in range(start, end):
                cell = cut[i][row] if row < len(cut[i]) else Text()
                line.append_text(cell)
                line.append(" " * (widths[i] - cell.cell_len + 2))
            line.rstrip()
            out.append(line)
        start = end
        if start < len(cut):
            out.append(Text())
    return out


def part(p: Part, width: int = 80) -> RenderableType:
    """One part of the board, `width` characters wide at most (places side by side)."""
    if p.kind == "line":
        return Text(p.text)
    if p.kind in ("field", "counter"):
        return Text.assemble((f"{p.label}: ", "bold"), p.text)
    if p.kind == "zone":
        assert p.zone is not None
        head = Text.assemble((f"{p.label}: ", "bold"))
        zone = p.zone
        if not zone.count:
            head.append("none", style="dim")
            return head
        if zone.face_down:
            head.append(f"{zone.face_down} face down" + (", " if zone.pieces else ""), style="dim")
        if not zone.pieces:
            return head
        return Group(head, *[Text("  ").append_text(listed(x)) for x in zone.pieces])
    if p.kind == "rows":
        rows = [Text("  " + row) for row in p.rows] or [Text("  none", style="dim")]
        return Group(*([Text(f"{p.label}:", style="bold")] if p.label else []), *rows)
    bands = _bands(p.columns, width)  # columns: places side by side
    return Group(*([Text(f"{p.label}:", style="bold")] if p.label else []), *bands)


def counters_line(player: Player) -> Text:
    text = Text()
    for i, c in enumerate(player.counters):
        if i:
            text.append(" · ", style="dim")
        text.append(f"{c.label} ", style="dim")
        text.append(c.text, style="bold")
    return text


def player_title(view: SeatView, player: Player) -> str:
    marks = (" (you)" if player.you else "") + (" · to play" if player.to_play else "") \
        + (" · deciding" if player.deciding and not player.to_play else "")
    return f"{player.name}{marks}"


def player_body(player: Player, width: int = 80) -> RenderableType:
    return Group(counters_line(player), *[part(p, width) for p in player.parts])


def card(c: Card | None, empty: str = "Highlight an option or a card to read it here.") -> RenderableType:
    """A card in full (the reader pane)."""
    if c is None:
        return Text(empty, style="dim")
    text = Text(c.lines[0] if c.lines else c.name, style="bold")
    for line in c.lines[1:]:
        text.append("\n" + line, style="italic" if line == "card text:" else "")
    return text


def entry(e: Entry) -> Text:
    if e.kind == "turn":
        return Text(f"— {e.text} —", style="bold")
    if e.kind == "choice":
        return Text(e.text, style="bold cyan")
    if e.kind == "change":
        return Text("   " + e.text, style="dim")
    return Text(" " + e.text)


MIN_MAP = (96, 30)  # the map's least size in characters: a smaller pane scrolls it


def map_picture(m: MapView, width: int, height: int, players: list[str] | None = None) -> Text:
    """The map as characters: each place's label where it stands, in its owner's colour,
    its marks after it (a place that would overlap another is moved to the nearest free
    row, above or below, never across the map), then the names written on it (regions)
    where they lie, dim, where nothing is drawn (one with no room near its place is left
    out). A key of the players' colours comes first. The lines are never wrapped: a pane
    narrower than the map scrolls it."""
    width, height = max(width, MIN_MAP[0]), max(height, MIN_MAP[1])
    if not m.places:
        return Text("(no places)")
    xs = [p.x for p in m.places]
    ys = [p.y for p in m.places]
    span_x = (max(xs) - min(xs)) or 1.0
    span_y = (max(ys) - min(ys)) or 1.0
    grid: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(height)]
    for place in sorted(m.places, key=lambda p: (p.y, p.x)):
        label = place.label[:MAP_LABEL]
        marks = " ".join(place.marks)
        words = (label + (" " + marks if marks else ""))[:width - 1]
        col = int((place.x - min(xs)) / span_x * (width - len(words) - 1))
        row = int((place.y - min(ys)) / span_y * (height - 1))
        free = _free_row(grid, row, col, len(words))
        row = row if free is None else free  # no room anywhere near: drawn where it stands
        style = player_style(place.player)
        for i, ch in enumerate(words):
            if col + i < width:
                grid[row][col + i] = (ch, style if i < len(label) else "dim")
    for name in m.names:  # the names written on the map, where nothing is drawn yet
        words = name.text.upper()
        col = int((min(max(name.x, min(xs)), max(xs)) - min(xs)) / span_x * max(1, width - len(words) - 1))
        row = int((min(max(name.y, min(ys)), max(ys)) - min(ys)) / span_y * (height - 1))
        free = _free_row(grid, row, col, len(words), reach=2)
        if free is not None:
            for i, ch in enumerate(words):
                if col + i < width:
                    grid[free][col + i] = (ch, "dim italic")
    text = Text()
    if m.title:
        text.append(m.title + "\n", style="bold")
    for i, player in enumerate(players or []):  # a styled span's leading spaces are dropped: they trail instead
        text.append(player + "   ", style=player_style(i))
    if players:
        text.append("unheld\n", style="dim")
    for line in grid:
        for ch, style in line:
            text.append(ch, style=style)
        text.append("\n")
    text.no_wrap = True
    return text


MAP_LABEL = 16  # the most characters of a place's name drawn (its marks follow whole)


def _free_row(grid: list[list[tuple[str, str]]], row: int, col: int, length: int,
              reach: int | None = None) -> int | None:
    """The row nearest `row` (it, then one below, one above, two below...; within `reach`
    rows, or the whole grid) where `length` cells from `col`, with a blank on each side,
    are free; None when there is none."""
    height, width = len(grid), len(grid[0])
    cells = range(max(0, col - 1), min(width, col + length + 1))
    for step in range((height if reach is None else reach) * 2 + 1):
        at = row + (step + 1) // 2 * (1 if step % 2 else -1)
        if 0 <= at < height and all(grid[at][c][0] == " " for c in cells):
            return at
    return None
