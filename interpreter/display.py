"""The parts of a player's screen the rules work out: a ruleset's `display:` `text:`
lines, `columns:` (places side by side: a row of markets, a track of spaces) and
`kinds:` lines (what a piece of a kind shows when read in full), each
a DisplayPart of the spec (interpreter/spec.py). They are compiled once per game, with
the game's other code, and worked out for one viewer when the screen is drawn: a line's
`{EXPR}` parts show values as the log does; a column is the lines worked out for one
member of a collection, then the pieces listed under them, each with what it holds
(tokens by owner, other pieces by name), or each by lines of its own the rules work out
(`piece_lines`: a place's owner and what stands on it). Working one out changes nothing.

A piece the viewer may not see (in a zone hidden from them, not revealed) is listed as
face down: the lines themselves read whatever their expressions read, so a ruleset
shows only what every player may see (cli/board.py draws the result)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import mechanics as mech
from .errors import InternalError, Where, locate
from .spec import DisplayPart, Origin
from .vm import Activation, State

if TYPE_CHECKING:
    from .compiler import Compiler

class ComputedPart:
    """One `text:` line or one `columns:` entry, compiled."""

    def __init__(self, c: "Compiler", part: DisplayPart):
        self.origin = part.origin
        if part.origin is not None:
            c.origin = part.origin
        self.lines: list[Any] = [c.text(line, line.text) for line in part.lines]
        self.members: Callable[[Activation], Any] | None = c.expr(part.members) if part.members is not None else None
        self.name = part.name or ""
        self.pieces: Callable[[Activation], Any] | None = c.expr(part.pieces) if part.pieces is not None else None
        self.pieces_zone = part.pieces is not None and c.type_of(part.pieces).tag == "zone"
        self.label = part.label
        self.condition: Callable[[Activation], Any] | None = \
            c.expr(part.condition) if part.condition is not None else None
        self.piece_name = part.piece_name or ""
        self.piece_lines: list[Any] = [c.text(line, line.text) for line in part.piece_lines]

    def _fill(self, line: Any, st: State, a: Activation) -> str:
        return fill(line, st, a)

    def text(self, st: State, player: int, this: int = -1) -> str:
        """A `text:` line worked out as `player` (the viewer, or the player whose part of
        the screen it is); a `kinds:` line with `this` the piece it is read on."""
        return self._guarded(st, lambda: self._fill(self.lines[0], st, Activation(st, player, this)))

    def shown(self, st: State, player: int) -> bool:
        """Whether the part is shown to (or for) `player` now: its `if:` holds."""
        condition = self.condition
        return condition is None or bool(self._guarded(st, lambda: condition(Activation(st, player))))

    def rows(self, st: State, player: int) -> list[str]:
        """A `rows:` entry's line worked out for each member, top to bottom, as `player`."""
        def work_out() -> list[str]:
            assert self.members is not None
            out = []
            for member in self.members(Activation(st, player)):
                out.append(self._fill(self.lines[0], st, Activation(st, player, env={self.name: member})))
            return out
        return self._guarded(st, work_out)

    def columns(self, st: State, viewer: int) -> list[list[str]]:
        """Each column's lines, left to right, as `viewer` sees them."""
        def work_out() -> list[list[str]]:
            assert self.members is not None
            out = []
            for member in self.members(Activation(st, viewer)):
                a = Activation(st, viewer, env={self.name: member})
                column = [self._fill(line, st, a) for line in self.lines]
                if self.pieces is not None:
                    found = self.pieces(a)
                    for pid in (st.zones[found] if self.pieces_zone else found):
                        column.extend(self._piece(st, a, pid, viewer))
                out.append(column)
            return out
        return self._guarded(st, work_out)

    def column_pieces(self, st: State, viewer: int) -> list[tuple[list[str], list[tuple[int, list[str]]]]]:
        """Each column as its own lines and, apart, the pieces listed under them: each
        piece with the lines it is listed by (its `piece_lines`, or its name and what it
        holds); a piece the viewer may not see comes as -1, `(face down)`."""
        def work_out() -> list[tuple[list[str], list[tuple[int, list[str]]]]]:
            assert self.members is not None
            out = []
            for member in self.members(Activation(st, viewer)):
                a = Activation(st, viewer, env={self.name: member})
                lines = [self._fill(line, st, a) for line in self.lines]
                listed: list[tuple[int, list[str]]] = []
                if self.pieces is not None:
                    found = self.pieces(a)
                    for pid in (st.zones[found] if self.pieces_zone else found):
                        shown = self._piece(st, a, pid, viewer)
                        listed.append((-1 if hidden_from(st, pid, viewer) else pid, shown))
                out.append((lines, listed))
            return out
        return self._guarded(st, work_out)

    def _piece(self, st: State, a: Activation, pid: int, viewer: int) -> list[str]:
        """A listed piece: its `piece_lines` worked out with it named, or else its name and
        what it holds; face down when the viewer may not see it."""
        if not self.piece_lines:
            return piece_lines(st, pid, viewer)
        if hidden_from(st, pid, viewer):
            return ["(face down)"]
        b = Activation(st, viewer, env={**a.env, self.piece_name: pid})
        return [self._fill(line, st, b) for line in self.piece_lines]

    def _guarded(self, st: State, work: Callable[[], Any]) -> Any:
        return located(self.origin, st, work)


def fill(line: Any, st: State, a: Activation) -> str:
    """A compiled line worked out: its `{EXPR}` parts filled in (a line without is text)."""
    return line if isinstance(line, str) else line(st, a)


def located(origin: Origin | None, st: State, work: Callable[[], Any]) -> Any:
    """`work()`, only reading: a definition asked twice is worked out once, and the reads
    of one screen are charged to a fresh step budget (State.frozen). A content mistake met
    while working a part of the screen out names the entry and its file."""
    try:
        with st.frozen():
            return work()
    except InternalError as err:
        raise locate(err, None if origin is None else Where(origin.what, origin.file, *origin.at(None)))


def hidden_from(st: State, pid: int, viewer: int) -> bool:
    """Whether `viewer` may not see the piece: in a zone hidden from them, not revealed."""
    zone = st.loc[pid]
    return zone >= 0 and not st.game.layout.visible_to(zone, viewer) and pid not in st.revealed


def piece_lines(st: State, pid: int, viewer: int) -> list[str]:
    """A piece as a column lists it: its name, then the tokens it holds by owner
    ("P1 x2, P2"), then each other piece it holds ("+ name"), or "(empty)" for a holder
    that holds nothing; face down when the viewer may not see it."""
    lay = st.game.layout
    if hidden_from(st, pid, viewer):
        return ["(face down)"]
    lines = [mech.describe(st, pid)]
    if pid not in lay.holder_zone:
        return lines
    held = st.zones[lay.holder_zone[pid]]
    tokens = [p for p in held if lay.piece_owner[p] >= 0]  # tokens: counted by their owners
    if tokens:
        lines.append(" " + owners_text(st, tokens))
    lines.extend(f" + {mech.describe(st, p)}" for p in held if lay.piece_owner[p] < 0)
    if not held:
        lines.append(" (empty)")
    return lines


def owners_text(st: State, tokens: list[int]) -> str:
    """Whose tokens these are, in the order first met: "P1 x2, P2"."""
    owners: dict[str, int] = {}
    for token in tokens:
        who = mech.player_name(st, st.game.layout.piece_owner[token])
        owners[who] = owners.get(who, 0) + 1
    return ", ".join(f"{w} x{n}" if n > 1 else w for w, n in owners.items())
