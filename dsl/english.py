"""English for card text: articles that agree ("an outer station", "an hour"),
singulars and plurals ("ponies", "boxes"), a number and its noun agreeing ("1 crate",
"2 crates"), lists ("A, B or C"), ordinals, sentences, possessives ("your", "its", "the
Tower's"), a clause in the negative, and a `text:` template conjugated for "you" ("{0}
has" -> "you have"). No word of any ruleset: dsl/wording.py holds those.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

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


def lower_first(text: str) -> str:
    """A label inside a sentence: "Open the gate" -> "open the gate" (a word in
    capitals, "LED", or a name of one letter stays as written)."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def sentence(clause: str) -> str:
    clause = clause.strip()
    if not clause:
        return ""
    clause = clause[0].upper() + clause[1:]
    return clause if clause[-1] in ".!?" else clause + "."


_VOWELS = "aeiou"


def singular(word: str) -> str:
    """One of a plural noun (the last word of a phrase): "ponies" -> "pony", "boxes" ->
    "box", "crates" -> "crate"; a word that is no plural is kept ("glass", "gold")."""
    head, _, last = word.rpartition(" ")
    lead = head + " " if head else ""
    if len(last) > 3 and last.endswith("ies"):
        return lead + last[:-3] + "y"
    if len(last) > 3 and re.search(r"(ss|sh|ch|x|z)es$", last):
        return lead + last[:-2]
    if len(last) > 1 and last.endswith("s") and not last.endswith(("ss", "us", "is")):
        return lead + last[:-1]
    return word


def reads_plural(phrase: str) -> bool:
    """Whether a noun phrase is plural by its head, the last word ("investment costs":
    yes; "gold off each relationship", "glass": no)."""
    return singular(phrase) != phrase


def plural(word: str) -> str:
    """More than one of a noun (the last word of a phrase): "pony" -> "ponies" (a
    consonant before the y), "day" -> "days", "box" -> "boxes", "crate" -> "crates"."""
    head, _, last = word.rpartition(" ")
    lead = head + " " if head else ""
    if len(last) > 1 and last.endswith("y") and last[-2].lower() not in _VOWELS:
        return lead + last[:-1] + "ies"
    if re.search(r"(s|sh|ch|x|z)$", last):
        return lead + last + "es"
    return lead + last + "s"


_SILENT_H = ("heir", "hour", "honest", "honor", "honour")  # "an hour": the h is not said
_SAID_YOU = ("uni", "use", "usu", "one", "eu")  # "a unit", "a one-off": a vowel said as a consonant


def article(text: str) -> str:
    word = text.lower()
    if word.startswith(_SILENT_H):
        return "an"
    if word.startswith(_SAID_YOU):
        return "a"
    return "an" if word[:1] in _VOWELS else "a"


def word_list(items: Sequence[str], conjunction: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


_A_AN = re.compile(r"\b([Aa])n? (?=([A-Za-z]+))")


def tidy(text: str) -> str:
    """Articles agree with the word after them ("an outer station", "a unit", "an heir");
    before letters said one by one ("an LED") the article is left as written."""
    def fix(m: re.Match[str]) -> str:
        word = m.group(2)
        if len(word) > 1 and word.isupper():
            return m.group(0)
        return m.group(1) + ("n " if article(word) == "an" else " ")
    return _A_AN.sub(fix, text)


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


_MODALS = frozenset({"may", "can", "must", "will", "should", "might", "could", "would"})  # "that opponent may ..."
_THIRD = {you: one for one, you in _IRREGULAR.items()} | {"be": "is"}  # "have" -> "has": conjugate's table, turned


def third_singular(verb: str) -> str:
    """A verb said of one other player: "choose" -> "chooses", "carry" -> "carries",
    "push" -> "pushes" (a noun's plural spelling), "have" -> "has"; a modal stays ("may").
    The other way from `conjugate`'s "you" form."""
    if verb in _MODALS:
        return verb
    return _THIRD.get(verb) or plural(verb)


_NUMBER_NOUN = re.compile(r"(?<![\w/.-])(-?\d+) ([a-z]+)\b")


def agree(text: str, nouns: Mapping[str, str]) -> str:
    """A number and the noun after it agree: "1 crates" -> "1 crate" (`nouns`: a plural
    -> its singular, for the nouns a ruleset counts). Only the plural after 1 changes:
    after another number a singular may be a noun's modifier ("3 player cards"), and
    one of several era values ("1 / 2 / 3 crates") is left alone."""
    if not nouns:
        return text

    def fix(m: re.Match[str]) -> str:
        number, word = m.group(1), m.group(2)
        if number in ("1", "-1") and word in nouns:
            return f"{number} {nouns[word]}"
        return m.group(0)
    return _NUMBER_NOUN.sub(fix, text)


def counted(phrase: str, n: int, nouns: Mapping[str, str]) -> str:
    """A noun phrase as `n` of it reads, by its last word (`nouns`: a plural -> its
    singular): "legacy points" of 1 -> "legacy point"; of 2 it is kept."""
    head, _, last = phrase.rpartition(" ")
    if n in (1, -1) and last in nouns:
        return (head + " " if head else "") + nouns[last]
    return phrase
