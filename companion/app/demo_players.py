"""The demo's players: they throw the dice the game asks for onto the rendered table and make random legal
choices, at a pace a watcher can follow. The dice themselves go through the camera pipeline like real ones."""

from __future__ import annotations

import random
import threading
import time

from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games.alhambra_dice.simulate import next_event
from companion.games.alhambra_rw.simulate import random_decision
from companion.live.alhambra_demo import rolled_from_proposal, throw_of
from companion.live.carcassonne_demo import Step, play
from companion.live.roll_and_write_demo import choose_second_building, throw_for
from vision.simulated_table.rolling import RollingTable, Throw

from .app import CompanionApp
from .roll_and_write_input import PipDie
from .screens.alhambra_dice import AlhambraDiceScreen
from .screens.carcassonne_dice import CarcassonneDiceScreen
from .screens.end import ScoringPanel

PACE = 0.8
"""Seconds between two of the players' moves."""
GIVE_UP_AFTER = 10.0
"""Seconds a throw may take to be read before the players type it in (as players at a table would)."""
READ_SCORING = 8.0
"""Seconds the players look at a scoring held during the game before they go back to it."""


class RollAndWritePlayers:
    """Roll & Write's demo players: they throw the pip dice the game asks for and type them when the camera
    cannot make them out."""

    def __init__(self, app: CompanionApp, table: RollingTable, rng: random.Random) -> None:
        self.app = app
        self.table = table
        self.rng = rng
        self._thrown: tuple[int, Throw, float] | None = None
        """(events in the log when thrown, the dice, when): the throw waiting to be read."""

    def attach(self) -> None:
        self.app.call_later(lambda: self.app.set_interval(PACE, self.tick))

    def tick(self) -> None:
        screen = self.app.roll_and_write_screen()
        if screen is None or screen is not self.app.screen or screen.state.is_over:
            return
        session = screen.session
        exp = session.expectation()
        n_events = len(session.events)
        if exp.yellow + exp.blue:
            thrown = self._thrown
            if thrown is not None and thrown[0] == n_events:
                if screen.pending is not None or time.monotonic() - thrown[2] > GIVE_UP_AFTER:
                    # The camera is unsure or saw nothing: the players type what the dice show.
                    typed = tuple(PipDie(c, v) for c, v in thrown[1])  # type: ignore[arg-type]
                    screen.enter_dice(typed, "keyboard", "" if screen.pending else "camera read nothing")
                return
            second = choose_second_building(screen.state, exp, self.rng)
            if second is not None:
                screen.decide(second)
                return
            dice = throw_for(exp, self.rng)
            self.table.throw(dice)
            self._thrown = (n_events, dice, time.monotonic())
            return
        screen.decide(random_decision(rw.Game.from_state(screen.state), self.rng))


class AlhambraDicePlayers:
    """The Alhambra dice demo's players: the engine's random player decides (and says what the thrown dice
    show); each roll is thrown onto the rendered table and left to the camera, which enters it when it is
    sure; the players type the dice when it asks, or when it saw nothing for a while."""

    def __init__(self, app: CompanionApp, table: RollingTable, rng: random.Random) -> None:
        self.app = app
        self.table = table
        self.rng = rng
        self._thrown: tuple[int, ad.Rolled, float] | None = None
        """(events in the log when thrown, the roll, when): the throw waiting to be read."""
        self._scoring_shown: float | None = None
        """When the scoring lying over the game was first seen."""

    def attach(self) -> None:
        self.app.call_later(lambda: self.app.set_interval(PACE, self.tick))

    def tick(self) -> None:
        screen = self.app.screen
        if isinstance(screen, ScoringPanel):
            # Scorings A and B lie over the game until dismissed: an unattended demo stopped at the first.
            self._scoring_shown = self._scoring_shown or time.monotonic()
            if time.monotonic() - self._scoring_shown >= READ_SCORING:
                self._scoring_shown = None
                screen.dismiss()
            return
        if not isinstance(screen, AlhambraDiceScreen) or screen.state.is_over:
            return
        events = screen.session.events
        thrown = self._thrown
        if thrown is not None and thrown[0] == len(events):
            if screen.pending is not None or time.monotonic() - thrown[2] > GIVE_UP_AFTER:
                screen.enter(rolled_from_proposal(screen.pending, screen.session.expectation(), thrown[1]))
            return
        self._thrown = None
        event = next_event(ad.fold(events), self.rng)
        if isinstance(event, ad.Rolled):
            black = screen.state.black
            self.table.throw(throw_of(event, black, self.rng))
            self._thrown = (len(events), event, time.monotonic())
            return
        screen.enter(event)


class CarcassonneDicePlayers:
    """The Carcassonne dice demo's players: a thread plays the demo game (every roll and every turn's city
    rendered and read by the real reader, `companion.live.carcassonne_demo.play`) and hands each event to
    the screen at a pace a watcher can follow, with what the camera read and the picture a roll was read in
    (kept as its frame); where it read wrong, the players typed the truth. `close` stops the thread and
    waits for it."""

    def __init__(self, app: CompanionApp, seed: int) -> None:
        self.app = app
        self.seed = seed
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def attach(self) -> None:
        self.app.call_later(self._start)

    def _start(self) -> None:
        screen = self.app.screen
        if isinstance(screen, CarcassonneDiceScreen) and not self._stop.is_set():
            self._thread = threading.Thread(target=self._play, args=(screen,), name="carcassonne-demo")
            self._thread.start()

    def _play(self, screen: CarcassonneDiceScreen) -> None:
        players = screen.state.names
        for step in play(self.seed, players):
            if self._stop.wait(PACE):
                return
            # Posting never blocks: a screen already gone drops the message.
            seen = step.reading.seen if step.reading is not None else None
            screen.post_message(CarcassonneDiceScreen.FromTable(step.event, _said(step), seen))

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def _said(step: Step) -> str:
    read = step.reading
    if read is None:
        return ""
    return f"{read.text}: {'right' if read.matched else 'wrong, so the players typed what the dice show'}"
