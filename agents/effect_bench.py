"""What the effect language costs: a suite of representative Legacies effects run the
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
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

from legacies.interpreter.errors import Refused
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.sandbox import checked_program
from legacies.interpreter.spec import Origin
from legacies.interpreter.vm import Activation, BlockFrame, State
from legacies.pipeline.ruleset import load_ruleset, rulesets

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
        self.gold, self.fame, self.gem = pc["gold"], pc["fame"], pc["gem"]
        self.resources = [pc[r] for r in ("dye", "gear", "gem", "iron")]
        self.industries = lay.kind_pieces["industry"]
        self.space = lay.item_counter[("industry", "space")]
        self.space_min = lay.counter_min[self.space]
        self.space_max = lay.counter_max[self.space]
        self.general = lay.board_item["general"]
        self.supply = lay.supply_zone["relationship_token"]
        self.token_def = lay.token_def["relationship_token"]
        self.players = game.players


def _space_slot(s: Slots, industry: int) -> int:
    return s.space + s.lay.item_index[industry]


def _clamp(s: Slots, v: int) -> int:
    lo, hi = s.space_min, s.space_max
    if lo is not None and v < lo:
        v = lo
    if hi is not None and v > hi:
        v = hi
    return v


def hand_versions(s: Slots) -> dict[str, Hand]:
    """The suite by hand: what each effect does, in plain Python on the state's lists."""
    gold, fame, gem = s.gold, s.fame, s.gem

    def gain_gold(st: State, me: int) -> None:
        st.counters[gold + me] += 5

    def pay_gold(st: State, me: int) -> None:
        if st.counters[gold + me] < 3:
            raise Refused("not enough gold")
        st.counters[gold + me] -= 3

    def three_gains(st: State, me: int) -> None:
        c = st.counters
        c[fame + me] += 1
        c[gold + me] += 2
        c[gem + me] += 1

    def each_player(st: State, me: int) -> None:
        for p in range(s.players):
            st.counters[gold + p] += 1

    def each_opponent(st: State, me: int) -> None:
        for p in range(s.players):
            if p != me:
                st.counters[fame + p] += 2

    def branch(st: State, me: int) -> None:
        if st.counters[gold + me] > 10:
            st.counters[fame + me] += 1
        else:
            st.counters[gold + me] += 1

    def let_value(st: State, me: int) -> None:
        x = st.counters[fame + me] * 2
        st.counters[gold + me] += x

    # a choice by hand still lists its options for the player and takes the answer's index
    resource_names = ("dye", "gear", "gem", "iron")

    def choose_resource(st: State, me: int) -> None:
        options = [(name, slot) for name, slot in zip(resource_names, s.resources)]
        _, slot = options[0]  # the answer: the first resource offered
        st.counters[slot + me] += 1

    def choose_one(st: State, me: int) -> None:
        options = [("gold", gold), ("fame", fame)]
        _, slot = options[1]  # the answer: the second option
        st.counters[slot + me] += 2

    def raise_lower(st: State, me: int) -> None:
        options = list(s.industries)
        slot = _space_slot(s, options[0])  # the answer: the first industry offered
        c = st.counters
        c[slot] = _clamp(s, c[slot] + 1)
        c[slot] = _clamp(s, c[slot] - 1)

    def every_industry(st: State, me: int) -> None:
        c = st.counters
        for x in s.industries:
            slot = _space_slot(s, x)
            c[slot] = _clamp(s, c[slot] + 1)
        for x in s.industries:
            slot = _space_slot(s, x)
            c[slot] = _clamp(s, c[slot] - 1)

    def filtered_count(st: State, me: int) -> None:
        c = st.counters
        st.counters[gold + me] += sum(1 for x in s.industries if c[_space_slot(s, x)] > 3)

    def highest(st: State, me: int) -> None:
        st.counters[gold + me] += max(st.counters[fame + p] for p in range(s.players))

    def total(st: State, me: int) -> None:
        st.counters[gold + me] += sum(st.counters[fame + p] for p in range(s.players))

    def repeat(st: State, me: int) -> None:
        for _ in range(3):
            st.counters[gold + me] += 1

    def cost_with_modifier(st: State, me: int) -> None:
        # `relationship_discount` for me: its default, then the timed modifiers (none
        # from pieces in play in the suite's state: checked when the suite starts)
        value = 0
        for q, subj, op, v, who, _until in st.timed:
            if q == "relationship_discount" and (who is None or me in who):
                value = value + v if op == "+" else value - v if op == "-" else v
        st.counters[gold + me] -= max(0, 10 - value)

    def timed_modifier(st: State, me: int) -> None:
        st.timed.append(("relationship_discount", None, "+", 3, (me,), "generation_end"))
        cost_with_modifier(st, me)

    def track_bump(st: State, me: int) -> None:
        # place my relationship token on the General's first space (bumping along), then
        # take it back to my supply
        lay = s.lay
        zones, loc = st.zones, st.loc
        pid = [q for q in zones[s.supply + me] if lay.piece_def[q] == s.token_def][-1]
        carry = [pid]
        for z in lay.track_zones[s.general]:
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
        spaces = lay.track_zones[s.general]
        tokens = [(q, i) for i, z in enumerate(spaces) for q in zones[z]]
        for q, i in tokens:
            j = max(0, i - 1)
            if j != i:
                zones[loc[q]].remove(q)
                zones[spaces[j]].append(q)
                loc[q] = spaces[j]

    def announce(st: State, me: int) -> None:
        # `announce global_action_triggered with action = ga_income, actor = me`: the timed modifiers
        # until it end, then S15 in my successor zone fires: gain 3/4/5 gold by century
        if st.timed:
            st.timed = [m for m in st.timed if m[5] != "global_action_triggered"]
        era = st.counters[s.lay.game_counter["century"]]
        st.counters[gold + me] += (3, 4, 5)[era - 1]

    def transfer(st: State, me: int) -> None:
        c = st.counters
        other = 1 if me == 0 else 0  # the first opponent
        if c[fame + me] < 1:
            raise Refused("not enough fame")
        c[fame + me] -= 1
        c[fame + other] += 1
        if c[fame + other] < 1:
            raise Refused("not enough fame")
        c[fame + other] -= 1
        c[fame + me] += 1

    def nested_loops(st: State, me: int) -> None:
        c = st.counters
        for p in range(s.players):
            for x in s.industries:
                if c[_space_slot(s, x)] >= 1:
                    c[gold + p] += 1

    return {
        "gain": gain_gold, "pay": pay_gold, "three gains": three_gains, "each player": each_player,
        "each opponent": each_opponent, "if/else": branch, "let": let_value, "choose a resource": choose_resource,
        "choose one": choose_one, "raise and lower an industry": raise_lower,
        "every industry up and down": every_industry, "filtered count": filtered_count, "highest": highest,
        "total": total, "repeat": repeat, "cost with a modifier": cost_with_modifier,
        "timed modifier, then the cost": timed_modifier, "track bump": track_bump, "trigger": announce,
        "transfer": transfer, "nested loops with a filter": nested_loops,
    }


CASES: tuple[Case, ...] = (
    Case("gain", "gain 5 gold"),
    Case("pay", "pay 3 gold"),
    Case("three gains", "gain 1 fame\ngain 2 gold\ngain 1 gem"),
    Case("each player", "for each P in players: gain 1 gold for P"),
    Case("each opponent", "for each P in opponents: gain 2 fame for P"),
    Case("if/else", "if my gold > 10: gain 1 fame\nelse: gain 1 gold"),
    Case("let", "let X be my fame * 2\ngain X gold"),
    Case("choose a resource", "choose a resource as R\ngain 1 R", (0,)),
    Case("choose one", 'choose one:\n    "gold": gain 2 gold\n    "fame": gain 2 fame', (1,)),
    Case("raise and lower an industry", "choose an industry as X\nraise X's space by 1\nlower X's space by 1", (0,)),
    Case("every industry up and down",
         "for each X in industries: raise X's space by 1\nfor each X in industries: lower X's space by 1"),
    Case("filtered count", "gain count of (industries where its space > 3) gold"),
    Case("highest", "gain highest fame of players gold"),
    Case("total", "gain total fame of players gold"),
    Case("repeat", "repeat 3 times: gain 1 gold"),
    Case("cost with a modifier", "lose max(0, 10 - relationship_discount) gold"),
    Case("timed modifier, then the cost",
         "until generation_end: relationship_discount + 3\nlose max(0, 10 - relationship_discount) gold",
         clears_timed=True),
    Case("track bump", "place my relationship_token on general\n"
         "remove top of (relationship_tokens in general where owner of it is me)\nadvance general by -1"),
    Case("trigger", "announce global_action_triggered with action = ga_income, actor = me"),
    Case("transfer", "let P be top of opponents\ntransfer 1 from my fame to P's fame\n"
         "transfer 1 from P's fame to my fame"),
    Case("nested loops with a filter",
         "for each P in players:\n    for each X in industries where its space >= 1:\n        gain 1 gold for P"),
)


def suite_state() -> tuple[GameState, Slots] | None:
    """A mid-game 4-player Legacies state with room for every effect: plenty of gold
    and fame, S15 in player 1's successor zone, no continuous modifier of the
    relationship discount in play."""
    if "legacies" not in rulesets():
        return None
    res = load_ruleset("legacies")
    if res.spec is None:
        return None
    from legacies.agents.bench import mid_game

    gs = mid_game("legacies", 4, 120)
    if gs is None:
        return None
    st, lay = gs.st, gs.game.layout
    s = Slots(gs.game)
    for p in range(s.players):
        st.counters[s.gold + p] = 10**9
        st.counters[s.fame + p] = 50
    s15 = lay.def_pieces[lay.def_index["S15"]][0]
    zones, loc = st.zones, st.loc
    if loc[s15] >= 0:
        zones[loc[s15]].remove(s15)
    dest = lay.player_zone["successor"]
    zones[dest].append(s15)
    loc[s15] = dest
    for p, space in ((1, 0), (2, 1)):  # two rivals on the General's track: placing bumps both
        token = [q for q in zones[s.supply + p] if lay.piece_def[q] == s.token_def][-1]
        target = lay.track_zones[s.general][space]
        zones[loc[token]].remove(token)
        zones[target].append(token)
        loc[token] = target
    if gs.game.continuous.get("relationship_discount"):
        in_play = [d for d, *_ in gs.game.continuous["relationship_discount"]
                   for pid in lay.def_pieces[d] if loc[pid] >= 0 and lay.zone_in_play[loc[pid]]]
        for d in in_play:
            for pid in lay.def_pieces[d]:
                if loc[pid] >= 0 and lay.zone_in_play[loc[pid]]:
                    zones[loc[pid]].remove(pid)
                    zones[0].append(pid)
                    loc[pid] = 0
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
            st.answer(d.options[index].value)
        assert st.pending is None, f"{case.name}: a decision was left unanswered"
    return run


def _snapshot(st: State) -> tuple:
    return (st.counters[:], [z[:] for z in st.zones], st.loc[:], [tuple(m) for m in st.timed], st.values[:])


def _fresh(base: GameState) -> State:
    st = base.clone().st
    st.frames, st.pending = [], None
    st.active = 0
    return st


def effect_overhead(quick: bool) -> dict[str, Any] | None:
    """Engine time over hand-written time for the suite (None without Legacies)."""
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
