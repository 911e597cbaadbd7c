"""A bug is never reported as a data problem (issue 17, section 2): loading, parsing and
checking catch only the errors that mean bad data; anything else is an internal error
(E302, E301) that says it is a bug in legacies, keeps its traceback (in the Diagnostic,
printed by `legacies --debug`, and in a file its hint names) and fails every test
(tests/conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.pipeline import internal_errors
from legacies.pipeline.validate import validate

pytestmark = pytest.mark.internal_error  # every test here makes one on purpose


def _traceback_file(hint: str | None) -> Path:
    found = re.search(r"its traceback is in (\S+)", hint or "")
    assert found, hint
    return Path(found.group(1))


def test_a_bug_building_a_model_is_e302_not_s006(monkeypatch: pytest.MonkeyPatch) -> None:
    """pipeline/load.py turned any exception of the models into S006 ("cannot build the
    model"), the traceback dropped."""
    from legacies.pipeline import load

    class Broken:
        @staticmethod
        def model_validate(data: object) -> object:
            raise KeyError("a bug in a validator")

    monkeypatch.setitem(load.FILE_MODELS, "content", Broken)
    before = len(internal_errors.REPORTED)
    found = validate([], "legacy").diagnostics
    assert [d.code for d in found] == ["E302"]
    d = found[0]
    assert "a bug in legacies, not in your files" in d.message and "KeyError: 'a bug in a validator'" in d.message
    assert d.detail is not None and "model_validate" in d.detail and "Traceback" in d.detail
    written = _traceback_file(d.hint)
    assert "raise KeyError" in written.read_text(encoding="utf-8")
    assert len(internal_errors.REPORTED) == before + 1


def test_a_bug_reading_yaml_is_e302_not_malformed_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    """pipeline/yaml_source.py turned any exception into Y001 'malformed YAML'."""
    from legacies.pipeline import yaml_source

    def boom(self: object, text: str) -> object:
        raise AttributeError("'NoneType' object has no attribute 'value'")

    monkeypatch.setattr(yaml_source.YAML, "compose", boom)
    found = validate([], "legacy").diagnostics
    assert {d.code for d in found} == {"E302"} and not any(d.code == "Y001" for d in found)


def test_malformed_yaml_is_still_y001(tmp_path: Path) -> None:
    bad = tmp_path / "cards.yaml"
    bad.write_text("format: 2\nruleset: legacy\nitems: [\n", encoding="utf-8")
    assert [d.code for d in validate([str(bad)]).diagnostics][:1] in (["Y001"], ["Y002"], ["Y003"])


def test_a_bug_in_the_parsers_error_wording_is_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """dsl/parser.py had `except Exception: pass` around the parser's accepted tokens."""
    from lark.parsers.lalr_interactive_parser import InteractiveParser

    from legacies.dsl.parser import parse_program

    def boom(self: object) -> set[str]:
        raise RuntimeError("accepts() broke")

    monkeypatch.setattr(InteractiveParser, "accepts", boom)
    with pytest.raises(RuntimeError, match="accepts"):
        parse_program("gain 2 fame fame\n")


def test_an_internal_error_as_a_user_sees_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from legacies.pipeline import load

    class Broken:
        @staticmethod
        def model_validate(data: object) -> object:
            raise KeyError("a bug in a validator")

    monkeypatch.setitem(load.FILE_MODELS, "content", Broken)
    plain = CliRunner().invoke(app, ["validate", "--ruleset", "legacy"])
    assert plain.exit_code == 1
    assert "error E302: internal error while checking this ruleset (a bug in legacies, not in your files)" in plain.output
    assert "its traceback is in" in plain.output and "Traceback" not in plain.output
    debug = CliRunner().invoke(app, ["--debug", "validate", "--ruleset", "legacy"])
    assert debug.exit_code == 1 and "Traceback (most recent call last)" in debug.output
    assert "raise KeyError" in debug.output
