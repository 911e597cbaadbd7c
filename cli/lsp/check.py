"""What `legacies lsp` checks when a document changes: the document's ruleset, as
`legacies validate FILE` would check that file, with the text the editor holds in place
of what is on disk (the open documents are read from memory, every other file from
disk or the installed package).

This module owns the choice of files (the same rules as pipeline/validate.py for one
file: the ruleset around it on disk when its folder holds rules/<name>/ruleset.yaml,
else the installed ruleset the file names or lies in, the file laid over it by place)
and one check's result (every Diagnostic, the loaded files and the built vocabulary
and spec, for hover, definition and completion). No editor protocol lives here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from legacies.dsl.diagnostics import Diagnostic, has_errors
from legacies.interpreter.spec import GameSpec
from legacies.pipeline.build.passes import BuildResult, build_spec
from legacies.pipeline.files import SourceFile, disk_label, guess_kind, installed_rulesets, ruleset_files
from legacies.pipeline.internal_errors import internal_error
from legacies.pipeline.load import LoadedFile, LoadResult, finished, load_source, took
from legacies.pipeline.size_bounds import Tally
from legacies.pipeline.ruleset_choice import expansion_stack
from legacies.pipeline.stack import StackError, expansion_folder, stack_sources
from legacies.pipeline.validate import (UsageError, gc_paused, consequences, over_installed, ruleset_folder,
                                        smoke_check)

from . import limits
from .limits import LimitPassed, bounded

_DECLARED = re.compile(r"^ruleset:\s*([A-Za-z0-9_-]+)", re.MULTILINE)


@dataclass
class Check:
    """One check of a ruleset: every problem in every file, and what was built."""

    ruleset: str
    key: str  # the ruleset and where it comes from: checks with one key share names and items
    labels: dict[str, Path]  # label -> path, for every file read from an open document
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[LoadedFile] = field(default_factory=list)
    build: BuildResult | None = None

    @property
    def spec(self) -> GameSpec | None:
        return self.build.spec if self.build is not None else None

    @property
    def ok(self) -> bool:
        """Built, with no error in any file (a file that did not load is left out of the
        spec: the spec of a check with errors may lack items)."""
        return self.spec is not None and not has_errors(self.diagnostics)


def belongs_to_ruleset(path: Path, text: str) -> bool:
    """A content or rules file: under rules/<name>/ or content/<name>/, or naming its
    ruleset (`ruleset: NAME`). Any other YAML file an editor opens is left alone."""
    return ruleset_folder(path) is not None or _DECLARED.search(text.removeprefix("\ufeff")) is not None


def check_document(path: Path, texts: Mapping[Path, str]) -> Check:
    """Check the ruleset of the document at `path` (its text is texts[path]); every
    other open document of that ruleset is read from `texts` too. Raises UsageError
    when the file names a ruleset that is not installed (validate's exit code 2)."""
    name, key, sources = _sources(path, texts)
    overlaid = _overlay(sources, texts)
    check = Check(name, key, {disk_label(p): p for p in texts if disk_label(p) in {s.label for s in overlaid}})
    try:
        with gc_paused():
            _run(check, overlaid)
    except Exception as err:  # noqa: BLE001 - an engine bug: said on the file, the server goes on
        check.diagnostics.append(internal_error(disk_label(path), err))
    return check


def _run(check: Check, sources: list[SourceFile]) -> None:
    """pipeline/validate.py's check of one ruleset, keeping what was built."""
    load = _load(sources)
    check.diagnostics.extend(load.diagnostics)
    check.files = load.files
    if load.stopped:  # a size bound: an open document past it is said to be unchecked, not left blank
        why = next((d for d in load.diagnostics if d.code in ("F012", "C014")), None)
        refused = next((d for d in load.diagnostics if d.code == "F003"), None) if load.ruleset_refused else None
        for label in check.labels:
            if label not in load.sources and why is not None:
                check.diagnostics.append(Diagnostic(why.code, f"this file is not checked: {why.message}", file=label,
                                                    hint=why.hint))
            elif refused is not None and label != load.ruleset_refused:  # said on every open file it leaves unchecked
                check.diagnostics.append(replace(refused, message="this file's names and effects are not checked "
                                                                  "until its ruleset.yaml loads (see its errors)", file=label))
    if not load.files or load.stopped:
        return
    check.build = build_spec(load.files)
    diagnostics = check.build.diagnostics
    diagnostics = consequences(diagnostics, load.files, sources)  # a file or an item that did not load
    check.diagnostics.extend(diagnostics)
    if check.build.spec is not None:  # the content runs here: within the editor's limits (cli/limits.py)
        spec, label = check.build.spec, load.files[0].label
        try:
            seconds = limits.SETUP_SECONDS  # the rules stop themselves there, located; the kill is the backstop
            check.diagnostics.extend(bounded(lambda: smoke_check(spec, label, seconds, "the editor's check"),
                                             seconds=seconds + limits.KILL_GRACE))
        except LimitPassed as err:
            check.diagnostics.append(Diagnostic("E300", str(err), file=label, hint="run `legacies validate` on "
                                                "the ruleset, or `legacies play` with random seats, to see where"))


# label -> (kind, bytes, what loading them gave): a file unchanged since the last check
# is not parsed again (reading YAML is half the time of a check); one entry a file
_loaded: dict[str, tuple[tuple[str, str, str | None], bytes, tuple[LoadedFile | None, list[Diagnostic], list[str]]]] = {}


def _load(sources: list[SourceFile]) -> LoadResult:
    """pipeline.load.load_sources, remembering each file's result by its bytes (building
    never changes a loaded file: its model is frozen)."""
    result = LoadResult()
    tally = Tally()  # the size bounds of pipeline/size_bounds.py, as load_sources counts them
    for source in sources:
        refused = tally.admit(source.label, len(sources))
        if tally.stopped:
            result.diagnostics.extend([refused] if refused is not None else [])
            break
        try:
            raw: bytes | None = source.read()
        except (OSError, ValueError):  # unreadable: load_source reads it again and says why
            raw = None
        known = _loaded.get(source.label)
        how = (source.kind, source.layer, source.over.label if source.over is not None else None)
        if raw is not None and known is not None and known[:2] == (how, raw):
            loaded, problems, lines = known[2]
        else:
            once = source if raw is None else source._replace(read=_bytes(raw))
            loaded, problems, lines = load_source(once)
            if raw is not None:
                _loaded[source.label] = (how, raw, (loaded, problems, lines))
        result.sources[source.label] = lines
        result.diagnostics.extend(problems)
        result.diagnostics.extend(tally.count(loaded, len(raw or b"")))
        took(result, source, loaded)
    return finished(result, tally)


def _sources(path: Path, texts: Mapping[Path, str]) -> tuple[str, str, list[SourceFile]]:
    """(ruleset, key, files) as `legacies validate FILE` chooses them."""
    text = texts[path]
    folder = expansion_folder(path)
    if folder is not None:  # a file of an expansion: the stack as a whole, as `validate -x FOLDER` checks it
        name, stack = expansion_stack(None, [folder])
        try:
            files, _ = stack_sources(name, None, stack)
        except StackError as err:
            raise UsageError(str(err)) from err
        if disk_label(path) not in {s.label for s in files}:  # a new file, or one in no usual place
            files.append(_document(path, text))
        return name, f"{name}+{os.path.abspath(folder)}", files
    around = ruleset_folder(path)
    if around is not None:
        root, name = around
        if (root / "rules" / name / "ruleset.yaml").is_file():  # a ruleset on disk: the file as part of it
            files = ruleset_files(name, root)
            if disk_label(path) not in {s.label for s in files}:  # a new file, or one in no usual place
                files.append(_document(path, text))
            return name, f"{name}@{os.path.abspath(root)}", files
    declared = _DECLARED.search(text.removeprefix("\ufeff"))
    name = declared.group(1) if declared else around[1] if around else path.stem
    document = _document(path, text)
    if name in installed_rulesets():
        return name, name, over_installed(name, [document])
    if document.kind != "ruleset":
        raise UsageError(f"this file is for ruleset `{name}`, which is not installed "
                         f"(a folder holding rules/{name}/ruleset.yaml is checked as that ruleset)")
    return name, f"{name}@{os.path.abspath(path)}", [document]


def _document(path: Path, text: str) -> SourceFile:
    return SourceFile(disk_label(path), guess_kind(path, text), _bytes(text.encode("utf-8", errors="surrogatepass")))


def _overlay(sources: list[SourceFile], texts: Mapping[Path, str]) -> list[SourceFile]:
    """`sources` with each file an editor holds open read from its text."""
    open_documents = {disk_label(p): text for p, text in texts.items()}
    out = []
    for source in sources:
        text = open_documents.get(source.label)
        if text is not None:
            source = source._replace(read=_bytes(text.encode("utf-8", errors="surrogatepass")))
        out.append(source)
    return out


def _bytes(data: bytes) -> Callable[[], bytes]:
    return lambda: data
