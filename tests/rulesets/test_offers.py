"""An option offered can be taken (issue 35, part 1), for every shipped ruleset and
expansion:

- an offer (an action, a `may`, an option of `choose one:`, an item's effect) that begins by
  paying a fixed amount is guarded by a condition that reads what it pays: its action's
  `if:` and restrictions, the option's own `if`, an enclosing `if`, or the item's
  `requires:` (a definition called there counts when it reads it); a person is never shown
  a move its own rule could tell fails;
- the soak (agents/soak.py) counts the options offered and then refused, per ruleset and
  per action; each ruleset's docs say how many a soak of so many games met and list every
  kind that remains with why it cannot be known before choosing: a count above what the
  docs say, or an action or question the docs do not name, fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from legacies.agents import soak
from legacies.dsl import ast
from legacies.pipeline.ruleset import load_ruleset

DOCS = Path(__file__).resolve().parents[2] / "docs"

# every shipped game: (ruleset, expansions, the doc that lists its refused offers)
SHIPPED = [
    ("legacy", (), "assumptions.md"),
    ("legacies", (), "assumptions-legacies.md"),
    ("legacies", ("salons",), "assumptions-legacies.md"),
    ("gears-of-time", (), "assumptions-gears-of-time.md"),
    ("leaders-legacy", (), "assumptions-leaders-legacy.md"),
    ("leaders-legacy", ("fame-and-fortune",), "assumptions-fame-and-fortune.md"),
]


def _name(ruleset: str, expansions: tuple[str, ...]) -> str:
    return soak.table_name((ruleset, 0, expansions))


# ---------------------------------------------------------------------------- the rules' own conditions
def _reads(spec, expr: ast.Expr | None, counter: str, depth: int = 0) -> bool:  # noqa: ANN001
    """Whether `expr` reads `counter` (through the definitions it calls, a few deep)."""
    if expr is None or depth > 6:
        return False
    for node in ast.walk(expr):
        if isinstance(node, (ast.Name, ast.Of)) and node.name == counter:
            return True
        if isinstance(node, ast.Call):
            called = spec.definitions.get(node.name)
            if called is not None and _reads(spec, called.value, counter, depth + 1):
                return True
    return False


def _paid_first(body: tuple) -> list[str]:
    """The counters a block pays a fixed amount of before it does anything else (a log or
    a `let` aside): `pay 3 gold`, `transfer 3 from my gold to ...`."""
    paid = []
    for s in body:
        if isinstance(s, ast.Pay) and isinstance(s.amount, ast.Num) and s.player is None:
            paid.append(s.counter.name)
        elif (isinstance(s, ast.Transfer) and isinstance(s.amount, ast.Num) and not s.up_to
              and isinstance(s.source, ast.Of) and isinstance(s.source.subject, ast.Name)
              and s.source.subject.name == "me"):
            paid.append(s.source.name)
        elif not isinstance(s, (ast.Log, ast.Let)):
            break
    return paid


def _offer(spec, body: tuple, guards: list, where: str, found: list) -> None:  # noqa: ANN001
    found.extend((where, c) for c in _paid_first(body) if not any(_reads(spec, g, c) for g in guards))
    for s in body:
        _inside(spec, s, guards, where, found)


def _inside(spec, s: ast.Node, guards: list, where: str, found: list) -> None:  # noqa: ANN001
    if isinstance(s, ast.May):
        _offer(spec, s.body, guards, f"{where}: may {s.prompt!r}", found)
    elif isinstance(s, ast.ChooseOne):
        for o in s.options:
            _offer(spec, o.body, guards + [o.condition], f"{where}: option {o.label!r}", found)
    elif isinstance(s, ast.If):
        for b in s.branches:
            for t in b.body:
                _inside(spec, t, guards + [b.condition], where, found)
        for t in s.otherwise or ():
            _inside(spec, t, guards, where, found)
    else:
        for child in s.children():
            if isinstance(child, ast.Stmt):
                _inside(spec, child, guards, where, found)


def unguarded_offers(spec) -> list[tuple[str, str]]:  # noqa: ANN001
    """(where, counter) for every offer that pays first what no condition of it reads."""
    found: list[tuple[str, str]] = []
    for a in spec.actions.values():
        _offer(spec, a.body.statements, [c for c, _ in a.conditions()], f"action {a.name}", found)
    for p in spec.procedures.values():
        for s in p.body.statements:
            _inside(spec, s, [], f"procedure {p.name}", found)
    for d in spec.defs:
        programs = ([d.effect] if d.effect is not None else []) + [
            p for v in d.programs.values() for p in (v if isinstance(v, list) else [v])]
        for program in programs:
            _offer(spec, program.statements, [d.requires] if d.requires is not None else [], f"item {d.id}", found)
    return found


@pytest.mark.parametrize("ruleset,expansions,doc", SHIPPED, ids=[_name(r, x) for r, x, _ in SHIPPED])
def test_no_offer_pays_first_what_its_own_conditions_do_not_read(ruleset: str, expansions: tuple[str, ...],
                                                                 doc: str) -> None:
    spec = load_ruleset(ruleset, None, list(expansions)).spec
    assert spec is not None
    assert unguarded_offers(spec) == []


def test_the_check_finds_an_unguarded_price() -> None:
    """The check above can fail: Leader's Legacy's revival and ransom as they were (their
    `if:` without the food and gold they pay), and a `may` that pays first."""
    spec = load_ruleset("leaders-legacy").spec
    assert spec is not None
    revive, ransom = spec.actions["revive"], spec.actions["pay_ransom"]
    bare = type(revive)(revive.name, revive.label, revive.body, revive.choose, revive.var,
                        ast.Not(ast.Call("on_board", (ast.Name("me"),))))
    was = spec.actions
    spec.actions = {**was, "revive": bare, "pay_ransom": type(ransom)(ransom.name, ransom.label, ransom.body)}
    try:
        assert sorted(unguarded_offers(spec)) == [("action pay_ransom", "gold"), ("action revive", "food"),
                                                  ("action revive", "gold")]
    finally:
        spec.actions = was
    from legacies.dsl.parser import parse_program
    program = parse_program('may "Pay 8 gold?":\n    pay 8 gold\n    gain 1 fame\n')
    found: list = []
    _offer(spec, program.statements, [], "here", found)
    assert found == [("here: may 'Pay 8 gold?'", "gold")]


# ---------------------------------------------------------------------------- what the docs list
_LISTED = re.compile(r"Refused offers of `([^`]+)` in ([\d,]+) soaked games from seed (\d+): \*\*([\d,]+)\*\*")


def listed(doc: str, name: str) -> tuple[int, int, int, str]:
    """(games, seed, refused offers) the doc gives for `name`, and the doc's text."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    for found in _LISTED.finditer(text):
        if found.group(1) == name:
            games, seed, count = (int(found.group(i).replace(",", "")) for i in (2, 3, 4))
            return games, seed, count, text
    raise AssertionError(f"docs/{doc} gives no `Refused offers of `{name}` in N soaked games from seed S: **C**`")


@pytest.mark.parametrize("ruleset,expansions,doc", SHIPPED, ids=[_name(r, x) for r, x, _ in SHIPPED])
def test_refused_offers_are_no_more_than_the_docs_list(ruleset: str, expansions: tuple[str, ...], doc: str) -> None:
    name = _name(ruleset, expansions)
    games, seed, most, text = listed(doc, name)
    tables, broken = soak.soak_tables([ruleset], None, expansions)
    assert not broken
    result = soak.run_soak(games, tables, seed)
    assert result.ok, result.failures[:1]
    mine = {key: n for (table, key), n in result.refused.items() if table == name}
    assert sum(mine.values()) <= most, f"{name}: {mine} refused, docs/{doc} lists {most}"
    for key in mine:  # every kind that remains is named in the docs (`action NAME`, `question 'PROMPT'`)
        assert key.split(" ", 1)[1].strip("'\"") in text, f"docs/{doc} does not list {key}"
