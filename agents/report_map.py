"""The balance report's map, for a ruleset that draws one (`display: map:`): where the
games ended. Every game records who holds each place at its end (agents/simulate.py);
the report draws the map of the run's first game with each place in the colour of the
seat number that held it most often at the end (grey: most often no one), and under its
name the share of games it was held at the end and how often its holder then won.

Why this map and not one game's board: one board is one story (`legacies replay SAVE
--svg FILE` draws any saved game's); over every game, the colours show which seat ends
up where (a seat that holds a region in most games starts too close to it) and the
shares which places the games are decided on (a place whose holder wins far more often
than the holder of a place does over all places: winners hold more than others)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from legacies.interpreter.map_view import MapPicture

from .map_svg import map_svg
from .simulate import GameRecord


def map_summary(records: list[GameRecord]) -> dict[str, Any] | None:
    """Per place of the first game's map: the games it was held at the end, by each seat
    number, and those its holder won; with that map (its data). None without a map."""
    first = next((r.board for r in records if r.board is not None), None)
    if first is None:
        return None
    picture = MapPicture.from_data(first)
    seats = len(picture.players)
    places: list[dict[str, Any]] = []
    all_held = all_won = 0
    for place in picture.places:
        by_seat, won = [0] * seats, 0
        for r in records:
            holder = r.holders.get(place.piece, -1)
            if 0 <= holder < seats:
                by_seat[holder] += 1
                won += r.winner == holder
        held = sum(by_seat)
        all_held, all_won = all_held + held, all_won + won
        places.append({"piece": place.piece, "name": place.label, "held": held, "held_by_seat": by_seat,
                       "holder_won": won, "holder_win_rate": won / held if held else None})
    return {"games": len(records), "places": places, "holder_win_rate": all_won / all_held if all_held else None,
            "first_game": first}


def map_section(summary: dict[str, Any], fair: float) -> str:
    """The report's part for the map: a heading, what it shows, the picture."""
    games = summary["games"]
    picture = MapPicture.from_data(summary["first_game"])
    places = []
    for place, row in zip(picture.places, summary["places"]):
        by_seat = row["held_by_seat"]
        most = max(range(len(by_seat)), key=lambda p: (by_seat[p], -p)) if by_seat else -1
        if most >= 0 and games - row["held"] >= by_seat[most]:
            most = -1  # most often held by no one
        rate = row["holder_win_rate"]
        marks = (f"held {_pct(row['held'] / games if games else None)}",
                 f"won {_pct(rate)}" if rate is not None else "never held")
        places.append(replace(place, player=most, marks=marks))
    seats = tuple(f"seat {p + 1}" for p in range(len(picture.players)))
    drawn = replace(picture, title="", places=tuple(places), players=seats)
    return "\n".join([
        "<h2>The map: where the games ended</h2>",
        f'<p class="note">Each place in the colour of the seat that held it most often when the {games} games ended '
        "(grey: most often no one, as the first player saw it); under its name, <em>held</em>: the share of games "
        "it was held at the end, and <em>won</em>: how often its holder then won the game. Winners hold more "
        f"than others, so a held place's holder won {_pct(summary['holder_win_rate'])} of the time over all places "
        f"(the fair share of a game is {_pct(fair)}): a place far above that is one the games are decided on, "
        "and a seat that holds one part of the map in most games starts too close to it. The map is the first "
        "game's; one game's board is one story (<code>legacies replay SAVE --svg FILE</code> draws any saved "
        "game's), these are every game's.</p>",
        map_svg(drawn)])


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.0f}%"
