"""Response windows: players acting out of turn (`offer A, B to PLAYERS`).

boardgame.io lets several players act in one turn by putting them in a stage
(`setActivePlayers`, each with its own moves and move limit). Here the players of a
window are asked one at a time, as every decision is (the frame stack asks one player
one question): in the order given, each player who has a legal option among the
window's actions is asked to perform one (as themselves: `me` is the responder, the
active player stays the one whose turn it is) or to pass; a player with nothing legal is
not asked and counts as passing. After an action everyone is asked again, from the
player after the one who acted; the window closes when every player has passed (or
could not act) since the last action, or after `limits.max_repeats` actions.

The frame holds plain data (the players, a position, counts), so a game stopped in a
window clones, saves and replays like any other."""

from __future__ import annotations

from typing import Any

from .decisions import Choice, Decision
from .vm import Activation, Frame, State


class OfferFrame(Frame):
    __slots__ = ("actions", "order", "pos", "passes", "done", "asked")

    def __init__(self, act: Activation, actions: tuple, order: list[int]):
        self.act = act
        self.actions = actions  # compiled actions (see compiler.CompiledAction)
        self.order = order  # the players, in the order they are asked
        self.pos = 0  # the next player to ask: order[pos % len(order)]
        self.passes = 0  # players in a row who passed or had nothing legal since the last action
        self.done = 0  # actions performed in this window
        self.asked = -1  # the player the pending question is for

    def step(self, st: State) -> None:
        n = len(self.order)
        if self.done >= st.game.spec.limits.max_repeats:
            st.frames.pop()
            return
        while self.passes < n:
            player = self.order[self.pos % n]
            self.pos += 1
            responder = Activation(st, player, self.act.this)
            options: list[Choice] = []
            with st.frozen():
                for index, action in enumerate(self.actions):
                    options.extend(action.options(st, responder, index))
            if not options:
                self.passes += 1
                continue
            self.asked = player
            # pass first: a player the rules run (the ruleset's `automated`) takes it
            st.ask(Decision(player, "respond, or pass", (Choice("pass", None), *options), "action"))
            return
        st.frames.pop()

    def resume(self, st: State, value: Any) -> None:
        if value is None:
            self.passes += 1
            return
        self.passes = 0
        self.done += 1
        index, target = value
        self.actions[index].start(st, Activation(st, self.asked, self.act.this), target)
