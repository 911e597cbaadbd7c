"""Loaded files -> a checked GameSpec: the parse and check passes of the pipeline.

Checks what each expansion file replaces (X-codes), builds the Vocabulary of the
ruleset and its expansions (pipeline/build_vocabulary.py), checks every reference the
data makes (zones, kinds, enums, content ids, attributes), parses every effect,
condition and value with the effect language, runs the static checker over each
(definitions and procedures in the order they depend on each other, so a use never
comes before what it uses is known) and the ruleset-wide analyses (trigger cycles,
filters that can never match), and places every Diagnostic in its YAML file
(file:line:column). Nothing is compiled or run here; a spec with no errors is ready
for interpreter.Game, each program with the Origin an error at run time will name.
"""

from __future__ import annotations

import difflib
import graphlib
import hashlib
import json
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Iterable

from legacies.dsl import ast
from legacies.dsl.analysis import analyse
from legacies.dsl.checker import Checker, Context
from legacies.dsl.diagnostics import WARNING, Diagnostic, has_errors
from legacies.dsl.numbers import in_range, limit_words, written
from legacies.dsl.parser import EXPRESSION_PREFIX, SyntaxErrors, parse_expression, parse_program
from legacies.dsl.resolution import Resolution
from legacies.dsl.types import ANY, FLAG, T, thing
from legacies.dsl.vocabulary import DefinitionInfo, ProcedureInfo, Vocabulary
from legacies.interpreter.spec import ActionSpec, DefinitionSpec, GameSpec, Limits, Origin, PieceDef, ProcedureSpec

from .build_display import card_attributes, check_display_parts
from .build_table import check_seats, option_names
from .attribute_ranges import range_problem
from .build_vocabulary import Stack, check_names, declare, declare_ruleset, merge, type_of
from .files import SourceFile
from .load import LoadedFile, load_source
from .models import ContentFile, ExpansionFile, ProceduresFile, RulesetFile
from .score_labels import check_score, check_score_labels
from .yaml_source import bounded, excerpt
from .names import name_problems, ruleset_names

Path = tuple
MAX_PIECES = 20_000  # pieces (copies of every content item) in one ruleset (C007)


@dataclass
class BuildResult:
    spec: GameSpec | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    vocab: Vocabulary | None = None
    items: dict[str, tuple[LoadedFile, Path, Any]] = field(default_factory=dict)  # id -> (file, path, item)
    stack: Stack | None = None  # every declaration of the ruleset and its expansions


class _Builder:
    def __init__(self, files: list[LoadedFile]):
        self.files = files
        self.diags: list[Diagnostic] = []
        self.res = Resolution()
        self.vocab = Vocabulary()
        self.display: dict[str, list[tuple[str, str, str | None, str | None]]] = {"table": [], "players": []}
        self.stack = Stack()  # every declaration of the ruleset and its expansions
        self.items: dict[str, tuple[LoadedFile, Path, Any]] = {}  # content items by id, once collected
        self.display_parts: list[tuple[LoadedFile, Path, Any]] = []  # display `text:` and `columns:` entries
        self.display_kinds: dict[str, list[int]] = {}  # display `kinds:`: kind -> its lines' display_parts
        self.unprinted: list[str] = []  # display `unprinted:`
        self.unlogged: list[str] = []  # display `unlogged:`
        self.attribute_labels: dict[tuple[str, str], str] = {}  # (kind, attribute) -> its declared `label:`

    # ------------------------------------------------------------------ reporting
    def at(self, f: LoadedFile, path: Path, code: str, message: str, hint: str | None = None,
           key: bool = False, severity: str = "error") -> None:
        line, col, end = f.span(path, key=key)
        self.diags.append(bounded(Diagnostic(code, message, line, col, severity, hint=hint, file=f.label,
                                             end_column=end)))

    def offsets(self, f: LoadedFile, path: Path) -> tuple[int, int]:
        origin = f.origin(path)
        if origin is None:
            line, col = f.position(path)
            origin = (line - 1, col - 1)
        return origin

    def place(self, f: LoadedFile, path: Path, diags: Iterable[Diagnostic], expression: bool = False) -> None:
        line_offset, column_offset = self.offsets(f, path)
        for d in diags:
            if expression and d.line == 1:
                d = Diagnostic(d.code, d.message, d.line, max(1, d.column - EXPRESSION_PREFIX), d.severity, d.hint,
                               d.file, d.end_column - EXPRESSION_PREFIX if d.end_column else None)
            self.diags.append(bounded(d.shifted(f.label, line_offset, column_offset)))

    def origin(self, f: LoadedFile, path: Path, what: str, expression: bool = False) -> Origin:
        line_offset, column_offset = self.offsets(f, path)
        return Origin(what, f.label, line_offset, column_offset, EXPRESSION_PREFIX if expression else 0)

    def suggest(self, name: str, names: Iterable[str]) -> str | None:
        pool = {n.lower(): n for n in names if n != name}
        close = difflib.get_close_matches(name.lower(), list(pool), n=1, cutoff=0.6)
        return f"did you mean `{pool[close[0]]}`?" if close else None

    # ------------------------------------------------------------------ parsing
    def program(self, f: LoadedFile, path: Path, source: str | None) -> ast.Program | None:
        if source is None:
            return None
        try:
            return parse_program(source)
        except SyntaxErrors as err:
            self.place(f, path, err.diagnostics)
            return None

    def expression(self, f: LoadedFile, path: Path, source: str | None) -> ast.Expr | None:
        if source is None:
            return None
        try:
            return parse_expression(source)
        except SyntaxErrors as err:
            self.place(f, path, err.diagnostics, expression=True)
            return None

    def check_program(self, f: LoadedFile, path: Path, program: ast.Program | None, ctx: Context) -> Checker:
        checker = Checker(self.vocab, self.res)
        if program is not None:
            self.place(f, path, checker.check_program(program, ctx))
        return checker

    def check_expr(self, f: LoadedFile, path: Path, expr: ast.Expr | None, ctx: Context,
                   expected: T | None = None) -> tuple[T, Checker]:
        checker = Checker(self.vocab, self.res)
        if expr is None:
            return ANY, checker
        t = checker.check_expression(expr, ctx, expected)
        self.place(f, path, checker.diags, expression=True)
        return t, checker

    # ------------------------------------------------------------------ vocabulary
    def type_of(self, f: LoadedFile, path: Path, text: str) -> T:
        return type_of(self, f, path, text, self.stack)



def _order(uses: dict[str, set[str]]) -> tuple[list[str], list[list[str]]]:
    """Names in the order they depend on each other (graphlib), and the cycles found."""
    graph = {name: {u for u in deps if u in uses} for name, deps in uses.items()}
    cycles: list[list[str]] = []
    while True:
        try:
            return list(graphlib.TopologicalSorter(graph).static_order()), cycles
        except graphlib.CycleError as err:
            cycle = list(dict.fromkeys(reversed(err.args[1])))  # graphlib lists it used-before-user
            cycles.append(cycle)
            for name in cycle:  # break this cycle and look for the next
                graph[name] = {u for u in graph[name] if u not in cycle}


def _names_used(node: ast.Node, table: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, (ast.Call, ast.Name)) and n.name in table:
            out.add(n.name)
        elif isinstance(n, ast.Run) and n.name.name in table:
            out.add(n.name.name)
    return out


@dataclass
class _Rules:
    """The rules files' declarations by name: (file, name, declaration), in load order."""

    actions: dict[str, tuple[LoadedFile, str, Any]] = field(default_factory=dict)
    definitions: dict[str, tuple[LoadedFile, str, Any]] = field(default_factory=dict)
    procedures: dict[str, tuple[LoadedFile, str, Any]] = field(default_factory=dict)
    triggers: dict[str, tuple[LoadedFile, str, str]] = field(default_factory=dict)
    setup: tuple[LoadedFile, ast.Program | None] | None = None
    game: tuple[LoadedFile, ast.Program | None] | None = None


def build_spec(files: list[LoadedFile]) -> BuildResult:
    """Every problem of every file as Diagnostics; a GameSpec when there are none. The
    passes, in order: the layers (what each expansion file replaces), the vocabulary,
    content ids, rules' names, attributes, definitions, procedures, actions and the
    flow, content effects, the ruleset-wide analyses, the spec."""
    b = _Builder(files)
    rulesets = [f for f in files if f.kind == "ruleset"]
    if len(rulesets) != 1:
        label = files[0].label if files else "<ruleset>"
        b.diags.append(Diagnostic("F003", f"a ruleset needs exactly one ruleset.yaml, found {len(rulesets)}",
                                  file=label))
        return BuildResult(None, b.diags)
    rf = rulesets[0]
    r: RulesetFile = rf.model  # type: ignore[assignment]
    expansions = [f for f in files if f.kind == "expansion"]
    check_layers(b, files, r, expansions)
    layers = [rf] + expansions
    b.stack = merge(b, layers)
    declare_ruleset(b, rf, b.stack)
    for f in layers:
        declare(b, f, b.stack)
    check_names(b, b.stack)
    v = b.vocab

    items = b.items = collect_items(b, [f for f in files if f.kind == "content"], r, expansions)
    rules = collect_rules(b, [f for f in files if f.kind == "procedures"])
    join_menus(b, rules)
    procedures = [f for f in files if f.kind == "procedures"]
    names = ruleset_names(rf, r, procedures, items)
    for x in expansions:  # the words each expansion adds
        names += ruleset_names(x, x.model, [], {})
    for named in name_problems(names):  # C010-C013
        file, place, at_key = named.at
        b.at(file, place, named.code, named.message, hint=named.hint, key=at_key)
    v.freeze_names()
    check_attributes(b, items, rf)
    def_specs, parsed_defs = check_definitions(b, rules)
    proc_specs, parsed_procs = check_procedures(b, rules)
    link_conditions = check_link_conditions(b)
    action_specs, announcers = check_actions(b, rules)
    for key in ("setup", "game"):
        entry = getattr(rules, key)
        if entry is None:
            continue
        checker = b.check_program(entry[0], (key,), entry[1], Context(allow_flow=True))
        if entry[1] is not None:
            announcers.append(("setup" if key == "setup" else "the game procedure", frozenset(checker.announced),
                               entry[1], entry[0], (key,)))
    if rules.game is None:
        b.diags.append(Diagnostic("F004", "no procedures file defines `game:` (the game's flow)", file=rf.label))
    rule_triggers = check_rule_triggers(b, rules)

    tie_breaks = []
    for i, text in enumerate(r.tie_breaks):
        e = b.expression(rf, ("tie_breaks", i), text)
        if e is not None:
            b.check_expr(rf, ("tie_breaks", i), e, Context(), T("amount"))
            tie_breaks.append(e)
    evaluation = check_evaluation(b, rf, expansions)
    display_parts, shown_on_cards = check_display_parts(b), card_attributes(b, layers)

    # content: effects, conditions, effect attributes -----------------------------------
    sources: list[tuple[ast.Node, LoadedFile, Path, bool]] = [(node, f, path, False) for _, _, node, f, path in announcers]
    defs, triggers = check_content(b, items, sources)
    for name, (f, decl, program) in rule_triggers.items():
        path = ("triggers", name)
        triggers.append((f"trigger `{name}`", decl, _announced_by(decl.body, v), f, path))
        sources.append((program, f, path, False))
    for kname, kinfo in v.kinds.items():  # a token kind with no content item gets a plain definition
        if kinfo.piece == "token" and not any(d.kind == kname for d in defs):
            defs.append(PieceDef(kname, kname, v.label(kname)))

    # ruleset-wide analyses -------------------------------------------------------------
    for name, program in parsed_procs.items():
        sources.append((program, rules.procedures[name][0], ("procedures", name, "do"), False))
    for name, act_spec in action_specs.items():  # one-expression fields: their filters too
        for key, e in (("choose", act_spec.choose), ("if", act_spec.condition)):
            if e is not None:
                sources.append((e, rules.actions[name][0], ("actions", name, key), True))
    for name, expr in parsed_defs.items():
        sources.append((expr, rules.definitions[name][0], ("definitions", name, "value"), True))
    for piece in defs:
        if piece.requires is not None and piece.id in items:
            sources.append((piece.requires, items[piece.id][0], items[piece.id][1] + ("requires",), True))
    for where_file, where_path, finding, expression in analyse(v, b.res, triggers, sources):
        b.place(where_file, where_path, [finding], expression=expression)
    for node, where_file, where_path, expression in sources:
        if not expression:
            b.place(where_file, where_path, budget_warnings(node, r.limits.step_budget))

    rule_programs: dict[str, ast.Program | None] = {
        **parsed_procs, **{n: a.body for n, a in action_specs.items()},
        **{n: program for n, (_, _, program) in rule_triggers.items()},
        "setup": rules.setup[1] if rules.setup else None, "game": rules.game[1] if rules.game else None}
    score_labels: dict[str, str | dict[str, str]] = {}
    for f in layers:
        display = f.model.display  # type: ignore[attr-defined]
        score_labels.update(check_score_labels(display.scoring if display is not None else {}, b.stack.kinds,
                                               rule_programs, partial(b.at, f), b.suggest))

    score_definition = check_score(r, v, partial(b.at, rf), b.suggest)  # after the definitions are typed
    seats, named_options = check_seats(b, rf), option_names(b)

    result = BuildResult(None, b.diags, v, items, b.stack)
    if has_errors(b.diags):
        return result
    result.spec = GameSpec(
        name=r.ruleset, title=r.title, vocab=v, min_players=r.players.min, max_players=r.players.max, defs=defs,
        res=b.res, actions=action_specs, definitions=def_specs, procedures=proc_specs,
        setup=rules.setup[1] if rules.setup else None, game=rules.game[1] if rules.game else None,
        setup_origin=b.origin(rules.setup[0], ("setup",), "setup") if rules.setup else None,
        game_origin=b.origin(rules.game[0], ("game",), "the game procedure") if rules.game else None,
        score_counter=r.score, score_definition=score_definition, tie_breaks=tie_breaks, automated=r.automated,
        starting_choices=[n for f in layers for n in f.model.win_rates_by],  # type: ignore[attr-defined]
        evaluation=evaluation, display=b.display, score_labels=score_labels,
        limits=Limits(r.limits.max_turns, r.limits.step_budget, r.limits.max_repeats), eras=list(r.eras),
        era_counter=r.era_counter, option_defaults={k: o.default for k, o in b.stack.options.items()},
        option_rules={k: (o.type, o.min, o.max) for k, o in b.stack.options.items()},
        content_hash=content_hash(files),
        rule_triggers=[(name, decl, b.origin(f, ("triggers", name), f"trigger `{name}`"))
                       for name, (f, decl, _) in rule_triggers.items()],
        expansions=[(f.model.expansion, _layer_hash(files, f.layer)) for f in expansions],  # type: ignore[attr-defined]
        content_columns=content_columns(b, layers), link_conditions=link_conditions, seats=seats,
        option_names=named_options, display_parts=display_parts, card_attributes=shown_on_cards,
        display_kinds=b.display_kinds, unprinted=b.unprinted, unlogged=b.unlogged,
        attribute_labels=b.attribute_labels,
    )
    return result


# ---------------------------------------------------------------------- the passes


def check_layers(b: _Builder, files: list[LoadedFile], r: RulesetFile, expansions: list[LoadedFile]) -> None:
    """What each expansion says it replaces, against what it lands on: an expansion's file
    at the place of a base file replaces it only when it says `replaces: true` (X002,
    naming what it would remove; a file given alone to `validate` stands for the base
    file at its place, as an edited copy of it); `replaces: true` with nothing at its place is X007; an expansion for
    another ruleset is X005; one laid before an expansion it requires is X006."""
    for f in files:
        says = bool(getattr(f.model, "replaces", False))
        if f.over is not None and f.layer and not says:
            b.at(f, (), "X002", f"this file sits at the place of {f.over.label} and replaces it, "
                 f"removing {_what_it_holds(f.over)}: an expansion adds files of its own",
                 hint="give this file another name to add to the base, or write `replaces: true` at its top to "
                 "replace the whole base file")
        elif says and f.over is None:
            b.at(f, ("replaces",), "X007", "`replaces: true`, but no file of what this is laid over sits at this "
                 "file's place" if f.layer else "`replaces: true` in a file of the ruleset itself: there is "
                 "nothing under it to replace", hint="remove `replaces: true`")
    seen: list[str] = []
    for f in expansions:
        model: ExpansionFile = f.model  # type: ignore[assignment]
        if model.extends != r.ruleset:
            b.at(f, ("extends",), "X005", f"this expansion extends `{model.extends}`, and it is laid over "
                 f"`{r.ruleset}`", hint=f"lay it over `{model.extends}` (--ruleset {model.extends})")
        for i, req in enumerate(model.requires):
            if req not in seen:
                b.at(f, ("requires", i), "X006", f"this expansion requires `{req}`, which is not laid before it",
                     hint=f"add --expansion {req} before it")
        seen.append(model.expansion)


def _what_it_holds(source: SourceFile) -> str:
    """What a base file defines, for X002: its items' ids or its rules' names."""
    loaded, _, _ = load_source(source)
    if loaded is None:
        return "what it defines"
    model = loaded.model
    if isinstance(model, ContentFile):
        ids = [item.id for item in model.items]
        listed = ", ".join(ids[:4]) + (", ..." if len(ids) > 4 else "")
        return f"its {len(ids)} item{'s' if len(ids) != 1 else ''} ({listed})" if ids else "nothing"
    if isinstance(model, ProceduresFile):
        names = list(model.actions) + list(model.definitions) + list(model.procedures) + list(model.triggers)
        names += [k for k in ("setup", "game") if getattr(model, k) is not None]
        listed = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        return f"its {len(names)} rule{'s' if len(names) != 1 else ''} ({listed})" if names else "nothing"
    return "what it declares"


def _replacing(b: _Builder, f: LoadedFile, path: Path, what: str, name: str, replaces: bool,
               earlier: tuple[LoadedFile, Path] | None, code: str) -> bool:
    """Whether a declaration may take the place of an earlier one of the same name (an
    expansion's, saying `replaces: true`); reports the name reused without it (`code`)
    and `replaces: true` with nothing to replace (R009). True: it replaces."""
    if earlier is not None:
        if replaces and f.layer and earlier[0].layer != f.layer:
            return True
        line = earlier[0].position(earlier[1])[0]
        hint = ("an expansion adds names of its own: name this one differently, or write `replaces: true` in it "
                "to replace the one it is laid over" if f.layer and earlier[0].layer != f.layer
                else "each name is defined once across a ruleset's files")
        b.at(f, path, code, f"{what} `{name}` is already defined in {earlier[0].label}:{line}", key=True, hint=hint)
        return False
    if replaces:
        b.at(f, path + ("replaces",), "R009", f"{what} `{name}` replaces nothing: "
             + ("what this expansion is laid over defines none" if f.layer else "this is the ruleset itself"),
             hint="remove `replaces: true`")
    return False


def collect_items(b: _Builder, contents: list[LoadedFile], r: RulesetFile,
                  expansions: list[LoadedFile]) -> dict[str, tuple[LoadedFile, Path, Any]]:
    """Content items by id, in load order; an expansion's item with `replaces: true` takes
    the place of the one it replaces, and its `removes:` take items out (C008)."""
    v = b.vocab
    items: dict[str, tuple[LoadedFile, Path, Any]] = {}
    for f in contents:
        cf: ContentFile = f.model  # type: ignore[assignment]
        if cf.ruleset != r.ruleset:
            b.at(f, ("ruleset",), "C005", f"this file is for ruleset `{cf.ruleset}`, not `{r.ruleset}`")
        for i, item in enumerate(cf.items):
            path = ("items", i)
            earlier = items.get(item.id)
            if earlier is not None and not _replacing(b, f, path + ("id",), "item", item.id, item.replaces,
                                                      (earlier[0], earlier[1] + ("id",)), "C001"):
                continue
            if earlier is None:
                _replacing(b, f, path, "item", item.id, item.replaces, None, "C001")
            if item.kind not in v.kinds:
                b.at(f, path + ("kind",), "C002", f"unknown kind `{item.kind}`", hint=b.suggest(item.kind, v.kinds))
                continue
            items[item.id] = (f, path, item)
    for f in expansions:
        for i, cid in enumerate(f.model.removes):  # type: ignore[attr-defined]
            if cid in items and items[cid][0].layer != f.layer:
                del items[cid]
            else:
                b.at(f, ("removes", i), "C008", f"`{cid}` is no item of what this expansion is laid over",
                     hint=b.suggest(cid, [k for k, e in items.items() if e[0].layer != f.layer]))
    for cid, (_, _, item) in items.items():
        v.content[cid] = item.kind
        v.content_names[cid] = item.name
    pieces = sum(item.copies for _, _, item in items.values())
    if pieces > MAX_PIECES:
        b.at(b.files[0], ("ruleset",), "C007", f"the content makes {pieces:,} pieces, more than {MAX_PIECES:,}",
             hint="fewer copies: every copy is a piece of every game")
    return items


def collect_rules(b: _Builder, procedures: list[LoadedFile]) -> _Rules:
    """The names of every action, definition, procedure and trigger first, so that
    everything can refer to everything; an expansion's declaration with `replaces: true`
    takes the place of the one it replaces."""
    v = b.vocab
    rules = _Rules()
    for f in procedures:
        pf: ProceduresFile = f.model  # type: ignore[assignment]
        for name, action in pf.actions.items():
            earlier = rules.actions.get(name)
            path = ("actions", name)
            if earlier is not None:
                if not _replacing(b, f, path, "action", name, action.replaces, (earlier[0], path), "R007"):
                    continue
            else:
                _replacing(b, f, path, "action", name, action.replaces, None, "R007")
            rules.actions[name] = (f, name, action)
            v.actions[name] = action
        for name, d in pf.definitions.items():
            path = ("definitions", name)
            earlier = rules.definitions.get(name)
            if earlier is not None:
                if not _replacing(b, f, path, "definition", name, d.replaces, (earlier[0], path), "R007"):
                    continue
            else:
                _replacing(b, f, path, "definition", name, d.replaces, None, "R007")
            params = [(p, b.type_of(f, path + ("params", p), text)) for p, text in d.params.items()]
            rules.definitions[name] = (f, name, d)
            v.definitions[name] = DefinitionInfo(params)
            _template(v, name, d.text, [p for p, _ in params], replace=earlier is not None)
        for name, pr in pf.procedures.items():
            path = ("procedures", name)
            if name in rules.definitions:
                b.at(f, path, "R007", f"`{name}` is already defined (a definition)", key=True)
                continue
            earlier = rules.procedures.get(name)
            if earlier is not None:
                if not _replacing(b, f, path, "procedure", name, pr.replaces, (earlier[0], path), "R007"):
                    continue
            else:
                _replacing(b, f, path, "procedure", name, pr.replaces, None, "R007")
            params = [(p, b.type_of(f, path + ("params", p), text)) for p, text in pr.params.items()]
            rules.procedures[name] = (f, name, pr)
            v.procedures[name] = ProcedureInfo(params)
            _template(v, name, pr.text, [p for p, _ in params], replace=earlier is not None)
        for name, text in pf.triggers.items():
            if name in rules.triggers:
                b.at(f, ("triggers", name), "R007", f"trigger `{name}` is already defined in "
                     f"{rules.triggers[name][0].label}", key=True, hint="each trigger has a name of its own")
                continue
            rules.triggers[name] = (f, name, text)
        for key in ("setup", "game"):
            if getattr(pf, key) is None:
                continue
            earlier_flow = getattr(rules, key)
            if earlier_flow is not None and not (f.layer and pf.replaces and f.over is not None):
                b.at(f, (key,), "R007", f"`{key}:` is already given in {earlier_flow[0].label}", key=True,
                     hint="an expansion hooks into the flow with triggers on the events it announces"
                     if f.layer else None)
                continue
            setattr(rules, key, (f, b.program(f, (key,), getattr(pf, key))))
    return rules


def join_menus(b: _Builder, rules: _Rules) -> None:
    """Each action joins the menus it names, in load order (R001 for an unknown menu)."""
    v = b.vocab
    members: dict[str, list[str]] = {m: [] for m in v.menus}
    for name, (f, _, action) in rules.actions.items():
        for i, menu in enumerate(action.menus):
            if menu not in members:
                b.at(f, ("actions", name, "menus", i), "R001", f"unknown menu `{menu}`",
                     hint=b.suggest(menu, v.menus) or ("declare it under `menus:` in ruleset.yaml or expansion.yaml"
                                                       if not v.menus else f"menus: {', '.join(v.menus)}"))
                continue
            members[menu].append(name)
    v.menus = {m: tuple(names) for m, names in members.items()}


def check_attributes(b: _Builder, items: dict[str, tuple[LoadedFile, Path, Any]], rf: LoadedFile) -> None:
    """Every item's attributes against its kind (C003, C004), an id that is also a word
    of the vocabulary (C006), and every kind's declared defaults."""
    v = b.vocab
    uses: dict[str, int] = {}  # how many times each name is taken (content ids included)
    for name in v.all_names():
        uses[name] = uses.get(name, 0) + 1
    for cid, (f, path, item) in items.items():
        kind = v.kinds[item.kind]
        for a, value in item.attributes.items():
            if a not in kind.attributes:
                b.at(f, path + ("attributes", a), "C003", f"a {item.kind} has no attribute `{a}`",
                     hint=b.suggest(a, kind.attributes) or f"attributes: {', '.join(kind.attributes) or 'none'}",
                     key=True)
                continue
            problem = _attribute_problem(v, kind.attributes[a], value) or range_problem(kind.ranges.get(a), value, a)
            if problem:
                b.at(f, path + ("attributes", a), "C004", problem[0], hint=problem[1])
            elif isinstance(value, (int, str)) and not isinstance(value, bool):
                v.content_values.setdefault(item.kind, {}).setdefault(a, set()).add(value)
        if uses.get(cid, 0) > 1:
            b.at(f, path + ("id",), "C006", f"id `{cid}` is also a name in the ruleset's vocabulary",
                 hint="content ids and vocabulary names share one namespace")
    check_links(b, items)
    for kname, kinfo in v.kinds.items():
        for a, default in kinfo.defaults.items():
            problem = _attribute_problem(v, kinfo.attributes[a], default) or range_problem(kinfo.ranges.get(a), default, a)
            if problem:
                f, path = _declared_at(b, kname, a, rf)
                b.at(f, path, "C004", problem[0], hint=problem[1])


def _declared_at(b: _Builder, kind: str, attribute: str, rf: LoadedFile) -> tuple[LoadedFile, Path]:
    """Where a kind's attribute is declared: its kind's file, or an expansion's `extend_kinds`."""
    for f in b.files:
        if isinstance(f.model, ExpansionFile) and attribute in getattr(f.model.extend_kinds.get(kind), "attributes", {}):
            return f, ("extend_kinds", kind, "attributes", attribute, "default")
    declared = b.stack.declared.get(kind)
    f = declared[1] if declared is not None else rf
    return f, ("kinds", kind, "attributes", attribute, "default")


def _in_cycles(b: _Builder, table: dict[str, tuple[LoadedFile, str, Any]], cycles: list[list[str]],
               section: str, message: str, hint: str) -> set[str]:
    for cycle in cycles:
        for name in cycle:
            f, _, _ = table[name]
            loop = " -> ".join(cycle[cycle.index(name):] + cycle[:cycle.index(name)] + [name])
            b.at(f, (section, name), "E216", message.format(name=name, loop=loop), key=True, hint=hint)
    return {n for c in cycles for n in c}


def check_definitions(b: _Builder, rules: _Rules) -> tuple[dict[str, DefinitionSpec], dict[str, ast.Expr]]:
    """Definitions checked in the order they use each other (E216 for a loop)."""
    v = b.vocab
    def_specs: dict[str, DefinitionSpec] = {}
    parsed: dict[str, ast.Expr] = {}
    for name, (f, _, d) in rules.definitions.items():
        expr = b.expression(f, ("definitions", name, "value"), d.value)
        v.definitions[name].source = expr
        if expr is not None:
            parsed[name] = expr
    order, cycles = _order({name: _names_used(e, v.definitions) for name, e in parsed.items()})
    in_cycle = _in_cycles(b, rules.definitions, cycles, "definitions", "definition `{name}` uses itself through a "
                          "loop ({loop})", "definitions may use each other but never in a loop")
    for name in order:
        if name in in_cycle:
            continue
        f, _, d = rules.definitions[name]
        info = v.definitions[name]
        dpath = ("definitions", name, "value")
        t, checker = b.check_expr(f, dpath, parsed[name], Context(locals=dict(info.params), no_me=False))
        info.type = t
        info.needs_me = checker.used_me
        def_specs[name] = DefinitionSpec(name, [p for p, _ in info.params], parsed[name],
                                         b.origin(f, dpath, f"definition `{name}`", expression=True))
    return def_specs, parsed


def check_procedures(b: _Builder, rules: _Rules) -> tuple[dict[str, ProcedureSpec], dict[str, ast.Program]]:
    """Procedures checked in the order they run each other (E216 for a loop: no recursion)."""
    v = b.vocab
    proc_specs: dict[str, ProcedureSpec] = {}
    parsed: dict[str, ast.Program] = {}
    for name, (f, _, pr) in rules.procedures.items():
        program = b.program(f, ("procedures", name, "do"), pr.do)
        v.procedures[name].source = program
        if program is not None:
            parsed[name] = program
    order, cycles = _order({name: _names_used(p, v.procedures) for name, p in parsed.items()})
    in_cycle = _in_cycles(b, rules.procedures, cycles, "procedures", "procedure `{name}` runs itself ({loop})",
                          "procedures may run each other but never in a loop (the language has no recursion)")
    for name in order:
        if name in in_cycle:
            continue
        f, _, pr = rules.procedures[name]
        info_p = v.procedures[name]
        ppath = ("procedures", name, "do")
        checker = b.check_program(f, ppath, parsed[name], Context(locals=dict(info_p.params), no_me=False))
        info_p.needs_me = checker.used_me
        info_p.announces = frozenset(checker.announced)
        proc_specs[name] = ProcedureSpec(name, [p for p, _ in info_p.params], parsed[name],
                                         b.origin(f, ppath, f"procedure `{name}`"))
    return proc_specs, parsed


Announcer = tuple[str, frozenset[str], ast.Node, LoadedFile, Path]


def check_actions(b: _Builder, rules: _Rules) -> tuple[dict[str, ActionSpec], list[Announcer]]:
    """Each action's collection, condition and body (R006: a collection needs `as:`)."""
    action_specs: dict[str, ActionSpec] = {}
    announcers: list[Announcer] = []
    for name, (f, _, act) in rules.actions.items():
        base = ("actions", name)
        coll = b.expression(f, base + ("choose",), act.choose)
        cond = b.expression(f, base + ("if",), act.if_)
        body = b.program(f, base + ("do",), act.do)
        locals_: dict[str, T] = {}
        if act.choose is not None and not act.as_:
            b.at(f, base, "R006", f"action `{name}` chooses from a collection but names no variable (`as:`)", key=True)
        if coll is not None:
            t, _ = b.check_expr(f, base + ("choose",), coll, Context())
            if t.tag == "zone":
                t = T("things")
            if not t.is_collection and t.tag != "any":
                b.at(f, base + ("choose",), "E202", f"`choose` needs a collection, found {t}")
            if act.as_:
                locals_[act.as_] = t.element()
        if cond is not None:
            b.check_expr(f, base + ("if",), cond, Context(locals=dict(locals_)), FLAG)
        checker = b.check_program(f, base + ("do",), body, Context(locals=dict(locals_)))
        label_node = check_label(b, f, base + ("label",), act.label, Context(locals=dict(locals_)))
        if body is not None:
            what = f"action `{name}`"
            action_specs[name] = ActionSpec(name, act.label, body, coll, act.as_, cond, b.origin(f, base + ("do",), what),
                                            b.origin(f, base + ("choose",), what, True) if coll is not None else None,
                                            b.origin(f, base + ("if",), what, True) if cond is not None else None,
                                            label_node)
            announcers.append((what, frozenset(checker.announced), body, f, base + ("do",)))
    return action_specs, announcers


def check_label(b: _Builder, f: LoadedFile, path: Path, label: str, ctx: Context) -> ast.Node | None:
    """An action's label with `{EXPR}` parts ("Play {C}", "Pay {my_fee(C)} gold"): each
    part checked with the action's names, shown as its value in the menu."""
    if "{" not in label:
        return None
    node = ast.Text(label, span=ast.Span(1, 1, 1, 1 + len(label)))
    b.place(f, path, Checker(b.vocab, b.res).check_text(node, label, ctx))
    return node


def check_rule_triggers(b: _Builder, rules: _Rules) -> dict[str, tuple[LoadedFile, ast.Trigger, ast.Program]]:
    """A rules file's `triggers:`: each one `when EVENT [where C]:` declaration, run by
    nobody (R010 for anything else in it)."""
    out: dict[str, tuple[LoadedFile, ast.Trigger, ast.Program]] = {}
    for name, (f, _, text) in rules.triggers.items():
        path = ("triggers", name)
        program = b.program(f, path, text)
        if program is None:
            continue
        decls = [d for d in program.declarations if isinstance(d, ast.Trigger)]
        if program.statements or len(decls) != 1 or len(program.declarations) != 1:
            b.at(f, path, "R010", f"trigger `{name}` is one `when EVENT:` and its block",
                 hint="write `when EVENT [where CONDITION]:` and, indented below it, what happens")
            continue
        b.check_program(f, path, program, Context(allow_declarations=True, owner_less=True))
        out[name] = (f, decls[0], program)
    return out


def check_evaluation(b: _Builder, rf: LoadedFile, expansions: list[LoadedFile]) -> ast.Expr | None:
    """The ruleset's `evaluation:` plus each expansion's term (R001 when not an amount)."""
    r: RulesetFile = rf.model  # type: ignore[assignment]
    terms: list[ast.Expr] = []
    for f, text in [(rf, r.evaluation)] + [(x, x.model.evaluation) for x in expansions]:  # type: ignore[attr-defined]
        if text is None:
            continue
        e = b.expression(f, ("evaluation",), text)
        if e is not None:
            b.check_expr(f, ("evaluation",), e, Context(), T("amount"))
            terms.append(e)
    if not terms:
        return None
    if r.evaluation is None:  # the score, then the expansions' terms
        score: ast.Expr = ast.Name(r.score) if r.score in b.vocab.definitions else ast.Of(r.score, ast.Name("me"))
        b.check_expr(rf, ("score",), score, Context(), T("amount"))
        terms.insert(0, score)
    total = terms[0]
    for term in terms[1:]:
        total = ast.Arith("+", total, term)
    return total


def check_content(b: _Builder, items: dict[str, tuple[LoadedFile, Path, Any]],
                  sources: list[tuple[ast.Node, LoadedFile, Path, bool]]) -> tuple[list[PieceDef], list[Any]]:
    """Every item's effect, condition and effect attributes, checked; its PieceDef; the
    triggers its effect declares (for the trigger-cycle analysis)."""
    v = b.vocab
    in_play_zones = any(z.in_play for z in v.zones.values())
    defs: list[PieceDef] = []
    triggers: list[tuple[str, ast.Trigger, frozenset[str], LoadedFile, Path]] = []
    for cid, (f, path, item) in items.items():
        kind = v.kinds[item.kind]
        this = thing(item.kind)
        what = f"{v.label(item.kind)} `{cid}` ({item.name})"
        effect = b.program(f, path + ("effect",), item.effect)
        requires = b.expression(f, path + ("requires",), item.requires)
        board = kind.piece == "board"
        b.check_program(f, path + ("effect",), effect, Context(this=this, allow_declarations=True, owner_less=board))
        b.check_expr(f, path + ("requires",), requires, Context(this=this), FLAG)
        origins = {"effect": b.origin(f, path + ("effect",), what)}
        if requires is not None:
            origins["requires"] = b.origin(f, path + ("requires",), what, expression=True)
        if effect is not None:
            for decl in effect.declarations:
                if isinstance(decl, (ast.Trigger, ast.Hook)) and not board and not in_play_zones:
                    b.place(f, path + ("effect",), [Diagnostic(
                        "E219", f"a {v.label(item.kind)} is never in play (this ruleset has no `in_play` zone), "
                        "so this never runs", decl.span.line if decl.span else 1, decl.span.column if decl.span else 1,
                        hint="mark the zone such pieces are played to `in_play: true`, or make the kind a board kind")])
                if isinstance(decl, ast.Trigger):
                    triggers.append((what, decl, _announced_by(decl.body, v), f, path + ("effect",)))
        programs: dict[str, ast.Program | list[ast.Program]] = {}
        for a, value in item.attributes.items():
            at = kind.attributes.get(a)
            if at is None or at.tag not in ("effect", "effects"):
                continue
            texts = [value] if at.tag == "effect" else list(value) if isinstance(value, list) else []
            compiled: list[ast.Program] = []
            for i, text in enumerate(texts):
                apath = path + ("attributes", a) + ((i,) if at.tag == "effects" else ())
                if not isinstance(text, str):
                    continue
                prog = b.program(f, apath, text)
                if prog is None:
                    continue
                b.check_program(f, apath, prog, Context(this=this))
                compiled.append(prog)
                sources.append((prog, f, apath, False))
                key = a if at.tag == "effect" else f"{a}.{i + 1}"
                origins[key] = b.origin(f, apath, f"{a} of {what}")
            if compiled:
                programs[a] = compiled[0] if at.tag == "effect" else compiled
        defs.append(PieceDef(cid, item.kind, item.name, item.copies, dict(item.attributes),
                             {k: list(n) for k, n in item.links.items()}, effect, requires, programs, origins))
        if effect is not None:
            sources.append((effect, f, path + ("effect",), False))
    return defs, triggers


def content_columns(b: _Builder, layers: list[LoadedFile]) -> list[str]:
    """`display: content:`: attributes of some kind, each once (R001 for another name)."""
    attributes = {a for k in b.vocab.kinds.values() for a in k.attributes}
    out: list[str] = []
    for f in layers:
        display = f.model.display  # type: ignore[attr-defined]
        for i, name in enumerate(display.content if display is not None else []):
            if name not in attributes:
                b.at(f, ("display", "content", i), "R001", f"`display: content:` names attributes of the kinds; "
                     f"`{name}` is none", hint=b.suggest(name, attributes))
            elif name not in out:
                out.append(name)
    return out


def _layer_hash(files: list[LoadedFile], layer: str) -> str:
    """The content hash of one expansion's files (a save records it beside its name)."""
    return content_hash([f for f in files if f.layer == layer])


def check_links(b: _Builder, items: dict[str, tuple[LoadedFile, Path, Any]]) -> None:
    """Each item's `links:` (C009): link kinds its kind uses, neighbours that exist, of a
    kind that uses the same link, never the item itself; a link of a symmetric kind
    listed on one end only joins both ways and is reported (W306)."""
    v = b.vocab
    listed: dict[tuple[str, str, str], tuple[LoadedFile, Path]] = {}  # (link, from, to) -> where
    for cid, (f, path, item) in items.items():
        kind = v.kinds[item.kind]
        for link, neighbours in item.links.items():
            lpath = path + ("links", link)
            if link not in kind.links:
                b.at(f, lpath, "C009", f"a {item.kind} has no `{link}` links", key=True,
                     hint=b.suggest(link, kind.links) or f"its kind's `links:` lists {', '.join(kind.links) or 'none'}")
                continue
            for i, other in enumerate(neighbours):
                where = lpath + (i,)
                if other == cid:
                    b.at(f, where, "C009", f"`{cid}` lists itself as its own `{link}` neighbour")
                elif other not in v.content:
                    close = difflib.get_close_matches(other, list(items), n=1)
                    b.at(f, where, "C009", f"unknown place `{excerpt(other)}`",
                         hint=f"did you mean `{close[0]}`?" if close else None)
                elif link not in v.kinds[v.content[other]].links:
                    b.at(f, where, "C009", f"`{other}` is a {v.content[other]}, which `{link}` links do not join",
                         hint=f"`{link}` joins {', '.join(v.links[link].kinds)}")
                else:
                    listed[(link, cid, other)] = (f, where)
    for (link, one, other), (f, where) in listed.items():
        if v.links[link].symmetric and (link, other, one) not in listed:
            b.at(f, where, "W306", f"`{one}` lists `{other}` as a `{link}` neighbour but `{other}` does not list "
                 f"`{one}`: the link joins both ways", severity=WARNING,
                 hint=f"add `{one}` to {other}'s `{link}:` (or declare `{link}` with `symmetric: false`)")


def check_link_conditions(b: _Builder) -> dict[str, tuple[ast.Expr, Origin]]:
    """Each link kind's `if:` condition (`here` and `there` are the two ends), checked
    where its declaration stands (the ruleset's or an expansion's)."""
    v = b.vocab
    out: dict[str, tuple[ast.Expr, Origin]] = {}
    for name, link in b.stack.links.items():
        if link.if_ is None or name not in v.links:
            continue
        f = b.stack.declared[name][1]
        lpath = ("links", name, "if")
        cond = b.expression(f, lpath, link.if_)
        if cond is None:
            continue
        ends = v.links[name].kinds
        end = thing(ends[0] if len(ends) == 1 else None)
        _, checker = b.check_expr(f, lpath, cond, Context(locals={"here": end, "there": end}, no_me=False), FLAG)
        v.links[name].condition = cond
        v.links[name].needs_me = checker.used_me
        out[name] = (cond, b.origin(f, lpath, f"the condition of link `{name}`", expression=True))
    return out


def budget_warnings(program: ast.Node, budget: int) -> list[Diagnostic]:
    """W305 where a program can tell it will spend more than the step budget for one
    decision: a `repeat N times` (N a number), nested in other such repeats, whose runs
    need at least N x (its statements + 1) steps. Counted without recursion."""
    out: list[Diagnostic] = []
    stack: list[tuple[ast.Node, int]] = [(program, 1)]
    while stack:
        node, times = stack.pop()
        if isinstance(node, ast.Repeat) and isinstance(node.count, ast.Num):
            runs = times * max(0, node.count.value)
            steps = runs * (len(node.body) + 1)
            if steps > budget:
                line, column = (node.span.line, node.span.column) if node.span else (1, 1)
                out.append(Diagnostic("W305", f"this runs at least {steps:,} steps, more than the step budget of "
                                      f"{budget:,} for one decision: the game will stop here with an internal error",
                                      line, column, WARNING, hint="repeat fewer times, or raise `limits.step_budget` "
                                      "in ruleset.yaml"))
                continue
            stack.extend((child, runs if child in node.body else times) for child in node.children())
            continue
        stack.extend((child, times) for child in node.children())
    return out


def content_hash(files: list[LoadedFile]) -> str:
    """SHA-256 of what the builder was given: each file's kind and data, in load order
    (which is also the order of the pieces). Formatting and comments do not count; a
    changed name, number or effect does. A save records it (interpreter/game.py)."""
    digest = hashlib.sha256()
    for f in files:
        text = json.dumps([f.kind, f.data], sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr)
        digest.update(text.encode("utf-8", errors="surrogatepass"))
        digest.update(b"\n")
    return digest.hexdigest()


def _template(v: Vocabulary, name: str, text: str | None, params: list[str], replace: bool = False) -> None:
    """A definition's or procedure's `text:` becomes its card-text template ({0}, {1}...)
    (a replacing declaration's text replaces the one it replaces)."""
    if not text:
        if replace:
            v.labels.pop(name, None)
        return
    template = text
    for i, p in enumerate(params):
        template = template.replace("{" + p + "}", "{" + str(i) + "}")
    if replace:
        v.labels[name] = template
    else:
        v.labels.setdefault(name, template)


def _announced_by(body: ast.Body, v: Vocabulary) -> frozenset[str]:
    """Events a block announces, directly or through the procedures it runs."""
    out: set[str] = set()
    for stmt in body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Announce):
                out.add(n.event.name)
            elif isinstance(n, ast.Run) and n.name.name in v.procedures:
                out.update(v.procedures[n.name.name].announces)
    return frozenset(out)


def _era_problem(v: Vocabulary, value: str) -> tuple[str, str | None] | None:
    parts = value.split("/")
    if not all(p.strip().isdigit() for p in parts) or len(parts) < 2:
        return (f"expected a number or an era value like `20/50/100`, found {excerpt(repr(value))}", None)
    if any(written(p.strip()) is None for p in parts):
        return (f"the era value {excerpt(repr(value))} has a part too large", limit_words())
    if len(parts) != v.eras:
        return (f"an era value needs {v.eras} parts, one per era; found {len(parts)}",
                "declare `eras:` in ruleset.yaml" if not v.eras else None)
    return None


def _attribute_problem(v: Vocabulary, t: T, value: Any) -> tuple[str, str | None] | None:  # noqa: C901
    if t.tag == "any":
        return None
    if t.tag in ("symbol", "counter", "thing", "def") and not isinstance(value, str):  # a name, never a list or mapping
        shown = "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else excerpt(repr(value))
        return (f"expected a name, found {shown}", None)
    if t.tag == "amount":
        if isinstance(value, str):
            return _era_problem(v, value)
        if isinstance(value, int) and not isinstance(value, bool):
            return None if in_range(value) else (f"the number {excerpt(repr(value))} is too large", limit_words())
        return (f"expected a number, found {excerpt(repr(value))}", None)
    if t.tag == "numbers":
        if not isinstance(value, list):
            return (f"expected a list of numbers, found {excerpt(repr(value))}", "write [1, 2, 3]")
        for x in value:
            p = _attribute_problem(v, T("amount"), x)
            if p:
                return p
        return None
    if t.tag == "flag":
        return None if isinstance(value, bool) else (f"expected yes/no (true/false), found {excerpt(repr(value))}", None)
    if t.tag in ("text", "effect"):
        return None if isinstance(value, str) else (f"expected {'an effect' if t.tag == 'effect' else 'text'}, "
                                                    f"found {excerpt(repr(value))}", None)
    if t.tag == "effects":
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            return (f"expected a list of effects, found {excerpt(repr(value))}", "write a list of effect texts")
        return None
    if t.tag == "symbol":
        values = v.enums.get(t.arg or "", ())
        if value not in values:
            close = difflib.get_close_matches(str(value), values, n=1)
            return (f"`{excerpt(value)}` is not a {t.arg} (one of {', '.join(values)})",
                    f"did you mean `{close[0]}`?" if close else None)
        return None
    if t.tag == "counter":
        members = v.counter_sets.get(t.arg or "", ())
        if value not in members:
            close = difflib.get_close_matches(str(value), members, n=1)
            return (f"`{excerpt(value)}` is not one of the {t.arg} ({', '.join(members)})",
                    f"did you mean `{close[0]}`?" if close else None)
        return None
    if t.tag in ("symbols", "counters", "things"):
        if not isinstance(value, list):
            return (f"expected a list, found {excerpt(repr(value))}", "write [a, b, c]")
        element = {"symbols": "symbol", "counters": "counter", "things": "thing"}[t.tag]
        for x in value:
            p = _attribute_problem(v, T(element, t.arg), x)
            if p:
                return p
        return None
    if t.tag == "table":
        if not isinstance(value, dict):
            return (f"expected a table (item: number), found {excerpt(repr(value))}", "write {red: 3, blue: 6}")
        for k, x in value.items():
            p = _attribute_problem(v, T("thing", t.arg), k) or _attribute_problem(v, T("amount"), x)
            if p:
                return p
        return None
    if t.tag in ("thing", "def"):
        if value not in v.content:
            close = difflib.get_close_matches(str(value), list(v.content), n=1)
            return (f"unknown content id `{excerpt(value)}`", f"did you mean `{close[0]}`?" if close else None)
        if t.arg and v.content[value] != t.arg:
            return (f"`{excerpt(value)}` is a {v.content[value]}, not a {t.arg}", None)
    return None
