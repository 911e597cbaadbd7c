"""What a ruleset's content holds: one row per item (id, kind, name, the attributes the
ruleset's `display: content:` names as columns where the item has them, file and line),
for `legacies content` and for designers' own scripts."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from legacies.dsl.errors import LegaciesError

from .ruleset import load_ruleset, rulesets


@dataclass(frozen=True)
class ContentRow:
    ruleset: str
    id: str
    kind: str
    name: str
    columns: tuple[tuple[str, object], ...]  # (attribute, value or None): the ruleset's `display: content:`
    file: str
    line: int

    def column(self, name: str) -> object:
        return dict(self.columns).get(name)

    def as_dict(self) -> dict[str, object]:
        """{ruleset, id, kind, name, each column by its name, file, line}."""
        row = asdict(self)
        del row["columns"]
        return {**{k: row[k] for k in ("ruleset", "id", "kind", "name")}, **dict(self.columns),
                "file": row["file"], "line": row["line"]}


class ContentError(LegaciesError):
    """The ruleset is not installed, does not load, or has no such kind (exit code 2)."""

    usage = True


def content_rows(ruleset: str | None = None, kind: str | None = None, root: str | None = None,
                 expansions: tuple[str | Path, ...] = ()) -> list[ContentRow]:
    """Every item of `ruleset` (all installed rulesets when None), in file order, with
    expansion folders laid over it; `kind` keeps one kind (its name, plural or label, as
    `legacies new` takes it: `crates`, `wooden crate`)."""
    names = [ruleset] if ruleset else rulesets()
    rows: list[ContentRow] = []
    kind_found = kind is None
    known: dict[str, str] = {}  # every kind's words, for what an unknown kind may have meant
    for name in names:
        if root is None and name not in rulesets():
            raise ContentError(f"no ruleset `{name}`; installed: {', '.join(rulesets()) or 'none'}")
        loaded = load_ruleset(name, root, expansions)
        build = loaded.build
        if build is None or build.vocab is None:
            first = loaded.diagnostics[0].headline() if loaded.diagnostics else "it did not load"
            raise ContentError(f"ruleset `{name}` does not load ({first}); run `legacies validate`")
        words = kind_words(build.vocab.kinds)
        known.update(words)
        wanted = words.get(word_key(kind), kind) if kind is not None else None
        if wanted is not None and wanted in build.vocab.kinds:
            kind_found = True
        built = loaded.built_spec
        shown = built.content_columns if built is not None else []
        for item_id, (f, path, item) in build.items.items():
            if wanted is not None and item.kind != wanted:
                continue
            columns = tuple((c, _plain(item.attributes.get(c))) for c in shown)
            rows.append(ContentRow(name, item_id, item.kind, item.name, columns, _shown_path(f.label),
                                   f.position(path)[0]))
    if not kind_found:
        close = close_kinds(str(kind), known)
        kinds = list(dict.fromkeys(known.values()))  # a kind's name once, though its plural and label find it too
        hint = f"; did you mean {', '.join(close)}?" if close else \
            f"; its kinds: {', '.join(kinds[:12])}{', ...' if len(kinds) > 12 else ''}" if kinds else ""
        raise ContentError(f"no kind `{kind}` in {ruleset or 'any installed ruleset'}{hint}")
    return rows


def _plain(value: object) -> object:
    """A column's value as a script reads it: a number, text or a list; None when absent."""
    return value if isinstance(value, (int, str, list, bool)) else None


def _shown_path(label: str) -> str:
    """A file as a designer finds it: relative to the working folder when it is inside it."""
    try:
        return str(Path(label).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return label


def word_key(word: str) -> str:
    """A kind's word as it is matched: lower case, spaces as underscores."""
    return word.strip().lower().replace(" ", "_")


def kind_words(kinds: Mapping[str, Any]) -> dict[str, str]:
    """Each word a kind goes by (its name, plural and label, as `word_key` writes them)
    -> the kind; a word two kinds share means the first."""
    words: dict[str, str] = {}
    for kind, decl in kinds.items():
        for word in (kind, getattr(decl, "plural", None), getattr(decl, "label", None)):
            if word:
                words.setdefault(word_key(word), kind)
    return words


def close_kinds(name: str, names: Mapping[str, str]) -> list[str]:
    """The kinds `name` may have meant (`names`: `kind_words`), each said once, at most four:
    spelt nearly so, or holding it as a word (`crate` in `wooden_crate`)."""
    wanted = word_key(name)
    close = difflib.get_close_matches(wanted, list(names), n=3, cutoff=0.6)
    close += [n for n in names if wanted and wanted in n.split("_") and n not in close]
    return list(dict.fromkeys(names[c] for c in close))[:4]  # a kind's name, plural and label: said once
