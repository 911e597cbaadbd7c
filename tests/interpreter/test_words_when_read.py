"""Words only when someone reads them (issue 32, step 1; interpreter/decisions.py): an
option is what it is, a log line is what was said with its values; labels, prompts and
log sentences are made when a person, a log, a save or the seat's view reads them, and
never in a game whose decisions are answered by index (a bot's, a random game)."""

from __future__ import annotations

import cProfile
import pstats
import random

import pytest

from legacies.agents.bots import apply_random_option
from legacies.interpreter import decisions, naming
from legacies.interpreter.compile.context import Filled
from legacies.interpreter.game import Game, GameState, Undo
from legacies.pipeline.ruleset import load_ruleset, rulesets
from legacies.pipeline.stack import installed_expansions

# every way words are made: each label and prompt goes through Decision (name_options,
# prompt) or Choice.words, each log line of words through Said.text, each `{EXPR}` text
# through Filled.made, each name through naming
WORD_MAKERS = {
    (f.__code__.co_filename, f.__code__.co_name) for f in (
        decisions.Decision.name_options, decisions.Decision.prompt.fget, decisions.Choice.words,  # type: ignore[attr-defined]
        decisions.Said.text, Filled.made, Filled.__call__, naming.player_name, naming.describe, naming.zone_words,
        naming.zone_name, naming.piece_name, naming.place_of, naming.copy_name, naming.told_apart,
        naming.number_name)
}


def _stacks() -> list[tuple[str, list]]:
    return [(name, []) for name in rulesets()] + [(e.ruleset() or "", [e]) for e in installed_expansions()]


def _made(profile: cProfile.Profile) -> set[str]:
    """The word makers that ran under `profile`."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return {name for (filename, _, name) in stats if (filename, name) in WORD_MAKERS}


def _random_game(game: Game, seed: int, decisions_at_most: int) -> GameState:
    state, rng = game.new_state(seed), random.Random(seed)
    for _ in range(decisions_at_most):
        if state.decision is None:
            break
        apply_random_option(state, rng, undo=Undo.REPLAY)
    return state


@pytest.mark.parametrize("name,expansions", _stacks(), ids=[f"{n}{'+' + e[0].name if e else ''}" for n, e in _stacks()])
def test_a_random_game_makes_no_words_until_they_are_read(name: str, expansions: list) -> None:
    spec = load_ruleset(name, None, expansions).spec
    assert spec is not None
    game = Game(spec, spec.max_players)
    quiet = cProfile.Profile()
    quiet.enable()
    state = _random_game(game, 7, 300)
    quiet.disable()
    assert len(state.st.history) == 300 and len(state.st.log) > 0  # a game under way, that said things
    assert _made(quiet) == set(), "words were made in a game nobody read"

    # read: the log's lines and the pending decision's labels are made now, and read as text
    reading = cProfile.Profile()
    reading.enable()
    lines = list(state.st.log)
    assert state.decision is not None
    labels = state.decision.labels()
    reading.disable()
    assert all(isinstance(line, str) for line in lines) and all(isinstance(label, str) and label for label in labels)
    assert {"name_options", "text"} <= _made(reading)  # the labels, and log lines said as words


def test_words_read_later_are_the_words_of_when_they_were_said() -> None:
    """A log line made when read says what it said then: its values were taken when it
    was said, and a game read at the end reads the same as one read line by line."""
    spec = load_ruleset("legacies").spec
    assert spec is not None
    game = Game(spec, 3)
    read_at_the_end = _random_game(game, 3, 400)
    read_as_it_goes, rng = game.new_state(3), random.Random(3)
    seen: list[str] = []
    for _ in range(400):
        if read_as_it_goes.decision is None:
            break
        read_as_it_goes.decision.labels()  # a person reads every decision
        apply_random_option(read_as_it_goes, rng, undo=Undo.REPLAY)
        seen.extend(read_as_it_goes.st.log[len(seen):])
    assert seen == list(read_at_the_end.st.log) and len(seen) > 50
    # and reading changed nothing of the game: words never decide what happens
    assert read_as_it_goes.canonical() == read_at_the_end.canonical()


def test_labels_are_read_while_the_decision_is_pending() -> None:
    """A decision's labels describe the state it is pending in (where each piece is):
    read after it was answered, they would describe another, so that is refused loudly."""
    from legacies.interpreter.errors import InternalError

    spec = load_ruleset("legacy").spec
    assert spec is not None
    state = Game(spec, 2).new_state(1)
    asked = state.decision
    assert asked is not None
    state.apply(0)
    with pytest.raises(InternalError, match="while it is pending"):
        asked.labels()


def test_a_copy_reads_its_own_decision() -> None:
    """A copy of a state shares its pending decision until one reads its words: the copy's
    are made from the copy (where its pieces are), even after the original moved on."""
    spec = load_ruleset("legacy").spec
    assert spec is not None
    state = Game(spec, 2).new_state(1)
    copy = state.clone()
    expected = state.decision.labels() if state.decision is not None else []
    state.apply(0)
    assert copy.decision is not None and copy.decision.labels() == expected
