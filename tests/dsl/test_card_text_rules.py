"""The mechanical rules of good card text (docs/card-text.md), over everything a player
reads of every shipped ruleset, alone and with each installed expansion that extends
it: every item's card text (as `explain` shows it, and as the table shows it in each
era), every action's label, and the prompts, options, log lines and score breakdown of a
seeded game played by random bots. A ruleset or expansion added later is checked as soon as it
ships. Each failure names where the text came from.

The rules: no `_`, no `{` or `}`; no id of content (one with a digit or an underscore)
as a word; no capital letter standing alone as a variable (X, P; "I" excepted, and
items' names are taken out first: "A Fortune in the Cards"); "1" never before a plural
the ruleset counts, and another number never before one of its singulars ending a noun
phrase ("3 cube", not "3 player cards"); no plural in "ys" after a consonant
("industrys"); no word twice in a row."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

import pytest

from legacies.agents.match import play_match
from legacies.cli.scoring import score_parts
from legacies.dsl.wording import Wording
from legacies.pipeline.explain import item_text
from legacies.pipeline.ruleset import load_ruleset, rulesets
from legacies.pipeline.stack import installed_expansions


@dataclass(frozen=True)
class Stack:
    ruleset: str
    expansions: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "+".join((self.ruleset, *self.expansions))


def _stacks() -> list[Stack]:
    out = [Stack(name) for name in rulesets()]
    out += [Stack(e.ruleset() or "", (e.name,)) for e in installed_expansions() if e.ruleset()]
    return out


STACKS = _stacks()
# words a number may stand before in the singular: "3 player cards" (a noun before a noun)
_PHRASE_ENDS = frozenset("to from on in into of for if and or then at each with by than as".split())


@lru_cache(maxsize=None)
def _loaded(stack: Stack):  # type: ignore[no-untyped-def]
    result = load_ruleset(stack.ruleset, None, stack.expansions)
    assert result.spec is not None and result.build is not None, f"{stack} does not load"
    return result


def problems(text: str, wording: Wording, ids: frozenset[str], names: list[str]) -> list[str]:
    """What in `text` breaks a mechanical rule, each in words."""
    found: list[str] = []
    for bad in ("_", "{", "}"):
        if bad in text:
            found.append(f"`{bad}`")
    plain = text
    for name in names:  # items' names are the players' words: "A Fortune in the Cards", "Gold - row 1"
        plain = plain.replace(name, "NAME")
    for word in re.findall(r"[A-Za-z0-9_]+", plain):
        if word in ids:
            found.append(f"the id `{word}`")
    for letter in re.findall(r"(?<![\w'’-])(A(?! [a-z])|[B-Z])(?![\w’-]|'[a-rt-z])", plain):
        if letter != "I":  # "A province of yours ...": the article, not a letter standing for something
            found.append(f"the letter `{letter}` standing alone")
    words = re.findall(r"(-?\d+|[A-Za-z]+)([^A-Za-z0-9]*)", plain)
    for i, (word, gap) in enumerate(words[:-1]):
        following, after = words[i + 1][0], words[i + 2][0] if i + 2 < len(words) else ""
        if gap != " ":
            continue
        if word in ("1", "-1") and following in wording.count_nouns:
            found.append(f"\"{word} {following}\"")
        singulars = set(wording.count_nouns.values())
        if re.fullmatch(r"-?\d+", word) and word not in ("1", "-1") and following in singulars \
                and following not in wording.count_nouns and (words[i + 1][1] != " " or after in _PHRASE_ENDS):
            found.append(f"\"{word} {following}\"")
        if word.lower() == following.lower() and word.isalpha() and len(word) > 1 and word != "NAME":
            found.append(f"\"{word} {following}\" (a word twice)")
    for word in re.findall(r"\b[a-z]*[^aeiou\W]ys\b", plain):
        found.append(f"the plural \"{word}\"")
    return found


def _ids(stack: Stack) -> frozenset[str]:
    """The content ids a player must never read: those with a digit or an underscore
    (a one-word id, `law`, is also an English word)."""
    build = _loaded(stack).build
    return frozenset(i for i in build.items if re.search(r"[\d_]", i))


def _names(stack: Stack) -> list[str]:
    spec = _loaded(stack).spec
    return sorted({d.name for d in spec.defs if d.name}, key=len, reverse=True)


def _texts(stack: Stack) -> list[tuple[str, str]]:
    """(where, text) of every item's card text, in `explain` and in each era at the table,
    and of every action's label."""
    spec = _loaded(stack).spec
    vocab = spec.vocab
    wording = Wording.of(vocab)
    eras = range(1, max(vocab.eras, len(vocab.era_names)) + 1) if spec.era_counter else ()
    out = []
    for d in spec.defs:
        out.append((f"{d.id}", item_text(d, vocab, wording, attributes=spec.card_attributes)))
        for era in eras:
            out.append((f"{d.id} ({vocab.era_word} {era})",
                        item_text(d, vocab, replace(wording, era=era), attributes=spec.card_attributes, era=era)))
    out.extend((f"action {name}", label) for name, label in wording.actions.items())
    return out


@pytest.mark.parametrize("stack", STACKS, ids=str)
def test_every_items_card_text_keeps_the_mechanical_rules(stack: Stack) -> None:
    wording = Wording.of(_loaded(stack).spec.vocab)
    ids, names = _ids(stack), _names(stack)
    bad = [f"{where}: {', '.join(found)}\n    {text}" for where, text in _texts(stack)
           for found in [problems(text, wording, ids, names)] if found]
    assert not bad, f"card text of {stack} breaks docs/card-text.md:\n" + "\n".join(bad)


@pytest.mark.parametrize("stack", STACKS, ids=str)
def test_the_prompts_options_and_log_of_a_game_keep_the_mechanical_rules(stack: Stack) -> None:
    spec = _loaded(stack).spec
    wording = Wording.of(spec.vocab)
    ids, names = _ids(stack), _names(stack)
    seats = ["random"] * max(spec.min_players, 3)
    result = play_match(spec, seats[:spec.max_players], seed=1)
    players = re.compile(r"\bP\d\b( \([a-z]+\))?")
    parts = score_parts(result.state) if result.state is not None else None
    said = [f"score: {x.label}: {n}" for p in (parts or []) for x in p for n, _ in x.details]
    bad = [f"{line}\n    {', '.join(found)}" for line in result.log + said
           for found in [problems(players.sub("NAME", line), wording, ids, names)] if found]
    assert not bad, f"a game of {stack} shows text that breaks docs/card-text.md:\n" + "\n".join(bad)


def test_the_rules_find_what_read_badly_before() -> None:
    """Each rule catches the text issue 21 found (the check itself, broken on purpose)."""
    stack = Stack("legacies")
    wording = Wording.of(_loaded(stack).spec.vocab)
    ids, names = _ids(stack), _names(stack)

    def caught(text: str) -> bool:
        return bool(problems(text, wording, ids, names))
    assert caught("legacy_deck rebuilt from legacy_discard")
    assert caught("Choose 2 industrys.")
    assert caught("Gain 1 resources.")
    assert caught("Gain 3 heirloom.")
    assert caught("Choose a technology {T}.")
    assert caught("Transfer 1 from X's gold.")
    assert caught("Resolve C1003 now.")
    assert caught("Gain the the gold.")
    assert caught("P gains 1 fame.") and caught("Lose 2 R.") and caught("Choose a card A.")
    assert not caught("A province of yours cannot be attacked.")
    assert not caught("Gain 3 player cards. A Fortune in the Cards: century I. P1 gains 1 fame.")
    assert not caught("Take up to 2 gem from the victim opponent.")
