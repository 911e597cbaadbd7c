"""How large a number can be, everywhere a game holds one.

Python's integers have no size, so content could make one of a million digits (`repeat
40 times: set X to X * X` squares its way there) and every command would spend its
time and memory on it: the step budget counts steps, not digits. The engine holds
numbers to MAX_NUMBER either way (a game's numbers are scores, costs and counts: a
thousand billion is past any of them, and every value stays exact as a JSON number):

- a number written in an effect past it is E112, at the number (dsl/parser.py), read
  without ever converting its digits (Python refuses to convert 4,300 of them);
- a number in a data file past it is S005 (the schema bounds counters and options) or
  C004 (an attribute's value);
- at run time a product, a counter or a value past it stops the game with an internal
  error at the statement that made it (interpreter/compiler.py, interpreter/mechanics.py);
  a sum cannot run away on its own: what it adds is bounded, and it is stored, multiplied
  or compared at once.
"""

from __future__ import annotations

MAX_NUMBER = 10**15 - 1
"""The largest number (and, negated, the smallest) a game holds."""

MAX_DIGITS = len(str(MAX_NUMBER))


def written(digits: str) -> int | None:
    """The number a literal's digits write, or None when it is past MAX_NUMBER (a
    string of any length is read without converting it whole)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > MAX_DIGITS:
        return None
    value = int(significant)
    return value if value <= MAX_NUMBER else None


def in_range(value: int) -> bool:
    return -MAX_NUMBER <= value <= MAX_NUMBER


def size_words(value: int) -> str:
    """A number past the limit, in words that never print all of its digits (a number of
    a million digits cannot be turned into text quickly, nor read)."""
    if value.bit_length() <= 200:
        return f"{value:,}"
    digits = int(value.bit_length() * 0.30103) + 1
    return f"a number of about {digits:,} digits"


def limit_words() -> str:
    return f"numbers are at most {MAX_NUMBER:,} and at least -{MAX_NUMBER:,}"
