"""A balance run's report: `report.json` (every number, for tools and for comparing
runs) and `report.html` (one self-contained page, its charts drawn as inline SVG, no
script and nothing fetched: it reads offline and prints).

What it holds (see docs/cli.md): win rates by seat (a bot by its kind, a seat the rules
by its seat kind, so two kinds of seats the rules run are two bars, beside the
fair share 1/players), by turn position (the place in turn order when the first turn
began: the rules may sort it) and by seat number when those differ, and by each
starting choice, with 95% Wilson intervals; the distribution of scores and of game
length; for every content item how often players chose it (or it was drawn for them)
and the win rate of players who had it against those who did not (Newcombe interval of
the gap), largest gaps first (an item with little data after every other), with how many intervals exclude 0 by chance and which
gaps survive a Benjamini-Hochberg correction (and how many a Holm one); how many times
each kind of bot seat chose each action of the ruleset's menus, per player per game;
branch coverage: which `if` branches, `choose one` options and `may` answers ran, listing
those no game ran apart from those the run's options rule out; and for a ruleset that
draws a map, where the games ended on it (agents/report_map.py).
"""

from __future__ import annotations

import html
import json
from typing import Any

from .bots import BOTS, SEARCH_ITERATIONS
from .comparison import comparison_html
from .report_changes import what_if_html
from .report_map import map_section, map_summary
from .simulate import ANOTHER_PLAYERS, GameRecord, Simulation
from .stats import LITTLE_DATA, LITTLE_GAMES, benjamini_hochberg, difference, histogram, holm, summary, two_proportion_p, wilson

ALPHA = 0.05  # the intervals are 95%; a correction keeps the items whose adjusted p is below this

FORMAT = "legacies-simulation-report/1"


# --------------------------------------------------------------------------- numbers
def _rate(wins: int, games: int) -> dict[str, Any]:
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games if games else None, "ci": [lo, hi]}


def _players(records: list[GameRecord]) -> list[tuple[GameRecord, int]]:
    return [(r, p) for r in records for p in range(len(r.seats))]


def build_report(sim: Simulation) -> dict[str, Any]:
    req = sim.request
    records = sim.records
    seats = _players(records)
    by_seat: dict[str, list[int]] = {}
    for r, p in seats:
        tally = by_seat.setdefault(seat_label(r, p), [0, 0])
        tally[0] += r.winner == p
        tally[1] += 1
    by_seat_number = [[sum(r.winner == p for r in records), len(records)] for p in range(req.players)]
    by_position = [[0, 0] for _ in range(req.players)]
    for r, p in seats:
        tally = by_position[turn_position(r, p) - 1]
        tally[0] += r.winner == p
        tally[1] += 1
    resorted = sum(r.first_order is not None and r.first_order != list(range(len(r.seats))) for r in records)
    by_choice: dict[str, list[dict[str, Any]]] = {}
    for name in sim.starting_choices:
        tallies: dict[str, list[int]] = {}
        for r, p in seats:
            tally = tallies.setdefault(r.starting[p].get(name, "?"), [0, 0])
            tally[0] += r.winner == p
            tally[1] += 1
        rows = [{"value": value, **_rate(w, n)} for value, (w, n) in tallies.items()]
        by_choice[name] = sorted(rows, key=lambda row: (-(row["rate"] or 0), row["value"]))
    scores = [float(r.scores[p]) for r, p in seats]
    winning = [float(r.scores[r.winner]) for r in records if 0 <= r.winner < len(r.scores)]
    decisions = [float(r.decisions) for r in records]
    turns = [float(r.turns) for r in records]
    endings: dict[str, int] = {}  # games the rules ended (`end the game`), by their reason
    for r in records:
        if r.ending is not None:
            reason = r.ending or "(no reason given)"
            endings[reason] = endings.get(reason, 0) + 1
    items = _items(sim, seats)
    comparisons = correct_for_many(items)
    drawn = map_summary(records)  # a ruleset that draws a map: who held each place at the end
    return {
        "format": FORMAT,
        "ruleset": req.ruleset,
        "players": req.players,
        "seats": list(req.seats),
        "options": dict(req.options),
        "games": len(records),
        "seed": req.seed,
        # what each search seat thought per decision (null: the bot's fixed count); with
        # seconds, the moves depend on the machine: the numbers do not repeat exactly
        "search": {"iterations": req.search_iterations if req.search_iterations is not None
                   else None if req.search_think is not None else SEARCH_ITERATIONS,
                   "think": req.search_think} if "search" in req.seats else None,
        # the options each greedy seat applied per decision (its lookahead)
        "greedy": {"lookahead": sim.greedy_lookahead} if "greedy" in req.seats else None,
        "unfinished": sum(not r.finished for r in records),
        "ended_by_rules": [{"reason": reason, "games": n}
                           for reason, n in sorted(endings.items(), key=lambda kv: (-kv[1], kv[0]))],
        "run": {"where": sim.where, "workers": sim.workers, "seconds": sim.seconds,
                "games_per_s": len(records) / sim.seconds if sim.seconds else None, "decisions": sim.decisions},
        "fair_share": 1 / req.players,
        "win_rate_by_seat": [{"seat": kind, **_rate(w, n)} for kind, (w, n) in by_seat.items()],
        # the position in turn order when the first turn began (the rules may sort it:
        # a ruleset re-sorts it), not the seat number; `games_resorted`: games where they differ
        "win_rate_by_position": [{"position": p + 1, **_rate(w, n)} for p, (w, n) in enumerate(by_position)],
        "win_rate_by_seat_number": [{"seat_number": p + 1, **_rate(w, n)} for p, (w, n) in enumerate(by_seat_number)],
        "games_resorted": resorted,
        "win_rate_by_starting_choice": by_choice,
        "scores": {"all": summary(scores), "winners": summary(winning), "histogram": histogram(scores)},
        "length": {"decisions": summary(decisions), "turns": summary(turns), "histogram": histogram(decisions)},
        "items": items,
        "multiple_comparisons": comparisons,
        "actions": _actions(sim, seats),
        "coverage": _coverage(sim),
        **({"map": drawn} if drawn is not None else {}),
    }


def seat_label(r: GameRecord, p: int) -> str:
    """What the report calls a seat: its kind (a bot's, or one of the ruleset's seat kinds:
    two kinds of seats the rules run are two bars)."""
    return r.seats[p]


def turn_position(r: GameRecord, p: int) -> int:
    """A player's place in turn order when the first turn began (1 is first); their seat
    number when the game had no turn."""
    return r.first_order.index(p) + 1 if r.first_order is not None and p in r.first_order else p + 1


def _items(sim: Simulation, seats: list[tuple[GameRecord, int]]) -> list[dict[str, Any]]:
    """Every content item: how often chosen (or drawn), and the win-rate gap of having it.

    An item players choose (a card played, bought, taken): the win rate of the players who
    chose it minus that of those who did not. An item no one chooses but whose effect ran
    for a player (an event resolved, a solo card played: drawn): the win rate of the
    players it ran for minus that of the same kind of seat when it did not run for them."""
    total = len(seats)
    all_wins = sum(r.winner == p for r, p in seats)
    played: dict[str, list[int]] = {}
    for r, p in seats:
        for chosen in r.chosen[p]:
            tally = played.setdefault(chosen, [0, 0])
            tally[0] += r.winner == p
            tally[1] += 1
    drawn_for: dict[str, list[tuple[GameRecord, int]]] = {}
    for r, p in seats:
        for drawn in (r.drawn[p] if p < len(r.drawn) else ()):
            drawn_for.setdefault(drawn, []).append((r, p))
    out: list[dict[str, Any]] = []
    for item in sim.items:
        wins, games = played.get(item["id"], [0, 0])
        row: dict[str, Any] = {**item, "games_played": games, "play_rate": games / total if total else 0.0,
                               "games_drawn": 0, "drawn_rate": 0.0, "basis": "chosen"}
        if games or item["id"] not in drawn_for:
            with_, without = (wins, games), (all_wins - wins, total - games)
        else:
            with_, without, row["games_drawn"] = _drawn_groups(sim.records, drawn_for[item["id"]])
            row["drawn_rate"] = row["games_drawn"] / len(sim.records) if sim.records else 0.0
            row["basis"] = "drawn"
        gap = difference(*with_, *without)
        # few players had it, or only in a few games: its interval is listed, it never comes first
        row["little_data"] = with_[1] < LITTLE_DATA or (row["basis"] == "drawn" and row["games_drawn"] < LITTLE_GAMES)
        out.append({**row, "win_rate_played": _rate(*with_), "win_rate_not": _rate(*without),
                    "gap": gap[0] if gap else None, "gap_ci": [gap[1], gap[2]] if gap else None,
                    "p": two_proportion_p(*with_, *without) if gap else None})
    # largest gaps first, each counted only as far as its interval supports (a gap whose
    # interval holds 0 counts 0): one lucky player choosing a rare card does not top the
    # list. Items no one (or everyone) chose have no gap and come last.
    # An item with little data (LITTLE_DATA) comes after every item with enough.
    out.sort(key=lambda row: (row["gap"] is None, row["little_data"], -supported_gap(row), -abs(row["gap"] or 0),
                              row["id"]))
    return out


def _actions(sim: Simulation, seats: list[tuple[GameRecord, int]]) -> dict[str, Any]:
    """How often each kind of bot seat chose each action: the actions of each menu of the
    ruleset in order (`menu` null: the actions chosen that join no menu: a `perform` list's,
    a response window's), each followed by its count on another player's pieces (the
    action's name and ANOTHER_PLAYERS) when any game had one; and for each kind the
    players it seated (one a game a seat), each action's times chosen in all and per
    player per game."""
    in_menus = [a for names in sim.menus.values() for a in names]
    chosen = {a for r, p in seats if p < len(r.actions) for a in r.actions[p]}
    others = sorted({a for a in chosen if not a.endswith(ANOTHER_PLAYERS)} - set(in_menus))

    def rows(names: list[str]) -> list[str]:  # each action, then its count on another player's pieces if any
        return [row for a in names for row in (a, a + ANOTHER_PLAYERS) if row == a or row in chosen]

    groups: list[dict[str, Any]] = [{"menu": menu, "actions": rows(list(names))} for menu, names in sim.menus.items()
                                    if names]
    if others:
        groups.append({"menu": None, "actions": rows(others)})
    listed = [a for g in groups for a in g["actions"]]
    by_seat = []
    for kind in dict.fromkeys(r.seats[p] for r, p in seats):
        if kind not in BOTS:  # the seats the rules run choose nothing through an agent
            continue
        mine = [(r, p) for r, p in seats if r.seats[p] == kind]
        total = {a: sum(r.actions[p].get(a, 0) for r, p in mine if p < len(r.actions))
                 for a in dict.fromkeys(listed)}
        by_seat.append({"seat": kind, "players": len(mine), "total": total,
                        "per_game": {a: n / len(mine) for a, n in total.items()}})
    return {"groups": groups, "by_seat": by_seat}


def actions_lines(report: dict[str, Any]) -> list[str]:
    """The actions table of a report as text: a row per action under its menu, a column per
    kind of bot seat (times chosen per player per game)."""
    acts = report.get("actions") or {}
    by_seat = acts.get("by_seat") or []
    if not by_seat or not acts.get("groups"):
        return []
    names = [a for g in acts["groups"] for a in g["actions"]]
    width = max([16] + [len(a) + 4 for a in names] + [len(g["menu"] or "") + 2 for g in acts["groups"]])
    cols = [max(7, len(row["seat"])) for row in by_seat]
    out = ["actions chosen per player per game:",
           " " * width + "  ".join(f"{row['seat']:>{w}}" for row, w in zip(by_seat, cols))]
    for g in acts["groups"]:
        out.append(f"  {g['menu'] or 'other actions'}")
        for a in g["actions"]:
            out.append(f"    {a:<{width - 4}}" + "  ".join(f"{row['per_game'].get(a, 0):>{w}.2f}"
                                                        for row, w in zip(by_seat, cols)))
    return out


def _drawn_groups(records: list[GameRecord], had: list[tuple[GameRecord, int]]) -> tuple[tuple[int, int],
                                                                                          tuple[int, int], int]:
    """(wins, players) it was drawn for; (wins, players) of the same kind of seat it was
    not drawn for; how many games it was drawn in. Compared seat by seat: a kind of seat
    that always (or never) has it is left out, so a seat that draws every solo card is
    never set against one that draws some."""
    mine = {(id(r), p) for r, p in had}
    with_: dict[str, list[tuple[GameRecord, int]]] = {}
    without: dict[str, list[tuple[GameRecord, int]]] = {}
    for r in records:
        for p in range(len(r.seats)):
            (with_ if (id(r), p) in mine else without).setdefault(seat_label(r, p), []).append((r, p))
    kept = [label for label in with_ if without.get(label)]
    a = [x for label in kept for x in with_[label]]
    b = [x for label in kept for x in without[label]]
    return ((sum(r.winner == p for r, p in a), len(a)), (sum(r.winner == p for r, p in b), len(b)),
            len({id(r) for r, _ in had}))


def correct_for_many(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Hundreds of 95% intervals: about 5% of them exclude 0 by chance alone. Each item
    with a gap gets its p-value adjusted by Holm (familywise) and Benjamini-Hochberg
    (false discovery rate); `survives` marks those still below ALPHA after BH."""
    measured = [row for row in items if row.get("p") is not None]
    bh = benjamini_hochberg([row["p"] for row in measured])
    hm = holm([row["p"] for row in measured])
    for row, q, h in zip(measured, bh, hm):
        row["p_bh"], row["p_holm"], row["survives"] = q, h, q < ALPHA
    for row in items:
        row.setdefault("survives", False)
    excluding = sum(1 for row in measured if row["gap_ci"][0] > 0 or row["gap_ci"][1] < 0)
    return {"items_with_a_gap": len(measured), "intervals_excluding_zero": excluding,
            "expected_by_chance": ALPHA * len(measured), "survive_benjamini_hochberg": sum(q < ALPHA for q in bh),
            "survive_holm": sum(h < ALPHA for h in hm), "alpha": ALPHA}


def supported_gap(row: dict[str, Any]) -> float:
    """How far from 0 an item's gap surely is: its interval's nearer end, 0 when the
    interval holds 0."""
    if row["gap_ci"] is None:
        return 0.0
    lo, hi = row["gap_ci"]
    return lo if lo > 0 else -hi if hi < 0 else 0.0


def _coverage(sim: Simulation) -> dict[str, Any]:
    """Branches that ran; those the run's options rule out (`cannot_run`: `if helpers > 0`
    in games without, and the branches inside them) apart from those that could have run
    and never did (`never_ran`)."""
    rows = [{"in": what, "file": file or None, "line": line or None, "column": column or None,
             "branch": branch, "runs": runs}
            for (what, file, line, column, branch), runs in sorted(sim.coverage.items(),
                                                                   key=lambda kv: (kv[0][1], kv[0][2], kv[0][3], kv[0][4]))]
    ruled_out = {key for key in sim.cannot_run if not sim.coverage.get(key)}
    cannot = [row for row in rows if row["runs"] == 0 and _key(row) in ruled_out]
    never = [row for row in rows if row["runs"] == 0 and _key(row) not in ruled_out]
    can = len(rows) - len(cannot)
    return {"branches": len(rows), "ran": len(rows) - len(never) - len(cannot),
            "share": (len(rows) - len(never) - len(cannot)) / can if can else None, "cannot_run": cannot,
            "never_ran": never, "all": rows}


def _key(row: dict[str, Any]) -> tuple[str, str, int, int, str]:
    return (row["in"], row["file"] or "", row["line"] or 0, row["column"] or 0, row["branch"])


def report_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=1, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- the page
BAR = "#3b6ea5"
WHISKER = "#1d2b3a"
FAIR = "#c0392b"
STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 980px; color: #1d2b3a; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccd; }
table { border-collapse: collapse; margin: .5em 0; font-size: 13px; }
td, th { padding: 2px 8px; border-bottom: 1px solid #e3e6ea; text-align: right; }
td:first-child, th:first-child, td.text { text-align: left; }
.note { color: #556; font-size: 13px; } svg { display: block; margin: .5em 0; } .chart text { font-size: 12px; }
svg.map { max-width: 100%; height: auto; }
table.whatif td { white-space: nowrap; }
"""


def _esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def rate_chart(rows: list[tuple[str, float | None, float, float]], fair: float | None, title: str) -> str:
    """Horizontal bars (rate) with 95% whiskers and a dashed line at the fair share."""
    label_w, plot_w, row_h = 230, 600, 22
    height = row_h * len(rows) + 40
    x = lambda v: label_w + v * plot_w  # noqa: E731 - a scale
    parts = [f'<svg class="chart" role="img" aria-label="{_esc(title)}" width="{label_w + plot_w + 60}" '
             f'height="{height}" xmlns="http://www.w3.org/2000/svg">']
    for tick in range(0, 11, 2):
        v = tick / 10
        parts.append(f'<line x1="{x(v):.1f}" y1="10" x2="{x(v):.1f}" y2="{height - 25}" stroke="#e3e6ea"/>'
                     f'<text x="{x(v):.1f}" y="{height - 8}" text-anchor="middle">{tick * 10}%</text>')
    for i, (label, rate, lo, hi) in enumerate(rows):
        y = 12 + i * row_h
        parts.append(f'<text x="{label_w - 8}" y="{y + 14}" text-anchor="end">{_esc(label[:34])}</text>')
        if rate is not None:
            parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{rate * plot_w:.1f}" height="{row_h - 8}" fill="{BAR}">'
                         f'<title>{_esc(label)}: {_pct(rate)} (95% {_pct(lo)} to {_pct(hi)})</title></rect>')
        parts.append(f'<line x1="{x(lo):.1f}" y1="{y + row_h / 2:.1f}" x2="{x(hi):.1f}" y2="{y + row_h / 2:.1f}" '
                     f'stroke="{WHISKER}" stroke-width="2"/>')
    if fair is not None:
        parts.append(f'<line x1="{x(fair):.1f}" y1="8" x2="{x(fair):.1f}" y2="{height - 25}" stroke="{FAIR}" '
                     f'stroke-dasharray="5,4" stroke-width="2"><title>fair share {_pct(fair)}</title></line>')
    parts.append("</svg>")
    return "".join(parts)


def gap_chart(rows: list[dict[str, Any]], title: str) -> str:
    """A forest plot: each item's win-rate gap (chose it minus did not) with its interval."""
    label_w, plot_w, row_h = 260, 560, 20
    rows = [row for row in rows if row["gap"] is not None]
    if not rows:
        return '<p class="note">No item was chosen by some players and not by others.</p>'
    span = max(0.05, max(max(abs(row["gap_ci"][0]), abs(row["gap_ci"][1])) for row in rows))
    height = row_h * len(rows) + 40
    x = lambda v: label_w + (v + span) / (2 * span) * plot_w  # noqa: E731 - a scale
    parts = [f'<svg class="chart" role="img" aria-label="{_esc(title)}" width="{label_w + plot_w + 40}" '
             f'height="{height}" xmlns="http://www.w3.org/2000/svg">',
             f'<line x1="{x(0):.1f}" y1="6" x2="{x(0):.1f}" y2="{height - 25}" stroke="{FAIR}" stroke-dasharray="5,4"/>']
    for v in (-span, -span / 2, 0.0, span / 2, span):
        parts.append(f'<text x="{x(v):.1f}" y="{height - 8}" text-anchor="middle">{100 * v:+.0f} pts</text>')
    for i, row in enumerate(rows):
        y = 10 + i * row_h + row_h / 2
        lo, hi = row["gap_ci"]
        parts.append(f'<text x="{label_w - 8}" y="{y + 4:.1f}" text-anchor="end">{_esc((row["name"] + " · " + row["id"])[:38])}</text>'
                     f'<line x1="{x(lo):.1f}" y1="{y:.1f}" x2="{x(hi):.1f}" y2="{y:.1f}" stroke="{WHISKER}" stroke-width="2"/>'
                     f'<circle cx="{x(row["gap"]):.1f}" cy="{y:.1f}" r="5" fill="{BAR}"><title>{_esc(row["name"])}: '
                     f'{100 * row["gap"]:+.1f} points (95% {100 * lo:+.1f} to {100 * hi:+.1f})</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def histogram_chart(hist: dict[str, list[float]], title: str, unit: str) -> str:
    edges, counts = hist["edges"], hist["counts"]
    if not counts:
        return '<p class="note">No games.</p>'
    plot_w, plot_h, left = 760, 180, 50
    top = max(counts) or 1
    bar_w = plot_w / len(counts)
    parts = [f'<svg class="chart" role="img" aria-label="{_esc(title)}" width="{left + plot_w + 20}" '
             f'height="{plot_h + 45}" xmlns="http://www.w3.org/2000/svg">',
             f'<text x="{left - 6}" y="16" text-anchor="end">{int(top)}</text>'
             f'<text x="{left - 6}" y="{plot_h + 10}" text-anchor="end">0</text>']
    for i, c in enumerate(counts):
        h = c / top * plot_h
        parts.append(f'<rect x="{left + i * bar_w + 1:.1f}" y="{10 + plot_h - h:.1f}" width="{max(1.0, bar_w - 2):.1f}" '
                     f'height="{h:.1f}" fill="{BAR}"><title>{edges[i]:.0f}–{edges[i + 1]:.0f} {unit}: {int(c)}</title></rect>')
    for i in range(0, len(edges), max(1, len(edges) // 6)):
        parts.append(f'<text x="{left + i * bar_w:.1f}" y="{plot_h + 28}" text-anchor="middle">{edges[i]:.0f}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.0f}" y="{plot_h + 43}" text-anchor="middle">{_esc(unit)}</text></svg>')
    return "".join(parts)


def _summary_row(name: str, s: dict[str, float]) -> str:
    if not s.get("count"):
        return f"<tr><td>{_esc(name)}</td><td colspan=7>no games</td></tr>"
    cells = "".join(f"<td>{s[k]:.1f}</td>" for k in ("mean", "sd", "min", "q1", "median", "q3", "max"))
    return f"<tr><td>{_esc(name)}</td>{cells}</tr>"


def _options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={'yes' if v is True else 'no' if v is False else v}" for k, v in options.items())


def _actions_html(acts: dict[str, Any]) -> list[str]:
    by_seat = acts.get("by_seat") or []
    if not by_seat or not acts.get("groups"):
        return []
    out = ["<h2>Actions chosen</h2>",
           '<p class="note">How many times a player of each kind of bot seat chose each action, per game '
           "(in all, in brackets), under the menu it joins; a row ending (another player's) counts the times "
           "the action's target was another player's piece.</p>",
           "<table><tr><th>action</th>" + "".join(f"<th>{_esc(row['seat'])}</th>" for row in by_seat) + "</tr>"]
    for g in acts["groups"]:
        out.append(f"<tr><th class=text colspan={len(by_seat) + 1}>{_esc(g['menu'] or 'other actions')}</th></tr>")
        for a in g["actions"]:
            out.append(f"<tr><td>{_esc(a)}</td>" + "".join(
                f"<td>{row['per_game'].get(a, 0):.2f} <span class=note>({row['total'].get(a, 0)})</span></td>"
                for row in by_seat) + "</tr>")
    out.append("</table>")
    return out


def report_html(report: dict[str, Any], title: str) -> str:
    fair = report["fair_share"]
    run = report["run"]
    out = [f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{_esc(title)}: balance report</title>"
           f"<style>{STYLE}</style></head><body>",
           f"<h1>{_esc(title)}: balance report</h1>",
           f'<p class="note">{report["games"]} games of {report["players"]} players ({_esc(", ".join(report["seats"]))}, '
           "rotated)" + (f" with {_esc(_options_text(report['options']))}" if report["options"] else "")
           + f", seeds {report['seed']} to {report['seed'] + report['games'] - 1}; played on {_esc(run['where'])} "
           f"in {run['seconds']:.1f} s ({run['games_per_s'] or 0:.1f} games/s, {run['decisions']:,} decisions)."
           + (f" {report['unfinished']} games hit the turn limit before the end." if report["unfinished"] else "")
           + (" Games the rules ended: " + ", ".join(f"{_esc(e['reason'])} ({e['games']})"
                                                    for e in report["ended_by_rules"]) + "."
              if report.get("ended_by_rules") else "")
           + " Bars are win rates, whiskers their 95% intervals, the dashed line the fair share.</p>",
           what_if_html(report["what_if"]) if report.get("what_if") else "",
           "<h2>Win rate by seat</h2>",
           rate_chart([(r["seat"], r["rate"], *r["ci"]) for r in report["win_rate_by_seat"]], fair, "win rate by seat"),
           "<h2>Win rate by turn position</h2>",
           '<p class="note">Each player\'s place in turn order when the first turn began.'
           + (f" The rules set turn order themselves: in {report['games_resorted']} of {report['games']} games it "
              "was not the seat order, so the seat numbers follow, apart.</p>" if report.get("games_resorted")
              else " It was the seat order in every game.</p>"),
           rate_chart([(f"position {r['position']}", r["rate"], *r["ci"]) for r in report["win_rate_by_position"]],
                      fair, "win rate by turn position")]
    if report.get("games_resorted"):
        out += ["<h2>Win rate by seat number</h2>",
                rate_chart([(f"seat {r['seat_number']}", r["rate"], *r["ci"]) for r in report["win_rate_by_seat_number"]],
                           fair, "win rate by seat number")]
    for name, rows in report["win_rate_by_starting_choice"].items():
        out += [f"<h2>Win rate by {_esc(name)}</h2>",
                rate_chart([(r["value"], r["rate"], *r["ci"]) for r in rows], fair, f"win rate by {name}")]
    if report.get("map"):
        out.append(map_section(report["map"], fair))
    out += ["<h2>Scores</h2>", histogram_chart(report["scores"]["histogram"], "score distribution", "score"),
            "<table><tr><th></th><th>mean</th><th>sd</th><th>min</th><th>q1</th><th>median</th><th>q3</th><th>max</th></tr>",
            _summary_row("every player", report["scores"]["all"]), _summary_row("winners", report["scores"]["winners"]),
            "</table>", "<h2>Game length</h2>",
            histogram_chart(report["length"]["histogram"], "game length", "decisions per game"),
            "<table><tr><th></th><th>mean</th><th>sd</th><th>min</th><th>q1</th><th>median</th><th>q3</th><th>max</th></tr>",
            _summary_row("decisions", report["length"]["decisions"]), _summary_row("turns", report["length"]["turns"]),
            "</table>"]
    items = report["items"]
    many = report.get("multiple_comparisons") or {}
    out += ["<h2>Items: win rate of players who chose them</h2>",
            '<p class="note">Gap: the win rate of players who chose the item (played, bought or took it) minus that '
            "of players who did not, in percentage points, with its 95% interval (Newcombe). An item no one chooses "
            "(an event, a solo card) is measured where it was drawn: the players its effect ran for, against the "
            "same kind of seat when it did not run for them. Having an item is not its cause: strong positions choose "
            "more. Ordered by how far from 0 the interval lies, items with little data (had by fewer than "
            f"{LITTLE_DATA} players, or drawn in fewer than {LITTLE_GAMES} games) after the rest; the first 25:</p>",
            f'<p class="note">{many.get("items_with_a_gap", 0)} items have a gap; '
            f'{many.get("intervals_excluding_zero", 0)} intervals exclude 0, where chance alone would exclude about '
            f'{many.get("expected_by_chance", 0):.0f}. {many.get("survive_benjamini_hochberg", 0)} survive a '
            f'Benjamini-Hochberg correction (false discovery rate 5%), marked ✓; {many.get("survive_holm", 0)} a '
            "Holm correction.</p>",
            gap_chart(items[:25], "item win-rate gaps"),
            "<table><tr><th>item</th><th>kind</th><th>chosen by</th><th>win rate if chosen</th><th>if not</th>"
            "<th>gap</th><th>95% interval</th><th>✓</th></tr>"]
    for row in items:
        gap = "–" if row["gap"] is None else f"{100 * row['gap']:+.1f}"
        ci = "–" if row["gap_ci"] is None else f"{100 * row['gap_ci'][0]:+.1f} to {100 * row['gap_ci'][1]:+.1f}"
        share = (f"drawn in {_pct(row['drawn_rate'])} of games" if row.get("basis") == "drawn"
                 else _pct(row["play_rate"]))
        little = " <span class=note>(little data)</span>" if row.get("little_data") else ""
        out.append(f"<tr><td>{_esc(row['name'])} <span class=note>{_esc(row['id'])}</span>{little}</td>"
                   f"<td class=text>{_esc(row['kind'])}</td><td>{share}</td>"
                   f"<td>{_pct(row['win_rate_played']['rate'])}</td><td>{_pct(row['win_rate_not']['rate'])}</td>"
                   f"<td>{gap}</td><td>{ci}</td><td>{'✓' if row.get('survives') else ''}</td></tr>")
    out.append("</table>")
    out += _actions_html(report.get("actions") or {})
    cov = report["coverage"]
    cannot = cov.get("cannot_run", [])
    out += ["<h2>Branch coverage</h2>",
            f"<p>{cov['ran']} of {cov['branches'] - len(cannot)} branches that could run did "
            f"({_pct(cov['share'])}): every <code>if</code> branch, <code>choose one</code> option and "
            "<code>may</code> answer of the rules and content."
            + (f" {len(cannot)} more cannot run under this run's options (listed apart).</p>" if cannot else "</p>")]
    for title, rows in (("never ran", cov["never_ran"]), ("cannot run under these options", cannot)):
        if not rows:
            continue
        out.append(f"<table><tr><th>{title}</th><th>branch</th><th>place</th></tr>")
        for row in rows:
            place = f"{row['file']}:{row['line']}:{row['column']}" if row["file"] else ""
            out.append(f"<tr><td>{_esc(row['in'])}</td><td class=text>{_esc(row['branch'])}</td>"
                       f"<td class=text>{_esc(place)}</td></tr>")
        out.append("</table>")
    if report.get("without_expansions"):
        out.append(comparison_html(report["without_expansions"], report.get("base_title") or report["ruleset"]))
    out.append("</body></html>\n")
    return "\n".join(out)
