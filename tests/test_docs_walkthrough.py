"""docs/authoring.md's walkthrough is run as written: a designer's new card, tried, kept
as a scenario test and measured in a balance report, with every command's real output.

The walkthrough is the part of the guide between `<!-- walkthrough -->` and
`<!-- /walkthrough -->`. In it:
- a fenced block whose info string is `yaml file=PATH` is written to PATH (in a fresh
  folder, in order) before the commands after it run;
- in a `console` block, each `$ COMMAND` line is run with bash in that folder, and the
  lines after it, up to the next `$`, are what it must print (stdout and stderr, as a
  person at the terminal sees them). A line `...` stands for any number of lines, and
  `[...]` inside a line for any text (timings, which vary from machine to machine).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "docs" / "authoring.md"
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)


def walkthrough_steps(text: str) -> list[tuple[str, str, str]]:
    """The walkthrough's steps in order: ("file", path, text) or ("run", command, expected)."""
    start, end = text.index("<!-- walkthrough -->"), text.index("<!-- /walkthrough -->")
    steps: list[tuple[str, str, str]] = []
    for info, body in FENCE.findall(text[start:end]):
        words = info.split()
        if words[:1] == ["yaml"] and len(words) == 2 and words[1].startswith("file="):
            steps.append(("file", words[1][len("file="):], body))
        elif words[:1] == ["console"]:
            command, expected = None, []
            for line in body.splitlines():
                if line.startswith("$ "):
                    if command is not None:
                        steps.append(("run", command, "\n".join(expected)))
                    command, expected = line[2:], []
                else:
                    expected.append(line)
            if command is not None:
                steps.append(("run", command, "\n".join(expected)))
    return steps


def matches(expected: list[str], actual: list[str]) -> bool:
    """`...` lines match any run of lines; `[...]` in a line matches any text."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(part) for part in head.split("[...]"))
    return re.fullmatch(pattern, actual[0]) is not None and matches(rest, actual[1:])


def test_the_matcher_can_fail() -> None:
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"]) and matches(["took [...] s"], ["took 1.5 s"])
    assert not matches(["a", "z"], ["a", "b", "z"]) and not matches(["took [...] s"], ["took 1.5 ms!"])


@pytest.mark.slow  # minutes on two cores: `-m slow`, a step of .ci/run
def test_the_authoring_walkthrough_runs_as_written(tmp_path: Path) -> None:
    steps = walkthrough_steps(GUIDE.read_text(encoding="utf-8"))
    assert sum(1 for kind, _, _ in steps if kind == "run") >= 6, "the walkthrough lost its commands"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    for kind, what, body in steps:
        if kind == "file":
            target = tmp_path / what
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, encoding="utf-8")
            continue
        done = subprocess.run(["bash", "-c", what], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=600, stdin=subprocess.DEVNULL)
        actual = [line.rstrip() for line in done.stdout.rstrip("\n").splitlines()]
        expected = [line.rstrip() for line in body.rstrip("\n").splitlines()]
        assert matches(expected, actual), (f"`{what}` printed:\n" + "\n".join(actual)
                                           + "\n\nthe guide shows:\n" + "\n".join(expected))
