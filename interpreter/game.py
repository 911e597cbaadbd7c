"""A compiled game and its State API (OpenSpiel's shape): current decision, legal
actions, apply, clone, serialize/deserialize, scores/returns, a per-player view.

`Game` is built once per (ruleset, player count, options): layout + compiled code,
shared by every state. `GameState` is one play of it. `apply` is a transaction: a
refused or failing choice leaves the state exactly as it was.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Callable

from legacies.dsl import ast

from . import rng
from .compiler import CompiledAction, Compiler
from .decisions import Decision
from .errors import CorruptSave, GameError, IllegalChoice, TableError
from .layout import Layout, build_layout
from .spec import GameSpec, Origin
from .vm import Activation, Block, BlockFrame, Frame, State

SAVE_FORMAT = "legacies-save/1"


class Game:
    """Everything about a game that never changes while it is played."""

    def __init__(self, spec: GameSpec, players: int, options: dict[str, Any] | None = None,
                 names: list[str] | None = None):
        if type(players) is not int or not spec.min_players <= players <= spec.max_players:
            raise TableError(f"{spec.title} is for {spec.min_players}-{spec.max_players} players, not {players}")
        self.spec = spec
        self.players = players
        self.options: dict[str, Any] = dict(spec.option_defaults)
        for k, v in (options or {}).items():
            if k not in self.options:
                raise TableError(f"unknown option `{k}`; options are: {', '.join(sorted(self.options)) or 'none'}")
            self.options[k] = _checked_option(spec, k, v)
        self.player_names = list(names) if names else [f"P{i + 1}" for i in range(players)]
        self.layout: Layout = build_layout(spec, players)
        self.piece_names = [spec.defs[d].name for d in self.layout.piece_def]
        c = Compiler(spec, self.layout)
        self.era_slot = c.era_slot
        self.actions: dict[str, CompiledAction] = {n: c.compile_action(a) for n, a in spec.actions.items()}
        self.procedures: dict[str, Block] = {}
        for name, proc in spec.procedures.items():
            self.procedures[name] = c.program(proc.body, proc.origin or Origin(f"procedure `{name}`"))
        self.effects: list[Block] = []
        self.requires: dict[int, Callable[[Activation], Any]] = {}
        # event -> (key, definition, condition, code, once per turn)
        self.triggers: dict[str, list[tuple[str, int, Any, Block, bool]]] = {}
        self.hooks_enter: dict[int, Block] = {}
        self.hooks_leave: dict[int, Block] = {}
        self.continuous: dict[str, list[tuple]] = {}
        for d_index, d in enumerate(spec.defs):
            what = f"{spec.vocab.label(d.kind)} `{d.id}` ({d.name})"
            origin = d.origins.get("effect")
            origin = Origin(what, origin.file, origin.line_offset, origin.column_offset) if origin else Origin(what)
            self.effects.append(c.program(d.effect, origin))
            if d.requires is not None:
                c.origin = d.origins.get("requires") or Origin(what)
                self.requires[d_index] = c.expr(d.requires)
            c.origin = origin
            for n, decl in enumerate(d.effect.declarations if d.effect else ()):
                if isinstance(decl, ast.Trigger):
                    cond = c.expr(decl.condition) if decl.condition is not None else None
                    label = f"trigger `when {decl.event.name}` of {what}"
                    self.triggers.setdefault(decl.event.name, []).append(
                        (f"{d.id}#{n}", d_index, cond, c.block(decl.body, label), decl.once))
                elif isinstance(decl, ast.Hook):
                    table = self.hooks_enter if decl.kind == "enters" else self.hooks_leave
                    code = c.block(decl.body, f"`when this {decl.kind} play` of {what}")
                    old = table.get(d_index)
                    table[d_index] = Block(tuple(old or ()) + tuple(code), tuple(old.wheres if old else ())
                                           + code.wheres, code.origin) if old else code
                elif isinstance(decl, ast.Continuous):
                    parts = c.modifier_parts(decl.modifier)
                    self.continuous.setdefault(parts[0], []).append((d_index,) + parts[1:])
        self.setup = c.program(spec.setup, spec.setup_origin or Origin("setup"))
        self.main = c.program(spec.game, spec.game_origin or Origin("the game procedure"))
        self.score_base = self.layout.player_counter.get(spec.score_counter, -1)
        c.origin = Origin("tie-breaks")
        self.tie_breaks = [c.expr(e) for e in spec.tie_breaks]
        self.compiler = c  # keeps the attribute columns for effects compiled later (tests, `legacies try`)

    def new_state(self, seed: int = 0) -> "GameState":
        st = State(self)
        lay = self.layout
        st.counters = list(lay.counter_start)
        st.values = [None] * lay.n_values
        st.zones = [[] for _ in lay.zone_name]
        st.loc = list(lay.piece_start)
        for pid, z in enumerate(lay.piece_start):
            if z >= 0:
                st.zones[z].append(pid)
        st.turn_order = list(range(self.players))
        st.rng = rng.seed_state(seed)
        st.flags["seed"] = seed
        # setup and the game are two activations: what one abandons the other still runs
        st.frames = [BlockFrame(self.main, Activation(st, -1)), BlockFrame(self.setup, Activation(st, -1))]
        st.run()
        return GameState(st)


def _checked_option(spec: GameSpec, name: str, value: Any) -> Any:
    kind, lo, hi = spec.option_rules.get(name, ("amount" if type(spec.option_defaults[name]) is int else "flag",
                                                None, None))
    if kind == "flag":
        if type(value) is not bool:
            raise TableError(f"option `{name}` is yes/no, not {value!r}")
        return value
    if type(value) is not int:
        raise TableError(f"option `{name}` is a number, not {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise TableError(f"option `{name}` must be between {lo if lo is not None else '-'} and "
                        f"{hi if hi is not None else '-'}, not {value}")
    return value


class GameState:
    """One play of a Game. Methods mirror OpenSpiel's State."""

    __slots__ = ("st",)

    def __init__(self, st: State):
        self.st = st

    @property
    def game(self) -> Game:
        return self.st.game

    # ------------------------------------------------------------------ decisions
    @property
    def decision(self) -> Decision | None:
        return self.st.pending

    def current_player(self) -> int:
        return self.st.pending.player if self.st.pending is not None else -1

    def is_terminal(self) -> bool:
        return self.st.pending is None

    def legal_actions(self) -> list[int]:
        d = self.st.pending
        return list(range(len(d.options))) if d is not None else []

    def apply(self, index: int, *, undo: bool = True) -> None:
        """Answer the pending decision with option `index`. A choice the rules refuse
        raises Refused; a bug raises InternalError; either way the state is left
        exactly as it was. `undo=False` skips the backup: for throwaway copies (search
        playouts) whose state may be dropped."""
        st = self.st
        d = st.pending
        if d is None:
            raise IllegalChoice("the game is over: there is nothing to decide")
        if type(index) is not int or not 0 <= index < len(d.options):
            raise IllegalChoice(f"option {index} is not one of the {len(d.options)} legal options")
        if not undo:
            st.pending = None
            st.history.append(index)
            st.answer(d.options[index].value)
            return
        backup = st.clone(share_logs=True)
        try:
            st.pending = None
            st.history.append(index)
            st.answer(d.options[index].value)
        except BaseException:  # a refusal, a bug or an interrupt: nothing half-applied is left behind
            st.restore(backup)
            raise

    def apply_label(self, label: str) -> None:
        d = self.st.pending
        labels = d.labels() if d else []
        if label not in labels:
            raise IllegalChoice(f"{label!r} is not a legal option")
        self.apply(labels.index(label))

    def clone(self) -> "GameState":
        return GameState(self.st.clone())

    # ------------------------------------------------------------------ results
    def scores(self) -> list[int]:
        base = self.game.score_base
        return [self.st.counters[base + p] if base >= 0 else 0 for p in range(self.game.players)]

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others (OpenSpiel's returns) once the game is over."""
        if not self.is_terminal():
            return [0.0] * self.game.players
        w = self.winner()
        return [1.0 if p == w else 0.0 for p in range(self.game.players)]

    def ranking(self) -> list[int]:
        """Players best first: score, then the ruleset's tie-breaks, then turn order."""
        st = self.st
        scores = self.scores()
        order = st.turn_order

        def key(p: int) -> tuple:
            act = Activation(st, p)
            return (-scores[p], *(-int(f(act)) for f in self.game.tie_breaks), order.index(p))
        return sorted(range(self.game.players), key=key)

    def winner(self) -> int:
        return self.ranking()[0]

    # ------------------------------------------------------------------ persistence
    def canonical(self) -> dict[str, Any]:
        """Everything that makes this state what it is, as plain JSON data."""
        st = self.st
        return {
            "counters": st.counters[:], "values": [_plain(v) for v in st.values], "fired": dict(st.fired),
            "zones": [z[:] for z in st.zones], "turn_order": st.turn_order[:],
            "active": st.active,
            "timed": [list(map(_plain, m)) for m in st.timed], "rng": st.rng, "history": st.history[:],
            "revealed": sorted(st.revealed), "turns": st.turns, "over": st.over,
            "pending": None if st.pending is None else [st.pending.player, st.pending.prompt, st.pending.labels()],
            "frames": [_frame_data(f) for f in st.frames],
        }

    def fingerprint(self) -> str:
        text = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"), default=_plain)
        return hashlib.sha256(text.encode()).hexdigest()

    def serialize(self) -> str:
        """A save: the ruleset, the seed, the options and every decision, plus a
        fingerprint that the load checks (OpenSpiel serializes the history too)."""
        g = self.game
        return json.dumps({
            "format": SAVE_FORMAT, "ruleset": g.spec.name, "players": g.players, "names": g.player_names,
            "options": g.options, "seed": self.st.flags.get("seed", 0), "decisions": self.st.history,
            "fingerprint": self.fingerprint(),
        }, sort_keys=True)

    @staticmethod
    def deserialize(spec: GameSpec, text: str) -> "GameState":
        """Rebuild a saved game exactly, or refuse it whole (CorruptSave)."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as err:
            raise CorruptSave(f"not a save file: {err}") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise CorruptSave(f"not a {SAVE_FORMAT} save file")
        if data.get("ruleset") != spec.name:
            raise CorruptSave(f"this save is for ruleset {data.get('ruleset')!r}, not {spec.name!r}")
        try:
            game = Game(spec, int(data["players"]), data.get("options") or {}, data.get("names"))
            state = game.new_state(int(data["seed"]))
            decisions = data["decisions"]
            if not isinstance(decisions, list) or any(type(i) is not int for i in decisions):
                raise CorruptSave("decisions must be a list of option numbers")
            for index in decisions:
                state.apply(index)
        except (KeyError, ValueError, TypeError, GameError) as err:
            raise CorruptSave(f"the save does not replay: {err}") from None
        if state.fingerprint() != data.get("fingerprint"):
            raise CorruptSave("the save replays to a different game (wrong content version or edited file)")
        return state

    # ------------------------------------------------------------------ views
    def view(self, player: int) -> dict[str, Any]:
        """What `player` may see: hidden zones show only how many pieces they hold."""
        st = self.st
        g = self.game
        lay = g.layout
        from .mechanics import describe, player_name
        zones: dict[str, Any] = {}
        for z, name in enumerate(lay.zone_name):
            if z == 0:
                continue
            owner = lay.zone_owner[z]
            label = name if owner < 0 else f"{name}[{player_name(st, owner)}]"
            vis = lay.zone_visibility[z]
            pieces = st.zones[z]
            if vis == "public" or (vis == "owner" and owner == player):
                zones[label] = [describe(st, p) for p in pieces]
            else:
                zones[label] = {"hidden": len(pieces), "revealed": [describe(st, p) for p in pieces if p in st.revealed]}
        counters = {lay.counter_label[i]: v for i, v in enumerate(st.counters)}
        pending = None
        if st.pending is not None:
            pending = {"player": st.pending.player, "prompt": st.pending.prompt}
            if st.pending.player == player:
                pending["options"] = st.pending.labels()
        return {"player": player, "active": st.active, "turn_order": list(st.turn_order), "counters": counters,
                "zones": zones, "decision": pending}


def _plain(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [_plain(y) for y in x]
    if isinstance(x, (int, str, bool)) or x is None:
        return x if not isinstance(x, int) or isinstance(x, bool) else int(x)
    return repr(x)


def _frame_data(f: Frame) -> list[Any]:
    data: list[Any] = [type(f).__name__]
    for cls in type(f).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if slot == "act":
                a = f.act
                data.append([a.me, a.this, sorted((k, _plain(v)) for k, v in a.env.items())])
                continue
            val = getattr(f, slot)
            if callable(val) or (isinstance(val, tuple) and val and callable(val[0])) \
                    or (isinstance(val, tuple) and val and isinstance(val[0], CompiledAction)):
                continue
            data.append(_plain(val))
    return data
