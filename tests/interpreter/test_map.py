"""The board as a picture (`display: map:`, fixture `mapped`): the places of the map's
collection at the coordinates their attributes give, each in the colour of the player
its `colour:` names, with its label and marks worked out for the viewer (a mark with
`if:` only while it holds); the links drawn once per pair with their style (an arc, a
one-way link); the things written where they lie; a place the viewer may not see face
down; working it out changes nothing; and the build's checks of the entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.interpreter import sandbox
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.map_view import MapKey, MapLine, MapName, MapPicture
from legacies.pipeline.ruleset import load_ruleset

MAPPED = Path(__file__).parent / "fixtures" / "mapped"
RULES = "rules/mapped/ruleset.yaml"


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("mapped", MAPPED)
    assert result.ok and not result.diagnostics, [d.headline() for d in result.diagnostics]
    return result.spec


@pytest.fixture()
def state(spec) -> GameState:
    """P1 keeps Ash & <Oak> (the setup); P2 keeps Cedar, guarded twice."""
    state = Game(spec, 2).new_state(1)
    sandbox.run(state, "set spot_c's keeper to bottom of players\nraise spot_c's guards by 2")
    return state


def test_each_place_stands_where_its_attributes_say_in_its_players_colour(state) -> None:
    picture = state.game.map.picture(state.st, 0)
    assert picture.title == "the valley: 2 held"
    assert [(p.label, p.x, p.y, p.player) for p in picture.places] == [
        ("Ash & <Oak>", 0, 0, 0), ("Birch", 20, 0, -1), ("Cedar", 10, 20, 1), ("Dune", 30, 20, -1)]
    assert picture.players == ("P1", "P2")
    assert picture.names == (MapName('the "Low" Field', 15, 10),)


def test_marks_are_worked_out_for_the_viewer_and_written_while_they_hold(state) -> None:
    as_first = {p.label: p.marks for p in state.game.map.picture(state.st, 0).places}
    as_second = {p.label: p.marks for p in state.game.map.picture(state.st, 1).places}
    assert as_first["Ash & <Oak>"] == ("guards 0", "yours") and as_first["Cedar"] == ("guards 2",)
    assert as_second["Ash & <Oak>"] == ("guards 0",) and as_second["Cedar"] == ("guards 2", "yours")


def test_links_are_drawn_once_a_pair_in_their_style(state) -> None:
    picture = state.game.map.picture(state.st, 0)
    assert picture.lines == (
        MapLine(0, 1, "path", "solid"), MapLine(1, 2, "path", "solid"), MapLine(2, 3, "path", "solid"),
        MapLine(0, 2, "ferry", "dashed", arc=True),  # listed on both ends, drawn once
        MapLine(3, 1, "slide", "dotted", one_way=True))  # not symmetric: from Dune to Birch
    assert picture.keys == (MapKey("path", "solid"), MapKey("ferry", "dashed", True), MapKey("slide", "dotted"))


def test_a_place_the_viewer_may_not_see_is_face_down(state) -> None:
    sandbox.run(state, "set spot_d's keeper to top of players\nmove spot_d to fog")
    dune = state.game.map.picture(state.st, 0).places[3]
    assert (dune.label, dune.player, dune.marks) == ("(face down)", -1, ())
    assert state.game.map.colours(state.st, 0)[dune.piece] == -1


def test_the_colours_are_each_places_player(state) -> None:
    assert list(state.game.map.colours(state.st, 1).values()) == [0, -1, 1, -1]


def test_working_the_map_out_changes_nothing(state) -> None:
    before = state.fingerprint()
    for viewer in (0, 1):
        state.game.map.picture(state.st, viewer)
    assert state.fingerprint() == before


def test_a_picture_goes_to_json_and_back(state) -> None:
    import json

    picture = state.game.map.picture(state.st, 0)
    assert MapPicture.from_data(json.loads(json.dumps(picture.as_data()))) == picture


def test_a_ruleset_without_a_map_has_none() -> None:
    assert load_ruleset("legacy").spec.map is None


@pytest.mark.parametrize("old, new, code, words", [
    ("places: spots", "places: nonsense", "E201", "unknown name `nonsense`"),
    ("places: spots", "places: points", "R001", "a collection of pieces of one kind"),
    ("places: spots", "places: players", "R001", "a collection of pieces of one kind"),
    ("as: V", "as: points", "R001", "a word of the ruleset"),
    ("x: across", "x: acros", "R001", "the number attribute `acros`, which spot does not have"),
    ("y: down", "y: note", "R001", "the number attribute `note`"),  # an attribute, but text
    ("colour: V's keeper", "colour: V's guards", "R001", "`colour:` is a player"),
    ('label: "{V}"', 'label: "{W}"', "E201", "unknown name `W`"),
    ('- "guards {V\'s guards}"', '- "guards {V\'s guard}"', "E203", "no `guard`"),
    ('if: "V\'s keeper is me"', 'if: "V\'s guards"', "R001", "`if:` is a condition"),
    ("slide: {style: dotted}", "glide: {style: dotted}", "R001", "`glide` is not a kind of link"),
    ("      - {of: areas, as: A, text: \"{A}\"}", "      - {of: spots where its guards > 9, as: A, text: \"{A's nothing}\"}",
     "E203", "no `nothing`"),
])
def test_the_build_checks_the_map(edited, old, new, code, words) -> None:
    found = edited("mapped", {RULES: (old, new)})
    assert any(c == code and words in m for c, m, _ in found), found


def test_a_link_the_places_do_not_have_is_refused(edited) -> None:
    found = edited("mapped", {RULES: ("    links: [path, ferry, slide]\n", "    links: [path, ferry]\n"),
                              "content/mapped/valley.yaml": (", slide: [spot_b]", "")})
    assert any(c == "R001" and "`slide` is not a link of spot" in m for c, m, _ in found), found


def test_the_names_kind_needs_the_maps_attributes(edited) -> None:
    found = edited("mapped", {RULES: ("    attributes: {across: number, down: number}\ndisplay",
                                      "    attributes: {across: number}\ndisplay")})
    assert any(c == "R001" and "`down`, which area does not have" in m for c, m, _ in found), found


def edited_copy(tmp_path: Path, file: str, old: str, new: str) -> tuple[Path, list]:
    """The fixture copied with `old` replaced by `new` in `file`: that file and the build's diagnostics."""
    import shutil

    root = tmp_path / "mapped"
    shutil.copytree(MAPPED, root)
    path = root / file
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    return path, load_ruleset("mapped", root).diagnostics


def test_an_item_without_coordinates_is_named(tmp_path) -> None:
    valley, found = edited_copy(tmp_path, "content/mapped/valley.yaml", "attributes: {across: 20, down: 0}",
                                "attributes: {across: 20}")
    [d] = [d for d in found if d.code == "R001"]
    assert "`spot_b` has no `down`" in d.message and d.file.endswith("valley.yaml")
    assert "spot_b" in valley.read_text().splitlines()[d.line - 1]


def test_a_problem_in_a_mark_points_at_its_brace(tmp_path) -> None:
    rules, found = edited_copy(tmp_path, RULES, '"guards {V\'s guards}"', '"guards {nonsense}"')
    [d] = [d for d in found if d.code == "E201"]
    line = rules.read_text().splitlines()[d.line - 1]
    assert line[d.column - 1:].startswith("{nonsense}"), (line, d.column)
