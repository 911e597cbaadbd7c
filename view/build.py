"""The seat's view worked out: `seat_view(state, seat, log)` is everything seat `seat` may
know and do now (view/model.py), built from the ruleset's `display:` (its table and
players' parts, its map), the state and the table's log. It is the one place hidden
information is filtered for a face: a zone hidden from the seat is a count, a piece hidden
from it is never named nor given an id, another seat's options are never listed, and a log
entry is kept only for the seats it was written for (view/log.py). Working it out changes
nothing in the game.

The words are made here, for a reader: nothing on a bot's path calls it."""

from __future__ import annotations

from typing import Any, Sequence

from legacies.interpreter import builtins
from legacies.interpreter import mechanics as mech
from legacies.interpreter.decisions import Decision
from legacies.interpreter.display import hidden_from, owners_text
from legacies.interpreter.frames import innermost_turns
from legacies.interpreter.game import GameState
from legacies.interpreter.naming import piece_name
from legacies.interpreter.values import DefRef
from legacies.pipeline.explain import card_details

from .cards import card_lines, option_item, option_lines
from .log import LogRecord, readable
from .model import (Amounts, Card, Column, DecisionView, Listed, MapKey, MapLine, MapName, MapPlace, MapView,
                    Option, Part, Player, Result, SeatView, Zone)
from .purpose import purpose, told_of

LOG_KEPT = 200  # entries of the log a view carries (the latest): a long game's log is read a page at a time
CHANGES_KEPT = 60  # entries of what changed since the seat last chose


class _Cards:
    """The cards a view names, gathered while it is built, each read in full once."""

    def __init__(self, state: GameState, seat: int):
        self.state = state
        self.seat = seat
        self.found: dict[str, Card] = {}
        spec = state.game.spec
        self.era = builtins.era(state.st) if spec.era_counter else None

    def details(self, d: int) -> str:
        spec = self.state.game.spec
        if not spec.card_attributes:
            return ""
        return card_details(spec.defs[d], spec.vocab, spec.card_attributes, self.era)

    def piece(self, pid: int) -> str | None:
        """The id of a piece the seat may see (read in full into the view), else None."""
        st = self.state.st
        if not 0 <= pid < len(st.loc) or hidden_from(st, pid, self.seat):
            return None
        key = f"p{pid}"
        if key not in self.found:
            d = self.state.game.layout.piece_def[pid]
            self.found[key] = Card(id=key, name=piece_name(st, pid, self.seat), kind=self._kind(d),
                                   details=self.details(d), lines=card_lines(self.state, pid, self.seat))
        return key

    def item(self, d: int) -> str:
        key = f"d{d}"
        if key not in self.found:
            self.found[key] = Card(id=key, name=self.state.game.spec.defs[d].name, kind=self._kind(d),
                                   details=self.details(d), lines=card_lines(self.state, DefRef(d), self.seat))
        return key

    def _kind(self, d: int) -> str:
        spec = self.state.game.spec
        kind = spec.defs[d].kind
        return spec.vocab.kinds[kind].label or spec.vocab.label(kind)

    def listed(self, pid: int, lines: Sequence[str] | None = None) -> Listed:
        """A piece as the board lists it (`lines`: as a column's `pieces:` lists it)."""
        st = self.state.st
        card = self.piece(pid) if pid >= 0 else None
        if card is None:
            return Listed(name="(face down)")
        d = self.state.game.layout.piece_def[pid]
        if lines:
            return Listed(card=card, name=lines[0].strip(), details=self.details(d),
                          holds=[line.strip() for line in lines[1:]])
        return Listed(card=card, name=mech.describe(st, pid), details=self.details(d),
                      holds=_holds(self.state, pid, self.seat))


def _holds(state: GameState, pid: int, viewer: int) -> list[str]:
    """What a piece holds, a line each: tokens by owner ("P1 x2"), then each other piece."""
    lay, st = state.game.layout, state.st
    out = []
    for space, zone in enumerate(lay.track_zones.get(pid, []), 1):
        if st.zones[zone]:
            out.append(f"space {space}: {_owners(state, st.zones[zone])}")
    if pid in lay.holder_zone:
        held = st.zones[lay.holder_zone[pid]]
        tokens = [p for p in held if lay.piece_owner[p] >= 0]
        if tokens:
            out.append(_owners(state, tokens))
        out += [piece_name(st, p, viewer) if not hidden_from(st, p, viewer) else "a card face down"
                for p in held if lay.piece_owner[p] < 0]
    return out


def _owners(state: GameState, tokens: list[int]) -> str:
    """Whose tokens these are: "P1, P2 x2" (interpreter/display.py's words)."""
    return owners_text(state.st, tokens)


def _zone(cards: _Cards, zone: int) -> Zone:
    st = cards.state.st
    pieces = st.zones[zone]
    shown = [cards.listed(p) for p in pieces if not hidden_from(st, p, cards.seat)]
    return Zone(count=len(pieces), face_down=len(pieces) - len(shown), pieces=shown)


def _value(cards: _Cards, value: Any) -> str:
    """A value slot as the seat reads it: a piece it may not see is `hidden`."""
    st = cards.state.st
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(cards, x) for x in value) or "none"
    if type(value) is int and 0 <= value < len(st.loc):
        if hidden_from(st, value, cards.seat):
            return "hidden"
        cards.piece(value)
    return mech.describe(st, value)


def _label(state: GameState, name: str, label: str | None) -> str:
    return label or state.game.spec.vocab.label(name)


Entries = list[tuple[str, str, str | None, str | None]]  # (what, name, label or None, when: a counter or None)


def _display(state: GameState) -> dict[str, Entries]:
    """The ruleset's `display:`, or (without one) its game counters, then each player's
    score and zones."""
    spec = state.game.spec
    if spec.display and (spec.display.get("table") or spec.display.get("players")):
        return spec.display
    v = spec.vocab
    table: Entries = [("counter", n, None, None) for n, c in v.counters.items() if c.scope == "game"]
    players: Entries = [("score" if spec.score_definition else "counter", spec.score_counter, None, None)]
    players += [("zone", n, None, None) for n, z in v.zones.items() if z.scope == "player"]
    return {"table": table, "players": players}


def _columns(cards: _Cards, index: str, label: str | None) -> Part:
    part = cards.state.game.display_parts[int(index)]
    columns = [Column(lines=lines, pieces=[cards.listed(pid, shown) for pid, shown in listed])
               for lines, listed in part.column_pieces(cards.state.st, cards.seat)]
    return Part(kind="columns", label=label or "", columns=columns)


def _rows(cards: _Cards, index: str, label: str | None, player: int) -> Part:
    rows = cards.state.game.display_parts[int(index)].rows(cards.state.st, player)
    return Part(kind="rows", label=label or "", rows=rows)


def _tokens_on(cards: _Cards, kind: str) -> str:
    """Whose tokens are on each item of a kind with a track or a holder."""
    state = cards.state
    lay, st = state.game.layout, state.st
    out = []
    for pid in lay.kind_pieces.get(kind, []):
        if pid in lay.track_zones:
            spaces = [f"{s}: {_owners(state, st.zones[z])}" for s, z in enumerate(lay.track_zones[pid], 1) if st.zones[z]]
            if spaces:
                cards.piece(pid)
                out.append(f"{mech.describe(st, pid)} (space {', space '.join(spaces)})")
            continue
        tokens = mech.pieces_on(st, pid)
        if tokens:
            cards.piece(pid)
            out.append(f"{mech.describe(st, pid)} ({_owners(state, tokens)})")
    return "; ".join(out) or "none"


def tokens_on(state: GameState, seat: int, kind: str) -> str:
    """Whose tokens stand on each item of a kind with a track or a holder, as one line
    (what a `display:` entry naming the kind shows)."""
    return _tokens_on(_Cards(state, seat), kind)


def _table_part(cards: _Cards, what: str, name: str, label: str | None) -> Part | None:
    state, seat = cards.state, cards.seat
    lay, st = state.game.layout, state.st
    if what in ("text", "rows", "columns") and not state.game.display_parts[int(name)].shown(st, seat):
        return None  # its `if:` does not hold now
    if what == "columns":
        return _columns(cards, name, label)
    if what == "rows":
        return _rows(cards, name, label, seat)
    if what == "text":
        return Part(kind="line", text=state.game.display_parts[int(name)].text(st, seat))
    if what == "counter":
        return Part(kind="field", label=_label(state, name, label), text=str(st.counters[lay.game_counter[name]]))
    if what == "zone":
        return Part(kind="zone", label=_label(state, name, label), zone=_zone(cards, lay.game_zone[name]))
    if what == "value":
        return Part(kind="field", label=_label(state, name, label), text=_value(cards, st.values[lay.game_value[name]]))
    if what == "tokens_on":
        return Part(kind="field", label=_label(state, name, label), text=_tokens_on(cards, name))
    kind = next(k for (k, n) in lay.item_counter if n == name)  # each piece's own counter, of a kind
    base = lay.item_counter[(kind, name)]
    shown = ", ".join(f"{mech.describe(st, pid)} {st.counters[base + i]}"
                      for i, pid in enumerate(lay.kind_pieces.get(kind, [])) if mech.on_table(st, pid))
    return Part(kind="field", label=_label(state, name, label), text=shown or "none")


def _player_part(cards: _Cards, what: str, name: str, label: str | None, player: int) -> Part | None:
    state = cards.state
    lay, st = state.game.layout, state.st
    parts = state.game.display_parts
    if what in ("text", "rows") and not parts[int(name)].shown(st, player):
        return None
    if what == "rows":
        return _rows(cards, name, label, player)
    if what == "score":
        return Part(kind="counter", label=_label(state, name, label), text=str(state.score(player)))
    if what == "counter":
        return Part(kind="counter", label=_label(state, name, label), text=str(st.counters[lay.player_counter[name] + player]))
    if what == "zone":
        return Part(kind="zone", label=_label(state, name, label), zone=_zone(cards, lay.player_zone[name] + player))
    if what == "value":
        return Part(kind="field", label=_label(state, name, label),
                    text=_value(cards, st.values[lay.player_value[name] + player]))
    if what == "text":
        return Part(kind="line", text=parts[int(name)].text(st, player))
    vocab = state.game.spec.vocab  # a counter set: each member's count
    members = vocab.counter_sets[name]
    return Part(kind="field", label=_label(state, name, label),
                text=", ".join(f"{vocab.label(m)} {st.counters[lay.player_counter[m] + player]}" for m in members))


def _player(cards: _Cards, entries: Entries, player: int) -> Player:
    state = cards.state
    st, lay = state.st, state.game.layout
    # whose turn it is, while a turn runs: between turns (the setup, a phase every player
    # takes part in) the last turn's player is not "to play", whoever is asked
    in_turn = innermost_turns(st) is not None
    counters: list[Part] = []
    parts: list[Part] = []
    for what, name, label, when in entries:
        if when is not None and not st.counters[lay.player_counter[when] + player]:
            continue  # a part of the board this player does not have
        part = _player_part(cards, what, name, label, player)
        if part is not None:
            (counters if part.kind == "counter" else parts).append(part)
    pending = st.pending
    return Player(index=player, name=state.game.player_names[player], you=player == cards.seat,
                  to_play=player == st.active and in_turn, deciding=pending is not None and pending.player == player,
                  score=state.score(player), counters=counters, parts=parts)


def _amounts(d: Decision) -> Amounts | None:
    if d.kind not in ("number", "bid"):
        return None
    values = [o.value for o in d.options if type(o.value) is int]
    return Amounts(values=values, words=amounts_text(values), can_pass=any(o.value is None for o in d.options))


def amounts_text(values: list[int]) -> str:
    """Amounts as a player reads them: "0 to 90 in steps of 5", "1, 2, 5 or 10"."""
    if not values:
        return "none"
    if len(values) > 2:
        step = values[1] - values[0]
        if step > 0 and all(b - a == step for a, b in zip(values, values[1:])):
            return f"{values[0]} to {values[-1]}" + (f" in steps of {step}" if step != 1 else "")
    if len(values) == 1:
        return str(values[0])
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


def _option(cards: _Cards, d: Decision, index: int, amounts: bool) -> Option:
    state = cards.state
    o = d.options[index]
    if amounts:
        return Option(index=index, label=o.label, amount=o.value if type(o.value) is int else None,
                      passes=o.value is None)
    item = option_item(state, index)
    card = None
    details = ""
    if isinstance(item, DefRef):
        card = cards.item(int(item))
        details = cards.details(int(item))
    elif item is not None:
        card = cards.piece(item)
        if card is not None:
            details = cards.details(state.game.layout.piece_def[item])
    shown = option_lines(state, index, cards.seat) if card is not None or d.kind in ("action", "one") else []
    card_lines_count = len(cards.found[card].lines) if card is not None else 0
    plays = shown[card_lines_count:]
    hint = _hint(cards.found[card].lines if card is not None else [], plays)
    if not details and not hint and card is not None and type(item) is int:  # a place with no text: its state now
        details = _kind_line(state, item, cards.seat)
    return Option(index=index, label=o.label, card=card, details=details, hint=hint, plays=plays)


def _kind_line(state: GameState, pid: int, seat: int) -> str:
    """The first line the ruleset's `display: kinds:` works out for a piece of its kind (a
    place's cost now: "a bid here: 30 gold"), for a piece with no printed attributes and
    no text of its own."""
    game = state.game
    parts = game.spec.display_kinds.get(game.spec.defs[game.layout.piece_def[pid]].kind, [])
    return game.display_parts[parts[0]].text(state.st, seat, this=pid) if parts else ""


def _hint(lines: list[str], plays: list[str]) -> str:
    """A line that says what an option does: what it plays, else its card's first line of text."""
    if plays:
        return plays[0]
    if "card text:" in lines:  # its effect, not when it may be played
        text = [line.strip() for line in lines[lines.index("card text:") + 1:]]
        effects = [line for line in text if not line.startswith("Playable when")]
        return (effects or text or [""])[0]
    return ""


def _decision(cards: _Cards, takebacks: int) -> DecisionView | None:
    state, seat = cards.state, cards.seat
    d = state.decision
    if d is None:
        return None
    yours = d.player == seat
    amounts = _amounts(d) if yours else None
    options = [_option(cards, d, i, amounts is not None) for i in range(len(d.options))] if yours else []
    return DecisionView(number=len(state.st.history), takebacks=takebacks, player=d.player,
                        player_name=state.game.player_names[d.player], yours=yours, kind=d.kind, prompt=d.prompt if yours else told_of(d.prompt), purpose=purpose(state, d, seat),
                        options=options, amounts=amounts)


def _map(cards: _Cards) -> MapView | None:
    state = cards.state
    if state.game.map is None:
        return None
    picture = state.game.map.picture(state.st, cards.seat)
    return MapView(
        title=picture.title,
        places=[MapPlace(card=cards.piece(p.piece), label=p.label, x=p.x, y=p.y, player=p.player,
                         marks=list(p.marks)) for p in picture.places],
        lines=[MapLine(start=line.start, end=line.end, link=line.link, style=line.style,  # type: ignore[arg-type]
                       arc=line.arc, one_way=line.one_way) for line in picture.lines],
        names=[MapName(text=n.text, x=n.x, y=n.y) for n in picture.names],
        keys=[MapKey(label=k.label, style=k.style, arc=k.arc) for k in picture.keys])  # type: ignore[arg-type]


def _result(state: GameState) -> Result | None:
    if not state.is_terminal():
        return None
    ranking = state.ranking()
    return Result(scores=state.scores(), ranking=ranking, winner=ranking[0], reason=state.end_reason() or "")


def seat_view(state: GameState, seat: int, log: Sequence[LogRecord] = (), takebacks: int = 0) -> SeatView:
    """What seat `seat` may know and do now; `log` is the table's log (view/log.py), of
    which the view keeps the entries written for this seat; `takebacks`, the table's undos
    so far (agents/session.py), which an answer to the decision names."""
    game = state.game
    if not 0 <= seat < game.players:
        raise ValueError(f"there is no seat {seat} at a table of {game.players}")
    st = state.st
    cards = _Cards(state, seat)
    display = _display(state)
    with st.frozen():
        table = [part for what, name, label, _ in display.get("table", [])
                 if (part := _table_part(cards, what, name, label)) is not None]
        order = st.turn_order or list(range(game.players))
        players = [_player(cards, display.get("players", []), p) for p in order]
        decision = _decision(cards, takebacks)
        map_view = _map(cards)
    mine = readable(log, seat)
    last = max((i for i, r in enumerate(mine) if r.kind == "choice" and r.player == seat), default=-1)
    changes = [r.entry() for r in mine[last + 1:]][-CHANGES_KEPT:]
    return SeatView(ruleset=game.spec.name, title=game.spec.title, seat=seat, seat_name=game.player_names[seat],
                    decisions=len(st.history), turn=st.turns, table=table, players=players, cards=cards.found,
                    decision=decision, changes=changes, log=[r.entry() for r in mine[-LOG_KEPT:]],
                    log_from=max(1, len(mine) - LOG_KEPT + 1), map=map_view, result=_result(state))


