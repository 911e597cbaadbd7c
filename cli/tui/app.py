"""The full-screen table at a terminal (Textual): one seat's view (view/model.py), drawn
as panes that are always on screen, never pages.

- The decision, at the bottom: what it is for, and every option with what it costs and
  what it does (arrows and Enter, a click, or its number typed: an amount typed as itself);
- the reader, at the right: the card of the highlighted option, or of the card highlighted
  in your hand or among the cards on the table, in full;
- the board, in tabs: the table's part (places side by side scroll) and every player's
  (the others folded to their counters until opened), you (your part and your cards), the
  map (a ruleset with `display: map:`), every card in view, and the log (what changed
  since you last chose first).

Keys: u undo, s save, q quit, b/y/m/c/l the tabs, o back to the options. Hot-seat: between two people, and before
the first is asked, the screen is covered until the one asked presses Enter, and only then
drawn with their view.
The game is played through a TableSession (agents/session.py), the one authority: the
table only draws views and sends answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Collapsible, Footer, Header, OptionList, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option

from legacies.agents.match import GameStopped
from legacies.agents.session import TableSession
from legacies.interpreter.errors import Refused
from legacies.pipeline.saves import unused_save_path
from legacies.pipeline.writes import WriteError
from legacies.view.model import Card, SeatView
from legacies.view.model import Option as ViewOption

from . import panes
from .typed import read_typed



class Covered(ModalScreen[None]):
    """The screen covered between two people at one terminal (hot-seat)."""

    BINDINGS = [Binding("enter", "go", "I am here")]

    def __init__(self, name: str):
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble((f"{self.player}'s turn", "bold"), "\n\npass the screen to them: "
                                   "press Enter when only they can see it"), id="covered")

    def action_go(self) -> None:
        self.dismiss(None)


class Keys(ModalScreen[None]):
    """Every key of the table, with what it does (Textual's own panel listed its generic
    keys first: scrolling, copying, "^q Quit", with the game's below them, off screen)."""

    BINDINGS = [Binding("escape,question_mark,f1,q", "close", "close")]

    def __init__(self, rows: list[tuple[str, str]]):
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        width = max(len(key) for key, _ in self.rows)
        text = Text.assemble(("Keys", "bold"), "\n\n", *[part for key, what in self.rows
                                                         for part in ((key.ljust(width), "bold"), f"  {what}\n")],
                             "\nEsc or ? closes this.")
        yield VerticalScroll(Static(text), id="keys")

    def action_close(self) -> None:
        self.dismiss(None)


class Confirm(ModalScreen[bool]):
    """A yes-or-no question (save before leaving?)."""

    BINDINGS = [Binding("y", "answer(True)", "yes"), Binding("n", "answer(False)", "no"),
                Binding("escape", "answer(False)", "no")]

    def __init__(self, question: str):
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(Text(f"{self.question} (y/n)"), id="confirm")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class TableApp(App[None]):
    CSS_PATH = "table.tcss"
    TITLE = "legacies"
    BINDINGS = [
        Binding("u", "undo", "Undo"),
        Binding("s", "save", "Save"),
        Binding("q", "leave", "Quit"),
        Binding("b", "tab('board')", "Board", show=False),
        Binding("y", "tab('you')", "You", show=False),
        Binding("m", "tab('map')", "Map", show=False),
        Binding("c", "tab('cards')", "Cards", show=False),
        Binding("l", "tab('log')", "Log"),
        Binding("o", "options", "Options"),
        # every key, in a panel beside the table (a user's trial: `?`, `h` and F1 did nothing,
        # and b, y, m and c were only in the tabs' labels)
        Binding("question_mark,f1", "keys", "Keys"),
        *[Binding(str(n), f"digit({n})", show=False) for n in range(10)],
        Binding("backspace", "typed_back", "Undo a digit typed", show=False),
        Binding("escape", "typed_clear", "Clear the digits typed", show=False),
    ]

    def __init__(self, session: TableSession, save_path: Path | None = None, threaded: bool = True,
                 folder: str | None = None):
        super().__init__()
        self.session = session
        self.save_path = save_path
        self.threaded = threaded  # bots think in a worker thread; tests play them in the app's own turn
        self.folder = folder
        humans = session.humans
        self.seat = humans[0] if humans else 0  # whose view is drawn
        self.final_lines: list[str] | None = None  # the end's scores and their parts (_final_lines)
        self.handed_over = False  # a hot-seat game's screen was covered once: the first person was called too
        self.view: SeatView | None = None
        self.shown_cards: list[str] = []  # the card ids of the Cards tab's list, in order
        self.mine: list[str] = []  # the card ids of your own cards, in order
        self.busy = False
        self.stopped: str | None = None  # why the game stopped early (an internal error), if it did
        self.saved_at: int | None = None  # the decisions made when the game was last saved, and where
        self.saved_to: Path | None = None
        self.opened_own: set[int] = set()  # the seats whose own part was opened for them (once each)
        self.own_save: Path | None = None  # where `s` keeps the game without --save (chosen at the first)
        self.left = False  # the person left before the end
        self.player_boxes: dict[int, tuple[Collapsible, Static]] = {}  # the Players tab's folded parts
        self.typed = ""  # the digits typed at the options (cli/tui/typed.py), and the decision they are for
        self.typed_for: tuple[int, int] | None = None
        self.typed_from: int | None = None  # the option highlighted before the first digit was typed

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with TabbedContent(id="tabs", initial="board"):
                with TabPane("Board (b)", id="board"):
                    with VerticalScroll():
                        yield Static(id="board-body")
                        yield Vertical(id="players-body")
                with TabPane("You (y)", id="you"):
                    with Vertical():
                        yield Static(id="you-body")
                        yield OptionList(id="mine", markup=False)
                if self.session.state.game.map is not None:
                    with TabPane("Map (m)", id="map"):
                        yield ScrollableContainer(Static(id="map-body"), id="map-scroll")
                with TabPane("Cards (c)", id="cards"):
                    yield OptionList(id="card-list", markup=False)
                with TabPane("Log (l)", id="log"):
                    yield VerticalScroll(Static(id="log-body"), id="log-scroll")
            yield VerticalScroll(Static(id="reader"), id="reader-pane")
        with Vertical(id="decision"):
            yield Static(id="purpose")
            yield OptionList(id="options", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.session.state.game.spec.title
        self._fit_decision()
        self._advance()

    def _fit_decision(self) -> None:
        """On a short screen the decision takes the room it needs first: the board gives
        its share up, the purpose keeps fewer lines, the title bar goes. (A player's trial:
        at 40x12 not one option was on screen, and a number key answered what could not be
        seen; at 70x18 two or three.)"""
        height = self.size.height
        rows = height * (45 if height >= 24 else 70 if height >= 16 else 85) // 100
        purpose = 3 if height >= 24 else 2 if height >= 16 else 1
        self.query_one("#decision").styles.max_height = rows
        said = self.query_one("#purpose")
        said.styles.max_height = purpose
        # below the border and the purpose as laid out (once drawn), every row in view (a
        # share of the whole let the last option's row fall under the decision's edge)
        shown = said.region.height if said.region.height else purpose
        self.query_one("#options").styles.max_height = max(1, rows - 1 - min(shown, purpose))
        self.query_one(Header).display = height >= 20

    # ------------------------------------------------------------------ playing
    def _advance(self) -> None:
        """Let the bots play until a person is asked (or the game ends), then draw."""
        if self.threaded:
            self.busy = True
            self._draw_waiting()
            self.run_worker(self._bots, thread=True, exclusive=True)
        else:
            self._bots_here()
            self._after_bots()

    def _bots(self) -> None:
        try:
            self.session.advance()
        except GameStopped as err:
            self.call_from_thread(self._stop, str(err))
            return
        self.call_from_thread(self._after_bots)

    def _bots_here(self) -> None:
        try:
            self.session.advance()
        except GameStopped as err:
            self._stop(str(err))

    def _stop(self, why: str) -> None:
        self.stopped = why
        self.exit()

    def _after_bots(self) -> None:
        self.busy = False
        asked = self.session.waiting_for_person()
        # between two people, and before the first: whoever started the game may not be the
        # one asked first, and the others are at the table too
        if asked is not None and (asked != self.seat or not self.handed_over) and len(self.session.humans) > 1:
            self.seat = asked
            self.handed_over = True
            self._blank()
            self.push_screen(Covered(self.session.state.game.player_names[asked]), lambda _: self.redraw())
            return
        if asked is not None:
            self.seat = asked
        self.redraw()

    def _blank(self) -> None:
        """Nothing of the last person's is left on screen behind the cover."""
        for widget_id in ("board-body", "you-body", "reader", "purpose", "log-body", "map-body"):
            for w in self.query(f"#{widget_id}"):
                w.update("")  # type: ignore[attr-defined]
        for list_id in ("options", "mine", "card-list"):
            self.query_one(f"#{list_id}", OptionList).clear_options()
        for box, inner in self.player_boxes.values():
            box.title = ""
            inner.update("")

    def _answer(self, index: int) -> None:
        view = self.view
        if self.busy or view is None or view.decision is None or not view.decision.yours:
            return
        try:
            self.session.answer(self.seat, view.decision.number, index, view.decision.takebacks)
        except Refused as err:
            self.notify(str(err), title="refused", severity="warning")
            self.redraw()
            return
        except GameStopped as err:
            self._stop(str(err))
            return
        self._advance()

    # ------------------------------------------------------------------ drawing
    def _draw_waiting(self) -> None:
        who = self.session.asked()
        if who is not None:
            name = self.session.state.game.player_names[who]
            self.query_one("#purpose", Static).update(Text(f"{name} is thinking…", style="italic"))
            if self.view is not None:  # the header says so too (a user's trial: it still said the person decided)
                self.sub_title = self._status(self.view, name, len(self.session.state.st.history))
        self.query_one("#options", OptionList).clear_options()

    def redraw(self) -> None:
        """Draw the seat's view afresh."""
        view = self.session.view(self.seat)
        self.view = view
        self.sub_title = self._status(view)
        self.call_after_refresh(self._fit_decision)  # the purpose's lines known once drawn
        self.query_one("#board-body", Static).update(self._board(view))
        self._you(view)
        self._players(view)
        if view.map is not None:
            room = self.query_one("#tabs").size
            names = [p.name for p in sorted(view.players, key=lambda p: p.index)]
            self.query_one("#map-body", Static).update(panes.map_picture(view.map, room.width - 4, room.height - 4,
                                                                         names))
        self._cards(view)
        self._table_log(view)
        self._decision(view)

    def _status(self, view: SeatView, deciding: str | None = None, made: int | None = None) -> str:
        """The header: whose screen, the turn, the decision and who decides it (`deciding`,
        after `made` decisions: a bot thinking since `view` was drawn)."""
        d = view.decision
        if view.result is not None:
            return "the game is over"
        turn = f"turn {view.turn}" if view.turn else "setup"
        who = deciding if deciding is not None else d.player_name if d is not None else None
        asked = f" · {who} decides" if who is not None else ""
        return f"{view.seat_name} · {turn} · decision {(view.decisions if made is None else made) + 1}{asked}"

    def _room(self) -> int:
        """The board's width in characters (before the first layout: its share of the screen)."""
        width = self.query_one("#tabs").size.width or self.size.width * 3 // 5
        return max(30, width - 4)

    def on_resize(self) -> None:
        self._fit_decision()
        if self.view is not None and not self.busy:
            self.call_after_refresh(self.redraw)

    def _board(self, view: SeatView) -> Any:
        from rich.console import Group

        width = self._room()
        return Group(*[panes.part(p, width) for p in view.table]) if view.table else Text("(nothing on the table)")

    def _you(self, view: SeatView) -> None:
        me = next(p for p in view.players if p.index == view.seat)
        from rich.console import Group

        self.query_one("#you-body", Static).update(Group(Text(panes.player_title(view, me), style="bold"),
                                                         panes.counters_line(me),
                                                         *[panes.part(p, self._room()) for p in me.parts
                                                           if p.kind != "zone"]))
        mine: list[str] = []
        prompts: list[Option] = []
        for p in me.parts:
            if p.kind != "zone" or p.zone is None:
                continue
            for piece in p.zone.pieces:
                if piece.card is not None:
                    mine.append(piece.card)
                    prompts.append(Option(Text.assemble((f"{p.label}: ", "dim"), panes.listed(piece))))
        self.mine = mine
        listing = self.query_one("#mine", OptionList)
        listing.clear_options()
        listing.add_options(prompts or [Option(Text("no cards of your own", style="dim"), disabled=True)])

    def _players(self, view: SeatView) -> None:
        """Each other player folded to their counters, opened by a click or Enter (the boxes
        stay, so what is opened stays open)."""
        body = self.query_one("#players-body")
        for player in view.players:
            box = self.player_boxes.get(player.index)
            if box is None:
                inner = Static()
                box = self.player_boxes[player.index] = (Collapsible(inner, title=player.name, collapsed=True), inner)
                body.mount(box[0])
            if player.you and player.index not in self.opened_own:  # your own part opens the first time you
                # see it (each person's at a hot seat: the second person's stayed folded)
                self.opened_own.add(player.index)
                box[0].collapsed = False
            # folded, the title carries the counters; opened, the body does (once: a player's trial
            # read "P1 (you) · to play: points 0" and "points 0" under it)
            box[0].title = panes.player_title(view, player) + \
                (": " + panes.counters_line(player).plain if box[0].collapsed else "")
            box[1].update(panes.player_body(player, self._room() - 4))

    @on(Collapsible.Expanded)
    @on(Collapsible.Collapsed)
    def _box_toggled(self) -> None:
        if self.view is not None:
            self._players(self.view)

    def _cards(self, view: SeatView) -> None:
        self.shown_cards = sorted(view.cards, key=lambda k: (view.cards[k].kind, view.cards[k].name))
        listing = self.query_one("#card-list", OptionList)
        listing.clear_options()
        listing.add_options([Option(Text.assemble(view.cards[k].name, (f"  {view.cards[k].kind}", "dim")))
                             for k in self.shown_cards])

    def _table_log(self, view: SeatView) -> None:
        """The game's log, the latest last, with what happened since you last chose marked
        off at its end (where the pane opens: it is scrolled to the end)."""
        text = Text()
        since = len(view.log) - len(view.changes) if view.changes and view.log[-len(view.changes):] == view.changes \
            else len(view.log)
        for i, e in enumerate(view.log):
            if i == since:
                text.append("── since you last chose ──\n", style="bold underline")
            text.append_text(panes.entry(e))
            text.append("\n")
        if since == len(view.log) and view.changes:  # the changes go back further than the log kept
            text.append("── since you last chose ──\n", style="bold underline")
            for e in view.changes:
                text.append_text(panes.entry(e))
                text.append("\n")
        self.query_one("#log-body", Static).update(text)
        self.call_after_refresh(self._log_to_the_end)

    def _log_to_the_end(self) -> None:
        self.query_one("#log-scroll", VerticalScroll).scroll_end(animate=False)

    @on(TabbedContent.TabActivated)
    def _tab_opened(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id == "log":  # the log opens on its latest lines
            self.call_after_refresh(self._log_to_the_end)

    def _final_lines(self, view: SeatView) -> list[str]:
        """Each player's final score, best first, with where it came from (as `play`
        prints it after the table closes: a player's trial found the table itself said
        only the numbers), and how a tie was broken; worked out once."""
        if self.final_lines is None:
            from legacies.cli.scoring import final_score_lines, tie_break_note

            assert view.result is not None
            names = [p.name for p in sorted(view.players, key=lambda p: p.index)]
            state = self.session.state
            self.final_lines = [line.strip() if not line.startswith("      ") else "   " + line.strip()
                                for line in final_score_lines(state, names, view.result.scores)]
            tie = tie_break_note(state)
            if tie:
                self.final_lines.append(f"({tie})")
        return self.final_lines

    def _decision(self, view: SeatView) -> None:
        purpose = self.query_one("#purpose", Static)
        options = self.query_one("#options", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        if view.result is not None:
            r = view.result
            names = {p.index: p.name for p in view.players}
            purpose.update(Text.assemble(("The game is over. ", "bold"), f"Winner: {names[r.winner]}",
                                         (f" ({r.reason})" if r.reason else ""), "   q leaves"))
            options.add_options([Option(Text(line), disabled=True) for line in self._final_lines(view)])
            return
        d = view.decision
        if d is None:
            purpose.update("")
            return
        if not d.yours:
            purpose.update(Text(f"Waiting for {d.player_name}: {d.purpose}", style="italic"))
            return
        # the same decision drawn again (the screen resized): the highlight stays where it was
        kept = highlighted if self.typed_for == (d.number, d.takebacks) else None
        if self.typed_for != (d.number, d.takebacks):
            self.typed, self.typed_for = "", (d.number, d.takebacks)
        self._purpose_line()
        prompts = []
        # the options span the screen, less the list's border and scroll bar (4): the screen's
        # width is the new one at once when it is resized, where the list's is laid out after
        room = max(30, self.size.width - 4) - 4
        # amounts are typed as themselves: their place in the list is not shown, as it would
        # mean nothing typed (a user's trial: `2.` beside the amount 5, and `2` typed was 2)
        digits = 0 if d.amounts is not None else len(str(len(d.options)))
        for o in d.options:
            prompts.append(Option(option_line(o, room, digits)))
        options.add_options(prompts)
        typed = read_typed(d, self.typed).index if self.typed else None
        options.highlighted = typed if typed is not None else kept if kept is not None and kept < len(prompts) else 0
        options.focus()
        self._read_option(options.highlighted)

    def _purpose_line(self) -> None:
        """What the decision is for, the last thing that happened, and the digits typed."""
        view = self.view
        if view is None or view.decision is None:
            return
        d = view.decision
        last = next((e.text for e in reversed(view.changes) if e.kind in ("choice", "rules")), "")
        line = Text.assemble((d.purpose, "bold"), ("   (type the amount)" if d.amounts is not None else "", "dim"),
                             (f"   (last: {last})" if last else "", "dim"))
        if self.typed:
            name = "amount" if d.amounts is not None else "option"
            named = read_typed(d, self.typed).index is not None
            line = Text.assemble((d.purpose, "bold"), "   ", (f"{name} {self.typed}", "reverse"),
                                 (" — Enter chooses it, or type on; Esc clears" if named else
                                  " — type on; Esc clears", "dim"))
        self.query_one("#purpose", Static).update(line)

    def _read(self, card: Card | None, extra: list[str] | None = None, title: str = "") -> None:
        body = panes.card(card) if card is not None or not title else Text(title, style="bold")
        if extra:
            from rich.console import Group

            body = Group(body, Text("\nit plays:", style="italic"), *[Text(line) for line in extra])
        self.query_one("#reader", Static).update(body)

    def _read_option(self, index: int) -> None:
        view = self.view
        if view is None or view.decision is None or not 0 <= index < len(view.decision.options):
            return
        option = view.decision.options[index]
        card = view.cards.get(option.card) if option.card else None
        if card is None and not option.plays:
            self.query_one("#reader", Static).update(Text.assemble((option.label, "bold"), "\n",
                                                                   (view.decision.purpose, "dim")))
            return
        self._read(card, option.plays, option.label)

    # ------------------------------------------------------------------ events and keys
    @on(OptionList.OptionHighlighted, "#options")
    def _option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._read_option(event.option_index)

    @on(OptionList.OptionSelected, "#options")
    def _option_selected(self, event: OptionList.OptionSelected) -> None:
        view = self.view
        if self.typed and view is not None and view.decision is not None:
            typed = read_typed(view.decision, self.typed)
            if typed.index != event.option_index:  # Enter after digits that name no option yet
                self.notify(f"{self.typed} names no option yet: type on, or Esc to clear", severity="warning")
                return
        self._answer(event.option_index)

    @on(OptionList.OptionHighlighted, "#card-list")
    def _card_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.view is not None and 0 <= event.option_index < len(self.shown_cards):
            self._read(self.view.cards[self.shown_cards[event.option_index]])

    @on(OptionList.OptionHighlighted, "#mine")
    def _mine_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.view is not None and 0 <= event.option_index < len(self.mine):
            self._read(self.view.cards[self.mine[event.option_index]])

    def action_digit(self, digit: int) -> None:
        """A digit typed at the options: the option it names is highlighted (and read), and
        answered once no other option's number or amount starts with what was typed."""
        view = self.view
        if self.busy or view is None or view.decision is None or not view.decision.yours:
            return
        d = view.decision
        typed = read_typed(d, self.typed + str(digit))
        if not typed.taken:
            self.notify(typed.said, severity="warning")
            return
        if not self.typed:  # where the highlight was before typing: Esc, or every digit taken back, returns there
            self.typed_from = self.query_one("#options", OptionList).highlighted
        self.typed += str(digit)
        if typed.final and typed.index is not None:
            self.typed = ""
            self._answer(typed.index)
            return
        self._typed_moved(typed.index)

    def action_typed_back(self) -> None:
        if self.typed:
            self.typed = self.typed[:-1]
            view = self.view
            index = read_typed(view.decision, self.typed).index if self.typed and view and view.decision else None
            self._typed_moved(index)

    def action_typed_clear(self) -> None:
        if self.typed:
            self.typed = ""
            self._typed_moved(None)

    def _typed_moved(self, index: int | None) -> None:
        self._purpose_line()
        options = self.query_one("#options", OptionList)
        if index is not None:
            options.highlighted = index
        elif not self.typed:
            options.highlighted = self.typed_from
        options.focus()

    def action_tab(self, name: str) -> None:
        """Show tab `name` and move the keys into it: the arrows and Enter then read its
        cards or scroll it, and never answer the decision unseen (a user's trial: `c`, then
        down and Enter to read a card, chose the third option); `o` brings them back."""
        tabs = self.query_one("#tabs", TabbedContent)
        if not tabs.query(f"#{name}"):
            return
        tabs.active = name
        pane = tabs.get_pane(name)
        lists: list[Widget] = list(pane.query(OptionList))
        inside = [w for w in (lists or list(pane.query("*"))) if w.focusable]
        if inside:
            inside[0].focus()
            if isinstance(inside[0], OptionList) and inside[0].option_count and inside[0].highlighted is None:
                inside[0].highlighted = 0  # the first card read at once

    def action_keys(self) -> None:
        """Show the game's keys, with what each does (the tabs this table has)."""
        tabs = self.query_one("#tabs", TabbedContent)
        shown = [(key, what) for key, tab, what in (
            ("b", "board", "the board: the table and every player's public part"),
            ("y", "you", "your own part and cards"),
            ("m", "map", "the map"),
            ("c", "cards", "every card you can read"),
            ("l", "log", "the whole log")) if tabs.query(f"#{tab}")]
        self.push_screen(Keys([
            ("↑ ↓", "move between the options (in a tab: between its cards, or scroll it)"),
            ("Enter", "choose the option highlighted (in a tab: read the card)"),
            ("0-9", "type an option's number (or an amount): chosen once no other option's starts with it; "
                    "Backspace takes a digit back, Esc clears"),
            ("o", "back to the options from a tab"),
            *shown,
            ("u", "undo your last decision"),
            ("s", "save the game"),
            ("q", "quit (asks to save first)"),
            ("? F1", "these keys"),
        ]))

    def action_options(self) -> None:
        """Back to the decision's options (after reading cards elsewhere)."""
        self.query_one("#options", OptionList).focus()

    def action_undo(self) -> None:
        if self.busy:
            return
        said = self.session.undo(self.seat)
        self.notify(said)
        self.redraw()

    def _save(self, path: Path | None = None) -> bool:
        if path is None and self.save_path is None and self.own_save is None:
            self.own_save = unused_save_path()  # never over a file this game did not write
        target = path or self.save_path or self.own_save
        assert target is not None
        try:
            self.session.save(target)
        except WriteError as err:
            self.notify(f"not saved: {err}", severity="error")
            return False
        self.saved_at = len(self.session.state.st.history)
        self.saved_to = target
        self.notify(f"saved to {target.absolute()}")
        return True

    def saved_here(self) -> bool:
        """Whether the game as it stands was saved to --save from the table."""
        return self.saved_at == len(self.session.state.st.history) and self.saved_to == self.save_path

    def action_save(self) -> None:
        if not self.busy:
            self._save()

    def action_leave(self) -> None:
        if self.session.over:
            self.exit()
            return
        self.left = True
        if self.save_path is not None:  # --save promised to keep the game: it is kept
            self._save()
            self.exit()
            return
        if self.saved_at == len(self.session.state.st.history):
            self.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._save()
            self.exit()
        self.push_screen(Confirm("Save the game before leaving?"), answered)


def option_line(o: ViewOption, room: int, digits: int = 1) -> Text:
    """An option's line in `room` columns: its number (`digits` wide: the numbers of a
    long list line up, and every one can be typed; none for 0, where amounts are typed as
    themselves), its label whole (wrapped where it is
    longer than the pane, never cut), then what its card costs and does where they fit (the
    reader has them in full)."""
    # A styled span's leading spaces are dropped when drawn (a space ends the span before
    # it): the numbers are padded after their dot, not before.
    number = f"{str(o.index + 1) + '.':<{digits + 1}} " if digits else ""
    used = len(number) + len(o.label)
    details = o.details if used + 13 <= room else ""  # cut to the room left: the reader has it whole
    if details and len(details) > room - used - 1:  # (no details: nothing cut, no "…")
        details = details[:room - used - 2] + "…"
    used += len(details) + 1 if details else 0
    left = room - used - 2  # "— " and the hint
    hint = "" if left < 8 else o.hint if len(o.hint) <= left else o.hint[:left - 1] + "…"
    text = Text(number, style="bold")
    text.append(o.label + (" " if details or hint else ""))
    if details:
        text.append(details + (" " if hint else ""), style="cyan")
    if hint:
        text.append(f"— {hint}", style="dim")
    return text
