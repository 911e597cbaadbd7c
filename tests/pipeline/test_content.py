"""pipeline.content: the rows `legacies content` lists (COMP-3..COMP-6 counts read
from them, files and lines that point at each item)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from legacies.pipeline.content import ContentError, content_rows

REPO = Path(__file__).resolve().parents[2]


def test_legacies_content_at_the_rulebooks_counts() -> None:
    rows = content_rows("legacies")
    kinds = Counter(r.kind for r in rows)
    assert (kinds["player_card"], kinds["successor_card"], kinds["event"], kinds["heirloom"]) == (150, 60, 45, 70)
    assert (kinds["character"], kinds["legendary_figure"], kinds["scoring_tile"], kinds["global_action"]) == \
        (10, 8, 12, 8)
    assert Counter(r.column("century") for r in rows if r.kind == "player_card") == {1: 50, 2: 50, 3: 50}


def test_each_row_points_at_its_item() -> None:
    for row in content_rows("legacies", "events")[:5] + content_rows("legacies", "heirloom")[:5]:
        text = (REPO / row.file).read_text(encoding="utf-8").splitlines() if not Path(row.file).is_absolute() \
            else Path(row.file).read_text(encoding="utf-8").splitlines()
        assert f"id: {row.id}" in text[row.line - 1], (row, text[row.line - 1])


def test_a_kind_by_its_name_or_plural_and_unknown_kinds_refused() -> None:
    assert content_rows("legacies", "events") == content_rows("legacies", "event")
    with pytest.raises(ContentError, match="no kind `dragons` in legacies; its kinds: industry, "):
        content_rows("legacies", "dragons")  # none near: the kinds there are (a user's trial: `cards` got none)
    with pytest.raises(ContentError, match="no kind `cards` in legacy; its kinds: resource_card, legacy_card$"):
        content_rows("legacy", "cards")
    # a user's trial: `new` offered the kind meant, `content` did not
    with pytest.raises(ContentError, match="no kind `sucessor` in legacies; did you mean successor_card\\?$"):
        content_rows("legacies", "sucessor")
    with pytest.raises(ContentError, match="no ruleset `nope`"):
        content_rows("nope")
