"""Legacies at the terminal (issue 21): what a player reads before they commit (`?N` on
every kind of option that names something, `look NAME`, amounts typed as themselves) and
the whole public board the ruleset declares, fitted to an 80-column screen, and the log
of each move with what it changed."""

from __future__ import annotations

import io
import re

from legacies.agents.match import play_match
from legacies.cli.board import board_lines
from legacies.view.cards import look, option_lines
from legacies.cli.terminal import HumanAgent, screen

from .conftest import Table, spec

POLITICIAN, SOCIALITE, GENERAL = 1, 2, 3  # the General moves first (most Foundation)


def option(t: Table, label: str) -> int:
    """The index of the pending decision's option that starts with `label`."""
    found = [i for i, x in enumerate(t.labels()) if x.startswith(label)]
    assert found, f"no option {label!r}: {t.labels()}"
    return found[0]


def read(t: Table, label: str) -> str:
    """What `?N` shows of the option starting with `label`, to the player deciding."""
    return "\n".join(option_lines(t.state, option(t, label), t.current - 1))


def ready(t: Table, player: int = GENERAL) -> None:
    t.run("set my cards_played to 2", player)
    t.refresh()


def test_a_hand_card_shows_its_whole_card() -> None:
    t = Table()
    card = t.give("it is C1011", GENERAL)  # Controlling the Masses: two relationships and an opportunity
    t.refresh()
    text = read(t, f"Play {card.name}")
    assert f"{card.name} (player card C1011)" in text and "where: in your hand" in text
    assert "relationship costs: The Politician (3), The Underworld Boss (6)" in text
    assert "industry: Communications" in text and "resources: gem" in text
    assert "card text:\n  opportunity: " in text


def test_buying_an_investment_shows_the_industry_its_value_and_the_prices() -> None:
    t = Table()
    card = t.give("its industry is theater", GENERAL)
    t.refresh()
    t.pick(f"Play {card.name}")
    text = read(t, "Buy an investment in Theater")
    assert text.startswith("Theater (industry)") and "level on the investment track: 3" in text
    assert "share value: 3 gold" in text  # display: kinds: (worked out by the rules)
    assert "a minor investment (2 shares) costs 6 gold, a major one (5 shares) 15" in text


def test_exploring_shows_the_exploration_space_of_the_century() -> None:
    t = Table()
    card = t.give("it is C1011", GENERAL)
    t.refresh()
    t.pick(f"Play {card.name}")
    first = read(t, "Explore the city")
    assert first.startswith("The City, exploration benefits: ")
    t.run("set century to 2")
    t.refresh()
    assert read(t, "Explore the city").startswith("Exploration Overlay, exploration benefits (century II): ")


def test_acquiring_an_heirloom_shows_its_price_and_fee() -> None:
    t = Table()
    card = t.give("it is C1011", GENERAL)
    t.run("gain 3 gem\ngain 3 dye\ngain 3 gear\ngain 3 iron", GENERAL)
    t.refresh()
    t.pick(f"Play {card.name}")
    label = next(x for x in t.labels() if x.startswith("Acquire "))
    text = read(t, label)
    assert "(heirloom H" in text and "character: " in text and "level: " in text
    assert "acquisition fee (fame): " in text and "resource cost: " in text
    assert re.search(r"where: in (your|P\d's) heirlooms on the mat", text)


def test_an_event_shows_each_outcome_before_it_is_chosen() -> None:
    t = Table()
    ready(t)
    event = t.card(t.value("top of current_event"))
    t.pick("Trigger Resolve Current Event")
    assert t.labels() == ["the top outcome", "the bottom outcome"]
    top, bottom = read(t, "the top outcome"), read(t, "the bottom outcome")
    assert top.startswith(f"{event.name}, top outcome: ") and bottom.startswith(f"{event.name}, bottom outcome: ")
    assert top != bottom


def test_a_bid_shows_its_cost_and_its_prizes() -> None:
    t = Table()
    ready(t)
    t.pick("Trigger Host a Trade Conference")
    t.pick("Trade Conference - Fame")
    text = read(t, "Gold - row 2")
    assert "Gold - row 2 (bidding space)" in text and "row: 2" in text
    assert "a bid here: 2 Trade Conference - Fame" in text  # the Fame tile's second row
    assert "the prizes of Gold: 50 to the highest bid, 0 to the second, 0 to the third" in text


def test_look_finds_what_a_player_may_see_and_says_where_it_is() -> None:
    t = Table()
    t.run("put_in_play(top of successor_deck)", SOCIALITE)
    successor = t.card(t.value("top of (cards in my successor)", SOCIALITE))
    text = "\n".join(look(t.state, successor.name.lower(), POLITICIAN - 1))
    assert text.startswith(f"{successor.name} (successor {successor.id})")
    assert "where: in P2's current successor" in text and "impact icon: " in text
    assert "\n".join(look(t.state, successor.id, POLITICIAN - 1)).startswith(successor.name)  # by its number
    figure = t.card(t.value("top of (legendary_figures where its revealed = 1)"))
    assert "relationship with it: none" in "\n".join(look(t.state, figure.name, POLITICIAN - 1))
    hidden = t.card(t.value("top of (cards in hand of player_of(socialite))"))
    assert look(t.state, hidden.id, POLITICIAN - 1) == [f"nothing you can see is called {hidden.id!r}"]
    several = look(t.state, "the", POLITICIAN - 1)
    assert several[0].endswith("type more of the name") or several[0].endswith("could be:")


def test_an_amount_is_typed_as_itself() -> None:
    t = Table()
    ready(t)
    t.pick("Trigger Collect Dividends")
    while t.decision is not None and t.decision.kind != "number":
        t.pick(t.labels()[0])
        if t.decision is not None and t.decision.prompt == "choose an action":
            ready(t, t.current)
            t.pick("Trigger Contribute to Your Foundation")
    d = t.decision
    assert d is not None and d.kind == "number"
    values = [o.value for o in d.options]
    wanted = values[-1]
    said: list[str] = []
    seat = HumanAgent(d.player, stdin=io.StringIO(f"{wanted + 1}\n{wanted}\n"), write=said.append)
    assert seat.choose(t.state) == len(values) - 1  # the amount itself, not the option's number
    assert any(f"{wanted + 1} cannot be chosen" in line for line in said)
    assert any("type the amount: " in line for line in screen(t.state, d.player))


def test_the_board_shows_the_whole_public_table_within_80_columns() -> None:
    t = Table()
    t.run("move top of (heirlooms in mat of player_of(politician)) to my controlled", SOCIALITE)
    t.run("place my minor_token on law\nplace my major_token on theater\nset ga_dividends's face_up to 0", GENERAL)
    t.run("move top of (player_cards in my hand) to my played", GENERAL)
    lines = board_lines(t.state, POLITICIAN - 1, 80)
    text = "\n".join(lines)
    assert max(len(line) for line in lines) <= 80
    for words in ("triggered this generation: Collect Dividends", "mandatory among them: Resolve Current Event",
                  "P3: minor investment in Law", "P3: major investment in Theater",
                  "legendary figures this century", "controlled heirlooms (fame side): ",
                  "heirlooms to acquire (level: price in resources, fee in fame):",
                  "impact icon ", "influences ", "amicable characters: ", "hostile: ", "tokens left: ",
                  "cards played this generation: "):
        assert words in text, words
    # every player's controlled heirlooms, not only the viewer's
    socialite = text.split("── P2")[1].split("── ")[0]
    assert re.search(r"controlled heirlooms \(fame side\): (?!none)", socialite)
    # lines are broken between words (short rows set in columns): the same words as the unbroken board
    wide = board_lines(t.state, POLITICIAN - 1, 1000)
    assert sorted(" ".join(lines).split()) == sorted(" ".join(wide).split())


def test_a_folded_board_keeps_the_others_counters_and_says_how_to_read_the_rest() -> None:
    t = Table()
    folded = board_lines(t.state, POLITICIAN - 1, 80, fold=True)
    assert "    … `board P2` shows the rest" in folded and "    … `board P1` shows the rest" not in folded
    assert len(folded) < len(board_lines(t.state, POLITICIAN - 1, 80))


def test_the_log_shows_each_move_with_its_amounts_and_the_decisions_nobody_was_asked() -> None:
    lines: list[str] = []
    play_match(spec(), ["random"] * 3, 5, on_event=lines.append)  # the log's form, not the play: random bots
    log = "\n".join(lines)
    assert re.search(r"^      P\d (gains|loses) \d+ gold", log, re.M)  # amounts under the move that made them
    assert re.search(r"^      P\d's relationship token goes from P\d's tokens on the mat to The .*'s track, space 1$",
                     log, re.M)
    assert not re.search(r" -> |: none\b|: nobody\b", log)  # sentences, never a state's diff
    assert re.search(r"^  P\d \[.*\]: .* \(the only choice\)$", log, re.M)
    assert re.search(r"is face down$", log, re.M)  # a global action triggered, in the counter's words
