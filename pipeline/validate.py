"""The service behind `legacies validate`: which files to check for the paths and
ruleset the user named, and every Diagnostic found in them (check-jsonschema's
checker -> result). It never raises on content; a usage problem is a UsageError.

- no path: every installed ruleset (or the one named with --ruleset);
- a folder holding rules/<name>/ruleset.yaml: that ruleset, from the folder (it replaces
  the installed ruleset of the same name: a copy of the repo checks as itself);
- a folder with content/<name>/ (and perhaps procedures in rules/<name>/) but no
  ruleset.yaml: checked with the installed ruleset <name>, each of its files replacing
  the installed file at the same place (content/<name>/cards.yaml replaces the shipped
  cards.yaml), the others added (an expansion);
- a ruleset's own folder (rules/<name>/, content/<name>/ or a folder below): the
  ruleset it belongs to, as laid out around it (as above);
- a file: checked with the rest of its ruleset: the one around it on disk when its
  folder holds rules/<name>/ruleset.yaml, else the installed one (named by --ruleset,
  the file's `ruleset:` key or its folder), a file at a shipped file's place replacing it.

One ruleset that cannot be checked (an engine bug met while checking) is reported as
E302 and never stops the others.
"""

from __future__ import annotations

import gc
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

from legacies.dsl.diagnostics import WARNING, Diagnostic, has_errors
from legacies.dsl.errors import LegaciesError

from . import check_cache
from .files import EXPANSION_FILES, SourceFile, installed_rulesets, read_regular, ruleset_files, single_file
from .internal_errors import internal_error
from .size_bounds import cap_repeats
from .walk import os_sentence, real_path, subfolders, system_folder

if TYPE_CHECKING:
    from .build.passes import BuildResult
    from .load import LoadedFile, LoadResult


def cut(text: str, limit: int = 200) -> str:
    """A path or name given on the command line, as a message echoes it: at most `limit`
    characters and its length."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


class UsageError(LegaciesError):
    """The command was asked something that cannot be checked (exit code 2)."""

    usage = True


@dataclass
class ValidationResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, list[str]] = field(default_factory=dict)
    files: int = 0
    rulesets: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def validate_args(name: str, root: str | None, expansions: Sequence[str | Path] = ()) -> str:
    """What to give `legacies validate` to check the same game as a command given the
    ruleset `name` (a folder `root`, the expansions laid over it): the advice every
    command that refuses broken content gives (`explain` and `test` named the ruleset
    alone, and validate found nothing wrong)."""
    if expansions:
        return " ".join(f"-x {x}" for x in expansions) + (f" {root}" if root else f" --ruleset {name}")
    return root if root is not None else f"--ruleset {name}"


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a ruleset is built: building makes hundreds of
    thousands of objects that all live on, and each automatic collection walks all of
    them again (a sixth of the time at 6,656 items). One collection may follow."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


# The passes are imported when a ruleset is checked, not when its result is read from the
# cache (pipeline/check_cache.py): an unchanged ruleset's `validate` never imports them.
def build_spec(files: list[LoadedFile]) -> BuildResult:
    from .build.passes import build_spec as build

    return build(files)


def load_sources(sources: list[SourceFile]) -> LoadResult:
    from .load import load_sources as load

    return load(sources)


def check_setup(spec: object, label: str, seconds: float | None, what: str) -> list[Diagnostic]:
    from .setup_check import check_setup as check

    return check(spec, label, seconds, what)


def _check(result: ValidationResult, name: str, sources: list[SourceFile], notes: list[Diagnostic] = []) -> None:
    """Check one ruleset's files (or read what checking them found, when nothing they
    are made of changed: pipeline/check_cache.py) into `result`."""
    result.files += len(sources)
    result.rulesets.append(name)

    def check() -> tuple[list[Diagnostic], dict[str, list[str]]]:
        found = ValidationResult()
        try:
            with gc_paused():
                _check_ruleset(found, sources)
        except Exception as err:  # noqa: BLE001 - an engine bug: reported for this ruleset, the others go on
            label = sources[0].label if sources else name
            found.diagnostics.append(internal_error(label, err))
        return found.diagnostics, found.sources

    diagnostics, lines = check_cache.cached_check(sources, check)
    result.sources.update(lines)
    result.diagnostics.extend(cap_repeats(list(notes) + diagnostics))  # at most MAX_SAME_CODE of one code in full


def _check_ruleset(result: ValidationResult, sources: list[SourceFile]) -> None:
    load = load_sources(sources)
    result.sources.update(load.sources)
    result.diagnostics.extend(load.diagnostics)
    if load.files and not load.stopped:  # past a size bound nothing is built (pipeline/size_bounds.py)
        build = build_spec(load.files)
        build.diagnostics = consequences(build.diagnostics, load.files, sources)
        result.diagnostics.extend(build.diagnostics)
        if build.spec is not None:
            result.diagnostics.extend(smoke_check(build.spec, load.files[0].label))


def consequences(diagnostics: list[Diagnostic], files: "list[LoadedFile]", sources: Sequence[SourceFile]
                 ) -> list[Diagnostic]:
    """The build's diagnostics, each that may follow from a file not loaded, or an item its
    schema refused (a name it defines is missing), saying so."""
    loaded = {f.label for f in files}
    if any(not _blank(s) for s in sources if s.label not in loaded):  # a file not loaded: names it defines are missing
        return [maybe_consequence(d) for d in diagnostics]
    dropped = [(i, f) for f in files for i in f.dropped]
    if dropped:
        out = []
        for d in diagnostics:  # said where the message names a refused item (any, for an item without an id)
            named = [(i, f) for i, f in dropped if not i or f"`{i}`" in d.message or f"`{i}:`" in d.message]
            if not named:
                out.append(d)
                continue
            name, file = named[0]
            what = f"the item `{name}`" if file.kind == "content" else f"`{name}` in {file.label.rsplit('/', 1)[-1]}"
            # where its error is, not "above": the diagnostics are sorted by file, and its file
            # may come after this one (a user's trial: expansion.yaml after content/)
            note = (f"{what} was refused (its error is in {file.label}): this follows from that" if name
                    else f"an item was refused (its error is in {file.label}): this may follow from that")
            out.append(maybe_consequence(d, note))
        return out
    return diagnostics


def _blank(source: SourceFile) -> bool:
    """Whether a file holds nothing but blank lines and comments: one that was not loaded
    defined no name, so no mistake elsewhere follows from it."""
    try:
        text = source.read().decode("utf-8-sig", errors="replace")
    except OSError:
        return False
    return all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines())


def maybe_consequence(d: Diagnostic, note: str = "") -> Diagnostic:
    if d.code not in ("E201", "E203", "E205", "E206", "C002", "R001", "F004"):
        return d
    note = note or "a file of this ruleset could not be loaded: this may follow from that; fix it first"
    return replace(d, hint=f"{d.hint}; {note}" if d.hint else note)


def smoke_check(spec: object, label: str, seconds: float | None = None,
                what: str = "the setup check") -> list[Diagnostic]:
    """Compile the checked spec and set the game up under the option values that change
    the setup (pipeline/setup_check.py), within `seconds` (its SETUP_SECONDS unless
    given): what the checker cannot see is reported at the statement that failed, never
    raised."""
    try:
        return check_setup(spec, label, seconds, what)
    except Exception as err:  # noqa: BLE001 - an engine bug: reported as one (exit 1), its traceback kept
        return [internal_error(label, err, "E301", "compiling and setting up this ruleset")]


def _declared_ruleset(path: Path) -> str | None:
    try:
        text = read_regular(path).decode("utf-8-sig", errors="replace")
    except OSError:
        return None
    m = re.search(r"^ruleset:\s*([A-Za-z0-9_-]+)", text, re.MULTILINE)
    return m.group(1) if m else None


def validate(paths: list[str], ruleset: str | None = None,
             expansions: tuple[str | Path, ...] = ()) -> ValidationResult:
    installed = installed_rulesets()
    result = ValidationResult()
    if expansions:
        _validate_expanded(result, paths, ruleset, expansions, installed)
        return result
    if ruleset is not None and not paths and ruleset not in installed:
        raise UsageError(f"unknown ruleset `{cut(ruleset)}`; installed: {', '.join(installed) or 'none'}")
    if not paths:
        for name in [ruleset] if ruleset else installed:
            _check(result, name, ruleset_files(name))
        return result
    for raw in paths:
        path = Path(raw)
        try:
            exists, is_dir = os.path.lexists(path), path.is_dir()
            if not exists:
                os.lstat(path)  # the reason in words (a name too long, a folder that cannot be looked into)
        except FileNotFoundError:
            exists = False
        except OSError as err:
            raise UsageError(f"{cut(raw)}: {os_sentence(err)}") from None
        if not exists:
            raise UsageError(f"no such file or folder: {cut(raw)}")
        system = system_folder(real_path(path)) if is_dir else None
        if system is not None:
            raise UsageError(f"{cut(raw)}: {system} is a folder of the system, never read as content")
        if is_dir:
            _validate_folder(result, path, ruleset, installed)
        else:
            _validate_file(result, path, ruleset, installed)
    return result


def _validate_expanded(result: ValidationResult, paths: list[str], ruleset: str | None,
                       expansions: tuple[str | Path, ...], installed: list[str]) -> None:
    """`--expansion` folders or names laid, in order, over the ruleset (installed, or the
    ruleset folder given as PATH): the stack checked as one ruleset, as `play -x` loads it."""
    from .stack import StackError, resolve, stack_sources

    if len(paths) > 1:
        raise UsageError("with --expansion, give at most one PATH: the ruleset folder they are laid over")
    try:
        name, stack = resolve(ruleset, expansions)
    except StackError as err:
        raise UsageError(str(err)) from err
    root: Path | None = None
    if paths:
        root = Path(paths[0])
        if not (root.is_dir() and name is not None and (root / "rules" / name / "ruleset.yaml").is_file()):
            raise UsageError(f"{cut(paths[0])} is not a ruleset folder for the expansions (rules/NAME/ruleset.yaml "
                             f"for {name or 'their ruleset'})")
    if name is None:
        raise UsageError("the expansions name no ruleset: an expansion's expansion.yaml says `extends: RULESET`")
    if root is None and name not in installed:
        from .stack import unknown_extends

        found = unknown_extends(stack, name, installed)
        if found is None:
            raise UsageError(f"the expansions are for ruleset `{name}`, which is not installed; give its folder as PATH")
        diagnostic, text = found  # said in the file that says it, as any other mistake in it
        result.files += 1
        result.diagnostics.append(diagnostic)
        result.sources[diagnostic.file] = text.splitlines()
        return
    try:
        sources, notes = stack_sources(name, root, stack)
    except StackError as err:
        raise UsageError(str(err)) from err
    _check(result, name, sources, notes)


def _validate_folder(result: ValidationResult, path: Path, ruleset: str | None, installed: list[str]) -> None:
    if any((path / name).is_file() for name in EXPANSION_FILES):  # an expansion: checked laid over its ruleset
        _validate_expanded(result, [], ruleset, (path,), installed)
        return
    names: set[str] = set()
    for sub in ("rules", "content"):
        names.update(subfolders(path / sub))
    root = path
    if not names and Path(os.path.abspath(path)).name in ("rules", "content"):  # the rules/ or content/ folder
        root = Path(os.path.abspath(path)).parent
        names = set(subfolders(path))
    if not names:  # rules/<name>/, content/<name>/ or a folder below: the ruleset it belongs to
        found = ruleset_folder(path / "_")
        if found is not None:
            root, name = found
            names = {name}
    if ruleset is not None:
        names &= {ruleset}
    if not names:
        raise UsageError(f"{cut(str(path))} holds no rules/<ruleset>/ or content/<ruleset>/ folder"
                         + (f" for ruleset `{ruleset}`" if ruleset else ""))
    for name in sorted(names):
        _check_on_disk(result, root, name, installed)


def _check_on_disk(result: ValidationResult, root: Path, name: str, installed: list[str],
                   extra: SourceFile | None = None) -> None:
    """Ruleset `name` as laid out under `root`: whole when it has its ruleset.yaml there,
    else its files over the installed ruleset's, by place. `extra`: one more file (a file
    named on the command line that is not under root's usual folders)."""
    disk = ruleset_files(name, root)
    head = root / "rules" / name / "ruleset.yaml"
    if head.is_file():
        _check(result, name, disk + ([extra] if extra else []))
        return
    if os.path.lexists(head):  # there, but nothing to read: said, never passed over for the installed one's
        result.diagnostics.append(Diagnostic(
            "F006", f"cannot read {head}: not a regular file (a folder, a pipe, a device or a broken link), "
            f"so this ruleset cannot be checked", file=str(head),
            hint=f"make it the ruleset's YAML file; without it, the folder's files are laid over the installed `{name}`"))
        return
    if name not in installed:
        raise UsageError(f"{root}/content/{name} extends ruleset `{name}`, which is not installed "
                         f"and has no rules/{name}/ruleset.yaml here")
    layered = [s for s in disk if s.kind != "ruleset"] + ([extra] if extra else [])
    label = str(root)
    # the warning `-x FOLDER` gives the same folder (pipeline/stack.py's expansion_sources)
    note = Diagnostic("X004", f"{label} has no expansion.yaml: it may add items and rules, but no words of its own, "
                      f"and it has no name to be found by (its files are laid over the installed `{name}`)",
                      file=label, severity=WARNING, hint=f"add {label}/expansion.yaml with `expansion: NAME`, "
                      f"`extends: {name}` and `title: ...`")
    from .stack import place_of

    # files only at the installed ruleset's places are its own, edited (no expansion); a file at
    # a place of its own makes the folder what `-x FOLDER` lays as an expansion
    places = {place_of(s.label, name) for s in ruleset_files(name)}
    adds = any(place_of(s.label, name) not in places for s in layered)
    _check(result, name, over_installed(name, layered), [note] if extra is None and adds else [])


def over_installed(name: str, files: list[SourceFile]) -> list[SourceFile]:
    """The installed ruleset `name` with `files` laid over it by place (pipeline.stack.lay):
    files of the ruleset's own, each standing for the installed file at its place."""
    from .stack import lay

    return lay(ruleset_files(name), files, name)


def _validate_file(result: ValidationResult, path: Path, ruleset: str | None, installed: list[str]) -> None:
    from .stack import expansion_folder

    folder = expansion_folder(path)
    if folder is not None:  # a file of an expansion: checked with its siblings, laid over its ruleset
        _validate_expanded(result, [], ruleset, (folder,), installed)
        return
    source = single_file(path)
    around = ruleset_folder(path)
    if around is not None and (ruleset is None or ruleset == around[1]):
        root, folder_name = around
        if (root / "rules" / folder_name / "ruleset.yaml").is_file():  # a ruleset on disk: the file as part of it
            _check_on_disk(result, root, folder_name, installed)
            return
    name = ruleset or _declared_ruleset(path) or (around[1] if around else None)
    if name is None or name not in installed:
        if source.kind == "ruleset" or name is None:
            _check(result, name or path.stem, [source])
            return
        raise UsageError(f"{cut(str(path))} is for ruleset `{name}`, which is not installed; name one with --ruleset")
    _check(result, name, over_installed(name, [source]))


def ruleset_folder(path: Path) -> tuple[Path, str] | None:
    """`ROOT/rules/<name>/...` or `ROOT/content/<name>/...` -> (ROOT, name)."""
    parts = Path(os.path.abspath(path)).parts
    for i in range(len(parts) - 3, -1, -1):
        if parts[i] in ("rules", "content"):
            return Path(*parts[:i]), parts[i + 1]
    return None
