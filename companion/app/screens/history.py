"""Past games: the finished games played here, whatever the game, the score of the highlighted one plotted
through the game, its replay move by move (for games the app can replay), and the camera's frames of its
rolls."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual_plotext import PlotextPlot

from companion.games.eventlog import LogError, load_log
from companion.games.table import PLAYED
from companion.history import FinishedGame, Progress, history

from ..widgets.fitted import FittedScreen
from ..widgets.footer import KeysFooter
from ..widgets.pick_list import PickList
from .evidence import EvidenceScreen, exhibits
from .replay import ReplayScreen

REST_SECONDS = 0.2
"""How long the highlight rests before the game it rests on is shown (plotted, and its line under the plot):
longer than a held key's repeat."""


def _replays(game: FinishedGame) -> bool:
    """Whether the game is replayed move by move: a game with a log and its words (not the pad)."""
    entry = PLAYED.get(game.game)
    return entry is not None and entry.rules is not None and bool(entry.words)


def game_label(game: FinishedGame) -> str:
    # The imaginary players too, marked as the saved games are: a solo game against them read "Ann 71 · won
    # by Marc" with Marc's total nowhere.
    players = ", ".join(f"{r.name}{' ◇' if r.imaginary else ''} {r.total}" for r in game.results)
    # The game as its players name it, not its files' id ("alhambra-dice").
    return f"{game.played:%Y-%m-%d %H:%M} · {game.title} · {players} · {game.won}"


class HistoryScreen(FittedScreen[None]):
    """The finished games in `games_dir`, most recent first."""

    CSS_PATH = "history.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "replay", "replay move by move"),
        Binding("o", "frames", "the camera's frames"),
        Binding("escape", "app.pop_screen", "back"),
    ]

    def __init__(self, games_dir: Path) -> None:
        super().__init__()
        self.games = history(games_dir).games
        self.plotted = Progress((), [], "round")
        """The players and their totals through the game, as the plot shows them."""
        self.moving: Timer | None = None
        """Running while the highlight moves (until it rests `REST_SECONDS`); None: it rests."""
        self.unplotted: FinishedGame | None = None
        """The game highlighted while the highlight moved, plotted once it rests (None: the plot shows it)."""

    def compose(self) -> ComposeResult:
        yield Static("Past games", id="title")
        with Horizontal(id="body"):
            # A game's players and winners are named as typed, no markup (`[b]Ann` bold, `Ann[/]` a crash).
            options = (Option(game_label(g), id=str(n)) for n, g in enumerate(self.games))
            yield PickList(*options, id="games", markup=False)
            with Vertical(id="detail"):
                yield ScorePlot(id="plot")
                yield Static(id="result", markup=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        if not self.games:
            # No empty plot frame beside an empty list: what is missing, and when it comes.
            self.query_one(ScorePlot).display = False
            self.query_one("#result", Static).update(
                "No finished games yet: a game is listed here once it is over (a game still being played"
                " goes on from the start screen)."
            )
            return
        games = self.query_one("#games", OptionList)
        games.highlighted = 0
        games.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The footer offers `r` for a game it replays: on a pad it did nothing but say so.
        if action == "replay":
            lists = self.query("#games").results(OptionList)
            highlighted = next(lists, None)
            at = None if highlighted is None else highlighted.highlighted
            return at is not None and bool(self.games) and _replays(self.games[at])
        return True

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.refresh_bindings()
        # A plot replays its game's log (up to a tenth of a second), and its line under it, one line or two,
        # resizes the plot, drawn again: one of each per key held down through 300 games made the list
        # stutter. A highlight moved from rest is shown at once; while it keeps moving, the game it rests on.
        game = self.games[int(event.option_id or 0)]
        if self.moving is None:
            self.plot(game)
        else:
            self.moving.stop()
            self.unplotted = game
        self.moving = self.set_timer(REST_SECONDS, self.rested)

    def rested(self) -> None:
        self.moving = None
        if self.unplotted is not None:
            self.plot(self.unplotted)
            self.unplotted = None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_replay()

    def plot(self, game: FinishedGame) -> None:
        self.plotted = game.progress()
        self.query_one(ScorePlot).show(self.plotted)
        replay = "" if _replays(game) else " (kept as a scoring pad: no move-by-move replay)"
        self.query_one("#result", Static).update(f"{game.path.name}: {game.won}{replay}")

    def action_replay(self) -> None:
        highlighted = self.query_one("#games", OptionList).highlighted
        if highlighted is None or not self.games:
            return
        game = self.games[highlighted]
        entry = PLAYED.get(game.game)
        if entry is None or entry.rules is None or not _replays(game):
            self.notify("this game is kept as a scoring pad: no move-by-move replay", severity="warning")
            return
        try:
            events = load_log(game.path, entry.rules.log).events
        except LogError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.app.push_screen(ReplayScreen(entry, events, game.path))

    def action_frames(self) -> None:
        """The camera's evidence of the highlighted game: each roll it read, with its frame."""
        highlighted = self.query_one("#games", OptionList).highlighted
        if highlighted is None or not self.games:
            return
        game = self.games[highlighted]
        entry = PLAYED.get(game.game)
        if entry is None or entry.rules is None:
            self.notify("this game is kept as a scoring pad: the camera read none of it", severity="warning")
            return
        rules = entry.rules
        try:
            events = load_log(game.path, rules.log).events
        except LogError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.app.push_screen(EvidenceScreen(game.path, exhibits(events, rules.log.encode)))


class ScorePlot(PlotextPlot):
    """Each player's score through a game, drawn for the width the plot has: the legend's names are cut to
    fit it (plotext leaves out a legend wider than its canvas)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.progress = Progress((), [], "round")

    def show(self, progress: Progress) -> None:
        self.progress = progress
        self.refresh()

    def render(self) -> RenderResult:
        self._draw(self.size.width)
        drawn = super().render()
        if isinstance(drawn, Text):
            return Text("").join(drawn.split(WIDE_FILLER, allow_blank=True))
        return drawn

    def _draw(self, width: int) -> None:
        progress, plt = self.progress, self.plt
        plt.clear_data()
        plt.title(f"each player's score, {progress.step} by {progress.step}")
        # The first step is the start (everyone at 0): the axis counts the steps played.
        plt.xlabel(f"{progress.step} (0 = the start)")
        points = [total for totals in progress.totals for total in totals]
        if not points:  # no player's total to draw (a game whose rules refuse it counts none)
            return
        # Rounds and points are whole numbers: plotext's own ticks divide the range (5.5, 79.7).
        steps: list[float] = [*step_ticks(len(progress.totals) - 1)]  # plotext's type; ints stay ints
        low = min(0, *points)
        scores: list[float] = [*integer_ticks(low, max(points))]
        # At least a column: before it is laid out the plot is 0 wide.
        room = max(1, width - max(len(str(int(score))) for score in scores) - LEGEND_MARGIN)
        for i, name in enumerate(legend_names(progress.names, room)):
            marker = MARKERS[i % len(MARKERS)]
            plt.plot(
                list(range(len(progress.totals))),
                [t[i] for t in progress.totals],
                label=plotext_cells(name),
                marker=marker,
            )
        plt.xticks(steps)
        plt.yticks(scores)
        # From 0 up, as the ticks are: plotext's axis spans the points alone and draws a tick below it among
        # the rounds' numbers.
        plt.ylim(low, max(points))


MARKERS = ("o", "x", "+", "#", "*", "@", "%")
"""Each player's line is drawn in its own character, shown in the legend: colour alone told them apart, which
a colour-blind player (red and green) or a NO_COLOR terminal (two greys alike) cannot. One each for the most
players a game has: the tile game's 6 and Dirk."""

LEGEND_MARGIN = 7
"""Columns of the plot that are neither the score's ticks nor a legend's name: the frame's two sides, and the
legend's marker (3) and a space each side of its name."""


def legend_names(names: Sequence[str], cells: int) -> tuple[str, ...]:
    """`names` each cut to `cells` columns at most (a wide character counts 2), still told apart: a name
    keeps its start and its end; names alike at both ends are numbered by seat."""
    cut = tuple(_cut(name, cells) for name in names)
    if len(set(cut)) == len(cut):
        return cut
    return tuple(_cut(f"{n}. {name}", cells) for n, name in enumerate(names, 1))


def _cut(name: str, cells: int) -> str:
    """`name`, or its start and end around "…" when it is wider than `cells` columns."""
    if cell_len(name) <= cells:
        return name
    head = set_cell_size(name, (cells - 1) // 2 + (cells - 1) % 2).rstrip()
    tail = set_cell_size(name[::-1], (cells - 1) // 2)[::-1].lstrip()
    return f"{head}…{tail}"


WIDE_FILLER = "\uffff"
"""Stands in plotext's canvas for a wide character's second column, taken out of the plot as drawn: plotext
gives each character of a legend one column, and 李小龍's row ran 3 columns past the frame, the points
right of it pushed onto the next row. A noncharacter: no name typed holds one."""


def plotext_cells(name: str) -> str:
    """`name` as plotext's canvas holds it, a character a column: a wide character followed by
    `WIDE_FILLER`, one of no width (an accent not composed, a joiner) left out, as it would take a column
    there and show none."""
    cells = []
    for char in unicodedata.normalize("NFC", name):
        width = cell_len(char)
        if width:
            cells.append(char + WIDE_FILLER * (width - 1))
    return "".join(cells)


def integer_ticks(low: int, high: int, most: int = 8) -> list[int]:
    """At most `most` whole-number ticks from `low` to `high`: the multiples of a round step (1, 2, 5, 10,
    20, 50, ...)."""
    steps = (factor * 10**power for power in range(12) for factor in (1, 2, 5))
    step = next(step for step in steps if (high - low) // step + 1 <= most)
    return list(range(-(-low // step) * step, high + 1, step))  # the multiples of the step from low up


def step_ticks(last: int) -> list[int]:
    """Whole-number ticks from 0 (the start) to `last`, the step the game ended at, always a tick; a round
    tick too near it to be read apart is left out."""
    ticks = integer_ticks(0, last)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1
    return [*(tick for tick in ticks if last - tick >= step / 2), last]
