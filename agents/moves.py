"""What a move changed, in words every player at the table may read: the lines the
match log prints under each decision ("P1 +10 gold, -1 ore; P2 +5 gold", "Harbour's
level on the investment track 3 -> 4", "P1's relationship token: P1's tokens on the
supply -> The Lighthouse's track, space 1").

`MoveEffects` keeps the few plain lists a move can change (counters, value slots and
where each piece is) and compares them after each decision: players' counters as
gains and losses grouped by player (a counter with a ceiling, a place or a count, as
before -> after), the table's and the pieces' own counters as before -> after (a 0/1
counter in its words: "Open Market is face down"), value
slots, and pieces that moved. A piece is named only when every player may see it at
one end of its move; moves nobody may follow are counted ("2 cards: the age I
deck -> P2's hand"). Nothing is read that the state does not show to everyone, and
nothing in the state changes."""

from __future__ import annotations

from typing import Any

from legacies.dsl.english import counted
from legacies.dsl.wording import Wording
from legacies.interpreter.game import GameState
from legacies.interpreter.mechanics import describe
from legacies.interpreter.naming import copy_name, piece_name, whose, zone_name

from .state_diff import player_slots


class MoveEffects:
    def __init__(self, state: GameState):
        game = state.game
        lay = game.layout
        vocab = game.spec.vocab
        self.state = state
        self.nouns = Wording.of(vocab).count_nouns  # "+1 legacy point", "+2 legacy points"
        # each counter slot: (a player or -1, a piece or -1, its name)
        self.slots: list[tuple[int, int, str]] = [(-1, -1, name) for name in lay.counter_name]
        for name, base in lay.player_counter.items():
            for p in range(game.players):
                self.slots[base + p] = (p, -1, name)
        for (kind, name), base in lay.item_counter.items():
            for i, pid in enumerate(lay.kind_pieces.get(kind, [])):
                self.slots[base + i] = (-1, pid, name)
        quiet = set(game.spec.unlogged)
        self.quiet = [name in quiet for _, _, name in self.slots]
        self.quiet_values = [name.split("[", 1)[0] in quiet for name in lay.value_name]
        self.player_values = player_slots(state)  # the game's, each player's and each piece's own
        # a piece's own value slot -> the piece: read only while every player may see the piece
        self.piece_of_value = {base + i: pid for (kind, _), base in lay.item_value.items()
                               for i, pid in enumerate(lay.kind_pieces.get(kind, []))}
        # a player's counter with a ceiling is a place or a count (the space a pawn is on, actions
        # left): read as before -> after; one without is an amount they gain and lose
        self.bounded = {name for name, info in vocab.counters.items() if info.max is not None}
        self.texts = {name: (info.text_true, info.text_false) for name, info in vocab.counters.items()
                      if info.max == 1 and info.text_true and info.text_false}
        for kinfo in vocab.kinds.values():
            self.texts.update({name: (info.text_true, info.text_false) for name, info in kinfo.counters.items()
                               if info.max == 1 and info.text_true and info.text_false})
        self._take()

    def _take(self) -> None:
        st = self.state.st
        self.counters = st.counters[:]
        self.values = st.values[:]
        self.loc = st.loc[:]

    def changes(self) -> list[str]:
        """What changed since the last call (or since the start), one line each."""
        lines = self._counters() + self._values() + self._moves()
        self._take()
        return lines

    def _counters(self) -> list[str]:
        st, names = self.state.st, self.state.game.player_names
        vocab = self.state.game.spec.vocab
        gains: dict[int, list[str]] = {}
        others = []
        for slot, (old, new) in enumerate(zip(self.counters, st.counters)):
            if old == new or self.quiet[slot]:
                continue
            player, pid, name = self.slots[slot]
            if player >= 0 and name in self.texts and new in (0, 1):  # a yes or no of a player's, in its words
                others.append(self.texts[name][0 if new else 1].format(names[player]))
                continue
            if player >= 0 and name in self.bounded:
                others.append(f"{whose(names[player])} {vocab.label(name)} {old} -> {new}")
                continue
            if player >= 0:
                gains.setdefault(player, []).append(f"{new - old:+d} {counted(vocab.label(name), new - old, self.nouns)}")
                continue
            subject = copy_name(st, pid) if pid >= 0 else ""
            if name in self.texts and new in (0, 1):
                others.append(self.texts[name][0 if new else 1].format(subject or vocab.label(name)))
            else:
                label = self._label(pid, name)
                others.append(f"{whose(subject) + ' ' if subject else ''}{label} {old} -> {new}")
        players = "; ".join(f"{names[p]} {', '.join(changed)}" for p, changed in sorted(gains.items()))
        return ([players] if players else []) + others

    def _label(self, pid: int, name: str) -> str:
        spec = self.state.game.spec
        if pid >= 0:
            kind = spec.vocab.kinds[spec.defs[self.state.game.layout.piece_def[pid]].kind]
            info = kind.counters.get(name)
            if info is not None and info.label:
                return info.label
        return spec.vocab.label(name)

    def _values(self) -> list[str]:
        st, lay = self.state.st, self.state.game.layout
        out = []
        for slot, (old, new) in enumerate(zip(self.values, st.values)):
            if old == new or self.quiet_values[slot]:
                continue
            pid = self.piece_of_value.get(slot)
            if pid is not None and not (self._public(st.loc[pid]) or pid in st.revealed):
                continue  # a value of a card nobody may see: its change is not told either
            name = self._value_name(lay.value_name[slot], pid)
            if slot in self.player_values:  # a player, or nobody (-1: never set)
                out.append(f"{name}: {st.player_name(old) if old is not None else 'none'} -> "
                           f"{st.player_name(new) if new is not None else 'none'}")
            else:
                out.append(f"{name}: {self._shown(old)} -> {self._shown(new)}")
        return out

    def _value_name(self, label: str, pid: int | None) -> str:
        """`character[0]` -> "P1's character"; `closer` -> "the player who closed the round";
        a piece's own value by the piece's name as the log gives it ("Birch's held by")."""
        vocab, names = self.state.game.spec.vocab, self.state.game.player_names
        name, _, rest = label.partition("[")
        owner = rest.rstrip("]")
        if pid is not None:
            return f"{whose(copy_name(self.state.st, pid))} {vocab.label(name).removeprefix('the ')}"
        if owner.isdigit() and int(owner) < len(names):
            return f"{whose(names[int(owner)])} {vocab.label(name).removeprefix('the ')}"
        return vocab.label(name)

    def _shown(self, value: Any) -> str:
        st = self.state.st
        if value is None:
            return "none"
        if type(value) is int and 0 <= value < len(st.loc) and not self._public(st.loc[value]):
            return "a card nobody may see"
        return describe(st, value)

    def _public(self, zone: int) -> bool:
        """Every player may see what this place holds (a board item is always seen)."""
        lay = self.state.game.layout
        return zone < 0 or (zone > 0 and lay.zone_visibility[zone] == "public")

    def _moves(self) -> list[str]:
        st = self.state.st
        named: dict[tuple[int, int], list[str]] = {}  # (from, to) -> the pieces named, in piece order
        counted: dict[tuple[int, int], int] = {}
        for pid, (old, new) in enumerate(zip(self.loc, st.loc)):
            if old == new:
                continue
            if self._public(old) or self._public(new) or pid in st.revealed:
                named.setdefault((old, new), []).append(piece_name(st, pid))
            else:
                counted[(old, new)] = counted.get((old, new), 0) + 1
        out = [f"{', '.join(pieces)}: {self._place(old)} -> {self._place(new)}"
               for (old, new), pieces in named.items()]
        out += [f"{n} card{'s' if n > 1 else ''}: {self._place(old)} -> {self._place(new)}"
                for (old, new), n in counted.items()]
        return out

    def _place(self, zone: int) -> str:
        if zone < 0:
            return "the board"
        if zone == 0:
            return "out of the game"
        return zone_name(self.state.st, zone)
