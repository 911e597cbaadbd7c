"""Collections as English noun phrases (dsl/render/expressions.py words the rest of an
expression): a selection or a kind, whose members they are, and a relative clause for
its `where` ("your relationship tokens on characters whose position is more than 1",
"a station that you hold a share in", "each player who has at least 1 coin"); one
member ("a crate") or all of them ("crates"); "there is at least one ..." / "you have
no ...". A collection this cannot phrase (a name a `let` holds, a list...) is worded
by the expression renderer as before ("X where ...").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .. import ast
from ..english import article, plural, possessive
from .persons import Acting
from ..printer import AND, OR, POSTFIX
from ..vocabulary import GENERIC_NOUNS
from ..wording import Wording


_PLURAL_VERBS = {"is": "are", "has": "have", "was": "were", "does": "do"}


@dataclass(frozen=True)
class Phrase:
    """A collection in words: whose members they are (said before the noun), the noun
    for one member and for several, and what follows it (where they are, a relative
    clause)."""

    one: str  # "relationship token"
    many: str  # "relationship tokens"
    rest: str = ""  # " on characters whose position is more than 1"
    whose_one: str = ""  # "your ", "another player's "
    whose_many: str = ""  # "your ", "other players' "
    rest_one: str | None = None  # what follows one member, when it differs: " on spots or huts"

    @property
    def after_one(self) -> str:
        return self.rest if self.rest_one is None else self.rest_one

    def all(self) -> str:
        """Every member: "your relationship tokens on characters", "crates that are empty"."""
        return f"{self.whose_many}{self.many}{self.plural_rest()}"

    def plural_rest(self) -> str:
        """What follows the noun, said of several: "that are empty", "with a token on them"."""
        rest = re.sub(r"\b(that|who) (is|has|was|does)\b",
                      lambda m: f"{m.group(1)} {_PLURAL_VERBS[m.group(2)]}", self.rest, count=1)
        return re.sub(r"\b(on|in|with|of) it$", r"\1 them", rest)

    def a(self) -> str:
        """One member: "a relationship token on characters", "one of your ...", "another player's ..."."""
        if self.whose_one == "your ":
            return f"one of your {self.many}{self.rest}"
        if self.whose_one:
            return f"{self.whose_one}{self.one}{self.after_one}"
        return f"{article(self.one)} {self.one}{self.after_one}"

    def each(self) -> str:
        """`for each`: "each station that ...", "each of your relationship tokens ..."."""
        if self.whose_one.startswith("another "):  # "each other player's token"
            return f"each other {self.whose_one[len('another '):]}{self.one}{self.after_one}"
        if self.whose_one:
            return f"each of {self.whose_many}{self.many}{self.rest}"
        return f"each {self.one}{self.after_one}"

    def exists(self, none: bool) -> str:
        """`count of C > 0` / `= 0`: "there is at least one ...", "you have no ..."."""
        if self.whose_one == "your ":
            return f"you have {'no' if none else 'at least one'} {self.one}{self.after_one}"
        if self.whose_one.startswith("another "):
            return f"{'no other' if none else 'another'} {self.whose_one[len('another '):-3]} has " \
                   f"{article(self.one)} {self.one}{self.after_one}"
        if self.whose_one:
            return f"{self.whose_one[:-3]} has {'no' if none else 'at least one'} {self.one}{self.after_one}"
        return f"there is {'no' if none else 'at least one'} {self.one}{self.after_one}"


class Collections:
    """The noun phrases of collections, for a renderer with `expr` and the ruleset's words."""

    w: Wording
    vars: dict[str, str]
    lets: dict[str, ast.Expr]
    they: set[str]
    acting: Acting | None = None  # inside `as P:`: "your opponents" are P's (worded "their opponents")

    def expr(self, e: ast.Expr, min_precedence: int = 0) -> str:  # pragma: no cover - the renderer's
        raise NotImplementedError

    def ident(self, name: str) -> str:  # pragma: no cover - the renderer's
        raise NotImplementedError

    def noun(self, word: str) -> str:  # pragma: no cover - the renderer's
        raise NotImplementedError

    def holds_items(self, e: ast.Expr) -> bool:  # pragma: no cover - the renderer's
        raise NotImplementedError

    def deref(self, e: ast.Expr) -> ast.Expr:  # pragma: no cover - the renderer's
        raise NotImplementedError

    def many(self, one: str, written: str = "") -> str:
        """The plural of a noun, as the ruleset gives it ("ponies"), else made."""
        given = self.w.plurals.get(one) or self.w.kind_plurals.get(written)
        return given or plural(one)

    def phrase(self, coll: ast.Expr) -> Phrase | None:
        """`coll` as a Phrase, or None when it is not a selection, a kind or players."""
        if isinstance(coll, ast.Select):
            return self._select(coll)
        if isinstance(coll, ast.Name):
            if coll.name in self.vars or coll.name in self.lets:
                return None
            if coll.name == "players":
                return Phrase("player", "players")
            if coll.name == "opponents":  # whose, inside `as P:`: "each of their opponents"
                return Phrase("opponent", "opponents", whose_one="" if self.acting is None else "your ",
                              whose_many="your ")
            if coll.name in self.w.kind_plurals or coll.name in self.w.nouns:
                one = self.noun(coll.name)
                return Phrase(one, self.many(one, coll.name))
            return None
        if isinstance(coll, ast.Arith) and coll.op == "+":
            left, right = self.phrase(coll.left), self.phrase(coll.right)
            return _joined(left, right) if left is not None and right is not None else None
        if isinstance(coll, ast.Where):
            base = self.phrase(coll.collection)
            return self._where(base, coll.condition) if base is not None else None
        return None

    def _select(self, e: ast.Select) -> Phrase:
        source = self.deref(e.source)
        if e.word in GENERIC_NOUNS and isinstance(source, (ast.Where, ast.Arith, ast.Select)):
            members = self.phrase(source)  # `cards in targets`, targets a `let` of tokens: the tokens
            if members is not None and members.one not in self.w.board_nouns:  # (not tokens on board items)
                return members
        one = self.noun(e.word)
        many = self.many(one, e.word)
        source = e.source
        if isinstance(source, ast.Of) and isinstance(source.subject, ast.Name) \
                and source.subject.name in ("players", "opponents"):  # one of several zones
            anyone = "any player's" if source.subject.name == "players" else "an opponent's"
            return Phrase(one, many, f" in {anyone} {self.ident(source.name)}")
        where = self.expr(source, POSTFIX)
        named = re.match(r"(the |your |[^ ]+'s? )?(.*)$", where)
        if named is not None and named.group(2) == many and not self.holds_items(source):
            # a zone whose label is the pieces' own plural names them, not a place: "a crate",
            # "your crates", never "a crate in the crates"
            whose = "" if named.group(1) in (None, "the ") else named.group(1)
            return Phrase(one, many, "", whose_one=whose, whose_many=whose)
        if self.holds_items(source) and one in self.w.board_nouns:
            return Phrase(one, many, f" among {where}")  # the board items of a list themselves
        return Phrase(one, many, f" {'on' if self.holds_items(source) else 'in'} {where}")

    def _where(self, base: Phrase, condition: ast.Expr) -> Phrase:
        """The members that meet `condition`: whose they are ("your ..."), then a
        relative clause for the rest of the condition."""
        person = base.one in ("player", "opponent")
        kept: list[ast.Expr] = []
        for part in _conjuncts(condition):
            whose = self._whose(part)
            if whose is not None and not base.whose_one and not base.whose_many:
                base = replace(base, whose_one=whose[0], whose_many=whose[1])
            else:
                kept.append(part)
        if not kept:
            return base
        clause = " " + self.such_that(kept, person)
        return replace(base, rest=base.rest + clause,
                       rest_one=None if base.rest_one is None else base.rest_one + clause)

    def _whose(self, part: ast.Expr) -> tuple[str, str] | None:
        """`owner of it is me` -> ("your ", "your "); `... is not me` -> another player's;
        `... is P` -> that player's."""
        if not (isinstance(part, ast.Compare) and part.op in ("=", "!=") and isinstance(part.left, ast.Of)
                and part.left.name == "owner" and isinstance(part.left.subject, ast.It)
                and isinstance(part.right, ast.Name)):
            return None
        name = part.right.name
        if name == "me":
            return ("your ", "your ") if part.op == "=" else ("another player's ", "other players' ")
        if part.op == "=" and name in self.vars:
            whose = possessive(self.vars[name]) + " "
            return whose, whose
        return None

    def such_that(self, parts: list[ast.Expr], person: bool) -> str:
        """Conditions on `it` as a relative clause: "that is empty and that is not
        sealed", "whose position is more than 1", "who has at least 1 coin", "that
        you hold a share in", "with at least one token on it", "other than this card"."""
        that = "who" if person else "that"
        others = [self._other_than(p) for p in parts]
        level = OR if len(parts) == 1 else AND + 1  # one condition is bracketed for nothing
        said = [self.clause_about_it(p, that, level) for p, other in zip(parts, others) if not other]
        for i in range(len(said) - 1, 0, -1):  # "that is empty and that is not sealed": "... and not sealed"
            head = said[i - 1].split(" ")[:2]
            if said[i].split(" ")[:2] == head and head[0] in ("that", "who") and head[1] in _PLURAL_VERBS:
                said[i] = said[i][len(" ".join(head)) + 1:]
        return " ".join([o for o in others if o] + ([" and ".join(said)] if said else []))

    def clause_about_it(self, part: ast.Expr, that: str, level: int = AND + 1) -> str:
        """One condition as a relative clause; either of two: "that you hold a minor
        investment in or a major investment in"."""
        if isinstance(part, ast.BoolOp) and part.op == "or":
            left, right = self.clause_about_it(part.left, that), self.clause_about_it(part.right, that)
            if left.startswith(that + " ") and right.startswith(that + " "):
                l_words, r_words = left.split(" "), right.split(" ")
                same = 0
                while same < min(len(l_words), len(r_words)) - 1 and l_words[same] == r_words[same]:
                    same += 1
                kept = max(1, same - 1) if same > 2 else 1  # "that you hold a minor ... in or a major ... in"
                return f"{left} or {' '.join(r_words[kept:])}"
        return _relative(self.expr(part, AND + 1), that) or "where " + self.expr(part, level)

    def _other_than(self, part: ast.Expr) -> str:
        if isinstance(part, ast.Compare) and part.op == "!=" and isinstance(part.left, ast.It):
            return "other than " + self.expr(part.right, OR)
        return ""


def _conjuncts(e: ast.Expr) -> list[ast.Expr]:
    if isinstance(e, ast.BoolOp) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _relative(text: str, that: str) -> str:
    """A clause about "it" as a relative clause, or "" when it is not one this knows."""
    if text.startswith("its "):
        return "whose " + text[4:]
    m = re.match(r"it (is|has|can|may|was|does) ", text)
    if m:
        return f"{that} {text[3:]}"
    for there, with_ in (("there is at least one ", "with at least one "), ("there is no ", "with no "),
                         ("there is none of ", "with none of ")):
        if text.startswith(there):
            return with_ + text[len(there):]
    if text.endswith(" it") and not re.search(r"\bit\b", text[:-3]) and not text.startswith("it "):
        return f"{that} {text[:-3]}"  # "you hold a share in it" -> "that you hold a share in"
    return ""


def _joined(left: Phrase, right: Phrase) -> Phrase | None:
    """Two collections joined: "red and blue tokens on stations"."""
    if left.whose_many or right.whose_many:
        return None
    if left.rest == right.rest:
        head_l, _, last_l = left.many.rpartition(" ")
        head_r, _, last_r = right.many.rpartition(" ")
        if head_l and head_r and last_l == last_r:
            _, _, one = right.one.rpartition(" ")
            return Phrase(f"{head_l} or {head_r} {one}", f"{head_l} and {head_r} {last_r}", left.rest)
        return Phrase(f"{left.one} or {right.one}", f"{left.many} and {right.many}", left.rest)
    if left.one == right.one and left.rest.split(" ")[:2] == right.rest.split(" ")[:2]:
        # "chips on spots and huts"
        prep = " ".join(left.rest.split(" ")[:2])
        other = right.rest[len(prep):]
        return Phrase(left.one, left.many, f"{left.rest} and{other}", rest_one=f"{left.rest} or{other}")
    return Phrase(f"{left.one}{left.rest} or {right.one}", f"{left.many}{left.rest} and {right.many}", right.rest)
