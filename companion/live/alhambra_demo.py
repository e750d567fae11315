"""`companion demo --game alhambra-dice`: a whole 3-player Alhambra dice game on the rendered table.

The players roll the 8 white symbol dice onto a rendered table (the set-aside dice are thrown back in place,
so the camera sees all 8 after every roll; a black die set with its tile lies beside them); the one reader,
with a symbol profile taught from rendered photos of the alhambra icons as players teach theirs with
`calibration.faces --preset alhambra`, reads them; the settled reading is matched to the roll the game waits
for. The players' decisions are the engine's random legal player (`alhambra_dice.simulate`), which also
decides which faces the thrown dice show.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from companion.games import alhambra_dice as ad
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice.engine import ROUNDS
from companion.games.alhambra_dice.simulate import next_event
from companion.live.cameras import AlhambraDiceCamera
from companion.live.demo_throws import ThrowTally, counted, read_throw
from companion.live.frames import FrameKeeper
from companion.live.match import FACE_SETTLING, FaceProposal
from vision.pips import PipReader
from vision.reader import DiceReader
from vision.settle import Settler
from vision.simulated_table.rolling import RollingTable
from vision.simulated_table.symbol_art import ALHAMBRA, SymbolPainter, mild_look, teaching_photos
from vision.symbols.profile import SymbolProfile
from vision.symbols.teach import TeachingPhoto, teach

DEMO_PLAYERS = ("Barbara", "Patricia", "Ani")
WHITE, BLACK = "white", "black"
DIE_SIDE = 54.0
"""Pixels a die's side spans at 640x480: the symbols need about half again the pip dice's 36 to be made out
(at 36 px a few dice a game were read as pip dice)."""


def symbol_painter() -> SymbolPainter:
    return SymbolPainter(ALHAMBRA)


def demo_table(seed: int) -> RollingTable:
    """The demo's rendered table of alhambra symbol dice (the same for the same seed), fast: the app
    turns `realtime` on. The camera looks nearly straight down, as a table companion's does."""
    look = replace(mild_look(np.random.default_rng(seed)), jpeg=90)
    return RollingTable(
        seed=seed, roll_frames=4, rest_frames=0, idle_frames=None, side=DIE_SIDE, look=look,
        painter=symbol_painter(),
    )  # fmt: skip


def taught_profile(seed: int = 1, per_face: int = 4) -> SymbolProfile:
    """The symbol profile players would teach before the game: a few photos of each face, one die alone on
    the table, the first upright (here rendered)."""
    photos = teaching_photos(symbol_painter(), np.random.default_rng(seed), per_face)
    taught = [TeachingPhoto(face, f"{n}.png", im) for face, ims in photos.items() for n, im in enumerate(ims)]
    return teach(taught, warn=lambda _: None)


def throw_of(rolled: ad.Rolled, black: str | None, rng: random.Random) -> list[tuple[str, str]]:
    """The dice on the table after a roll: the 8 white dice showing the rolled faces, in no order, and the
    black die with the face it was set to."""
    dice = [(WHITE, face) for face, n in zip(TYPES, rolled.dice, strict=True) for _ in range(n)]
    rng.shuffle(dice)
    return dice + ([(BLACK, black)] if black is not None else [])


def rolled_from_proposal(proposal: FaceProposal | None, exp: ad.Expectation, truth: ad.Rolled) -> ad.Rolled:
    """The camera's roll when it is sure and right; otherwise what a player at the table would type (the
    truth), logged with what the camera read."""
    if proposal is not None and proposal.sure and proposal.counts == truth.dice:
        rolled = AlhambraDiceCamera.event(proposal.counts, exp, "camera")
    else:
        read = proposal.read if proposal is not None else "nothing"
        rolled = AlhambraDiceCamera.event(truth.dice, exp, "keyboard", f"camera read {read}")
    assert rolled is not None  # the demo throws only when the game waits for a roll
    return rolled


@dataclass
class DemoResult(ThrowTally):
    events: list[ad.Event]

    @property
    def finished(self) -> bool:
        return ad.fold(self.events).is_over

    def to_json(self) -> dict[str, Any]:
        """The keys of the Roll & Write demo's report; `scoring` as `companion score --json` prints it."""
        return {
            "finished": self.finished,
            "scoring": ad.score_log(self.events).to_json() if self.finished else None,
            **self.tally_json(),
        }


def play_headless(
    seed: int = 0,
    progress: Callable[[str], object] = lambda _: None,
    rounds: int = ROUNDS,
    kept: FrameKeeper | None = None,
) -> DemoResult:
    """Play a whole game through the camera pipeline on a rendered table, without a screen; the faces are
    taught first, as players teach their dice before a game. `progress` hears of
    each round as it begins. Fewer `rounds` than the game's 5 stop it early (a test's short game). Each
    roll the camera settled on keeps the frame it settled in (`kept`: none without)."""
    started = time.perf_counter()
    rng = random.Random(seed)
    throws = random.Random(seed + 1)
    game = ad.Game(ad.GameStarted(DEMO_PLAYERS))
    result = DemoResult(list(game.log))
    reader = DiceReader(PipReader(), taught_profile())
    table = demo_table(seed)
    frames = counted(table, result)
    settler = Settler(FACE_SETTLING)
    kept = kept or FrameKeeper.off()
    while not game.is_over and game.round <= rounds:
        event = next_event(game, rng)
        if isinstance(event, ad.Rolled):
            exp, state = game.expectation(), game.state
            black = state.black
            seen = read_throw(table, throw_of(event, black, throws), frames, reader.read, settler)
            proposal = AlhambraDiceCamera.proposal(seen.reading, exp, state) if seen is not None else None
            result.readings += 1
            result.matched += proposal is not None and proposal.counts == event.dice
            result.strays += seen is not None and len(seen.reading.dice) > exp.dice + (black is not None)
            event = replace(rolled_from_proposal(proposal, exp, event), frame=kept.keep(seen))
            result.fixed += bool(event.note)
        before = game.round
        game.apply(event)
        result.events.append(event)
        if game.round != before and not game.is_over:
            progress(
                f"round {game.round} of {ROUNDS}: {result.matched} of {result.readings} rolls read right"
            )
    progress(f"game over: {result.matched} of {result.readings} rolls read right")  # the last round's too
    table.close()
    result.seconds = time.perf_counter() - started
    return result
