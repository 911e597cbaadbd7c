"""The content pipeline as one service: find a ruleset's files, load them, build and
check the spec. `load_ruleset` is what `legacies validate`, `play` and `explain` call;
a compiled spec is cached per ruleset name for the life of the process."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from legacies.dsl.diagnostics import Diagnostic, has_errors
from legacies.interpreter.spec import GameSpec

from .build import BuildResult, build_spec
from .files import installed_rulesets, ruleset_files
from .load import LoadResult, internal_error, load_sources


@dataclass
class RulesetResult:
    name: str
    load: LoadResult
    build: BuildResult | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def spec(self) -> GameSpec | None:
        return self.build.spec if self.build is not None else None

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


_cache: dict[str, RulesetResult] = {}


def load_ruleset(name: str, root: Path | str | None = None) -> RulesetResult:
    """Load, check and build ruleset `name` (from the installed package, or a folder)."""
    key = f"{name}@{root}"
    if root is None and key in _cache:
        return _cache[key]
    sources = ruleset_files(name, root)
    try:
        load = load_sources(sources)
        build = build_spec(load.files) if load.files else None
        diags = list(load.diagnostics) + (build.diagnostics if build else [])
    except Exception as err:  # noqa: BLE001 - an engine bug: this ruleset has an error, the others go on
        load, build = LoadResult(), None
        diags = [internal_error(sources[0].label if sources else name, err)]
    if not load.files and not diags:
        diags.append(Diagnostic("F001", f"no files found for ruleset `{name}`", file=str(root or name)))
    result = RulesetResult(name, load, build, diags)
    if root is None:
        _cache[key] = result
    return result


def rulesets() -> list[str]:
    return installed_rulesets()
