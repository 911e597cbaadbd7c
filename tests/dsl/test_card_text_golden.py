"""Card text reads like a printed card: the generated text of every item of the shipped
Legacy ruleset and of the Mini Legacies fixture (characters, heirlooms, events, figures,
opportunities, successors, cards...), pinned word for word. A change in the renderer,
the labels or an effect shows here as a diff to read.
After an intended change: UPDATE_GOLDEN=1 python -m pytest tests/dsl/test_card_text_golden.py"""

from __future__ import annotations

import os
from pathlib import Path

from legacies.pipeline.explain import card_texts

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "card_text.txt"
RULESETS = [("legacy", None), ("legacies", None),
            ("minilegacies", str(ROOT / "tests" / "fixtures" / "minilegacies"))]


def _all_text() -> str:
    out = []
    for name, root in RULESETS:
        for item, text in card_texts(name, root).items():
            out.append(f"[{name}] {item}\n" + "\n".join("  " + line for line in text.splitlines()))
    return "\n\n".join(out) + "\n"


def test_card_text_of_every_item_matches_its_golden_file() -> None:
    text = _all_text()
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_the_golden_file_holds_thirty_varied_items() -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    items = [line for line in text.splitlines() if line.startswith("[")]
    assert len(items) >= 30
    assert {line.split("]")[0] for line in items} == {"[legacy", "[legacies", "[minilegacies"}


def test_card_text_shows_no_ids_letters_or_bookkeeping() -> None:
    """Names, not ids (`the Duke`, not `duke`); no variable letters; no `log`."""
    text = GOLDEN.read_text(encoding="utf-8")
    body = "\n".join(line for line in text.splitlines() if not line.startswith("["))
    for word in ("_", " K ", " X ", " P ", "K's", "X's", "P's", "log ", "announce"):
        assert word not in body, word
