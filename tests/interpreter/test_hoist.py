"""Loop-invariant parts of generated expressions worked out once an evaluation
(interpreter/codegen/hoist.py): the same values as written, the part worked out where
it was first worked out before (or never, behind an `and` not reached), its errors
raised there, and Legacy: Gears of Time's `leads` and `sole_leader` (a player's count
asked again for every other player) agreeing with the closures along a game."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from legacies.agents.bots import apply_random_option
from legacies.interpreter import sandbox
from legacies.interpreter.codegen.hoist import fresh_slots, hoisted
from legacies.interpreter.codegen.runtime import RUNTIME, UNSET
from legacies.interpreter.game import Game, Undo
from legacies.interpreter.vm import Activation
from legacies.pipeline.ruleset import load_ruleset


class Counted:
    """A stand-in for a generated definition: counts its calls, raises when told to."""

    def __init__(self, value: Any = 3, error: Exception | None = None):
        self.value, self.error, self.calls = value, error, 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        if self.error is not None:
            raise self.error
        return self.value


def run(body: str, **names: Any) -> Any:
    """`body` evaluated as a generated function evaluates it: its slots made first."""
    found = re.findall(r"_rt_hoisted\(_h, (\d+),", body)
    prologue = f"    {fresh_slots(max(map(int, found)) + 1)}\n" if found else ""
    ns: dict[str, Any] = {"_UNSET": UNSET, **RUNTIME, **names}
    exec(compile(f"def _f(st):\n{prologue}    return {body}\n", "<test>", "exec"), ns)  # noqa: S102 - the test's own
    return ns["_f"](None)


def test_a_part_the_walk_does_not_change_is_worked_out_once() -> None:
    body = "[x for x in items if x < _d1(st)]"
    written, slots = hoisted(body)
    assert slots == 1 and "_rt_hoisted(_h, 0, _d1(st))" in written
    before, after = Counted(), Counted()
    assert run(body, items=[1, 2, 3, 4, 5], _d1=before) == run(written, items=[1, 2, 3, 4, 5], _d1=after) == [1, 2]
    assert (before.calls, after.calls) == (5, 1)


def test_a_part_that_reads_the_item_stays_where_it_is() -> None:
    for body in ("[x for x in items if _d1(st, x) > 0]",
                 "[x for x in items if any(True for y in _pieces_on(st, x) if y > 0)]",
                 "[(lambda _d: _d1(st, _d))(x) for x in items]"):
        assert hoisted(body) == (body, 0)


def test_an_inner_walk_that_does_not_read_the_item_is_worked_out_once() -> None:
    """`leads`' shape: the cubes on C walked for every player, and P's own count."""
    body = "[p for p in players if len([c for c in _d1(st) if c == p]) > len([c for c in _d1(st) if c == 0])]"
    written, slots = hoisted(body)
    assert slots == 2
    before, after = Counted([0, 1, 1, 2]), Counted([0, 1, 1, 2])
    assert run(body, players=[0, 1, 2], _d1=before) == run(written, players=[0, 1, 2], _d1=after) == [1]
    assert (before.calls, after.calls) == (6, 2)


def test_a_part_behind_an_and_never_reached_is_never_worked_out() -> None:
    body = "[x for x in items if x > 10 and x < _d1(st)]"
    written, _ = hoisted(body)
    part = Counted(error=ZeroDivisionError("not to be reached"))
    assert run(written, items=[1, 2], _d1=part) == [] and part.calls == 0


def test_an_error_of_the_part_is_raised_where_it_was() -> None:
    body = "[x for x in items if x > 1 and x < _d1(st)]"
    written, _ = hoisted(body)
    for code in (body, written):
        part = Counted(error=ZeroDivisionError("from the part"))
        with pytest.raises(ZeroDivisionError, match="from the part"):
            run(code, items=[1, 2, 3], _d1=part)
        assert part.calls == 1  # at x = 2, the first item that reaches it


def test_a_starred_or_sliced_part_is_never_a_slot() -> None:
    """`*xs` and `a:b` are parts of a call or a subscript, not values: left in place."""
    for body in ("[_g(x, *_pieces_on(st, 1)) for x in items]", "[x[1:_d1(st)] for x in items]"):
        written, _ = hoisted(body)
        assert "_rt_hoisted(_h, 0, *" not in written and "_rt_hoisted(_h, 0, 1:" not in written
        compile(f"def _f(st):\n    _h = [_UNSET]\n    return {written}\n", "<test>", "exec")  # still Python


def test_a_generator_is_never_kept_for_a_second_reader() -> None:
    """A generator is used up by its first reader: its walk's collection may be kept, never it."""
    body = "[_g(x, (y for y in _pieces_on(st, 1))) for x in items]"
    written, slots = hoisted(body)
    assert slots == 1 and "_rt_hoisted(_h, 0, _pieces_on(st, 1))" in written
    got = run(written, items=[1, 2, 3], _g=lambda x, ys: x + sum(ys), _pieces_on=lambda st, k: [10, 20])
    assert got == [31, 32, 33]


def test_slots_are_made_afresh_for_each_evaluation() -> None:
    """The written form keeps nothing itself: the slots are the evaluation's (the generated
    functions make them before each: a slot kept across calls would give one state's count
    in another in the Gears of Time test below)."""
    body = "[x for x in items if x < _d1(st)]"
    written, _ = hoisted(body)
    assert run(written, items=[1, 2, 3], _d1=Counted(2)) == [1]
    assert run(written, items=[1, 2, 3], _d1=Counted(4)) == [1, 2, 3]


def test_code_nested_past_pythons_limits_is_left_as_written() -> None:
    """Too deep for Python's parser: left for the compile to refuse (the closures then run
    it, CodeWriter.define), never an error of this pass."""
    too_deep = "[x for x in items if " + "(" * 400 + "_d1(st)" + ")" * 400 + "]"
    assert hoisted(too_deep) == (too_deep, 0)
    deep = "[x for x in items if " + "-(" * 150 + "_d1(st)" + ")" * 150 + " < x]"
    hoisted(deep)  # within the parser's limit: slotted, or left whole if too deep to walk; never raised


def test_gears_of_time_leaders_agree_with_the_closures_along_a_game() -> None:
    """`leads(C, P)` and `sole_leader(C, P)` ask each player's count of cubes on C against
    P's: P's count and the walk of C's cubes are worked out once a call. The standing the
    bots weigh (which asks both) and both definitions of every card on the timeline for
    every player agree with the closures every fourth decision of a game played both ways."""
    spec = load_ruleset("gears-of-time").spec
    assert spec is not None
    generated, closures = Game(spec, 4).new_state(3), Game(spec, 4, codegen=False).new_state(3)
    hoisting = [name for name, source in generated.game.compiler.sources.items() if "_rt_hoisted(" in source]
    assert len(hoisting) >= 2, hoisting
    sources = ("standing(me)", "count of (on_timeline() where leads(it, me))",
               "count of (on_timeline() where sole_leader(it, me))")
    reads = {id(state): [state.game.compiler.expr(sandbox.checked_expression(state, source)) for source in sources]
             for state in (generated, closures)}
    generated.game.compiler.finish()
    closures.game.compiler.finish()
    rng = random.Random(3)
    asked = 0
    while generated.decision is not None and len(generated.st.history) < 300:
        if len(generated.st.history) % 4 == 0:
            for player in range(4):
                found = []
                for state in (generated, closures):
                    with state.st.frozen():
                        found.append([fn(Activation(state.st, player, -1)) for fn in reads[id(state)]])
                assert found[0] == found[1], (player, len(generated.st.history))
                asked += sum(1 for value in found[0] if value)
        index, _ = apply_random_option(generated, rng, undo=Undo.NONE)
        assert index is not None
        closures.apply(index, undo=Undo.NONE)
        assert generated.fingerprint() == closures.fingerprint()
    assert asked > 100, "the game gave nobody a lead: the case decides nothing"


def test_a_list_of_targets_nested_past_pythons_parser_is_not_an_error_of_the_writer() -> None:
    """An action's targets the writer cannot read back (nested past the parser's limit)
    are copied as before, and their compile is refused as before (the closures take them)."""
    from legacies.interpreter.codegen.definitions import _made_list

    assert _made_list("[x for x in items if x]") and _made_list("[1, 2]")
    assert not _made_list("st.zones[3]") and not _made_list("[1, 2][0]")
    assert not _made_list("[x for x in items if " + "(" * 400 + "x" + ")" * 400 + "]")
