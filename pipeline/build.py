"""Loaded files -> a checked GameSpec: the parse and check passes of the pipeline.

Builds the ruleset's Vocabulary from its ruleset file, checks every reference the
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
from legacies.dsl.types import ANY, FLAG, TYPE_WORDS, T, parse_type, thing
from legacies.dsl.vocabulary import (CounterInfo, DefinitionInfo, EventInfo, KindInfo, PaymentInfo, ProcedureInfo,
                                     QuantityInfo, ValueInfo, Vocabulary, ZoneInfo)
from legacies.interpreter.spec import ActionSpec, DefinitionSpec, GameSpec, Limits, Origin, PieceDef, ProcedureSpec

from .load import LoadedFile
from .yaml_source import bounded, excerpt
from .models import AttributeDecl, ContentFile, ProceduresFile, RulesetFile
from .names import name_problems, ruleset_names
from .score_labels import check_score_labels

Path = tuple
MAX_PIECES = 20_000  # pieces (copies of every content item) in one ruleset (C007)


@dataclass
class BuildResult:
    spec: GameSpec | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    vocab: Vocabulary | None = None
    items: dict[str, tuple[LoadedFile, Path, Any]] = field(default_factory=dict)  # id -> (file, path, item)


class _Builder:
    def __init__(self, files: list[LoadedFile]):
        self.files = files
        self.diags: list[Diagnostic] = []
        self.res = Resolution()
        self.vocab = Vocabulary()
        self.display: dict[str, list[tuple[str, str, str | None, str | None]]] = {"table": [], "players": []}

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

    def check_display(self, f: LoadedFile, r: RulesetFile) -> dict[str, list[tuple[str, str, str | None, str | None]]]:
        """`display:` checked: each entry names something of the right scope. Returns
        {"table"|"players": [(what, name, label, when)]}, `what` one of counter,
        item_counter, zone, value, counter_set; `when` a player counter or None."""
        item_counters = {c: k for k, kd in r.kinds.items() for c in kd.counters}
        out: dict[str, list[tuple[str, str, str | None, str | None]]] = {"table": [], "players": []}
        if r.display is None:
            return out
        for part, entries in (("table", r.display.table), ("players", r.display.players)):
            scope = "game" if part == "table" else "player"
            for i, entry in enumerate(entries):
                name, label = (entry, None) if isinstance(entry, str) else (entry.show, entry.label)
                when = None if isinstance(entry, str) else entry.when
                if when is not None and not (when in r.counters and r.counters[when].scope == "player"
                                             and part == "players"):
                    self.at(f, ("display", part, i, "when"), "R001", f"`when` names a player counter, for an entry "
                            f"of `display: players`; `{when}` is not one",
                            hint=self.suggest(when, [n for n, c in r.counters.items() if c.scope == "player"]))
                    continue
                what = None
                if name in r.counters and r.counters[name].scope == scope:
                    what = "counter"
                elif name in r.zones and r.zones[name].scope == scope:
                    what = "zone"
                elif name in r.values and r.values[name].scope == scope:
                    what = "value"
                elif part == "table" and name in item_counters:
                    what = "item_counter"
                elif part == "table" and name in r.kinds and (r.kinds[name].track or r.kinds[name].holder):
                    what = "tokens_on"  # a kind with a track or holding tokens: whose tokens are on each
                elif part == "players" and name in r.counter_sets:
                    what = "counter_set"
                if what is None:
                    names = ([n for n, c in r.counters.items() if c.scope == scope]
                             + [n for n, z in r.zones.items() if z.scope == scope]
                             + [n for n, v in r.values.items() if v.scope == scope]
                             + (list(item_counters) + [k for k, kd in r.kinds.items() if kd.track or kd.holder]
                                if part == "table" else list(r.counter_sets)))
                    self.at(f, ("display", part, i), "R001", f"`display: {part}` shows {scope} counters, zones and "
                            f"values{', counters of board items and kinds holding tokens' if part == 'table' else ' and counter sets'}; "
                            f"`{name}` is not one", hint=self.suggest(name, names))
                    continue
                out[part].append((what, name, label, when))
        return out

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
    def type_of(self, f: LoadedFile, path: Path, text: str, r: RulesetFile, attribute: bool = False) -> T:
        t = parse_type(text)
        known = t is not None and (
            (t.tag not in ("symbol", "symbols") or t.arg in r.enums)
            and (t.tag not in ("counter", "counters") or t.arg in r.counter_sets)
            and (t.tag not in ("thing", "things", "table") or t.arg is None or t.arg in r.kinds))
        if not known or t is None:
            arg = text.partition(":")[2]
            hint = self.suggest(arg, list(r.enums) + list(r.kinds) + list(r.counter_sets)) if arg else None
            self.at(f, path, "R003", f"unknown type `{text}`", hint=hint or "types: " + ", ".join(TYPE_WORDS))
            return ANY
        if attribute and t.tag == "thing" and t.arg and r.kinds[t.arg].piece == "card":
            return T("def", t.arg)  # an attribute names a card by its definition (it may have copies)
        return t

    def vocabulary(self, f: LoadedFile, r: RulesetFile) -> None:  # noqa: C901 - one block per table
        v = self.vocab
        v.eras = len(r.eras)
        v.era_names = list(r.eras)
        v.era_word = r.era_word or "era"
        v.hand = r.hand
        v.labels = dict(r.labels)
        v.bid_steps = tuple(r.bid_steps)
        seen_symbols: dict[str, str] = {}
        for enum, values in r.enums.items():
            for i, value in enumerate(values):
                if value in seen_symbols:
                    self.at(f, ("enums", enum, i), "R002", f"symbol `{value}` is already in enum `{seen_symbols[value]}`",
                            hint="symbols are names: each may belong to one enum")
                seen_symbols[value] = enum
            v.enums[enum] = tuple(values)
        for name, c in r.counters.items():
            v.counters[name] = CounterInfo(c.scope, c.label, c.min, c.max, c.start, c.text_true, c.text_false)
        for name, members in r.counter_sets.items():
            for i, member in enumerate(members):
                if member not in r.counters or r.counters[member].scope != "player":
                    self.at(f, ("counter_sets", name, i), "R001", f"`{member}` is not a player counter",
                            hint=self.suggest(member, [k for k, c in r.counters.items() if c.scope == "player"]))
            v.counter_sets[name] = tuple(members)
        for name, z in r.zones.items():
            v.zones[name] = ZoneInfo(z.scope, z.label, z.visibility, z.discard_to, z.refill_from, z.in_play)
        for name, z in r.zones.items():
            for key in ("discard_to", "refill_from"):
                target = getattr(z, key)
                if target is not None and target not in r.zones:
                    self.at(f, ("zones", name, key), "R001", f"unknown zone `{target}`", hint=self.suggest(target, r.zones))
        for name, e in r.events.items():
            params = {p: self.type_of(f, ("events", name, "params", p), text, r) for p, text in e.params.items()}
            v.events[name] = EventInfo(params, e.label)
        for name, q in r.quantities.items():
            v.quantities[name] = QuantityInfo(FLAG if q.type == "flag" else T("amount"), q.default, q.per, q.subject,
                                              q.label, q.text_true, q.text_false)
        for name, o in r.options.items():
            v.options[name] = FLAG if o.type == "flag" else T("amount")
        for name, k in r.kinds.items():
            attrs: dict[str, T] = {}
            defaults: dict[str, Any] = {}
            for a, decl in k.attributes.items():
                text = decl.type if isinstance(decl, AttributeDecl) else decl
                attrs[a] = self.type_of(f, ("kinds", name, "attributes", a), text, r, attribute=True)
                if isinstance(decl, AttributeDecl) and decl.default is not None:
                    defaults[a] = decl.default
            counters = {c: CounterInfo("item", cd.label, cd.min, cd.max, cd.start, cd.text_true, cd.text_false)
                        for c, cd in k.counters.items()}
            v.kinds[name] = KindInfo(k.piece, k.label, k.plural, attrs, counters, k.track.spaces if k.track else None,
                                     k.track.bump if k.track else True, k.holder, k.capacity, k.supply,
                                     k.supply_zone, k.starts_in, defaults)
            for key, scope in (("starts_in", "game"), ("supply_zone", "player")):
                target = getattr(k, key)
                if target is not None and target not in r.zones:
                    self.at(f, ("kinds", name, key), "R001", f"unknown zone `{target}`", hint=self.suggest(target, r.zones))
                elif target is not None and r.zones[target].scope != scope:
                    self.at(f, ("kinds", name, key), "R001", f"`{key}` needs a {scope} zone; `{target}` is a "
                            f"{r.zones[target].scope} zone")
        for name, val in r.values.items():
            v.values[name] = ValueInfo(val.scope, self.type_of(f, ("values", name, "type"), val.type, r), val.label)
        for name, q in r.quantities.items():
            if q.subject is not None and q.subject not in r.kinds:
                self.at(f, ("quantities", name, "subject"), "R004", f"unknown kind `{q.subject}`",
                        hint=self.suggest(q.subject, r.kinds))
        if r.hand is not None and (r.hand not in r.zones or r.zones[r.hand].scope != "player"):
            self.at(f, ("hand",), "R001", f"`hand` must name a player zone, not `{r.hand}`",
                    hint=self.suggest(r.hand, r.zones))
        if r.score not in r.counters or r.counters[r.score].scope != "player":
            self.at(f, ("score",), "R001", f"`score` must name a player counter, not `{r.score}`",
                    hint=self.suggest(r.score, r.counters))
        if r.automated is not None and (r.automated not in r.counters or r.counters[r.automated].scope != "player"):
            self.at(f, ("automated",), "R001", f"`automated` must name a player counter, not `{r.automated}`",
                    hint=self.suggest(r.automated, r.counters))
        for i, name in enumerate(r.win_rates_by):
            if name not in r.values or r.values[name].scope != "player":
                self.at(f, ("win_rates_by", i), "R001", f"`win_rates_by` must name player values, not `{name}`",
                        hint=self.suggest(name, [n for n, d in r.values.items() if d.scope == "player"]))
        self.display = self.check_display(f, r)
        if r.era_counter is not None and (r.era_counter not in r.counters or r.counters[r.era_counter].scope != "game"):
            self.at(f, ("era_counter",), "R001", f"`era_counter` must name a game counter, not `{r.era_counter}`")
        if r.payment is not None:
            v.payment = PaymentInfo(r.payment.cost, r.payment.symbol, r.payment.wild, r.payment.max_wild)
        taken: dict[str, str] = {}
        for table_name in ("counters", "values", "counter_sets", "zones", "kinds", "events", "quantities", "options"):
            for name in getattr(r, table_name):
                if table_name == "values" and name in r.kinds and r.values[name].scope == "player":
                    continue  # `my character` (the value) beside `character` (the kind) is allowed
                if name in taken and taken[name] != table_name:
                    self.at(f, (table_name, name), "R005", f"`{name}` already names one of the {taken[name]}", key=True)
                taken.setdefault(name, table_name)
        for name in seen_symbols:
            if name in taken:
                self.at(f, ("enums",), "R005", f"symbol `{name}` already names one of the {taken[name]}")


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


def build_spec(files: list[LoadedFile]) -> BuildResult:  # noqa: C901 - the passes, in order
    """Every problem of every file as Diagnostics; a GameSpec when there are none."""
    b = _Builder(files)
    rulesets = [f for f in files if f.kind == "ruleset"]
    procedures = [f for f in files if f.kind == "procedures"]
    contents = [f for f in files if f.kind == "content"]
    if len(rulesets) != 1:
        label = files[0].label if files else "<ruleset>"
        b.diags.append(Diagnostic("F003", f"a ruleset needs exactly one ruleset.yaml, found {len(rulesets)}",
                                  file=label))
        return BuildResult(None, b.diags)
    rf = rulesets[0]
    r: RulesetFile = rf.model  # type: ignore[assignment]
    b.vocabulary(rf, r)
    v = b.vocab

    # content ids and attributes -------------------------------------------------
    items: dict[str, tuple[LoadedFile, Path, Any]] = {}
    for f in contents:
        cf: ContentFile = f.model  # type: ignore[assignment]
        if cf.ruleset != r.ruleset:
            b.at(f, ("ruleset",), "C005", f"this file is for ruleset `{cf.ruleset}`, not `{r.ruleset}`")
        for i, item in enumerate(cf.items):
            path = ("items", i)
            if item.id in items:
                other = items[item.id]
                line = other[0].position(other[1] + ("id",))[0]
                b.at(f, path + ("id",), "C001", f"duplicate id `{item.id}` (first defined at {other[0].label}:{line})",
                     hint="every content id is unique within a ruleset")
                continue
            if item.kind not in r.kinds:
                b.at(f, path + ("kind",), "C002", f"unknown kind `{item.kind}`", hint=b.suggest(item.kind, r.kinds))
                continue
            items[item.id] = (f, path, item)
            v.content[item.id] = item.kind
            v.content_names[item.id] = item.name
    pieces = sum(item.copies for _, _, item in items.values())
    if pieces > MAX_PIECES:
        b.at(rf, ("ruleset",), "C007", f"the content makes {pieces:,} pieces, more than {MAX_PIECES:,}",
             hint="fewer copies: every copy is a piece of every game")

    # procedures files: names first, so that everything can refer to everything
    actions: dict[str, tuple[LoadedFile, str, Any]] = {}
    definitions: dict[str, tuple[LoadedFile, str, Any]] = {}
    procs: dict[str, tuple[LoadedFile, str, Any]] = {}
    setup = game = None
    for f in procedures:
        pf: ProceduresFile = f.model  # type: ignore[assignment]
        for name, action in pf.actions.items():
            if name in actions:
                b.at(f, ("actions", name), "R007", f"action `{name}` is already defined in {actions[name][0].label}",
                     key=True, hint="each action is defined once across a ruleset's procedures files")
                continue
            actions[name] = (f, name, action)
            v.actions[name] = action
        for name, d in pf.definitions.items():
            if name in definitions:
                b.at(f, ("definitions", name), "R007",
                     f"definition `{name}` is already defined in {definitions[name][0].label}", key=True)
                continue
            params = [(p, b.type_of(f, ("definitions", name, "params", p), text, r)) for p, text in d.params.items()]
            definitions[name] = (f, name, d)
            v.definitions[name] = DefinitionInfo(params)
            _template(v, name, d.text, [p for p, _ in params])
        for name, pr in pf.procedures.items():
            if name in procs or name in definitions:
                b.at(f, ("procedures", name), "R007", f"`{name}` is already defined", key=True)
                continue
            params = [(p, b.type_of(f, ("procedures", name, "params", p), text, r)) for p, text in pr.params.items()]
            procs[name] = (f, name, pr)
            v.procedures[name] = ProcedureInfo(params)
            _template(v, name, pr.text, [p for p, _ in params])
        for key in ("setup", "game"):
            if getattr(pf, key) is None:
                continue
            if (setup if key == "setup" else game) is not None:
                b.at(f, (key,), "R007", f"`{key}:` is already given in another procedures file", key=True)
                continue
            parsed = (f, b.program(f, (key,), getattr(pf, key)))
            if key == "setup":
                setup = parsed
            else:
                game = parsed

    for named in name_problems(ruleset_names(rf, r, procedures, items)):  # C008-C011
        file, place, at_key = named.at
        b.at(file, place, named.code, named.message, hint=named.hint, key=at_key)
    uses: dict[str, int] = {}  # how many times each name is taken (content ids included)
    for name in v.all_names():
        uses[name] = uses.get(name, 0) + 1
    v.freeze_names()
    for cid, (f, path, item) in items.items():
        kind = v.kinds[item.kind]
        for a, value in item.attributes.items():
            if a not in kind.attributes:
                b.at(f, path + ("attributes", a), "C003", f"a {item.kind} has no attribute `{a}`",
                     hint=b.suggest(a, kind.attributes) or f"attributes: {', '.join(kind.attributes) or 'none'}", key=True)
                continue
            problem = _attribute_problem(v, kind.attributes[a], value)
            if problem:
                b.at(f, path + ("attributes", a), "C004", problem[0], hint=problem[1])
            elif isinstance(value, (int, str)) and not isinstance(value, bool):
                v.content_values.setdefault(item.kind, {}).setdefault(a, set()).add(value)
        if uses.get(cid, 0) > 1:
            b.at(f, path + ("id",), "C006", f"id `{cid}` is also a name in the ruleset's vocabulary",
                 hint="content ids and vocabulary names share one namespace")
    for kname, kinfo in v.kinds.items():
        for a, default in kinfo.defaults.items():
            problem = _attribute_problem(v, kinfo.attributes[a], default)
            if problem:
                b.at(rf, ("kinds", kname, "attributes", a, "default"), "C004", problem[0], hint=problem[1])

    # definitions, in the order they use each other ----------------------------------
    def_specs: dict[str, DefinitionSpec] = {}
    parsed_defs: dict[str, ast.Expr] = {}
    for name, (f, _, d) in definitions.items():
        expr = b.expression(f, ("definitions", name, "value"), d.value)
        v.definitions[name].source = expr
        if expr is not None:
            parsed_defs[name] = expr
    order, cycles = _order({name: _names_used(e, v.definitions) for name, e in parsed_defs.items()})
    in_cycle = {n for c in cycles for n in c}
    for cycle in cycles:
        for name in cycle:
            f, _, _ = definitions[name]
            loop = " -> ".join(cycle[cycle.index(name):] + cycle[:cycle.index(name)] + [name])
            b.at(f, ("definitions", name), "E216", f"definition `{name}` uses itself through a loop ({loop})",
                 key=True, hint="definitions may use each other but never in a loop")
    for name in order:
        if name in in_cycle:
            continue
        f, _, d = definitions[name]
        info = v.definitions[name]
        dpath = ("definitions", name, "value")
        t, checker = b.check_expr(f, dpath, parsed_defs[name], Context(locals=dict(info.params), no_me=False))
        info.type = t
        info.needs_me = checker.used_me
        def_specs[name] = DefinitionSpec(name, [p for p, _ in info.params], parsed_defs[name],
                                         b.origin(f, dpath, f"definition `{name}`", expression=True))

    # procedures, in the order they run each other --------------------------------------
    proc_specs: dict[str, ProcedureSpec] = {}
    parsed_procs: dict[str, ast.Program] = {}
    for name, (f, _, pr) in procs.items():
        program = b.program(f, ("procedures", name, "do"), pr.do)
        v.procedures[name].source = program
        if program is not None:
            parsed_procs[name] = program
    order, cycles = _order({name: _names_used(p, v.procedures) for name, p in parsed_procs.items()})
    in_cycle = {n for c in cycles for n in c}
    for cycle in cycles:
        for name in cycle:
            f, _, _ = procs[name]
            loop = " -> ".join(cycle[cycle.index(name):] + cycle[:cycle.index(name)] + [name])
            b.at(f, ("procedures", name), "E216", f"procedure `{name}` runs itself ({loop})", key=True,
                 hint="procedures may run each other but never in a loop (the language has no recursion)")
    for name in order:
        if name in in_cycle:
            continue
        f, _, pr = procs[name]
        info_p = v.procedures[name]
        ppath = ("procedures", name, "do")
        checker = b.check_program(f, ppath, parsed_procs[name], Context(locals=dict(info_p.params), no_me=False))
        info_p.needs_me = checker.used_me
        info_p.announces = frozenset(checker.announced)
        proc_specs[name] = ProcedureSpec(name, [p for p, _ in info_p.params], parsed_procs[name],
                                         b.origin(f, ppath, f"procedure `{name}`"))

    # actions, setup, game, tie-breaks -------------------------------------------------
    action_specs: dict[str, ActionSpec] = {}
    announcers: list[tuple[str, frozenset[str], ast.Node, LoadedFile, Path]] = []
    for name, (f, _, act) in actions.items():
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
        if body is not None:
            what = f"action `{name}`"
            action_specs[name] = ActionSpec(name, act.label, body, coll, act.as_, cond, b.origin(f, base + ("do",), what),
                                            b.origin(f, base + ("choose",), what, True) if coll is not None else None,
                                            b.origin(f, base + ("if",), what, True) if cond is not None else None)
            announcers.append((what, frozenset(checker.announced), body, f, base + ("do",)))

    if setup is not None:
        checker = b.check_program(setup[0], ("setup",), setup[1], Context(allow_flow=True))
        if setup[1] is not None:
            announcers.append(("setup", frozenset(checker.announced), setup[1], setup[0], ("setup",)))
    if game is None:
        b.diags.append(Diagnostic("F004", "no procedures file defines `game:` (the game's flow)",
                                  file=rf.label))
    else:
        checker = b.check_program(game[0], ("game",), game[1], Context(allow_flow=True))
        if game[1] is not None:
            announcers.append(("the game procedure", frozenset(checker.announced), game[1], game[0], ("game",)))

    tie_breaks = []
    for i, text in enumerate(r.tie_breaks):
        e = b.expression(rf, ("tie_breaks", i), text)
        if e is not None:
            b.check_expr(rf, ("tie_breaks", i), e, Context(), T("amount"))
            tie_breaks.append(e)

    evaluation = None
    if r.evaluation is not None:
        evaluation = b.expression(rf, ("evaluation",), r.evaluation)
        if evaluation is not None:
            b.check_expr(rf, ("evaluation",), evaluation, Context(), T("amount"))

    # content: effects, conditions, effect attributes -----------------------------------
    sources: list[tuple[ast.Node, LoadedFile, Path, bool]] = [(node, f, path, False) for _, _, node, f, path in announcers]
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
        defs.append(PieceDef(cid, item.kind, item.name, item.copies, dict(item.attributes), effect, requires,
                             programs, origins))
        if effect is not None:
            sources.append((effect, f, path + ("effect",), False))

    for kname, kinfo in v.kinds.items():  # a token kind with no content item gets a plain definition
        if kinfo.piece == "token" and not any(d.kind == kname for d in defs):
            defs.append(PieceDef(kname, kname, v.label(kname)))

    # ruleset-wide analyses -------------------------------------------------------------
    for name, program in parsed_procs.items():
        sources.append((program, procs[name][0], ("procedures", name, "do"), False))
    for name, act_spec in action_specs.items():  # one-expression fields: their filters too
        for key, e in (("choose", act_spec.choose), ("if", act_spec.condition)):
            if e is not None:
                sources.append((e, actions[name][0], ("actions", name, key), True))
    for name, expr in parsed_defs.items():
        sources.append((expr, definitions[name][0], ("definitions", name, "value"), True))
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
        "setup": setup[1] if setup else None, "game": game[1] if game else None}
    score_labels = check_score_labels(r, rule_programs, partial(b.at, rf), b.suggest)

    result = BuildResult(None, b.diags, v, items)
    if has_errors(b.diags):
        return result
    result.spec = GameSpec(
        name=r.ruleset, title=r.title, vocab=v, min_players=r.players.min, max_players=r.players.max, defs=defs,
        res=b.res, actions=action_specs, definitions=def_specs, procedures=proc_specs,
        setup=setup[1] if setup else None, game=game[1] if game else None,
        setup_origin=b.origin(setup[0], ("setup",), "setup") if setup else None,
        game_origin=b.origin(game[0], ("game",), "the game procedure") if game else None,
        score_counter=r.score, tie_breaks=tie_breaks, automated=r.automated, starting_choices=list(r.win_rates_by), evaluation=evaluation,
        display=b.display, score_labels=score_labels,
        limits=Limits(r.limits.max_turns, r.limits.step_budget, r.limits.max_repeats), eras=list(r.eras),
        era_counter=r.era_counter, option_defaults={k: o.default for k, o in r.options.items()},
        option_rules={k: (o.type, o.min, o.max) for k, o in r.options.items()},
        content_hash=content_hash(files),
    )
    return result


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


def _template(v: Vocabulary, name: str, text: str | None, params: list[str]) -> None:
    """A definition's or procedure's `text:` becomes its card-text template ({0}, {1}...)."""
    if not text:
        return
    template = text
    for i, p in enumerate(params):
        template = template.replace("{" + p + "}", "{" + str(i) + "}")
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
            return (f"expected a table (item: number), found {excerpt(repr(value))}", "write {politician: 3, socialite: 6}")
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
