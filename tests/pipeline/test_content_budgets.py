"""Content cannot escape the budgets (issue 22, part 1): numbers past the engine's limit
in effects and data files, a setup whose numbers run away, ids that can never be named
or that look like others. Each ends in a located diagnostic, quickly, never a traceback
or an engine bug (E302)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from legacies.cli.main import app
from legacies.pipeline.validate import validate

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "interpreter" / "fixtures" / "tiny"
runner = CliRunner()
HUGE = "9" * 5000


def _tiny(tmp_path: Path) -> Path:
    root = tmp_path / "tiny"
    shutil.copytree(TINY, root)
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _codes(root: Path) -> list[tuple[str, str, int, int]]:
    return sorted((d.code, Path(d.file).name, d.line, d.column) for d in validate([str(root)]).diagnostics
                  if d.code != "W305")  # tiny's runaway action, there on purpose


# --------------------------------------------------------------------------- numbers
def test_a_setup_whose_numbers_run_away_is_e300_at_the_statement_in_a_second(tmp_path: Path) -> None:
    root = _tiny(tmp_path)
    _edit(root / "rules/tiny/procedures.yaml", "game: |\n",
          "game: |\n  set rounds_played to 2\n  repeat 40 times:\n      set rounds_played to rounds_played * rounds_played\n")
    started = time.process_time()
    result = validate([str(root)])
    assert time.process_time() - started < 5
    (d,) = [d for d in result.diagnostics if d.code != "W305"]
    assert (d.code, Path(d.file).name, d.line, d.column) == ("E300", "procedures.yaml", 31, 7)
    assert "past the engine's limit" in d.message


def test_a_long_number_in_a_card_is_e112_at_the_number_not_an_engine_bug(tmp_path: Path) -> None:
    root = _tiny(tmp_path)
    with open(root / "content/tiny/cards.yaml", "a", encoding="utf-8") as f:
        f.write(f"  - id: huge\n    kind: card\n    name: Huge\n    effect: |\n      gain 1 points\n"
                f"      gain {HUGE} points\n")
    assert _codes(root) == [("E112", "cards.yaml", 11, 12)]


def test_a_long_number_in_try_run_is_e112_not_a_traceback() -> None:
    result = runner.invoke(app, ["try", "small", "--ruleset", str(TINY), "--run", f"gain {HUGE} points"])
    assert result.exit_code == 2, result.output  # an effect given that does not check: a usage error (cli.md)
    assert "E112" in result.output and "<effect>:1:6" in result.output and "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("file, old, new, code", [
    ("rules/tiny/ruleset.yaml", "gold: {start: 10}", "gold: {start: 10, max: 10000000000000000}", "S005"),
    ("rules/tiny/ruleset.yaml", "gold: {start: 10}", "gold: {start: -10000000000000000, min: null}", "S005"),
    ("content/tiny/cards.yaml", "worth: 3}", "worth: 10000000000000000}", "C004"),
    ("content/tiny/cards.yaml", "worth: 3}", f"worth: {HUGE}}}", "Y005"),
])
def test_a_number_past_the_limit_in_a_data_file_is_located(tmp_path: Path, file: str, old: str, new: str,
                                                          code: str) -> None:
    root = _tiny(tmp_path)
    _edit(root / file, old, new)
    # a counter refused in ruleset.yaml: the rest is checked, and what follows from it says so
    found = [d for d in validate([str(root)]).diagnostics if d.code != "W305"]
    codes = [(d.code, Path(d.file).name) for d in found if "was refused (its error is in" not in (d.hint or "")]
    assert codes == [(code, Path(file).name)]
    assert all("`gold` in ruleset.yaml was refused" in (d.hint or "") for d in found if (d.code, Path(d.file).name) not in codes)


# --------------------------------------------------------------------------- names
def _with_cards(root: Path, *lines: str) -> Path:
    with open(root / "content/tiny/cards.yaml", "a", encoding="utf-8") as f:
        f.writelines(f"  - {line}\n" for line in lines)
    return root


def test_ids_the_language_takes_are_c008_and_those_it_reads_as_names_are_not(tmp_path: Path) -> None:
    root = _with_cards(_tiny(tmp_path), *(f"{{id: {i}, kind: card, name: Card {i}, attributes: {{worth: 1}}}}"
                                          for i in ("this", "me", "players", "total", "one", "gain", "discard_pile")))
    _edit(root / "rules/tiny/ruleset.yaml", "  points: {}\n", "  points: {}\n  owner: {}\n  top: {}\n")
    assert _codes(root) == [("C010", "cards.yaml", 6, 10), ("C010", "cards.yaml", 7, 10), ("C010", "cards.yaml", 8, 10),
                            ("C010", "cards.yaml", 9, 10), ("C010", "ruleset.yaml", 12, 3),
                            ("C010", "ruleset.yaml", 13, 3)]


def test_the_hint_to_rename_a_taken_name_names_it(tmp_path: Path) -> None:
    """The hint once said `this_card` whatever the name (`me`, a counter `owner`)."""
    root = _with_cards(_tiny(tmp_path), "{id: me, kind: card, name: Me, attributes: {worth: 1}}")
    _edit(root / "rules/tiny/ruleset.yaml", "  points: {}\n", "  points: {}\n  owner: {}\n")
    hints = [d.hint for d in validate([str(root)]).diagnostics if d.code == "C010"]
    assert hints == ["rename it (a capital letter or a suffix is enough: `Owner`, `owner_counter`)",
                     "rename it (a capital letter or a suffix is enough: `Me`, `me_item`)"]


def test_a_long_id_is_c009(tmp_path: Path) -> None:
    root = _with_cards(_tiny(tmp_path), f"{{id: {'x' * 10_000}, kind: card, name: Long, attributes: {{worth: 1}}}}",
                       f"{{id: {'y' * 64}, kind: card, name: Just short enough, attributes: {{worth: 1}}}}")
    assert _codes(root) == [("C011", "cards.yaml", 6, 10)]
    message = validate([str(root)]).diagnostics[0].message
    assert "10,000 characters" in message and len(message) < 100


@pytest.mark.parametrize("declared, words, hint", [
    ("  9lives: {}\n", "the counter `9lives` cannot be written in an effect", "rename it `counter_9lives`"),
    ('  "two words": {}\n', "the counter `two words` cannot be written in an effect", "rename it `two_words`"),
    ("  __secret: {}\n", "the counter `__secret` starts with `__`: such names are kept for the engine",
     "rename it `secret`"),
])
def test_a_vocabulary_name_no_effect_can_write_is_c017(tmp_path: Path, declared: str, words: str, hint: str) -> None:
    """A user's trial: counters `9lives`, `two words` and `__secret` validated "ok", and no
    effect could ever gain, pay or read them."""
    root = _tiny(tmp_path)
    _edit(root / "rules/tiny/ruleset.yaml", "  points: {}\n", "  points: {}\n" + declared)
    found = [d for d in validate([str(root)]).diagnostics if d.code != "W305"]
    assert [(d.code, Path(d.file).name, d.line, d.column) for d in found] == [("C017", "ruleset.yaml", 12, 3)]
    assert found[0].message.startswith(words) and found[0].hint == hint


@pytest.mark.parametrize("name", ['""', '"   "'])
def test_an_empty_item_name_is_c018(tmp_path: Path, name: str) -> None:
    """A user's trial: `name: ""` validated "ok", and `explain` showed `  (X9603)`."""
    root = _with_cards(_tiny(tmp_path), f"{{id: extra, kind: card, name: {name}, attributes: {{worth: 1}}}}")
    assert _codes(root) == [("C018", "cards.yaml", 6, 35)]


@pytest.mark.parametrize("name, code, words", [
    ("Sma\u202ell", "C012", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),  # also looks like Small: C013
    ("B\u0456g", "C013", "CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I"),
    ("BIG", "C013", "`BIG` looks like the item name `Big`"),
    ("Sm\u200ball", "C012", "U+200B (ZERO WIDTH SPACE)"),
])
def test_names_that_hide_characters_or_look_alike_are_flagged(tmp_path: Path, name: str, code: str, words: str) -> None:
    root = _with_cards(_tiny(tmp_path), f'{{id: extra, kind: card, name: "{name}", attributes: {{worth: 1}}}}')
    found = [d for d in validate([str(root)]).diagnostics if d.code.startswith("C0")]
    assert code in {d.code for d in found} and all((d.line, d.column) == (6, 35) for d in found), found
    assert any(words in d.message for d in found if d.code == code)


def test_ids_that_look_alike_are_c011_and_the_shipped_rulesets_have_none(tmp_path: Path) -> None:
    root = _with_cards(_tiny(tmp_path), "{id: sma11, kind: card, name: Smalls, attributes: {worth: 1}}",
                       "{id: smal1, kind: card, name: Smallest, attributes: {worth: 1}}")
    _edit(root / "rules/tiny/ruleset.yaml", "  points: {}\n", "  points: {}\n  g\u043eld: {}\n")
    assert _codes(root) == [("C013", "cards.yaml", 6, 10), ("C013", "cards.yaml", 7, 10),  # both look like `small`
                            ("C013", "ruleset.yaml", 12, 3), ("C017", "ruleset.yaml", 12, 3)]  # nor can it be written
    assert not [d for d in validate([]).diagnostics if d.code in ("C010", "C011", "C012", "C013")]


# --------------------------------------------------------------------------- definitions inside definitions
def _work_with(tmp_path: Path, definitions: str, setup: str) -> Path:
    """The `work` fixture with more definitions and a first line of setup that reads them."""
    root = tmp_path / "work"
    shutil.copytree(REPO / "tests/interpreter/fixtures/work", root)
    procedures = root / "rules/work/procedures.yaml"
    _edit(procedures, "definitions:\n", "definitions:\n" + definitions)
    _edit(procedures, "setup: |\n", f"setup: |\n  {setup}\n")
    return root


def _errors(root: Path) -> list:
    return [d for d in validate([str(root)]).diagnostics if d.severity == "error"]


def _line(root: Path, text: str) -> int:
    """The line of the fixture's procedures.yaml that starts with `text`."""
    lines = (root / "rules/work/procedures.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.startswith(text))


def test_definitions_nested_through_each_other_past_the_limit_are_e222_not_an_engine_bug(tmp_path: Path) -> None:
    """Each value keeps E111's limit alone, but a chain of definitions, each using the next,
    nests their values inside each other: 150 of them passed Python's recursion limit when
    the game was compiled (E301, an engine bug). Now E222 where the chain passes the limit."""
    chain = "".join(f"  d{i}:\n    value: d{i + 1} + 1\n" for i in range(150)) + "  d150:\n    value: \"1\"\n"
    root = _work_with(tmp_path, chain, "set tally to d0")
    found = _errors(root)
    assert [(d.code, Path(d.file).name, d.line) for d in found] == [("E222", "procedures.yaml",
                                                                     _line(root, "  d100:") + 1)]
    assert "definition `d100` nests 101 levels deep" in found[0].message


def test_definitions_nested_up_to_the_limit_compile_and_run_on_both_paths(tmp_path: Path) -> None:
    """The limit leaves room: a chain at the limit, read inside an effect nested 90 deep,
    is compiled and computed by the closures (validate's setup check) and the generated
    code (a game)."""
    from legacies.interpreter.game import Game
    from legacies.pipeline.ruleset import load_ruleset

    chain = "".join(f"  d{i}:\n    value: d{i + 1} + 1\n" for i in range(49)) + "  d49:\n    value: \"1\"\n"
    root = _work_with(tmp_path, chain, "set tally to " + "(" * 90 + "d0" + " + 1)" * 90)
    assert [d.code for d in _errors(root)] == ["E300"]  # the robot's loop
    spec = load_ruleset("work", root).spec
    for codegen in (True, False):
        state = Game(spec, 2, codegen=codegen).new_state(0)
        assert state.st.counters[state.game.layout.game_counter["tally"]] == 50 + 90


def test_definitions_that_double_past_the_step_budget_are_e223_in_a_second(tmp_path: Path) -> None:
    """A definition that uses another twice, which uses another twice...: computing the
    first computes the last 2 ** 40 times. It passed `validate`'s checks and then hung its
    setup check (and every game that read it). Now E223 where the work first passes the
    step budget (200,000 in `work`), not on each definition that uses that one."""
    chain = "".join(f"  d{i}:\n    value: d{i + 1} + d{i + 1}\n" for i in range(40)) + "  d40:\n    value: \"1\"\n"
    root = _work_with(tmp_path, chain, "set tally to d0")
    started = time.process_time()
    found = _errors(root)
    assert time.process_time() - started < 5
    assert [(d.code, Path(d.file).name, d.line) for d in found] == [("E223", "procedures.yaml",
                                                                     _line(root, "  d24:") + 1)]
    assert found[0].message.startswith("computing definition `d24` once takes 262,141 steps with the definitions "
                                       "it uses"), found[0].message
    assert "more than the step budget of 200,000" in found[0].message
    assert found[0].hint is not None and "`2 * d`, not `d + d`" in found[0].hint


def test_a_loop_of_definitions_through_total_of_is_e216_not_an_engine_bug(tmp_path: Path) -> None:
    """`total NAME of C` asks a definition of each member when NAME is one: a definition
    that did so of itself, or of one that did so of it, passed the check and failed when
    compiled (E300 at ruleset.yaml:1:1, "refers to itself")."""
    definitions = ("  selfish:\n    params: {P: player}\n    value: total selfish of players\n"
                   "  ping:\n    params: {P: player}\n    value: total pong of players\n"
                   "  pong:\n    params: {P: player}\n    value: 1 + total ping of players\n")
    root = _work_with(tmp_path, definitions, "set tally to selfish(entry 1 of players)")
    found = _errors(root)
    assert sorted((d.code, Path(d.file).name, d.line) for d in found) == [
        ("E216", "procedures.yaml", _line(root, f"  {name}:")) for name in ("selfish", "ping", "pong")]
    assert {d.message for d in found} >= {"definition `selfish` uses itself through a loop (selfish -> selfish)"}


def test_a_definition_asked_through_total_of_is_checked_before_the_one_asking(tmp_path: Path) -> None:
    """`total flagged of players` where `flagged` (declared after) is a yes/no condition, not an amount:
    checked first, its type is known (it was read as anything, and passed)."""
    definitions = ("  asks:\n    params: {P: player}\n    value: total flagged of players\n"
                   "  flagged:\n    params: {P: player}\n    value: P is nobody\n")
    root = _work_with(tmp_path, definitions, "set tally to asks(entry 1 of players)")
    found = _errors(root)
    assert [(d.code, d.line) for d in found] == [("E202", _line(root, "  asks:") + 2)], [d.headline() for d in found]
    assert "`flagged` is a yes/no condition, not an amount" in found[0].message
