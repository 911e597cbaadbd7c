"""OpenSpiel's RandomSimTest for every installed ruleset and every fixture ruleset under
tests/ (each folder holding rules/<name>/ruleset.yaml that loads with no error, e.g.
tests/fixtures/minilegacies and tests/interpreter/fixtures/tiny), at every supported
player count (three seeds each; and, at the fewest and the most players, one game with
every setup option away from its default, except the options in KEEP_DEFAULT); and every
installed expansion over its ruleset at its fewest and most players (`leaders-legacy+
fame-and-fortune-3p-seed0`).
Everything is seeded: a failure reproduces by its test id. An installed ruleset's id
starts with its name (`legacy-3p-seed0`), a fixture's with its name and folder
(`tiny@tests/interpreter/fixtures/tiny-2p-seed0`).

A seeded random.Random plays random legal options to the end; at EVERY step the state
is checked against the engine's invariants:

- a decision with a non-empty option list exists until the game is terminal (and only
  then is there none); the decider is a seat of this game, never one the rules run (the
  ruleset's `automated:` counter, e.g. a non-player character);
- counters stay within their declared bounds (layout.counter_min / counter_max) and
  are plain ints (a counter with no declared minimum may go below zero by design);
- every card/token piece is in exactly one zone (st.loc[pid] == z iff pid in
  st.zones[z]); board items have loc -1 and sit in no zone; so the multiset of all zone
  contents is exactly the non-board pieces;
- hidden information: `view(p)` shows a zone hidden to p (another player's owner-only
  zone, a hidden deck) only as a count plus the pieces explicitly revealed, and (every
  4th step) shuffling the identities of the pieces p cannot see leaves view(p) unchanged;
- a clone equals the original and is independent of it, both ways;
- an out-of-range (or non-int) option raises IllegalChoice and changes nothing; an
  option the rules refuse (Refused) changes nothing either;
- at every step, each option tried (in random order, up to the first one the rules
  accept) is applied both to a clone taken just before and to the original: both refuse
  it (with the same message, both states unchanged) or both accept it and reach the same
  fingerprint. Only Refused (and its subclass IllegalChoice) is a refusal: an
  InternalError (an engine or content bug) or any other GameError fails the test;
- interpreter.invariants.problems() (the soak run's checker) finds nothing;
- every 17th step (and at the end) serialize()/deserialize() gives an equal
  canonical() and fingerprint().

At the end: the seed plus the recorded decisions, replayed on a fresh Game, reproduce
the final state exactly; scores() are ints, winner() is a seat, the game is terminal.

A second test feeds deserialize() corrupted saves (of every installed and fixture
ruleset): each must raise CorruptSave and leave nothing half-loaded (the live game and
the spec are untouched, and the good save still loads).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from legacies.interpreter.errors import CorruptSave, GameError, IllegalChoice, Refused
from legacies.interpreter.game import Game, GameState
from legacies.interpreter.invariants import problems
from legacies.interpreter.mechanics import describe
from legacies.interpreter.vm import State
from legacies.pipeline.ruleset import RulesetResult, load_ruleset, rulesets
from legacies.pipeline.stack import installed_expansions

SEEDS = (0, 1, 2)
# Rulesets whose games are long play one seed per player count (Legacies: ~450 decisions a
# game, Leader's Legacy ~600-900, each step checked several ways; tests/rulesets/ plays more
# of their own).
SEEDS_BY_RULESET = {"legacies": (0,), "leaders-legacy": (0,)}
SAVE_EVERY = 17  # serialize/deserialize round trip every N steps
SHUFFLE_VIEW_EVERY = 4  # the (costlier) permuted-hidden-pieces view check every N steps
CLONE_WALK = 4  # random steps a clone takes to prove it is independent
MAX_DECISIONS = 50_000  # a game that has not ended by then is stuck


# Setup options the simulation leaves at their default, by (ruleset, option): content
# bugs kept on purpose for other tests.
KEEP_DEFAULT = {
    ("tiny", "runaway"),  # offers an action that never ends (tests of the step budget)
    ("gadgets", "broken"),  # offers two actions that stop on a run-time error (tests of those errors)
    ("numbers", "runaway"),  # offers an action whose number grows past the engine's limit (tests of it)
    ("work", "loop_for_robot"),  # a seat the rules run is asked without end in setup (tests of the budget)
}
# Tables with non-player characters, by ruleset: (players in all, options, label). Legacies
# (NPC-*, TWO-*): one person and 1-3 Nemeses (with one Nemesis the Rising Star joins),
# two people and the Rising Star, with and without a Nemesis.
NPC_TABLES = {
    "legacies": [
        (3, {"nemesis": 1, "rising_star": True}, "solo-1-nemesis"),
        (3, {"nemesis": 2}, "solo-2-nemeses"),
        (4, {"nemesis": 3}, "solo-3-nemeses"),
        (3, {"rising_star": True}, "2p-rising-star"),
        (4, {"nemesis": 1, "rising_star": True}, "2p-nemesis-rising-star"),
    ],
}
# Fixture rulesets that must be found and load (guards the glob below).
EXPECTED_FIXTURES = ("minilegacies@tests/fixtures/minilegacies", "tiny@tests/interpreter/fixtures/tiny")

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent


# --------------------------------------------------------------------------- cases
# A ruleset key: an installed ruleset's name, or `name@folder` for a fixture folder
# (relative to the repo) that holds rules/<name>/ruleset.yaml.
_results: dict[str, RulesetResult] = {}


def _load(key: str) -> RulesetResult:
    if key not in _results:
        name, _, folder = key.partition("@")
        ruleset, _, expansion = name.partition("+")
        _results[key] = (load_ruleset(name, root=REPO / folder) if folder else
                         load_ruleset(ruleset, None, [expansion]) if expansion else load_ruleset(name))
    return _results[key]


def _expansion_stacks() -> list[str]:
    """Every installed expansion laid over the ruleset it extends, as `ruleset+expansion` keys."""
    return [f"{e.ruleset()}+{e.name}" for e in installed_expansions() if e.ruleset()]


def _fixture_folders() -> list[str]:
    """Every fixture ruleset under tests/, as `name@folder` keys, whether it loads or not."""
    keys = []
    for path in sorted(TESTS.glob("**/rules/*/ruleset.yaml")):
        root = path.parents[2]
        keys.append(f"{path.parent.name}@{root.relative_to(REPO).as_posix()}")
    return keys


def _fixture_rulesets() -> list[str]:
    """The fixture rulesets that load with no error: a folder kept broken on purpose (for
    the tests of diagnostics) is no game to play."""
    return [key for key in _fixture_folders() if _load(key).ok and _load(key).spec is not None]


def _all_rulesets() -> list[str]:
    return list(rulesets()) + _fixture_rulesets()


def _spec(name: str):
    result = _load(name)
    assert result.ok and result.spec is not None, (
        f"ruleset {name!r} does not load:\n" + "\n".join(str(d) for d in result.diagnostics))
    return result.spec


def _long(name: str, players: int) -> list[Any]:
    """The tables whose games are the longest (a minute or more each on two cores), an
    expansion's over its ruleset among them: a step of their own (`-m slow`)."""
    return [pytest.mark.slow] if name == "leaders-legacy" or (name == "legacies" and players >= 4) else []


def _cases() -> list[Any]:
    cases = []
    for name in _all_rulesets():
        try:
            spec = _spec(name)
        except AssertionError:  # reported by test_ruleset_loads, not hidden here
            continue
        for players in range(spec.min_players, spec.max_players + 1):
            for seed in SEEDS_BY_RULESET.get(name, SEEDS):
                cases.append(pytest.param(name, players, seed, None, id=f"{name}-{players}p-seed{seed}",
                                          marks=_long(name, players)))
        for players, options, label in NPC_TABLES.get(name, []):
            cases.append(pytest.param(name, players, 0, options, id=f"{name}-{label}", marks=_long(name, players)))
        variant = _variant_options(spec)
        if variant:  # the non-default setup options once: other code paths (e.g. several rounds)
            for players in sorted({spec.min_players, spec.max_players}):
                cases.append(pytest.param(name, players, 0, variant, id=f"{name}-{players}p-options",
                                          marks=_long(name, players)))
    for name in _expansion_stacks():  # each installed expansion over its ruleset: its fewest and most players
        spec = _spec(name)
        for players in sorted({spec.min_players, spec.max_players}):
            cases.append(pytest.param(name, players, 0, None, id=f"{name}-{players}p-seed0",
                                      marks=_long(name.partition("+")[0], players)))
    return cases


def _variant_options(spec) -> dict[str, Any]:
    """Every option away from its default (but those in KEEP_DEFAULT): flags flipped,
    amounts one more (one less at their declared maximum)."""
    out: dict[str, Any] = {}
    for key, default in spec.option_defaults.items():
        if (spec.name, key) in KEEP_DEFAULT:
            continue
        if isinstance(default, bool):
            out[key] = not default
        elif isinstance(default, int):
            _, lo, hi = spec.option_rules.get(key, ("amount", None, None))
            if hi is None or default + 1 <= hi:
                out[key] = default + 1
            elif lo is None or default - 1 >= lo:
                out[key] = default - 1
    return out


_games: dict[tuple[str, int, str], Game] = {}


def _game(name: str, players: int, options: dict[str, Any] | None = None) -> Game:
    key = (name, players, json.dumps(options, sort_keys=True))
    if key not in _games:
        _games[key] = Game(_spec(name), players, options)
    return _games[key]


def snap(gs: GameState) -> str:
    """canonical() returns the state's live lists: freeze it (as canonical JSON text)
    to compare later. Cheaper than a deepcopy, and as strict for JSON-plain data."""
    return json.dumps(gs.canonical(), sort_keys=True, separators=(",", ":"), default=repr)


# --------------------------------------------------------------------------- invariants
def check_decision(gs: GameState) -> None:
    st, n = gs.st, gs.game.players
    d = gs.decision
    if gs.is_terminal():
        assert d is None and st.over and not st.frames
        assert gs.legal_actions() == [] and gs.current_player() == -1
        return
    assert d is not None, "not terminal, yet nothing to decide"
    assert not st.over
    assert len(d.options) > 0, f"decision {d.prompt!r} offers no options"
    assert 0 <= d.player < n, f"decision for seat {d.player} in a {n}-player game"
    automated = gs.game.automated
    assert automated < 0 or st.counters[automated + d.player] == 0, \
        f"decision {d.prompt!r} asked of seat {d.player}, whom the rules run"
    assert gs.current_player() == d.player
    assert gs.legal_actions() == list(range(len(d.options)))
    assert all(isinstance(label, str) and label for label in d.labels())


def check_counters(gs: GameState) -> None:
    st, lay = gs.st, gs.game.layout
    assert len(st.counters) == lay.n_counters
    for i, v in enumerate(st.counters):
        assert type(v) is int, f"counter {lay.counter_label[i]} holds {v!r}"
        lo, hi = lay.counter_min[i], lay.counter_max[i]
        assert lo is None or v >= lo, f"counter {lay.counter_label[i]} = {v} is below its min {lo}"
        assert hi is None or v <= hi, f"counter {lay.counter_label[i]} = {v} is above its max {hi}"


def check_pieces(gs: GameState) -> None:
    st, lay = gs.st, gs.game.layout
    n = len(lay.piece_def)
    assert len(st.loc) == n and len(st.zones) == len(lay.zone_name)
    seen = [0] * n
    for z, contents in enumerate(st.zones):
        for pid in contents:
            assert 0 <= pid < n, f"zone {lay.zone_name[z]} holds unknown piece {pid}"
            assert st.loc[pid] == z, (f"piece {pid} is in zone {lay.zone_name[z]} "
                                      f"but its loc says {st.loc[pid]}")
            seen[pid] += 1
    for pid in range(n):
        if lay.piece_start[pid] < 0:  # a board item: never in a zone
            assert st.loc[pid] == -1 and seen[pid] == 0, f"board item {pid} is in a zone"
        else:
            assert seen[pid] == 1, f"piece {pid} is in {seen[pid]} zones"
    # hence: multiset of zone contents == every non-board piece
    assert sorted(p for z in st.zones for p in z) == [p for p in range(n) if lay.piece_start[p] >= 0]


def _hidden_from(gs: GameState, p: int) -> list[int]:
    lay = gs.game.layout
    return [z for z in range(1, len(lay.zone_name))
            if not (lay.zone_visibility[z] == "public"
                    or (lay.zone_visibility[z] == "owner" and lay.zone_owner[z] == p))]


def check_views(gs: GameState, permute: random.Random | None) -> None:
    """view(p) shows hidden zones as counts (+ revealed pieces) only; with `permute`,
    also shuffle which hidden piece is where and require an identical view."""
    st, lay, n = gs.st, gs.game.layout, gs.game.players
    d = gs.decision
    name = [describe(st, q) for q in range(len(lay.piece_def))]
    for p in range(n):
        v = gs.view(p)
        json.dumps(v)  # plain data for a bot or a screen
        assert len(v["zones"]) == len(lay.zone_name) - 1, "two zones share a label in view()"
        hidden = set(_hidden_from(gs, p))
        shown = list(v["zones"].values())  # zones 1.. in order (dicts keep insertion order)
        for z in range(1, len(lay.zone_name)):
            entry = shown[z - 1]
            if z in hidden:
                assert isinstance(entry, dict), f"hidden zone {lay.zone_name[z]} shown in full to P{p}"
                assert set(entry) == {"hidden", "revealed"}
                assert entry["hidden"] == len(st.zones[z])
                assert entry["revealed"] == [name[q] for q in st.zones[z] if q in st.revealed]
            else:
                assert entry == [name[q] for q in st.zones[z]]
        if d is not None:
            assert ("options" in v["decision"]) == (d.player == p), "options shown to a non-decider"
        if permute is None or not hidden:
            continue
        # Swap the identities of the pieces p cannot see (counts per zone kept): a view
        # that depends only on what p knows cannot change.
        slots = [(z, i) for z in sorted(hidden) for i, q in enumerate(st.zones[z]) if q not in st.revealed]
        if len(slots) < 2:
            continue
        pieces = [st.zones[z][i] for z, i in slots]
        permute.shuffle(pieces)
        other: State = st.clone()
        for (z, i), q in zip(slots, pieces):
            other.zone(z)[i] = q
            other.loc[q] = z
        assert GameState(other).view(p) == v, f"view({p}) changes with pieces P{p} cannot see"


def check_all(gs: GameState, step: int, permute: random.Random) -> None:
    assert problems(gs) == []
    check_decision(gs)
    check_counters(gs)
    check_pieces(gs)
    check_views(gs, permute if step % SHUFFLE_VIEW_EVERY == 0 else None)


# --------------------------------------------------------------------------- helpers
def try_apply(gs: GameState, order: list[int], before: str | None = None) -> int | None:
    """Apply the first option of `order` the rules accept; a refusal must change
    nothing. Returns the option taken, or None if every option was refused. Only
    Refused (IllegalChoice included) is a refusal; any other GameError fails here, and
    an InternalError (not a GameError) propagates and fails the test."""
    for i in order:
        try:
            gs.apply(i)
            return i
        except Refused:
            if before is not None:
                assert snap(gs) == before, f"refused option {i} changed the state"
        except GameError as err:  # not a rules refusal: an engine or content bug
            raise AssertionError(f"option {i} ({gs.decision.labels()[i]!r}) failed: {err}") from err
    return None


def _outcome(gs: GameState, i: int) -> str | None:
    """Apply option i: None if the rules accept it, the refusal if they refuse it. Any
    other error propagates: an InternalError is a bug, never a refusal."""
    try:
        gs.apply(i)
    except Refused as err:  # IllegalChoice included
        return f"{type(err).__name__}: {err}"
    except GameError as err:  # not a rules refusal: an engine or content bug
        raise AssertionError(f"option {i} ({gs.decision.labels()[i]!r}) failed: {err}") from err
    return None


def _differs(a: GameState, b: GameState) -> list[str]:
    ca, cb = a.canonical(), b.canonical()
    return [key for key in ca if json.dumps(ca[key], default=repr) != json.dumps(cb.get(key), default=repr)]


def apply_twice(gs: GameState, order: list[int], before: str) -> int | None:
    """try_apply, checking each option tried on a clone too: `clone = gs.clone();
    clone.apply(i)` and `gs.apply(i)` both refuse (same refusal, both states unchanged)
    or both reach the same fingerprint. Returns the option taken, or None if every
    option was refused."""
    for i in order:
        label = gs.decision.labels()[i]
        twin = gs.clone()
        on_clone = _outcome(twin, i)
        on_original = _outcome(gs, i)
        assert on_clone == on_original, (f"option {i} ({label!r}): the clone says {on_clone or 'yes'}, "
                                         f"the original {on_original or 'yes'}")
        if on_original is None:
            assert twin.fingerprint() == gs.fingerprint(), (
                f"option {i} ({label!r}) applied to a clone and to the original gives other states: "
                f"{_differs(twin, gs)} differ")
            return i
        assert snap(gs) == before, f"refused option {i} ({label!r}) changed the state"
        assert snap(twin) == before, f"refused option {i} ({label!r}) changed the clone"
    return None


def check_clone(gs: GameState, before: str, rng: random.Random) -> tuple[GameState, str]:
    """A clone equals the original; walking the clone leaves the original alone.
    Returns a second, untouched clone and its snapshot to check after the original moves."""
    walker = gs.clone()
    assert walker.canonical() == gs.canonical()
    assert walker.fingerprint() == gs.fingerprint()
    for _ in range(CLONE_WALK):
        if walker.is_terminal():
            break
        order = list(range(len(walker.decision.options)))
        rng.shuffle(order)
        if try_apply(walker, order) is None:
            break
    assert snap(gs) == before, "applying to a clone changed the original"
    keeper = gs.clone()
    return keeper, snap(keeper)


def check_bad_options(gs: GameState, before: str) -> None:
    k = len(gs.decision.options)
    for bad in (k, k + 5, -1, -k - 1, "0", 0.0, None):
        with pytest.raises(IllegalChoice):
            gs.apply(bad)  # type: ignore[arg-type]
    assert snap(gs) == before, "a refused out-of-range option changed the state"


def check_roundtrip(gs: GameState) -> None:
    text = gs.serialize()
    back = GameState.deserialize(gs.game.spec, text)
    assert back.canonical() == gs.canonical()
    assert back.fingerprint() == gs.fingerprint()
    assert back.serialize() == text


# --------------------------------------------------------------------------- tests
@pytest.mark.parametrize("name", _all_rulesets())
def test_ruleset_loads(name: str) -> None:
    spec = _spec(name)
    assert 1 <= spec.min_players <= spec.max_players


def test_problems_reports_board_items_in_zones_and_a_wrong_end() -> None:
    """The checks added to interpreter.invariants.problems() for this suite fire."""
    key = "minilegacies@tests/fixtures/minilegacies"
    gs = _game(key, 2).new_state(0)
    assert problems(gs) == []
    st, lay = gs.st, gs.game.layout
    board = lay.piece_start.index(-1)
    st.zone(1).append(board)
    st.loc[board] = 1
    st.over = True  # yet a decision is pending
    found = problems(gs)
    assert any(f"board item {board} is in zone 1" in p for p in found), found
    assert any("the game is over, yet decision" in p for p in found), found
    st.pending, st.frames = None, []
    st.over = False
    assert "no decision is pending, yet the game is not over" in problems(gs)


def test_fixture_rulesets_are_found() -> None:
    """The fixtures the simulation must cover are found and load (a broken glob or a
    broken fixture would otherwise drop them from the parametrization silently)."""
    found = _fixture_rulesets()
    for key in EXPECTED_FIXTURES:
        assert key in found, f"{key} not found or does not load; found {found} of {_fixture_folders()}"


@pytest.mark.parametrize("name, players, seed, options", _cases())
def test_random_simulation(name: str, players: int, seed: int, options: dict[str, Any] | None) -> None:
    game = _game(name, players, options)
    spec = game.spec
    choose = random.Random(f"{name}/{players}/{seed}")  # picks the game's options
    side = random.Random(f"side/{name}/{players}/{seed}")  # clone walks, permutations
    gs = game.new_state(seed)
    decisions: list[int] = []
    refusals = 0
    step = 0
    keeper: tuple[GameState, str] | None = None
    while True:
        check_all(gs, step, side)
        if gs.is_terminal():
            break
        assert step < MAX_DECISIONS, f"no end after {step} decisions"
        before = snap(gs)
        if step % SAVE_EVERY == 0:
            check_roundtrip(gs)
        check_bad_options(gs, before)
        keeper = check_clone(gs, before, side)

        order = list(range(len(gs.decision.options)))
        choose.shuffle(order)
        taken = apply_twice(gs, order, before)
        assert taken is not None, (f"step {step}: every option of {gs.decision.prompt!r} "
                                   f"{gs.decision.labels()} is refused: the game is stuck")
        refusals += order.index(taken)
        decisions.append(taken)
        assert gs.st.history == decisions
        assert snap(keeper[0]) == keeper[1], "applying to the original changed its clone"
        step += 1

    # the end
    check_roundtrip(gs)
    n = game.players
    scores = gs.scores()
    assert len(scores) == n and all(type(s) is int for s in scores)
    assert 0 <= gs.winner() < n
    assert sorted(gs.ranking()) == list(range(n))
    assert gs.returns() == [1.0 if p == gs.winner() else 0.0 for p in range(n)]
    with pytest.raises(IllegalChoice):
        gs.apply(0)

    # replay: seed + decisions on a fresh Game reproduce the final state exactly
    replay = Game(spec, players, options).new_state(seed)
    for i in decisions:
        replay.apply(i)
    assert replay.is_terminal()
    assert replay.canonical() == gs.canonical()
    assert replay.fingerprint() == gs.fingerprint()
    assert replay.scores() == scores and replay.winner() == gs.winner()


def _partial_game(name: str, players: int, seed: int, steps: int | None) -> GameState:
    gs = _game(name, players).new_state(seed)
    rng = random.Random(seed)
    while not gs.is_terminal() and (steps is None or len(gs.st.history) < steps):
        order = list(range(len(gs.decision.options)))
        rng.shuffle(order)
        assert try_apply(gs, order) is not None
    return gs


def _edit(text: str, **changes: Any) -> str:
    data = json.loads(text)
    for key, value in changes.items():
        if value is _DROP:
            del data[key]
        else:
            data[key] = value(data[key]) if callable(value) else value
    return json.dumps(data)


_DROP = object()


@pytest.mark.parametrize("name", _all_rulesets())
def test_corrupt_saves_are_refused_whole(name: str) -> None:
    spec = _spec(name)
    players = spec.min_players
    # a game stopped after 30 decisions (halfway through, for a game shorter than 60)
    length = len(_partial_game(name, players, seed=5, steps=60).st.history)
    gs = _partial_game(name, players, seed=5, steps=min(30, max(1, length // 2)))
    done = _partial_game(name, players, seed=6, steps=None)
    assert not gs.is_terminal() and done.is_terminal()
    good, good_done = gs.serialize(), done.serialize()
    live, live_done = snap(gs), snap(done)
    defs, n_defs = spec.defs, len(spec.defs)

    def bump(d: list) -> list:
        return d[:-1] + [d[-1] + 1_000_000]

    corrupt = {
        "truncated JSON": good[: len(good) // 2],
        "empty": "",
        "not an object": "[1, 2, 3]",
        "wrong format": _edit(good, format="legacies-save/0"),
        "wrong fingerprint": _edit(good, fingerprint="0" * 64),
        "wrong ruleset": _edit(good, ruleset=spec.name + "_not_installed"),
        "decision out of range": _edit(good, decisions=bump),
        "negative decision": _edit(good, decisions=lambda d: d[:-1] + [-1]),
        "non-numeric decision": _edit(good, decisions=lambda d: d[:-1] + ["x"]),
        "decision after the end": _edit(good_done, decisions=lambda d: d + [0]),
        "decisions missing": _edit(good, decisions=_DROP),
        "one decision short": _edit(good, decisions=lambda d: d[:-1]),
        "decisions not a list": _edit(good, decisions=7),
        "other seed": _edit(good, seed=lambda s: s + 1),
        "seed missing": _edit(good, seed=_DROP),
        "too many players": _edit(good, players=spec.max_players + 1),
        "unknown option": _edit(good, options={"no_such_option": 1}),
    }
    for what, text in corrupt.items():
        with pytest.raises(CorruptSave):
            GameState.deserialize(spec, text)
        # nothing half-loaded: the live games and the shared spec are as they were
        assert snap(gs) == live and snap(done) == live_done, what
        assert spec.defs is defs and len(spec.defs) == n_defs, what

    # and the good saves still load exactly
    for text, state in ((good, gs), (good_done, done)):
        back = GameState.deserialize(spec, text)
        assert back.canonical() == state.canonical() and back.fingerprint() == state.fingerprint()


# --------------------------------------------------------------------------- known bugs
# Found by this suite's probes (a bool once passed for an option index).
@pytest.mark.parametrize("name", _all_rulesets())
def test_bool_is_not_an_option_index(name: str) -> None:
    gs = _game(name, _spec(name).min_players).new_state(0)
    before = snap(gs)
    with pytest.raises(IllegalChoice):
        gs.apply(True)
    assert snap(gs) == before


def test_option_out_of_declared_range_is_refused() -> None:
    spec = _spec("legacy") if "legacy" in rulesets() else pytest.skip("no legacy ruleset")
    for bad in ({"rounds": 0}, {"rounds": 21}, {"rounds": True}, {"without_specials": 5}):
        with pytest.raises(GameError):
            Game(spec, 2, bad)
