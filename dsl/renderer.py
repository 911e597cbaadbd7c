"""AST -> English card text: what a player reads on the card, not what the engine runs.

This module owns the player-facing wording of effects:
- names are the ruleset's words (`labels`) and items' own names ("The Lighthouse"), never ids;
- `me`/`my` read "you"/"your"; a definition or procedure with a `text:` template is
  worded by it, conjugated for "you" ("you have", "your") with "a"/"an" fixed;
- names a designer binds (`choose ... as X`, `for each P in ...`) never show: a chosen
  item reads "that station", a player "that player", a `let` is worded in place, or,
  when something it read changed before it is used, noted where it stands ("note how
  much gold you have" ... "the noted amount", dsl/render/lets.py);
- inside a block another player plays (`as P:`, each turn of `take turns`) that player
  is "they"/"their"/"them", named with their verb ("that opponent chooses a card in
  their hand"), never "you"/"your" (dsl/render/persons.py);
- bookkeeping (`log`, `announce`, `let`) is not card text;
- era values read as on a printed card, `20 / 50 / 100`.

Statements become capitalized sentences; declarations read "When ...:", "While in
play: ...". A construct this module cannot word raises TypeError: there is no
fallback, so a gap is a failing test, not a card with source text on it.

The wording of a ruleset is dsl/wording.py, English grammar dsl/english.py, the
wording of expressions dsl/render/expressions.py; this module words statements,
blocks, declarations and whole programs.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Iterator, Mapping, Sequence

from . import ast
from .constructs import CONSTRUCTS, fill
from .english import (agree, article, conjugate, is_word, lower_first, ordinal, reads_plural, sentence, singular,
                      tidy, word_list)
from .parser import SyntaxErrors, parse_expression
from .printer import COND, OR, POSTFIX, PRODUCT, WHERE
from .render.expressions import ExpressionRenderer
from .render.lets import stale_lets
from .render.persons import NAMED, Acting, YOU, name_subject, third_person
from .wording import Wording

__all__ = ["Wording", "render_program", "render_expr", "render_member", "render_statement"]

_VERBS = {ast.Gain: ("gain", "gains"), ast.Lose: ("lose", "loses"), ast.Pay: ("pay", "pays")}


# a procedure's words that begin with a subject or a condition, not with an order
_NOT_A_VERB = re.compile(r"(the|that|this|these|those|each|every|a|an|if|when|you|they|your|their|no|nobody|all|"
                         r"[A-Z0-9])\b")


def _is_block(stmt: ast.Stmt) -> bool:
    """A statement with statements inside (if, for each, repeat, choose one...)."""
    return isinstance(getattr(stmt, "body", None), tuple) or isinstance(stmt, (ast.If, ast.ChooseOne))


class _Renderer(ExpressionRenderer):
    """Statements, blocks and declarations in words: capitalized sentences, "choose one
    — • ...", "When ...:", "While in play: ..."."""

    # ---------------------------------------------------------------- statements

    def clauses(self, stmts: Sequence[ast.Stmt]) -> Iterator[tuple[ast.Stmt, str, bool]]:
        """Each statement with its clause and whether statements follow it, each worded
        when it is reached (so the clause before it can set who acts); timed modifiers in
        a row that last until the same event are one clause ("until the round ends: A and
        B", never the clause twice)."""
        self.noted |= stale_lets(stmts, set(self.vars))
        i = 0
        while i < len(stmts):
            st = stmts[i]
            if isinstance(st, ast.TimedModifier):
                run = [st]
                while i + len(run) < len(stmts) and isinstance(nxt := stmts[i + len(run)], ast.TimedModifier) \
                        and nxt.until.name == st.until.name:
                    run.append(nxt)
                if len(run) > 1:
                    yield (st, f"until {self.ident(st.until.name)}: "
                           + word_list([self.modifier(m.modifier) for m in run], "and"), i + len(run) < len(stmts))
                    i += len(run)
                    continue
            yield st, self.clause(st), i + 1 < len(stmts)
            i += 1

    framed = False  # the next body is the steps of an order that names its subject ("they may: ...")

    def __init__(self, wording: Wording) -> None:
        super().__init__(wording)
        self.noted: set[int] = set()  # `let`s (by id) worded where they stand, as a note: dsl/render/lets.py

    def body(self, stmts: Sequence[ast.Stmt]) -> str:
        clauses = []
        other = False  # the last clause named another player as its subject ("they lose 1 stone")
        framed, self.framed = self.framed, False
        acting = self.acting
        # the first order of an `as P:` block names P, and of a block right after a clause about
        # another player ("the host gains 1 gold, then if ...: that opponent pays ...")
        first = acting is not None and acting.fresh
        if acting is not None:
            acting.fresh = False
        for st, c, more in self.clauses(stmts):
            if not c:
                continue
            subject = self.subject(st)
            if acting is not None and not framed and self.orders(st, c, subject):
                # another player acts: each order says who ("they choose ..."), by name
                # first and after a clause about someone else
                c = (NAMED if first or other else YOU) + c.removeprefix(YOU)
                subject = "you"
            elif subject == "you" and other:  # "they lose 1 stone, then you gain 5 gold", not "then gain"
                c = "you " + c
            first = False
            if subject is not None:
                other = subject == "other"
            elif acting is not None and isinstance(st, ast.ForEach) and self.is_players(st.collection):
                other = True  # its "they" were each of those players: the next order names the actor again
            if acting is not None:
                acting.fresh = other  # read by the next clause's blocks, worded when the loop goes on
            # a block followed by more statements is bracketed: what follows is not inside it
            if more and _is_block(st):
                c = f"({c})"
            clauses.append(c)
        return ", then ".join(clauses) if clauses else "nothing happens"

    def subject(self, st: ast.Stmt) -> str | None:
        """Who a statement's clause reads as doing it: "you" (an order to the acting player:
        "gain 5 gold", "move ...", "choose ..."), "other" (it names another player first:
        "they lose 1 stone", "the winner gains ..."), or None (a block, a procedure's own
        words, bookkeeping): a clause after an "other" one names "you" again."""
        if isinstance(st, (ast.Gain, ast.Lose, ast.Pay)):
            return "you" if self.actor(type(st), st.player) == _VERBS[type(st)][0] else "other"
        if isinstance(st, (ast.ChooseOne, ast.Repeat)):  # "choose one — ...", "do this twice: ..."
            return "you"
        if isinstance(st, ast.Let) and id(st) in self.noted:  # "note how much gold you have"
            return "you"
        if _is_block(st) or isinstance(st, (ast.Run, ast.Let, ast.Log, ast.Announce, ast.EndGame)):
            return None
        return "you"

    def orders(self, st: ast.Stmt, clause: str, subject: str | None) -> bool:
        """Whether a clause is an order to the acting player, to be given a subject when
        another player acts: a "you" clause, "you may: ...", a procedure's words that
        begin with a verb ("unlock a token")."""
        if subject == "you" or clause.startswith(YOU):
            return True
        return isinstance(st, ast.Run) and not _NOT_A_VERB.match(clause)

    def modifier(self, m: ast.Modifier) -> str:
        quantity = self.ident(m.quantity.name)
        what = quantity if m.subject is None else self.possess(quantity, m.subject)
        value = m.value
        is_ = "are" if reads_plural(quantity) else "is"
        if m.op == "*" and isinstance(value, ast.Percent):  # "investment costs are 50% more (rounded up)"
            change = value.value - 100
            more = f"{abs(change)}% {'more' if change > 0 else 'less'}" if change else "unchanged"
            text = f"{what} {is_} {more}{' (rounded up)' if change else ''}"
        elif m.op in ("+", "-") and isinstance(value, (ast.Num, ast.Era)):  # "is 10 less", "is 2 / 4 / 8 more"
            amounts = [value.value] if isinstance(value, ast.Num) else list(value.values)
            if all(x < 0 for x in amounts):  # "- -3" reads "is 3 more"
                amounts, op = [-x for x in amounts], "+" if m.op == "-" else "-"
            else:
                op = m.op
            text = f"{what} {is_} {self.amounts(amounts)} {'more' if op == '+' else 'less'}"
        elif m.op in ("+", "-"):
            text = f"{what} {is_} {self.expr(value, PRODUCT)} {'more' if m.op == '+' else 'less'}"
        elif m.op == "*" and isinstance(value, (ast.Num, ast.Era, ast.Percent)):
            text = f"{what} ×{self.expr(value)}"
        elif m.op == "*":
            text = f"{what} {m.op.replace('*', '×')} {self.expr(value, PRODUCT)}"
        elif isinstance(value, ast.Bool) and self.w.yes_no.get(m.quantity.name, (None, None))[0 if value.value else 1]:
            template = self.w.yes_no[m.quantity.name][0 if value.value else 1]
            assert template is not None
            whose = m.subject if m.subject is not None else m.scope  # "every player's markers ..."
            said = self.said(template, whose)
            if m.subject is not None and m.scope is not None:  # "that gate may not be opened for ..."
                said += f" for {self.expr(m.scope)}"
            return said
        elif isinstance(value, ast.Bool) and m.subject is not None and quantity.split(" ")[0] in ("may", "can"):
            modal, rest = quantity.split(" ", 1)  # "that gate may not be opened"
            text = f"{self.expr(m.subject, POSTFIX)} {modal}{'' if value.value else ' not'} {rest}"
        elif isinstance(value, ast.Bool):  # a yes/no quantity: "markers advance: no"
            text = f"{what}: {'yes' if value.value else 'no'}"
        else:
            text = f"{what} is {self.expr(value)}"
        if m.scope is not None:
            text += f" for {self.expr(m.scope)}"
        return text

    def actor(self, verb: type[ast.Stmt], player: ast.Expr | None) -> str:
        base, third = _VERBS[verb]
        if player is None or (isinstance(player, ast.Name) and player.name == "me"):
            return base
        if isinstance(player, ast.Name) and player.name in self.they:
            return f"they {base}"
        who = self.expr(player)
        return base if who == "you" else f"{who} {third}"

    def counter(self, n: ast.Name) -> str:
        if n.name in self.vars:
            return "of " + self.vars[n.name]
        if n.name in self.lets:  # `let R be V's yield ... gain 1 R`: "gain 1 of that place's yield"
            return "of " + self.expr(self.lets[n.name])
        return self.ident(n.name)

    def field(self, name: str, value: Any, spec: str) -> str:
        if isinstance(value, ast.Name):
            return self.expr(value)
        if isinstance(value, ast.Expr):
            return self.count(value) if spec == "count" else self.expr(value)
        return str(value)

    def direction(self, amount: ast.Expr, forward: str) -> tuple[str, str]:
        """A signed number of spaces as (which way, how many): -1 reads "1 space back"."""
        if isinstance(amount, ast.Neg):
            return "back", self.expr(amount.operand)
        if isinstance(amount, ast.Num) and amount.value < 0:
            return "back", str(-amount.value)
        return forward, self.expr(amount)

    kept: dict[int, str] | None = None  # each statement's clause by id(statement), when asked to keep them

    def clause(self, s: ast.Stmt) -> str:
        text = self.worded(s)
        if self.kept is not None:
            self.kept[id(s)] = text
        return text

    def worded(self, s: ast.Stmt) -> str:  # noqa: C901 - one branch per statement kind
        x = self.expr
        if isinstance(s, ast.Let) and id(s) in self.noted:
            return self.note(s)
        if isinstance(s, ast.Let):
            earlier = self.lets.get(s.var)
            self.lets[s.var] = s.value if earlier is None else _substitute(s.value, s.var, earlier)
            return ""
        if isinstance(s, (ast.Log, ast.Announce)):
            return ""
        if isinstance(s, (ast.Gain, ast.Lose, ast.Pay)):
            return self.gain(s)
        if isinstance(s, ast.Transfer):
            return self.transfer(s)
        if isinstance(s, ast.Advance):  # every token on the track: "1 space along" or "1 space back"
            way, n = self.direction(s.amount, "along the track")
            return f"move every token on {x(s.track, POSTFIX)} {n} {'space' if n == '1' else 'spaces'} {way}"
        spec = CONSTRUCTS.get(type(s))
        if spec is not None and spec.words:
            return fill(spec.words, s, self.field)
        if isinstance(s, ast.Move):
            where = f" to the {s.at} of {x(s.dest, POSTFIX)}" if s.at in ("top", "bottom") else f" to {x(s.dest)}"
            bump = " without bumping" if not s.bump else ""
            return f"move {x(s.what)}{where}{bump}"
        if isinstance(s, ast.Shift):
            way, n = self.direction(s.amount, "along its track")
            spaces = "space" if n == "1" else "spaces"
            return f"move {x(s.what)} {n} {spaces} {way}" + (" without bumping" if not s.bump else "")
        if isinstance(s, ast.Draw):
            into = "" if s.dest is None else f" into {x(s.dest)}"
            cards = "card" if isinstance(s.count, ast.Num) and s.count.value == 1 else "cards"
            return f"draw {self.count(s.count)} {cards} from {x(s.source)}{into}"
        if isinstance(s, ast.Place):
            bump = " without bumping" if not s.bump else ""
            return f"place {x(s.piece)} on {x(s.target)}{bump}"
        if isinstance(s, ast.Play):
            if isinstance(s.what, (ast.Of, ast.Entry)):
                return f"resolve {x(s.what)}"
            return f"play {x(s.what)}"
        if isinstance(s, ast.Run):
            args = [x(a) for a in s.args]
            template = self.eras_in(self.w.labels.get(s.name.name, ""))
            if "{0}" in template or (template and not args):
                return conjugate(template, args)
            return f"{self.ident(s.name.name)}" + (f" ({word_list(args, 'and')})" if args else "")
        if isinstance(s, ast.Auction):
            self.bind(s.winner, "the winner", player=True)
            self.bind(s.amount, "the winning bid")
            return (f"hold an auction among {x(s.bidders)} for {self.ident(s.counter.name)}: the highest bidder "
                    f"pays their bid")
        if isinstance(s, ast.ChooseFrom):
            return self.choose(s)
        if isinstance(s, ast.ChooseNumber):
            self.bind(s.var, "that number", later="the chosen number")
            step = "" if s.step is None else f" in steps of {x(s.step)}"
            where = "" if s.condition is None else f" where {x(s.condition, OR)}"
            capped = _capped(s.high)  # `min(10, my gold)`: "to 10 (no more than your gold)"
            high = x(s.high) if capped is None else f"{x(capped[1])} (no more than {x(capped[0])})"
            return f"choose a number from {x(s.low)} to {high}{step}{where}"
        if isinstance(s, ast.PickRandom):
            return self.pick(s)
        if isinstance(s, ast.EndGame):
            return self.end_game(s)
        if isinstance(s, ast.Offer):
            offered = word_list([self.action(a.name) for a in s.actions], "or")  # as the menu shows them
            return (f"{x(s.players)} may respond in turn with {offered} (each may pass; after a response the others "
                    f"may respond again)")
        if isinstance(s, ast.Perform):
            return self.perform(s)
        if isinstance(s, ast.SortTurnOrder):
            order = "highest first" if s.descending else "lowest first"
            return f"sort turn order by {x(s.key)} ({order})"
        if isinstance(s, ast.TimedModifier):
            return f"until {self.ident(s.until.name)}: {self.modifier(s.modifier)}"
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
                self.framed = True  # an option's steps are what "chooses one" offers
                label, body = self.filled(option.label), self.body(option.body)
                # "• lose 2 stars", not "• lose 2 stars: lose 2 stars"
                options.append(f"• {label}{cond}" + ("" if body.lower() == label.lower() else f": {body}"))
            return "choose one — " + ". ".join(options)
        if isinstance(s, ast.May):
            self.framed = True  # "they may: give 5 gold, then gain 1 point": the steps of "may"
            return f"you may: {self.body(s.body)}"
        if isinstance(s, ast.ForEach):
            return self.for_each(s)
        if isinstance(s, ast.AsPlayer):
            return self.as_player(x(s.player), s.body)
        if isinstance(s, ast.Repeat):
            times = self.times(s.count)
            self.framed = True  # "they do this twice: choose ...": the steps of "do this"
            return f"do this {times}: {self.body(s.body)}"
        if isinstance(s, ast.TakeTurns):  # each turn is played by another player: "they", never "your"
            until = "" if s.until is None else f" until {x(s.until)}"
            return f"take turns{until}: each turn, {self.as_player('the player whose turn it is', s.body)}"
        raise TypeError(f"the renderer cannot word statement {type(s).__name__}")

    def note(self, s: ast.Let) -> str:
        """A `let` a later change would make untrue if worded as what it stands for: "note
        how much gold you have" here, "the noted amount" where it is used."""
        value = self.deref(s.value)
        found = self.holder(value)
        if found is not None:
            who, what = found
            many = what.rsplit(" ", 1)[-1] in self.w.count_nouns
            have = "have" if who in ("you", "they") else "has"
            said = f"note how {'many' if many else 'much'} {what.removeprefix('of ')} {who} {have}"
        else:
            said = f"note {self.expr(value)}"
        seen = sum(1 for reads in self.vars.values() if reads.endswith("noted amount"))
        self.lets.pop(s.var, None)
        self.bind(s.var, "the noted amount" if seen == 0 else f"the {ordinal(seen + 1)} noted amount")
        return said

    def as_player(self, who: str, body: Sequence[ast.Stmt]) -> str:
        """`as P:` in the third person: "that opponent chooses a card in their hand, then
        they gain 1 point"; "that opponent decides: if they have ..." when the block does
        not begin with an order. Never "your": on a card that is its owner."""
        # inside, "you" is the deciding player: a `let` that stood for the outer player
        # (`let writer be me`) reads as the designer's word ("the writer")
        outer = {n: v for n, v in self.lets.items()
                 if any(isinstance(node, ast.Name) and node.name == "me" for node in ast.walk(v))}
        saved_vars = {n: self.vars.get(n) for n in outer}
        for n in outer:
            del self.lets[n]
            self.vars[n] = f"the {self.ident(n)}"
        saved, self.acting = self.acting, Acting()
        try:
            text = third_person(self.body(body))
        finally:
            self.acting = saved
            self.lets.update(outer)
            for n, v in saved_vars.items():
                if v is None:
                    self.vars.pop(n, None)
                else:
                    self.vars[n] = v
        if not text.lstrip("(").startswith(NAMED):  # "(that opponent chooses one — ...), then ..."
            text = f"{who} decides: {text}"
        return name_subject(text, who)

    def perform(self, s: ast.Perform) -> str:
        """A menu by its label ("perform one of your turn actions"); one action as what
        its label says to do ("you may buy a share in a station"); several by
        their labels, as the menu shows them."""
        if len(s.actions) == 1 and s.actions[0].name in self.w.menus:  # a menu: the actions joining it
            verb = {"any": "perform any of", "up_to_one": "you may perform one of"}.get(s.mode, "perform one of")
            return f"{verb} {self.ident(s.actions[0].name)}"
        labels = [self.action(a.name) for a in s.actions]
        if len(labels) == 1:
            todo = lower_first(labels[0])
            return {"any": f"{todo}, as many times as you like", "up_to_one": f"you may {todo}"}.get(s.mode, todo)
        if s.mode == "any":
            return f"perform any of these actions, as many times as you like: {word_list(labels, 'and')}"
        may = "you may " if s.mode == "up_to_one" else ""
        return f"{may}perform one of these actions: {word_list(labels, 'or')}"

    def times(self, count: ast.Expr) -> str:
        """How often: "twice", "3 times", "once for each of your tokens on ...", "once for
        each ... (at most 3 times)", "that number of times"."""
        if isinstance(count, ast.Num):
            return {1: "once", 2: "twice"}.get(count.value, f"{count.value} times")
        capped = _capped(count)
        if capped is not None:
            return f"{self.times(capped[0])} (at most {self.expr(capped[1])} times)"
        counted = self.deref(count)
        if isinstance(counted, ast.Of) and counted.name == "count":
            phrase = self.phrase(self.deref(counted.subject))
            if phrase is not None:
                return "once for " + phrase.each()
            return f"once for each of {self.expr(counted.subject, POSTFIX)}"
        if isinstance(count, ast.Name) and count.name in self.vars:
            return f"{self.vars[count.name]} of times"
        return f"{self.expr(count)} times"

    def gain(self, s: ast.Gain | ast.Lose | ast.Pay) -> str:
        """"gain 5 gold", "gain 2 stars if ..., otherwise 1 star", "gain 2 stars, and 2 more
        if ...", "pay that much gold", "gain stars equal to ..., at most 6"."""
        x, amount, who, what = self.expr, s.amount, self.actor(type(s), s.player), self.counter(s.counter)
        if isinstance(amount, ast.Cond) and isinstance(amount.no, ast.Num) and amount.no.value == 0:
            return f"{who} {x(amount.yes, WHERE)} {what} if {x(amount.condition, WHERE)}"
        if isinstance(amount, ast.Cond) and isinstance(amount.yes, ast.Num) and amount.yes.value == 0:
            return f"{who} {x(amount.no, COND)} {what} unless {x(amount.condition, WHERE)}"
        if isinstance(amount, ast.Cond) and _literal(amount.yes) and _literal(amount.no):
            return f"{who} {x(amount.yes)} {what} if {x(amount.condition, WHERE)}, otherwise {x(amount.no)} {what}"
        if isinstance(amount, ast.Arith) and amount.op == "+" and _literal(amount.left) \
                and isinstance(amount.right, ast.Cond) and _literal(amount.right.yes) \
                and isinstance(amount.right.no, ast.Num) and amount.right.no.value == 0:
            more = amount.right
            return f"{who} {x(amount.left)} {what}, and {x(more.yes)} more if {x(more.condition, WHERE)}"
        if isinstance(amount, (ast.Num, ast.Era)):
            return f"{who} {x(amount)} {what}"
        what = what[3:] if what.startswith("of ") else what
        if isinstance(amount, ast.Name) and self.vars.get(amount.name) == "that number":  # "pay that much gold"
            many = what.rsplit(" ", 1)[-1] in self.w.count_nouns
            return f"{who} that {'many' if many else 'much'} {what}"
        capped = _capped(amount)
        if capped is not None:
            return f"{who} {what} equal to {x(capped[0])}, at most {x(capped[1])}"
        return f"{who} {what} equal to {x(amount)}"

    def transfer(self, s: ast.Transfer) -> str:
        """A counter of one player to another's as giving and taking: "take up to 3 gold
        from that opponent", "give 5 gold to the host"; between two counters of yours,
        "move up to 20 from your savings to your gold, or back"."""
        x = self.expr
        amount = s.amount
        capped = _capped(amount)
        up_to = "up to " if s.up_to else ""
        if capped is not None and capped[0] == s.source:  # `min(3, X's gold) from X's gold`: up to 3
            amount, up_to = capped[1], "up to "
        how_much = up_to + x(amount)
        source, dest = s.source, s.dest
        if isinstance(source, ast.Of) and isinstance(dest, ast.Of) and source.name == dest.name \
                and not s.either_way and source.subject is not None and dest.subject is not None:
            what = self.counter(ast.Name(source.name))
            unit = f"{how_much} {what}" if _literal(amount) or what.startswith("of ") \
                else f"{what.removeprefix('of ')} equal to {how_much}"  # "give stars equal to the toll ..."
            giver, taker = _is_me(source.subject), _is_me(dest.subject)
            if taker and not giver:
                return f"take {unit} from {x(source.subject, POSTFIX)}"
            if giver and not taker:
                return f"give {unit} to {x(dest.subject, POSTFIX)}"
            if not giver and not taker:
                return f"{x(source.subject, POSTFIX)} gives {unit} to {x(dest.subject, POSTFIX)}"
        back = f", or from {x(dest)} to {x(source)}" if s.either_way else ""
        return f"move {how_much} from {x(source)} to {x(dest)}{back}"

    def choose(self, s: ast.ChooseFrom) -> str:
        coll = s.collection
        noun = self.noun_of(coll)
        text = self.expr(coll)
        single = isinstance(s.count, ast.Num) and s.count.value == 1 and s.mode == "exact"
        reads = self.name_for(s.var, noun, single)
        self.bind(s.var, reads, player=self.is_players(coll))
        self.var_nouns[s.var] = noun
        named = f" ({reads})" if reads.startswith("the ") and not reads.startswith(("the other", "the chosen")) else ""
        return self._choose(s, coll, noun, text, single) + named

    def pick(self, s: ast.PickRandom) -> str:
        """`pick at random 2 cards in my hand as C`: "pick 2 cards in your hand at random"."""
        chosen = self.choose(ast.ChooseFrom("exact", s.count, s.collection, s.var))
        named = chosen[chosen.index(" (the "):] if " (the " in chosen else ""
        return "pick" + chosen[len("choose"):len(chosen) - len(named)] + " at random" + named

    def end_game(self, s: ast.EndGame) -> str:
        """"The game ends now: you win (five in a row)." """
        text = "the game ends now"
        if s.winner is not None:
            who = self.expr(s.winner)
            if isinstance(s.winner, ast.Name) and s.winner.name in self.they:
                who = "they"
            text += f": {who} {'win' if who in ('you', 'they') else 'wins'}"
        return text + (f" ({self.filled(s.reason)})" if s.reason else "")

    def _choose(self, s: ast.ChooseFrom, coll: ast.Expr, noun: str, text: str, single: bool) -> str:
        phrase = None if isinstance(coll, ast.ListLiteral) else self.phrase(self.deref(coll))
        if phrase is not None:  # "choose one of your tokens on ...", "choose up to 2 crates that ..."
            if single:
                return "choose " + phrase.a()
            up_to = "up to " if s.mode == "up_to" else ""
            of = "of your " if phrase.whose_one == "your " else phrase.whose_many
            return f"choose {up_to}{self.count(s.count)} {of}{phrase.many}{phrase.plural_rest()}"
        if isinstance(coll, ast.ListLiteral):  # "choose one of 1, 3 or 5", "choose 2 of you, that player and ..."
            if single:
                return f"choose one of {self.one_of(coll, 'or')}"
            return f"choose {'up to ' if s.mode == 'up_to' else ''}{self.count(s.count)} of {self.one_of(coll, 'and')}"
        if isinstance(coll, ast.Name) and not single:
            text = self.w.plurals.get(noun, self.ident(coll.name))
        elif not single and isinstance(coll, ast.Where) and isinstance(coll.collection, ast.Name):
            plural = self.w.plurals.get(noun)
            if plural and text.startswith(self.ident(coll.collection.name)):
                text = plural + text[len(self.ident(coll.collection.name)):]
        of = "of " if text.startswith("the ") or text.startswith("every ") else ""
        if s.mode == "up_to":
            return f"choose up to {self.count(s.count)} {of}{text}"
        if single:
            if isinstance(coll, ast.Name):  # `choose a station as X`, `choose a resource as R`
                return f"choose {article(noun)} {noun}"
            one = "one" if of else article(text)
            if isinstance(coll, ast.Where) and isinstance(coll.collection, ast.Name) \
                    and coll.collection.name not in self.lets and coll.collection.name not in self.vars:
                # `choose one of opponents where ...`: "choose an opponent where ..."
                return f"choose {article(noun)} {noun} where {self.expr(coll.condition, OR)}"
            if isinstance(coll, ast.Select) or isinstance(coll, ast.Where) and isinstance(coll.collection, ast.Select):
                inner = coll.collection if isinstance(coll, ast.Where) else coll
                assert isinstance(inner, ast.Select)
                first = singular(self.ident(inner.word))
                text = first + text[len(self.ident(inner.word)):]
                one = article(text)
            return f"choose {one} {of}{text}"
        return f"choose {self.count(s.count)} {of}{text}"

    def filled(self, text: str) -> str:
        """An option's label with its `{EXPR}` parts in words ("raise {X}" -> "raise that station")."""

        def word(m: re.Match[str]) -> str:
            try:
                return self.expr(parse_expression(m.group(0)[1:-1].strip()))
            except SyntaxErrors:  # the checker reports it (E100); the label stays as written
                return m.group(0)
        return re.sub(r"\{[^{}]+\}", word, text)

    def relative(self, e: ast.Relative) -> str:
        """Players in turn order, as `for each` says them: "player in turn order, starting with you"."""
        who = self.expr(e.player, POSTFIX)
        if e.relation == "starting":
            return f"player in turn order, starting with {who}"
        return f"player {e.relation} {who} in turn order"

    def for_each(self, s: ast.ForEach) -> str:
        coll = s.collection
        noun = self.noun_of(coll)
        player = self.is_players(coll)
        phrase = None if isinstance(coll, ast.Name) and coll.name in self.lets else self.phrase(coll)
        if isinstance(coll, ast.Name) and coll.name in self.lets and is_word(coll.name):
            header = f"for each of the {coll.name}"  # the designer's word: "for each of the rivals"
            noun = singular(coll.name)
        elif phrase is not None:
            header = "for " + phrase.each()
        elif isinstance(coll, ast.Relative):
            header = f"for each {self.relative(coll)}"
        elif isinstance(coll, ast.Where) and isinstance(coll.collection, ast.Relative):
            c = coll.condition
            if isinstance(c, ast.Compare) and c.op == "!=" and isinstance(c.left, ast.It) \
                    and isinstance(c.right, ast.Name) and c.right.name == "me" and coll.collection.relation == "starting":
                header = "for each other player in turn order, after you"
            else:
                header = f"for each {self.relative(coll.collection)}, where {self.expr(coll.condition, OR)}"
        elif isinstance(coll, ast.Name) and coll.name in self.vars:
            header = f"for each of {self.vars[coll.name]}"
        else:
            header = f"for each of {self.expr(coll)}"
        saved_var, saved_they = self.vars.get(s.var), s.var in self.they
        self.bind(s.var, f"that {noun}", player=player)
        self.var_nouns[s.var] = noun
        try:
            return f"{header}: {self.body(s.body)}"
        finally:
            if saved_var is None:
                self.vars.pop(s.var, None)
            else:
                self.vars[s.var] = saved_var
            if not saved_they:
                self.they.discard(s.var)

    # ---------------------------------------------------------------- declarations

    def declaration(self, d: ast.Node) -> str:
        if isinstance(d, ast.Trigger):
            for param in self.w.event_params.get(d.event.name, ()):
                self.bind(param, f"the {param.replace('_', ' ')}")
            cond = "" if d.condition is None else f", if {self.expr(d.condition)}"
            once = " (once per turn)" if d.once else ""
            return f"when {self.ident(d.event.name)}{cond}{once}: {self.body(d.body)}"
        if isinstance(d, ast.Hook):
            return f"when this {'enters' if d.kind == 'enters' else 'leaves'} play: {self.body(d.body)}"
        if isinstance(d, ast.Continuous):
            return f"while in play: {self.modifier(d.modifier)}"
        raise TypeError(f"the renderer cannot word declaration {type(d).__name__}")

    def program(self, p: ast.Program) -> str:
        paragraphs = []
        statements = " ".join(s for s in (sentence(c) for _, c, _ in self.clauses(p.statements)) if s)
        if statements:
            paragraphs.append(statements)
        paragraphs.extend(s for s in (sentence(self.declaration(d)) for d in p.declarations) if s)
        return agree(tidy("\n".join(paragraphs)), self.w.count_nouns)


def _wording(labels: Mapping[str, str] | Wording | None, era_names: Sequence[str] | None) -> Wording:
    if isinstance(labels, Wording):
        return labels
    return Wording(labels or {}, list(era_names or ()))


def render_program(program: ast.Program, labels: Mapping[str, str] | Wording | None = None,
                   era_names: Sequence[str] | None = None, params: Sequence[tuple[str, Any]] = ()) -> str:
    """English card text for a whole effect: one paragraph of statements, then one line per declaration.

    `labels` is a Wording (see `Wording.of(vocabulary)`), or a plain mapping of names to
    the words a player sees. `params` are a procedure's (name, type) pairs: each reads
    as "that character", "that player"..."""
    return renderer_for(_wording(labels, era_names), params).program(program)


def renderer_for(wording: Wording, params: Sequence[tuple[str, Any]] = ()) -> _Renderer:
    """A renderer with a procedure's parameters bound (see render_program)."""
    renderer = _Renderer(wording)
    for name, t in params:
        tag, arg = getattr(t, "tag", ""), getattr(t, "arg", None)
        if tag == "player":
            renderer.bind(name, "that player", player=True)
        elif tag in ("thing", "def") and arg:
            renderer.bind(name, renderer.name_for(name, renderer.noun(arg), True))
        elif tag == "amount":
            renderer.bind(name, "that number")
    return renderer


def render_statement(stmt: ast.Stmt, labels: Mapping[str, str] | Wording | None = None,
                     era_names: Sequence[str] | None = None) -> str:
    """One statement as an English sentence."""
    w = _wording(labels, era_names)
    return agree(tidy(sentence(_Renderer(w).clause(stmt))), w.count_nouns)


def render_expr(expr: ast.Expr, labels: Mapping[str, str] | Wording | None = None,
                era_names: Sequence[str] | None = None) -> str:
    """One expression as an English phrase (no capital, no period)."""
    w = _wording(labels, era_names)
    return agree(tidy(_Renderer(w).expr(expr)), w.count_nouns)


def render_member(collection: ast.Expr, labels: Mapping[str, str] | Wording | None = None) -> str:
    """One member of a collection, as a prompt asks for it ("a card in your offer",
    "one of your tokens on characters"); "" when the collection is no selection or kind."""
    w = _wording(labels, None)
    phrase = _Renderer(w).phrase(collection)
    return agree(tidy(phrase.a()), w.count_nouns) if phrase is not None else ""


def _literal(e: ast.Expr) -> bool:
    return isinstance(e, (ast.Num, ast.Era))


def _is_me(e: ast.Expr) -> bool:
    return isinstance(e, ast.Name) and e.name == "me"


def _capped(e: ast.Expr) -> tuple[ast.Expr, ast.Expr] | None:
    """`min(N, X)` or `min(X, N)`, N a number: (X, N), said "X (at most N)" or "up to N"."""
    if isinstance(e, ast.Call) and e.name == "min" and len(e.args) == 2:
        first, second = e.args
        if _literal(first) and not _literal(second):
            return second, first
        if _literal(second) and not _literal(first):
            return first, second
    return None


def _substitute(e: ast.Expr, name: str, value: ast.Expr, depth: int = 0) -> ast.Expr:
    """`e` with the name `name` replaced by `value` (`let n be n + 1` after `let n be 2`
    reads "2 + 1"); at most 100 levels deep, as the parser allows."""
    if isinstance(e, ast.Name):
        return value if e.name == name else e
    if depth > 100 or not dataclasses.is_dataclass(e):
        return e
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(e):
        if f.name in ("span", "name_span"):
            continue
        old = getattr(e, f.name)
        new: Any
        if isinstance(old, ast.Expr):
            new = _substitute(old, name, value, depth + 1)
        elif isinstance(old, tuple) and any(isinstance(x, ast.Expr) for x in old):
            new = tuple(_substitute(x, name, value, depth + 1) if isinstance(x, ast.Expr) else x for x in old)
        else:
            continue
        if new is not old:
            changes[f.name] = new
    return dataclasses.replace(e, **changes) if changes else e
