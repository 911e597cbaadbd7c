"""Regression tests for issue 17, section 1: content that passed `validate` and then did
something else. Each test failed before its fix; each defect is now either correct or a
located diagnostic. Run against the Mini Legacies fixture (tests/fixtures/minilegacies)
unless a test builds its own ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.dsl.diagnostics import DiagnosticError
from legacies.interpreter import sandbox
from legacies.interpreter.errors import ContentError, GameError, InternalError, Refused
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

from tables import small_ruleset

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "minilegacies"


@pytest.fixture(scope="module")
def spec():
    result = load_ruleset("minilegacies", root=FIXTURE)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return result.spec


def fresh(spec, players: int = 3, seed: int = 0) -> GameState:
    return Game(spec, players).new_state(seed)


def value(state: GameState, source: str, player: int = 1) -> object:
    return sandbox.value(state, source, player - 1)


def codes(err: DiagnosticError) -> list[str]:
    return [d.code for d in err.diagnostics]


# ---------------------------------------------------------------------- `KIND in ITEMS`


def test_tokens_in_a_collection_of_items_are_the_tokens_on_them(spec) -> None:
    """`tokens in (characters where ...)` counted the characters (one each), not the
    tokens on their tracks."""
    state = fresh(spec)
    sandbox.run(state, "place my relationship_token on duke\nplace my relationship_token on duke")
    sandbox.run(state, "place my relationship_token on duke", player=1)
    assert value(state, "count of (tokens in (characters where it is duke))") == 3
    assert value(state, "count of (tokens in characters)") == 3
    assert value(state, "count of (tokens in [duke, merchant])") == 3
    assert value(state, "count of (relationship_tokens in characters where owner of it is me)") == 2
    assert value(state, "count of (tokens in duke)") == 3  # one item: the same reading
    assert value(state, "count of (characters in characters)") == value(state, "count of characters")


def test_tokens_of_items_that_hold_none_is_a_type_error(spec) -> None:
    """Industries have no track and are no holder: `tokens in industries` used to be the
    industries themselves (four 'tokens'); now E202 with a hint."""
    state = fresh(spec)
    with pytest.raises(DiagnosticError) as caught:
        value(state, "count of (tokens in (industries where its value > 2))")
    assert codes(caught.value) == ["E202"]
    assert "hold no tokens" in caught.value.diagnostics[0].message
    with pytest.raises(DiagnosticError, match="hold none"):
        value(state, "count of (relationship_tokens in industries)")


def test_tokens_from_pieces_of_unknown_kinds_are_decided_member_by_member(spec) -> None:
    state = fresh(spec)
    sandbox.run(state, "place my relationship_token on duke")
    # a list of items of two kinds: the duke's token, nothing from the industry
    assert value(state, "count of (relationship_tokens in [duke, banking])") == 1
    # tokens among tokens: kept (a filter)
    assert value(state, "count of (relationship_tokens in (tokens in duke))") == 1


def test_dig_turns_a_zone_never_a_list_of_items(spec) -> None:
    state = fresh(spec)
    with pytest.raises(DiagnosticError, match="turns the pieces of a zone"):
        sandbox.run(state, "dig for tokens in characters where owner of it is me to my hand")


# ---------------------------------------------------------------------- `A + B in X`


def test_a_kind_plus_a_selection_is_e221_not_every_item_of_the_kind(spec) -> None:
    """`characters + relationship_tokens in duke` checked and meant every character of the
    game plus the tokens on the duke; a reader takes it for both in the duke."""
    state = fresh(spec)
    with pytest.raises(DiagnosticError) as caught:
        value(state, "count of (characters + relationship_tokens in duke)")
    assert codes(caught.value) == ["E221"]
    d = caught.value.diagnostics[0]
    assert "reads as `characters + (relationship_tokens in duke)`" in d.message
    assert "(characters in duke) + (relationship_tokens in duke)" in (d.hint or "")
    with pytest.raises(DiagnosticError, match="E221"):  # the word just before counts, however long the sum
        value(state, "count of (industries + characters + relationship_tokens in duke)")
    # written as meant: parentheses, or two selections joined
    assert value(state, "count of (characters + (relationship_tokens in duke))") == 4
    assert value(state, "count of (relationship_tokens in duke + relationship_tokens in merchant)") == 0


def test_the_precedence_of_kind_in_is_unchanged_in_the_tree() -> None:
    from legacies.dsl import ast
    from legacies.dsl.parser import parse_expression

    e = parse_expression("characters + relationship_tokens in duke")
    assert isinstance(e, ast.Arith) and isinstance(e.right, ast.Select) and isinstance(e.left, ast.Name)


# ---------------------------------------------------------------------- unset values

UNSET_RULESET = """\
format: 2
ruleset: unset
title: Unset
players: {min: 2, max: 3}
score: points
counters:
  points: {}
counter_sets:
  tallies: [points]
values:
  leader: {scope: game, type: player}
  rival: {scope: player, type: player}
  favourite: {scope: game, type: "kind:card"}
  tally: {scope: game, type: "counter:tallies"}
zones:
  deck: {scope: game}
  hand: {}
kinds:
  card: {piece: card, starts_in: deck, attributes: {worth: number}}
"""


@pytest.fixture(scope="module")
def unset_state(tmp_path_factory):
    root = tmp_path_factory.mktemp("unset")
    (root / "rules" / "unset").mkdir(parents=True)
    (root / "content" / "unset").mkdir(parents=True)
    (root / "rules" / "unset" / "ruleset.yaml").write_text(UNSET_RULESET, encoding="utf-8")
    (root / "rules" / "unset" / "procedures.yaml").write_text(
        "format: 2\ngame: |\n  take turns:\n      gain 1 points\n", encoding="utf-8")
    (root / "content" / "unset" / "cards.yaml").write_text(
        "format: 2\nruleset: unset\nitems:\n  - {id: a, kind: card, name: A, attributes: {worth: 2}}\n",
        encoding="utf-8")
    result = load_ruleset("unset", root=root)
    assert result.ok, [d.headline() for d in result.diagnostics]
    return Game(result.spec, 2).new_state(0)


def test_an_unset_player_value_is_nobody(unset_state: GameState) -> None:
    """`leader is not nobody` held for a value never set, and `gain 1 points for leader`
    then raised a Python TypeError ('<' between None and int)."""
    state = unset_state
    assert value(state, "leader is nobody") is True
    assert value(state, "my rival is nobody") is True
    assert value(state, "leader is not nobody") is False
    before = state.fingerprint()
    sandbox.run(state, "if leader is not nobody:\n    gain 1 points for leader\n"
                       "if my rival is not nobody:\n    gain 1 points for my rival")
    assert state.fingerprint() == before  # nothing happened, and nothing failed
    sandbox.run(state, 'log "{leader} leads"')
    assert state.st.log[-1] == "nobody leads"
    with pytest.raises(ContentError, match="nobody can gain `points`"):
        sandbox.run(state, "gain 1 points for leader")  # named, never a TypeError


def test_an_unset_piece_or_counter_value_used_is_named_not_a_python_error(unset_state: GameState) -> None:
    state = unset_state
    with pytest.raises(ContentError, match="there is no piece to play: `favourite` is nothing"):
        sandbox.run(state, "play favourite")
    with pytest.raises(ContentError, match="`tally` holds no counter"):
        sandbox.run(state, "gain 1 tally")
    assert value(state, "favourite is a") is False  # compared, it is nothing


# ---------------------------------------------------------------------- refusals the rules make themselves

TIDY_RULESET = """\
format: 2
ruleset: tidy
title: Tidy
players: {min: 2, max: 2}
score: points
limits: {max_turns: 10}
counters:
  gold: {start: 3}
  points: {}
zones:
  pool: {}
kinds:
  post: {piece: board, holder: true}
  marker: {piece: token, plural: markers, supply: 2, supply_zone: pool}
"""
TIDY_PROCEDURES = """\
format: 2
actions:
  rest:
    label: Rest
    do: |
      gain 1 gold
  buy:
    label: Buy a point
    do: |
      pay 5 gold
      gain 1 points
procedures:
  tidy:
    do: |
      place my marker on the_post
game: |
  take turns:
      perform one of rest, buy
      tidy()
"""


@pytest.fixture(scope="module")
def tidy_spec(tmp_path_factory):
    return small_ruleset(tmp_path_factory.mktemp("tidy"), "tidy", TIDY_RULESET, TIDY_PROCEDURES,
                         "  - {id: the_post, kind: post, name: The Post}\n")


def test_a_refusal_in_the_rules_own_statements_is_an_internal_error_at_the_statement(tidy_spec) -> None:
    """Placing from an empty supply in a procedure the rules run after the action was
    charged to the player's action: 'Rest' was refused, then every option was."""
    state = Game(tidy_spec, 2).new_state(0)
    for _ in range(4):  # two turns each: the supplies run out
        state.apply_label("Rest")
    before = state.fingerprint()
    with pytest.raises(InternalError) as caught:
        state.apply_label("Rest")
    err = caught.value
    assert not isinstance(err, GameError)  # never a refusal of the player's option
    assert "the rules refused their own statement (P1 has no marker left)" in str(err)
    assert err.where is not None and err.where.file.endswith("tidy/procedures.yaml") and err.where.line == 15
    assert "procedure `tidy`" in err.where.what
    assert state.fingerprint() == before  # the state is as before the decision


def test_a_refusal_in_the_option_chosen_is_still_a_refusal(tidy_spec) -> None:
    state = Game(tidy_spec, 2).new_state(0)
    before = state.fingerprint()
    with pytest.raises(Refused, match="cannot pay 5 gold"):
        state.apply_label("Buy a point")  # the action itself: the player chooses again
    assert state.fingerprint() == before
    # in the sandbox, the effect tried is the option
    with pytest.raises(Refused):
        sandbox.run(state, "pay 50 gold")


def test_a_refusal_in_setup_is_an_internal_error_at_setup(tmp_path) -> None:
    for sub in ("rules/tidy", "content/tidy"):
        (tmp_path / sub).mkdir(parents=True)
    (tmp_path / "rules" / "tidy" / "ruleset.yaml").write_text(TIDY_RULESET, encoding="utf-8")
    (tmp_path / "rules" / "tidy" / "procedures.yaml").write_text(
        TIDY_PROCEDURES + "setup: |\n  for each P in players:\n      repeat 3 times:\n          as P:\n"
                          "              tidy()\n", encoding="utf-8")
    (tmp_path / "content" / "tidy" / "board.yaml").write_text(
        "format: 2\nruleset: tidy\nitems:\n  - {id: the_post, kind: post, name: The Post}\n", encoding="utf-8")
    result = load_ruleset("tidy", root=tmp_path)
    with pytest.raises(InternalError, match="the rules refused their own statement"):
        Game(result.spec, 2).new_state(0)


# ---------------------------------------------------------------------- `{X}` in prompts and labels

LABELS_PROCEDURES = """\
format: 2
actions:
  rob:
    label: "Rob {P} of {P's gold} gold"
    choose: opponents
    as: P
    do: |
      may "take {P's gold} gold from {P}?":
          transfer P's gold from P's gold to my gold
  rest:
    label: "Rest ({my gold} gold)"
    do: |
      gain 1 gold
game: |
  take turns:
      perform one of rob, rest
"""


def test_may_prompts_and_action_labels_show_their_values(tmp_path) -> None:
    """`may "..."` prompts and action labels printed `{X}` as written; only the action's
    own name was replaced, and a player target was described as if it were a piece."""
    for sub in ("rules/lab", "content/lab"):
        (tmp_path / sub).mkdir(parents=True)
    (tmp_path / "rules" / "lab" / "ruleset.yaml").write_text(
        "format: 2\nruleset: lab\ntitle: Lab\nplayers: {min: 2, max: 2}\nscore: gold\n"
        "counters:\n  gold: {start: 3}\nzones:\n  pile: {scope: game}\n", encoding="utf-8")
    (tmp_path / "rules" / "lab" / "procedures.yaml").write_text(LABELS_PROCEDURES, encoding="utf-8")
    result = load_ruleset("lab", root=tmp_path)
    assert result.ok, [d.headline() for d in result.diagnostics]
    state = Game(result.spec, 2).new_state(0)
    assert state.decision.labels() == ["Rob P2 of 3 gold", "Rest (3 gold)"]
    state.apply_label("Rob P2 of 3 gold")
    assert state.decision.prompt == "take 3 gold from P2?"


OTHERS_PROCEDURES = """\
format: 2
definitions:
  others_than:
    params: {P: player}
    text: "the players other than {P}"
    value: players where it is not P
actions:
  rob:
    label: "Rob {P}"
    choose: opponents
    as: P
    do: |
      choose one of others_than(P) as Q
      transfer 1 from Q's gold to my gold
game: |
  take turns:
      perform one of rob
"""


def test_a_prompt_names_a_player_bound_earlier_as_a_player(tmp_path) -> None:
    """`choose one of others_than(P)` asked "... other than Bell" when P was the second
    player: a bound player was named as the piece with its number."""
    lab = tmp_path / "content" / "lab"
    lab.mkdir(parents=True)
    (lab / "things.yaml").write_text("format: 2\nruleset: lab\nitems:\n  - {id: anvil, kind: thing, name: Anvil}\n"
                                     "  - {id: bell, kind: thing, name: Bell}\n", encoding="utf-8")
    (tmp_path / "rules" / "lab").mkdir(parents=True)
    (tmp_path / "rules" / "lab" / "ruleset.yaml").write_text(
        "format: 2\nruleset: lab\ntitle: Lab\nplayers: {min: 3, max: 3}\nscore: gold\nlimits: {max_turns: 3}\n"
        "counters:\n  gold: {start: 3}\nkinds:\n  thing: {piece: card, starts_in: pile}\nzones:\n  pile: {scope: game}\n",
        encoding="utf-8")
    (tmp_path / "rules" / "lab" / "procedures.yaml").write_text(OTHERS_PROCEDURES, encoding="utf-8")
    result = load_ruleset("lab", root=tmp_path)
    assert result.ok, [d.headline() for d in result.diagnostics]
    state = Game(result.spec, 3).new_state(0)
    state.apply_label("Rob P2")
    assert state.decision.prompt == "choose one of the players other than P2"  # not "choose a the players"
    assert state.decision.labels() == ["P1", "P3"]


def test_a_label_part_that_does_not_check_is_reported_at_the_label(tmp_path) -> None:
    for sub in ("rules/lab", "content/lab"):
        (tmp_path / sub).mkdir(parents=True)
    (tmp_path / "rules" / "lab" / "ruleset.yaml").write_text(
        "format: 2\nruleset: lab\ntitle: Lab\nplayers: {min: 2, max: 2}\nscore: gold\n"
        "counters:\n  gold: {start: 3}\nzones:\n  pile: {scope: game}\n", encoding="utf-8")
    (tmp_path / "rules" / "lab" / "procedures.yaml").write_text(
        LABELS_PROCEDURES.replace("{my gold}", "{my gould}").replace('may "take {P', 'may "take {Q'),
        encoding="utf-8")
    found = [(d.code, d.line, d.message) for d in load_ruleset("lab", root=tmp_path).diagnostics]
    assert ("E201", 8) in [(c, line) for c, line, _ in found], found  # the may prompt's {Q's gold}
    assert any(c == "E203" and line == 11 and "gould" in m for c, line, m in found), found  # the label


# ---------------------------------------------------------------------- `top of`: one meaning


def test_top_of_pieces_selected_from_a_zone_is_the_zones_top(spec) -> None:
    """`top of deck` was the deck's top card but `top of (cards in deck)` its bottom card
    (the first member of the selection). Now both read the pile from its top."""
    state = fresh(spec)
    for same in ("top of deck = top of (cards in deck)", "bottom of deck = bottom of (cards in deck)",
                 "top of deck = top of (player_cards in deck)",
                 "entry 1 of (top 2 of deck) = entry 1 of (top 2 of (cards in deck))",
                 "entry 2 of (top 2 of deck) = entry 2 of (top 2 of (cards in deck))",
                 "entry 1 of (bottom 2 of deck) = entry 1 of (bottom 2 of (cards in deck))"):
        assert value(state, same) is True, same
    deck = state.st.zones[state.game.layout.game_zone["deck"]]
    assert len(deck) >= 3
    # filtered, still read from the top: the card under the top one
    assert value(state, "top of (cards in deck where it is not top of deck)") == deck[-2]
    assert value(state, "bottom of (cards in deck where it is not top of deck)") == deck[0]


def test_top_of_any_other_collection_is_its_first_member(spec) -> None:
    state = fresh(spec)
    assert value(state, "top of players = entry 1 of players") is True
    assert value(state, "bottom of players = entry (count of players) of players") is True
    assert value(state, "top of (players ordered by its gold descending) = "
                        "entry 1 of (players ordered by its gold descending)") is True
    # ordered pieces of a zone are a list, not a pile: the first of the order
    assert value(state, "top of (cards in deck ordered by (1 if it is top of deck else 0)) = "
                        "entry 1 of (cards in deck ordered by (1 if it is top of deck else 0))") is True
    assert value(state, "top of (cards in deck ordered by (1 if it is top of deck else 0)) = bottom of deck") is True


# ---------------------------------------------------------------------- one order for every collection of pieces (issue 34 §1)


def test_top_of_pieces_on_a_track_is_the_end_of_the_track(spec) -> None:
    """A track's pieces are listed space by space from the first, as a zone lists its own
    from the bottom: `top of` reads the far end (the piece furthest along), `bottom of` the
    start, and `for each` / `entry N of` count from the start, the same for a selection
    and for the zone of one space."""
    state = fresh(spec)
    sandbox.run(state, "place my relationship_token on duke")            # P1's: bumped to space 2
    sandbox.run(state, "place my relationship_token on duke", player=1)  # P2's (seat 1): space 1
    assert value(state, "owner of top of (relationship_tokens in duke) is me", 1)
    assert value(state, "owner of bottom of (relationship_tokens in duke) is me", 2)
    assert value(state, "owner of entry 1 of (relationship_tokens in duke) is me", 2)
    assert value(state, "owner of top of (relationship_tokens in duke where 1 = 1) is me", 1)
    assert value(state, "owner of top of (relationship_tokens in [duke]) is me", 1)
    assert value(state, "owner of top of space 2 of duke is me", 1)


# ---------------------------------------------------------------------- no silent clamp (issue 34 §1)


@pytest.mark.parametrize("codegen", [True, False])
@pytest.mark.parametrize("source, words", [
    ("set banking's value to 12", "`set` gives `banking`'s value 12, outside its bounds (1 to 10)"),
    ("set banking's value to 0", "`set` gives `banking`'s value 0, outside its bounds (1 to 10): it would stop at 1"),
    ("set century to 4", "`set` gives century 4, outside its bounds (1 to 3)"),
])
def test_a_value_set_past_a_bound_stops_the_game_at_the_statement(spec, codegen: bool, source: str,
                                                                  words: str) -> None:
    """`set` clamped the value to the counter's end without a word (a 9th global action's
    `slot` became 8); now it stops the game at the statement, which validate's setup
    check reports (tests/pipeline/test_widening.py). `raise`/`lower` still stop at the
    ends, as the bounds say."""
    state = Game(spec, 3, codegen=codegen).new_state(0)
    with pytest.raises(ContentError, match=words.replace("(", r"\(").replace(")", r"\)")):
        sandbox.run(state, source)
    sandbox.run(state, "set banking's value to 10\nraise banking's value by 5")
    assert value(state, "banking's value") == 10
