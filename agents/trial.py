"""Trying an item in a situation the designer chooses: the service behind `legacies try`.

A scenario is a small YAML file that states only what matters; the rest comes from a
seeded setup of the ruleset:

    players: 4            # default: the ruleset's smallest table of at least 3
    seed: 7               # default 0
    play: 6               # first take the first option of this many decisions (the
                          # game's setup: colours, sides...); default 0
    as: 2                 # the seat that plays the item (1-based; default 1)
    counters:             # per seat: counter -> value
      1: {gold: 50, points: 3}
    before: |             # effect-language lines run first, as the seat (set a stage)
      raise mill's space by 2

The item's effect runs as the seat, as if it were their turn (interpreter/sandbox.py):
its own `effect` statements, or one of its effect attributes (`effect="reward"`),
or any source the designer gives (`run="set_up(K2)"`). Its decisions are
answered in order from a list of option numbers, or asked of a function. The result is
a before/after difference of the state with names, not ids.

The rules run within TRIAL_SECONDS of wall-clock time (interpreter/budget.py's Deadline):
the setup, the decisions played, `before` and the item together; the time a person takes
to answer at the terminal does not count (the deadline starts again after each answer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from legacies.dsl import ast
from legacies.dsl.diagnostics import Diagnostic, DiagnosticError
from legacies.dsl.errors import LegaciesError
from legacies.dsl.grammar import keywords
from legacies.dsl.syntax_errors import close_word
from legacies.interpreter import mechanics as mech
from legacies.interpreter import sandbox
from legacies.interpreter.budget import Deadline
from legacies.interpreter.decisions import Decision
from legacies.interpreter.errors import InternalError, Refused, TableError
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.spec import GameSpec, Origin
from legacies.interpreter.vm import Activation
from legacies.pipeline.yaml_source import read_yaml_file

from .state_diff import differences, snapshot

Asker = Callable[[Decision], int]  # the 0-based option to take

TRIAL_SECONDS = 60.0
"""How long the rules may run for one trial (or scenario test)."""


class TrialError(LegaciesError):
    """The trial cannot run as asked; the message says what to change. `usage`: the ask
    itself is wrong (a bad scenario, an unknown item, effect or counter, an answer out of
    range), not what the rules or the content did with it."""

    def __init__(self, message: str, usage: bool = False, diagnostics: tuple[Diagnostic, ...] = (), part: str = ""):
        super().__init__(message)
        self.usage = usage
        # source that does not check: its diagnostics (at its own lines) and which part of
        # the ask it is ("before", "run"), for a scenario test to place them in its file
        self.diagnostics = diagnostics
        self.part = part


@dataclass
class Scenario:
    players: int | None = None
    seed: int = 0
    seat: int = 1
    play: int = 0
    counters: dict[int, dict[str, int]] = field(default_factory=dict)
    before: str = ""

    @staticmethod
    def read(path: Path) -> "Scenario":
        source, problems = read_yaml_file(path)
        if problems or source is None:
            raise TrialError("; ".join(f"{p.file}:{p.line}:{p.column}: {p.code} {p.message}" for p in problems)
                             or f"cannot read {path}", usage=True)
        data = source.data if source.data is not None else {}
        if not isinstance(data, dict):
            raise TrialError(f"{path}: a scenario is a mapping (players, seed, as, play, counters, before)", usage=True)
        return Scenario.from_data(data, str(path))

    @staticmethod
    def from_data(data: dict[str, Any], where: str) -> "Scenario":
        unknown = set(data) - {"players", "seed", "as", "play", "counters", "before"}
        if unknown:
            raise TrialError(usage=True, message=f"{where}: unknown key `{sorted(unknown)[0]}`; a scenario has players, seed, as, "
                             "play, counters and before")
        scenario = Scenario()
        for key, attr in (("players", "players"), ("seed", "seed"), ("as", "seat"), ("play", "play")):
            if key in data:
                if type(data[key]) is not int:
                    raise TrialError(f"{where}: `{key}` must be a whole number", usage=True)
                setattr(scenario, attr, data[key])
        counters = data.get("counters") or {}
        if not isinstance(counters, dict):
            raise TrialError(f"{where}: `counters` maps a seat number to {{counter: value}}", usage=True)
        for seat, values in counters.items():
            if isinstance(seat, str) and seat.isdigit():  # YAML mapping keys are read as text
                seat = int(seat)
            if type(seat) is not int or not isinstance(values, dict) \
                    or not all(isinstance(k, str) and type(v) is int for k, v in values.items()):
                raise TrialError(f"{where}: `counters` maps a seat number to {{counter: whole number}}", usage=True)
            scenario.counters[seat] = dict(values)
        before = data.get("before") or ""
        if not isinstance(before, str):
            raise TrialError(f"{where}: `before` is effect-language text", usage=True)
        scenario.before = before
        return scenario


@dataclass
class Trial:
    """What a try did: the decisions asked (prompt, options, the one taken) and the
    state's differences, as lines a person reads."""

    item: str
    seat: str
    asked: list[tuple[str, str, list[str], str]]  # who, prompt, options, the one taken
    changes: list[str]
    unused: int = 0  # answers given that no decision asked for
    state: GameState | None = field(default=None, repr=False)  # the state after
    me: int = 0
    turn_order: list[str] = field(default_factory=list)  # before the item ran
    log: list[str] = field(default_factory=list)  # the lines the item's run wrote to the game's log


def run_trial(spec: GameSpec, item_id: str, scenario: Scenario, *, effect: str | None = None,
              run: str | None = None, answers: list[int] | None = None, ask: Asker | None = None,
              seconds: float | None = None, what: str = "`legacies try`",
              make_game: Callable[[GameSpec, int], Game] = Game) -> Trial:
    """Set up the scenario, play the item's effect as the scenario's seat and return what
    changed. `answers` (0-based option numbers) are used first, then `ask`. The rules run
    within `seconds` (TRIAL_SECONDS unless given; `what` names the deadline where it
    stops them). `make_game` makes the Game played (a run of tests shares one per player count)."""
    seconds = TRIAL_SECONDS if seconds is None else seconds
    if item_id not in spec.vocab.content:
        raise TrialError(f"no item `{item_id}` in ruleset `{spec.name}`", usage=True)
    players = scenario.players if scenario.players is not None else max(spec.min_players, min(3, spec.max_players))
    if not spec.min_players <= players <= spec.max_players:  # 0 was read as "the default" and played
        raise TrialError(f"{spec.title} is played by {spec.min_players} to {spec.max_players} players, not {players}",
                         usage=True)
    try:
        game = make_game(spec, players)
    except TableError as err:
        raise TrialError(str(err), usage=True) from None
    if scenario.play < 0:
        raise TrialError(f"`play` takes a number of decisions, not {scenario.play}", usage=True)
    if not 1 <= scenario.seat <= players:
        raise TrialError(f"seat {scenario.seat} is not at a {players}-player table", usage=True)
    me = scenario.seat - 1
    try:
        state = game.new_state(scenario.seed, deadline=Deadline.after(seconds, what))
    except InternalError as err:  # a content bug met before anything is tried: said and located
        raise TrialError(f"the game stopped in its setup: {err}") from None
    for number in range(scenario.play):
        decision = state.decision
        if decision is None:
            raise TrialError(f"`play: {scenario.play}`: the game ended after {number} decisions")
        try:
            state.apply(0)
        except (Refused, InternalError) as err:  # the first option, taken as asked, is refused or fails
            raise TrialError(f"`play: {scenario.play}`: decision {number + 1} (\"{decision.prompt}\": "
                             f"{decision.labels()[0]}) stopped the game: {err}") from None
    _set_counters(state, scenario)
    if scenario.before.strip():
        _run(state, scenario.before, me, None, [], None, "the scenario's `before`", before=True)
    source = run if run is not None else _item_source(spec, item_id, effect)
    word = run.strip() if run is not None else ""
    if word.isidentifier() and word not in spec.actions and word not in keywords():
        # one name that is no action and starts no statement: the action meant, by its near name
        close = close_word(word, list(spec.actions))
        raise TrialError(f"`{word}` is no action of {spec.title}: `--run` (or `run:`) takes an action's name or "
                         "statements" + (f"; did you mean `{close}`?" if close else
                                         f" (its actions: {', '.join(spec.actions)})"), usage=True)
    if word in spec.actions:  # an action by its name: performed as a menu would offer it
        source = f"perform one of {word}"
        with sandbox.as_seat(state, me), state.st.frozen():  # asked as a menu asks it: nothing changes
            offered = game.actions[word].available(state.st, Activation(state.st, me))
        if not offered:  # "nothing changed" would hide that it was never offered (a user's trial)
            raise TrialError(f"the action `{word}` offers nothing to {game.player_names[me]} here: its "
                             "condition does not hold, or no target passes its `where`"
                             f"{_setup_hint(state)}")
    d_index = game.layout.def_index[item_id]
    if run is None and d_index in game.requires:  # a card's "playable when": refused as the rules would
        pid = sandbox.piece_of(state, item_id, me)
        if pid >= 0 and not mech.playable(state.st, pid, me):
            from legacies.dsl.renderer import Wording, render_expr

            requires = spec.defs[d_index].requires
            text = render_expr(requires, Wording.of(spec.vocab)) if requires is not None else "its condition"
            raise TrialError(f"the rules refuse `{item_id}` here: it is playable when {text}{_setup_hint(state)}")
    before = snapshot(state)
    order = [game.player_names[p] for p in state.st.turn_order]
    left = list(answers or [])
    logged = len(state.st.log)
    asked = _run(state, source, me, item_id, left, ask, f"`{item_id}`", again=(seconds, what), given=run is not None)
    return Trial(spec.defs[game.layout.def_index[item_id]].name, game.player_names[me], asked,
                 differences(state, before, snapshot(state)), len(left), state, me, order,
                 [str(line) for line in state.st.log[logged:]])


def _setup_hint(state: GameState) -> str:
    """What a refusal adds while no decision is made yet: the game may still be in its setup."""
    if state.st.history != []:
        return ""
    return " (the game may still be in its setup: --play N, or `play: N` in a scenario, takes the first N decisions first)"


def _item_source(spec: GameSpec, item_id: str, effect: str | None) -> str | tuple[ast.Program, Origin]:
    d = next(d for d in spec.defs if d.id == item_id)
    kind = spec.vocab.kinds[d.kind]
    effects = [name for name, t in kind.attributes.items() if t.tag in ("effect", "effects") and name in d.attrs]
    if effect is not None and "." in effect and effect.rsplit(".", 1)[1].isdigit():  # one of a list: rewards.2
        name, n = effect.rsplit(".", 1)
        if name not in effects:
            raise TrialError(f"`{item_id}` has no effect `{name}`; its effects: {', '.join(effects) or 'none'}",
                             usage=True)
        return f"play entry {int(n)} of this's {name}"
    if effect is not None:
        if effect not in effects:
            listed = [name if kind.attributes[name].tag == "effect" else f"{name}.1, {name}.2..." for name in effects]
            raise TrialError(f"`{item_id}` has no effect `{effect}`; its effects: {', '.join(listed) or 'none'}"
                             + (" (and its own, run without --effect)" if d.effect else ""), usage=True)
        if kind.attributes[effect].tag == "effects":
            listed_value = d.attrs[effect]
            count = len(listed_value) if isinstance(listed_value, list) else 1
            raise TrialError(f"`{effect}` of `{item_id}` is a list of {count} effects: name one, "
                             f"{effect}.1 to {effect}.{count}", usage=True)
        return f"play this's {effect}"
    if d.effect is not None and d.effect.statements:  # its own statements, where its file has them
        what = f"{spec.vocab.label(d.kind)} `{d.id}` ({d.name})"
        at = d.origins.get("effect")
        origin = Origin(what, at.file, at.line_offset, at.column_offset) if at is not None else Origin(what)
        return ast.Program(d.effect.statements), origin
    single = [name for name in effects if kind.attributes[name].tag == "effect"]
    if single:
        return f"play this's {single[0]}"
    if effects:
        return f"play entry 1 of this's {effects[0]}"
    if d.effect is not None and d.effect.declarations:
        raise TrialError(f"`{item_id}` acts through triggers (`when ...`): give what sets them off with --run, "
                         "for example the procedure that puts it in play", usage=True)
    raise TrialError(f"`{item_id}` has no effect of its own: give what to run with --run", usage=True)


def _set_counters(state: GameState, scenario: Scenario) -> None:
    lay = state.game.layout
    for seat, values in scenario.counters.items():
        if not 1 <= seat <= state.game.players:
            raise TrialError(f"`counters` names seat {seat}, not at a {state.game.players}-player table", usage=True)
        for name, value in values.items():
            if name not in lay.player_counter:
                known = ", ".join(sorted(lay.player_counter))
                raise TrialError(f"`{name}` is not a player counter of this ruleset; they are: {known}", usage=True)
            slot = lay.player_counter[name] + seat - 1
            lo, hi = lay.counter_min[slot], lay.counter_max[slot]
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise TrialError(f"`counters`: {name} {value} is out of its range "
                                 f"({lo if lo is not None else '-'} to {hi if hi is not None else '-'})", usage=True)
            state.st.counters[slot] = value
    state.st.changed()  # set by hand: nothing computed before stands


def _run(state: GameState, source: str | tuple[ast.Program, Origin], me: int, this: str | None, answers: list[int],
         ask: Asker | None, what: str, before: bool = False,
         again: tuple[float, str] | None = None, given: bool = False) -> list[tuple[str, str, list[str], str]]:
    """Run `source` as seat `me`; `again`: the deadline (seconds, what) that starts again
    after a person answers; `given`: the source is the user's (`--run`), named as such
    when it does not check."""
    asked: list[tuple[str, str, list[str], str]] = []

    def answer(d: Decision) -> str:
        if answers:
            index = answers.pop(0)
        elif ask is not None:
            index = ask(d)
            if again is not None:  # a person's time to answer is not the rules' time
                state.st.deadline = Deadline.after(*again)
        elif before:
            raise TrialError(f"{what} asks \"{d.prompt}\" ({', '.join(d.labels())}): the stage is set without "
                             "choices; name what it acts on instead", usage=True)
        else:
            raise TrialError(f"{what} asks \"{d.prompt}\" ({', '.join(d.labels())}) and no answer is left: "
                             "add one (--choose, or `choose:` in a scenario test)", usage=True)
        if not 0 <= index < len(d.options):
            raise TrialError(f"answer {index + 1} to \"{d.prompt}\": there are {len(d.options)} options", usage=True)
        asked.append((state.st.player_name(d.player), d.prompt, d.labels(), d.labels()[index]))
        return d.labels()[index]

    st = state.st
    try:
        with sandbox.as_seat(state, me):  # as if it were the seat's turn; put back as it was on a failure
            sandbox.start(state, source, me, this)
            st.run()
            while st.pending is not None:
                state.apply_label(answer(st.pending))
    except DiagnosticError as err:
        lines = source.split("\n") if isinstance(source, str) else None  # `--run` text: shown with a caret
        # the source given to run is what does not check, not the item it is tried with (a user's trial)
        named = "the source to run (`--run`, or `run:` in a scenario test)" if given else what
        raise TrialError(f"{named} does not check:\n" + "\n".join(d.render(lines if d.file == "<effect>" else None)
                                                              for d in err.diagnostics), usage=given,
                         diagnostics=tuple(err.diagnostics),
                         part="before" if before else "run" if given else "") from None
    except Refused as err:
        raise TrialError(f"the rules refuse {what} here: {err}{_setup_hint(state)}") from None
    except InternalError as err:  # a content or engine bug: said as one, never as a refusal
        hint = " (is the game past its setup? a scenario's `play: N` takes the first N decisions)" \
            if "not set yet" in str(err) else ""
        raise TrialError(f"{what} stopped on an internal error: {err}{hint}") from None
    return asked
