"""dsl/grammar_cache.py leans on Lark names that are not Lark's public API
(`lark.lark._LOAD_ALLOWED_OPTIONS`, `Lark._load_from_dict`, `Lark.memo_serialize`):
pyproject.toml pins lark's major version, and these tests fail on a Lark that moved
them, before any cache silently stops being read."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import lark
import lark.lark

from legacies.dsl import grammar_cache


def test_the_private_lark_names_the_cache_uses_exist() -> None:
    allowed = lark.lark._LOAD_ALLOWED_OPTIONS
    assert isinstance(allowed, (set, frozenset)) and "postlex" in allowed and "transformer" in allowed
    assert callable(getattr(lark.Lark, "_load_from_dict", None))
    assert callable(getattr(lark.Lark, "memo_serialize", None))
    # the module reads the same object (it imports the name at its top)
    assert grammar_cache._LOAD_ALLOWED_OPTIONS is allowed


def test_the_installed_lark_is_the_major_version_pinned() -> None:
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    pinned = [r for r in project["project"]["dependencies"] if re.match(r"lark\b", r)]
    assert pinned == ["lark>=1,<2"], pinned
    assert lark.__version__.split(".")[0] == "1"
