"""English card text: exact wording for typical effects, and robustness on everything else."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings

from legacies.dsl import ast
from legacies.dsl.parser import parse_expression, parse_program
from legacies.dsl.renderer import render_expr, render_program


def _roundtrip_module() -> ModuleType:
    # The printer tests hold the snippet list and the random-AST strategy; load them by
    # path so this works whatever pytest's import mode is.
    path = Path(__file__).with_name("test_printer_roundtrip.py")
    spec = importlib.util.spec_from_file_location("_dsl_roundtrip_snippets", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_SNIPPETS = _roundtrip_module()
EXAMPLES: list[tuple[str, str]] = _SNIPPETS.EXAMPLES


def render(source: str, **kwargs: object) -> str:
    return render_program(parse_program(source), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("gain 2 gold", "Gain 2 gold."),
        ("choose an industry as X\nraise X's value by 1", "Choose an industry. Raise that industry's value by 1."),
        (
            "transfer up to 20 from my foundation to my gold either way",
            "Move up to 20 from your foundation to your gold, or from your gold to your foundation.",
        ),
        ("may:\n    pay 2 gold\n    draw 1 from my deck", "You may: pay 2 gold, then draw 1 card from your deck."),
        (
            'choose one:\n    "Take gold" if my gold < 5:\n        gain 3 gold\n    "Take fame":\n        gain 1 fame',
            "Choose one — • Take gold (only if your gold is less than 5): gain 3 gold. • Take fame: gain 1 fame.",
        ),
        ("for each p in opponents:\n    gain 1 fame for p", "For each opponent: they gain 1 fame."),
        (
            "for each c in cards in my hand where its cost > 2:\n    discard c",
            "For each card in your hand whose cost is more than 2: discard that card.",
        ),
        (
            "if my gold >= 10:\n    gain 1 fame\nelse if my gold is 0:\n    lose 1 fame",
            "If your gold is at least 10: gain 1 fame. Otherwise, if your gold is 0: lose 1 fame.",
        ),
        (
            "if my hand is empty:\n    draw 2 from my deck\nelse:\n    discard top 1 of my hand",
            "If your hand is empty: draw 2 cards from your deck. Otherwise: discard the top 1 of your hand.",
        ),
        ("lower its value by my gold divided by 2 rounded down", "Lower its value by your gold divided by 2 (rounded down)."),
        ("move top 2 of my deck to my discard at bottom", "Move the top 2 of your deck to the bottom of your discard."),
        ("when turn_start:\n    gain 1 gold", "When turn start: gain 1 gold."),
        ("when this enters play:\n    raise my income by 2", "When this enters play: raise your income by 2."),
        ("when this leaves play:\n    lower my income by 2", "When this leaves play: lower your income by 2."),
        ("while in play: investment_cost * 150%", "While in play: investment cost is 50% more (rounded up)."),
        ("until round_end: trade_cost - 1 for opponents", "Until round end: trade cost is 1 less for your opponents."),
        ("choose up to 2 players after me as P", "Choose up to 2 of the players after you in turn order."),
        ("choose a resource as R\ngain 1 R", "Choose a resource. Gain 1 of that resource."),
        ("let stake be my gold divided by 10\ngain stake fame", "Gain fame equal to your gold divided by 10 (rounded up)."),
        ("gain 2 if K is hostile else 0 fame", "Gain 2 fame if K is hostile."),
        ("gain 1 if K is hostile else 3 fame", "Gain 1 fame if K is hostile, otherwise 3 fame."),
        ("gain 5 gold for bottom of players\ngain position of me fame",
         "The last player in turn order gains 5 gold. Gain fame equal to your place in turn order."),
        ('log "no card text for this"\nsort turn order by its fame ascending', "Sort turn order by its fame (lowest first)."),
        ("gain 1 fame\nwhile in play: cost = 0", "Gain 1 fame.\nWhile in play: cost is 0."),
        # a user's trial: "that number" once the coin number was named read as the coin
        ("choose a number from 0 to 3 as N\npick at random one of [1, 2] as coin\nif coin = 1:\n    gain N * 2 gold",
         "Choose a number from 0 to 3. Pick one of 1 or 2 at random (the coin number). "
         "If the coin number is 1: gain gold equal to the chosen number × 2."),
        ("choose a number from 0 to 3 as N\npay N gold", "Choose a number from 0 to 3. Pay that much gold."),
        ("choose an industry as X\nchoose an industry as best\nraise X's value by 1",
         "Choose an industry. Choose an industry (the best industry). Raise the first industry's value by 1."),
    ],
)
def test_rendered_text(source: str, expected: str) -> None:
    assert render(source) == expected


def test_labels_and_eras() -> None:
    labels = {"gold": "Gold", "turn_start": "the start of your turn", "X": "the Duke"}
    assert render("when turn_start:\n    gain 20/50/100 gold for X", labels=labels) == (
        "When the start of your turn: the Duke gains 20 / 50 / 100 Gold."
    )
    assert render("gain 20/50/100 gold", era_names=["I", "II", "III"]) == "Gain 20 / 50 / 100 gold."


def test_templates_conjugate_for_you_and_articles_agree() -> None:
    labels = {"unprotected": "{0} has no Protect", "industry_of": "a {0} industry", "entertainment": "entertainment"}
    assert render("if unprotected(me):\n    gain 1 fame", labels=labels) == "If you have no Protect: gain 1 fame."
    assert render("if unprotected(X):\n    gain 1 fame", labels={**labels, "X": "the Duke"}) == \
        "If the Duke has no Protect: gain 1 fame."
    assert render_expr(parse_expression("industry_of(entertainment)"), labels) == "an entertainment industry"


def test_render_expr() -> None:
    assert render_expr(ast.Of("hand_size", ast.Name("me"))) == "your hand size"
    assert render_expr(ast.Name("me")) == "you"
    assert render_expr(ast.Not(ast.Empty(ast.Of("deck", ast.Name("me"))))) == "your deck is not empty"
    assert render_expr(ast.Arith("*", ast.Name("a"), ast.Arith("+", ast.Num(1), ast.Num(2)))) == "a × (1 + 2)"


@pytest.mark.parametrize(("kind", "source"), EXAMPLES, ids=[k for k, _ in EXAMPLES])
def test_examples_render_without_internal_names(kind: str, source: str) -> None:
    text = render_program(parse_program(source))
    assert isinstance(text, str)
    assert "_" not in text
    for line in text.splitlines():
        assert line[:1].isupper() and line.endswith("."), line


def test_a_construct_the_renderer_cannot_word_is_an_error_not_source_text() -> None:
    class Mystery(ast.Stmt):
        pass

    with pytest.raises(TypeError, match="cannot word statement Mystery"):
        render_program(ast.Program((ast.Gain(ast.Num(1), ast.Name("gold")), Mystery())))
    with pytest.raises(TypeError, match="cannot word declaration"):
        render_program(ast.Program((), (ast.Node(),)))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_SNIPPETS.PROGRAMS)
def test_rendering_never_raises(program: ast.Program) -> None:
    assert isinstance(render_program(program, era_names=["I", "II"]), str)


def test_counting_conditions_read_as_existence() -> None:
    """`count of C > 0` / `= 0` read "there is at least one ..." / "there is no ..."."""
    from legacies.dsl.parser import parse_expression
    from legacies.dsl.renderer import render_expr

    assert render_expr(parse_expression("count of (cards in my hand where its type is special) = 0")) == \
        "there is no card in your hand whose type is special"
    assert render_expr(parse_expression("count of cards in my hand > 0")) == "there is at least one card in your hand"


def test_a_let_for_the_outer_player_keeps_its_name_inside_as() -> None:
    """Inside `as P:` "you" is P: `let writer be me` must not read "you" there (it used to
    print "transfer 10 from your gold to your gold"; now "give 10 gold to you")."""
    text = render_program(parse_program(
        "let writer be me\nfor each P in opponents:\n    as P:\n        transfer 10 from my gold to writer's gold\n"
        "gain 1 fame for writer"))
    assert text == "For each opponent: that opponent gives 10 gold to the writer. Gain 1 fame."


def test_a_signed_era_value_signs_every_era() -> None:
    """`- 2/4/8` is minus in every era: "2 / 4 / 8 less", not "-2 / 4 / 8"."""
    assert render_program(parse_program("while in play: relationship_discount - 2/4/8")) == \
        "While in play: relationship discount is 2 / 4 / 8 less."
    assert render_program(parse_program("gain - 2/4/8 fame")) == "Gain fame equal to -2 / -4 / -8."


def test_yes_no_counters_and_quantities_read_in_the_rulesets_words() -> None:
    """`my successor_placed = 0` read "your successor put in play is 0": a ruleset may
    say how a yes/no counter or quantity reads (`{0}` is whose it is)."""
    from legacies.dsl.renderer import Wording
    from legacies.dsl.types import T
    from legacies.dsl.vocabulary import CounterInfo, QuantityInfo, Vocabulary

    v = Vocabulary()
    v.counters["placed"] = CounterInfo("player", "successor placed", 0, 1, 0,
                                       "{0} put a successor in play", "{0} has not put a successor in play")
    v.quantities["advance"] = QuantityInfo(T("flag"), True, "player", None, "tokens advance",
                                           "{0}'s tokens advance", "{0}'s tokens do not advance")
    w = Wording.of(v)
    assert render_program(parse_program("if my placed = 0:\n    gain 1 fame"), w) == \
        "If you have not put a successor in play: gain 1 fame."
    assert render_program(parse_program("if my placed != 0:\n    gain 1 fame"), w) == \
        "If you put a successor in play: gain 1 fame."
    assert render_program(parse_program("until generation_end: advance = no for players"), w) == \
        "Until generation end: every player's tokens do not advance."
    assert render_program(parse_program("if advance of me:\n    gain 1 fame"), w) == \
        "If your tokens advance: gain 1 fame."


def test_a_member_of_two_joined_collections_is_named_by_their_noun() -> None:
    """`choose a card in A + B as T` then `remove T`: "that card", not "that one"."""
    text = render_program(parse_program(
        "choose a card in cards in my hand + cards in my discard as T\nremove T"))
    assert text.endswith("then remove that card.") or text.endswith("Remove that card."), text


def test_a_let_that_names_itself_reads_its_earlier_value() -> None:
    """`let n be n + 1` used to recurse without end (found by the rendering fuzz)."""
    assert render_program(parse_program("let n be 2\nlet n be n + 1\ngain n gold")) == "Gain gold equal to 2 + 1."
    assert render_program(parse_program("let n be n + 1\ngain n gold")) == "Gain gold equal to n + 1."


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # lists written out
        ("for each N in [1, 2, 3]:\n    gain N gold", "For each of 1, 2 and 3: gain that much gold."),
        ("if my gold is in [1, 3, 5]:\n    gain 1 fame", "If your gold is 1, 3 or 5: gain 1 fame."),
        ("if my gold is not in [1, 3]:\n    gain 1 fame", "If your gold is not 1 or 3: gain 1 fame."),
        ("choose one of [1, 2, 3] as N\ngain N gold", "Choose one of 1, 2 or 3. Gain that much gold."),
        # modulo
        ("gain my gold modulo 3 fame", "Gain fame equal to the remainder of your gold divided by 3."),
        # the next / previous player, wrapping round
        ("gain 1 gold for player after me", "The next player after you gains 1 gold."),
        ("gain 1 gold for player before me", "The player before you gains 1 gold."),
        # numbers where a condition holds
        ("choose a number from 1 to 10 step 2 where it modulo 3 is 0 as N\ngain N gold",
         "Choose a number from 1 to 10 in steps of 2 where the remainder of it divided by 3 is 0. "
         "Gain that much gold."),
        # a random pick
        ("pick at random 2 cards in my hand as C\ndiscard C",
         "Pick 2 cards in your hand at random. Discard the chosen cards."),
        ("pick at random a card in my hand as C\ndiscard C", "Pick a card in your hand at random. Discard that card."),
        ("pick at random a card in my hand as taken\ndiscard taken",
         "Pick a card in your hand at random (the taken card). Discard the taken card."),
        # ending the game
        ('end the game with me as the winner because "five in a row"', "The game ends now: you win (five in a row)."),
        ("for each P in opponents:\n    end the game with P as the winner", "For each opponent: the game ends now: they win."),
        ('end the game because "no cards are left"', "The game ends now (no cards are left)."),
        # the same card
        ("choose a card in my hand as C\nchoose a card in my hand as D\nif C is the same card as D:\n    gain 1 gold",
         "Choose a card in your hand. Choose a card in your hand. If that card is the same card as the other card: "
         "gain 1 gold."),
        ("choose a card in my hand as C\nif C is not the same card as top of deck:\n    gain 1 gold",
         "Choose a card in your hand. If that card is not the same card as the top of deck: gain 1 gold."),
    ],
)
def test_general_constructs_card_text(source: str, expected: str) -> None:
    assert render(source) == expected
