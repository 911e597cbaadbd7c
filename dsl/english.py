"""English for card text: articles that agree ("an outer station"), singulars, lists
("A, B or C"), ordinals, sentences, possessives ("your", "its", "the Tower's"), a
clause in the negative, and a `text:` template conjugated for "you" ("{0} has" ->
"you have"). No word of any ruleset: dsl/wording.py holds those.
"""

from __future__ import annotations

import re
from typing import Sequence

_IRREGULAR = {"has": "have", "is": "are", "does": "do", "was": "were", "goes": "go"}


def is_word(name: str) -> bool:
    return len(name) >= 3 and name.isalpha() and name.islower()


_NEGATE_AFTER = ("is", "are", "can", "may", "must", "was", "were", "will", "should", "could")


def negate(phrase: str) -> str | None:
    """A clause in the negative ("you hold X" -> "you do not hold X", "it is Y" -> "it is
    not Y"), or None when the clause is not a subject and a verb this knows."""
    words = phrase.split(" ")
    if len(words) < 2:
        return None
    subject, verb = words[0], words[1]
    if verb in _NEGATE_AFTER:
        return " ".join([subject, "cannot" if verb == "can" else f"{verb} not", *words[2:]])
    if subject == "you" and re.fullmatch(r"[a-z]+", verb):
        return " ".join(["you", "do not", verb, *words[2:]])
    if subject in ("it", "he", "she") and re.fullmatch(r"[a-z]+s", verb):
        base = "have" if verb == "has" else verb[:-2] if verb.endswith("es") and verb[-3] in "sxzh" else verb[:-1]
        return " ".join([subject, "does not", base, *words[2:]])
    return None


def ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def sentence(clause: str) -> str:
    clause = clause.strip()
    if not clause:
        return ""
    clause = clause[0].upper() + clause[1:]
    return clause if clause[-1] in ".!?" else clause + "."


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 3:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 1:
        return word[:-1]
    return word


def article(text: str) -> str:
    return "an" if text[:1].lower() in ("a", "e", "i", "o", "u") else "a"


def word_list(items: Sequence[str], conjunction: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


_A_AN = re.compile(r"\b([Aa]) (?=[aeiouAEIOU])")


def tidy(text: str) -> str:
    """Articles agree with the word after them ("an outer station")."""
    return _A_AN.sub(lambda m: m.group(1) + "n ", text)


def possessive(phrase: str) -> str:
    """`phrase`'s, with the pronouns' own forms (your, its, their)."""
    own = {"you": "your", "it": "its", "they": "their", "You": "Your", "It": "Its", "They": "Their"}
    if phrase in own:
        return own[phrase]
    return f"{phrase}'" if phrase.endswith("s") and not phrase.endswith("ss") else f"{phrase}'s"


def conjugate(template: str, args: Sequence[str]) -> str:
    """Fill a `text:` template, conjugating a verb after an argument that reads "you"
    (`{P} has` -> "you have") and its possessive (`{P}'s` -> "your")."""
    out = template
    for i, arg in enumerate(args):
        slot = "{" + str(i) + "}"
        out = out.replace(slot + "'s", possessive(arg))
        if arg == "you":

            def verb(m: re.Match[str]) -> str:
                word = m.group(1)
                if word in _IRREGULAR:
                    return "you " + _IRREGULAR[word]
                if re.search(r"(ss|sh|ch|x|o)es$", word):
                    return "you " + word[:-2]
                if word.endswith("s") and not word.endswith("ss"):
                    return "you " + word[:-1]
                return "you " + word
            out = re.sub(re.escape(slot) + r" ([a-z]+)", verb, out)
        out = out.replace(slot, arg)
    return out
