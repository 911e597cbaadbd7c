"""Legacies: the components at the rulebook's counts (COMP-1 to COMP-10), the twelve
scoring tiles (SCORE-1 to SCORE-12) each scored on an arranged table, successors'
impact matches (SUC-3, SUC-4) and events that move tokens or name absent pieces
(EVT-2, EVT-3)."""

from __future__ import annotations

from collections import Counter

import pytest

from .conftest import Table, spec

POLITICIAN, SOCIALITE, GENERAL = 1, 2, 3  # the General moves first (most Foundation)


def items(kind: str) -> list:
    return [d for d in spec().defs if d.kind == kind and d.id != kind]


# ---------------------------------------------------------------------- components


@pytest.mark.rule("COMP-1")
def test_ten_characters_with_both_mat_sides() -> None:
    characters = items("character")
    assert len(characters) == 10
    for c in characters:
        a = c.attrs
        assert {"start_foundation", "start_fame", "start_gold", "start_resource", "impact",
                "industries", "aboveboard_action", "underhanded_action", "benefits"} <= set(a), c.id
        assert len(a["industries"]) == 2 and len(a["benefits"]) == 5
        assert c.id not in a.get("amicable", []) + a.get("hostile", [])
    assert len(items("relationship_overlay")) == 10


@pytest.mark.rule("COMP-2")
def test_ten_industries_in_three_groups_on_one_share_track() -> None:
    industries = items("industry")
    assert len(industries) == 10
    assert Counter(d.attrs["group"] for d in industries) == {"government": 3, "progress": 4, "entertainment": 3}
    track = next(d for d in spec().defs if d.id == "share_track").attrs
    assert len(track["values"]) == len(track["dividends"]) == 15
    assert track["dividends"][:3] == [0, 0, 0]  # the bottom three rows pay nothing
    assert track["dividends"][-4:] == [max(track["dividends"])] * 4  # the top four pay most


@pytest.mark.rule("COMP-3")
def test_150_player_cards_50_per_century() -> None:
    cards = items("player_card")
    assert Counter(d.attrs["century"] for d in cards) == {1: 50, 2: 50, 3: 50}
    for d in cards:
        assert "industry" in d.attrs or "group" in d.attrs, d.id  # any card can invest
        assert d.attrs.get("relationships") or "opportunity" in d.attrs or d.attrs.get("resources"), d.id
    assert {"C1003", "C1011", "C1045", "C3003"} <= {d.id for d in cards}  # the rulebook's own


@pytest.mark.rule("COMP-4")
def test_60_successors() -> None:
    successors = items("successor_card")
    assert len(successors) == 60
    assert all(d.attrs.get("impact") for d in successors)


@pytest.mark.rule("COMP-5")
def test_45_events_15_per_century_with_two_outcomes() -> None:
    events = items("event")
    assert Counter(d.attrs["century"] for d in events) == {1: 15, 2: 15, 3: 15}
    assert all({"top", "bottom", "top_icon", "bottom_icon"} <= set(d.attrs) for d in events)


@pytest.mark.rule("COMP-6")
def test_70_heirlooms_seven_per_character_levels_0_to_6() -> None:
    heirlooms = items("heirloom")
    assert len(heirlooms) == 70
    by_character = Counter(d.attrs["character"] for d in heirlooms)
    assert set(by_character.values()) == {7} and len(by_character) == 10
    for character in by_character:
        assert sorted(d.attrs["level"] for d in heirlooms if d.attrs["character"] == character) == list(range(7))


@pytest.mark.rule("COMP-7", "COMP-8", "COMP-9")
def test_figures_scoring_tiles_and_global_actions() -> None:
    figures = items("legendary_figure")
    assert len(figures) == 8 and all(len(d.attrs["benefits"]) == 3 for d in figures)
    tiles = items("scoring_tile")
    assert Counter(d.attrs["tile"] for d in tiles) == {"end_of_century": 6, "end_of_game": 6}
    for kind in ("end_of_century", "end_of_game"):  # GA-4: every event icon has tiles to match
        icons = Counter(i for d in tiles if d.attrs["tile"] == kind for i in d.attrs["icons"])
        assert set(icons.values()) == {2} and len(icons) == 6, (kind, icons)
    actions = items("global_action")
    assert len(actions) == 8 and sum(1 for d in actions if d.attrs.get("mandatory")) == 2


@pytest.mark.rule("COMP-10")
def test_four_resources_and_six_impact_icons() -> None:
    v = spec().vocab
    assert list(v.counter_sets["resource"]) == ["dye", "gear", "gem", "iron"]
    assert sorted(v.enums["impact"]) == sorted(["manipulation", "power", "knowledge", "commerce", "humanity",
                                                "innovation"])


# ---------------------------------------------------------------------- scoring tiles


def scored(t: Table, tile: str, player: int = GENERAL) -> int:
    """The fame `tile` gives `player` on this table."""
    before = t.value("my fame", player)
    t.run_all(f"play {tile}'s score", player)
    return t.value("my fame", player) - before


@pytest.mark.rule("SCORE-1")
def test_magnetic_5_per_token_on_your_track() -> None:
    t = Table()
    t.run("place my relationship_token on general", POLITICIAN)
    t.run("place my relationship_token on general", SOCIALITE)
    assert scored(t, "magnetic") == 10


@pytest.mark.rule("SCORE-2")
def test_devoted_your_influenced_industries_values() -> None:
    t = Table()
    t.run("raise military's space by 2\nraise transportation's space by 4")  # 5 and 7
    assert scored(t, "devoted") == 12


@pytest.mark.rule("SCORE-3", "SCORE-4")
def test_committed_majors_and_cautious_minors() -> None:
    t = Table()
    t.run("raise law's space by 3\nraise theater's space by 1")  # 6 and 4
    t.run("place my major_token on law\nplace my minor_token on theater\nplace my minor_token on science", GENERAL)
    assert scored(t, "committed") == 6
    assert scored(t, "cautious") == 4 + 3


@pytest.mark.rule("SCORE-5")
def test_desired_twice_the_levels_of_your_heirlooms_opponents_control() -> None:
    t = Table()
    t.run("move H4002 to my controlled\nmove H4003 to my controlled", POLITICIAN)
    t.run("move H4005 to my controlled\nmove H1001 to my controlled", SOCIALITE)  # H1001 is not the General's
    assert scored(t, "desired") == 2 * (2 + 3 + 5)


@pytest.mark.rule("SCORE-6")
def test_exotic_6_per_legendary_figure() -> None:
    t = Table()
    t.run("place my relationship_token on the_oracle\nplace my relationship_token on the_muse", GENERAL)
    assert scored(t, "exotic") == 12


@pytest.mark.rule("SCORE-7", "END-1")
def test_resourceful_doubles_resources_with_the_game_end() -> None:
    t = Table()
    t.run("set my dye to 2\nset my gear to 1\nset my gem to 0\nset my iron to 1", GENERAL)
    assert scored(t, "resourceful") == 4  # and 4 more at the game end: 2 per resource


@pytest.mark.rule("SCORE-8")
def test_nostalgic_three_times_the_levels_with_the_game_end() -> None:
    t = Table()
    t.run("move H4002 to my own_heirlooms\nmove H1003 to my controlled", GENERAL)  # levels 0 + 2 + 3
    assert scored(t, "nostalgic") == 2 * 5  # and 1 x 5 at the game end


@pytest.mark.rule("SCORE-9")
def test_wealthy_one_fame_per_50_gold_with_the_game_end() -> None:
    t = Table()
    t.run("set my gold to 260", GENERAL)
    assert scored(t, "wealthy") == 5 - 2  # the game end gives 2; together 1 per 50


@pytest.mark.rule("SCORE-10")
def test_storied_6_per_distinct_icon_character_included() -> None:
    t = Table()
    by_icon: dict[str, str] = {}
    for d in items("successor_card"):
        by_icon.setdefault(d.attrs["impact"], d.id)
    t.run(f"move {by_icon['power']} to my hall\nmove {by_icon['knowledge']} to my hall\n"
          f"move {by_icon['commerce']} to my hall", GENERAL)
    # the General's own icon is power: power, knowledge and commerce
    assert scored(t, "storied") == 18


@pytest.mark.rule("SCORE-11")
def test_diverse_3_per_token_on_the_board() -> None:
    t = Table()
    t.run("place my relationship_token on socialite\nplace my relationship_token on the_oracle\n"
          "place my minor_token on law\nplace my major_token on law\nplace my relationship_token on ga_income",
          GENERAL)
    assert scored(t, "diverse") == 3 * 4  # the token on a global action does not count


@pytest.mark.rule("SCORE-12", "FND-1")
def test_philanthropic_doubles_foundation_with_the_game_end() -> None:
    t = Table()
    t.run("set my foundation to 110", GENERAL)
    assert scored(t, "philanthropic") == 4  # and 4 more at the game end


@pytest.mark.rule("END-1")
def test_the_game_end_adds_foundation_gold_resources_and_levels() -> None:
    t = Table()
    for p in (1, 2, 3):
        t.run("set my fame to 0\nset my foundation to 0\nset my gold to 0\nset my dye to 0\nset my gear to 0\n"
              "set my gem to 0\nset my iron to 0", p)
    t.run("set my foundation to 80\nset my gold to 250\nset my iron to 3\nmove H1004 to my controlled", GENERAL)
    t.run("remove cards in game_tiles")  # no game-end tile: the base scoring only
    t.run_all("end_game()")
    assert t.value("my fame", GENERAL) == 3 + 2 + 3 + 4  # 80/25, 250/100, 3 resources, levels 0 + 4


# ---------------------------------------------------------------------- successors


@pytest.mark.rule("SUC-4")
def test_matching_impact_icons_unlock_tokens_then_grant_special_actions() -> None:
    t = Table()
    power = [d.id for d in items("successor_card") if d.attrs["impact"] == "power"]  # the General's icon
    locked = t.value("count of relationship_tokens in my locked", GENERAL)
    asked = t.run_all(f"put_in_play({power[0]})", GENERAL)
    unlock = [d for d in asked if d.prompt == "choose one" and "a relationship token" in d.labels()]
    assert unlock, [d.prompt for d in asked]
    assert t.value("count of relationship_tokens in my locked", GENERAL) == locked - 1
    assert t.value("my impact_matches", GENERAL) == 1
    # the 4th match: the special action at once (the General's: an iron, a gear, a fame)
    t.run("set my impact_matches to 3", GENERAL)
    iron = t.value("my iron", GENERAL)
    t.run_all(f"put_in_play({power[1]})", GENERAL)
    assert t.value("my impact_matches", GENERAL) == 4 and t.value("my iron", GENERAL) >= iron + 1


@pytest.mark.rule("SUC-3", "ACT-11")
def test_the_special_action_passes_to_every_successor() -> None:
    t = Table()
    for successor in [d.id for d in items("successor_card")][:3]:
        t.run_all(f"put_in_play({successor})", GENERAL)
        fame = t.value("my fame", GENERAL)
        t.run_all("special_action()", GENERAL)
        assert t.value("my fame", GENERAL) >= fame + 1  # the General's aboveboard action gives a fame


# ---------------------------------------------------------------------- events


@pytest.mark.rule("EVT-2")
def test_an_event_that_strengthens_relationships_moves_tokens_and_pays_nothing() -> None:
    t = Table()
    t.run("place my relationship_token on socialite\nadvance socialite by 2", GENERAL)  # space 3
    wealth = t.value("my fame + my gold + my dye + my gear + my gem + my iron + my foundation", GENERAL)
    t.run_all("play E108's bottom", GENERAL)  # Salon Gossip: each of your tokens 1 space back
    assert t.value("position of top of my_tokens_on(socialite)", GENERAL) == 2
    assert t.value("my fame + my gold + my dye + my gear + my gem + my iron + my foundation", GENERAL) == wealth


@pytest.mark.rule("EVT-3")
def test_an_outcome_naming_a_figure_not_in_the_game_does_nothing() -> None:
    t = Table()
    t.run("set the_oracle's revealed to 0\nset the_oracle's slot to 0")
    before = t.state.fingerprint()
    t.run_all("play E109's top", GENERAL)  # The Oracle's Whisper
    assert t.state.fingerprint() == before
    t.run("set the_oracle's revealed to 1\nset the_oracle's slot to 1")
    fame = t.value("my fame", GENERAL)
    t.run_all("play E109's top", GENERAL)
    assert t.value("my fame", GENERAL) == fame + 2


@pytest.mark.rule("COMP-3")
def test_the_player_cards_reach_every_action_character_and_industry_in_every_century() -> None:
    """Every character is a relationship option in every century; every industry and
    group is on some card; each century has figure costs, opportunities, resources and
    cards showing a character (their player can use it as a wild)."""
    cards = items("player_card")
    characters = {d.id for d in items("character")}
    industries = {d.id for d in items("industry")}
    groups = {d.attrs["group"] for d in items("industry")}
    for century in (1, 2, 3):
        these = [d for d in cards if d.attrs["century"] == century]
        shown = {k for d in these for k in d.attrs.get("relationships", {})}
        assert shown == characters, (century, characters - shown)
        assert {d.attrs["industry"] for d in these if "industry" in d.attrs} == industries, century
        assert {d.attrs["group"] for d in these if "group" in d.attrs} == groups, century
        assert sum(1 for d in these if "figure_cost" in d.attrs) >= 5
        assert sum(1 for d in these if "opportunity" in d.attrs) >= 20
        assert sum(1 for d in these if d.attrs.get("resources")) >= 40
    # opportunities say different things: no two share their text
    texts = [d.attrs["opportunity"].strip() for d in cards if "opportunity" in d.attrs]
    assert len(set(texts)) == len(texts)
