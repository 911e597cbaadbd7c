"""Issue 33, section 1: one bounded walk for every folder the program reads
(pipeline/walk.py). Links and loops are said once each, where they are; a link out of
the folder, `/` and `/proc` are never walked; the walk stops at its bounds; an OS error
is a sentence. No test here depends on time: each counts what was walked or said."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.pipeline import walk as walk_mod
from legacies.pipeline.validate import UsageError, validate
from legacies.pipeline.walk import OutsideFolder, SymlinkLoop, Walk, WalkBound, walk

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()
needs_links = pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")


def _yaml(name: str) -> bool:
    return name.endswith((".yaml", ".yml"))


def _salons(tmp_path: Path) -> Path:
    folder = tmp_path / "salons"
    shutil.copytree(REPO / "expansions" / "salons", folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


@needs_links
def test_links_to_itself_are_each_said_once_and_never_followed(tmp_path: Path) -> None:
    # `ln -s . a` ... `h` hung validate -x (8^8 folders), and three links printed 6,561 X003
    folder = _salons(tmp_path)
    for name in "abcdefgh":
        os.symlink(".", folder / name)
    os.symlink("..", folder / "content" / "legacies" / "up")
    result = validate([], None, (str(folder),))
    codes = sorted(d.code for d in result.diagnostics)
    assert codes.count("F007") == 9 and "X003" not in codes, codes
    said = sorted(Path(d.file).name for d in result.diagnostics if d.code == "F007")
    assert said == sorted([*"abcdefgh", "up"])
    assert result.ok  # a loop is read once: a warning, the expansion itself is whole


@needs_links
def test_a_link_out_of_the_folder_and_into_proc_is_a_located_error(tmp_path: Path) -> None:
    folder = _salons(tmp_path)
    content = folder / "content" / "legacies"
    os.symlink("/", content / "root")
    os.symlink("/proc/self", folder / "proc")
    outside = tmp_path / "outside.yaml"
    outside.write_text("items: []\n")
    os.symlink(outside, content / "borrowed.yaml")
    result = validate([], None, (str(folder),))
    f010 = sorted(Path(d.file).name for d in result.diagnostics if d.code == "F010")
    assert f010 == ["borrowed.yaml", "proc", "root"], [d.headline() for d in result.diagnostics]
    assert not result.ok
    assert all(len(d.message) < 200 for d in result.diagnostics)


def test_the_walk_never_leaves_the_folder_nor_enters_the_system_folders() -> None:
    bounds = Walk(entries=3_000, folders=200)
    seen = list(walk(Path("/"), _yaml, depth=8, bounds=bounds, folders_too=True))
    assert len(seen) <= 3_000 + 200
    assert not any(w.relative.split("/")[0] in ("proc", "sys", "dev") for w in seen)
    if bounds.stopped:  # a full file system: it stopped where it said so
        assert isinstance(seen[-1].problem, WalkBound)
    for top in ("/proc/self", "/proc", "/sys"):
        if os.path.isdir(top):
            found = list(walk(Path(top), _yaml))
            assert len(found) == 1 and isinstance(found[0].problem, OutsideFolder), top


def test_expansion_root_and_proc_and_a_long_name_are_usage_errors_in_words() -> None:
    with pytest.raises(UsageError, match="holds nothing"):
        validate([], "legacies", ("/",))
    with pytest.raises(UsageError, match="folder of the system"):
        validate([], "legacies", ("/proc/self",))
    long = "a" * 5_000
    with pytest.raises(UsageError) as caught:
        validate([], "legacies", (long,))
    assert "too long" in str(caught.value) and len(str(caught.value)) < 300
    for args in (["validate", "-x", long, "--ruleset", "legacies"], ["validate", "-x", "/proc/self"],
                 ["validate", long], ["play", "-x", long], ["play", "--ruleset", long]):
        out = runner.invoke(app, args)
        assert out.exit_code == 2 and out.exception is None or isinstance(out.exception, SystemExit), args
        assert "Traceback" not in out.output and len(out.output) < 600, (args, out.output[:300])


def test_the_walk_stops_at_its_bounds_with_a_located_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "rs"
    shutil.copytree(REPO / "rules" / "legacy", root / "rules" / "legacy", ignore=shutil.ignore_patterns("__*"))
    content = root / "content" / "legacy"
    shutil.copytree(REPO / "content" / "legacy", content, ignore=shutil.ignore_patterns("__*"))
    for i in range(60):
        (content / f"empty{i:02}").mkdir()
    monkeypatch.setattr(walk_mod, "MAX_WALK_FOLDERS", 20)
    result = validate([str(root)])
    f011 = [d for d in result.diagnostics if d.code == "F011"]
    assert len(f011) == 1 and not result.ok and "the walk stopped" in f011[0].message


def test_folders_nest_at_most_sixteen_deep(tmp_path: Path) -> None:
    deep = tmp_path
    for i in range(20):
        deep = deep / f"d{i}"
    deep.mkdir(parents=True)
    (deep / "x.yaml").write_text("items: []\n")
    found = list(walk(tmp_path, _yaml, too_deep=True))
    assert len(found) == 1 and isinstance(found[0].problem, WalkBound) and "16 deep" in found[0].problem.strerror


@needs_links
def test_scenario_tests_and_migrate_walk_the_same_way(tmp_path: Path) -> None:
    from legacies.agents.scenario_tests import find_tests
    from legacies.pipeline.migrate import migrate

    (tmp_path / "t").mkdir()
    for name in "abc":
        os.symlink(".", tmp_path / "t" / name)
    os.symlink("/", tmp_path / "t" / "root")
    tests, problems = find_tests([tmp_path / "t"])
    assert tests == [] and sorted(d.code for d in problems) == ["F007", "F007", "F007", "F010"]
    result = migrate([str(tmp_path / "t")], write=False)
    assert sorted(f.problem.code for f in result.files) == ["F007", "F007", "F007", "F010"]


def test_a_folder_that_cannot_be_listed_is_a_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_scandir = os.scandir

    def refusing(path: object) -> object:
        if str(path).endswith("secret"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    (tmp_path / "secret").mkdir()
    monkeypatch.setattr(walk_mod.os, "scandir", refusing)
    found = list(walk(tmp_path, _yaml))
    assert len(found) == 1 and found[0].problem is not None
    assert found[0].problem.strerror == "Permission denied" and not isinstance(found[0].problem, SymlinkLoop)
