"""A map drawn as SVG: a `MapPicture` (interpreter/map_view.py, a ruleset's `display:
map:` worked out for a viewer) as one self-contained picture, and `legacies replay
--svg` writing it (through pipeline/writes.py).

The picture: the title and a caption; the things written where they lie (regions, seas)
large and faint underneath; the links as lines (solid, dashed or dotted; an arc bowing
away from the middle of the map where the ruleset asks, so a long link passes round the
places between its ends; a pointed end for a one-way link); each place a dot in the colour of
its player (grey for nobody) with its label under it (over it where two labels would
meet) and its marks under it; a legend of the players' colours and the kinds of links.
Coordinates are scaled so that
neighbouring places stand about 100 units apart (text stays readable whatever units
the attributes use) and the viewBox is sized from them. The text is escaped; the output
depends only on the picture, byte for byte (numbers written to one decimal)."""

from __future__ import annotations

import html
import math
from pathlib import Path

from legacies.interpreter.errors import InternalError
from legacies.interpreter.game import GameState
from legacies.interpreter.map_view import MapPicture
from legacies.pipeline.writes import WriteError, write_whole

# the players' colours, by player number (Okabe and Ito's eight, then four of Tol's): told
# apart by people with the common colour blindnesses; each dot is outlined, so the
# yellow shows on the light ground
PLAYER_COLOURS = ("#e69f00", "#0072b2", "#009e73", "#cc79a7", "#d55e00", "#56b4e9", "#f0e442", "#000000",
                  "#882255", "#44aa99", "#999933", "#aa4499")
NOBODY = "#d5d9de"
GROUND = "#fbfaf6"
INK = "#1d2b3a"
MARK_INK = "#4a5663"
FAINT = "#a9b4c0"
LINE = "#7b8794"
DASHES = {"solid": "", "dashed": "7,5", "dotted": "2,4"}
SPACING = 100.0  # units between neighbouring places once scaled
MARGIN = 60.0
LABEL_SIZE, MARK_SIZE, NAME_SIZE, TITLE_SIZE = 13, 11, 22, 20
DOT = 8.0
ARC = 0.18  # an arc's bow: this share of the link's length


def player_colour(player: int) -> str:
    """The colour a player's places are drawn in (-1, nobody: grey)."""
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)] if player >= 0 else NOBODY


def map_svg(picture: MapPicture, caption: str = "") -> str:
    """The picture as an SVG document (text), `caption` a line under the title."""
    frame = _Frame(picture, caption)
    legend, legend_height = _legend(picture, frame.bottom, frame.width)
    width, height = _n(frame.width), _n(frame.bottom + legend_height)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" font-family="DejaVu Sans, Verdana, sans-serif" '
           f'role="img" aria-label="{_esc(picture.title or "map")}">',
           f'<rect width="{width}" height="{height}" fill="{GROUND}"/>']
    if any(line.one_way for line in picture.lines):
        out.append(f'<defs><marker id="one-way" viewBox="0 0 10 10" refX="{_n(10 + DOT)}" refY="5" '
                   'markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto">'
                   f'<path d="M0,0 L10,5 L0,10 z" fill="{LINE}"/></marker></defs>')
    if picture.title:
        out.append(f'<text class="title" x="{_n(MARGIN / 2)}" y="{TITLE_SIZE + 8}" font-size="{TITLE_SIZE}" '
                   f'font-weight="bold" fill="{INK}">{_esc(picture.title)}</text>')
    if caption:
        out.append(f'<text class="caption" x="{_n(MARGIN / 2)}" y="{frame.head - 2}" font-size="{MARK_SIZE + 1}" '
                   f'fill="{INK}">{_esc(caption)}</text>')
    out.append('<g class="names">')
    for name, (x, y) in zip(picture.names, frame.written):
        out.append(f'<text x="{_n(x)}" y="{_n(y + NAME_SIZE / 3)}" font-size="{NAME_SIZE}" font-style="italic" '
                   f'text-anchor="middle" fill="{FAINT}" opacity="0.8">{_esc(name.text)}</text>')
    out.append('</g><g class="links">')
    out.extend(_links(picture, frame))
    out.append('</g><g class="places">')
    out.extend(_places(picture, frame))
    out.append("</g>")
    out.extend(legend)
    out.append("</svg>")
    return "\n".join(out) + "\n"


class _Frame:
    """Where everything stands on the picture: the places (`spots`) and the names
    written, scaled so that neighbouring places stand SPACING apart and moved inside
    the margins (under the title and caption, `head` high); each link's curve (its bend,
    and the farthest point it reaches); the width and the bottom of the map, the legend
    under it."""

    def __init__(self, picture: MapPicture, caption: str):
        scale = _scale([(p.x, p.y) for p in picture.places])
        spots = [(p.x * scale, p.y * scale) for p in picture.places]
        written = [(n.x * scale, n.y * scale) for n in picture.names]
        middle = ((sum(x for x, _ in spots) / len(spots), sum(y for _, y in spots) / len(spots)) if spots
                  else (0.0, 0.0))
        curves = [_curve(spots[line.start], spots[line.end], line.arc, middle) for line in picture.lines]
        # what the picture reaches: each text's half width on either side of where it stands
        reach = ([(x, y, _half(p.label, LABEL_SIZE)) for (x, y), p in zip(spots, picture.places)]
                 + [(x, y, _half(n.text, NAME_SIZE)) for (x, y), n in zip(written, picture.names)]
                 + [(c[2], c[3], 0.0) for c in curves])
        self.head = (TITLE_SIZE + 14 if picture.title else 0) + (16 if caption else 0)
        dx = MARGIN / 2 - min((x - half for x, _, half in reach), default=0.0)
        dy = MARGIN + self.head - min((y for _, y, _ in reach), default=0.0)
        self.spots = [(x + dx, y + dy) for x, y in spots]
        self.written = [(x + dx, y + dy) for x, y in written]
        self.curves = [(bx + dx, by + dy, fx + dx, fy + dy) for bx, by, fx, fy in curves]
        self.width = max((x + half for x, _, half in reach), default=0.0) + dx + MARGIN / 2
        self.bottom = max([y + DOT + LABEL_SIZE + (MARK_SIZE + 2) * len(p.marks)
                           for (_, y), p in zip(self.spots, picture.places)]
                          + [y for _, y in self.written] + [c[3] for c in self.curves], default=self.head) + 24


def _links(picture: MapPicture, frame: _Frame) -> list[str]:
    """Each link a line (or an arc) in its style, a one-way link with a pointed end."""
    out = []
    for line, (bend_x, bend_y, _, _) in zip(picture.lines, frame.curves):
        (x1, y1), (x2, y2) = frame.spots[line.start], frame.spots[line.end]
        dash = f' stroke-dasharray="{DASHES[line.style]}"' if DASHES.get(line.style) else ""
        pointer = ' marker-end="url(#one-way)"' if line.one_way else ""
        shape = (f"M{_n(x1)},{_n(y1)} Q{_n(bend_x)},{_n(bend_y)} {_n(x2)},{_n(y2)}" if line.arc
                 else f"M{_n(x1)},{_n(y1)} L{_n(x2)},{_n(y2)}")
        out.append(f'<path class="link {_esc(line.link)}" d="{shape}" fill="none" stroke="{LINE}" '
                   f'stroke-width="1.6"{dash}{pointer}/>')
    return out


def _places(picture: MapPicture, frame: _Frame) -> list[str]:
    """Each place a dot in its player's colour, its label under it and its marks under
    that (each on a halo of the ground, readable over the lines); its tip says it all."""
    out = []
    for place, (x, y), lines in zip(picture.places, frame.spots, _texts(picture, frame.spots)):
        whose = picture.players[place.player] if 0 <= place.player < len(picture.players) else "nobody"
        out.append(f'<g class="place"><title>{_esc("; ".join((place.label, whose) + place.marks))}</title>'
                   f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(DOT)}" fill="{player_colour(place.player)}" '
                   f'stroke="{INK}" stroke-width="1.5"/>')
        for text, size, colour, baseline in lines:
            out.append(f'<text x="{_n(x)}" y="{_n(y + baseline)}" font-size="{size}" text-anchor="middle" '
                       f'fill="{colour}" stroke="{GROUND}" stroke-width="3" paint-order="stroke">{_esc(text)}</text>')
        out.append("</g>")
    return out


LABEL_ABOVE = DOT + 5  # from a dot's middle up to the baseline of a label written over it


def _texts(picture: MapPicture, spots: list[tuple[float, float]]) -> list[list[tuple[str, int, str, float]]]:
    """Each place's label and marks, with each one's baseline below the dot's middle: the
    label under the dot, or over it where under it would cover more of what is placed
    already (a label, a dot, marks: two long names side by side); the marks under the dot.
    The browser places its labels the same way (cli/web/static/table.js, labelsAbove)."""
    boxes = [(x - DOT - 1, y - DOT - 1, x + DOT + 1, y + DOT + 1) for x, y in spots]

    def box(x: float, y: float, text: str, size: int, baseline: float) -> tuple[float, float, float, float]:
        half = _half(text, size) + 2
        return (x - half, y + baseline - size * 0.8, x + half, y + baseline + size * 0.25)

    def covered(b: tuple[float, float, float, float]) -> float:
        return sum(max(0.0, min(b[2], o[2]) - max(b[0], o[0])) * max(0.0, min(b[3], o[3]) - max(b[1], o[1]))
                   for o in boxes)

    found = []
    for place, (x, y) in zip(picture.places, spots):
        under = DOT + LABEL_SIZE + 1
        below, over = box(x, y, place.label, LABEL_SIZE, under), box(x, y, place.label, LABEL_SIZE, -LABEL_ABOVE)
        lost = covered(below)
        up = lost > 0 and covered(over) < lost
        lines = [(place.label, LABEL_SIZE, INK, -LABEL_ABOVE if up else under)]
        first = DOT + MARK_SIZE + 1 if up else under + MARK_SIZE + 2
        lines += [(mark, MARK_SIZE, MARK_INK, first + i * (MARK_SIZE + 2)) for i, mark in enumerate(place.marks)]
        boxes.append(over if up else below)
        boxes.extend(box(x, y, text, size, baseline) for text, size, _, baseline in lines[1:])
        found.append(lines)
    return found


def save_map(state: GameState, seat: int | None, path: Path) -> str | None:
    """The map of `state` as `seat` (1-based; default: the player who decides next, or
    the first) sees it, written whole to `path` (pipeline/writes.py), captioned with the
    decisions made and the viewer; what went wrong in words, or None."""
    game = state.game
    if game.map is None:
        return f"ruleset `{game.spec.name}` draws no map (its `display:` has no `map:`)"
    decision = state.decision
    viewer = seat - 1 if seat is not None else decision.player if decision is not None and decision.player >= 0 else 0
    caption = f"after decision {len(state.st.history)}, as {game.player_names[viewer]} sees it"
    try:
        write_whole(path, map_svg(game.map.picture(state.st, viewer), caption))
    except WriteError as err:
        return f"the map was not written: {err}"
    except InternalError as err:
        return f"the map stopped on an internal error: {err}"
    return None


def _legend(picture: MapPicture, top: float, width: float) -> tuple[list[str], float]:
    """The players' colours and the kinds of links, in rows under the map: the parts and
    the height they take."""
    entries: list[tuple[str, str]] = []  # (sample, text)
    for p, name in enumerate(picture.players):
        entries.append((f'<circle cx="8" cy="-4" r="6" fill="{player_colour(p)}" stroke="{INK}"/>', name))
    entries.append((f'<circle cx="8" cy="-4" r="6" fill="{NOBODY}" stroke="{INK}"/>', "nobody"))
    for key in picture.keys:
        dash = f' stroke-dasharray="{DASHES[key.style]}"' if DASHES.get(key.style) else ""
        shape = 'M0,-4 Q14,-12 28,-4' if key.arc else "M0,-4 L28,-4"
        entries.append((f'<path d="{shape}" fill="none" stroke="{LINE}" stroke-width="1.6"{dash}/>', key.label))
    out = ['<g class="legend">']
    x, y, row = MARGIN / 2, top + 14, 22.0
    for sample, text in entries:
        span = 40 + 7.5 * len(text)
        if x + span > width - MARGIN / 2 and x > MARGIN / 2:
            x, y = MARGIN / 2, y + row
        out.append(f'<g transform="translate({_n(x)},{_n(y)})">{sample}<text x="{"36" if "path" in sample else "20"}" '
                   f'y="0" font-size="{MARK_SIZE + 1}" fill="{INK}">{_esc(text)}</text></g>')
        x += span
    out.append("</g>")
    return out, y - top + row


def _half(text: str, size: float) -> float:
    """About half the width of `text` written at `size`."""
    return 0.3 * size * len(text)


def _scale(points: list[tuple[float, float]]) -> float:
    """What makes the middle distance from a place to its nearest neighbour SPACING."""
    nearest = []
    for i, (x, y) in enumerate(points):
        gaps = [math.hypot(x - u, y - v) for j, (u, v) in enumerate(points) if j != i and (u, v) != (x, y)]
        if gaps:
            nearest.append(min(gaps))
    if not nearest:
        return 1.0
    nearest.sort()
    return SPACING / nearest[len(nearest) // 2]


def _curve(a: tuple[float, float], b: tuple[float, float], arc: bool,
           middle: tuple[float, float]) -> tuple[float, float, float, float]:
    """A link's bend (the control point of its curve) and the farthest point it reaches
    from its ends' line (x, y): an arc bows away from the middle of the map (to the left
    of its direction when it passes through the middle)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if not arc or length == 0:
        return mx, my, mx, my
    nx, ny = (b[1] - a[1]) / length, -(b[0] - a[0]) / length  # a unit normal: left of a -> b on the screen
    away = nx * (mx - middle[0]) + ny * (my - middle[1])
    if away < -0.05 * length:
        nx, ny = -nx, -ny
    bow = ARC * length
    return mx + 2 * bow * nx, my + 2 * bow * ny, mx + bow * nx, my + bow * ny


def _n(value: float) -> str:
    """A number as the picture writes it: one decimal, none when whole."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _esc(text: str) -> str:
    return html.escape(text, quote=True)
