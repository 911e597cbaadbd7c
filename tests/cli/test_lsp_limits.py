"""The language server bounds the time and memory of the part of a check that runs the
content (issue 22, part 1): the setup to its first decision runs in a forked child with
a deadline and a memory limit, and what passes them is a diagnostic, never a frozen or
swollen editor."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from legacies.cli.lsp import check as lsp_check
from legacies.cli.lsp import limits as lsp_limits
from legacies.cli.lsp.check import check_document
from legacies.cli.lsp.limits import LimitPassed, bounded

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork: the setup runs in the server")
TINY = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "tiny"


def test_a_result_comes_back_and_an_error_is_said() -> None:
    assert bounded(lambda: [1, "two"]) == [1, "two"]
    with pytest.raises(LimitPassed, match="the setup stopped: ZeroDivisionError"):
        bounded(lambda: 1 // 0)


def test_a_run_past_its_time_is_killed_at_the_deadline() -> None:
    started = time.monotonic()
    with pytest.raises(LimitPassed, match="within 1 s"):
        bounded(lambda: time.sleep(60), seconds=1)
    assert time.monotonic() - started < 5


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="the memory limit needs Linux's /proc")
def test_a_run_past_its_memory_is_stopped() -> None:
    with pytest.raises(LimitPassed, match="more than 100 MB"):
        bounded(lambda: len(bytearray(2 * 1024 ** 3)), megabytes=100)


def _copy(tmp_path: Path, game: str) -> Path:
    root = tmp_path / "tiny"
    shutil.copytree(TINY, root)
    procedures = root / "rules/tiny/procedures.yaml"
    text = procedures.read_text(encoding="utf-8")
    procedures.write_text(text.replace("game: |\n", "game: |\n" + game), encoding="utf-8")
    return procedures


def test_a_setup_that_runs_long_is_a_diagnostic_of_the_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    procedures = _copy(tmp_path, "  repeat 1000 times:\n      repeat 1000 times:\n          raise rounds_played by 1\n")
    ruleset = procedures.parent / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text().replace("step_budget: 5000", "step_budget: 20000000"))
    monkeypatch.setattr(lsp_limits, "SETUP_SECONDS", 0.05)
    started = time.monotonic()
    check = check_document(procedures, {procedures: procedures.read_text()})
    assert time.monotonic() - started < 30
    found = [d for d in check.diagnostics if d.code == "E300"]
    # the rules stop themselves at the deadline, located at the statement running (the
    # kill, SETUP_SECONDS + KILL_GRACE, is for what the deadline cannot stop)
    assert found and "stopped at the editor's check's deadline of 0.05 s" in found[0].message, found[0].message
    assert (found[0].line, found[0].column) == (30, 7)  # the inner `repeat`, charged each time round
    assert check.build is not None and check.build.spec is not None  # hover and completion still have names


def test_a_setup_the_deadline_cannot_stop_is_killed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the deadline cannot stop (no step of the rules for seconds: here the check
    itself made to sleep) is killed at SETUP_SECONDS + KILL_GRACE and said at the file."""
    procedures = _copy(tmp_path, "  raise rounds_played by 1\n")
    monkeypatch.setattr(lsp_limits, "SETUP_SECONDS", 0.05)
    monkeypatch.setattr(lsp_limits, "KILL_GRACE", 0.5)
    monkeypatch.setattr(lsp_check, "smoke_check", lambda spec, label, seconds, what: time.sleep(60))
    started = time.monotonic()
    check = check_document(procedures, {procedures: procedures.read_text()})
    assert time.monotonic() - started < 30
    found = [d for d in check.diagnostics if d.code == "E300"]
    assert found and "within 1 s (the editor's limit)" in found[0].message, found[0].message


def test_numbers_that_run_away_in_the_setup_are_said_quickly(tmp_path: Path) -> None:
    procedures = _copy(tmp_path, "  set rounds_played to 2\n  repeat 40 times:\n"
                                 "      set rounds_played to rounds_played * rounds_played\n")
    started = time.monotonic()
    check = check_document(procedures, {procedures: procedures.read_text()})
    assert time.monotonic() - started < 10
    assert [(d.code, d.line) for d in check.diagnostics if d.code == "E300"] == [("E300", 31)]
