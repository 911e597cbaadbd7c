"""Scenario tests (agents/scenario_tests.py, `legacies test`): the project's own scenario
files all pass; a wrong expectation, a wrong refusal and a bad file each fail with the
file and line; the command exits 0/1 and speaks json and GitHub annotations."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.agents.scenario_tests import find_tests, run_tests
from legacies.cli.main import app

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@pytest.mark.slow  # minutes on two cores: `-m slow`, a step of .ci/run
def test_the_projects_scenario_tests_pass_and_cover_many_items_of_every_kind() -> None:
    tests, problems = find_tests([SCENARIOS])
    assert not problems, [str(p) for p in problems]
    items = {t.item for t in tests}
    assert len(items) >= 40
    kinds = {t.item[0] for t in tests if t.item[0] in "CSEH"} | {"character" for t in tests if t.item == "politician"}
    assert kinds >= {"C", "S", "E", "H", "character"}
    result = run_tests(tests)
    assert result.ok, "\n".join(f"{d.file}:{d.line}: {d.message}" for d in result.failures)
    assert result.passed == len(tests)


def test_wrong_expectations_fail_at_their_line(tmp_path: Path) -> None:
    path = tmp_path / "wrong.yaml"
    path.write_text(
        "- item: C1003\n  seed: 5\n  play: 6\n  counters: {1: {gold: 10}}\n  choose: [2]\n  expect: {my gold: 9}\n"
        "- item: C1003\n  seed: 5\n  play: 6\n  counters: {1: {gold: 10}}\n  choose: [2]\n  refused: cannot pay\n"
        "- item: C1003\n  seed: 5\n  counters: {1: {gold: 1}}\n  refused: not enough fame\n"
        "- item: C1003\n  expect: {my gould: 1}\n  counters: {1: {gold: 10}}\n  play: 6\n  choose: [1]\n",
        encoding="utf-8")
    tests, problems = find_tests([path])
    assert not problems and len(tests) == 4
    result = run_tests(tests)
    messages = {d.line: d.message for d in result.failures}
    assert "`my gold` is 8, expected 9" in messages[6]  # at its key under `expect:`
    assert "expected the rules to refuse it" in messages[12]  # at its `refused:` key
    assert "refused, but not with \"not enough fame\"" in messages[16]
    assert "`my gould` does not check" in messages[18]
    assert result.passed == 0


def test_a_zone_expected_is_compared_with_what_it_holds(tmp_path: Path) -> None:
    """A user's trial: `expect: {my tableau: Protect}` failed with "`my tableau` is Gold"
    (the zone's number read as a piece). A zone is what it holds, bottom first. (And `item:`
    takes a name, as `try` does: "no item `Protect`" before.)"""
    path = tmp_path / "zone.yaml"
    path.write_text("- item: protect\n  ruleset: legacy\n  play: 4\n  expect: {my tableau: Protect}\n"
                    "- item: Protect\n  ruleset: legacy\n  play: 4\n  expect: {my tableau: none}\n",  # by name, as try
                    encoding="utf-8")
    tests, problems = find_tests([path])
    assert not problems and len(tests) == 2
    result = run_tests(tests)
    assert result.passed == 1
    [failure] = result.failures
    assert failure.line == 8 and "`my tableau` is Protect, expected none" in failure.message, failure.message


def test_changes_that_differ_fail_at_the_line_with_the_new_wording(tmp_path: Path) -> None:
    """Issue 34 §4: a `changes:` line `try` no longer prints fails at that line, and the
    failure shows every line as `try` words them now, ready to put under `changes:`."""
    path = tmp_path / "changes.yaml"
    path.write_text('- item: C1005\n  seed: 5\n  play: 6\n  counters: {1: {gold: 200, fame: 20}}\n  changes:\n'
                    '    - "P1\'s fame: 20 -> 23"\n    - "P1 gold: 200 -> 197"\n', encoding="utf-8")
    tests, problems = find_tests([path])
    assert not problems
    [failure] = run_tests(tests).failures
    assert (failure.code, failure.line, failure.column) == ("T001", 7, 7)
    assert "missing: P1 gold: 200 -> 197" in failure.message
    assert failure.hint is not None and failure.hint.startswith("the changes now read:\n")
    assert '  - "P1\'s gold: 200 -> 197"' in failure.hint.split("\n")


def test_a_mistake_in_a_tests_own_source_is_said_where_it_is_written(tmp_path: Path) -> None:
    """A user's trial: a misspelt name in `before:` was reported at the test's first line
    with the caret block inside the message; an answer no question used, `run:` beside
    `effect:` and an expectation with no value passed or ran. Each is the test's own
    mistake (T002, exit 2), at the line and column where it is written."""
    path = tmp_path / "mistakes.yaml"
    path.write_text("- item: protect\n  ruleset: legacy\n  play: 4\n  before: |\n    gain 1 points\n"
                    "    move top of legacy_dek to my hand\n  expect: {my points: 1}\n"
                    "- item: protect\n  ruleset: legacy\n  run: \"gain 1 pionts\"\n  expect: {my points: 1}\n"
                    "- item: protect\n  ruleset: legacy\n  play: 4\n  choose: [3]\n  expect: {my points: 0}\n"
                    "- item: protect\n  ruleset: legacy\n  run: gain 1 points\n  effect: effect\n"
                    "  expect: {my points: 1}\n"
                    "- item: protect\n  ruleset: legacy\n  expect: {my points: }\n", encoding="utf-8")
    said = CliRunner().invoke(app, ["test", str(path), "--format", "json"])
    assert said.exit_code == 2, said.output
    found = {(d["line"], d["column"]): d for d in json.loads(said.stdout)}
    before = found[(6, 17)]  # `legacy_dek` in the block under `before:`
    assert before["code"] == "T002" and "`before` does not check: E201 unknown name `legacy_dek`" in before["message"]
    assert before["hint"] == "did you mean `legacy_deck`?" and before["end_column"] == 27
    assert "`run` does not check: E201 unknown counter `pionts`" in found[(10, 16)]["message"]
    assert "1 answer of `choose` not needed" in found[(15, 3)]["message"]
    assert "give one of them" in found[(17, 1)]["message"]
    assert "`my points` has no value" in found[(22, 1)]["message"]
    sarif = json.loads(CliRunner().invoke(app, ["test", str(path), "--format", "sarif"]).stdout)  # as validate's
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in sarif["runs"][0]["results"]]
    assert {"startLine": 6, "startColumn": 17, "endLine": 6, "endColumn": 27} in regions
    text = CliRunner().invoke(app, ["test", str(path)]).output  # printed as validate prints, with a caret
    assert f"{path}:6:17: error T002:" in text and "        move top of legacy_dek to my hand\n" \
        "                    ^~~~~~~~~~" in text


def test_a_bad_test_file_is_reported_not_run(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("- item: C1003\n  expext: {my gold: 1}\n- item: C1003\n  choose: [0]\n  expect: {my gold: 1}\n"
                    "- item: C1003\n", encoding="utf-8")
    tests, problems = find_tests([path])
    assert not tests
    assert [p.line for p in problems] == [1, 3, 6]
    assert "unknown key `expext`" in problems[0].message and "from 1" in problems[1].message
    assert "states what must hold" in problems[2].message


def test_a_file_with_a_key_written_twice_runs_none_of_its_tests(tmp_path: Path) -> None:
    """A user's trial: a test with `expect:` twice ran on the second (a guess at which was
    meant) while the summary called its file unreadable ("0 passed, 1 failed, 1 unreadable").
    The file is refused, every test in it unrun; the summary counts the file once, however
    many keys it repeats, and each test written wrong elsewhere once."""
    twice = tmp_path / "twice.yaml"
    twice.write_text("- item: C1003\n  seed: 5\n  play: 6\n  expect: {my gold: 8}\n  expect: {my gold: 9}\n"
                     "  name: a\n  name: b\n- item: C1003\n  play: 6\n  expect: {my gold: 0}\n", encoding="utf-8")
    tests, problems = find_tests([twice])
    assert not tests and [p.code for p in problems] == ["Y002", "Y002"]
    wrong = tmp_path / "wrong_keys.yaml"
    wrong.write_text("- item: C1003\n  bogus: 1\n  expect: {my gold: 8}\n- item: C1003\n  bogus: 2\n"
                     "  expect: {my gold: 8}\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["test", "-r", "legacies", str(twice), str(wrong)])
    assert out.exit_code == 2 and "FAIL" not in out.output  # a T002 among them: the tests' own mistake
    assert out.output.rstrip().endswith("0 passed, 0 failed, 3 unreadable"), out.output


def test_the_command_exits_by_result_and_speaks_json_and_github(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["test", str(SCENARIOS / "legacies" / "choices.yaml")])
    assert ok.exit_code == 0 and "5 passed, 0 failed" in ok.output
    path = tmp_path / "wrong.yaml"
    path.write_text("item: C1003\nseed: 5\nplay: 6\ncounters: {1: {gold: 10}}\nchoose: [2]\nexpect: {my gold: 9}\n",
                    encoding="utf-8")
    listed = runner.invoke(app, ["test", str(path)])  # the failure is at `expect:` (line 6), the test at line 1
    assert listed.exit_code == 1 and f"FAIL {path}:1  C1003" in listed.output and "ok  " not in listed.output
    assert f"{path}:6:10: error T001" in listed.output and "0 passed, 1 failed" in listed.output
    [at] = json.loads(runner.invoke(app, ["test", str(path), "--format", "json"]).stdout)
    assert (at["line"], at["column"], at["end_column"]) == (6, 10, 17)  # `my gold` underlined whole
    failed = runner.invoke(app, ["test", str(path), "--format", "json"])
    assert failed.exit_code == 1
    assert json.loads(failed.stdout)[0]["code"] == "T001"
    github = runner.invoke(app, ["test", str(path), "--format", "github"])
    assert github.exit_code == 1 and github.stdout.startswith(f"::error file={path},line=6")  # its `expect:` key
    empty = runner.invoke(app, ["test", str(tmp_path / "nothing-here")])
    assert empty.exit_code == 2 and "no such file or folder" in empty.output  # a usage error, as in validate


def test_a_number_written_as_text_compares_as_a_number_and_a_named_file_without_tests_is_reported(
        tmp_path: Path) -> None:
    path = tmp_path / "text.yaml"
    path.write_text('item: C1003\nseed: 5\nplay: 6\ncounters: {1: {gold: 10}}\nchoose: [2]\n'
                    'expect: {my gold: "8", "law\'s space": "5"}\n', encoding="utf-8")
    tests, problems = find_tests([path])
    result = run_tests(tests)
    assert [d.message for d in result.failures] == ["C1003: `law's space` is 4, expected 5"]
    other = tmp_path / "other.yaml"
    other.write_text("itm: C1003\n", encoding="utf-8")
    tests, problems = find_tests([path, other])
    assert len(tests) == 1 and [p.code for p in problems] == ["T002"]


def test_the_command_counts_tests_not_failure_messages(tmp_path: Path) -> None:
    """Issue 17: three wrong expectations of one test printed "3 failed" (8 tests read as
    "6 passed, 3 failed")."""
    path = tmp_path / "two.yaml"
    path.write_text("- item: C1003\n  seed: 5\n  play: 6\n  counters: {1: {gold: 10}}\n  choose: [2]\n"
                    "  expect: {my gold: 1, my fame: 99, law's space: 9}\n"
                    "- item: C1003\n  seed: 5\n  play: 6\n  counters: {1: {gold: 10}}\n  choose: [2]\n"
                    "  expect: {my gold: 8}\n", encoding="utf-8")
    result = run_tests(find_tests([path])[0])
    assert (result.passed, result.failed, len(result.failures)) == (1, 1, 3)
    out = CliRunner().invoke(app, ["test", str(path)])
    assert out.exit_code == 1 and "1 passed, 1 failed" in out.output


def test_yes_and_no_are_expected_as_the_language_writes_them(tmp_path: Path) -> None:
    path = tmp_path / "flags.yaml"
    path.write_text("item: C1003\nseed: 5\nplay: 6\ncounters: {1: {gold: 10}}\nchoose: [2]\n"
                    "expect: {\"law's space > 3\": yes, \"my gold > 9\": no, \"my gold = 8\": Yes}\n", encoding="utf-8")
    assert run_tests(find_tests([path])[0]).failures == []
    path.write_text("item: C1003\nseed: 5\nplay: 6\ncounters: {1: {gold: 10}}\nchoose: [2]\n"
                    "expect: {\"my gold > 9\": yes}\n", encoding="utf-8")
    assert [d.message for d in run_tests(find_tests([path])[0]).failures] == ["C1003: `my gold > 9` is no, expected yes"]


def test_a_test_whose_decisions_outrun_its_answers_exits_2(tmp_path: Path) -> None:
    """A missing answer is a usage error, as docs/cli.md says (for `try` too)."""
    path = tmp_path / "short.yaml"
    path.write_text("item: C1003\nseed: 5\nplay: 6\ncounters: {1: {gold: 10}}\nexpect: {my gold: 8}\n",
                    encoding="utf-8")
    result = run_tests(find_tests([path])[0])
    assert [d.code for d in result.failures] == ["T002"] and "no answer is left" in result.failures[0].message
    out = CliRunner().invoke(app, ["test", str(path)])
    assert out.exit_code == 2 and "0 passed, 1 failed" in out.output
    tried = CliRunner().invoke(app, ["try", "C1003", "--seed", "5", "--play", "6"], input="")
    assert tried.exit_code == 2 and "no answer left" in tried.output


def test_a_scenario_test_that_runs_too_long_fails_at_its_deadline(tmp_path: Path, monkeypatch) -> None:
    """A scenario test's rules run within the trial's deadline (TRIAL_SECONDS, here 1):
    a test whose effect would run for minutes fails, with its file and line."""
    import shutil
    import time

    from legacies.agents import trial

    root = tmp_path / "work"
    shutil.copytree(Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "work", root)
    ruleset = root / "rules/work/ruleset.yaml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("step_budget: 200000", "step_budget: 20000000"),
                       encoding="utf-8")
    path = tmp_path / "long.yaml"
    path.write_text("- item: mirror\n  run: |\n    repeat 10000 times:\n        repeat 100 times:\n"
                    "            shuffle bag\n  expect: {tally: 0}\n", encoding="utf-8")
    monkeypatch.setattr(trial, "TRIAL_SECONDS", 1.0)
    tests, problems = find_tests([path])
    assert not problems
    started = time.monotonic()
    result = run_tests(tests, str(root), "work")
    assert time.monotonic() - started < 20
    (failure,) = result.failures
    assert failure.line == 1 and "stopped at the scenario test's deadline of 1 s" in failure.message, failure.message


def test_a_number_is_shown_as_a_number_and_other_seats_are_read_by_their_names(tmp_path: Path) -> None:
    """A user's trial: `expect: {my gold: five}` failed saying "`my gold` is Skirmish" (the
    number 5 shown as the piece numbered 5), and `P2's gold`, as `try` prints it, was an
    unknown name. The expression's type tells a number, a player and a piece apart; the
    players' names read as players; a mistake in a key is placed in it."""
    path = tmp_path / "seats.yaml"
    path.write_text(
        "- item: C1003\n  seed: 5\n  counters: {1: {gold: 10}, 2: {gold: 7}}\n  choose: [1]\n"
        "  expect: {P2's gold: 7, player after me: P2, opponents: [P2, P3]}\n"
        "- item: C1003\n  seed: 5\n  counters: {1: {gold: 10}, 2: {gold: 7}}\n  choose: [1]\n"
        "  expect:\n    my gold: ten\n    player after me: P3\n    P9's gold: 1\n"
        "- item: C1O03\n  seed: 5\n  expect: {my gold: 1}\n",
        encoding="utf-8")
    tests, problems = find_tests([path])
    assert not problems and len(tests) == 3
    result = run_tests(tests)
    failures = {d.line: d for d in result.failures}
    assert result.passed == 1 and 5 not in failures
    assert re.search(r"`my gold` is \d+, expected ten", failures[11].message)
    assert "is a number" in (failures[11].hint or "")
    assert "`player after me` is P2, expected P3" in failures[12].message
    assert "unknown name `P9`" in failures[13].message and failures[13].column == 5  # at P9 in its key
    assert "the players here are P1, P2 and P3" in (failures[13].hint or "")
    assert "no item `C1O03`" in failures[14].message and "did you mean" in (failures[14].hint or "")
