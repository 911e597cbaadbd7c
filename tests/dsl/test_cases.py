"""Inline-expectation tests of the effect language (jlox / starlark style).

Every `tests/dsl/cases/*.fx` file is an effect with directive comments; the format is
described in tests/dsl/cases/README.md. In short:

- `# error: CODE "regex"` / `# warning: CODE "regex"`: the parser or the checker must
  report a diagnostic with that code and severity, whose message matches the regex, on
  the next line that is neither blank nor a comment. Every diagnostic reported must be
  expected by such a line. The parser reports every bad line of an effect, so a syntax
  case may expect several errors, each on its own line.
- a file with no error/warning line must parse and check cleanly; it is then run for
  player 1 in a fresh game of the minilegacies fixture, answering decisions with its
  `# answer: LABEL` lines in order, and each `# expect: EXPR = VALUE` must hold after
  the run (`# fails: "regex"` instead expects the run to be refused).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from legacies.dsl import ast
from legacies.dsl.checker import Checker, Context, check
from legacies.dsl.diagnostics import ERROR, WARNING, Diagnostic
from legacies.dsl.parser import EXPRESSION_PREFIX, SyntaxErrors, parse_expression, parse_program
from legacies.dsl.types import thing
from legacies.interpreter.compiler import Compiler
from legacies.interpreter.errors import GameError
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.spec import GameSpec
from legacies.interpreter.vm import Activation, BlockFrame
from legacies.pipeline.ruleset import load_ruleset

CASES = Path(__file__).resolve().with_name("cases")
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "minilegacies"
CASE_FILES = sorted(CASES.glob("*.fx"))

_DIRECTIVE = re.compile(
    r"^\s*#\s*(error|warning|expect(?:\s+for\s+\d+)?|answer|players|this|fails|seed)\s*:\s*(.*?)\s*$")
_DIAG = re.compile(r'^(?P<code>[EWF]\d{3})(?:\s+"(?P<regex>.*?)")?(?:\s+hint\s+"(?P<hint>.*)")?$')
_QUOTED = re.compile(r'^"(?P<regex>.*)"$')


# ---------------------------------------------------------------------- the case file


@dataclass
class Expected:
    severity: str
    code: str
    line: int
    regex: str | None
    hint: str | None
    written_at: int

    def matches(self, d: Diagnostic) -> bool:
        return (d.severity == self.severity and d.code == self.code and d.line == self.line
                and (self.regex is None or re.search(self.regex, d.message) is not None)
                and (self.hint is None or re.search(self.hint, d.hint or "") is not None))

    def __str__(self) -> str:
        regex = f' "{self.regex}"' if self.regex is not None else ""
        hint = f' hint "{self.hint}"' if self.hint is not None else ""
        return f"{self.severity} {self.code}{regex}{hint} on line {self.line} (written on line {self.written_at})"


@dataclass
class Case:
    path: Path
    source: str
    diagnostics: list[Expected] = field(default_factory=list)
    expects: list[tuple[str, str, int, int]] = field(default_factory=list)  # left, right, player, line
    answers: list[str] = field(default_factory=list)
    players: int = 3
    seed: int = 0
    this: str | None = None
    fails: str | None = None


def read_case(path: Path) -> Case:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    case = Case(path, source)
    pending: list[tuple[str, str, str | None, str | None, int]] = []  # diagnostics waiting for their line
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            m = _DIRECTIVE.match(line)
            if m is None:
                continue
            word, rest = m.group(1), m.group(2)
            if word in ("error", "warning"):
                dm = _DIAG.match(rest)
                assert dm, f"{path.name}:{number}: write `# {word}: CODE \"regex\"`, not {rest!r}"
                pending.append((ERROR if word == "error" else WARNING, dm.group("code"), dm.group("regex"),
                                dm.group("hint"), number))
            elif word.startswith("expect"):
                left, sep, right = rest.rpartition(" = ")
                assert sep, f"{path.name}:{number}: write `# expect: EXPR = VALUE`"
                player = int(word.split()[-1]) if " " in word else 1
                case.expects.append((left.strip(), right.strip(), player, number))
            elif word == "answer":
                case.answers.append(rest)
            elif word == "players":
                case.players = int(rest)
            elif word == "seed":
                case.seed = int(rest)
            elif word == "this":
                case.this = rest
            elif word == "fails":
                qm = _QUOTED.match(rest)
                assert qm, f"{path.name}:{number}: write `# fails: \"regex\"`"
                case.fails = qm.group("regex")
            continue
        for severity, code, regex, hint, written in pending:
            case.diagnostics.append(Expected(severity, code, number, regex, hint, written))
        pending = []
    assert not pending, f"{path.name}: an error/warning line is not followed by a line of code"
    return case


# ---------------------------------------------------------------------- the fixture game


@lru_cache(maxsize=1)
def fixture_spec() -> GameSpec:
    result = load_ruleset("minilegacies", root=FIXTURE)
    assert result.ok, "\n".join(d.headline() for d in result.diagnostics)
    assert result.spec is not None
    return result.spec


def context_for(spec: GameSpec, this: str | None) -> Context:
    if this is None:
        return Context()
    kind = spec.vocab.content[this]
    return Context(this=thing(kind), allow_declarations=True, playing="effect")  # as the item's effect is checked


def this_piece(game: Game, this: str | None) -> int:
    if this is None:
        return -1
    lay = game.layout
    return lay.board_item.get(this, (lay.def_pieces[lay.def_index[this]] or [-1])[0])


def diagnostics_of(case: Case, spec: GameSpec) -> tuple[ast.Program | None, list[Diagnostic]]:
    try:
        program = parse_program(case.source)
    except SyntaxErrors as err:
        return None, list(err.diagnostics)
    diags, _ = check(program, spec.vocab, context_for(spec, case.this), spec.res)
    return program, diags


def evaluate(state: GameState, text: str, player: int, this: int, ctx: Context) -> Any:
    spec = state.game.spec
    expr = parse_expression(text)
    checker = Checker(spec.vocab, spec.res)
    checker.check_expression(expr, ctx)
    problems = [d for d in checker.diags if d.severity == ERROR]
    assert not problems, f"`{text}`: " + "; ".join(
        f"{d.code} {d.message} (column {d.column - EXPRESSION_PREFIX})" for d in problems)
    fn = Compiler(spec, state.game.layout).expr(expr)
    return fn(Activation(state.st, player, this))


def run_program(state: GameState, program: ast.Program, player: int, this: int, answers: list[str]) -> None:
    """Run `program` as `player` on its own (the game's pending question is set aside
    and restored afterwards), answering each decision with the next answer."""
    st = state.st
    instrs = Compiler(state.game.spec, state.game.layout).program(program)
    saved = (st.frames, st.pending, st.over, st.active)
    backup = st.clone()
    st.frames = [BlockFrame(instrs, Activation(st, player, this))]
    st.start_option(st.frames[0])  # the effect run on its own is the option: its refusals refuse it
    st.pending = None
    try:
        try:
            st.run()  # like GameState.apply, a refusal before the first decision undoes it all
        except GameError:
            st.restore(backup)
            raise
        left = list(answers)
        while st.pending is not None:
            labels = st.pending.labels()
            assert left, f"no `# answer:` left for decision {st.pending.prompt!r}: options {labels}"
            answer = left.pop(0)
            assert answer in labels, f"answer {answer!r} is not an option of {st.pending.prompt!r}: {labels}"
            state.apply_label(answer)
        assert not left, f"unused answers: {left}"
    finally:
        st.frames, st.pending, st.over, st.active = saved


# ---------------------------------------------------------------------- the tests


def test_there_are_enough_cases() -> None:
    cases = [read_case(p) for p in CASE_FILES]
    negative = [c for c in cases if c.diagnostics]
    positive = [c for c in cases if not c.diagnostics]
    assert len(cases) >= 25
    assert len(negative) >= 10 and len(positive) >= 10
    codes = {e.code for c in cases for e in c.diagnostics}
    wanted = {"E100", "E101", "E102", "E103", "E104", "E105", "E106", "E107", "E108", "E110", "E201", "E202",
              "E203", "E204", "E205", "E206", "E208", "E209", "E211", "E212", "E213", "W301", "W302"}
    assert wanted <= codes, f"no case covers {sorted(wanted - codes)}"
    # the parser goes on after a syntax error: some syntax case expects errors on several lines
    assert any(len({e.line for e in c.diagnostics}) > 1 and c.diagnostics[0].code.startswith("E1") for c in cases)


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case(path: Path) -> None:
    case = read_case(path)
    spec = fixture_spec()
    program, diags = diagnostics_of(case, spec)

    unmatched = list(diags)
    missing = []
    for want in case.diagnostics:
        hit = next((d for d in unmatched if want.matches(d)), None)
        if hit is None:
            missing.append(want)
        else:
            unmatched.remove(hit)
    report = "\n".join(
        [f"expected but not reported: {w}" for w in missing]
        + [f"reported but not expected: {d.line}:{d.column} {d.severity} {d.code} {d.message}" for d in unmatched]
    )
    assert not missing and not unmatched, f"{path.name}\n{report}"
    if case.diagnostics:
        assert not case.expects and not case.answers, f"{path.name}: a negative case is not run"
        return

    assert program is not None
    game = Game(spec, case.players)
    state = game.new_state(case.seed)
    this = this_piece(game, case.this)
    ctx = context_for(spec, case.this)
    if case.fails is not None:
        before = state.fingerprint()
        with pytest.raises(GameError, match=case.fails):
            run_program(state, program, 0, this, case.answers)
        assert state.fingerprint() == before, "a refused effect must leave the game as it was"
        return
    run_program(state, program, 0, this, case.answers)
    for left, right, player, number in case.expects:
        got = evaluate(state, left, player - 1, this, ctx)
        want = evaluate(state, right, player - 1, this, ctx)
        assert got == want, f"{path.name}:{number}: expected `{left}` = `{right}` ({want!r}), got {got!r}"
