"""`serve_ms_per_action` for `legacies bench`: a server in this process (uvicorn in a
thread, loopback), a page's WebSocket answering a game of the Legacy card game against a
random bot; each figure is the wall time from an answer sent to the first view of the game after
it received (the view built, sent and read). The median, in milliseconds."""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from legacies.agents.session import TableSession
from legacies.pipeline.ruleset import load_ruleset, rulesets

from .server import ServerThread
from .table import ServedTable

RULESET, SEATS, SEED = "legacy", ["human", "random"], 15


def serve_ms_per_action(quick: bool) -> dict[str, Any] | None:
    """The median ms from an answer sent to the fresh view received (None: not measurable here)."""
    from websockets.sync.client import connect

    if RULESET not in rulesets():
        return None
    loaded = load_ruleset(RULESET)
    if loaded.spec is None:
        return None
    table = ServedTable(TableSession(loaded.spec, SEATS, SEED))
    times: list[float] = []
    with ServerThread(table) as server:
        with connect(f"{server.base.replace('http://', 'ws://')}/t/{table.tokens[0]}/ws", open_timeout=60) as ws:
            ws.send(json.dumps({"type": "view"}))
            last = -1
            while len(times) < (10 if quick else 40):
                message = json.loads(ws.recv(timeout=60))
                view = message.get("view") if message["type"] == "view" else None
                if view is None or view["result"] is not None:
                    if view is not None:
                        break
                    continue
                d = view["decision"]
                if d is None or not d["yours"] or d["number"] <= last:
                    continue
                last = d["number"]
                started = time.perf_counter()
                ws.send(json.dumps({"type": "answer", "decision": last, "takebacks": d["takebacks"], "option": 0}))
                while True:  # the first view of the game after the answer
                    reply = json.loads(ws.recv(timeout=60))
                    if reply["type"] == "refused" or (reply["type"] == "view" and reply["view"]["decisions"] > last):
                        break
                if reply["type"] == "view":
                    times.append((time.perf_counter() - started) * 1e3)
                else:
                    last -= 1  # refused: choose again at the same decision
    if not times:
        return None
    return {"ms": statistics.median(times), "max_ms": max(times), "actions": len(times), "ruleset": RULESET}
