"""How large a ruleset may be: its files, their bytes, its items, places and links, the
coordinates of its map, and how many diagnostics of one code are said in full.

Each bound is far above what a shipped ruleset holds (the largest, with its expansion,
has 14 files, 480 items and 250 KB; the one with a map 60 places and 200 links) and
keeps the cost of checking one, which grows linearly with its size, to seconds: past it the check stops reading (F012 for files and bytes, C014 for items,
places and links, each said once, where the bound is passed) and nothing is built from
what was read, so a game is never played from part of a ruleset. The loaders
(pipeline/load.py, the language server's) count as they read (`Tally`); places are
counted once their kinds are known (pipeline/build/layers.py), coordinates checked by
the map (pipeline/build/map.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from legacies.dsl.diagnostics import Diagnostic

MAX_FILES = 1_000  # data files of a ruleset with its expansions
MAX_BYTES = 8 * 1024 * 1024  # their bytes, all together
MAX_ITEMS = 10_000  # content items
MAX_PLACES = 5_000  # items of a kind joined by links (a board's places)
MAX_LINKS = 50_000  # neighbours listed by the items, all together
MAX_COORDINATE = 100_000  # a map's x and y, either way from 0
MAX_SAME_CODE = 50  # diagnostics of one code said in full; the rest counted


@dataclass
class Tally:
    """What one load has read so far, and whether it stopped at a bound."""

    files: int = 0
    bytes: int = 0
    items: int = 0
    links: int = 0
    stopped: bool = False
    said: list[Diagnostic] = field(default_factory=list)

    def admit(self, label: str, total: int) -> Diagnostic | None:
        """Before reading the file `label`, one of `total`: a diagnostic (and the load
        stops) when it is past MAX_FILES, or the files read hold MAX_BYTES already."""
        if self.stopped:
            return None
        self.files += 1
        if self.files > MAX_FILES:
            return self._stop(Diagnostic(
                "F012", f"the ruleset with its expansions has {total:,} data files, more than {MAX_FILES:,}: this "
                f"file and the {total - MAX_FILES - 1:,} after it are not read, and nothing is built", file=label,
                hint="a ruleset needs tens of files: merge small files, or check the folder given"))
        if self.bytes > MAX_BYTES:
            return self._stop(Diagnostic(
                "F012", f"the ruleset's files hold more than {MAX_BYTES // (1024 * 1024)} MiB before this one: it and "
                "the files after it are not read, and nothing is built", file=label,
                hint="a ruleset needs a few hundred KiB of data: check what the folder holds"))
        return None

    def count(self, loaded: Any, size: int) -> list[Diagnostic]:
        """After a file loaded: its bytes, items and links counted; a diagnostic at the
        item that passes MAX_ITEMS or MAX_LINKS (and the load stops)."""
        self.bytes += size
        if self.stopped or loaded is None or loaded.kind != "content":
            return []
        for i, item in enumerate(getattr(loaded.model, "items", ())):
            self.items += 1
            self.links += sum(len(v) for v in item.links.values())
            what = (f"{self.items:,} items, more than {MAX_ITEMS:,}" if self.items > MAX_ITEMS
                    else f"{self.links:,} links between places, more than {MAX_LINKS:,}" if self.links > MAX_LINKS
                    else None)
            if what is not None:
                line, column = loaded.position(("items", i))
                return [self._stop(Diagnostic(
                    "C014", f"the content reaches {what}, here: the items from here on are not read, and nothing is "
                    "built", line, column, file=loaded.label,
                    hint="a ruleset is a game's pieces: thousands of items at most"))]
        return []

    def _stop(self, d: Diagnostic) -> Diagnostic:
        self.stopped = True
        self.said.append(d)
        return d


def cap_repeats(diagnostics: Iterable[Diagnostic], most: int = MAX_SAME_CODE) -> list[Diagnostic]:
    """The diagnostics with at most `most` of each code said in full; past that, one
    more of the code, at the first left out, counting the rest (the same in every
    format: 10,000 warnings of one mistake repeated are not 5 MB of output)."""
    out: list[Diagnostic] = []
    seen: dict[str, int] = {}
    left: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        n = seen[d.code] = seen.get(d.code, 0) + 1
        if n <= most:
            out.append(d)
        else:
            left.setdefault(d.code, []).append(d)
    for code, rest in left.items():
        first = rest[0]
        out.append(Diagnostic(code, f"and {len(rest):,} more {code} like the {most} above (not each said): the "
                              f"first is here; {first.message[:200]}", first.line, first.column, file=first.file,
                              severity=first.severity, hint=first.hint, stands_for=len(rest),
                              files_left=tuple(sorted({d.file for d in rest[1:]}))))
    return out
