"""The lines of effect text in every shipped rules and content file, as the language
server finds them (cli/lsp/query.py: an item's effect attributes, `requires:`, a
procedure's `do:`, an action's `choose:`/`if:`/`do:`, a definition's `value:`, setup,
game): {path: [0-based line, ...]}, for test/check-grammar.js to compare with what the
grammar highlights as effect text. Needs legacies installed (`pip install -e .`)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from importlib import resources

from legacies.cli.lsp.check import Check, check_document
from legacies.cli.lsp.query import effects_in, file_of, rule_texts, text_lines
from legacies.pipeline.files import RULES_PACKAGE, installed_rulesets
from legacies.pipeline.stack import Expansion, installed_expansions


def main() -> None:
    lines: dict[str, set[int]] = {}
    stacks = [(name, None) for name in installed_rulesets()] + [(e.extends, e) for e in installed_expansions()]
    for name, expansion in stacks:
        check = _check(name, expansion)
        check.labels = {f.label: p for f in check.files if (p := file_of(check, f.label)) is not None}
        for f in check.files:
            path = file_of(check, f.label)
            if path is None:
                continue
            found = lines.setdefault(str(path), set())
            spans = [span for _, span, _, _ in effects_in(check, path)]
            if f.kind != "content" and isinstance(f.data, dict):
                spans += [s for where in rule_texts(f.data) if (s := text_lines(f, where)) is not None]
                spans += [s for where in _conditions(f.data) if (s := text_lines(f, where)) is not None]
            for first, last in spans:
                text = f.lines
                key = text[first - 1]
                if key.rstrip().endswith(("|", ">", "|-", ">-", "|+", ">+")):  # a block: the lines below the key
                    found.update(n for n in range(first, last) if text[n].strip())
                else:  # on the key's line (and any folded lines after it); a list's key alone, below it
                    start = first if _BARE_KEY.match(key) else first - 1
                    found.update(n for n in range(start, last) if text[n].strip() and not _BARE_ITEM.match(text[n]))
    json.dump({path: sorted(found) for path, found in sorted(lines.items())}, sys.stdout, indent=0)


_BARE_ITEM = re.compile(r"^\s*-\s*([|>][-+0-9]*)?\s*(#.*)?$")  # `- |`: a list's item, its text below
_BARE_KEY = re.compile(r"^\s*(-\s+)?[A-Za-z_][A-Za-z0-9_]*:\s*(#.*)?$")  # `benefits:`: a list's key


def _conditions(data: object, where: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """The paths of every `if:` condition (a restriction's, a display line's) and display
    `rows:` of a rules file: effect language too."""
    found: list[tuple[object, ...]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("if", "rows") and isinstance(value, str):
                found.append(where + (key,))
            elif key != "labels":  # labels are words, never effect text
                found += _conditions(value, where + (key,))
    elif isinstance(data, list):
        for n, value in enumerate(data):
            found += _conditions(value, where + (n,))
    return found


def _check(name: str, expansion: Expansion | None) -> Check:
    """A check of the ruleset (with the expansion laid over it), from one of its files."""
    if expansion is None:
        path = Path(str(resources.files(RULES_PACKAGE).joinpath(name, "ruleset.yaml")))
    else:
        path = next(p for p in sorted(Path(str(expansion.folder)).rglob("*.yaml")) if {"rules", "content"} & set(p.parts))
    check = check_document(path, {path: path.read_text(encoding="utf-8")})
    assert check.ok, [d.headline() for d in check.diagnostics if d.severity == "error"][:3]
    return check


if __name__ == "__main__":
    main()
