"""The effect language says what the Legacies rulebook says (issue, section 3).

Five rulebook examples, written as cards of the small Legacies-like fixture ruleset in
tests/fixtures/minilegacies/, are each parsed, checked, rendered to English and run
in a game, asserting the state change:

1. "Increase 1 industry value of your choice by 1 level"                  (boom)
2. "Place a relationship token on an empty non-mandatory global action -
   only you may select that action this generation"                        (exclusive_deal)
3. "Transfer up to 20 gold from your foundation to your gold supply
   (or vice versa)"                                                        (endowment)
4. "investments cost 50% more" (rounded up)                                (inflation, a successor)
5. "relationship tokens do not advance"                                    (estrangement, a successor)

Then the other requirements of section 3: round-up division, era values, `players
after me`, `opponents`, bumping tracks, triggers on announced events, NOW / RETIRE
hooks, `until generation_end`, and one run of every other card of the fixture (which
between them use every statement of the language).

Players are numbered from 1 here, as the players see them (the engine counts from 0).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest

from legacies.dsl import ast
from legacies.dsl.checker import Checker, Context, check
from legacies.dsl.diagnostics import ERROR
from legacies.dsl.parser import parse_expression, parse_program
from legacies.dsl.printer import print_program
from legacies.dsl.renderer import render_program
from legacies.dsl.types import thing
from legacies.interpreter import mechanics as mech
from legacies.interpreter.compiler import Compiler
from legacies.interpreter.decisions import Decision
from legacies.interpreter.errors import GameError
from legacies.interpreter.game import Game
from legacies.interpreter.spec import GameSpec
from legacies.interpreter.vm import Activation, BlockFrame
from legacies.pipeline.ruleset import RulesetResult, load_ruleset

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "minilegacies"
ERAS = ["I", "II", "III"]

Answer = str | Callable[[Decision], str]


# ---------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def loaded() -> RulesetResult:
    return load_ruleset("minilegacies", root=FIXTURE)


@pytest.fixture(scope="module")
def spec(loaded: RulesetResult) -> GameSpec:
    assert loaded.ok, "\n".join(d.headline() for d in loaded.diagnostics)
    assert loaded.spec is not None
    return loaded.spec


def first(d: Decision) -> str:
    return d.labels()[0]


def starting(prefix: str) -> Callable[[Decision], str]:
    """Answer with the option whose label starts with `prefix` (e.g. a transfer's direction)."""
    def pick(d: Decision) -> str:
        hits = [label for label in d.labels() if label.startswith(prefix)]
        assert len(hits) == 1, f"no single option starting with {prefix!r}: {d.labels()}"
        return hits[0]
    return pick


class Table:
    """A fresh game of the fixture ruleset, with helpers that run effect source as a
    player on the side (the game's pending question is set aside, then restored)."""

    def __init__(self, spec: GameSpec, players: int = 3, seed: int = 0, options: dict[str, Any] | None = None):
        self.spec = spec
        self.game = Game(spec, players, options)
        self.state = self.game.new_state(seed)
        self.st = self.state.st
        self.lay = self.game.layout

    # -------------------------------------------------------------- names
    def piece(self, content_id: str) -> int:
        """The piece of a board item, or the (first) copy of a card."""
        if content_id in self.lay.board_item:
            return self.lay.board_item[content_id]
        return self.lay.def_pieces[self.lay.def_index[content_id]][0]

    def zone(self, name: str, player: int | None = None) -> int:
        if player is None:
            return self.lay.game_zone[name]
        return self.lay.player_zone[name] + player - 1

    def cards(self, name: str, player: int | None = None) -> list[str]:
        return [self.spec.defs[self.lay.piece_def[p]].id for p in self.st.zones[self.zone(name, player)]]

    def track(self, content_id: str) -> list[list[int]]:
        """Owners (numbered from 1) of the tokens on each space of an item's track."""
        return [[self.lay.piece_owner[p] + 1 for p in self.st.zones[z]]
                for z in self.lay.track_zones[self.piece(content_id)]]

    def context(self, this: str | None) -> Context:
        if this is None:
            return Context()
        return Context(this=thing(self.spec.vocab.content[this]), allow_declarations=True)

    # -------------------------------------------------------------- running
    def _drive(self, start: Callable[[], None], answers: Sequence[Answer]) -> list[Decision]:
        st = self.st
        saved = (st.frames, st.pending, st.over, st.active)
        st.frames, st.pending = [], None
        asked: list[Decision] = []
        try:
            start()
            st.run()
            left = list(answers)
            while st.pending is not None:
                decision = st.pending
                asked.append(decision)
                assert left, f"unexpected decision {decision.prompt!r}: {decision.labels()}"
                answer = left.pop(0)
                self.state.apply_label(answer(decision) if callable(answer) else answer)
            assert not left, f"answers left over: {left}"
        finally:
            st.frames, st.pending, st.over, st.active = saved
        return asked

    def run(self, source: str, player: int = 1, answers: Sequence[Answer] = (), this: str | None = None
            ) -> list[Decision]:
        """Parse, check, compile and run `source` as `player`; returns the decisions asked."""
        program = parse_program(source)
        diags, _ = check(program, self.spec.vocab, self.context(this), self.spec.res)
        assert not diags, "\n".join(d.headline() for d in diags)
        instrs = Compiler(self.spec, self.lay).program(program)
        me, pid = player - 1, self.piece(this) if this else -1
        return self._drive(lambda: self.st.frames.append(BlockFrame(instrs, Activation(self.st, me, pid))), answers)

    def perform(self, action: str, player: int = 1, target: Any = None, answers: Sequence[Answer] = ()
                ) -> list[Decision]:
        """Run one of the ruleset's actions (as the action menu would) for `player`."""
        compiled = self.game.actions[action]
        return self._drive(lambda: compiled.start(self.st, Activation(self.st, player - 1), target), answers)

    def move(self, content_id: str, zone: str, player: int | None = None) -> int:
        """Move a card, running its enter / leave hooks like any move."""
        pid, dest = self.piece(content_id), self.zone(zone, player)
        self._drive(lambda: mech.move(self.st, pid, dest), ())
        return pid

    def play(self, card: str, player: int = 1, answers: Sequence[Answer] = ()) -> list[Decision]:
        """Put `card` in the player's hand and play it with the ruleset's `play_card` action."""
        pid = self.move(card, "hand", player)
        return self.perform("play_card", player, pid, answers)

    def value(self, source: str, player: int = 1, this: str | None = None) -> Any:
        expr = parse_expression(source)
        checker = Checker(self.spec.vocab, self.spec.res)
        checker.check_expression(expr, self.context(this))
        errors = [d for d in checker.diags if d.severity == ERROR]
        assert not errors, "\n".join(d.headline() for d in errors)
        fn = Compiler(self.spec, self.lay).expr(expr)
        return fn(Activation(self.st, player - 1, self.piece(this) if this else -1))

    def options(self, action: str, player: int = 1) -> list[str]:
        """The labels the action menu would offer `player` for one action."""
        return [c.words(self.st) for c in self.game.actions[action].options(self.st, Activation(self.st, player - 1), 0)]

    def refresh(self) -> None:
        """Ask the pending question again, after a test edited the state under it."""
        self.st.pending = None
        self.st.run()


# ---------------------------------------------------------------------- the five examples

EXAMPLES = {
    "boom": (
        "choose an industry as X\nraise X's value by 1\n",
        ["Choose an industry", "Raise", "value by 1"],
    ),
    "exclusive_deal": (
        "choose a global_action where it is empty and not its mandatory as A\n"
        "place my relationship_token on A\n"
        "until generation_end: may_select of A = no for opponents\n",
        ["global action", "empty", "mandatory", "Place your relationship token", "opponents",
         "Until the generation ends"],
    ),
    "endowment": (
        "transfer up to 20 from my foundation to my gold either way\n",
        ["Move up to 20", "from your Foundation to your gold", "or from your gold to your Foundation"],
    ),
    "inflation": (
        "while in play: investment_cost * 150%\n",
        ["While in play", "investment cost is 50% more", "rounded up"],
    ),
    "estrangement": (
        "while in play: relationship_tokens_advance = no\n",
        ["While in play", "relationship tokens advance", "no"],
    ),
}


def test_fixture_ruleset_loads_with_no_diagnostic(loaded: RulesetResult) -> None:
    assert loaded.diagnostics == []
    assert loaded.spec is not None
    assert loaded.spec.eras == ERAS


@pytest.mark.parametrize("card", list(EXAMPLES))
def test_example_parses_and_checks_clean(loaded: RulesetResult, card: str) -> None:
    source, _ = EXAMPLES[card]
    item = loaded.build.items[card][2]  # type: ignore[union-attr]
    assert item.effect == source  # the card in the fixture says exactly this
    program = parse_program(source)
    vocab = loaded.build.vocab  # type: ignore[union-attr]
    diags, _ = check(program, vocab, Context(this=thing(item.kind), allow_declarations=True))
    assert diags == []
    spec_def = next(d for d in loaded.spec.defs if d.id == card)  # type: ignore[union-attr]
    assert spec_def.effect == program


@pytest.mark.parametrize("card", list(EXAMPLES))
def test_example_renders_to_english(loaded: RulesetResult, card: str) -> None:
    source, words = EXAMPLES[card]
    vocab = loaded.build.vocab  # type: ignore[union-attr]
    labels = {name: vocab.label(name) for name in vocab.all_names()}
    labels.update({cid: entry[2].name for cid, entry in loaded.build.items.items()})  # type: ignore[union-attr]
    text = render_program(parse_program(source), labels, ERAS)
    assert "_" not in text, text
    assert text[0].isupper() and text.rstrip().endswith("."), text
    for word in words:
        assert word in text, f"{word!r} not in {text!r}"


@pytest.mark.parametrize("card", list(EXAMPLES))
def test_example_prints_back_to_the_same_program(card: str) -> None:
    program = parse_program(EXAMPLES[card][0])
    assert parse_program(print_program(program)) == program


def test_example_1_increase_an_industry_of_your_choice(spec: GameSpec) -> None:
    t = Table(spec)
    asked = t.play("boom", answers=["Mining"])
    assert asked[0].player == 0
    assert asked[0].labels() == ["Banking", "Shipping", "Mining", "Theater"]
    assert t.value("mining's value") == 4
    assert [t.value(f"{i}'s value") for i in ("banking", "shipping", "theater")] == [3, 3, 3]
    assert "boom" in t.cards("discard")  # the action discards the played card
    # a value stops at the top of its track (Legacies INV 5)
    t.run("set theater's value to 10")
    t.play("boom", answers=["Theater"])
    assert t.value("theater's value") == 10


def test_example_2_reserved_global_action_through_the_game_flow(spec: GameSpec) -> None:
    t = Table(spec, players=3)
    s = t.state
    t.move("exclusive_deal", "hand", 1)
    t.refresh()
    assert s.decision is not None and s.decision.player == 0
    s.apply_label("Play Exclusive Deal")
    # only the empty, non-mandatory global actions are offered
    assert s.decision.player == 0
    assert sorted(s.decision.labels()) == ["Collect Dividends", "Host a Trade Conference", "Influence Industries"]
    s.apply_label("Collect Dividends")
    assert t.value("count of relationship_tokens in ga_dividends") == 1
    assert t.value("count of relationship_tokens in my supply") == 4
    assert t.value("ga_dividends is empty") is False

    reserved = "Select Collect Dividends"
    seen = []
    while t.value("generation") == 1:  # the rest of generation 1: everybody passes
        d = s.decision
        seen.append((d.player + 1, reserved in d.labels(), "Select Influence Industries" in d.labels()))
        s.apply_label("Pass")
    # player 1 may still select it; the opponents may not, until generation_end
    assert seen == [(2, False, True), (3, False, True), (1, True, True), (2, False, True), (3, False, True)]
    assert t.options("select_global", player=2).count(reserved) == 1  # generation_end was announced
    d = s.decision
    assert d.player == 0 and reserved in d.labels()
    s.apply_label("Pass")
    assert s.decision.player == 1 and reserved in s.decision.labels()


def test_example_2_only_empty_non_mandatory_actions_and_only_for_opponents(spec: GameSpec) -> None:
    t = Table(spec)
    t.run("place my relationship_token on ga_influence", player=2)
    asked = t.play("exclusive_deal", answers=["Host a Trade Conference"])
    assert sorted(asked[0].labels()) == ["Collect Dividends", "Host a Trade Conference"]
    assert t.value("may_select of ga_conference", player=1) is True
    assert t.value("may_select of ga_conference", player=2) is False
    assert t.value("may_select of ga_conference", player=3) is False
    assert t.value("may_select of ga_dividends", player=2) is True
    assert "Select Host a Trade Conference" in t.options("select_global", player=1)
    assert "Select Host a Trade Conference" not in t.options("select_global", player=3)
    t.run("announce generation_end")
    assert "Select Host a Trade Conference" in t.options("select_global", player=3)
    assert t.value("count of relationship_tokens in ga_conference") == 1  # the token stays


def test_example_3_transfer_up_to_20_either_way(spec: GameSpec) -> None:
    t = Table(spec)
    asked = t.play("endowment", answers=[starting("from Foundation"), "20"])
    assert len(asked[0].labels()) == 2  # which way?
    assert asked[1].labels() == [str(n) for n in range(21)]  # how much? 0..20
    assert (t.value("my foundation"), t.value("my gold")) == (30, 120)

    t.play("endowment", answers=[starting("from gold"), "7"])  # ... or vice versa
    assert (t.value("my foundation"), t.value("my gold")) == (37, 113)

    # never more than there is: 5 Foundation -> at most 5 that way, still 20 the other
    t.run("set my foundation to 5")
    asked = t.play("endowment", answers=[starting("from Foundation"), "5"])
    assert asked[1].labels() == [str(n) for n in range(6)]
    assert (t.value("my foundation"), t.value("my gold")) == (0, 118)
    t.run("set my gold to 3")
    asked = t.play("endowment", answers=[starting("from gold"), "3"])
    assert asked[1].labels() == ["0", "1", "2", "3"]
    assert (t.value("my foundation"), t.value("my gold")) == (3, 0)
    assert t.value("my gold", player=2) == 100  # nobody else is touched


def test_example_4_investments_cost_50_percent_more(spec: GameSpec) -> None:
    t = Table(spec)
    t.run("set mining's value to 5")
    assert t.value("investment_price(mining)") == 10
    t.move("inflation", "successors", 1)
    assert t.value("my investment_cost") == 150
    assert t.value("investment_price(mining)") == 15
    assert t.value("investment_price(banking)") == 9  # value 3: 6 * 150% = 9
    assert t.value("investment_price(mining)", player=2) == 10  # only its owner pays more

    t.perform("invest", target=t.piece("banking"))
    assert (t.value("my gold"), t.value("banking's value")) == (91, 4)
    assert "Invest in Mining" in t.options("invest")

    # rounding up: 100 * 150% = 150, then * 50% until the end of the generation = 75;
    # a value-3 investment costs 3 * 2 * 75 / 100 = 4.5, rounded up to 5 (Legacies VAL 3)
    t.play("cheap_credit")
    assert t.value("my investment_cost") == 75
    assert t.value("investment_price(theater)") == 5
    # retiring the successor ends its modifier
    t.run("discard successor_cards in my successors")
    assert t.value("my investment_cost") == 50
    # too poor to invest: the action is not offered
    t.run("set my gold to 2")
    assert t.options("invest") == []


def test_example_5_relationship_tokens_do_not_advance(spec: GameSpec) -> None:
    t = Table(spec)
    t.run("place my relationship_token on duke")
    t.run("place my relationship_token on merchant", player=2)
    t.perform("advance_relationships")
    assert t.track("duke") == [[], [1], [], []]
    assert t.track("merchant") == [[], [2], [], []]

    t.move("estrangement", "successors", 2)  # in anyone's hall: no token advances
    assert t.value("relationship_tokens_advance") is False
    t.perform("advance_relationships", player=1)
    t.perform("advance_relationships", player=3)
    assert t.track("duke") == [[], [1], [], []]
    assert t.track("merchant") == [[], [2], [], []]

    t.run("discard successor_cards in my successors", player=2)
    assert t.value("relationship_tokens_advance") is True
    for _ in range(3):
        t.perform("advance_relationships")
    assert t.track("duke") == [[], [], [], []]  # past the end: home (Legacies REL 9)
    assert t.value("count of relationship_tokens in my supply") == 5


# ---------------------------------------------------------------------- numbers and players


@pytest.mark.parametrize(("source", "expected"), [
    ("7 divided by 2", 4),
    ("7 divided by 2 rounded up", 4),
    ("7 divided by 2 rounded down", 3),
    ("8 divided by 2", 4),
    ("-7 divided by 2", -3),
    ("-7 divided by 2 rounded down", -4),
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("10 - 4 - 3", 3),
    ("7 * 150%", 11),
    ("my gold divided by 3", 34),
    ("max(3, 9, 4) - min(3, 9, 4)", 6),
])
def test_arithmetic_rounds_division_up(spec: GameSpec, source: str, expected: int) -> None:
    assert Table(spec).value(source) == expected


@pytest.mark.parametrize(("source", "expected"), [
    ("my gold > 50 and my fame = 0", True),
    ("my gold < 50 or not (my fame >= 1)", True),
    ("my gold != 100", False),
    ("banking is in industry", True),
    ("yes and no", False),
])
def test_comparisons_and_booleans(spec: GameSpec, source: str, expected: bool) -> None:
    assert Table(spec).value(source) is expected


@pytest.mark.parametrize(("century", "gold"), [(1, 20), (2, 50), (3, 100)])
def test_era_values_pick_the_current_century(spec: GameSpec, century: int, gold: int) -> None:
    t = Table(spec)
    t.run(f"set century to {century}")
    assert t.value("era") == century
    assert t.value("20/50/100") == gold
    t.play("stipend")
    assert t.value("my gold") == 100 + gold


def test_centuries_follow_the_generations_in_the_game_flow(spec: GameSpec) -> None:
    t = Table(spec, players=2, options={"generations": 6})
    seen: dict[int, int] = {}
    while not t.state.is_terminal():
        seen[t.value("generation")] = t.value("century")
        t.state.apply_label("Pass")
    assert seen == {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}  # generation divided by 2, rounded up


def test_players_after_me_and_opponents(spec: GameSpec) -> None:
    t = Table(spec, players=4)
    assert [p + 1 for p in t.value("players after me", player=2)] == [3, 4]  # no wrapping round
    assert [p + 1 for p in t.value("players before me", player=2)] == [1]
    assert [p + 1 for p in t.value("players starting with me", player=2)] == [2, 3, 4, 1]
    assert [p + 1 for p in t.value("opponents", player=1)] == [2, 3, 4]
    assert [p + 1 for p in t.value("players")] == [1, 2, 3, 4]
    assert t.value("me", player=3) == 2 and t.value("active_player", player=3) == 0
    t.st.turn_order = [2, 0, 3, 1]  # players 3, 1, 4, 2
    assert [p + 1 for p in t.value("players after me", player=1)] == [4, 2]
    assert [p + 1 for p in t.value("players starting with me", player=1)] == [1, 4, 2, 3]
    t.run("for each P in players:\n    gain 5 fame for P")
    t.play("scandal", player=1)  # everyone after me in turn order loses 2 fame
    assert [t.value("my fame", player=p) for p in (1, 2, 3, 4)] == [5, 3, 5, 3]


# ---------------------------------------------------------------------- tracks, events, hooks, durations


def test_a_track_bumps_and_the_last_token_goes_home(spec: GameSpec) -> None:
    t = Table(spec)
    t.run("repeat 3 times:\n    place my relationship_token on duke", player=1)
    assert t.track("duke") == [[1], [1], [1], []]
    t.run("repeat 2 times:\n    place my relationship_token on duke", player=2)
    # each new token takes space 1 and bumps the others one space on, cascading;
    # the first token placed is pushed past space 4 and returns to its owner's supply
    assert t.track("duke") == [[2], [2], [1], [1]]
    assert t.value("count of relationship_tokens in my supply", player=1) == 3
    assert t.value("count of relationship_tokens in my supply", player=2) == 3
    assert t.value("count of relationship_tokens in duke") == 4
    t.play("renown", player=1)  # `position of` a token: player 1 gains 3 + 4 fame
    assert t.value("my fame") == 7


def test_triggers_fire_on_announced_events(spec: GameSpec) -> None:
    t = Table(spec)
    t.move("chronicler", "hand", 2)  # not in play: no trigger
    t.run("announce generation_end")
    assert t.value("my gold", player=2) == 100
    t.move("chronicler", "successors", 2)
    t.run("announce generation_end")
    assert [t.value("my gold", player=p) for p in (1, 2, 3)] == [100, 105, 100]
    t.play("stipend", player=1)  # card_played, but not a Boom
    assert t.value("my fame", player=2) == 0
    t.play("boom", player=1, answers=["Banking"])  # `when card_played where card is boom`
    assert t.value("my fame", player=2) == 1
    assert t.value("my fame", player=1) == 0


def test_hooks_fire_once_on_entering_and_once_on_leaving_play(spec: GameSpec) -> None:
    t = Table(spec)
    t.move("patron", "successors", 1)  # NOW: add its contribution (10) to your Foundation
    assert (t.value("my foundation"), t.value("my fame")) == (60, 0)
    t.move("patron", "successors", 2)  # from play to play: neither leaves nor enters
    assert (t.value("my foundation", player=2), t.value("my fame", player=1)) == (50, 0)
    t.run("discard successor_cards in my successors", player=2)  # RETIRE: gain 3 fame
    assert t.value("my fame", player=2) == 3
    assert t.cards("successor_discard") == ["patron"]
    t.run("discard successor_cards in my successors", player=2)  # nothing left to retire
    assert t.value("my fame", player=2) == 3
    assert t.value("my foundation") == 60


def test_hooks_through_the_recruit_card_and_the_appoint_action(spec: GameSpec) -> None:
    t = Table(spec)
    # (moving a card to the zone it is already in does not reorder it: take it out first)
    t.run("move successor_cards in successor_deck where it is patron to successor_discard\n"
          "move successor_cards in successor_discard to successor_deck at top")
    t.play("recruit")  # draws the top successor into play
    assert t.cards("successors", 1) == ["patron"] and t.value("my foundation") == 60
    t.perform("appoint_successor")  # the old one retires, a new one enters
    assert t.value("my fame") == 3
    assert len(t.cards("successors", 1)) == 1 and "patron" in t.cards("successor_discard")


def test_until_generation_end_expires_when_it_is_announced(spec: GameSpec) -> None:
    t = Table(spec)
    t.play("cheap_credit", player=2)
    assert t.value("my investment_cost", player=2) == 50
    assert t.value("my investment_cost", player=1) == 100
    t.play("stipend", player=1)  # another event does not end it
    assert t.value("my investment_cost", player=2) == 50
    t.run("announce generation_end")
    assert t.value("my investment_cost", player=2) == 100


# ---------------------------------------------------------------------- every other card

# card, player, setup run first (as that player), answers, then (expression, value, player) checks
CARDS: list[tuple[str, int, str | None, list[Answer], list[tuple[str, Any, int]]]] = [
    ("stipend", 1, "set century to 2", [], [("my gold", 150, 1)]),
    ("patronage", 1, None, [], [("my gold", 70, 1), ("my fame", 2, 1)]),  # if ... (cost 30)
    ("patronage", 1, "set my gold to 10", [], [("my gold", 20, 1), ("my fame", 0, 1)]),  # ... else
    ("tribute", 1, None, [], [("my gold", 110, 1), ("my gold", 95, 2), ("my gold", 95, 3)]),
    ("scandal", 2, "for each P in players:\n    gain 5 fame for P", [],
     [("my fame", 5, 1), ("my fame", 5, 2), ("my fame", 3, 3)]),
    ("networking", 1, None, ["The Merchant"],
     [("count of relationship_tokens in merchant", 1, 1), ("count of relationship_tokens in my supply", 4, 1)]),
    ("falling_out", 1, "place my relationship_token on duke\nplace my relationship_token on merchant", [],
     [("count of relationship_tokens in duke", 0, 1), ("count of relationship_tokens in my supply", 5, 1)]),
    ("gamble", 1, None, ["yes", "win"], [("my gold", 110, 1)]),
    ("gamble", 1, None, ["yes", "lose"], [("my gold", 90, 1)]),
    ("gamble", 1, None, ["no"], [("my gold", 100, 1)]),
    ("lobbying", 1, None, [], [("banking's value", 5, 1), ("theater's value", 2, 1), ("mining's value", 7, 1)]),
    ("favour", 2, None, [], [("my gold", 102, 1), ("my gold", 100, 2)]),  # the active player gains
    ("cheap_credit", 1, None, [], [("my investment_cost", 50, 1), ("investment_price(mining)", 3, 1)]),
    ("speculation", 1, "set shipping's value to 7\nset mining's value to 8", [],
     [("banking's value", 4, 1), ("theater's value", 4, 1), ("shipping's value", 7, 1)]),
]


@pytest.mark.parametrize(("card", "player", "setup", "answers", "checks"), CARDS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CARDS)])
def test_card_runs(spec: GameSpec, card: str, player: int, setup: str | None, answers: list[Answer],
                   checks: list[tuple[str, Any, int]]) -> None:
    t = Table(spec)
    if setup:
        t.run(setup, player=player)
    t.play(card, player=player, answers=answers)
    for source, expected, who in checks:
        assert t.value(source, player=who) == expected, f"{source} for player {who}"


def test_dividends_round_down(spec: GameSpec) -> None:
    t = Table(spec)
    t.run("set shipping's value to 5")  # progress: shipping 5 and mining 3
    t.play("dividends")
    assert t.value("my gold") == 100 + 25 // 2 + 15 // 2


def test_cards_move_between_zones(spec: GameSpec) -> None:
    t = Table(spec)
    t.move("scouting", "hand", 1)
    hand, deck = len(t.cards("hand", 1)), len(t.cards("deck"))
    asked = t.play("scouting", answers=[first, "done"])  # draw 2, reveal 2, discard up to 2 (here 1)
    assert "Scouting" not in asked[0].labels()  # `where it is not this`
    assert len(t.cards("hand", 1)) == hand + 2 - 1 - 1  # drew 2, discarded 1, then Scouting itself
    assert len(t.cards("deck")) == deck - 2
    assert len(t.st.revealed) == 2

    t2 = Table(spec)
    t2.move("market_day", "hand", 1)
    hands = [len(t2.cards("hand", p)) for p in (1, 2, 3)]
    deck = len(t2.cards("deck"))
    t2.play("market_day")  # deal 1 to each opponent, move 2 to the market, shuffle
    assert [len(t2.cards("hand", p)) for p in (1, 2, 3)] == [hands[0] - 1, hands[1] + 1, hands[2] + 1]
    assert len(t2.cards("market")) == 2
    assert len(t2.cards("deck")) == deck - 4


def test_a_refused_card_leaves_the_game_as_it_was(spec: GameSpec) -> None:
    t = Table(spec)
    t.run("set my gold to 3", player=3)
    t.move("tribute", "hand", 1)
    t.refresh()
    before = t.state.fingerprint()
    with pytest.raises(GameError, match="not enough to transfer 5"):
        t.state.apply_label("Play Tribute")  # player 3 cannot give 5 gold
    assert t.state.fingerprint() == before


# ---------------------------------------------------------------------- the fixture as a whole


def _programs(spec: GameSpec) -> list[ast.Program]:
    programs = [d.effect for d in spec.defs if d.effect is not None]
    programs += [a.body for a in spec.actions.values()]
    programs += [p for p in (spec.setup, spec.game) if p is not None]
    return programs


def test_the_fixture_uses_every_statement_of_section_3(spec: GameSpec) -> None:
    nodes = [n for p in _programs(spec) for n in ast.walk(p)]
    kinds = {type(n) for n in nodes}
    wanted = {
        ast.Gain, ast.Pay, ast.Lose, ast.Transfer, ast.Move, ast.Place, ast.Advance, ast.Remove, ast.Draw,
        ast.Deal, ast.Discard, ast.Shuffle, ast.Reveal, ast.ChooseFrom, ast.ChooseOne, ast.May, ast.If,
        ast.ForEach, ast.Let, ast.Trigger, ast.Hook, ast.Continuous, ast.TimedModifier, ast.Announce, ast.Raise,
        ast.Lower, ast.SetTo, ast.Play, ast.Perform, ast.Repeat, ast.TakeTurns, ast.Era, ast.Div, ast.Percent,
        ast.Relative, ast.Where, ast.Select, ast.Top, ast.Call,
    }
    assert wanted <= kinds, f"not used: {sorted(k.__name__ for k in wanted - kinds)}"
    transfers = [n for n in nodes if isinstance(n, ast.Transfer)]
    assert any(t.either_way and t.up_to for t in transfers)  # between a player's pools
    assert any(isinstance(t.source, ast.Of) and t.source.subject != ast.Name("me") for t in transfers)  # players
    assert {n.kind for n in nodes if isinstance(n, ast.Hook)} == {"enters", "leaves"}
    assert {n.mode for n in nodes if isinstance(n, ast.ChooseFrom)} == {"exact", "up_to"}
    assert any(isinstance(n, ast.If) and n.otherwise for n in nodes)
    names = {n.name for n in nodes if isinstance(n, ast.Name)}
    assert {"me", "active_player", "opponents", "players", "banking", "theater"} <= names


@pytest.mark.parametrize("seed", range(6))
def test_random_games_finish(spec: GameSpec, seed: int) -> None:
    """Every card and action is exercised by random play; refusals are legal answers."""
    rnd = random.Random(seed)
    t = Table(spec, players=2 + seed % 3, seed=seed, options={"generations": 3})
    for _ in range(500):
        d = t.state.decision
        if d is None:
            break
        order = list(range(len(d.options)))
        rnd.shuffle(order)
        for index in order:
            try:
                t.state.apply(index)
                break
            except GameError:
                continue
        else:
            pytest.fail(f"every option of {d.prompt!r} was refused: {d.labels()}")
    assert t.state.is_terminal()
    assert t.value("generation") == 3


# ---------------------------------------------------------------------- each player decides (Legacies GEN 9, Legacies GA 8)


def test_as_player_lets_each_opponent_make_their_own_choice(spec: GameSpec) -> None:
    """`as P:` hands the decisions of a block to P (the honorarium's "every player after
    the ender picks", Legacies GA 8's "the others may add gold"): each opponent answers for
    themself and `my` means them."""
    t = Table(spec, players=3)
    asked = t.run(
        "for each P in opponents:\n"
        "    as P:\n"
        "        choose one:\n"
        '            "gold": gain 20 gold\n'
        '            "fame": gain 2 fame\n',
        player=1, answers=["gold", "fame"])
    assert [d.player for d in asked] == [1, 2]  # P2 then P3 decide, not P1
    assert (t.value("my gold", player=2) - t.value("my gold", player=1)) == 20
    assert t.value("my fame", player=3) == 2 and t.value("my fame", player=1) == 0


def test_ordered_by_and_first_of_a_collection(spec: GameSpec) -> None:
    """Picking a player by a quantity ("the player with the least fame, ties to the
    later in turn order", Legacies GA 4): `ordered by` is a stable sort, `top of` the first."""
    t = Table(spec, players=4)
    for p, fame in ((1, 5), (2, 1), (3, 1), (4, 7)):
        t.run(f"gain {fame} fame", player=p)
    assert [p + 1 for p in t.value("players ordered by its fame")] == [2, 3, 1, 4]
    assert [p + 1 for p in t.value("players ordered by its fame descending")] == [4, 1, 2, 3]
    assert t.value("top of (players ordered by its fame)") + 1 == 2
    assert t.value("bottom of (players ordered by its fame descending)") + 1 == 3  # ties: the later
    assert [p + 1 for p in t.value("top 2 of players")] == [1, 2]
