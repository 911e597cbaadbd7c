"""An action menu's options, a pool's (`choose a card in ...`, `choose 2 cards in ...`), a
number's and a `may`'s are known by their values and made only when someone reads them (decisions.Decision
`values`, `count`, `value`): a bot that answers by index makes none, and the options read
are what they were when they were made at once (issue 32: words and objects only for a
reader)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from legacies.agents.bots import apply_random_option
from legacies.interpreter import decisions
from legacies.interpreter.game import Game, Undo
from legacies.pipeline.ruleset import load_ruleset

TINY = Path(__file__).parent / "fixtures" / "tiny"

PROCEDURES = """format: 2
actions:
  gain_one:
    label: Gain a point
    do: |
      gain 1 points
  play_card:
    label: "Play {C}"
    choose: cards in my hand
    as: C
    do: |
      move C to my table
      gain C's worth points
  pick:
    label: Pick a card from the table
    if: count of (cards in my table) > 0
    do: |
      choose a card in my table as K
      move K to my hand
  pick_two:
    label: Pick two cards from the table
    if: count of (cards in my table) > 1
    do: |
      choose 2 cards in my table as KS
      move KS to my hand
  bet:
    label: Bet some points
    do: |
      choose a number from 1 to 5 as N
      may "bet {N}":
          gain N points
game: |
  deal 3 from deck to hand of players
  take turns:
      perform one of gain_one, play_card, pick, pick_two, bet
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    root = tmp_path_factory.mktemp("options") / "tiny"
    shutil.copytree(TINY, root)
    rules = root / "rules" / "tiny"
    (rules / "procedures.yaml").write_text(PROCEDURES)
    ruleset = rules / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text().replace("max_turns: 6", "max_turns: 40"))
    loaded = load_ruleset("tiny", root)
    assert loaded.spec is not None, [d.headline() for d in loaded.diagnostics]
    return Game(loaded.spec, 3)


def test_a_bot_answering_by_index_makes_no_option(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []
    real = decisions.Choice.__init__

    def counted(self: decisions.Choice, *args: object, **kwargs: object) -> None:
        made.append(args[1] if len(args) > 1 else None)
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(decisions.Choice, "__init__", counted)
    # a question with one possible answer is not asked: the log keeps the option taken
    logged: list[object] = []
    said = decisions.Taken.said

    def taken(player: int, prompt: object, choice: decisions.Choice) -> decisions.Said:
        logged.append(choice.value)
        return said(player, prompt, choice)  # type: ignore[arg-type]

    monkeypatch.setattr(decisions.Taken, "said", staticmethod(taken))
    kinds = set()
    for seed in range(5):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while state.st.pending is not None:
            d = state.st.pending
            kinds.add((d.kind, d.count > 1))
            apply_random_option(state, rng, undo=Undo.NONE)
    assert {("action", True), ("choose", True), ("number", True), ("may", True)} <= kinds  # each was asked
    assert logged and made == logged, f"{len(made) - len(logged)} options made that nobody read"


def test_options_read_are_the_options_made_at_once(game: Game) -> None:
    rng = random.Random(3)
    state = game.new_state(3)
    seen = 0
    kinds: set[str] = set()
    while state.decision is not None and seen < 60:
        d = state.decision
        count = d.count
        values = [d.value(i) for i in range(count)]
        options = d.options  # made now, from the values
        assert len(options) == count and [o.value for o in options] == values
        labels = d.labels()
        assert all(isinstance(label, str) and label for label in labels)
        if d.kind == "action":
            assert labels[-1] == "done" or values[-1] is not None
        if d.kind == "may":
            assert labels == ["yes", "no"] and values == [True, False]
        if d.kind == "number":
            assert labels == [str(v) for v in values]
        kinds.add(d.kind)
        copy = state.clone()  # a copy reads its own options, made from the same values
        assert copy.decision is not None and copy.decision.labels() == labels
        assert [o.value for o in copy.decision.options] == values
        seen += 1
        apply_random_option(state, rng, undo=Undo.NONE)
    assert seen > 20 and {"action", "choose", "number", "may"} <= kinds


def test_an_option_out_of_range_is_refused_and_changes_nothing(game: Game) -> None:
    from legacies.interpreter.errors import IllegalChoice

    state = game.new_state(1)
    d = state.st.pending
    assert d is not None
    before = state.fingerprint()
    for index in (-1, d.count, "0"):
        with pytest.raises(IllegalChoice):
            state.apply(index, undo=Undo.NONE)  # type: ignore[arg-type]
        assert state.fingerprint() == before and state.st.pending is d
