"""What a running state reads of its game (`State.game`): the compiled rules of one
ruleset at one player count, as a Protocol, so the machinery that runs a state
(interpreter/vm.py, mechanics, frames, windows...) names what it depends on and the
type checker holds every read to it. interpreter/game.py's `Game` is the one
implementation; a test double only needs what its test reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from .compile.choices import CompiledAction
    from .compiler import Compiler
    from .coverage import Coverage
    from .graph import Graph
    from .layout import Layout
    from .ledger import Ledger
    from .spec import GameSpec
    from .vm import Activation, Block


class GameRules(Protocol):
    spec: "GameSpec"
    players: int
    options: dict[str, Any]
    player_names: list[str]
    zone_names: dict[tuple[int, int, bool], str]
    layout: "Layout"
    piece_names: list[str]
    pay_symbol: list[Any]
    pay_need: list[dict[Any, int]]
    coverage: "Coverage | None"
    ledger: "Ledger | None"
    era_slot: int
    actions: dict[str, "CompiledAction"]
    procedures: dict[str, "Block"]
    effects: list["Block"]
    requires: dict[int, Callable[["Activation"], Any]]
    triggers: dict[str, list[tuple[str, int, Any, "Block", bool]]]
    hooks_enter: dict[int, "Block"]
    hooks_leave: dict[int, "Block"]
    continuous: dict[str, list[tuple]]
    setup: "Block"
    main: "Block"
    score_base: int
    score_value: Callable[["Activation"], Any] | None
    automated: int
    graph: "Graph"
    tie_breaks: list[Callable[["Activation"], Any]]
    evaluation: Callable[["Activation"], Any] | None
    compiler: "Compiler"
    unseen: tuple[list[list[int]], list[str]] | None
