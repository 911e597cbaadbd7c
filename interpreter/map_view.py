"""The board as a picture, worked out for a viewer: a ruleset's `display: map:` compiled
once per game (with the game's other code) and read into a `MapPicture`, plain data that
agents/map_svg.py draws. Each place of the map's collection stands at the coordinates
its two attributes give, in the colour of the player its `colour:` expression names,
with its label and marks (`{EXPR}` lines, as a log line shows values); the links of the
kinds the map draws join the places at both ends, each pair once; the things written
where they lie (`names:`) and a title complete it. Working it out changes nothing.

It is worked out as the viewer, as the board is (interpreter/display.py): the lines read
what their expressions read (a ruleset shows only what every player may see), and a
place the viewer may not see (in a zone hidden from them, not revealed) is drawn as a
place face down, uncoloured, with no marks."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Callable

from . import mechanics as mech
from .display import fill, hidden_from, located
from .errors import InternalError
from .spec import MapSpec
from .vm import Activation, State

if TYPE_CHECKING:
    from .compiler import Compiler


@dataclass(frozen=True)
class MapPlace:
    piece: int  # the piece it is
    label: str
    x: float
    y: float
    player: int  # whose colour it is drawn in; -1 nobody
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class MapLine:
    start: int  # indices into the picture's places
    end: int
    link: str
    style: str  # solid | dashed | dotted
    arc: bool = False
    one_way: bool = False  # a link that is not symmetric: from start to end


@dataclass(frozen=True)
class MapName:
    text: str
    x: float
    y: float


@dataclass(frozen=True)
class MapKey:
    """A kind of link as the legend shows it."""

    label: str
    style: str
    arc: bool = False


@dataclass(frozen=True)
class MapPicture:
    """What a map shows, in plain data (JSON as `as_data()`)."""

    title: str
    places: tuple[MapPlace, ...]
    lines: tuple[MapLine, ...]
    names: tuple[MapName, ...]
    players: tuple[str, ...]  # each player's name, by number: whose colours the legend shows
    keys: tuple[MapKey, ...]

    def as_data(self) -> dict[str, Any]:
        """The picture as JSON's data (lists, dicts, text and numbers)."""
        return {"title": self.title, "places": [{**asdict(p), "marks": list(p.marks)} for p in self.places],
                "lines": [asdict(line) for line in self.lines], "names": [asdict(n) for n in self.names],
                "players": list(self.players), "keys": [asdict(k) for k in self.keys]}

    @staticmethod
    def from_data(data: dict[str, Any]) -> "MapPicture":
        return MapPicture(data["title"], tuple(MapPlace(**{**p, "marks": tuple(p["marks"])}) for p in data["places"]),
                          tuple(MapLine(**line) for line in data["lines"]),
                          tuple(MapName(**n) for n in data["names"]), tuple(data["players"]),
                          tuple(MapKey(**k) for k in data["keys"]))


class ComputedMap:
    """A ruleset's map, compiled."""

    def __init__(self, c: "Compiler", spec: MapSpec):
        self.origin = spec.origin
        if spec.origin is not None:
            c.origin = spec.origin
        self.places = c.expr(spec.places)
        self.name = spec.name
        self.colour: Callable[[Activation], Any] | None = c.expr(spec.colour) if spec.colour is not None else None
        self.label = c.text(spec.label, spec.label.text) if spec.label is not None else None
        self.marks = [(c.text(line, line.text), c.expr(condition) if condition is not None else None)
                      for line, condition in spec.marks]
        self.links = [(link, style, arc, c.spec.vocab.links[link].symmetric) for link, style, arc in spec.links]
        self.keys = tuple(MapKey(c.spec.vocab.links[link].label or link, style, arc) for link, style, arc in spec.links)
        self.names = [(c.expr(n.members), n.name, c.text(n.text, n.text.text)) for n in spec.names]
        self.title = c.text(spec.title, spec.title.text) if spec.title is not None else ""
        # where each definition of the kinds drawn stands: its two attributes, read once
        self.at: dict[int, tuple[float, float]] = {}
        for d, pdef in enumerate(c.spec.defs):
            x, y = c.attribute_value(d, spec.x), c.attribute_value(d, spec.y)
            if isinstance(x, (int, float, tuple)) and isinstance(y, (int, float, tuple)):
                self.at[d] = (_number(x), _number(y))

    def picture(self, st: State, viewer: int) -> MapPicture:
        """The map as `viewer` sees it now."""
        return self._guarded(st, lambda: self._picture(st, viewer))

    def colours(self, st: State, viewer: int) -> dict[int, int]:
        """Each place drawn -> the player whose colour it is drawn in (-1 nobody), as
        `viewer` sees it now."""
        def work_out() -> dict[int, int]:
            return {pid: self._player(st, viewer, pid) for pid in self.places(Activation(st, viewer))}
        return self._guarded(st, work_out)

    def _picture(self, st: State, viewer: int) -> MapPicture:
        lay, game = st.game.layout, st.game
        places: list[MapPlace] = []
        for pid in self.places(Activation(st, viewer)):
            x, y = self._where(st, pid)
            if hidden_from(st, pid, viewer):
                places.append(MapPlace(pid, "(face down)", x, y, -1))
                continue
            a = Activation(st, viewer, env={self.name: pid})
            label = mech.describe(st, pid) if self.label is None else fill(self.label, st, a)
            marks = tuple(m for m in (fill(line, st, a).strip() for line, condition in self.marks
                                      if condition is None or condition(a)) if m)
            places.append(MapPlace(pid, label, x, y, self._player(st, viewer, pid), marks))
        index = {place.piece: i for i, place in enumerate(places)}
        lines: list[MapLine] = []
        for link, style, arc, symmetric in self.links:
            adjacent = game.graph.adjacent[link]
            for i, place in enumerate(places):
                for other in adjacent[place.piece] if place.piece < len(adjacent) else ():
                    j = index.get(other)
                    if j is not None and (not symmetric or i < j):
                        lines.append(MapLine(i, j, link, style, arc, not symmetric))
        names: list[MapName] = []
        for members, name, text in self.names:
            for pid in members(Activation(st, viewer)):
                x, y = self._where(st, pid)
                names.append(MapName(fill(text, st, Activation(st, viewer, env={name: pid})), x, y))
        title = fill(self.title, st, Activation(st, viewer))
        return MapPicture(title, tuple(places), tuple(lines), tuple(names), tuple(game.player_names[:game.players]),
                          self.keys)

    def _player(self, st: State, viewer: int, pid: int) -> int:
        if self.colour is None or hidden_from(st, pid, viewer):
            return -1
        player = self.colour(Activation(st, viewer, env={self.name: pid}))
        return player if type(player) is int and 0 <= player < st.game.players else -1

    def _where(self, st: State, pid: int) -> tuple[float, float]:
        at = self.at.get(st.game.layout.piece_def[pid]) if 0 <= pid < len(st.game.layout.piece_def) else None
        if at is None:  # the build checks the kind; a piece of another kind is a bug
            raise InternalError(f"the map draws {mech.describe(st, pid)}, which has no coordinates")
        return at

    def _guarded(self, st: State, work: Callable[[], Any]) -> Any:
        return located(self.origin, st, work)


def _number(value: Any) -> float:
    """A coordinate: a number, or one given per era (its first)."""
    return float(value[0] if isinstance(value, tuple) else value)
