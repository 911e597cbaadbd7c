"""The parse cache (dsl/parse_cache.py): a tree read back is the tree parsed, never a
shared object; syntax errors are never kept; a damaged or unusable cache file only
means parsing again; a change to the grammar or the tree builders is a new key."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.dsl import parse_cache as pc
from legacies.dsl.diagnostics import DiagnosticError
from legacies.dsl.parser import parse_program

SOURCE = "gain 2 gold\nif my fame > 3:\n    gain 1 fame\n"


@pytest.fixture
def cache(tmp_path: Path):
    yield pc.reset(str(tmp_path / "trees.sqlite3"))
    pc.reset(None)


def test_a_tree_read_back_equals_the_parsed_tree_and_is_a_new_object(cache: pc.ParseCache, tmp_path: Path) -> None:
    first = parse_program(SOURCE)
    second = parse_program(SOURCE)
    assert (cache.misses, cache.hits) == (1, 1)  # written to the file at exit (or on flush)
    cache.flush()
    again = pc.reset(str(tmp_path / "trees.sqlite3"))  # a new process
    third = parse_program(SOURCE)
    fourth = parse_program(SOURCE)
    assert (again.misses, again.hits) == (0, 2)
    assert first == second == third == fourth
    assert third is not fourth and third.statements[0] is not fourth.statements[0]
    assert third.statements[0].span == first.statements[0].span


def test_syntax_errors_are_never_kept(cache: pc.ParseCache) -> None:
    for _ in range(2):
        with pytest.raises(DiagnosticError):
            parse_program("gian 2 gold\n")
    cache.flush()
    assert cache.misses == 2 and cache.hits == 0


def test_a_damaged_cache_file_means_parsing_again(tmp_path: Path) -> None:
    path = tmp_path / "trees.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    damaged = pc.reset(str(path))
    try:
        assert parse_program(SOURCE).statements
        assert damaged.hits == 0
    finally:
        pc.reset(None)


def test_a_damaged_entry_is_parsed_again(cache: pc.ParseCache, tmp_path: Path) -> None:
    tree = parse_program(SOURCE)
    cache.flush()
    db = cache._connect()
    assert db is not None
    with db:
        db.execute("UPDATE entries SET entry = ?", (b"\x80\x05garbage",))
    assert parse_program(SOURCE) == tree
    assert cache.hits == 0 and cache.misses == 2


def test_another_grammar_or_tree_builder_is_another_key(cache: pc.ParseCache, monkeypatch: pytest.MonkeyPatch) -> None:
    parse_program(SOURCE)
    cache.flush()
    monkeypatch.setattr(pc, "_version", lambda: b"another version of the grammar")
    parse_program(SOURCE)
    assert cache.hits == 0 and cache.misses == 2


def test_caching_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEGACIES_CACHE_DIR", "off")
    assert pc.cache_folder() is None
    off = pc.reset(None)
    try:
        parse_program(SOURCE)
        parse_program(SOURCE)
        assert off.hits == 0
    finally:
        pc.reset(None)
