"""What a decision is for, as a sentence: the action being taken and the card being played
when the question is asked ("Build Harbour: choose cards in your hand (1 of 2)", "Storm:
choose a card in the market"), read off the stack of
what is running (the rules' own words: an action's label with its target, an item's
name), then the question as the rules ask it. A question asked by the rules themselves,
outside any action or card (the setup, a phase), is the question alone.

It is read by every seat, not only the one asked: a card the reader may not see (played
from a hand, its effect still running there) and an action whose target is such a card
read "a hidden card", as the table's log says it (agents/chronicle.py)."""

from __future__ import annotations

import re

import weakref
from typing import Any

from legacies.interpreter.decisions import Decision
from legacies.interpreter.display import hidden_from
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.naming import namer_for
from legacies.interpreter.vm import Activation, BlockFrame

_NAMES: "weakref.WeakKeyDictionary[Game, dict[str, tuple[str, Any]]]" = weakref.WeakKeyDictionary()


def _names(game: Game) -> dict[str, tuple[str, Any]]:
    """Each running block's origin -> ("item", its name) or ("action", the compiled action)."""
    found = _NAMES.get(game)
    if found is None:
        spec = game.spec
        found = {f"{spec.vocab.label(d.kind)} `{d.id}` ({d.name})": ("item", d.name) for d in spec.defs}
        found.update({f"action `{name}`": ("action", action) for name, action in game.actions.items()})
        for name in spec.procedures:  # a procedure that says what it does (`text:`): its words, params filled
            text = spec.vocab.labels.get(name)
            info = spec.vocab.procedures.get(name)
            if text and info is not None:
                found[f"procedure `{name}`"] = ("procedure", (text, [(p, t.tag) for p, t in info.params]))
        _NAMES[game] = found
    return found


def _action_label(state: GameState, action: Any, act: Activation) -> str:
    """The action's label with its target, as the menu offered it."""
    label = action.label
    if isinstance(label, str):
        return label
    st = state.st
    probe = Activation(st, act.me, act.this)
    if action.var and action.var in act.env:
        probe.env[action.var] = act.env[action.var]
    with st.frozen():
        return str(label(st, probe))


HIDDEN = "a hidden card"


def _hidden(state: GameState, value: Any, viewer: int) -> bool:
    """Is `value` a piece the viewer may not see?"""
    st = state.st
    return type(value) is int and 0 <= value < len(st.loc) and hidden_from(st, value, viewer)


def context(state: GameState, viewer: int, asked: int = -1) -> list[str]:
    """What is running, outermost first, as `viewer` may read it: the action taken, then
    each card played within it. An action another player than `asked` takes names who
    takes it (`Propose a trade to P1 (by P2)`: P1 answers it, and read it as their own)."""
    names = _names(state.game)
    out: list[str] = []
    procedure = ""  # the innermost procedure that says what it does, when it runs within no deeper action or card
    said = ""  # the last words added, before who takes the action (an `as P:` block of it says them again)
    for frame in state.st.frames:
        if not isinstance(frame, BlockFrame):
            continue
        origin = getattr(frame.instrs, "origin", "")
        found = names.get(origin) if origin else None
        if found is None:
            continue
        what, value = found
        act = frame.act
        if what == "procedure":
            procedure = _procedure_words(state, value, act, viewer)
            continue
        # what the viewer plays or targets themselves they know, wherever it has gone since
        # (a user's trial: their own next question called the card they had just played "a hidden card")
        theirs = act.me == viewer
        if what == "action":
            target = act.env.get(value.var) if value.var and value.items else None  # a player or a number is no card
            words = HIDDEN if not theirs and _hidden(state, target, viewer) else _action_label(state, value, act)
        else:
            words = HIDDEN if not theirs and _hidden(state, act.this, viewer) else value
        procedure = ""  # a procedure that runs within this action or card is what the question is for
        if words and words != said:
            said = words
            by = what == "action" and 0 <= asked != act.me and act.me >= 0
            out.append(f"{words} (by {state.game.player_names[act.me]})" if by else words)
    return out + ([procedure] if procedure else [])


def _procedure_words(state: GameState, value: tuple[str, list[tuple[str, str]]], act: Activation,
                     viewer: int) -> str:
    """A procedure's `text:`, its parameters ({0}, {1}... or {NAME}) filled in as the viewer reads them."""
    text, params = value
    st = state.st
    for i, (name, tag) in enumerate(params):
        if name not in act.env:
            return ""  # a parameter not bound: the words cannot be said
        arg = act.env[name]
        shown = HIDDEN if tag not in ("player", "players", "amount") and _hidden(state, arg, viewer) \
            else namer_for(tag)(st, arg)
        text = text.replace("{" + str(i) + "}", shown).replace("{" + name + "}", shown)
    return "" if "{" in text else text


_SECOND_PERSON = re.compile(r"\b(you|your|yours|You|Your|Yours)\b")
_THIRD_PERSON = {"you": "they", "your": "their", "yours": "theirs", "You": "They", "Your": "Their", "Yours": "Theirs"}


def told_of(question: str) -> str:
    """A question as others read it of the player it asks: in the third person ("cards in
    their resources"), as it said "your" to that player alone."""
    return _SECOND_PERSON.sub(lambda m: _THIRD_PERSON[m.group(1)], question)


def purpose(state: GameState, decision: Decision, viewer: int) -> str:
    """The decision's purpose, as `viewer` may read it: what is running, then the question
    (of another player's decision, in the third person)."""
    question = decision.prompt.removeprefix("choose: ").strip()
    if viewer != decision.player:
        question = told_of(question)
    question = question[:1].upper() + question[1:]
    if decision.kind == "action":  # a menu is its own purpose: what it offers is what it is for
        return question
    running = context(state, viewer, decision.player)
    if not running:
        return question
    words = " — ".join(running[-2:])
    return f"{words[:1].upper() + words[1:]}: {question[:1].lower() + question[1:]}"
