"""A number typed at the full-screen table's options (cli/tui/typed.py): past nine options
every option has a number that can be typed, an amount is typed as itself, and a digit that
names nothing is said and changes nothing. A user's trial found the tenth option of a long
list (a province of 48) reachable only by the arrows, and amounts listed 0, 5, 10... under
the numbers 1, 2, 3..., where `1` chose the amount 0."""

from __future__ import annotations

from typing import Any

from legacies.cli.tui.typed import read_typed
from legacies.view.model import Amounts, DecisionView, Option

from .test_table_app import _table, run, static_text


def decision(count: int, amounts: list[int] | None = None, can_pass: bool = False) -> DecisionView:
    if amounts is None:
        options = [Option(index=i, label=f"option {i + 1}") for i in range(count)]
        return DecisionView(number=0, player=0, player_name="P1", yours=True, kind="choose", prompt="choose",
                            purpose="Choose", options=options)
    options = [Option(index=i, label=str(a), amount=a) for i, a in enumerate(amounts)]
    if can_pass:
        options.append(Option(index=len(options), label="pass", passes=True))
    return DecisionView(number=0, player=0, player_name="P1", yours=True, kind="bid", prompt="bid", purpose="Bid",
                        options=options, amounts=Amounts(values=amounts, words="0 to 20 in steps of 5",
                                                         can_pass=can_pass))


def test_nine_options_or_fewer_answer_at_the_first_digit() -> None:
    d = decision(9)
    assert read_typed(d, "4").final and read_typed(d, "4").index == 3
    assert not read_typed(d, "0").taken and "options 1 to 9" in read_typed(d, "0").said


def test_a_digit_that_could_start_a_longer_number_waits_for_the_next() -> None:
    d = decision(48)
    one = read_typed(d, "1")
    assert one.taken and one.index == 0 and not one.final  # 1, or 10 to 19
    assert read_typed(d, "12").final and read_typed(d, "12").index == 11
    assert read_typed(d, "5").final and read_typed(d, "5").index == 4  # no 50 to 59 among 48
    assert not read_typed(d, "49").taken and read_typed(d, "49").said == "no option 49: options 1 to 48"


def test_an_amount_is_typed_as_itself_never_as_its_place() -> None:
    d = decision(0, [0, 5, 10, 15, 20], can_pass=True)
    assert read_typed(d, "0").final and read_typed(d, "0").index == 0
    assert read_typed(d, "1").taken and read_typed(d, "1").index is None  # 10 or 15 to come
    assert read_typed(d, "15").final and read_typed(d, "15").index == 3
    refused = read_typed(d, "3")
    assert not refused.taken and refused.said == "no amount 3: amounts offered: 0 to 20 in steps of 5"
    assert not read_typed(d, "6").taken  # the pass option's place (6) is not an amount


def test_the_tenth_option_typed_at_the_table() -> None:
    """Legacies' first decision (3 players, seed 1) offers ten characters: `1` highlights the
    first and waits, `0` makes it 10 and answers the tenth; the numbers line up."""
    async def scenario() -> tuple[Any, ...]:
        app = _table("legacies", 3, (100, 30))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            st = app.session.state.st
            assert st.pending is not None and len(st.pending.options) == 10
            made = len(st.history)
            lines = [str(app.query_one("#options").get_option_at_index(i).prompt) for i in (0, 9)]
            await pilot.press("1")
            await pilot.pause()
            waiting = (len(st.history), app.query_one("#options").highlighted, static_text(app, "#purpose"))
            await pilot.press("0")
            await pilot.pause()
            return made, lines, waiting, st.history[made] if len(st.history) > made else None
    made, lines, waiting, answered = run(scenario())
    assert lines[0].startswith("1.  ") and lines[1].startswith("10. ")
    assert waiting[:2] == (made, 0) and "option 1" in waiting[2] and "Enter chooses it" in waiting[2]
    assert answered == 9  # the history keeps the option's index


def test_a_digit_taken_back_and_enter_on_what_is_typed() -> None:
    """`1` then Backspace forgets it (the purpose line says so); `1` then Enter answers the
    first option (typed `1` waits: 10 could follow)."""
    async def scenario() -> tuple[Any, ...]:
        app = _table("legacies", 3, (100, 30))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            st = app.session.state.st
            made = len(st.history)
            await pilot.press("1", "backspace")
            await pilot.pause()
            forgot = (app.typed, "option 1" in static_text(app, "#purpose"), len(st.history) - made)
            await pilot.press("1", "enter")
            await pilot.pause()
            return forgot, list(st.history)[made:]
    forgot, answers = run(scenario())
    assert forgot == ("", False, 0)
    assert answers[:1] == [0]


def test_esc_puts_the_highlight_back_where_typing_found_it() -> None:
    """Typing `1` moves the highlight to option 1; Esc (or Backspace past the last digit)
    forgets the digits and puts the highlight back on the option the arrows had reached."""
    async def scenario() -> tuple[Any, ...]:
        app = _table("legacies", 3, (100, 30))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            options = app.query_one("#options")
            await pilot.press("down", "down")
            await pilot.pause()
            reached = options.highlighted  # type: ignore[attr-defined]
            await pilot.press("1")
            await pilot.pause()
            typed = options.highlighted  # type: ignore[attr-defined]
            await pilot.press("escape")
            await pilot.pause()
            cleared = options.highlighted  # type: ignore[attr-defined]
            await pilot.press("1", "backspace")
            await pilot.pause()
            return reached, typed, cleared, options.highlighted, len(app.session.state.st.history)  # type: ignore[attr-defined]
    reached, typed, cleared, backed, _ = run(scenario())
    assert reached == 2 and typed == 0
    assert cleared == reached and backed == reached


def test_an_amount_list_shows_no_place_numbers_and_takes_the_amount_typed() -> None:
    """A user's trial: amounts 0, 5, 10... were listed as `1. 0`, `2. 5`..., and `2` typed
    was the amount 2. Amounts are listed without place numbers; `1` `0` answers 10."""
    import random

    from legacies.agents.session import TableSession
    from legacies.cli.tui.app import TableApp

    from .test_table_app import spec_of

    table = TableSession(spec_of("legacies"), ["human"] * 3, seed=1)
    rng = random.Random(1)
    while True:  # to the first amounts asked (the same walk as the trial's: decision 43, 0 to 20 by 5)
        seat = table.asked()
        assert seat is not None
        d = table.view(seat).decision
        assert d is not None
        if d.amounts is not None:
            break
        table.answer(seat, d.number, rng.randrange(len(d.options)), d.takebacks)
    ten = next(o.index for o in d.options if o.amount == 10)

    async def scenario() -> tuple[Any, ...]:
        app = TableApp(table, threaded=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            while app.screen is not app.screen_stack[0]:  # the hot seat's cover
                await pilot.press("enter")
                await pilot.pause()
            options = app.query_one("#options")
            lines = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
            made = len(table.state.st.history)
            purpose = static_text(app, "#purpose")
            await pilot.press("1", "0")
            await pilot.pause()
            return lines, purpose, made, list(table.state.st.history)[made:]
    lines, purpose, made, answers = run(scenario())
    assert lines[:3] == ["0", "5", "10"] and "type the amount" in purpose
    assert answers[:1] == [ten]
