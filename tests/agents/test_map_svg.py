"""A map drawn as SVG (agents/map_svg.py), from the fixture `mapped`
(tests/interpreter/fixtures/mapped): every place a dot in its player's colour with its
label and marks, every link a line in its style, the text escaped, a legend, a viewBox
that holds it all, the same bytes every time; written whole or not at all; and opened
in headless Chromium (the `browser` fixture, tests/conftest.py), where the document
parses and its colours show."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from legacies.agents.map_svg import NOBODY, map_svg, player_colour, save_map
from legacies.interpreter import sandbox
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

MAPPED = Path(__file__).parents[1] / "interpreter" / "fixtures" / "mapped"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("mapped", MAPPED)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return result.spec


@pytest.fixture()
def state(spec) -> GameState:
    """P1 keeps Ash & <Oak>, P2 Cedar."""
    state = Game(spec, 2).new_state(1)
    sandbox.run(state, "set spot_c's keeper to bottom of players")
    return state


def drawn(state: GameState, viewer: int = 0, caption: str = "") -> ET.Element:
    return ET.fromstring(map_svg(state.game.map.picture(state.st, viewer), caption))


def test_every_place_is_a_dot_in_its_players_colour_with_its_label(state) -> None:
    root = drawn(state)
    places = root.findall(f"./{SVG}g[@class='places']/{SVG}g")
    assert [p.find(f"{SVG}circle").get("fill") for p in places] == [
        player_colour(0), NOBODY, player_colour(1), NOBODY]
    assert player_colour(0) != player_colour(1)
    assert [p.findall(f"{SVG}text")[0].text for p in places] == ["Ash & <Oak>", "Birch", "Cedar", "Dune"]
    assert [t.text for t in places[0].findall(f"{SVG}text")[1:]] == ["guards 0", "yours"]
    assert places[2].find(f"{SVG}title").text == "Cedar; P2; guards 0"


def test_every_link_is_a_line_in_its_style(state) -> None:
    links = drawn(state).findall(f"./{SVG}g[@class='links']/{SVG}path")
    assert [link.get("class") for link in links] == ["link path"] * 3 + ["link ferry", "link slide"]
    assert [link.get("stroke-dasharray") for link in links] == [None, None, None, "7,5", "2,4"]
    assert " Q" in links[3].get("d") and " L" in links[0].get("d")  # the ferry bows, a path is straight
    assert links[4].get("marker-end") == "url(#one-way)"  # a one-way link shows its direction


def test_the_text_is_escaped(state) -> None:
    text = map_svg(state.game.map.picture(state.st, 0), 'seen by "P1" <&>')
    assert "Ash &amp; &lt;Oak&gt;" in text and "<Oak>" not in text
    assert "the &quot;Low&quot; Field" in text and "seen by &quot;P1&quot; &lt;&amp;&gt;" in text


def test_the_legend_names_the_players_and_the_links(state) -> None:
    legend = drawn(state).find(f"./{SVG}g[@class='legend']")
    assert [t.text for t in legend.iter(f"{SVG}text")] == ["P1", "P2", "nobody", "path", "ferry", "slide"]


def test_the_view_box_holds_the_map(state) -> None:
    root = drawn(state, caption="a caption")
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    assert (root.get("width"), root.get("height")) == (f"{width:g}", f"{height:g}")
    for circle in root.find(f"./{SVG}g[@class='places']").iter(f"{SVG}circle"):
        assert 0 < float(circle.get("cx")) < width and 0 < float(circle.get("cy")) < height
    links = root.find(f"./{SVG}g[@class='links']").iter(f"{SVG}path")
    numbers = [float(n) for d in (p.get("d") for p in links) for n in re.findall(r"-?[\d.]+", d)]
    assert min(numbers) >= 0 and max(numbers) < max(width, height)
    legend = root.find(f"./{SVG}g[@class='legend']/{SVG}g").get("transform")
    assert float(re.findall(r"[\d.]+", legend)[1]) < height  # under the map, inside the picture


def test_the_same_picture_is_the_same_bytes(spec, state) -> None:
    again = Game(spec, 2).new_state(1)
    sandbox.run(again, "set spot_c's keeper to bottom of players")
    one = map_svg(state.game.map.picture(state.st, 0), "c")
    assert one == map_svg(again.game.map.picture(again.st, 0), "c")
    assert re.search(r'\d\.\d\d', one) is None  # every number to one decimal at most


def test_coordinates_in_any_units_draw_the_same_map(spec, state) -> None:
    """Neighbouring places stand about 100 units apart whatever the attributes' units."""
    from dataclasses import replace

    picture = state.game.map.picture(state.st, 0)
    bigger = replace(picture, places=tuple(replace(p, x=p.x * 7, y=p.y * 7) for p in picture.places),
                     names=tuple(replace(n, x=n.x * 7, y=n.y * 7) for n in picture.names))
    assert map_svg(bigger) == map_svg(picture)


def test_the_map_is_written_whole(state, tmp_path, full_disk) -> None:
    target = tmp_path / "valley.svg"
    assert save_map(state, 2, target) is None
    assert target.read_text(encoding="utf-8") == map_svg(state.game.map.picture(state.st, 1),
                                                         "after decision 0, as P2 sees it")
    full_disk(after=100)
    problem = save_map(state, 1, target)
    assert problem is not None and "the disk is full" in problem
    assert "as P2 sees it" in target.read_text(encoding="utf-8")  # the old file, whole
    assert [p.name for p in tmp_path.iterdir()] == ["valley.svg"]  # no temporary file left


def test_a_ruleset_without_a_map_says_so(tmp_path) -> None:
    state = Game(load_ruleset("legacy").spec, 2).new_state(1)
    assert save_map(state, None, tmp_path / "x.svg") == "ruleset `legacy` draws no map (its `display:` has no `map:`)"
    assert not (tmp_path / "x.svg").exists()


def test_the_map_opens_in_a_browser(browser, state, tmp_path) -> None:
    page = tmp_path / "valley.svg"
    page.write_text(map_svg(state.game.map.picture(state.st, 0), "a caption"), encoding="utf-8")
    dom = browser.dom(page)
    assert "parsererror" not in dom and dom.count("<circle") == 4 + 3  # the places and the legend's colours
    width, height, rows = browser.screenshot(page, 400, 400)
    for colour in (player_colour(0), player_colour(1)):
        assert len(browser.pixels_near(rows, colour)) > 30, f"no {colour} on the screen"


def test_two_long_names_side_by_side_are_written_one_under_and_one_over_its_dot() -> None:
    """A user's trial: two long province names side by side ran into each other. Where a
    label under its dot would meet one already written, it goes over its dot; the marks
    stay under the dot."""
    from legacies.interpreter.map_view import MapPicture, MapPlace

    def picture(second: str) -> MapPicture:
        return MapPicture("t", (MapPlace(0, "Stonebridgeshire", 0, 0, -1, ("village x1",)),
                                MapPlace(1, second, 100, 0, -1, ("village x2",)),
                                MapPlace(2, "Far", 0, 300, -1)), (), (), ("P1",), ())

    def baselines(pic: MapPicture) -> list[tuple[float, ...]]:
        root = ET.fromstring(map_svg(pic))
        dots = [float(g.find(f"{SVG}circle").get("cy")) for g in root.findall(f"./{SVG}g[@class='places']/{SVG}g")]
        return [tuple(float(t.get("y")) - cy for t in g.findall(f"{SVG}text"))
                for cy, g in zip(dots, root.findall(f"./{SVG}g[@class='places']/{SVG}g"))]

    first, second, far = baselines(picture("Hollowellmoor"))
    assert first[0] > 0 and second[0] < 0  # the second label over its dot
    assert second[1] > 0 and first[1] > first[0]  # marks under the dot, under the label when it is under
    assert far[0] > 0
    assert [b[0] > 0 for b in baselines(picture("Oak"))] == [True, True, True]  # short names: both under
