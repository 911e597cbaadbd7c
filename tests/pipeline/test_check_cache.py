"""The check cache (pipeline/check_cache.py): an unchanged ruleset's `validate` reads
what checking it found; a changed file (content, rules, an expansion's), another engine,
or an entry that does not check is never answered from it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from legacies.pipeline import check_cache
from legacies.pipeline import validate as validate_mod
from legacies.pipeline.report import render_json, render_text
from legacies.pipeline.validate import validate

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The cache on, in a folder of this test's own; counts the checks that ran."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("LEGACIES_CACHE_DIR", str(folder))
    monkeypatch.setattr(check_cache, "USED", True)
    check_cache.engine_version.cache_clear()
    ran: dict[str, Any] = {"checks": 0, "folder": folder / "checks"}
    real = validate_mod._check_ruleset

    def counted(result: Any, sources: Any) -> None:
        ran["checks"] += 1
        real(result, sources)

    monkeypatch.setattr(validate_mod, "_check_ruleset", counted)
    yield ran
    getattr(check_cache.engine_version, "cache_clear", lambda: None)()  # (a test may stand in for it)


@pytest.fixture()
def plaza(tmp_path: Path) -> Path:
    copy = tmp_path / "plaza"
    shutil.copytree(FIXTURES / "plaza", copy)
    return copy


@pytest.fixture()
def market(tmp_path: Path) -> Path:
    copy = tmp_path / "market-day"
    shutil.copytree(FIXTURES / "market-day", copy)
    return copy


def _shown(result: Any) -> tuple[str, str, int, bool]:
    """What `validate` prints of a result (text and JSON), its file count and verdict."""
    return (render_text(result.diagnostics, result.sources, checked=result.files), render_json(result.diagnostics),
            result.files, result.ok)


def _broken(plaza: Path) -> None:
    """An error in the content, so that the result has a diagnostic with its source line."""
    cards = plaza / "content" / "plaza" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + "\n  - {id: x1, kind: nope, name: X}\n", encoding="utf-8")


def test_an_unchanged_ruleset_is_read_and_prints_the_same(cache: dict[str, Any], plaza: Path) -> None:
    _broken(plaza)
    first = validate([str(plaza)])
    assert cache["checks"] == 1 and not first.ok and len(os.listdir(cache["folder"])) == 1
    again = validate([str(plaza)])
    assert cache["checks"] == 1  # read, not checked
    assert _shown(again) == _shown(first) and again.sources == first.sources and again.rulesets == first.rulesets


@pytest.mark.parametrize("where", ["content/plaza/cards.yaml", "rules/plaza/procedures.yaml",
                                   "rules/plaza/ruleset.yaml"])
def test_a_changed_file_is_checked_again(cache: dict[str, Any], plaza: Path, where: str) -> None:
    clean = validate([str(plaza)])
    assert clean.ok and cache["checks"] == 1
    path = plaza / where
    path.write_text(path.read_text(encoding="utf-8") + "\nstray_key_added_by_the_test: 1\n", encoding="utf-8")
    changed = validate([str(plaza)])
    assert cache["checks"] == 2 and not changed.ok  # the change is seen (an unknown key), not the clean answer
    path.write_text(path.read_text(encoding="utf-8").replace("stray_key_added_by_the_test: 1\n", ""), encoding="utf-8")
    back = validate([str(plaza)])
    assert back.ok and _shown(back) == _shown(clean) and cache["checks"] == 3  # the copy differs by a newline


def test_a_changed_expansion_is_checked_again(cache: dict[str, Any], plaza: Path, market: Path) -> None:
    first = validate([str(plaza)], None, (str(market),))
    assert cache["checks"] == 1
    assert _shown(validate([str(plaza)], None, (str(market),))) == _shown(first) and cache["checks"] == 1
    without = validate([str(plaza)])
    assert cache["checks"] == 2 and without.files < first.files  # the ruleset alone is another key
    rules = market / "rules" / "plaza" / "market.yaml"
    rules.write_text(rules.read_text(encoding="utf-8") + "\nstray_key_added_by_the_test: 1\n", encoding="utf-8")
    changed = validate([str(plaza)], None, (str(market),))
    assert cache["checks"] == 3 and not changed.ok


def test_another_engine_is_checked_again(cache: dict[str, Any], plaza: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    validate([str(plaza)])
    monkeypatch.setattr(check_cache, "engine_version", lambda: b"another version of the engine")
    validate([str(plaza)])
    assert cache["checks"] == 2


def test_the_engine_version_reads_the_engine_s_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    check_cache.engine_version.cache_clear()
    now = check_cache.engine_version()
    assert now is not None
    fake = tmp_path / "dsl"
    fake.mkdir()
    (fake / "a.py").write_text("x = 1\n")
    real_find = check_cache.importlib.util.find_spec

    def found(name: str, *args: Any) -> Any:
        spec = real_find(name, *args)
        if name == "legacies.dsl":
            spec.submodule_search_locations = [str(fake)]
        return spec

    monkeypatch.setattr(check_cache.importlib.util, "find_spec", found)
    check_cache.engine_version.cache_clear()
    other = check_cache.engine_version()
    (fake / "a.py").write_text("x = 2\n")
    check_cache.engine_version.cache_clear()
    edited = check_cache.engine_version()
    check_cache.engine_version.cache_clear()
    assert len({now, other, edited}) == 3


def _entry(cache: dict[str, Any]) -> Path:
    [name] = os.listdir(cache["folder"])
    return cache["folder"] / name


POISONS = {
    "not JSON": lambda body, key: b"\x80garbage",
    "another key": lambda body, key: json.dumps({**body, "key": "0" * 64}).encode(),
    "another format": lambda body, key: json.dumps({**body, "format": 0}).encode(),
    "a key too many": lambda body, key: json.dumps({**body, "code": "import os"}).encode(),
    "a line that is text": lambda body, key: json.dumps(
        {**body, "diagnostics": [["E999", "forged", "1", 1, "error", None, "x", None]]}).encode(),
    "a severity unknown": lambda body, key: json.dumps(
        {**body, "diagnostics": [["E999", "forged", 1, 1, "fatal", None, "x", None]]}).encode(),
    "a source of another file": lambda body, key: json.dumps({**body, "sources": [["elsewhere", None]]}).encode(),
    "lines that are not text": lambda body, key: json.dumps({**body, "sources": [["x", [1, 2]]]}).encode(),
    "nested past json's limit": lambda body, key: b"[" * 100_000,
}


@pytest.mark.parametrize("poison", sorted(POISONS))
def test_an_entry_that_does_not_check_is_refused_and_written_again(cache: dict[str, Any], plaza: Path,
                                                                   poison: str) -> None:
    _broken(plaza)
    first = validate([str(plaza)])
    entry = _entry(cache)
    body = json.loads(entry.read_bytes())
    entry.write_bytes(POISONS[poison](body, body["key"]))
    again = validate([str(plaza)])
    assert cache["checks"] == 2 and _shown(again) == _shown(first)
    assert json.loads(entry.read_bytes()) == body  # written again, whole
    validate([str(plaza)])
    assert cache["checks"] == 2


def _forged(cache: dict[str, Any], plaza: Path) -> Path:
    """The entry of a clean check, rewritten to say there is an error."""
    validate([str(plaza)])
    entry = _entry(cache)
    body = json.loads(entry.read_bytes())
    body["diagnostics"] = [["E999", "forged", 1, 1, "error", None, "forged.yaml", None]]
    entry.write_text(json.dumps(body))
    return entry


def test_an_entry_others_may_write_is_refused(cache: dict[str, Any], plaza: Path) -> None:
    entry = _forged(cache, plaza)
    assert not validate([str(plaza)]).ok and cache["checks"] == 1  # the user's own entry is trusted (as the parse cache's)
    entry.chmod(0o666)
    assert validate([str(plaza)]).ok and cache["checks"] == 2


def test_a_folder_others_may_write_is_not_used(cache: dict[str, Any], plaza: Path) -> None:
    _forged(cache, plaza)
    cache["folder"].chmod(0o777)
    assert validate([str(plaza)]).ok and cache["checks"] == 2
    validate([str(plaza)])
    assert cache["checks"] == 3


def test_a_fifo_in_an_entry_s_place_is_never_opened(cache: dict[str, Any], plaza: Path) -> None:
    validate([str(plaza)])
    entry = _entry(cache)
    entry.unlink()
    os.mkfifo(entry)
    assert validate([str(plaza)]).ok and cache["checks"] == 2


@pytest.mark.internal_error
def test_an_internal_error_is_never_kept(cache: dict[str, Any], plaza: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(files: object) -> object:
        raise RecursionError("maximum recursion depth exceeded")

    with monkeypatch.context() as patched:
        patched.setattr(validate_mod, "build_spec", boom)
        assert [d.code for d in validate([str(plaza)]).diagnostics] == ["E302"]
    assert not cache["folder"].exists() or not os.listdir(cache["folder"])
    assert validate([str(plaza)]).ok and cache["checks"] == 2


def test_off_and_in_the_test_suite_nothing_is_kept(cache: dict[str, Any], plaza: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEGACIES_CACHE_DIR", "off")
    validate([str(plaza)])
    validate([str(plaza)])
    monkeypatch.setattr(check_cache, "USED", False)
    validate([str(plaza)])
    assert cache["checks"] == 3 and not cache["folder"].exists()


def test_a_cached_validate_imports_no_model_schema_or_grammar(plaza: Path, tmp_path: Path) -> None:
    """In a new process (where the cache is on), the second `legacies validate` of an
    unchanged ruleset prints the same and imports none of the passes (pydantic's models,
    jsonschema, lark)."""
    import subprocess
    import sys

    script = ("import json, sys\nfrom legacies.cli.main import app\ntry:\n    app(['validate', sys.argv[1]])\n"
              "except SystemExit:\n    pass\n"
              "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('legacies.pipeline.models', "
              "'legacies.pipeline.build', 'legacies.interpreter', 'jsonschema', 'lark')))))")
    env = {**os.environ, "LEGACIES_CACHE_DIR": str(tmp_path / "cache")}
    _broken(plaza)
    runs = [subprocess.run([sys.executable, "-c", script, str(plaza)], capture_output=True, text=True, env=env,
                           timeout=120) for _ in range(2)]
    (first, first_modules), (second, second_modules) = [(r.stdout.rsplit("\n", 2)[0], json.loads(r.stdout.splitlines()[-1]))
                                                        for r in runs]
    assert "error" in first and second == first
    assert "legacies.pipeline.models" in first_modules and second_modules == []


def test_files_past_a_size_bound_are_not_all_read_for_a_key(cache: dict[str, Any], plaza: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from legacies.pipeline import size_bounds

    monkeypatch.setattr(size_bounds, "MAX_BYTES", 100)
    validate([str(plaza)])
    validate([str(plaza)])
    assert cache["checks"] == 2 and not cache["folder"].exists()
    monkeypatch.setattr(size_bounds, "MAX_BYTES", 8 * 1024 * 1024)
    monkeypatch.setattr(size_bounds, "MAX_FILES", 2)
    validate([str(plaza)])
    assert cache["checks"] == 3 and not cache["folder"].exists()
