"""Helpers for playing Legacies in tests: a `Table` sets a game up with the characters
and sides a test names (answering the setup's choices), then lets the test arrange a
scenario by running effect source as any player (interpreter.sandbox), read any value
in the language, and drive the game's own decisions by label.

Players are numbered from 1 here, as the players see them."""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

import pytest
import tables

from legacies.interpreter import sandbox
from legacies.interpreter.decisions import Decision
from legacies.interpreter.game import cached_game
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.ruleset import load_ruleset, rulesets

_SPEC: GameSpec | None = None


def spec() -> GameSpec:
    """The Legacies ruleset: installed, or the folder LEGACIES_TEST_ROOT names (a copy
    under edit, with rules/legacies/ and content/legacies/ inside)."""
    global _SPEC
    if _SPEC is None:
        root = os.environ.get("LEGACIES_TEST_ROOT")
        if root is None:
            assert "legacies" in rulesets(), "the legacies ruleset is not installed"
            return tables.shipped_spec("legacies")
        loaded = load_ruleset("legacies", root=root)
        assert loaded.ok and loaded.spec is not None, "\n".join(d.headline() for d in loaded.diagnostics)
        _SPEC = loaded.spec
    return _SPEC


Answer = str | Callable[[Decision], str]


class Table(tables.Table):
    """One game of Legacies, set up as a test asks; players numbered from 1 (`value`,
    `run`, `current`)."""

    def __init__(self, characters: Sequence[str] = ("politician", "socialite", "general"),
                 sides: Sequence[str] | None = None, seed: int = 0, **options: Any):
        super().__init__(cached_game(spec(), len(characters), options), seed)
        wanted = list(sides) if sides is not None else ["aboveboard"] * len(characters)
        # SET-8: players pick in player-aid order; each picks the character the test gives them
        while self.decision is not None and self.decision.prompt.startswith(("choose a character", "choose a mat")):
            d = self.decision
            p = d.player
            if d.prompt.startswith("choose a character"):
                self.pick(spec().vocab.content_names[characters[p]])
            else:
                self.pick(wanted[p])

    # ------------------------------------------------------------------ reading (more in tests/tables.py)
    def value(self, source: str, player: int = 1) -> Any:
        return sandbox.value(self.state, source, player - 1)

    def of(self, source: str, players: Sequence[int] | None = None) -> list[Any]:
        """The value of `source` for each player (`my fame` for players 1, 2, 3...)."""
        return [self.value(source, p) for p in (players or range(1, self.game.players + 1))]

    @property
    def current(self) -> int:
        """The player (from 1) the pending decision asks."""
        d = self.decision
        assert d is not None, "the game is over"
        return d.player + 1

    def give(self, where: str, player: int = 1, deck: str = "deck_i") -> Any:
        """Move the first card of `deck` matching `where` to `player`'s hand; its definition
        (`.id` to name it in effect source, `.name` as the menu shows it)."""
        query = f"top of (player_cards in {deck} where {where})"
        piece = self.value(query)
        assert isinstance(piece, int) and piece >= 0, f"no card in {deck} where {where}"
        self.run(f"move {query} to my hand", player)
        return self.card(piece)

    def card(self, piece: int) -> Any:
        """The content definition of a piece (its id, name and attributes)."""
        return spec().defs[self.lay.piece_def[piece]]

    def piece(self, content_id: str) -> int:
        return sandbox.piece_of(self.state, content_id)

    def name(self, content_id: str) -> str:
        return spec().vocab.content_names[content_id]

    # ------------------------------------------------------------------ acting
    def run(self, source: str, player: int = 1, answers: Sequence[Answer] = ()) -> list[Decision]:
        """Run effect source as `player` beside the game (the pending question waits)."""
        return sandbox.run(self.state, source, player - 1, answers=answers)

    def run_all(self, source: str, player: int = 1, limit: int = 50) -> list[Decision]:
        """Run effect source, answering every decision it asks with its first option."""
        asked: list[Decision] = []

        def first(d: Decision) -> str:
            asked.append(d)
            return d.labels()[0]
        for n in range(limit + 1):
            try:
                sandbox.run(self.state, source, player - 1, answers=[first] * n)
                return asked
            except AssertionError as err:
                if "answers left over" not in str(err) and "no answer left" not in str(err):
                    raise
                asked.clear()
        raise AssertionError(f"more than {limit} decisions")

    def pick(self, label: str) -> None:
        labels = self.labels()
        hits = [x for x in labels if x == label] or [x for x in labels if x.startswith(label)]
        assert len(hits) >= 1, f"no option {label!r} in {self.decision.prompt if self.decision else None!r}: {labels}"
        self.state.apply_label(hits[0])

    def picks(self, *labels: str) -> None:
        for label in labels:
            self.pick(label)


@pytest.fixture
def table() -> Callable[..., Table]:
    return Table
