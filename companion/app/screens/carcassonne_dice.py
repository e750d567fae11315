"""The Carcassonne dice game's screen: the score pad, the city built this turn, the Now panel saying what the
table must do, one line to type rolls and choices into, and the game log; with a camera, the city the camera
reads beside the log.

Every typed entry becomes an engine event; the engine accepts it or says why not, and only accepted events
reach the log on disk. The camera's city (ctrl+r) settles disputes and writes nothing: the players type what
is right. Its reading takes a second or more, so it runs on a worker thread, which posts `CityRead` back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Static

from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.entry import ENTRY, CarcassonneDiceSession
from companion.games.carcassonne_dice.report import game_text, reasons_text
from companion.live.cameras import CarcassonneDiceCamera
from companion.live.city import not_a_city_profile
from companion.live.city_check import CityCamera, CityCheck, check_city
from companion.live.frames import FrameKeeper, Sighting
from vision.grid import GridError
from vision.reader import DiceReader
from vision.reading import DiceReading, Image
from vision.symbols.profile import SymbolProfile

from ..carcassonne_dice_input import InputError, entry_help, parse
from ..carcassonne_dice_words import roll_text
from ..export import EndScoring
from ..widgets.carcassonne_pad import CarcassonnePad, CityView
from ..widgets.footer import KeysFooter
from ..widgets.log_row import log_row
from ..widgets.message_line import MessageLine
from .event_game import EntryLine, EventGameScreen, NowPanel, Panel, UnfocusedScroll
from .help import CARCASSONNE_DICE


class CarcassonneDiceScreen(EventGameScreen[cd.Event, cd.GameState]):
    """Plays one Carcassonne dice session; says each turn's points and the totals as a turn is scored, and
    posts `Finished` with the end screen when a player has won."""

    CSS_PATH = "carcassonne_dice.tcss"
    TITLE = ENTRY.title
    HELP_PAGE = CARCASSONNE_DICE
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "read_city", "read city"),
        # Without a camera the same key says so, out of the footer (as ctrl+k does: `EventGameScreen`).
        Binding("ctrl+r", "no_camera", show=False),
    ]

    class FromTable(Message):
        """An event settled at the table by a reader (the demo's players), entered as if typed, what the
        reader made of it to show beside it, and the picture a roll was read in (`seen`: its frame)."""

        def __init__(self, event: cd.Event, said: str, seen: Sighting | None = None) -> None:
            super().__init__()
            self.event = event
            self.said = said
            self.seen = seen

    class CityRead(Message):
        """The camera's city, read on a worker thread: compared with the typed one, or why none was read."""

        def __init__(self, found: CityCheck | str) -> None:
            super().__init__()
            self.found = found

    def __init__(
        self,
        session: CarcassonneDiceSession,
        camera: CityCamera | None = None,
        table: DiceReading | None = None,
        frames: FrameKeeper | None = None,
    ) -> None:
        super().__init__(session, frames, table)
        self.session: CarcassonneDiceSession = session
        self.camera = camera
        self.reading_city = False
        self._last_throw: list[str] | None = None
        """The faces of the dice the camera last settled on, to tell a throw from the same dice moved."""
        self._reader: DiceReader | None = None
        """Made on the first reading (it loads the models) and used by one worker at a time."""

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with UnfocusedScroll(id="middle"):
            # The Now panel takes the whole width under the pad and the city: at 80×24 its words fit in view.
            with Horizontal(id="top"):
                with Panel(id="pad-box"):
                    yield CarcassonnePad(id="pad")
                with Panel(id="city-box"):
                    yield CityView(id="city")
            yield NowPanel(id="side")
        yield MessageLine(id="message")
        yield EntryLine(self.typed, "a roll's counts, or a choice (Enter)")
        told = "ctrl+r reads the city on the table and compares it with the one typed"
        beside = None if self.camera is None else UnfocusedScroll(Static(told), id="camera-city")
        yield from log_row(self.camera is not None, beside, "The camera's city")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#pad-box").border_title = "Score pad"
        self.query_one("#city-box").border_title = "City this turn"
        self._rewrite_log()
        self.query_one("#entry", Input).focus()
        self._after_change()

    # ------------------------------------------------------------------------------------ the view
    def refresh_view(self) -> None:
        state, exp = self.state, self.session.expectation()
        stage = "game over" if state.is_over else f"turn {state.turn}"
        self.query_one("#status", Static).update(f"{self.TITLE} · {stage} · 42 points win")
        self.query_one("#pad", CarcassonnePad).show(state)
        self.query_one("#city", CityView).show(state)
        self.query_one(NowPanel).show(self._now_text(state, exp), entry_help(exp))
        self.show_message()

    def _now_text(self, state: cd.GameState, exp: cd.Expectation) -> str:
        if state.is_over:
            winner = state.names[state.winner] if state.winner is not None else "nobody"
            return f"{winner} wins: {state.why_over}."
        lines = [exp.prompt]
        if exp.ask is cd.Ask.CHOOSE:
            lines.append(
                f"left to keep from roll {state.rolls}: {exp.keep_city} city, {exp.keep_knights} knight"
            )
            scored = cd.score_layout({b.at: b.areas for b in state.built}, state.doubled)
            points = f"{scored.points} point{'s' if scored.points != 1 else ''}"
            lines.append(f"if {exp.player} stops now: {points} ({scored.why})")
        return "\n".join(lines)

    # ------------------------------------------------------------------------------- the entries
    def typed(self, submitted: Input.Submitted) -> None:
        """An entry of the line, handed over as Enter is pressed (`EntryLine`)."""
        if self.asks_advice(submitted.value):
            return
        try:
            event = parse(submitted.value, self.state)
        except InputError as exc:
            self.say(str(exc), error=True)  # what was typed stays in the line, to be fixed
            return
        if isinstance(event, cd.Rolled) and self.pending is not None:
            event = replace(event, source="keyboard", note=f"camera read {self.pending.read}")
        if self.enter(event):
            submitted.input.value = ""

    def on_carcassonne_dice_screen_from_table(self, message: FromTable) -> None:
        if self.enter(message.event, message.seen) and message.said:
            self.say(message.said)

    def roll_text(self, event: cd.Event) -> str:
        return roll_text(event) if isinstance(event, cd.Rolled) else ""

    # ---------------------------------------------------------------------------------- the camera
    def read_table(self, reading: DiceReading, lying: str) -> None:
        """A throw when the game waits for one (sure: entered; else asked).

        Every die in view is counted by face, the city built and the knights kept this turn with them. A
        throw is taken at a turn's start and after the dice kept were entered: dice settling before that are
        the last throw's, moved while building. Dice showing just what they showed when the camera last
        settled are the same dice moved, not a throw."""
        exp, state = self.session.expectation(), self.state
        faces = sorted(d.face or "" for d in reading.dice if d.kind == "symbol")
        same, self._last_throw = faces == self._last_throw, faces
        if self.camera is None or self.camera.profile is None or exp.player is None or same:
            return
        last = self.session.events[-1]
        if not (exp.ask is cd.Ask.ROLL or (exp.can_roll and isinstance(last, cd.Kept))):
            self.say(f"camera: dice seen, no throw expected now ({exp.prompt})")
            return
        proposal = CarcassonneDiceCamera.proposal(reading, exp, state, self.camera.profile.labels)
        if proposal is not None:
            self.offer_roll(proposal, lying)

    def rolled_by_camera(self, counts: tuple[int, ...], note: str) -> cd.Rolled | None:
        return CarcassonneDiceCamera.event(counts, self.session.expectation(), "camera", note)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("read_city", "no_camera"):
            return self.has_camera() == (action == "read_city")
        return super().check_action(action, parameters)

    def has_camera(self) -> bool:
        return self.camera is not None

    def frames_listed(self) -> bool:
        """The camera's two keys fill the footer's 80 columns."""
        return self.camera is None

    def action_no_camera(self) -> None:
        self.say(
            "ctrl+r reads the built city with the camera: start the app with `--camera SPEC --symbols "
            "carc.json` (the dice taught with --preset carcassonne)",
            error=True,
        )

    def action_read_city(self) -> None:
        """Read the city in the camera's newest frame, off the UI thread; a second press meanwhile is told the
        reading is under way."""
        assert self.camera is not None, "check_action lets this key run only with a camera"
        if self.reading_city:
            self.say("reading the city ...")
            return
        if self.camera.profile is None:
            self.say(
                "the camera reads a city with the dice taught with --preset carcassonne: start the app with "
                "`--symbols carc.json`",
                error=True,
            )
            return
        if why := not_a_city_profile(self.camera.profile):
            self.say(f"the camera cannot read a city: {why}", error=True)
            return
        frame = self.camera.frame()
        if frame is None:
            self.say("the camera has no frame of the table now: try again once it sees the table", error=True)
            return
        self.reading_city = True
        self.say("reading the city ...")
        self._read_city(frame, self.camera.profile, self.state.built, self.state.doubled)

    @work(thread=True, group="city")
    def _read_city(
        self, frame: Image, profile: SymbolProfile, built: tuple[cd.Built, ...], doubled: bool
    ) -> None:
        """On Textual's worker thread (its pool is joined as the app's loop closes); posts the answer."""
        found: CityCheck | str
        try:
            if self._reader is None:
                self._reader = DiceReader(symbols=profile)
            found = check_city(frame, self._reader, built, doubled)
        except GridError as exc:
            found = f"the camera sees no city: {exc}"
        except Exception as exc:  # a reader fault on one odd frame must not end the game being played
            found = f"the camera's city could not be read: {exc!r}"
        self.post_message(self.CityRead(found))

    @on(CityRead)
    def city_read(self, message: CityRead) -> None:
        self.reading_city = False
        text = message.found if isinstance(message.found, str) else message.found.text()
        self.query_one("#camera-city", UnfocusedScroll).query_one(Static).update(text)
        if isinstance(message.found, str):
            self.say(message.found, error=True)
            return
        points = message.found.scored.points
        self.say(f"camera: {message.found.verdict}; it scores {points} point{'s' if points != 1 else ''}")

    def scored(self) -> EndScoring:
        """The score pad turn by turn with every reason."""
        board = cd.score_game(self.state)
        return EndScoring(
            ENTRY.id,
            self.TITLE,
            board.finished,
            tuple((p.name, p.total) for p in board.players),
            () if board.winner is None else (board.winner,),
            game_text(board),
            board.to_json(),
            reasons=reasons_text(board),
        )

    def scorings_held(self) -> int:
        """Every turn is scored as it ends."""
        return len(self.state.turns)

    def scoring_held(self) -> tuple[str, str]:
        state = self.state
        turn = state.turns[-1]
        points = "holds a knight: no points now, next turn double" if turn.held_knight else turn.why
        totals = ", ".join(f"{name} {total}" for name, total in zip(state.names, state.scores, strict=True))
        return f"{turn.player}'s turn {turn.turn}", f"{points}; totals: {totals}"

    def show_scoring(self, title: str, text: str) -> None:
        """A turn is scored every few entries: said on the message line, where the next entry replaces it."""
        self.say(f"{title}: {text}")
