"""The seat's view keeps to its published JSON Schema (issue 30): the shipped
schemas/seat-view.schema.json is the one view/schema.py makes from view/model.py, it is a
valid Draft 2020-12 schema, and every view of a random game of every installed ruleset and
of every installed expansion over its ruleset validates against it, for every seat at
every decision (random bots at a TableSession, one decision at a time). jsonschema, the
reference, checks a view in 20-40 ms (it walks some 45 KB of JSON): the games are checked
with jsonschema-rs (0.2 ms a view; a whole Leader's Legacy game was three minutes of
jsonschema), and the two are shown to agree on views and on what is no view. The normal
suite checks the first SHORT_DECISIONS decisions of a game of each; the whole games are
`-m slow`."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from jsonschema import Draft202012Validator

from legacies.agents.session import TableSession
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.ruleset import load_ruleset, rulesets
from legacies.pipeline.stack import installed_expansions
from legacies.view.schema import FILE_NAME, schema_text, shipped_schema, view_schema

REPO = Path(__file__).resolve().parents[2]
SHORT_DECISIONS = 30  # the normal suite: the setup and first turns of each game (a few seconds)
WHOLE_GAME = 2000  # the slow form: to the end (a Leader's Legacy game is 600-900 decisions); past this it is stuck


def _tables() -> list[str]:
    """Every installed ruleset, then every installed expansion over the ruleset it extends
    (`ruleset+expansion`)."""
    return list(rulesets()) + [f"{e.ruleset()}+{e.name}" for e in installed_expansions() if e.ruleset()]


def _spec(key: str) -> GameSpec:
    ruleset, _, expansion = key.partition("+")
    result = load_ruleset(ruleset, None, [expansion] if expansion else [])
    assert result.spec is not None, f"{key} does not load: " + "; ".join(str(d) for d in result.diagnostics[:3])
    return result.spec


def test_the_shipped_schema_is_the_models() -> None:
    shipped = (REPO / "schemas" / FILE_NAME).read_text(encoding="utf-8")
    assert shipped == schema_text(), "schemas/seat-view.schema.json is stale: python -m legacies.view.schema"
    assert json.loads(shipped) == view_schema()
    assert shipped_schema() == view_schema()  # as installed with the package


def test_the_schema_is_valid_draft_2020_12() -> None:
    schema = shipped_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    assert "SeatView" == schema["title"] and "decision" in schema["properties"]


def test_the_schema_refuses_what_is_no_view() -> None:
    """The schema says something: a view missing a part, or with a part of a wrong type
    or a field the model does not know, is refused."""
    validator = Draft202012Validator(shipped_schema())
    fast = jsonschema_rs.Draft202012Validator(shipped_schema())
    session = TableSession(_spec("legacy"), ["random", "random"], seed=0)
    good: dict[str, Any] = session.view(0).model_dump(mode="json")
    assert not list(validator.iter_errors(good)) and fast.is_valid(good)
    for broken in ({k: v for k, v in good.items() if k != "players"}, {**good, "seat": "P1"},
                   {**good, "format": "legacies-view/2"}, {**good, "peeked": []},
                   {**good, "players": [{**good["players"][0], "seat": None}, *good["players"][1:]]}):
        assert list(validator.iter_errors(broken)), f"the schema accepts {sorted(set(broken) ^ set(good))}"
        assert not fast.is_valid(broken), f"jsonschema-rs accepts what jsonschema refuses: {broken}"


@pytest.mark.parametrize("key", ["leaders-legacy+fame-and-fortune", "legacies"])
def test_the_fast_validator_agrees_with_the_reference(key: str) -> None:
    """jsonschema-rs, which checks the games' views, says of each view what jsonschema says:
    valid, and invalid once any one part is replaced by a value of the wrong kind."""
    spec = _spec(key)
    reference, fast = Draft202012Validator(shipped_schema()), jsonschema_rs.Draft202012Validator(shipped_schema())
    session = TableSession(spec, ["random"] * spec.min_players, seed=1)
    for _ in range(8):
        session.advance(steps=5)
    view = session.view(0).model_dump(mode="json")
    assert fast.is_valid(view) and not list(reference.iter_errors(view))
    refused = 0
    for part, value in view.items():
        for wrong in ("text", 7, None, [], {}):
            if type(wrong) is type(value) or (wrong is None and value is None):
                continue
            changed = {**view, part: wrong}
            said = not list(reference.iter_errors(changed))
            assert fast.is_valid(changed) == said, f"{key}: the two disagree on `{part}` given {wrong!r}"
            refused += not said
    assert refused > 3 * len(view)  # the schema refuses most wrong kinds, and both say so


def _check_a_game(key: str, max_decisions: int) -> int:
    """Every view of every seat of a random game, up to `max_decisions` decisions: how many
    decisions were made."""
    spec = _spec(key)
    players = spec.min_players
    validator = jsonschema_rs.Draft202012Validator(shipped_schema())
    session = TableSession(spec, ["random"] * players, seed=0)
    started = time.perf_counter()
    decisions = views = 0
    while True:
        for seat in range(players):
            view = session.view(seat).model_dump(mode="json")
            if not validator.is_valid(view):  # said as the reference says it
                errors = sorted(Draft202012Validator(shipped_schema()).iter_errors(view),
                                key=lambda e: list(e.absolute_path))
                pytest.fail(f"{key}, decision {decisions}, seat {seat}: the view does not keep to the schema: "
                            + (f"{errors[0].message} at {list(errors[0].absolute_path)}" if errors
                               else f"jsonschema-rs: {next(validator.iter_errors(view)).message}"))
            views += 1
        if session.over or decisions >= max_decisions:
            break
        session.advance(steps=1)
        decisions += 1
    print(f"{key}: {decisions} decisions, {views} views valid in {time.perf_counter() - started:.1f}s")
    return decisions


@pytest.mark.parametrize("key", _tables())
def test_every_view_of_a_random_game_validates(key: str) -> None:
    assert _check_a_game(key, SHORT_DECISIONS) == SHORT_DECISIONS


@pytest.mark.slow
@pytest.mark.parametrize("key", _tables())
def test_every_view_of_a_whole_random_game_validates(key: str) -> None:
    decisions = _check_a_game(key, WHOLE_GAME)
    assert 20 < decisions < WHOLE_GAME, "the game did not end"
