"""The effect grammar (dsl/effects.lark) and its LALR parser: the indentation
post-lexer, the parser built once a process (its tables kept between processes by
dsl/grammar_cache.py), the words the grammar spells out and the words a statement
starts with. dsl/parser.py parses with it; dsl/syntax_errors.py reads what it could
have accepted.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from lark import Lark
from lark.indenter import Indenter

from .constructs import CONSTRUCTS
from .grammar_cache import lark_parser
from .parse_cache import cache_folder


class EffectIndenter(Indenter):
    """Blocks by indentation (4 columns a tab), parentheses joining lines."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def grammar_text() -> str:
    """The grammar's source (dsl/effects.lark, from the installed package)."""
    return resources.files(__package__).joinpath("effects.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def effect_parser() -> Lark:
    """The effect grammar's LALR parser, its tables kept in the cache folder between
    processes as plain data (dsl/grammar_cache.py)."""
    return lark_parser(grammar_text(), cache_folder(), EffectIndenter(), propagate_positions=True,
                       maybe_placeholders=True)


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """Every word the grammar spells out (`gain`, `choose`, `where`...)."""
    words = set()
    for term in effect_parser().terminals:
        if term.pattern.type == "str" and term.pattern.value.isalpha():
            words.add(term.pattern.value)
    words.update(("enters", "leaves"))
    return frozenset(words)


# The words a statement can start with, for "did you mean" on a mistyped one: the
# registry's (dsl/constructs.py), never a list of its own.
STATEMENT_WORDS = tuple(dict.fromkeys(w for c in CONSTRUCTS.values() for w in c.first_words()))
