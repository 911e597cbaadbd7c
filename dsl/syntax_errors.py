"""What went wrong when an effect does not parse: one Diagnostic per syntax error
(E1xx), worded from what the parser could have accepted at the bad token and from the
statement it sits in, with a hint (a missing keyword, a mistyped statement word, a
stray `else`, an unclosed parenthesis, a character the language does not use), and the
words closest to a misspelt one (`close_word`). Also the lines' block depths, which
the parser's recovery reads (dsl/parser.py).
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .constructs import CONSTRUCTS
from .diagnostics import Diagnostic, DiagnosticError
from .grammar import STATEMENT_WORDS, effect_parser, keywords


class SyntaxErrors(DiagnosticError):
    """The source could not be parsed; `.diagnostics` says where and why. After a
    recovery that went through (dsl/parser.py), `recovered` is the effect with its bad
    statements set aside, and `aside` what they were: the lines changed and the words
    written on them, so a checker of the rest can leave out what only follows from them
    (a name the bad line bound)."""

    def __init__(self, diagnostics: list[Diagnostic], recovered: Any = None,
                 aside: "tuple[frozenset[int], frozenset[str]]" = (frozenset(), frozenset())):
        super().__init__(diagnostics)
        self.recovered = recovered
        self.aside = aside


# ---------------------------------------------------------------------- what went wrong
#
# A syntax error is worded from what the parser could have accepted at the bad token
# (lark's interactive parser, exact, not the LALR state's merged lookahead set) and
# from the statement it sits in (the forms in dsl/constructs.py). A hint names a
# missing keyword only when nothing else could end the statement there, and names the
# keyword(s) this statement takes, never another statement's.

# Keywords whose absence has its own code (lark's match_examples idea).
# In this order: `move X Y` is first of all missing its `to`.
_MISSING_CODES: dict[str, str] = {"AS": "E104", "COLON": "E105", "TO": "E107", "FROM": "E108", "BY": "E106"}
_MISSING_WORDS: dict[str, str] = {"AS": "as", "COLON": ":", "BY": "by", "TO": "to", "FROM": "from"}
_MISSING_GENERIC: dict[str, str] = {
    "AS": "a choice names what was chosen with `as NAME`: `choose a card in my hand as C`",
    "COLON": "a block opener (`if`, `for each`, `choose one`, `may`, `when`...) ends with `:`",
    "BY": "this needs `by` here",
    "TO": "this needs `to` here",
    "FROM": "this needs `from` here",
}
# Words that only continue an expression: after an expression they are always possible,
# so they are never what "is missing" and never a did-you-mean for a statement's keyword.
_CONTINUATION = frozenset({"and", "or", "is", "has", "where", "ordered", "divided", "if", "else", "after", "before",
                           "starting", "of", "in", "rounded"})
# Expression forms whose own keyword comes next: `X divided by Y`...
_EXPRESSION_FORMS: dict[str, str] = {"divided": "`X divided by Y`", "ordered": "`C ordered by KEY`"}


def _accepts(err: UnexpectedToken) -> set[str]:
    """The terminals the parser could have taken instead of the bad token."""
    parser = getattr(err, "interactive_parser", None)
    if parser is not None:  # lark catches the refusals it meets while trying; anything else is a bug
        return set(parser.accepts())
    return set(err.expected)


@lru_cache(maxsize=None)
def _terminal_patterns() -> dict[str, str]:
    return {t.name: str(t.pattern.value) for t in effect_parser().terminals if t.pattern.type == "str"}


def _keyword_of(terminal: str) -> str | None:
    value = _terminal_patterns().get(terminal)
    return value if value is not None and value.isalpha() else None


def _after_expression(accepts: set[str]) -> bool:
    """The bad token follows a complete expression (an operator could have come next)."""
    return bool(accepts & {"PLUS", "STAR"})


def _structural(accepts: set[str]) -> set[str]:
    """The terminals that continue the statement itself, not the expression before them."""
    if not _after_expression(accepts):
        return set(accepts)
    out = set()
    for t in accepts:
        word = _keyword_of(t)
        if word is not None:
            if word not in _CONTINUATION:
                out.add(t)
        elif t in ("COLON", "RPAR", "COMMA", "_NL", "$END"):
            out.add(t)
    return out


def _alternatives(syntax: str) -> list[str]:
    """`a | b [c | d]` -> [`a`, `b [c | d]`]: the top-level alternatives of a written form."""
    out, depth, part = [], 0, ""
    for i, ch in enumerate(syntax):
        depth += ch == "["
        depth -= ch == "]"
        if depth == 0 and syntax.startswith(" | ", i):
            out.append(part)
            part = ""
            continue
        if depth == 0 and part == "" and syntax.startswith("| ", i):
            continue
        part += ch
    out.append(part)
    return [a.strip() for a in out if a.strip()]


@lru_cache(maxsize=1)
def _statement_forms() -> dict[str, tuple[str, ...]]:
    """First word -> the written forms of the statements and declarations it starts."""
    forms: dict[str, list[str]] = {}
    for c in CONSTRUCTS.values():
        if c.section in ("expressions", "parts"):
            continue
        for alternative in _alternatives(c.syntax.replace(" / ", " | ")):
            word = alternative.split(" ", 1)[0]
            if word.isalpha() and word.islower():
                forms.setdefault(word, []).append(alternative)
    return {w: tuple(dict.fromkeys(f)) for w, f in forms.items()}


def _fits(form: str, keyword: str, typed: set[str]) -> bool:
    """The form takes `keyword`, and every keyword it requires before it was typed."""
    words = []
    depth = 0
    for token in form.replace("[", " [ ").replace("]", " ] ").replace(":", " : ").split():
        if token == "[":
            depth += 1
        elif token == "]":
            depth -= 1
        elif depth == 0:
            words.append(token)
    if keyword not in words:
        return False
    required = [w for w in words[:words.index(keyword)] if w.isalpha() and w.islower()]
    return all(w in typed for w in required)


def line_depths(text: str) -> list[int]:
    """The parenthesis depth at the start of each line (index 0 is line 1); text in
    quotes and comments do not count."""
    depths = []
    depth = 0
    for line in text.split("\n"):
        depths.append(depth)
        quoted = False
        for ch in line:
            if quoted:
                quoted = ch != '"'
            elif ch == '"':
                quoted = True
            elif ch == "#":
                break
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth = max(0, depth - 1)
    return depths


def statement_start(text: str, line: int) -> int:
    """The line where the statement holding `line` starts (lines inside parentheses continue one)."""
    depths = line_depths(text)
    while line > 1 and line - 1 < len(depths) and depths[line - 1] > 0:
        line -= 1
    return line


def _open_parenthesis(text: str, line: int, column: int) -> tuple[int, int] | None:
    """Where the innermost parenthesis still open at (line, column) was opened."""
    stack: list[tuple[int, int]] = []
    for number, raw in enumerate(text.split("\n"), 1):
        if number > line:
            break
        quoted = False
        for col, ch in enumerate(raw, 1):
            if number == line and col >= column:
                break
            if quoted:
                quoted = ch != '"'
            elif ch == '"':
                quoted = True
            elif ch == "#":
                break
            elif ch == "(":
                stack.append((number, col))
            elif ch == ")" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _statement_word(text: str, line: int, column: int) -> str | None:
    """The first word of the statement the position is in (after a block's `:` on the
    same line, the statement of that block: `if C: gain ...` -> `gain`)."""
    lines = text.split("\n")
    start = statement_start(text, line)
    if not 1 <= line <= len(lines):
        return None
    chunk = "\n".join(lines[start - 1:line - 1] + [lines[line - 1][:column - 1]])
    segment: list[str] = []
    depth, quoted = 0, False
    for ch in chunk:
        if quoted:
            quoted = ch != '"'
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == ":" and depth == 0:
            segment = []
            continue
        segment.append(ch)
    first = _first_word("".join(segment).strip())
    return first[0] if first else None


def _typed(text: str, line: int, column: int) -> str:
    """The statement's text up to the position."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    start = statement_start(text, line)
    return " ".join(lines[start - 1:line - 1] + [lines[line - 1][:column - 1]])


def _missing_hint(terminals: list[str], statement: str | None, typed: str) -> str:
    """How to write the statement with its missing keyword(s)."""
    words_typed = typed.replace("(", " ").replace(")", " ").split()
    before = words_typed[-1] if words_typed else ""
    if before in _EXPRESSION_FORMS and len(terminals) == 1:
        return f"`{before}` goes on with `{_MISSING_WORDS[terminals[0]]}`: {_EXPRESSION_FORMS[before]}"
    wanted = [_MISSING_WORDS[t] for t in terminals]
    forms = [f for f in _statement_forms().get(statement or "", ())
             if any(_fits(f, w, set(words_typed)) for w in wanted)]
    words = " or ".join(f"`{w}`" for w in wanted)
    if statement is not None and forms:
        shown = " / ".join(f"`{f}`" for f in forms[:3])
        return f"`{statement}` goes on with {words} here: {shown}"
    if len(terminals) == 1:
        return _MISSING_GENERIC[terminals[0]]
    return f"expected {words} here"


_VALUE_STARTS = frozenset({"NAME", "INT"})


def _friendly_expected(accepts: set[str]) -> str | None:
    if _VALUE_STARTS <= accepts:
        return "expected a value here: a number, a name, `(`..."
    shown = _structural(accepts) or accepts
    names = sorted({w for w in (_terminal_word(e) for e in shown) if w})
    if not names:
        return None
    if len(names) == 1:
        return f"expected {names[0]}"
    return "expected one of: " + ", ".join(names[:8]) + (" ..." if len(names) > 8 else "")


def _describe(tok: Token) -> str:
    if tok.type == "_NL":
        return "end of line"
    if tok.type == "_INDENT":
        return "an indented block"
    if tok.type == "_DEDENT":
        return "end of block"
    if tok.type == "$END":
        return "end of input"
    return f"'{tok}'"


_TERMINAL_WORDS = {"NAME": "a name", "INT": "a number", "ERA": "an era value (20/50/100)",
                   "PERCENT": "a percentage", "STRING": "a quoted text", "_NL": "end of line",
                   "_INDENT": "an indented block", "_DEDENT": "end of block", "$END": "end of input"}


def _terminal_word(name: str) -> str | None:
    """How a terminal reads to a designer: a keyword or symbol as written, a class by name."""
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    value = _terminal_patterns().get(name)
    return f"`{value}`" if value is not None else None


def close_word(word: str, candidates: list[str] | tuple[str, ...] | frozenset[str] | set[str]) -> str | None:
    """The candidate closest to `word`, ignoring case (`Gian` -> `gain`, `Stones` -> `stone`), or None.
    A candidate one typo away comes first (`librari` -> `library`, not `libraries`,
    which shares more letters but needs two)."""
    by_lower: dict[str, str] = {}
    for c in candidates:
        by_lower.setdefault(c.lower(), c)
    lowered = word.lower()
    near = [c for c in by_lower if _one_edit(lowered, c)]
    hits = difflib.get_close_matches(lowered, near or list(by_lower), n=1, cutoff=0.6)
    return by_lower[hits[0]] if hits else None


def _one_edit(a: str, b: str) -> bool:
    """`a` becomes `b` with one letter changed, added, removed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _first_word(line: str) -> tuple[str, int] | None:
    """The first word of a source line and its 1-based column."""
    stripped = line.lstrip()
    column = len(line) - len(stripped) + 1
    word = ""
    for ch in stripped:
        if ch.isalnum() or ch == "_":
            word += ch
        else:
            break
    return (word, column) if word else None


def _inline_word(text: str, column: int) -> tuple[str, int] | None:
    """The word a statement written after a `:` on the same line starts with, when the
    parser failed just after it (at `column`)."""
    found = None
    for m in re.finditer(r':[ \t]*([A-Za-z_][A-Za-z0-9_]*)', text):
        start = m.start(1) + 1
        if start < column and text[m.end(1):column - 1].strip() == "":
            found = (m.group(1), start)
    return found


def _mistyped_statement(source: str, line: int, column: int) -> Diagnostic | None:
    """`gian 2 gold`: a statement that starts with a word that starts no statement.

    Only for a line that starts a statement (not one inside parentheses), whose first
    word the parser took (a name may start a procedure call) before failing after it."""
    lines = source.split("\n")
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1]
    inline = _inline_word(text, column)  # `"a": gian 2 gold`, `if yes: gian 2 gold`
    if inline is None and statement_start(source, line) != line:
        return None
    first = inline or _first_word(text)
    if first is None:
        return None
    word, word_column = first
    if column <= word_column or word[0].isdigit():
        return None  # the parser did not even take the first word: it is not the problem
    rest = text[word_column - 1 + len(word):].lstrip()
    if word in keywords() or rest.startswith("("):  # a keyword, or a procedure call
        return None
    guess = close_word(word, STATEMENT_WORDS)
    if guess is None:
        hint = (f"a statement starts with a keyword (`gain`, `move`, `if`...) or runs a procedure: `{word}(...)`")
    elif guess.lower() == word.lower():
        hint = f"did you mean `{guess}`? (keywords are written in lower case)"
    else:
        hint = f"did you mean `{guess}`?"
    return Diagnostic("E110", f"`{word}` does not start a statement", line, word_column, hint=hint,
                      end_column=word_column + len(word))


def _stray_else(source: str, line: int, column: int) -> Diagnostic | None:
    """An `else` the parser could only read as a name: no `if` block ends just before it."""
    lines = source.split("\n")
    if not 1 <= line <= len(lines) or statement_start(source, line) != line:
        return None
    first = _first_word(lines[line - 1])
    if first is None or first[0] != "else" or column <= first[1]:
        return None
    return Diagnostic("E100", "unexpected 'else'", line, first[1], end_column=first[1] + 4,
                      hint="`else` follows the block of an `if`, at the same indentation as that `if`")


_CHARACTER_HINTS = {
    '"': "a quoted text ends on the same line: close the quote",
    "'": "`'` only makes a possessive, `X's NAME`; text goes in double quotes",
    ";": "write one statement per line",
    "&": "write `and`",
    "|": "write `or`",
    "!": "write `not`, or `!=` for \"is not\"",
    ".": "numbers are whole; to read a name of something write `X's NAME` or `NAME of X`",
}


_LOOK_ALIKES = {
    "\u2018": "write `'` for a possessive (`X's NAME`), `\"` for text",
    "\u2019": "write `'` for a possessive (`X's NAME`), `\"` for text",
    "\u201c": "write plain double quotes `\"` around text",
    "\u201d": "write plain double quotes `\"` around text",
    "\u2212": "write `-`",
    "\u2013": "write `-`",
    "\u2014": "write `-`",
}


# letters of other alphabets drawn as a Latin one (a keyboard layout, a pasted text): what
# unicodedata's NFKC leaves alone (full-width letters it turns into Latin ones)
_LATIN_LOOK_ALIKES = dict(zip(
    "аеорсухіјѕԁӏ"
    "АВЕКМНОРСТХІЈЅ"
    "οΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdl" "ABEKMHOPCTXIJS" "o" "ABEZHIKMNOPTYX"))


def latin_look_alike(ch: str) -> str | None:
    """The Latin letter `ch` is drawn as, when it is a letter of another alphabet that looks
    like one (None otherwise)."""
    import unicodedata

    if ch in _LATIN_LOOK_ALIKES:
        return _LATIN_LOOK_ALIKES[ch]
    folded = unicodedata.normalize("NFKC", ch)
    return folded if folded != ch and len(folded) == 1 and folded.isascii() and folded.isalnum() else None


def _unusual(ch: str, line: int, column: int) -> Diagnostic | None:
    """E102 for a character that looks like another or cannot be seen (a user's trial:
    `ga\u200bin 1 X` was told "`ga` does not start a statement", a no-break space
    "names use letters..."): what it is, by its code and name, and what to write."""
    import unicodedata

    category = unicodedata.category(ch)
    name = f"U+{ord(ch):04X} ({unicodedata.name(ch, 'a control character')})"
    latin = latin_look_alike(ch)
    if latin is not None:  # a user's trial: a Cyrillic о in `gоld` was "unexpected character 'о'"
        return Diagnostic("E102", f"unexpected character {name}, which looks like `{latin}`", line, column,
                          hint=f"write the Latin `{latin}` (a keyboard layout or a pasted text may have put this "
                               "one in)")
    if ord(ch) > 127 and ch.isalpha():
        return Diagnostic("E102", f"unexpected character {name}", line, column,
                          hint="names use the letters A-Z and a-z, digits and `_`")
    if ch not in _LOOK_ALIKES and category not in ("Zs", "Cf", "Cc", "Zl", "Zp") or ch in " \t\n":
        return None
    if ch in _LOOK_ALIKES:
        return Diagnostic("E102", f"unexpected character {name}", line, column, hint=_LOOK_ALIKES[ch])
    if category == "Zs":
        return Diagnostic("E102", f"unexpected character {name}: a space of another kind", line, column,
                          hint="write a plain space (an editor or a word processor may have put this one in)")
    return Diagnostic("E102", f"unexpected character {name}, which cannot be seen", line, column,
                      hint="delete it (it was likely pasted in with the text around it)")


def syntax_diagnostic(err: UnexpectedInput, source: str) -> Diagnostic:
    line = getattr(err, "line", 1) or 1
    column = getattr(err, "column", 1) or 1
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream or 0
        unusual = _unusual(source[pos], line, column) if pos < len(source) else None
        if unusual is not None:
            return unusual
        typo = _mistyped_statement(source, line, column)
        if typo is not None:
            return typo
        pos = err.pos_in_stream or 0
        ch = source[pos] if pos < len(source) else "?"
        hint = _CHARACTER_HINTS.get(ch)
        if hint is None:
            hint = ("names use the letters A-Z and a-z, digits and `_`" if ch.isalpha()
                    else "names use letters, digits and `_`; text goes in double quotes")
        return Diagnostic("E102", f"unexpected character {ch!r}", line, column, hint=hint)
    if isinstance(err, UnexpectedEOF):
        return _ends_early(source, set(err.expected))
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    accepts = _accepts(err)
    if tok.type == "$END":  # lark's LALR parser reports the end of input this way, not as UnexpectedEOF
        return _ends_early(source, accepts)
    if tok.type == "_INDENT":  # it borrows the position of the newline before it: point at the indented line
        line, column = tok.end_line or line, tok.end_column or column
        return Diagnostic("E103", "unexpected indentation", line, column,
                          hint="only the lines of a block (after a line ending in `:`) are indented")
    typo = _mistyped_statement(source, line, column)
    if typo is not None:
        return typo
    stray = _stray_else(source, line, column)
    if stray is not None:
        return stray
    structural = _structural(accepts)
    end = column + len(str(tok)) if tok.type not in ("_NL", "_DEDENT") else None
    if tok.type == "NAME":  # a keyword misspelt where the grammar wanted it (`az` for `as`)
        word = str(tok)
        wanted = {w: t for t in structural if (w := _keyword_of(t)) is not None}
        guess = word.lower() if word.lower() in wanted else None
        # not `X`, `Y` (those name things) and not a keyword out of place (`my`): only a misspelt word
        if guess is None and len(word) > 1 and not word[0].isupper() and word not in keywords():
            guess = close_word(word, list(wanted)) or next((w for w in sorted(wanted) if _one_edit(word, w)), None)
            if guess is None and len(word) > 3:  # a word that goes on an expression (`whre` for `where`): the
                # parser has reduced past where it fitted (LALR), so its accepted set no longer names it
                going_on = {w: t for t in _terminal_patterns() if (w := _keyword_of(t)) in _CONTINUATION
                            and len(w) > 3}
                guess = close_word(word, list(going_on)) or next(
                    (w for w in sorted(going_on) if _one_edit(word, w)), None)
                wanted.update(going_on)
        if guess is not None:
            case = " (keywords are written in lower case)" if guess == word.lower() else ""
            return Diagnostic(_MISSING_CODES.get(wanted[guess], "E100"), f"unexpected '{tok}'", line, column,
                              hint=f"did you mean `{guess}`?{case}", end_column=end)
    phrase = _phrase_hint(source, line, column, str(tok))
    if phrase is not None:
        return Diagnostic("E100", f"unexpected {_describe(tok)}", line, column, hint=phrase, end_column=end)
    missing = [t for t in _MISSING_CODES if t in structural]
    if missing and not structural & {"_NL", "$END"}:  # the statement cannot end here: a keyword is missing
        statement = _statement_word(source, line, column)
        typed = _typed(source, line, column)
        if len(missing) > 1 and statement is not None:  # keep the ones this statement takes
            words = set(typed.split())
            forms = _statement_forms().get(statement, ())
            missing = [t for t in missing if any(_fits(f, _MISSING_WORDS[t], words) for f in forms)] or missing
        hint = _missing_hint(missing, statement, typed)
        return Diagnostic(_MISSING_CODES[missing[0]], f"unexpected {_describe(tok)}", line, column, hint=hint,
                          end_column=end)
    hint = _friendly_expected(accepts)
    opened = _open_parenthesis(source, line, column) if "RPAR" in accepts else None
    if opened is not None and opened[0] < line:  # the statement runs on over lines inside parentheses
        still_open = f"the parenthesis opened on line {opened[0]}, column {opened[1]} is still open here"
        hint = f"{hint}; {still_open}" if hint else still_open
    return Diagnostic("E100", f"unexpected {_describe(tok)}", line, column, hint=hint, end_column=end)


_PERCENT_OF = re.compile(r"(\d+)%\s*$")
_IS_A = re.compile(r"\bis\s+(?:not\s+)?(an?)\s*$")


def _plural(word: str) -> str:
    return word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in tuple("aeiou") else word + "s"


_COLLECTION_AFTER = re.compile(r"\(|\bbe\s+|\bof\s+|\beach\s+\w+\s+in\s+|\bchoose\s+(?:an?|\d+)\s+")


def _phrase_hint(source: str, line: int, column: int, token: str) -> str | None:
    """A phrase written as it is said, not as the language takes it: `10% of X` (a
    percentage multiplies: `X * 10%`), `players where ... ordered by` (`where` takes the
    rest as its condition: parenthesise the filter)."""
    typed = _typed(source, line, column)
    percent = _PERCENT_OF.search(typed)
    if token == "of" and percent is not None:
        return (f"a percentage multiplies an amount (rounded up): write `X * {percent.group(1)}%`, "
                f"not `{percent.group(1)}% of X`")
    article = _IS_A.search(typed)
    if article is not None and re.fullmatch(r"[a-z_][a-z0-9_]*", token):
        return (f"`is {article.group(1)} {token}` asks nothing the language knows: whether a piece is of a kind is "
                f"`X is in` and the kind's plural (every piece of it: `X is in {_plural(token)}`)")
    if token != "of" and re.search(r"\bchoose\s+one\s*$", typed) and re.fullmatch(r"[a-z_][a-z0-9_]*", token):
        an = "an" if token[0] in "aeiou" else "a"
        return (f"`choose one:` lists options, each on its own line; to choose one piece write "
                f"`choose {an} {token} ... as V`")
    if token == "ordered" or token in _COMPARISONS:
        opened = _open_parenthesis(source, line, column)
        inside = typed if opened is None else typed[_offset(source, line, opened):]
        filtered = re.search(r"^(.*?)\s+where\s+(.*\S)\s*$", inside)
        if filtered is not None and (token == "ordered" or _COMPARED.search(filtered.group(2))):
            before, condition = filtered.group(1), filtered.group(2)
            starts = list(_COLLECTION_AFTER.finditer(before))
            collection = before[starts[-1].end():] if starts else before if opened else before.split(None, 1)[-1]
            if token == "ordered":
                return (f"`where` takes the rest as its condition, so `ordered by` cannot follow it: parenthesise "
                        f"the filter, `({collection} where {condition}) ordered by ...`")
            # (a user's trial: `count of opponents where its N > my N >= 2` was told "`if` goes on with `:`")
            return (f"`where` takes the rest as its condition, which already compares: to compare what the filter "
                    f"finds, parenthesise it, `({collection} where {condition}) {token} ...`")
    return None


_COMPARISONS = frozenset({">", ">=", "<", "<=", "=", "!="})
_COMPARED = re.compile(r"(?:[<>!]=?|=)|\bis\b")


def _offset(source: str, line: int, opened: tuple[int, int]) -> int:
    """Where the parenthesis `opened` (line, column) sits in _typed's text of the statement at `line`."""
    lines = source.split("\n")
    start = statement_start(source, line)
    return sum(len(text) + 1 for text in lines[start - 1:opened[0] - 1]) + opened[1]


def _ends_early(source: str, accepts: set[str]) -> Diagnostic:
    lines = source.rstrip("\n").split("\n") or [""]
    line, column = len(lines), len(lines[-1]) + 1
    opened = _open_parenthesis(source, line, column)
    if "_INDENT" in accepts:
        hint = "a block opener (a line ending in `:`) must be followed by an indented block"
    elif opened is not None:
        hint = f"close the parenthesis opened on line {opened[0]}, column {opened[1]}"
    else:
        hint = "finish the last statement"
    return Diagnostic("E101", "the effect ends too early", line, column, hint=hint)
