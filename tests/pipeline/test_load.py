"""load: positive and negative example files (check-jsonschema's example-files style),
and the discovery of a ruleset's files (files.py) that feeds it.

Each file's kind is the first word of its name (`content_bad_id.yaml` is content).
A negative file starts with `# expect: CODE` and marks the line the diagnostic must
point at with a `# <-` comment; it must yield that code, and only that code.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from legacies.pipeline.files import SourceFile, guess_kind, installed_rulesets, kind_from_keys, ruleset_files
from legacies.pipeline.load import LoadedFile, load_file, load_sources, pydantic_diagnostics
from legacies.pipeline.models import ContentFile, ProceduresFile, RulesetFile
from legacies.pipeline.yaml_source import load_yaml

FIXTURES = Path(__file__).parent / "fixtures"
POSITIVE = sorted((FIXTURES / "positive").glob("*.yaml"))
NEGATIVE = sorted((FIXTURES / "negative").glob("*.yaml"))
EXPECT = re.compile(rb"^# expect: ([A-Z]\d{3})\b")
MODELS = {"ruleset": RulesetFile, "procedures": ProceduresFile, "content": ContentFile}


def kind_of(path: Path) -> str:
    return path.name.split("_", 1)[0]


def expectation(path: Path) -> tuple[str, int]:
    raw = path.read_bytes()
    match = EXPECT.match(raw)
    assert match, f"{path.name} must start with '# expect: CODE'"
    marked = [n for n, line in enumerate(raw.splitlines(), 1) if b"# <-" in line]
    assert len(marked) == 1, f"{path.name} must mark one line with '# <-'"
    return match.group(1).decode(), marked[0]


def test_fixture_folders_are_not_empty() -> None:
    assert {kind_of(p) for p in POSITIVE} == set(MODELS)
    assert len(NEGATIVE) >= 10


@pytest.mark.parametrize("path", POSITIVE, ids=lambda p: p.name)
def test_positive_file_loads_without_problems(path: Path) -> None:
    loaded, problems = load_file(path.name, kind_of(path), path.read_bytes())
    assert problems == []
    assert isinstance(loaded, LoadedFile)
    assert isinstance(loaded.model, MODELS[kind_of(path)])
    assert loaded.kind == kind_of(path) and loaded.label == path.name


@pytest.mark.parametrize("path", NEGATIVE, ids=lambda p: p.name)
def test_negative_file_yields_its_code_at_its_line(path: Path) -> None:
    code, line = expectation(path)
    loaded, problems = load_file(path.name, kind_of(path), path.read_bytes())
    # a duplicate key is reported and the file still loads, so its other problems are found too;
    # a content file whose schema errors are all inside items loads without those items; any
    # other file whose schema errors are all inside entries it can go without, without them
    if code == "Y002":
        assert loaded is not None
    else:
        # (an unknown key is left out, or read as the required key it misspells; an item's
        # missing name is stood in for by its id: nothing dropped)
        mended = code == "S003" or path.name in ("content_missing_name.yaml", "content_negative_copies.yaml",
                                                 "content_wrong_type.yaml")
        assert loaded is None or ((loaded.dropped or mended) and code.startswith("S")), loaded
    assert [d.code for d in problems] == [code], "\n".join(d.render() for d in problems)
    assert problems[0].line == line, problems[0].render(path.read_text(errors="replace").splitlines())
    assert problems[0].file == path.name


def test_loaded_file_exposes_positions_and_origins() -> None:
    path = FIXTURES / "positive" / "content_small.yaml"
    loaded, _ = load_file("content_small.yaml", "content", path.read_text())
    assert loaded is not None
    line_offset, column_offset = loaded.origin(("items", 1, "effect"))
    # effect line 2, column 6 is "bought" in "when bought:"
    assert loaded.lines[2 + line_offset - 1][6 + column_offset - 1:].startswith("bought")
    assert loaded.position(("items", 0, "effect")) == (9, 13)
    assert loaded.key_position(("items", 0, "effect")) == (9, 5)


def test_schema_errors_stop_before_the_model() -> None:
    loaded, problems = load_file("c.yaml", "content", "ruleset: 5\nitems:\n  - {id: a, kind: k, name: n}\n")
    assert loaded is None and [d.code for d in problems] == ["S004"]
    # inside items only: those items are left out, and the rest of the file is loaded
    loaded, problems = load_file("c.yaml", "content", "ruleset: x\nitems:\n  - {id: a, kind: k, name: n, copies: -1}\n"
                                 "  - {id: b, kind: k, name: m}\n  - {kind: k, name: o, copies: x}\n")
    assert [d.code for d in problems] == ["S005", "S002", "S004"] and [d.line for d in problems] == [3, 5, 5]
    # a's copies stood in for (one), so a is checked on; the item with no id is left out
    assert loaded is not None and loaded.dropped == ("",)
    assert [item.id for item in loaded.model.items] == ["a", "b"]  # type: ignore[attr-defined]
    assert loaded.position(("items", 1, "name")) == (4, 28)  # b where it is written


def test_pydantic_errors_become_s006() -> None:
    source, _ = load_yaml("r.yaml", "players:\n  min: 0\n  max: 2\n")
    assert source is not None
    with pytest.raises(ValidationError) as caught:
        RulesetFile.model_validate(source.data)
    problems = pydantic_diagnostics(caught.value, source)
    assert {d.code for d in problems} == {"S006"}
    at_min = [d for d in problems if d.message.startswith("players.min:")]
    assert [(d.line, d.column) for d in at_min] == [(2, 8)]


def test_unknown_kind_is_a_diagnostic() -> None:
    loaded, problems = load_file("x.yaml", "cards", "a: 1\n")
    assert loaded is None and [d.code for d in problems] == ["F002"]


def test_load_sources_collects_every_file_and_keeps_lines() -> None:
    def missing() -> bytes:
        raise FileNotFoundError(2, "No such file or directory")

    sources = [
        SourceFile(p.name, kind_of(p), p.read_bytes) for p in (POSITIVE[0], NEGATIVE[0], NEGATIVE[1])
    ] + [SourceFile("rules/x/ruleset.yaml", "ruleset", missing)]
    result = load_sources(sources)
    assert not result.ok
    # the bad id's item is left out of its file, which loads; a YAML error refuses the file whole
    assert NEGATIVE[0].name == "content_bad_id.yaml" and NEGATIVE[1].name == "content_bad_int_tag.yaml"
    assert [f.label for f in result.files] == [POSITIVE[0].name, NEGATIVE[0].name]
    assert result.files[1].dropped and not result.files[1].model.items  # type: ignore[attr-defined]
    # ruleset.yaml unread: the rest is not built, and a warning says why (not "found 0 ruleset.yaml")
    assert [d.code for d in result.diagnostics][-2:] == ["F001", "F003"] and result.stopped
    assert set(result.sources) == {s.label for s in sources}
    assert result.sources[NEGATIVE[0].name][0].startswith("# expect:")


# --------------------------------------------------------------------------- discovery (files.py)


def make_repo(root: Path) -> None:
    """A content repository: rules/tiny/ and content/tiny/ built from the positive fixtures."""
    (root / "rules" / "tiny").mkdir(parents=True)
    (root / "content" / "tiny" / "era1").mkdir(parents=True)
    positive = FIXTURES / "positive"
    (root / "rules" / "tiny" / "ruleset.yaml").write_bytes((positive / "ruleset_small.yaml").read_bytes())
    (root / "rules" / "tiny" / "flow.yaml").write_bytes((positive / "procedures_small.yaml").read_bytes())
    (root / "content" / "tiny" / "era1" / "cards.yaml").write_bytes((positive / "content_small.yaml").read_bytes())
    (root / "content" / "tiny" / "anchors.yml").write_bytes((positive / "content_anchors.yaml").read_bytes())
    (root / "content" / "tiny" / "notes.md").write_text("not data")


def test_ruleset_files_from_a_content_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_repo(tmp_path / "repo")
    monkeypatch.chdir(tmp_path)
    found = ruleset_files("tiny", tmp_path / "repo")
    assert [(f.label, f.kind) for f in found] == [
        ("repo/rules/tiny/ruleset.yaml", "ruleset"),
        ("repo/rules/tiny/flow.yaml", "procedures"),
        ("repo/content/tiny/anchors.yml", "content"),
        ("repo/content/tiny/era1/cards.yaml", "content"),
    ]
    result = load_sources(found)
    assert result.ok and len(result.files) == 4


def test_a_missing_ruleset_file_is_f001(tmp_path: Path) -> None:
    found = ruleset_files("absent", tmp_path)
    assert [f.kind for f in found] == ["ruleset"]
    assert [d.code for d in load_sources(found).diagnostics] == ["F001"]


def test_single_file_kind_from_location_and_keys(tmp_path: Path) -> None:
    make_repo(tmp_path)
    [card] = ruleset_files("tiny", tmp_path / "content" / "tiny" / "era1" / "cards.yaml")
    assert card.kind == "content"
    loose = tmp_path / "loose.yaml"
    loose.write_text("ruleset: tiny\ntitle: T\n")
    assert ruleset_files("tiny", str(loose))[0].kind == "ruleset"
    assert guess_kind(tmp_path / "rules" / "tiny" / "flow.yaml", "items: []") == "procedures"
    assert guess_kind(tmp_path / "x" / "ruleset.yaml", "") == "ruleset"


@pytest.mark.parametrize(("text", "kind"), [
    ("ruleset: tiny\ntitle: Tiny\n", "ruleset"),
    ("# cards\nruleset: tiny\nitems:\n  - id: a\n", "content"),
    ("actions: {}\n", "procedures"),
    ("  ruleset: nested\n  title: not top level\n", "procedures"),
])
def test_kind_from_top_level_keys(text: str, kind: str) -> None:
    assert kind_from_keys(text) == kind


def test_installed_rulesets_have_a_ruleset_file() -> None:
    names = installed_rulesets()
    assert names == sorted(names)
    for name in names:
        first = ruleset_files(name)[0]
        assert (first.label, first.kind) == (f"rules/{name}/ruleset.yaml", "ruleset")
        assert first.read()
