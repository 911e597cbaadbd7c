"""The content pipeline as one service: find a game's files (a ruleset and the
expansions laid over it: pipeline/stack.py), load them, build and check the spec.
`load_ruleset` is what `legacies validate`, `play`, `explain` and the rest call; a
compiled spec is cached per ruleset name and installed expansions for the life of the
process."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from legacies.dsl.diagnostics import Diagnostic, has_errors
from legacies.interpreter.spec import GameSpec

from .build.passes import BuildResult, build_spec
from .files import SourceFile, installed_rulesets
from .internal_errors import internal_error
from .load import LoadResult, load_sources
from .size_bounds import cap_repeats
from .stack import Expansion, StackError, find_expansion, lay, place_of, resolve, stack_sources

__all__ = ["ExpansionError", "RulesetResult", "expanded_sources", "expansion_rulesets", "lay", "load_ruleset",
           "place_of", "rulesets"]

ExpansionError = StackError  # the name the commands catch: what they were given cannot make a game


@dataclass
class RulesetResult:
    name: str
    load: LoadResult
    build: BuildResult | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    expansions: list[Expansion] = field(default_factory=list)

    @property
    def spec(self) -> GameSpec | None:
        """The spec a game is played from: None when anything has an error, a file
        refused whole (a schema error), a file of an expansion, a build error, so that
        content validation refuses is never played (`play`, `simulate`, `soak`, `try`,
        `serve`, `replay`, `test` all read this). `built_spec` is what was built all the
        same, for the tools that only read it (`content`'s columns)."""
        return self.built_spec if self.ok else None

    @property
    def built_spec(self) -> GameSpec | None:
        return self.build.spec if self.build is not None else None

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


_cache: dict[str, RulesetResult] = {}

ExpansionRef = str | Path | Expansion


def load_ruleset(name: str, root: Path | str | None = None,
                 expansions: Sequence[ExpansionRef] = ()) -> RulesetResult:
    """Load, check and build ruleset `name` (installed, or from a folder) with expansions
    (installed ones by name, folders on disk) laid over it in order, each after the ones
    it requires. StackError (ExpansionError) when what was named cannot make a game."""
    stack = _expansions(name, expansions)
    cacheable = root is None and all(e.installed for e in stack)
    key = f"{name}@{root}+" + "+".join(e.name for e in stack)
    if cacheable and key in _cache:
        return _cache[key]
    sources, notes = stack_sources(name, root, stack)
    result = _build(name, root, sources, notes)
    result.expansions = list(stack)
    if cacheable:
        _cache[key] = result
    return result


def _expansions(name: str, refs: Sequence[ExpansionRef]) -> list[Expansion]:
    return resolve(name, refs)[1] if refs else []


def expanded_sources(name: str, root: Path | str | None = None,
                     expansions: Sequence[ExpansionRef] = ()) -> tuple[list[SourceFile], list[Diagnostic]]:
    """The files of ruleset `name` with the expansions laid over it, and the notes on
    what the expansions' folders hold that nothing reads."""
    return stack_sources(name, root, _expansions(name, expansions))


def expansion_rulesets(expansions: Sequence[ExpansionRef]) -> list[str]:
    """The rulesets expansions are for: the ones they extend, else their folders' names."""
    names: set[str] = set()
    for ref in expansions:
        exp = ref if isinstance(ref, Expansion) else find_expansion(ref)
        names.update([exp.extends] if exp.extends else exp.rulesets())
    return sorted(names)


def _build(name: str, root: Path | str | None, sources: list[SourceFile],
           notes: list[Diagnostic] = ()) -> RulesetResult:  # type: ignore[assignment]
    try:
        load = load_sources(sources)
        build = build_spec(load.files) if load.files and not load.stopped else None
        diags = cap_repeats(list(notes) + list(load.diagnostics) + (build.diagnostics if build else []))
    except Exception as err:  # noqa: BLE001 - an engine bug: this ruleset has an error, the others go on
        load, build = LoadResult(), None
        diags = [internal_error(sources[0].label if sources else name, err)]
    if not load.files and not diags:
        diags.append(Diagnostic("F001", f"no files found for ruleset `{name}`", file=str(root or name)))
    return RulesetResult(name, load, build, diags)


def rulesets() -> list[str]:
    return installed_rulesets()
