"""What a player reads of one thing before they commit: a card in full, what an option
would play, and `look NAME`.

A card in full (`card_lines`): its name (a copy's number where copies must be told
apart), its kind, every attribute it has that the ruleset prints (`display: unprinted:`
names the rules' own bookkeeping), a place's neighbours by each kind of link, an era value with the current era's marked, its own
counters and values while it keeps them, what it holds and who stands on its track,
the lines the ruleset's `display: kinds:` works out for a piece of its kind (a value
the rules work out), where it is, and its card text. A piece the viewer may not see is
never read: it is "a card you cannot see".

`?N` (`option_lines`) shows the card of the item option N names, then the effects the
option would play (interpreter/preview.py: an outcome a card gives, the space of this
era an action resolves), each with its text. `look NAME` (`look`) finds an item the viewer may see
by name, part of a name, or id, anywhere on the table."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Callable
from weakref import WeakKeyDictionary

from legacies.dsl.renderer import Wording, render_expr, render_program
from legacies.interpreter import mechanics as mech
from legacies.interpreter.errors import GameError, InternalError
from legacies.interpreter.frames import AskFrame, PerformFrame
from legacies.interpreter.game import GameState
from legacies.interpreter.naming import copy_name, piece_name, place_of
from legacies.interpreter.preview import Played, plays
from legacies.interpreter.values import DefRef
from legacies.pipeline.explain import attribute_text, link_lines

if TYPE_CHECKING:
    from legacies.interpreter.game import Game

# Each game's card texts, by item: a card's text is the rules' and never changes in a game,
# and working out its wording is most of the time a view takes (a view reads every card
# on the table).
_TEXTS: "WeakKeyDictionary[Game, dict[int, list[str]]]" = WeakKeyDictionary()


def _visible(state: GameState, pid: int, viewer: int) -> bool:
    zone = state.st.loc[pid]
    return zone < 0 or state.game.layout.visible_to(zone, viewer) or pid in state.st.revealed


def _era_value(state: GameState, value: str) -> str:
    """`20/50/100` as "20 / 50 / 100 (age II: 50)": every era's, and the current one's."""
    parts = value.split("/")
    spec = state.game.spec
    slot = state.game.layout.game_counter.get(spec.era_counter or "")
    era = state.st.counters[slot] if slot is not None else 0
    names = spec.vocab.era_names
    now = f" ({spec.vocab.era_word} {names[era - 1]}: {parts[era - 1]})" \
        if names and 1 <= era <= min(len(parts), len(names)) else ""
    return " / ".join(parts) + now


def _attribute_lines(state: GameState, d: int) -> list[str]:
    spec = state.game.spec
    vocab = spec.vocab
    pdef = spec.defs[d]
    kind = vocab.kinds[pdef.kind]
    unprinted = set(spec.unprinted)
    out = []
    for name, t in kind.attributes.items():
        if t.tag in ("effect", "effects") or name in unprinted:
            continue  # effects are the card text, below
        value = pdef.attrs.get(name, kind.defaults.get(name))
        if value is None or value in ([], {}, ""):
            continue
        if isinstance(value, str) and "/" in value and t.tag in ("number", "amount"):
            shown = _era_value(state, value)
        else:
            shown = attribute_text(vocab, t, value)
        out.append(f"{attribute_label(state, pdef.kind, name)}: {shown}")
    return out


def attribute_label(state: GameState, kind: str, name: str) -> str:
    """What a kind's attribute is called where a player reads it (its declared label)."""
    spec = state.game.spec
    return spec.attribute_labels.get((kind, name)) or spec.vocab.label(name)


def card_text(state: GameState, d: int) -> list[str]:
    """An item's card text: when it may be played, its effect, then each effect it gives
    in an attribute under that attribute's label (numbered for a list of effects)."""
    texts = _TEXTS.setdefault(state.game, {})
    if d not in texts:
        texts[d] = _card_text(state, d)
    return list(texts[d])


def _card_text(state: GameState, d: int) -> list[str]:
    spec = state.game.spec
    pdef = spec.defs[d]
    wording = Wording.of(spec.vocab)
    out = []
    if pdef.requires is not None:
        out.append("Playable when " + render_expr(pdef.requires, wording) + ".")
    if pdef.effect is not None:
        out.append(render_program(pdef.effect, wording))
    for key, programs in pdef.programs.items():
        label = attribute_label(state, pdef.kind, key)
        if isinstance(programs, list):
            out += [f"{label} {i}: {render_program(p, wording)}" for i, p in enumerate(programs, 1)]
        else:
            out.append(f"{label}: {render_program(programs, wording)}")
    return out


def _own_state(state: GameState, pid: int) -> list[str]:
    """A piece's own counters and values, while it keeps them (a board item always; a
    card while it is on the table)."""
    st, lay, vocab = state.st, state.game.layout, state.game.spec.vocab
    kind = vocab.kinds[state.game.spec.defs[lay.piece_def[pid]].kind]
    if st.loc[pid] >= 0 and not mech.on_table(st, pid):
        return []
    out = []
    for name, info in kind.counters.items():
        slot = lay.counter_slots(name)[pid]
        if slot < 0:
            continue
        value = st.counters[slot]
        text = info.text_true if value else info.text_false
        if info.max == 1 and text:
            out.append(text.format(copy_name(st, pid)))
        else:
            out.append(f"{info.label or vocab.label(name)}: {value}")
    for name, vinfo in kind.values.items():
        slot = lay.value_slots(name)[pid]
        if slot >= 0 and st.values[slot] is not None:
            shown = st.player_name(st.values[slot]) if vinfo.type.tag == "player" else mech.describe(st, st.values[slot])
            out.append(f"{vinfo.label or vocab.label(name)}: {shown}")
    return out


def _holdings(state: GameState, pid: int, viewer: int) -> list[str]:
    """Who stands on its track, space by space, and what it holds."""
    st, lay = state.st, state.game.layout
    out = []
    for space, zone in enumerate(lay.track_zones.get(pid, []), 1):
        if st.zones[zone]:
            out.append(f"space {space}: " + ", ".join(piece_name(st, p, viewer) for p in st.zones[zone]))
    if pid in lay.holder_zone:
        held = st.zones[lay.holder_zone[pid]]
        names = [piece_name(st, p, viewer) if _visible(state, p, viewer) else "a card you cannot see" for p in held]
        out.append("holds: " + (", ".join(names) if names else "nothing"))
    return out


def _kind_lines(state: GameState, pid: int, viewer: int) -> list[str]:
    """The lines `display: kinds:` works out for a piece of this kind."""
    game = state.game
    kind = game.spec.defs[game.layout.piece_def[pid]].kind
    return [game.display_parts[i].text(state.st, viewer, this=pid) for i in game.spec.display_kinds.get(kind, [])]


def card_lines(state: GameState, item: int | DefRef, viewer: int, where: bool = True) -> list[str]:
    """A piece (an int) or an item named by the rules (a DefRef) in full, as `viewer`
    may read it."""
    spec, lay, st = state.game.spec, state.game.layout, state.st
    vocab = spec.vocab
    piece = None if isinstance(item, DefRef) else int(item)
    if piece is not None and not _visible(state, piece, viewer):
        return [f"a card you cannot see ({place_of(st, piece, viewer)})"]
    d = int(item) if piece is None else lay.piece_def[piece]
    pdef = spec.defs[d]
    name = pdef.name if piece is None else piece_name(st, piece, viewer)
    kind = vocab.kinds[pdef.kind]
    printed = f" {pdef.id}" if kind.piece == "card" else ""  # a card's number is printed on it; a place's id is not
    lines = [f"{name} ({kind.label or vocab.label(pdef.kind)}{printed})"]
    if piece is not None and where:
        lines.append(f"where: {place_of(st, piece, viewer)}")
    lines += _attribute_lines(state, d) + link_lines(pdef, vocab)
    if piece is not None:
        lines += _own_state(state, piece) + _holdings(state, piece, viewer) + _kind_lines(state, piece, viewer)
    text = card_text(state, d)
    if text:
        lines += ["card text:"] + ["  " + line for part in text for line in part.splitlines()]
    return lines


def _played_lines(state: GameState, played: Played) -> list[str]:
    spec = state.game.spec
    pdef = spec.defs[played.definition]
    whose = copy_name(state.st, played.piece) if played.piece >= 0 else pdef.name
    wording = Wording.of(spec.vocab)
    if played.attribute is None:
        program = pdef.effect
        label = "card text"
    else:
        programs = pdef.programs[played.attribute]
        program = programs[played.entry] if isinstance(programs, list) else programs
        label = attribute_label(state, pdef.kind, played.attribute) + (f" {played.entry + 1}" if played.entry >= 0 else "")
    if program is None:
        return []
    return [f"{whose}, {label}: {render_program(program, wording)}"]


def option_item(state: GameState, index: int) -> int | DefRef | None:
    """The piece or item option `index` names (a card to play, an item to take), if any."""
    d = state.decision
    assert d is not None
    item = d.options[index].item
    if isinstance(item, DefRef):
        return item
    return item if type(item) is int and 0 <= item < len(state.st.loc) else None


def _option_plays(state: GameState, index: int) -> list[Played]:
    """The effects the pending decision's option `index` would play (a menu's action,
    a `choose one:` option)."""
    st = state.st
    d = state.decision
    assert d is not None and st.frames
    frame = st.frames[-1]
    value = d.options[index].value
    if d.kind == "action" and isinstance(frame, PerformFrame) and isinstance(value, tuple):
        action = frame.actions[value[0]]
        spec = state.game.spec.actions[action.name]
        env = {spec.var: value[1]} if spec.var else {}
        return _guessed(lambda: plays(st, spec.body.statements, frame.act.me, frame.act.this, env))
    if d.kind == "one" and isinstance(frame, AskFrame) and frame.data is not None and isinstance(value, int):
        option = frame.data.options[value]
        return _guessed(lambda: plays(st, option.body, frame.act.me, frame.act.this, frame.act.env))
    return []


def _guessed(walk: "Callable[[], list[Played]]") -> list[Played]:
    """A preview's walk, or nothing when it cannot be worked out now: the walk reads the
    rules' expressions without running their statements (`draw 1 ... to my pile` then
    `let C be top of my pile` reads a pile the draw has not filled), and a guess that
    fails says nothing, it is no error of the game's (the state is read frozen, nothing
    changed)."""
    try:
        return walk()
    except (GameError, InternalError):
        return []


def option_lines(state: GameState, index: int, viewer: int) -> list[str]:
    """What `?N` shows of option `index`: the card of the item it names, then each
    effect it would play with its text."""
    item = option_item(state, index)
    lines = card_lines(state, item, viewer) if item is not None else []
    for played in _option_plays(state, index):
        if item is not None and played.piece == item and played.attribute is not None \
                and played.attribute in state.game.spec.defs[played.definition].programs:
            continue  # its text is on the card above
        lines += _played_lines(state, played)
    return lines


def _candidates(state: GameState, viewer: int) -> list[int]:
    """Every piece but the tokens that the viewer may see, in piece order."""
    lay, st = state.game.layout, state.st
    return [pid for pid in range(len(lay.piece_def))
            if lay.piece_owner[pid] < 0 and st.loc[pid] != 0 and _visible(state, pid, viewer)]


def look(state: GameState, query: str, viewer: int) -> list[str]:
    """`look NAME`: the card of the one item the viewer may see that NAME names (its id,
    its name, the start or a part of its name, any case; `Name #2` for a copy), or the
    items it could mean."""
    wanted = query.strip().lower()
    if not wanted:
        return ["look NAME shows the card of anything you may see on the table: a name, a part of one, or an id"]
    st, spec, lay = state.st, state.game.spec, state.game.layout
    pieces = _candidates(state, viewer)
    named = {pid: copy_name(st, pid).lower() for pid in pieces}
    ids = {pid: spec.defs[lay.piece_def[pid]].id.lower() for pid in pieces}
    for test in (lambda p: named[p] == wanted or ids[p] == wanted or mech.describe(st, p).lower() == wanted,
                 lambda p: named[p].startswith(wanted),
                 lambda p: wanted in named[p]):
        found = [p for p in pieces if test(p)]
        if len(found) == 1:
            return card_lines(state, found[0], viewer)
        if found:
            if len(found) > 12:
                return [f"{len(found)} things match {query.strip()!r}: type more of the name"]
            return [f"{query.strip()!r} could be:"] + [f"  {copy_name(st, p)} ({place_of(st, p, viewer)})"
                                                       for p in found]
    return [f"nothing you can see is called {query.strip()!r}"]


def wrapped(lines: list[str], width: int, indent: str = "") -> list[str]:
    """Lines fitted to `width` columns, broken between words only; a broken line goes on
    indented two more spaces than it started."""
    out = []
    for line in lines:
        lead = indent + line[:len(line) - len(line.lstrip(" "))]
        body = line.strip(" ")
        if not body:
            out.append("")
            continue
        out += textwrap.wrap(body, max(20, width), initial_indent=lead, subsequent_indent=lead + "  ",
                             break_long_words=False, break_on_hyphens=False) or [lead]
    return out
