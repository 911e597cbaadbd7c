"""What changed in a game between two moments, in words a designer reads: the service
`legacies try` and scenario tests print after an item ran.

Every part of the state a rule can change is compared: counters (players', the game's,
items'), the pieces of every zone (a token named with its owner, a track's space and a
holder named by their item), value slots (`my colour`, `starter`), the timed modifiers
set or cleared (`until EVENT: ...`), what each quantity is worth for each player and
item once every modifier applies (a continuous one comes and goes with its piece),
turn order, pieces revealed, and the end of the game. Nothing changed is said only
when none of these did."""

from __future__ import annotations

from typing import Any

from legacies.interpreter.errors import InternalError
from legacies.interpreter.game import GameState
from legacies.interpreter.mechanics import describe, quantity
from legacies.interpreter.naming import copy_name, whose, zone_name


def snapshot(state: GameState) -> dict[str, Any]:
    """Everything `differences` compares, as names and words (never ids)."""
    st, lay, game = state.st, state.game.layout, state.game
    return {
        "counters": {lay.counter_label[i]: v for i, v in enumerate(st.counters)},
        "zones": {_zone_name(state, z): [_piece(state, p) for p in st.zones[z]] for z in range(1, len(st.zones))},
        "values": _values(state),
        "modifiers": [_modifier(state, m) for m in st.timed],
        "quantities": _quantities(state),
        "turn order": ", ".join(game.player_names[p] for p in st.turn_order),
        "revealed": sorted(describe(st, p) for p in st.revealed),
        "ending": _ending(state),
    }


def differences(state: GameState, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """One line per change, in the order of `snapshot`'s parts."""
    lines = []
    for part in ("counters", "values", "quantities"):
        for name, old in before[part].items():
            new = after[part].get(name)
            if new != old:
                shown = name if part == "quantities" else readable(state, name)
                lines.append(f"{shown}: {_shown(old)} -> {_shown(new)}")
    for zone, old in before["zones"].items():
        new = after["zones"][zone]
        if new == old:
            continue
        gone, came = _minus(old, new), _minus(new, old)
        parts = ([f"+ {', '.join(came)}"] if came else []) + ([f"- {', '.join(gone)}"] if gone else [])
        lines.append(f"{zone}: " + ("; ".join(parts) if parts else "reordered"))
    lines += [f"modifier set: {m}" for m in _minus(after["modifiers"], before["modifiers"])]
    lines += [f"modifier cleared: {m}" for m in _minus(before["modifiers"], after["modifiers"])]
    for part in ("turn order", "ending"):
        if before[part] != after[part]:
            lines.append(f"{part}: {before[part] or 'none'} -> {after[part] or 'none'}")
    revealed = _minus(after["revealed"], before["revealed"])
    if revealed:
        lines.append(f"revealed: {', '.join(revealed)}")
    return lines


def _piece(state: GameState, pid: int) -> str:
    """A piece by name; a token with its owner ("P2's marker")."""
    lay = state.game.layout
    name = describe(state.st, pid)
    owner = lay.piece_owner[pid] if 0 <= pid < len(lay.piece_owner) else -1
    return f"{whose(state.game.player_names[owner])} {name}" if owner >= 0 else name


def _zone_name(state: GameState, z: int) -> str:
    """A zone as a player reads it: "P1's hand", "The Lighthouse's track, space 2", "on Harbour"."""
    return ("on " if z in state.game.layout.zone_holder else "") + zone_name(state.st, z, article=False)


def _values(state: GameState) -> dict[str, str]:
    """Every value slot by name, its content read by the slot's declared type."""
    st, lay = state.st, state.game.layout
    players = player_slots(state)
    return {lay.value_name[i]: _value(state, v, i in players) for i, v in enumerate(st.values)}


def player_slots(state: GameState) -> set[int]:
    """The value slots that hold a player: the ruleset's own (`values:`) and each piece's
    (a kind's `values:`, one slot per copy)."""
    lay, vocab = state.game.layout, state.game.spec.vocab
    slots: set[int] = set()
    for name, info in vocab.values.items():
        if info.type.tag != "player":
            continue
        if name in lay.game_value:
            slots.add(lay.game_value[name])
        elif name in lay.player_value:
            slots.update(range(lay.player_value[name], lay.player_value[name] + lay.players))
    for (kname, vname), first in lay.item_value.items():
        if vocab.kinds[kname].values[vname].type.tag == "player":
            slots.update(range(first, first + len(lay.kind_pieces.get(kname, []))))
    return slots


def _value(state: GameState, v: Any, holds_player: bool) -> str:
    """A value slot's content: a player by name, else as a piece, symbol or counter is
    named."""
    if v is None:
        return "(not set)"
    if holds_player:
        return state.st.player_name(v) if type(v) is int else str(v)
    return _shown(v) if isinstance(v, bool) else describe(state.st, v)


def _modifier(state: GameState, m: tuple) -> str:
    """A timed modifier: "gold off each purchase +20 for P1 until the round ends"."""
    q, subject, op, value, who, until = m
    vocab, names = state.game.spec.vocab, state.game.player_names
    text = vocab.label(q) + (f" of {describe(state.st, subject)}" if subject is not None else "")
    shown = f"×{value}%" if op == "*" else f"= {_shown(value)}" if op == "=" else f"{op}{value}"
    players = f" for {', '.join(names[p] for p in who)}" if who is not None else ""
    return f"{text} {shown}{players} until {vocab.label(until)}"


def _quantities(state: GameState) -> dict[str, Any]:
    """Each quantity's value once every modifier applies: per player (and per item of
    its subject kind), or once for the game."""
    st, game = state.st, state.game
    lay, vocab = game.layout, game.spec.vocab
    out: dict[str, Any] = {}
    for name, info in vocab.quantities.items():
        label = vocab.label(name)
        subjects = [(None, None)] if info.subject is None else \
            [(pid, describe(st, pid)) for pid in lay.kind_pieces.get(info.subject, [])]
        players = [(0, None)] if info.per == "game" else [(p, game.player_names[p]) for p in range(game.players)]
        for subject, item in subjects:
            for p, who in players:
                key = (f"{item}: {label}" + (f" (for {who})" if who else "") if item is not None
                       else owned(who, label) if who else label)
                try:
                    with st.frozen():
                        value = quantity(st, name, p, subject)
                except InternalError as err:  # a modifier that cannot be read here: said, as the game would
                    value = f"(cannot be read: {err.message})"
                out[key] = value
    return out


def readable(state: GameState, label: str) -> str:
    """`gold[P1]` -> "P1's gold"; `space[mill]` -> "Mill's space"; `character[0]` -> "P1's
    character" (the ruleset's labels)."""
    vocab = state.game.spec.vocab
    if "[" in label and label.endswith("]"):
        name, owner = label[:-1].split("[", 1)
        names = state.game.player_names
        if owner.isdigit() and int(owner) < len(names):
            who = names[int(owner)]
        else:
            item, _, copy = owner.partition("#")  # `box#2`: the second copy of an item
            who = vocab.content_names.get(item, item) if item in vocab.content else item
            who += f" #{copy}" if copy else ""
        return owned(who, vocab.label(name))
    return vocab.label(label)


def owned(who: str, label: str) -> str:
    """`P2's spare coins`: a label after a possessive, without the article it may be
    written with ("the spare coins..."), never "P2's the spare coins"."""
    for article in ("the ", "a ", "an "):
        if label.lower().startswith(article) and len(label) > len(article):
            label = label[len(article):]
            break
    return f"{whose(who)} {label}"


def _shown(v: Any) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def _ending(state: GameState) -> str:
    ending = state.st.ending
    if ending is None:
        return ""
    winner, reason = ending
    who = state.game.player_names[winner] if winner >= 0 else "the ranking decides"
    return f"over ({who}{': ' + reason if reason else ''})"


def _minus(a: list[str], b: list[str]) -> list[str]:
    rest = list(b)
    out = []
    for x in a:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out
