"""Quick fixes for `legacies lsp`: the edits a diagnostic's hint names, ready to apply.

A diagnostic whose hint says what to write gets a fix that writes it:

- "did you mean `NAME`?" (a misspelt name, keyword, key or id): the name at the
  diagnostic's place replaced by NAME;
- E221 (`A + B in X`, a bare kind before a selection): each parenthesised form the hint
  gives, in place of the expression;
- R013 (a hook whose parameters are not those of the rule it hooks): `params:` as the
  hooked procedure declares them, or as the hooked action chooses (its `as:` name, of the
  type of what its `choose:` names first); an existing `params:` rewritten, a missing one
  added;
- "write `replaces: true`" (an expansion's name or file that takes the place of the
  base's): the line added to the declaration or at the top of the file; "remove
  `replaces: true`": that line removed.

Positions are 0-based lines and columns in characters of the document's text (the server
converts them to the editor's units). No editor protocol lives here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from legacies.dsl.diagnostics import Diagnostic
from legacies.dsl.vocabulary import Vocabulary
from legacies.pipeline.load import LoadedFile

from .query import word_at

_GUESS = re.compile(r"did you mean [`'](?P<guess>[^`']+)[`']\?")
_WRITE = re.compile(r"write `([^`]+)`")
_PARAMS = re.compile(r"declare `params:` as `(?P<target>[^`]+)` has them: ")
_FIRST_KEY = re.compile(r"^(?P<indent>\s*)(?P<dash>-\s+)?(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*:(?P<rest>.*)$")
_TYPE_NEEDS_QUOTES = re.compile(r"[:{}\[\],#&*!|>'\"%@`]")


@dataclass(frozen=True)
class Edit:
    """Replace the text from (line, column) to (end_line, end_column) with `text`."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass(frozen=True)
class Fix:
    """One quick fix: its title in the editor's menu and its edits to one document."""

    title: str
    edits: tuple[Edit, ...]
    preferred: bool = False


def fixes(d: Diagnostic, lines: list[str], params_of: Callable[[str], Mapping[str, Any] | None] = lambda _: None
          ) -> list[Fix]:
    """The fixes the hint of `d` (placed in the document of `lines`) names; none when it
    names no edit or the text at its place is not what it speaks of. `params_of(NAME)`:
    the `params:` a procedure declares, as written (R013's fix copies them)."""
    if not d.hint or not 1 <= d.line <= len(lines):
        return []
    found: list[Fix] = []
    for make in (_did_you_mean, _parenthesised, _add_replaces, _remove_replaces):
        found.extend(make(d, lines))
    found.extend(_params(d, lines, params_of))
    return found


def declared_params(files: Iterable[LoadedFile], vocabs: Iterable[Vocabulary] = ()
                    ) -> Callable[[str], Mapping[str, Any] | None]:
    """`params_of` for `fixes`: a procedure's `params:` as a rules file of `files` writes
    them; an action's, its `as:` name with the type of what its `choose:` names first (a
    kind or its plural: `kind:KIND`; players: `player`; an enum: `symbol:ENUM`; a counter
    set: `counter:SET`), read with the ruleset's words (`vocabs`, the first that knows)."""
    files, vocabs = list(files), list(vocabs)

    def params_of(name: str) -> Mapping[str, Any] | None:
        for f in files:
            table = f.data.get("procedures") if f.kind != "content" and isinstance(f.data, dict) else None
            entry = table.get(name) if isinstance(table, dict) else None
            if isinstance(entry, dict):
                params = entry.get("params")
                return params if isinstance(params, dict) else {}
        for f in files:
            table = f.data.get("actions") if f.kind != "content" and isinstance(f.data, dict) else None
            entry = table.get(name) if isinstance(table, dict) else None
            if isinstance(entry, dict):
                var, choose = entry.get("as"), entry.get("choose")
                if not isinstance(var, str) or not isinstance(choose, str):
                    return {}
                written = next((t for v in vocabs if (t := _chosen_type(v, choose)) is not None), None)
                return {var: written} if written is not None else None
        return None
    return params_of


def _chosen_type(vocab: Vocabulary, choose: str) -> str | None:
    """How a `params:` type is written for one of what a `choose:` names first."""
    found = re.match(r"\s*(?:(?:a|an|one of)\s+)?([A-Za-z_][A-Za-z0-9_]*)", choose)
    word = found.group(1) if found else ""
    for kind, info in vocab.kinds.items():
        if word in (kind, info.plural):
            return f"kind:{kind}"
    if word in ("players", "opponents"):
        return "player"
    if word in vocab.enums:
        return f"symbol:{word}"
    if word in vocab.counter_sets:
        return f"counter:{word}"
    return None


def _did_you_mean(d: Diagnostic, lines: list[str]) -> list[Fix]:
    assert d.hint is not None
    match = _GUESS.search(d.hint)
    if match is None:
        return []
    guess = match.group("guess")
    line = d.line - 1
    text = lines[line]
    column = max(d.column - 1, 0)
    span = text[column:d.end_column - 1] if d.end_column is not None and d.end_column - 1 > column else ""
    word = word_at(text, column)
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", span or ""):
        start, end, current = column, column + len(span), span
    elif word is not None:
        current, start, end = word
    else:
        return []
    if current == guess or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_ ]*", guess):
        return []
    return [Fix(f"Change `{current}` to `{guess}`", (Edit(line, start, line, end, guess),), preferred=True)]


def _parenthesised(d: Diagnostic, lines: list[str]) -> list[Fix]:
    assert d.hint is not None
    if d.code != "E221" or d.end_column is None:
        return []
    written = re.search(r"`([^`]+)` reads as", d.message)
    if written is None:
        return []
    line, column = d.line - 1, d.column - 1
    span = lines[line][column:d.end_column - 1]
    pattern = r"\s+".join(re.escape(part) for part in written.group(1).split()) + r"\s*$"
    at = re.search(pattern, span)
    if at is None:
        return []
    start, end = column + at.start(), column + at.start() + len(at.group().rstrip())
    return [Fix(f"Write `{form}`", (Edit(line, start, line, end, form),), preferred=n == 0)
            for n, form in enumerate(_WRITE.findall(d.hint))]


def _params(d: Diagnostic, lines: list[str], params_of: Callable[[str], Mapping[str, Any] | None]) -> list[Fix]:
    match = _PARAMS.search(d.hint or "")
    if d.code != "R013" or match is None:
        return []
    written = params_of(match.group("target"))
    if written is None:  # an action's `as:` name, or a procedure no file gives: its types are not written out
        return []
    flow = "{" + ", ".join(f"{name}: {_yaml_scalar(str(t))}" for name, t in written.items()) + "}"
    line = d.line - 1
    text = lines[line]
    at = re.search(r"\bparams\s*:", text)
    if at is not None:  # rewritten: the value to the end of the line (a comment kept)
        value_start = at.end()
        comment = re.search(r"\s+#.*$", text[value_start:])
        value_end = value_start + comment.start() if comment else len(text)
        return [Fix(f"Declare `params: {flow}`", (Edit(line, value_start, line, value_end, f" {flow}"),),
                    preferred=True)]
    key = _FIRST_KEY.match(text)
    if key is not None and key.group("rest").strip():  # placed at the entry's first key: its own key is above
        depth = len(text) - len(text.lstrip(" "))
        line = next((n for n in range(line - 1, -1, -1) if lines[n].strip()
                     and len(lines[n]) - len(lines[n].lstrip(" ")) < depth), -1)
        key = _FIRST_KEY.match(lines[line]) if line >= 0 else None
    if key is None or key.group("rest").strip() not in ("", "{}") or key.group("dash"):
        return []
    depth = len(lines[line]) - len(lines[line].lstrip(" "))
    for n in range(line + 1, len(lines)):  # a `params:` the entry writes already (`{}`): rewritten
        text = lines[n]
        if text.strip() and len(text) - len(text.lstrip(" ")) <= depth:
            break
        at = re.match(r"^\s*params\s*:", text)
        if at is not None:
            comment = re.search(r"\s+#.*$", text[at.end():])
            end = at.end() + comment.start() if comment else len(text)
            return [Fix(f"Declare `params: {flow}`", (Edit(n, at.end(), n, end, f" {flow}"),), preferred=True)]
    indent = _child_indent(lines, line)
    return [Fix(f"Declare `params: {flow}`", (Edit(line + 1, 0, line + 1, 0, f"{' ' * indent}params: {flow}\n"),),
                preferred=True)]


def _add_replaces(d: Diagnostic, lines: list[str]) -> list[Fix]:
    assert d.hint is not None
    if "write `replaces: true`" not in d.hint:
        return []
    title = "Write `replaces: true`"
    if "at its top" in d.hint:  # a whole file: after the lines that say what it is
        at = 0
        for n, text in enumerate(lines):
            if re.match(r"^(format|ruleset|extends)\s*:", text):
                at = n + 1
            elif text.strip() and not text.lstrip().startswith("#") and not text.startswith("---"):
                break
        return [Fix(title + " at the top of the file", (Edit(at, 0, at, 0, "replaces: true\n"),), preferred=True)]
    line = d.line - 1
    key = _FIRST_KEY.match(lines[line])
    if key is None:
        return []
    rest = key.group("rest")
    if key.group("dash"):  # `- id: X`: a key of the list entry
        indent = len(key.group("indent")) + len(key.group("dash"))
        return [Fix(title, (Edit(line + 1, 0, line + 1, 0, f"{' ' * indent}replaces: true\n"),), preferred=True)]
    if key.group("key") == "id":
        return [Fix(title, (Edit(line + 1, 0, line + 1, 0, f"{key.group('indent')}replaces: true\n"),),
                    preferred=True)]
    flow = re.match(r"^\s*\{", rest)
    if flow is not None:  # `name: {a: 1}`: the key written first inside the braces
        column = len(lines[line]) - len(rest) + flow.end()
        inside = rest[flow.end():].strip()
        text = "replaces: true" + (", " if inside and not inside.startswith("}") else "")
        return [Fix(title, (Edit(line, column, line, column, text),), preferred=True)]
    if rest.strip() and not rest.strip().startswith("#"):
        return []  # a scalar: nothing to add a key to
    indent = _child_indent(lines, line)
    return [Fix(title, (Edit(line + 1, 0, line + 1, 0, f"{' ' * indent}replaces: true\n"),), preferred=True)]


def _remove_replaces(d: Diagnostic, lines: list[str]) -> list[Fix]:
    assert d.hint is not None
    if d.hint.strip() != "remove `replaces: true`":
        return []
    line = d.line - 1
    if not re.match(r"^\s*replaces\s*:\s*(true|yes|on)?\s*(#.*)?$", lines[line], re.IGNORECASE):
        return []
    return [Fix("Remove `replaces: true`", (Edit(line, 0, line + 1, 0, ""),), preferred=True)]


def _child_indent(lines: list[str], line: int) -> int:
    """The indentation of the keys inside the mapping whose key is on `line`."""
    own = len(lines[line]) - len(lines[line].lstrip(" "))
    for text in lines[line + 1:]:
        if text.strip() and not text.lstrip().startswith("#"):
            depth = len(text) - len(text.lstrip(" "))
            return depth if depth > own else own + 2
    return own + 2


def _yaml_scalar(text: str) -> str:
    return f'"{text}"' if _TYPE_NEEDS_QUOTES.search(text) else text
