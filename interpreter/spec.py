"""What the interpreter is given: a checked ruleset as plain objects (GameSpec).

pipeline/ builds it from data files; tests build small ones by hand. Nothing here
names a game: the vocabulary supplies every word."""

from __future__ import annotations

from dataclasses import dataclass, field

from legacies.dsl import ast
from legacies.dsl.checker import Resolution
from legacies.dsl.vocabulary import Vocabulary


@dataclass
class PieceDef:
    """A content item (card, board item) or a token kind."""

    id: str
    kind: str
    name: str
    copies: int = 1
    attrs: dict[str, object] = field(default_factory=dict)
    effect: ast.Program | None = None
    requires: ast.Expr | None = None


@dataclass
class ActionSpec:
    name: str
    label: str
    body: ast.Program
    choose: ast.Expr | None = None
    var: str | None = None
    condition: ast.Expr | None = None


@dataclass
class DefinitionSpec:
    name: str
    params: list[str]
    value: ast.Expr


@dataclass
class Limits:
    max_turns: int = 1000
    step_budget: int = 2_000_000
    max_repeats: int = 200


@dataclass
class GameSpec:
    name: str
    title: str
    vocab: Vocabulary
    min_players: int
    max_players: int
    defs: list[PieceDef]
    res: Resolution
    actions: dict[str, ActionSpec] = field(default_factory=dict)
    definitions: dict[str, DefinitionSpec] = field(default_factory=dict)
    setup: ast.Program | None = None
    game: ast.Program | None = None
    score_counter: str = "score"
    tie_breaks: list[ast.Expr] = field(default_factory=list)
    limits: Limits = field(default_factory=Limits)
    eras: list[str] = field(default_factory=list)
    era_counter: str | None = None
    option_defaults: dict[str, int | bool] = field(default_factory=dict)
    option_rules: dict[str, tuple[str, int | None, int | None]] = field(default_factory=dict)  # type, min, max
