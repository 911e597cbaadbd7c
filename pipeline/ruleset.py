"""The content pipeline as one service: find a ruleset's files, load them, build and
check the spec. `load_ruleset` is what `legacies validate`, `play` and `explain` call;
a compiled spec is cached per ruleset name for the life of the process."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from legacies.dsl.diagnostics import Diagnostic, has_errors
from legacies.interpreter.spec import GameSpec

from .build import BuildResult, build_spec
from .files import SourceFile, installed_rulesets, ruleset_files
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


class ExpansionError(Exception):
    """An expansion folder that holds nothing for the ruleset it is laid over."""


def load_ruleset(name: str, root: Path | str | None = None,
                 expansions: list[Path] | tuple[Path, ...] = ()) -> RulesetResult:
    """Load, check and build ruleset `name` (from the installed package, or a folder),
    with expansion folders laid over it in order (see `layer`)."""
    key = f"{name}@{root}"
    if root is None and not expansions and key in _cache:
        return _cache[key]
    return _build(name, root, expanded_sources(name, root, expansions), cache=root is None and not expansions)


def expanded_sources(name: str, root: Path | str | None = None,
                     expansions: list[Path] | tuple[Path, ...] = ()) -> list[SourceFile]:
    """The files of ruleset `name` (installed, or in the folder `root`) with expansion
    folders laid over it in order; ExpansionError for a folder that holds nothing for it."""
    sources = ruleset_files(name, root)
    for folder in expansions:
        extra = [s for s in ruleset_files(name, folder) if s.kind != "ruleset"]
        if not extra:
            raise ExpansionError(f"{folder} holds nothing for ruleset `{name}`: an expansion has "
                                 f"content/{name}/ (new items, changed ones) and/or rules/{name}/ (procedures)")
        sources = layer(sources, extra, name)
    return sources


def expansion_rulesets(expansions: list[Path] | tuple[Path, ...]) -> list[str]:
    """The rulesets expansion folders are for: the names of their rules/NAME/ and
    content/NAME/ folders."""
    names: set[str] = set()
    for folder in expansions:
        for sub in ("rules", "content"):
            if (Path(folder) / sub).is_dir():
                names.update(p.name for p in (Path(folder) / sub).iterdir()
                             if p.is_dir() and not p.name.startswith((".", "_")))
    return sorted(names)


def layer(base: list[SourceFile], files: list[SourceFile], name: str) -> list[SourceFile]:
    """`files` laid over `base`, by place: a file at the place of a base file
    (content/<name>/cards.yaml) replaces it where it stands (the order of the pieces is
    kept); the others come after. One set of semantics for validate, play and the rest:
    an expansion adds items and procedures, and changes values by replacing a file."""
    places: dict[str, SourceFile] = {}
    for f in files:
        place = place_of(f.label, name) if f.kind != "ruleset" else f"rules/{name}/ruleset.yaml"
        places.setdefault(place or f"?{len(places)}/{f.label}", f)
    out: list[SourceFile] = []
    for shipped in base:
        out.append(places.pop(place_of(shipped.label, name) or shipped.label, shipped))
    out.extend(places.values())
    return out


def place_of(label: str, name: str) -> str | None:
    """`.../content/<name>/x/y.yaml` -> `content/<name>/x/y.yaml` (the same for rules/)."""
    parts = Path(label).as_posix().split("/")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] in ("rules", "content") and parts[i + 1] == name:
            return "/".join(parts[i:])
    return None


def _build(name: str, root: Path | str | None, sources: list[SourceFile], cache: bool) -> RulesetResult:
    key = f"{name}@{root}"
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
    if cache:
        _cache[key] = result
    return result


def rulesets() -> list[str]:
    return installed_rulesets()
