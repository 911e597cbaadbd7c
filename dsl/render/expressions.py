"""Expressions as English (dsl/renderer.py words whole effects): names in the
ruleset's words (a bound name reads as what it holds, "that station", a `let` as what
it stands for), counters and attributes as possessives ("your gold", "the Tower's
level"), comparisons in the ruleset's yes/no words, selections and filters, piles'
ends, aggregates, calls of builtins, definitions and procedures by their `text:`,
places joined by links, and the singular noun a collection's member reads as.
"""

from __future__ import annotations

import re

from .. import ast
from ..constructs import BUILTINS
from ..english import conjugate, is_word, negate, ordinal, plural, possessive, singular, word_list
from .collections import Collections
from ..printer import AND, COND, NOT, OR, POSTFIX, PRODUCT, SUM, UNARY, WHERE, precedence
from ..wording import Wording

_COMPARE_WORDS = {
    "=": "is",
    "!=": "is not",
    "in": "is in",
    ">": "is more than",
    "<": "is less than",
    ">=": "is at least",
    "<=": "is at most",
}


def _had(label: str) -> bool:
    """Whether a counter's words name something a player has ("gold", "coins", "cards
    played this turn"), not a place or a state ("the row reached", "the pawn's lane")."""
    return not re.match(r"(the|a|an)\b", label) and "'" not in label and "(" not in label


class ExpressionRenderer(Collections):
    """Names and expressions in words, for one effect (its bound names and `let`s)."""

    def __init__(self, wording: Wording) -> None:
        self.w = wording
        self.vars: dict[str, str] = {}  # a bound name -> how it reads ("that station")
        self.they: set[str] = set()  # bound names of players (a verb after them reads "they gain")
        self.lets: dict[str, ast.Expr] = {}  # `let` names: worded as what they stand for
        self.expanding: set[str] = set()  # `let` names being worded now (a let that names itself)
        self.var_nouns: dict[str, str] = {}  # a bound name -> the noun of what it holds
        self.nouns_bound: dict[str, int] = {}  # how many names read "that NOUN" so far
        self.later: dict[str, str] = {}  # a name read "that NOUN": how it reads once another NOUN is named

    # ---------------------------------------------------------------- names

    def ident(self, name: str) -> str:
        label = self.w.labels.get(name)
        return label if label else name.replace("_", " ")

    def the(self, name: str, words: str) -> str:
        """A zone of the game reads with "the" ("the reserve deck"), unless its words
        already say whose or which it is ("this round's deck", "the board")."""
        if name in self.w.game_zones and not re.match(r"(the|this|that|a|an|each|every|your)\b|\w+'s?\b",
                                                      words, re.I):
            return "the " + words
        return words

    def action(self, name: str) -> str:
        """An action as a player reads it in a menu: its label ("Buy a crate")."""
        return self.w.actions.get(name) or self.ident(name)

    def noun(self, word: str) -> str:
        if word in self.w.nouns:
            return self.w.nouns[word]
        return singular(self.ident(word))

    def bind(self, var: str, reads: str, player: bool = False, later: str | None = None) -> None:
        """`var` reads `reads` from here on. A name read "that NOUN" is read otherwise once
        another NOUN is named ("the coin number" after "that number": "that number" would
        then point at the coin): `later`, or "the first NOUN"."""
        if not reads.startswith(("the other ", "the chosen ")):
            for other, was in self.vars.items():
                if other != var and was.startswith("that ") and reads.endswith(" " + was[5:]):
                    self.vars[other] = self.later.get(other, f"the first {was[5:]}")
        self.vars[var] = reads
        if later is not None:
            self.later[var] = later
        if player:
            self.they.add(var)

    def name_for(self, var: str, noun: str, single: bool) -> str:
        """How a chosen thing reads later: a designer's word names it ("the taken card");
        a letter does not ("that card", then "the other card" for a second one)."""
        if is_word(var) and var not in noun:
            return f"the {var} {noun}" if single else f"the {var}"
        if not single:
            return f"the chosen {plural(noun)}"
        seen = self.nouns_bound.get(noun, 0)
        self.nouns_bound[noun] = seen + 1
        return f"that {noun}" if seen == 0 else f"the other {noun}" if seen == 1 else f"the {ordinal(seen + 1)} {noun}"

    def deref(self, e: ast.Expr) -> ast.Expr:
        """What a `let` name stands for (so `let n be count of ...` then `n > 0` reads as existence)."""
        seen = 0
        while isinstance(e, ast.Name) and e.name in self.lets and seen < 20:
            e, seen = self.lets[e.name], seen + 1
        return e

    def era(self, values: tuple[int, ...]) -> str:
        """`20/50/100`: in play, the current era's value ("50"); elsewhere every era's, "20 / 50 / 100"."""
        era = self.w.era
        if era is not None and values:
            return str(values[min(max(era, 1), len(values)) - 1])
        return " / ".join(str(v) for v in values)

    def eras_in(self, text: str) -> str:
        """A `text:` template's `20/50/100` as an era's value reads ("20 / 50 / 100", or "50" in play)."""
        return re.sub(r"(?<![\w/])(\d+(?:/\d+)+)(?![\w/])",
                      lambda m: self.era(tuple(int(v) for v in m.group(1).split("/"))), text)

    def amounts(self, values: list[int]) -> str:
        """Numbers of several eras, as `era` says them."""
        return self.era(tuple(values))

    def count(self, e: ast.Expr) -> str:
        return str(e.value) if isinstance(e, ast.Num) else self.expr(e, UNARY)

    # ---------------------------------------------------------------- expressions

    def indicated(self, e: ast.Arith) -> str | None:
        """A number times or plus a condition counted as 1 or 0 (`2 * (1 if C else 0)`, `N +
        (1 if C else 0)`) in words: "2 if C, else 0", "N, plus 1 if C" (never "(1 if C, else 0)")."""
        def indicator(x: ast.Expr) -> ast.Expr | None:
            if isinstance(x, ast.Cond) and isinstance(x.yes, ast.Num) and isinstance(x.no, ast.Num) \
                    and x.yes.value == 1 and x.no.value == 0:
                return x.condition
            return None
        left, right = indicator(e.left), indicator(e.right)
        if e.op == "*" and (left is None) != (right is None):
            other, cond = (e.right, left) if left is not None else (e.left, right)
            assert cond is not None
            return f"{self.expr(other, PRODUCT)} if {self.expr(cond, WHERE)}, else 0"
        if e.op == "+" and right is not None and left is None:
            return f"{self.expr(e.left, SUM)}, plus 1 if {self.expr(right, WHERE)}"
        return None

    def expr(self, e: ast.Expr, min_precedence: int = COND) -> str:
        text = self._expr(e)
        if precedence(e) < min_precedence and not isinstance(e, (ast.Where, ast.Ordered, ast.Within, ast.Distance,
                                                                 ast.ConnectedGroup)):
            return f"({text})"
        return text

    def possess(self, label: str, subject: ast.Expr) -> str:
        """`label` of `subject`, said as English possession."""
        if isinstance(subject, ast.Name) and subject.name in self.lets:
            return self.possess(label, self.lets[subject.name])
        if isinstance(subject, ast.Name):
            if subject.name == "me":
                return f"your {label}"
            if subject.name in ("players", "opponents"):
                return f"each {subject.name[:-1]}'s {label}"
            if subject.name in self.vars:
                return f"{possessive(self.vars[subject.name])} {label}"
            return f"{possessive(self.ident(subject.name))} {label}"
        if isinstance(subject, ast.It):
            return f"its {label}"
        if isinstance(subject, ast.This):
            return f"this card's {label}"
        if isinstance(subject, ast.Of) and not (subject.name in BUILTINS and BUILTINS[subject.name].form == "of"):
            owner = self.expr(subject, POSTFIX)
            return f"{owner}' {label}" if owner.endswith("s") else f"{owner}'s {label}"
        return f"the {label} of {self.expr(subject, POSTFIX)}"

    def counted(self, e: ast.Compare) -> str:
        """`count of C > 0` reads "there is at least one C"; `count of C = 0` "there is no C"."""
        left = self.deref(e.left)
        if not (isinstance(left, ast.Of) and left.name == "count" and isinstance(e.right, ast.Num)
                and e.right.value == 0 and e.op in (">", "!=", "=")):
            return ""
        subject = left.subject
        phrase = self.phrase(self.deref(subject))
        if phrase is not None:
            return phrase.exists(e.op == "=")
        what = self.expr(subject, OR)
        return f"there {'is none of' if e.op == '=' else 'is at least one of'} {what}"

    def call(self, e: ast.Call) -> str:
        args = [self.expr(a) for a in e.args]
        template = self.eras_in(self.w.labels.get(e.name, ""))
        if "{0}" in template:
            return conjugate(template, args)
        if e.name == "possible":
            return "you can " + word_list([self.ident(a.name) if isinstance(a, ast.Name) else x
                                      for a, x in zip(e.args, args)], "or")
        b = BUILTINS.get(e.name)
        if e.name in ("min", "max") and len(args) == 2:  # "the lower of 3 and your gold"
            return f"the {'lower' if e.name == 'min' else 'higher'} of {args[0]} and {args[1]}"
        if b is not None:
            return b.words.replace("{all}", word_list(args, "and")).format(*args)
        if not args:
            return self.ident(e.name)
        return f"{self.ident(e.name)} ({word_list(args, 'and')})"

    def _expr(self, e: ast.Expr) -> str:  # noqa: C901 - one branch per expression kind
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
            if e.name in self.lets and e.name not in self.expanding:
                # `let x be x + 1` reads its earlier x as itself: never expanded inside itself
                self.expanding.add(e.name)
                try:
                    return self.expr(self.lets[e.name], precedence(self.lets[e.name]))
                finally:
                    self.expanding.discard(e.name)
            if e.name in self.vars:
                return self.vars[e.name]
            b = BUILTINS.get(e.name)
            if b is not None and b.form == "name":
                return b.words
            if e.name in self.w.kind_plurals:  # every piece of a kind: "stations", whatever labels say
                return self.w.kind_plurals[e.name]
            template = self.w.labels.get(e.name, "")
            if template and "{0}" not in template:
                return self.the(e.name, template)
            return self.the(e.name, self.ident(e.name))
        if isinstance(e, ast.This):
            return "this card"
        if isinstance(e, ast.It):
            return "it"
        if isinstance(e, ast.Of):
            b = BUILTINS.get(e.name)
            if b is not None and b.form == "of" and e.name in ("count", "owner", "name", "position", "track"):
                if e.name == "count":
                    return f"the number of {self.expr(e.subject, POSTFIX)}"
                if e.name == "position" and isinstance(e.subject, ast.Name) and (
                        e.subject.name == "me" or e.subject.name in self.they):
                    return f"{'your' if e.subject.name == 'me' else 'their'} place in turn order"
                return self.possess(self.ident(e.name) if e.name != "owner" else "owner", e.subject)
            if e.name in self.vars:  # `my R`, R a chosen counter
                return self.possess(self.vars[e.name].replace("that ", "", 1), e.subject)
            said_yes = self.w.yes_no.get(e.name, (None, None))[0]
            if said_yes:  # a yes/no quantity in its own words
                return self.said(said_yes, e.subject)
            if e.name in self.w.flags:  # a yes/no attribute: "it is sealed"
                who = "it" if isinstance(e.subject, ast.It) else self.expr(e.subject, POSTFIX)
                return f"{who} is {self.ident(e.name)}"
            return self.possess(self.ident(e.name), e.subject)
        if isinstance(e, ast.Top):
            if e.count is None and isinstance(e.source, ast.Ordered):
                ordered = e.source
                most = "highest" if (e.end == "top") == ordered.descending else "lowest"
                if self.holder(ordered.key) is not None:  # a counter a player has: "the most gold"
                    most = "most" if most == "highest" else "least"
                key = self.expr(ordered.key, OR)
                key = key[4:] if key.startswith("its ") else key
                return f"the {self.noun_of(ordered.collection)} with the {most} {key}"
            if e.count is None and (isinstance(e.source, ast.Relative) or isinstance(e.source, ast.Name)
                                    and e.source.name in ("players", "opponents")):
                first = "first" if e.end == "top" else "last"
                who = "player" if not (isinstance(e.source, ast.Name) and e.source.name == "opponents") \
                    else "opponent" if self.acting is None else "of your opponents"  # whose, inside `as P:`
                if isinstance(e.source, ast.Relative):
                    return f"the {first} of {self.expr(e.source)}"
                return f"the {first} {who} in turn order"
            count = "" if e.count is None else f" {self.count(e.count)}"
            return f"the {e.end}{count} of {self.expr(e.source, POSTFIX)}"
        if isinstance(e, ast.Entry):
            listed = e.source
            if isinstance(listed, ast.Of) and listed.name in self.w.tables:  # a table's number for an item
                label = singular(self.ident(listed.name))
                return f"{self.possess(label, listed.subject)} for {self.expr(e.index, POSTFIX)}"
            if isinstance(e.index, ast.Num):
                return f"the {ordinal(e.index.value)} of {self.expr(listed, POSTFIX)}"
            return f"entry {self.count(e.index)} of {self.expr(listed, POSTFIX)}"
        if isinstance(e, ast.SpaceOf):
            return f"space {self.count(e.index)} of {self.possess('track', e.track)}"
        if isinstance(e, ast.Aggregate):
            fn = {"total": "the total", "highest": "the highest", "lowest": "the lowest"}[e.fn]
            return f"{fn} {self.ident(e.name)} of {self.expr(e.collection, POSTFIX)}"
        if isinstance(e, ast.Select):
            selected = self.phrase(e)
            assert selected is not None
            return selected.all()
        if isinstance(e, ast.Relative):
            who = self.expr(e.player, POSTFIX)
            if e.word == "player" and e.relation in ("after", "before"):  # one player, wrapping round
                return f"the next player after {who}" if e.relation == "after" else f"the player before {who}"
            if e.relation == "starting":
                return f"every player in turn order starting with {who}"
            return f"the players {e.relation} {who} in turn order"
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.Neg):
            if isinstance(e.operand, ast.Era):
                return self.era(tuple(-v for v in e.operand.values))
            return f"-{self.expr(e.operand, UNARY)}"
        if isinstance(e, ast.Arith):
            indicated = self.indicated(e)
            if indicated is not None:
                return indicated
            if e.op == "*":
                if isinstance(e.right, ast.Percent):
                    return f"{self.expr(e.left, PRODUCT)} × {e.right.value}% (rounded up)"
                return f"{self.expr(e.left, PRODUCT)} × {self.expr(e.right, UNARY)}"
            if e.op == "+" and isinstance(e.left, (ast.Select, ast.Where, ast.Relative)):
                return f"{self.expr(e.left, SUM)} and {self.expr(e.right, PRODUCT)}"
            # "divided by" has no precedence in English: a quotient beside + or - is bracketed
            left, right = self.expr(e.left, SUM), self.expr(e.right, PRODUCT)
            left = f"({left})" if isinstance(e.left, ast.Div) else left
            right = f"({right})" if isinstance(e.right, ast.Div) else right
            return f"{left} {e.op} {right}"
        if isinstance(e, ast.Div):
            rounding = "rounded down" if e.rounding == "down" else "rounded up"
            return f"{self.expr(e.left, PRODUCT)} divided by {self.expr(e.right, UNARY)} ({rounding})"
        if isinstance(e, ast.Empty):
            return f"{self.expr(e.subject, SUM)} is empty"
        if isinstance(e, ast.Has):
            return f"{self.expr(e.subject, SUM)} has {'no ' if e.negated else 'a '}{self.ident(e.attribute)}"
        if isinstance(e, ast.Compare) and e.op == "in" and isinstance(e.right, ast.ListLiteral):
            return self.held(e) or f"{self.expr(e.left, SUM)} is {self.one_of(e.right, 'or')}"
        if isinstance(e, ast.Compare):
            counted = self.counted(e)
            if counted:
                return counted
            said = self.yes_no(e)
            if said is not None:
                return said
            held = self.held(e)
            if held:
                return held
            word = _COMPARE_WORDS[e.op]
            left = self.expr(e.left, SUM)
            counted_left = self.deref(e.left)
            counting = isinstance(counted_left, ast.Of) and counted_left.name == "count"  # "the number ... is"
            if left.rsplit(" ", 1)[-1] in self.w.plural_words and not counting:  # "your resources are more than 0"
                word = "are" + word[2:]
            return f"{left} {word} {self.expr(e.right, SUM)}"
        if isinstance(e, ast.Not):
            if isinstance(e.operand, ast.Empty):
                return f"{self.expr(e.operand.subject, SUM)} is not empty"
            if isinstance(e.operand, ast.Compare) and e.operand.op == "in" and isinstance(e.operand.right, ast.ListLiteral):
                return f"{self.expr(e.operand.left, SUM)} is not {self.one_of(e.operand.right, 'or')}"
            if isinstance(e.operand, ast.Compare) and e.operand.op == "in":
                return f"{self.expr(e.operand.left, SUM)} is not in {self.expr(e.operand.right, SUM)}"
            said_no = self.w.yes_no.get(e.operand.name, (None, None))[1] if isinstance(e.operand, ast.Of) else None
            if isinstance(e.operand, ast.Of) and said_no:
                return self.said(said_no, e.operand.subject)
            if isinstance(e.operand, ast.Of) and e.operand.name in self.w.flags:
                return self.expr(e.operand).replace(" is ", " is not ", 1)
            if isinstance(e.operand, ast.Call):  # a definition's own words, negated: "you do not hold ..."
                negated = negate(self.expr(e.operand))
                if negated is not None:
                    return negated
            return f"not {self.expr(e.operand, NOT)}"
        if isinstance(e, ast.BoolOp):
            level = OR if e.op == "or" else AND
            return f"{self.expr(e.left, level)} {e.op} {self.expr(e.right, level + 1)}"
        if isinstance(e, ast.Where):
            phrase = self.phrase(e)
            if phrase is not None:
                return phrase.all()
            return f"{self.expr(e.collection, OR)} where {self.expr(e.condition, OR)}"
        if isinstance(e, ast.Ordered):
            order = "highest first" if e.descending else "lowest first"
            return f"{self.expr(e.collection, OR)} ordered by {self.expr(e.key, OR)} ({order})"
        if isinstance(e, ast.Cond):
            return f"{self.expr(e.yes, WHERE)} if {self.expr(e.condition, WHERE)}, else {self.expr(e.no, COND)}"
        general = self.general_expr(e)
        if general is not None:
            return general
        if isinstance(e, (ast.Neighbours, ast.Within, ast.Distance, ast.ConnectedGroup)):
            return self.places(e)
        raise TypeError(f"the renderer cannot word expression {type(e).__name__}")

    def general_expr(self, e: ast.Expr) -> str | None:
        """Lists written out, modulo and "the same card as"."""
        if isinstance(e, ast.ListLiteral):
            return word_list([self.expr(x) for x in e.items], "and") if e.items else "nothing"
        if isinstance(e, ast.Modulo):
            return f"the remainder of {self.expr(e.left, PRODUCT)} divided by {self.expr(e.right, UNARY)}"
        if isinstance(e, ast.SameCard):
            return f"{self.expr(e.left, SUM)} is {'not ' if e.negated else ''}the same card as {self.expr(e.right, SUM)}"
        return None

    def one_of(self, e: ast.ListLiteral, conjunction: str) -> str:
        """The members of a list written out, as alternatives: "1, 3 or 5"."""
        return word_list([self.expr(x) for x in e.items], conjunction) if e.items else "nothing"

    # ---------------------------------------------------------------- places joined by links

    def links(self, links: tuple[ast.Name, ...]) -> str:
        return f" by {word_list([self.ident(n.name) for n in links], 'or')}" if links else ""

    def passing(self, through: ast.Expr | None) -> str:
        return f", passing only through places where {self.expr(through, OR)}" if through is not None else ""

    def places(self, e: ast.Expr) -> str:
        """`neighbours of X by road` -> "the places next to X by road"."""
        if isinstance(e, ast.Neighbours):
            several = "any of " if self.several(e.place) else ""  # next to any one of them, not to all
            return f"the places next to {several}{self.expr(e.place, POSTFIX)}{self.links(e.links)}"
        if isinstance(e, ast.Within):
            noun = self.w.kind_plurals.get(e.word) or self.w.plurals.get(self.noun(e.word)) or self.ident(e.word)
            steps = "1 step" if isinstance(e.steps, ast.Num) and e.steps.value == 1 else f"{self.count(e.steps)} steps"
            return (f"the {noun} at most {steps} from {self.expr(e.place, POSTFIX)}{self.links(e.links)}"
                    f"{self.passing(e.through)}")
        if isinstance(e, ast.Distance):
            return (f"the number of steps from {self.expr(e.origin, POSTFIX)} to {self.expr(e.dest, POSTFIX)}"
                    f"{self.links(e.links)}{self.passing(e.through)}")
        assert isinstance(e, ast.ConnectedGroup)
        return (f"{self.expr(e.place, POSTFIX)} and the places connected to it{self.links(e.links)}, "
                f"all where {self.expr(e.condition, OR)}")

    def several(self, e: ast.Expr) -> bool:
        """Whether `e` reads as several things (a list, a selection, a definition that lists)."""
        return (isinstance(e, (ast.ListLiteral, ast.Where, ast.Select, ast.Ordered, ast.Within, ast.Neighbours,
                               ast.ConnectedGroup))
                or (isinstance(e, ast.Call) and e.name in self.w.results)
                or (isinstance(e, ast.Name) and e.name in self.w.kind_plurals))

    def noun_of(self, coll: ast.Expr, depth: int = 0) -> str:
        """The singular noun a member of a collection reads as ("station", "card", "player").
        `depth` stops a name whose `let` refers to itself (`let x be x + y`)."""
        if depth > 20:
            return "one"
        if isinstance(coll, ast.Name):
            if coll.name in ("players", "opponents"):
                return "player" if coll.name == "players" else "opponent"
            if coll.name in self.var_nouns:
                return self.var_nouns[coll.name]
            if coll.name in self.lets:
                return self.noun_of(self.lets[coll.name], depth + 1)
            return self.noun(coll.name)
        if isinstance(coll, ast.Call) and coll.name in self.w.results:
            return self.w.results[coll.name]
        if isinstance(coll, ast.Select):
            phrase = self.phrase(coll)  # `cards in targets`: a member of targets
            return phrase.one if phrase is not None else self.noun(coll.word)
        if isinstance(coll, (ast.Where, ast.Ordered)):
            return self.noun_of(coll.collection, depth + 1)
        if isinstance(coll, ast.Relative):
            return "player"
        if isinstance(coll, ast.Within):
            return self.noun(coll.word) if coll.word in self.w.nouns else singular(self.ident(coll.word))
        if isinstance(coll, (ast.Neighbours, ast.ConnectedGroup)):
            return "place"
        if isinstance(coll, ast.Of):
            return singular(self.ident(coll.name))
        if isinstance(coll, ast.Top):
            return self.noun_of(coll.source, depth + 1)
        if isinstance(coll, ast.ListLiteral) and coll.items:  # `[1, 3]`: numbers; `[me, P]`: players
            if all(isinstance(x, ast.Num) for x in coll.items):
                return "number"
            if all(isinstance(x, ast.Name) and (x.name == "me" or x.name in self.they) for x in coll.items):
                return "player"
        if isinstance(coll, ast.Arith) and coll.op == "+":  # two collections joined: members of both
            left, right = self.noun_of(coll.left, depth + 1), self.noun_of(coll.right, depth + 1)
            if left == right:
                return left
        return "one"

    def is_players(self, coll: ast.Expr) -> bool:
        return self.noun_of(coll) in ("player", "opponent")

    def holds_items(self, e: ast.Expr) -> bool:
        """Tokens are "on" board items (a track, a holder), "in" zones and lists."""
        if isinstance(e, ast.SpaceOf):
            return True
        if isinstance(e, ast.Name):
            return (e.name in self.w.board_items or self.var_nouns.get(e.name) in self.w.board_nouns
                    or self.w.nouns.get(e.name) in self.w.board_nouns)  # `tokens in characters`
        if isinstance(e, (ast.Where, ast.Ordered)):  # `tokens in (characters where ...)`
            return self.holds_items(e.collection)
        if isinstance(e, ast.ListLiteral):
            return bool(e.items) and all(self.holds_items(x) for x in e.items)
        return isinstance(e, ast.Of) and e.name in self.w.item_lists

    def holder(self, e: ast.Expr) -> tuple[str, str] | None:
        """(who, what) when `e` is how much of something a player has: a player's counter
        ("you", "gold"), a counter held in a name ("that player", "of that resource"), a
        definition worded as a player's ("{P}'s resources" of you: "you", "resources")."""
        def who(subject: ast.Expr | None) -> str | None:
            if subject is None or isinstance(subject, ast.Name) and subject.name == "me":
                return "you"
            if isinstance(subject, ast.Name) and subject.name in self.they:
                return self.vars.get(subject.name, "they")
            if isinstance(subject, ast.It):
                return "it"
            return None
        if isinstance(e, ast.Of) and e.name in self.w.player_counters and e.name not in self.w.yes_no \
                and _had(self.ident(e.name)):
            whose = who(e.subject)
            if whose is None and not isinstance(e.subject, (ast.Name, ast.Of, ast.Top, ast.Call)):
                return None
            return (whose or self.expr(e.subject, POSTFIX)), self.ident(e.name)
        if isinstance(e, ast.Of) and e.name in self.vars and who(e.subject):  # `my R`, R a chosen counter
            return who(e.subject) or "you", "of " + self.vars[e.name]
        if isinstance(e, ast.Call) and e.name == "held" and e.args:
            whose = who(e.args[1] if len(e.args) > 1 else None) or self.expr(e.args[1], POSTFIX)
            return whose, "of " + self.expr(e.args[0])
        template = self.w.labels.get(e.name, "") if isinstance(e, ast.Call) else ""
        if template.startswith("{0}'s ") and "{" not in template[6:] and isinstance(e, ast.Call) \
                and len(e.args) == 1 and who(e.args[0]) in ("you", "they"):
            return who(e.args[0]) or "you", template[6:]
        return None

    def held(self, e: ast.Compare) -> str:
        """A comparison of how much a player has, as having it: "you have at least 10 gold",
        "that player has no gold", "you have 7, 8 or 9 coins", "you have more stars than
        ..."; "" for any other comparison."""
        found = self.holder(e.left)
        if found is None:
            return ""
        who, what = found
        have = "have" if who in ("you", "they") else "has"
        right = e.right
        n = right.value if isinstance(right, ast.Num) else None
        if e.op == "in" and isinstance(right, ast.ListLiteral):
            return f"{who} {have} {self.one_of(right, 'or')} {what}"
        if not isinstance(right, (ast.Num, ast.Era)):
            many = what.rsplit(" ", 1)[-1] in self.w.count_nouns
            more, less = ("more", "fewer") if many else ("more", "less")
            than = self.expr(right, SUM)
            return {">": f"{who} {have} {more} {what} than {than}", "<": f"{who} {have} {less} {what} than {than}",
                    ">=": f"{who} {have} at least as {'many' if many else 'much'} {what} as {than}",
                    "<=": f"{who} {have} at most as {'many' if many else 'much'} {what} as {than}"}.get(e.op, "")
        amount = self.expr(right)
        if e.op == "=":
            return f"{who} {have} no {what}" if n == 0 else f"{who} {have} exactly {amount} {what}"
        if e.op == "!=":
            return f"{who} {have} some {what}" if n == 0 else ""
        if e.op == ">":
            return f"{who} {have} at least {n + 1} {what}" if n is not None else f"{who} {have} more than {amount} {what}"
        if e.op == "<":
            return f"{who} {have} no {what}" if n == 1 else f"{who} {have} less than {amount} {what}"
        return f"{who} {have} {'at least' if e.op == '>=' else 'at most'} {amount} {what}"

    def said(self, template: str, subject: ast.Expr | None) -> str:
        """A yes/no counter or quantity in the ruleset's words; `{0}` is whose it is."""
        who = "you" if subject is None else self.expr(subject, POSTFIX)
        if isinstance(subject, ast.Name) and subject.name in ("players", "opponents"):
            whose = template.startswith("{0}'s")  # "your opponents' markers do not advance"
            who = ("every player" if subject.name == "players" else
                   "your opponents" if whose else "each of your opponents")
        return conjugate(template, [who])

    def yes_no(self, e: ast.Compare) -> str | None:
        """`my card_drawn = 0`, `its face_down = 1`, `markers_advance of P = no`:
        the ruleset's words for the yes or the no, when it gives them."""
        if e.op not in ("=", "!="):
            return None
        for side, other in ((e.left, e.right), (e.right, e.left)):
            name = side.name if isinstance(side, (ast.Of, ast.Name)) else None
            if name is None or name not in self.w.yes_no:
                continue
            if isinstance(other, ast.Num) and other.value in (0, 1):
                truth = other.value == 1
            elif isinstance(other, ast.Bool):
                truth = other.value
            else:
                return None
            template = self.w.yes_no[name][0 if truth == (e.op == "=") else 1]
            if template is None:
                return None
            return self.said(template, side.subject if isinstance(side, ast.Of) else None)
        return None
