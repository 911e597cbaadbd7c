"""The parts of the screen the rules work out (fixture `shelves`): `text:` lines (as the
viewer, or as each player), places side by side (`columns:`: one column per member, its
lines, the pieces under them with the tokens they hold by owner; hidden pieces face
down; or each piece by lines of its own, `piece_lines:`), `display: card:` (attributes
read beside a card's text), the build's checks of
them, and that drawing them changes nothing. Also: an attribute naming a card of a card
kind is that card's name at run time, and a log line shows a list of players by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.cli.board import board_lines, side_by_side
from legacies.cli.terminal import option_text, screen
from legacies.interpreter import sandbox
from legacies.interpreter.errors import InternalError
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

SHELVES = Path(__file__).parent / "fixtures" / "shelves"


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("shelves", SHELVES)
    assert result.ok, [d.headline() for d in result.diagnostics]
    assert not result.diagnostics, [d.headline() for d in result.diagnostics]
    return result.spec


@pytest.fixture()
def state(spec) -> GameState:
    """Both hands emptied into the deck; P1 holds a Lid and a Crate."""
    state = Game(spec, 2).new_state(1)
    sandbox.run(state, "move cards in hand of players to deck\nmove top of (boxes in deck where it is lid) to my hand\n"
                       "move top of (boxes in deck where it is crate) to my hand")
    state.st.pending = None
    state.st.run()
    return state


def shelve(state: GameState, box: str, shelf: int, player: int = 0) -> None:
    sandbox.run(state, f"choose a box in my hand where it is {box} as B\nmove B to table\nset B's shelf to {shelf}\n"
                       f"set my post to {shelf}\nplace my chip on B", player)


def test_columns_are_drawn_side_by_side_with_the_pieces_and_what_they_hold(state) -> None:
    shelve(state, "lid", 2)
    shelve(state, "crate", 2)
    sandbox.run(state, "place my chip on top of (boxes in table where it is crate)", 1)
    sandbox.run(state, "place my chip on top of (boxes in table where it is crate)", 1)
    lines = board_lines(state, 0)
    assert "  shelves in use: 1" in lines
    start = lines.index("  the shelves:")
    rows = lines[start + 1:start + 8]
    assert rows[0].split() == ["Low", "shelf", "Middle", "shelf", "High", "shelf"]
    assert rows[1].split() == ["boxes:", "0", "boxes:", "2", "boxes:", "0"]
    assert rows[2].split() == ["here:", "P2", "here:", "P1", "here:", "none"]  # a list of players, or none
    # under the Middle shelf's heading: the Lid with P1's chip, the Crate with P1's and P2's two
    column = rows[0].index("Middle shelf")
    under = [row[column:].split("  ")[0].strip() for row in rows[3:]]
    assert under == ["Lid", "P1", "Crate", "P1, P2 x2"]


def test_listed_pieces_may_be_shown_by_lines_of_their_own(state) -> None:
    """`piece_lines:` (with `piece_as:`): each listed piece by lines worked out with it
    named (and the column's member), in place of its name and what it holds."""
    shelve(state, "lid", 2)
    shelve(state, "crate", 2)
    sandbox.run(state, "place my chip on top of (boxes in table where it is crate)", 1)
    lines = board_lines(state, 0)
    start = lines.index("  boxes weighed:")
    assert lines[start + 1].split() == ["Middle", "shelf"]  # one column: the only shelf in use
    assert [line.strip() for line in lines[start + 2:start + 6]] == [
        "Lid (1)", "shelf 2: 1 chip", "Crate (3)", "shelf 2: 2 chips"]


def test_piece_lines_of_a_piece_the_viewer_may_not_see_are_face_down(tmp_path) -> None:
    import shutil
    root = tmp_path / "shelves"
    shutil.copytree(SHELVES, root)
    rules = root / "rules" / "shelves" / "ruleset.yaml"
    text = rules.read_text().replace("columns: shelves where count of boxes_on(it) > 0", "columns: shelves")
    rules.write_text(text.replace("      pieces: boxes_on(S)\n      piece_as: B", "      pieces: cellar\n      piece_as: B"))
    result = load_ruleset("shelves", root)
    assert result.ok, [d.headline() for d in result.diagnostics]
    state = Game(result.spec, 2).new_state(1)
    sandbox.run(state, "move top 1 of (cards in hand of players) to cellar")
    columns = next(p for p in state.game.display_parts if p.label == "boxes weighed").columns(state.st, 0)
    assert [column[1:] for column in columns] == [["(face down)"]] * 4


def test_the_columns_are_the_members_of_the_collection_as_it_is_now(state) -> None:
    sandbox.run(state, "set last to 4")
    start = board_lines(state, 0).index("  the shelves:")
    assert "Top shelf" in board_lines(state, 0)[start + 1]
    sandbox.run(state, "set last to 1")
    heading = board_lines(state, 0)[start + 1]
    assert "Low shelf" in heading and "Middle" not in heading


def test_a_text_line_is_worked_out_for_each_player_part(state) -> None:
    shelve(state, "lid", 1)
    lines = board_lines(state, 1)  # P2 looks: each player's own count of chips
    assert lines.count("    chips left: 4") == 1 and lines.count("    chips left: 5") == 1
    assert lines.index("    chips left: 4") < lines.index("── P2 (you)")


def test_a_piece_the_viewer_may_not_see_is_face_down(tmp_path) -> None:
    import shutil
    root = tmp_path / "shelves"
    shutil.copytree(SHELVES, root)
    rules = root / "rules" / "shelves" / "ruleset.yaml"
    rules.write_text(rules.read_text().replace("pieces: boxes_on(S)", "pieces: cellar"))  # a zone, hidden
    result = load_ruleset("shelves", root)
    assert result.ok, [d.headline() for d in result.diagnostics]
    state = Game(result.spec, 2).new_state(1)
    sandbox.run(state, "move top 2 of (cards in hand of players) to cellar")
    columns = state.game.display_parts[1].columns(state.st, 0)
    assert [column[3:] for column in columns] == [["(face down)", "(face down)"]] * 3


def test_drawing_the_screen_changes_nothing(state) -> None:
    shelve(state, "crate", 3)
    before = state.fingerprint()
    board_lines(state, 0)
    board_lines(state, 1)
    assert state.fingerprint() == before


def test_a_content_mistake_while_working_a_line_out_names_the_entry(spec, tmp_path) -> None:
    import shutil
    root = tmp_path / "shelves"
    shutil.copytree(SHELVES, root)
    rules = root / "rules" / "shelves" / "ruleset.yaml"
    rules.write_text(rules.read_text().replace('"boxes: {count of boxes_on(S)}"', '"boxes: {10 modulo (last - 3)}"'))
    result = load_ruleset("shelves", root)
    assert result.ok, [d.headline() for d in result.diagnostics]
    state = Game(result.spec, 2).new_state(1)
    with pytest.raises(InternalError) as err:
        board_lines(state, 0)
    assert "modulo 0" in str(err.value) and "ruleset.yaml" in str(err.value) and "the shelves" in str(err.value)


def test_side_by_side_goes_on_below_when_the_screen_is_full() -> None:
    columns = [[f"column {i}", "x" * 25] for i in range(8)]
    lines = side_by_side(columns)
    assert all(len(line) <= 100 for line in lines)
    assert "" in lines  # a second band under the first
    assert lines[1].strip().startswith("xxxxxxxxxxxxxxxxxxx…")  # cut at the column width


def test_a_card_shows_its_attributes_beside_its_text(state) -> None:
    text = board_lines(state, 0)
    assert "      Crate · weight: 3 · pairs with: Lid · parts: Lid (2)" in text  # P1's own hand, one to a line
    assert "    hand: 2 face down" not in text and any("hand: 0 face down" in line or "hand: none" in line
                                                     for line in text)
    d = state.decision
    assert d is not None and d.player == 0
    index = next(i for i, o in enumerate(d.options) if o.label == "Shelve Crate")
    assert option_text(state, index) == "weight: 3 · pairs with: Lid · parts: Lid (2)"
    assert any("Shelve Lid  — weight: 1 · pairs with: Crate" in line for line in screen(state, 0))


def test_an_attribute_naming_a_card_is_that_card(state) -> None:
    shelve(state, "crate", 1)
    shelve(state, "lid", 2)
    value = sandbox.value
    assert value(state, "count of partners(top of (boxes in table where it is lid))") == 1  # the Crate on the table
    assert value(state, "count of (boxes in table where it is (top of (boxes in table where it is crate))'s pairs_with)") == 1
    assert value(state, "count of (boxes in table where it is in (top of (boxes in table where it is crate))'s likes)") == 2
    assert value(state, "entry ((top of (boxes in table where it is crate))'s pairs_with) of (top of (boxes in table where it is crate))'s parts") == 2
    assert value(state, "(top of (boxes in table where it is lid))'s pairs_with is the same card as top of (boxes in table where it is crate)")
    sandbox.run(state, 'log "pairs with {(top of (boxes in table where it is lid))\'s pairs_with}"')
    assert state.st.log[-1] == "pairs with Crate"


def test_a_log_line_names_each_player_of_a_list(spec) -> None:
    state = Game(spec, 3).new_state(2)
    sandbox.run(state, 'log "order: {players}; none here: {players where its post = 4}"')
    assert state.st.log[-1] == "order: P1, P2, P3; none here: none"


@pytest.mark.parametrize("old, new, code, words", [
    ("columns: shelves where its number <= last", "columns: last", "R001", "is a collection"),
    ("as: S", "as: points", "R001", "a word of the ruleset"),
    ("pieces: boxes_on(S)", "pieces: last", "R001", "a collection of pieces"),
    ('"boxes: {count of boxes_on(S)}"', '"boxes: {count of boxes_on(X)}"', "E201", "unknown name `X`"),
    ("card: [weight, pairs_with, parts]", "card: [weight, heft]", "R001", "`heft` is none"),
    ('{text: "chips left: {count of (chips in my supply)}"}', '{text: "left: {chips}", when: last}', "R001",
     "`when` names a player counter"),
    ("piece_as: B", "piece_as: S", "R001", "the member's name"),
    ("piece_as: B", "piece_as: points", "R001", "a word of the ruleset"),
    ("      piece_as: B\n", "", "R001", "`piece_as:` is missing"),
    ('" shelf {S\'s number}: {count of (chips in B)} chips"', '" shelf {B\'s heft}"', "E203", "no `heft`"),
])
def test_the_build_checks_the_parts_the_rules_work_out(edited, old, new, code, words) -> None:
    found = edited("shelves", {"rules/shelves/ruleset.yaml": (old, new)})
    assert any(c == code and words in m for c, m, _ in found), found


def test_a_problem_in_a_line_points_at_its_brace(tmp_path) -> None:
    import shutil
    root = tmp_path / "shelves"
    shutil.copytree(SHELVES, root)
    rules = root / "rules" / "shelves" / "ruleset.yaml"
    rules.write_text(rules.read_text().replace('"boxes: {count of boxes_on(S)}"', '"boxes: {nonsense}"'))
    [d] = [d for d in load_ruleset("shelves", root).diagnostics if d.code == "E201"]
    line = rules.read_text().splitlines()[d.line - 1]
    assert line[d.column - 1:].startswith("{nonsense}"), (line, d.column)


def test_a_played_game_draws_its_screen_at_every_decision(spec) -> None:
    import random
    state = Game(spec, 3).new_state(4)
    rng = random.Random(4)
    while state.decision is not None:
        board_lines(state, state.decision.player)
        state.apply(rng.randrange(len(state.decision.options)))
    assert state.is_terminal()


def test_a_holder_that_holds_nothing_says_so(state) -> None:
    from legacies.interpreter.display import piece_lines

    shelve(state, "lid", 1)
    lid = state.st.zones[state.game.layout.game_zone["table"]][0]
    assert piece_lines(state.st, lid, 1) == ["Lid", " P1"]
    sandbox.run(state, "remove top of (chips in (top of (boxes in table)))")
    assert piece_lines(state.st, lid, 1) == ["Lid", " (empty)"]


# ---------------------------------------------------------------------- rows, if, kinds, unprinted, unlogged
def test_rows_are_a_line_per_member_under_their_label(state) -> None:
    shelve(state, "lid", 2)
    shelve(state, "crate", 3)
    lines = board_lines(state, 0)
    start = lines.index("  boxes on the table:")
    assert lines[start + 1].split() == ["Lid", "on", "shelf", "2", "Crate", "on", "shelf", "3"]  # short: side by side
    narrow = board_lines(state, 0, width=24)
    start = narrow.index("  boxes on the table:")
    assert narrow[start + 1:start + 3] == ["    Lid on shelf 2", "    Crate on shelf 3"]  # one to a line


def test_a_line_with_if_shows_only_while_it_holds(state) -> None:
    assert "  the top shelf is open" not in board_lines(state, 0)
    sandbox.run(state, "set last to 4")
    assert "  the top shelf is open" in board_lines(state, 0)


def test_a_card_in_full_shows_its_kind_lines_and_not_what_is_unprinted(state) -> None:
    from legacies.view.cards import card_lines

    shelve(state, "crate", 2)
    shelve(state, "lid", 2)
    crate = next(p for p in state.st.zones[state.game.layout.game_zone["table"]] if state.game.piece_names[p] == "Crate")
    text = card_lines(state, crate, 1)
    assert "on shelf 2; partners on the table: 1" in text  # display: kinds:, worked out as the viewer
    assert "weight: 3" in text and "pairs with: Lid" in text and not any(line.startswith("likes") for line in text)
    assert "where: in the table" in text and "holds: P1's Chip" in text


def test_the_log_leaves_out_what_is_unlogged(spec) -> None:
    from legacies.agents.moves import MoveEffects

    state = Game(spec, 2).new_state(3)
    effects = MoveEffects(state)
    sandbox.run(state, "set my post to 3\ngain 2 points")
    assert effects.changes() == ["P1 gains 2 points"]  # `post` is unlogged


@pytest.mark.parametrize("old, new, code, words", [
    ("rows: boxes in table", "rows: last", "R001", "is a collection"),
    ("if: last = 4", "if: last", "R001", "`if:` is a condition"),
    ("    box: [", "    boxes: [", "R001", "`boxes` is none"),
    ("unprinted: [likes]", "unprinted: [liking]", "R001", "`liking` is none"),
    ("unlogged: [post]", "unlogged: [posts]", "R001", "`posts` is none"),
    ("{count of partners(this)}", "{count of partners(that)}", "E201", "unknown name `that`"),
])
def test_the_build_checks_rows_conditions_kinds_and_the_lists(edited, old, new, code, words) -> None:
    found = edited("shelves", {"rules/shelves/ruleset.yaml": (old, new)})
    assert any(c == code and words in m for c, m, _ in found), found
