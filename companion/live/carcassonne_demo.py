"""`companion demo --game carcassonne-dice`: a whole Carcassonne dice game on rendered tables, read by the
real reader.

The dice are taught first from rendered teaching photos, as players teach their dice once
(`calibration.faces --preset carcassonne`). Then every roll is thrown onto a rendered table and read by the
one reader (`vision.reader.DiceReader`), and at the end of every turn the city built so far is rendered die by
die at its cells, each face turned as built, and read back by the grid reader (`vision.grid`) into the
layout the scorer takes. A reading matches when the faces read (a roll) or the city read (cells, black areas,
nothing asked) equal the rendered truth; a reading that does not is typed in, as players would.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from calibration.faces import CATAPULT, KNIGHT
from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.city import Areas, Pos
from companion.games.carcassonne_dice.simulate import turn_events
from companion.live.city import area_mask, city_from_grid
from companion.live.demo_throws import DEMO_PLAYERS
from companion.live.frames import FrameKeeper, Sighting
from vision.grid import GridError, read_grid
from vision.reader import DiceReader
from vision.reading import Rotation
from vision.simulated_table.city import BuiltDie, city_scene, thrown_scene
from vision.simulated_table.symbol_art import CARCASSONNE, SymbolPainter, teaching_photos
from vision.symbols.profile import SymbolProfile, turned
from vision.symbols.teach import TeachingPhoto, teach

LABELS = tuple(CARCASSONNE.icons)
"""The six faces of a die: four city faces, the knight and the catapult; each comes up once in six."""
ROTATIONS: tuple[Rotation, ...] = (0, 90, 180, 270)


def face_areas(label: str, rotation: int) -> Areas:
    """The black areas of a city face turned `rotation` degrees counter-clockwise, as the game keeps them."""
    return tuple(area_mask(turned(area, rotation)) for area in CARCASSONNE.areas[label])


def taught_dice(seed: int) -> SymbolProfile:
    """The dice taught from rendered photos of each face, as players teach theirs before the first game."""
    photos = teaching_photos(SymbolPainter(CARCASSONNE), np.random.default_rng(seed))
    return teach(
        [TeachingPhoto(label, f"{j}.png", im) for label, ims in photos.items() for j, im in enumerate(ims)],
        warn=lambda _: None,
    )


@dataclass
class CarcassonneDemoResult:
    game: cd.Game
    events: list[cd.Event]
    readings: int = 0
    matched: int = 0
    rolls_matched: int = 0
    rolls: int = 0
    cities_matched: int = 0
    cities: int = 0
    asked: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        over = self.game.is_over
        return {
            "game": cd.GAME_ID,
            "finished": over,
            "scoring": cd.score_game(self.game.state).to_json() if over else None,
            "readings": self.readings,
            "readings_matched": self.matched,
            "rolls_read": self.rolls,
            "rolls_matched": self.rolls_matched,
            "cities_read": self.cities,
            "cities_matched": self.cities_matched,
            "dice_asked": self.asked,
            "seconds": round(self.seconds, 2),
        }


class _Table:
    """The rendered table and the reader: throws and built cities in, what the camera read out."""

    def __init__(self, reader: DiceReader, seed: int) -> None:
        self.reader = reader
        self.painter = SymbolPainter(CARCASSONNE)
        self.rng = np.random.default_rng(seed)

    def roll(self, labels: Sequence[str]) -> tuple[list[str], Sighting]:
        """The faces read of a throw of these faces, and the picture they were read in."""
        scene = thrown_scene(self.painter, labels, self.rng)
        while len(scene.dice) < len(labels):  # the scatter found no room for every die: throw again
            scene = thrown_scene(self.painter, labels, self.rng)
        reading = self.reader.read(scene.image)
        return [d.face or "" for d in reading.dice if d.kind == "symbol"], Sighting(scene.image, reading)

    def city(self, built: Sequence[BuiltDie]) -> tuple[dict[Pos, Areas], int]:
        """The layout read of a built city (cells counted from its top-left die) and the dice asked."""
        scene = city_scene(self.painter, built, self.rng)
        try:
            read = city_from_grid(read_grid(scene.image, self.reader))
        except GridError:
            return {}, len(built)
        return dict(read.layout), len(read.asked)


def _from_origin(layout: dict[Pos, Areas]) -> dict[Pos, Areas]:
    if not layout:
        return layout
    r0, c0 = min(r for r, _ in layout), min(c for _, c in layout)
    return {(r - r0, c - c0): areas for (r, c), areas in layout.items()}


@dataclass(frozen=True)
class Reading:
    """What the camera made of a roll or of the city at a turn's end, against the rendered truth, and the
    picture a roll was read in (kept as its frame)."""

    kind: Literal["roll", "city"]
    matched: bool
    asked: int
    text: str
    seen: Sighting | None = None


@dataclass(frozen=True)
class Step:
    """One event of the demo game, the game going on with the truth, and the reading it came with."""

    event: cd.Event
    reading: Reading | None


def play(seed: int = 0, players: Sequence[str] = DEMO_PLAYERS) -> Iterator[Step]:
    """The demo game event by event after `GameStarted(players)`: each roll thrown and read, each turn's
    city rendered and read."""
    rng = random.Random(seed)
    table = _Table(DiceReader(symbols=taught_dice(seed)), seed)
    game = cd.Game(cd.GameStarted(tuple(players)))
    city_faces: list[str] = []
    faces_at: dict[Pos, BuiltDie] = {}
    while not game.is_over:
        name = game.names[game.active]
        planned = turn_events(game, rng, [_turns(label) for label in city_faces])
        for event in planned:
            reading = None
            if isinstance(event, cd.Rolled):
                labels = [rng.choice(LABELS) for _ in range(game.free)]
                read, seen = table.roll(labels)
                right = sorted(read) == sorted(labels)
                said = f"the camera read {_counted(read)}"
                reading = Reading("roll", right, 0, said, seen)
                city_faces = [label for label in labels if label not in (KNIGHT, CATAPULT)]
                # Read wrong, the players typed what the dice show: the log keeps what the camera read.
                source, note = ("camera", "") if right else ("keyboard", said.removeprefix("the "))
                counts = len(city_faces), labels.count(KNIGHT), labels.count(CATAPULT)
                event = cd.Rolled(name, *counts, source=source, note=note)
            elif isinstance(event, cd.Kept):
                for die in event.built:
                    label = next(lb for lb in city_faces if die.areas in _turns(lb))
                    city_faces.remove(label)
                    rotation = next(r for r in ROTATIONS if face_areas(label, r) == die.areas)
                    faces_at[die.at] = BuiltDie(die.at, label, rotation)
            elif isinstance(event, cd.TurnEnded) and faces_at:
                truth = {at: face_areas(d.label, d.rotation) for at, d in faces_at.items()}
                layout, asked = table.city(list(faces_at.values()))
                right = not asked and _from_origin(layout) == _from_origin(truth)
                dice = f"{len(layout)} city dice read surely" + (f", {asked} asked" if asked else "")
                reading = Reading("city", right, asked, f"the camera read the city: {dice}")
            before = game.turn
            game.apply(event)
            yield Step(event, reading)
            if game.turn != before or game.is_over:
                faces_at.clear()
                city_faces = []
            if game.is_over or isinstance(event, cd.Rolled):
                break


def play_headless(
    seed: int = 0,
    players: Sequence[str] = DEMO_PLAYERS,
    progress: Callable[[str], object] = lambda _: None,
    kept: FrameKeeper | None = None,
    turns: int | None = None,
) -> CarcassonneDemoResult:
    """Play a whole game through the reader on rendered tables, without a screen; each roll keeps the
    picture it was read in (`kept`: none without). A number of `turns` stops it early (a test's short
    game)."""
    started = time.perf_counter()
    setup = cd.GameStarted(tuple(players))
    result = CarcassonneDemoResult(cd.Game(setup), [setup])
    kept = kept or FrameKeeper.off()
    for step in play(seed, players):
        if turns is not None and result.game.turn > turns:
            break
        event = step.event
        if step.reading is not None:
            read = step.reading
            if isinstance(event, cd.Rolled) and read.seen is not None:
                event = replace(event, frame=kept.keep(read.seen))
            result.readings += 1
            result.matched += read.matched
            result.asked += read.asked
            if read.kind == "roll":
                result.rolls += 1
                result.rolls_matched += read.matched
            else:
                result.cities += 1
                result.cities_matched += read.matched
        before = result.game.turn
        result.game.apply(event)
        result.events.append(event)
        if result.game.turn != before and result.game.turn % len(players) == 1:
            done = f"{result.matched} of {result.readings} read right"
            progress(f"round {result.game.turn // len(players) + 1}: {done}")
    progress(f"game over: {result.matched} of {result.readings} read right")  # the last round's too
    result.seconds = time.perf_counter() - started
    return result


def _counted(faces: Sequence[str]) -> str:
    city = sum(face not in (KNIGHT, CATAPULT) for face in faces)
    return f"{city} city, {faces.count(KNIGHT)} knight, {faces.count(CATAPULT)} catapult"


def _turns(label: str) -> tuple[Areas, ...]:
    return tuple(dict.fromkeys(face_areas(label, r) for r in ROTATIONS))
