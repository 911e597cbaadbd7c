"""The match runner: seat agents around a game, answer every decision, keep a
readable log. `play_match` is the service behind `legacies play`; the same inputs
always give the same log, scores and winner (determinism)."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Collection
from typing import Any, Callable

from legacies.interpreter.errors import InternalError, Refused
from legacies.interpreter.game import Game, GameState, Undo
from legacies.interpreter.spec import GameSpec

from legacies.interpreter.decisions import Taken

from .base import Agent
from .bots import BOTS, SEARCH_ITERATIONS, GreedyBot, SearchBot
from .chronicle import hidden_choice
from .chronicle import private as _private  # (play_match's `private` is a flag of its own)
from .moves import MoveEffects
from .ruled_seat import RulesRunSeat


class GameStopped(InternalError):
    """An internal error stopped a match: the error's message, place and stack, plus the
    option whose application failed (None when no single option did)."""

    def __init__(self, error: InternalError, choice: int | None):
        super().__init__(error.message, error.where, error.running)
        self.choice = choice


@dataclass
class MatchResult:
    ruleset: str
    seed: int
    seats: list[str]
    names: list[str]
    scores: list[int]
    winner: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    state: GameState | None = None

    def as_json(self) -> dict[str, Any]:
        data = {
            "ruleset": self.ruleset,
            "seed": self.seed,
            "players": [{"seat": s, "name": n, "score": sc} for s, n, sc in zip(self.seats, self.names, self.scores)],
            "winner": self.names[self.winner],
            "actions": self.actions,
        }
        if self.state is not None and self.state.st.ending is not None:  # the rules ended it (`end the game`)
            data["ended_by_rules"] = {"winner_named": self.state.winner_named(), "reason": self.state.end_reason()}
        return data


_NOT_PIECES = ("one", "may", "number")  # decisions whose answers are an option's place, yes or no, a number


def _names_hidden(state: GameState, label: str, viewers: list[int]) -> bool:
    """Does `label` name a piece some of `viewers` may not see, and none they may (a
    card dealt face down, named in its player's option to keep it)?"""
    st, lay = state.st, state.game.layout
    hidden: set[str] = set()
    seen: set[str] = set()
    names = state.game.piece_names
    for pid, zone in enumerate(st.loc):
        if zone < 0 or pid >= len(names):
            continue
        name = names[pid]
        if not name or name not in label:
            continue
        if zone > 0 and pid not in st.revealed and not all(lay.visible_to(zone, p) for p in viewers):
            hidden.add(name)
        else:
            seen.add(name)
    return bool(hidden - seen)


def make_agent(kind: str, seed: int, seat: int, human: Callable[[int], Agent] | None = None,
               think: float | None = None, ruled: Collection[str] = (), search_workers: int = 1,
               iterations: int | None = None, lookahead: int | None = None) -> Agent:
    """The agent of a seat; `think` gives a search bot a time budget per decision (in
    seconds) and `iterations` a number of iterations, instead of its fixed number (with
    both, the first reached), `search_workers` the processes it thinks in; `lookahead`
    the options a greedy bot applies per decision, instead of the ruleset's (bots.default_lookahead);
    `ruled` are the ruleset's seat kinds, whose players the rules run."""
    if kind == "human":
        if human is None:
            raise ValueError("a human seat needs a terminal")
        return human(seat)
    if kind in ruled:  # the rules run this seat: its agent is never asked
        return RulesRunSeat(kind)
    if kind not in BOTS:
        raise ValueError(f"unknown seat kind {kind!r}; choose from: human, {', '.join(BOTS)}")
    if kind == "search" and (think is not None or iterations is not None or search_workers > 1):
        if iterations is None and think is None:
            iterations = SEARCH_ITERATIONS
        return SearchBot(seed * 1000 + seat, think=think, iterations=iterations, workers=search_workers)
    if kind == "greedy" and lookahead is not None:
        return GreedyBot(seed * 1000 + seat, lookahead=lookahead)
    return BOTS[kind](seed * 1000 + seat)  # each seat its own stream, derived from the game seed


class ReplayAgent:
    """Answers with the recorded decisions of a save, in order; -1 once they run out."""

    name = "replay"

    def __init__(self, decisions: list[int], ends: str = "the save ends here"):
        self.decisions = decisions
        self.next = 0
        self.ends = ends  # said when they run out, before whoever decides next

    def choose(self, state: GameState) -> int:
        if self.next >= len(self.decisions):
            return -1
        self.next += 1
        return self.decisions[self.next - 1]


def replay_save(spec: GameSpec, text: str, on_event: Callable[[str], None] | None = None,
                to: int | None = None) -> MatchResult:
    """Replay a save file decision by decision with the play log, each decision numbered
    (a shared bug report, a soak failure, a finished game); `to` stops after that many
    decisions. The save is checked first: a save that does not replay exactly
    (CorruptSave) is refused before anything is shown."""
    saved = GameState.deserialize(spec, text)
    g = saved.game
    history = list(saved.st.history)
    cut = to is not None and to < len(history)
    replayer = ReplayAgent(history[:to] if cut else history,
                           f"the replay stops after decision {to} of {len(history)}" if cut else "the save ends here")
    seats = ["replay"] * g.players
    return play_match(spec, seats, int(saved.st.flags.get("seed", 0)), dict(g.options), on_event=on_event,
                      agents=[replayer] * g.players, numbered=True,
                      names=list(g.player_names))


@dataclass
class Verification:
    """What `legacies replay --verify` found: the decisions replayed and every problem,
    each with the decision after which it showed (0: at the start)."""

    decisions: int
    problems: list[tuple[int, str]] = field(default_factory=list)
    failure: str | None = None  # the failure the save records, if any

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_save(spec: GameSpec, text: str) -> Verification:
    """Replay a save checking every invariant (interpreter.invariants) after every
    decision; then try again the option a recorded failure names (an internal error
    must not happen), or, for a game in progress, check that some option is accepted.
    A save that cannot be read or replayed raises CorruptSave, as deserialize does."""
    from legacies.interpreter.errors import CorruptSave
    from legacies.interpreter.game import open_save
    from legacies.interpreter.invariants import problems

    data, game = open_save(spec, text)
    state = game.new_state(data["seed"])
    found = Verification(len(data["decisions"]))
    recorded = data.get("failure")
    if recorded is not None:
        found.failure = recorded["message"]
    found.problems.extend((0, p) for p in problems(state))
    for number, index in enumerate(data["decisions"], 1):
        try:
            state.apply(index)
        except Refused as err:
            raise CorruptSave(f"the save does not replay: decision {number}: {err}") from None
        except InternalError as err:
            found.problems.append((number, str(err)))
            return found
        found.problems.extend((number, p) for p in problems(state))
    if state.fingerprint() != data["fingerprint"]:
        raise CorruptSave("the save replays to a different game (an edited file, or another version of legacies)")
    if state.is_terminal():
        return found
    after = len(data["decisions"])
    d = state.decision
    assert d is not None
    choice = recorded["choice"] if recorded is not None else None
    if choice is not None:
        if not 0 <= choice < len(d.options):  # an edited record: nothing to try again
            raise CorruptSave(f"the save's failure names option {choice} of {d.prompt!r}, which has "
                              f"{len(d.options)} (numbered from 0)")
        label = d.labels()[choice]
        try:
            state.clone().apply(choice)
        except Refused:
            pass
        except InternalError as err:
            found.problems.append((after, f"option {label!r} of {d.prompt!r}: {err}"))
        return found
    for index in range(len(d.options)):
        try:
            state.clone().apply(index)
            if recorded is not None:  # a failure of the whole game (too long), not of one option: it stands
                found.problems.append((after, "the failure the save records names no option to try again, and "
                                              f"stands: the game is not over after {after} decisions"))
            return found
        except Refused:
            continue
        except InternalError as err:
            found.problems.append((after, f"option {d.labels()[index]!r} of {d.prompt!r}: {err}"))
            return found
    found.problems.append((after, f"the rules refuse every option of {d.prompt!r}: the game is stuck"))
    return found


class UndoRequest(Exception):
    """Raised by a person's agent (cli/terminal.py) to take back their last decision."""


def _decided_since(state: GameState, made_by: list[int], since: int, player: int, people: list[int]) -> str | None:
    """Why `player` may not take back everything from decision `since` on: another person
    at the table (one of `people`) has decided since, and an undo would take their decision
    back without them (a bot's moves, and the rules' own, are taken back with it). None
    when nobody else has."""
    other = next((who for who in made_by[since + 1:] if who != player and who in people), None)
    if other is None:
        return None
    return (f"{state.game.player_names[other]} has decided since, and an undo takes back only your own "
            "decisions and the bots' moves after them")


def take_back_last(state: GameState, player: int, made_by: list[int], people: list[int]) -> str | None:
    """A person's undo, at every table (the plain terminal's match, agents/session.py): back
    to just before `player`'s last decision, `made_by` (who took each decision) kept in step.
    None when done; else why not, in words, and nothing changed."""
    if state.st.over:  # a game's result stands: an undo at its end reopened it, and a save then lost it
        return "the game is over: its result stands, and nothing is taken back"
    mine = [i for i, who in enumerate(made_by) if who == player]
    if not mine:
        return "nothing of yours to undo yet"
    others = _decided_since(state, made_by, mine[-1], player, people)
    if others is not None:
        return f"cannot undo: {others}"
    try:
        state.take_back(mine[-1], player)
    except Refused as err:
        return f"cannot undo: {err}"
    del made_by[mine[-1]:]
    return None


def _take_back(state: GameState, player: int, made_by: list[int], people: list[int]) -> str:
    """Undo to just before `player`'s last decision; what happened, for the log."""
    name = state.game.player_names[player]
    why = take_back_last(state, player, made_by, people)
    return f"  {name}: {why}" if why is not None else f"  {name} takes back their last decision"


def play_match(spec: GameSpec, seats: list[str], seed: int, options: dict[str, Any] | None = None,
               human: Callable[[int], Agent] | None = None, on_event: Callable[[str], None] | None = None,
               state: GameState | None = None, agents: list[Agent] | None = None,
               observe: Callable[[Any, int], None] | None = None, think: float | None = None,
               numbered: bool = False, names: list[str] | None = None) -> MatchResult:
    """Play to the end (or until a replay runs out). `observe(decision, index)` hears
    every option applied, before the log line (a balance run's bookkeeping); `numbered`
    puts each decision's number before its line (a replay, to find a moment by)."""
    if state is None:
        game = Game(spec, len(seats), options, names or [f"P{i + 1}" for i in range(len(seats))])
        state = game.new_state(seed)
    names = [f"{state.game.player_names[i]} ({kind})" for i, kind in enumerate(seats)]
    if agents is None:
        ruled = {s.name for s in spec.seats}
        agents = [make_agent(kind, seed, i, human, think, ruled) for i, kind in enumerate(seats)]
    humans = [i for i, kind in enumerate(seats) if kind == "human"]
    log: list[str] = []
    actions: list[dict[str, Any]] = []
    seen_log = 0

    def emit(line: str) -> None:
        log.append(line)
        if on_event is not None:
            on_event(line)

    seen_turns = len(state.st.turn_starts)  # turns begun before this match: headed already
    last_turn = -1

    def head(turn: int, player: int) -> None:
        """A turn's header; turn 0 is the setup (its decisions and lines before the first turn)."""
        nonlocal last_turn
        last_turn = turn
        emit(f"— turn {turn}: {state.game.player_names[player]} —" if turn else "— setup —")

    # what each move changed, under it, when the log is shown (none of it costs a bot run anything)
    effects = MoveEffects(state) if on_event is not None else None

    def flush_effects() -> None:
        if effects is not None:
            for line in effects.changes():
                emit(f"      {line}")

    def flush_engine_log(moved: bool = False) -> None:
        """The rules' new lines, each turn begun among them under its own header (a turn of
        a seat the rules run too, though it asks nothing); after a move (`moved`), what it
        changed comes under its lines before the first turn it began, as the move's."""
        nonlocal seen_log, seen_turns
        log = state.st.log
        if last_turn < 0 and seen_log < len(log) and (not state.st.turn_starts or seen_log < state.st.turn_starts[0][0]):
            head(0, -1)  # the rules' lines before the first turn: the setup's
        for at, turn, player in state.st.turn_starts[seen_turns:]:
            for line in log[seen_log:at]:
                emit_rules_line(line)
            seen_log = max(seen_log, at)
            if turn != last_turn:
                if moved:
                    flush_effects()
                    moved = False
                head(turn, player)
        seen_turns = len(state.st.turn_starts)
        for line in log[seen_log:]:
            emit_rules_line(line)
        seen_log = len(log)
        if moved:
            flush_effects()

    def emit_rules_line(line: str) -> None:
        if isinstance(line, Taken):  # a decision the rules took: said as a decision, hidden as one
            hidden = line.piece is not None and bool(humans) and humans != [line.player] \
                and _private(state, line.piece)
            shown = f"{line.who} [{line.question}]: (a hidden card) (the only choice)" if hidden else line
            emit(f"  {shown}")
        else:
            emit(f"  · {line}")

    flush_engine_log()
    made_by: list[int] = []  # who took each decision of this match's state (for a person's undo)
    while not state.is_terminal():
        d = state.decision
        assert d is not None
        if state.st.turns == 0 and last_turn < 0:  # decisions before the first turn: the setup's
            head(0, -1)
        elif state.st.turns != last_turn:  # a game resumed mid-turn, or a turn taken back
            head(state.st.turns, state.st.active)
        agent = agents[d.player]
        tried: set[int] = set()
        refusals: set[str] = set()
        taken_back = False
        while True:
            try:
                index = agent.choose(state)
            except UndoRequest:
                emit(_take_back(state, d.player, made_by, humans))
                if effects is not None:
                    effects.changes()  # the game went back: what it is now is where the next move starts
                taken_back = state.decision is not d
                if not taken_back:  # nothing taken back: the same question again
                    continue
                break
            if index < 0:  # a replay that has run out of decisions: stop where the save stopped
                break
            if index in tried:  # a bot repeating a refused option: take the first one untried
                index = next((i for i in range(len(d.options)) if i not in tried), -1)
                if index < 0:  # the game cannot go on: a content (or engine) bug, not a refusal
                    raise GameStopped(InternalError(f"the rules refuse every option of {d.prompt!r}: "
                                                    + "; ".join(sorted(refusals))), None)
            # a hidden pick stays hidden in the shared log, unless the only person at the table made it
            private = bool(humans) and humans != [d.player] and (
                (d.kind not in _NOT_PIECES and _private(state, d.options[index].value))
                or hidden_choice(state, d.options[index])
                or _names_hidden(state, d.options[index].label, humans))
            label = d.options[index].label  # read while the decision is pending (interpreter/decisions.py)
            try:
                state.apply(index, undo=Undo.REPLAY)  # the match changes its state through apply alone
                break
            except InternalError as err:  # the action was rolled back; the game cannot go on
                raise GameStopped(err, index) from err
            except Refused as err:
                tried.add(index)
                refusals.add(str(err))
                emit(f"  {state.game.player_names[d.player]}: {d.options[index].label} — refused: {err}")
        if taken_back:  # ask again from there
            continue
        if index < 0:
            ends = agent.ends if isinstance(agent, ReplayAgent) else "the decisions end here"
            emit(f"{ends}, before {state.game.player_names[d.player]} decides: {d.prompt}")
            break
        made_by += [-1] * (len(state.st.history) - 1 - len(made_by)) + [d.player]
        if observe is not None:
            observe(d, index)
        actions.append({"player": state.game.player_names[d.player], "prompt": d.prompt, "choice": label})
        shown = "(a hidden card)" if private else label  # hot-seat: what others may not see stays hidden
        number = f"{len(state.st.history)}. " if numbered else ""
        emit(f"  {number}{state.game.player_names[d.player]} [{d.prompt}]: {shown}")
        flush_engine_log(moved=True)
    scores = state.scores()
    winner = state.winner()
    if state.is_terminal():
        # every decision of the game: a resumed game's before this match too, an undone one not
        emit(f"game over after {state.st.turns} turns and {len(state.st.history)} decisions")
    return MatchResult(spec.name, seed, list(seats), names, scores, winner, actions, log, state)
