"""What the ruleset test folders' tables share (tests/rulesets/*/conftest.py, issue 36):
a shipped ruleset's spec loaded once per process, and `Table`, one game state read and
played by names: counters and zones by name, pieces by content id, decisions by label or
by piece, effect source run as a player. Each folder's Table derives from it and adds
what its game needs (the setup it answers, the scenario helpers).

Imported by name (`from tables import ...`): tests/conftest.py puts this folder first on
sys.path, as the tests are no package."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from collections import Counter
from typing import Any, Sequence

from legacies.dsl.checker import Checker, Context
from legacies.dsl.parser import parse_program
from legacies.interpreter import sandbox
from legacies.interpreter.decisions import Decision
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.spec import GameSpec, Origin
from legacies.interpreter.vm import Activation, Block, BlockFrame
from legacies.pipeline.ruleset import load_ruleset

_SPECS: dict[tuple[str, tuple[str, ...]], GameSpec] = {}

STATIONS_RULESET = """\
format: 2
ruleset: stations
title: Stations
players: {min: 2, max: 2}
score: points
limits: {max_turns: 4}
counters:
  points: {}
zones:
  deck: {scope: game, visibility: hidden}
  shelf: {visibility: public, in_play: true}
kinds:
  station:
    piece: board
    plural: stations
    counters:
      level: {start: 3, min: 1, max: 6}
  relic:
    piece: card
    plural: relics
    starts_in: deck
    counters:
      charge: {start: 0, max: 9}
"""
"""A small ruleset's ruleset.yaml (`small_ruleset`): two players, points, stations with a
level from 1 to 6, relics in a deck with a charge."""

PROMPT = re.compile(r"(?:choose 1-(\d+)|type an amount, (-?\d+)[^\r\n]*?) \(help for keys\): ")
"""`legacies play`'s question at a terminal in lines: a list of options (group 1: how
many), or an amount to type (group 2: the first amount)."""


def play_at_a_terminal(pexpect: Any, args: Sequence[str], rows: int = 50) -> Any:
    """`legacies play ARGS --fast` in a pseudo-terminal of `rows` rows and 160 columns
    (pexpect, the module: the caller skips without it), as a person plays it."""
    child = pexpect.spawn(sys.executable, ["-c", "from legacies.cli.main import main; main()", "play", *args, "--fast"],
                          encoding="utf-8", timeout=60, dimensions=(rows, 160),
                          env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin", "TERM": "dumb"})
    child.delaybeforesend = None
    return child


def shipped_spec(ruleset: str, expansions: Sequence[str] = ()) -> GameSpec:
    """The installed `ruleset` with the installed `expansions` laid over it by name,
    loaded once per process; a ruleset with problems fails the test that asks."""
    key = (ruleset, tuple(expansions))
    if key not in _SPECS:
        result = load_ruleset(ruleset, None, list(expansions))
        assert result.ok and result.spec is not None, [d.headline() for d in result.diagnostics]
        _SPECS[key] = result.spec
    return _SPECS[key]


class Table:
    """One game state, read and played by names. Players are numbered from 0 (a
    folder's Table may number them otherwise and say so)."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.state: GameState = game.new_state(seed)
        self.lay = game.layout

    # ------------------------------------------------------------------ reading
    @property
    def st(self) -> Any:
        return self.state.st

    @property
    def decision(self) -> Decision | None:
        return self.state.decision

    @property
    def player(self) -> int:
        """Who is to answer the decision pending."""
        return self.state.current_player()

    def labels(self) -> list[str]:
        """The options of the decision pending (none once the game is over)."""
        return self.decision.labels() if self.decision is not None else []

    def value(self, source: str, player: int = 0) -> Any:
        """An expression of the effect language, worked out for `player`."""
        return sandbox.value(self.state, source, player)

    def counter(self, name: str, player: int | None = None) -> int:
        """A game counter (`player` None) or a player's."""
        return int(self.st.counters[self._slot(name, player)])

    def set_counter(self, name: str, value: int, player: int | None = None) -> None:
        self.st.counters[self._slot(name, player)] = value

    def _slot(self, name: str, player: int | None) -> int:
        return self.lay.game_counter[name] if player is None else self.lay.player_counter[name] + player

    def zid(self, name: str, player: int | None = None) -> int:
        """A game zone's number (`player` None) or a player's."""
        return self.lay.game_zone[name] if player is None else self.lay.player_zone[name] + player

    def zone(self, name: str, player: int | None = None) -> list[int]:
        """The pieces in a zone, bottom first."""
        return list(self.st.zones[self.zid(name, player)])

    def def_id(self, pid: int) -> str:
        """A piece's content id."""
        return self.game.spec.defs[self.lay.piece_def[pid]].id

    def ids(self, name: str, player: int | None = None) -> Counter[str]:
        """What a zone holds, as a multiset of content ids."""
        return Counter(self.def_id(p) for p in self.zone(name, player))

    # ------------------------------------------------------------------ arranging
    def run(self, source: str, player: int = 0, answers: Sequence[Any] = ()) -> list[Decision]:
        """Effect source run as `player`, its decisions answered from `answers`."""
        return sandbox.run(self.state, source, player, answers=answers)

    def refresh(self) -> None:
        """Ask the pending question again, from the arranged state (set by hand, so
        nothing computed before stands)."""
        self.st.changed()
        self.st.pending = None
        self.st.run()

    # ------------------------------------------------------------------ playing
    def pick(self, label: str) -> None:
        self.state.apply_label(label)

    def pick_piece(self, pid: int) -> None:
        """Answer with the option that names this piece (a target or a chosen card)."""
        assert self.decision is not None, "no decision is pending"
        for i, o in enumerate(self.decision.options):
            v = o.value
            if (v == pid and not isinstance(v, bool)) or (isinstance(v, tuple) and len(v) == 2 and v[1] == pid):
                self.state.apply(i)
                return
        raise AssertionError(f"piece {pid} is not an option of {self.decision.prompt}: {self.labels()}")


# ---------------------------------------------------------------------- small rulesets and effects
def small_ruleset(root: Path, name: str, ruleset: str, procedures: str, items: str) -> GameSpec:
    """A ruleset written to `root` (its ruleset.yaml, procedures.yaml and one content file
    of `items`, YAML list entries) and loaded; it must load clean."""
    (root / "rules" / name).mkdir(parents=True)
    (root / "content" / name).mkdir(parents=True)
    (root / "rules" / name / "ruleset.yaml").write_text(ruleset, encoding="utf-8")
    (root / "rules" / name / "procedures.yaml").write_text(procedures, encoding="utf-8")
    (root / "content" / name / "board.yaml").write_text(f"format: 2\nruleset: {name}\nitems:\n{items}",
                                                       encoding="utf-8")
    result = load_ruleset(name, root=root)
    assert result.ok and result.spec is not None, [d.headline() for d in result.diagnostics]
    return result.spec


def compile_effect(game: Game, source: str) -> Block:
    """Effect `source`, checked clean and compiled by the game's compiler."""
    program = parse_program(source)
    diags = Checker(game.spec.vocab, game.spec.res).check_program(program, Context())
    assert not [d for d in diags if d.severity == "error"], [d.headline() for d in diags]
    code = game.compiler.program(program, Origin("a test effect", "test.yaml", 0, 0))
    game.compiler.finish()
    return code


def compiled_both_ways(spec: GameSpec, source: str) -> list[tuple[GameState, Block]]:
    """`source` compiled for a new 2-player game on generated code and on the closures."""
    out = []
    for codegen in (True, False):
        game = Game(spec, 2, codegen=codegen)
        out.append((game.new_state(1), compile_effect(game, source)))
    return out


def run_block(state: GameState, code: Block) -> None:
    """Run `code` as P1 on the state, in place of whatever it was running."""
    st = state.st
    st.pending = None
    st.frames = [BlockFrame(code, Activation(st, 0))]
    st.run()
