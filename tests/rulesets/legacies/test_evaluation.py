"""Legacies: what the bots steer by (ruleset.yaml's `evaluation:`, rules/legacies/
evaluation.yaml), in hundredths of a fame: the final scoring as if the game ended now,
and what each holding will earn (issue 21: a bot one action ahead must see the worth of
an investment, an opponent's heirloom, a relationship). Read on a table set up by hand."""

from __future__ import annotations

from .conftest import Table

POLITICIAN, SOCIALITE, GENERAL = 1, 2, 3


def worth(t: Table, player: int) -> float:
    t.st.changed()  # the state was arranged by hand: nothing kept from before
    return t.state.evaluate(player - 1)


def test_expected_triggers_and_what_gold_is_worth() -> None:
    """Generation 1 of 3 players: a mandatory action is triggered this generation and in
    each of the 5 after it (600 hundredths), another half as often after this one (3 of
    the 6 non-mandatory ones end a generation: 100 + 5 x 50). Gold is worth 4.4 fame per
    100 while a contribution to the Foundation is ahead, 1 (END-1) once none is."""
    t = Table()
    assert t.value("generation") == 1
    assert t.value("triggers_ahead(ga_relationships)") == 600 and t.value("triggers_ahead(ga_dividends)") == 350
    assert t.value("gold_worth") == 440
    t.run("set generation to 6\nset ga_foundation's face_up to 0")
    assert t.value("triggers_ahead(ga_foundation)") == 0 and t.value("gold_worth") == 100
    assert t.value("triggers_ahead(ga_relationships)") == 100


def test_the_final_scoring_as_if_the_game_ended_now() -> None:
    t = Table()
    t.run("set my fame to 10\nset my gold to 100\nset my foundation to 50\nset my dye to 2\nset my gem to 0\n"
          "set my gear to 0\nset my iron to 0", GENERAL)
    base = worth(t, GENERAL) - t.value("income_ahead + relationships_ahead + investments_worth", GENERAL) \
        - t.value("heirloom_fame_ahead", GENERAL)
    assert base == (10 + 2 + 0) * 100 + 50 * 4 + 100 * 440 / 100  # no heirloom of a level yet


def test_an_investment_counts_its_sale_value_and_its_dividends() -> None:
    """A minor in Law on space 4 (share value 4, dividend 1): 2 shares x 4 gold, and 1 gold
    at each Collect Dividends ahead (3.5), at 4.4 fame per 100 gold. In the last
    generation the sale value counts half: an investment scores nothing unless sold."""
    t = Table()
    before = worth(t, GENERAL)
    t.run("place my minor_token on law\nraise law's space by 1", GENERAL)
    assert t.value("share_value(law)") == 4 and t.value("dividend(law)") == 1
    expected = (2 * 4 * 100 + 1 * 350) * 440 // 10000
    assert t.value("investments_worth", GENERAL) == expected
    assert worth(t, GENERAL) - before == expected
    t.run("place my major_token on law", GENERAL)  # 5 shares more, twice the dividend
    assert t.value("investments_worth", GENERAL) == (7 * 4 * 100 + 3 * 350) * 440 // 10000
    t.run("set generation to 6")
    assert t.value("sale_share") == 50


def test_an_opponents_heirloom_counts_the_fame_it_will_earn() -> None:
    """GA-7: a controlled heirloom pays the better share value of its character's two
    industries at each Generate Heirloom Fame ahead; ACT-6: an own heirloom pays both
    industries' values in gold at each Generate Heirloom Income."""
    t = Table()
    assert t.value("heirloom_fame_ahead", GENERAL) == 0
    t.run("move top of (heirlooms in mat of player_of(politician) where its level = 1) to my controlled", GENERAL)
    assert t.value("heirloom_fame_ahead", GENERAL) == 3 * 350  # Communications and Law both worth 3
    t.run("raise law's space by 2")
    assert t.value("heirloom_fame_ahead", GENERAL) == 5 * 350
    own = t.value("count of heirlooms in my own_heirlooms", GENERAL)
    assert own == 1  # the level-0 heirloom (SET-10)
    assert t.value("income_ahead", GENERAL) == own * t.value("influence_value(me)", GENERAL) * 350 * 440 // 10000


def test_a_relationship_counts_the_benefits_its_token_will_collect() -> None:
    """GA-5: a token on space 1 moves to spaces 2 to 5 as relationships advance (6 times
    more from generation 1: it passes the end first), collecting about 1.1 fame a space in
    century I; a token on a legendary figure collects its benefit at every advance."""
    t = Table()
    t.run("place my relationship_token on politician", GENERAL)
    assert t.value("position of top of track_tokens", GENERAL) == 1
    assert t.value("relationships_ahead", GENERAL) == 4 * 110
    t.run("set generation to 5\nset ga_relationships's face_up to 0")  # one advance more
    assert t.value("relationships_ahead", GENERAL) == 1 * 110
