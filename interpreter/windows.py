"""Response windows: players acting out of turn (`offer A, B to PLAYERS`).

boardgame.io lets several players act in one turn by putting them in a stage
(`setActivePlayers`, each with its own moves and move limit). Here the players of a
window are asked one at a time, as every decision is (the frame stack asks one player
one question): in the order given, each player who has a legal option among the
window's actions is asked to perform one (as themselves: `me` is the responder, the
active player stays the one whose turn it is) or to pass; a player with nothing legal is
not asked and counts as passing. Besides passing, a player may pass for the rest of the
turn: no window asks them again until the next turn begins (kept in the state's flags as
the turn and the players who passed it, so copies, undo and saves keep it). After an action everyone is asked again, from the
player after the one who acted; the window closes when every player has passed (or
could not act) since the last action, or after `limits.max_repeats` actions.

The frame holds plain data (the players, a position, counts), so a game stopped in a
window clones, saves and replays like any other."""

from __future__ import annotations

from typing import Any

from .decisions import Choice, Decision
from .frames import offers
from .vm import Activation, Frame, State, made_when_read

PASSED = "windows passed"  # the state's flags entry: (the turn, the players who passed the rest of it)
REST_OF_TURN = "rest of turn"  # the answer that passes every window until the next turn


def passed_this_turn(st: State, player: int) -> bool:
    """Has `player` passed every window for the rest of this turn?"""
    kept = st.flags.get(PASSED)
    return type(kept) is tuple and kept[0] == st.turns and player in kept[1]


def pass_rest_of_turn(st: State, player: int) -> None:
    kept = st.flags.get(PASSED)
    players = kept[1] if type(kept) is tuple and kept[0] == st.turns else ()
    st.flags[PASSED] = (st.turns, (*players, player))


def _passes() -> tuple[Choice, Choice]:
    """Passing, first: a player the rules run (the ruleset's `automated`) takes it. New
    each time: an option belongs to one decision."""
    return (Choice("pass", None), Choice("pass for the rest of this turn", REST_OF_TURN))


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
            if passed_this_turn(st, player):
                self.passes += 1
                continue
            responder = Activation(st, player, self.act.this)
            if st.menus_when_read:  # whether there is a response; the responses made when read
                if not offers(st, self.actions, responder):
                    self.passes += 1
                    continue
                self.asked = player
                st.ask(Decision(player, "respond, or pass", None, "action", made_when_read))
                return
            responses = self._responses(st, responder)
            if not responses:
                self.passes += 1
                continue
            self.asked = player
            st.ask(Decision(player, "respond, or pass", (*_passes(), *responses), "action"))
            return
        st.frames.pop()

    def _responses(self, st: State, responder: Activation) -> list[Choice]:
        options: list[Choice] = []
        with st.frozen():
            for index, action in enumerate(self.actions):
                options.extend(action.options(st, responder, index))
        return options

    def menu(self, st: State) -> tuple[Choice, ...]:
        return (*_passes(), *self._responses(st, Activation(st, self.asked, self.act.this)))

    def resume(self, st: State, value: Any) -> None:
        if value is None or value == REST_OF_TURN:
            if value == REST_OF_TURN:
                pass_rest_of_turn(st, self.asked)
            self.passes += 1
            return
        self.passes = 0
        self.done += 1
        index, target = value
        self.actions[index].start(st, Activation(st, self.asked, self.act.this), target)
