"""What-if balance (`legacies simulate --set ID.FIELD=VALUE`): the same seeds played
before and after an item's number changed, and what the change did.

Both runs play game i with seed `seed + i` and the same seats, so each seed is a pair:
the change is measured within pairs. For every content item, an item is *had* by a
player who chose it or for whom it was drawn (agents/simulate.py), and its gap is the win
rate of the players who had it minus that of those who did not, before and after, each
with its 95% Newcombe interval; the change of gap gets a 95% interval that is paired by
seed (`paired_change`: a ratio's change linearised seed by seed, the seeds' terms summed,
so what the two runs share cancels). For each changed item, the paired difference per
seed: the share of its holders who won, after minus before, in every seed where someone
had it both times. The other items' changes come with how many intervals would exclude 0
by chance alone (about 5%): the items changed were chosen before the run, the others were
not. An item had by few players (`LITTLE_DATA`) never comes first in a list.

The same paired interval serves `--compare` (agents/comparison.py): the same seeds with
and without the expansions.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable
from typing import Any

from .simulate import GameRecord, Simulation
from .stats import LITTLE_DATA, LITTLE_GAMES, Z95, difference, holm, normal_tail

ALPHA = 0.05
SEEDS_SHOWN = 12  # the paired differences printed per changed item (report.json keeps every seed)

Tally = dict[int, tuple[int, int]]  # seed -> (wins, players) of a group in that game


def paired_change(before: Tally, after: Tally, before_all: Tally, after_all: Tally
                  ) -> dict[str, Any] | None:
    """The change of a group's win-rate gap (the group's rate minus everyone else's) from
    `before` to `after`, seed by seed paired: {"before", "after", "change", "ci", "p"}.
    `*_all`: every player of each game (wins, players). None when a gap has no side.

    Each gap W1/N1 - W0/N0 is linearised seed by seed (seed s adds (w1 - r1 n1)/N1 - (w0 -
    r0 n0)/N0); the change's variance is the sum over seeds of the squared difference of
    a seed's two terms, so what a seed does in both runs cancels."""
    first, second = _gap_terms(before, before_all), _gap_terms(after, after_all)
    if first is None or second is None:
        return None
    (g0, terms0), (g1, terms1) = first, second
    seeds = set(terms0) | set(terms1)
    var = sum((terms1.get(s, 0.0) - terms0.get(s, 0.0)) ** 2 for s in seeds)
    change = g1 - g0
    half = Z95 * math.sqrt(var)
    p = 2 * normal_tail(abs(change) / math.sqrt(var)) if var > 0 else (1.0 if change == 0 else 0.0)
    return {"before": g0, "after": g1, "change": change, "ci": [change - half, change + half], "p": min(1.0, p)}


def _gap_terms(group: Tally, every: Tally) -> tuple[float, dict[int, float]] | None:
    n1 = sum(n for _, n in group.values())
    w1 = sum(w for w, _ in group.values())
    n_all = sum(n for _, n in every.values())
    w_all = sum(w for w, _ in every.values())
    n0, w0 = n_all - n1, w_all - w1
    if n1 <= 0 or n0 <= 0:
        return None
    r1, r0 = w1 / n1, w0 / n0
    terms = {}
    for s, (wa, na) in every.items():
        gw, gn = group.get(s, (0, 0))
        terms[s] = (gw - r1 * gn) / n1 - ((wa - gw) - r0 * (na - gn)) / n0
    return r1 - r0, terms


def rate_change(before: Tally, after: Tally) -> dict[str, Any] | None:
    """A group's win rate before and after, and its change with a 95% interval paired by
    seed (the rate's terms (w - r n)/N differenced seed by seed)."""
    nb, na = sum(n for _, n in before.values()), sum(n for _, n in after.values())
    if nb <= 0 or na <= 0:
        return None
    rb, ra = sum(w for w, _ in before.values()) / nb, sum(w for w, _ in after.values()) / na
    seeds = set(before) | set(after)

    def term(t: Tally, s: int, r: float, n: int) -> float:
        w, k = t.get(s, (0, 0))
        return (w - r * k) / n
    var = sum((term(after, s, ra, na) - term(before, s, rb, nb)) ** 2 for s in seeds)
    half = Z95 * math.sqrt(var)
    p = 2 * normal_tail(abs(ra - rb) / math.sqrt(var)) if var > 0 else (1.0 if ra == rb else 0.0)
    return {"before": rb, "after": ra, "change": ra - rb, "ci": [ra - rb - half, ra - rb + half], "p": min(1.0, p)}


def correction_note(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """How many of these intervals exclude 0, how many would by chance, how many survive Holm."""
    measured = [row for row in rows if row.get("p") is not None]
    adjusted = holm([row["p"] for row in measured])
    for row, h in zip(measured, adjusted):
        row["p_holm"] = h
    return {"intervals": len(measured),
            "intervals_excluding_zero": sum(1 for row in measured if row["ci"][0] > 0 or row["ci"][1] < 0),
            "expected_by_chance": ALPHA * len(measured), "survive_holm": sum(h < ALPHA for h in adjusted),
            "alpha": ALPHA}


# --------------------------------------------------------------------------- tallies


def held(records: list[GameRecord]) -> dict[str, Tally]:
    """Per item id: seed -> (holders who won, holders)."""
    out: dict[str, Tally] = {}
    for r in records:
        for p in range(len(r.seats)):
            had = set(r.chosen[p]) | set(r.drawn[p] if p < len(r.drawn) else ())
            for item in had:
                w, n = out.setdefault(item, {}).get(r.seed, (0, 0))
                out[item][r.seed] = (w + (r.winner == p), n + 1)
    return out


def everyone(records: list[GameRecord]) -> Tally:
    return {r.seed: (int(0 <= r.winner < len(r.seats)), len(r.seats)) for r in records}


def by_seat(records: list[GameRecord], label: Any = None) -> dict[str, Tally]:
    """Per seat kind (or per `label(record, player)`): seed -> (wins, players)."""
    out: dict[str, Tally] = {}
    for r in records:
        for p in range(len(r.seats)):
            key = label(r, p) if label is not None else r.seats[p]
            w, n = out.setdefault(key, {}).get(r.seed, (0, 0))
            out[key][r.seed] = (w + (r.winner == p), n + 1)
    return out


def _little(t: Tally) -> bool:
    return sum(n for _, n in t.values()) < LITTLE_DATA or len(t) < LITTLE_GAMES


# --------------------------------------------------------------------------- the what-if


def what_if(before: Simulation, after: Simulation, changes: list[dict[str, Any]]) -> dict[str, Any]:
    """The numbers of a what-if: `changes` as simulate.describe_changes gives them."""
    seeds = sorted({r.seed for r in before.records} & {r.seed for r in after.records})
    kept = set(seeds)
    b = [r for r in before.records if r.seed in kept]
    a = [r for r in after.records if r.seed in kept]
    hb, ha = held(b), held(a)
    eb, ea = everyone(b), everyone(a)
    players = sum(len(r.seats) for r in b)
    changed = [c["item"] for c in changes]
    names = {i["id"]: i for i in before.items}
    rows = []
    for item in dict.fromkeys(changed + [i["id"] for i in before.items]):
        tb, ta = hb.get(item, {}), ha.get(item, {})
        if not tb and not ta and item not in changed:
            continue
        info = names.get(item, {"id": item, "name": item, "kind": ""})
        row: dict[str, Any] = {"id": item, "name": info["name"], "kind": info["kind"], "changed": item in changed,
                               "little_data": _little(tb) or _little(ta)}
        for side, t, e in (("before", tb, eb), ("after", ta, ea)):
            n1 = sum(n for _, n in t.values())
            w1 = sum(w for w, _ in t.values())
            gap = difference(w1, n1, sum(w for w, _ in e.values()) - w1, players - n1)
            row[side] = {"players": n1, "games": len(t), "share": n1 / players if players else 0.0,
                         "gap": gap[0] if gap else None, "gap_ci": [gap[1], gap[2]] if gap else None}
        found = paired_change(tb, ta, eb, ea)
        row.update({"change": found["change"] if found else None, "ci": found["ci"] if found else None,
                    "p": found["p"] if found else None})
        rows.append(row)
    others = [row for row in rows if not row["changed"]]
    note = correction_note(others)
    others.sort(key=lambda row: (row["change"] is None, row["little_data"], -_supported(row),
                                 -abs(row["change"] or 0), row["id"]))
    per_seed = {item: _per_seed(hb.get(item, {}), ha.get(item, {}), seeds) for item in changed}
    winners = sum(x.winner != y.winner for x, y in zip(b, a))
    seat_rows = []
    sb, sa = by_seat(b), by_seat(a)
    for kind in dict.fromkeys(list(sb) + list(sa)):
        found = rate_change(sb.get(kind, {}), sa.get(kind, {}))
        if found is not None:
            seat_rows.append({"seat": kind, **found})
    return {"changes": changes, "games": len(seeds), "seeds": [seeds[0], seeds[-1]] if seeds else [],
            "winner_changed": winners, "seats": seat_rows,
            "items": [row for row in rows if row["changed"]] + others, "per_seed": per_seed,
            "multiple_comparisons": note}


def _per_seed(before: Tally, after: Tally, seeds: list[int]) -> dict[str, Any]:
    """The changed item's holders' win share per seed, before and after, and the paired
    difference where someone had it both times (mean with a 95% t-free normal interval)."""
    rows = []
    diffs = []
    for s in seeds:
        wb, nb = before.get(s, (0, 0))
        wa, na = after.get(s, (0, 0))
        d = wa / na - wb / nb if na and nb else None
        if d is not None:
            diffs.append(d)
        rows.append({"seed": s, "before": [wb, nb], "after": [wa, na], "difference": d})
    n = len(diffs)
    mean = sum(diffs) / n if n else None
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 and mean is not None else None
    ci = [mean - Z95 * sd / math.sqrt(n), mean + Z95 * sd / math.sqrt(n)] if sd is not None and mean is not None \
        else None
    return {"seeds": rows, "paired": n, "mean": mean, "ci": ci, "up": sum(d > 0 for d in diffs),
            "down": sum(d < 0 for d in diffs), "same": sum(d == 0 for d in diffs)}


def _supported(row: dict[str, Any]) -> float:
    if row["ci"] is None:
        return 0.0
    lo, hi = row["ci"]
    return lo if lo > 0 else -hi if hi < 0 else 0.0


# --------------------------------------------------------------------------- words


def _pts(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:+.1f}"


def _ci(ci: list[float] | None) -> str:
    return "-" if ci is None else f"{100 * ci[0]:+.1f} to {100 * ci[1]:+.1f}"


def _share(side: dict[str, Any]) -> str:
    return f"{100 * side['share']:.1f}% of players ({side['players']} in {side['games']} games)"


def changes_title(changes: list[dict[str, Any]]) -> str:
    return "; ".join(f"{c['name']} ({c['item']}) {c['field']} {c['before']} -> {c['after']}" for c in changes)


def what_if_lines(w: dict[str, Any], others: int = 5) -> list[str]:
    """What `simulate --set` prints: the change, each changed item's gap before and after
    with the paired change, its paired differences per seed, the seats, the other items
    whose gap moved most surely."""
    out = [f"what if {changes_title(w['changes'])}: the same {w['games']} seeds played again "
           f"(the winner changed in {w['winner_changed']} of them)"]
    rows = [row for row in w["items"] if row["changed"]]
    for row in rows:
        out.append(f"  {row['name']} ({row['id']}): gap {_pts(row['before']['gap'])} points "
                   f"(95% {_ci(row['before']['gap_ci'])}) -> {_pts(row['after']['gap'])} (95% "
                   f"{_ci(row['after']['gap_ci'])}); change {_pts(row['change'])} points (95% paired by seed "
                   f"{_ci(row['ci'])})" + ("; little data" if row["little_data"] else ""))
        out.append(f"    had by {_share(row['before'])} -> {_share(row['after'])}")
        seed = w["per_seed"].get(row["id"]) or {}
        if seed.get("paired"):
            out.append(f"    per seed, the share of its holders who won, after minus before: {seed['paired']} seeds "
                       f"had it both times; mean {_pts(seed['mean'])} points (95% {_ci(seed['ci'])}); up in "
                       f"{seed['up']}, down in {seed['down']}, the same in {seed['same']}")
            moved = [s for s in seed["seeds"] if s["difference"]]  # the seeds it changed, then the others
            shown = moved[:SEEDS_SHOWN]
            if shown:
                out.append("    seeds whose holders won otherwise (won/had before -> after): " + ", ".join(
                    f"seed {s['seed']}: {s['before'][0]}/{s['before'][1]} -> {s['after'][0]}/{s['after'][1]}"
                    for s in shown) + (" ..." if len(moved) > len(shown) else ""))
        else:
            out.append("    per seed: no seed had it both before and after")
    for row in w["seats"] if len(w["seats"]) > 1 else []:  # one kind of seat: always its fair share
        out.append(f"  {row['seat']} wins {100 * row['before']:.1f}% -> {100 * row['after']:.1f}% "
                   f"(change {_pts(row['change'])} points, 95% paired {_ci(row['ci'])})")
    moved = [row for row in w["items"] if not row["changed"] and row["change"] is not None
             and not row["little_data"]][:others]
    note = w["multiple_comparisons"]
    if moved:
        out.append("  the other items whose gap moved most surely (change, 95% paired by seed):")
        width = max(len(f"{r['name']} ({r['id']})") for r in moved)
        out.extend(f"    {r['name'] + ' (' + r['id'] + ')':<{width}}  {_pts(r['change'])} points ({_ci(r['ci'])})"
                   for r in moved)
    out.append(f"  of {note['intervals']} other items' changes, {note['intervals_excluding_zero']} intervals exclude 0 "
               f"(about {note['expected_by_chance']:.0f} would by chance alone); {note['survive_holm']} survive a "
               "Holm correction")
    return out


def what_if_html(w: dict[str, Any]) -> str:
    """report.html's section for `simulate --set`."""
    def esc(x: Any) -> str:
        return html.escape(str(x), quote=True)
    note = w["multiple_comparisons"]
    out = [f"<h2>What if: {esc(changes_title(w['changes']))}</h2>",
           f'<p class="note">The same {w["games"]} seeds and seats played before and after the change (the winner '
           f"changed in {w['winner_changed']} of them). An item is had by a player who chose it or for whom it was "
           "drawn; its gap is the win rate of players who had it minus that of those who did not, in points, with "
           "its 95% interval; the change of gap has a 95% interval paired by seed. Items with little data (had by "
           f"fewer than {LITTLE_DATA} players or in fewer than {LITTLE_GAMES} games) are marked and never lead. "
           f"Of {note['intervals']} other items' changes, {note['intervals_excluding_zero']} intervals exclude 0, "
           f"where chance alone would exclude about {note['expected_by_chance']:.0f}; {note['survive_holm']} survive "
           "a Holm correction.</p>",
           "<table class=whatif><tr><th>item</th><th>had by (before)</th><th>gap before</th><th>95%</th><th>had by (after)</th>"
           "<th>gap after</th><th>95%</th><th>change</th><th>95% paired</th></tr>"]
    for row in w["items"][:40]:
        name = f"<b>{esc(row['name'])}</b>" if row["changed"] else esc(row["name"])
        little = " <span class=note>(little data)</span>" if row["little_data"] else ""
        out.append(f"<tr><td>{name} <span class=note>{esc(row['id'])}</span>{little}</td>"
                   f"<td>{100 * row['before']['share']:.1f}%</td><td>{_pts(row['before']['gap'])}</td>"
                   f"<td>{_ci(row['before']['gap_ci'])}</td><td>{100 * row['after']['share']:.1f}%</td>"
                   f"<td>{_pts(row['after']['gap'])}</td><td>{_ci(row['after']['gap_ci'])}</td>"
                   f"<td>{_pts(row['change'])}</td><td>{_ci(row['ci'])}</td></tr>")
    out.append("</table>")
    out.append("<table class=whatif><tr><th>seat</th><th>wins before</th><th>after</th><th>change</th><th>95% paired</th></tr>")
    out += [f"<tr><td>{esc(r['seat'])}</td><td>{100 * r['before']:.1f}%</td><td>{100 * r['after']:.1f}%</td>"
            f"<td>{_pts(r['change'])}</td><td>{_ci(r['ci'])}</td></tr>" for r in w["seats"]]
    out.append("</table>")
    for item, seed in w["per_seed"].items():
        if not seed.get("paired"):
            continue
        out.append(f'<h3>{esc(item)} seed by seed</h3><p class="note">The share of its holders who won, before and '
                   f"after, in the {seed['paired']} seeds where someone had it both times: mean difference "
                   f"{_pts(seed['mean'])} points (95% {_ci(seed['ci'])}); up in {seed['up']}, down in {seed['down']}, "
                   f"the same in {seed['same']}.</p>")
        out.append("<table class=whatif><tr><th>seed</th><th>before</th><th>after</th><th>difference</th></tr>")
        paired = sorted((s for s in seed["seeds"] if s["difference"] is not None),
                        key=lambda s: (not s["difference"], s["seed"]))  # the seeds it changed first
        out += [f"<tr><td>{s['seed']}</td><td>{s['before'][0]}/{s['before'][1]}</td>"
                f"<td>{s['after'][0]}/{s['after'][1]}</td><td>{_pts(s['difference'])}</td></tr>"
                for s in paired[:60]]
        out.append("</table>")
    return "\n".join(out)
