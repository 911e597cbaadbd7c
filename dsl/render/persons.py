"""Who a clause addresses, when another player acts: inside `as P:` (`for each P in
opponents: as P: ...`) `me`/`my` mean P, so the card text words P in the third person
("that opponent chooses a card in their hand, then they gain 1 points"), never "you"/"your",
which on a card names its owner.

The block is worded as for the acting player ("choose a card in your hand") with each
order given a subject: `YOU` ("you ") or `NAMED` (the acting player's name goes there);
`third_person` then turns the block's "you"/"your" into "they"/"them"/"their" and
`name_subject` puts the player's name, with its verb in the third person singular
("that opponent chooses"), where the name is needed: the first order and an order after
a clause about another player ("the host gains 15 gold, then that opponent pays ...").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..english import third_singular



@dataclass
class Acting:
    """Inside `as P:` (the renderer's `acting`): whether the block's first order is still
    to be worded (it names P)."""

    fresh: bool = True


NAMED = "\x01 "  # an order whose subject is the acting player's name
YOU = "you "  # an order whose subject is "they" once the block reads in the third person

# "you" after these is the object ("give 10 gold to you" -> "to them"); elsewhere the subject
_OBJECT_AFTER = ("to", "than", "with", "after", "before", "from", "for", "of", "by", "among", "on", "at", "is",
                 "not", "but", "except", "like", "against", "about", "into", "onto", "between", "beside")
_YOU = re.compile(r"\b(?:(?P<word>[A-Za-z]+) )?(?P<you>[Yy]ou(?:rs|rself|r)?)\b")
_OWN = {"your": "their", "yours": "theirs", "yourself": "themselves"}


def third_person(text: str) -> str:
    """`text` with its "you"/"your" said of another player: "they", "them", "their"
    ("if you have 5 gold, give 5 gold to you" -> "if they have 5 gold, give 5 gold to
    them"). Quoted words (a designer's literal text) are kept as written."""
    parts = re.split(r'("[^"\n]*")', text)
    return "".join(part if i % 2 else _YOU.sub(_pronoun, part) for i, part in enumerate(parts))


def _pronoun(m: re.Match[str]) -> str:
    word, you = m.group("word"), m.group("you")
    before = f"{word} " if word else ""
    lower = you.lower()
    if lower in _OWN:
        said = _OWN[lower]
    elif word is not None and word.lower() in _OBJECT_AFTER:
        said = "them"
    else:
        said = "they"
    return before + (said.capitalize() if you[0].isupper() else said)


def conjugated(order: str) -> str:
    """An order ("choose a card", "may: gain 1 points") with its verb said of one other
    player ("chooses a card", "may: gain 1 points")."""
    verb, sep, rest = order.partition(" ")
    head = re.match(r"[a-z]+", verb)
    if head is None:
        return order
    word, tail = head.group(0), verb[head.end():]
    return third_singular(word) + tail + sep + rest


def name_subject(text: str, who: str) -> str:
    """Each `NAMED` order in `text` with the acting player's name as its subject
    ("\\x01 choose a card" -> "that opponent chooses a card")."""
    return re.sub(re.escape(NAMED) + r"(\S+)", lambda m: f"{who} {conjugated(m.group(1))}", text)
