"""Scenario tests: tries kept as tests, the service behind `legacies test PATH...`.

A scenario test file is a YAML mapping (or a list of them) that names an item, sets the
stage as a `legacies try` scenario does, answers its decisions and states what must hold
afterwards:

    item: C101
    ruleset: legacies      # default: the installed ruleset that has the item
    players: 4             # players, seed, as, play, counters, before: see agents/trial.py
    play: 6
    counters: {1: {gold: 10}}
    choose: [2]            # option numbers from 1, in order
    effect: reward    # or run: "set_up(K2)" (default: the item's own effect)
    expect:                # effect-language expressions, read as the seat afterwards
      my gold: 8
      mill's space: 4
      mill's space > 3: yes   # a condition: yes or no, as the language writes them
    changes:               # optional: the whole difference, exactly as `try` prints it
      - "P1's gold: 10 -> 8"
      - "Mill's space: 3 -> 4"
    refused: "cannot pay"  # instead: the rules must refuse it, with these words

Every failure is a Diagnostic (code T001; T002 for a test that cannot run as written,
such as one whose decisions outrun its `choose:`) at the test's file and line (a wrong
expectation at its key under `expect:`, changes that differ at the first line missing,
else at `changes:`, with the changes as `try` words them now in the hint, ready to put
under `changes:`), so `legacies test` reports like `legacies validate` (text, json,
GitHub annotations).
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from legacies.dsl.diagnostics import Diagnostic, DiagnosticError
from legacies.dsl.parser import EXPRESSION_PREFIX
from legacies.dsl.types import T
from legacies.interpreter import sandbox
from legacies.interpreter.errors import InternalError
from legacies.interpreter.game import cached_game
from legacies.interpreter.mechanics import describe
from legacies.interpreter.naming import namer_for
from legacies.pipeline.explain import find_item
from legacies.pipeline.ruleset import RulesetResult, load_ruleset, rulesets
from legacies.pipeline.walk import walk
from legacies.pipeline.yaml_source import read_yaml_file, walk_diagnostic

from .trial import Scenario, TrialError, run_trial

KEYS = {"item", "ruleset", "players", "seed", "as", "play", "counters", "before", "choose", "effect", "run",
        "expect", "changes", "refused", "name"}


@dataclass
class ScenarioTest:
    item: str
    file: str
    line: int
    name: str = ""
    ruleset: str | None = None
    scenario: Scenario = field(default_factory=Scenario)
    choose: list[int] = field(default_factory=list)
    effect: str | None = None
    run: str | None = None
    expect: dict[str, Any] = field(default_factory=dict)
    changes: list[str] | None = None
    refused: str | None = None
    # where its keys are written, (line, column): "expect", "expect EXPR", "changes", "changes N"
    places: dict[str, tuple[int, int]] = field(default_factory=dict)
    # where the text of its `before:` and `run:` starts in the file, (line, column) offsets
    # (YamlSource.origin): a mistake in them is said where it is written
    origins: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.name or self.item


@dataclass
class TestRun:
    tests: list[ScenarioTest] = field(default_factory=list)
    failures: list[Diagnostic] = field(default_factory=list)
    failed_tests: list[ScenarioTest] = field(default_factory=list)  # (a failure may be at any key of its test)

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def failed(self) -> int:
        """Tests that failed (a test with three wrong expectations is one)."""
        return len(self.failed_tests)

    @property
    def passed(self) -> int:
        return len(self.tests) - len(self.failed_tests)



def find_tests(paths: list[Path]) -> tuple[list[ScenarioTest], list[Diagnostic]]:
    """Every scenario test in the files and folders given (folders: every YAML file below
    that holds `item:` at its top level or in a top-level list)."""
    tests: list[ScenarioTest] = []
    problems: list[Diagnostic] = []
    for path in paths:
        if path.is_dir():
            files = []
            for w in walk(path, lambda name: name.endswith((".yaml", ".yml")), too_deep=True):
                if w.problem is None:
                    files.append(Path(str(w.entry)))
                else:
                    problems.append(walk_diagnostic(str(w.entry), w.problem))
        elif path.exists():  # a file, or a FIFO or a device: the reader refuses those unread (F006)
            files = [path]
        else:
            problems.append(Diagnostic("T002", f"no such file or folder: {path}", file=str(path)))
            continue
        for file in files:
            found, bad = _read(file)
            tests.extend(found)
            problems.extend(bad)
            if not found and not bad and not path.is_dir():  # a file named on purpose: say why nothing ran
                problems.append(Diagnostic("T002", "no scenario test here: a test is a mapping with `item:` "
                                           "(or a list of them)", 1, 1, file=str(file)))
    return tests, problems


def _read(file: Path) -> tuple[list[ScenarioTest], list[Diagnostic]]:
    source, problems = read_yaml_file(file)
    if source is None or any(d.severity == "error" for d in problems):
        # a duplicate key: which of the two is meant cannot be known, so none of the
        # file's tests runs on a guess (it is counted unreadable, as a file that does not parse)
        return [], problems
    data = source.data
    entries = data if isinstance(data, list) else [data]
    tests: list[ScenarioTest] = []
    bad: list[Diagnostic] = list(problems)
    for n, entry in enumerate(entries):
        path: tuple = (n,) if isinstance(data, list) else ()
        line = source.position(path)[0] if path else 1
        if not isinstance(entry, dict) or "item" not in entry:
            if isinstance(data, list):
                bad.append(Diagnostic("T002", "a scenario test is a mapping with `item:`", line, 1, file=str(file)))
            continue  # a YAML file that is not a scenario test (a ruleset file in the same folder)
        unknown = sorted(set(entry) - KEYS)
        if unknown:
            bad.append(Diagnostic("T002", f"unknown key `{unknown[0]}` in a scenario test", line, 1, file=str(file),
                                  hint="keys: " + ", ".join(sorted(KEYS))))
            continue
        try:
            test = _test(entry, str(file), line)
        except TrialError as err:
            bad.append(Diagnostic("T002", str(err), line, 1, file=str(file)))
            continue
        test.places = _places(source, path, entry)
        test.origins = {key: found for key in ("before", "run") if key in entry
                        for found in [source.origin(path + (key,))] if found is not None}
        tests.append(test)
    return tests, bad


def _places(source: Any, path: tuple[Any, ...], entry: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Where a test's `expect:` and `changes:` keys and lines are written, for a failure to
    point at."""
    places: dict[str, tuple[int, int]] = {}
    for key in ("expect", "changes", "item", "refused", "effect", "choose"):
        if key in entry:
            places[key] = source.key_position(path + (key,))
    for expr in entry.get("expect") or {}:
        places[f"expect {expr}"] = source.key_position(path + ("expect", expr))
    for n in range(len(entry.get("changes") or [])):
        places[f"changes {n}"] = source.position(path + ("changes", n))
    return places


def _test(entry: dict[str, Any], file: str, line: int) -> ScenarioTest:
    scenario = Scenario.from_data({k: v for k, v in entry.items()
                                   if k in ("players", "seed", "as", "play", "counters", "before")}, file)
    choose = entry.get("choose") or []
    if not isinstance(choose, list) or not all(type(c) is int and c >= 1 for c in choose):
        raise TrialError("`choose` is a list of option numbers from 1")
    expect = entry.get("expect") or {}
    if not isinstance(expect, dict):
        raise TrialError("`expect` maps effect-language expressions to their values afterwards")
    changes = entry.get("changes")
    if changes is not None and not (isinstance(changes, list) and all(isinstance(c, str) for c in changes)):
        raise TrialError("`changes` is a list of lines as `legacies try` prints them")
    for key in ("item", "ruleset", "effect", "run", "refused", "name"):
        if entry.get(key) is not None and not isinstance(entry[key], str):
            raise TrialError(f"`{key}` is text")
    if entry.get("effect") is not None and entry.get("run") is not None:
        raise TrialError("`effect` and `run` each name what runs: give one of them")
    for expr, wanted in expect.items():
        if wanted is None:
            raise TrialError(f"`expect`'s `{expr}` has no value: write what it should be afterwards")
    if not (expect or changes is not None or entry.get("refused")):
        raise TrialError("a scenario test states what must hold: `expect`, `changes` or `refused`")
    return ScenarioTest(entry["item"], file, line, entry.get("name") or "", entry.get("ruleset"), scenario,
                        [c - 1 for c in choose], entry.get("effect"), entry.get("run"), dict(expect), changes,
                        entry.get("refused"))


def run_tests(tests: list[ScenarioTest], root: str | None = None, ruleset: str | None = None,
              expansions: tuple[str | Path, ...] = ()) -> TestRun:
    """Run every test; `ruleset` (with `root` for a folder) is the ruleset they are for,
    unless a test names its own."""
    result = TestRun(tests=list(tests))
    kept = _Built()
    for test in tests:
        failures = run_test(test, root, ruleset, expansions, kept)
        result.failures.extend(failures)
        if failures:
            result.failed_tests.append(test)
    return result


class _Built:
    """Each ruleset a run of tests loads, built once for every test (a folder's is built
    anew by `load_ruleset` each time: 14 tests built Legacies 14 times); the Games they
    play are compiled once too (`cached_game`)."""

    def __init__(self) -> None:
        self.rulesets: dict[str, RulesetResult] = {}

    def ruleset(self, name: str, root: str | None, expansions: tuple[str | Path, ...]) -> RulesetResult:
        if name not in self.rulesets:
            self.rulesets[name] = load_ruleset(name, root, expansions)
        return self.rulesets[name]


def run_test(test: ScenarioTest, root: str | None = None, ruleset: str | None = None,
             expansions: tuple[str | Path, ...] = (), built: _Built | None = None) -> list[Diagnostic]:
    def fail(message: str, hint: str | None = None, code: str = "T001", at: str = "",
             inside: Diagnostic | None = None) -> list[Diagnostic]:
        line, column = test.places.get(at) or (test.line, 1)  # the failing key, else the test's `item:`
        key = at.split(" ", 1)[-1] if at in test.places and not at.startswith("changes ") else None
        end = column + len(str(key)) if key else None  # the key's name underlined whole (a changes line: its start)
        if inside is not None and key is not None and inside.line == 1 and inside.column > EXPRESSION_PREFIX:
            # a mistake in the key (an expression, parsed after EXPRESSION_LEAD): at it
            lead = EXPRESSION_PREFIX + 1
            column, end = column + inside.column - lead, (column + inside.end_column - lead if inside.end_column else None)
        return [Diagnostic(code, f"{test.label}: {message}", line, column, file=test.file, hint=hint,
                           end_column=end)]

    wanted = test.ruleset or ruleset
    names = [wanted] if wanted else rulesets()
    spec = None
    item = test.item
    built = built or _Built()
    for name in names:
        loaded = built.ruleset(name, root, expansions)
        if loaded.spec is None:
            if wanted:
                from legacies.pipeline.validate import validate_args

                return fail(f"ruleset `{name}` has content errors: run "
                            f"`legacies validate {validate_args(name, root, expansions)}`")
            continue  # while searching every installed ruleset, a broken one is skipped
        found = find_item(test.item, loaded.build) if loaded.build is not None else None
        if found is not None:  # an id or a name, as `try` takes it
            spec, item = loaded.spec, found
            break
    if spec is None:
        known = [i for name in names if (b := built.ruleset(name, root, expansions).build) is not None for i in b.items]
        close = difflib.get_close_matches(str(test.item), known, n=1)
        return fail(f"no item `{test.item}` in {'ruleset `' + wanted + '`' if wanted else 'any installed ruleset'}",
                    hint=f"did you mean `{close[0]}`?" if close else "`legacies content` lists the items", at="item",
                    code="T002")
    try:
        trial = run_trial(spec, item, test.scenario, effect=test.effect, run=test.run, answers=test.choose,
                          what="the scenario test", make_game=cached_game)
    except TrialError as err:
        origin = test.origins.get(err.part)
        if err.diagnostics and origin is not None:  # a mistake in the test's own source: where it is written
            return [_placed(test, err.part, d, origin) for d in err.diagnostics]
        if test.refused is not None and "the rules refuse" in str(err):
            if test.refused.lower() in str(err).lower():
                return []
            return fail(f"refused, but not with \"{test.refused}\": {err}", at="refused")
        answers = "choose" if err.usage and "answer" in str(err) else ""  # one too few, or out of range
        return fail(str(err), code="T002" if err.usage else "T001", at=answers)  # usage: the test cannot run as written
    if trial.unused:  # an answer written for a question never asked: the test is not what it says
        return fail(f"{trial.unused} answer{'s' if trial.unused > 1 else ''} of `choose` not needed: "
                    f"{len(trial.asked)} question{'s were' if len(trial.asked) != 1 else ' was'} asked",
                    code="T002", at="choose")
    if test.refused is not None:
        return fail(f"expected the rules to refuse it (\"{test.refused}\"), but it ran",
                    hint="what it changed: " + ("; ".join(trial.changes) or "nothing"), at="refused")
    out: list[Diagnostic] = []
    assert trial.state is not None
    for expr, wanted in test.expect.items():
        try:
            got, kind = sandbox.typed_value(trial.state, str(expr), trial.me, players_named=True)
        except DiagnosticError as err:
            inside = err.diagnostics[0]
            hints = [d.hint for d in err.diagnostics if d.hint]
            seats = sandbox.player_names(trial.state)
            if seats:
                listed = list(seats)
                listed_words = ", ".join(listed[:-1]) + " and " + listed[-1] if len(listed) > 1 else listed[0]
                hints.append(f"the players here are {listed_words} (`{listed[-1]}'s ...` reads another seat's); "
                             "`me` is the player the test plays as")
            out += fail(f"`{expr}` does not check: " + "; ".join(f"{d.code} {d.message}" for d in err.diagnostics),
                        hint="; ".join(hints), at=f"expect {expr}", inside=inside, code="T002")
            continue
        except InternalError as err:
            out += fail(f"`{expr}` cannot be read: {err}", at=f"expect {expr}")
            continue
        if not _same(trial.state, got, wanted, kind):
            hint = "what changed: " + ("; ".join(trial.changes) or "nothing")
            if kind.tag in _NUMBERS and _number(str(wanted)) is None and not isinstance(wanted, bool):
                hint = f"`{expr}` is a number: write the number it should be; " + hint
            written = ", ".join(map(str, wanted)) if isinstance(wanted, list) else wanted
            out += fail(f"`{expr}` is {_shown(trial.state, got, wanted, kind)}, expected {written}",
                        hint=hint, at=f"expect {expr}")
    if test.changes is not None and test.changes != trial.changes:
        missing = [c for c in test.changes if c not in trial.changes]
        extra = [c for c in trial.changes if c not in test.changes]
        detail = "; ".join([f"missing: {m}" for m in missing] + [f"not expected: {e}" for e in extra]) \
            or "the same lines in another order"
        first = next((n for n, c in enumerate(test.changes) if c in missing), None)
        # the lines as `try` words them now, ready to put under `changes:` (a wording that
        # changed shows here whole)
        now = "\n".join(f"  - {json.dumps(c, ensure_ascii=False)}" for c in trial.changes) or "  (nothing)"
        out += fail(f"the changes differ: {detail}", hint=f"the changes now read:\n{now}",
                    at=f"changes {first}" if first is not None else "changes")
    return out


def _placed(test: ScenarioTest, part: str, inner: Diagnostic, origin: tuple[int, int]) -> Diagnostic:
    """A diagnostic of the test's `before:` or `run:` text, at its place in the test's file:
    a mistake in the test as written (T002), not a failure of what it tries."""
    lines, columns = origin
    end = inner.end_column + columns if inner.end_column is not None else None
    return Diagnostic("T002", f"{test.label}: `{part}` does not check: {inner.code} {inner.message}",
                      inner.line + lines, inner.column + columns, file=test.file, hint=inner.hint, end_column=end)


def _number(text: str) -> int | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return int(number) if number.is_integer() else None


_YES_NO = {"yes": True, "no": False}  # as the language writes a flag (YAML reads them as text)


_NUMBERS = ("amount", "percent")  # the types whose values are numbers (a player and a piece are ints too)


def _shown(state: Any, value: Any, wanted: Any, kind: T | None = None) -> Any:
    """The value as the test wrote what it wanted: a number, yes/no, or names. `kind`, the
    expression's type, tells a number from a player or a piece (all three are ints)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if kind is not None and kind.tag == "zone" and type(value) is int:
        return ", ".join(_held(state, value)) or "none"
    if kind is not None and kind.tag == "numbers" and isinstance(value, (list, tuple)):
        return namer_for("numbers")(state.st, value) or "none"
    if kind is not None and type(value) is int:
        if kind.tag in _NUMBERS:
            return value
        if kind.tag == "player":
            return state.st.player_name(value)
    if kind is not None and kind.tag == "players" and isinstance(value, (list, tuple)):
        return ", ".join(state.st.player_name(p) for p in value) or "nobody"
    if isinstance(wanted, (bool, int)) or value is None:
        return value
    if isinstance(wanted, str) and type(value) is int and _number(wanted) is not None:
        return value
    return describe(state.st, value)


def _held(state: Any, zone: int) -> list[str]:
    """The names of the pieces a zone holds, bottom first (as `cards in Z` lists them)."""
    return [describe(state.st, pid) for pid in state.st.zones[zone]]


def _listed(wanted: Any) -> list[str]:
    """A list the test wrote: as a YAML list, or as text (`A, B`; `none` or nothing for an
    empty one)."""
    if isinstance(wanted, list):
        return [str(w).strip() for w in wanted]
    text = str(wanted).strip()
    return [] if text.lower() in ("", "none") else [w.strip() for w in text.split(",")]


def _same(state: Any, value: Any, wanted: Any, kind: T | None = None) -> bool:
    if kind is not None and kind.tag == "zone" and type(value) is int:
        # a zone is what it holds (an int, never read as the piece of that number)
        return [name.lower() for name in _held(state, value)] == [w.lower() for w in _listed(wanted)]
    if kind is not None and kind.tag == "numbers" and isinstance(value, (list, tuple)):
        return [str(x) for x in value] == _listed(wanted)
    if isinstance(wanted, str) and wanted.strip().lower() in _YES_NO and isinstance(value, bool):
        return value == _YES_NO[wanted.strip().lower()]
    if kind is not None and kind.tag in _NUMBERS and type(value) is int and not isinstance(wanted, bool):
        return value == (wanted if type(wanted) is int else _number(str(wanted)))
    if kind is not None and kind.tag == "player" and type(value) is int and not isinstance(wanted, (bool, int)):
        return state.st.player_name(value).lower() == str(wanted).strip().lower()
    if kind is not None and kind.tag == "players" and isinstance(wanted, list):
        return isinstance(value, (list, tuple)) and \
            [state.st.player_name(p).lower() for p in value] == [str(w).strip().lower() for w in wanted]
    if isinstance(wanted, str) and type(value) is int and _number(wanted) is not None:
        return value == _number(wanted)
    if isinstance(wanted, bool):
        return isinstance(value, bool) and value == wanted or type(value) is int and bool(value) == wanted
    if isinstance(wanted, int):
        return type(value) is int and value == wanted
    if isinstance(wanted, list):
        return isinstance(value, (list, tuple)) and \
            [describe(state.st, v).lower() for v in value] == [str(w).lower() for w in wanted]
    return str(_shown(state, value, wanted, kind)).lower() == str(wanted).lower()
