"""The statistics of a balance report: intervals for rates and for differences of
rates, the p-value of a difference and multiple-comparison corrections (Holm,
Benjamini-Hochberg) for hundreds of items at once, summaries and histograms of
numbers. Plain Python (no NumPy, no SciPy): a report holds thousands of numbers, not
millions."""

from __future__ import annotations

import math
from typing import Sequence

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
LITTLE_DATA = 20
"""An item had by fewer players than this has little data: its interval is listed, it
never comes first in a list of gaps (nor one drawn in fewer than LITTLE_GAMES games)."""
LITTLE_GAMES = 5


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a rate (sound at 0 or all wins and for small counts,
    unlike the normal approximation); (0, 1) with no games."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def difference(wins1: int, games1: int, wins2: int, games2: int) -> tuple[float, float, float] | None:
    """Rate 1 minus rate 2 with Newcombe's hybrid score interval (from the two Wilson
    intervals); None when either group is empty."""
    if games1 <= 0 or games2 <= 0:
        return None
    p1, p2 = wins1 / games1, wins2 / games2
    l1, u1 = wilson(wins1, games1)
    l2, u2 = wilson(wins2, games2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def quantile(ordered: Sequence[float], q: float) -> float:
    """The q-quantile of sorted numbers, interpolated between neighbours."""
    if not ordered:
        return 0.0
    at = q * (len(ordered) - 1)
    below = math.floor(at)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (at - below)


def summary(values: Sequence[float]) -> dict[str, float]:
    """Count, mean, standard deviation and the five-number summary."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return {"count": 0}
    mean = sum(ordered) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in ordered) / (n - 1)) if n > 1 else 0.0
    return {"count": n, "mean": mean, "sd": sd, "min": ordered[0], "q1": quantile(ordered, 0.25),
            "median": quantile(ordered, 0.5), "q3": quantile(ordered, 0.75), "max": ordered[-1]}


def histogram(values: Sequence[float], bins: int = 20) -> dict[str, list[float]]:
    """Equal-width bins over the values' range: `edges` (bins + 1) and `counts` (bins);
    whole-number bins when the values are whole numbers spanning fewer than `bins`."""
    if not values:
        return {"edges": [], "counts": []}
    low, high = min(values), max(values)
    if all(float(v).is_integer() for v in values) and high - low + 1 <= bins:
        edges = [low - 0.5 + i for i in range(int(high - low) + 2)]
    else:
        width = (high - low) / bins or 1.0
        edges = [low + i * width for i in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    for v in values:
        i = min(int((v - edges[0]) / (edges[1] - edges[0])), len(counts) - 1)
        counts[i] += 1
    return {"edges": edges, "counts": [float(c) for c in counts]}


def normal_tail(z: float) -> float:
    """P(|Z| >= z) for a standard normal Z: the two-sided p-value of a z statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_p(wins1: int, games1: int, wins2: int, games2: int) -> float | None:
    """The two-sided p-value that two rates are equal (the pooled z test, without
    continuity correction: R's `prop.test(correct = FALSE)`); None when a group is empty."""
    if games1 <= 0 or games2 <= 0:
        return None
    pooled = (wins1 + wins2) / (games1 + games2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / games1 + 1 / games2))
    if se == 0:
        return 1.0  # everyone won, or no one: no difference to see
    return normal_tail((wins1 / games1 - wins2 / games2) / se)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (familywise error), in the input's order."""
    n = len(pvalues)
    order = sorted(range(n), key=lambda i: pvalues[i])
    out = [0.0] * n
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (n - rank) * pvalues[i]))
        out[i] = running
    return out


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values: false discovery rate), in the
    input's order: an item survives at 5% when its q is below 0.05."""
    n = len(pvalues)
    order = sorted(range(n), key=lambda i: pvalues[i], reverse=True)
    out = [0.0] * n
    running = 1.0
    for k, i in enumerate(order):
        rank = n - k  # 1-based rank from the smallest
        running = min(running, pvalues[i] * n / rank)
        out[i] = running
    return out
