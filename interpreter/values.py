"""Runtime values that are not plain ints, strings or lists."""

from __future__ import annotations


class DefRef(int):
    """A card definition named in source by its content id: compares equal to its pieces."""
