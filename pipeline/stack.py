"""A game's stack: a ruleset and the expansions laid over it, and the files they make.

This module owns what `--ruleset` and `--expansion` mean, for every command and for the
language server. An expansion is a folder, on disk or installed by name in the package
`legacies.expansions` (the repo's expansions/ folder), holding

- `expansion.yaml`: its name, the ruleset it extends, the expansions it requires and
  the words it adds (pipeline/models.py ExpansionFile);
- `rules/<ruleset>/*.yaml`: actions (joining the base's menus), definitions,
  procedures and triggers;
- `content/<ruleset>/**/*.yaml`: its items.

Its files are laid over the ruleset by place: a file at the place of a base file sits
where that one stood and carries it as `over` (pipeline/build/passes.py then requires the file
to say `replaces: true`: X002). A file of an expansion folder that nothing reads is a
diagnostic here (X001, X003, X004), never dropped in silence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Iterable, Sequence

from legacies.dsl.diagnostics import WARNING, Diagnostic
from legacies.dsl.errors import LegaciesError

from .files import (EXPANSION_FILES, RULESET_FILE, SourceFile, disk_label, file_reader, is_yaml, kind_from_keys,
                    read_regular, ruleset_files)
from .walk import MAX_FOLDER_DEPTH, os_sentence, real_path, subfolders, system_folder, walk

EXPANSIONS_PACKAGE = "legacies.expansions"
MAX_STACK = 16  # expansions in one game
_HEAD_KEY = re.compile(r"^(expansion|extends|title|requires)\s*:\s*(.*?)\s*(?:#.*)?$", re.MULTILINE)


class StackError(LegaciesError):
    """What the user named cannot make a game (a usage error: exit code 2)."""

    usage = True


@dataclass(frozen=True)
class Expansion:
    """An expansion folder and what its expansion.yaml says of it (read without the
    full loader: the loader reports that file's problems with the others)."""

    name: str
    folder: Traversable
    label: str  # how messages name the folder: a path on disk, or expansions/NAME
    extends: str | None
    requires: tuple[str, ...] = ()
    title: str = ""
    declared: bool = True  # it has an expansion.yaml
    installed: bool = False

    def rulesets(self) -> list[str]:
        """The rulesets it holds files for (its rules/NAME/ and content/NAME/ folders)."""
        names: set[str] = set()
        for sub in ("rules", "content"):
            names.update(subfolders(self.folder.joinpath(sub)))
        return sorted(names)

    def ruleset(self) -> str | None:
        """The ruleset it is for: the one it extends, else the one its folders name."""
        if self.extends:
            return self.extends
        names = self.rulesets()
        return names[0] if len(names) == 1 else None


# --------------------------------------------------------------------------- finding


def installed_expansions() -> list[Expansion]:
    """The expansions shipped in `legacies.expansions`, by name."""
    try:
        top = resources.files(EXPANSIONS_PACKAGE)
    except ModuleNotFoundError:  # pragma: no cover - an install without the package
        return []
    found = [read_expansion(top.joinpath(name), f"expansions/{name}", installed=True)
             for name in subfolders(top) if _expansion_file(top.joinpath(name)) is not None]
    return sorted(found, key=lambda e: e.name)


def find_expansion(ref: str | Path) -> Expansion:
    """`--expansion NAME|FOLDER`: a folder on disk, else an installed expansion by name."""
    path = Path(ref)
    shown = _cut(str(ref))
    try:
        is_dir, exists = path.is_dir(), path.exists()
    except OSError as err:  # a name too long, a folder that cannot be looked into
        raise StackError(f"--expansion {shown}: {os_sentence(err)}") from None
    if is_dir:
        system = system_folder(real_path(path))
        if system is not None:
            raise StackError(f"--expansion {shown}: {system} is a folder of the system, never read as an expansion")
        return read_expansion(path, disk_label(path))
    if exists:
        raise StackError(f"--expansion {shown}: not a folder (an expansion is a folder holding expansion.yaml)")
    installed = installed_expansions()
    for exp in installed:
        if exp.name == str(ref):
            return exp
    names = ", ".join(e.name for e in installed) or "none"
    raise StackError(f"--expansion {shown}: no such folder, and no expansion of that name is installed "
                     f"(installed: {names})")


def _cut(text: str, limit: int = 200) -> str:
    """A name given on the command line, as messages echo it: at most `limit` characters."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def read_expansion(folder: Traversable, label: str, installed: bool = False) -> Expansion:
    """An expansion's head from its expansion.yaml (its folder's name and folders when it
    has none)."""
    entry = _expansion_file(folder)
    if entry is None:
        exp = Expansion(folder.name, folder, label, None, declared=False, installed=installed)
        return exp
    try:
        text = (read_regular(entry) if isinstance(entry, Path) else entry.read_bytes()).decode("utf-8-sig", "replace")
    except OSError:
        text = ""
    head = dict((k, v.strip("'\"")) for k, v in _HEAD_KEY.findall(text))
    requires = tuple(x.strip().strip("'\"") for x in head.get("requires", "").strip("[]").split(",") if x.strip())
    return Expansion(head.get("expansion") or folder.name, folder, label, head.get("extends") or None,
                     requires, head.get("title", ""), True, installed)


def unknown_extends(stack: Sequence[Expansion], name: str, installed: Iterable[str]) -> tuple[Diagnostic, str] | None:
    """X009 at the `extends:` of the expansion that names ruleset `name`, which is not
    installed (a misspelt name, most often), with the file's text for its excerpt; None
    when no expansion.yaml on disk says it (the folders name it: a usage error)."""
    from legacies.dsl.parser import close_word

    for exp in stack:
        entry = _expansion_file(exp.folder)
        if exp.extends != name or entry is None or not isinstance(entry, Path):
            continue
        try:
            text = read_regular(entry).decode("utf-8-sig", "replace")
        except OSError:
            continue
        # the `extends:` line read_expansion took the name from (its value's quotes skipped)
        found = next((m for m in _HEAD_KEY.finditer(text) if m.group(1) == "extends"), None)
        quoted = 1 if found is not None and found.group(2)[:1] in "'\"" and found.group(2) else 0
        line = text.count("\n", 0, found.start()) + 1 if found else 1
        column = found.start(2) + quoted - (text.rfind("\n", 0, found.start()) + 1) + 1 if found else 1
        names = sorted(installed)
        close = close_word(name, names)
        hint = (f"did you mean `{close}`?" if close
                else f"the installed rulesets: {', '.join(names) or 'none'}; or give the ruleset's folder as PATH")
        return Diagnostic("X009", f"this expansion extends ruleset `{name}`, which is not installed",
                          line=line, column=column, end_column=column + len(name) if found else None,
                          file=disk_label(entry), hint=hint), text
    return None


def _expansion_file(folder: Traversable) -> Traversable | None:
    """The folder's expansion.yaml, when it is one (a content file of that name is not)."""
    for name in EXPANSION_FILES:
        entry = folder.joinpath(name)
        if entry.is_file():
            try:
                raw = read_regular(entry) if isinstance(entry, Path) else entry.read_bytes()
            except OSError:
                return entry  # unreadable: the loader says so
            if kind_from_keys(raw[:65536].decode("utf-8-sig", "replace")) != "content":
                return entry
    return None


def expansion_folder(path: Path) -> Path | None:
    """The expansion folder a file belongs to: the nearest folder above it holding
    expansion.yaml, when the file is that expansion.yaml or lies under its rules/ or
    content/ folders (a file of an expansion is checked with its siblings, as a whole)."""
    absolute = Path(path).absolute()
    for depth, folder in enumerate(absolute.parents):
        if depth > MAX_FOLDER_DEPTH + 3:
            break
        if _expansion_file(folder) is None:
            continue
        relative = absolute.relative_to(folder).parts
        if (len(relative) == 1 and relative[0] in EXPANSION_FILES) or relative[0] in ("rules", "content"):
            return folder
        return None
    return None


# --------------------------------------------------------------------------- resolving


def resolve(ruleset: str | None, refs: Iterable[str | Path | Expansion]) -> tuple[str | None, list[Expansion]]:
    """The ruleset and the expansions, in the order they are laid, for what a command was
    given: each expansion's requirements (installed ones, by name) come before it, once.
    The ruleset is the one named, else the one the expansions extend."""
    given = [ref if isinstance(ref, Expansion) else find_expansion(ref) for ref in refs]
    stack: list[Expansion] = []

    def add(exp: Expansion, needed_by: list[str]) -> None:
        if any(e.name == exp.name for e in stack):
            return
        if len(needed_by) > MAX_STACK:
            raise StackError(f"expansions require each other in a loop: {' -> '.join(needed_by)}")
        for req in exp.requires:
            if exp.name in needed_by:
                raise StackError(f"expansions require each other in a loop: {' -> '.join(needed_by + [exp.name])}")
            match = next((e for e in given if e.name == req), None)
            add(match if match is not None else find_required(req, exp), needed_by + [exp.name])
        stack.append(exp)

    for exp in given:
        add(exp, [])
    if len(stack) > MAX_STACK:
        raise StackError(f"at most {MAX_STACK} expansions in one game, not {len(stack)}")
    names = sorted({r for r in (e.ruleset() for e in stack) if r})
    if ruleset is None and stack:
        if len(names) != 1:
            raise StackError("the expansions are for " + (f"{', '.join(names)}: name one with --ruleset" if names
                             else "no ruleset: an expansion's expansion.yaml says `extends: RULESET`"))
        ruleset = names[0]
    return ruleset, stack


def find_required(name: str, by: Expansion) -> Expansion:
    try:
        return find_expansion(name)
    except StackError:
        raise StackError(f"expansion `{by.name}` requires `{name}`: give it with --expansion (a folder) "
                         "before it, or install it") from None


# --------------------------------------------------------------------------- files


def expansion_sources(exp: Expansion, ruleset: str) -> tuple[list[SourceFile], list[Diagnostic]]:
    """An expansion's files for `ruleset` (expansion.yaml first), and a diagnostic for each
    file of its folder that nothing reads."""
    notes: list[Diagnostic] = []
    files: list[SourceFile] = []
    entry = _expansion_file(exp.folder)
    if entry is not None:
        files.append(SourceFile(_label(exp, entry, entry.name), "expansion", file_reader(entry), exp.name))
    else:
        notes.append(Diagnostic("X004", f"{exp.label} has no expansion.yaml: it may add items and rules, but no "
                                "words of its own, and it has no name to be found by", file=exp.label,
                                severity=WARNING, hint=f"add {exp.label}/expansion.yaml with `expansion: NAME`, "
                                f"`extends: {ruleset}` and `title: ...`"))
    for source in ruleset_files(ruleset, exp.folder):
        if source.kind == "ruleset":
            continue  # listed whether or not it exists: said below if it does
        files.append(source._replace(label=_relabel(exp, source.label), layer=exp.name))
    rules_ruleset = exp.folder.joinpath("rules", ruleset, RULESET_FILE)
    if rules_ruleset.is_file():
        notes.append(Diagnostic("X001", "an expansion declares its words in expansion.yaml: this ruleset.yaml "
                                "is not read", file=_label(exp, rules_ruleset, f"rules/{ruleset}/{RULESET_FILE}"),
                                hint="move its declarations into expansion.yaml (the same keys: counters, kinds, "
                                "zones, events, quantities, menus...)"))
    notes.extend(_unread(exp, ruleset))
    return files, notes


def _unread(exp: Expansion, ruleset: str) -> list[Diagnostic]:
    """X003 for each YAML file of the folder that is neither expansion.yaml nor under
    rules/<ruleset>/ (top level) or content/<ruleset>/; what the walk does not read (a
    link out of the folder or a loop, past its bounds, an OS error) once, where it is.
    Only the folders that are not read are walked for this: rules/<ruleset>/ and
    content/<ruleset>/ are the loader's (their problems are said there)."""
    out: list[Diagnostic] = []
    for w in walk(exp.folder, is_yaml, depth=8, skip=(".", "_")):
        relative = w.relative
        parts = relative.split("/")
        if w.problem is not None:
            if not _read_by_loader(parts, ruleset):
                out.append(_walk_problem(exp, w.entry, relative, w.problem))
            continue
        if len(parts) == 1 and parts[0] in EXPANSION_FILES:
            continue
        if _read_by_loader(parts, ruleset):
            continue
        if parts[0] in ("rules", "content") and len(parts) > 2 and parts[1] != ruleset:
            # content written for another ruleset than the one the expansion extends: never
            # read, whatever else is right (a user's trial: `extends: legacy` over files of
            # content/legacies/ passed CI with none of its cards read)
            said = f"`extends: {exp.extends}` in expansion.yaml" if exp.extends else f"its folders ({ruleset})"
            out.append(Diagnostic("X008", f"this file is never read: it is for ruleset `{parts[1]}`, and this "
                                  f"expansion is laid over `{ruleset}` (by {said})", file=_label(exp, w.entry, relative),
                                  hint=f"if the expansion is for `{parts[1]}`, say `extends: {parts[1]}` in its "
                                  f"expansion.yaml; else move the file to {parts[0]}/{ruleset}/"))
            continue
        why = f"only expansion.yaml, rules/{ruleset}/*.yaml and content/{ruleset}/**/*.yaml are read"
        out.append(Diagnostic("X003", f"this file is not read: {why}", file=_label(exp, w.entry, relative),
                              severity=WARNING, hint=f"move it to content/{ruleset}/ (items) or rules/{ruleset}/ "
                              "(rules), or remove it"))
    return out


def _read_by_loader(parts: list[str], ruleset: str) -> bool:
    return ((parts[0] == "content" and len(parts) > 2 and parts[1] == ruleset)
            or (parts[0] == "rules" and len(parts) == 3 and parts[1] == ruleset))


def _walk_problem(exp: Expansion, entry: Traversable, relative: str, problem: OSError) -> Diagnostic:
    """What the walk of an expansion folder did not read, said where it is."""
    from .yaml_source import walk_diagnostic

    return walk_diagnostic(_label(exp, entry, relative or "."), problem)


def _label(exp: Expansion, entry: Traversable, relative: str) -> str:
    return disk_label(Path(str(entry))) if isinstance(entry, Path) else f"{exp.label}/{relative}"


def _relabel(exp: Expansion, label: str) -> str:
    """An installed expansion's file is named expansions/NAME/rules/... in messages (a
    file on disk keeps its path)."""
    return label if isinstance(exp.folder, Path) else f"{exp.label}/{label}"


def stack_sources(name: str, root: Path | str | None,
                  expansions: Sequence[Expansion]) -> tuple[list[SourceFile], list[Diagnostic]]:
    """The files of ruleset `name` (installed, or in the folder `root`) with the
    expansions laid over it in order, and what the expansions' folders hold unread."""
    sources = ruleset_files(name, root)
    notes: list[Diagnostic] = []
    for exp in expansions:
        if exp.extends is not None and exp.extends != name:
            raise StackError(f"{exp.label} extends `{exp.extends}`, not `{name}`")
        files, found = expansion_sources(exp, name)
        if not files:
            raise StackError(f"{exp.label} holds nothing for ruleset `{name}`: an expansion has expansion.yaml, "
                             f"content/{name}/ and/or rules/{name}/")
        notes.extend(found)
        sources = lay(sources, files, name)
    return sources, notes


def lay(base: list[SourceFile], files: list[SourceFile], name: str) -> list[SourceFile]:
    """`files` laid over `base`, by place: a file at the place of a base file
    (content/<name>/cards.yaml) stands where that one stood, carrying it as `over` (the
    order of the pieces is kept); the others come after, in their order."""
    places: dict[str, SourceFile] = {}
    for f in files:
        place = (f"rules/{name}/{RULESET_FILE}" if f.kind == "ruleset"
                 else place_of(f.label, name) if f.kind != "expansion" else None)
        places.setdefault(place or f"?{len(places)}/{f.label}", f)
    out: list[SourceFile] = []
    for shipped in base:
        key = place_of(shipped.label, name) or shipped.label
        mine = places.pop(key, None)
        out.append(shipped if mine is None else mine._replace(over=shipped))
    out.extend(places.values())
    return out


def place_of(label: str, name: str) -> str | None:
    """`.../content/<name>/x/y.yaml` -> `content/<name>/x/y.yaml` (the same for rules/)."""
    parts = Path(label).as_posix().split("/")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] in ("rules", "content") and parts[i + 1] == name:
            return "/".join(parts[i:])
    return None
