"""What a generated definition's stamp names (codegen's keep across menus). A definition
given a player as a parameter (`standing(P)`) is kept with that player's own counts of
changes: their zone, counter and value (codegen/runtime.py `is_parameter`), so a
change of another player's leaves it kept and a change of theirs makes it again
(before, each such read was stamped with every zone's, every counter of the name's or
every value of the name's changes). A builtin is stamped with the parts its row in
interpreter/builtins.py `READS` names (before, a definition that used one was never
kept across menus)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from legacies.interpreter import mechanics as mech
from legacies.interpreter.game import Game, GameState
from legacies.pipeline.ruleset import load_ruleset

TINY = Path(__file__).parent / "fixtures" / "tiny"

VALUES = """
counter_sets:
  wealth: [gold, points]
values:
  rival: {scope: player, type: player, label: rival}
"""
DEFINITIONS = """
definitions:
  holding:
    params: {P: player}
    text: "what {P} holds"
    value: count of (cards in hand of P where its worth > 0) + P's gold + (1 if P's rival is nobody else 0)
  turn_hand:
    text: "the cards in the hand of the player whose turn it is"
    value: count of (cards in hand of active_player where its worth >= 0)
  purse:
    params: {P: player, W: "counter:wealth"}
    text: "what {P} holds of {W}"
    value: held(W, P) + count of (cards in hand of P where name of it is not name of P)
"""


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Game, GameState]:
    root = tmp_path_factory.mktemp("stamps") / "tiny"
    shutil.copytree(TINY, root)
    for name, more in (("ruleset.yaml", VALUES), ("procedures.yaml", DEFINITIONS)):
        rules = root / "rules" / "tiny" / name
        rules.write_text(rules.read_text() + more)
    loaded = load_ruleset("tiny", root)
    assert loaded.spec is not None, [d.headline() for d in loaded.diagnostics]
    game = Game(loaded.spec, 3)
    return game, game.new_state(1)


def _holding(game: Game) -> tuple[str, str, int]:
    written = game.compiler.gen.definitions.definition_fn("holding")  # written when first called
    assert written is not None
    made = written[0]
    source = game.compiler.sources[made]
    found = re.search(r"key = \((\d+), _p0,\)", source)  # one for every acting player: it reads none of theirs
    assert found is not None, source
    return made, source, int(found.group(1))


def test_the_stamp_names_the_given_players_own_zone_counter_and_value(table: tuple[Game, GameState]) -> None:
    game, _ = table
    lay = game.layout
    _, source, _ = _holding(game)
    stamp = re.search(r"stamp = \((.*),\)", source)
    assert stamp is not None
    players = lay.players
    sites = {f"(zv[{lay.player_zone['hand']} + _p0] if type(_p0) is int and 0 <= _p0 < {players} else v[0])",
             f"(sv[{lay.player_counter['gold']} + _p0] if type(_p0) is int and 0 <= _p0 < {players} "
             f"else v[{lay.counter_parts['gold']}])",
             f"(vv[{lay.player_value['rival']} + _p0] if type(_p0) is int and 0 <= _p0 < {players} "
             f"else v[{lay.value_parts['rival']}])"}
    items = [x.strip() for x in re.split(r",\s*(?![^()]*\))", stamp.group(1))]
    assert sites <= set(items), items
    # not every zone's, every gold's or every rival's changes, but for a value that is no player
    assert not {"v[0]", f"v[{lay.counter_parts['gold']}]", f"v[{lay.value_parts['rival']}]"} & set(items), items


def _kept_after(game: Game, state: GameState, change: str, player: int) -> bool:
    """Whether `holding(1)` is found kept (a forged value) after `change` to `player`'s part."""
    made, _, key_id = _holding(game)
    st, fn, lay = state.st, game.compiler.writer.ns[made], game.layout
    with st.frozen():
        first = fn(st, 0, -1, 1)
    key = (key_id, 1)
    assert st.keep[key][1] == first
    st.keep[key] = (st.keep[key][0], "forged")
    if change == "zone":
        card = lay.kind_pieces["card"][0]
        mech.move(st, card, lay.player_zone["hand"] + player)
    elif change == "counter":
        mech.adjust(st, lay.player_counter["gold"] + player, 1)
    else:
        mech.set_value(st, lay.player_value["rival"] + player, 0)
    with st.frozen():
        found = fn(st, 2, -1, 1)  # another acting player asks the same
    assert found == "forged" or found == fn(st, 2, -1, 1) != "forged"
    return found == "forged"


@pytest.mark.parametrize("change", ["zone", "counter", "value"])
def test_another_players_change_leaves_it_kept_and_the_given_players_makes_it_again(
        table: tuple[Game, GameState], change: str) -> None:
    game, state = table
    assert _kept_after(game, state, change, player=2)
    assert _kept_after(game, state, change, player=0)
    assert not _kept_after(game, state, change, player=1)


def test_the_kept_value_is_the_value_computed_afresh(table: tuple[Game, GameState]) -> None:
    """Along changes to every player's parts, each player's `holding` read in a menu (kept
    or made again) equals the same definition computed afresh (outside a menu: no keep)."""
    game, state = table
    made, _, _ = _holding(game)
    st, fn, lay = state.st, game.compiler.writer.ns[made], game.layout
    cards = lay.kind_pieces["card"]
    kept = 0
    for n in range(30):
        p = (n // 3) % 3
        if n % 3 == 0:
            mech.move(st, cards[n % len(cards)], lay.player_zone["hand"] + p)
        elif n % 3 == 1:
            mech.adjust(st, lay.player_counter["gold"] + p, n)
        else:
            mech.set_value(st, lay.player_value["rival"] + p, (p + 1) % 3 if n % 2 else -1)
        for q in range(3):
            before = len(st.keep)
            with st.frozen():
                in_menu = fn(st, q, -1, q)
            kept += len(st.keep) == before
            assert in_menu == fn(st, q, -1, q), (n, q)
    assert kept >= 30  # two of the three players' are found kept after each change


def test_every_builtin_has_its_row_of_reads() -> None:
    from legacies.interpreter import builtins

    assert set(builtins.READS) == set(builtins.RUN)
    assert set(builtins.READS_FOR_PLAYER) == set(builtins.FOR_PLAYER)


def test_a_definition_using_builtins_is_kept_by_their_parts(table: tuple[Game, GameState]) -> None:
    """`purse(P, W)` uses `held` (any counter's change) and `name` (never changes): a value
    change leaves it kept, any counter's change makes it again, and along changes it is
    always the value computed afresh."""
    game, state = table
    written = game.compiler.gen.definitions.definition_fn("purse")
    assert written is not None
    made = written[0]
    source = game.compiler.sources[made]
    lay = game.layout
    assert "stamp = " in source and "v[4]" in source  # PART_COUNTERS
    found = re.search(r"key = \((\d+), me, _p0, _p1,\)", source)  # `held` is given the acting player
    assert found is not None, source
    st, fn = state.st, game.compiler.writer.ns[made]
    with st.frozen():
        first = fn(st, 0, -1, 1, "gold")
    key = (int(found.group(1)), 0, 1, "gold")
    st.keep[key] = (st.keep[key][0], "forged")
    mech.set_value(st, lay.player_value["rival"] + 1, 2)
    with st.frozen():
        assert fn(st, 0, -1, 1, "gold") == "forged"
    mech.adjust(st, lay.player_counter["points"] + 2, 1)  # any counter: `held` may name it
    with st.frozen():
        assert fn(st, 0, -1, 1, "gold") == first
    for n in range(9):
        mech.adjust(st, lay.player_counter["gold"] + n % 3, n + 1)
        for q in range(3):
            with st.frozen():
                in_menu = fn(st, 0, -1, q, "gold")
            assert in_menu == fn(st, 0, -1, q, "gold") == st.counters[lay.player_counter["gold"] + q] + len(
                st.zones[lay.player_zone["hand"] + q]), (n, q)


def test_a_change_of_the_active_player_makes_again_what_read_it(table: tuple[Game, GameState]) -> None:
    """`State.set_active` (a turn, a trial or a tried effect as another seat) counts the
    change: a definition that reads the active player is made again, never found kept."""
    game, state = table
    written = game.compiler.gen.definitions.definition_fn("turn_hand")
    assert written is not None
    st, fn, lay = state.st, game.compiler.writer.ns[written[0]], game.layout
    hand = lay.player_zone["hand"]
    for p in range(3):
        st.set_active(p)
        with st.frozen():
            assert fn(st, 0, -1) == len(st.zones[hand + p])
    assert len({len(st.zones[hand + p]) for p in range(3)}) > 1  # the hands differ: a stale value shows


def test_every_change_of_the_active_player_is_counted() -> None:
    """Nothing outside `State.set_active` sets whose turn it is (a trial set it without a
    count once: what read the active player could be found kept from before)."""
    root = Path(__file__).parents[2]
    found = []
    for folder in ("interpreter", "agents", "cli", "view", "pipeline"):
        for file in sorted((root / folder).rglob("*.py")):
            for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"\bst\.active\s*=[^=]|\bstate\.st\.active\s*=[^=]", line):
                    found.append(f"{file.relative_to(root)}:{n}: {line.strip()}")
    assert not found, found
