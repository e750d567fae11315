"""The start screen: continue a saved game (a finished one listed apart, opened on its scoring; `delete`
deletes the one chosen, once confirmed), or set up a new one: the game, the players, the start player, and
for Roll & Write its variant and sheet. F5 starts the game chosen; F7–F10 start the others directly. Many
saved games not yet in the log index (a first run) are read on a worker thread, the list saying how far."""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import DescendantBlur, DescendantFocus, Key, Paste
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from companion.games import alhambra_rw as rw
from companion.games.entry import Form, NewGame, ScoreFileError, Summary, load
from companion.games.folding import IllegalMove
from companion.games.session import ResumeError, Session
from companion.games.table import NEW_GAMES, entry_of_new_game, entry_of_rules
from companion.saved_games import SavedGame, delete_game, game_files, saved_games, to_read
from jsonfile import printable

from ..widgets.fitted import FittedScreen
from ..widgets.footer import KeysFooter
from ..widgets.message_line import MessageLine
from ..widgets.pick_list import PickList
from .delete_game import DeleteGameScreen
from .help import HelpPage, Rows
from .left_game import LeftGame, NextGame, game_words
from .new_game_form import (
    MAX_PLAYERS,
    PASTED_AT_MOST,
    NameField,
    SheetChoice,
    fallback_said,
    imaginary_names,
    last_written,
    looks_like_a_roll,
    names_clash,
    pasted_names,
    shipped_sheet_choices,
    variant_options,
)
from .sheet_editor import SheetEditorScreen

if TYPE_CHECKING:  # the pad's screen names the form its set-up gives, from here
    from .alhambra_pad import AlhambraPadScreen

READ_AT_ONCE = 20
"""The most saved games not in the log index read as the screen opens (a fifth of a second or so: the game
just left, those played since); more are read on a worker thread while the form can be used."""
PROGRESS_SECONDS = 0.1
"""How often the list says how many saved games the worker has read."""

AnySession = Session[Any, Any, Any]
"""A game being played, of any of the games."""


def saved_game_label(game: SavedGame) -> str:
    if game.summary is None:
        # A file's name may hold what would drive the terminal drawn as it is. Enter says the whole reason.
        return printable(f"{game.path.name}: cannot continue: {_brief(_reason(game))}")
    return f"{_game_words(game)} · {game.played:%Y-%m-%d %H:%M}"


def _game_words(game: SavedGame) -> str:
    """A game that can be continued as its label names it, without its date: its game, players, how far."""
    assert game.summary is not None
    return f"{game_words(game.game, game.summary)} · {game.summary.where}"


def _reason(game: SavedGame) -> str:
    """Why a saved game cannot be continued, without the path its label names already."""
    return game.problem.removeprefix(f"{game.path}: ")


def _brief(reason: str) -> str:
    """A reason without its details in parentheses (which field, the names known): a list's line."""
    return reason.split(" (", 1)[0]


class _Stopped(Exception):
    """Raised on the worker's thread to stop reading the saved games: the worker was cancelled."""


def new_game(choice: str) -> NewGame:
    """The game the form's `choice` starts."""
    return next(game for game in NEW_GAMES if game.choice == choice)


def next_game(session: AnySession) -> NextGame:
    """The next game of the table that played `session`: `n` on its end screen gave an empty form with the
    saved games focused, and the group's Enter continued an old game."""
    entry = entry_of_rules(session.rules)
    assert entry.form is not None  # every game played with a log is set up on the form
    form = entry.form(session.setup)
    new = next(game for game in entry.new_games if game.variant in ("", form.variant))
    variant = (len(form.imaginary), form.variant) if new.sheet else None
    return NextGame(new.choice, form.players, variant)


def session_summary(session: AnySession) -> Summary:
    """A game being played as the saved games list it."""
    summary = entry_of_rules(session.rules).summary
    assert summary is not None  # every game played with a log lists its saved games
    return summary(session.state)


START_KEYS: Rows = (
    ("Enter", "in a name: start the game chosen (as F5); in the saved games: continue the one chosen"),
    ("→", "in a name: take the name offered as you type (a player of a game played here before)"),
    ("click", "in the saved games: pick one (del deletes it); a second click on it continues it, as Enter"),
)
"""The form's keys its fields answer (not bindings of the screen's), listed by F1 with the screen's own."""


class StartScreen(FittedScreen[None]):
    """Posts `StartScreen.GameOpened` with the session of a new or continued game, and `StartScreen.PadOpened`
    with the file of a game kept in one of its own (the pad), whose screen it opens over itself."""

    CSS_PATH = "start.tcss"
    HELP_PAGE = HelpPage("Start screen", typing=START_KEYS)
    BINDINGS: ClassVar[list[BindingType]] = [
        # The form's buttons name F5 and F2: the footer keeps its room for every game's key and quit.
        Binding("f5", "start_game", "start the game chosen", show=False),
        Binding("f2", "edit_sheet", "edit sheet", show=False),
        # Short labels, so that 80 columns show every one; F1 names each in full (the tooltip).
        Binding("f4", "history", "history", tooltip="past games, each one's plot and replay"),
        # The footer lists the games' keys by key.
        *(
            Binding(game.key, f"start_new({game.choice!r})", game.short, tooltip=game.name)
            for game in sorted(NEW_GAMES, key=lambda game: int(game.key[1:] or 0))
            if game.key
        ),
        Binding("delete", "delete_game", "delete the saved game chosen", show=False),
    ]

    class GameOpened(Message):
        def __init__(self, session: AnySession) -> None:
            super().__init__()
            self.session = session

    class PadOpened(Message):
        def __init__(self, path: Path) -> None:
            super().__init__()
            self.path = path

    class Reading(Message):
        """From the worker reading the saved games: how many of those to read it has read."""

        def __init__(self, done: int, of: int) -> None:
            super().__init__()
            self.done = done
            self.of = of

    class SavedRead(Message):
        """From the worker reading the saved games: all of them, as `saved_games` lists them."""

        def __init__(self, games: list[SavedGame]) -> None:
            super().__init__()
            self.games = games

    def __init__(
        self,
        games_dir: Path,
        sheets_dir: Path,
        now: Callable[[], datetime],
        after: AnySession | None = None,
        left: LeftGame | None = None,
    ) -> None:
        super().__init__()
        self.discarded = None if left is None or left.played else left
        """The game just left with nothing played: deleted as the screen opens, its set-up in the form."""
        self.left_said = ("", False)
        """What became of that game, and whether it is an error: said while the form holds it as it was."""
        discarded = None if self.discarded is None else self.discarded.form
        self.next_game = next_game(after) if after is not None else discarded
        """The form for the next game of the table that finished `after`, or of the game discarded (None: an
        empty form, the saved games focused: back from a game left by one Esc too many, Enter takes the
        players back to it)."""
        self.games_dir = games_dir
        self.sheets_dir = sheets_dir
        self.unreadable_sheets: dict[str, str] = {}
        """Sheet files of the players' that cannot be read, and why."""
        self.sheet_problem_said = False
        self.sheet_fallback = ""
        """Why the form took a sheet other than the players' newest (that one cannot be read): said with
        whatever the form says until the players choose another sheet."""
        self.sheet_taken: SheetChoice | None = None
        """The sheet the form took as it listed them (Select posts it as changed, as if the players chose)."""
        self.now = now
        self.saved: list[SavedGame] = []
        self.reading = False
        """Whether a worker is reading the saved games (the list says so until it has read them all)."""
        self.history_asked = False
        """F4 was pressed while the saved games were being read: the past games open once they are."""
        self.said = ("", False, True)
        """What the screen said last on the message line, whether it is an error, and whether it only remarks
        on the form (or is nothing): then, while the saved games have the focus, the line says what Enter
        does there instead."""
        self.start_field: int | None = None
        """The name field of the player chosen to start (None: none chosen, the first named starts): a name
        cleared or retyped in another field leaves the one chosen chosen."""
        self.variant_chosen: tuple[int, str] | None = None
        """The variant chosen, taken again whenever it is offered: a name retyped passes through counts of
        players that offer others, or none."""
        self.opened: AlhambraPadScreen | None = None
        """The game opened over this screen (the pad): leaving it gives a new start screen."""

    def compose(self) -> ComposeResult:
        # Every game starts here: each by its key (the button's, the footer's), none in the title.
        yield Static("Table companion", id="title")
        with Horizontal(id="columns"):
            with Vertical(id="continue"):
                yield Label("Continue a saved game (del deletes one)", classes="heading")
                # A saved game is labelled by its players' names, no markup: a player named `Ann[/]` crashed
                # the screen every game starts from.
                yield PickList(id="saved", markup=False)
            with Vertical(id="new"):
                yield Label("New game", classes="heading")
                with Horizontal(classes="row first"):
                    yield Label("game", classes="field")
                    games = [(game.name, game.choice) for game in NEW_GAMES]
                    yield Select(games, id="game", value=NEW_GAMES[0].choice, allow_blank=False, compact=True)
                yield Label("players, clockwise", id="players", classes="heading")
                for n in range(1, MAX_PLAYERS + 1):
                    yield NameField(placeholder=f"player {n}", id=f"name{n}", classes="name", compact=True)
                with Horizontal(classes="row in-turns"):
                    yield Label("start player", classes="field")
                    yield Select[int]([], id="start-player", prompt="start player", compact=True)
                with Horizontal(classes="row roll-and-write"):
                    yield Label("variant", classes="field")
                    yield Select[tuple[int, str]]([], id="variant", prompt="variant", compact=True)
                with Horizontal(classes="row roll-and-write"):
                    yield Label("sheet", classes="field")
                    # Never blank (picked, F5 and F2 crashed): the shipped sheets until the players' are read.
                    yield Select(shipped_sheet_choices(), id="sheet", allow_blank=False, compact=True)
                with Horizontal(classes="row"):
                    yield Button("Start (F5)", id="start-game", variant="primary")
                    yield Button("Edit sheet (F2)", id="edit-sheet", classes="roll-and-write")
        yield MessageLine(id="message")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.load_sheet_choices()
        if self.next_game is not None:
            self.fill(self.next_game)
        self.game_changed()
        if self.discarded is not None:
            self.discard(self.discarded)
        self.list_saved()
        if self.next_game is None and (self.saved or self.reading):
            self.query_one("#saved").focus()
        else:
            # The next game's form: Enter in a name starts it (a new player types in the empty one).
            self.first_empty_name().focus()

    def fill(self, game: NextGame) -> None:
        """The form as `game` has it (set here, so not posted as changed: `game_changed` offers its start
        players and variants)."""
        with self.prevent(Select.Changed, Input.Changed):
            self.query_one("#game", Select).value = game.choice
            for field, name in zip(self.query(".name").results(Input), game.players, strict=False):
                field.value = name
        self.variant_chosen = game.variant

    def discard(self, left: LeftGame) -> None:
        """Delete a game left with nothing played, saying so (one that cannot be deleted stays listed)."""
        said = f"{left.words}: nothing was played"
        try:
            delete_game(left.path)
        except OSError as exc:
            self.left_said = (f"{said}, but cannot delete {left.path.name}: {exc}", True)
        else:
            self.left_said = (f"{said}, not kept; the form holds its players", False)
        self.say_form()

    def list_saved(self) -> None:
        """The saved games as they are in the folder now, read here if few are not in the log index, else
        on a worker thread (a reading under way lists them when it ends)."""
        if self.reading:
            return
        count = to_read(self.games_dir)
        if count <= READ_AT_ONCE:
            self.show_saved(saved_games(self.games_dir))
            return
        self.reading = True
        self.show_reading(self.Reading(0, count))
        self.read_saved(count)

    @work(thread=True, exclusive=True, group="saved-games")
    def read_saved(self, count: int) -> None:
        """Read the saved games on Textual's worker thread (its pool is joined as the app's loop closes),
        saying how far it has come; it stops after the file it is reading once cancelled (Textual cancels a
        screen's workers as the screen goes, and every worker as the app quits)."""
        worker = get_current_worker()
        done = 0
        said = time.monotonic()

        def one_read() -> None:
            nonlocal done, said
            if worker.is_cancelled:
                raise _Stopped
            done += 1
            if time.monotonic() - said >= PROGRESS_SECONDS:
                said = time.monotonic()
                self.post_message(self.Reading(min(done, count), count))

        try:
            games = saved_games(self.games_dir, one_read)
        except _Stopped:
            return
        self.post_message(self.SavedRead(games))

    @on(Reading)
    def show_reading(self, reading: Reading) -> None:
        saved = self.query_one("#saved", OptionList)
        saved.clear_options()
        saved.add_option(Option(f"reading saved games: {reading.done:,} of {reading.of:,}…", disabled=True))

    @on(SavedRead)
    def saved_read(self, message: SavedRead) -> None:
        self.reading = False
        self.show_saved(message.games)
        if self.history_asked and self.is_current:  # not once another screen took the players elsewhere
            self.say_form()
            self.action_history()
        self.history_asked = False

    def show_saved(self, games: list[SavedGame]) -> None:
        """List `games`: those still being played, then the finished ones under a heading of their own; the
        game highlighted stays so while it is listed."""
        saved = self.query_one("#saved", OptionList)
        was = self._game_at(saved.highlighted)
        self.saved = games
        saved.clear_options()
        playing = [n for n, game in enumerate(self.saved) if game.summary is None or not game.summary.over]
        finished = [n for n, game in enumerate(self.saved) if n not in playing]
        for n in playing:
            saved.add_option(Option(saved_game_label(self.saved[n]), id=str(n)))
        if finished:
            saved.add_option(Option("── Finished (opens the scoring) ──", disabled=True))
        for n in finished:
            saved.add_option(Option(saved_game_label(self.saved[n]), id=str(n)))
        if not self.saved:
            saved.add_option(Option("no saved games yet", disabled=True))
        # Else the first game that can be continued (Enter opens it), else the first listed: a damaged log too
        # can be highlighted, so that `delete` reaches it.
        listed = [i for i in range(saved.option_count) if not saved.get_option_at_index(i).disabled]
        openable = [i for i in listed if (game := self._game_at(i)) and game.summary is not None]
        kept = was.path if was else None
        again = [i for i in listed if (game := self._game_at(i)) and game.path == kept]
        saved.highlighted = next(iter(again or openable or listed), None)
        # Players' names from the games played here, the most recent first: typing a name's start offers
        # it whole (→ takes it), so the regulars at this table are picked, not retyped.
        known = list(dict.fromkeys(name for game in self.saved for name in game.players))
        for field in self.query(".name").results(Input):
            field.suggester = SuggestFromList(known, case_sensitive=False)
        self.show_said()

    def _game_at(self, index: int | None) -> SavedGame | None:
        """The game at `index` in the list as `self.saved` holds it (None: a heading, or no such place)."""
        saved = self.query_one("#saved", OptionList)
        if index is None or index >= saved.option_count:
            return None
        option = saved.get_option_at_index(index)
        return self.saved[int(option.id)] if option.id is not None else None

    def on_screen_resume(self) -> None:
        """Back from a screen opened over this one (the sheet editor, F4's past games): the games on disk may
        have changed. Back from a game opened over it (the Alhambra pad), a new start screen takes its place,
        as the app gives one after every other game: the names left typed made F7 a new pad, not the one just
        left (a pad left with nothing typed is not kept, and the new form holds its players)."""
        if self.opened is not None:
            left = self.opened.leave()
            self.app.switch_screen(StartScreen(self.games_dir, self.sheets_dir, self.now, left=left))
            return
        self.list_saved()

    def open_game(self, screen: AlhambraPadScreen) -> None:
        """Open the screen of a game kept in a file of its own (the pad) over this one."""
        self.opened = screen
        self.app.push_screen(screen)
        self.post_message(self.PadOpened(screen.path))

    # --------------------------------------------------------------------------------- the form
    def named_fields(self) -> dict[int, str]:
        """The names typed by their fields' numbers (player 1 is 1), in seating order, each in one form (NFC):
        é typed as one character and as e with its accent were two players the table could not tell apart."""
        fields = enumerate(self.query(".name").results(Input), 1)
        typed = ((n, unicodedata.normalize("NFC", field.value.strip())) for n, field in fields)
        return {n: name for n, name in typed if name}

    def names(self) -> list[str]:
        return list(self.named_fields().values())

    def chosen_game(self) -> NewGame:
        return new_game(str(self.query_one("#game", Select).value))

    def in_turns(self) -> bool:
        """Whether the game chosen is set up with its players in turn order (the pad has no turns)."""
        return entry_of_new_game(self.chosen_game()).setup is not None

    @on(Select.Changed, "#game")
    def game_changed(self) -> None:
        """Only the chosen game's fields are shown: the variant, the sheet and its editor are Roll & Write's,
        and the pad has no turns."""
        sheet = self.chosen_game().sheet
        for widget in self.query(".roll-and-write"):
            widget.display = sheet
        for widget in self.query(".in-turns"):
            widget.display = self.in_turns()
        self.names_changed()

    @on(Input.Changed, ".name")
    def names_changed(self) -> None:
        """The start players and variants offered for the names typed, the ones chosen shown where offered
        (set here, so not posted as chosen)."""
        fields = self.named_fields()
        start = self.query_one("#start-player", Select)
        variant = self.query_one("#variant", Select)
        offered, _ = variant_options(list(fields.values()))
        options = [value for _, value in offered]
        with self.prevent(Select.Changed):
            # A name as typed, no markup: `Ann[/]` crashed the app at its `]`, `[b]Bo` showed a bold "Bo".
            start.set_options([(Text(name), n) for n, name in fields.items()])
            if fields:
                start.value = self.start_field if self.start_field in fields else next(iter(fields))
            variant.set_options(offered)
            if options:
                variant.value = self.variant_chosen if self.variant_chosen in options else options[0]
        self.say_form()

    @on(Select.Changed, "#start-player")
    def start_player_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self.start_field = event.value
            self.say_form()

    @on(Select.Changed, "#variant")
    def variant_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, tuple):
            self.variant_chosen = event.value
            self.say_form()

    def say_form(self) -> None:
        """What the form's choices come to: who starts when the start player chosen has no name now, and for
        Roll & Write the imaginary players, or why no variant is offered (an error once a name is typed);
        first, while the form holds the game discarded as it was left, what became of that game."""
        fields = self.named_fields()
        names = list(fields.values())
        left = None if self.discarded is None else self.discarded.form
        # The form's own choices are posted as changed once the screen is open: the line is said again then.
        holds = left is not None and (self.chosen_game().choice, tuple(names)) == (left.choice, left.players)
        note, error = self.left_said if holds else ("", False)
        said = [note] if note else []
        if self.in_turns() and fields and self.start_field not in (None, *fields):
            said.append(f"player {self.start_field}, chosen to start, has no name: {names[0]} starts")
        variant = self.query_one("#variant", Select).value
        if self.chosen_game().sheet:
            if not isinstance(variant, tuple):
                said.append(variant_options(names)[1])
                error = bool(names)
            elif variant[0]:
                said.append(f"imaginary players: {', '.join(imaginary_names(names, variant[0]))}")
            if self.sheet_fallback:
                # Not a remark: the saved games' focus does not hide it either.
                self.say("; ".join([self.sheet_fallback, *said]), error=True)
                return
        self.say("; ".join(said), error, remark=True)

    def load_sheet_choices(self, select: SheetChoice | None = None) -> None:
        """The players' sheets, the newest first, then the shipped ones; a sheet of theirs that cannot be
        read (a file edited by hand, cut short) is listed last and never chosen for them."""
        user = rw.sheets_in(self.sheets_dir)
        newest = sorted(user.values(), key=last_written, reverse=True)
        options: list[tuple[str, SheetChoice]] = []
        self.unreadable_sheets = {}
        for path in newest:
            try:
                rw.load_sheet(path)
            except rw.SheetError as exc:
                self.unreadable_sheets[str(path)] = str(exc)
            else:
                # A file's name may hold what would drive the terminal drawn as it is.
                options.append((printable(f"{path.stem} (yours)"), ("user", str(path))))
        options += shipped_sheet_choices()
        chosen = select or options[0][1]
        self.sheet_fallback = "" if select else fallback_said(newest, self.unreadable_sheets, options[0][0])
        self.sheet_problem_said = False
        options += [
            (printable(f"{Path(p).stem} (yours, cannot be read)"), ("user", p))
            for p in self.unreadable_sheets
        ]
        self.sheet_taken = chosen
        sheet = self.query_one("#sheet", Select)
        sheet.set_options(options)
        sheet.value = chosen

    @on(Select.Changed, "#sheet")
    def sheet_changed(self) -> None:
        """A sheet that cannot be read says why when it is chosen (F2 starts the editor from the example)."""
        choice = self.query_one("#sheet", Select).value
        fallback_said = bool(self.sheet_fallback) and choice != self.sheet_taken
        if fallback_said:  # the players chose: what the form took for them is said no more
            self.sheet_fallback = ""
        problem = self.unreadable_sheets.get(choice[1], "") if isinstance(choice, tuple) else ""
        if problem:
            self.say(printable(problem), error=True)
        elif self.sheet_problem_said or fallback_said:
            self.say_form()
        self.sheet_problem_said = bool(problem)

    def selected_sheet(self) -> rw.Sheet:
        kind, where = self.query_one("#sheet", Select).value  # type: ignore[misc]
        return rw.load_shipped_sheet(where) if kind == "shipped" else rw.load_sheet(where)

    def say(self, message: str, error: bool = False, remark: bool = False) -> None:
        """Say `message` (a `remark` on the form gives way to what Enter does in the saved games while they
        have the focus)."""
        self.said = (message, error, remark or not message)
        self.show_said()

    @on(OptionList.OptionHighlighted, "#saved")
    @on(DescendantFocus)
    @on(DescendantBlur)
    def show_said(self) -> None:
        """What was said, or what Enter does in the saved games while they have the focus and nothing but a
        remark on the form was said: back from a game left by one Esc too many, Enter takes the player back
        to it (as the focus or the game highlighted changes, so does the line)."""
        message, error, remark = self.said
        enter = self.enter_does()
        if enter and remark:
            message, error = enter, False
        self.query_one("#message", MessageLine).say(message, error)

    def enter_does(self) -> str:
        """What Enter does in the saved games while they have the focus ("": nothing, or they have not)."""
        game = self.chosen()
        if game is None or game.summary is None:  # a damaged log's label says it cannot be continued
            return ""
        does = "opens the scoring of" if game.summary.over else "continues"
        return f"Enter {does} {_game_words(game)}"

    def in_turn_order(self) -> tuple[str, ...]:
        """The names typed, clockwise from the start player chosen."""
        fields = self.named_fields()
        start = self.query_one("#start-player", Select).value
        first = list(fields).index(start) if start in fields else 0
        names = list(fields.values())
        return tuple(names[first:] + names[:first])

    def names_accepted(self) -> bool:
        """Whether the names typed can be a new game's players; why not is said."""
        names = self.names()
        roll = next((name for name in names if looks_like_a_roll(name)), "")
        why = names_clash(names)
        if roll:
            # Where the game left by one Esc too many waits, if there is one (with none, the advice misled).
            waits = any(game.summary is not None and not game.summary.over for game in self.saved)
            back = ": Enter in the saved games continues one" if waits else ""
            why = printable(
                f"'{roll}' looks like a roll, not a player's name (a name has a word of two letters or more)"
                + back
            )
        if why:
            self.say(why, error=True)
        return not why

    # ---------------------------------------------------------------------------------- actions
    @on(Input.Submitted, ".name")
    @on(Button.Pressed, "#start-game")
    def action_start_game(self) -> None:
        """F5, Enter in a name, the button: the game chosen."""
        self.start_new_game(self.chosen_game())

    def action_start_new(self, choice: str) -> None:
        """F7–F10: the game of the form's `choice`, whichever is chosen."""
        self.start_new_game(new_game(choice))

    def start_new_game(self, new: NewGame) -> None:
        """A new game of `new` for the names typed, the start player first."""
        entry = entry_of_new_game(new)
        if not self.names_accepted():
            return
        if entry.rules is None or entry.setup is None:  # a game kept in a file of its own: the pad
            self.open_new_pad()
            return
        form = self.form_for(new)
        if form is None:
            return
        try:
            session: AnySession = Session.create(entry.rules, self.games_dir, entry.setup(form), self.now())
        except (IllegalMove, rw.SheetError, OSError) as exc:  # the sheet chosen is read as the game sets up
            self.say(f"{entry.refused}{exc}", error=True)
            return
        self.post_message(self.GameOpened(session))

    def form_for(self, new: NewGame) -> Form | None:
        """The form as the game `new` is set up from it (None: a game on a sheet without its variant chosen,
        said why)."""
        players = self.in_turn_order()
        if not new.sheet:
            return Form(players, new.variant)
        names = self.names()
        variant = self.query_one("#variant", Select).value
        if not isinstance(variant, tuple):
            options, reason = variant_options(names)
            self.say(reason if not options else "choose the variant", error=True)
            return None
        count, name = variant
        return Form(players, name, imaginary_names(names, count), self.selected_sheet)

    def on_key(self, event: Key) -> None:
        """A name begun while the saved games have the focus goes into the form's first empty name: with a
        game saved, the focus starts there, and a name typed went nowhere (two Tabs reach player 1). A name
        begins with a letter: a digit is a roll typed by a player who left a game by one Esc too many, and
        Enter in the list takes them back to it."""
        character = event.character or ""
        focused = self.focused
        if focused is not None and focused.id == "saved" and character.isalpha():
            field = self.first_empty_name()
            # Focused now, not later (`focus` waits a turn): the keys typed next go to it.
            self.set_focus(field)
        elif isinstance(focused, Input) and focused.has_class("name") and event.is_printable:
            # A key of the same burst, queued for the list before the field took the focus (a space too).
            field = focused
        else:
            return
        # Handed to the field as a key of its own, after its focus (which selects what it holds).
        field.post_message(Key(event.key, event.character))
        event.stop()

    def on_paste(self, event: Paste) -> None:
        """A paste while the saved games have the focus goes to the form's first empty name, as a name typed
        there does (it went nowhere); a list of names pasted in a name (`NameField` leaves it here) fills that
        name and the empty ones after it."""
        focused = self.focused
        if isinstance(focused, NameField) or (focused is not None and focused.id == "saved"):
            if len(event.text) > PASTED_AT_MOST:
                self.say(f"pasted {len(event.text):,} characters: too many for players' names", error=True)
            elif isinstance(focused, NameField):
                self.share_names(focused, pasted_names(event.text))
            elif not (empty := self.empty_names()):
                # The last name's focus would select it, and the paste would replace it.
                self.say_not_placed(pasted_names(event.text))
            else:
                self.set_focus(empty[0])
                # Handed to the name after its focus, as a key is: a list of names comes back here from it.
                empty[0].post_message(Paste(event.text))
        else:
            return
        event.stop()

    def empty_names(self, after: Input | None = None) -> list[Input]:
        """The form's names not typed yet (those after the name `after`)."""
        fields = list(self.query(".name").results(Input))
        later = fields[fields.index(after) + 1 :] if after is not None else fields
        return [field for field in later if not field.value.strip()]

    def first_empty_name(self) -> Input:
        """The form's first name not typed yet (every one typed: the last)."""
        return next(iter(self.empty_names()), self.query(".name").last(Input))

    def share_names(self, field: Input, names: list[str]) -> None:
        """Names pasted in `field`, in seating order: the first where a paste of it alone goes, the others one
        a name into the empty names after it (a name typed there stays); those left over are said."""
        if not names:  # a paste of nothing but what parts names
            return
        empty = self.empty_names(after=field)
        first, *others = names
        with self.prevent(Input.Changed):
            field.replace(first, *field.selection)
            for later, name in zip(empty, others, strict=False):
                later.value = name
        self.names_changed()
        self.say_not_placed(others[len(empty) :])

    def say_not_placed(self, names: list[str]) -> None:
        if names:
            self.say(printable(f"pasted, with no empty name left for them: {', '.join(names)}"), error=True)

    @on(OptionList.OptionSelected, "#saved")
    def continue_game(self, event: OptionList.OptionSelected) -> None:
        game = self.saved[int(event.option.id or 0)]
        if game.summary is None:
            self.say(printable(f"{game.path.name} cannot be continued: {_reason(game)}"), error=True)
            return
        try:
            if game.game.rules is None:  # a game kept in a file of its own opens its screen on that file
                self.open_game(load(game.game.opens)(game.path))
                return
            session: AnySession = Session.resume(game.game.rules, game.path)
        except (ResumeError, ScoreFileError, OSError) as exc:
            self.say(str(exc), error=True)
            return
        self.post_message(self.GameOpened(session))

    def chosen(self) -> SavedGame | None:
        """The saved game highlighted in the list while the list has the focus (None: none)."""
        saved = self.query_one("#saved", OptionList)
        return self._game_at(saved.highlighted) if self.focused is saved else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # `delete` deletes a game only while one is chosen in the list (in a name it deletes a character).
        return action != "delete_game" or self.chosen() is not None

    def action_delete_game(self) -> None:
        """Ask, naming the game and its files, then delete it and list the saved games again."""
        game = self.chosen()
        if game is None:
            return
        label = saved_game_label(game)

        def answered(delete: bool | None) -> None:
            if not delete:
                self.say("")
                return
            try:
                delete_game(game.path)
            except OSError as exc:
                self.say(f"cannot delete {game.path.name}: {exc}", error=True)
            else:
                self.say(f"deleted: {label}")
            self.list_saved()
            self.query_one("#saved", OptionList).focus()

        self.app.push_screen(DeleteGameScreen(label, game_files(game.path)), answered)

    def open_new_pad(self) -> None:
        """The original Alhambra's scoring pad: a new one for the names typed, the last one again for none
        (one name is a pad refused, never another table's old pad opened)."""
        from companion.games.alhambra.pad import PadError, load_pad, new_pad, newest_pad

        from .alhambra_pad import AlhambraPadScreen

        names = self.names()
        what = "Alhambra scoring pad" if names else "cannot open the Alhambra scoring pad"
        try:
            path = new_pad(self.games_dir, names, self.now()) if names else newest_pad(self.games_dir)
            if path is None:
                self.say("type 2 to 6 players' names for a new Alhambra scoring pad", error=True)
                return
            screen = AlhambraPadScreen(path, load_pad(path))
        except (PadError, OSError) as exc:
            self.say(f"{what}: {exc}", error=True)
            return
        self.open_game(screen)

    def action_history(self) -> None:
        from .history import HistoryScreen  # Plotext loads only when past games are looked at

        if self.reading:
            # F4 read the same logs again, on the app's own thread: it stood still for 14 s with 600 logs. It
            # waits for the worker instead, and opens by itself (refused, it was pressed again and again).
            self.history_asked = True
            self.say("reading the saved games first: the past games open once the list is read", error=True)
            return
        self.app.push_screen(HistoryScreen(self.games_dir))

    @on(Button.Pressed, "#edit-sheet")
    def action_edit_sheet(self) -> None:
        try:
            sheet = self.selected_sheet()
        except rw.SheetError as exc:
            self.say(printable(f"{exc}; starting from the example"), error=True)
            sheet = rw.load_shipped_sheet("example")
        self.app.push_screen(SheetEditorScreen(sheet, self.sheets_dir), self.sheet_saved)

    def sheet_saved(self, path: Path | None) -> None:
        if path is not None:
            self.load_sheet_choices(("user", str(path)))
            self.say(f"saved sheet {path.stem!r}; it is offered here from now on")
