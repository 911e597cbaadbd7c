"""The language says the Legacies rulebook as plainly as its card text.

Each case is a piece of Legacies written the way a designer writes it, in the Mini
Legacies fixture (tests/fixtures/minilegacies): a card, a successor, an event, a
character's track benefit or a rule written once as a procedure. For each: the
generated card text is pinned, the piece is played in a game set up for it, and the
state change is asserted. (The rules they serve are mentioned as "Legacies REL 2" and
so on; the Legacies ruleset's own tests claim the checklist IDs.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from legacies.dsl.renderer import Wording, render_program
from legacies.interpreter import sandbox
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.ruleset import load_ruleset

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "minilegacies"


@pytest.fixture(scope="module")
def spec() -> GameSpec:
    result = load_ruleset("minilegacies", root=FIXTURE)
    assert result.ok, [d.headline() for d in result.diagnostics]
    assert result.spec is not None
    return result.spec


@dataclass
class Phrasing:
    """A rulebook phrase, the piece that says it, and what playing it does."""

    says: str  # the rulebook's words
    piece: str  # a content id, `procedure NAME`, or `ATTR of ID` (an effect an item gives)
    english: str  # the card text generated from it
    run: str  # what plays it, in the effect language, as player 1
    changes: dict[str, tuple[Any, Any]]  # expression (for player 1, or `P2: ...`) -> (before, after)
    answers: list[str] = field(default_factory=list)
    setup: list[tuple[int, str]] = field(default_factory=list)  # (player, source) run first
    players: int = 3
    by: int = 1  # the player who plays it


def _opportunity(cid: str) -> str:
    return f"top of (opportunities where it is {cid})"


CASES: list[Phrasing] = [
    Phrasing(
        "Legacies REL 1-2: make a relationship with a hostile character: the card's cost and 2 fame more",
        "procedure make_relationship",
        "If that character is not in your character's amicable characters: pay gold equal to that opportunity's "
        "relationship cost for that character + extra relationship cost, then pay fame equal to 2 if you are "
        "hostile to that character, else 0. Place your relationship token on that character. Collect the "
        "benefit of space 1 of that character's relationship track.",
        f"make_relationship({_opportunity('controlling_the_masses')}, general)",
        {"my gold": (100, 94), "my fame": (5, 5), "count of relationship_tokens in space 1 of general": (0, 1)},
        setup=[(1, "gain 5 fame")],  # the Duke is hostile to the General: 6 gold, 2 fame; space 1 pays 2 fame
    ),
    Phrasing(
        "Legacies REL 2: an amicable character costs nothing",
        "procedure make_relationship",
        "",
        f"make_relationship({_opportunity('spoils_of_war')}, merchant)",
        {"my gold": (100, 110), "my fame": (0, 0)},  # no cost; the Merchant's space 1: 10/20/30 gold
    ),
    Phrasing(
        "Legacies INV: a card naming its industry (gain twice its value)",
        "tax_collector",
        "Gain gold equal to this card's industry's value × 2.",
        f"play {_opportunity('tax_collector')}",
        {"my gold": (100, 106)},
    ),
    Phrasing(
        "Legacies GEN 9: the honorarium, every player after the ender picks gold, Foundation or resources",
        "procedure honorarium",
        "Every player after the one who ended the generation takes an honorarium.",
        "set ender to me\nhonorarium()",
        {"P2: my gold": (100, 120), "P3: my gem": (0, 1), "my gold": (100, 100)},
        answers=["20/50/100 gold", "1/2/3 resources", "gem"],
    ),
    Phrasing(
        "Legacies REL 3-4: a token bumps the one on the first space; only the active player collects",
        "benefits of duke",
        "Gain 3 fame.",
        f"make_relationship({_opportunity('controlling_the_masses')}, duke)",
        {"P2: my fame": (5, 6), "P2: my gold": (100, 97), "my fame": (0, 0),
         "count of (relationship_tokens in space 2 of duke where owner of it is me)": (0, 1)},
        setup=[(1, "place my relationship_token on duke"), (2, "gain 5 fame")],
        by=2,  # the Merchant, hostile to the Duke: pays 3 gold and 2 fame, collects 3 fame; P1 collects nothing
    ),
    Phrasing(
        "Legacies ACT 10: an opponent's level-6 heirloom teaches their special action",
        "procedure special_action",
        "Choose a character where it is your character or you hold its level-6 heirloom. If the side of the "
        "player of that character is aboveboard: resolve that character's special action (aboveboard). "
        "Otherwise: resolve that character's special action (underhanded).",
        "special_action()",
        {"my gold": (100, 120), "my fame": (0, 0)},
        answers=["The Merchant"],  # the Merchant's aboveboard action: gain 20 gold
        setup=[(1, "move top of (heirloom_cards where its level = 6 and its owner_character is merchant) "
                   "to my heirlooms")],
    ),
    Phrasing(
        "Legacies SUC 2: a successor's NOW and RETIRE",
        "patron",
        "When this enters play: gain Foundation equal to this card's contribution.\nWhen this leaves play: gain 3 fame.",
        "move top of (successor_cards where it is patron) to my successors\n"
        "discard successor_cards in my successors",
        {"my foundation": (50, 60), "my fame": (0, 3)},
    ),
    Phrasing(
        "Legacies (C1011): only you may select that action this generation",
        "controlling_the_masses",
        "Choose a global action that is empty and not mandatory. Place your relationship token on "
        "that global action. Until the generation ends: that global action may not be selected for "
        "your opponents.",
        f"play {_opportunity('controlling_the_masses')}\nannounce generation_end",
        {"P2: may_select of ga_dividends": (True, True), "count of relationship_tokens in ga_dividends": (0, 1)},
        answers=["Collect Dividends"],
    ),
    Phrasing(
        "Legacies: gain 1 resource of your choice",
        "traders_luck",
        "Choose a resource. Gain 1 of that resource.",
        f"play {_opportunity('traders_luck')}",
        {"my gem": (0, 1), "my dye": (0, 0)},
        answers=["gem"],
    ),
    Phrasing(
        "Legacies: pay 2 of any one resource",
        "bribe",
        "Choose a resource that you have at least 2 of. Pay 2 of that resource. Gain 3 fame.",
        f"play {_opportunity('bribe')}",
        {"my gear": (3, 1), "my dye": (1, 1), "my fame": (0, 3)},
        setup=[(1, "gain 3 gear\ngain 1 dye")],  # only gear can pay 2: asked nothing
    ),
    Phrasing(
        "Legacies REL 6: a legendary figure holds one token; the bumped player draws a card",
        "procedure befriend_figure",
        "Place your relationship token on that legendary figure. For each of the rivals: draw 1 card from the "
        "player deck into the hand of that rival's owner. Resolve that legendary figure's benefit.",
        "befriend_figure(oracle)",
        {"my fame": (0, 5), "P2: count of cards in my hand": (3, 4), "owner of top of relationship_tokens in "
         "oracle is me": (False, True)},
        setup=[(2, "place my relationship_token on oracle")],
    ),
    Phrasing(
        "Legacies GA 5: tokens advance, then every token pays its space's benefit",
        "procedure collect_all_benefits",
        "Advance relationships and collect every benefit.",
        "collect_all_benefits()",
        {"count of relationship_tokens in space 2 of duke": (0, 1), "my gold": (100, 120)},
        setup=[(1, "place my relationship_token on duke")],  # moves to space 2: 20/50/100 gold
    ),
    Phrasing(
        "Legacies GA 6: heirloom income, own heirlooms x both influenced industries; the trigger counts one more",
        "procedure heirloom_income",
        "",
        "heirloom_income(me)",
        {"my gold": (100, 112), "P2: my gold": (100, 100)},  # (1 + 1) x (Banking 3 + Mining 3)
        setup=[(1, "move top of (heirloom_cards where its level = 1) to my heirlooms")],
    ),
    Phrasing(
        "Legacies GA 9: influence industries, the trigger both of theirs, each other player one",
        "procedure influence_industries",
        "",
        "influence_industries()",
        {"banking's value": (3, 4), "mining's value": (3, 2), "shipping's value": (3, 5), "theater's value": (3, 3)},
        answers=["raise", "lower", "Shipping", "raise", "Shipping", "raise"],
    ),
    Phrasing(
        "Legacies EVT 1: an event's chosen outcome",
        "top of market_crash",
        "For each industry whose group is progress: lower that industry's value by 2.",
        "resolve_event(top of (events where it is market_crash))",
        {"shipping's value": (3, 1), "mining's value": (3, 1), "banking's value": (3, 3)},
        answers=["top outcome"],
    ),
    Phrasing(
        "Legacies REL 2 (a value by condition): more if you hold a hostile character's relationship",
        "windfall",
        "Gain 2 fame if you have at least one relationship token on your character's hostile characters. "
        "Gain 5 gold unless you have at least one relationship token on your character's hostile characters.",
        f"play {_opportunity('windfall')}",
        {"my fame": (0, 2), "my gold": (100, 100)},
        setup=[(1, "place my relationship_token on general")],
    ),
    Phrasing(
        "Legacies GA 8, FND 2: contribute up to 20 gold, in Foundation steps of 5, matched by the bank",
        "procedure contribute",
        "Contribute to your Foundation, matched by the bank.",
        "contribute()",
        {"my gold": (100, 90), "my foundation": (50, 70)},
        answers=["10"],
    ),
    Phrasing(
        "Legacies END 3 (turn order): the last player in turn order; your place in it",
        "gala",
        "The last player in turn order gains 5 gold. Gain fame equal to your place in turn order.",
        f"play {_opportunity('gala')}",
        {"my fame": (0, 1), "P3: my gold": (100, 105)},
    ),
]


def _read(state: GameState, expr: str) -> Any:
    player = 1
    if expr.startswith("P") and ":" in expr[:4]:
        player, expr = int(expr[1]), expr.split(":", 1)[1].strip()
    return sandbox.value(state, expr, player - 1)


def _program(spec: GameSpec, piece: str) -> Any:
    if piece.startswith("procedure "):
        return spec.procedures[piece.split()[1]].body
    if " of " in piece:
        attr, _, cid = piece.partition(" of ")
        d = next(d for d in spec.defs if d.id == cid)
        program = d.programs[attr]
        return program[0] if isinstance(program, list) else program
    return next(d for d in spec.defs if d.id == piece).effect


@pytest.mark.parametrize("case", CASES, ids=[c.says.split(":")[0] + " / " + c.piece for c in CASES])
def test_phrasing(spec: GameSpec, case: Phrasing) -> None:
    state = Game(spec, case.players).new_state(0)
    for player, source in case.setup:
        sandbox.run(state, source, player - 1)
    before = {expr: _read(state, expr) for expr in case.changes}
    assert before == {expr: want[0] for expr, want in case.changes.items()}, "the setup is not as described"
    sandbox.run(state, case.run, case.by - 1, answers=case.answers)
    after = {expr: _read(state, expr) for expr in case.changes}
    assert after == {expr: want[1] for expr, want in case.changes.items()}
    if case.english:
        program = _program(spec, case.piece)
        procedure = case.piece.startswith("procedure ")
        text = spec.vocab.labels.get(case.piece.split()[1], "") if procedure and "{" not in case.english else ""
        params = spec.vocab.procedures[case.piece.split()[1]].params if procedure else []
        rendered = render_program(program, Wording.of(spec.vocab), params=params)
        assert case.english in (rendered, _sentence(text)), rendered


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".") if text else ""


def test_there_are_at_least_fifteen_phrasings() -> None:
    assert len(CASES) >= 15
    assert len({c.piece for c in CASES}) >= 15
