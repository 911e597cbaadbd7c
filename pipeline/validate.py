"""The service behind `legacies validate`: which files to check for the paths and
ruleset the user named, and every Diagnostic found in them (check-jsonschema's
checker -> result). It never raises on content; a usage problem is a UsageError.

- no path: every installed ruleset (or the one named with --ruleset);
- a folder holding rules/<name>/ruleset.yaml: that ruleset, from the folder;
- a folder with only content/<name>/: an expansion, checked on top of the installed
  ruleset <name>;
- a file: checked with the rest of its ruleset (named by --ruleset, or by the file's
  own `ruleset:` key); a file with the same place as a shipped one replaces it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from legacies.dsl.diagnostics import Diagnostic, has_errors

from .build import build_spec
from .files import SourceFile, installed_rulesets, ruleset_files, single_file
from .load import load_sources


class UsageError(Exception):
    """The command was asked something that cannot be checked (exit code 2)."""


@dataclass
class ValidationResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, list[str]] = field(default_factory=dict)
    files: int = 0
    rulesets: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def _check(result: ValidationResult, name: str, sources: list[SourceFile]) -> None:
    load = load_sources(sources)
    result.sources.update(load.sources)
    result.files += len(sources)
    result.rulesets.append(name)
    result.diagnostics.extend(load.diagnostics)
    if load.files:
        build = build_spec(load.files)
        if len(load.files) < len(sources):  # some file could not be read: names it defines are missing
            build.diagnostics = [_maybe_consequence(d) for d in build.diagnostics]
        result.diagnostics.extend(build.diagnostics)
        if build.spec is not None:
            result.diagnostics.extend(_smoke(build.spec, load.files[0].label))


def _maybe_consequence(d: Diagnostic) -> Diagnostic:
    if d.code not in ("E201", "E203", "E205", "E206", "C002"):
        return d
    note = "a file of this ruleset could not be loaded: this may follow from that; fix it first"
    return replace(d, hint=f"{d.hint}; {note}" if d.hint else note)


def _smoke(spec: object, label: str) -> list[Diagnostic]:
    """Compile the checked spec and run its setup up to the first decision, at the
    smallest player count: what the checker cannot see (a runaway setup, a zone that
    is empty at the start) is reported too, at the statement that failed, never raised."""
    from legacies.interpreter.errors import GameError, InternalError
    from legacies.interpreter.game import Game

    try:
        Game(spec, spec.min_players).new_state(0)  # type: ignore[arg-type, attr-defined]
    except InternalError as err:
        where = err.where
        running = f" (running: {'; '.join(err.running)})" if err.running else ""
        if where is not None and where.file:
            return [Diagnostic("E300", f"the game fails at setup, in {where.what}: {err.message}{running}",
                               where.line or 1, where.column or 1, file=where.file,
                               hint="try `legacies play` with random seats to see the game up to the failure")]
        return [Diagnostic("E300", f"the game fails at setup: {err}", 1, 1, file=label,
                           hint="try `legacies play` with random seats to see the game up to the failure")]
    except GameError as err:  # the rules refused something while setting up
        return [Diagnostic("E300", f"the game cannot be set up: {err}", 1, 1, file=label)]
    except Exception as err:  # noqa: BLE001 - an engine bug: reported as one (exit 1), never a traceback
        return [Diagnostic("E301", f"internal error while compiling the ruleset (a bug in legacies): {err!r}",
                           file=label)]
    return []


def _declared_ruleset(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    m = re.search(r"^ruleset:\s*([A-Za-z0-9_-]+)", text, re.MULTILINE)
    return m.group(1) if m else None


def validate(paths: list[str], ruleset: str | None = None) -> ValidationResult:
    installed = installed_rulesets()
    result = ValidationResult()
    if ruleset is not None and not paths and ruleset not in installed:
        raise UsageError(f"unknown ruleset `{ruleset}`; installed: {', '.join(installed) or 'none'}")
    if not paths:
        for name in [ruleset] if ruleset else installed:
            _check(result, name, ruleset_files(name))
        return result
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise UsageError(f"no such file or folder: {raw}")
        if path.is_dir():
            _validate_folder(result, path, ruleset, installed)
        else:
            _validate_file(result, path, ruleset, installed)
    return result


def _validate_folder(result: ValidationResult, path: Path, ruleset: str | None, installed: list[str]) -> None:
    names: set[str] = set()
    for sub in ("rules", "content"):
        folder = path / sub
        if folder.is_dir():
            names.update(p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    if ruleset is not None:
        names &= {ruleset}
    if not names:
        raise UsageError(f"{path} holds no rules/<ruleset>/ or content/<ruleset>/ folder"
                         + (f" for ruleset `{ruleset}`" if ruleset else ""))
    for name in sorted(names):
        if (path / "rules" / name / "ruleset.yaml").is_file():
            _check(result, name, ruleset_files(name, path))
        elif name in installed:  # an expansion: its content and procedures on top of the base
            extra = [s for s in ruleset_files(name, path) if s.kind in ("content", "procedures")]
            _check(result, name, ruleset_files(name) + extra)
        else:
            raise UsageError(f"{path}/content/{name} extends ruleset `{name}`, which is not installed "
                             f"and has no rules/{name}/ruleset.yaml here")


def _validate_file(result: ValidationResult, path: Path, ruleset: str | None, installed: list[str]) -> None:
    source = single_file(path)
    name = ruleset or _declared_ruleset(path) or _ruleset_folder(path)
    if name is None or name not in installed:
        if source.kind == "ruleset" or name is None:
            _check(result, name or path.stem, [source])
            return
        raise UsageError(f"{path} is for ruleset `{name}`, which is not installed; name one with --ruleset")
    shipped = ruleset_files(name)
    replaced = [s for s in shipped if not (s.kind == source.kind and _same_place(s.label, path))]
    if source.kind == "ruleset":
        replaced = [s for s in replaced if s.kind != "ruleset"]
    _check(result, name, replaced + [source])


def _ruleset_folder(path: Path) -> str | None:
    """`rules/<name>/file.yaml` or `content/<name>/.../file.yaml` -> name."""
    parts = path.resolve().parts
    for anchor in ("rules", "content"):
        if anchor in parts[:-1]:
            i = len(parts) - 1 - parts[::-1].index(anchor)
            if i + 1 < len(parts) - 1:
                return parts[i + 1]
    return None


def _same_place(label: str, path: Path) -> bool:
    parts = Path(label).parts
    return len(parts) >= 3 and path.resolve().as_posix().endswith("/".join(parts[-3:]))
