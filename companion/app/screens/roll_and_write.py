"""The game screen: score sheet, round tracker, the active player's panel and grid, the game log.

All dice enter through `enter_dice`: typed keys, clicks, the app's virtual roll, the demo and the
camera. Every decision becomes an engine event; the engine says whether it is legal and why not.
"""

from __future__ import annotations

import random
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import Paste, Resize
from textual.geometry import Region
from textual.widgets import Static

from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.entry import RollAndWriteSession
from companion.live.cameras import RollAndWriteCamera
from companion.live.frames import FrameKeeper
from companion.live.match import (
    LOOKED_AWAY,
    LYING_BEFORE_ASKED,
    Proposal,
    kept_pair,
    offered_only,
)
from companion.saved_games import game_stem
from vision.reading import DiceReading

from ..export import EndScoring
from ..keys import game_keys
from ..roll_and_write_input import Colour, DiceSource, DiceSyntaxError, PipDie, parse_dice
from ..widgets.footer import KeysFooter
from ..widgets.grid_text import grid_text, grid_title
from ..widgets.log_row import log_row
from ..widgets.score_sheet import ScoreSheet
from ..widgets.turn_panel import TurnPanel, is_imaginary_roll, is_roll
from ..widgets.wrapped_log import LOG_KEYS, WrappedLog
from .help import ROLL_AND_WRITE
from .play import PlayScreen
from .roll_and_write_end import (
    RollAndWriteEndScreen,
    markdown_title,
    roll_and_write_scored,
    scoreboard_markdown,
)

AUTO_ROLL_LIMIT = 1000
"""A guard, not a rule: this many virtual rolls in a row (re-rolls included) would mean a bug."""


SET_UP_STEPS = {
    rw.Ask.SETUP_CROSS: "Set-up: the first buildings",
    rw.Ask.SETUP_IMAGINARY: "Set-up: the imaginary players' first buildings",
    rw.Ask.SETUP_DICE: "Set-up: dice onto the fields",
    rw.Ask.SETUP_EXTRA_PAIR: "Set-up: the start player's extra pair",
}
"""The top line names the set-up step being played, so that it agrees with the Now panel asking for rolls
during the set-up; the count of the buildings is the Now panel's alone ("set-up building 1 of 3"): the rules
page's "step 3 of 5" beside it, unchanged through the three buildings, read as a second count."""


class RollAndWriteScreen(PlayScreen):
    """Plays one Roll & Write session; posts `Finished` with the end screen when the final scoring should be
    shown."""

    CSS_PATH = "roll_and_write.tcss"
    HELP_PAGE = ROLL_AND_WRITE
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "colour('yellow')", "yellow die: y then 1-6", show=False),
        Binding("b", "colour('blue')", "blue die: b then 1-6", show=False),
        *(
            Binding(str(n), f"digit({n})", f"{n}: die value after y/b, else choice {n}", show=False)
            for n in range(1, 7)
        ),
        Binding("enter", "confirm", "confirm dice"),
        Binding("backspace", "erase", "erase the last typed die", show=False),
        Binding("plus", "pips(1)", "after y3: turn that die up a pip (1 coin)", show=False),
        Binding("minus", "pips(-1)", "after y3: turn that die down a pip (1 coin)", show=False),
        Binding("c", "take_coins", "take coins"),
        Binding("t", "two_buildings", "two buildings"),
        # Pressed where the rules do not allow them (the footer hides them then): the reason is said.
        Binding("c", "refused('take_coins')", show=False),
        Binding("t", "refused('two_buildings')", show=False),
        Binding("r", "roll", "roll for me"),
        # A small terminal (a phone's) shows the sheet and grid, the Now panel below them: paged to by keys.
        Binding("pageup", "page(-1)", "page up, back to the score sheet", show=False),
        Binding("pagedown", "page(1)", "page down, to the Now panel and the game log", show=False),
        *LOG_KEYS,
        Binding("k", "accept_camera", "accept the camera's dice", show=False),
        Binding("a", "toggle_auto", "imaginary players roll by themselves: off or on again", show=False),
        *game_keys(),
        # Roll & Write's first keys for undo and redo, kept: no entry line takes letters here.
        Binding("u", "undo", "undo (as ctrl+z)", show=False),
        Binding("U", "redo", "redo (as ctrl+y)", show=False),
        Binding("e", "show_end", "final scoring", show=False),
        Binding("h", "advice", "advice (as ctrl+a)", show=False),
        Binding("question_mark", "app.help", "help", show=False),
        Binding("q", "app.quit", "quit", show=False),
    ]

    def __init__(
        self,
        session: RollAndWriteSession,
        rng: random.Random,
        auto_imaginary: bool = True,
        camera: bool = False,
        table: DiceReading | None = None,
        frames: FrameKeeper | None = None,
        camera_note: str = "",
    ) -> None:
        super().__init__(session, frames, table)
        self.session: RollAndWriteSession = session
        self.camera = camera
        self.pending: Proposal | None = None
        """A camera reading that needs the players' word: `k` accepts it, typed dice fix it."""
        self.proposed_choice: rw.Event | None = None
        """A choice the camera suggests (the pair kept after rolling all 4 dice): `k` makes it."""
        self.rng = rng
        self.auto_imaginary = auto_imaginary
        self.colour: Colour | None = None
        self.entry: list[PipDie] = []
        self.entry_source: DiceSource = "keyboard"
        self.picked: PipDie | None = None
        self.camera_note = camera_note
        """What the camera reads the dice without (another game's taught dice), said on opening after what
        opening the log said, and above every message until the players' first move: the dice lying there,
        read at once, hid it within a second."""
        self.message = "\n".join(m for m in (session.warning, camera_note) if m)
        self.error = bool(self.message)
        self._auto_rolling = False

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)  # the players' names are no markup
        yield ScoreSheet(totals=True, id="sheet")
        with Horizontal(id="middle"):
            yield Static(id="grid")
            yield TurnPanel(id="turn")
        yield from log_row(bool(self.camera))
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#sheet").border_title = "Score sheet"
        self.query_one("#turn").border_title = "Now"
        self._rewrite_log()
        self.refresh_view()
        self._after_change()

    # ------------------------------------------------------------------------------------ the view
    @property
    def state(self) -> rw.GameState:
        return self.session.state

    def typed_text(self) -> str:
        parts = [die.label for die in self.entry]
        if self.picked is not None:
            parts.append(f"{self.picked.label} (+ or - to change pips)")
        if self.colour is not None:
            parts.append(f"{self.colour[0]}_")
        return " ".join(parts)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the moves the rules allow now are offered (and shown in the footer): dice keys while the game
        waits for dice, coins and the second building when the engine lists them."""
        exp = self.session.expectation()
        if action in ("confirm", "roll"):
            return is_roll(exp)
        if action == "take_coins":
            return exp.player is not None and rw.TakeCoins(exp.player) in rw.legal_actions(self.state)
        if action == "two_buildings":
            return exp.ask is rw.Ask.REROLL_USED_PAIR and bool(rw.legal_actions(self.state))
        return super().check_action(action, parameters)

    def frames_listed(self) -> bool:
        """The dice keys fill the footer's 80 columns while the game waits for dice."""
        return False

    def refresh_view(self) -> None:
        self.refresh_bindings()
        state, exp = self.state, self.session.expectation()
        self.query_one("#status", Static).update(self._status_text(state, exp))
        self.query_one("#sheet", ScoreSheet).show(state)
        self.query_one("#turn", TurnPanel).show(
            state, exp, self.typed_text(), self.message, self.error, self.auto_imaginary
        )
        owner = self._grid_owner(state)
        hits = [(c.yellow, c.blue) for c in rw.crossings(state)]
        grid = self.query_one("#grid", Static)
        grid.update(grid_text(state.sheet.grid, owner.crossed_cells(), hits))
        grid.border_title = grid_title(owner.name)

    @staticmethod
    def _status_text(state: rw.GameState, exp: rw.Expectation) -> str:
        stage = (
            SET_UP_STEPS.get(exp.ask, "Set-up")
            if state.round == 0
            else f"Round {state.round} of {state.rounds}"
        )
        if state.is_over:
            return f"{stage}: game over"
        who = exp.player or ""
        if exp.player and state.player(exp.player).imaginary:
            who += f" (imaginary; {exp.roller} rolls)"
        return f"{stage} · turn: {who} · start player: {state.players[0].name}"

    @staticmethod
    def _grid_owner(state: rw.GameState) -> rw.PlayerState:
        # Imaginary players have no grid: show the start player's, who rolls for them.
        active = state.active_player
        return state.players[0] if active.imaginary else active

    def say(self, message: str, error: bool = False) -> None:
        self.message, self.error = "\n".join(m for m in (self.camera_note, message) if m), error
        self.refresh_view()
        self._news_in_view()

    def on_resize(self, event: Resize) -> None:
        self._news_in_view()

    def _news_in_view(self) -> None:
        """Once laid out, scroll the screen to the Now panel's end if it says something or shows the dice
        typed: on a terminal shrunk below 80×24 (and at 80×24 with long names and a long reason) the panel's
        end lay below the fold, and a refusal said there made an entry seem to do nothing."""
        if self.message or self.typed_text():
            self.call_after_refresh(self._scroll_to_news)

    def _scroll_to_news(self) -> None:
        end = self.query_one("#turn").region.translate(self.scroll_offset)
        last_line = Region(end.x, end.bottom - 1, end.width, 1)
        self.scroll_to_region(
            last_line, spacing=self.query_one("#middle").dock_gutter, animate=False, immediate=True
        )

    # ----------------------------------------------------------------------------- the dice seam
    def enter_dice(self, dice: tuple[PipDie, ...], source: DiceSource, note: str = "") -> bool:
        """The one way dice values enter the game, whoever read them (keys, clicks, virtual roll, camera).

        The dice become a `Roll` for whoever the game expects to roll now; the engine checks their number
        and colours. Returns whether the game accepted them (if not, the screen shows the engine's reason).
        Dice typed while a camera reading waits for confirmation fix it: the log keeps what the camera read.
        """
        exp = self.session.expectation()
        if exp.player is None or not is_roll(exp):
            self.say(f"no dice expected now: {exp.prompt}", error=True)
            return False
        if self.pending is not None and source != "camera" and not note:
            note = f"camera read {self.pending.read}"
        # The frame of the settled moment stays with the roll, also when the players typed it over the camera;
        # a roll the game refuses keeps none.
        frame = self.keep_frame() if source == "camera" or self.pending is not None else ""
        roll = RollAndWriteCamera.event(dice, exp, source, note, frame)
        if roll is not None and self._submit(roll):
            return True
        self.frames.discard(frame)
        return False

    # ---------------------------------------------------------------------------------- the camera
    def put_to_game(self, reading: DiceReading, lying: str = "") -> None:
        """A settled reading: applied when it fits the expected roll and is sure, else proposed. Dice that
        were `lying` on the table before the game asked for them are only ever proposed: they may be an
        earlier throw's; so are the dice of a roll the players are typing: typed, theirs go in."""
        exp = self.session.expectation()
        if exp.ask is rw.Ask.KEEP_PAIR and exp.player is not None:
            player = self.state.player(exp.player)
            kept = kept_pair(reading, tuple(player.yellow), tuple(player.blue))
            if kept is not None:
                self._put = reading
                self.proposed_choice = rw.KeepPair(player.name, *kept)
                self.say(f"camera: y{kept[0]} b{kept[1]} taken off the table: k keeps that pair")
                return
        proposal = RollAndWriteCamera.proposal(reading, exp)
        if lying == LOOKED_AWAY and (proposal is None or not proposal.complete):
            # Settled behind another screen, and no roll the game waits for: an earlier throw's leftovers,
            # unsaid as `offer_table` leaves them (said in red as the players came back, read as a fault).
            return
        if proposal is None:
            self.say(f"camera: dice seen, but none expected now ({exp.prompt})", error=True)
            return
        self._put = reading
        typed = self.typed_text()
        if lying:
            proposal = offered_only(proposal, lying)
        elif proposal.sure and typed:
            # The players are typing this roll: theirs goes in, unless they take the camera's with k.
            proposal = offered_only(proposal, f"{typed} being typed")
        elif proposal.sure:
            self.enter_dice(proposal.dice, "camera")
            return
        self.pending = proposal
        offer = " ".join(d.label for d in proposal.dice)
        key = f"k accepts {offer}, or type" if proposal.complete else "type"
        self.say(f"camera read {proposal.read}: {proposal.problem}. {key} the dice", error=not lying)

    def offer_table(self) -> None:
        """When the game comes to wait for dice: the dice already lying on the table are offered, unless they
        were put to the game before or are not all the dice it waits for (an earlier throw's leftovers)."""
        reading = self.table
        if reading is None or reading is self._put or self.pending is not None or not self.in_view():
            return
        proposal = RollAndWriteCamera.proposal(reading, self.session.expectation())
        if proposal is not None and proposal.complete:
            self.put_to_game(reading, LYING_BEFORE_ASKED)

    def action_accept_camera(self) -> None:
        if self.proposed_choice is not None:
            self._submit(self.proposed_choice)
            return
        pending = self.pending
        if pending is None or not pending.complete:
            self.say("no camera reading to accept: type the dice", error=True)
            return
        self.enter_dice(pending.dice, "camera", f"camera read {pending.read}; accepted: {pending.problem}")

    def decide(self, event: rw.Event) -> bool:
        """A decision made outside the keys (the demo's players); the engine checks it like any other."""
        return self._submit(event)

    # ---------------------------------------------------------------------------- typed keys
    def action_colour(self, colour: Colour) -> None:
        self.colour = colour
        self.say("")

    def action_digit(self, number: int, source: DiceSource = "keyboard") -> None:
        if self.colour is None:
            self._choose(number)
            return
        die = PipDie(self.colour, number)
        self.colour = None
        exp = self.session.expectation()
        if exp.ask is rw.Ask.ACTION:
            self.picked = die
            self.say("")
        elif is_roll(exp):
            self.entry.append(die)
            self.entry_source = source
            self.say("")
        else:
            self.say(f"no dice expected now: {exp.prompt}", error=True)

    def on_paste(self, event: Paste) -> None:
        """Dice pasted (`y2 b4`: a terminal hands a paste over whole, never as keys) are taken as if typed,
        die by die; a trailing newline does not confirm them, as it does not in the dice games' entry line.
        Text that is no dice is refused with why."""
        try:
            dice = parse_dice(event.text)
        except DiceSyntaxError as exc:
            self.say(str(exc), error=True)
            return
        for die in dice:
            self.colour = die.colour
            self.action_digit(die.value)

    def action_die(self, colour: Colour, value: int) -> None:
        """A click on a die value in the panel: the same as typing it."""
        self.colour = colour
        self.action_digit(value, "mouse")

    def action_erase(self) -> None:
        if self.colour is not None:
            self.colour = None
        elif self.picked is not None:
            self.picked = None
        elif self.entry:
            self.entry.pop()
        self.say("")

    def action_back(self) -> None:
        """Esc: clear what is typed; with nothing typed, back to the start screen (the game is saved)."""
        if self.colour is None and self.picked is None and not self.entry:
            self.post_message(self.Leave())
            return
        self.colour, self.picked, self.entry = None, None, []
        self.say("")

    def scored(self) -> EndScoring:
        return roll_and_write_scored(rw.score_so_far(self.state), self.state.is_over)

    def scored_markdown(self, scored: EndScoring) -> str:
        """With every real player's grid."""
        board = rw.score_so_far(self.state)
        return scoreboard_markdown(board, markdown_title(game_stem(self.session.path)), self.state)

    def action_confirm(self) -> None:
        if not self.entry:
            exp = self.session.expectation()
            hint = "type the dice first (e.g. y3 b5)" if is_roll(exp) else exp.prompt
            self.say(hint, error=True)
            return
        self.enter_dice(tuple(self.entry), self.entry_source)

    def action_roll(self) -> None:
        """Virtual roll of the dice the game expects now (imaginary players, or a player without dice)."""
        exp = self.session.expectation()
        if not is_roll(exp):
            self.say(f"no dice to roll now: {exp.prompt}", error=True)
            return
        dice = tuple(PipDie("yellow", self.rng.randint(1, 6)) for _ in range(exp.yellow)) + tuple(
            PipDie("blue", self.rng.randint(1, 6)) for _ in range(exp.blue)
        )
        self.enter_dice(dice, "virtual")

    def action_toggle_auto(self) -> None:
        self.auto_imaginary = not self.auto_imaginary
        self.say(f"auto-roll for imaginary players: {'on' if self.auto_imaginary else 'off'}")
        self._after_change()

    # --------------------------------------------------------------------------------- decisions
    def _player(self) -> str:
        exp = self.session.expectation()
        return exp.player or ""

    def action_choose(self, number: int) -> None:
        """A crossing or pair clicked in the Now panel: as its number typed (the click did nothing)."""
        self._choose(number)

    def _choose(self, number: int) -> None:
        exp = self.session.expectation()
        if exp.ask is rw.Ask.ACTION:
            options: list[rw.Event] = [
                rw.CrossBuilding(exp.player or "", c.yellow, c.blue) for c in rw.crossings(self.state)
            ]
        elif exp.ask is rw.Ask.KEEP_PAIR:
            options = list(rw.legal_actions(self.state))
        else:
            self.say(f"nothing to choose now: {exp.prompt}", error=True)
            return
        if not 1 <= number <= len(options):
            self.say(f"there is no choice {number}", error=True)
            return
        self._submit(options[number - 1])

    def action_pips(self, delta: int) -> None:
        die = self.picked
        if die is None:
            self.say("type the die first, e.g. y3+ turns yellow 3 into 4", error=True)
            return
        event = rw.ChangePips(self._player(), die.colour, die.value, die.value + delta)
        if self._submit(event):
            self.picked = PipDie(die.colour, die.value + delta)
            self.refresh_view()

    def action_page(self, pages: int) -> None:
        if pages > 0:
            self.scroll_page_down(animate=False)
        else:
            self.scroll_page_up(animate=False)

    def action_scroll_log(self, pages: int) -> None:
        self.query_one("#log", WrappedLog).page(pages)

    def action_refused(self, action: str) -> None:
        """A move the footer does not offer now, pressed: tried all the same, for the engine's reason."""
        getattr(self, f"action_{action}")()

    def action_take_coins(self) -> None:
        self._submit(rw.TakeCoins(self._player()))

    def action_two_buildings(self) -> None:
        exp = self.session.expectation()
        player = self.state.player(exp.player) if exp.player else None
        if exp.ask is not rw.Ask.REROLL_USED_PAIR or player is None:
            self.say(f"two buildings comes after crossing a building: {exp.prompt}", error=True)
            return
        # The second building is the crossing of the two dice left after the first one.
        self._submit(rw.CrossBuilding(player.name, player.yellow[0], player.blue[0]))

    def _submit(self, event: rw.Event) -> bool:
        before = self.state
        try:
            after = self.session.submit(event)
        except (rw.IllegalMove, OSError) as exc:
            self.say(str(exc), error=True)
            return False
        self._logged(self.words(before, event, after))
        self.colour, self.picked, self.proposed_choice = None, None, None
        if isinstance(event, rw.Roll):
            self.entry, self.pending = [], None
        if not self._auto_rolling:  # the players' move, after reading it
            self.camera_note = ""
        self.say("")
        self._after_change()
        return True

    def _after_change(self) -> None:
        """After each accepted event: show the end, or make the imaginary players' rolls (auto-roll); then
        offer the dice lying on the table if the game has come to wait for dice."""
        if self.state.is_over:
            self._finished()
            return
        if self._auto_rolling:
            return
        if self.auto_imaginary:
            self._roll_for_imaginary_players()
        # With auto-roll off too: the throw the camera saw before the game asked is not lost.
        self.offer_table()

    def _roll_for_imaginary_players(self) -> None:
        """Roll for each imaginary player the game waits for, in turn; each roll's own `_after_change` leaves
        the rolling and the table's offer to this loop's caller."""
        self._auto_rolling = True
        try:
            for _ in range(AUTO_ROLL_LIMIT):
                if not is_imaginary_roll(self.state, self.session.expectation()):
                    break
                self.action_roll()
        finally:
            self._auto_rolling = False

    def _finished(self) -> None:
        self.post_message(
            PlayScreen.Finished(self.session, RollAndWriteEndScreen(self.state, self.session.path), "")
        )

    def action_show_end(self) -> None:
        if self.state.is_over:
            self._finished()
        else:
            self.say("the game is not over yet", error=True)

    # ------------------------------------------------------------------------------- undo, redo
    def automatic_next(self) -> bool:
        """Whether the app makes the next move itself: an imaginary player's roll, with auto-roll on."""
        return self.auto_imaginary and is_imaginary_roll(self.state, self.session.expectation())

    def after_undo(self, over: bool) -> None:
        if self.automatic_next():  # back at the start: its rolls are the app's to make again
            self._after_change()

    def forget_typing(self) -> None:
        super().forget_typing()
        self.colour, self.picked, self.entry = None, None, []
        self.proposed_choice = None
