"""Caches are data, never code (issue 22, part 5): the parse cache (SQLite) and the
grammar's parser tables, each poisoned three ways (a pickle that runs code, the tree or
tables of another text, garbage), are never taken for what they are not: no code runs
and `legacies explain` shows the right card text, as with no cache at all."""

from __future__ import annotations

import os
import pickle
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from legacies.dsl import ast, cache_codec
from legacies.dsl import parse_cache as pc
from legacies.dsl.grammar_cache import lark_parser
from legacies.dsl.grammar import EffectIndenter, grammar_text
from legacies.dsl.parser import parse_program

EXPLAIN = [sys.executable, "-c", "from legacies.cli.main import app; app()", "explain", "swap", "--ruleset", "legacy"]


class RunsCode:
    """A pickle that, unpickled, makes a file: proof that code ran."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (os.system, (f"touch {self.marker}",))


def explain(cache: Path | str) -> str:
    out = subprocess.run(EXPLAIN, capture_output=True, text=True, env={**os.environ, "LEGACIES_CACHE_DIR": str(cache)},
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def truth() -> str:
    """The card text with no cache at all."""
    text = explain("off")
    assert "card text:" in text and "Swap" in text
    return text


@pytest.fixture
def filled(tmp_path: Path, truth: str) -> Path:
    """A cache folder as a run of `explain` leaves it (entries for every effect, the tables)."""
    folder = tmp_path / "cache"
    assert explain(folder) == truth
    assert (folder / "trees.sqlite3").exists() and list(folder.glob("effects-*.json"))
    return folder


def _entries(folder: Path) -> sqlite3.Connection:
    return sqlite3.connect(folder / "trees.sqlite3")


def test_pickles_that_run_code_are_never_unpickled(filled: Path, truth: str, tmp_path: Path) -> None:
    marker = tmp_path / "code-ran"
    payload = pickle.dumps(RunsCode(marker))
    with _entries(filled) as db:  # each entry: its own key, then a pickle; and the old table of pickles
        db.execute("UPDATE entries SET entry = substr(entry, 1, 32) || ?", (payload,))
        db.execute("CREATE TABLE trees (key BLOB PRIMARY KEY, tree BLOB NOT NULL)")
        db.execute("INSERT INTO trees SELECT key, ? FROM entries", (payload,))
    for tables in filled.glob("effects-*.json"):
        first = tables.read_bytes().partition(b"\n")[0]
        tables.write_bytes(first + b"\n" + payload)  # the right header, a pickle for the tables
        (filled / tables.name.replace(".json", "-py311.cache")).write_bytes(payload)  # Lark's own cache's name
    assert explain(filled) == truth
    assert not marker.exists(), "a cached pickle ran code"
    with _entries(filled) as db:
        assert not db.execute("SELECT name FROM sqlite_master WHERE name = 'trees'").fetchall()  # dropped unread


def test_the_tree_or_tables_of_another_text_are_never_taken(filled: Path, truth: str, tmp_path: Path) -> None:
    with _entries(filled) as db:  # every entry moved to the next key: each holds another text's tree
        rows = db.execute("SELECT key, entry FROM entries ORDER BY key").fetchall()
        db.executemany("UPDATE entries SET entry = ? WHERE key = ?",
                       [(rows[(i + 1) % len(rows)][1], key) for i, (key, _) in enumerate(rows)])
    other = tmp_path / "other"  # the tables of another grammar (`gain` spelt `earn`), under this grammar's name
    other.mkdir()
    lark_parser(grammar_text().replace('"gain"', '"earn"'), str(other), EffectIndenter(), propagate_positions=True,
                maybe_placeholders=True)
    (theirs,) = other.glob("effects-*.json")
    for ours in filled.glob("effects-*.json"):
        ours.write_bytes(theirs.read_bytes())
    assert explain(filled) == truth


def test_garbage_in_either_cache_means_parsing_again(filled: Path, truth: str) -> None:
    with _entries(filled) as db:
        db.execute("UPDATE entries SET entry = substr(entry, 1, 32) || randomblob(200)")
        db.execute("INSERT INTO entries VALUES (randomblob(32), randomblob(5000))")
    for tables in filled.glob("effects-*.json"):
        tables.write_bytes(os.urandom(100_000))
    assert explain(filled) == truth


def _forge_swap(folder: Path) -> None:
    """What an attacker who can write the cache folder does: the entry of Swap's effect
    replaced by the tree of `gain 100 points` under Swap's own key (a hash of public
    things: the package's sources and the effect's text), so the key check passes."""
    from importlib import resources

    from ruamel.yaml import YAML

    from legacies.dsl.parser import _normalize, _parse_normalized

    cards = YAML(typ="safe").load(resources.files("legacies.content").joinpath("legacy", "cards.yaml").read_text())
    source = next(item["effect"] for item in cards["items"] if item["id"] == "swap")
    key = pc.ParseCache(None).key("program", _normalize(source))
    tree = cache_codec.dump_tree(_parse_normalized(_normalize("gain 100 points"))).encode()
    with _entries(folder) as db:
        db.execute("INSERT OR REPLACE INTO entries (key, entry) VALUES (?, ?)", (key, key + tree))


def test_a_cache_folder_other_users_can_write_is_not_used(filled: Path, truth: str) -> None:
    _forge_swap(filled)  # (in the user's own folder the user's own entries are taken: see docs/cli.md)
    filled.chmod(0o777)  # a shared folder: anyone could have written that entry
    assert explain(filled) == truth
    filled.chmod(0o700)
    (filled / "trees.sqlite3").chmod(0o666)  # a file anyone may write: the same
    assert explain(filled) == truth


def test_trust_is_for_the_users_own_regular_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = tmp_path / "mine"
    mine.write_text("")
    assert pc.owned(os.stat(mine)) and pc.owned(os.stat(tmp_path), stat.S_ISDIR)
    assert not pc.owned(os.stat(tmp_path)) and not pc.owned(os.stat(mine), stat.S_ISDIR)
    os.mkfifo(tmp_path / "fifo")
    assert not pc.owned(os.stat(tmp_path / "fifo"))
    mine.chmod(0o646)
    assert not pc.owned(os.stat(mine))
    mine.chmod(0o644)
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(mine).st_uid + 1)  # as another user sees it
    assert not pc.owned(os.stat(mine))
    monkeypatch.setenv("LEGACIES_CACHE_DIR", str(tmp_path))
    assert pc.cache_folder() is None


def test_a_fifo_in_place_of_either_cache_file_is_never_opened(filled: Path, truth: str) -> None:
    for path in [*filled.glob("effects-*.json"), filled / "trees.sqlite3"]:
        path.unlink()
        os.mkfifo(path)  # opened to read, it would wait for a writer forever: every command that parses hung
    assert explain(filled) == truth  # (within explain's timeout)


# --------------------------------------------------------------------------- the codec
@pytest.mark.parametrize("entry", [
    '{"k": 9999, "f": []}',  # no such class
    '{"k": 1, "f": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}',  # another number of fields
    '{"k": 0}',  # a span without its numbers
    '{"k": 0, "s": [1, 2, "x", 4]}',
    '[1, 2, 3]', '"text"', '{"f": []}', '[' * 100_000,
])
def test_the_codec_builds_only_the_trees_it_wrote(entry: str) -> None:
    with pytest.raises((ValueError, RecursionError)):
        cache_codec.load_tree(entry)


def test_a_tree_round_trips_through_its_plain_form() -> None:
    tree = parse_program("choose a card in my hand as C\nif C's worth > 3:\n    gain 1 points\n")
    again = cache_codec.load_tree(cache_codec.dump_tree(tree))
    assert again == tree and again is not tree
    assert [n.span for n in ast.walk(again)] == [n.span for n in ast.walk(tree)]


def test_an_entry_made_for_another_text_is_refused(tmp_path: Path) -> None:
    cache = pc.reset(str(tmp_path / "trees.sqlite3"))
    try:
        first, second = "gain 1 points\n", "gain 100 points\n"
        parse_program(first)
        parse_program(second)
        cache.flush()
        db = cache._connect()
        assert db is not None
        key_first, key_second = cache.key("program", first), cache.key("program", second)
        with db:
            (theirs,) = db.execute("SELECT entry FROM entries WHERE key = ?", (key_second,)).fetchone()
            db.execute("UPDATE entries SET entry = ? WHERE key = ?", (theirs, key_first))
        assert cache.get(key_first, first, ast.Program) is None
        gain = parse_program(first).statements[0]
        assert isinstance(gain, ast.Gain) and gain.amount == ast.Num(1)
    finally:
        pc.reset(None)
