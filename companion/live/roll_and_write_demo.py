"""`companion demo`: a whole Alhambra Roll & Write game on the rendered table, read by the real reader.

The demo is a table of players who throw the dice the game asks for onto a rendered table; the camera
pipeline (reader, settling, matching) turns each throw into a `Roll`, and the players' decisions are random
legal ones. Headless, it plays as fast as the pipeline allows and reports how many readings were right (the
camera put forward the dice that were thrown) and how many also held a stray find (clutter read as a die).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.simulate import random_decision
from companion.live.cameras import RollAndWriteCamera
from companion.live.demo_throws import DEMO_PLAYERS, ThrowTally, counted, read_throw
from companion.live.frames import FrameKeeper
from companion.live.match import Proposal
from companion.live.pip_die import PipDie
from vision.colour import body_lab
from vision.colour_profile import ColourProfile, teach
from vision.pips import PipReader
from vision.settle import Settler
from vision.simulated_table.rolling import RollingTable, Throw


def demo_setup(solo: bool = False) -> rw.GameStarted:
    sheet = rw.load_shipped_sheet("example")
    if solo:
        return rw.GameStarted(sheet, ("Barbara",), ("Marc", "Nora"))
    return rw.GameStarted(sheet, DEMO_PLAYERS)


def throw_for(exp: rw.Expectation, rng: random.Random) -> Throw:
    """Random dice of the colours and number the game asks for."""
    return [("yellow", rng.randint(1, 6)) for _ in range(exp.yellow)] + [
        ("blue", rng.randint(1, 6)) for _ in range(exp.blue)
    ]


SECOND_BUILDING_CHANCE = 0.3


def choose_second_building(state: rw.GameState, exp: rw.Expectation, rng: random.Random) -> rw.Event | None:
    """Now and then, when the coins allow, a demo player crosses a second building instead of re-rolling."""
    if not exp.can_cross_second or exp.player is None or rng.random() >= SECOND_BUILDING_CHANCE:
        return None
    player = state.player(exp.player)
    return rw.CrossBuilding(player.name, player.yellow[0], player.blue[0])


def proposed_right(proposal: Proposal | None, throw: Throw) -> bool:
    """The camera put forward the dice that were thrown (sure or not: unsure ones are confirmed)."""
    return proposal is not None and sorted((d.colour, d.value) for d in proposal.dice) == sorted(throw)


@dataclass
class DemoResult(ThrowTally):
    state: rw.GameState
    events: list[rw.Event]

    def to_json(self) -> dict[str, Any]:
        return {
            "finished": self.state.is_over,
            "scoring": rw.score_game(self.state).to_json() if self.state.is_over else None,
            **self.tally_json(),
        }


def demo_table(seed: int) -> RollingTable:
    """The demo's rendered table (the same table, light, camera and dice for the same seed), fast: the app
    turns `realtime` on after the colours are taught."""
    return RollingTable(seed=seed, roll_frames=4, rest_frames=0, idle_frames=None)


def teach_colours(table: RollingTable, reader: PipReader, seed: int = 0, shows: int = 3) -> ColourProfile:
    """Calibrate like players would before a game: throw only the two yellow dice, then only the two blue
    ones, a few times each, and teach the colours of every die the reader finds in the still frames."""
    rng = random.Random(seed)
    samples: dict[str, list[npt.NDArray[np.float32]]] = {}
    frames = iter(table)
    for colour in ("yellow", "blue"):
        for _ in range(shows):
            number = table.throw([(colour, rng.randint(1, 6)), (colour, rng.randint(1, 6))])
            frame = next(f for f in frames if table.settled is not None and table.settled.throw == number)
            found = reader.read(frame.image).dice
            samples.setdefault(colour, []).extend(body_lab(frame.image, d.box) for d in found)
    return teach(samples)


def play_headless(
    reader: PipReader,
    seed: int = 0,
    solo: bool = False,
    progress: Callable[[str], object] = lambda _: None,
    kept: FrameKeeper | None = None,
    rounds: int | None = None,
) -> DemoResult:
    """Play a whole game through the camera pipeline on a rendered table, without a screen; the colours
    are taught first, as players calibrate before a game. `progress` hears of each round as it begins. Each
    throw the camera settled on keeps the frame it settled in (`kept`: none without). A number of `rounds`
    stops it early (a test's short game)."""
    started = time.perf_counter()
    rng = random.Random(seed)
    setup = demo_setup(solo)
    game = rw.Game(setup)
    result = DemoResult(game.state, [setup])
    table = demo_table(seed)
    reader.colour_profile = teach_colours(table, reader, seed)
    frames = counted(table, result)
    settler = Settler()
    kept = kept or FrameKeeper.off()
    while not game.is_over and (rounds is None or game.state.round <= rounds):
        exp = game.expectation()
        if exp.yellow + exp.blue:
            event = choose_second_building(game.state, exp, rng)
        else:
            event = random_decision(game, rng)
        if event is None:
            throw = throw_for(exp, rng)
            seen = read_throw(table, throw, frames, reader.read, settler)
            proposal = RollAndWriteCamera.proposal(seen.reading, exp) if seen is not None else None
            result.readings += 1
            result.matched += proposed_right(proposal, throw)
            result.strays += seen is not None and len(seen.reading.dice) > len(throw)
            event = replace(roll_from_proposal(proposal, exp, throw), frame=kept.keep(seen))
            result.fixed += bool(event.note)
        before = game.state.round
        game.apply(event)
        result.events.append(event)
        if game.state.round != before:
            state, right = game.state, f"{result.matched} of {result.readings} throws read right"
            progress(f"round {state.round} of {state.rounds}: {right}")
    # The last round's throws were in no line: only the JSON's count had them.
    progress(f"game over: {result.matched} of {result.readings} throws read right")
    table.close()
    result.state = game.state
    result.seconds = time.perf_counter() - started
    return result


def roll_from_proposal(proposal: Proposal | None, exp: rw.Expectation, truth: Throw) -> rw.Roll:
    """The camera's roll when it fits and is sure; otherwise what a player at the table would type (the
    truth), logged with what the camera read."""
    if proposal is not None and proposal.sure and proposed_right(proposal, truth):
        roll = RollAndWriteCamera.event(proposal.dice, exp, "camera")
    else:
        read = proposal.read if proposal is not None else "nothing"
        typed = [PipDie("yellow" if colour == "yellow" else "blue", value) for colour, value in truth]
        roll = RollAndWriteCamera.event(typed, exp, "keyboard", f"camera read {read}")
    assert roll is not None  # the demo throws only when the game waits for a roll
    return roll
