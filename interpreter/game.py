"""A compiled game and its State API (OpenSpiel's shape): current decision, legal
actions, apply, clone, serialize/deserialize, scores/returns, a per-player view.

`Game` is built once per (ruleset, player count, options): layout + compiled code,
shared by every state. `GameState` is one play of it. `apply` is a transaction: a
refused or failing choice leaves the state exactly as it was.
"""

from __future__ import annotations

import enum
import hashlib
import json
from typing import Any, Callable, cast

from legacies.dsl import ast
from legacies.dsl.numbers import in_range, limit_words, size_words

from . import ending, rng
from .budget import Deadline
from .codegen.runtime import enabled_by_default
from .compiler import CompiledAction, Compiler
from .coverage import Coverage
from .decisions import Decision
from .display import ComputedPart
from .errors import CorruptSave, IllegalChoice, InternalError, Refused, TableError
from .graph import Graph
from .layout import Layout, build_layout
from .ledger import KEY as LEDGER_KEY
from .ledger import Ledger
from .map_view import ComputedMap
from .mechanics import describe, on_table, player_name
from .spec import GameSpec, Origin
from .vm import Activation, Block, BlockFrame, Frame, State

SAVE_FORMAT = "legacies-save/2"
MAX_NAME = 100  # characters of a player's name in a save
MAX_SAVE_CHARS = 4_000_000
"""A save longer than this is refused unread (a real game's save is a few kilobytes)."""


class Game:
    """Everything about a game that never changes while it is played."""

    def __init__(self, spec: GameSpec, players: int, options: dict[str, Any] | None = None,
                 names: list[str] | None = None, coverage: bool = False, ledger: bool = False,
                 codegen: bool | None = None):
        if type(players) is not int or not spec.min_players <= players <= spec.max_players:
            raise TableError(f"{spec.title} is for {spec.min_players}-{spec.max_players} players, not {players}")
        self.spec = spec
        self.step_budget = spec.limits.step_budget  # read at every run (State.run, budget.fresh)
        self.players = players
        self.options: dict[str, Any] = dict(spec.option_defaults)
        for k, v in (options or {}).items():
            if k not in self.options:
                raise TableError(f"unknown option `{k}`; options are: {', '.join(sorted(self.options)) or 'none'}")
            self.options[k] = _checked_option(spec, k, v)
        self.player_names = list(names) if names else [f"P{i + 1}" for i in range(players)]
        self.zone_names: dict[tuple[int, int, bool], str] = {}  # (zone, reader, article) -> its name (naming.zone_name)
        self.layout: Layout = build_layout(spec, players)
        self.piece_names = [spec.defs[d].name for d in self.layout.piece_def]
        # a payment's tables, built once: each piece's symbol and each definition's cost tally
        pay = spec.vocab.payment
        self.pay_symbol: list[Any] = ([spec.defs[d].attrs.get(pay.symbol) for d in self.layout.piece_def]
                                      if pay else [])
        self.pay_need: list[dict[Any, int]] = []
        for d in spec.defs:
            need: dict[Any, int] = {}
            cost: Any = (d.attrs.get(pay.cost) or []) if pay else []
            for s in cost:
                need[s] = need.get(s, 0) + 1
            self.pay_need.append(need)
        self.pay_plans: dict[int, Any] = {}  # a definition -> its ways to pay (mechanics.payment_plan), when first paid
        # branch coverage for balance reports (interpreter.coverage); off: no cost at all
        self.coverage: Coverage | None = Coverage() if coverage else None
        # where each change of the score came from (interpreter.ledger); off: no cost at all
        self.ledger: Ledger | None = (Ledger(self.layout.player_counter.get(spec.score_counter, -1), players)
                                      if ledger else None)
        # generated Python (interpreter/codegen.py) unless codegen is False or LEGACIES_CODEGEN=0:
        # then the closures only, the reference path
        c = Compiler(spec, self.layout, self.coverage, self.ledger, codegen)
        self.era_slot = c.era_slot
        self.actions: dict[str, CompiledAction] = {n: c.compile_action(a) for n, a in spec.actions.items()}
        self._named: dict[tuple[str, ...], tuple[CompiledAction, ...]] = {}  # names -> actions (`actions_named`)
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
        for name, decl, origin in spec.rule_triggers:  # a rules file's triggers: run by nobody, for no piece
            c.origin = origin
            cond = c.expr(decl.condition) if decl.condition is not None else None
            self.triggers.setdefault(decl.event.name, []).append(
                (f"rule {name}", -1, cond, c.block(decl.body, f"trigger `{name}`"), decl.once))
        self.setup = c.program(spec.setup, spec.setup_origin or Origin("setup"))
        self.main = c.program(spec.game, spec.game_origin or Origin("the game procedure"))
        self.score_base = self.layout.player_counter.get(spec.score_counter, -1)
        # a score that is a definition (no parameters), read as each player; None: a counter
        self.score_value: Callable[[Activation], Any] | None = None
        if spec.score_definition is not None:
            c.origin = Origin(f"the score (definition `{spec.score_definition}`)")
            self.score_value = c.call_definition(spec.score_definition, [], ast.Name(spec.score_definition))
        # players the rules run: their decisions never wait for an answer (State.run)
        self.automated = self.layout.player_counter.get(spec.automated, -1) if spec.automated else -1
        conditions = {}
        for name, (test, where) in spec.link_conditions.items():
            c.origin = where
            conditions[name] = c.expr(test)
        self.graph = Graph(spec, self.layout, conditions)  # places and their links (interpreter/graph.py)
        c.origin = Origin("tie-breaks")
        self.tie_breaks = [c.expr(e) for e in spec.tie_breaks]
        c.origin = Origin("the evaluation")
        self.evaluation = c.expr(spec.evaluation) if spec.evaluation is not None else None
        self.display_parts = [ComputedPart(c, part) for part in spec.display_parts]  # interpreter/display.py
        self.map = ComputedMap(c, spec.map) if spec.map is not None else None  # interpreter/map_view.py
        c.finish()
        self.compiler = c  # keeps the attribute columns for effects compiled later (tests, `legacies try`)
        # the zones each player cannot see and each piece's kind, worked out at the first
        # determinization (interpreter/information.py)
        self.unseen: tuple[list[list[int]], list[str]] | None = None

    def replay(self, seed: int, decisions: list[int]) -> "GameState":
        """The state after `decisions` (option indices) from a new game with `seed`; a
        decision the rules refuse raises Refused naming its number (no undo backups: a
        state that fails to replay is dropped whole)."""
        state = self.new_state(seed)
        for number, index in enumerate(decisions, 1):
            try:
                state.apply(index, undo=Undo.NONE)
            except Refused as err:
                raise Refused(f"decision {number}: {err}") from None
        return state

    def actions_named(self, names: tuple[str, ...]) -> tuple[CompiledAction, ...]:
        """The compiled actions of a menu, an offer or `possible(...)`, by name, looked up
        once (the compiled code that names them is made before the actions are)."""
        found = self._named.get(names)
        if found is None:
            found = self._named[names] = tuple(self.actions[n] for n in names)
        return found

    def new_state(self, seed: int = 0, deadline: Deadline | None = None) -> "GameState":
        """A game set up with `seed` (its setup run to the first decision); with a
        `deadline` (interpreter/budget.py), every run of the state and of its copies stops
        there with DeadlinePassed: for the checks that run content."""
        st = State(self)
        st.deadline = deadline
        lay = self.layout
        st.counters = list(lay.counter_start)
        st.values = list(lay.value_start)
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


_GAMES: dict[tuple, Game] = {}
MAX_CACHED_GAMES = 8


def cached_game(spec: GameSpec, players: int, options: dict[str, Any] | None = None,
                names: list[str] | None = None) -> Game:
    """The Game for these settings, compiled once per process (a Game never changes
    while it is played, so every state of it may share it): resuming a save, or a tool
    that plays many games of one table, does not compile the ruleset again."""
    try:
        key = (id(spec), spec.content_hash, players, tuple(sorted((options or {}).items())), tuple(names or ()),
               enabled_by_default())
    except TypeError:  # an option value that cannot be a key: a table error, said by Game itself
        return Game(spec, players, options, names)
    game = _GAMES.pop(key, None)
    if game is None or game.spec is not spec:
        game = Game(spec, players, options, names)
        if len(_GAMES) >= MAX_CACHED_GAMES:
            _GAMES.pop(next(iter(_GAMES)))  # the least recently used
    _GAMES[key] = game  # last: the most recently used
    return game


def _checked_option(spec: GameSpec, name: str, value: Any) -> Any:
    kind, lo, hi = spec.option_rules.get(name, ("amount" if type(spec.option_defaults[name]) is int else "flag",
                                                None, None))
    if kind == "flag":
        if type(value) is not bool:
            raise TableError(f"option `{name}` is yes/no, not {value!r}")
        return value
    if type(value) is not int:
        raise TableError(f"option `{name}` is a number, not {value!r}")
    if not in_range(value):
        raise TableError(f"option `{name}`: {size_words(value)} is too large ({limit_words()})")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise TableError(f"option `{name}` must be between {lo if lo is not None else '-'} and "
                        f"{hi if hi is not None else '-'}, not {value}")
    return value


CHECKPOINT_EVERY = 32
"""With `apply(undo=Undo.REPLAY)`, a copy of the state is kept every this many decisions."""


class Undo(enum.Enum):
    """How `GameState.apply` undoes a refused or failing choice (see there)."""

    COPY = "copy"  # a copy of the state before every decision
    REPLAY = "replay"  # a copy every CHECKPOINT_EVERY decisions, the decisions since replayed
    NONE = "none"  # no backup: for throwaway copies whose state may be dropped


class GameState:
    """One play of a Game. Methods mirror OpenSpiel's State."""

    __slots__ = ("st", "_checkpoint")

    def __init__(self, st: State):
        self.st = st
        self._checkpoint: State | None = None

    @property
    def game(self) -> Game:
        return cast(Game, self.st.game)  # a GameState is made by Game.new_state: its state's game is a Game

    # ------------------------------------------------------------------ decisions
    @property
    def decision(self) -> Decision | None:
        return self.st.decision()

    def current_player(self) -> int:
        return self.st.pending.player if self.st.pending is not None else -1

    def is_terminal(self) -> bool:
        return self.st.pending is None

    def legal_actions(self) -> list[int]:
        d = self.st.pending
        return list(range(d.count)) if d is not None else []

    def apply(self, index: int, *, undo: Undo = Undo.COPY) -> None:
        """Answer the pending decision with option `index`. A choice the rules refuse
        raises Refused; a bug raises InternalError; either way the state is left
        exactly as it was.

        How that is paid for: `Undo.COPY` copies the state before every decision.
        `Undo.REPLAY` gives the same guarantee for a state that changes through
        `apply` alone (bots, soak runs, simulations): a copy every CHECKPOINT_EVERY
        decisions, and a refused or failing choice is undone by replaying the decisions
        made since that copy (a game is deterministic). A change made to such a state
        directly, outside `apply`, would be lost by that replay: tests and tools that
        set a state up by hand use `Undo.COPY`. `Undo.NONE` skips the backup: for
        throwaway copies (search playouts) whose state may be dropped."""
        st = self.st
        d = st.pending
        if d is None:
            raise IllegalChoice("the game is over: there is nothing to decide")
        count = d.count  # answered by index: no option need be made
        if type(index) is not int or not 0 <= index < count:
            raise IllegalChoice(f"option {index} is not one of the {count} legal options")
        if not isinstance(undo, Undo):
            raise TypeError(f"undo is an Undo (COPY, REPLAY or NONE), not {undo!r}")
        if undo is Undo.NONE:
            st.pending = None
            st.history.append(index)
            st.answer(d.value(index))
            return
        if undo is Undo.REPLAY:
            made = len(st.history)
            checkpoint = self._checkpoint
            if checkpoint is None or made - len(checkpoint.history) >= CHECKPOINT_EVERY \
                    or made < len(checkpoint.history):
                if checkpoint is not None:
                    checkpoint.discard()
                checkpoint = self._checkpoint = st.clone()
            try:
                st.pending = None
                st.history.append(index)
                st.answer(d.value(index))
            except BaseException:
                self._rewind(checkpoint, made)
                st.pending = d  # the same question as the replay's, and the one its caller holds
                raise
            return
        backup = st.clone()
        try:
            st.pending = None
            st.history.append(index)
            st.answer(d.value(index))
        except BaseException:  # a refusal, a bug or an interrupt: nothing half-applied is left behind
            st.restore(backup)
            raise
        backup.discard()

    def _rewind(self, checkpoint: State, made: int) -> None:
        """Become the state after the first `made` decisions again: a copy of the
        checkpoint with the decisions since replayed."""
        since = self.st.history[len(checkpoint.history):made]
        if self.st.history[:len(checkpoint.history)] != checkpoint.history.tolist():
            raise InternalError("undo by replay: the state's history no longer starts with its checkpoint's")
        replay = checkpoint.clone()
        for number, index in enumerate(since, len(checkpoint.history) + 1):
            d = replay.pending
            if d is None or not 0 <= index < d.count:
                raise InternalError(f"undo by replay: decision {number} cannot be replayed")
            replay.pending = None
            replay.history.append(index)
            replay.answer(d.value(index))
        self.st.restore(replay)

    def take_back(self, to: int, player: int) -> None:
        """Become the state after the first `to` decisions again (a player's undo), by
        replaying them from the start. Refused, nothing changed, when a piece has since
        left a zone `player` cannot see (drawn by them or by another player): undoing
        would let them choose again knowing it."""
        history = self.st.history.tolist()
        if not 0 <= to < len(history):
            raise Refused("there is no earlier decision to go back to")
        try:
            earlier = self.game.replay(int(self.st.flags.get("seed", 0)), history[:to])
        except Refused as err:  # this game's own decisions: a replay that refuses one is a bug
            raise InternalError(f"undo: the game does not replay ({err})") from None
        lay = self.game.layout
        for z in range(len(lay.zone_visibility)):
            if not lay.visible_to(z, player) and set(earlier.st.zones[z]) - set(self.st.zones[z]):
                where = self.game.spec.vocab.label(lay.zone_name[z])
                raise Refused(f"a card has left the {where} since then, unseen by you: undo stops at a hidden draw")
        self.st.restore(earlier.st)
        self._checkpoint = None

    def apply_label(self, label: str) -> None:
        d = self.st.pending
        labels = d.labels() if d else []
        if label not in labels:
            raise IllegalChoice(f"{label!r} is not a legal option")
        self.apply(labels.index(label))

    def clone(self) -> "GameState":
        return GameState(self.st.clone())

    def discard(self) -> None:
        """This copy is not used again: freed at once (State.discard)."""
        self.st.discard()
        if self._checkpoint is not None:
            self._checkpoint.discard()
            self._checkpoint = None

    # ------------------------------------------------------------------ results
    def scores(self) -> list[int]:
        return [self.score(p) for p in range(self.game.players)]

    def score(self, player: int) -> int:
        """A player's score: their score counter, or the ruleset's score definition read as them."""
        value = self.game.score_value
        if value is not None:
            with self.st.frozen():  # only reading: a definition used twice is computed once
                return int(value(Activation(self.st, player)))
        base = self.game.score_base
        return self.st.counters[base + player] if base >= 0 else 0

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others (OpenSpiel's returns) once the game is over."""
        if not self.is_terminal():
            return [0.0] * self.game.players
        w = self.winner()
        return [1.0 if p == w else 0.0 for p in range(self.game.players)]

    def ranking(self) -> list[int]:
        """Players best first: the winner the rules named when they ended the game (`end the
        game with P as the winner`), then by score, the ruleset's tie-breaks and turn order."""
        ranked = sorted(range(self.game.players), key=self.rank_key)
        named = ending.named_winner(self.st)
        if named != ending.NOT_NAMED:
            ranked.remove(named)
            ranked.insert(0, named)
        return ranked

    def rank_key(self, player: int) -> tuple[int, ...]:
        """What ranks a player by the score, lower first: minus the score, minus each
        tie-break, then their place in turn order (a winner named by the rules comes first
        whatever their key: see `ranking`)."""
        act = Activation(self.st, player)
        return (-self.score(player), *(-int(f(act)) for f in self.game.tie_breaks), self.st.turn_order.index(player))

    def winner(self) -> int:
        return self.ranking()[0]

    def end_reason(self) -> str | None:
        """Why the rules ended the game (`end the game ... because "TEXT"`), if they said."""
        return ending.reason(self.st)

    def winner_named(self) -> bool:
        """Whether the rules named the winner when they ended the game."""
        return ending.named_winner(self.st) != ending.NOT_NAMED

    def evaluate(self, player: int) -> float:
        """How well `player` stands by the ruleset's `evaluation` (higher is better; the
        score when the ruleset declares none): what bots steer by. Read-only."""
        if self.game.evaluation is None:
            return float(self.scores()[player])
        with self.st.frozen():
            return float(self.game.evaluation(Activation(self.st, player)))

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
            "pending": None if (d := st.decision()) is None else [d.player, d.prompt, d.labels()],
            "frames": [_frame_data(f) for f in st.frames],
            # how the rules ended the game, only when they did (older fingerprints stay valid)
            **({"ending": list(st.ending)} if st.ending is not None else {}),
            # what a mechanism keeps for the rest of a turn (a response window's passes),
            # only when there is some (older fingerprints stay valid)
            **({"flags": flags} if (flags := _game_flags(st)) else {}),
        }

    def fingerprint(self) -> str:
        text = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"), default=_plain)
        return hashlib.sha256(text.encode()).hexdigest()

    def serialize(self, failure: tuple[int | None, str] | None = None, seats: list[str] | None = None) -> str:
        """A save: the ruleset and a hash of its rules and content, the seed, the options
        and every decision, plus a fingerprint that the load checks (OpenSpiel serializes
        the history too). `failure` records why a game stopped (a soak failure, an
        internal error): the option that failed at the pending decision, if one did, and
        the message; `legacies replay --verify` tries that option again."""
        g = self.game
        data: dict[str, Any] = {
            "format": SAVE_FORMAT, "ruleset": g.spec.name, "content": g.spec.content_hash, "players": g.players,
            "names": g.player_names, "options": g.options, "seed": self.st.flags.get("seed", 0),
            "decisions": self.st.history.tolist(), "fingerprint": self.fingerprint(),
        }
        if g.spec.expansions:  # laid over the ruleset, in order: `replay` and `resume` lay them again
            data["expansions"] = [{"name": n, "content": h} for n, h in g.spec.expansions]
        if failure is not None:
            data["failure"] = {"choice": failure[0], "message": failure[1]}
        if seats is not None:  # who sat where (human, random...): `legacies resume` seats them again
            data["seats"] = list(seats)
        return json.dumps(data, sort_keys=True)

    @staticmethod
    def deserialize(spec: GameSpec, text: str | bytes) -> "GameState":
        """Rebuild a saved game exactly, or refuse it whole (CorruptSave): the text is read
        and every field checked before anything is built, the save must be for this
        ruleset and this version of its rules and content, and the decisions must replay
        to the recorded fingerprint."""
        data, game = open_save(spec, text)
        try:
            state = game.replay(data["seed"], data["decisions"])
        except Refused as err:
            raise CorruptSave(f"the save does not replay: {err}") from None
        if state.fingerprint() != data["fingerprint"]:
            raise CorruptSave("the save replays to a different game (an edited file, or another version of legacies)")
        return state

    # ------------------------------------------------------------------ views
    def view(self, player: int) -> dict[str, Any]:
        """What `player` may see: hidden zones show only how many pieces they hold."""
        st = self.st
        g = self.game
        lay = g.layout
        zones: dict[str, Any] = {}
        for z, name in enumerate(lay.zone_name):
            if z == 0:
                continue
            owner = lay.zone_owner[z]
            label = name if owner < 0 else f"{name}[{player_name(st, owner)}]"
            pieces = st.zones[z]
            if lay.visible_to(z, player):
                zones[label] = [describe(st, p) for p in pieces]
            else:
                zones[label] = {"hidden": len(pieces), "revealed": [describe(st, p) for p in pieces if p in st.revealed]}
        counters = {lay.counter_label[i]: v for i, v in enumerate(st.counters)}
        if lay.per_copy:  # a card's own counters show while it is on the table (off it they are as they started)
            for pid, (slots, _) in lay.piece_slots.items():
                if not on_table(st, pid):
                    for slot in slots:
                        del counters[lay.counter_label[slot]]
        pending = None
        d = st.decision()
        if d is not None:
            pending = {"player": d.player, "prompt": d.prompt}
            if d.player == player:
                pending["options"] = d.labels()
        return {"player": player, "active": st.active, "turn_order": list(st.turn_order), "counters": counters,
                "zones": zones, "decision": pending}



# flags that are not what the game is: the seed (a save holds it beside the decisions)
# and the score ledger's records (where each change of the score came from: output)
FLAGS_OUTSIDE_CANONICAL = frozenset({"seed", LEDGER_KEY})


def _game_flags(st: State) -> dict[str, Any]:
    return {k: _plain(v) for k, v in sorted(st.flags.items()) if k not in FLAGS_OUTSIDE_CANONICAL}

def _plain(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [_plain(y) for y in x]
    if isinstance(x, (int, str, bool)) or x is None:
        return x if not isinstance(x, int) or isinstance(x, bool) else int(x)
    return repr(x)


def _frame_data(f: Frame) -> list[Any]:
    data: list[Any] = [type(f).__name__]
    rules_only = getattr(type(f), "RULES_ONLY", ())  # slots the rules fill: no part of the game
    for cls in type(f).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if slot in rules_only:
                continue
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


# --------------------------------------------------------------------------- reading saves
_SAVE_FIELDS: dict[str, str] = {
    "format": "text", "ruleset": "text", "content": "text", "players": "number", "names": "names",
    "options": "options", "seed": "number", "decisions": "numbers", "fingerprint": "text",
}
_TYPE_WORDS = {dict: "an object", list: "a list", str: "text", bool: "true/false", int: "a number",
               float: "a decimal number", type(None): "null"}


def open_save(spec: GameSpec, text: str | bytes) -> tuple[dict[str, Any], Game]:
    """A save's fields and its Game (not yet replayed), once the save is found to be for
    this ruleset and this version of its rules and content; else CorruptSave."""
    data = read_save(text)
    if data["ruleset"] != spec.name:
        raise CorruptSave(f"this save is for ruleset `{_excerpt(data['ruleset'])}`, not `{spec.name}`")
    played = [x["name"] for x in data.get("expansions", [])]
    laid = [name for name, _ in spec.expansions]
    if played != laid:
        raise CorruptSave(f"this game was played with {_expansions_words(played)}, and it is loaded with "
                          f"{_expansions_words(laid)}" + (f": give --expansion {' --expansion '.join(played)}"
                                                           if played else ""))
    for x, (name, digest) in zip(data.get("expansions", []), spec.expansions):
        if x["content"] != digest:
            raise CorruptSave(f"the expansion `{_excerpt(name)}` changed since this game was saved")
    if data["content"] != spec.content_hash:
        raise CorruptSave(f"the rules and content of `{spec.name}` are not the ones this game was played with: "
                          "they changed since it was saved, or the save was edited (its `ruleset`, or its "
                          "`content`)")
    try:
        return data, cached_game(spec, data["players"], data["options"], data["names"])
    except TableError as err:
        raise CorruptSave(f"the save does not fit the ruleset: {err}") from None


def _expansions_words(names: list[str]) -> str:
    if not names:
        return "no expansion"
    return ("the expansion" + ("s " if len(names) > 1 else " ")
            + ", ".join(f"`{_excerpt(n)}`" for n in names))


def read_save(text: str | bytes) -> dict[str, Any]:
    """The fields of a save, each of the right type, or CorruptSave saying what is wrong
    in words (never a Python message). Nothing is built here."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise CorruptSave("not a save file: it is not UTF-8 text") from None
    if not isinstance(text, str):
        raise CorruptSave("not a save file: expected text")
    if len(text) > MAX_SAVE_CHARS:
        raise CorruptSave(f"not a save file: {len(text):,} characters (a save is at most {MAX_SAVE_CHARS:,})")
    try:
        data = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_no_twice)
    except _KeyTwice as err:
        raise CorruptSave(f"not a save file: the key `{_excerpt(str(err))}` is written twice in one object") from None
    except RecursionError:
        raise CorruptSave("not a save file: the JSON is nested too deeply") from None
    except json.JSONDecodeError as err:
        raise CorruptSave(f"not a save file: the JSON breaks at line {err.lineno}, column {err.colno} "
                          f"({err.msg[:1].lower() + err.msg[1:]})") from None
    except ValueError:  # an integer with thousands of digits
        raise CorruptSave("not a save file: a number in it is too long") from None
    if not isinstance(data, dict):
        raise CorruptSave(f"not a save file: expected a JSON object, found {_type_word(data)}")
    fmt = data.get("format")
    if fmt != SAVE_FORMAT:
        if isinstance(fmt, str) and fmt.startswith("legacies-save/"):
            raise CorruptSave(f"this save is in format `{_excerpt(fmt)}`; this version of legacies reads "
                              f"`{SAVE_FORMAT}`")
        raise CorruptSave(f"not a {SAVE_FORMAT} save file (its `format` is {_shown(fmt)})")
    for key in data:
        if key not in _SAVE_FIELDS and key not in ("failure", "seats", "expansions"):
            raise CorruptSave(f"not a {SAVE_FORMAT} save file: unknown field `{_excerpt(str(key))}`")
    for key, kind in _SAVE_FIELDS.items():
        if key not in data:
            raise CorruptSave(f"the save has no `{key}`")
        problem = _field_problem(kind, data[key])
        if problem:
            raise CorruptSave(f"the save's `{key}` {problem}")
    if data["players"] < 1:
        raise CorruptSave(f"the save's `players` must be at least 1, not {data['players']}")
    if len(data["names"]) != data["players"]:
        named = len(data["names"])
        raise CorruptSave(f"the save names {named} player{'' if named == 1 else 's'} for a {data['players']}-player game")
    failure = data.get("failure")
    if failure is not None and not (isinstance(failure, dict) and set(failure) == {"choice", "message"}
                                    and (failure["choice"] is None or type(failure["choice"]) is int)
                                    and isinstance(failure["message"], str)):
        raise CorruptSave("the save's `failure` must be {\"choice\": a number or null, \"message\": text}")
    seats = data.get("seats")
    if seats is not None and not (isinstance(seats, list) and len(seats) == data["players"]
                                  and all(isinstance(x, str) and 0 < len(x) <= 40 and _printable(x) for x in seats)):
        raise CorruptSave("the save's `seats` must list one seat kind (text) per player")
    expansions = data.get("expansions")
    if expansions is not None and not (isinstance(expansions, list) and len(expansions) <= 64 and all(
            isinstance(x, dict) and set(x) == {"name", "content"} and isinstance(x["name"], str)
            and 0 < len(x["name"]) <= 64 and _printable(x["name"]) and isinstance(x["content"], str)
            for x in expansions)):
        raise CorruptSave("the save's `expansions` must list {\"name\": text, \"content\": text} per expansion")
    return data


class _KeyTwice(ValueError):
    """A JSON object of a save with a key written twice (which one stood would be a guess)."""


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        raise _KeyTwice(next(k for k, _ in pairs if k in seen or seen.add(k)))  # type: ignore[func-returns-value]
    return found


def _printable(text: str) -> bool:
    """Whether a save's name can be shown as it is: no control, invisible or
    direction-changing character, no lone surrogate (a terminal would act on them)."""
    return text.isprintable()


def _field_problem(kind: str, value: Any) -> str | None:
    if kind == "text":
        return None if isinstance(value, str) else f"must be text, not {_type_word(value)}"
    if kind == "number":
        return None if type(value) is int else f"must be a whole number, not {_type_word(value)}"
    if kind == "names":
        if not isinstance(value, list):
            return f"must be a list of player names, not {_type_word(value)}"
        odd = next((n for n in value if not isinstance(n, str) or not n), None)
        if odd is not None or not all(isinstance(n, str) and n for n in value):
            return ("must be a list of player names, not a list holding "
                    + ("an empty name" if odd == "" else _type_word(odd)))
        if any(len(n) > MAX_NAME for n in value):
            return f"holds a name longer than {MAX_NAME} characters"
        if not all(_printable(n) for n in value):
            return "holds a name with a character that cannot be shown (a control character, an invisible one)"
        return None
    if kind == "options":
        if not isinstance(value, dict) or not all(type(v) in (int, bool) for v in value.values()):
            return f"must map option names to numbers or true/false, not {_type_word(value)}"
        return None
    if not isinstance(value, list) or not all(type(i) is int for i in value):
        return f"must be a list of option numbers, not {_type_word(value)}"
    return None


def _type_word(value: Any) -> str:
    if isinstance(value, list) and value and not all(type(i) is int for i in value):
        odd = next(v for v in value if type(v) is not int)
        return f"a list holding {_type_word(odd)}"
    return _TYPE_WORDS.get(type(value), type(value).__name__)


def _shown(value: Any) -> str:
    return f"`{_excerpt(value)}`" if isinstance(value, str) else _type_word(value)


def _excerpt(text: str, limit: int = 60) -> str:
    """At most `limit` characters of a value read from a file, for a message."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text):,} characters)"
