"""Every mistake of an effect said at once (pipeline/build/base.py `check_recovered`): an
effect with a syntax error had the rest of it unchecked, so a misspelt counter two lines
up was found only once the syntax error was mended. The rest is checked now (the parser's
recovery sets the bad statement aside, dsl/parser.py), and what only follows from the
statement set aside (a name it bound) is not said."""

from __future__ import annotations

from pathlib import Path

from legacies.dsl.parser import SyntaxErrors, parse_program
from legacies.pipeline.ruleset import load_ruleset

from tables import STATIONS_RULESET

PROCEDURES = """\
format: 2
procedures:
  tidy:
    do: |
      gain 1 pionts
      let S be top of stations +
      raise S's level by 1
actions:
  rest:
    label: Rest
    do: |
      gain 1 pints
      if my points > 2 +:
          gain 1 poinst
triggers:
  dawn: |
    when turn_started:
        gain 1 ponits
        gain (2 points
game: |
  take turns:
      perform one of rest
"""
ITEMS = """\
format: 2
ruleset: stations
items:
  - id: urn
    kind: relic
    name: Urn
    effect: |
      gain 2 piont
      choose a station as X +
      raise X's levle by 1
      for each Y in stations:
          raise Y's levl by 1
"""


def _problems(tmp_path: Path) -> list[tuple[str, int, str, str]]:
    (tmp_path / "rules" / "stations").mkdir(parents=True)
    (tmp_path / "content" / "stations").mkdir(parents=True)
    (tmp_path / "rules" / "stations" / "ruleset.yaml").write_text(STATIONS_RULESET, encoding="utf-8")
    (tmp_path / "rules" / "stations" / "procedures.yaml").write_text(PROCEDURES, encoding="utf-8")
    (tmp_path / "content" / "stations" / "relics.yaml").write_text(ITEMS, encoding="utf-8")
    result = load_ruleset("stations", root=tmp_path)
    assert result.spec is None
    return sorted((Path(d.file or "").name, d.line, d.code, d.message) for d in result.diagnostics)


def test_the_rest_of_an_effect_that_does_not_parse_is_checked_too(tmp_path: Path) -> None:
    found = _problems(tmp_path)
    said = {(name, line, code) for name, line, code, _ in found}
    # the content item: its misspelt counter before the bad line and its loop's after it
    assert {("relics.yaml", 8, "E201"), ("relics.yaml", 9, "E100"), ("relics.yaml", 12, "E203")} <= said, found
    # the procedure, the action (a bad block opener: its block checked still) and the trigger
    assert {("procedures.yaml", 5, "E201"), ("procedures.yaml", 6, "E100")} <= said, found
    assert {("procedures.yaml", 12, "E201"), ("procedures.yaml", 13, "E100"), ("procedures.yaml", 14, "E201")} \
        <= said, found
    assert ("procedures.yaml", 18, "E201") in said, found
    # what follows from the statements set aside is not said: X and S were bound there
    assert not [f for f in found if f[1] in (7, 10) or "`X" in f[3] or "`S" in f[3]], found


def test_a_recovered_parse_keeps_what_was_set_aside() -> None:
    try:
        parse_program("gain 1 points\nchoose a station as X +\nraise X's level by 1\n")
    except SyntaxErrors as err:
        assert err.recovered is not None and len(err.recovered.statements) == 3
        assert err.aside == (frozenset({2}), frozenset({"choose", "a", "station", "as", "X"}))
    else:
        raise AssertionError("a syntax error was not raised")
