"""The Carcassonne dice game's screen: the score pad, the city built this turn, the Now panel saying what the
table must do, one line to type rolls and choices into, and the game log.

Every typed entry becomes an engine event; the engine accepts it or says why not, and only accepted events
reach the log on disk.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Footer, Input, Log, Static

from companion.games import carcassonne_dice as cd

from ..carcassonne_dice_input import HELP, InputError, parse
from ..carcassonne_dice_session import CarcassonneDiceSession
from ..widgets.carcassonne_pad import CarcassonnePad, CityView
from .event_game import EventGameScreen


class CarcassonneDiceScreen(EventGameScreen[cd.Event, cd.GameState]):
    """Plays one `CarcassonneDiceSession`; posts `Finished` when a player has won."""

    CSS_PATH = "carcassonne_dice.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", "undo"),
        Binding("ctrl+y", "redo", "redo"),
        # Before the entry line's own ctrl+e (go to the end: End does that too).
        Binding("ctrl+e", "export", "export", priority=True),
    ]

    class Finished(Message):
        """A player reached 42 points or rolled 9 catapults: the game is over."""

        def __init__(self, session: CarcassonneDiceSession) -> None:
            super().__init__()
            self.session = session

    class FromTable(Message):
        """An event settled at the table by a reader (the demo's players), entered as if typed, and what the
        reader made of it to show beside it."""

        def __init__(self, event: cd.Event, said: str) -> None:
            super().__init__()
            self.event = event
            self.said = said

    def __init__(self, session: CarcassonneDiceSession) -> None:
        super().__init__(session)
        self.session: CarcassonneDiceSession = session

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="middle"):
            with Vertical(id="side"):
                yield CarcassonnePad(id="pad")
                yield Static(id="now")
                yield Static(id="message")
            yield CityView(id="city")
        yield Input(placeholder="a roll's counts, or a choice (Enter)", id="entry")
        log = Log(id="log", auto_scroll=True)
        log.can_focus = False
        yield log
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#pad").border_title = "Score pad"
        self.query_one("#city").border_title = "City this turn"
        self.query_one("#now").border_title = "Now"
        self.query_one("#log").border_title = "Game log"
        self._rewrite_log()
        self.query_one("#entry", Input).focus()
        self._after_change()

    # ------------------------------------------------------------------------------------ the view
    def refresh_view(self) -> None:
        state, exp = self.state, self.session.expectation()
        stage = "game over" if state.is_over else f"turn {state.turn}"
        self.query_one("#status", Static).update(f"Carcassonne – the dice game · {stage} · 42 points win")
        self.query_one("#pad", CarcassonnePad).show(state)
        self.query_one("#city", CityView).show(state)
        self.query_one("#now", Static).update(self._now_text(state, exp))
        self.show_message()

    def _now_text(self, state: cd.GameState, exp: cd.Expectation) -> str:
        if state.is_over:
            winner = state.names[state.winner] if state.winner is not None else "nobody"
            return f"{winner} wins: {state.why_over}.\n\n{HELP[exp.ask]}"
        lines = [exp.prompt]
        if exp.ask is cd.Ask.CHOOSE:
            lines.append(
                f"left to keep from roll {state.rolls}: {exp.keep_city} city, {exp.keep_knights} knight"
            )
            scored = cd.score_layout({b.at: b.areas for b in state.built}, state.doubled)
            points = f"{scored.points} point{'s' if scored.points != 1 else ''}"
            lines.append(f"if {exp.player} stops now: {points} ({scored.why})")
        lines += ["", HELP[exp.ask]]
        return "\n".join(lines)

    # ------------------------------------------------------------------------------- the entries
    @on(Input.Submitted, "#entry")
    def typed(self, submitted: Input.Submitted) -> None:
        try:
            event = parse(submitted.value, self.state)
        except InputError as exc:
            self.say(str(exc), error=True)  # what was typed stays in the line, to be fixed
            return
        if self.enter(event):
            submitted.input.value = ""

    def on_carcassonne_dice_screen_from_table(self, message: FromTable) -> None:
        if self.enter(message.event) and message.said:
            self.say(message.said)

    def _after_change(self) -> None:
        self.refresh_view()
        if self.state.is_over:
            self.post_message(self.Finished(self.session))

    def scoring(self) -> dict[str, Any]:
        """The score pad turn by turn with every reason."""
        return cd.score_game(self.state).to_json()
