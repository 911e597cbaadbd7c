"""The printer is the parser's inverse: parse(print(ast)) == ast.

(a) real snippets covering every statement and declaration kind of effects.lark;
(b) a hypothesis property over random ASTs of the shapes the parser can produce.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from legacies.dsl import ast
from legacies.dsl.parser import parse_program
from legacies.dsl.printer import print_expr, print_program



# ------------------------------------------------------------------ (a) examples

EXAMPLES: list[tuple[str, str]] = [
    ("let", "let total be my gold + 2 * X's value - its cost divided by 3"),
    ("gain", "gain 2 gold"),
    ("gain_for", "gain 1 fame for X"),
    ("lose", "lose 20/50/100 gold"),
    ("pay", "pay my income * 150% gold for X"),
    ("pay_cards", "pay for X from my resources"),
    ("transfer", "transfer 5 from my gold to X's gold"),
    ("transfer_up_to_either", "transfer up to 20 from my foundation to my gold either way"),
    ("set", "set my income to 0"),
    ("raise", "raise X's value by 1"),
    ("lower", "lower its value by my gold divided by 2 rounded down"),
    ("move", "move X to my discard"),
    ("move_top", "move X to my deck at top"),
    ("move_bottom", "move top 2 of my deck to my hand at bottom"),
    ("draw", "draw 2 from my deck"),
    ("draw_to", "draw (my hand_size - 1) from market to my hand"),
    ("deal", "deal 5 from deck to X's hand"),
    ("discard", "discard cards in my hand where its cost > 2 and it is not X"),
    ("shuffle", "shuffle my deck"),
    ("reveal", "reveal top 3 of my deck"),
    ("place", "place my marker on X's track"),
    ("place_bare_name", "place (marker) on track"),
    ("advance", "advance fame_track by -1"),
    ("remove", "remove tokens in X"),
    ("dig", "dig for cards in my deck where its kind is \"ship\" to my hand"),
    ("auction", "auction among players after me for gold as W and B\ngain B fame for W"),
    ("announce", "announce round_end"),
    ("announce_with", "announce auction with lot = X, minimum = 10, silent = yes"),
    ("choose_a", "choose an industry as X\nraise X's value by 1"),
    ("choose_exact", "choose 3 players after me as P"),
    ("choose_expr", "choose (my gold divided by 10) cards in market as C"),
    ("choose_up_to", "choose up to 2 cards in my hand as C"),
    ("choose_up_to_expr", "choose up to (X's level) cards in X where its owner is me as C"),
    ("choose_number", "choose a number from 0 to 5 as N"),
    ("as_player", "for each P in opponents:\n    as P:\n        may:\n            gain 1 gold\n"),
    ("ordered", "let first be top of (players ordered by its fame descending)"),
    ("perform_one", "perform one of build, trade"),
    ("perform_up_to_one", "perform up to one of build"),
    ("perform_any", "perform any of build, trade, sell"),
    ("play", "play X"),
    ("sort_desc", "sort turn order by its foundation descending"),
    ("sort_asc", "sort turn order by its fame ascending"),
    ("sort_default", "sort turn order by its fame"),
    ("begin_final_round", "begin final round"),
    ("stop_turns", "stop taking turns"),
    ("until", "until round_end: income = no for opponents"),
    ("until_subject", "until turn_end: cost of X - 2"),
    ("log", 'log "The market crashes #1"'),
    (
        "if_elif",
        "if my gold >= 10:\n    gain 1 fame\nelse if my gold is 0:\n    lose 1 fame\nelse if X is in my hand:\n    discard X",
    ),
    ("if_else", 'if X is empty:\n    log "a"\nelse:\n    log "b"'),
    ("if_elif_else", "if a:\n    gain 1 gold\nelse if b:\n    gain 2 gold\nelse:\n    lose 1 gold"),
    ("nested_if_else", "if a:\n    if b:\n        gain 1 gold\n    else:\n        gain 2 gold\nelse:\n    lose 1 gold"),
    (
        "choose_one",
        'choose one:\n    "Take gold" if my gold < 5:\n        gain 3 gold\n    "Take fame":\n        gain 1 fame\n'
        "        draw 1 from my deck",
    ),
    ("may_prompt", 'may "Pay 2 gold to draw a card?":\n    pay 2 gold\n    draw 1 from my deck'),
    ("may", "may:\n    discard X"),
    ("for_each", "for each p in opponents:\n    gain 1 fame for p"),
    ("repeat", "repeat X's level times:\n    draw 1 from my deck"),
    ("take_turns_until", "take turns until count(opponents) < 1:\n    perform one of build, pass_turn"),
    ("take_turns", "take turns:\n    stop taking turns"),
    ("trigger", "when turn_start:\n    gain 1 gold"),
    ("trigger_where", "when card_played where its cost > 3 and it is not this:\n    gain 1 fame"),
    ("hook_enters", "when this enters play:\n    raise my income by 2"),
    ("hook_leaves", "when this leaves play:\n    lower my income by 2"),
    ("continuous", "while in play: investment_cost * 150%"),
    ("continuous_subject_scope", "while in play: income of X's company + 2 for opponents"),
    ("mixed_order", "when round_end:\n    gain 1 gold\ngain 2 gold\nwhile in play: cost = 0"),
    ("bool_ops", "let v be not (a or b) and c is not empty or d is empty and not e"),
    ("arith", "let v be -(a - b) * c divided by (d + e) rounded up - --f"),
    ("calls", "let v be f(a, b where c, top (x + 1) of d) + g()"),
    ("postfix", "let v be value of players after X's neighbour's seat"),
    ("nested_of", "let v be a of b of X's c"),
    ("where_nested", "let v be (cards in my hand where its cost > 1) where it is in X"),
    ("comparisons", "let v be a = b and a != b and a <= b and (a > b) is no"),
    ("literals", 'let v be "text" + 150% + 1/2/3 + this + it + yes'),
    ("nested_blocks", "for each c in cards in my hand:\n    if its cost > 2:\n        may:\n            repeat 2 times:\n"
     "                discard c"),
    ("top_no_count", "move top of my deck to bottom of my discard"),
    ("conditional", "gain 2 if K is in my character's hostile else 0 fame"),
    ("conditional_nested", "let v be 25 if f >= 150 else 5 if f >= 50 else 1"),
    ("has", "let v be X has cost and not Y has no level"),
    ("entry", "let v be entry 2 of X's costs + entry (S + 1) of K's benefits + entry S of t"),
    ("entry of it", "gain total value of (industries where entry it of my costs > 2) gold"),
    ("space", "move T to space 2 of K without bumping\nplace my marker on space (n) of K"),
    ("aggregate", "let v be total value of my character's industries + highest fame of players + lowest x of y"),
    ("relative", "let v be players after X + players before me + players starting with ender"),
    ("run", "collect_benefit(K, 2)\nreset()"),
    ("shift", "move T by -1\nmove T by 2 without bumping"),
    ("place_no_bump", "place my marker on K without bumping"),
    ("choose_number_step", "choose a number from 0 to 50 step 5 as N"),
    ("trigger_once", "when built where card is this once per turn:\n    announce built"),
    # general constructs
    ("list", "let v be [1, 2, a + 3] + []\nfor each X in [me, P]:\n    gain 1 gold for X"),
    ("list_member", "let v be its cost is in [1, 3, 5] and it is not in [a, b]"),
    ("choose_from_list", "choose one of [1, 2, 3] as N\nchoose 2 of [a, b, c] as L\nchoose up to (n) of [a, b] as M\n"
     "pick at random 2 of [1, 2, 3] as P"),
    ("modulo", "let v be (a + 1) modulo player_count * 2 + b modulo (c modulo d)"),
    ("same_card", "let v be A is the same card as B or A is not the same card as top of my hand"),
    ("player_after", "let v be player after me\ngain 1 gold for player before active_player"),
    ("choose_number_where", "choose a number from 1 to (a if b else c) step 2 where it modulo 3 is 0 as N"),
    ("pick_random", "pick at random a card in my hand as C\npick at random 2 players as P\n"
     "pick at random (n + 1) industries as X\npick at random one of [1, 2] as Y"),
    ("end_game", "end the game\nend the game because \"no cards left\"\n"
     "end the game with P as the winner because \"five in a row\"\nend the game with player after me as the winner"),
    ("neighbours", "let v be neighbours of X + neighbours of my home by road or ferry"),
    ("within", "let v be places within 2 of X by road through its owner is me\nlet w be provinces within (n) of X"),
    ("distance", "if distance from X to Y by road through it is not Z <= 2:\n    gain 1 gold"),
    ("connected_group", "let v be connected group of X by road where its owner is me"),
    ("offer", "offer build, trade to opponents"),
    ("graph_tails", "move (neighbours of X) by 2\nlet v be (neighbours of X by road) or Y\n"
     "let w be places within 1 of (places within 2 of X) through it is Y"),
]


def _roundtrip(source: str) -> None:
    program = parse_program(source)
    printed = print_program(program)
    assert parse_program(printed) == program, printed
    assert print_program(parse_program(printed)) == printed  # canonical: printing is a fixpoint


@pytest.mark.parametrize(("kind", "source"), EXAMPLES, ids=[k for k, _ in EXAMPLES])
def test_example_roundtrips(kind: str, source: str) -> None:
    _roundtrip(source)


def test_every_node_kind_is_covered_by_examples() -> None:
    """These examples and the registry's (dsl/constructs.py) hold every node kind: a new
    construct's example in its registry entry is enough."""
    from legacies.dsl.constructs import CONSTRUCTS
    seen: set[type] = set()
    for source in [src for _, src in EXAMPLES] + [c.example for c in CONSTRUCTS.values() if c.example]:
        program = parse_program(source)
        seen.update(type(n) for n in ast.walk(program))
    node_kinds = {
        cls for cls in vars(ast).values()
        if isinstance(cls, type) and issubclass(cls, ast.Node) and cls not in (ast.Node, ast.Expr, ast.Stmt)
    }
    assert node_kinds - seen <= {ast.Span}, sorted(c.__name__ for c in node_kinds - seen)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("choose 1 cards as C", "choose a cards as C\n"),
        ("choose (1) cards as C", "choose a cards as C\n"),
        ("choose up to (2) cards as C", "choose up to 2 cards as C\n"),
        ("choose (a + 1) cards as C", "choose (a + 1) cards as C\n"),
        ("let v be me's gold", "let v be my gold\n"),
        ("let v be it's gold", "let v be its gold\n"),
        ("let v be gold of X", "let v be X's gold\n"),
        ("let v be gold of (a + b)", "let v be gold of (a + b)\n"),
        ("let v be not a is empty", "let v be a is not empty\n"),
        ("let v be a = b", "let v be a is b\n"),
        ("let v be ((a + b)) * c", "let v be (a + b) * c\n"),
        ("let v be a - (b - c) - d", "let v be a - (b - c) - d\n"),
        ("place (a + b) on t", "place a + b on t\n"),
        ("place (my x) on t", "place my x on t\n"),
        ("if x: gain 1 gold", "if x:\n    gain 1 gold\n"),
        ("while in play: q*150%", "while in play: q * 150%\n"),
        ("", ""),
    ],
)
def test_canonical_text(source: str, expected: str) -> None:
    assert print_program(parse_program(source)) == expected


def test_print_expr_special_cases() -> None:
    assert print_expr(ast.Of("gold", ast.Name("me"))) == "my gold"
    assert print_expr(ast.Of("gold", ast.It())) == "its gold"
    assert print_expr(ast.Of("gold", ast.Name("X"))) == "X's gold"
    assert print_expr(ast.Of("gold", ast.This())) == "gold of this"
    assert print_expr(ast.Div(ast.Name("a"), ast.Num(2), "down")) == "a divided by 2 rounded down"
    assert print_expr(ast.Era((20, 50, 100))) == "20/50/100"
    assert print_expr(ast.Percent(150)) == "150%"
    assert print_expr(ast.Compare("in", ast.Name("a"), ast.Name("b"))) == "a is in b"
    assert print_expr(ast.Compare("!=", ast.Name("a"), ast.Name("b"))) == "a is not b"
    assert print_expr(ast.Neg(ast.Arith("+", ast.Num(1), ast.Num(2)))) == "-(1 + 2)"


# ------------------------------------------------------------------ (b) property

# Non-keyword identifiers only (every literal of effects.lark is a keyword somewhere).
IDENTS = st.sampled_from(["foo", "bar", "gold", "hand", "X", "me", "fame_track", "cards", "Y2", "_tmp"])
NAMES = IDENTS.map(ast.Name)
# STRING is /"[^"\n]*"/; tabs would be expanded by parse_program.
TEXTS = st.text(alphabet="abcXYZ 019.,!?'#:%()_-é", max_size=12)
INTS = st.integers(min_value=0, max_value=999)
LINKS = st.lists(NAMES, max_size=2).map(tuple)

_atoms = st.one_of(
    INTS.map(ast.Num),
    st.lists(INTS, min_size=2, max_size=4).map(lambda v: ast.Era(tuple(v))),
    INTS.map(ast.Percent),
    TEXTS.map(ast.Text),
    st.booleans().map(ast.Bool),
    NAMES,
    st.just(ast.This()),
    st.just(ast.It()),
)


def _extend(sub: st.SearchStrategy[ast.Expr]) -> st.SearchStrategy[ast.Expr]:
    top_count = st.one_of(st.none(), sub)
    return st.one_of(
        st.builds(ast.Of, IDENTS, sub),
        st.builds(ast.Empty, sub),
        st.builds(ast.Compare, st.sampled_from(["=", "!=", ">", "<", ">=", "<=", "in"]), sub, sub),
        st.builds(ast.BoolOp, st.sampled_from(["and", "or"]), sub, sub),
        st.builds(ast.Not, sub),
        st.builds(ast.Arith, st.sampled_from(["+", "-", "*"]), sub, sub),
        st.builds(ast.Div, sub, sub, st.sampled_from([None, "up", "down"])),
        st.builds(ast.Neg, sub),
        st.builds(ast.Where, sub, sub),
        st.builds(ast.Select, IDENTS, sub),
        st.builds(ast.Top, st.sampled_from(["top", "bottom"]), top_count, sub),
        st.builds(ast.Relative, st.sampled_from(["after", "before", "starting"]), sub,
                  st.sampled_from(["players", "player", "coins"])),
        st.builds(ast.Call, IDENTS, st.lists(sub, max_size=3).map(tuple)),
        st.builds(ast.Cond, sub, sub, sub),
        st.builds(ast.Has, sub, IDENTS, st.booleans()),
        st.builds(ast.Entry, sub, sub),
        st.builds(ast.SpaceOf, sub, sub),
        st.builds(ast.Aggregate, st.sampled_from(["total", "highest", "lowest"]), IDENTS, sub),
        st.builds(ast.ListLiteral, st.lists(sub, max_size=3).map(tuple)),
        st.builds(ast.Modulo, sub, sub),
        st.builds(ast.SameCard, sub, sub, st.booleans()),
        st.builds(ast.Neighbours, sub, LINKS),
        st.builds(ast.Within, st.sampled_from(["places", "cards", "foo"]), sub, sub, LINKS, st.one_of(st.none(), sub)),
        st.builds(ast.Distance, sub, sub, LINKS, st.one_of(st.none(), sub)),
        st.builds(ast.ConnectedGroup, sub, sub, LINKS),
    )


EXPRS = st.recursive(_atoms, _extend, max_leaves=8)
OPT_EXPRS = st.one_of(st.none(), EXPRS)

MODIFIERS = st.builds(ast.Modifier, NAMES, OPT_EXPRS, st.sampled_from(["*", "+", "-", "="]), EXPRS, OPT_EXPRS)

SIMPLE_STMTS = st.one_of(
    st.builds(ast.Let, IDENTS, EXPRS),
    st.builds(ast.Gain, EXPRS, NAMES, OPT_EXPRS),
    st.builds(ast.Lose, EXPRS, NAMES, OPT_EXPRS),
    st.builds(ast.Pay, EXPRS, NAMES, OPT_EXPRS),
    st.builds(ast.PayCards, EXPRS, EXPRS),
    st.builds(ast.Transfer, EXPRS, EXPRS, EXPRS, st.booleans(), st.booleans()),
    st.builds(ast.SetTo, EXPRS, EXPRS),
    st.builds(ast.Raise, EXPRS, EXPRS),
    st.builds(ast.Lower, EXPRS, EXPRS),
    st.builds(ast.Move, EXPRS, EXPRS, st.sampled_from([None, "top", "bottom"]), st.booleans()),
    st.builds(ast.Shift, EXPRS, EXPRS, st.booleans()),
    st.builds(ast.Run, NAMES, st.lists(EXPRS, max_size=3).map(tuple)),
    st.builds(ast.Draw, EXPRS, EXPRS, OPT_EXPRS),
    st.builds(ast.Deal, EXPRS, EXPRS, EXPRS),
    st.builds(ast.Discard, EXPRS),
    st.builds(ast.Shuffle, EXPRS),
    st.builds(ast.Reveal, EXPRS),
    st.builds(ast.Place, EXPRS, EXPRS, st.booleans()),
    st.builds(ast.Advance, EXPRS, EXPRS),
    st.builds(ast.Remove, EXPRS),
    st.builds(ast.Dig, EXPRS, EXPRS),
    st.builds(ast.Auction, EXPRS, NAMES, IDENTS, IDENTS),
    st.builds(ast.Announce, NAMES, st.lists(st.builds(ast.Arg, IDENTS, EXPRS), max_size=3).map(tuple)),
    st.builds(ast.ChooseFrom, st.sampled_from(["exact", "up_to"]), EXPRS, EXPRS, IDENTS),
    st.builds(ast.ChooseNumber, EXPRS, EXPRS, IDENTS, OPT_EXPRS, OPT_EXPRS),
    st.builds(ast.PickRandom, EXPRS, EXPRS, IDENTS),
    st.builds(ast.EndGame, OPT_EXPRS, st.one_of(st.none(), TEXTS)),
    st.builds(ast.Perform, st.sampled_from(["one", "up_to_one", "any"]), st.lists(NAMES, min_size=1, max_size=3).map(tuple)),
    st.builds(ast.Play, EXPRS),
    st.builds(ast.SortTurnOrder, EXPRS, st.booleans()),
    st.just(ast.BeginFinalRound()),
    st.just(ast.StopTurns()),
    st.builds(ast.TimedModifier, NAMES, MODIFIERS),
    st.builds(ast.Log, TEXTS),
    st.builds(ast.Offer, st.lists(NAMES, min_size=1, max_size=3).map(tuple), EXPRS),
)


def _statements(depth: int) -> st.SearchStrategy[ast.Stmt]:
    if depth == 0:
        return SIMPLE_STMTS
    body = st.lists(_statements(depth - 1), min_size=1, max_size=3).map(tuple)
    otherwise = st.one_of(st.none(), body)
    compound = st.one_of(
        st.builds(ast.If, st.lists(st.builds(ast.Branch, EXPRS, body), min_size=1, max_size=3).map(tuple), otherwise),
        st.builds(ast.ChooseOne, st.lists(st.builds(ast.Option, TEXTS, OPT_EXPRS, body), min_size=1, max_size=3).map(tuple)),
        st.builds(ast.May, st.one_of(st.none(), TEXTS), body),
        st.builds(ast.ForEach, IDENTS, EXPRS, body),
        st.builds(ast.Repeat, EXPRS, body),
        st.builds(ast.AsPlayer, EXPRS, body),
        st.builds(ast.TakeTurns, OPT_EXPRS, body),
    )
    return st.one_of(SIMPLE_STMTS, compound)


STATEMENTS = _statements(2)
BODIES = st.lists(STATEMENTS, min_size=1, max_size=3).map(tuple)
DECLARATIONS = st.one_of(
    st.builds(ast.Trigger, NAMES, OPT_EXPRS, BODIES, st.booleans()),
    st.builds(ast.Hook, st.sampled_from(["enters", "leaves"]), BODIES),
    st.builds(ast.Continuous, MODIFIERS),
)
PROGRAMS = st.builds(
    ast.Program,
    st.lists(STATEMENTS, max_size=4).map(tuple),
    st.lists(DECLARATIONS, max_size=3).map(tuple),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(PROGRAMS)
def test_print_then_parse_is_identity(program: ast.Program) -> None:
    printed = print_program(program)
    assert parse_program(printed) == program, printed


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRS)
def test_expression_roundtrip(expr: ast.Expr) -> None:
    printed = print_expr(expr)
    program = parse_program(f"let v be {printed}\n")
    assert program.statements == (ast.Let("v", expr),), printed
