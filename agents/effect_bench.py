"""What the effect language costs: a suite of representative effects run the
engine's normal way (checked, compiled, pushed as a frame, run by the VM, decisions
answered through `State.answer`), each beside the same effect written by hand in
plain Python against the same state. `effect_overhead` is the engine's total time
over Python's (the geometric mean of the per-effect ratios is in the details: small
effects weigh as much as big ones there).

Every pair is first run once on two copies of one mid-game state and the copies must
end equal (counters, zones, token places, timed modifiers, values): a hand version
that does less than its effect would flatter the engine, so a mismatch stops the run.
Then each is timed repeating on its own copy (the suite's effects can repeat: gains
grow, raises are lowered again, tokens placed are taken back).

The effects run on a ruleset of no one's (agents/effect_bench_ruleset.py), written to a
temporary folder for the run: the figure is the engine's, not a shipped game's.
"""

from __future__ import annotations

import math
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from legacies.agents import effect_bench_ruleset
from legacies.interpreter.errors import Refused
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.sandbox import checked_program
from legacies.interpreter.spec import Origin
from legacies.interpreter.vm import Activation, BlockFrame, State
from legacies.pipeline.ruleset import load_ruleset

Hand = Callable[[State, int], None]


@dataclass(frozen=True)
class Case:
    name: str
    source: str
    answers: tuple[int, ...] = ()  # option indexes for the effect's decisions, in order
    clears_timed: bool = False  # timed modifiers are cleared after each run (both sides), so they never pile up


class Slots:
    """The state's plain slots a hand-written effect touches, looked up once."""

    def __init__(self, game: Game):
        lay = game.layout
        self.lay = lay
        pc = lay.player_counter
        self.coins, self.points, self.stone = pc["coins"], pc["points"], pc["stone"]
        self.good_names = tuple(game.spec.vocab.counter_sets["good"])
        self.goods = [pc[g] for g in self.good_names]
        self.stations = lay.kind_pieces["station"]
        self.level = lay.item_counter[("station", "level")]
        self.level_min = lay.counter_min[self.level]
        self.level_max = lay.counter_max[self.level]
        self.ladder = lay.board_item["great_ladder"]
        self.supply = lay.supply_zone["marker"]
        self.token_def = lay.token_def["marker"]
        self.players = game.players


def _level_slot(s: Slots, station: int) -> int:
    return s.level + s.lay.item_index[station]


def _clamp(s: Slots, v: int) -> int:
    lo, hi = s.level_min, s.level_max
    if lo is not None and v < lo:
        v = lo
    if hi is not None and v > hi:
        v = hi
    return v


def hand_versions(s: Slots) -> dict[str, Hand]:
    """The suite by hand: what each effect does, in plain Python on the state's lists."""
    coins, points, stone = s.coins, s.points, s.stone

    def gain_coins(st: State, me: int) -> None:
        st.counters[coins + me] += 5

    def pay_coins(st: State, me: int) -> None:
        if st.counters[coins + me] < 3:
            raise Refused("not enough coins")
        st.counters[coins + me] -= 3

    def three_gains(st: State, me: int) -> None:
        c = st.counters
        c[points + me] += 1
        c[coins + me] += 2
        c[stone + me] += 1

    def each_player(st: State, me: int) -> None:
        for p in range(s.players):
            st.counters[coins + p] += 1

    def each_opponent(st: State, me: int) -> None:
        for p in range(s.players):
            if p != me:
                st.counters[points + p] += 2

    def branch(st: State, me: int) -> None:
        if st.counters[coins + me] > 10:
            st.counters[points + me] += 1
        else:
            st.counters[coins + me] += 1

    def let_value(st: State, me: int) -> None:
        x = st.counters[points + me] * 2
        st.counters[coins + me] += x

    # a choice by hand still lists its options for the player and takes the answer's index
    def choose_good(st: State, me: int) -> None:
        options = [(name, slot) for name, slot in zip(s.good_names, s.goods)]
        _, slot = options[0]  # the answer: the first good offered
        st.counters[slot + me] += 1

    def choose_one(st: State, me: int) -> None:
        options = [("coins", coins), ("points", points)]
        _, slot = options[1]  # the answer: the second option
        st.counters[slot + me] += 2

    def raise_lower(st: State, me: int) -> None:
        options = list(s.stations)
        slot = _level_slot(s, options[0])  # the answer: the first station offered
        c = st.counters
        c[slot] = _clamp(s, c[slot] + 1)
        c[slot] = _clamp(s, c[slot] - 1)

    def every_item(st: State, me: int) -> None:
        c = st.counters
        for x in s.stations:
            slot = _level_slot(s, x)
            c[slot] = _clamp(s, c[slot] + 1)
        for x in s.stations:
            slot = _level_slot(s, x)
            c[slot] = _clamp(s, c[slot] - 1)

    def filtered_count(st: State, me: int) -> None:
        c = st.counters
        st.counters[coins + me] += sum(1 for x in s.stations if c[_level_slot(s, x)] > 3)

    def highest(st: State, me: int) -> None:
        st.counters[coins + me] += max(st.counters[points + p] for p in range(s.players))

    def total(st: State, me: int) -> None:
        st.counters[coins + me] += sum(st.counters[points + p] for p in range(s.players))

    def repeat(st: State, me: int) -> None:
        for _ in range(3):
            st.counters[coins + me] += 1

    def cost_with_modifier(st: State, me: int) -> None:
        # `discount` for me: its default, then the timed modifiers (no piece in play
        # changes it: checked when the suite starts)
        value = 0
        for q, subj, op, v, who, _until in st.timed:
            if q == "discount" and (who is None or me in who):
                value = value + v if op == "+" else value - v if op == "-" else v
        st.counters[coins + me] -= max(0, 10 - value)

    def timed_modifier(st: State, me: int) -> None:
        st.timed.append(("discount", None, "+", 3, (me,), "round_end"))
        cost_with_modifier(st, me)

    def track_bump(st: State, me: int) -> None:
        # place my marker on the ladder's first space (bumping along), then take it back
        # to my supply
        lay = s.lay
        zones, loc = st.zones, st.loc
        pid = [q for q in zones[s.supply + me] if lay.piece_def[q] == s.token_def][-1]
        carry = [pid]
        for z in lay.track_zones[s.ladder]:
            bumped = [q for q in zones[z] if q not in carry]
            for q in carry:
                zones[loc[q]].remove(q)
                zones[z].append(q)
                loc[q] = z
            carry = bumped
            if not carry:
                break
        else:
            for q in carry:
                home = s.supply + lay.piece_owner[q]
                zones[loc[q]].remove(q)
                zones[home].append(q)
                loc[q] = home
        home = s.supply + me
        zones[loc[pid]].remove(pid)
        zones[home].append(pid)
        loc[pid] = home
        # then every token on the track one space back (each once, leading ones last)
        spaces = lay.track_zones[s.ladder]
        tokens = [(q, i) for i, z in enumerate(spaces) for q in zones[z]]
        for q, i in tokens:
            j = max(0, i - 1)
            if j != i:
                zones[loc[q]].remove(q)
                zones[spaces[j]].append(q)
                loc[q] = spaces[j]

    def announce(st: State, me: int) -> None:
        # `announce bell_rung with bell = loud_bell, actor = me`: the timed modifiers
        # until it end, then the listener on my shelf fires: gain 3/4/5 coins by age
        if st.timed:
            st.timed = [m for m in st.timed if m[5] != "bell_rung"]
        era = st.counters[s.lay.game_counter["age"]]
        st.counters[coins + me] += (3, 4, 5)[era - 1]

    def transfer(st: State, me: int) -> None:
        c = st.counters
        other = 1 if me == 0 else 0  # the first opponent
        if c[points + me] < 1:
            raise Refused("not enough points")
        c[points + me] -= 1
        c[points + other] += 1
        if c[points + other] < 1:
            raise Refused("not enough points")
        c[points + other] -= 1
        c[points + me] += 1

    def nested_loops(st: State, me: int) -> None:
        c = st.counters
        for p in range(s.players):
            for x in s.stations:
                if c[_level_slot(s, x)] >= 1:
                    c[coins + p] += 1

    return {
        "gain": gain_coins, "pay": pay_coins, "three gains": three_gains, "each player": each_player,
        "each opponent": each_opponent, "if/else": branch, "let": let_value, "choose a counter": choose_good,
        "choose one": choose_one, "raise and lower an item's counter": raise_lower,
        "every item's counter up and down": every_item, "filtered count": filtered_count, "highest": highest,
        "total": total, "repeat": repeat, "cost with a modifier": cost_with_modifier,
        "timed modifier, then the cost": timed_modifier, "track bump": track_bump, "trigger": announce,
        "transfer": transfer, "nested loops with a filter": nested_loops,
    }


CASES: tuple[Case, ...] = (
    Case("gain", "gain 5 coins"),
    Case("pay", "pay 3 coins"),
    Case("three gains", "gain 1 points\ngain 2 coins\ngain 1 stone"),
    Case("each player", "for each P in players: gain 1 coins for P"),
    Case("each opponent", "for each P in opponents: gain 2 points for P"),
    Case("if/else", "if my coins > 10: gain 1 points\nelse: gain 1 coins"),
    Case("let", "let X be my points * 2\ngain X coins"),
    Case("choose a counter", "choose a good as R\ngain 1 R", (0,)),
    Case("choose one", 'choose one:\n    "coins": gain 2 coins\n    "points": gain 2 points', (1,)),
    Case("raise and lower an item's counter", "choose a station as X\nraise X's level by 1\nlower X's level by 1",
         (0,)),
    Case("every item's counter up and down",
         "for each X in stations: raise X's level by 1\nfor each X in stations: lower X's level by 1"),
    Case("filtered count", "gain count of (stations where its level > 3) coins"),
    Case("highest", "gain highest points of players coins"),
    Case("total", "gain total points of players coins"),
    Case("repeat", "repeat 3 times: gain 1 coins"),
    Case("cost with a modifier", "lose max(0, 10 - discount) coins"),
    Case("timed modifier, then the cost",
         "until round_end: discount + 3\nlose max(0, 10 - discount) coins",
         clears_timed=True),
    Case("track bump", "place my marker on great_ladder\n"
         "remove top of (markers in great_ladder where owner of it is me)\nadvance great_ladder by -1"),
    Case("trigger", "announce bell_rung with bell = loud_bell, actor = me"),
    Case("transfer", "let P be top of opponents\ntransfer 1 from my points to P's points\n"
         "transfer 1 from P's points to my points"),
    Case("nested loops with a filter",
         "for each P in players:\n    for each X in stations where its level >= 1:\n        gain 1 coins for P"),
)


def suite_state() -> tuple[GameState, Slots] | None:
    """A 4-player state of the bench's ruleset with room for every effect: plenty of
    coins and points, the listener on player 1's shelf, two rivals' markers on the
    ladder (placing one bumps both), no piece in play that changes the discount.
    None when the ruleset does not build (a bug: the bench reports no figure)."""
    with tempfile.TemporaryDirectory(prefix="legacies-effect-bench-") as tmp:
        res = load_ruleset(effect_bench_ruleset.NAME, root=effect_bench_ruleset.write(Path(tmp)))
    if res.spec is None:
        return None
    gs = Game(res.spec, 4).new_state(1)
    st, lay = gs.st, gs.game.layout
    s = Slots(gs.game)
    for p in range(s.players):
        st.counters[s.coins + p] = 10**9
        st.counters[s.points + p] = 50
    listener = lay.def_pieces[lay.def_index["listener"]][0]
    zones, loc = st.zones, st.loc
    if loc[listener] >= 0:
        zones[loc[listener]].remove(listener)
    dest = lay.player_zone["shelf"]
    zones[dest].append(listener)
    loc[listener] = dest
    for p, space in ((1, 0), (2, 1)):  # two rivals on the ladder: placing bumps both
        token = [q for q in zones[s.supply + p] if lay.piece_def[q] == s.token_def][-1]
        target = lay.track_zones[s.ladder][space]
        zones[loc[token]].remove(token)
        zones[target].append(token)
        loc[token] = target
    assert not gs.game.continuous.get("discount"), "the hand versions assume no piece changes the discount"
    st.changed()  # set up by hand: nothing computed before stands
    return gs, s


def _engine_runner(gs: GameState, case: Case) -> Callable[[State], None]:
    program = checked_program(gs, case.source)
    compiler = gs.game.compiler
    code = compiler.program(program, Origin(f"bench effect `{case.name}`"))
    compiler.finish()
    answers = case.answers

    def run(st: State) -> None:
        st.frames.append(BlockFrame(code, Activation(st, 0)))
        st.run()
        for index in answers:
            d = st.pending
            assert d is not None, f"{case.name}: no decision left to answer"
            st.pending = None
            st.answer(d.value(index))  # by index, as a bot answers: no option made
        assert st.pending is None, f"{case.name}: a decision was left unanswered"
    return run


def _snapshot(st: State) -> tuple:
    return (st.counters[:], [z[:] for z in st.zones], st.loc[:], [tuple(m) for m in st.timed], st.values[:])


def _fresh(base: GameState) -> State:
    st = base.clone().st
    # every zone this state's own before it is run (outside the timing): the hand versions
    # write to the lists as they stand, where the engine makes a shared list its own first
    st.zones, st.own_zones = [z[:] for z in st.zones], None
    st.frames, st.pending = [], None
    st.set_active(0)
    return st


def effect_overhead(quick: bool) -> dict[str, Any] | None:
    """Engine time over hand-written time for the suite (None when its ruleset does not build)."""
    made = suite_state()
    if made is None:
        return None
    base, slots = made
    hands = hand_versions(slots)
    repeat = 100 if quick else 1000
    rows = []
    per_case: list[tuple[float, float]] = []
    engine_total = hand_total = 0.0
    for case in CASES:
        run = _engine_runner(base, case)
        hand = hands[case.name]
        a, b = _fresh(base), _fresh(base)
        run(a)
        hand(b, 0)
        if _snapshot(a) != _snapshot(b):
            raise AssertionError(f"effect bench: the hand version of `{case.name}` does not do what the effect does")
        timings = []
        for fn in (run, lambda st: hand(st, 0)):
            st = _fresh(base)
            best = float("inf")
            for _ in range(3):
                started = time.process_time()
                if case.clears_timed:
                    for _ in range(repeat):
                        fn(st)
                        st.timed.clear()
                else:
                    for _ in range(repeat):
                        fn(st)
                best = min(best, time.process_time() - started)
            timings.append(best / repeat)
        engine_total += timings[0]
        hand_total += timings[1]
        per_case.append((timings[0], timings[1]))
        rows.append({"effect": case.name, "engine_us": timings[0] * 1e6, "python_us": timings[1] * 1e6,
                     "ratio": timings[0] / timings[1]})
    ratios = [timing[0] / timing[1] for timing in per_case]
    geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    return {"effects": len(CASES), "ratio": engine_total / hand_total, "geomean": geomean, "rows": rows}
