"""A collection read whole and then only walked or counted (`count of (cards in bag)`,
`cards in bag where ...`, `total worth of (cards in bag)`) is walked where it is, with no
copy (codegen/runtime.py `_rt_walk2`, `_rt_count`): the same values and the same charges to
the step budget as the closures, which copy it; and the size judgements of the generator
read the same length as for the copy written out (`as_called`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from legacies.interpreter import sandbox
from legacies.interpreter.codegen.runtime import as_called, uncopied
from legacies.interpreter.game import Game

WORK = Path(__file__).parent / "fixtures" / "work"


@pytest.fixture(scope="module")
def games() -> tuple[Game, Game]:
    from legacies.pipeline.ruleset import load_ruleset

    spec = load_ruleset("work", WORK).spec
    assert spec is not None
    return Game(spec, 2, codegen=True), Game(spec, 2, codegen=False)


@pytest.mark.parametrize("source,form", [
    ("count of (cards in bag)", "_rt_count("),
    ("count of (cards in bag where its worth > 1)", "_rt_walk2("),
    ("count of (pieces in bag where its worth > 1)", "_rt_walk2("),
    ("total worth of (cards in bag)", "_rt_walk2("),
    ("count of (cards in bag) + count of (cards in heap where its worth > 0)", "_rt_walk2("),
    ("count of (cards in bag where count of (cards in heap) = 0)", "_rt_count("),
])
def test_a_collection_read_whole_and_walked_charges_as_the_closures(games: tuple[Game, Game], source: str,
                                                                      form: str) -> None:
    generated, closures = (game.new_state(0) for game in games)
    before = set(games[0].compiler.sources)
    got = sandbox.value(generated, source)
    charged = generated.st.spent
    assert got == sandbox.value(closures, source)
    assert charged == closures.st.spent > 0
    written = "\n".join(code for name, code in games[0].compiler.sources.items() if name not in before)
    assert form in written and ")[:]" not in written, written


@pytest.mark.parametrize("src,args", [
    ("_rt_walk(st, st.zones[3])[:]", "st, st.zones[3]"),
    ("_rt_walk(st, st.zones[(9 + me if me >= 0 else _rt_nobody('nobody has a `hand`'))])[:]",
     "st, st.zones[(9 + me if me >= 0 else _rt_nobody('nobody has a `hand`'))]"),
    ("_rt_walk(st, _f(')'))[:]", "st, _f(')')"),  # a parenthesis in a text is no parenthesis
    ("_rt_walk(st, _f('\\')'))[:]", "st, _f('\\')')"),  # nor after an escaped quote
    ("_rt_walk(st, a)[:] + _rt_walk(st, b)[:]", None),  # two walks: the first closes before the end
    ("_rt_walk(st, a)", None),  # no copy to spare
    ("list(_rt_walk(st, a))[:]", None),
])
def test_only_a_whole_walk_copied_is_read_as_one(src: str, args: str | None) -> None:
    assert uncopied(src) == args


def test_the_size_judgements_read_a_walk_without_its_copy_as_written_out() -> None:
    inner = "st, st.zones[(9 + me if me >= 0 else _rt_nobody('nobody has a `hand`'))]"
    pairs = [(f"_rt_walk(st, _rt_walk({inner})[:])", f"_rt_walk2({inner})"),
             (f"len(_rt_walk({inner})[:])", f"_rt_count({inner})")]
    for copied, walked in pairs:
        body = f"[x for x in {copied} if x > 0] and {copied}"
        short = body.replace(copied, walked)
        assert len(short) < len(body) and len(as_called(short)) == len(as_called(body))
