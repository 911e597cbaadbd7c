"""`legacies replay SAVE --to N --svg FILE [--as SEAT]` (issue 19): a seeded four-player
game of Leader's Legacy replayed to the decision after which round 5 begins, and Kern
drawn there as the viewer sees it: every province in its controller's colour, the same
bytes as the map worked out from the game itself; the picture opened in headless
Chromium (the `browser` fixture, tests/conftest.py). A map that cannot be written, a
ruleset that draws none and `--svg` with `--verify` are said in words."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.agents.map_svg import map_svg, player_colour
from legacies.cli.main import app
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

SEED = 3
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A saved game of four random seats, and the decision after which round 5 begins
    (read from the replay's log, as a person would find it)."""
    save = tmp_path_factory.mktemp("game") / "kern.json"
    code, out = run("play", "-r", "leaders-legacy", *["--seat", "random"] * 4, "--seed", str(SEED),
                    "--save", str(save), "-q")
    assert code == 0, out
    code, log = run("replay", str(save))
    assert code == 0, log
    before = log.split("· round 5 begins")[0]
    return save, int(re.findall(r"(?m)^  (\d+)\. ", before)[-1])


def state_after(save: Path, decisions: int) -> GameState:
    state = Game(load_ruleset("leaders-legacy").spec, 4).new_state(SEED)
    for index in json.loads(save.read_text())["decisions"][:decisions]:
        state.apply(index)
    return state


def test_replay_draws_kern_at_round_5(game, tmp_path: Path) -> None:
    save, decision = game
    picture = tmp_path / "kern.svg"
    code, out = run("replay", str(save), "--to", str(decision), "--as", "2", "--svg", str(picture))
    assert code == 0, out
    assert f"the board after decision {decision}, as P2 sees it:" in out  # the board is shown as before
    text = picture.read_text(encoding="utf-8")
    state = state_after(save, decision)
    assert text == map_svg(state.game.map.picture(state.st, 1), f"after decision {decision}, as P2 sees it")
    root = ET.fromstring(text)
    assert root.find(f"{SVG}text").text == "Kern, round 5"
    places = root.findall(f"./{SVG}g[@class='places']/{SVG}g")
    assert len(places) == 48  # every province
    controllers = state.game.map.colours(state.st, 1)
    assert [p.find(f"{SVG}circle").get("fill") for p in places] == [player_colour(c) for c in controllers.values()]
    assert len({c for c in controllers.values() if c >= 0}) >= 3  # provinces held by several players by round 5
    assert {path.get("class") for path in root.iter(f"{SVG}path")} >= {"link overland", "link seaway"}
    assert "Norhold" in [t.text for t in root.find(f"./{SVG}g[@class='names']")]


def test_the_round_5_map_opens_in_a_browser(browser, game, tmp_path: Path) -> None:
    save, decision = game
    picture = tmp_path / "kern.svg"
    assert run("replay", str(save), "--to", str(decision), "--svg", str(picture))[0] == 0
    dom = browser.dom(picture)
    assert "parsererror" not in dom and dom.count("<circle") == 48 + 5  # the provinces, the legend's colours
    root = ET.fromstring(picture.read_text(encoding="utf-8"))
    width, height = (int(float(v)) for v in root.get("viewBox").split()[2:])
    _, _, rows = browser.screenshot(picture, width, height)
    held = {c.get("fill") for c in root.iter(f"{SVG}circle")} - {player_colour(-1)}
    for colour in sorted(held):
        assert len(browser.pixels_near(rows, colour)) > 40, f"{colour} does not show"


def test_a_map_that_cannot_be_written_is_said_in_words(game, tmp_path: Path) -> None:
    save, decision = game
    code, out = run("replay", str(save), "--to", str(decision), "--svg", str(tmp_path / "no" / "kern.svg"))
    assert code == 2 and "no folder" in out and "to write it in" in out  # said before the replay (issue 33)
    assert len(out.splitlines()) < 5


def test_svg_needs_a_ruleset_that_draws_a_map_and_a_replay(game, tmp_path: Path) -> None:
    save = tmp_path / "legacy.json"
    assert run("play", "-r", "legacy", "-s", "random", "-s", "random", "--seed", "1", "--save", str(save), "-q")[0] == 0
    code, out = run("replay", str(save), "--svg", str(tmp_path / "x.svg"))
    assert code == 2 and "ruleset `legacy` draws no map" in out  # a usage error, before the replay (issue 33)
    assert not (tmp_path / "x.svg").exists()
    code, out = run("replay", "--verify", str(game[0]), "--svg", str(tmp_path / "x.svg"))
    assert code == 2 and "--verify shows no game" in out
