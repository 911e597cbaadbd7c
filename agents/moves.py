"""What a move changed, in sentences every player at the table may read: the lines the
match log prints under each decision ("P1 gains 10 gold and loses 1 ore; P2 gains 5
gold", "Harbour's level on the investment track went up from 3 to 4", "P2 is now the
first player", "P1's relationship token goes from P1's tokens on the supply to The
Lighthouse's track, space 1"), never a diff of the state.

`MoveEffects` keeps the few plain lists a move can change (counters, value slots and
where each piece is) and compares them after each decision: players' counters as
gains and losses grouped by player (a counter with a ceiling, a place or a count, as
"went up from 3 to 4"; one of the game's named by a word that rises by one "moves on to
4"), the pieces' own
counters the same way (a 0/1 counter in its words: "Open Market is face down"; a
player's yes-or-no going back to no is the new round's fresh start and is not said),
value slots (who or what is now what), and pieces that moved. A piece is named only
when every player may see it at one end of its move, with its copy number only when
another copy is in sight; moves nobody may follow are counted ("2 cards go from the
age I deck to P2's hand"). Nothing is read that the state does not show to everyone,
and nothing in the state changes."""

from __future__ import annotations

from typing import Any

from legacies.dsl.english import counted
from legacies.dsl.wording import Wording
from legacies.interpreter.game import GameState
from legacies.interpreter.mechanics import describe
from legacies.interpreter.values import DefRef
from legacies.interpreter.naming import copy_name, whose, zone_name

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
        gains: dict[int, tuple[list[str], list[str]]] = {}  # each player's gains and losses
        others = []
        for slot, (old, new) in enumerate(zip(self.counters, st.counters)):
            if old == new or self.quiet[slot]:
                continue
            player, pid, name = self.slots[slot]
            if player >= 0 and name in self.texts and new in (0, 1):  # a yes or no of a player's, in its words
                if new:  # back to no is a new round's fresh start: nothing happened
                    others.append(self.texts[name][0].format(names[player]))
                continue
            if player >= 0 and name in self.bounded:
                others.append(_went(f"{whose(names[player])} {vocab.label(name)}", old, new))
                continue
            if player >= 0:
                amount = f"{abs(new - old)} {counted(vocab.label(name), abs(new - old), self.nouns)}"
                gains.setdefault(player, ([], []))[0 if new > old else 1].append(amount)
                continue
            subject = self._copy(pid) if pid >= 0 else ""
            if name in self.texts and new in (0, 1):
                others.append(self.texts[name][0 if new else 1].format(subject or vocab.label(name)))
            elif subject:
                others.append(_went(f"{whose(subject)} {self._label(pid, name)}", old, new))
            else:  # the game's own: one named by a word (the round, the turn) moves on; a count goes up
                label = _the(vocab.label(name))
                step = new == old + 1 and " " not in vocab.label(name).strip()
                others.append(f"{label} moves on to {new}" if step else _went(label, old, new))
        players = "; ".join(f"{names[p]} {_gains(won, lost)}" for p, (won, lost) in sorted(gains.items()))
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
            owner, label = self._value_name(lay.value_name[slot], pid)
            if slot in self.player_values:  # a player, or nobody (-1: never set)
                was = st.player_name(old) if old is not None and old >= 0 else None
                now = st.player_name(new) if new is not None and new >= 0 else None
            else:
                was = self._shown(old) if old is not None else None
                now = self._shown(new) if new is not None else None
            out.append(_said(owner, label, was, now, slot in self.player_values or _named(new if now else old)))
        return out

    def _value_name(self, label: str, pid: int | None) -> tuple[str, str]:
        """Whose slot it is and its label: `character[0]` -> ("P1", "character"); `closer`
        -> ("", "the player who closed the round"); a piece's own value by the piece's
        name as the log gives it (("Birch", "held by"))."""
        vocab, names = self.state.game.spec.vocab, self.state.game.player_names
        name, _, rest = label.partition("[")
        owner = rest.rstrip("]")
        if pid is not None:
            return self._copy(pid), vocab.label(name).removeprefix("the ")
        if owner.isdigit() and int(owner) < len(names):
            return names[int(owner)], vocab.label(name).removeprefix("the ")
        return "", vocab.label(name)

    def _shown(self, value: Any) -> str:
        st = self.state.st
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if type(value) is int and 0 <= value < len(st.loc):
            return self._copy(value) if self._public(st.loc[value]) else "a card nobody may see"
        return describe(st, value)

    def _copy(self, pid: int) -> str:
        """A piece by name, with its copy number ("Crate #2") only when the copies keep state
        of their own and another is where every player sees it: the number tells the two
        apart; alone, or for copies nothing tells apart, it is noise."""
        st, lay = self.state.st, self.state.game.layout
        if not (0 <= pid < len(lay.keeps) and lay.keeps[pid]):
            return describe(st, pid)
        copies = lay.def_pieces[lay.piece_def[pid]]
        if any(other != pid and self._public(st.loc[other]) for other in copies):
            return copy_name(st, pid)
        return describe(st, pid)

    def _public(self, zone: int) -> bool:
        """Every player may see what this place holds (a board item is always seen)."""
        lay = self.state.game.layout
        return zone < 0 or (zone > 0 and lay.zone_visibility[zone] == "public")

    def _moves(self) -> list[str]:
        st = self.state.st
        lay = self.state.game.layout
        named: dict[tuple[int, int], list[str]] = {}  # (from, to) -> the pieces named, in piece order
        counted: dict[tuple[int, int], int] = {}
        for pid, (old, new) in enumerate(zip(self.loc, st.loc)):
            if old == new:
                continue
            if self._public(old) or self._public(new) or pid in st.revealed:
                owner = lay.piece_owner[pid]
                name = self._copy(pid) if owner < 0 else f"{whose(st.player_name(owner))} {describe(st, pid)}"
                named.setdefault((old, new), []).append(name)
            else:
                counted[(old, new)] = counted.get((old, new), 0) + 1
        out = []
        for (old, new), pieces in named.items():
            alike: dict[str, int] = {}
            for name in pieces:
                alike[name] = alike.get(name, 0) + 1
            said = _listed([name if n == 1 else f"{name} (x{n})" for name, n in alike.items()])
            out.append(self._moved(said, len(pieces) > 1, old, new))
        out += [self._moved("a card" if n == 1 else f"{n} cards", n > 1, old, new) for (old, new), n in counted.items()]
        return out

    def _moved(self, what: str, many: bool, old: int, new: int) -> str:
        """"Crate goes from P1's hand onto Harbour", "2 cards go from the deck to P2's hand"."""
        if new == 0:
            return f"{what} {'are' if many else 'is'} removed from the game ({self._place(old)})"
        if old == 0:
            return f"{what} {'come' if many else 'comes'} into the game: {self._place(new)}"
        onto = "onto" if new in self.state.game.layout.zone_holder else "to"
        return f"{what} {'go' if many else 'goes'} from {self._place(old)} {onto} {self._place(new)}"

    def _place(self, zone: int) -> str:
        if zone < 0:
            return "the board"
        if zone == 0:
            return "out of the game"
        holder = self.state.game.layout.zone_holder.get(zone)
        if holder is not None:  # a piece that holds pieces: by its name, numbered as it is told apart
            return self._copy(holder)
        return zone_name(self.state.st, zone)


def _went(subject: str, old: int, new: int) -> str:
    """A count or a place, as a player says it changed: "P1's actions left went down from 3 to 2"
    (the past tense reads right whatever the counter's noun: "points", "gold")."""
    return f"{subject} went {'up' if new > old else 'down'} from {old} to {new}"


def _the(label: str) -> str:
    """A role or a counter of the game with its article: "the first player", "the round"; a
    label that is a name already ("P1's character", "the first player") stays as it is."""
    if label.startswith(("the ", "a ", "an ")) or "'s " in label or "' " in label or label[:1].isupper():
        return label
    return f"the {label}"


def _named(value: Any) -> bool:
    """A piece or an item (a name says it), not a number, a symbol or yes or no."""
    return type(value) is int or isinstance(value, DefRef)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _gains(won: list[str], lost: list[str]) -> str:
    """ "gains 10 gold and 2 wood, and loses 1 ore" """
    said = ([f"gains {_listed(won)}"] if won else []) + ([f"loses {_listed(lost)}"] if lost else [])
    return ", and ".join(said) if won and lost and len(won) > 1 else " and ".join(said)


def _said(owner: str, label: str, was: str | None, now: str | None, named: bool) -> str:
    """A value slot's change as a sentence: a player or a piece is now what the slot names
    ("P2 is now the first player", "Crate is now P1's pick"); a slot that reads as a
    relation says it of its owner ("Crate is now marked by P2"); a symbol or a number is
    what the slot now is ("P1's colour is now red")."""
    if label.endswith(" by") and owner:  # "held by", "marked by": the owner is, by the player
        return f"{owner} is now {label} {now}" if now is not None else f"{owner} is no longer {label} {was}"
    slot = _the(f"{whose(owner)} {label}" if owner else label)
    if now is None:
        return f"{was} is no longer {slot}" if named and was is not None else f"{slot} is no longer set"
    if named:
        return f"{now} is now {slot}"
    return f"{slot} is now {now}"
