"""`legacies serve` in a real browser (issue 31): Playwright drives the distribution's
Chromium at a server run in this process (uvicorn in a thread, 127.0.0.1, a port the system
picks). A Gears of Time game played by clicks (the first decisions here; the whole game
`-m slow`), a Leader's Legacy game with two people in two browser contexts and a bot, a
page reloaded mid-game, a phone-sized screen, a ruleset whose names are markup shown as
text, and two people at one page (`--hot-seat`) passing the device through its cover. The page's Content-Security-Policy stays on: no violation may be reported.

Nothing waits on time: every step waits for what the page must show next (generous
timeouts). Chromium is found as tests/conftest.py finds it; where it is missing the tests
are skipped, unless LEGACIES_REQUIRE_BROWSER is set (CI sets it), where they fail."""

from __future__ import annotations

import os
import random
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from legacies.agents.session import TableSession
from legacies.cli.web.server import ServerThread
from legacies.cli.web.table import ServedTable

from .tables import HOSTILE_NAMES, hostile_ruleset, spec

WAIT = 60_000  # ms: what the page must show next, waited for


def _program() -> str:
    import shutil

    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("LEGACIES_REQUIRE_BROWSER"):
        pytest.fail("no Chromium: install the distribution's `chromium` package (.ci/run does)")
    pytest.skip("no Chromium on this machine (apt-get install chromium)")
    raise AssertionError


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Headless Chromium driven by Playwright (one for the module's tests)."""
    program = _program()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=program, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


@contextmanager
def table(ruleset: str, seats: list[str], seed: int, root: str | None = None,
          expansion: str = "", hot_seat: bool = False) -> Iterator[tuple[ServedTable, str]]:
    served = ServedTable(TableSession(spec(ruleset, expansion, root), seats, seed), hot_seat=hot_seat)
    with ServerThread(served) as server:
        yield served, server.base


@contextmanager
def page_at(browser: Any, link: str, width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A page of its own browser context at `link`; no CSP violation may be reported."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(link)
    try:
        yield page
    finally:
        context.close()
    assert not refused, refused


def link(served: ServedTable, base: str, seat: int) -> str:
    return f"{base}/t/{served.tokens[seat]}"


def shown_decision(page: Any) -> int:
    return int(page.get_attribute("#options", "data-decision") or -1)


def wait_for_my_turn(page: Any, after: int = -1) -> int:
    """Wait until the page offers a decision later than `after` (or shows the result);
    that decision's number, or -1 when the game is over."""
    page.wait_for_function(
        "after => { const o = document.getElementById('options');"
        " return (Number(o.dataset.decision) > after && o.querySelector('button.option:not([disabled])'))"
        " || !document.getElementById('result').hidden"
        " || document.getElementById('notice').dataset.kind === 'refused'; }",
        arg=after, timeout=WAIT)
    if not page.is_hidden("#result"):
        return -1
    return shown_decision(page)


def click_through(page: Any, decisions: int, rng: random.Random) -> tuple[int, int]:
    """Click an option at each of the seat's next `decisions` decisions (another after a
    refusal); (decisions clicked, the last decision's number, or -1 when the game ended)."""
    last, clicked = -1, 0
    while clicked < decisions:
        number = wait_for_my_turn(page, last)
        if number < 0:
            return clicked, -1
        buttons = page.locator("#options button.option:not([disabled])")
        buttons.nth(rng.randrange(buttons.count())).click()
        clicked += 1
        page.wait_for_function(  # the answer's outcome: a later decision, the end, or a refusal
            "n => Number(document.getElementById('options').dataset.decision || -1) !== n"
            " || !document.getElementById('result').hidden"
            " || document.getElementById('notice').dataset.kind === 'refused'", arg=number, timeout=WAIT)
        last = number if page.get_attribute("#notice", "data-kind") != "refused" else number - 1
    return clicked, last


def play_until(page: Any, selector: str, rng: random.Random, decisions: int = 12) -> None:
    """Click random options of the seat's decisions until the page shows `selector` (at
    most `decisions` of them)."""
    for _ in range(decisions):
        wait_for_my_turn(page)
        if page.locator(selector).count():
            return
        click_through(page, 1, rng)


def test_gears_of_time_by_clicks(chromium: Any) -> None:
    with table("gears-of-time", ["human", "random"], seed=15) as (served, base):
        with page_at(chromium, link(served, base, 0)) as page:
            clicked, last = click_through(page, 6, random.Random(1))
            assert clicked == 6 and last > 0
            assert len(served.session.state.st.history) > 6
            # the timeline is drawn as a row of places; the hand as cards with their text
            assert page.locator(".columns .column").count() >= 4
            assert page.locator("#you .zone").count() > 0 and page.locator("#players .player").count() == 1
            assert page.locator("#changes li").count() > 0
            assert "You are P1" in page.inner_text("#who")


@pytest.mark.slow
def test_a_whole_gears_of_time_game_by_clicks(chromium: Any) -> None:
    with table("gears-of-time", ["human", "random"], seed=15) as (served, base):
        with page_at(chromium, link(served, base, 0)) as page:
            clicked, last = click_through(page, 400, random.Random(15))
            assert last == -1, f"the game did not end in {clicked} decisions"
            assert served.session.over
            assert "Winner:" in page.inner_text("#result")
            assert page.locator("#result .ranking li").count() == 2


def test_leaders_legacy_two_people_in_two_browsers(chromium: Any) -> None:
    with table("leaders-legacy", ["human", "human", "random"], seed=5) as (served, base):
        with page_at(chromium, link(served, base, 0)) as one, page_at(chromium, link(served, base, 1)) as two:
            one.wait_for_selector("#who:has-text('P1')", timeout=WAIT)
            two.wait_for_selector("#who:has-text('P2')", timeout=WAIT)
            one.wait_for_selector("#map svg .place", timeout=WAIT)  # Kern drawn
            assert one.locator("#map svg .place").count() == 48
            assert one.locator("#map svg .region").count() >= 9
            rng = random.Random(5)
            done = {0: 0, 1: 0}
            pages = {0: one, 1: two}
            while min(done.values()) < 3:
                asked = _person_asked(served)
                page = pages[asked]
                number = len(served.session.state.st.history)
                page.wait_for_selector(f"#options[data-decision='{number}'] button.option:not([disabled])",
                                       timeout=WAIT)
                other = pages[1 - asked]
                other.wait_for_selector(f"#options:not([data-decision='{number}'])", state="attached", timeout=WAIT)
                assert other.locator("#options button.option").count() == 0  # the other person waits
                buttons = page.locator("#options button.option:not([disabled])")
                buttons.nth(rng.randrange(buttons.count())).click()
                page.wait_for_function(
                    "n => Number(document.getElementById('options').dataset.decision || -1) !== n"
                    " || document.getElementById('notice').dataset.kind === 'refused'", arg=number, timeout=WAIT)
                done[asked] += len(served.session.state.st.history) > number


def _person_asked(served: ServedTable) -> int:
    """The person the game waits on, once the bots have played (waited for, up to a minute)."""
    deadline = time.monotonic() + WAIT / 1000
    while time.monotonic() < deadline:
        asked = served.session.waiting_for_person()
        if asked is not None:
            return asked
        time.sleep(0.02)
    raise AssertionError("no person was asked within a minute")


def test_a_reloaded_page_continues_where_it_was(chromium: Any) -> None:
    with table("gears-of-time", ["human", "random"], seed=15) as (served, base):
        with page_at(chromium, link(served, base, 0)) as page:
            _, last = click_through(page, 3, random.Random(3))
            now = len(served.session.state.st.history)
            page.reload()
            page.wait_for_selector(f"#options[data-decision='{now}'] button.option", timeout=WAIT)
            assert page.locator("#log li").count() > 0 or page.locator("#changes li").count() > 0
            click_through(page, 1, random.Random(4))
            assert len(served.session.state.st.history) > now


@pytest.mark.parametrize("ruleset, seats", [("gears-of-time", ["human", "random"]),
                                            ("leaders-legacy", ["human", "random", "random"])])
def test_a_phone_sized_screen_shows_the_decision(chromium: Any, ruleset: str, seats: list[str]) -> None:
    with table(ruleset, seats, seed=15) as (served, base):
        with page_at(chromium, link(served, base, 0), 390, 844) as page:
            page.wait_for_selector("#options button.option", timeout=WAIT)
            first = page.locator("#options button.option").first
            box = first.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
            assert box["y"] < 844  # on the first screen, without scrolling
            assert page.evaluate("document.documentElement.scrollWidth") <= 392  # nothing wider than the phone
            first.click()
            page.wait_for_function("() => document.getElementById('options').dataset.decision !== undefined",
                                   timeout=WAIT)


def test_names_written_as_markup_are_shown_as_text(chromium: Any, tmp_path: Path) -> None:
    root = hostile_ruleset(tmp_path)
    with table("mapped", ["human", "random"], seed=1, root=root) as (served, base):
        with page_at(chromium, link(served, base, 0)) as page:
            page.wait_for_selector("#options button.option", timeout=WAIT)
            page.wait_for_selector("#map svg .place", timeout=WAIT)
            options = page.inner_text("#options")
            labels = page.locator("#map svg text.label").all_text_contents()
            for markup in HOSTILE_NAMES.values():
                assert markup in options and markup in labels
            assert page.locator("img").count() == 0 and page.locator("script").count() == 1
            assert page.locator("#map script, #options script, #map img, #options b").count() == 0


SEAT_PARTS = ["who", "purpose", "prompt", "options", "result", "reader-lines", "map", "board", "players", "you",
              "changes", "log"]


def test_two_people_at_one_page_pass_the_device(chromium: Any) -> None:
    """`--hot-seat`: both people of a Gears of Time game at one page, a few decisions each;
    between them the page shows only the cover naming who plays next (nothing of either
    seat left in it), and its button shows that person's table."""
    with table("gears-of-time", ["human", "human"], seed=15, hot_seat=True) as (served, base):
        with page_at(chromium, f"{base}/t/{served.shared_token}") as page:
            names = served.session.state.game.player_names
            rng = random.Random(7)
            done = {0: 0, 1: 0}
            shown: int | None = None
            covers = 0
            while min(done.values()) < 3:
                page.wait_for_function(
                    "() => !document.getElementById('ready').hidden"
                    " || document.querySelector('#options button.option:not([disabled])')"
                    " || !document.getElementById('result').hidden", timeout=WAIT)
                if page.is_visible("#cover"):
                    asked = _person_asked(served)
                    assert asked != shown  # a cover only between two people
                    who = names[asked]
                    assert page.inner_text("#cover-text") == (
                        f"{who}'s turn: pass the device; click when only {who} can see the screen")
                    assert page.is_hidden("#table")
                    left = page.evaluate("ids => ids.filter(id => document.getElementById(id).hasChildNodes())",
                                         SEAT_PARTS)
                    assert not left, f"the covered page still holds {left}"
                    assert page.evaluate("() => document.getElementById('options').dataset.decision") is None
                    covers += 1
                    page.click("#ready")
                    page.wait_for_selector("#options button.option:not([disabled])", timeout=WAIT)
                    assert page.is_hidden("#cover") and f"You are {who}" in page.inner_text("#who")
                    shown = asked
                    continue
                assert page.is_hidden("#result"), "the game ended before each person took three decisions"
                asked = _person_asked(served)
                assert asked == shown  # the page plays the seat the game waits on
                number = shown_decision(page)
                assert number == len(served.session.state.st.history)
                buttons = page.locator("#options button.option:not([disabled])")
                buttons.nth(rng.randrange(buttons.count())).click()
                page.wait_for_function(  # a later decision, the cover, or a refusal
                    "n => Number(document.getElementById('options').dataset.decision || -1) !== n"
                    " || document.getElementById('notice').dataset.kind === 'refused'", arg=number, timeout=WAIT)
                done[asked] += len(served.session.state.st.history) > number
            assert covers >= 2


def test_an_options_card_is_read_by_its_own_button_where_a_phone_shows_it(chromium: Any) -> None:
    """A user's trial on a 390x844 phone: a tap on an option answers it at once and there is
    no hover, so an option's card could not be read before choosing; a card tapped in "You"
    was written into the reader at the page's top, 2,800 px above. An option with a card has
    a Read button; the reader is a sheet at the foot of the screen, titled once (the card's
    own first line: "Vandalism (legacy card vandalism)" was said twice)."""
    with table("gears-of-time", ["human", "random"], seed=15) as (served, base):
        with page_at(chromium, link(served, base, 0), 390, 844) as page:
            play_until(page, "#options button.read", random.Random(3))
            read = page.locator("#options button.read").first
            read.click()
            page.wait_for_selector("#reader:not([hidden])", timeout=WAIT)
            box = page.locator("#reader").bounding_box()
            assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844 + 1  # on screen
            card = served.session.view(0).cards
            title = page.inner_text("#reader-title")
            assert any(c.lines and c.lines[0] == title for c in card.values())
            assert title not in page.locator("#reader-lines li").all_text_contents()  # said once
            assert page.locator("#options button.option:not([disabled])").count()  # nothing answered
            page.locator("#reader").click()
            assert page.is_hidden("#reader")
            # a pointer passing over an option opens no sheet over the options below it (a
            # user's trial with a mouse at 400 px: the sheet took the clicks meant for them)
            page.locator("#options button.option").first.hover()
            page.locator("#options button.option").first.focus()
            assert page.is_hidden("#reader")


def test_a_link_the_server_no_longer_knows_is_said_and_not_retried(chromium: Any) -> None:
    """A user's trial: after `serve --resume` (new links), an old page showed "reconnecting…"
    for ever and its options looked live. A lost connection disables the options and says so;
    a link the server refuses is said to be no longer valid, and the page stops trying."""
    with table("gears-of-time", ["human", "random"], seed=15) as (served, base):
        with page_at(chromium, link(served, base, 0)) as page:
            wait_for_my_turn(page)
            served.tokens = {seat: "a-new-link-" + str(seat) for seat in served.tokens}  # as a resumed server's
            loop = served.loop
            assert loop is not None
            for listener in list(served.listeners):
                loop.call_soon_threadsafe(listener.outbox.put_nowait, {"close": 1001})  # the server went away
            page.wait_for_function("() => document.getElementById('notice').textContent.includes('no longer')",
                                   timeout=WAIT)
            assert "Ask the host for your link" in page.inner_text("#notice")
            assert page.get_attribute("#connection", "data-state") == "the link is no longer valid"
            assert page.locator("#options button.option:not([disabled])").count() == 0


def test_the_whole_log_says_what_it_leaves_out_and_numbers_from_there(chromium: Any) -> None:
    """A user's trial: "The whole log" began mid-game numbered 1 (only the latest entries are
    sent), and numbers of two digits lost their first."""
    from unittest.mock import patch

    from legacies.view import build

    with patch.object(build, "LOG_KEPT", 5):
        with table("gears-of-time", ["human", "random"], seed=15) as (served, base):
            with page_at(chromium, link(served, base, 0)) as page:
                click_through(page, 3, random.Random(5))
                view = served.session.view(0)
                assert view.log_from > 1 and len(view.log) == 5
                page.click("#log-details summary")
                page.wait_for_function("n => document.getElementById('log').start === n", arg=view.log_from,
                                       timeout=WAIT)
                assert page.inner_text("#log-left").startswith(f"Entries 1 to {view.log_from - 1} are not shown")
                first = page.locator("#log li").first.bounding_box()
                pane = page.locator("#log").bounding_box()
                assert first is not None and pane is not None
                # the marker's digits sit inside the list's own box (its padding), none cut off
                assert page.evaluate("() => parseFloat(getComputedStyle(document.getElementById('log')).paddingLeft)"
                                     ) >= 2.5 * 14


def test_a_game_played_by_the_keyboard_keeps_the_focus_on_the_options(chromium: Any) -> None:
    """A user's trial: after an answer given with the keyboard the focus was lost (the
    buttons answered are gone) and the next decision had to be found with Tab from the
    page's top. An answer by the keyboard puts the focus on the next decision's first
    option, the arrows move between options; a click moves nothing."""
    with table("gears-of-time", ["human", "random"], seed=15) as (served, base):
        with page_at(chromium, link(served, base, 0)) as page:
            first = wait_for_my_turn(page)
            page.locator("#options button.option").first.focus()
            page.keyboard.press("ArrowDown")
            focused = "document.activeElement && document.activeElement.dataset.index"
            assert page.evaluate(focused) == page.locator("#options button.option").nth(1).get_attribute("data-index")
            page.keyboard.press("ArrowUp")
            page.keyboard.press("Enter")
            later = wait_for_my_turn(page, first)
            assert later > first
            page.wait_for_function("() => document.activeElement && document.activeElement.matches("
                                   "'#options button.option, #amount')", timeout=WAIT)
            made = len(served.session.state.st.history)
            page.keyboard.press("Enter")  # the focused option answers: no mouse needed
            assert wait_for_my_turn(page, later) > later or made < len(served.session.state.st.history)
            clicked, last = click_through(page, 2, random.Random(2))  # clicks: the focus is left alone
            assert clicked == 2 and wait_for_my_turn(page, last) != -1
            assert not page.evaluate("document.activeElement && document.activeElement.matches('#options *')")


def test_the_places_a_decision_offers_are_ringed_on_the_map_and_lead_to_their_option(chromium: Any) -> None:
    """A user's trial: the map could not be used to choose (48 provinces listed as buttons,
    and the map beside them only read a card). The places the decision offers are ringed; a
    click on one reads its card and takes the focus to its option, answering nothing; Enter
    there answers it."""
    with table("leaders-legacy", ["human", "random", "random"], seed=5) as (served, base):
        with page_at(chromium, link(served, base, 0)) as page:
            play_until(page, "#map g.place.offered", random.Random(4))
            offered = page.locator("#map g.place.offered")
            view = served.session.view(0)
            assert view.decision is not None
            with_cards = {o.card for o in view.decision.options if o.card}
            assert 0 < offered.count() <= len(with_cards)
            assert page.locator("#map g.place:not(.offered)").count() == 48 - offered.count()
            made = len(served.session.state.st.history)
            place = offered.nth(offered.count() // 2)
            index = place.get_attribute("data-option")
            place.dispatch_event("click")
            page.wait_for_function("i => document.activeElement && document.activeElement.dataset.index === i",
                                   arg=index, timeout=WAIT)
            assert len(served.session.state.st.history) == made  # found, not answered
            assert not page.is_hidden("#reader")
            assert page.locator("#map g.place.found").count() == 1  # marked where it is
            assert page.locator("#map g.place.found").get_attribute("data-option") == index
            page.keyboard.press("Enter")
            page.wait_for_function("n => Number(document.getElementById('options').dataset.decision || -1) !== n",
                                   arg=made, timeout=WAIT)
            assert served.session.state.st.history[made] == int(index or -1)


_LABELS_MET = """() => {
  const boxes = Array.from(document.querySelectorAll('#map text.label')).map(t => t.getBBox());
  let met = 0;
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
    const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
    const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
    if (w > 2 && h > 2) met += 1;
  }));
  return met;
}"""


def test_the_map_labels_do_not_meet_and_the_map_zooms_in_to_read_them(chromium: Any) -> None:
    """A user's trial: Kern's 48 provinces fit a pane 480 px wide, names 5 px high, and two
    long names side by side ran into each other. A label goes over its dot where under it
    it would meet another; the zoom buttons show part of the map larger (its pane
    scrolls), the zoom is kept from one view to the next, and the place of the option
    that has the focus is scrolled into sight."""
    with table("leaders-legacy", ["human", "random", "random"], seed=5) as (served, base):
        with page_at(chromium, link(served, base, 0), 1200, 800) as page:
            play_until(page, "#map g.place.offered", random.Random(4))
            assert page.locator("#map text.label").count() == 48
            assert page.locator("#map text.label.above").count() > 0
            assert page.evaluate(_LABELS_MET) == 0
            frame = page.locator("#map .map-frame")
            whole = frame.evaluate("f => [f.scrollWidth, f.clientWidth]")
            assert whole[0] <= whole[1] + 1  # the whole map in its pane
            assert page.locator("#map button.zoom-whole").is_disabled()
            page.locator("#map button.zoom-zoom").last.click()  # zoom in
            page.locator("#map button.zoom-zoom").last.click()
            assert frame.get_attribute("data-zoom") == "2"
            width, seen = frame.evaluate("f => [f.scrollWidth, f.clientWidth]")
            assert width >= 1.9 * seen
            label = page.locator("#map text.label").first.evaluate("t => t.getBoundingClientRect().height")
            assert label >= 9  # px on the screen: read without a magnifier
            # the place of the option with the focus is brought into the pane's sight
            made = len(served.session.state.st.history)
            offered = page.locator("#map g.place.offered")
            for n in range(offered.count()):
                place = offered.nth(n)
                index = place.get_attribute("data-option")
                page.locator(f'#options button.option[data-index="{index}"]').focus()
                page.locator(f'#options button.option[data-index="{index}"]').dispatch_event("focus")
                inside = page.evaluate("""i => {
                  const f = document.querySelector('#map .map-frame').getBoundingClientRect();
                  const g = document.querySelector('#map g.place[data-option="' + i + '"] circle').getBoundingClientRect();
                  return g.left >= f.left - 1 && g.right <= f.right + 1 && g.top >= f.top - 1 && g.bottom <= f.bottom + 1;
                }""", index)
                assert inside, f"option {index}'s place is out of the map pane's sight"
            assert len(served.session.state.st.history) == made  # looked at, nothing answered
            click_through(page, 1, random.Random(7))  # a new view: the map is drawn again, as zoomed
            wait_for_my_turn(page, made)
            assert page.locator("#map .map-frame").get_attribute("data-zoom") == "2"
            page.locator("#map button.zoom-whole").click()
            assert page.locator("#map .map-frame").get_attribute("data-zoom") == "1"


def test_a_list_of_rows_with_none_says_none(chromium: Any) -> None:
    """A user's trial: Legacies' investments, relationships and bonus tokens showed a bare
    heading with nothing under it at the start. An empty list of rows says "none", as the
    terminal table does."""
    with table("legacies", ["human", "random", "random"], seed=1) as (served, base):
        with page_at(chromium, link(served, base, 0)) as page:
            wait_for_my_turn(page)
            boxes = page.locator("#board .rows, #players .rows, #you-pane .rows")
            assert boxes.count() > 0
            bare = [boxes.nth(i) for i in range(boxes.count()) if boxes.nth(i).locator("li").count() == 0]
            assert bare, "the opening board has an empty list of rows"
            assert all(box.locator("span.empty").inner_text() == "none" for box in bare)


def test_the_card_read_stays_on_screen_beside_a_long_list_of_options(chromium: Any) -> None:
    """A user's trial: at 1200x800, Legacies' ten characters pushed the reader below the
    window, and Read scrolled the options away. The list scrolls within its pane: the
    option and the card it reads are on screen together."""
    with table("legacies", ["human", "random", "random"], seed=1) as (served, base):
        with page_at(chromium, link(served, base, 0), 1200, 800) as page:
            wait_for_my_turn(page)
            options = page.locator("#options button.option")
            assert options.count() >= 8
            options.nth(options.count() - 1).focus()  # the last: read in the reader
            page.wait_for_function("() => !document.getElementById('reader').hidden", timeout=WAIT)
            seen = page.evaluate("""() => {
              const r = document.getElementById('reader').getBoundingClientRect();
              const o = document.activeElement.getBoundingClientRect();
              return [r.top, o.top, o.bottom, window.innerHeight];
            }""")
            reader_top, option_top, option_bottom, height = seen
            assert 0 <= option_top and option_bottom <= height, seen
            assert reader_top < height - 100, seen  # the card's first lines, at least, on screen
