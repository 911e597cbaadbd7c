"""A balance run beside the same games without its expansions (`legacies simulate -x NAME
--compare`): the same seeds, seats and options played on the ruleset alone, and the two
reports' numbers side by side: game length (turns and decisions), how the games ended,
win rates by seat and by each starting choice, each win rate's change with a 95%
interval paired by seed and a note on how many such intervals exclude 0 by chance. report.json keeps it under
`without_expansions`; report.html and the printed summary show it."""

from __future__ import annotations

import html
import re
from typing import Any

from .report_changes import by_seat, correction_note, rate_change
from .simulate import GameRecord, Simulation


def compare(laid: dict[str, Any], alone: dict[str, Any], laid_sim: Simulation | None = None,
            alone_sim: Simulation | None = None) -> dict[str, Any]:
    """The numbers of a report (`laid`, with the expansions) beside those of the same run
    on the ruleset alone; with both runs' games, each win rate's change gets a 95%
    interval paired by seed (the same seeds and seats: agents/report_changes.py) and the
    intervals a note on how many would exclude 0 by chance."""
    def rates(rows_with: list[dict[str, Any]], rows_without: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
        without = {row[key]: row for row in rows_without}
        names = [row[key] for row in rows_with] + [k for k in without if k not in {r[key] for r in rows_with}]
        found = {row[key]: row for row in rows_with}
        return [{key: name, "with": _rate_of(found.get(name)), "without": _rate_of(without.get(name))}
                for name in names]
    choices = {name: rates(rows, alone["win_rate_by_starting_choice"].get(name, []), "value")
               for name, rows in laid["win_rate_by_starting_choice"].items()}
    seat_rows = rates(laid["win_rate_by_seat"], alone["win_rate_by_seat"], "seat")
    if laid_sim is not None and alone_sim is not None:
        _paired(laid_sim, alone_sim, seat_rows, choices)
    measured = [row for row in seat_rows + [r for rows in choices.values() for r in rows] if "change" in row]
    return {
        "multiple_comparisons": correction_note(measured) if measured else None,
        "games": {"with": laid["games"], "without": alone["games"]},
        "length": {what: {"with": laid["length"][what], "without": alone["length"][what]}
                   for what in ("turns", "decisions")},
        "ended_by_rules": {"with": laid["ended_by_rules"], "without": alone["ended_by_rules"]},
        "unfinished": {"with": laid["unfinished"], "without": alone["unfinished"]},
        "win_rate_by_seat": seat_rows,
        "win_rate_by_starting_choice": choices,
    }


def _paired(laid: Simulation, alone: Simulation, seats: list[dict[str, Any]],
            choices: dict[str, list[dict[str, Any]]]) -> None:
    """Each row's change (with minus alone) and its 95% interval, paired by seed: the
    games of both runs with the same seed (the seeds both have)."""
    seeds = {r.seed for r in laid.records} & {r.seed for r in alone.records}
    with_ = [r for r in laid.records if r.seed in seeds]
    without = [r for r in alone.records if r.seed in seeds]
    groups = [(seats, "seat", by_seat(with_), by_seat(without))]
    for name, rows in choices.items():
        def label(r: GameRecord, p: int, name: str = name) -> str:
            return r.starting[p].get(name, "?")
        groups.append((rows, "value", by_seat(with_, label), by_seat(without, label)))
    for rows, key, w, wo in groups:
        for row in rows:
            found = rate_change(wo.get(row[key], {}), w.get(row[key], {}))
            if found is not None:
                row.update({"change": found["change"], "ci": found["ci"], "p": found["p"]})


def _change(row: dict[str, Any]) -> str:
    if "change" not in row:
        return ""
    lo, hi = row["ci"]
    return f"; change {100 * row['change']:+.1f} points (95% paired {100 * lo:+.1f} to {100 * hi:+.1f})"


def _note(c: dict[str, Any]) -> str:
    note = c.get("multiple_comparisons")
    if not note:
        return ""
    return (f"of {note['intervals']} changes, {note['intervals_excluding_zero']} intervals exclude 0 (about "
            f"{note['expected_by_chance']:.1f} would by chance alone); {note['survive_holm']} survive a Holm correction")


def _rate_of(row: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if row is None else {"rate": row["rate"], "ci": row["ci"], "games": row["games"], "wins": row["wins"]}


def _pct(rate: dict[str, Any] | None) -> str:
    if rate is None or rate["rate"] is None:
        return "-"
    return f"{100 * rate['rate']:.1f}% ({rate['wins']}/{rate['games']})"


def _length(s: dict[str, float]) -> str:
    return "-" if not s.get("count") else f"mean {s['mean']:.1f}, median {s['median']:g}, {s['min']:g} to {s['max']:g}"


def _endings(rows: list[dict[str, Any]], games: int) -> str:
    """The games the rules ended, by the kind of reason: the same words once the players'
    names and the numbers are set aside ("a player reaches N points")."""
    kinds: dict[str, int] = {}
    for row in rows:
        kind = re.sub(r"\bP\d+\b", "a player", re.sub(r"(?<![A-Za-z])\d+", "N", row["reason"]))
        kinds[kind] = kinds.get(kind, 0) + row["games"]
    ordered = sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
    return "; ".join(f"{n} of {games}: {kind}" for kind, n in ordered) or "none"


def comparison_lines(c: dict[str, Any], title: str) -> list[str]:
    """What `simulate --compare` prints: each number alone, then with the expansions."""
    out = [f"compared with {title} alone (the same seeds and seats; alone -> with the expansions):"]
    for what in ("turns", "decisions"):
        out.append(f"  {what} a game: {_length(c['length'][what]['without'])} -> {_length(c['length'][what]['with'])}")
    out.append(f"  ended by the rules: alone {_endings(c['ended_by_rules']['without'], c['games']['without'])}")
    out.append(f"                      with  {_endings(c['ended_by_rules']['with'], c['games']['with'])}")
    for row in c["win_rate_by_seat"]:
        out.append(f"  {row['seat']} wins {_pct(row['without'])} -> {_pct(row['with'])}{_change(row)}")
    for name, rows in c["win_rate_by_starting_choice"].items():
        out.append(f"  win rate by {name}:")
        out.extend(f"    {row['value']}: {_pct(row['without'])} -> {_pct(row['with'])}{_change(row)}" for row in rows)
    if _note(c):
        out.append(f"  {_note(c)}")
    return out


def comparison_html(c: dict[str, Any], title: str) -> str:
    """report.html's section: the same run on the ruleset alone, beside this one."""
    def esc(x: Any) -> str:
        return html.escape(str(x))
    rows = [f"<tr><td class=text>{esc(what)} a game</td><td>{esc(_length(c['length'][what]['without']))}</td>"
            f"<td>{esc(_length(c['length'][what]['with']))}</td></tr>" for what in ("turns", "decisions")]
    rows.append(f"<tr><td class=text>ended by the rules</td>"
                f"<td>{esc(_endings(c['ended_by_rules']['without'], c['games']['without']))}</td>"
                f"<td>{esc(_endings(c['ended_by_rules']['with'], c['games']['with']))}</td></tr>")
    def change(row: dict[str, Any]) -> str:
        if "change" not in row:
            return "<td></td>"
        return f"<td>{100 * row['change']:+.1f} ({100 * row['ci'][0]:+.1f} to {100 * row['ci'][1]:+.1f})</td>"
    rows = [row.replace("</tr>", "<td></td></tr>") for row in rows]
    rows += [f"<tr><td class=text>{esc(row['seat'])} wins</td><td>{esc(_pct(row['without']))}</td>"
             f"<td>{esc(_pct(row['with']))}</td>{change(row)}</tr>" for row in c["win_rate_by_seat"]]
    for name, choice_rows in c["win_rate_by_starting_choice"].items():
        rows += [f"<tr><td class=text>win rate by {esc(name)}: {esc(row['value'])}</td>"
                 f"<td>{esc(_pct(row['without']))}</td><td>{esc(_pct(row['with']))}</td>{change(row)}</tr>"
                 for row in choice_rows]
    note = f" Each change (in points) has a 95% interval paired by seed; {esc(_note(c))}." if _note(c) else ""
    return "\n".join([f"<h2>Compared with {esc(title)} alone</h2>",
                      f'<p class="note">The same seeds, seats and options, played without the expansions.{note}</p>',
                      "<table><tr><th></th><th>alone</th><th>with the expansions</th><th>change, 95% paired</th></tr>",
                      *rows, "</table>"])
