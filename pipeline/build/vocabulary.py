"""The first phase of building a spec: the Vocabulary of a ruleset and the expansions
laid over it.

A ruleset's `ruleset.yaml` declares its words; each expansion's `expansion.yaml` may add
more (everything a ruleset declares: enums, counters, values, counter sets, zones,
kinds, events, quantities, options, menus, display entries, labels, and attributes or
counters for an existing kind). This module merges them, base first, into one
`Stack` of declarations (the lookups every check reads), reports a name an expansion
reuses without `replaces: true` (R008) and a `replaces: true` with nothing to replace
(R009), then fills the Vocabulary file by file so that every diagnostic points at the
file and key that declared the word.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Iterable

from legacies.dsl.diagnostics import WARNING
from legacies.dsl.types import ANY, FLAG, TYPE_WORDS, T, parse_type
from legacies.dsl.vocabulary import (AttributeRange, CounterInfo, EventInfo, KindInfo, LinkInfo, PaymentInfo,
                                     QuantityInfo, ValueInfo, ZoneInfo)

from ..attribute_ranges import declared_range
from ..load import LoadedFile
from ..models import (AttributeDecl, AttributeExtension, CounterDecl, CounterExtension, DisplayColumns, DisplayRows, DisplayText,
                      ExpansionFile, KindDecl, RulesetFile)

if TYPE_CHECKING:  # pragma: no cover
    from .base import Builder

TABLES = ("counters", "values", "counter_sets", "zones", "kinds", "links", "events", "quantities", "options", "menus")
"""The named declarations that share one namespace (with enums' symbols)."""
SEATS = "seats"  # merged like the tables (an expansion may add seat kinds), named on the command line only

Display = dict[str, list[tuple[str, str, str | None, str | None]]]


@dataclass
class Stack:
    """Every declaration of the ruleset and its expansions, the later replacing the
    earlier where they said so: what a name means, whichever file declared it."""

    enums: dict[str, list[str]] = field(default_factory=dict)
    counters: dict[str, Any] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    counter_sets: dict[str, list[str]] = field(default_factory=dict)
    zones: dict[str, Any] = field(default_factory=dict)
    kinds: dict[str, KindDecl] = field(default_factory=dict)
    links: dict[str, Any] = field(default_factory=dict)
    events: dict[str, Any] = field(default_factory=dict)
    quantities: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    menus: dict[str, Any] = field(default_factory=dict)
    seats: dict[str, Any] = field(default_factory=dict)
    # name -> (table, file, path) of its declaration: who declared each word
    declared: dict[str, tuple[str, LoadedFile, tuple]] = field(default_factory=dict)
    score: str | None = None  # what the ruleset's `score:` names (a counter or a definition)


def vocabulary_files(files: Iterable[LoadedFile]) -> list[LoadedFile]:
    """The files that declare words, in the order they are laid: the ruleset, then each
    expansion's expansion.yaml."""
    out = [f for f in files if f.kind == "ruleset"]
    out += [f for f in files if f.kind == "expansion"]
    return out


def merge(b: "Builder", files: list[LoadedFile]) -> Stack:
    """The declarations of every vocabulary file, base first. A name an expansion reuses
    without `replaces: true` is R008 (the base's declaration stands); `replaces: true`
    that names nothing of what it is laid over, or in the ruleset itself, is R009."""
    m = Stack()
    laid: set[str] = set()  # the items' ids of the layers laid so far (content ids share the names' space)
    for f in files:
        laid |= {str(item.id) for c in b.files if c.kind == "content" and c.layer == f.layer
                 for item in getattr(c.model, "items", ())}
        if isinstance(f.model, RulesetFile):
            m.score = f.model.score
        model = f.model
        expansion = isinstance(model, ExpansionFile)
        for enum, values in model.enums.items():  # type: ignore[attr-defined]
            if enum in m.enums:
                b.at(f, ("enums", enum), "R008", f"enum `{enum}` is already declared in "
                     f"{_where(m.declared.get(enum))}", key=True,
                     hint="an expansion adds enums of its own; name this one differently")
                continue
            m.enums[enum] = list(values)
            m.declared.setdefault(enum, ("enums", f, ("enums", enum)))
        for table in TABLES + (SEATS,):
            mine: dict[str, Any] = getattr(model, table)
            theirs: dict[str, Any] = getattr(m, table)
            for name, decl in mine.items():
                replaces = bool(getattr(decl, "replaces", False))
                path = (table, name)
                key = name if table != SEATS else f"{SEATS}:{name}"  # seat kinds have names of their own
                if replaces and (not expansion or name not in theirs):
                    b.at(f, path + ("replaces",), "R009", f"`{name}` replaces nothing: "
                         + ("the ruleset itself declares it" if not expansion else
                            f"what this expansion is laid over declares no {table[:-1].replace('_', ' ')} `{name}`"),
                         hint="remove `replaces: true`")
                elif name in theirs and not replaces:
                    b.at(f, path, "R008", f"`{name}` is already declared in {_where(m.declared.get(key))}",
                         key=True, hint="an expansion adds names of its own: name this one differently, or write "
                         "`replaces: true` in it to replace the declaration it is laid over")
                    continue
                other = _other_meaning(m, table, name, decl, laid) if expansion and table != SEATS else None
                if other is not None:
                    # left out, so what it is laid over keeps its word (a user's trial: a zone named
                    # like a base counter made every use of the counter in the base an error, 84 of them)
                    b.at(f, path, "R005", f"`{name}` {other}", key=True,
                         hint="one name, one meaning across counters, zones, kinds, content ids and the rest: "
                         f"name this {table[:-1].replace('_', ' ')} differently")
                    continue
                theirs[name] = decl
                m.declared[key] = (table, f, path)
        if expansion:
            for kind, additions in model.extend_kinds.items():  # type: ignore[attr-defined]
                base = m.kinds.get(kind)
                if base is None:
                    b.at(f, ("extend_kinds", kind), "R004", f"unknown kind `{kind}`", key=True,
                         hint=b.suggest(kind, m.kinds))
                    continue
                attributes = dict(base.attributes)
                counters = dict(base.counters)
                values = dict(base.values)
                for table_name, mine_add, theirs_add in (("attributes", additions.attributes, attributes),
                                                         ("counters", additions.counters, counters),
                                                         ("values", additions.values, values)):
                    for name, decl in mine_add.items():
                        if isinstance(decl, (AttributeExtension, CounterExtension)):
                            if name not in theirs_add:  # widened in declare(), once the base's bounds are known
                                b.at(f, ("extend_kinds", kind, table_name, name, "extends"), "R009",
                                     f"`extends: true` widens nothing: a {kind} has no {table_name[:-1]} `{name}`",
                                     hint=b.suggest(name, theirs_add) or f"declare it with its `type:` to add it")
                            continue
                        if name in theirs_add:
                            b.at(f, ("extend_kinds", kind, table_name, name), "R008",
                                 f"a {kind} already has {table_name[:-1]} `{name}`", key=True,
                                 hint="an expansion adds names of its own: name this one differently")
                            continue
                        theirs_add[name] = decl
                m.kinds[kind] = base.model_copy(update={"attributes": attributes, "counters": counters,
                                                        "values": values})
    return m


def _check_bounds(b: "Builder", f: LoadedFile, path: tuple, c: CounterDecl) -> None:
    """R016: a counter's bounds hold a value, and the `start` it gives lies within them (a
    user's trial: `min: 5, max: 2` and `max: 10, start: 50` were "ok", and the game began
    outside the bounds every change is held to). The `start` left out, 0, may lie outside
    them: a counter the setup sets before any use (a shipped ruleset's, from 1)."""
    if c.min is not None and c.max is not None and c.min > c.max:
        b.at(f, path + ("min",), "R016", f"`{path[-1]}`'s `min` {c.min} is above its `max` {c.max}: no value "
             "lies between them",
             hint="swap them, or raise `max`")
    elif "start" in c.model_fields_set and (c.min is not None and c.start < c.min
                                            or c.max is not None and c.start > c.max):
        bounds = (f"{c.min} to {c.max}" if c.min is not None and c.max is not None
                  else f"at least {c.min}" if c.min is not None else f"at most {c.max}")
        b.at(f, path + ("start",), "R016",
             f"`{path[-1]}` starts at {c.start}, outside its bounds ({bounds})",
             hint="give a `start` within them, or widen `min` or `max` (`min: null` for no lower bound)")


def _other_meaning(m: Stack, table: str, name: str, decl: Any, ids: set[str]) -> str | None:
    """What else `name` already means in the stack laid so far, said after it (one of its
    other tables, a symbol of an enum, or the id of an item of `ids`), as check_names and
    C006 would judge it; None when nothing: a player value may share its name with a kind."""
    for other in TABLES:
        if other == table or name not in getattr(m, other):
            continue
        if {table, other} == {"values", "kinds"}:
            value = decl if table == "values" else m.values[name]
            if getattr(value, "scope", None) == "player":
                continue
        return f"already names one of the {other.replace('_', ' ')}{_in_file(m.declared.get(name))}"
    for enum, symbols in m.enums.items():
        if name in symbols:
            return f"already names a symbol of enum `{enum}`{_in_file(m.declared.get(enum))}"
    if name in ids:
        return "is already the id of an item of what this expansion is laid over"
    return None


def _in_file(declared: tuple[str, LoadedFile, tuple] | None) -> str:
    return f", declared in {declared[1].label}" if declared is not None else ""


def _where(declared: tuple[str, LoadedFile, tuple] | None) -> str:
    if declared is None:
        return "what this is laid over"
    table, f, path = declared
    return f"{f.label} ({table.replace('_', ' ')})"


# ---------------------------------------------------------------------- types


def type_of(b: "Builder", f: LoadedFile, path: tuple, text: str, m: Stack, attribute: bool = False) -> T:
    t = parse_type(text)
    known = t is not None and (
        (t.tag not in ("symbol", "symbols") or t.arg in m.enums)
        and (t.tag not in ("counter", "counters") or t.arg in m.counter_sets)
        and (t.tag not in ("thing", "things", "table") or t.arg is None or t.arg in m.kinds))
    if not known or t is None:
        arg = text.partition(":")[2]
        hint = b.suggest(arg, list(m.enums) + list(m.kinds) + list(m.counter_sets)) if arg else None
        b.at(f, path, "R003", f"unknown type `{text}`", hint=hint or "types: " + ", ".join(TYPE_WORDS))
        return ANY
    if attribute and t.tag in ("thing", "things") and t.arg and m.kinds[t.arg].piece == "card":
        # an attribute names cards by their definitions (each may have copies)
        return T("def" if t.tag == "thing" else "defs", t.arg)
    return t


# ---------------------------------------------------------------------- the vocabulary


def declare(b: "Builder", f: LoadedFile, m: Stack) -> None:
    """Fill the builder's Vocabulary with what file `f` declares (a ruleset or an
    expansion), checking its references against the whole stack `m`."""
    v = b.vocab
    r = f.model
    own = {name for name, (_, where, _) in m.declared.items() if where is f}
    seen_symbols: dict[str, str] = {s: e for e, values in v.enums.items() for s in values}
    for enum, values in r.enums.items():  # type: ignore[attr-defined]
        if enum not in own:
            continue
        for i, value in enumerate(values):
            if value in seen_symbols:
                b.at(f, ("enums", enum, i), "R002", f"symbol `{value}` is already in enum `{seen_symbols[value]}`",
                     hint="symbols are names: each may belong to one enum")
            seen_symbols[value] = enum
        v.enums[enum] = tuple(values)
    for name, c in r.counters.items():  # type: ignore[attr-defined]
        if name in own:
            _check_bounds(b, f, ("counters", name), c)
            v.counters[name] = CounterInfo(c.scope, c.label, c.min, c.max, c.start, c.text_true, c.text_false)
    for name, members in r.counter_sets.items():  # type: ignore[attr-defined]
        if name not in own:
            continue
        for i, member in enumerate(members):
            if member not in m.counters or m.counters[member].scope != "player":
                b.at(f, ("counter_sets", name, i), "R001", f"`{member}` is not a player counter",
                     hint=b.suggest(member, [k for k, c in m.counters.items() if c.scope == "player"]))
        v.counter_sets[name] = tuple(members)
    for name, z in r.zones.items():  # type: ignore[attr-defined]
        if name not in own:
            continue
        v.zones[name] = ZoneInfo(z.scope, z.label, z.visibility, z.discard_to, z.refill_from, z.in_play)
        for key in ("discard_to", "refill_from"):
            target = getattr(z, key)
            if target is not None and target not in m.zones:
                b.at(f, ("zones", name, key), "R001", f"unknown zone `{target}`", hint=b.suggest(target, m.zones))
    for name, e in r.events.items():  # type: ignore[attr-defined]
        if name in own:
            params = {p: type_of(b, f, ("events", name, "params", p), text, m) for p, text in e.params.items()}
            v.events[name] = EventInfo(params, e.label)
    for name, q in r.quantities.items():  # type: ignore[attr-defined]
        if name not in own:
            continue
        v.quantities[name] = QuantityInfo(FLAG if q.type == "flag" else T("amount"), q.default, q.per, q.subject,
                                          q.label, q.text_true, q.text_false)
        if q.subject is not None and q.subject not in m.kinds:
            b.at(f, ("quantities", name, "subject"), "R004", f"unknown kind `{q.subject}`",
                 hint=b.suggest(q.subject, m.kinds))
    for name, o in r.options.items():  # type: ignore[attr-defined]
        if name in own:
            v.options[name] = FLAG if o.type == "flag" else T("amount")
    for name, menu in r.menus.items():  # type: ignore[attr-defined]
        if name in own:
            v.menus.setdefault(name, ())
            if menu.label:
                v.labels[name] = menu.label
    for name, k in r.kinds.items():  # type: ignore[attr-defined]
        if name in own:
            _declare_kind(b, f, name, k, m)
    if isinstance(r, ExpansionFile):
        for name, additions in r.extend_kinds.items():
            info = v.kinds.get(name)
            if info is None:
                continue
            for a, decl in additions.attributes.items():
                if isinstance(decl, AttributeExtension):
                    if a in info.attributes:
                        _widen_range(b, f, ("extend_kinds", name, "attributes", a), decl, info, a)
                    continue
                if a in info.attributes:
                    continue
                text = decl.type if isinstance(decl, AttributeDecl) else decl
                info.attributes[a] = type_of(b, f, ("extend_kinds", name, "attributes", a), text, m, attribute=True)
                if isinstance(decl, AttributeDecl) and decl.default is not None:
                    info.defaults[a] = decl.default
                if isinstance(decl, AttributeDecl) and decl.label:
                    b.attribute_labels[(name, a)] = decl.label
                _declare_range(b, f, ("extend_kinds", name, "attributes", a), decl, info.attributes[a], info.ranges, a)
                eras: set[str] = set(info.by_era)
                _declare_words(b, f, ("extend_kinds", name, "attributes", a), decl, info.attributes[a],
                               info.attribute_labels, eras, a)
                info.by_era = frozenset(eras)
            for c, cd in additions.counters.items():
                if isinstance(cd, CounterExtension):
                    if c in info.counters:
                        _widen_counter(b, f, ("extend_kinds", name, "counters", c), cd, info, c)
                    continue
                if c not in info.counters:
                    _check_bounds(b, f, ("extend_kinds", name, "counters", c), cd)
                    info.counters[c] = CounterInfo("item", cd.label, cd.min, cd.max, cd.start, cd.text_true,
                                                   cd.text_false)
            _declare_slots(b, f, name, additions.values, ("extend_kinds", name, "values"), m)
    for name, val in r.values.items():  # type: ignore[attr-defined]
        if name in own:
            v.values[name] = ValueInfo(val.scope, type_of(b, f, ("values", name, "type"), val.type, m), val.label)
    _declare_links(b, f, own, m)
    v.labels.update(r.labels)  # type: ignore[attr-defined]
    _check_win_rates(b, f, m)
    part = check_display(b, f, m)
    for key in ("table", "players"):
        b.display[key].extend(part[key])
    _check_display_kinds(b, f, m)


def _declare_range(b: "Builder", f: LoadedFile, path: tuple, decl: Any, t: T,
                   ranges: dict[str, AttributeRange], attribute: str) -> None:
    """An attribute's `min`/`max`/`values` (pipeline/attribute_ranges.py), R011 when they do not fit its type."""
    found = declared_range(decl, t, lambda key, message, hint: b.at(f, path + (key,), "R012", message, hint=hint))
    if found is not None:
        ranges[attribute] = found


def _widen_range(b: "Builder", f: LoadedFile, path: tuple, decl: AttributeExtension, info: KindInfo,
                 attribute: str) -> None:
    """An expansion's `extends: true` on an attribute: its range widened, never narrowed (R012)."""
    was = info.ranges.get(attribute)
    if was is None:
        b.at(f, path + ("extends",), "R012", f"`{attribute}` declares no `min`, `max` or `values`: it takes any "
             "value already, so there is nothing to widen", hint="remove this entry")
        return
    lo, hi, values = was.lo, was.hi, was.values
    for key, new, old, wider in (("min", decl.min, was.lo, lambda n, o: o is not None and n <= o),
                                 ("max", decl.max, was.hi, lambda n, o: o is not None and n >= o)):
        if new is None:
            continue
        if not wider(new, old):
            b.at(f, path + (key,), "R012", f"`{key}: {new}` does not widen `{attribute}`" + (
                 f" (its {key} is {old})" if old is not None else f" (it has no {key})"),
                 hint="an expansion widens a range; the base's items keep theirs")
            continue
        lo, hi = (new, hi) if key == "min" else (lo, new)
    if decl.values is not None:
        if values is None:
            b.at(f, path + ("values",), "R012", f"`{attribute}` lists no `values` to add to", hint="remove `values`")
        else:
            values = values + tuple(x for x in decl.values if x not in values)
    info.ranges[attribute] = AttributeRange(lo, hi, values)


def _widen_counter(b: "Builder", f: LoadedFile, path: tuple, decl: CounterExtension, info: KindInfo,
                   counter: str) -> None:
    """An expansion's `extends: true` on a kind's counter: its bounds widened, never narrowed (R012)."""
    was = info.counters[counter]
    lo, hi = was.min, was.max
    if decl.min is not None:
        if was.min is None or decl.min > was.min:
            b.at(f, path + ("min",), "R012", f"`min: {decl.min}` does not widen `{counter}`"
                 + (f" (its min is {was.min})" if was.min is not None else " (it has no min)"),
                 hint="an expansion widens a counter's bounds; the base's stand")
        else:
            lo = decl.min
    if decl.max is not None:
        if was.max is None or decl.max < was.max:
            b.at(f, path + ("max",), "R012", f"`max: {decl.max}` does not widen `{counter}`"
                 + (f" (its max is {was.max})" if was.max is not None else " (it has no max)"),
                 hint="an expansion widens a counter's bounds; the base's stand")
        else:
            hi = decl.max
    info.counters[counter] = replace(was, min=lo, max=hi)


def _declare_words(b: "Builder", f: LoadedFile, path: tuple, decl: Any, t: T, labels: dict[str, str],
                   by_era: set[str], attribute: str) -> None:
    """What card text calls an attribute (its `label`), and whether it lists one entry per
    era (`by_era`: a list only, R012 otherwise)."""
    if not isinstance(decl, AttributeDecl):
        return
    if decl.label:
        labels[attribute] = decl.label
    if decl.by_era:
        if t.tag not in ("effects", "numbers"):
            b.at(f, path + ("by_era",), "R012", f"`by_era` is for a list of effects or numbers, not {t}",
                 hint="remove `by_era`, or make the attribute `effects` or `numbers`")
        else:
            by_era.add(attribute)


def _declare_kind(b: "Builder", f: LoadedFile, name: str, k: KindDecl, m: Stack) -> None:
    v = b.vocab
    attrs: dict[str, T] = {}
    defaults: dict[str, Any] = {}
    ranges: dict[str, AttributeRange] = {}
    labels: dict[str, str] = {}
    by_era: set[str] = set()
    for a, decl in k.attributes.items():
        text = decl.type if isinstance(decl, AttributeDecl) else decl
        attrs[a] = type_of(b, f, ("kinds", name, "attributes", a), text, m, attribute=True)
        if isinstance(decl, AttributeDecl) and decl.default is not None:
            defaults[a] = decl.default
        if isinstance(decl, AttributeDecl) and decl.label:
            b.attribute_labels[(name, a)] = decl.label
        _declare_range(b, f, ("kinds", name, "attributes", a), decl, attrs[a], ranges, a)
        _declare_words(b, f, ("kinds", name, "attributes", a), decl, attrs[a], labels, by_era, a)
    for c, cd in k.counters.items():
        _check_bounds(b, f, ("kinds", name, "counters", c), cd)
    counters = {c: CounterInfo("item", cd.label, cd.min, cd.max, cd.start, cd.text_true, cd.text_false)
                for c, cd in k.counters.items()}
    v.kinds[name] = KindInfo(k.piece, k.label, k.plural, attrs, counters, {}, tuple(k.links),
                             k.track.spaces if k.track else None, k.track.bump if k.track else True, k.holder,
                             k.capacity, k.supply, k.supply_zone, k.starts_in, defaults, ranges, labels,
                             frozenset(by_era))
    _declare_slots(b, f, name, k.values, ("kinds", name, "values"), m)
    _check_piece_kind(b, f, name, k, m)
    for key, scope in (("starts_in", "game"), ("supply_zone", "player")):
        target = getattr(k, key)
        if target is not None and target not in m.zones:
            b.at(f, ("kinds", name, key), "R001", f"unknown zone `{target}`", hint=b.suggest(target, m.zones))
        elif target is not None and m.zones[target].scope != scope:
            b.at(f, ("kinds", name, key), "R001", f"`{key}` needs a {scope} zone; `{target}` is a "
                 f"{m.zones[target].scope} zone")


def _declare_slots(b: "Builder", f: LoadedFile, kind: str, slots: dict[str, Any], path: tuple, m: Stack) -> None:
    """A kind's own value slots (each piece its own): a player, an item, a symbol, a flag."""
    info = b.vocab.kinds[kind]
    for slot, decl in slots.items():
        text, label = (decl, None) if isinstance(decl, str) else (decl.type, decl.label)
        where = path + (slot,) + (() if isinstance(decl, str) else ("type",))
        if slot in info.attributes or slot in info.counters:
            b.at(f, path + (slot,), "R005", f"`{slot}` is already an attribute or a counter of {kind}", key=True,
                 hint="a piece's attributes, counters and values share one set of names")
        info.values[slot] = ValueInfo("item", type_of(b, f, where, text, m), label)


def _check_piece_kind(b: "Builder", f: LoadedFile, name: str, k: KindDecl, m: Stack) -> None:
    """What a kind of piece cannot have (R011): a token holds nothing and has no counters,
    values, track or links; only a board kind's items are places (they never move); a
    capacity needs a holder. Each link kind it names is declared (R001)."""
    cannot = [key for key, given in (("counters", k.counters), ("values", k.values), ("holder", k.holder),
                                     ("track", k.track), ("links", k.links)) if given]
    if k.piece == "token" and cannot:
        b.at(f, ("kinds", name, cannot[0]), "R011", f"a token kind cannot have `{cannot[0]}`: tokens hold nothing "
             "and carry no state of their own", key=True,
             hint="make it a card kind (`piece: card`) if each piece needs its own state")
    elif k.links and k.piece != "board":
        b.at(f, ("kinds", name, "links"), "R011", "only a board kind's items can be places joined by links (a card "
             "moves and may have copies)", key=True, hint="make it `piece: board`")
    if k.capacity is not None and not k.holder:
        b.at(f, ("kinds", name, "capacity"), "R011", f"`capacity` limits what a holder holds; {name} is no holder",
             key=True, hint="add `holder: true`, or remove `capacity`")
    for i, link in enumerate(k.links):
        if link not in m.links:
            b.at(f, ("kinds", name, "links", i), "R001", f"unknown link kind `{link}`",
                 hint=b.suggest(link, m.links) or "declare it under `links:` in ruleset.yaml")


def _declare_links(b: "Builder", f: LoadedFile, own: set[str], m: Stack) -> None:
    """The link kinds a file declares, each with the kinds whose items it joins (W307 for
    one no kind uses)."""
    for name, link in f.model.links.items():  # type: ignore[attr-defined]
        if name not in own:
            continue
        kinds = tuple(k for k, kd in m.kinds.items() if name in kd.links)
        b.vocab.links[name] = LinkInfo(link.symmetric, link.label, None, kinds)
        if not kinds:
            b.at(f, ("links", name), "W307", f"no kind uses the link kind `{name}`", key=True, severity=WARNING,
                 hint="add it to a board kind's `links:`, or remove it")


def _check_win_rates(b: "Builder", f: LoadedFile, m: Stack) -> None:
    for i, name in enumerate(f.model.win_rates_by):  # type: ignore[attr-defined]
        if name not in m.values or m.values[name].scope != "player":
            b.at(f, ("win_rates_by", i), "R001", f"`win_rates_by` must name player values, not `{name}`",
                 hint=b.suggest(name, [n for n, d in m.values.items() if d.scope == "player"]))


def declare_ruleset(b: "Builder", f: LoadedFile, m: Stack) -> None:
    """What only the ruleset file says: eras, the hand, the score, payment..."""
    v = b.vocab
    r: RulesetFile = f.model  # type: ignore[assignment]
    v.eras = len(r.eras)
    v.era_names = list(r.eras)
    v.era_word = r.era_word or "era"
    v.hand = r.hand
    v.bid_steps = tuple(r.bid_steps)
    if r.hand is not None and (r.hand not in m.zones or m.zones[r.hand].scope != "player"):
        b.at(f, ("hand",), "R001", f"`hand` must name a player zone, not `{r.hand}`", hint=b.suggest(r.hand, m.zones))
    if r.automated is not None and (r.automated not in m.counters or m.counters[r.automated].scope != "player"):
        b.at(f, ("automated",), "R001", f"`automated` must name a player counter, not `{r.automated}`",
             hint=b.suggest(r.automated, m.counters))
    if r.era_counter is not None and (r.era_counter not in m.counters or m.counters[r.era_counter].scope != "game"):
        b.at(f, ("era_counter",), "R001", f"`era_counter` must name a game counter, not `{r.era_counter}`")
    if r.payment is not None:
        v.payment = PaymentInfo(r.payment.cost, r.payment.symbol, r.payment.wild, r.payment.max_wild)


def check_names(b: "Builder", m: Stack) -> None:
    """R005: one name, one meaning, across the tables and the enums' symbols of the whole
    stack (a player value may share its name with a kind: `my character` beside
    `character`)."""
    taken: dict[str, str] = {}
    for table in TABLES:
        for name in getattr(m, table):
            if table == "values" and name in m.kinds and m.values[name].scope == "player":
                continue
            if name in taken and taken[name] != table:
                _, f, path = m.declared[name]
                b.at(f, path, "R005", f"`{name}` already names one of the {taken[name]}", key=True)
            taken.setdefault(name, table)
    symbols = {s: (e, m.declared.get(e)) for e, values in m.enums.items() for s in values}
    for name, (enum, declared) in symbols.items():
        if name in taken and declared is not None:
            b.at(declared[1], ("enums",), "R005", f"symbol `{name}` already names one of the {taken[name]}")


# ---------------------------------------------------------------------- display


def check_display(b: "Builder", f: LoadedFile, m: Stack) -> Display:
    """`display:` of one file checked: each entry names something of the right scope.
    Returns {"table"|"players": [(what, name, label, when)]}, `what` one of counter,
    item_counter, zone, value, counter_set, tokens_on; `when` a player counter or None."""
    item_counters = {c: k for k, kd in m.kinds.items() for c in kd.counters}
    out: Display = {"table": [], "players": []}
    display = f.model.display  # type: ignore[attr-defined]
    if display is None:
        return out
    for part, entries in (("table", display.table), ("players", display.players)):
        scope = "game" if part == "table" else "player"
        for i, entry in enumerate(entries):
            if isinstance(entry, (DisplayText, DisplayColumns, DisplayRows)):  # computed by the rules: checked with them
                computed = "text" if isinstance(entry, DisplayText) else "rows" if isinstance(entry, DisplayRows) \
                    else "columns"
                out[part].append((computed, str(len(b.display_parts)), getattr(entry, "label", None),
                                  getattr(entry, "when", None)))
                b.display_parts.append((f, ("display", part, i), entry))
                continue
            name, label = (entry, None) if isinstance(entry, str) else (entry.show, entry.label)
            when = None if isinstance(entry, str) else entry.when
            if when is not None and not (when in m.counters and m.counters[when].scope == "player"
                                         and part == "players"):
                b.at(f, ("display", part, i, "when"), "R001", f"`when` names a player counter, for an entry "
                     f"of `display: players`; `{when}` is not one",
                     hint=b.suggest(when, [n for n, c in m.counters.items() if c.scope == "player"]))
                continue
            what = _display_what(m, part, scope, name, item_counters)
            if what is None:
                names = ([n for n, c in m.counters.items() if c.scope == scope]
                         + [n for n, z in m.zones.items() if z.scope == scope]
                         + [n for n, v in m.values.items() if v.scope == scope]
                         + (list(item_counters) + [k for k, kd in m.kinds.items() if kd.track or kd.holder]
                            if part == "table" else list(m.counter_sets)))
                extra = (", counters of board items and kinds holding tokens" if part == "table"
                         else " and counter sets")
                b.at(f, ("display", part, i), "R001", f"`display: {part}` shows {scope} counters, zones and "
                     f"values{extra}; `{name}` is not one", hint=b.suggest(name, names))
                continue
            out[part].append((what, name, label, when))
    return out


def _check_display_kinds(b: "Builder", f: LoadedFile, m: Stack) -> None:
    """`display: kinds:` (lines a piece of a kind shows in full), `display: unlogged:`
    (counters and values the log leaves out) and `display: unprinted:` (attributes a card
    never shows) name kinds, counters, values and attributes of the ruleset; each line is
    checked with the rules (pipeline/build/display.py), `this` the piece."""
    display = f.model.display  # type: ignore[attr-defined]
    if display is None:
        return
    for kind, lines in display.kinds.items():
        if kind not in m.kinds:
            b.at(f, ("display", "kinds", kind), "R001", f"`display: kinds:` names kinds; `{kind}` is none",
                 hint=b.suggest(kind, list(m.kinds)))
            continue
        for i, line in enumerate(lines):
            b.display_kinds.setdefault(kind, []).append(len(b.display_parts))
            b.display_parts.append((f, ("display", "kinds", kind, i), DisplayText.model_validate({"text": line})))
    counted = set(m.counters) | set(m.values) | {c for kd in m.kinds.values() for c in (*kd.counters, *kd.values)}
    for i, name in enumerate(display.unlogged):
        if name not in counted:
            b.at(f, ("display", "unlogged", i), "R001", f"`display: unlogged:` names counters and values; `{name}` "
                 "is none", hint=b.suggest(name, counted))
        elif name not in b.unlogged:
            b.unlogged.append(name)
    attributes = {a for kd in m.kinds.values() for a in kd.attributes}
    for i, name in enumerate(display.unprinted):
        if name not in attributes:
            b.at(f, ("display", "unprinted", i), "R001", f"`display: unprinted:` names attributes of the kinds; "
                 f"`{name}` is none", hint=b.suggest(name, attributes))
        elif name not in b.unprinted:
            b.unprinted.append(name)


def _display_what(m: Stack, part: str, scope: str, name: str, item_counters: dict[str, str]) -> str | None:
    if name in m.counters and m.counters[name].scope == scope:
        return "counter"
    if name in m.zones and m.zones[name].scope == scope:
        return "zone"
    if name in m.values and m.values[name].scope == scope:
        return "value"
    if part == "table" and name in item_counters:
        return "item_counter"
    if part == "table" and name in m.kinds and (m.kinds[name].track or m.kinds[name].holder):
        return "tokens_on"  # a kind with a track or holding tokens: whose tokens are on each
    if part == "players" and name in m.counter_sets:
        return "counter_set"
    if part == "players" and name == m.score:  # a score that is a definition (checked with them)
        return "score"
    return None
