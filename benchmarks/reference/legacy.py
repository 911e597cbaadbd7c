"""The Legacy card game written by hand: plain Python, lists and ints, no engine.

`legacies bench` times it in the same process as the engine's own game of the same rules
(rules/legacy/ruleset.yaml, rules/legacy/procedures.yaml, content/legacy/cards.yaml) and
reports the engine's µs per decision over this one's (`legacy_vs_reference`, docs/speed.md).
The ratio is the price of the engine's machinery: both sides play the same rules with the
same random policy, decision for decision.

What it mirrors, as the engine plays the data (one round, options left at their defaults):

- The cards: 16 Gold, 16 Brick, 16 Subject, 6 Wild; 10 each of Bank, Monument and Parade,
  3 each of Robbery, Vandalism, Riot, Swap, Protect and Destroy. Each copy is its own card.
- Setup: both decks shuffled, four rounds of one resource card to each player, then four
  of one legacy card; Legacies to finish 5, 6 with two players.
- A turn: draw 2 resource cards; `perform one of take_legacy, build_and_destroy`;
  `perform up to one of play_special`; the discard down to 7; the finish check (2 points
  and the final round to the first with `finish_size` legacies). The turns end when the
  final round comes back to the player who began it, or after 400 turns.
- Paying: every distinct way to pay the cost with at most one wild, found as
  `mechanics.payments` finds them; the cards paid go to the resource discard.
- Decks: an empty deck is rebuilt by shuffling its discard into it; `dig for` turns cards
  until the wanted resource comes, discarding the others, one pass at most.
- Specific destroys: a victim in an opponent's tableau, of the type the card destroys,
  whose owner has no Protect and fewer than `finish_size` legacies; with three players or
  more, `may` take two resources (a resource type of the victim's cost, twice, each dug for).
- Specials as their `requires:` and effects say: Swap (a legacy of an opponent for one of
  yours), Protect (to your tableau), Destroy (`choose one`: two legacies of unprotected
  owners, any player's, yours too; or a Protect card of any tableau).
- Scoring: 3 points a legacy of your most built type, 1 each other legacy.

The decisions are the engine's, each with the same options, and they are counted as the
engine counts them (its `history`): a decision is asked only where the engine asks one.

- The action menus (`perform`) are asked even with a single option, as the engine asks
  them: the turn's menu (take a legacy card, or build and destroy when a build or a
  destroy is possible); `perform any of build, destroy` offers one option per card in
  hand that can be built or played (each copy its own option) and `done`, again after
  each action (at most 40), until `done` or nothing is left; `perform up to one of
  play_special` offers each playable special and `done`, asked only when a special is
  playable.
- Every `choose` is asked only with two options or more, one being taken without a
  question: the card kept from the offer (each copy an option), how to pay (each distinct
  way), a victim, the two legacies of Destroy (one at a time; all of them, unasked, when
  there are two or fewer), Swap's two legacies, the resource type of a victim's cost
  (each distinct type), `choose one`. `may` is always asked (yes, no).
- The discard down to 7 chooses the cards one at a time, each card in the resources an
  option, as the engine's `choose N` does.

What it does not mirror:

- No words: no labels, no telling alike options apart, no log, no card text, no undo, no
  view, no step budget (the engine makes or keeps all of these; they are its machinery,
  which the ratio measures). No events (`announce built` has no listener in Legacy).
- Options are plain values (a card's position, a tuple), not the engine's `Choice` objects.
- The random policy is uniform over each decision's options, as the engine's random bot
  (agents/bots.py `apply_random_option`); the bot draws it by shuffling every option (it
  must be able to skip an option the rules refuse, and none is refused in Legacy), this
  game by one `randrange`. The same seed gives a different game than the engine's (the
  random draws differ), the same games on average: tests/benchmarks compare the mean
  decisions per game.
- The options `rounds` (continuous play) and `without_specials` are left at their
  defaults: one round, the specials in.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import TypeVar

T = TypeVar("T")

GOLD, BRICK, SUBJECT, WILD = range(4)
BANK, MONUMENT, PARADE, ROBBERY, VANDALISM, RIOT, SWAP, PROTECT, DESTROY = range(9)
LEGACY = (BANK, MONUMENT, PARADE)
"""The legacy cards' types; every card below PROTECT but these is a specific destroy."""
SPECIALS = (SWAP, PROTECT, DESTROY)
COST = {
    BANK: (GOLD, GOLD, BRICK), MONUMENT: (BRICK, BRICK, SUBJECT), PARADE: (SUBJECT, SUBJECT, GOLD),
    ROBBERY: (BRICK, BRICK, SUBJECT), VANDALISM: (GOLD, GOLD, SUBJECT), RIOT: (SUBJECT, SUBJECT, BRICK),
}
DESTROYS = {ROBBERY: BANK, VANDALISM: MONUMENT, RIOT: PARADE}
RESOURCE_CARDS = [GOLD] * 16 + [BRICK] * 16 + [SUBJECT] * 16 + [WILD] * 6
LEGACY_CARDS = ([BANK] * 10 + [MONUMENT] * 10 + [PARADE] * 10 + [ROBBERY] * 3 + [VANDALISM] * 3 + [RIOT] * 3
                + [SWAP] * 3 + [PROTECT] * 3 + [DESTROY] * 3)
HAND_LIMIT = 7
MAX_TURNS = 400
MAX_REPEATS = 40
DEAL = 4
MAX_WILD = 1


def _ways(cost: tuple[int, ...]) -> list[tuple[int, int, int, int]]:
    """Each distinct way to pay `cost` (cards needed of gold, brick, subject, wild), at most
    MAX_WILD wilds standing for cost symbols: as the engine's `payments` lists them."""
    out, seen = [], set()
    for w in range(MAX_WILD + 1):
        for covered in combinations(range(len(cost)), w):
            rest = [s for i, s in enumerate(cost) if i not in covered]
            key = (tuple(sorted(rest)), w)
            if key not in seen:
                seen.add(key)
                need = [0, 0, 0, w]
                for s in rest:
                    need[s] += 1
                out.append((need[0], need[1], need[2], need[3]))
    return out


WAYS = {card: _ways(cost) for card, cost in COST.items()}


class Legacy:
    """One game's state: zones are lists of card numbers (a card is its type), the top of a
    deck its end. `tableau[p]` holds p's legacies and Protect."""

    def __init__(self, seed: int, players: int) -> None:
        self.rng = random.Random(seed)
        self.n = players
        self.decisions = 0
        self.finish = 6 if players == 2 else 5
        self.final_from = -1
        self.points = [0] * players
        self.resources: list[list[int]] = [[] for _ in range(players)]
        self.hand: list[list[int]] = [[] for _ in range(players)]
        self.tableau: list[list[int]] = [[] for _ in range(players)]
        self.resource_deck = RESOURCE_CARDS[:]
        self.resource_discard: list[int] = []
        self.legacy_deck = LEGACY_CARDS[:]
        self.legacy_discard: list[int] = []
        self.turns: list[tuple[int, int, int, bool]] | None = None  # see play(..., turns=)

    # ------------------------------------------------------------ decisions
    def ask(self, options: list[T]) -> T:
        """A decision: the random policy, uniform over the options."""
        self.decisions += 1
        return options[self.rng.randrange(len(options))]

    def ask_or_done(self, options: list[T | None]) -> T | None:
        """A menu that allows passing (`perform any of`, `perform up to one of`): the
        options and `done` (None), not asked when nothing but `done` is left."""
        if not options:
            return None
        options.append(None)
        return self.ask(options)

    def choose(self, options: list[T]) -> T:
        """`choose a` from options that are never none (the rules checked there is one):
        asked only with two options or more."""
        if len(options) > 1:
            self.decisions += 1
            return options[self.rng.randrange(len(options))]
        return options[0]

    # ------------------------------------------------------------ decks
    def draw(self, deck: list[int], discard: list[int]) -> int | None:
        if not deck:
            if not discard:
                return None
            deck.extend(discard)
            discard.clear()
            self.rng.shuffle(deck)
        return deck.pop()

    def dig(self, wanted: int, to: list[int]) -> None:
        deck, discard = self.resource_deck, self.resource_discard
        total, seen = len(deck) + len(discard), 0
        while seen <= total:
            card = self.draw(deck, discard)
            if card is None:
                return
            seen += 1
            if card == wanted:
                to.append(card)
                return
            discard.append(card)

    # ------------------------------------------------------------ questions the rules ask
    def payable(self, card: int, have: list[int]) -> list[tuple[int, int, int, int]]:
        return [w for w in WAYS[card] if w[0] <= have[0] and w[1] <= have[1] and w[2] <= have[2] and w[3] <= have[3]]

    def unprotected(self, p: int) -> bool:
        """No Protect in p's tableau and fewer legacies than it takes to finish."""
        legacies = 0
        for c in self.tableau[p]:
            if c == PROTECT:
                return False
            legacies += 1
        return legacies < self.finish

    def victims(self, me: int, kind: int) -> list[tuple[int, int]]:
        """(player, position) of each legacy of `kind` in an opponent's unprotected tableau."""
        return [(p, i) for p in range(self.n) if p != me and self.unprotected(p)
                for i, c in enumerate(self.tableau[p]) if c == kind]

    def playable(self, me: int, card: int) -> bool:
        tableau = self.tableau
        if card == SWAP:
            return (any(c != PROTECT for c in tableau[me])
                    and any(c != PROTECT for p in range(self.n) if p != me for c in tableau[p]))
        if card == PROTECT:
            return PROTECT not in tableau[me]
        return (any(PROTECT in t for t in tableau)
                or any(t and self.unprotected(p) for p, t in enumerate(tableau)))

    def menu(self, me: int) -> list[tuple[int, int] | None]:
        """`perform any of build, destroy`: (card, position in hand) of each card that can
        be built or played now."""
        have = [0, 0, 0, 0]
        for r in self.resources[me]:
            have[r] += 1
        out: list[tuple[int, int] | None] = []
        for i, card in enumerate(self.hand[me]):
            if card < PARADE + 1:
                if self.payable(card, have):
                    out.append((card, i))
            elif card < SWAP and self.payable(card, have) and self.victims(me, DESTROYS[card]):
                out.append((card, i))
        return out

    # ------------------------------------------------------------ actions
    def pay(self, me: int, card: int) -> None:
        have = [0, 0, 0, 0]
        for r in self.resources[me]:
            have[r] += 1
        way = self.choose(self.payable(card, have))
        resources, discard = self.resources[me], self.resource_discard
        for symbol, n in enumerate(way):
            for _ in range(n):
                resources.remove(symbol)
                discard.append(symbol)

    def take_legacy(self, me: int) -> None:
        offer = []
        for _ in range(3):
            card = self.draw(self.legacy_deck, self.legacy_discard)
            if card is None:
                break
            offer.append(card)
        if not offer:  # nothing to choose: the rest of the effect does not happen
            return
        kept = self.choose(list(range(len(offer))))
        self.hand[me].append(offer.pop(kept))
        self.legacy_discard.extend(offer)

    def build_and_destroy(self, me: int) -> None:
        for _ in range(MAX_REPEATS):
            picked = self.ask_or_done(self.menu(me))
            if picked is None:
                return
            card, at = picked
            self.pay(me, card)
            hand = self.hand[me]
            del hand[at]
            if card < PARADE + 1:
                self.tableau[me].append(card)
                continue
            p, i = self.choose(self.victims(me, DESTROYS[card]))
            victim = self.tableau[p].pop(i)
            self.legacy_discard.append(victim)
            self.legacy_discard.append(card)
            if self.n > 2 and self.ask([True, False]):
                kinds = sorted(set(COST[victim]))
                for _ in range(2):
                    self.dig(self.choose(kinds), self.resources[me])

    def play_special(self, me: int) -> None:
        hand = self.hand[me]
        at = self.ask_or_done([i for i, c in enumerate(hand) if c >= SWAP and self.playable(me, c)])
        if at is None:
            return
        card = hand.pop(at)
        tableau = self.tableau
        if card == PROTECT:
            tableau[me].append(card)
            return
        if card == SWAP:
            taken = self.choose([(p, i) for p in range(self.n) if p != me
                                 for i, c in enumerate(tableau[p]) if c != PROTECT])
            given = self.choose([i for i, c in enumerate(tableau[me]) if c != PROTECT])
            p, i = taken
            theirs = tableau[p].pop(i)
            tableau[p].append(tableau[me].pop(given))
            tableau[me].append(theirs)
        else:
            two = [(p, i) for p in range(self.n) if self.unprotected(p)
                   for i, c in enumerate(tableau[p]) if c != PROTECT]
            shields = [(p, i) for p in range(self.n) for i, c in enumerate(tableau[p]) if c == PROTECT]
            if self.choose([k for k, pool in ((0, two), (1, shields)) if pool]) == 0:
                if len(two) > 2:
                    first = self.ask(two)
                    two.remove(first)
                    two = [first, self.ask(two)]
                for p, i in sorted(two, reverse=True):  # the later positions first
                    self.legacy_discard.append(tableau[p].pop(i))
            else:
                p, i = self.choose(shields)
                self.legacy_discard.append(tableau[p].pop(i))
        self.legacy_discard.append(card)

    def turn(self, me: int) -> None:
        resources = self.resources[me]
        for _ in range(2):
            card = self.draw(self.resource_deck, self.resource_discard)
            if card is None:
                break
            resources.append(card)
        if self.ask([0, 1] if self.menu(me) else [0]):
            self.build_and_destroy(me)
        else:
            self.take_legacy(me)
        self.play_special(me)
        extra = len(resources) - HAND_LIMIT
        for _ in range(extra):  # chosen one at a time, each card an option
            self.resource_discard.append(resources.pop(self.ask(list(range(len(resources))))))
        legacies = sum(1 for c in self.tableau[me] if c != PROTECT)
        if legacies >= self.finish and self.final_from < 0:
            self.points[me] += 2
            self.final_from = me
        if self.turns is not None:
            self.turns.append((me, len(resources), legacies, self.final_from >= 0))

    def run(self) -> tuple[int, list[int]]:
        rng, n = self.rng, self.n
        rng.shuffle(self.resource_deck)
        rng.shuffle(self.legacy_deck)
        for _ in range(DEAL):
            for p in range(n):
                self.resources[p].append(self.resource_deck.pop())
        for _ in range(DEAL):
            for p in range(n):
                self.hand[p].append(self.legacy_deck.pop())
        index = 0
        for _ in range(MAX_TURNS):
            me = index % n
            if me == self.final_from:
                break
            index += 1
            self.turn(me)
        for p in range(n):
            built = [self.tableau[p].count(kind) for kind in LEGACY]
            best = max(built)
            self.points[p] += 3 * best + (sum(built) - best)
        return self.decisions, self.points


def play(seed: int, players: int, turns: list[tuple[int, int, int, bool]] | None = None) -> tuple[int, list[int]]:
    """One game of random players: (decisions asked, each player's points). With `turns`,
    each turn appends (player, resource cards at its end, legacies built, final round begun)."""
    game = Legacy(seed, players)
    game.turns = turns
    return game.run()
