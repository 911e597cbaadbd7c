"""schemas: the shipped files match the models, and schema errors read like YAML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from legacies.pipeline.schemas import (
    KINDS,
    load_schema,
    schema_for,
    schema_text,
    validate_data,
    write_schemas,
    yaml_path,
)

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"


@pytest.mark.parametrize("kind", KINDS)
def test_shipped_schema_is_in_sync_with_the_model(kind: str) -> None:
    shipped = SCHEMA_DIR / f"{kind}.schema.json"
    assert shipped.is_file(), "run: python -m legacies.pipeline.schemas"
    assert json.loads(shipped.read_text(encoding="utf-8")) == schema_for(kind), (
        f"{shipped} is stale: run python -m legacies.pipeline.schemas"
    )
    assert shipped.read_text(encoding="utf-8") == schema_text(kind)


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft_2020_12(kind: str) -> None:
    schema = schema_for(kind)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://legacies.invalid/schemas/{kind}.schema.json"
    assert schema["title"]


@pytest.mark.parametrize("kind", KINDS)
def test_load_schema_reads_the_packaged_file(kind: str) -> None:
    assert load_schema(kind) == schema_for(kind)


def test_write_schemas(tmp_path: Path) -> None:
    written = write_schemas(tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{k}.schema.json" for k in KINDS)


def test_aliased_fields_use_their_yaml_names() -> None:
    action = schema_for("procedures")["$defs"]["ActionDecl"]["properties"]
    assert "as" in action and "if" in action and "as_" not in action


def test_yaml_path() -> None:
    assert yaml_path(("items", 3, "copies")) == "items[3].copies"
    assert yaml_path(("kinds", "two words", "label")) == 'kinds["two words"].label'
    assert yaml_path(()) == ""


def diagnose(kind: str, data: object) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in validate_data(kind, data, "f.yaml")]


def item(**fields: object) -> dict[str, object]:
    return {"id": "stall", "kind": "card", "name": "Stall", **fields}


def test_minimum_message_names_the_yaml_path() -> None:
    data = {"ruleset": "x", "items": [item(), item(), item(), item(copies=-1)]}
    assert diagnose("content", data) == [("S005", "items[3].copies: -1 is less than the minimum of 0")]


def test_every_error_is_reported() -> None:
    data = {"ruleset": "x", "items": [item(copies="two"), item(cost=3), {"id": "x", "kind": "card"}]}
    assert sorted(code for code, _ in diagnose("content", data)) == ["S002", "S003", "S004"]


def test_unknown_property_hint_suggests_a_name() -> None:
    data = {"ruleset": "x", "title": "T", "players": {"min": 1, "max": 2}, "score": "s", "titel": "T"}
    diagnostics = validate_data("ruleset", data, "f.yaml")
    assert [d.code for d in diagnostics] == ["S003"]
    assert diagnostics[0].hint is not None and diagnostics[0].hint.startswith("did you mean 'title'?")
    assert "allowed: ruleset, title" in diagnostics[0].hint


def test_optional_field_of_wrong_type_says_what_is_expected() -> None:
    assert diagnose("content", {"ruleset": "x", "items": [item(effect=3)]}) == [
        ("S004", "items[0].effect: expected text or nothing (null), got the number 3"),
    ]


def test_optional_mapping_reports_inside_the_mapping() -> None:
    data = {
        "ruleset": "x", "title": "T", "players": {"min": 1, "max": 2}, "score": "s",
        "payment": {"cost": "cost", "symbl": "icon"},
    }
    # a required property misspelt is one mistake, said at the key written (a user's trial:
    # it was two, the unknown `symbl` and the missing `symbol`)
    assert sorted(diagnose("ruleset", data)) == [
        ("S003", "payment: unknown property 'symbl', where the required 'symbol' is missing"),
    ]


def test_enum_hint() -> None:
    data = {"ruleset": "x", "title": "T", "players": {"min": 1, "max": 2}, "score": "s",
            "counters": {"gold": {"scope": "players"}}}
    diagnostics = validate_data("ruleset", data, "f.yaml")
    assert [d.code for d in diagnostics] == ["S005"]
    assert diagnostics[0].hint == "did you mean 'player'?"


def test_positions_come_from_the_callbacks() -> None:
    data = {"ruleset": "x", "items": [item(cost=3)]}
    diagnostics = validate_data(
        "content", data, "f.yaml",
        position=lambda path: (10, 1), key_position=lambda path: (len(path), 7),
    )
    assert [(d.code, d.line, d.column, d.file) for d in diagnostics] == [("S003", 3, 7, "f.yaml")]
