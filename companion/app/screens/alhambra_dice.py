"""The Alhambra dice game's screen: the board, the Now panel saying what the table must do, one line to type
dice and choices into, and the game log.

Every entry becomes an engine event through `enter` (typed, or `read_table` for what the camera settled
on); the engine accepts it or says why not, and only accepted events reach the log on disk. Dirk's moves,
which the rules fix, are applied as soon as the game comes to them.
"""

from __future__ import annotations

import random

from textual.app import ComposeResult
from textual.widgets import Input, Static

from companion.games import alhambra_dice as ad
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice.engine import ROUNDS
from companion.games.alhambra_dice.entry import ENTRY, AlhambraDiceSession
from companion.games.alhambra_dice.report import (
    game_text,
    reasons_text,
    scoring_text,
    scorings_columns,
    totals_line,
)
from companion.games.alhambra_dice.scoring import AFTER_ROUND, LETTERS
from companion.live.cameras import AlhambraDiceCamera
from companion.live.frames import FrameKeeper
from vision.reading import DiceReading

from ..alhambra_dice_input import InputError, entry_help, parse
from ..alhambra_dice_words import roll_text
from ..export import EndScoring
from ..widgets.alhambra_board import AlhambraBoard, player_lines, points_so_far
from ..widgets.footer import KeysFooter
from ..widgets.log_row import log_row
from ..widgets.message_line import MessageLine
from .event_game import EntryLine, EventGameScreen, NowPanel, Panel, UnfocusedScroll
from .help import ALHAMBRA_DICE

AUTO_LIMIT = 1000
"""A guard, not a rule: this many of Dirk's automatic moves in a row would mean a bug."""


class AlhambraDiceScreen(EventGameScreen[ad.Event, ad.GameState]):
    """Plays one Alhambra dice session; shows scorings A and B as they are held, and posts `Finished` with
    the end screen when scoring C is held."""

    CSS_PATH = "alhambra_dice.tcss"
    TITLE = ENTRY.title
    HELP_PAGE = ALHAMBRA_DICE

    def __init__(
        self,
        session: AlhambraDiceSession,
        rng: random.Random,
        camera: bool = False,
        frames: FrameKeeper | None = None,
        table: DiceReading | None = None,
    ) -> None:
        super().__init__(session, frames, table)
        self.session: AlhambraDiceSession = session
        self.rng = rng
        self.camera = camera

    def has_camera(self) -> bool:
        return self.camera

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)  # the Caliph's name is no markup
        with UnfocusedScroll(id="middle"):
            with Panel(id="board-box"):
                yield AlhambraBoard(id="board")
            yield NowPanel(id="side")
        yield MessageLine(id="message")
        yield EntryLine(self.typed, "dice, or a choice (Enter)")
        yield from log_row(bool(self.camera))
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#board-box").border_title = "Board"
        self._rewrite_log()
        self.query_one("#entry", Input).focus()
        self._after_change()

    # ------------------------------------------------------------------------------------ the view
    def refresh_view(self) -> None:
        state, exp = self.state, self.session.expectation()
        stage = "game over" if state.is_over else f"Round {state.round} of {ROUNDS}"
        caliph = state.names[state.caliph]
        self.query_one("#status", Static).update(f"{self.TITLE} · {stage} · Caliph: {caliph}")
        self.query_one("#board", AlhambraBoard).show(state)
        self.query_one(NowPanel).show(self._now_text(state, exp), self.entry_help(exp))
        self.show_message()

    def _now_text(self, state: ad.GameState, exp: ad.Expectation) -> str:
        if state.is_over:
            return f"The game is over after scoring C.\n\n{self.totals()}"
        lines = [exp.prompt, ""]
        if state.dice is not None and exp.ask is ad.Ask.CHOOSE:
            shown = ", ".join(f"{n} {t}" for t, n in zip(TYPES, state.dice, strict=True) if n)
            lines.append(f"dice: {shown}" + (f" + black {state.black}" if state.black else ""))
        lines += self._player_lines(state, exp)
        return "\n".join(lines)

    def entry_help(self, exp: ad.Expectation) -> str:
        """What may be typed now, at the Now panel's foot (the Alcazaba screen types its own tiles)."""
        return entry_help(exp)

    def _player_lines(self, state: ad.GameState, exp: ad.Expectation) -> list[str]:
        """The points so far (who is ahead, as the table's view says it: first, in view at 80×24 with six
        players), the active player's bonus tiles (none in Alcazaba), then each player's markers and tiles."""
        lines = [points_so_far(state)]
        if state.alcazaba is None and exp.player is not None and exp.player in state.names:
            held = state.held[state.names.index(exp.player)]
            tiles = ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in held.items() if n)
            lines.append(f"{exp.player}'s tiles: {tiles or 'none'}")
        return [*lines, *player_lines(state)]

    def totals(self) -> str:
        """The last line of the full breakdown (the end screen shows it all): totals and winners."""
        return totals_line(ad.score_state(self.state))

    def roll_text(self, event: ad.Event) -> str:
        return roll_text(event) if isinstance(event, ad.Rolled) else ""

    def parse_entry(self, text: str) -> ad.Event:
        """The event a typed line means now (`InputError` for a line that is no entry)."""
        return parse(text, self.state, self.rng)

    # ------------------------------------------------------------------------------- the entries
    def typed(self, submitted: Input.Submitted) -> None:
        """An entry of the line, handed over as Enter is pressed (`EntryLine`)."""
        if self.asks_advice(submitted.value):
            return
        try:
            event = self.parse_entry(submitted.value)
        except InputError as exc:
            self.say(str(exc), error=True)  # what was typed stays in the line, to be fixed
            return
        if isinstance(event, ad.Rolled) and self.pending is not None:
            event = ad.Rolled(
                event.player, event.dice, source="keyboard", note=f"camera read {self.pending.read}"
            )
        if self.enter(event):
            submitted.input.value = ""

    def automatic_next(self) -> bool:
        return self.session.expectation().auto is not None

    def _after_change(self) -> None:
        for _ in range(AUTO_LIMIT):
            auto = self.session.expectation().auto
            if auto is None:
                break
            try:
                self.submit(auto)
            except OSError as exc:  # the log could not be written: the move is not taken
                self.say(str(exc), error=True)
                return
        super()._after_change()

    # ---------------------------------------------------------------------------------- the camera
    def read_table(self, reading: DiceReading, lying: str) -> None:
        """A roll when the game waits for one (sure: entered; else asked)."""
        exp = self.session.expectation()
        proposal = AlhambraDiceCamera.proposal(reading, exp, self.state)
        if proposal is None:
            self.say(f"camera: dice seen, but no roll expected now ({exp.prompt})", error=True)
            return
        self.offer_roll(proposal, lying)

    def rolled_by_camera(self, counts: tuple[int, ...], note: str) -> ad.Rolled | None:
        return AlhambraDiceCamera.event(counts, self.session.expectation(), "camera", note)

    def scored(self) -> EndScoring:
        """The scorings held so far with every reason."""
        board = ad.score_state(self.state)
        return EndScoring(
            ENTRY.id,
            self.TITLE,
            board.finished,
            tuple(zip(board.names, board.totals, strict=True)),
            board.winners,
            game_text(board),
            board.to_json(),
            frozenset(n for n, dirk in zip(board.names, board.dirk, strict=True) if dirk),
            columns=scorings_columns(board),
            reasons=reasons_text(board),
        )

    def scorings_held(self) -> int:
        return len(ad.score_state(self.state).scorings)

    def scoring_held(self) -> tuple[str, str]:
        board = ad.score_state(self.state)
        n = len(board.scorings) - 1
        return f"Scoring {LETTERS[n]} after round {AFTER_ROUND[n]}", scoring_text(board, n)
