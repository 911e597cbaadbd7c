"""The clock that numbers every change the state counts (State.versions, slot_versions,
value_versions, zone_versions): each change takes the next number of one clock for the
whole process, never a count of its own state's changes.

Why: a result kept with the numbers of what it read (State.keep, codegen's stamps) then
stands in every copy that holds the same numbers, since the same number in two copies is
the same change, made before they parted, with nothing changed since. A count per state
gave two copies that each made one change the same numbers for different contents, so
every copy started with nothing kept. Now a copy shares what its original kept: greedy's
lines, a search's worlds and an undo's replay find what the game before them computed.
"""

from __future__ import annotations

import itertools

tick = itertools.count(1).__next__
"""The next number of the clock: `versions[part] = tick()` where a change was counted."""
