"""AST -> English card text: what a player reads on the card, not what the engine runs.

This module owns the player-facing wording of effects:
- names are the ruleset's words (`labels`) and items' own names ("The Duke"), never ids;
- `me`/`my` read "you"/"your"; a definition or procedure with a `text:` template is
  worded by it, conjugated for "you" ("you have", "your") with "a"/"an" fixed;
- names a designer binds (`choose ... as X`, `for each P in ...`) never show: a chosen
  item reads "that industry", a player "that player", a `let` is worded in place;
- bookkeeping (`log`, `announce`, `let`) is not card text;
- era values read as on a printed card, `20 / 50 / 100`.

Statements become capitalized sentences; declarations read "When ...:", "While in
play: ...". A construct this module cannot word raises TypeError: there is no
fallback, so a gap is a failing test, not a card with source text on it.
"""

from __future__ import annotations

import dataclasses

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from . import ast
from .constructs import BUILTINS, CONSTRUCTS, fill
from .parser import SyntaxErrors, parse_expression
from .printer import AND, COND, NOT, OR, POSTFIX, PRODUCT, SUM, UNARY, WHERE, precedence

__all__ = ["Wording", "render_program", "render_expr", "render_statement"]

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
_IRREGULAR = {"has": "have", "is": "are", "does": "do", "was": "were", "goes": "go"}


@dataclass
class Wording:
    """The words of a ruleset: labels of names, names of items, templates of definitions
    and procedures ({0}, {1}... or {PARAM} are the arguments), the eras."""

    labels: Mapping[str, str] = field(default_factory=dict)
    era_names: Sequence[str] = ()
    era_word: str = "era"
    nouns: Mapping[str, str] = field(default_factory=dict)  # a collection word (kind, plural, set) -> its noun
    zones: frozenset[str] = frozenset()  # names of zones (pieces are "in" them, "on" items)
    tables: frozenset[str] = frozenset()  # attributes that are tables (item: number)
    board_items: frozenset[str] = frozenset()  # ids of board items (tokens are "on" them)
    item_lists: frozenset[str] = frozenset()  # attributes holding board items
    board_nouns: frozenset[str] = frozenset()  # nouns of board kinds
    flags: frozenset[str] = frozenset()  # yes/no attributes (`its mandatory` reads "it is mandatory")
    results: Mapping[str, str] = field(default_factory=dict)  # a definition -> the noun of what it lists
    plurals: Mapping[str, str] = field(default_factory=dict)  # a noun -> its plural
    event_params: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # names a trigger's event binds
    kind_plurals: Mapping[str, str] = field(default_factory=dict)  # a kind's plural name -> its words
    plural_words: frozenset[str] = frozenset()  # nouns in the plural: a comparison after them reads "are"
    yes_no: Mapping[str, tuple[str | None, str | None]] = field(default_factory=dict)  # name -> (true, false) text
    menus: frozenset[str] = frozenset()  # names of menus of actions: "perform one of your turn actions"

    @staticmethod
    def of(vocab: Any) -> "Wording":
        """The wording of a dsl.vocabulary.Vocabulary."""
        labels = {name: vocab.label(name) for name in vocab.all_names()}
        for info in vocab.kinds.values():  # an item counter's label: "Law's level on the investment track"
            for name, counter in info.counters.items():
                if counter.label and name not in labels:
                    labels[name] = counter.label
        labels.update(vocab.labels)
        labels.update(vocab.content_names)
        nouns: dict[str, str] = {}
        for kind, info in vocab.kinds.items():
            noun = info.label or kind.replace("_", " ")
            nouns[kind] = noun
            if info.plural:
                nouns[info.plural] = noun
        for name in vocab.counter_sets:
            nouns[name] = labels.get(name, name.replace("_", " "))
        for name in vocab.enums:
            nouns[name] = labels.get(name, name.replace("_", " "))
        tables = frozenset(a for k in vocab.kinds.values() for a, t in k.attributes.items() if t.tag == "table")
        boards = {k for k, info in vocab.kinds.items() if info.piece == "board"}
        board_items = frozenset(i for i, k in vocab.content.items() if k in boards)
        item_lists = frozenset(a for k in vocab.kinds.values() for a, t in k.attributes.items()
                               if t.tag in ("thing", "things") and t.arg in boards)
        board_nouns = frozenset(nouns[k] for k in boards)
        flags = frozenset(a for k in vocab.kinds.values() for a, t in k.attributes.items() if t.tag == "flag")
        results = {name: nouns[d.type.arg] for name, d in vocab.definitions.items()
                   if d.type is not None and d.type.tag == "things" and d.type.arg in nouns}
        plurals = {nouns[k]: (info.plural or k).replace("_", " ") for k, info in vocab.kinds.items()
                   if info.plural}
        event_params = {name: tuple(e.params) for name, e in vocab.events.items()}
        kind_plurals = {info.plural: plurals[nouns[k]] for k, info in vocab.kinds.items() if info.plural}
        plural_words = frozenset(w.rsplit(" ", 1)[-1] for w in plurals.values()) | frozenset(
            nouns[name].rsplit(" ", 1)[-1] + "s" for name in vocab.counter_sets)
        yes_no = {name: (info.text_true, info.text_false)
                  for table in (vocab.counters, vocab.quantities, *(k.counters for k in vocab.kinds.values()))
                  for name, info in table.items() if info.text_true or info.text_false}
        return Wording(labels, list(vocab.era_names), vocab.era_word, nouns, frozenset(vocab.zones), tables,
                       board_items, item_lists, board_nouns, flags, results, plurals, event_params, kind_plurals,
                       plural_words, yes_no, frozenset(vocab.menus))


def _is_word(name: str) -> bool:
    return len(name) >= 3 and name.isalpha() and name.islower()


_NEGATE_AFTER = ("is", "are", "can", "may", "must", "was", "were", "will", "should", "could")


def _negate(phrase: str) -> str | None:
    """A clause in the negative ("you hold X" -> "you do not hold X", "it is Y" -> "it is
    not Y"), or None when the clause is not a subject and a verb this knows."""
    words = phrase.split(" ")
    if len(words) < 2:
        return None
    subject, verb = words[0], words[1]
    if verb in _NEGATE_AFTER:
        return " ".join([subject, "cannot" if verb == "can" else f"{verb} not", *words[2:]])
    if subject == "you" and re.fullmatch(r"[a-z]+", verb):
        return " ".join(["you", "do not", verb, *words[2:]])
    if subject in ("it", "he", "she") and re.fullmatch(r"[a-z]+s", verb):
        base = "have" if verb == "has" else verb[:-2] if verb.endswith("es") and verb[-3] in "sxzh" else verb[:-1]
        return " ".join([subject, "does not", base, *words[2:]])
    return None


def _is_block(stmt: ast.Stmt) -> bool:
    """A statement with statements inside (if, for each, repeat, choose one...)."""
    return isinstance(getattr(stmt, "body", None), tuple) or isinstance(stmt, (ast.If, ast.ChooseOne))


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


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


_A_AN = re.compile(r"\b([Aa]) (?=[aeiouAEIOU])")


def tidy(text: str) -> str:
    """Articles agree with the word after them ("an entertainment industry")."""
    return _A_AN.sub(lambda m: m.group(1) + "n ", text)


def possessive(phrase: str) -> str:
    """`phrase`'s, with the pronouns' own forms (your, its, their)."""
    own = {"you": "your", "it": "its", "they": "their", "You": "Your", "It": "Its", "They": "Their"}
    if phrase in own:
        return own[phrase]
    return f"{phrase}'" if phrase.endswith("s") and not phrase.endswith("ss") else f"{phrase}'s"


def conjugate(template: str, args: Sequence[str]) -> str:
    """Fill a `text:` template, conjugating a verb after an argument that reads "you"
    (`{P} has` -> "you have") and its possessive (`{P}'s` -> "your")."""
    out = template
    for i, arg in enumerate(args):
        slot = "{" + str(i) + "}"
        out = out.replace(slot + "'s", possessive(arg))
        if arg == "you":

            def verb(m: re.Match[str]) -> str:
                word = m.group(1)
                if word in _IRREGULAR:
                    return "you " + _IRREGULAR[word]
                if re.search(r"(ss|sh|ch|x|o)es$", word):
                    return "you " + word[:-2]
                if word.endswith("s") and not word.endswith("ss"):
                    return "you " + word[:-1]
                return "you " + word
            out = re.sub(re.escape(slot) + r" ([a-z]+)", verb, out)
        out = out.replace(slot, arg)
    return out


class _Renderer:
    def __init__(self, wording: Wording) -> None:
        self.w = wording
        self.vars: dict[str, str] = {}  # a bound name -> how it reads ("that industry")
        self.they: set[str] = set()  # bound names of players (a verb after them reads "they gain")
        self.lets: dict[str, ast.Expr] = {}  # `let` names: worded as what they stand for
        self.expanding: set[str] = set()  # `let` names being worded now (a let that names itself)
        self.var_nouns: dict[str, str] = {}  # a bound name -> the noun of what it holds
        self.nouns_bound: dict[str, int] = {}  # how many names read "that NOUN" so far

    # ---------------------------------------------------------------- names

    def ident(self, name: str) -> str:
        label = self.w.labels.get(name)
        return label if label else name.replace("_", " ")

    def noun(self, word: str) -> str:
        if word in self.w.nouns:
            return self.w.nouns[word]
        return _singular(self.ident(word))

    def bind(self, var: str, reads: str, player: bool = False) -> None:
        self.vars[var] = reads
        if player:
            self.they.add(var)

    def name_for(self, var: str, noun: str, single: bool) -> str:
        """How a chosen thing reads later: a designer's word names it ("the taken card");
        a letter does not ("that card", then "the other card" for a second one)."""
        if _is_word(var) and var not in noun:
            return f"the {var} {noun}" if single else f"the {var}"
        if not single:
            return f"the chosen {noun}s" if not noun.endswith("s") else f"the chosen {noun}"
        seen = self.nouns_bound.get(noun, 0)
        self.nouns_bound[noun] = seen + 1
        return f"that {noun}" if seen == 0 else f"the other {noun}" if seen == 1 else f"the {_ordinal(seen + 1)} {noun}"

    def deref(self, e: ast.Expr) -> ast.Expr:
        """What a `let` name stands for (so `let n be count of ...` then `n > 0` reads as existence)."""
        seen = 0
        while isinstance(e, ast.Name) and e.name in self.lets and seen < 20:
            e, seen = self.lets[e.name], seen + 1
        return e

    def era(self, values: tuple[int, ...]) -> str:
        return " / ".join(str(v) for v in values)

    def count(self, e: ast.Expr) -> str:
        return str(e.value) if isinstance(e, ast.Num) else self.expr(e, UNARY)

    # ---------------------------------------------------------------- expressions

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
        inner = subject.collection if isinstance(subject, ast.Where) else subject
        what = self.expr(subject, OR)
        if isinstance(inner, ast.Select):
            word = self.ident(inner.word)
            if what.startswith(word):
                one = self.noun(inner.word)
                return f"there {'is no' if e.op == '=' else 'is at least one'} {one}{what[len(word):]}"
        return f"there {'is none of' if e.op == '=' else 'is at least one of'} {what}"

    def call(self, e: ast.Call) -> str:
        args = [self.expr(a) for a in e.args]
        template = self.w.labels.get(e.name, "")
        if "{0}" in template:
            return conjugate(template, args)
        if e.name == "possible":
            return "you can " + _list([self.ident(a.name) if isinstance(a, ast.Name) else x
                                      for a, x in zip(e.args, args)], "or")
        b = BUILTINS.get(e.name)
        if b is not None:
            return b.words.replace("{all}", _list(args, "and")).format(*args)
        if not args:
            return self.ident(e.name)
        return f"{self.ident(e.name)} ({_list(args, 'and')})"

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
            if e.name in self.w.kind_plurals:  # every piece of a kind: "industries", whatever labels say
                return self.w.kind_plurals[e.name]
            template = self.w.labels.get(e.name, "")
            if template and "{0}" not in template:
                return template
            return self.ident(e.name)
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
            if e.name in self.w.flags:  # a yes/no attribute: "it is mandatory"
                who = "it" if isinstance(e.subject, ast.It) else self.expr(e.subject, POSTFIX)
                return f"{who} is {self.ident(e.name)}"
            return self.possess(self.ident(e.name), e.subject)
        if isinstance(e, ast.Top):
            if e.count is None and isinstance(e.source, ast.Ordered):
                ordered = e.source
                most = "highest" if (e.end == "top") == ordered.descending else "lowest"
                key = self.expr(ordered.key, OR)
                key = key[4:] if key.startswith("its ") else key
                return f"the {self.noun_of(ordered.collection)} with the {most} {key}"
            if e.count is None and (isinstance(e.source, ast.Relative) or isinstance(e.source, ast.Name)
                                    and e.source.name in ("players", "opponents")):
                first = "first" if e.end == "top" else "last"
                who = "player" if not (isinstance(e.source, ast.Name) and e.source.name == "opponents") \
                    else "opponent"
                if isinstance(e.source, ast.Relative):
                    return f"the {first} of {self.expr(e.source)}"
                return f"the {first} {who} in turn order"
            count = "" if e.count is None else f" {self.count(e.count)}"
            return f"the {e.end}{count} of {self.expr(e.source, POSTFIX)}"
        if isinstance(e, ast.Entry):
            listed = e.source
            if isinstance(listed, ast.Of) and listed.name in self.w.tables:  # a table's number for an item
                label = _singular(self.ident(listed.name))
                return f"{self.possess(label, listed.subject)} for {self.expr(e.index, POSTFIX)}"
            if isinstance(e.index, ast.Num):
                return f"the {_ordinal(e.index.value)} of {self.expr(listed, POSTFIX)}"
            return f"entry {self.count(e.index)} of {self.expr(listed, POSTFIX)}"
        if isinstance(e, ast.SpaceOf):
            return f"space {self.count(e.index)} of {self.possess('track', e.track)}"
        if isinstance(e, ast.Aggregate):
            fn = {"total": "the total", "highest": "the highest", "lowest": "the lowest"}[e.fn]
            return f"{fn} {self.ident(e.name)} of {self.expr(e.collection, POSTFIX)}"
        if isinstance(e, ast.Select):
            source = e.source
            if isinstance(source, ast.Of) and isinstance(source.subject, ast.Name) \
                    and source.subject.name in ("players", "opponents"):  # one of several zones
                anyone = "any player's" if source.subject.name == "players" else "an opponent's"
                return f"{self.ident(e.word)} in {anyone} {self.ident(source.name)}"
            where = self.expr(source, POSTFIX)
            if self._holds_items(source) and self.noun(e.word) in self.w.board_nouns:
                # the board items of a list themselves, not tokens on them: "an industry among
                # your character's influenced industries"
                return f"{self.ident(e.word)} among {where}"
            return f"{self.ident(e.word)} {'on' if self._holds_items(source) else 'in'} {where}"
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
                return " / ".join(f"-{v}" for v in e.operand.values)
            return f"-{self.expr(e.operand, UNARY)}"
        if isinstance(e, ast.Arith):
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
            return f"{self.expr(e.left, SUM)} is {self.one_of(e.right, 'or')}"
        if isinstance(e, ast.Compare):
            counted = self.counted(e)
            if counted:
                return counted
            said = self.yes_no(e)
            if said is not None:
                return said
            word = _COMPARE_WORDS[e.op]
            left = self.expr(e.left, SUM)
            if left.rsplit(" ", 1)[-1] in self.w.plural_words:  # "your resources are more than 0"
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
                negated = _negate(self.expr(e.operand))
                if negated is not None:
                    return negated
            return f"not {self.expr(e.operand, NOT)}"
        if isinstance(e, ast.BoolOp):
            level = OR if e.op == "or" else AND
            return f"{self.expr(e.left, level)} {e.op} {self.expr(e.right, level + 1)}"
        if isinstance(e, ast.Where):
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
            return _list([self.expr(x) for x in e.items], "and") if e.items else "nothing"
        if isinstance(e, ast.Modulo):
            return f"the remainder of {self.expr(e.left, PRODUCT)} divided by {self.expr(e.right, UNARY)}"
        if isinstance(e, ast.SameCard):
            return f"{self.expr(e.left, SUM)} is {'not ' if e.negated else ''}the same card as {self.expr(e.right, SUM)}"
        return None

    def one_of(self, e: ast.ListLiteral, conjunction: str) -> str:
        """The members of a list written out, as alternatives: "1, 3 or 5"."""
        return _list([self.expr(x) for x in e.items], conjunction) if e.items else "nothing"

    # ---------------------------------------------------------------- places joined by links

    def links(self, links: tuple[ast.Name, ...]) -> str:
        return f" by {_list([self.ident(n.name) for n in links], 'or')}" if links else ""

    def passing(self, through: ast.Expr | None) -> str:
        return f", passing only through places where {self.expr(through, OR)}" if through is not None else ""

    def places(self, e: ast.Expr) -> str:
        """`neighbours of X by road` -> "the places next to X by road"."""
        if isinstance(e, ast.Neighbours):
            return f"the places next to {self.expr(e.place, POSTFIX)}{self.links(e.links)}"
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

    # ---------------------------------------------------------------- statements

    def body(self, stmts: Sequence[ast.Stmt]) -> str:
        clauses = []
        other = False  # the last clause named another player as its subject ("they lose 1 gem")
        for i, st in enumerate(stmts):
            c = self.clause(st)
            if not c:
                continue
            subject = self.subject(st)
            if subject == "you" and other:  # "they lose 1 gem, then you gain 5 gold", not "then gain"
                c = "you " + c
            if subject is not None:
                other = subject == "other"
            # a block followed by more statements is bracketed: what follows is not inside it
            if i < len(stmts) - 1 and _is_block(st):
                c = f"({c})"
            clauses.append(c)
        return ", then ".join(clauses) if clauses else "nothing happens"

    def subject(self, st: ast.Stmt) -> str | None:
        """Who a statement's clause reads as doing it: "you" (an order to the acting player:
        "gain 5 gold", "move ...", "choose ..."), "other" (it names another player first:
        "they lose 1 gem", "the winner gains ..."), or None (a block, a procedure's own
        words, bookkeeping): a clause after an "other" one names "you" again."""
        if isinstance(st, (ast.Gain, ast.Lose, ast.Pay)):
            return "you" if self.actor(type(st), st.player) == _VERBS[type(st)][0] else "other"
        if _is_block(st) or isinstance(st, (ast.Run, ast.Let, ast.Log, ast.Announce, ast.EndGame)):
            return None
        return "you"

    def modifier(self, m: ast.Modifier) -> str:
        quantity = self.ident(m.quantity.name)
        what = quantity if m.subject is None else self.possess(quantity, m.subject)
        value = m.value
        if m.op == "*" and isinstance(value, ast.Percent):
            text = f"{what} ×{value.value}% (rounded up)"
        elif m.op in ("+", "-") and isinstance(value, (ast.Num, ast.Era)):  # "is 10 less", "is 2 / 4 / 8 more"
            amounts = [value.value] if isinstance(value, ast.Num) else list(value.values)
            if all(x < 0 for x in amounts):  # "- -3" reads "is 3 more"
                amounts, op = [-x for x in amounts], "+" if m.op == "-" else "-"
            else:
                op = m.op
            text = f"{what} is {' / '.join(str(x) for x in amounts)} {'more' if op == '+' else 'less'}"
        elif m.op in ("+", "-"):
            text = f"{what} is {self.expr(value, PRODUCT)} {'more' if m.op == '+' else 'less'}"
        elif m.op == "*" and isinstance(value, (ast.Num, ast.Era, ast.Percent)):
            text = f"{what} ×{self.expr(value)}"
        elif m.op == "*":
            text = f"{what} {m.op.replace('*', '×')} {self.expr(value, PRODUCT)}"
        elif isinstance(value, ast.Bool) and self.w.yes_no.get(m.quantity.name, (None, None))[0 if value.value else 1]:
            template = self.w.yes_no[m.quantity.name][0 if value.value else 1]
            assert template is not None
            whose = m.subject if m.subject is not None else m.scope  # "every player's relationship tokens ..."
            said = self.said(template, whose)
            if m.subject is not None and m.scope is not None:  # "that global action may not be triggered for ..."
                said += f" for {self.expr(m.scope)}"
            return said
        elif isinstance(value, ast.Bool) and m.subject is not None and quantity.split(" ")[0] in ("may", "can"):
            modal, rest = quantity.split(" ", 1)  # "that global action may not be triggered"
            text = f"{self.expr(m.subject, POSTFIX)} {modal}{'' if value.value else ' not'} {rest}"
        elif isinstance(value, ast.Bool):  # a yes/no quantity: "relationship tokens advance: no"
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
        return self.ident(n.name)

    def field(self, name: str, value: Any, spec: str) -> str:
        if isinstance(value, ast.Name):
            return self.expr(value)
        if isinstance(value, ast.Expr):
            return self.count(value) if spec == "count" else self.expr(value)
        return str(value)

    def noun_of(self, coll: ast.Expr, depth: int = 0) -> str:
        """The singular noun a member of a collection reads as ("industry", "card", "player").
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
            return self.noun(coll.word)
        if isinstance(coll, (ast.Where, ast.Ordered)):
            return self.noun_of(coll.collection, depth + 1)
        if isinstance(coll, ast.Relative):
            return "player"
        if isinstance(coll, ast.Within):
            return self.noun(coll.word) if coll.word in self.w.nouns else _singular(self.ident(coll.word))
        if isinstance(coll, (ast.Neighbours, ast.ConnectedGroup)):
            return "place"
        if isinstance(coll, ast.Of):
            return _singular(self.ident(coll.name))
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

    def _holds_items(self, e: ast.Expr) -> bool:
        """Tokens are "on" board items (a track, a holder), "in" zones and lists."""
        if isinstance(e, ast.SpaceOf):
            return True
        if isinstance(e, ast.Name):
            return (e.name in self.w.board_items or self.var_nouns.get(e.name) in self.w.board_nouns
                    or self.w.nouns.get(e.name) in self.w.board_nouns)  # `tokens in characters`
        if isinstance(e, (ast.Where, ast.Ordered)):  # `tokens in (characters where ...)`
            return self._holds_items(e.collection)
        if isinstance(e, ast.ListLiteral):
            return bool(e.items) and all(self._holds_items(x) for x in e.items)
        return isinstance(e, ast.Of) and e.name in self.w.item_lists

    def direction(self, amount: ast.Expr, forward: str) -> tuple[str, str]:
        """A signed number of spaces as (which way, how many): -1 reads "1 space back"."""
        if isinstance(amount, ast.Neg):
            return "back", self.expr(amount.operand)
        if isinstance(amount, ast.Num) and amount.value < 0:
            return "back", str(-amount.value)
        return forward, self.expr(amount)

    def clause(self, s: ast.Stmt) -> str:  # noqa: C901 - one branch per statement kind
        x = self.expr
        if isinstance(s, ast.Let):
            earlier = self.lets.get(s.var)
            self.lets[s.var] = s.value if earlier is None else _substitute(s.value, s.var, earlier)
            return ""
        if isinstance(s, (ast.Log, ast.Announce)):
            return ""
        if isinstance(s, (ast.Gain, ast.Lose, ast.Pay)):
            amount = s.amount
            if isinstance(amount, ast.Cond) and isinstance(amount.no, ast.Num) and amount.no.value == 0:
                return (f"{self.actor(type(s), s.player)} {x(amount.yes, WHERE)} {self.counter(s.counter)} "
                        f"if {x(amount.condition, WHERE)}")
            if isinstance(amount, ast.Cond) and isinstance(amount.yes, ast.Num) and amount.yes.value == 0:
                return (f"{self.actor(type(s), s.player)} {x(amount.no, COND)} {self.counter(s.counter)} "
                        f"unless {x(amount.condition, WHERE)}")
            if isinstance(amount, (ast.Num, ast.Era)) or isinstance(amount, ast.Name) and amount.name not in self.lets:
                return f"{self.actor(type(s), s.player)} {x(s.amount)} {self.counter(s.counter)}"
            what = self.counter(s.counter)
            what = what[3:] if what.startswith("of ") else what
            return f"{self.actor(type(s), s.player)} {what} equal to {x(s.amount)}"
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
            template = self.w.labels.get(s.name.name, "")
            if "{0}" in template or (template and not args):
                return conjugate(template, args)
            return f"{self.ident(s.name.name)}" + (f" ({_list(args, 'and')})" if args else "")
        if isinstance(s, ast.Auction):
            self.bind(s.winner, "the winner", player=True)
            self.bind(s.amount, "the winning bid")
            return (f"hold an auction among {x(s.bidders)} for {self.ident(s.counter.name)}: the highest bidder "
                    f"pays their bid")
        if isinstance(s, ast.ChooseFrom):
            return self.choose(s)
        if isinstance(s, ast.ChooseNumber):
            self.bind(s.var, "that number")
            step = "" if s.step is None else f" in steps of {x(s.step)}"
            where = "" if s.condition is None else f" where {x(s.condition, OR)}"
            return f"choose a number from {x(s.low)} to {x(s.high)}{step}{where}"
        if isinstance(s, ast.PickRandom):
            return self.pick(s)
        if isinstance(s, ast.EndGame):
            return self.end_game(s)
        if isinstance(s, ast.Offer):
            offered = _list([self.ident(a.name) for a in s.actions], "or")  # a menu reads by its label
            return (f"{x(s.players)} may respond in turn with {offered} (each may pass; after a response the others "
                    f"may respond again)")
        if isinstance(s, ast.Perform):
            names = [self.ident(a.name) for a in s.actions]
            if len(s.actions) == 1 and s.actions[0].name in self.w.menus:  # a menu: the actions joining it
                verb = {"any": "perform any of", "up_to_one": "you may perform one of"}.get(s.mode, "perform one of")
                return f"{verb} {names[0]}"
            if s.mode == "any":
                return f"perform any of {_list(names, 'and')}" if len(names) > 1 else f"perform {_list(names, 'and')}"
            if s.mode == "up_to_one":
                return f"perform up to one of {_list(names, 'or')}" if len(names) > 1 else f"you may perform {names[0]}"
            return f"perform one of {_list(names, 'or')}" if len(names) > 1 else f"perform {_list(names, 'or')}"
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
                label, body = self.filled(option.label), self.body(option.body)
                # "• lose 2 fame", not "• lose 2 fame: lose 2 fame"
                options.append(f"• {label}{cond}" + ("" if body.lower() == label.lower() else f": {body}"))
            return "choose one — " + ". ".join(options)
        if isinstance(s, ast.May):
            return f"you may: {self.body(s.body)}"
        if isinstance(s, ast.ForEach):
            return self.for_each(s)
        if isinstance(s, ast.AsPlayer):
            who = x(s.player)
            # inside, "you" is the deciding player: a `let` that stood for the outer player
            # (`let writer be me`) reads as the designer's word ("the writer")
            outer = {n: v for n, v in self.lets.items()
                     if any(isinstance(node, ast.Name) and node.name == "me" for node in ast.walk(v))}
            saved_vars = {n: self.vars.get(n) for n in outer}
            for n in outer:
                del self.lets[n]
                self.vars[n] = f"the {self.ident(n)}"
            try:
                return f"{who} decides: {self.body(s.body)}"
            finally:
                self.lets.update(outer)
                for n, v in saved_vars.items():
                    if v is None:
                        self.vars.pop(n, None)
                    else:
                        self.vars[n] = v
        if isinstance(s, ast.Repeat):
            times = {1: "once", 2: "twice"}.get(s.count.value, f"{s.count.value} times") if isinstance(
                s.count, ast.Num) else f"{x(s.count)} times"
            return f"do this {times}: {self.body(s.body)}"
        if isinstance(s, ast.TakeTurns):
            until = "" if s.until is None else f" until {x(s.until)}"
            return f"take turns{until}: {self.body(s.body)}"
        raise TypeError(f"the renderer cannot word statement {type(s).__name__}")

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
            if isinstance(coll, ast.Name):  # `choose an industry as X`, `choose a resource as R`
                return f"choose {_article(noun)} {noun}"
            one = "one" if of else _article(text)
            if isinstance(coll, ast.Where) and isinstance(coll.collection, ast.Name) \
                    and coll.collection.name not in self.lets and coll.collection.name not in self.vars:
                # `choose one of opponents where ...`: "choose an opponent where ..."
                return f"choose {_article(noun)} {noun} where {self.expr(coll.condition, OR)}"
            if isinstance(coll, ast.Select) or isinstance(coll, ast.Where) and isinstance(coll.collection, ast.Select):
                inner = coll.collection if isinstance(coll, ast.Where) else coll
                assert isinstance(inner, ast.Select)
                first = _singular(self.ident(inner.word))
                text = first + text[len(self.ident(inner.word)):]
                one = _article(text)
            return f"choose {one} {of}{text}"
        return f"choose {self.count(s.count)} {of}{text}"

    def said(self, template: str, subject: ast.Expr | None) -> str:
        """A yes/no counter or quantity in the ruleset's words; `{0}` is whose it is."""
        who = "you" if subject is None else self.expr(subject, POSTFIX)
        if isinstance(subject, ast.Name) and subject.name in ("players", "opponents"):
            who = "every player" if subject.name == "players" else "each of your opponents"
        return conjugate(template, [who])

    def yes_no(self, e: ast.Compare) -> str | None:
        """`my successor_placed = 0`, `its face_up = 1`, `relationships_advance of P = no`:
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

    def filled(self, text: str) -> str:
        """An option's label with its `{EXPR}` parts in words ("raise {X}" -> "raise that industry")."""

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
        if isinstance(coll, ast.Name) and coll.name in self.lets and _is_word(coll.name):
            header = f"for each of the {coll.name}"  # the designer's word: "for each of the rivals"
            noun = _singular(coll.name)
        elif isinstance(coll, ast.Name) and coll.name not in self.vars:
            header = f"for each {noun}"
        elif isinstance(coll, ast.Select):
            on = "on" if self._holds_items(coll.source) else "in"
            header = f"for each {noun} {on} {self.expr(coll.source, POSTFIX)}"
        elif isinstance(coll, ast.Where) and isinstance(coll.collection, (ast.Select, ast.Name)):
            inner = coll.collection
            where = ""
            if isinstance(inner, ast.Select):
                where = f" {'on' if self._holds_items(inner.source) else 'in'} {self.expr(inner.source, POSTFIX)}"
            header = f"for each {noun}{where} where {self.expr(coll.condition, OR)}"
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
        statements = " ".join(s for s in (_sentence(self.clause(st)) for st in p.statements) if s)
        if statements:
            paragraphs.append(statements)
        paragraphs.extend(s for s in (_sentence(self.declaration(d)) for d in p.declarations) if s)
        return tidy("\n".join(paragraphs))


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
    renderer = _Renderer(_wording(labels, era_names))
    for name, t in params:
        tag, arg = getattr(t, "tag", ""), getattr(t, "arg", None)
        if tag == "player":
            renderer.bind(name, "that player", player=True)
        elif tag in ("thing", "def") and arg:
            renderer.bind(name, renderer.name_for(name, renderer.noun(arg), True))
        elif tag == "amount":
            renderer.bind(name, "that number")
    return renderer.program(program)


def render_statement(stmt: ast.Stmt, labels: Mapping[str, str] | Wording | None = None,
                     era_names: Sequence[str] | None = None) -> str:
    """One statement as an English sentence."""
    return tidy(_sentence(_Renderer(_wording(labels, era_names)).clause(stmt)))


def render_expr(expr: ast.Expr, labels: Mapping[str, str] | Wording | None = None,
                era_names: Sequence[str] | None = None) -> str:
    """One expression as an English phrase (no capital, no period)."""
    return tidy(_Renderer(_wording(labels, era_names)).expr(expr))



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
