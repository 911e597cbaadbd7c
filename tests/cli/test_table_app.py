"""The full-screen table (cli/tui/), played through Textual's pilot as a person would: keys
pressed, the screen read. Every ruleset and installed expansion at 80x24 and 160x50: the
decision and its options always on screen with its purpose, a card in hand read in full,
the map or the places side by side, the log as sentences; hot-seat covers the screen
between two people; a refused answer changes nothing. Whole games of each ruleset at both
sizes are in the slow step; screen snapshots of each ruleset are compared in
tests/cli/test_table_snapshots.py."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from legacies.agents.session import TableSession
from legacies.cli.tui.app import Covered, TableApp
from legacies.interpreter.errors import Refused
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.stack import installed_expansions

SIZES = ((80, 24), (160, 50))
TABLES = [("legacies", 4), ("legacy", 3), ("gears-of-time", 3), ("leaders-legacy", 3)] + \
    [(f"{e.ruleset()}+{e.name}", 3) for e in installed_expansions() if e.ruleset()]
_SPECS: dict[str, GameSpec] = {}


def spec_of(key: str) -> GameSpec:
    if key not in _SPECS:
        ruleset, _, expansion = key.partition("+")
        loaded = load_ruleset(ruleset, None, [expansion]) if expansion else load_ruleset(ruleset)
        assert loaded.spec is not None, key
        _SPECS[key] = loaded.spec
    return _SPECS[key]


def session(key: str, players: int, humans: int = 1, seed: int = 1) -> TableSession:
    return TableSession(spec_of(key), ["human"] * humans + ["random"] * (players - humans), seed=seed)


def static_text(app: Any, selector: str) -> str:
    """What a Static shows, as plain text (its content laid out 200 characters wide)."""
    import io

    from rich.console import Console

    widget: Any = app.query_one(selector)
    console = Console(width=200, file=io.StringIO(), record=True, color_system=None)
    console.print(widget.content)
    return console.export_text().rstrip()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _play(app: TableApp, presses: int) -> None:
    async with app.run_test(size=app.size_wanted) as pilot:  # type: ignore[attr-defined]
        await pilot.pause()
        for _ in range(presses):
            if app.session.over:
                break
            await pilot.press("enter")
        await pilot.pause()


def _table(key: str, players: int, size: tuple[int, int], humans: int = 1) -> TableApp:
    app = TableApp(session(key, players, humans), threaded=False)
    app.size_wanted = size  # type: ignore[attr-defined]
    return app


ON_SCREEN = [(key, players, (80, 24)) for key, players in TABLES] + \
    [(key, players, (160, 50)) for key, players in TABLES if key.startswith(("gears", "leaders-legacy+"))]
"""Every table at 80x24; the two with a picture of their own (a row of places, a map) at
160x50 too (every table at both sizes, whole games, in the slow step)."""


@pytest.mark.parametrize("key,players,size", ON_SCREEN, ids=[f"{k}-{s[0]}x{s[1]}" for k, _, s in ON_SCREEN])
def test_the_decision_its_purpose_a_card_the_board_and_the_log_are_on_screen(key: str, players: int,
                                                                            size: tuple[int, int]) -> None:
    async def scenario() -> dict[str, Any]:
        app = _table(key, players, size)
        seen: dict[str, Any] = {}
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for _ in range(12):  # a few decisions in, past the setup
                await pilot.press("enter")
            await pilot.pause()
            view = app.view
            assert view is not None and view.decision is not None and view.decision.yours
            options = app.query_one("#options")
            seen["options"] = options.option_count  # type: ignore[attr-defined]
            seen["wanted"] = len(view.decision.options)
            seen["purpose"] = static_text(app, "#purpose")
            seen["decision_purpose"] = view.decision.purpose
            seen["options_visible"] = options.region.height > 0 and options.region.width > 20
            seen["board"] = static_text(app, "#board-body")
            await pilot.press("y")  # your cards: the first read in full in the reader
            await pilot.pause()
            await pilot.press("home")
            await pilot.pause()
            seen["mine"] = list(app.mine)
            seen["reader_after_mine"] = static_text(app, "#reader")
            seen["first_mine_name"] = view.cards[app.mine[0]].name if app.mine else None
            await pilot.press("l")
            await pilot.pause()
            seen["log"] = static_text(app, "#log-body")
            seen["log_entries"] = [e.text for e in view.log]
            if view.map is not None:
                await pilot.press("m")
                await pilot.pause()
                seen["map"] = static_text(app, "#map-body")
                seen["places"] = [p.label for p in view.map.places]
        return seen

    seen = run(scenario())
    assert seen["options"] == seen["wanted"] > 0
    assert seen["options_visible"]
    assert seen["decision_purpose"] in seen["purpose"]
    assert seen["board"].strip()
    if seen["mine"]:  # a card of your own is read in full when highlighted
        assert seen["first_mine_name"].split(" #")[0] in seen["reader_after_mine"]
    assert seen["log_entries"] and seen["log_entries"][-1] in seen["log"]
    assert not any(" -> " in line for line in seen["log_entries"] if line.startswith("Turn"))
    if "map" in seen:
        shown = [label for label in seen["places"] if label[:10] in seen["map"]]
        assert len(shown) == len(seen["places"]), "every place is on the map"


@pytest.mark.parametrize("tab, widget", [("c", "#card-list"), ("y", "#mine"), ("l", "#log-scroll"),
                                         ("b", "#board VerticalScroll")])
def test_a_tabs_key_moves_the_keys_into_it_and_reading_there_answers_nothing(tab: str, widget: str) -> None:
    """A user's trial: `c` showed the Cards tab but left the arrows and Enter on the
    decision, so reading a card (down, down, Enter) chose the third option. The tab's keys
    now take the focus into it; `o` brings it back to the options."""
    async def scenario() -> None:
        app = _table("legacies", 4, (100, 30))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            made = len(app.session.state.st.history)
            await pilot.press(tab, "down", "down", "enter")
            await pilot.pause()
            assert len(app.session.state.st.history) == made, "a key meant for the tab answered the decision"
            assert app.focused is app.query_one(widget)
            if tab == "c":  # the card highlighted is read in full
                cards = app.query_one("#card-list")
                card = app.view.cards[app.shown_cards[cards.highlighted]]  # type: ignore[attr-defined,union-attr]
                assert card.lines[0] in static_text(app, "#reader")
            await pilot.press("o")
            assert app.focused is app.query_one("#options")
            await pilot.press("enter")
            await pilot.pause()
            assert len(app.session.state.st.history) > made

    run(scenario())


def test_a_number_key_answers_and_a_refused_answer_changes_nothing() -> None:
    async def scenario() -> tuple[int, int, str, str]:
        app = _table("legacy", 2, (80, 24))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            before = len(app.session.state.st.history)
            await pilot.press("1")
            await pilot.pause()
            after = len(app.session.state.st.history)
            fingerprint = app.session.state.fingerprint()
            view = app.view
            assert view is not None and view.decision is not None
            stale = view.decision.number - 1  # an answer to a decision already made
            try:
                app.session.answer(app.seat, stale, 0)
            except Refused as err:  # the refusal is what is read
                said = str(err)
            else:
                said = ""
            return before, after, fingerprint, said + "|" + app.session.state.fingerprint()
    before, after, fingerprint, said = run(scenario())
    assert after > before
    refusal, now = said.split("|")
    assert "look again" in refusal and now == fingerprint


def test_hot_seat_covers_the_screen_between_two_people() -> None:
    async def scenario() -> list[tuple[str, str, str]]:
        app = _table("legacy", 2, (80, 24), humans=2)
        seen = []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(30):
                first = app.seat
                await pilot.press("enter")
                await pilot.pause()
                if isinstance(app.screen, Covered):
                    you = static_text(app, "#you-body")
                    mine = app.query_one("#mine").option_count  # type: ignore[attr-defined]
                    seen.append((str(first), you, str(mine)))
                    await pilot.press("enter")
                    await pilot.pause()
                    seen.append(("after", str(app.seat), static_text(app, "#you-body")))
                    break
        return seen
    seen = run(scenario())
    assert seen, "the screen was handed over between the two people"
    first, you, mine = seen[0]
    assert you == "" and mine == "0", "nothing of the last person's is on screen behind the cover"
    _, now, you_after = seen[1]
    assert now != first and you_after.startswith("P2")


def test_hot_seat_covers_the_screen_before_the_first_person_too() -> None:
    """Whoever starts a hot-seat game is not always the one asked first, and the others sit
    at the table: the first decision is covered as every hand-over is."""
    async def scenario() -> tuple[bool, str, int, bool, str]:
        app = _table("legacy", 2, (80, 24), humans=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            covered, hidden = isinstance(app.screen, Covered), static_text(app, "#you-body")
            history = len(app.session.state.st.history)
            await pilot.press("enter")  # the cover goes: no option is answered by it
            await pilot.pause()
            return covered, hidden, len(app.session.state.st.history) - history, \
                isinstance(app.screen, Covered), static_text(app, "#you-body")
    covered, hidden, answered, still, shown = run(scenario())
    assert covered and hidden == "" and answered == 0
    assert not still and shown.startswith("P1")


def test_undo_takes_back_your_last_decision_and_the_bots_moves_since() -> None:
    async def scenario() -> tuple[int, int, int, str]:
        app = _table("legacies", 3, (80, 24))  # its first decision draws nothing unseen: undo may take it back
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            first = len(app.session.state.st.history)
            fingerprint = app.session.state.fingerprint()
            await pilot.press("enter")
            await pilot.pause()
            moved = len(app.session.state.st.history)
            await pilot.press("u")
            await pilot.pause()
            return first, moved, len(app.session.state.st.history), \
                "same" if app.session.state.fingerprint() == fingerprint else "changed"
    first, moved, back, same = run(scenario())
    assert moved > first and back == first and same == "same"


def test_quitting_with_save_given_keeps_the_game(tmp_path: Any) -> None:
    save = tmp_path / "kept.json"

    async def scenario() -> None:
        app = TableApp(session("legacy", 2), save_path=save, threaded=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("enter")
            await pilot.press("q")
            await pilot.pause()
    run(scenario())
    assert save.is_file()
    from legacies.interpreter.game import GameState

    state = GameState.deserialize(spec_of("legacy"), save.read_text(encoding="utf-8"))
    assert len(state.st.history) > 0


PASSING = ("pass", "done", "no", "pass for the rest of this turn")
"""Labels of options that do nothing: a decision offering only these asks nothing."""


async def read_around(pilot: Any, app: TableApp, stats: dict[str, Any]) -> None:
    """Read a card of your own in full, the map (where there is one) and the log, then go
    back to the options: what was read is on screen."""
    view = app.view
    if view is None:
        return
    await pilot.press("y")
    await pilot.pause()
    if app.mine:
        await pilot.press("home")  # (the `y` key moved the keys into the list)
        await pilot.pause()
        assert view.cards[app.mine[0]].lines[0] in static_text(app, "#reader")
        stats["read"] += 1
    if view.map is not None:
        await pilot.press("m")
        await pilot.pause()
        assert view.map.places[0].label[:10] in static_text(app, "#map-body")
        stats["maps"] += 1
    await pilot.press("l")
    await pilot.pause()
    if view.log:
        assert view.log[-1].text[:40] in static_text(app, "#log-body")
        stats["logs"] += 1
    await pilot.press("b")
    await pilot.press("o")
    await pilot.pause()


def whole_game(key: str, players: int, size: tuple[int, int], seed: int = 1) -> dict[str, Any]:
    """A whole game played by Enter (the highlighted option: the first) at the table: how
    many decisions the person was asked, options listed, labels not shown whole, and
    decisions that offered nothing to decide."""
    async def scenario() -> dict[str, Any]:
        app = TableApp(session(key, players, seed=seed), threaded=False)
        stats = {"asked": 0, "options": 0, "cut": [], "nothing": [], "presses": 0, "read": 0, "maps": 0, "logs": 0}
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            while not app.session.over and stats["presses"] < 3000:
                view = app.view
                if view is not None and view.decision is not None and view.decision.yours:
                    stats["asked"] += 1
                    listing: Any = app.query_one("#options")
                    shown = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
                    stats["options"] += len(view.decision.options)
                    if len(shown) != len(view.decision.options) or any(
                            o.label not in text for o, text in zip(view.decision.options, shown)):
                        stats["cut"].append(view.decision.purpose)
                    if all(o.label.lower() in PASSING for o in view.decision.options):
                        stats["nothing"].append(view.decision.purpose)
                if stats["presses"] % 25 == 10:  # now and then, read as a person does before deciding
                    await read_around(pilot, app, stats)
                await pilot.press("enter")
                stats["presses"] += 1
            await pilot.pause()
            stats["over"] = app.session.over
            stats["result"] = static_text(app, "#purpose")
            listing = app.query_one("#options")
            stats["final"] = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        return stats
    return run(scenario())


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("key,players", TABLES, ids=[k for k, _ in TABLES])
def test_a_whole_game_at_the_full_screen_table(key: str, players: int, size: tuple[int, int]) -> None:
    stats = whole_game(key, players, size)
    assert stats["over"] and "The game is over" in stats["result"]
    assert stats["asked"] > 0
    assert stats["cut"] == [], "every option of every decision is listed, its label whole"
    # each player's score with where it came from, on the table (a player's trial: only the numbers)
    final = stats["final"]
    assert len([line for line in final if not line.startswith(" ")]) >= players, final
    assert any(" from " in line or "nothing scored" in line or "definition" in line for line in final), final


@pytest.mark.slow  # a whole game at the table: about 20 s
def test_the_end_of_a_game_shows_where_each_score_came_from() -> None:
    """A player's trial: the table's end said "1. P3: 11 / 2. P2: 7 / 3. P1: 0"; where the
    points came from was printed only after it closed. A three-player Legacy game to its end."""
    stats = whole_game("legacy", 3, (80, 24), seed=1)
    assert stats["over"]
    final = stats["final"]
    assert [line.split(":")[0] for line in final if not line.startswith(" ")] == ["P2", "P3", "P1"], final
    assert "   9 from legacies built, 2 from finishing first" in final, final


def test_an_options_line_cuts_only_what_it_shows() -> None:
    """A user's trial at 80x24: a label that left no room ended in a stray "…" standing for
    nothing (no details were shown). What is cut ends in "…"; nothing else does."""
    from legacies.cli.tui.app import option_line
    from legacies.view.model import Option

    label = "Foresight (1 energy): Look at the top event card; you may put it at the bottom."
    for room, details, hint in ((76, "", ""), (76, "", "a hint"), (60, "1 energy", "")):
        line = option_line(Option(index=2, label=label, details=details, hint=hint), room).plain
        assert line == f"3. {label}", (room, line)
    short = option_line(Option(index=0, label="Build", details="costs 3 gold, 2 stone, 1 iron", hint="a wall"), 30)
    assert short.plain == "1. Build costs 3 gold, 2 ston…" and len(short.plain) == 30  # cut, and said so
    whole = option_line(Option(index=0, label="Build", details="3 gold", hint="a wall around it"), 60)
    assert whole.plain == "1. Build 3 gold — a wall around it"


@pytest.mark.parametrize("key,players", [("legacies", 4), ("leaders-legacy", 3)])
def test_every_players_box_is_reached_by_the_boards_scroll(key: str, players: int) -> None:
    """A user's trial at 120x40: under a long table the players' boxes got one line (a
    Vertical's height in a scroll), their content cut and out of reach: no opponent was
    ever seen. Each box takes the room it needs, and scrolling to the end shows the last."""
    async def scenario() -> tuple[int, int, list[str]]:
        app = _table(key, players, (120, 40))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("b")
            body = app.query_one("#players-body")
            boxes = list(body.children)
            scroll = body.parent
            scroll.scroll_end(animate=False)  # type: ignore[union-attr]
            await pilot.pause()
            last = boxes[-1].region
            return body.size.height, sum(b.outer_size.height for b in boxes), [str(last), str(scroll.region)]
    height, needed, regions = run(scenario())
    assert height >= needed >= players, (height, needed)
    last, pane = regions
    assert last != "Region(x=0, y=0, width=0, height=0)", "the last player's box is on screen after scrolling"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_map_scrolls_in_a_narrow_pane_and_is_never_wrapped(size: tuple[int, int]) -> None:
    """A user's trial: at 80x24 and 120x40 Kern's rows, drawn 96 columns wide, wrapped in
    the map's pane ("Tallon" on one line, "Pass" on the next, "THE EASTERN" / "GULF"). The
    map is drawn whole and the pane scrolls it both ways; `m` puts the keys there."""
    from textual.containers import ScrollableContainer

    app = _table("leaders-legacy", 3, size)

    async def scenario() -> tuple[int, int, int, str]:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("m")
            await pilot.pause()
            scroll = app.query_one("#map-scroll", ScrollableContainer)
            body: Any = app.query_one("#map-body")
            lines = [strip.text for strip in body.render_lines(body.region.reset_offset)]
            return scroll.max_scroll_x, body.size.width, scroll.size.width, "\n".join(lines)

    room, drawn, pane, shown = run(scenario())
    assert drawn >= 96 > pane and room > 0, (drawn, pane, room)
    assert "Tallon Pass" in shown  # one place, one line


def test_a_place_with_no_room_stays_near_where_it_stands_and_keeps_its_marks() -> None:
    """A user's trial: a label that met another moved down a row, and past the bottom row
    it went to the top (Stonebridge, on the southern edge, drawn in the north); a label
    and its marks were cut to 20 characters (`Cairnhold village x2` lost its leader's L).
    Now a place goes to the nearest free row, above or below, and its marks follow whole."""
    from legacies.cli.tui.panes import MIN_MAP, map_picture
    from legacies.view.model import MapPlace, MapView

    crowded = [MapPlace(label=f"Place {n}", x=100.0, y=1000.0, player=-1, marks=["village x2 L"]) for n in range(3)]
    top = MapPlace(label="North", x=0.0, y=0.0, player=-1)
    m = MapView(title="", places=[top, *crowded], lines=[], names=[], keys=[])
    rows = map_picture(m, *MIN_MAP).plain.splitlines()
    assert len(rows) == MIN_MAP[1] and all(len(row) == MIN_MAP[0] for row in rows)
    found = {n: next(i for i, row in enumerate(rows) if f"Place {n} village x2 L" in row) for n in range(3)}
    assert sorted(found.values()) == [MIN_MAP[1] - 3, MIN_MAP[1] - 2, MIN_MAP[1] - 1]  # the bottom rows
    assert "North" in rows[0]


def test_a_resized_screen_fits_the_options_again_and_keeps_the_highlight() -> None:
    """A user's trial: grown from 80 to 160 columns, the options stayed cut at column 75
    with 80 empty columns beside them, until the next decision. They are fitted to the new
    width at once, and the option the arrows were on stays highlighted."""
    app = _table("legacies", 4, (80, 24))

    async def scenario() -> tuple[list[str], list[str], int | None]:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("enter", "enter")  # a character and its side: the first turn's long options
            await pilot.pause()
            options: Any = app.query_one("#options")
            before = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
            await pilot.press("down", "down")
            await pilot.resize_terminal(160, 40)
            await pilot.pause()
            await pilot.pause()
            after = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
            return before, after, options.highlighted

    before, after, highlighted = run(scenario())
    assert len(before) == len(after) > 2
    assert any(len(a) > len(b) for a, b in zip(after, before)), (before, after)
    assert highlighted == 2


def test_hot_seat_opens_each_persons_own_part_the_first_time_they_sit() -> None:
    """A user's trial: at a hot seat the second person found their own part folded among
    the players (the first person's was open). Each person's own part opens the first
    time the screen is theirs."""
    async def scenario() -> tuple[int, int, bool, bool]:
        app = _table("legacy", 2, (120, 40), humans=2)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # the first person sits
            await pilot.pause()
            first = app.seat
            for _ in range(30):
                await pilot.press("enter")
                await pilot.pause()
                if isinstance(app.screen, Covered):
                    await pilot.press("enter")  # the next person sits
                    await pilot.pause()
                    break
            boxes = app.player_boxes
            return first, app.seat, boxes[first][0].collapsed, boxes[app.seat][0].collapsed
    first, second, _, folded = run(scenario())
    assert second != first
    assert not folded, "the second person's own part is open"


@pytest.mark.parametrize("key,size,mapped", [("legacy", (80, 24), False), ("leaders-legacy", (120, 40), True)])
def test_question_mark_shows_the_games_keys_and_hides_them_again(key: str, size: tuple[int, int],
                                                                 mapped: bool) -> None:
    """A user's trial: no key said which keys there are (`?`, `h`, F1 did nothing). A later
    one: Textual's own panel put its generic keys first ("^c Copy selected text", "^q
    Quit"), the game's off screen at 80x24, digits with no words, and `m Map` at a table
    with no map. The table's own list: every key it has, each with what it does."""
    async def scenario() -> tuple[str, bool]:
        app = _table(key, 3, size)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            shown = static_text(app.screen, "#keys Static") if app.screen.query("#keys") else ""
            await pilot.press("f1")
            await pilot.pause()
            return shown, bool(app.screen.query("#keys"))
    shown, still = run(scenario())
    assert not still and shown.startswith("Keys")
    for words in ("choose the option highlighted", "type an option's number", "undo your last decision",
                  "save the game", "the whole log", "Esc or ? closes this"):
        assert words in shown, words
    assert ("the map" in shown) == mapped and "Copy selected text" not in shown


def test_while_a_bot_thinks_the_header_names_it_as_the_pane_does() -> None:
    """A user's trial: while the pane said "P2 is thinking…", the header still said "P1
    decides" (the bot is asked as the person's answer is taken: no clock in this test)."""
    async def scenario() -> tuple[str, str]:
        app = _table("legacy", 2, (100, 30))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert "P1 decides" in app.sub_title
            app.session.asked = lambda: 1  # type: ignore[method-assign]  # P2, a bot, is asked now
            app._draw_waiting()
            await pilot.pause()
            return app.sub_title, static_text(app, "#purpose")
    header, pane = run(scenario())
    assert "P2 is thinking" in pane and header.endswith("P2 decides") and "P1 decides" not in header


@pytest.mark.parametrize("size", [(40, 12), (60, 20), (70, 18), (80, 24), (100, 30)])
def test_every_option_row_is_in_view_at_any_size(size: tuple[int, int]) -> None:
    """A player's trial: at 40x12 not one option was on screen (the decision's share of a
    short screen went to its purpose; a number key then answered what could not be seen),
    at 70x18 two or three; and at every size a share of the whole let the options' last row
    fall under the decision's edge. On a decision of ten options the options' box lies
    inside the decision and the screen, and at least three rows of options show."""
    async def scenario() -> tuple[Any, Any, int]:
        app = _table("legacies", 4, size)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            options: Any = app.query_one("#options")
            for _ in range(60):
                if options.option_count >= 8:
                    break
                await pilot.press("enter")
                await pilot.pause()
            await pilot.pause()
            return options.region, app.query_one("#decision").region, options.option_count
    options, decision, count = run(scenario())
    assert count >= 8
    assert decision.y <= options.y and options.bottom <= decision.bottom <= size[1] - 1, (options, decision)
    assert options.height - 2 >= 3  # its border above and below
