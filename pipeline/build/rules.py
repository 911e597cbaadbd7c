"""The build's passes over the rules: definitions and procedures in the order they use
each other (cycles reported), actions, labels, the rules' own triggers, the evaluation
the bots steer by, the links' conditions, and the warnings of a program that may exceed
the step budget."""

from __future__ import annotations

from typing import Any

from legacies.dsl import ast
from legacies.dsl.checker import Checker, Context
from legacies.dsl.diagnostics import WARNING, Diagnostic
from legacies.dsl.types import FLAG, T, thing
from legacies.interpreter.spec import ActionSpec, DefinitionSpec, Origin, ProcedureSpec

from .base import Builder, Path, Rules, aggregated, dependency_order, names_used
from .hooks import check_action_hooks, check_restrictions, spliced
from ..definition_nesting import charges, nesting
from ..load import LoadedFile
from ..models import RulesetFile


def _in_cycles(b: Builder, table: dict[str, tuple[LoadedFile, str, Any]], cycles: list[list[str]],
               section: str, message: str, hint: str) -> set[str]:
    for cycle in cycles:
        for name in cycle:
            f, _, _ = table[name]
            loop = " -> ".join(cycle[cycle.index(name):] + cycle[:cycle.index(name)] + [name])
            b.at(f, (section, name), "E216", message.format(name=name, loop=loop), key=True, hint=hint)
    return {n for c in cycles for n in c}


def check_definitions(b: Builder, rules: Rules, step_budget: int) -> tuple[dict[str, DefinitionSpec],
                                                                          dict[str, ast.Expr]]:
    """Definitions checked in the order they use each other (E216 for a loop), then
    measured with the definitions they use nested where they use them (E216 for a loop
    through `total NAME of`, E222, E223: pipeline/definition_nesting.py)."""
    v = b.vocab
    parsed: dict[str, ast.Expr] = {}
    for name, (f, _, d) in rules.definitions.items():
        expr = b.expression(f, ("definitions", name, "value"), d.value)
        v.definitions[name].source = expr
        if expr is not None:
            parsed[name] = expr
    plain = {name: names_used(e, v.definitions) for name, e in parsed.items()}
    _, cycles = dependency_order(plain)
    in_cycle = _in_cycles(b, rules.definitions, cycles, "definitions", DEFINITION_LOOP, DEFINITION_LOOP_HINT)
    # checked callees first, `total NAME of` taken for a use (the checker decides whether it is one)
    order, _ = dependency_order({name: plain[name] | aggregated(e, v.definitions) for name, e in parsed.items()})
    uses: dict[str, set[str]] = {}
    checked: dict[str, DefinitionSpec] = {}
    for name in order:
        if name in in_cycle:
            continue
        f, _, d = rules.definitions[name]
        info = v.definitions[name]
        dpath = ("definitions", name, "value")
        t, checker = b.check_expr(f, dpath, parsed[name], Context(locals=dict(info.params), no_me=False))
        info.type = t
        info.needs_me = checker.used_me
        uses[name] = {n for n in checker.calls if n in v.definitions}
        checked[name] = DefinitionSpec(name, [p for p, _ in info.params], parsed[name],
                                       b.origin(f, dpath, f"definition `{name}`", expression=True))
    order, cycles = dependency_order(uses)  # as resolved: loops through `total NAME of` show here
    looping = _in_cycles(b, rules.definitions, cycles, "definitions", DEFINITION_LOOP, DEFINITION_LOOP_HINT)
    measured, findings = nesting([n for n in order if n not in looping], parsed, b.res, step_budget)
    for found in findings:
        b.at(rules.definitions[found.name][0], ("definitions", found.name, "value"), found.code, found.message,
             hint=found.hint)
    for name, m in measured.items():
        checked[name].charge = m.own if charges(m) else 0
    return {name: spec for name, spec in checked.items() if name not in looping}, parsed


DEFINITION_LOOP = "definition `{name}` uses itself through a loop ({loop})"
DEFINITION_LOOP_HINT = "definitions may use each other but never in a loop"


def check_procedures(b: Builder, rules: Rules) -> tuple[dict[str, ProcedureSpec], dict[str, ast.Program]]:
    """Procedures checked in the order they run each other (E216 for a loop: no recursion)."""
    v = b.vocab
    proc_specs: dict[str, ProcedureSpec] = {}
    parsed: dict[str, ast.Program] = {}
    for name, (f, _, pr) in rules.procedures.items():
        program = spliced(b.program(f, ("procedures", name, "do"), pr.do), name,
                          [p for p, _ in v.procedures[name].params], rules)
        v.procedures[name].source = program
        if program is not None:
            parsed[name] = program
        else:  # the rest of one that does not parse: checked now (it runs nothing, so its order is no matter)
            b.check_recovered(f, ("procedures", name, "do"), Context(locals=dict(v.procedures[name].params), no_me=False))
    order, cycles = dependency_order({name: names_used(p, v.procedures) for name, p in parsed.items()})
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


def check_actions(b: Builder, rules: Rules) -> tuple[dict[str, ActionSpec], list[Announcer]]:
    """Each action's collection, condition and body (R006: a collection needs `as:`)."""
    action_specs: dict[str, ActionSpec] = {}
    announcers: list[Announcer] = []
    for name, (f, _, act) in rules.actions.items():
        base = ("actions", name)
        coll = b.expression(f, base + ("choose",), act.choose)
        cond = b.expression(f, base + ("if",), act.if_)
        body = spliced(b.program(f, base + ("do",), act.do), name, [act.as_] if act.as_ else [], rules)
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
        check_action_hooks(b, rules, name, locals_.get(act.as_) if act.as_ else None)
        if cond is not None:
            b.check_expr(f, base + ("if",), cond, Context(locals=dict(locals_)), FLAG)
        restrictions = check_restrictions(b, rules, name, locals_)
        checker = b.check_program(f, base + ("do",), body, Context(locals=dict(locals_)))
        label_node = check_label(b, f, base + ("label",), act.label, Context(locals=dict(locals_)))
        if body is not None:
            what = f"action `{name}`"
            action_specs[name] = ActionSpec(name, act.label, body, coll, act.as_, cond, b.origin(f, base + ("do",), what),
                                            b.origin(f, base + ("choose",), what, True) if coll is not None else None,
                                            b.origin(f, base + ("if",), what, True) if cond is not None else None,
                                            label_node, restrictions)
            announcers.append((what, frozenset(checker.announced), body, f, base + ("do",)))
    return action_specs, announcers


def check_label(b: Builder, f: LoadedFile, path: Path, label: str, ctx: Context) -> ast.Node | None:
    """An action's label with `{EXPR}` parts ("Play {C}", "Pay {my_cost(C)} gold"): each
    part checked with the action's names, shown as its value in the menu."""
    if "{" not in label:
        return None
    node = ast.Text(label, span=ast.Span(1, 1, 1, 1 + len(label)))
    b.place(f, path, Checker(b.vocab, b.res).check_text(node, label, ctx))
    return node


def check_rule_triggers(b: Builder, rules: Rules) -> dict[str, tuple[LoadedFile, ast.Trigger, ast.Program]]:
    """A rules file's `triggers:`: each one `when EVENT [where C]:` declaration, run by
    nobody (R010 for anything else in it)."""
    out: dict[str, tuple[LoadedFile, ast.Trigger, ast.Program]] = {}
    for name, (f, _, text) in rules.triggers.items():
        path = ("triggers", name)
        program = b.program(f, path, text)
        if program is None:
            b.check_recovered(f, path, Context(allow_declarations=True, owner_less=True))
            continue
        decls = [d for d in program.declarations if isinstance(d, ast.Trigger)]
        if program.statements or len(decls) != 1 or len(program.declarations) != 1:
            b.at(f, path, "R010", f"trigger `{name}` is one `when EVENT:` and its block",
                 hint="write `when EVENT [where CONDITION]:` and, indented below it, what happens")
            continue
        b.check_program(f, path, program, Context(allow_declarations=True, owner_less=True))
        out[name] = (f, decls[0], program)
    return out


def check_evaluation(b: Builder, rf: LoadedFile, expansions: list[LoadedFile]) -> ast.Expr | None:
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


def check_link_conditions(b: Builder) -> dict[str, tuple[ast.Expr, Origin]]:
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


def budget_warnings(program: ast.Node, budget: int, in_expansion: bool = False) -> list[Diagnostic]:
    """W305 where a program can tell it will spend more than the step budget for one
    decision: a `repeat N times` (N a number), nested in other such repeats, whose runs
    need at least N x (its statements + 1) steps. Counted without recursion. The hint of a
    program in an expansion does not offer the budget, which only the ruleset sets."""
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
                                      line, column, WARNING, hint="repeat fewer times" if in_expansion else
                                      "repeat fewer times, or raise `limits.step_budget` in ruleset.yaml"))
                continue
            stack.extend((child, runs if child in node.body else times) for child in node.children())
            continue
        stack.extend((child, times) for child in node.children())
    return out
