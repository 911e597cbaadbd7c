"""Regression tests: one per engine defect found when Legacies items were first written
on the foundation (each passed `validate` and then misbehaved). Run against the Mini
Legacies fixture (tests/fixtures/minilegacies) unless a test builds its own ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.dsl.diagnostics import DiagnosticError
from legacies.interpreter import sandbox
from legacies.interpreter.errors import ContentError, GameError, InternalError
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

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


def write_ruleset(root: Path, ruleset: str, procedures: str, content: str = "") -> Path:
    (root / "rules" / "t").mkdir(parents=True)
    (root / "content" / "t").mkdir(parents=True)
    (root / "rules" / "t" / "ruleset.yaml").write_text(ruleset, encoding="utf-8")
    (root / "rules" / "t" / "procedures.yaml").write_text(procedures, encoding="utf-8")
    if content:
        (root / "content" / "t" / "items.yaml").write_text(content, encoding="utf-8")
    return root


# ---------------------------------------------------------------------- nobody is not a player


def test_nobody_used_as_a_player_is_an_error_not_a_neighbours_counter(spec) -> None:
    """After an auction nobody bids in, `gain 1 fame for W` used to add to another
    player's counter (player -1 indexed the block before). Now it stops, named."""
    state = fresh(spec)
    before = state.fingerprint()
    fames = [value(state, "my fame", p) for p in (1, 2, 3)]
    with pytest.raises(ContentError, match="nobody") as caught:
        sandbox.run(state, "auction among players for gold as W and B\ngain 1 fame for W",
                    answers=["pass", "pass", "pass"])
    assert not isinstance(caught.value, GameError)  # a content bug, never a refusal
    assert caught.value.where is not None and caught.value.where.line == 2  # the `gain` line
    assert state.fingerprint() == before
    assert [value(state, "my fame", p) for p in (1, 2, 3)] == fames


def test_a_zone_of_nobody_is_an_error_not_the_last_players_hand(spec) -> None:
    state = fresh(spec)
    with pytest.raises(ContentError, match="nobody"):
        sandbox.run(state, "let W be nobody\nmove cards in hand of W to discard")
    with pytest.raises(ContentError, match="nobody"):
        value(state, "count of cards in hand of nobody")


def test_nobody_compares_and_guards(spec) -> None:
    state = fresh(spec)
    sandbox.run(state, "auction among players for gold as W and B\nif W is not nobody:\n    gain 1 fame for W",
                answers=["pass", "pass", "pass"])
    assert [value(state, "my fame", p) for p in (1, 2, 3)] == [0, 0, 0]


# ---------------------------------------------------------------------- `as P:` and clones


def test_clone_inside_an_as_block_behaves_like_the_original(spec) -> None:
    """The block inside `as P:` shares its names with the block around it; a clone used
    to copy them apart, so the same answer led the two to different fingerprints."""
    state = fresh(spec)
    st = state.st
    st.frames, st.pending = [], None
    sandbox.start(state, "let total be 0\n"
                         "as top of opponents:\n"
                         "    choose a number from 1 to 3 as N\n"
                         "    gain N fame\n"
                         "gain 1 gold")
    st.run()
    assert st.pending is not None and st.pending.player == 1  # the opponent chooses
    twin = state.clone()
    state.apply_label("2")
    twin.apply_label("2")
    assert twin.fingerprint() == state.fingerprint()
    assert twin.canonical() == state.canonical()


# ---------------------------------------------------------------------- engine names are not designer names


def test_names_starting_with_two_underscores_are_the_engines(spec) -> None:
    state = fresh(spec)
    with pytest.raises(DiagnosticError, match="kept for the engine"):
        sandbox.run(state, "let __pool be 5\nchoose an industry as X")


def test_a_choice_keeps_its_pool_out_of_the_designers_names(spec) -> None:
    state = fresh(spec)
    st = state.st
    st.frames, st.pending = [], None
    sandbox.start(state, "let pool be 5\nchoose an industry as X\nraise X's value by pool")
    st.run()
    env = st.frames[-1].act.env
    assert set(env) == {"pool"}, env  # nothing of the choice's own in the designer's table
    state.apply_label("Banking")
    assert value(state, "banking's value") == 8


# ---------------------------------------------------------------------- definitions in dependency order


RULESET = """\
ruleset: t
title: T
players: {min: 2, max: 2}
score: points
counters: {points: {}}
"""


@pytest.mark.parametrize("order", ["early first", "later first"])
def test_definitions_are_checked_in_the_order_they_use_each_other(tmp_path: Path, order: str) -> None:
    early = "  early:\n    value: later() + 1\n"
    later = "  later:\n    value: me\n"
    body = early + later if order == "early first" else later + early
    write_ruleset(tmp_path, RULESET, "definitions:\n" + body + "game: |\n  take turns:\n    gain 1 points\n"
                  "    stop taking turns\n")
    result = load_ruleset("t", root=tmp_path)
    codes = sorted((d.code, d.message) for d in result.diagnostics)
    # `later` is a player, so `later() + 1` is wrong whichever comes first in the file
    assert codes == [("E202", "expected an amount, found a player")]


def test_definitions_in_a_loop_are_reported_with_the_loop(tmp_path: Path) -> None:
    write_ruleset(tmp_path, RULESET, "definitions:\n  a:\n    value: b() + 1\n  b:\n    value: c() + 1\n"
                  "  c:\n    value: a()\ngame: |\n  take turns:\n    stop taking turns\n")
    result = load_ruleset("t", root=tmp_path)
    loops = [d for d in result.diagnostics if d.code == "E216"]
    assert len(loops) == 3
    assert any("a -> b -> c -> a" in d.message for d in loops), [d.message for d in loops]


def test_an_effect_attribute_read_inside_its_own_kind_compiles(tmp_path: Path) -> None:
    """An opportunity that asked `X has opportunity` (or played another card's opportunity)
    recursed without end while the game was built: compiling the attribute's column compiled
    every card's opportunity, this one included, before the column existed. Compiling them
    as soon as the column existed then broke a definition whose column held effects that
    call it ("definition `levels` refers to itself"): effects now wait for the end."""
    ruleset = RULESET + """zones:
  deck: {scope: game}
  hand: {scope: player}
kinds:
  card:
    piece: card
    starts_in: deck
    attributes: {opportunity: effect, level: {type: number, default: 0}}
"""
    content = """ruleset: t
items:
  - id: echo
    kind: card
    name: Echo
    attributes:
      opportunity: |
        gain levels() points
        for each C in cards in deck where it is not echo and it has opportunity:
            play C's opportunity
  - id: plain
    kind: card
    name: Plain
    attributes:
      level: 3
      opportunity: "gain 10 * levels() points"
"""
    write_ruleset(tmp_path, ruleset, "definitions:\n  levels:\n    value: total level of cards in deck\n"
                  "game: |\n  take turns:\n    play echo's opportunity\n    stop taking turns\n", content)
    result = load_ruleset("t", root=tmp_path)
    assert result.ok, [d.headline() for d in result.diagnostics]
    state = Game(result.spec, 2).new_state(0)
    assert state.decision is None
    assert value(state, "my points", 1) == 3 + 30


# ---------------------------------------------------------------------- tracks


def test_advance_back_moves_each_token_once(spec) -> None:
    """`advance TRACK by -1` used to pile every token on space 1 (a token moved left was
    met again by the loop and moved again). On a track that bumps, tokens moved back past
    the first space stop behind one another: they never share a space (issue 21)."""
    state = fresh(spec)
    sandbox.run(state, "place my relationship_token on duke\nplace my relationship_token on duke\n"
                       "place my relationship_token on duke\nadvance duke by 1")
    assert [value(state, f"count of relationship_tokens in space {n} of duke") for n in (1, 2, 3, 4)] == [0, 1, 1, 1]
    sandbox.run(state, "advance duke by -1")
    assert [value(state, f"count of relationship_tokens in space {n} of duke") for n in (1, 2, 3, 4)] == [1, 1, 1, 0]
    sandbox.run(state, "advance duke by -5")  # back past the first space: the first stops there, the others behind
    assert [value(state, f"count of relationship_tokens in space {n} of duke") for n in (1, 2, 3, 4)] == [1, 1, 1, 0]


def test_total_highest_lowest_read_one_argument_builtins(spec) -> None:
    """`total position of (tokens)` was refused (E203) though the docs say `NAME of X`
    reads whatever `NAME of it` reads."""
    state = fresh(spec)
    sandbox.run(state, "place my relationship_token on duke\nplace my relationship_token on duke\n"
                       "place my relationship_token on duke")
    assert value(state, "total position of relationship_tokens in duke") == 1 + 2 + 3
    assert value(state, "highest position of relationship_tokens in duke") == 3
    assert value(state, "lowest position of relationship_tokens in duke") == 1


# ---------------------------------------------------------------------- items as values


def test_an_attribute_naming_an_item_is_the_item(spec) -> None:
    """`kind:<kind>` attributes held the bare id text: `is` with the item was false and
    reading an attribute through it crashed."""
    state = fresh(spec)
    assert value(state, "my character is duke") is True
    assert value(state, "banking is in my character's industries") is True
    assert value(state, "entry 2 of my character's industries is mining") is True
    assert value(state, "value of entry 1 of my character's industries") == 3  # read through
    assert value(state, "general is in my character's hostile") is True
    boa = "top of (heirloom_cards in my mat where its level = 1)"
    assert value(state, f"owner_character of {boa} is my character") is True
    assert value(state, f"impact of owner_character of {boa} is power") is True


# ---------------------------------------------------------------------- missing attributes


def test_arithmetic_on_a_missing_attribute_is_a_located_error(spec) -> None:
    """A number attribute an item does not give used to crash with a Python TypeError."""
    state = fresh(spec)
    before = state.fingerprint()
    with pytest.raises(ContentError, match="has no `cost`") as caught:
        sandbox.run(state, "for each C in player_cards in deck:\n    gain C's cost + 1 fame")
    assert caught.value.where is not None and caught.value.where.line == 2
    assert state.fingerprint() == before
    # equality and `has` read a missing attribute as nothing; a declared default counts
    assert value(state, "count of (player_cards in deck where its cost is 30)") == 1
    assert value(state, "count of (player_cards where it has cost)") == 1
    assert value(state, "count of (opportunities where its cost = 0)") > 0  # `cost` defaults to 0 there


# ---------------------------------------------------------------------- triggers on items never in play


def test_a_board_items_trigger_fires(spec) -> None:
    """Board items used to be never "in play", so their triggers silently never fired."""
    state = fresh(spec)
    gold = [value(state, "my gold", p) for p in (1, 2, 3)]
    sandbox.run(state, "announce census")
    assert [value(state, "my gold", p) for p in (1, 2, 3)] == [g + 1 for g in gold]


def test_a_trigger_on_a_kind_that_is_never_in_play_is_a_diagnostic(tmp_path: Path) -> None:
    ruleset = RULESET + """zones:
  deck: {scope: game}
kinds:
  card: {piece: card, starts_in: deck}
events:
  bell: {}
"""
    content = """ruleset: t
items:
  - id: chime
    kind: card
    name: Chime
    effect: |
      when bell:
          gain 1 points
"""
    write_ruleset(tmp_path, ruleset, "game: |\n  announce bell\n", content)
    result = load_ruleset("t", root=tmp_path)
    hits = [d for d in result.diagnostics if d.code == "E219"]
    assert len(hits) == 1 and hits[0].file.endswith("items.yaml") and hits[0].line == 7, \
        [d.headline() for d in result.diagnostics]


def test_a_board_items_trigger_needs_a_named_player(tmp_path: Path) -> None:
    ruleset = RULESET + "kinds:\n  tile: {piece: board}\nevents:\n  bell: {}\n"
    content = "ruleset: t\nitems:\n  - id: gong\n    kind: tile\n    name: Gong\n    effect: |\n" \
              "      when bell:\n          gain 1 points\n"
    write_ruleset(tmp_path, ruleset, "game: |\n  announce bell\n", content)
    result = load_ruleset("t", root=tmp_path)
    assert [d.code for d in result.diagnostics] == ["E217"]  # no player acts in a board item's trigger


# ---------------------------------------------------------------------- internal errors are not refusals


def test_an_engine_error_stops_the_game_loudly(spec, monkeypatch: pytest.MonkeyPatch) -> None:
    """With `payments` raising ZeroDivisionError a game used to finish 0-0-0: every
    GameError was taken for a rules refusal. Now it is an InternalError, located."""
    from legacies.agents.match import play_match
    from legacies.interpreter import mechanics

    legacy = load_ruleset("legacy").spec

    def broken(*args: object) -> list:
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(mechanics, "payments", broken)
    with pytest.raises(InternalError, match="ZeroDivisionError") as caught:
        play_match(legacy, ["random", "random", "random"], seed=3)
    err = caught.value
    assert err.where is not None and err.where.file and err.where.file.endswith("legacy/procedures.yaml")
    rules = (Path(__file__).resolve().parents[2] / "rules" / "legacy" / "procedures.yaml").read_text().splitlines()
    assert rules[err.where.line - 1].strip() == "pay for C from my resources"
    assert "action `build`" in err.where.what


def test_the_cli_exits_1_naming_the_item(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from legacies.cli.main import app
    from legacies.interpreter import mechanics

    def broken(*args: object) -> list:
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(mechanics, "payments", broken)
    result = CliRunner().invoke(app, ["play", "--ruleset", "legacy", "--seat", "random", "--seat", "random",
                                      "--seed", "3", "--quiet"])
    assert result.exit_code == 1
    assert "internal error" in result.output and "procedures.yaml:" in result.output
    assert "action `build`" in result.output


def test_a_setup_error_points_at_its_own_line(tmp_path: Path) -> None:
    from legacies.pipeline.validate import validate

    ruleset = RULESET + "zones:\n  deck: {scope: game}\n  pile: {scope: game}\nkinds:\n" \
                        "  card: {piece: card, starts_in: deck}\n"
    procedures = "setup: |\n  log \"start\"\n  move top of deck to pile\ngame: |\n  take turns:\n" \
                 "    stop taking turns\n"
    write_ruleset(tmp_path, ruleset, procedures)
    result = validate([str(tmp_path)])
    errors = [d for d in result.diagnostics if d.code == "E300"]
    assert len(errors) == 1, [d.headline() for d in result.diagnostics]
    d = errors[0]
    assert d.file.endswith("procedures.yaml") and d.line == 3 and d.column == 3, d.headline()
    assert "the zone is empty" in d.message


def test_choosing_among_players_offers_players_not_the_pieces_of_their_numbers(spec) -> None:
    """`choose one of opponents as P` offered "Military, Education, Law": a player's number
    was described as the piece with that number."""
    state = fresh(spec)
    asked = sandbox.run(state, "choose one of opponents as P\ngain 1 fame for P", answers=["P3"])
    assert asked[0].labels() == ["P2", "P3"]
    assert asked[0].prompt == "choose an opponent"
    before = sandbox.value(state, "my fame", 2), sandbox.value(state, "my fame", 1)
    sandbox.run(state, "choose one of opponents as P\ngain 1 fame for P", answers=["P3"])
    assert (sandbox.value(state, "my fame", 2), sandbox.value(state, "my fame", 1)) == (before[0] + 1, before[1])


def test_the_piece_a_statement_moves_is_worked_out_once(spec, monkeypatch: pytest.MonkeyPatch) -> None:
    """`move`, `discard`, `remove` and `reveal` of one piece worked its expression out twice
    (once to see whether there was a piece, once to use it): `top of (... where ...)`
    walked its collection twice at every such statement."""
    from legacies.dsl import ast

    compiler = Game(spec, 3, codegen=False).compiler
    worked: list[object] = []
    monkeypatch.setattr(compiler, "expr", lambda e: lambda a: worked.append(e) or e)
    one = ast.Name("the_piece")
    monkeypatch.setattr(compiler.ctx, "type_of", lambda e: type("T", (), {"tag": "thing"})())
    assert compiler.stmts.pieces(one)(None) == [one] and worked == [one]
    worked.clear()
    monkeypatch.setattr(compiler, "expr", lambda e: lambda a: worked.append(e) and None)
    assert compiler.stmts.pieces(one)(None) == [] and len(worked) == 1
