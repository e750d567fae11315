"""What the dice games' screens share (Alhambra dice, Carcassonne dice): the message line, entering an event
through the engine, every scoring shown as it is held, the end screen and the export, with the keys every game
shares (`keys.game_keys`); undo and redo are every game's (`PlayScreen`).

Each game's screen composes its own view (with an `UnfocusedScroll` `#middle` holding its `Panel`s and its
`NowPanel`, a `#message` Static, an `#entry` Input and a `#bottom` row with the `#log` WrappedLog: `fit_log`
gives it the lines the middle does not need), draws it in `refresh_view` (its events are worded by its row of
the table of games: `GameEntry.words`), gives its scoring in `scored` and each scoring held in `scoring_held`,
and names its own keys in its `BINDINGS` and its help page in `HELP_PAGE` (F1 lists the screen's bindings and
the page).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.events import Key, Resize
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Input, Static

from companion.games.folding import IllegalMove
from companion.games.session import Session
from companion.live.frames import FrameKeeper, Sighting
from companion.live.match import (
    LYING_BEFORE_ASKED,
    FaceProposal,
    describe_reading,
    offered_only,
)
from vision.reading import DiceReading

from ..keys import ADVICE_LINE, game_keys
from ..widgets.message_line import MessageLine
from ..widgets.wrapped_log import LOG_KEYS, WrappedLog
from .end import EndScreen, ScoringPanel
from .play import PlayScreen

SHORT_LOG = 4
"""At 80×24 the game log shows only where it has this many lines (two of them its border)."""
END = "e"
"""Opens the final scoring again once the game is over (after `b` went back from it), as on Roll & Write's
screen: the entry line has no entry to take then, and types the letter until then."""


class GameState(Protocol):
    @property
    def is_over(self) -> bool: ...


class EntryLine(Input):
    """The dice games' entry line (`#entry`), on which every key takes effect in the order typed.

    Textual runs a key's bindings (Enter, ctrl+z, esc, backspace) only once the key has bubbled from the line
    up to the app, and Enter's `Submitted` reaches the screen later still, while the line takes the letters
    typed after them at once: keys that queued up (the app busy reading a camera's frame) entered a line
    holding the next entry's letters too, or undid before the entry typed ahead of the undo. Here the line
    runs each key's bindings on its own turn, and Enter hands the line to `enter` there and then.
    """

    def __init__(self, enter: Callable[[Input.Submitted], None], placeholder: str) -> None:
        super().__init__(placeholder=placeholder, id="entry")
        self._enter = enter

    async def _on_key(self, event: Key) -> None:
        # A letter is typed into the line (`Input._on_key`, after this), never a binding's key.
        if event.is_printable:
            return
        bound = self.screen.active_bindings.get(event.key)
        if bound is None or not bound.enabled:
            return
        if await self.app.run_action(bound.binding.action, bound.node):
            event.stop()  # run: the app must not run it again

    def check_consume_key(self, key: str, character: str | None) -> bool:
        # A letter the screen takes now (`EventGameScreen.takes_letter`) is its key: Textual dropped the
        # screen's binding of every letter while the line had the focus, from the keys and the footer.
        screen = self.screen
        taken = isinstance(screen, EventGameScreen) and screen.takes_letter(key)
        return super().check_consume_key(key, character) and not taken

    async def action_submit(self) -> None:
        self._enter(self.Submitted(self, self.value))


class UnfocusedScroll(VerticalScroll, can_focus=False):
    """A scrolling part of a dice game's screen (`#middle`, the camera's city): scrolled by the mouse's wheel
    (the middle by PageUp/PageDown too), it never takes the focus from the entry line. Focused by a click (or
    Tab), it took what was typed next without a word, and Esc on the emptied entry left the game."""


class Panel(Vertical):
    """A bordered panel of the middle (the board, the pad, the city, the Now panel): where the screen's CSS
    caps its height, it scrolls inside its border."""

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        # Textual moves no hidden scrollbar: a panel paged down, back at its top while a wider terminal showed
        # it whole, showed its thumb half way down once the terminal narrowed again.
        if shown:
            self.vertical_scrollbar.position = self.scroll_y

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # Textual lays the lines out for an auto height at the width inside the border, the scrollbar's column
        # (kept for it, or shown) included: the Now panel's words, wrapped a column narrower, ran a line past
        # the height measured, and the panel scrolled where it had room to show them whole.
        return super().get_content_height(container, viewport, width - self.scrollbar_size_vertical)


class NowPanel(Panel):
    """The Now panel (`#side`): what the game expects (`#now`), then what to type and how (`#how`). The
    screen's CSS docks `#how` at the panel's foot where the panel may get too few lines: the rest of it
    scrolls, what to type stays in view."""

    def compose(self) -> ComposeResult:
        # What the game expects names its players, which are no markup (`[b]Ann` bold, `Ann[/]` a crash).
        yield Static(id="now", markup=False)
        yield Static(id="how", markup=False)

    def on_mount(self) -> None:
        self.border_title = "Now"

    def show(self, now: str, how: str) -> None:
        self.query_one("#now", Static).update(now)
        self.query_one("#how", Static).update(how)


E = TypeVar("E")
S = TypeVar("S", bound=GameState)


class EventGameScreen(PlayScreen, Generic[E, S]):
    """Plays one dice game's session."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Before the entry line, which hands its letter over once the game is over (`takes_letter`).
        Binding(
            END,
            "show_end",
            "final scoring",
            tooltip="the final scoring again, once the game is over",
            priority=True,
        ),
        *game_keys(),
        # Before the entry line's own ctrl+k (delete to the end). Without a camera the same key says so, out
        # of the footer: `check_action` lets one of the two run (a ctrl+k that did nothing fell through to
        # the entry line, which deleted what was typed).
        Binding("ctrl+k", "accept_camera", "camera's dice", priority=True),
        Binding("ctrl+k", "no_camera_reading", show=False, priority=True),
        # The entry line keeps the focus, so the middle (board or pad, the Now panel) scrolls by these keys
        # too: at 80×24 its lower part is out of view, and a mouse's wheel may not be at hand.
        Binding("pageup", "scroll_middle(-1)", "page up the board or pad, then the Now panel", show=False),
        Binding("pagedown", "scroll_middle(1)", "page down the board or pad, then the Now panel", show=False),
        *LOG_KEYS,
    ]

    def __init__(
        self, session: Session[E, S, Any], frames: FrameKeeper | None = None, table: DiceReading | None = None
    ) -> None:
        super().__init__(session, frames, table)
        self.scorings_shown: int | None = None
        """How many scorings the players have seen (None: not counted yet; a continued game's earlier
        scorings are not shown again)."""
        self.session: Session[E, S, Any] = session
        # A last line cut off by a crash was set aside on opening: said, as Roll & Write says it (the move
        # was gone without a word).
        self.message = session.warning
        self.error = bool(session.warning)
        self.pending: FaceProposal | None = None
        """A camera reading of a roll that needs the players' word: ctrl+k accepts it, typed dice fix it."""
        self.untaught = ""
        """Why the camera's taught dice cannot be counted for this game ("" when they can)."""

    def camera_cannot_count(self, why: str) -> None:
        """The camera's taught dice are not this game's (`why`; "" when they are): said on opening, after
        what opening the log said, and again with every reading of the dice, none of which is entered or
        offered. Said on opening alone, the first reading's "3 dice not made out" replaced it within a
        second, and the players never learnt why the camera entered no roll."""
        self.untaught = why
        if why:
            self.message = "\n".join(m for m in (self.message, why) if m)
            self.error = True

    @property
    def state(self) -> S:
        return self.session.state

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_end":
            return self.state.is_over
        if action in ("accept_camera", "no_camera_reading"):
            return self.has_camera() == (action == "accept_camera")
        return super().check_action(action, parameters)

    def has_camera(self) -> bool:
        """Whether a camera reads this game's dice (the footer names ctrl+k only then)."""
        raise NotImplementedError

    def takes_letter(self, key: str) -> bool:
        """Whether the letter `key` is the screen's key now, not typed into the entry line."""
        return key == END and self.state.is_over

    @on(Input.Changed, "#entry")
    async def help_asked(self, event: Input.Changed) -> None:
        """`?` typed as an entry opens the help, as on every other game's screen (no entry begins with it:
        it was typed into the line, and Enter refused it)."""
        if event.value == "?":
            event.input.value = ""
            await self.run_action("app.help")

    def asks_advice(self, line: str) -> bool:
        """The entry line `h` (Enter) asks for advice, as ctrl+a does: a letter key would be typed into it."""
        if line.strip().lower() != ADVICE_LINE:
            return False
        self.query_one("#entry", Input).value = ""
        self.action_advice()
        return True

    def submit(self, event: E) -> None:
        """Apply an event through the session and add its lines to the game log (`IllegalMove`, `OSError`:
        nothing changes)."""
        before = self.state
        self.session.submit(event)
        self._logged(self.words(before, event, self.state))

    def refresh_view(self) -> None:
        """Draw the game as it stands, and `self.message`."""
        raise NotImplementedError

    def scorings_held(self) -> int:
        """How many scorings the game has held so far."""
        raise NotImplementedError

    def scoring_held(self) -> tuple[str, str]:
        """The title and text of the scoring held last, every number with its reason."""
        raise NotImplementedError

    def show_scoring(self, title: str, text: str) -> None:
        """A scoring was just held: shown over the game until the players dismiss it."""
        self.app.push_screen(ScoringPanel(title, text))

    def say(self, message: str, error: bool = False) -> None:
        self.message, self.error = message, error
        self.refresh_view()

    def show_message(self) -> None:
        # As said: an engine's `[row, col]` is no markup.
        self.query_one("#message", MessageLine).say(Text(self.message), self.error)
        # Every redraw ends here, and may change what the middle needs.
        self.refit()

    def on_mount(self) -> None:
        # A panel of the middle grown past it (a taller city) is seen here once laid out.
        self.watch(self.query_one("#middle"), "virtual_size", self.refit, init=False)

    def refit(self) -> None:
        self.call_after_refresh(self.fit_log)

    def on_resize(self, event: Resize) -> None:
        self.refit()

    def on_fitted_redrawn(self) -> None:
        self.refit()

    def fit_log(self) -> None:
        """Give the game log (`#bottom`) every line the middle does not need to show the board or pad and the
        Now panel whole, and no fewer than its CSS's `min-height`: on a tall terminal the middle otherwise
        kept empty lines while the log showed its least. At 80×24 (`-short`) the log has no least: it shows
        where the middle leaves it `SHORT_LOG` lines or more, and beside the camera's panel (whose lines the
        CSS sets), which takes no line from the middle; elsewhere it is hidden (the message line says each
        move taken at that size, `enter`)."""
        middle, bottom, log = self.query_one("#middle"), self.query_one("#bottom"), self.query_one("#log")
        if self.has_class("-short") and self.query("#camera"):
            bottom.styles.height = None
            log.display = True
            return
        needed = middle.get_content_height(self.size, self.size, middle.size.width)
        spare = middle.outer_size.height + bottom.outer_size.height - needed
        log.display = not self.has_class("-short") or spare >= SHORT_LOG
        bottom.styles.height = max(0, spare) if log.display else 0

    def enter(self, event: E, seen: Sighting | None = None) -> bool:
        """Apply an event; the engine's reason is shown when it is refused, and nothing changes. A roll the
        camera read, or typed over its reading, keeps the camera's frame of the dice (`seen`: the frame a
        demo's table read it in), only once the game took it."""
        # A roll is the event with a `frame` (every game's roll keeps one field of that name).
        read = seen is not None or getattr(event, "source", "") == "camera" or self.pending is not None
        frame = self.keep_frame(seen) if hasattr(event, "frame") and read else ""
        if frame:
            event = replace(event, frame=frame)  # type: ignore[type-var]
        taken = len(self.worded)
        try:
            self.submit(event)
        except (IllegalMove, OSError) as exc:
            self.frames.discard(frame)
            self.say(str(exc), error=True)
            return False
        self.message, self.error = "", False
        self.pending = None
        self._after_change()
        if not self.message and self.has_class("-short"):
            # 80×24 gives the game log's lines to the board, whose lowest lines (where a round's first
            # markers go) may be out of view, and the log, where it has lines left, only two or three: the
            # move taken is said where it is seen.
            self.say("; ".join(line for lines in self.worded[taken:] for line in lines))
        return True

    def rolled_by_camera(self, counts: tuple[int, ...], note: str) -> E | None:
        """The roll event of a camera reading's counts for the player to roll now (None: nobody rolls now);
        a game whose rolls the camera reads gives it."""
        raise NotImplementedError

    def roll_text(self, event: E) -> str:
        """The faces a roll event showed, in the players' words (`6 city, 1 knight`)."""
        raise NotImplementedError

    def put_to_game(self, reading: DiceReading, lying: str = "") -> None:
        """The dice the camera settled on, read for the game (`read_table`). Another game's dice are never
        counted (an Alhambra die's face passed for a city, and ctrl+k entered it): what the camera read is
        said with why the rolls are typed."""
        self._put = reading
        if self.untaught:
            self.say(f"camera read {describe_reading(reading)}: {self.untaught}", error=True)
            return
        self.read_table(reading, lying)

    def read_table(self, reading: DiceReading, lying: str) -> None:
        """The camera settled on the dice: the game's roll of them when it waits for one (`offer_roll`).
        `lying` says why nobody saw them thrown ('' when they were: `match.offered_only`)."""
        raise NotImplementedError

    def table_at_turn_start(self) -> None:
        """A turn starts with dice lying on the table. The last throw's are named as such, to be thrown anew;
        dice the game never had (lying there when it opened) are asked about, never entered unasked: they
        may be an earlier throw's. Another game's dice (`untaught`) are no throw of this game's."""
        waits = self.session.expectation().ask == "roll"
        if self.untaught or self.table is None or self.pending is not None or not waits:
            return
        if self.table is self._put:
            self.message, self.error = "camera: the dice lying there are the last throw's: throw anew", False
            self.show_message()
            return
        self._put = self.table
        self.read_table(self.table, LYING_BEFORE_ASKED)

    def offer_roll(self, proposal: FaceProposal, lying: str = "") -> None:
        """The camera's reading of the roll the game waits for: read surely, it goes in; else the players
        are asked (ctrl+k accepts the roll it names where every die was made out, or they type the roll)."""
        if lying:
            proposal = offered_only(proposal, lying)
        typed = self.query_one("#entry", Input).value.strip()
        if typed and proposal.sure:
            # The players are typing (the roll, or what it is for): theirs goes in, unless they take the
            # camera's with ctrl+k, as in Roll & Write; entered, the camera's roll threw their typing away.
            proposal = offered_only(proposal, f"'{typed}' being typed")
        roll = self.rolled_by_camera(proposal.counts, "") if proposal.complete else None
        if roll is not None and proposal.sure:
            self.enter(roll)
            return
        self.pending = proposal
        # The roll ctrl+k enters is named: the faces read are the taught ones, which the game counts its way
        # (Carcassonne's city faces as one, less the dice built and kept).
        key = f"ctrl+k accepts {self.roll_text(roll)}, or type" if roll is not None else "type"
        self.say(f"camera read {proposal.read}: {proposal.problem}. {key} the roll", error=True)

    def action_no_camera_reading(self) -> None:
        """Without a camera there is no reading to accept: said as with one that has read none."""
        self.action_accept_camera()

    def action_accept_camera(self) -> None:
        pending = self.pending
        note = "" if pending is None else f"camera read {pending.read}; accepted: {pending.problem}"
        event = self.rolled_by_camera(pending.counts, note) if pending and pending.complete else None
        if event is None:
            # Both dice games' expectations count the dice a roll must show; none is asked for between rolls.
            exp = self.session.expectation()
            then = self.untaught or ("type the roll" if exp.dice else f"now: {exp.prompt}")
            self.say(f"no camera reading to accept: {then}", error=True)
            return
        self.enter(event)

    def _after_change(self) -> None:
        """The game changed: redraw it, show a scoring just held, and the end screen once the game is over."""
        self.refresh_view()
        held = self.scorings_held()
        if self.scorings_shown is not None and held > self.scorings_shown and not self.state.is_over:
            self.show_scoring(*self.scoring_held())
        self.scorings_shown = held
        self.table_at_turn_start()
        if self.state.is_over:
            self.refresh_bindings()  # the footer offers `e` now
            self.action_show_end()

    def action_show_end(self) -> None:
        """The end screen with the final scoring; `e` opens it again after `b` went back from it."""
        self.post_message(self.Finished(self.session, EndScreen(self.scored(), self.session.path), ""))

    def after_undo(self, over: bool) -> None:
        self.scorings_shown = min(self.scorings_shown or 0, self.scorings_held())
        if over:
            self.refresh_bindings()  # the footer offers `e` no more

    def action_scroll_middle(self, pages: int) -> None:
        """A page through what the middle hides: each of its panels that scrolls in turn (the middle as a
        whole, or the board, the pad or the city, then the Now panel); back up the other way round."""
        middle = self.query_one("#middle", VerticalScroll)
        panels = [panel for panel in (middle, *middle.query(Widget)) if panel.allow_vertical_scroll]
        for panel in panels if pages > 0 else reversed(panels):
            if (panel.max_scroll_y - panel.scroll_y if pages > 0 else panel.scroll_y) > 0:
                # A page is what shows of the panel: a whole one would skip the lines its docked part covers.
                covered = sum(child.outer_size.height for child in panel.children if child.styles.is_docked)
                page = max(1, panel.scrollable_content_region.height - covered)
                panel.scroll_to(y=panel.scroll_y + pages * page, animate=False)
                return

    def action_scroll_log(self, pages: int) -> None:
        log = self.query_one("#log", WrappedLog)
        if not log.display:  # at 80×24, where the board or pad needs its lines (`fit_log`)
            self.say("the game log shows on a taller terminal: here this line says each move", error=True)
            return
        log.page(pages)

    def action_back(self) -> None:
        """Esc: clear what is typed; with nothing typed, back to the start screen (the game is saved)."""
        entry = self.query_one("#entry", Input)
        if entry.value:
            entry.value = ""
            return
        self.post_message(self.Leave())
