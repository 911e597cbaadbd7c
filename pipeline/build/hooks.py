"""Rules that reach into other rules without copying them: hooks and restrictions.

A procedure with `before: X` (or `after: X`) is a hook: it runs at the start (at the
end) of the procedure or action X each time X runs, with X's parameters (an action's: its
`as:` name), as the same player. A `restrictions:` entry adds a condition to an action:
the action is offered only where its own `if:` and every restriction on it hold. Both
let an expansion hook into the rules it is laid over, the way its actions join the base's
menus, without touching a base file; a ruleset may use them on its own rules too.

Here they are checked (R013 for a hook, R014 for a restriction) and put in place: X's
program gets a call of each of its hooks, in load order, before its first statement or
after its last (so a hook is checked, compiled and run as any procedure call, and an
error in it names the hook's own file and line); an action's restrictions are checked
with its `as:` name and kept beside its condition (interpreter/spec.py ActionSpec).
"""

from __future__ import annotations

from legacies.dsl import ast
from legacies.dsl.checker import Context
from legacies.dsl.types import FLAG, T, fits
from legacies.interpreter.spec import Origin

from .base import Builder, Rules


def find_hooks(b: Builder, rules: Rules) -> None:
    """Each hook's target and where it runs (`rules.hooks`), in load order. R013: a hook
    that names no procedure or action, names itself, gives both `before:` and `after:`,
    or whose parameters are not its target's (a procedure's: the same names in the same
    order, each able to hold the target's; an action's: its `as:` name, or none)."""
    v = b.vocab
    for name, (f, _, pr) in rules.procedures.items():
        if pr.before is None and pr.after is None:
            continue
        path = ("procedures", name)
        if pr.before is not None and pr.after is not None:
            b.at(f, path + ("after",), "R013", f"procedure `{name}` gives both `before:` and `after:`: a hook runs at "
                 "one end of what it hooks", hint="make two procedures, one for each end")
            continue
        where = "before" if pr.before is not None else "after"
        target: str = pr.before if pr.before is not None else pr.after
        if target == name:
            b.at(f, path + (where,), "R013", f"procedure `{name}` hooks itself", hint="name another procedure or action")
            continue
        if target not in rules.procedures and target not in rules.actions:
            b.at(f, path + (where,), "R013", f"`{target}` is no procedure or action",
                 hint=b.suggest(target, list(rules.procedures) + list(rules.actions)))
            continue
        got = v.procedures[name].params
        if target in rules.procedures:
            want = v.procedures[target].params
            same = [p for p, _ in got] == [p for p, _ in want] and all(
                fits(wt, gt) for (_, gt), (_, wt) in zip(got, want))
            wanted = ", ".join(f"{p}: {t}" for p, t in want) or "none"
        else:
            as_ = rules.actions[target][2].as_
            same = [p for p, _ in got] == ([as_] if as_ else [])
            wanted = f"{as_} (the action's `as:` name)" if as_ else "none (the action chooses nothing)"
        if not same:
            b.at(f, path + ("params",) if pr.params else path, "R013", f"hook `{name}` runs with the parameters "
                 f"of `{target}`, and its own are {', '.join(p for p, _ in got) or 'none'}",
                 hint=f"declare `params:` as `{target}` has them: {wanted}")
            continue
        rules.hooks.setdefault(target, ([], []))[0 if where == "before" else 1].append(name)


def spliced(program: ast.Program | None, target: str, params: list[str], rules: Rules) -> ast.Program | None:
    """`target`'s program with a call of each of its hooks: those before it first, those
    after it last, each given the target's parameters by name."""
    if program is None or target not in rules.hooks:
        return program
    before, after = rules.hooks[target]

    def calls(hooks: list[str]) -> tuple[ast.Stmt, ...]:
        return tuple(ast.Run(ast.Name(h), tuple(ast.Name(p) for p in params)) for h in hooks)
    return ast.Program(calls(before) + tuple(program.statements) + calls(after), program.declarations,
                       span=program.span)


def check_action_hooks(b: Builder, rules: Rules, action: str, member: T | None) -> None:
    """R013 for a hook of an action whose parameter cannot hold what the action chooses."""
    for hook in [h for side in rules.hooks.get(action, ([], [])) for h in side]:
        params = b.vocab.procedures[hook].params
        if member is not None and params and not fits(member, params[0][1]):
            f = rules.procedures[hook][0]
            b.at(f, ("procedures", hook, "params", params[0][0]), "R013", f"hook `{hook}` takes `{params[0][0]}` as "
                 f"{params[0][1]}, and `{action}` chooses {member}", hint=f"declare it as `{action}` chooses it")


def check_restrictions(b: Builder, rules: Rules, action: str, locals_: dict[str, T]) -> list[tuple[ast.Expr, Origin]]:
    """The restrictions on `action`, each checked as a condition with its `as:` name, with
    where it is written."""
    out: list[tuple[ast.Expr, Origin]] = []
    for name, (f, _, restriction) in rules.restrictions.items():
        if restriction.action != action:
            continue
        path = ("restrictions", name, "if")
        cond = b.expression(f, path, restriction.if_)
        if cond is None:
            continue
        b.check_expr(f, path, cond, Context(locals=dict(locals_)), FLAG)
        rules.restricting[name] = cond
        out.append((cond, b.origin(f, path, f"restriction `{name}` on action `{action}`", expression=True)))
    return out


def unknown_restricted(b: Builder, rules: Rules) -> None:
    """R014: a restriction on an action no rules file gives."""
    for name, (f, _, restriction) in rules.restrictions.items():
        if restriction.action not in rules.actions:
            b.at(f, ("restrictions", name, "action"), "R014", f"restriction `{name}` is on `{restriction.action}`, "
                 "which is no action", hint=b.suggest(restriction.action, rules.actions))
