"""The generic layers know no game (issue 17, ARCHITECTURE property 10): no word of a
shipped ruleset's vocabulary (its kinds, counters, zones, events, quantities, options,
values, enums' symbols, attributes, rules' names, content ids, era word) appears in dsl/,
interpreter/, pipeline/, view/, agents/ or cli/ (nor in the grammar or schemas/): not in code,
strings, comments or docstrings;
and no layer imports a layer above it (dsl < interpreter < pipeline < view < agents < cli).

A word of the vocabulary that is plain English for any game (a card, a hand, gold,
points, a turn...) is allowed: GENERIC lists them, each a word a game engine uses for
itself. A new ruleset's words are checked as soon as it ships; FIXED adds the words of the
shipped games' rulebooks that their vocabularies do not hold as names, and of the games
planned next."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from legacies.pipeline.ruleset import load_ruleset, rulesets
from legacies.pipeline.stack import installed_expansions

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("dsl", "interpreter", "pipeline", "view", "agents", "cli")
GENERIC = frozenset("""
    present
    amounts bid bottom build builds built card cards cost counter deck discard down event events gives gold
    group hand legacies legacy level number offer order played points progress resolve resource resources
    revealed round rounds row rows score side slot slots space special subject supply taken top trigger turn
    type up values wild locked player players table market tokens token pool name names era general standard
    character characters figure end_game shortfall exploration swap
    at time kept earlier drawn failed capacity rule mark tally reward needed removed removes standing supported
    writing discards refresh printer wheel
    food wood stone
""".split())
"""Words of a shipped vocabulary that any game engine says of itself (`legacies` and
`legacy` are also the package's and a command's names; `character` is also a letter of
text, `figure` a measured number, `standard` an error, `era` and `end_game` the
language's own words). The third line is plain English a ruleset took for a name
(gears-of-time's counters `at` and `tally`, a technology's `time`, `earlier` and
`reward`, definitions `kept`, `needed`, `standing`...; items The Printer and The Wheel):
the engine says them of itself too (the language's printer, a bot's reward, a
Python wheel). The fourth line: leaders-legacy's resources, as plain as gold (a neutral
ruleset of the engine's own, the effect bench's, trades wood and stone)."""
FIXED = frozenset("""
    centuries generations heirlooms successors nemeses duke dukes banking politicians riots
    technology technologies timeframe timeframes timeline timelines pursuit pursuits fate fates
    province provinces army armies leader leaders renown
""".split())
"""Words of the games that no vocabulary table holds: plurals the rules never write, items'
words, and the games planned next (docs name them; the generic layers never do)."""
CODES = re.compile(r"^[ecrswfyx]\d{3}$")  # an id that reads as a diagnostic code (an event E101) is no word here


def game_words() -> set[str]:
    """Every name a shipped ruleset or installed expansion declares, less GENERIC."""
    words: set[str] = set()
    stacks = [(name, []) for name in rulesets()] + [(e.ruleset() or "", [e]) for e in installed_expansions()]
    for name, expansions in stacks:
        result = load_ruleset(name, None, expansions)
        assert result.spec is not None and result.build is not None, name
        v = result.spec.vocab
        for table in (v.counters, v.zones, v.kinds, v.events, v.quantities, v.values, v.options, v.counter_sets,
                      v.menus, v.actions, v.definitions, v.procedures, v.links, v.enums):
            words.update(table)
        for info in v.kinds.values():
            words.update(w for w in (info.plural,) if w)
            words.update(info.attributes)
            words.update(info.counters)
            words.update(info.values)
        for symbols in v.enums.values():
            words.update(symbols)
        words.update(i.lower() for i in result.build.items if not CODES.match(i.lower()))
        words.update(_one_word_names(result.build.items))
        words.add(v.era_word)
        # the ruleset's and its expansions' own names, by their words (`gears-of-time`: gears)
        words.update(p for n in [name, *(e.name for e in expansions)] for p in re.split(r"[-_]", n) if len(p) > 3)
    return ({w.lower() for w in words} | FIXED) - GENERIC


def _one_word_names(items: dict[str, tuple]) -> set[str]:
    """Items' printed names of one word ("Riot", "The Politician"): a longer name is
    made of plain English words."""
    out: set[str] = set()
    for entry in items.values():
        name = next((x.name for x in entry if hasattr(x, "name") and hasattr(x, "kind")), None)
        words = (name or "").lower().removeprefix("the ").split()
        if len(words) == 1 and re.fullmatch(r"[a-z][a-z0-9_]*", words[0]):
            out.add(words[0])
    return out


WORDS = game_words()
SOURCES = sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py") if "__pycache__" not in p.parts)
TEXTS = SOURCES + sorted((ROOT / "dsl").rglob("*.lark")) + sorted((ROOT / "schemas").rglob("*.json"))
"""What the word check reads: the layers' code, the grammar, and the JSON schemas made
from pipeline/models.py (their descriptions are what an editor shows a designer)."""


def test_the_word_list_is_not_empty_and_holds_each_rulesets_words() -> None:
    assert {"fame", "heirloom", "successor", "century", "monument", "salon", "riot", "politician", "province"} <= WORDS
    assert not WORDS & GENERIC


PYTHON_NAMES = frozenset({"default_factory", "capture_output"})
"""Python's own identifiers (dataclasses, subprocess) read whole only: their parts are
Python's words, not a game's (gears-of-time has a factory, leaders-legacy captures)."""


def words_of(line: str) -> set[str]:
    """The words a line names: each identifier whole and each of its parts between `_`
    (`gears_quick` names gears), lower case."""
    found: set[str] = set()
    for token in re.findall(r"[a-z][a-z0-9_]*", line.lower()):
        found.add(token)
        if token not in PYTHON_NAMES:
            found.update(part for part in token.split("_") if part)
    return found


def test_an_identifier_is_read_whole_and_by_its_parts() -> None:
    assert {"gears_quick", "gears", "quick", "leaders_legacy", "leaders", "legacy"} <= words_of(
        "RULESETS = {'gears_quick': 1, 'leaders_legacy': 2}")
    assert words_of("BENCH_GEARS_X = 1") & WORDS == {"gears"}
    assert words_of("field(default_factory=list)") & WORDS == set()


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_generic_module_names_no_game(path: Path) -> None:
    rel = path.relative_to(ROOT)
    found = [f"{rel}:{n}: {w}" for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for w in sorted(words_of(line) & WORDS)]
    assert not found, "game words outside rules/ and content/ (let the rulesets' data name them):\n" + "\n".join(found)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.level:  # relative: within its own package
                continue
            out.add(node.module)
    return out


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_layer_imports_a_layer_above_it(path: Path) -> None:
    layer = path.relative_to(ROOT).parts[0]
    above = LAYERS[LAYERS.index(layer) + 1:]
    upward = sorted(m for m in _imports(path) for up in above if m == f"legacies.{up}" or
                    m.startswith(f"legacies.{up}."))
    assert not upward, f"{path.relative_to(ROOT)} ({layer}) imports {', '.join(upward)}, a layer above it"
