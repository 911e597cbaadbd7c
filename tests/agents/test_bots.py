"""Bots: legal, deterministic, blind to what their seat cannot see, and the greedy and
search bots prefer what the ruleset's evaluation (or a win) prefers."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from legacies.agents.bots import GreedyBot, RandomBot, RolloutBot, SearchBot
from legacies.agents.match import play_match
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.information import determinize
from legacies.pipeline.ruleset import load_ruleset

TINY = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures" / "tiny"


@pytest.fixture(scope="module")
def tiny():
    return load_ruleset("tiny", TINY).spec


def test_random_bot_is_seeded(tiny) -> None:
    s = Game(tiny, 2).new_state(0)
    picks_a = [RandomBot(5).choose(s) for _ in range(3)]
    picks_b = [RandomBot(5).choose(s) for _ in range(3)]
    assert picks_a == picks_b
    assert all(0 <= p < len(s.decision.options) for p in picks_a)


def test_rollout_bot_never_picks_an_option_the_rules_refuse(tiny) -> None:
    s = Game(tiny, 2).new_state(0)
    labels = s.decision.labels()
    assert "Pay 100 gold for a point" in labels and "Count to a million" not in labels
    picks = {labels[RolloutBot(seed=seed, rollouts=4).choose(s)] for seed in range(4)}
    assert picks and "Pay 100 gold for a point" not in picks  # refused by the rules
    assert s.decision.labels() == labels  # choosing does not touch the game


def test_matches_are_reproducible() -> None:
    spec = load_ruleset("legacy").spec
    a = play_match(spec, ["rollout", "random"], seed=4)
    b = play_match(spec, ["rollout", "random"], seed=4)
    assert a.log == b.log and a.scores == b.scores
    assert a.state is not None and a.state.is_terminal()


def hand_with_big_card(tiny, seed_from: int = 0) -> GameState:
    """A fresh tiny game whose first player holds a Big card (worth 3) and a Small one."""
    for seed in range(seed_from, seed_from + 200):
        s = Game(tiny, 2).new_state(seed)
        labels = s.decision.labels()
        if "Play Big" in labels and "Play Small" in labels:
            return s
    raise AssertionError("no seed deals Big and Small")


def test_greedy_bot_takes_the_move_its_evaluation_prefers(tiny) -> None:
    """Tiny declares no evaluation: the score. Playing Big scores 3 now, Small 1, the
    auction nothing yet, and the splurge is refused: one decision ahead, greedy plays Big,
    every seed."""
    s = hand_with_big_card(tiny)
    labels = s.decision.labels()
    assert {labels[GreedyBot(seed, lookahead=0).choose(s)] for seed in range(5)} == {"Play Big"}
    assert s.decision.labels() == labels  # choosing does not touch the game


def test_greedy_bot_follows_its_own_decisions_to_the_end_of_the_action(tiny) -> None:
    """The auction is worth nothing when chosen: its worth shows one decision later, at
    the bid. Following its own decisions through the action, greedy sees that bidding
    all its gold (10) leaves the other player unable to raise and wins 5 points, more
    than Big's 3 (tiny's score counts no gold): it holds the auction and bids 10."""
    s = hand_with_big_card(tiny)
    labels = s.decision.labels()
    bot = GreedyBot(0)
    assert labels[bot.choose(s)] == "Hold an auction for 5 points" and bot.last_depth == 1
    s.apply(labels.index("Hold an auction for 5 points"))
    assert s.decision.labels()[bot.choose(s)] == "bid 10"
    s.apply(s.decision.labels().index("bid 10"))
    assert s.decision is not None and s.decision.player == 1 and s.scores() == [5, 0]  # the next turn
    small = hand_with_big_card(tiny)  # a lookahead too small for one decision more: as it stands
    assert small.decision.labels()[GreedyBot(0, lookahead=3).choose(small)] == "Play Big"


def test_greedy_bot_given_no_lookahead_takes_the_rulesets(tiny, tmp_path: Path) -> None:
    """`greedy_lookahead: 3` in tiny's ruleset.yaml: a greedy bot given no number applies
    3 options, too few to follow the auction to its bid, and plays Big as it stands (with
    tiny's own, the bot's 400, it holds the auction: above); one given its own follows."""
    import shutil

    root = tmp_path / "tiny"
    shutil.copytree(TINY, root)
    head = root / "rules" / "tiny" / "ruleset.yaml"
    head.write_text(head.read_text() + "greedy_lookahead: 3\n")
    spec = load_ruleset("tiny", root).spec
    assert spec is not None and spec.greedy_lookahead == 3 and tiny.greedy_lookahead is None
    s = hand_with_big_card(spec)
    labels = s.decision.labels()
    assert labels[GreedyBot(0).choose(s)] == "Play Big"
    bot = GreedyBot(0, lookahead=400)
    assert labels[bot.choose(s)] == "Hold an auction for 5 points" and bot.last_depth == 1


def test_search_bot_takes_the_move_that_scores(tiny) -> None:
    s = hand_with_big_card(tiny)
    labels = s.decision.labels()
    bot = SearchBot(3, think=None, iterations=150)
    assert labels[bot.choose(s)] == "Play Big" and bot.last_iterations == 150
    timed = SearchBot(3, think=0.05)
    timed.choose(s)
    assert timed.last_iterations >= 1  # a time budget stops after at least one iteration


@pytest.mark.parametrize("make", [lambda: GreedyBot(11), lambda: SearchBot(11, think=None, iterations=40)],
                         ids=["greedy", "search"])
def test_bots_do_not_peek(tiny, make) -> None:
    """Two states that the deciding player cannot tell apart (the same except for the
    cards it cannot see) get the same move from the same bot: it decides from its view."""
    real = hand_with_big_card(tiny)
    me = real.decision.player
    other = determinize(real, me, __import__("random").Random(99))  # the unseen cards dealt otherwise
    hidden_real = [real.st.zones[z][:] for z in range(len(real.st.zones))]
    hidden_other = [other.st.zones[z][:] for z in range(len(other.st.zones))]
    assert hidden_real != hidden_other  # the worlds differ where the player cannot see
    assert real.view(me) == other.view(me)
    assert make().choose(real) == make().choose(other)


@pytest.mark.slow  # a bot-strength run, 40 games: `-m slow`, a step of .ci/run
def test_greedy_beats_random_bots() -> None:
    """Seeded, so the same every run: greedy against three random bots in 40 games of
    the Legacy card game (seats rotated) wins well over its fair share of 10."""
    from legacies.agents.simulate import Request, simulate

    sim = simulate(Request("legacy", players=4, seats=("greedy", "random", "random", "random"), games=40))
    wins = sum(r.seats[r.winner] == "greedy" for r in sim.records)
    assert wins >= 14, wins


@pytest.mark.parametrize("ruleset, expansions, players", [
    ("legacy", (), 4), ("legacies", (), 4), ("gears-of-time", (), 3), ("leaders-legacy", (), 3),
    ("leaders-legacy", ("fame-and-fortune",), 3)], ids=["legacy", "legacies", "gears-of-time", "leaders-legacy",
                                                        "fame-and-fortune"])
def test_greedy_and_search_bots_choose_an_option_the_rules_take_through_a_game(
        ruleset: str, expansions: tuple[str, ...], players: int) -> None:
    """The short form of each ruleset's whole games of greedy and search bots (those run
    under `-m slow`): at points spread over a seeded random game, from the first choice to
    the last turns, greedy and search each pick an offered option, choosing leaves the game
    exactly as it was, and the rules take the pick."""
    import random

    from legacies.agents.bots import apply_random_option
    from legacies.interpreter.game import Undo

    spec = load_ruleset(ruleset, None, list(expansions)).spec
    assert spec is not None
    game = Game(spec, players)
    ended = game.new_state(5)
    rng = random.Random(5)
    while ended.decision is not None:  # how long the game is: the points spread over all of it
        apply_random_option(ended, rng, undo=Undo.REPLAY)
    length = len(ended.st.history)
    points = {length * k // 6 for k in range(6)}
    state, rng, asked = game.new_state(5), random.Random(5), 0
    while state.decision is not None:
        at = len(state.st.history)
        if at >= min(points, default=length) and len(state.decision.options) > 1:
            points = {p for p in points if p > at}
            before = state.fingerprint()
            for bot in (GreedyBot(at), SearchBot(at, think=None, iterations=4)):
                pick = bot.choose(state)
                assert 0 <= pick < len(state.decision.options) and state.fingerprint() == before, bot.name
                state.clone().apply(pick)  # taken: a refusal or an internal error fails the test
            asked += 1
        apply_random_option(state, rng, undo=Undo.REPLAY)
    assert asked >= 5 and len(state.st.history) == length  # the same game as the one measured


class _Forgetful(dict):
    """A store of states that keeps none: every pass applies each line again."""

    def __setitem__(self, key: object, value: object) -> None:
        pass


class _Applies:
    """`GameState.apply` counting its calls, patched in with `counting(m)`; `apply` is the
    original (what the test itself applies is not counted)."""

    def __init__(self) -> None:
        self.count = 0
        self.apply = GameState.apply

    def counting(self, m: pytest.MonkeyPatch) -> None:
        original = self.apply

        def counted(state: GameState, *args: Any, **kwargs: Any) -> object:
            self.count += 1
            return original(state, *args, **kwargs)

        m.setattr(GameState, "apply", counted)


def test_greedy_goes_on_from_the_states_its_last_pass_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deeper pass of greedy's lookahead starts from the states the pass before reached
    instead of applying each line again: fewer options applied, the same choices (the
    lookahead counts a kept line as applied, so each pass goes exactly as deep)."""
    from legacies.agents import bots
    from legacies.agents.bench import mid_game

    applies = _Applies()
    apply = applies.apply

    def play(keep: bool) -> tuple[list[int], list[int], int]:
        state = mid_game("leaders-legacy", 3, 40)
        assert state is not None
        picks: list[int] = []
        depths: list[int] = []
        applies.count = 0
        with monkeypatch.context() as m:
            applies.counting(m)
            if not keep:
                line = bots._Line
                m.setattr(bots, "_Line", lambda me, turn, left, ended, _, made, cut: line(me, turn, left, ended, _Forgetful(),
                                                                                          made, cut))
            for _ in range(6):
                bot = GreedyBot(7)
                picks.append(bot.choose(state))
                depths.append(bot.last_depth)
                apply(state, picks[-1])
        return picks, depths, applies.count

    kept, forgot = play(keep=True), play(keep=False)
    assert kept[:2] == forgot[:2] and max(kept[1]) >= 2  # some decision was followed two passes deep or more
    assert kept[2] < forgot[2]


def test_greedy_weighs_only_what_can_change_its_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Greedy weighs the lines of its last pass only, each state once, and stops
    evaluating a state's opponents once it cannot reach the best option so far: the same
    choices as weighing every line of every pass with every player's evaluation, for
    fewer evaluations (each counted in `last_weighed`, one player's each)."""
    from legacies.agents import bots
    from legacies.agents.bench import mid_game

    evaluations = 0
    evaluate = GameState.evaluate

    def counted(self: GameState, player: int) -> float:
        nonlocal evaluations
        evaluations += 1
        return evaluate(self, player)

    class Exact(bots._Weigh):
        """Every line weighed exactly, every player evaluated, nothing shared."""

        def __call__(self, worth: bots._Worth, floor: float = float("-inf")) -> float:
            return super().__call__(worth, float("-inf"))

        def standing(self, state: GameState, floor: float) -> float:
            return bots.standing(state, self.me)

    def play(ruleset: str, exact: bool) -> tuple[list[int], int, int]:
        nonlocal evaluations
        state = mid_game(ruleset, 4, 30)
        assert state is not None
        picks, evaluations, weighed = [], 0, 0
        with monkeypatch.context() as m:
            m.setattr(GameState, "evaluate", counted)
            if exact:
                m.setattr(bots, "_Weigh", Exact)
            for _ in range(4):
                bot = GreedyBot(3)
                picks.append(bot.choose(state))
                weighed += bot.last_weighed
                state.apply(picks[-1])
        return picks, evaluations, weighed

    for ruleset in ("leaders-legacy", "gears-of-time"):
        lean, exact = play(ruleset, exact=False), play(ruleset, exact=True)
        assert lean[0] == exact[0]
        assert lean[1] == lean[2] > 0  # every evaluation counted
        assert lean[1] < 0.7 * exact[1]


def test_greedy_knows_a_pass_would_run_out_before_applying_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether the next pass of greedy's lookahead would count more options than the
    lookahead is known from the pass before (`_Line.would_exceed`), so the pass that used
    to run out is never applied: the same choices, depths and evaluations as running it
    until it ran out, for fewer options applied."""
    from legacies.agents import bots
    from legacies.agents.bench import mid_game

    applies = _Applies()

    def play(ruleset: str, foresee: bool) -> tuple[list[tuple[int, int, int]], int]:
        state = mid_game(ruleset, 4, 150)
        assert state is not None
        picks: list[tuple[int, int, int]] = []
        applies.count = 0
        with monkeypatch.context() as m:
            applies.counting(m)
            if not foresee:
                m.setattr(bots._Line, "would_exceed", lambda self, roots, depth: False)
            for _ in range(5):
                bot = GreedyBot(11)
                pick = bot.choose(state)
                picks.append((pick, bot.last_depth, bot.last_weighed))
                applies.apply(state, pick)
        return picks, applies.count

    for ruleset in ("leaders-legacy", "gears-of-time"):
        foreseen, ran_out = play(ruleset, foresee=True), play(ruleset, foresee=False)
        assert foreseen[0] == ran_out[0]
        assert any(depth >= 1 for _, depth, _ in foreseen[0])
        assert foreseen[1] < 0.8 * ran_out[1]


def _menus_made(monkeypatch: pytest.MonkeyPatch,
                counting: Callable[[bool, int], tuple[bool, int]] | None) -> tuple[list[tuple[int, int, int]], int]:
    """Greedy's picks (the option, how deep it followed, the evaluations made) over six
    decisions of a Leader's Legacy game, and the menus it made (made when read:
    vm.made_when_read); `counting(exact, room)` gives `_Line._count` other arguments."""
    from legacies.agents import bots
    from legacies.agents.bench import mid_game
    from legacies.interpreter import decisions

    made = 0
    build = decisions.Decision.options.fget  # type: ignore[attr-defined]

    def counted(self: decisions.Decision) -> object:
        nonlocal made
        made += not self.made
        return build(self)

    state = mid_game("leaders-legacy", 4, 150)
    assert state is not None
    picks: list[tuple[int, int, int]] = []
    with monkeypatch.context() as m:
        m.setattr(decisions.Decision, "options", property(counted))
        if counting is not None:
            count = bots._Line._count
            m.setattr(bots._Line, "_count",
                      lambda self, st, depth, path, exact, room: count(self, st, depth, path, *counting(exact, room)))
        for _ in range(6):
            bot = GreedyBot(5, lookahead=GreedyBot.LOOKAHEAD)  # 400, not the ruleset's 100: passes cut short
            pick = bot.choose(state)
            picks.append((pick, bot.last_depth, bot.last_weighed))
            state.apply(pick)
    return picks, made


def test_greedy_reads_no_menu_to_know_a_pass_is_too_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line the last pass cut counts at least one option in the next: when that alone
    passes the lookahead, greedy stops without making the menus of the lines it cut.
    The same choices, depths and evaluations as counting every cut line's options
    exactly, for fewer menus made."""
    bounded = _menus_made(monkeypatch, None)
    exact = _menus_made(monkeypatch, lambda exact, room: (True, room))
    assert bounded[0] == exact[0] and any(depth >= 1 for _, depth, _ in bounded[0])
    assert bounded[1] < exact[1]


def test_greedy_stops_counting_a_pass_once_it_is_too_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting the next pass's options stops once the count passes the lookahead (the
    menus of the lines not counted yet are never made): the same choices, depths and
    evaluations as counting every line, for fewer menus made."""
    stopped = _menus_made(monkeypatch, None)
    counted_all = _menus_made(monkeypatch, lambda exact, room: (exact, 10**9))
    assert stopped[0] == counted_all[0] and any(depth >= 1 for _, depth, _ in stopped[0])
    assert stopped[1] < counted_all[1]
