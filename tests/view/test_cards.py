"""A card read in full and what an option would play (view/cards.py), in a seat's view:
an option whose preview cannot be worked out now (the walk reads `top of my pile` without
running the draw that fills it: Fame and Fortune's great person) plays nothing, and the
view is built; it used to fail the whole view with a ContentError. A seeded game reaches
that menu: should the content change where its random game goes, the test still builds
the view but may no longer meet such a menu (view/cards.py `_guessed` is what it guards)."""

from __future__ import annotations

from legacies.agents.session import TableSession
from legacies.pipeline.ruleset import load_ruleset

CRASHED_AT = 162  # the decision of this game whose menu failed the view


def test_a_preview_that_cannot_be_worked_out_does_not_fail_the_view() -> None:
    spec = load_ruleset("leaders-legacy", None, ["fame-and-fortune"]).spec
    assert spec is not None
    session = TableSession(spec, ["random"] * 3, seed=1)
    session.advance(steps=CRASHED_AT)
    seat = session.asked()
    assert seat is not None
    view = session.view(seat)
    assert view.decision is not None and view.decision.yours and view.decision.kind == "action"
    assert len(view.decision.options) == len(session.state.decision.options)


def test_a_value_never_set_reads_as_nothing_never_python_s_none() -> None:
    """A user's trial (the browser): a Legacies player's part read "The Socialite, None
    side" before the mat side was chosen. A value never set reads "nothing" (as the
    language says it is), wherever a text shows it."""
    from legacies.agents.session import TableSession
    from legacies.pipeline.ruleset import load_ruleset

    spec = load_ruleset("legacies").spec
    assert spec is not None
    session = TableSession(spec, ["human", "random", "random"], seed=1)
    d = session.state.decision
    assert d is not None
    session.answer(d.player, 0, 0)  # a character chosen, its side not yet
    text = session.view(0).model_dump_json()
    assert "None" not in text  # (a JSON null is written null)
    assert "mat side: nothing" in text
