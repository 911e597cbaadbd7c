"""What the tests of `legacies serve` share: rulesets loaded once, a ServedTable behind
Starlette's TestClient, and a page's messages read until the one wanted arrives."""

from __future__ import annotations

import re
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, Callable, Iterator

from starlette.testclient import TestClient

from legacies.agents.session import TableSession
from legacies.interpreter.display import hidden_from
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.ruleset import load_ruleset
from legacies.cli.web.app import make_app
from legacies.cli.web.table import ServedTable

PIECE = re.compile(r'"p(\d+)"')
HOSTILE_NAMES = {"Birch": "<img src=x onerror=f()>", "Cedar": "<script>f()</script>"}
MAPPED = Path(__file__).parents[2] / "interpreter" / "fixtures" / "mapped"


@cache
def spec(name: str, expansion: str = "", root: str | None = None) -> GameSpec:
    loaded = load_ruleset(name, root, [expansion] if expansion else [])
    assert loaded.spec is not None, loaded.diagnostics[:3]
    return loaded.spec


def hostile_ruleset(folder: Path) -> str:
    """The `mapped` fixture with names written as markup (copied into `folder`)."""
    import shutil

    target = folder / "hostile"
    shutil.copytree(MAPPED, target)
    for item in (target / "content").rglob("*.yaml"):
        text = item.read_text(encoding="utf-8")
        for name, markup in HOSTILE_NAMES.items():
            text = text.replace(f"name: {name}", f'name: "{markup}"')
        item.write_text(text, encoding="utf-8")
    return str(target)


@contextmanager
def served(game: GameSpec, seats: list[str], seed: int = 0, save: Path | None = None,
           names: list[str] | None = None) -> Iterator[tuple[ServedTable, TestClient]]:
    table = ServedTable(TableSession(game, seats, seed, names=names), save)
    with TestClient(make_app(table)) as client:
        yield table, client


def ws_path(table: ServedTable, seat: int) -> str:
    return f"/t/{table.tokens[seat]}/ws"


def until(ws: Any, wanted: Callable[[dict[str, Any]], bool], limit: int = 10_000) -> dict[str, Any]:
    """The first message from `ws` that is `wanted` (the others read past)."""
    for _ in range(limit):
        message = ws.receive_json()
        if wanted(message):
            return dict(message)
    raise AssertionError("the message never came")


def asked_at(number: int) -> Callable[[dict[str, Any]], bool]:
    """A view of the seat asked decision `number` or later (or of a finished game)."""
    def wanted(m: dict[str, Any]) -> bool:
        if m["type"] != "view":
            return False
        d = m["view"]["decision"]
        return m["view"]["result"] is not None or (d is not None and d["yours"] and d["number"] >= number)
    return wanted


def hidden_pieces(table: ServedTable, seat: int) -> set[int]:
    st = table.session.state.st
    return {pid for pid in range(len(st.loc)) if hidden_from(st, pid, seat)}


def named_pieces(text: str) -> set[int]:
    return {int(m.group(1)) for m in PIECE.finditer(text)}
