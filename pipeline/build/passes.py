"""Loaded files -> a checked GameSpec: the parse and check passes of the pipeline.

Checks what each expansion file replaces (X-codes), builds the Vocabulary of the
ruleset and its expansions (pipeline/build/vocabulary.py), checks every reference the
data makes (zones, kinds, enums, content ids, attributes), parses every effect,
condition and value with the effect language, runs the static checker over each
(definitions and procedures in the order they depend on each other, so a use never
comes before what it uses is known) and the ruleset-wide analyses (trigger cycles,
filters that can never match), and places every Diagnostic in its YAML file
(file:line:column). Nothing is compiled or run here; a spec with no errors is ready
for interpreter.Game, each program with the Origin an error at run time will name.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from legacies.dsl import ast
from legacies.dsl.analysis import analyse
from legacies.dsl.checker import Context
from legacies.dsl.diagnostics import Diagnostic, has_errors
from legacies.dsl.types import T
from legacies.dsl.vocabulary import Vocabulary
from legacies.interpreter.spec import GameSpec, Limits, PieceDef

from .base import Builder, Path, announced_by
from .hooks import find_hooks, unknown_restricted
from .content import check_attributes, check_content, content_columns, never_played
from .display import card_attributes, check_display_parts
from .layers import check_layers, collect_items, collect_rules, join_menus
from .map import check_map
from .play_cycles import check_play_cycles
from .rules import (budget_warnings, check_actions, check_definitions, check_evaluation,
                          check_link_conditions, check_procedures, check_rule_triggers)
from .table import check_seats, option_names
from .vocabulary import Stack, check_names, declare, declare_ruleset, merge
from ..load import LoadedFile
from ..models import RulesetFile
from ..names import name_problems, ruleset_names
from ..score_labels import check_score, check_score_labels


@dataclass
class BuildResult:
    spec: GameSpec | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    vocab: Vocabulary | None = None
    items: dict[str, tuple[LoadedFile, Path, Any]] = field(default_factory=dict)  # id -> (file, path, item)
    stack: Stack | None = None  # every declaration of the ruleset and its expansions


def build_spec(files: list[LoadedFile]) -> BuildResult:
    """Every problem of every file as Diagnostics; a GameSpec when there are none. The
    passes, in order: the layers (what each expansion file replaces), the vocabulary,
    content ids, rules' names, attributes, definitions, procedures, actions and the
    flow, content effects, the ruleset-wide analyses, the spec."""
    b = Builder(files)
    rulesets = [f for f in files if f.kind == "ruleset"]
    if len(rulesets) != 1:
        label = files[0].label if files else "<ruleset>"
        b.diags.append(Diagnostic("F003", f"a ruleset needs exactly one ruleset.yaml, found {len(rulesets)}",
                                  file=label))
        return BuildResult(None, b.diags)
    rf = rulesets[0]
    r: RulesetFile = rf.model  # type: ignore[assignment]
    expansions = [f for f in files if f.kind == "expansion"]
    check_layers(b, files, r, expansions)
    layers = [rf] + expansions
    b.stack = merge(b, layers)
    declare_ruleset(b, rf, b.stack)
    for f in layers:
        declare(b, f, b.stack)
    check_names(b, b.stack)
    v = b.vocab

    items = b.items = collect_items(b, [f for f in files if f.kind == "content"], r, expansions)
    rules = collect_rules(b, [f for f in files if f.kind == "procedures"])
    join_menus(b, rules)
    find_hooks(b, rules)
    unknown_restricted(b, rules)
    procedures = [f for f in files if f.kind == "procedures"]
    names = ruleset_names(rf, r, procedures, items)
    for x in expansions:  # the words each expansion adds
        names += ruleset_names(x, x.model, [], {})
    for named in name_problems(names):  # C010-C013
        file, place, at_key = named.at
        b.at(file, place, named.code, named.message, hint=named.hint, key=at_key)
    v.freeze_names()
    check_attributes(b, items, rf)
    def_specs, parsed_defs = check_definitions(b, rules, r.limits.step_budget)
    proc_specs, parsed_procs = check_procedures(b, rules)
    link_conditions = check_link_conditions(b)
    action_specs, announcers = check_actions(b, rules)
    for key in ("setup", "game"):
        entry = getattr(rules, key)
        if entry is None:
            continue
        checker = b.check_program(entry[0], (key,), entry[1], Context(allow_flow=True))
        if entry[1] is not None:
            announcers.append(("setup" if key == "setup" else "the game procedure", frozenset(checker.announced),
                               entry[1], entry[0], (key,)))
    if rules.game is None:
        b.diags.append(Diagnostic("F004", "no procedures file defines `game:` (the game's flow)", file=rf.label))
    rule_triggers = check_rule_triggers(b, rules)

    tie_breaks = []
    for i, text in enumerate(r.tie_breaks):
        e = b.expression(rf, ("tie_breaks", i), text)
        if e is not None:
            b.check_expr(rf, ("tie_breaks", i), e, Context(), T("amount"))
            tie_breaks.append(e)
    evaluation = check_evaluation(b, rf, expansions)
    display_parts, shown_on_cards = check_display_parts(b), card_attributes(b, layers)
    drawn_map = check_map(b, layers)

    # content: effects, conditions, effect attributes -----------------------------------
    sources: list[tuple[ast.Node, LoadedFile, Path, bool]] = [(node, f, path, False) for _, _, node, f, path in announcers]
    defs, triggers = check_content(b, items, sources)
    check_play_cycles(b, defs)
    never_played(b, defs)
    for name, (f, decl, program) in rule_triggers.items():
        path = ("triggers", name)
        triggers.append((f"trigger `{name}`", decl, announced_by(decl.body, v), f, path))
        sources.append((program, f, path, False))
    for kname, kinfo in v.kinds.items():  # a token kind with no content item gets a plain definition
        if kinfo.piece == "token" and not any(d.kind == kname for d in defs):
            defs.append(PieceDef(kname, kname, v.label(kname)))

    # ruleset-wide analyses -------------------------------------------------------------
    for name, program in parsed_procs.items():
        sources.append((program, rules.procedures[name][0], ("procedures", name, "do"), False))
    for name, act_spec in action_specs.items():  # one-expression fields: their filters too
        for key, e in (("choose", act_spec.choose), ("if", act_spec.condition)):
            if e is not None:
                sources.append((e, rules.actions[name][0], ("actions", name, key), True))
    for name, e in rules.restricting.items():
        sources.append((e, rules.restrictions[name][0], ("restrictions", name, "if"), True))
    for name, expr in parsed_defs.items():
        sources.append((expr, rules.definitions[name][0], ("definitions", name, "value"), True))
    for piece in defs:
        if piece.requires is not None and piece.id in items:
            sources.append((piece.requires, items[piece.id][0], items[piece.id][1] + ("requires",), True))
    for where_file, where_path, finding, expression in analyse(v, b.res, triggers, sources):
        b.place(where_file, where_path, [finding], expression=expression)
    for node, where_file, where_path, expression in sources:
        if not expression:
            b.place(where_file, where_path, budget_warnings(node, r.limits.step_budget, bool(where_file.layer)))

    rule_programs: dict[str, ast.Program | None] = {
        **parsed_procs, **{n: a.body for n, a in action_specs.items()},
        **{n: program for n, (_, _, program) in rule_triggers.items()},
        "setup": rules.setup[1] if rules.setup else None, "game": rules.game[1] if rules.game else None}
    score_labels: dict[str, str | dict[str, str]] = {}
    for f in layers:
        display = f.model.display  # type: ignore[attr-defined]
        score_labels.update(check_score_labels(display.scoring if display is not None else {}, b.stack.kinds,
                                               rule_programs, partial(b.at, f), b.suggest))

    score_definition = check_score(r, v, partial(b.at, rf), b.suggest)  # after the definitions are typed
    seats, named_options = check_seats(b, rf), option_names(b)

    result = BuildResult(None, b.diags, v, items, b.stack)
    if has_errors(b.diags):
        return result
    result.spec = GameSpec(
        name=r.ruleset, title=r.title, vocab=v, min_players=r.players.min, max_players=r.players.max, defs=defs,
        res=b.res, actions=action_specs, definitions=def_specs, procedures=proc_specs,
        setup=rules.setup[1] if rules.setup else None, game=rules.game[1] if rules.game else None,
        setup_origin=b.origin(rules.setup[0], ("setup",), "setup") if rules.setup else None,
        game_origin=b.origin(rules.game[0], ("game",), "the game procedure") if rules.game else None,
        score_counter=r.score, score_definition=score_definition, tie_breaks=tie_breaks, automated=r.automated,
        starting_choices=[n for f in layers for n in f.model.win_rates_by],  # type: ignore[attr-defined]
        evaluation=evaluation, greedy_lookahead=r.greedy_lookahead, display=b.display, score_labels=score_labels,
        limits=Limits(r.limits.max_turns, r.limits.step_budget, r.limits.max_repeats), eras=list(r.eras),
        era_counter=r.era_counter, option_defaults={k: o.default for k, o in b.stack.options.items()},
        option_rules={k: (o.type, o.min, o.max) for k, o in b.stack.options.items()},
        content_hash=content_hash(files),
        rule_triggers=[(name, decl, b.origin(f, ("triggers", name), f"trigger `{name}`"))
                       for name, (f, decl, _) in rule_triggers.items()],
        expansions=[(f.model.expansion, _layer_hash(files, f.layer)) for f in expansions],  # type: ignore[attr-defined]
        content_columns=content_columns(b, layers), link_conditions=link_conditions, seats=seats,
        option_names=named_options, display_parts=display_parts, card_attributes=shown_on_cards, map=drawn_map,
        display_kinds=b.display_kinds, unprinted=b.unprinted, unlogged=b.unlogged,
        attribute_labels=b.attribute_labels,
    )
    return result


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


def _layer_hash(files: list[LoadedFile], layer: str) -> str:
    """The content hash of one expansion's files (a save records it beside its name)."""
    return content_hash([f for f in files if f.layer == layer])
