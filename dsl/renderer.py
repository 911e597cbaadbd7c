"""AST -> English card text: what a player reads on the card, not what the engine runs.

This module owns the player-facing wording of effects. Identifiers never show as
internal names: each is looked up in `labels` or else has its underscores turned
into spaces; `me`/`my` read "you"/"your"; statements become capitalized sentences
ending with a period; declarations read "When ...:", "While in play: ..." and so on.
`log` statements are for the game log, not the card, and are left out.

Rendering never raises: any node it does not know how to word (or that is malformed)
falls back to its canonical source text from `dsl.printer`, underscores turned into
spaces.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from . import ast
from .printer import AND, NOT, OR, POSTFIX, PRODUCT, SUM, UNARY, WHERE
from .printer import precedence, print_expr, print_statement

__all__ = ["render_program", "render_expr", "render_statement"]

_COMPARE_WORDS = {
    "=": "is",
    "!=": "is not",
    "in": "is in",
    ">": "is more than",
    "<": "is less than",
    ">=": "is at least",
    "<=": "is at most",
}
_VERBS = {ast.Gain: ("gain", "gains"), ast.Lose: ("lose", "loses"), ast.Pay: ("pay", "pays")}


def _sentence(clause: str) -> str:
    clause = clause.strip()
    if not clause:
        return ""
    clause = clause[0].upper() + clause[1:]
    return clause if clause[-1] in ".!?" else clause + "."


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 3:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 1:
        return word[:-1]
    return word


def _article(text: str) -> str:
    return "an" if text[:1].lower() in ("a", "e", "i", "o", "u") else "a"


def _list(items: Sequence[str], conjunction: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


class _Renderer:
    def __init__(self, labels: Mapping[str, str] | None, era_names: Sequence[str] | None) -> None:
        self.labels: Mapping[str, str] = labels or {}
        self.era_names = list(era_names) if era_names else None
        self.loop_nouns: dict[str, str] = {}  # for-each variable -> the noun it stands for

    # ---------------------------------------------------------------- names

    def ident(self, name: str) -> str:
        label = self.labels.get(name)
        return label if label else name.replace("_", " ")

    def counted(self, e: ast.Compare) -> str:
        """`count of C > 0` reads "there is some C"; `count of C = 0` reads "there is no C"."""
        if not (isinstance(e.left, ast.Of) and e.left.name == "count" and isinstance(e.right, ast.Num)
                and e.right.value == 0 and e.op in (">", "!=", "=")):
            return ""
        subject = e.left.subject
        inner = subject.collection if isinstance(subject, ast.Where) else subject
        what = self.expr(subject, OR)
        if isinstance(inner, ast.Select) or isinstance(subject, ast.Where):
            what = what.strip("()")
        first, _, rest = what.partition(" ")
        if isinstance(inner, ast.Select) and rest:
            return f"there {'is no' if e.op == '=' else 'is at least one'} {_singular(first)} {rest}"
        return f"there {'is none of' if e.op == '=' else 'is at least one of'} {what}"

    def call(self, e: ast.Call) -> str:
        """Builtins in words; a definition through its `text:` template ({0}, {1}... are
        its arguments), else as `name (arguments)`."""
        args = [self.expr(a) for a in e.args]
        template = self.labels.get(e.name, "")
        if "{0}" in template:
            try:
                return template.format(*args).replace("you's", "your")
            except (IndexError, KeyError, ValueError):
                pass
        if e.name in ("max", "min"):
            return f"the {'highest' if e.name == 'max' else 'lowest'} of {_list(args, 'and')}"
        if e.name == "affordable" and len(args) == 2:
            return f"{args[0]} can be paid for from {args[1]}"
        if e.name == "playable" and len(args) == 1:
            return f"{args[0]} can be played"
        if e.name == "possible":
            return f"you can {_list([self.ident(a.name) if isinstance(a, ast.Name) else x for a, x in zip(e.args, args)], 'or')}"
        if len(args) == 1:
            return f"the {self.ident(e.name)} of {self.expr(e.args[0], POSTFIX)}"
        return f"{self.ident(e.name)} ({', '.join(args)})"

    def possess(self, label: str, subject: ast.Expr) -> str:
        """`label` of `subject`, said as English possession."""
        if isinstance(subject, ast.Name):
            if subject.name == "me":
                return f"your {label}"
            if subject.name in self.loop_nouns:
                return f"that {self.loop_nouns[subject.name]}'s {label}"
            owner = self.ident(subject.name)
            return f"{owner}' {label}" if owner.endswith("s") else f"{owner}'s {label}"
        if isinstance(subject, ast.It):
            return f"its {label}"
        if isinstance(subject, ast.This):
            return f"the {label} of this"
        return f"the {label} of {self.expr(subject, POSTFIX)}"

    def fallback(self, node: object) -> str:
        if node is None:
            return "?"
        try:
            if isinstance(node, ast.Expr):
                text = print_expr(node)
            elif isinstance(node, ast.Stmt):
                text = " ".join(line.strip() for line in print_statement(node).splitlines())
            else:
                text = type(node).__name__.lower()
        except Exception:
            text = type(node).__name__.lower()
        return text.replace("_", " ")

    # ---------------------------------------------------------------- expressions

    def expr(self, e: ast.Expr, min_precedence: int = WHERE) -> str:
        try:
            text = self._expr(e)
            if precedence(e) < min_precedence:
                return f"({text})"
            return text
        except Exception:
            return self.fallback(e)

    def era(self, values: tuple[int, ...]) -> str:
        names = self.era_names
        if names and len(names) >= len(values):
            return " / ".join(f"{v} ({n})" for v, n in zip(values, names))
        return "/".join(str(v) for v in values)

    def count(self, e: ast.Expr) -> str:
        return str(e.value) if isinstance(e, ast.Num) else self.expr(e, UNARY)

    def _expr(self, e: ast.Expr) -> str:
        if isinstance(e, ast.Num):
            return str(e.value)
        if isinstance(e, ast.Era):
            return self.era(tuple(e.values))
        if isinstance(e, ast.Percent):
            return f"{e.value}%"
        if isinstance(e, ast.Text):
            return f'"{e.value}"'
        if isinstance(e, ast.Bool):
            return "yes" if e.value else "no"
        if isinstance(e, ast.Name):
            if e.name == "me":
                return "you"
            if e.name in self.loop_nouns:
                return f"that {self.loop_nouns[e.name]}"
            return self.ident(e.name)
        if isinstance(e, ast.This):
            return "this"
        if isinstance(e, ast.It):
            return "it"
        if isinstance(e, ast.Of):
            return self.possess(self.ident(e.name), e.subject)
        if isinstance(e, ast.Top):
            count = "" if e.count is None else f" {self.count(e.count)}"
            return f"the {e.end}{count} of {self.expr(e.source, POSTFIX)}"
        if isinstance(e, ast.Select):
            return f"{self.ident(e.word)} in {self.expr(e.source, POSTFIX)}"
        if isinstance(e, ast.PlayersAfter):
            return f"the players after {self.expr(e.player, POSTFIX)}"
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.Neg):
            return f"-{self.expr(e.operand, UNARY)}"
        if isinstance(e, ast.Arith):
            if e.op == "*":
                if isinstance(e.right, ast.Percent):
                    return f"{self.expr(e.left, PRODUCT)} × {e.right.value}% (rounded up)"
                return f"{self.expr(e.left, PRODUCT)} × {self.expr(e.right, UNARY)}"
            return f"{self.expr(e.left, SUM)} {e.op} {self.expr(e.right, PRODUCT)}"
        if isinstance(e, ast.Div):
            rounding = "rounded down" if e.rounding == "down" else "rounded up"
            return f"{self.expr(e.left, PRODUCT)} divided by {self.expr(e.right, UNARY)} ({rounding})"
        if isinstance(e, ast.Empty):
            return f"{self.expr(e.subject, SUM)} is empty"
        if isinstance(e, ast.Compare):
            counted = self.counted(e)
            if counted:
                return counted
            word = _COMPARE_WORDS.get(e.op, e.op)
            return f"{self.expr(e.left, SUM)} {word} {self.expr(e.right, SUM)}"
        if isinstance(e, ast.Not):
            if isinstance(e.operand, ast.Empty):
                return f"{self.expr(e.operand.subject, SUM)} is not empty"
            return f"not {self.expr(e.operand, NOT)}"
        if isinstance(e, ast.BoolOp):
            level = OR if e.op == "or" else AND
            return f"{self.expr(e.left, level)} {e.op} {self.expr(e.right, level + 1)}"
        if isinstance(e, ast.Where):
            return f"{self.expr(e.collection, OR)} where {self.expr(e.condition, OR)}"
        if isinstance(e, ast.Ordered):
            order = "highest first" if e.descending else "lowest first"
            return f"{self.expr(e.collection, OR)} ordered by {self.expr(e.key, OR)} ({order})"
        return self.fallback(e)

    # ---------------------------------------------------------------- statements

    def body(self, stmts: Sequence[ast.Stmt]) -> str:
        clauses = [c for c in (self.clause(s) for s in stmts) if c]
        return ", then ".join(clauses) if clauses else "nothing happens"

    def modifier(self, m: ast.Modifier) -> str:
        try:
            quantity = self.ident(m.quantity.name)
            what = quantity if m.subject is None else self.possess(quantity, m.subject)
            value = m.value
            if m.op == "*" and isinstance(value, ast.Percent):
                text = f"{what} ×{value.value}% (rounded up)"
            elif m.op in ("+", "-", "*") and isinstance(value, (ast.Num, ast.Era, ast.Percent)):
                text = f"{what} {m.op.replace('*', '×')}{self.expr(value)}"
            elif m.op in ("+", "-", "*"):
                text = f"{what} {m.op.replace('*', '×')} {self.expr(value, PRODUCT)}"
            else:
                text = f"{what} is {self.expr(value)}"
            if m.scope is not None:
                text += f" for {self.expr(m.scope)}"
            return text
        except Exception:
            return self.fallback(m)

    def actor(self, verb: type[ast.Stmt], player: ast.Expr | None) -> str:
        base, third = _VERBS[verb]
        if player is None or (isinstance(player, ast.Name) and player.name == "me"):
            return base
        if isinstance(player, ast.Name) and player.name in self.loop_nouns:
            return f"they {base}"
        return f"{self.expr(player)} {third}"

    def clause(self, s: ast.Stmt) -> str:
        try:
            return self._clause(s)
        except Exception:
            return self.fallback(s)

    def _clause(self, s: ast.Stmt) -> str:  # noqa: C901 - one branch per statement kind
        x = self.expr
        if isinstance(s, ast.Let):
            return f"let {self.ident(s.var)} be {x(s.value)}"
        if isinstance(s, (ast.Gain, ast.Lose, ast.Pay)):
            return f"{self.actor(type(s), s.player)} {x(s.amount)} {self.ident(s.counter.name)}"
        if isinstance(s, ast.PayCards):
            return f"pay for {x(s.target)} from {x(s.source)}"
        if isinstance(s, ast.Transfer):
            up_to = "up to " if s.up_to else ""
            either = " (or vice versa)" if s.either_way else ""
            return f"transfer {up_to}{x(s.amount)} from {x(s.source)} to {x(s.dest)}{either}"
        if isinstance(s, ast.SetTo):
            return f"set {x(s.target)} to {x(s.value)}"
        if isinstance(s, ast.Raise):
            return f"raise {x(s.target)} by {x(s.amount)}"
        if isinstance(s, ast.Lower):
            return f"lower {x(s.target)} by {x(s.amount)}"
        if isinstance(s, ast.Move):
            if s.at in ("top", "bottom"):
                return f"move {x(s.what)} to the {s.at} of {x(s.dest, POSTFIX)}"
            return f"move {x(s.what)} to {x(s.dest)}"
        if isinstance(s, ast.Draw):
            into = "" if s.dest is None else f" into {x(s.dest)}"
            return f"draw {self.count(s.count)} from {x(s.source)}{into}"
        if isinstance(s, ast.Deal):
            return f"deal {self.count(s.count)} from {x(s.source)} to {x(s.dest)}"
        if isinstance(s, ast.Discard):
            return f"discard {x(s.what)}"
        if isinstance(s, ast.Shuffle):
            return f"shuffle {x(s.zone)}"
        if isinstance(s, ast.Reveal):
            return f"reveal {x(s.what)}"
        if isinstance(s, ast.Place):
            return f"place {x(s.piece)} on {x(s.target)}"
        if isinstance(s, ast.Advance):
            return f"advance {x(s.track)} by {x(s.amount)}"
        if isinstance(s, ast.Remove):
            return f"remove {x(s.what)}"
        if isinstance(s, ast.Play):
            return f"play {x(s.what)}"
        if isinstance(s, ast.Dig):
            return f"dig for {x(s.wanted)} and put the first one found into {x(s.dest)}"
        if isinstance(s, ast.Auction):
            return (f"auction {self.ident(s.counter.name)} among {x(s.bidders)}: the highest bidder "
                    f"({self.ident(s.winner)}) pays their bid ({self.ident(s.amount)})")
        if isinstance(s, ast.Announce):
            args = ", ".join(f"{self.ident(a.name)}: {x(a.value)}" for a in s.args)
            return f"announce {self.ident(s.event.name)}" + (f" ({args})" if args else "")
        if isinstance(s, ast.ChooseFrom):
            collection = x(s.collection)
            var = self.ident(s.var)
            of = "of " if collection.startswith("the ") else ""  # "choose 2 of the players after you"
            if s.mode == "up_to":
                return f"choose up to {self.count(s.count)} {of}{collection} ({var})"
            if isinstance(s.count, ast.Num) and s.count.value == 1:
                one = "one" if of else _article(collection)
                return f"choose {one} {of}{collection} ({var})"
            return f"choose {self.count(s.count)} {of}{collection} ({var})"
        if isinstance(s, ast.ChooseNumber):
            return f"choose a number from {x(s.low)} to {x(s.high)} ({self.ident(s.var)})"
        if isinstance(s, ast.Perform):
            names = [self.ident(a.name) for a in s.actions]
            if s.mode == "any":
                return f"perform any of {_list(names, 'and')}" if len(names) > 1 else f"perform {_list(names, 'and')}"
            if s.mode == "up_to_one":
                return f"perform up to one of {_list(names, 'or')}" if len(names) > 1 else f"you may perform {names[0]}"
            return f"perform one of {_list(names, 'or')}" if len(names) > 1 else f"perform {_list(names, 'or')}"
        if isinstance(s, ast.SortTurnOrder):
            order = "highest first" if s.descending else "lowest first"
            return f"sort turn order by {x(s.key)} ({order})"
        if isinstance(s, ast.BeginFinalRound):
            return "begin the final round"
        if isinstance(s, ast.StopTurns):
            return "stop taking turns"
        if isinstance(s, ast.TimedModifier):
            return f"until {self.ident(s.until.name)}: {self.modifier(s.modifier)}"
        if isinstance(s, ast.Log):
            return ""
        if isinstance(s, ast.If):
            parts = []
            for i, branch in enumerate(s.branches):
                lead = "if" if i == 0 else "Otherwise, if"
                parts.append(f"{lead} {x(branch.condition)}: {self.body(branch.body)}")
            if s.otherwise is not None:
                parts.append(f"Otherwise: {self.body(s.otherwise)}")
            return ". ".join(parts)
        if isinstance(s, ast.ChooseOne):
            options = []
            for option in s.options:
                cond = "" if option.condition is None else f" (only if {x(option.condition)})"
                options.append(f"• {option.label}{cond}: {self.body(option.body)}")
            return "choose one — " + ". ".join(options)
        if isinstance(s, ast.May):
            return f"you may: {self.body(s.body)}"
        if isinstance(s, ast.ForEach):
            return self.for_each(s)
        if isinstance(s, ast.AsPlayer):
            return f"{x(s.player)} decides: {self.body(s.body)}"
        if isinstance(s, ast.Repeat):
            times = {1: "once", 2: "twice"}.get(s.count.value, f"{s.count.value} times") if isinstance(
                s.count, ast.Num) else f"{x(s.count)} times"
            return f"repeat {times}: {self.body(s.body)}"
        if isinstance(s, ast.TakeTurns):
            until = "" if s.until is None else f" until {x(s.until)}"
            return f"take turns{until}: {self.body(s.body)}"
        return self.fallback(s)

    def noun_phrase(self, coll: ast.Expr) -> tuple[str, str] | None:
        """(singular noun, "noun in ZONE where COND") for a collection read one item at a time."""
        if isinstance(coll, ast.Name) and coll.name != "me" and coll.name not in self.loop_nouns:
            noun = _singular(self.ident(coll.name))
            return noun, noun
        if isinstance(coll, ast.Select):
            noun = _singular(self.ident(coll.word))
            return noun, f"{noun} in {self.expr(coll.source, POSTFIX)}"
        if isinstance(coll, ast.Where):
            inner = self.noun_phrase(coll.collection)
            if inner is not None:
                return inner[0], f"{inner[1]} where {self.expr(coll.condition, OR)}"
        return None

    def for_each(self, s: ast.ForEach) -> str:
        phrase = self.noun_phrase(s.collection)
        if phrase is not None:
            noun: str | None = phrase[0]
            header = f"for each {phrase[1]}"
        else:
            noun = None
            header = f"for each {self.ident(s.var)} in {self.expr(s.collection)}"
        saved = self.loop_nouns.get(s.var)
        if noun:
            self.loop_nouns[s.var] = noun
        else:
            self.loop_nouns.pop(s.var, None)
        try:
            return f"{header}: {self.body(s.body)}"
        finally:
            if saved is None:
                self.loop_nouns.pop(s.var, None)
            else:
                self.loop_nouns[s.var] = saved

    # ---------------------------------------------------------------- declarations

    def declaration(self, d: ast.Node) -> str:
        try:
            if isinstance(d, ast.Trigger):
                cond = "" if d.condition is None else f", if {self.expr(d.condition)}"
                return f"when {self.ident(d.event.name)}{cond}: {self.body(d.body)}"
            if isinstance(d, ast.Hook):
                return f"when this {'enters' if d.kind == 'enters' else 'leaves'} play: {self.body(d.body)}"
            if isinstance(d, ast.Continuous):
                return f"while in play: {self.modifier(d.modifier)}"
        except Exception:
            pass
        return self.fallback(d)

    def program(self, p: ast.Program) -> str:
        paragraphs = []
        statements = " ".join(s for s in (_sentence(self.clause(st)) for st in p.statements) if s)
        if statements:
            paragraphs.append(statements)
        paragraphs.extend(s for s in (_sentence(self.declaration(d)) for d in p.declarations) if s)
        return "\n".join(paragraphs)


def render_program(
    program: ast.Program,
    labels: Mapping[str, str] | None = None,
    era_names: Sequence[str] | None = None,
) -> str:
    """English card text for a whole effect: one paragraph of statements, then one line per declaration.

    `labels` maps identifiers (counters, events, actions, zones, variables...) to the words a
    player sees; `era_names` (e.g. ["I", "II", "III"]) names the eras of `20/50/100` values.
    """
    renderer = _Renderer(labels, era_names)
    try:
        return renderer.program(program)
    except Exception:
        return _sentence(renderer.fallback(program))


def render_statement(
    stmt: ast.Stmt,
    labels: Mapping[str, str] | None = None,
    era_names: Sequence[str] | None = None,
) -> str:
    """One statement as an English sentence."""
    return _sentence(_Renderer(labels, era_names).clause(stmt))


def render_expr(
    expr: ast.Expr,
    labels: Mapping[str, str] | None = None,
    era_names: Sequence[str] | None = None,
) -> str:
    """One expression as an English phrase (no capital, no period)."""
    return _Renderer(labels, era_names).expr(expr)

