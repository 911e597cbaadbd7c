"""The generated parts of the language reference (docs/language.md): the registry's
reference between its markers and the grammar's keyword list, rewritten from
dsl/constructs.py and dsl/grammar.py.

    python -m legacies.dsl.language_doc docs/language.md
"""

from __future__ import annotations

import re
import sys

from .constructs import reference_markdown
from .grammar import keywords

START, END = "<!-- reference:start -->\n", "<!-- reference:end -->"
KEYWORDS_LINE = re.compile(r"^(\| Keywords \| `)[a-z ]+(`)", re.M)


def updated_reference(text: str) -> str:
    """The markdown with the reference (between its markers) and the keyword list (the
    first `...` of the line that starts `| Keywords |`) as the registry and grammar say."""
    i, j = text.index(START) + len(START), text.index(END)
    updated = text[:i] + reference_markdown() + text[j:]
    listed = " ".join(sorted(keywords()))
    return KEYWORDS_LINE.sub(lambda m: m.group(1) + listed + m.group(2), updated, count=1)


def update_reference(path: str) -> bool:
    """Rewrite the generated parts of a markdown file; True if it changed."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    updated = updated_reference(text)
    if updated != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(updated)
    return updated != text


if __name__ == "__main__":  # pragma: no cover
    if len(sys.argv) > 1:
        print("updated" if update_reference(sys.argv[1]) else "up to date")
    else:
        print(reference_markdown())
