"""Screen snapshots of the full-screen table (pytest-textual-snapshot): each ruleset and
installed expansion at 80x24 a few decisions in, and the map and the row of places at
160x50, compared with the SVGs checked in under __snapshots__/. A change of the table's
look shows as a failing comparison with a picture of both; `python -m pytest
tests/cli/test_table_snapshots.py --snapshot-update` takes the new look once it is right."""

from __future__ import annotations

from typing import Any

import pytest

from legacies.cli.tui.app import TableApp

from .test_table_app import TABLES, session

SHOTS = [(key, players, (80, 24), ()) for key, players in TABLES] + [
    ("gears-of-time", 3, (160, 50), ()),
    ("leaders-legacy+fame-and-fortune", 3, (160, 50), ("m",)),
    ("legacies", 4, (160, 50), ("l",)),
]


@pytest.mark.parametrize("key,players,size,keys", SHOTS,
                         ids=[f"{k}-{s[0]}x{s[1]}{'-' + ''.join(keys) if keys else ''}" for k, _, s, keys in SHOTS])
def test_the_table_looks_as_it_did(snap_compare: Any, key: str, players: int, size: tuple[int, int],
                                   keys: tuple[str, ...]) -> None:
    app = TableApp(session(key, players, seed=2), threaded=False)
    assert snap_compare(app, terminal_size=size, press=["enter"] * 10 + list(keys))
