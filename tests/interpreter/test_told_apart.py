"""Options that would read the same are told apart where what they name differs
(interpreter/naming.py `told_apart`, fixture `holders`): pieces in different places by
where each is, with whose they are (tokens); copies on the table that keep state of their
own by number; copies nothing tells apart (two gadgets in one hand) are left alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.interpreter import sandbox
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

HOLDERS = Path(__file__).parent / "fixtures" / "holders"


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("holders", HOLDERS)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return result.spec


@pytest.fixture()
def state(spec) -> GameState:
    state = Game(spec, 2).new_state(1)
    sandbox.run(state, "move cards in hand of players to deck\nmove crates in deck to my table\n"
                       "move gadgets in deck to my hand")
    return state


def asked(state: GameState, source: str) -> list[str]:
    """The labels of the first question `source` asks."""
    seen: list[list[str]] = []

    def first(decision) -> str:
        seen.append(decision.labels())
        return decision.labels()[0]
    sandbox.run(state, source, answers=[first])
    return seen[0]


def test_tokens_in_different_places_are_named_with_whose_and_where(state) -> None:
    sandbox.run(state, "place my chip on top of (crates in my table)")
    sandbox.run(state, "place my chip on bottom of (crates in my table)")
    labels = asked(state, "choose a chip in crates as C\nremove C")
    assert len(set(labels)) == len(labels) == 2
    assert all(label.startswith("your Chip on Crate #") for label in labels), labels
    sandbox.run(state, "place my chip on top of (crates in table of players)", player=1)
    labels = asked(state, "choose a chip in crates as C\nremove C")
    assert any(label.startswith("P2's Chip on Crate #") for label in labels), labels


def test_copies_on_the_table_that_keep_state_read_by_number(state) -> None:
    labels = asked(state, "choose a crate in my table as C\nraise C's charge by 1")
    assert sorted(labels) == [f"Crate #{k}" for k in range(1, len(labels) + 1)]


def test_copies_nothing_tells_apart_are_said_to_be_copies(state) -> None:
    """Never two options that read the same: copies nothing tells apart say they are copies
    (either is the same choice)."""
    labels = asked(state, "choose a gadget in my hand as G\ndiscard G")
    assert len(labels) > 1 and labels == [f"Gadget (copy {n} of {len(labels)})" for n in range(1, len(labels) + 1)]


def test_a_card_in_a_different_place_says_where(state) -> None:
    sandbox.run(state, "move top of (gadgets in my hand) to my table")
    labels = asked(state, "choose a gadget in my hand + gadgets in my table as G\ndiscard G")
    hand = [label for label in labels if label.startswith("Gadget in your hand")]
    assert "Gadget in your table" in labels and len(hand) == len(labels) - 1 > 1
    # a user's trial: "Bank in Bo's tableau" twice, nothing telling the two apart
    assert hand == [f"Gadget in your hand (copy {n} of {len(hand)})" for n in range(1, len(hand) + 1)]


def test_every_piece_says_where_it_is_when_the_pieces_lie_in_several_places(state) -> None:
    """A user's trial: Legacy's Destroy listed "Monument in Ann's tableau", "Bank in your
    tableau" ... and "Parade": the one Parade, said nowhere, was the chooser's own. When the
    pieces offered lie in more than one place, each says where, alike or not."""
    sandbox.run(state, "move top of (gadgets in my hand) to my table")
    labels = asked(state, "choose a crate in my table + top 1 of (gadgets in my hand) as G\ndiscard G")
    assert len(set(labels)) == len(labels)
    assert all(label.endswith(" in your table") or label.endswith(" in your hand") for label in labels), labels
    assert sum(label.endswith(" in your hand") for label in labels) == 1


def test_many_options_that_read_alike_in_pairs_take_one_pass(state: GameState, monkeypatch: pytest.MonkeyPatch) -> None:
    """Labels are grouped in one pass: 3,000 pairs of options that read alike took
    seconds when each label was counted over every option. Counted, not timed (a test
    may not depend on timing): the labels are read a few times in all, never searched or
    counted, and each option's piece is looked up once."""
    from legacies.interpreter import naming
    from legacies.interpreter.decisions import Choice

    class Watched(list):  # type: ignore[type-arg]
        passes = 0

        def __iter__(self):  # type: ignore[no-untyped-def]
            Watched.passes += 1
            return super().__iter__()

        def count(self, _: object) -> int:
            raise AssertionError("a label counted over every option")

        def index(self, *_: object) -> int:  # type: ignore[override]
            raise AssertionError("a label searched for among every option")

    looked_up: list[object] = []
    piece_of = naming._piece_of
    monkeypatch.setattr(naming, "_piece_of", lambda st, option: looked_up.append(option) or piece_of(st, option))
    labels = [f"option {i // 2}" for i in range(6000)]
    options = [Choice(label, 10**6 + i) for i, label in enumerate(labels)]  # values that are no piece
    assert naming.told_apart(state.st, 0, options, Watched(labels)) == labels
    assert Watched.passes <= 3
    assert len(looked_up) == len(options)
