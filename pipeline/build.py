"""Loaded files -> a checked GameSpec: the parse and check passes of the pipeline.

Builds the ruleset's Vocabulary from its ruleset file, checks every reference the
data makes (zones, kinds, enums, content ids, attributes), parses every effect,
condition and value with the effect language, runs the static checker over each and
places every Diagnostic in its YAML file (file:line:column). Nothing is compiled or
run here; a spec with no errors is ready for interpreter.Game.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Iterable

from legacies.dsl import ast
from legacies.dsl.checker import Checker, Context, Resolution
from legacies.dsl.diagnostics import Diagnostic, has_errors
from legacies.dsl.parser import EXPRESSION_PREFIX, SyntaxErrors, parse_expression, parse_program
from legacies.dsl.types import ANY, FLAG, PLAYER, T, parse_type, thing
from legacies.dsl.vocabulary import (CounterInfo, DefinitionInfo, EventInfo, KindInfo, PaymentInfo, QuantityInfo,
                                     Vocabulary, ZoneInfo)
from legacies.interpreter.spec import ActionSpec, DefinitionSpec, GameSpec, Limits, PieceDef

from .load import LoadedFile
from .models import ContentFile, ProceduresFile, RulesetFile

Path = tuple


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

    # ------------------------------------------------------------------ reporting
    def at(self, f: LoadedFile, path: Path, code: str, message: str, hint: str | None = None,
           key: bool = False) -> None:
        line, col, end = f.span(path, key=key)
        self.diags.append(Diagnostic(code, message, line, col, hint=hint, file=f.label, end_column=end))

    def place(self, f: LoadedFile, path: Path, diags: Iterable[Diagnostic], expression: bool = False) -> None:
        origin = f.origin(path)
        if origin is None:
            line, col = f.position(path)
            origin = (line - 1, col - 1)
        for d in diags:
            if expression and d.line == 1:
                d = Diagnostic(d.code, d.message, d.line, max(1, d.column - EXPRESSION_PREFIX), d.severity, d.hint,
                               d.file, d.end_column - EXPRESSION_PREFIX if d.end_column else None)
            self.diags.append(d.shifted(f.label, origin[0], origin[1]))

    def suggest(self, name: str, names: Iterable[str]) -> str | None:
        close = difflib.get_close_matches(name, [n for n in names if n != name], n=1, cutoff=0.6)
        return f"did you mean `{close[0]}`?" if close else None

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

    def check_program(self, f: LoadedFile, path: Path, program: ast.Program | None, ctx: Context) -> None:
        if program is not None:
            self.place(f, path, Checker(self.vocab, self.res).check_program(program, ctx))

    def check_expr(self, f: LoadedFile, path: Path, expr: ast.Expr | None, ctx: Context,
                   expected: T | None = None) -> T:
        if expr is None:
            return ANY
        checker = Checker(self.vocab, self.res)
        t = checker.check_expression(expr, ctx, expected)
        self.place(f, path, checker.diags, expression=True)
        return t

    # ------------------------------------------------------------------ vocabulary
    def vocabulary(self, f: LoadedFile, r: RulesetFile) -> None:
        v = self.vocab
        v.eras = len(r.eras)
        v.hand = r.hand
        v.labels = dict(r.labels)
        seen_symbols: dict[str, str] = {}
        for enum, values in r.enums.items():
            for i, value in enumerate(values):
                if value in seen_symbols:
                    self.at(f, ("enums", enum, i), "R002", f"symbol `{value}` is already in enum `{seen_symbols[value]}`",
                            hint="symbols are names: each may belong to one enum")
                seen_symbols[value] = enum
            v.enums[enum] = tuple(values)
        for name, c in r.counters.items():
            v.counters[name] = CounterInfo(c.scope, c.label, c.min, c.max, c.start)
        for name, z in r.zones.items():
            v.zones[name] = ZoneInfo(z.scope, z.label, z.visibility, z.discard_to, z.refill_from, z.in_play)
        for name, z in r.zones.items():
            for key in ("discard_to", "refill_from"):
                target = getattr(z, key)
                if target is not None and target not in r.zones:
                    self.at(f, ("zones", name, key), "R001", f"unknown zone `{target}`", hint=self.suggest(target, r.zones))
        for name, e in r.events.items():
            params = {}
            for p, text in e.params.items():
                t = parse_type(text)
                if t is None:
                    self.at(f, ("events", name, "params", p), "R003", f"unknown type `{text}`",
                            hint="types: amount, flag, text, player, players, kind:<kind>, symbol:<enum>")
                    t = ANY
                params[p] = t
            v.events[name] = EventInfo(params, e.label)
        for name, q in r.quantities.items():
            v.quantities[name] = QuantityInfo(FLAG if q.type == "flag" else T("amount"), q.default, q.per, q.subject,
                                              q.label)
        for name, o in r.options.items():
            v.options[name] = FLAG if o.type == "flag" else T("amount")
        for name, k in r.kinds.items():
            attrs: dict[str, T] = {}
            for a, text in k.attributes.items():
                t = parse_type(text)
                if t is None or (t.tag in ("symbol", "symbols") and t.arg not in r.enums):
                    self.at(f, ("kinds", name, "attributes", a), "R003", f"unknown type `{text}`",
                            hint=self.suggest(text.partition(":")[2], r.enums) or
                            "types: number, text, flag, symbol:<enum>, symbols:<enum>, kind:<kind>")
                    t = ANY
                attrs[a] = t
            counters = {c: CounterInfo("item", cd.label, cd.min, cd.max, cd.start) for c, cd in k.counters.items()}
            v.kinds[name] = KindInfo(k.piece, k.label, k.plural, attrs, counters, k.track.spaces if k.track else None,
                                     k.track.bump if k.track else True, k.holder, k.supply, k.supply_zone, k.starts_in)
            for key, scope in (("starts_in", "game"), ("supply_zone", "player")):
                target = getattr(k, key)
                if target is not None and target not in r.zones:
                    self.at(f, ("kinds", name, key), "R001", f"unknown zone `{target}`", hint=self.suggest(target, r.zones))
                elif target is not None and r.zones[target].scope != scope:
                    self.at(f, ("kinds", name, key), "R001", f"`{key}` needs a {scope} zone; `{target}` is a "
                            f"{r.zones[target].scope} zone")
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
        if r.era_counter is not None and (r.era_counter not in r.counters or r.counters[r.era_counter].scope != "game"):
            self.at(f, ("era_counter",), "R001", f"`era_counter` must name a game counter, not `{r.era_counter}`")
        if r.payment is not None:
            v.payment = PaymentInfo(r.payment.cost, r.payment.symbol, r.payment.wild, r.payment.max_wild)
        taken: dict[str, str] = {}
        for table_name in ("counters", "zones", "kinds", "events", "quantities", "options"):
            for name in getattr(r, table_name):
                if name in taken and taken[name] != table_name:
                    self.at(f, (table_name, name), "R005", f"`{name}` already names one of the {taken[name]}", key=True)
                taken.setdefault(name, table_name)
        for name in seen_symbols:
            if name in taken:
                self.at(f, ("enums",), "R005", f"symbol `{name}` already names one of the {taken[name]}")


def build_spec(files: list[LoadedFile]) -> BuildResult:
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
    uses: dict[str, int] = {}  # how many times each name is taken (content ids included)
    for name in v.all_names():
        uses[name] = uses.get(name, 0) + 1
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
        if uses.get(cid, 0) > 1:
            b.at(f, path + ("id",), "C006", f"id `{cid}` is also a name in the ruleset's vocabulary",
                 hint="content ids and vocabulary names share one namespace")

    # procedures: definitions and actions first (names), then everything is checked
    actions: dict[str, tuple[LoadedFile, str, Any]] = {}
    definitions: dict[str, tuple[LoadedFile, str, Any]] = {}
    setup = game = None
    for f in procedures:
        pf: ProceduresFile = f.model  # type: ignore[assignment]
        for name, a in pf.actions.items():
            if name in actions:
                b.at(f, ("actions", name), "R007", f"action `{name}` is already defined in {actions[name][0].label}",
                     key=True, hint="each action is defined once across a ruleset's procedures files")
                continue
            actions[name] = (f, name, a)
            v.actions[name] = a
        for name, d in pf.definitions.items():
            if name in definitions:
                b.at(f, ("definitions", name), "R007",
                     f"definition `{name}` is already defined in {definitions[name][0].label}", key=True)
                continue
            params = []
            for p, text in d.params.items():
                t = parse_type(text)
                if t is None:
                    b.at(f, ("definitions", name, "params", p), "R003", f"unknown type `{text}`")
                    t = ANY
                params.append((p, t))
            definitions[name] = (f, name, d)
            v.definitions[name] = DefinitionInfo(params)
            if d.text:
                template = d.text
                for i, (p, _) in enumerate(params):
                    template = template.replace("{" + p + "}", "{" + str(i) + "}")
                v.labels.setdefault(name, template)
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

    def_specs: dict[str, DefinitionSpec] = {}
    for name, (f, _, d) in definitions.items():
        expr = b.expression(f, ("definitions", name, "value"), d.value)
        info = v.definitions[name]
        info.source = expr
        if expr is not None:
            t = b.check_expr(f, ("definitions", name, "value"), expr, Context(locals=dict(info.params)))
            info.type = t
            def_specs[name] = DefinitionSpec(name, [p for p, _ in info.params], expr)
    for name in _cycles(v):
        f, _, _ = definitions[name]
        b.at(f, ("definitions", name), "E216", f"definition `{name}` refers to itself", key=True,
             hint="definitions may use each other but never in a loop")

    action_specs: dict[str, ActionSpec] = {}
    for name, (f, _, a) in actions.items():
        base = ("actions", name)
        coll = b.expression(f, base + ("choose",), a.choose)
        cond = b.expression(f, base + ("if",), a.if_)
        body = b.program(f, base + ("do",), a.do)
        locals_: dict[str, T] = {}
        if a.choose is not None and not a.as_:
            b.at(f, base, "R006", f"action `{name}` chooses from a collection but names no variable (`as:`)", key=True)
        if coll is not None:
            t = b.check_expr(f, base + ("choose",), coll, Context())
            if not t.is_collection and t.tag != "any":
                b.at(f, base + ("choose",), "E202", f"`choose` needs a collection, found {t}")
            if a.as_:
                locals_[a.as_] = t.element()
        if cond is not None:
            b.check_expr(f, base + ("if",), cond, Context(locals=dict(locals_)), FLAG)
        b.check_program(f, base + ("do",), body, Context(locals=dict(locals_)))
        if body is not None:
            action_specs[name] = ActionSpec(name, a.label, body, coll, a.as_, cond)

    if setup is not None:
        b.check_program(setup[0], ("setup",), setup[1], Context(allow_flow=True))
    if game is None:
        b.diags.append(Diagnostic("F004", "no procedures file defines `game:` (the game's flow)",
                                  file=rf.label))
    else:
        b.check_program(game[0], ("game",), game[1], Context(allow_flow=True))

    tie_breaks = []
    for i, text in enumerate(r.tie_breaks):
        e = b.expression(rf, ("tie_breaks", i), text)
        if e is not None:
            b.check_expr(rf, ("tie_breaks", i), e, Context(), T("amount"))
            tie_breaks.append(e)

    defs: list[PieceDef] = []
    for cid, (f, path, item) in items.items():
        this = thing(item.kind)
        effect = b.program(f, path + ("effect",), item.effect)
        requires = b.expression(f, path + ("requires",), item.requires)
        b.check_program(f, path + ("effect",), effect, Context(this=this, allow_declarations=True))
        b.check_expr(f, path + ("requires",), requires, Context(this=this), FLAG)
        defs.append(PieceDef(cid, item.kind, item.name, item.copies, dict(item.attributes), effect, requires))

    for kname, kind in v.kinds.items():  # a token kind with no content item gets a plain definition
        if kind.piece == "token" and not any(d.kind == kname for d in defs):
            defs.append(PieceDef(kname, kname, v.label(kname)))

    result = BuildResult(None, b.diags, v, items)
    if has_errors(b.diags):
        return result
    result.spec = GameSpec(
        name=r.ruleset, title=r.title, vocab=v, min_players=r.players.min, max_players=r.players.max, defs=defs,
        res=b.res, actions=action_specs, definitions=def_specs, setup=setup[1] if setup else None,
        game=game[1] if game else None, score_counter=r.score, tie_breaks=tie_breaks,
        limits=Limits(r.limits.max_turns, r.limits.step_budget, r.limits.max_repeats), eras=list(r.eras),
        era_counter=r.era_counter, option_defaults={k: o.default for k, o in r.options.items()},
        option_rules={k: (o.type, o.min, o.max) for k, o in r.options.items()},
    )
    return result


def _attribute_problem(v: Vocabulary, t: T, value: Any) -> tuple[str, str | None] | None:
    if t.tag == "amount":
        return None if isinstance(value, int) and not isinstance(value, bool) else (f"expected a number, found {value!r}", None)
    if t.tag == "flag":
        return None if isinstance(value, bool) else (f"expected yes/no (true/false), found {value!r}", None)
    if t.tag == "text":
        return None if isinstance(value, str) else (f"expected text, found {value!r}", None)
    if t.tag == "symbol":
        values = v.enums.get(t.arg or "", ())
        if value not in values:
            close = difflib.get_close_matches(str(value), values, n=1)
            return (f"`{value}` is not a {t.arg} (one of {', '.join(values)})",
                    f"did you mean `{close[0]}`?" if close else None)
        return None
    if t.tag == "symbols":
        if not isinstance(value, list):
            return (f"expected a list of {t.arg}, found {value!r}", f"write [a, b, c]")
        for x in value:
            p = _attribute_problem(v, T("symbol", t.arg), x)
            if p:
                return p
        return None
    if t.tag == "thing":
        if value not in v.content:
            return (f"unknown content id `{value}`", None)
        if t.arg and v.content[value] != t.arg:
            return (f"`{value}` is a {v.content[value]}, not a {t.arg}", None)
    return None


def _cycles(v: Vocabulary) -> list[str]:
    """Definitions that reach themselves through other definitions."""
    uses: dict[str, set[str]] = {}
    for name, info in v.definitions.items():
        refs: set[str] = set()
        if isinstance(info.source, ast.Node):
            for node in ast.walk(info.source):
                if isinstance(node, (ast.Call, ast.Name)) and getattr(node, "name", None) in v.definitions:
                    refs.add(node.name)
        uses[name] = refs
    bad = []
    for start in uses:
        stack, seen = list(uses[start]), set()
        while stack:
            n = stack.pop()
            if n == start:
                bad.append(start)
                break
            if n in seen:
                continue
            seen.add(n)
            stack.extend(uses.get(n, ()))
    return bad
