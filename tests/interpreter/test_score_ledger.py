"""The score ledger (interpreter/ledger.py): a Game compiled with `ledger=True` records
where every change of the score came from; its breakdown adds up to each player's score
in random games of every installed ruleset, groups the points by kind and by the
ruleset's `display: scoring:` labels, and a normal Game keeps nothing."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from legacies.interpreter.errors import Refused
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.ledger import KEY, STARTING_VALUE, breakdown, records
from legacies.pipeline.ruleset import load_ruleset

SHIPPED = Path(__file__).resolve().parents[2]
GAMES = [("legacies", 3, 1), ("legacies", 4, 4), ("legacies", 6, 3), ("legacy", 2, 4), ("legacy", 3, 5),
         ("legacy", 6, 6)]


def random_game(game: Game, seed: int) -> tuple[GameState, int]:
    """Random legal options to the end (an option the rules refuse is dropped and another
    tried: Legacies 4p seed 4 meets one); also how many refusals were met, each checked to
    leave the ledger as it was."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    refused = 0
    while not state.is_terminal():
        options = state.legal_actions()
        rng.shuffle(options)
        for index in options:
            before = state.st.flags.get(KEY)
            try:
                state.apply(index)
                break
            except Refused:
                refused += 1
                assert state.st.flags.get(KEY) is before  # a refused choice records nothing
    return state, refused


@pytest.mark.parametrize(("ruleset", "players", "seed"), GAMES, ids=[f"{r}-{p}p-seed{s}" for r, p, s in GAMES])
def test_the_parts_add_up_to_every_score(ruleset: str, players: int, seed: int) -> None:
    spec = load_ruleset(ruleset).spec
    assert spec is not None
    state, _ = random_game(Game(spec, players, ledger=True), seed)
    parts = breakdown(state.st)
    assert len(parts) == players
    for p, score in enumerate(state.scores()):
        assert sum(x.amount for x in parts[p]) == score, (p, parts[p])
        assert all(x.amount != 0 for x in parts[p])
        assert [x.amount for x in parts[p]] == sorted((x.amount for x in parts[p]), reverse=True)
        for x in parts[p]:
            assert sum(a for _, a in x.details) == x.amount or x.label == STARTING_VALUE
    # keeping a ledger changes nothing in the game: the same decisions reach the same state
    plain = Game(spec, players).replay(seed, state.st.history.tolist())
    assert plain.fingerprint() == state.fingerprint()
    assert records(state.st) and KEY not in plain.st.flags


def test_a_copy_keeps_its_own_records() -> None:
    """A copy (a search bot's, an undo's backup) and the original go on apart: what one
    records the other does not see (a refused choice puts such a backup back)."""
    spec = load_ruleset("legacies").spec
    assert spec is not None
    game = Game(spec, 3, ledger=True)
    full, _ = random_game(game, 1)
    history = full.st.history.tolist()
    half = game.replay(1, history[:len(history) // 2])
    kept = records(half.st)
    copy = half.clone()
    for index in history[len(history) // 2:]:
        copy.apply(index)
    assert records(half.st) == kept and records(copy.st)[:len(kept)] == kept
    assert records(copy.st) == records(full.st) and len(records(copy.st)) > len(kept)


def test_a_normal_game_keeps_no_ledger() -> None:
    spec = load_ruleset("legacy").spec
    assert spec is not None
    game = Game(spec, 3)
    assert game.ledger is None
    state, _ = random_game(game, 5)
    assert KEY not in state.st.flags and records(state.st) == []
    with pytest.raises(ValueError, match="keeps no score ledger"):
        breakdown(state.st)


def test_end_of_game_points_are_split_as_the_ruleset_labels_them() -> None:
    """Legacies labels the four gains of its final scoring: each part equals what the
    game's own log says that player scored for it; the kinds' points carry the kind's
    plural (scoring tiles) or the ruleset's word (relationships), and name the items."""
    spec = load_ruleset("legacies").spec
    assert spec is not None
    state, _ = random_game(Game(spec, 4, ledger=True), 7)
    parts = breakdown(state.st)
    names = state.game.player_names
    final = {m[0]: [int(x) for x in m[1:]] for m in (re.match(
        r"\s*(\S+) \(.*\): (\d+) fame for Foundation, (\d+) for gold, (\d+) for resources, (\d+) for heirlooms",
        line) for line in state.st.log) if m and m.group(1) in names for m in [m.groups()]}
    assert set(final) == set(names)
    labels = ["Foundation at the end", "gold at the end", "resources at the end", "heirlooms at the end"]
    seen: set[str] = set()
    for p, name in enumerate(names):
        by_label = {x.label: x for x in parts[p]}
        seen |= set(by_label)
        assert [by_label[label].amount if label in by_label else 0 for label in labels] == final[name]
        assert "score the end of the game" not in by_label  # every gain of it is labelled
    assert {"scoring tiles", "starting fame"} <= seen
    tiles = next(x for p in range(4) for x in parts[p] if x.label == "scoring tiles")
    tile_names = {d.name for d in spec.defs if d.kind == "scoring_tile"}
    assert {n for n, _ in tiles.details} <= tile_names
    # issue 21: what gave the points reads as card text, the player's own as "you", not source
    said = {x.label: x.details[0][0] for p in range(4) for x in parts[p] if x.label in labels}
    assert said["gold at the end"] == ("Gain fame equal to your gold divided by your gold that scores 1 fame at "
                                       "the end (rounded down).")
    assert said["heirlooms at the end"] == "Gain fame equal to the levels of your acquired heirlooms."
    fees = [n for p in range(4) for x in parts[p] if x.label == "heirloom fees" for n, _ in x.details]
    assert set(fees) <= {"Give fame equal to the fee that heirloom costs you to the player of that heirloom's "
                         "character."}


def test_unlabelled_points_take_the_kind_plural_and_the_procedure_name(tmp_path: Path) -> None:
    """Without `display: scoring:`, Legacy's points come from its game procedure, one
    part; with a label for one of its two gains, that gain is a part of its own."""
    spec = load_ruleset("legacy").spec
    assert spec is not None
    from dataclasses import replace

    bare = replace(spec, score_labels={})
    state, _ = random_game(Game(bare, 3, ledger=True), 5)
    for p, score in enumerate(state.scores()):
        assert [(x.label, x.amount) for x in breakdown(state.st)[p]] == ([("the game", score)] if score else [])
    one = replace(spec, score_labels={"game": {"gain 2 points": "finishing first"}})
    state = Game(one, 3, ledger=True).replay(5, state.st.history.tolist())
    parts = breakdown(state.st)
    assert {x.label for p in parts for x in p} <= {"the game", "finishing first"}
    assert sum(x.amount for p in parts for x in p if x.label == "finishing first") == 2  # the first to finish


def _legacy_copy(tmp_path: Path, scoring: str) -> Path:
    for part in ("rules", "content"):
        shutil.copytree(SHIPPED / part / "legacy", tmp_path / part / "legacy")
    ruleset = tmp_path / "rules" / "legacy" / "ruleset.yaml"
    text = ruleset.read_text(encoding="utf-8")
    start = text.index("  scoring:")
    end = text.index("limits:")
    ruleset.write_text(text[:start] + scoring + text[end:], encoding="utf-8")
    return tmp_path


def test_labels_that_name_nothing_are_diagnostics(tmp_path: Path) -> None:
    from legacies.pipeline.validate import validate

    root = _legacy_copy(tmp_path, "  scoring:\n    legacy_crad: legacies\n    legacy_card: {gain 1 point: x}\n"
                                  "    game:\n      gain 3 points: finishing\n")
    result = validate([str(root)], None)
    found = [(d.code, d.line, d.message, d.hint) for d in result.diagnostics if d.severity == "error"]
    assert len(found) == 3, found
    assert found[0][0] == "R001" and "`legacy_crad` is none of them" in found[0][2]
    assert found[0][3] == "did you mean `legacy_card`?"
    assert "kind `legacy_card` takes one label" in found[1][2]
    assert "`game` has no statement `gain 3 points`" in found[2][2] and found[2][3] == "did you mean `gain 2 points`?"
    assert all(line is not None and line > 1 for _, line, _, _ in found)


def test_an_auction_paid_in_the_score_and_an_items_effect_are_recorded() -> None:
    """Effects run beside a Legacies game: a gain run as a scoring tile counts for the
    scoring tiles, naming the tile; an auction for fame records the winner's payment when
    the bidding ends; a program of no item and no rule is called what it is."""
    from legacies.interpreter import sandbox

    spec = load_ruleset("legacies").spec
    assert spec is not None
    state = Game(spec, 3, ledger=True).new_state(0)
    tile = next(d for d in spec.defs if d.kind == "scoring_tile")
    sandbox.run(state, "gain 5 fame", player=0, this=tile.id)
    sandbox.run(state, "auction among players for fame as W and B", player=0,
                answers=["bid 2"])  # the others have no fame to bid: asked nothing
    fame = state.scores()[0]
    assert fame == 3 and records(state.st)[-1][:3] == (0, records(state.st)[-1][1], -2)
    parts = {x.label: x for x in breakdown(state.st)[0]}
    assert parts["scoring tiles"].amount == 5 and parts["scoring tiles"].details == ((tile.name, 5),)
    assert parts["effect tried as P1"].amount == -2
    assert sum(x.amount for x in parts.values()) == fame
