"""The static checks designers need (the ruleset-wide analyses of dsl/analysis.py and
the parser's and checker's wording), on small rulesets written to tmp folders and
loaded the way `legacies validate` loads them:

- trigger loops: an endless loop is E220 at the first trigger's `when`, naming the
  items and the events; a loop something may stop is W304 saying what; a loop that
  does run is stopped by the step budget (an InternalError naming the trigger) and
  undone;
- filters that can never match (W303), and ones that can (no warning);
- a call with the wrong number of arguments (E212) names the parameters;
- every syntax error of an effect, each at its own line, placed in its YAML file.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from textwrap import dedent, indent

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.dsl.diagnostics import Diagnostic
from legacies.dsl.parser import close_word
from legacies.interpreter.errors import BudgetExceeded, GameError, InternalError
from legacies.interpreter.game import Game
from legacies.pipeline.ruleset import RulesetResult, load_ruleset

RULESET = """\
ruleset: loops
title: Loops
players: {min: 2, max: 3}
score: points
limits: {max_turns: 4, step_budget: 3000, max_repeats: 3}
counters:
  gold: {start: 5}
  points: {}
  heat: {scope: game}
  pressure: {scope: game}
  level: {scope: game, min: 0, max: 10}
zones:
  deck: {scope: game, visibility: hidden}
  table: {scope: player, visibility: public, in_play: true}
kinds:
  machine:
    piece: board
    plural: machines
    attributes: {grade: number, colour: "symbol:colour"}
    counters:
      charge: {min: 0, max: 5}
  pawn: {piece: token, plural: pawns, supply: 3}
  rail: {piece: board, track: {spaces: 4}}
  card: {piece: card, plural: cards, starts_in: deck, attributes: {cost: number}}
enums:
  colour: [red, blue, green]
events:
  built: {label: something is built}
  sold: {}
  unused: {}
"""

PROCEDURES = """\
actions:
  build:
    label: Build
    do: |
      announce built
game: |
  take turns:
      perform one of build
"""


def write_ruleset(root: Path, content: str, procedures: str = PROCEDURES, ruleset: str = RULESET) -> None:
    (root / "rules" / "loops").mkdir(parents=True, exist_ok=True)
    (root / "content" / "loops").mkdir(parents=True, exist_ok=True)
    (root / "rules" / "loops" / "ruleset.yaml").write_text(ruleset)
    (root / "rules" / "loops" / "procedures.yaml").write_text(procedures)
    (root / "content" / "loops" / "items.yaml").write_text(content)


def load(root: Path, content: str, procedures: str = PROCEDURES) -> RulesetResult:
    write_ruleset(root, content, procedures)
    return load_ruleset("loops", root=root)


def items(*entries: tuple[str, str, str]) -> str:
    """Content of machines: (id, name, effect)."""
    out = ["ruleset: loops", "items:"]
    for cid, name, effect in entries:
        out += [f"  - id: {cid}", "    kind: machine", f"    name: {name}", "    effect: |",
                indent(dedent(effect).strip("\n"), " " * 6)]
    out += ["  - {id: rail_one, kind: rail, name: Rail}"]
    return "\n".join(out) + "\n"


def position(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """The 1-based line and column of the nth occurrence of `needle` in `text`."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return line, column


def only(result: RulesetResult, code: str) -> Diagnostic:
    found = [d for d in result.diagnostics if d.code == code]
    others = [d.headline() for d in result.diagnostics if d.code != code]
    assert len(found) == 1 and not others, [d.headline() for d in result.diagnostics]
    return found[0]


def at(d: Diagnostic, text: str, needle: str, nth: int = 0) -> None:
    assert d.file.endswith("content/loops/items.yaml"), d.file
    assert (d.line, d.column) == position(text, needle, nth), d.headline()


# ---------------------------------------------------------------------- trigger loops: endless (E220)


def test_a_trigger_that_announces_its_own_event_never_ends(tmp_path: Path) -> None:
    content = items(("echo", "Echo", """
        when built:
            raise heat by 1
            announce built
    """))
    d = only(load(tmp_path, content), "E220")
    assert d.severity == "error"
    at(d, content, "when built")
    assert "machine `echo` (Echo)" in d.message and "announces `built` again" in d.message
    assert "when `built` is announced" in d.message
    assert "once per turn" in (d.hint or "")


def test_two_triggers_that_announce_each_others_events_never_end(tmp_path: Path) -> None:
    content = items(
        ("seller", "Seller", """
            when built:
                announce sold
        """),
        ("builder", "Builder", """
            when sold:
                raise heat by 1
                announce built
        """))
    d = only(load(tmp_path, content), "E220")
    at(d, content, "when built")  # the loop is reported once, at its first trigger
    assert "machine `seller` (Seller) announces `sold`" in d.message
    assert "machine `builder` (Builder) announces `built`" in d.message
    assert "when `built` is announced" in d.message and "when `sold` is announced" in d.message


def test_a_procedure_that_announces_counts(tmp_path: Path) -> None:
    procedures = PROCEDURES + dedent("""\
        procedures:
          shout:
            do: |
              announce built
          relay:
            do: |
              shout()
    """)
    content = items(("caller", "Caller", """
        when built:
            relay()
    """))
    d = only(load(tmp_path, content, procedures), "E220")
    at(d, content, "when built")
    assert "machine `caller` (Caller) announces `built` again" in d.message
    assert "through procedure `relay`, procedure `shout`" in d.message


def test_a_condition_on_what_the_loop_does_not_change_does_not_stop_it(tmp_path: Path) -> None:
    content = items(("echo", "Echo", """
        when built where pressure < 3:
            raise heat by 1
            announce built
    """))
    d = only(load(tmp_path, content), "E220")
    at(d, content, "when built")


def test_an_endless_loop_inside_a_bounded_group_is_found(tmp_path: Path) -> None:
    # `gate` is bounded by its condition, but `spin` announces its own event unconditionally
    content = items(
        ("gate", "Gate", """
            when built where heat < 3:
                raise heat by 1
                announce sold
        """),
        ("spin", "Spin", """
            when sold:
                announce sold
                announce built
        """))
    d = only(load(tmp_path, content), "E220")
    at(d, content, "when sold")
    assert "machine `spin` (Spin) announces `sold` again" in d.message
    assert "gate" not in d.message


def test_many_triggers_on_one_event_are_checked_quickly(tmp_path: Path) -> None:
    content = items(*[(f"m{i}", f"M{i}", "when built:\n    announce built\n    announce sold\n") for i in range(40)],
                    *[(f"s{i}", f"S{i}", "when sold:\n    announce built\n") for i in range(40)])
    started = time.perf_counter()
    result = load(tmp_path, content)
    assert time.perf_counter() - started < 10
    d = only(result, "E220")
    at(d, content, "when built")
    assert "machine `m0` (M0) announces `built` again" in d.message


# ---------------------------------------------------------------------- trigger loops: bounded (W304)


@pytest.mark.parametrize("effect, reason", [
    ("""
        when built where heat < 3:
            raise heat by 1
            announce built
    """, "the condition of machine `echo` (Echo) on `built` reads `heat`, which the loop changes"),
    ("""
        when built once per turn:
            announce built
    """, "machine `echo` (Echo) fires `once per turn`"),
    ("""
        when built:
            if heat < 3:
                raise heat by 1
                announce built
    """, "machine `echo` (Echo) announces `built` only under a condition on `heat`, which the loop changes"),
    ("""
        when built:
            if heat > 2:
                log "enough"
            else:
                raise heat by 1
                announce built
    """, "only under a condition on `heat`"),
    ("""
        when built:
            for each T in pawns in rail_one:
                remove T
                announce built
    """, "only under a condition on where pieces are"),
], ids=["trigger condition", "once per turn", "if around the announce", "else branch", "for each over pieces"])
def test_a_loop_that_something_stops_is_a_warning(tmp_path: Path, effect: str, reason: str) -> None:
    content = items(("echo", "Echo", effect))
    result = load(tmp_path, content)
    d = only(result, "W304")
    assert result.ok and d.severity == "warning"
    at(d, content, "when built")
    assert "machine `echo` (Echo) announces `built` again" in d.message
    assert reason in d.message
    assert "check that it does" in d.message


GADGETS = RULESET.replace("kinds:\n", "kinds:\n  gadget: {piece: card, starts_in: deck}\n")


def gadgets(tmp_path: Path, effect: str) -> tuple[RulesetResult, str]:
    """A card whose trigger runs for its owner (so it may ask them)."""
    content = dedent("""\
        ruleset: loops
        items:
          - id: bell
            kind: gadget
            name: Bell
            effect: |
    """) + indent(dedent(effect).strip("\n"), " " * 6) + "\n"
    write_ruleset(tmp_path, content, ruleset=GADGETS)
    return load_ruleset("loops", root=tmp_path), content


def test_a_loop_through_a_players_choice_is_a_warning(tmp_path: Path) -> None:
    result, content = gadgets(tmp_path, """
        when built:
            may "ring again?":
                announce built
    """)
    d = only(result, "W304")
    assert d.file.endswith("content/loops/items.yaml") and (d.line, d.column) == position(content, "when built")
    assert "gadget `bell` (Bell) announces `built` only when a player chooses to" in d.message


def test_a_choice_whose_every_option_announces_is_no_way_out(tmp_path: Path) -> None:
    result, content = gadgets(tmp_path, """
        when built:
            choose one:
                "ring":
                    announce built
                "ring louder":
                    gain 2 points
                    announce built
    """)
    d = only(result, "E220")
    assert (d.line, d.column) == position(content, "when built")
    result, _ = gadgets(tmp_path, """
        when built:
            choose one:
                "ring":
                    announce built
                "stop":
                    gain 2 points
    """)
    d = only(result, "W304")
    assert "announces `built` only when a player chooses to" in d.message


def test_no_loop_no_finding(tmp_path: Path) -> None:
    content = items(
        ("a", "A", """
            when built:
                announce sold
        """),
        ("b", "B", """
            when sold:
                raise heat by 1
        """))
    result = load(tmp_path, content)
    assert result.ok and result.diagnostics == [], [d.headline() for d in result.diagnostics]


# ---------------------------------------------------------------------- trigger loops at run time


def test_a_loop_that_runs_is_stopped_by_the_step_budget_and_undone(tmp_path: Path) -> None:
    content = items(("echo", "Echo", """
        when built where heat < 1000000:
            raise heat by 1
            announce built
    """))
    result = load(tmp_path, content)
    assert result.ok and [d.code for d in result.diagnostics] == ["W304"]  # the checker only warns
    assert result.spec is not None
    state = Game(result.spec, 2).new_state(0)
    before = state.fingerprint()
    with pytest.raises(BudgetExceeded) as caught:
        state.apply_label("Build")
    err = caught.value
    assert isinstance(err, InternalError) and not isinstance(err, GameError)
    assert any("trigger `when built`" in r and "`echo` (Echo)" in r for r in err.running), err.running
    assert "action `build`" in err.running
    assert err.where is not None and err.where.file is not None and err.where.file.endswith("items.yaml")
    assert state.fingerprint() == before  # the whole action is undone
    assert state.decision is not None and "Build" in state.decision.labels()  # and the game goes on


def test_once_per_turn_stops_the_loop_at_run_time(tmp_path: Path) -> None:
    content = items(("echo", "Echo", """
        when built once per turn:
            raise heat by 1
            announce built
    """))
    result = load(tmp_path, content)
    assert result.ok and result.spec is not None
    state = Game(result.spec, 2).new_state(0)
    state.apply_label("Build")
    lay = state.game.layout
    assert state.st.counters[lay.game_counter["heat"]] == 1


# ---------------------------------------------------------------------- filters that never match (W303)


FILTERS = """\
ruleset: loops
items:
  - {id: m_one, kind: machine, name: One, attributes: {grade: 1, colour: red}}
  - {id: m_two, kind: machine, name: Two, attributes: {grade: 2, colour: blue}}
  - {id: rail_one, kind: rail, name: Rail}
  - {id: c_one, kind: card, name: Cheap, copies: 3, attributes: {cost: 1}}
  - {id: c_two, kind: card, name: Dear, copies: 3, attributes: {cost: 4}}
"""


def filter_ruleset(tmp_path: Path, where: str, field: str = "do") -> tuple[RulesetResult, str]:
    if field == "do":
        action = f"    do: |\n      for each X in {where}:\n          raise heat by 1\n"
    else:
        action = f"    choose: {where}\n    as: X\n    do: |\n      raise heat by 1\n"
    procedures = PROCEDURES.replace("actions:\n", "actions:\n  probe:\n    label: Probe\n" + action)
    write_ruleset(tmp_path, FILTERS, procedures)
    return load_ruleset("loops", root=tmp_path), procedures


@pytest.mark.parametrize("where, reason", [
    ("machines where its charge > 5", "its charge stays between 0 and 5"),
    ("machines where its charge >= 2 and its charge < 2", "these conditions exclude each other"),
    ("machines where its charge < 4 and 7 < its charge", "these conditions exclude each other"),
    ("machines where its charge = -1", "its charge stays between 0 and 5"),
    ("machines where its colour is red and its colour is blue", "its colour cannot be both red and blue"),
    ("machines where its grade = 7", "the machines give grade 1, 2"),
    ("machines where its grade > 2 and its grade < 10", "the machines give grade 1, 2"),
    ("cards in deck where its cost = 3", "the cards give cost 1, 4"),
    ("players where its gold < 0", "a player's gold is never below 0"),
    ("pawns in rail_one where position of it > 4", "a token's position stays between 0 and 4"),
], ids=["above a counter's max", "empty range", "constant first", "below a counter's min", "two different groups",
        "a value no item gives",
        "between values given", "a card cost", "a player counter's min", "past a track's end"])
def test_a_filter_that_never_matches_is_a_warning(tmp_path: Path, where: str, reason: str) -> None:
    result, procedures = filter_ruleset(tmp_path, where)
    d = only(result, "W303")
    assert result.ok and d.severity == "warning"
    assert d.file.endswith("rules/loops/procedures.yaml")
    assert (d.line, d.column) == position(procedures, where.split(" where ")[1])
    assert "this filter never matches" in d.message and reason in d.message, d.message


def test_a_filter_in_a_one_expression_field_is_placed_in_it(tmp_path: Path) -> None:
    where = "machines where its charge > 9"
    result, procedures = filter_ruleset(tmp_path, where, field="choose")
    d = only(result, "W303")
    assert (d.line, d.column) == position(procedures, "its charge > 9")


@pytest.mark.parametrize("where", [
    "machines where its charge = 5",
    "machines where its charge >= 1 and its charge <= 4",
    "machines where its colour is red",
    "machines where its colour is not red and its colour is not green",
    "machines where its grade = 2",
    "machines where its grade > 1 or its grade > 7",
    "cards in deck where its cost >= 4",
    "players where its gold > 100",
    "pawns in rail_one where position of it = 4",
    "machines where not (its charge > 5)",
], ids=["a counter's max", "inside the range", "one colour", "not two colours", "a grade given", "or",
        "a cost given", "no max", "the last space", "negated"])
def test_a_filter_that_can_match_is_not_warned(tmp_path: Path, where: str) -> None:
    result, _ = filter_ruleset(tmp_path, where)
    assert result.ok and result.diagnostics == [], [d.headline() for d in result.diagnostics]


# ---------------------------------------------------------------------- arguments (E212)


def test_wrong_number_of_arguments_names_the_parameters(tmp_path: Path) -> None:
    procedures = dedent("""\
        actions:
          build:
            label: Build
            do: |
              let a be double(1, 2)
              let b be double
              pair(1)
              pair(1, 2, 3)
        definitions:
          double:
            params: {n: amount}
            value: n * 2
        procedures:
          pair:
            params: {left: amount, right: amount}
            do: |
              raise heat by left + right
        game: |
          take turns:
              perform one of build
    """)
    write_ruleset(tmp_path, items(), procedures)
    result = load_ruleset("loops", root=tmp_path)
    found = sorted((d for d in result.diagnostics if d.code == "E212"), key=lambda d: d.line)
    assert [d.code for d in result.diagnostics] == ["E212"] * 4, [d.headline() for d in result.diagnostics]
    assert "`double` takes 1 argument (n), found 2" in found[0].message
    assert found[0].hint == "write `double(n)`"
    assert (found[0].line, found[0].column) == position(procedures, "double(1, 2)")
    assert "`double` takes 1 argument(s) (n)" in found[1].message
    assert "`pair` takes 2 arguments (left, right), found 1" in found[2].message
    assert found[2].hint == "write `pair(left, right)`"
    assert (found[2].line, found[2].column) == position(procedures, "pair(1)")
    assert "`pair` takes 2 arguments (left, right), found 3" in found[3].message


# ---------------------------------------------------------------------- procedures: loops, unknown names; dead triggers


def test_procedures_in_a_loop_unknown_procedures_and_triggers_that_never_run(tmp_path: Path) -> None:
    procedures = PROCEDURES.replace("      announce built\n", "      announce built\n      pinh()\n") + dedent("""\
        procedures:
          ping:
            do: |
              pong()
          pong:
            do: |
              ping()
    """)
    ruleset = RULESET.replace("in_play: true", "in_play: false")
    content = dedent("""\
        ruleset: loops
        items:
          - id: c_one
            kind: card
            name: One
            attributes: {cost: 1}
            effect: |
              when built:
                  gain 1 points
    """)
    write_ruleset(tmp_path, content, procedures, ruleset)
    result = load_ruleset("loops", root=tmp_path)
    by_code = sorted((d.code, d.message, d.hint) for d in result.diagnostics)
    assert [c for c, _, _ in by_code] == ["E216", "E216", "E218", "E219"], by_code
    loops = {m for c, m, _ in by_code if c == "E216"}
    assert loops == {"procedure `ping` runs itself (ping -> pong -> ping)",
                     "procedure `pong` runs itself (pong -> ping -> pong)"}
    assert by_code[2][1] == "unknown procedure `pinh`" and by_code[2][2] == "did you mean `ping`?"
    assert "is never in play" in by_code[3][1]


# ---------------------------------------------------------------------- did you mean, ignoring case


def test_close_names_ignore_case(tmp_path: Path) -> None:
    assert close_word("Gems", ["gem", "gold", "points"]) == "gem"
    assert close_word("GIAN", ["gain", "lose"]) == "gain"
    # one typo away comes before more shared letters (a designer's `choose an industri as X`)
    assert close_word("industri", ["industries", "industry", "investment"]) == "industry"
    ruleset = RULESET.replace("  points: {}\n", "  points: {}\n  gem: {}\n")
    procedures = PROCEDURES.replace("      announce built\n", "      announce built\n      gain 1 Gems\n")
    write_ruleset(tmp_path, items(), procedures, ruleset)
    d = only(load_ruleset("loops", root=tmp_path), "E201")
    assert d.message == "unknown counter `Gems`" and d.hint == "did you mean `gem`?"
    assert (d.line, d.column) == position(procedures, "Gems")


# ---------------------------------------------------------------------- syntax errors in a YAML file


BROKEN = """\
ruleset: legacy
items:
  - id: broken_card
    kind: legacy_card
    name: Broken
    copies: 1
    attributes: {type: special}
    effect: |
      gian 2 points
      choose a legacy_card in my hand
      move X my tableau
"""


def test_every_syntax_error_of_an_effect_is_placed_in_its_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    out = result.output
    label = next(line for line in out.splitlines() if "E110" in line).split(":")[0]
    assert label.endswith("broken.yaml")
    line, column = position(BROKEN, "gian")
    assert f"{label}:{line}:{column}: error E110: `gian` does not start a statement" in out
    assert "did you mean `gain`?" in out
    line, column = position(BROKEN, "\n      move")
    assert f"{label}:{line}:{len('      choose a legacy_card in my hand') + 1}: error E104" in out
    line, column = position(BROKEN, "my tableau")
    assert f"{label}:{line}:{column}: error E107: unexpected 'my'" in out
    assert "did you mean `by`" not in out
    assert "3 errors" in out


# ---------------------------------------------------------------------- every code is documented


def test_every_code_the_engine_emits_is_documented() -> None:
    repo = Path(__file__).resolve().parents[2]
    emitted = set()
    for folder in ("dsl", "pipeline", "interpreter", "cli"):
        for source in (repo / folder).rglob("*.py"):
            emitted |= set(re.findall(r"""["']([EWRSCFY]\d{3})["']""", source.read_text(encoding="utf-8")))
    documented = set(re.findall(r"^\| ([EWRSCFY]\d{3}) \|", (repo / "docs" / "diagnostics.md").read_text(),
                                re.MULTILINE))
    assert {"E110", "E216", "E217", "E218", "E219", "E220", "W303", "W304"} <= emitted
    assert emitted <= documented, f"not in docs/diagnostics.md: {sorted(emitted - documented)}"
