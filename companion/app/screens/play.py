"""What every game's screen is to the app: the session it plays, what the camera settles on, and the end; and
what every game's screen does alike: the game log worded event by event (`words`), undo and redo.

The app opens a game's screen through the table of games and talks to it only through this base: it hands it
each reading the camera settles on (`table_settled`) or withdraws (`camera_withdrawn`), and the screen posts
`PlayScreen.Finished` when the game is over, with the screen that shows its end (None: it stays on view).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.events import Click, Resize
from textual.message import Message
from textual.screen import Screen

from companion.games.entry import load
from companion.games.folding import IllegalMove
from companion.games.session import Session
from companion.games.table import entry_of_rules
from companion.games.words import listed
from companion.live.frames import FrameKeeper, Sighting
from companion.live.match import LOOKED_AWAY, FaceProposal, Proposal
from companion.saved_games import game_stem
from vision.reading import DiceReading

from ..export import EndScoring, ExportError, export_scored, withdrawn
from ..keys import key_name
from ..widgets.fitted import FittedScreen
from ..widgets.wrapped_log import WrappedLog
from .advice import AdviceScreen
from .evidence import EvidenceScreen, exhibits
from .left_game import LeftGame, game_words
from .start import next_game, session_summary


class PlayScreen(FittedScreen[None]):
    """A screen that plays one game's session."""

    class Finished(Message):
        """The game is over: `end` is the screen of its final scoring (None: the game's screen shows it),
        `note` what to tell the players."""

        def __init__(self, session: Session[Any, Any, Any], end: Screen[None] | None, note: str) -> None:
            super().__init__()
            self.session = session
            self.end = end
            self.note = note

    class Leave(Message):
        """Back to the start screen: the game is saved after every move and continued from there (one left
        with nothing played is not kept: `leave`)."""

    def __init__(
        self,
        session: Session[Any, Any, Any],
        frames: FrameKeeper | None = None,
        table: DiceReading | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.frames = frames or FrameKeeper.off()
        """Where the rolls the camera read keep its frame of the dice (off: none are kept)."""
        self.pending: Proposal | FaceProposal | None = None
        """A camera reading of a roll that waits for the players' word (a game the camera reads sets it)."""
        self.table = table
        """The dice lying on the table as the camera last settled on them (None once they move)."""
        self._put: DiceReading | None = None
        """The last of them put to the game (entered or asked about): still dice are not put twice."""
        self._unseen: DiceReading | None = None
        """Dice the camera settled on while another screen was over this one: asked about on coming back."""
        self._words: Callable[[Any, Any, Any], list[str]] = load(entry_of_rules(session.rules).words)
        self.worded: list[list[str]] = self._worded(session.events)
        """The game log's lines of each event, worded once (undo takes an event's lines back)."""

    # ------------------------------------------------------------------ what each game's screen gives
    def words(self, before: Any, event: Any, after: Any) -> list[str]:
        """The game log's lines for `event`, which turned `before` into `after`, in the players' words (the
        table of games names the function: `GameEntry.words`)."""
        return self._words(before, event, after)

    def say(self, message: str, error: bool = False) -> None:
        """`message` on the screen's message line (an error: in the error's colour)."""
        raise NotImplementedError

    def _after_change(self) -> None:
        """The game changed (a move, a redo): redraw it, and whatever the game does next by itself."""
        raise NotImplementedError

    def automatic_next(self) -> bool:
        """Whether the app makes the next move itself (an imaginary player's roll, Dirk's fixed moves): undo
        and redo take such moves with the players' move before them."""
        return False

    def forget_typing(self) -> None:
        """An undo or redo changes whose move it is: the camera's offer of a throw (and what a screen keeps
        of a move being typed) was for the move undone or redone, of no other."""
        self.pending = None

    def after_undo(self, over: bool) -> None:
        """After an undo (`over`: whether the game was over before it), what the game's screen does more."""

    def scored(self) -> EndScoring:
        """The scoring so far (the final one once the game is over) with every reason."""
        raise NotImplementedError

    def scored_markdown(self, scored: EndScoring) -> str:
        """The scoring as the export's Markdown gives it (a game's screen may add its own tables)."""
        return scored.markdown(game_stem(self.session.path))

    # --------------------------------------------------------------------------------- the game log
    def event_lines(self) -> list[list[str]]:
        """The game log's lines of each event, as the screen shows them."""
        return self.worded

    def _worded(self, events: list[Any]) -> list[list[str]]:
        """Each event's lines, the game replayed event by event to word each."""
        return [self.words(*step) for step in self.session.rules.steps(events)]

    def _logged(self, lines: list[str]) -> None:
        self.worded.append(lines)
        self.query_one("#log", WrappedLog).write_lines(lines)

    def _rewrite_log(self) -> None:
        """The game log as the events stand (on opening the game, and after an undo)."""
        self.query_one("#log", WrappedLog).show_lines(line for lines in self.worded for line in lines)

    def action_export(self) -> None:
        """The scoring so far with every reason, as `GAME.score.md` and `GAME.score.json` beside the log."""
        scored = self.scored()
        try:
            paths = export_scored(scored, self.scored_markdown(scored), self.session.path, ("md", "json"))
        except ExportError as exc:  # what was written, and why the rest was not
            self.say(str(exc), error=True)
            return
        self.say(
            f"exported the {'final scoring' if scored.finished else 'scoring so far'} to {listed(paths)}"
        )

    # ---------------------------------------------------------------------------------- undo, redo
    def action_undo(self) -> None:
        """The last move taken back, with the moves the app made itself after it (`automatic_next`): undone
        alone, the app made them again at once, or waited for a move nobody could make."""
        over = self.session.state.is_over
        undone: list[str] = []
        try:
            self.session.undo()
            undone[:0] = said_of(self.worded.pop())
            while self.automatic_next() and len(self.session.events) > 1:
                self.session.undo()
                undone[:0] = said_of(self.worded.pop())
        except (IllegalMove, OSError) as exc:
            self.say(str(exc), error=True)
            if not undone:
                return
        self._rewrite_log()
        self.forget_typing()
        withdrawn_export = withdrawn(self.session.path, over, self.session.state.is_over)
        self.say(f"undone: {'; '.join(undone)} (ctrl+y redoes it){withdrawn_export}")
        self.after_undo(over)

    def action_redo(self) -> None:
        """The last move undone made again, with the moves the app made itself after it (undone with it, and
        said with it: the redo named the player's move alone)."""
        redone: list[str] = []
        try:
            while not redone or (self.automatic_next() and self.session.redo_stack):
                before = self.session.state
                event = self.session.redo()
                lines = self.words(before, event, self.session.state)
                self._logged(lines)
                redone += said_of(lines)
        except (IllegalMove, OSError) as exc:
            self.say(str(exc), error=True)
            if not redone:
                return
        self.forget_typing()
        self.say(f"redone: {'; '.join(redone)}")
        self._after_change()

    def keep_frame(self, seen: Sighting | None = None) -> str:
        """Keep the camera's frame of the dice lying on the table (or of `seen`) for a roll made of them: its
        name, or '' (none kept; the roll goes on without it, and the players are told once why)."""
        name = self.frames.keep(seen)
        news = self.frames.news()
        if news:
            self.notify(news, severity="warning")
        return name

    def frames_listed(self) -> bool:
        """Whether the footer names the camera's frames (ctrl+o): where the screen's other keys leave room for
        it at 80 columns. F1 names it on every game's screen."""
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("frames", "unlisted_frames"):
            # A phone's footer is full with the keys every game shares.
            listed = self.frames_listed() and not self.has_class("-narrow")
            return listed == (action == "frames")
        return True

    def action_unlisted_frames(self) -> None:
        self.action_frames()

    def action_frames(self, move: int | None = None) -> None:
        """The camera's evidence of this game: its frames, the one of `move` (None: the last) open."""
        shown = exhibits(self.session.events, self.session.rules.log.encode, self.event_lines())
        at = next((n for n, e in enumerate(shown) if e.move == move), None)
        if move is not None and at is None:
            self.notify(f"move {move} was not read by the camera: no frame of it", severity="warning")
            return
        self.app.push_screen(EvidenceScreen(self.session.path, shown, at))

    def on_click(self, event: Click) -> None:
        """A click on a line of the game log opens that move's frame, where the camera read it."""
        log = event.widget
        if not isinstance(log, WrappedLog) or log.id != "log":
            return
        offset = event.get_content_offset(log)
        line = None if offset is None else log.line_at(offset.y)
        if line is None:
            return
        for move, lines in enumerate(self.event_lines()):
            line -= len(lines)
            if line < 0:
                self.action_frames(move)
                return

    def on_resize(self, event: Resize) -> None:
        """Every game's screen lays itself out by the terminal's size (`-narrow`, `-stacked`, `-short`,
        set by `FittedScreen`), and shows the keys that fit."""
        self.refresh_bindings()

    def on_unmount(self) -> None:
        self.session.close()

    def leave(self) -> LeftGame:
        """The game as the players leave it, its log let go (the start screen may delete it). Roll & Write's
        own rolls for imaginary players never come before a player's move, and its undo takes them back with
        that move: in every game a move is a line after the log's first."""
        self.session.close()
        words = game_words(entry_of_rules(self.session.rules), session_summary(self.session))
        return LeftGame(self.session.path, len(self.session.events) > 1, words, next_game(self.session))

    def action_advice(self) -> None:
        """What each choice of the decision now is worth (the panel computes it; it never makes the move)."""
        session = self.session
        advice = entry_of_rules(session.rules).advice
        self.app.push_screen(AdviceScreen(advice, session.state, lambda: session.state, self._camera_waits()))

    def _camera_waits(self) -> str:
        """What the players do first while a camera reading waits for their word: the dice are on the table,
        but not yet in the game, whose decision (if any) is the one before they were thrown."""
        if self.pending is None:
            return ""
        if not self.pending.complete:
            return "the camera could not make out every die: type the dice first"
        # Named as the screen's own line names it ("ctrl+k accepts 3 gardens"), not as the footer writes it.
        keys = [
            key_name(b.binding.key)
            for b in self.active_bindings.values()
            if b.binding.action == "accept_camera"
        ]
        return f"confirm the camera's dice ({keys[0]}) or type them first" if keys else "type the dice first"

    def in_view(self) -> bool:
        """Whether the players look at this screen: a camera's throw is put to the game only then. Not
        `is_current`, which holds behind a modal screen (help, advice), where they look away."""
        return self.app.screen is self

    def table_settled(self, reading: DiceReading, lying: str = "") -> None:
        """The camera settled on the dice lying on the table: put to the game now if the players are looking
        at this screen, else when they come back to it; dice nobody saw thrown (`lying` says why) are
        offered, never entered unasked."""
        self.table = reading
        if not self.in_view():
            self._unseen = reading
            return
        self.put_to_game(reading, lying)

    def on_screen_resume(self) -> None:
        """Back from a screen over the game (help, advice, past games): the dice the camera settled on
        meanwhile are read as lying there, asked about and never entered unasked, as nobody saw them read."""
        if self.table is not None and self.table is self._unseen:
            self._unseen = None
            self.put_to_game(self.table, LOOKED_AWAY)

    def put_to_game(self, reading: DiceReading, lying: str = "") -> None:
        """The dice the camera settled on, read for the game (a game that reads no dice ignores them)."""

    def camera_withdrawn(self) -> None:
        """The dice the camera settled on moved again: a reading that waited for the players' word is gone."""
        self.table = None
        if self.pending is not None:
            self.pending = None
            self.say("")


def said_of(lines: list[str]) -> list[str]:
    """An event's log lines as a message names the event (undone, redone): its notes (indented: what the
    camera read) left out."""
    return [line for line in lines if not line[:1].isspace()]
