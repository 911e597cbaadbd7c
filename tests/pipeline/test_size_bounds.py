"""Issue 33, section 3: sizes are bounded (pipeline/size_bounds.py), and the cost grows
linearly up to the bound. Leader's Legacy with 100,000 provinces ran for minutes at
800 MB; 10,000 one-item files took 53 s and 698 MB; 10,000 warnings printed 4.8 MB; a
province at x = 10^15 squashed the map to a point. Each bound is said once, where it is
passed, and nothing is built past it. No test here reads a clock: the work is counted
(files read, readers made), the bounds are made small where a test needs to pass them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from legacies.dsl.diagnostics import Diagnostic
from legacies.pipeline import load, size_bounds, yaml_source
from legacies.pipeline.build import layers as build_layers
from legacies.pipeline.files import ruleset_files
from legacies.pipeline.load import load_sources
from legacies.pipeline.ruleset import load_ruleset
from legacies.pipeline.validate import validate
from legacies.pipeline.report import summary

REPO = Path(__file__).resolve().parents[2]


def _copy(root: Path, name: str) -> Path:
    for sub in (f"rules/{name}", f"content/{name}"):
        shutil.copytree(REPO / sub, root / sub, ignore=shutil.ignore_patterns("__*"))
    return root


def _one_item_files(root: Path, n: int) -> None:
    folder = root / "content/legacy/extra"
    folder.mkdir()
    for i in range(n):
        (folder / f"f{i:05}.yaml").write_text(
            f"format: 2\nruleset: legacy\nitems:\n  - {{id: extra_{i}, kind: resource_card, name: Extra {i}, "
            "copies: 1, attributes: {resource: gold}}\n", encoding="utf-8")


def _provinces(root: Path, n: int, x: int = 0, per_file: int = 500) -> None:
    folder = root / "content/leaders-legacy/more"
    folder.mkdir()
    for start in range(0, n, per_file):
        lines = ["format: 2", "ruleset: leaders-legacy", "items:"]
        for i in range(start, min(n, start + per_file)):
            before = f"p{i - 1}" if i else "frostgate"
            lines.append(f"  - {{id: p{i}, kind: province, name: P{i}, attributes: {{realm: norhold, "
                         f"resource: stone, map_x: {x or i % 1000}, map_y: {i // 1000}}}, "
                         f"links: {{overland: [{before}]}}}}")
        (folder / f"m{start:06}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_files_past_the_bound_are_not_read_and_nothing_is_built(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    root = _copy(tmp_path, "legacy")
    _one_item_files(root, 40)
    monkeypatch.setattr(size_bounds, "MAX_FILES", 25)
    read: list[str] = []
    real = load.load_source
    monkeypatch.setattr(load, "load_source", lambda source: (read.append(source.label), real(source))[1])
    result = load_sources(ruleset_files("legacy", root))
    assert len(read) == 25 and result.stopped  # the files past the bound are never opened
    f012 = [d for d in result.diagnostics if d.code == "F012"]
    assert len(f012) == 1 and "not read" in f012[0].message
    loaded = load_ruleset("legacy", str(root))
    assert loaded.spec is None and loaded.build is None  # never built from part of a ruleset, never played
    assert [d.code for d in validate([str(root)]).diagnostics].count("F012") == 1


def test_bytes_past_the_bound_stop_the_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _copy(tmp_path, "legacy")
    monkeypatch.setattr(size_bounds, "MAX_BYTES", 1000)
    result = load_sources(ruleset_files("legacy", root))
    assert result.stopped and [d.code for d in result.diagnostics] == ["F012"]


def test_items_and_links_past_the_bound_are_said_at_the_item(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _copy(tmp_path, "leaders-legacy")
    _provinces(root, 300)
    monkeypatch.setattr(size_bounds, "MAX_ITEMS", 200)
    result = validate([str(root)])
    c014 = [d for d in result.diagnostics if d.code == "C014"]
    assert len(c014) == 1 and "201 items, more than 200" in c014[0].message and c014[0].line > 3
    assert not result.ok and not any(d.code.startswith(("E", "R")) for d in result.diagnostics)  # nothing built
    monkeypatch.setattr(size_bounds, "MAX_ITEMS", 10_000)
    monkeypatch.setattr(size_bounds, "MAX_LINKS", 250)
    c014 = [d for d in validate([str(root)]).diagnostics if d.code == "C014"]
    assert len(c014) == 1 and "links between places" in c014[0].message


def test_places_past_the_bound_are_said_at_the_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _copy(tmp_path, "leaders-legacy")
    _provinces(root, 120)
    monkeypatch.setattr(build_layers, "MAX_PLACES", 100)
    c014 = [d for d in validate([str(root)]).diagnostics if d.code == "C014"]
    assert len(c014) == 1 and "101 places" in c014[0].message and c014[0].file.endswith("m000000.yaml")


def test_a_map_coordinate_past_the_bound_is_a_located_error(tmp_path: Path) -> None:
    root = _copy(tmp_path, "leaders-legacy")
    _provinces(root, 1, x=10**15)
    c015 = [d for d in validate([str(root)]).diagnostics if d.code == "C015"]
    assert len(c015) == 1 and "1,000,000,000,000,000" in c015[0].message
    assert c015[0].file.endswith("m000000.yaml") and c015[0].line == 4


def test_repeated_diagnostics_of_one_code_are_capped_with_a_count(tmp_path: Path) -> None:
    root = _copy(tmp_path, "leaders-legacy")
    _provinces(root, 400)  # each lists the one before, which does not list it back: 400 W306
    said = [d for d in validate([str(root)]).diagnostics if d.code == "W306"]
    assert len(said) == size_bounds.MAX_SAME_CODE + 1
    assert said[-1].message.startswith(f"and {400 - size_bounds.MAX_SAME_CODE:,} more W306")
    # the summary counts them all, the files of those not said too (a user's trial: "51 errors in
    # 11 files" of 300 in 60)
    result = validate([str(root)])
    assert summary(result.diagnostics, result.files) == "400 warnings in 1 file"
    spread = [Diagnostic("S003", f"unknown property {n}", file=f"f{n % 60}.yaml") for n in range(300)]
    assert summary(size_bounds.cap_repeats(spread), 60) == "300 errors in 60 files"


def test_the_cost_per_file_is_one_read_and_no_reader_made_per_file(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Linear: each file is read and loaded once, with one YAML reader for them all (one
    was made per file: a search for plug-ins on disk each time)."""
    root = _copy(tmp_path, "legacy")
    _one_item_files(root, 200)
    made = []
    real = yaml_source.YAML
    monkeypatch.setattr(yaml_source, "YAML", lambda *a, **k: (made.append(1), real(*a, **k))[1])
    monkeypatch.setattr(yaml_source, "_LOADERS", type(yaml_source._LOADERS)())
    reads = []
    sources = [s._replace(read=(lambda r: lambda: (reads.append(1), r())[1])(s.read))
               for s in ruleset_files("legacy", root)]
    result = load_sources(sources)
    assert len(result.files) == len(sources) and len(reads) == len(sources) and len(made) == 1
