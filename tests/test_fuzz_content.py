"""Fuzzing content (issue 7): hypothesis damages valid rulesets every way a person or a
tool could, and `validate` must end every case in Diagnostics, each with a file, a line
and a column, never a traceback and never an engine bug (E299, E301, E302), in at most
2 s of CPU and 200 MB of memory per case.

The damage, on the data (then written back as YAML) or on the text: keys missing and
extra, values of the wrong type, random edits to effect text (keywords, names,
operators, characters), unicode, huge and negative numbers, deep nesting, duplicate ids,
dangling references, anchors, aliases and tags, truncation, binary noise.

`test_content_fuzz` runs a few hundred cases in the default run; the marked test runs
10,000: `python -m pytest -m fuzz tests/test_fuzz_content.py`."""

from __future__ import annotations

import io
import re
import resource
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from legacies.dsl.parser import keywords
from legacies.pipeline.report import render_github, render_json, render_text
from legacies.pipeline.validate import validate

REPO = Path(__file__).resolve().parents[1]
SOURCES = {  # a ruleset to damage: its folder, and its files relative to it
    "legacy": (REPO, ["rules/legacy/ruleset.yaml", "rules/legacy/procedures.yaml", "content/legacy/cards.yaml"]),
    "minilegacies": (REPO / "tests/fixtures/minilegacies",
                     sorted(p.relative_to(REPO / "tests/fixtures/minilegacies").as_posix()
                            for p in (REPO / "tests/fixtures/minilegacies").glob("*/minilegacies/*.yaml"))),
}
ENGINE_BUGS = {"E299", "E301", "E302"}
CODE = re.compile(r"[A-Z]\d{3}")
MAX_CPU_SECONDS = 2.0
MAX_GROWTH_BYTES = 200 * 1024 * 1024

_yaml = YAML(typ="safe", pure=True)
_yaml.default_flow_style = False
_texts: dict[tuple[str, str], str] = {}
_data: dict[tuple[str, str], Any] = {}


def _text(ruleset: str, name: str) -> str:
    if (ruleset, name) not in _texts:
        _texts[(ruleset, name)] = (SOURCES[ruleset][0] / name).read_text(encoding="utf-8")
    return _texts[(ruleset, name)]


def _plain(ruleset: str, name: str) -> Any:
    if (ruleset, name) not in _data:
        _data[(ruleset, name)] = _yaml.load(_text(ruleset, name))
    return _data[(ruleset, name)]


WORDS = sorted(keywords()) + ["me", "my", "this", "it", "its", "gold", "points", "hand", "tableau", "nobody",
                               "X", "C", "(", ")", ",", "+", "-", "*", "/", "%", "=", "<", ">", ":", '"', "'s",
                               "\n", "    ", "\t", "é", "🙂", "\u202e", "\x00", "99999999999999999999999", "-7"]
ODD = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True),
                st.text(max_size=30), st.lists(st.integers(), max_size=3),
                st.dictionaries(st.text(max_size=8), st.integers(), max_size=3),
                st.just("x" * 5000), st.just("gain " + "-" * 400 + "1 gold"))


def _paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out.extend(_paths(value, prefix + (key,)))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out.extend(_paths(value, prefix + (i,)))
    return out


def _get(data: Any, path: tuple) -> Any:
    for step in path:
        data = data[step]
    return data


@st.composite
def damage_data(draw: st.DrawFn, data: Any) -> Any:
    """One change to a deep copy of plain data."""
    data = _yaml.load(io.StringIO(_dump(data)))
    paths = _paths(data)
    path = draw(st.sampled_from(paths))
    parent_path, last = path[:-1], path[-1] if path else None
    parent = _get(data, parent_path) if path else None
    how = draw(st.sampled_from(["drop", "extra", "type", "number", "effect", "unicode", "deep", "duplicate",
                                "dangle", "swap"]))
    if how == "drop" and parent is not None:
        del parent[last]
    elif how == "extra":
        target = _get(data, path)
        if isinstance(target, dict):
            target[draw(st.sampled_from(["idd", "copies", "effect", "kind", "x" * 300, "é"]))] = draw(ODD)
        elif isinstance(target, list):
            target.append(draw(ODD))
    elif how == "type" and parent is not None:
        parent[last] = draw(ODD)
    elif how == "number" and parent is not None:
        parent[last] = draw(st.sampled_from([-1, 0, -10**9, 10**18, 2**63, 10**400, 1.5, float("inf")]))
    elif how == "effect" and parent is not None and isinstance(parent[last], str):
        parent[last] = _edit_text(draw, parent[last])
    elif how == "unicode" and parent is not None:
        parent[last] = draw(st.text(min_size=1, max_size=40))
    elif how == "deep" and parent is not None:
        value: Any = parent[last]
        for _ in range(draw(st.integers(1, 80))):
            value = [value] if draw(st.booleans()) else {"k": value}
        parent[last] = value
    elif how == "duplicate" and isinstance(data, dict) and isinstance(data.get("items"), list) and data["items"]:
        data["items"].append(data["items"][draw(st.integers(0, len(data["items"]) - 1))])
    elif how == "dangle" and parent is not None and isinstance(parent[last], str):
        parent[last] = parent[last] + draw(st.sampled_from(["_x", "s", "", " of nobody"]))
    elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
        parent.reverse()
    return data


def _edit_text(draw: st.DrawFn, text: str) -> str:
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        if kind == "insert":
            text = text[:pos] + draw(st.sampled_from(WORDS)) + " " + text[pos:]
        elif kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 12)):]
        else:
            text = text[:pos] + draw(st.sampled_from(WORDS)) + text[pos + draw(st.integers(0, 8)):]
    return text


NOISE = ["", ":", "- ", "{", "]", "'", '"', "\t", "  ", "#", "&a ", "*a", "*nope", "<<: *a\n", "!!python/object:os.system ",
         "!!binary ", "!custom ", "!!int ", "? ", "---\n", "...\n", "|", ">", "\x00", "\ufeff", "é", "\r", "%YAML 1.1\n"]


@st.composite
def damage_text(draw: st.DrawFn, text: str) -> str:
    lines = text.splitlines(keepends=True) or ["\n"]
    how = draw(st.sampled_from(["truncate", "noise", "lines", "anchor", "effect"]))
    if how == "truncate":
        return text[: draw(st.integers(0, len(text)))]
    if how == "anchor":  # an anchor on one value, an alias to it elsewhere
        i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
        lines[i] = lines[i].replace(": ", ": &a ", 1)
        lines[j] = lines[j].split(": ")[0] + ": *a\n" if ": " in lines[j] else lines[j]
        return "".join(lines)
    if how == "effect":
        return _edit_text(draw, text)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        if how == "noise":
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + draw(st.sampled_from(NOISE)) + lines[i][pos:]
        else:
            action = draw(st.sampled_from(["drop", "dup", "indent", "dedent"]))
            if action == "drop" and len(lines) > 1:
                del lines[i]
            elif action == "dup":
                lines.insert(i, lines[i])
            elif action == "indent":
                lines[i] = "  " + lines[i]
            else:
                lines[i] = lines[i].lstrip(" ")
    return "".join(lines)


def _dump(data: Any) -> str:
    out = io.StringIO()
    _yaml.dump(data, out)
    return out.getvalue()


@st.composite
def damaged_ruleset(draw: st.DrawFn) -> tuple[str, dict[str, str | bytes]]:
    """A ruleset with one to three of its files damaged: (ruleset, {file: new text})."""
    ruleset = draw(st.sampled_from(sorted(SOURCES)))
    files = SOURCES[ruleset][1]
    changed: dict[str, str | bytes] = {}
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(files))
        if draw(st.booleans()):
            try:
                changed[name] = _dump(draw(damage_data(_plain(ruleset, name))))
            except Exception:  # noqa: BLE001 - a value YAML cannot write (e.g. NaN keys): damage the text instead
                changed[name] = draw(damage_text(_text(ruleset, name)))
        else:
            changed[name] = draw(damage_text(_text(ruleset, name)))
        if draw(st.integers(0, 20)) == 0:  # binary noise
            raw = bytearray(str(changed[name]).encode("utf-8", errors="surrogatepass")) or bytearray(b"\n")
            for _ in range(5):
                raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
            changed[name] = bytes(raw)
    return ruleset, changed


class Run:
    """The checked cases of one test: a scratch copy of each ruleset, rewritten per case."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.cases = 0
        self.worst = 0.0
        for ruleset, (root, files) in SOURCES.items():
            for name in files:
                (folder / ruleset / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(root / name, folder / ruleset / name)
            validate([str(folder / ruleset)])  # warm up: the grammar and schemas are built once per process

    def check(self, case: tuple[str, dict[str, str | bytes]]) -> None:
        ruleset, changed = case
        root = self.folder / ruleset
        for name, text in changed.items():
            data = text if isinstance(text, bytes) else text.encode("utf-8", errors="surrogatepass")
            (root / name).write_bytes(data)
        try:
            started = time.process_time()
            result = validate([str(root)])
            rendered = (render_text(result.diagnostics, result.sources), render_json(result.diagnostics),
                        render_github(result.diagnostics))
            spent = time.process_time() - started
        finally:
            for name in changed:
                shutil.copy(SOURCES[ruleset][0] / name, root / name)
        self.cases += 1
        self.worst = max(self.worst, spent)
        if self.cases % 1000 == 0:  # progress of a long run (shown with -s)
            print(f"fuzz: {self.cases} cases, the slowest {self.worst:.2f} s of CPU", flush=True)
        assert spent < MAX_CPU_SECONDS, f"a case took {spent:.2f} s of CPU: {_describe(case)}"
        assert all(len(text) < 2_000_000 for text in rendered)
        for d in result.diagnostics:
            assert d.code not in ENGINE_BUGS, f"an engine bug: {d.headline()}"
            assert CODE.fullmatch(d.code) and d.message, d
            assert d.file and d.line >= 1 and d.column >= 1, d
            assert len(d.message) <= 500, d.code


def _describe(case: tuple[str, dict[str, str | bytes]]) -> str:
    """Where a damaged ruleset first differs from the original, file by file."""
    ruleset, changed = case
    out = []
    for name, text in changed.items():
        new = text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text
        old = _text(ruleset, name)
        at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        out.append(f"{name} at {at}: {new[max(0, at - 80):at + 200]!r}")
    return f"{ruleset}: " + " | ".join(out)


def _warm_hypothesis() -> None:
    """Let hypothesis read the constants of the project's modules now: on a fresh clone
    (no .hypothesis folder) it parses every loaded module's source on its first example,
    a peak of about 200 MB that is hypothesis's, not the engine's."""

    @settings(max_examples=20, deadline=None, database=None)
    @given(st.text())
    def once(_: str) -> None:
        pass

    once()


def _fuzz(folder: Path, examples: int) -> Run:
    run = Run(folder)
    _warm_hypothesis()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(damaged_ruleset())
    def case(damage: tuple[str, dict[str, str | bytes]]) -> None:
        run.check(damage)

    case()
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    assert growth < MAX_GROWTH_BYTES, f"the peak memory grew by {growth / 1e6:.0f} MB"
    return run


@pytest.mark.slow  # minutes on two cores: `-m slow`, a step of .ci/run
def test_content_fuzz(tmp_path: Path) -> None:
    run = _fuzz(tmp_path, 200)
    assert run.cases >= 150


@pytest.mark.fuzz
def test_content_fuzz_10000(tmp_path: Path) -> None:
    started = time.perf_counter()
    run = _fuzz(tmp_path, 10_000)
    print(f"\n{run.cases} cases in {time.perf_counter() - started:.0f} s; the slowest took {run.worst:.2f} s of CPU")
    assert run.cases >= 10_000
