"""What the dice games' screens share (Alhambra dice, Carcassonne dice): the message line, entering an event
through the engine, undo and redo with the on-screen game log kept to the log on disk, and the export.

Each game's screen composes its own view (with a `#message` Static and a `#log` Log), draws it in
`refresh_view`, words its events in `words`, gives its scoring's JSON in `scoring` and names its keys in its
own `BINDINGS` (the help screen lists a screen's own bindings).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from rich.text import Text
from textual.widgets import Log, Static

from companion.games.folding import IllegalMove
from companion.games.session import Session
from companion.live.match import FaceProposal

from ..export import export_json
from .play import PlayScreen

E = TypeVar("E")
S = TypeVar("S")

EXPORT_KEY = "ctrl+e"


class EventGameScreen(PlayScreen, Generic[E, S]):
    """Plays one dice game's session."""

    def __init__(self, session: Session[E, S, Any]) -> None:
        super().__init__(session)
        self.session: Session[E, S, Any] = session
        self.message = ""
        self.error = False
        self.pending: FaceProposal | None = None
        """A camera reading of a roll that needs the players' word: ctrl+k accepts it, typed dice fix it."""
        self.worded: list[list[str]] = self._worded(session.events)
        """The game log's lines of each event, worded once (undo takes an event's lines back)."""

    @property
    def state(self) -> S:
        return self.session.state

    def words(self, before: S, event: E, after: S) -> list[str]:
        """The game log's lines for `event`, which turned `before` into `after`, in the players' words."""
        raise NotImplementedError

    def _worded(self, events: list[E]) -> list[list[str]]:
        """Each event's lines, the game replayed event by event to word each (the set-up: its own state)."""
        rules = self.session.rules
        state = rules.replay(events[:1])
        lines = [self.words(state, events[0], state)]
        for event in events[1:]:
            after = rules.apply(state, event)
            lines.append(self.words(state, event, after))
            state = after
        return lines

    def submit(self, event: E) -> None:
        """Apply an event through the session and add its lines to the game log (`IllegalMove`, `OSError`:
        nothing changes)."""
        before = self.state
        self.session.submit(event)
        self._logged(self.words(before, event, self.state))

    def _logged(self, lines: list[str]) -> None:
        self.worded.append(lines)
        self._write_log(lines)

    def _write_log(self, lines: Iterable[str]) -> None:
        """Lines added to the log, which follows them: `Log` scrolls only when it was at its end as laid out
        last, which a burst of lines written before the next refresh (a demo, Dirk's moves) is not."""
        log = self.query_one("#log", Log)
        log.write_lines(lines)
        log.scroll_end(animate=False)

    def refresh_view(self) -> None:
        """Draw the game as it stands, and `self.message`."""
        raise NotImplementedError

    def scoring(self) -> dict[str, Any]:
        """The scoring so far as `companion score --json` prints it."""
        raise NotImplementedError

    def say(self, message: str, error: bool = False) -> None:
        self.message, self.error = message, error
        self.refresh_view()

    def show_message(self) -> None:
        message = self.query_one("#message", Static)
        message.update(Text(self.message))  # as said: an engine's `[row, col]` is no markup
        message.set_class(self.error, "error")

    def enter(self, event: E) -> bool:
        """Apply an event; the engine's reason is shown when it is refused, and nothing changes."""
        try:
            self.submit(event)
        except (IllegalMove, OSError) as exc:
            self.say(str(exc), error=True)
            return False
        self.message, self.error = "", False
        self.pending = None
        self._after_change()
        return True

    def rolled_by_camera(self, counts: tuple[int, ...], note: str) -> E | None:
        """The roll event of a camera reading's counts for the player to roll now (None: nobody rolls now);
        a game whose rolls the camera reads gives it."""
        raise NotImplementedError

    def offer_roll(self, proposal: FaceProposal) -> None:
        """The camera's reading of the roll the game waits for: read surely, it goes in; else the players
        are asked (ctrl+k accepts it where every die was made out, or they type the roll)."""
        event = self.rolled_by_camera(proposal.counts, "") if proposal.sure else None
        if event is not None:
            self.enter(event)
            return
        self.pending = proposal
        key = "ctrl+k accepts it, or type" if proposal.complete else "type"
        self.say(f"camera read {proposal.read}: {proposal.problem}. {key} the roll", error=True)

    def action_accept_camera(self) -> None:
        pending = self.pending
        note = "" if pending is None else f"camera read {pending.read}; accepted ({pending.problem})"
        event = self.rolled_by_camera(pending.counts, note) if pending and pending.complete else None
        if event is None:
            self.say("no camera reading to accept: type the roll", error=True)
            return
        self.enter(event)

    def camera_withdrawn(self) -> None:
        """The dice moved again: a reading that waited for the players' word is gone."""
        if self.pending is not None:
            self.pending = None
            self.say("")

    def _after_change(self) -> None:
        """The game changed: redraw it (a game's screen adds what follows, such as the end)."""
        self.refresh_view()

    def action_undo(self) -> None:
        try:
            self.session.undo()
        except (IllegalMove, OSError) as exc:
            self.say(str(exc), error=True)
            return
        self.say(f"undone: {'; '.join(self.worded.pop())} (ctrl+y redoes it)")
        self._rewrite_log()

    def action_redo(self) -> None:
        before = self.state
        try:
            redone = self.session.redo()
        except (IllegalMove, OSError) as exc:
            self.say(str(exc), error=True)
            return
        lines = self.words(before, redone, self.state)
        self._logged(lines)
        self.say(f"redone: {'; '.join(lines)}")
        self._after_change()

    def _rewrite_log(self) -> None:
        """The game log as the events stand (on opening the game, and after an undo)."""
        self.query_one("#log", Log).clear()
        self._write_log(line for lines in self.worded for line in lines)

    def action_export(self) -> None:
        """The scoring so far with every reason, as `GAME.score.json` beside the game's log."""
        try:
            path = export_json(self.session.path, self.scoring())
        except OSError as exc:
            self.say(f"export failed: {exc}", error=True)
            return
        self.say(f"exported the scoring to {path}")
