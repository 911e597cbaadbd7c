"""Legacies: the non-player characters (NPC-*), the Rising Star and two players (TWO-*,
SET-11), played on tables with Nemeses and a Rising Star: their turns by the solo cards
(rules/legacies/npc.yaml, content/legacies/solo.yaml), their seats never asked a
decision (the ruleset's `automated: npc`), the rulebook's worked example of the Nemesis
choosing an industry, the difficulty levels, and solo mode from the command line."""

from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

from legacies.agents.bots import apply_random_option
from legacies.cli.main import app
from legacies.interpreter.errors import InternalError

from .conftest import Table, spec

# a table of two people and a Nemesis (no Rising Star: three players)
BOSS, MOGUL, NEMESIS = 1, 2, 3


def nemesis_table(seed: int = 1, **options: object) -> Table:
    return Table(("underworld_boss", "corporate_mogul", "general"), seed=seed, nemesis=1, **options)


def solo_table(seed: int = 1, **options: object) -> Table:
    """Solo mode: you (the General), one Nemesis (P2) and the Rising Star (P3)."""
    return Table(("general", "politician", "socialite"), seed=seed, nemesis=1, rising_star=True, **options)


def on_top(t: Table, card: str, deck: str = "solo_deck_i") -> None:
    t.run(f"move {card} to {deck}")


def row_source(card: str, row: int) -> str:
    item = next(d for d in spec().defs if d.id == card)
    return str(item.attrs["rows"][row - 1])


def log_since(t: Table, mark: int) -> list[str]:
    return t.st.log.tolist()[mark:]


# ---------------------------------------------------------------------- seats and the turn
@pytest.mark.rule("NPC-1", "NPC-21", "SET-11", "TWO-1", "TWO-3", "NPC-6")
@pytest.mark.parametrize("seed", [3, 4])
def test_solo_mode_plays_to_the_end_and_never_asks_a_non_player_seat(seed: int) -> None:
    """One person, one Nemesis and the Rising Star (two-player setup): random legal
    moves to the end. Only seat 1 is ever asked; the others play by their solo cards,
    the Rising Star at most five a generation; resolved solo cards leave at each
    generation's end; the Rising Star never wins."""
    t = solo_table(seed)
    assert t.of("my npc") == [0, 1, 2]
    assert all(isinstance(c, int) for c in t.of("my character"))  # every seat has a mat
    rng = random.Random(seed)
    most_by_star = 0
    while t.decision is not None:
        assert t.decision.player == 0, f"a non-player seat was asked: {t.decision.prompt}"
        most_by_star = max(most_by_star, t.value("my cards_played", 3))
        for npc in (2, 3):  # NPC-6: none left from an earlier generation (the count starts again)
            assert t.value("count of cards in my solo_played", npc) <= t.value("my cards_played", npc)
        apply_random_option(t.state, rng)
    log = "\n".join(t.st.log.tolist())
    assert "P2 plays the solo card" in log and "P3 plays the solo card" in log
    assert most_by_star <= 5
    assert t.state.winner() != 2 and t.value("my fame", 3) == 0


@pytest.mark.rule("NPC-1")
def test_a_nemesis_turn_resolves_the_row_for_the_cards_it_played() -> None:
    t = nemesis_table()
    t.run("set my cards_played to 2", NEMESIS)
    on_top(t, "solo_i_05")  # row 3: invest from Government toward Entertainment
    assert row_source("solo_i_05", 3) == "npc_invest(government, entertainment)"
    before = t.value("count of (minor_tokens in industries where owner of it is me)", NEMESIS)
    t.run("npc_turn()", NEMESIS)
    assert t.value("name of top of my solo_played", NEMESIS) == "Solo Card I-5"
    assert t.value("my cards_played", NEMESIS) == 3 and t.value("my solo_row", NEMESIS) == 3
    assert t.value("count of (minor_tokens in industries where owner of it is me)", NEMESIS) == before + 1


@pytest.mark.rule("NPC-1")
def test_each_century_draws_from_its_own_solo_deck() -> None:
    t = nemesis_table()
    t.run("set century to 2")
    t.run("npc_turn()", NEMESIS)
    assert t.value("(top of my solo_played)'s century", NEMESIS) == 2


@pytest.mark.rule("NPC-1")
def test_the_rising_star_stops_after_five_cards_a_nemesis_goes_on_with_row_five() -> None:
    t = solo_table()
    t.run("set my cards_played to 5", 3)
    played = t.value("count of cards in my solo_played", 3)
    t.run("npc_turn()", 3)
    assert t.value("count of cards in my solo_played", 3) == played  # no card drawn
    t.run("set my cards_played to 5", 2)
    t.run_all("npc_turn()", 2)
    assert t.value("my cards_played", 2) == 6 and t.value("my solo_row", 2) == 5


@pytest.mark.rule("NPC-2", "TWO-4", "GEN-8")
@pytest.mark.parametrize("characters,options,threshold", [
    (("general", "politician", "socialite"), {"rising_star": True}, 2),  # two players + the Rising Star
    (("general", "politician", "socialite"), {"nemesis": 1, "rising_star": True}, 2),  # solo mode
    (("general", "politician", "socialite"), {"nemesis": 2}, 3),  # one player, two Nemeses
    (("general", "politician", "socialite", "inventor"), {"nemesis": 1, "rising_star": True}, 3),
    (("general", "politician", "socialite"), {}, 3),
])
def test_a_nemesis_counts_toward_the_threshold_the_rising_star_does_not(
        characters: tuple[str, ...], options: dict[str, object], threshold: int) -> None:
    t = Table(characters, **options)
    assert t.value("threshold") == threshold


@pytest.mark.rule("NPC-4")
def test_an_npc_that_cannot_act_adds_the_foundation_amount() -> None:
    t = nemesis_table()
    t.run("set century to 2", NEMESIS)
    assert row_source("solo_ii_03", 1) == "npc_sell(entertainment, progress)"
    t.run("remove minor_tokens in industries where owner of it is me\n"
          "remove major_tokens in industries where owner of it is me\nset my cards_played to 0", NEMESIS)
    on_top(t, "solo_ii_03", "solo_deck_ii")
    before = t.value("my foundation", NEMESIS)
    mark = len(t.st.log)
    t.run("npc_turn()", NEMESIS)
    assert t.value("my foundation", NEMESIS) == before + 40  # the card's Foundation amount
    assert any("cannot perform row 1 of Solo Card II-3" in line for line in log_since(t, mark))


@pytest.mark.rule("NPC-5")
def test_the_market_discard_window_replaces_that_market_card() -> None:
    t = nemesis_table()
    t.run("set my cards_played to 0", NEMESIS)
    on_top(t, "solo_i_05")  # discard window: the bottom (third) card
    third = t.value("entry 3 of (cards in market)")
    t.run("npc_turn()", NEMESIS)
    assert third not in t.value("cards in market") and third in t.value("cards in card_discard")
    assert t.value("count of cards in market") == 3


@pytest.mark.rule("NPC-6")
def test_an_empty_solo_deck_is_rebuilt_keeping_each_npcs_latest_card() -> None:
    t = nemesis_table()
    t.run_all("npc_turn()\nnpc_turn()", NEMESIS)
    latest = t.value("top of my solo_played", NEMESIS)
    played = t.value("my cards_played", NEMESIS)
    t.run("move cards in solo_deck_i to solo_discard")
    t.run_all("npc_turn()", NEMESIS)
    assert t.value("count of cards in my solo_played", NEMESIS) == 2
    assert latest in t.value("cards in my solo_played", NEMESIS)
    assert t.value("my cards_played", NEMESIS) == played + 1  # the count goes on
    assert t.value("count of (solo_cards in solo_discard where its century = 1)") == 0
    assert t.value("count of cards in solo_deck_i") > 0


# ---------------------------------------------------------------------- what a row does
@pytest.mark.rule("NPC-9", "NPC-3")
def test_the_rulebooks_worked_example_the_nemesis_invests_in_military() -> None:
    """Starting in Government toward Entertainment: Communications is on no mat (neither
    the Socialite nor the Politician plays), the Nemesis already has a minor in Law, so
    it invests in Military (the Underworld Boss plays). It pays no gold."""
    t = nemesis_table()
    t.run("set my character to physician\nplace my minor_token on law", NEMESIS)
    assert not t.value("on_a_mat(communications)") and t.value("on_a_mat(law)") and t.value("on_a_mat(military)")
    gold = t.value("my gold", NEMESIS)
    t.run("npc_invest(government, entertainment)", NEMESIS)
    assert t.value("holds_minor(military)", NEMESIS) and t.value("military's space") == 4
    assert not t.value("holds_minor(communications)", NEMESIS)
    assert t.value("count of (minor_tokens in law where owner of it is me)", NEMESIS) == 1
    assert t.value("my gold", NEMESIS) == gold


@pytest.mark.rule("NPC-9")
def test_a_nemesis_out_of_minors_places_a_major() -> None:
    t = nemesis_table()
    t.run("move minor_tokens in my supply to my locked\nset my character to physician", NEMESIS)
    t.run("npc_invest(government, entertainment)", NEMESIS)
    assert t.value("holds_major(law)", NEMESIS) and t.value("law's space") == 5


@pytest.mark.rule("NPC-9")
def test_a_nemesis_sells_its_best_paying_investment_in_the_groups_shown() -> None:
    t = nemesis_table()
    t.run("place my minor_token on tourism\nplace my major_token on law\nset my gold to 0", NEMESIS)
    t.run("npc_sell(entertainment, government)", NEMESIS)  # law: 5 shares x 3 beats tourism 2 x 3
    assert not t.value("holds_major(law)", NEMESIS) and t.value("holds_minor(tourism)", NEMESIS)
    assert t.value("my gold", NEMESIS) == 15 and t.value("law's space") == 1


@pytest.mark.rule("NPC-8", "NPC-3")
def test_a_relationship_with_the_first_character_of_the_row_it_has_none_with() -> None:
    t = nemesis_table()
    own = t.value("name of my character", NEMESIS)
    t.run("place my relationship_token on underworld_boss\nset my gold to 0", NEMESIS)
    own_id = next(d.id for d in spec().defs if d.name == own)
    t.run(f"npc_relate({own_id}, underworld_boss, corporate_mogul)", NEMESIS)
    assert t.value("count of my_tokens_on(corporate_mogul)", NEMESIS) == 1  # own icon and Boss passed over


@pytest.mark.rule("NPC-8")
def test_a_legendary_figure_relationship_takes_the_first_empty_figure() -> None:
    t = nemesis_table()
    first = t.value("entry 1 of (legendary_figures where can_befriend(it))", NEMESIS)
    t.run("npc_befriend()", NEMESIS)
    assert t.value("figures_held", NEMESIS) == 1
    assert t.value(f"count of (relationship_tokens in {spec().defs[t.lay.piece_def[first]].id} "
                   "where owner of it is me)", NEMESIS) == 1


@pytest.mark.rule("NPC-7", "NPC-3")
def test_the_nemesis_takes_its_lowest_own_heirloom_without_resources() -> None:
    t = nemesis_table()
    resources = t.value("resources_of(me)", NEMESIS)
    t.run("npc_own_heirloom()", NEMESIS)
    assert t.value("has_level(1)", NEMESIS)
    assert t.value("resources_of(me)", NEMESIS) == resources


@pytest.mark.rule("NPC-7")
def test_an_opponents_heirloom_goes_to_the_higher_influence_and_the_fee_is_paid() -> None:
    t = nemesis_table()
    t.run("set my fame to 20", NEMESIS)
    t.run("raise law's space by 4")  # the Corporate Mogul (transportation, law) outshines the Boss
    assert t.value("influence_value(me)", MOGUL) > t.value("influence_value(me)", BOSS)
    fame = t.of("my fame")
    lowest = t.value("lowest level of (heirlooms in mat of opponents where npc_may_take(it))", NEMESIS)
    assert t.value(f"count of (heirlooms in mat of opponents where npc_may_take(it) and its level = {lowest})",
                   NEMESIS) == 2  # a tie between the two people: influence decides
    t.run("npc_rival_heirloom()", NEMESIS)
    taken = t.value("heirlooms in my controlled", NEMESIS)
    assert len(taken) == 1
    heirloom = spec().defs[t.lay.piece_def[taken[0]]]
    assert heirloom.attrs["character"] == "corporate_mogul" and heirloom.attrs["level"] == lowest
    fee = 0 if "corporate_mogul" in spec().defs[t.value("my character", NEMESIS)].attrs["hostile"] \
        else heirloom.attrs["fee"]
    assert t.value("my fame", MOGUL) == fame[MOGUL - 1] + fee
    assert t.value("my fame", NEMESIS) == fame[NEMESIS - 1] - fee


# ---------------------------------------------------------------------- global actions and gold
@pytest.mark.rule("NPC-19")
def test_a_nemesis_triggers_the_action_shown_or_the_next_to_its_right() -> None:
    t = nemesis_table()
    t.run("set my actions_triggered to 1", NEMESIS)  # no successor to take: the actions only
    t.run_all("npc_global(ga_income)", NEMESIS)  # (the people answer their own choices)
    assert t.value("ga_income's face_up") == 0 and t.value("optional_triggered") == 1
    t.run_all("npc_global(ga_income)", NEMESIS)  # face down now: the next to the right
    assert t.value("ga_heirloom_fame's face_up") == 0
    t.run("set ga_conference's face_up to 0")
    t.run_all("npc_global(ga_conference)", NEMESIS)  # the end of the row: round to the first
    assert t.value("ga_event's face_up") == 0


@pytest.mark.rule("SET-5", "NPC-19", "NPC-20")
def test_the_nemesis_reads_the_row_the_setup_laid_out() -> None:
    """SET-5: the global actions lie face up in a row, and the row's order is what the
    Nemesis reads: with Guru's row (not the printed order) the action to the right of one
    face down is the next of that row."""
    t = nemesis_table(difficulty=6)
    row = [t.card(a).id for a in t.value("global_actions ordered by its slot")]
    printed = [t.card(a).id for a in t.value("global_actions ordered by its order")]
    level = next(d for d in spec().defs if d.kind == "difficulty_level" and d.attrs["number"] == 6)
    assert row != printed and [printed[level.attrs["slots"].index(s)] for s in range(1, 9)] == row
    t.run("set my actions_triggered to 1", NEMESIS)
    t.run("set triggered_this_generation to 1")  # Contribute may be triggered (GA-8)
    shown = row[2]
    t.run(f"set {shown}'s face_up to 0")
    t.run_all(f"npc_global({shown})", NEMESIS)
    assert t.value(f"{row[3]}'s face_up") == 0  # the next of the row, whatever its printed place
    assert [t.value(f"{a}'s face_up") for a in row if a not in (shown, row[3])] == [1] * 6


@pytest.mark.rule("NPC-19", "GA-8")
def test_a_nemesis_never_contributes_as_the_first_action_of_a_generation() -> None:
    t = nemesis_table()
    t.run("set my actions_triggered to 1", NEMESIS)
    assert t.value("triggered_this_generation") == 0
    t.run_all("npc_global(ga_foundation)", NEMESIS)
    assert t.value("ga_foundation's face_up") == 1 and t.value("ga_influence's face_up") == 0


@pytest.mark.rule("NPC-19")
def test_the_rising_star_adds_foundation_instead_of_a_global_action() -> None:
    t = solo_table()
    t.run_all("npc_turn()", 3)
    amount = t.value("latest_solo's foundation", 3)
    before = t.value("my foundation", 3)
    t.run("npc_global(ga_income)", 3)
    assert t.value("my foundation", 3) == before + amount and t.value("ga_income's face_up") == 1


@pytest.mark.rule("NPC-14")
def test_the_nemesis_contributes_its_cards_amount_and_the_bank_matches_it() -> None:
    t = nemesis_table()
    t.run_all("npc_turn()", NEMESIS)
    t.run("set my actions_triggered to 1", NEMESIS)
    t.run("set triggered_this_generation to 1")
    amount = t.value("latest_solo's foundation", NEMESIS)
    before = t.value("my foundation", NEMESIS)
    t.run_all("npc_global(ga_foundation)", NEMESIS)  # the others are asked whether to add gold
    assert t.value("my foundation", NEMESIS) == before + 2 * amount


@pytest.mark.rule("NPC-18")
def test_a_nemesis_banks_every_gold_it_gains_into_its_foundation() -> None:
    """Its turn triggers Collect Dividends (double for the trigger): the gold lands in its
    Foundation by the end of the turn, and it holds none."""
    t = nemesis_table()
    t.run("place my minor_token on law\nset my actions_triggered to 1\nset my cards_played to 3", NEMESIS)
    t.run("raise law's space by 4")  # space 7: a dividend of 2
    dividend = t.value("dividend(law)")
    assert dividend > 0
    on_top(t, "solo_i_05")  # row 4: Advance Relationships... row 5: Collect Dividends
    t.run("set my cards_played to 4", NEMESIS)
    assert row_source("solo_i_05", 5) == "npc_global(ga_dividends)"
    before = t.value("my foundation", NEMESIS)
    t.run_all("turn()", NEMESIS)
    assert t.value("ga_dividends's face_up") == 0
    assert t.value("my gold", NEMESIS) == 0
    assert t.value("my foundation", NEMESIS) == before + 2 * dividend


@pytest.mark.rule("NPC-17")
def test_an_npc_takes_foundation_as_its_honorarium() -> None:
    t = nemesis_table()
    first = t.value("top of players")
    t.run("set ender to me", first + 1)
    before = t.value("my foundation", NEMESIS)
    t.run_all("honorarium()")
    after = t.value("my foundation", NEMESIS)
    assert after == before + (10 if first + 1 != NEMESIS else 0)


@pytest.mark.rule("NPC-11")
def test_advance_relationships_collects_the_benefit_with_the_most_fame() -> None:
    """Its first token is on the Underworld Boss (space 1: 20 gold), its second on the
    Politician (space 1: 3 fame): as the trigger it collects the fame; then both tokens
    advance and pay (15 gold and 1 iron), never the Boss's 20 gold."""
    t = nemesis_table()
    t.run("place my relationship_token on underworld_boss\nplace my relationship_token on politician", NEMESIS)
    fame, gold, iron = (t.value(f"my {c}", NEMESIS) for c in ("fame", "gold", "iron"))
    t.run_all("advance_relationships()", NEMESIS)
    assert t.value("my fame", NEMESIS) == fame + 3
    assert t.value("my gold", NEMESIS) == gold + 15 and t.value("my iron", NEMESIS) == iron + 1


@pytest.mark.rule("NPC-11")
@pytest.mark.parametrize("century,worth", [(1, [30000, 15, 100, 20000, 10]), (2, [50000, 30, 10100, 30000, 20])])
def test_a_benefits_worth_ranks_fame_then_resources_then_gold(century: int, worth: list[int]) -> None:
    t = nemesis_table()
    t.run(f"set century to {century}")
    assert [t.value(f"benefit_worth(politician, {s})", NEMESIS) for s in range(1, 6)] == worth


def test_every_benefit_rank_counts_its_benefits_fame_resources_and_gold() -> None:
    """The characters' `benefit_rank` data (NPC-11) agrees with the benefits it ranks."""
    defs = {d.id: d for d in spec().defs}

    def worth(text: str) -> int:
        def total(what: str) -> int:
            return sum(int(n) for n in re.findall(rf"gain (\d+) (?:{what})\b", text))
        return total("fame") * 10000 + total("gem|dye|iron|gear|R") * 100 + total("gold")
    for d in defs.values():
        pairs = {"character": [("benefits", "benefit_rank")],
                 "relationship_overlay": [("benefits_ii", "benefit_rank_ii"), ("benefits_iii", "benefit_rank_iii")]}
        for benefits, rank in pairs.get(d.kind, []):
            assert list(d.attrs[rank]) == [worth(str(b)) for b in d.attrs[benefits]], f"{d.id}'s {rank}"


@pytest.mark.rule("NPC-17")
def test_an_npc_prefers_foundation_among_an_events_rewards() -> None:
    """Votes for Women: each player gains 2 fame or 25 Foundation; the people choose (here
    the first, the fame), the Nemesis takes the Foundation."""
    t = nemesis_table()
    t.run("set century to 2")
    fame, foundation = t.of("my fame"), t.of("my foundation")
    asked = t.run_all("top_outcome(E204)")
    assert [d.player + 1 for d in asked] == [BOSS, MOGUL]
    assert t.of("my fame") == [fame[0] + 2, fame[1] + 2, fame[2]]
    assert t.of("my foundation") == [foundation[0], foundation[1], foundation[2] + 25]


@pytest.mark.rule("NPC-10")
@pytest.mark.parametrize("card,outcome", [("solo_i_02", "top"), ("solo_i_01", "bottom")])
def test_the_arrow_of_its_latest_solo_card_picks_the_events_outcome(card: str, outcome: str) -> None:
    t = nemesis_table()
    t.run(f"move {card} to my solo_played", NEMESIS)
    event = t.value("name of top of current_event")
    mark = len(t.st.log)
    t.run_all("resolve_current_event()", NEMESIS)  # a person may pick the scoring tile
    assert f"P3 resolves {event}: the {outcome} outcome" in log_since(t, mark)


@pytest.mark.rule("NPC-10")
@pytest.mark.parametrize("card,highest", [("solo_i_02", True), ("solo_i_01", False)])
def test_the_nemesis_picks_the_highest_or_lowest_scoring_tile_by_its_arrow(card: str, highest: bool) -> None:
    t = nemesis_table()
    t.run(f"move {card} to my solo_played", NEMESIS)
    icon = next(i for i in ("manipulation", "power", "knowledge", "commerce", "humanity", "innovation")
                if t.value(f"count of (scoring_tiles in tile_supply where its tile is end_of_century "
                           f"and {i} is in its icons)") >= 2)
    numbers = t.value(f"(scoring_tiles in tile_supply where its tile is end_of_century and {icon} is in its icons) "
                      "ordered by its number")
    t.run(f"npc_scoring_tile({icon})", NEMESIS)
    assert (numbers[-1] if highest else numbers[0]) in t.value("cards in century_tiles")


@pytest.mark.rule("NPC-12")
def test_heirloom_fame_from_the_best_industries() -> None:
    t = nemesis_table()
    t.run("move top of (heirlooms in mat of players where its character is corporate_mogul and its level = 1) "
          "to my controlled", NEMESIS)
    t.run("raise law's space by 4")  # the Mogul's Law (8) beats its Transportation (3)
    fame = t.value("my fame", NEMESIS)
    t.run_all("heirloom_fame()", BOSS)  # the Boss triggers: the Nemesis takes its best industry
    law, transportation = t.value("share_value(law)"), t.value("share_value(transportation)")
    assert t.value("my fame", NEMESIS) == fame + law
    t.run_all("heirloom_fame()", NEMESIS)  # the Nemesis triggers: both industries of one heirloom
    assert t.value("my fame", NEMESIS) == fame + law + law + transportation


@pytest.mark.rule("NPC-13")
def test_influence_by_the_arrow_as_trigger_and_as_another_player() -> None:
    t = nemesis_table()
    t.run("set my character to physician\nmove solo_i_01 to my solo_played", NEMESIS)  # down arrow
    t.run("raise education's space by 2")  # Education 5 is the Physician's highest
    t.run_all("influence_industries()", BOSS)
    assert t.value("education's space") == 4 and t.value("medicine's space") == 3
    t.run("move solo_i_02 to my solo_played", NEMESIS)  # up arrow, now the latest
    t.run_all("influence_industries()", NEMESIS)  # as the trigger: both up
    assert t.value("education's space") == 5 and t.value("medicine's space") == 4


@pytest.mark.rule("NPC-15")
def test_the_nemesis_hosts_a_trade_conference_by_its_priority_row() -> None:
    """Solo Card I-5: priority Foundation, Fame, Gold, Resources; bid row 2. The currency is
    the last (Resources); it bids row 2 on the first other commodity (Foundation)."""
    t = nemesis_table()
    t.run("move solo_i_05 to my solo_played\nset my dye to 3", NEMESIS)
    mark = len(t.st.log)
    t.run_all("trade_conference()", NEMESIS)
    log = log_since(t, mark)
    assert "P3 hosts the trade conference in Trade Conference - Resources" in log
    assert "P3 bids on Foundation - row 2" in log


@pytest.mark.rule("NPC-15")
def test_the_nemesis_bids_on_the_first_commodity_it_can_when_a_player_hosts() -> None:
    t = nemesis_table()
    t.run("move solo_i_05 to my solo_played\nset my fame to 10", NEMESIS)
    mark = len(t.st.log)
    t.run_all("trade_conference()", BOSS, limit=80)  # the Boss picks the first currency: gold
    assert t.value("currency") == t.piece("tc_gold")
    log = log_since(t, mark)
    # gold bids it cannot pay (it banks all its gold): no space it may bid on, so it passes
    assert "P3 passes" in log or any(line.startswith("P3 bids on") for line in log)


@pytest.mark.rule("NPC-16")
def test_the_nemesis_takes_the_face_up_successor_its_card_shows() -> None:
    t = nemesis_table()
    t.run("move solo_i_03 to my solo_played\nset my actions_triggered to 0\nset my successor_placed to 0",
          NEMESIS)  # Solo Card I-3 shows a face-up successor
    # face up: the lowest-numbered successor matching its impact icon, the highest-numbered other
    t.run("discard cards in successor_offer\n"
          "move top of ((successors in successor_deck where its impact is my character's impact) "
          "ordered by its number) to successor_offer\n"
          "move top of ((successors in successor_deck where its impact is not my character's impact) "
          "ordered by its number descending) to successor_offer", NEMESIS)
    matching = t.value("top of (successors in successor_offer where its impact is my character's impact)", NEMESIS)
    assert t.value("count of successors in successor_offer") == 2
    t.run_all("npc_global(ga_income)", NEMESIS)
    assert t.value("top of my npc_successor", NEMESIS) == matching  # the match beats the higher number
    assert t.value("my successor_placed", NEMESIS) == 1


@pytest.mark.rule("NPC-16")
def test_the_nemesis_takes_the_decks_top_successor_when_its_card_shows_none() -> None:
    t = nemesis_table()
    t.run("move solo_i_01 to my solo_played\nset my actions_triggered to 0\nset my successor_placed to 0",
          NEMESIS)
    top = t.value("name of top of successor_deck")
    foundation = t.value("my foundation", NEMESIS)
    contribution = t.value("(top of successor_deck)'s contribution")
    t.run_all("npc_global(ga_income)", NEMESIS)
    assert t.value("name of top of my npc_successor", NEMESIS) == top
    assert t.value("my foundation", NEMESIS) >= foundation + contribution


# ---------------------------------------------------------------------- two players, difficulty
@pytest.mark.rule("TWO-2", "ACT-8")
def test_two_players_may_each_hold_two_of_an_opponents_heirlooms() -> None:
    t = Table(("general", "politician", "socialite"), rising_star=True)
    assert t.value("heirloom_limit(politician) - (1 if politician is in my character's amicable else 0)") == 2


@pytest.mark.rule("TWO-3")
def test_the_rising_star_always_has_fame_gold_and_resources_to_take() -> None:
    t = Table(("general", "politician", "socialite"), rising_star=True)
    t.run("lose 50 fame\nlose 900 gold\nlose 9 dye", 3)  # taken by the others
    assert t.value("my fame", 3) < 99
    t.run_all("turn()", 3)
    assert t.value("my fame", 3) == 99 and t.value("my gold", 3) == 999 and t.value("my dye", 3) == 9


@pytest.mark.rule("NPC-20")
@pytest.mark.parametrize("level,tile,foundation_slot", [(1, "wealthy", 5), (6, "philanthropic", 1)])
def test_a_difficulty_level_sets_the_game_end_tile_and_the_row(level: int, tile: str, foundation_slot: int) -> None:
    t = nemesis_table(difficulty=level)
    assert t.value(f"count of (scoring_tiles in game_tiles where it is {tile})") == 1
    assert t.value("ga_foundation's slot") == foundation_slot


@pytest.mark.rule("NPC-20")
def test_each_nemesis_starts_with_its_levels_head_start_of_fame() -> None:
    """Ours (docs/assumptions-legacies.md): from Advanced on, the harder the level, the
    more fame a Nemesis starts with; the people start as their mats say."""
    starts = []
    for level in range(1, 7):
        t = Table(("underworld_boss", "corporate_mogul", "general", "inventor"), nemesis=2, difficulty=level)
        head_start = t.value(f"(top of (difficulty_levels where its number = {level}))'s head_start")
        assert t.of("my fame") == [t.value("my character's start_fame", p) + (head_start if p > 2 else 0)
                                   for p in range(1, 5)]
        starts.append(head_start)
    assert starts[:2] == [0, 0] and starts[1:] == sorted(set(starts[1:]))  # Novice, Standard: the rulebook's


@pytest.mark.rule("NPC-20", "SET-6")
def test_standard_never_draws_wealthy_or_philanthropic_and_no_nemesis_keeps_the_printed_row() -> None:
    for seed in range(6):
        t = nemesis_table(seed=seed, difficulty=2)
        assert t.value("count of (scoring_tiles in game_tiles where it is wealthy or it is philanthropic)") == 0
    plain = Table(("general", "politician", "socialite"))
    assert [plain.value(f"{a}'s slot") for a in ("ga_event", "ga_foundation", "ga_conference")] == [1, 5, 8]


# ---------------------------------------------------------------------- the automated seat
def test_a_seat_the_rules_run_takes_the_first_option_the_rules_allow() -> None:
    """The engine's `automated:` counter: a refused option is passed over, nothing is
    asked; a person at the same choice is asked."""
    t = nemesis_table()
    source = 'choose one:\n    "too dear":\n        pay 1000 fame\n    "one fame":\n        gain 1 fame'
    fame = t.value("my fame", NEMESIS)
    assert t.run(source, NEMESIS) == []
    assert t.value("my fame", NEMESIS) == fame + 1
    asked = t.run(source, BOSS, answers=["one fame"])
    assert [d.prompt for d in asked] == ["choose one"]


def test_a_seat_the_rules_run_with_every_option_refused_is_an_internal_error() -> None:
    t = nemesis_table()
    with pytest.raises(InternalError, match="run by the rules and every option"):
        t.run('choose one:\n    "a":\n        pay 1000 fame\n    "b":\n        pay 1000 gold', NEMESIS)


# ---------------------------------------------------------------------- the command line
@pytest.mark.rule("NPC-21", "TWO-1", "SET-11")
def test_play_solo_with_one_nemesis_seats_the_rising_star_too() -> None:
    """The ruleset's own seat kinds (`seats:`) are seat kinds on the command line."""
    result = CliRunner().invoke(app, ["play", "--seat", "random", "--seat", "nemesis", "--fast", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "Nemesis plays the solo card" in result.output and "Rising Star plays the solo card" in result.output
    assert "Nemesis (nemesis)" in result.output and "Rising Star (rising_star)" in result.output


@pytest.mark.rule("TWO-1")
def test_two_seats_get_a_rising_star_and_one_seat_alone_is_refused() -> None:
    runner = CliRunner()
    two = runner.invoke(app, ["play", "--seat", "random", "--seat", "random", "--fast", "--quiet"])
    assert two.exit_code == 0, two.output
    assert "Rising Star" in two.output
    alone = runner.invoke(app, ["play", "--seat", "random", "--fast"])
    assert alone.exit_code == 2 and "--seat nemesis" in alone.output, alone.output
    crowded = runner.invoke(app, ["play", *["--seat", "random"] * 5, "--option", "nemesis=2"])
    assert crowded.exit_code == 2 and "not 7 (5 seats and 2 the rules run)" in crowded.output, crowded.output
    both = runner.invoke(app, ["play", "--seat", "random", "--seat", "nemesis", "--option", "nemesis=2"])
    assert both.exit_code == 2 and "1 --seat nemesis and --option nemesis=2 disagree" in both.output


def test_difficulty_is_an_option_named_by_the_levels() -> None:
    runner = CliRunner()
    wrong = runner.invoke(app, ["play", "--seat", "random", "--seat", "nemesis", "--option", "difficulty=hard"])
    assert wrong.exit_code == 2 and "advanced, expert, guru, master, novice, standard" in wrong.output, wrong.output
    guru = runner.invoke(app, ["play", "--seat", "random", "--seat", "nemesis", "--seat", "nemesis",
                               "--option", "difficulty=Guru", "--fast"])
    assert guru.exit_code == 0, guru.output
    assert "difficulty: Guru" in guru.output  # the setup's log: the level the name stands for
    listed = runner.invoke(app, ["rulesets"])
    assert "  seat nemesis\tNemesis: " in listed.output and "  seat rising_star\tRising Star: " in listed.output
    assert "  option difficulty\tnovice, standard, advanced, expert, master, guru" in listed.output
    # issue 21: what a level changes, the head start of fame included, is said where the levels are listed
    line = next(x for x in listed.output.splitlines() if x.startswith("  option difficulty"))
    levels = sorted((d for d in spec().defs if d.kind == "difficulty_level"), key=lambda d: d.attrs["number"])
    starts = [str(d.attrs["head_start"]) for d in levels]  # the content's, as the text says them
    assert f"{', '.join(starts[:-1])} or {starts[-1]} fame more than its mat's, its head start" in line
    assert f"a head start of {min(s for s in starts if s != '0')} to {starts[-1]} fame" in listed.output
    assert "`legacies rulesets` lists" in " ".join(runner.invoke(app, ["play", "--help"]).output.replace("│", " ").split())


@pytest.mark.rule("NPC-16")
def test_the_nemesis_is_not_affected_by_its_own_successors_powers() -> None:
    """The Prodigal Son (S26): NOW gain 30 gold, RETIRE lose 2 fame. A person gets both;
    the Nemesis gets its Foundation contribution only, in play or when it retires."""
    t = nemesis_table()
    t.run("move S26 to my successor_hand\nset my fame to 10", 1)
    gold, fame = t.value("my gold", 1), t.value("my fame", 1)
    t.run_all("put_in_play(S26)", 1)
    assert t.value("my gold", 1) == gold + 30 and t.value("name of top of my successor", 1) == "The Prodigal Son"
    t.run_all("put_in_play(S27)", 1)  # the next one retires it
    assert t.value("my fame", 1) == fame - 2
    t = nemesis_table()
    t.run("move S26 to my successor_hand\nset my successor_placed to 0\nset my fame to 10", NEMESIS)
    gold, fame = t.value("my gold", NEMESIS), t.value("my fame", NEMESIS)
    foundation = t.value("my foundation", NEMESIS)
    t.run_all("put_in_play(S26)", NEMESIS)
    assert t.value("name of top of my npc_successor", NEMESIS) == "The Prodigal Son"
    assert t.value("count of cards in my successor", NEMESIS) == 0  # never in play
    assert t.value("my gold", NEMESIS) == gold and t.value("my foundation", NEMESIS) == foundation + \
        t.value("S26's contribution")
    t.run_all("put_in_play(S27)", NEMESIS)  # retired: its RETIRE power does not apply either
    assert t.value("my fame", NEMESIS) == fame
    assert t.value("count of (cards in my hall where it is S26)", NEMESIS) == 1
