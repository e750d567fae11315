"""A rendered table as a frame source: dice are thrown on request, tumble for a moment, then lie still.

Used by the settling tests and by `companion demo`, which throws the dice the game asks for. The truth of the
dice at rest is kept (`truth`), so a test or the demo can check what the reader made of them. Pip dice by
default; given a symbol painter, every die thrown is a symbol die of its icon set.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.reading import Frame, Image
from vision.simulated_table.painters import FacePainter, PipPainter
from vision.simulated_table.scene import (
    DieSpec,
    Look,
    Placement,
    TrueDie,
    draw_scene,
    random_die,
    random_look,
    random_table,
    scatter,
)

Throw = Sequence[tuple[str, int]]
"""The dice of one throw: (colour, value) each."""
Faces = Sequence[tuple[str, int | str]]
"""The dice of one throw as `RollingTable.throw` takes them: (colour, the face's label) each, a pip die's
label being its value."""


@dataclass(frozen=True)
class Settled:
    """The dice at rest after throw number `throw` (1-based), from frame `frame` on."""

    throw: int
    frame: int
    dice: tuple[TrueDie, ...]


class RollingTable:
    """Frames of a table on which dice are thrown (`throw`), thread-safe, at `fps`.

    Each throw shows `roll_frames` frames of dice tumbling in from an edge, then the same still scene with
    fresh sensor noise on every frame, at least `rest_frames` of them before a queued throw follows. With
    `realtime` the frames come at the frame rate (a camera); without, as fast as they are asked for, and
    iteration ends `idle_frames` still frames after the last throw, if no other throw is queued.
    """

    def __init__(
        self,
        height: int = 480,
        width: int = 640,
        fps: float = 30.0,
        seed: int = 0,
        realtime: bool = False,
        roll_frames: int = 12,
        rest_frames: int = 15,
        idle_frames: int | None = 30,
        side: float | None = None,
        look: Look | None = None,
        painter: FacePainter | None = None,
    ) -> None:
        self.height, self.width, self.fps = height, width, fps
        self.realtime = realtime
        self.roll_frames = roll_frames
        self.rest_frames = rest_frames
        self.idle_frames = idle_frames
        self._rng = np.random.default_rng(seed)
        self.side = side or 0.075 * min(height, width)
        self.look = look or replace(random_look(self._rng), tilt=0.0, jpeg=90)
        self.table = random_table(self._rng, height, width)
        self._pending: deque[tuple[tuple[str, str], ...]] = deque()
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self.throws = 0
        self.settled: Settled | None = None
        self._painter: FacePainter = painter or PipPainter()
        self._dice: dict[str, list[DieSpec]] = {}
        self._noise = [self._rng.normal(0, 2.5, (height, width, 3)).astype(np.int16) for _ in range(4)]

    def throw(self, dice: Faces) -> int:
        """Throw these dice (replacing those on the table) once the dice before have rested; returns the
        throw's number, which `settled.throw` will carry when these dice lie still."""
        labels = self._painter.labels
        bad = [str(face) for _, face in dice if str(face) not in labels]
        if bad:
            raise ValueError(f"a die shows {labels[0]} to {labels[-1]}, not {bad[0]}")
        with self._lock:
            self._pending.append(tuple((colour, str(face)) for colour, face in dice))
            return self.throws + len(self._pending)

    @property
    def truth(self) -> tuple[TrueDie, ...]:
        """The dice at rest now (empty while they roll or before the first throw)."""
        settled = self.settled
        return settled.dice if settled else ()

    def close(self) -> None:
        self._closed.set()

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        idle = self.rest_frames
        still: Image = self.table  # each run over the frames starts from an empty table
        self.settled = None
        start = time.monotonic()
        while not self._closed.is_set():
            with self._lock:
                throw = self._pending.popleft() if self._pending and idle >= self.rest_frames else None
            images: list[Image]
            if throw is not None:
                self.throws += 1
                self.settled = None
                images, still, truth = self._roll(throw)
                images.append(still)
                first_still = index + len(images) - 1
                idle = 0
            else:
                if self.idle_frames is not None and idle >= self.idle_frames:
                    with self._lock:
                        if not self._pending:
                            return
                idle += 1
                images = [self._sensor(still, index)]
            for k, image in enumerate(images):
                if self.realtime:
                    time.sleep(max(0.0, start + index / self.fps - time.monotonic()))
                if throw is not None and k == len(images) - 1:
                    self.settled = Settled(self.throws, first_still, truth)
                yield Frame(image=image, time=index / self.fps, index=index)
                index += 1
                if self._closed.is_set():
                    return

    def _sensor(self, still: Image, index: int) -> Image:
        noisy = still.astype(np.int16) + self._noise[index % len(self._noise)]
        out: Image = np.clip(noisy, 0, 255).astype(np.uint8)
        return out

    def _specs(self, throw: Sequence[tuple[str, str]]) -> list[DieSpec]:
        # The same physical dice come back throw after throw: the n-th die of a colour keeps its body.
        specs: list[DieSpec] = []
        for colour, value in throw:
            owned = self._dice.setdefault(colour, [])
            n = sum(spec.color == colour for spec in specs)
            if n == len(owned):
                owned.append(replace(random_die(self._painter, self._rng, colour), marbled=False))
            specs.append(replace(owned[n], label=value))
        return specs

    def _roll(self, throw: Sequence[tuple[str, str]]) -> tuple[list[Image], Image, tuple[TrueDie, ...]]:
        """Tumbling frames, then the still image and its truth."""
        specs = self._specs(throw)
        rest = scatter(self._rng, len(specs), self.height, self.width, self.side, margin=1.3)
        while len(rest) < len(specs):  # a crowded table: let dice lie closer rather than drop one
            rest += scatter(self._rng, len(specs) - len(rest), self.height, self.width, self.side, 0.8)
        entry = self._rng.uniform(0, 2 * np.pi)
        reach = np.hypot(self.width, self.height) * 0.6
        tumbling = replace(self.look, noise=0.0)  # the motion blur would wash the sensor's noise out
        frames = []
        for k in range(self.roll_frames):
            left = 1 - (k + 1) / (self.roll_frames + 1)  # share of the way still to go
            dice = []
            for spec, p in zip(specs, rest, strict=True):
                flying = Placement(
                    p.cx + np.cos(entry) * reach * left,
                    p.cy + np.sin(entry) * reach * left,
                    p.side,
                    p.angle + 400 * left,
                    lift=0.8 * left,
                )
                face = self._painter.labels[int(self._rng.integers(len(self._painter.labels)))]
                dice.append((replace(spec, label=face), flying))
            image = draw_scene(self.table, dice, tumbling, self._rng).image
            frames.append(_motion_blur(image, entry, 3 + 20 * left))
        scene = draw_scene(self.table, list(zip(specs, rest, strict=True)), self.look, self._rng)
        return frames, scene.image, scene.dice


def _motion_blur(image: Image, direction: float, length: float) -> Image:
    n = max(3, int(length) | 1)
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = np.cos(direction) * c, np.sin(direction) * c
    cv2.line(kernel, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1.0, 1)
    out: Image = np.asarray(cv2.filter2D(image, -1, kernel / kernel.sum()), np.uint8)
    return out


def write_video(path: Path, source: RollingTable) -> list[Settled]:
    """Record a (non-realtime) rolling table into an MJPG video; returns each throw's truth at rest."""
    writer = cv2.VideoWriter(
        str(path), cv2.VideoWriter.fourcc(*"MJPG"), source.fps, (source.width, source.height)
    )
    if not writer.isOpened():
        raise OSError(f"{path}: cannot write an MJPG video here")
    rests: list[Settled] = []
    try:
        for frame in source:
            writer.write(frame.image)
            if source.settled is not None and (not rests or rests[-1].throw != source.settled.throw):
                rests.append(source.settled)
    finally:
        writer.release()
    return rests
