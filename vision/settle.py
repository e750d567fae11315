"""Settling: turn a stream of per-frame readings into one reading per throw.

A reading is emitted once the picture has stopped moving and the last few readings agree (the same surely
read dice in the same places; unsure finds beside them may flicker); rolling dice never do both. An emitted
reading is withdrawn when the dice move again or the reading changes for good (a die picked up or turned by
hand); the next still reading is emitted afresh, unless it is the same dice in the same places with no
movement in between (a misread that came and went is no new throw); after movement such a reading is
emitted marked `again` (a hand passed over the dice). A change of light is no movement.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial

import cv2
import numpy as np
import numpy.typing as npt

from vision.pips import OFFERED_FIND
from vision.reading import SURE_READ, DiceReading, Die, Frame, Image


@dataclass(frozen=True)
class Settled:
    """The dice came to rest: the throw's reading (dice read less surely than `min_confidence` left out, but
    for those found surely)."""

    reading: DiceReading
    again: bool = False
    """The same dice in the same places as the reading settled before: something moved over the table (a
    hand, a shadow) and left them where they lay. No throw lands so; it is no new one seen thrown."""


@dataclass(frozen=True)
class Withdrawn:
    """The dice of the last settled reading moved, or its reading changed for good."""


Change = Settled | Withdrawn


@dataclass(frozen=True)
class SettleSettings:
    agree_frames: int = 4
    """Still frames whose readings agree (and 70% of those in the last `still_seconds`, or of the last
    `agree_frames` + 2 on a slow camera) before a reading is emitted; as many disagreeing frames in a row
    withdraw it."""
    still_seconds: float = 0.15
    """And for at least this long, so that a fast camera does not settle within a bounce."""
    motion_level: int = 20
    """A pixel moved when its grey level changed by more than this (sensor noise stays far below)."""
    motion_share: float = 0.002
    """The picture moves when more than this share of its pixels moved since the last frame."""
    min_confidence: float = 0.5
    """Dice read with less confidence are left out of the reading, but for those found surely
    (`kept_find`): a phantom that comes and goes with the sensor's noise must not keep real dice from
    settling."""
    kept_find: float = OFFERED_FIND
    """A die the detector found at least this surely is kept however unsure its reading: it is a die the
    reader cannot make out, to be asked about, not a phantom. Left out, it left the throw short and the
    players typed every die (on a kind of table the reader never saw, a tenth of the dice:
    `docs/pip-reader.md`)."""
    sure_read: float = SURE_READ
    """Readings agree when their dice read at least this surely agree; a less sure find (a phantom on the
    edge of `min_confidence`, a die the reader hesitates over) may come, go or change between frames."""
    faces_only: bool = False
    """Symbol dice agree by face alone, whatever their colour and rotation: for a game that counts faces (the
    Alhambra dice game's white dice), where a white die in shade is named another colour in some frames and
    a face's rotation may flip while the die lies still."""
    moving_frames_to_withdraw: int = 2
    """Moving frames in a row that withdraw an emitted reading (one could be a hand's shadow passing)."""
    patience_seconds: float = 1.0
    """Dice read on a still table this long (from the first frame that read one, in enough frames:
    `Settler._patient`) with no reading agreed on by most frames, the reading most of them agree with is
    emitted, each die as sure as the frames say together (`fused`): a die read surely in one frame and
    otherwise in the next (a symbol die at the edge of its profile's accept, named in every other frame)
    would keep a table that lies still from settling at all, and the players would type the whole throw."""


_HISTORY = 256
"""Still frames remembered since the last movement (a few seconds of a fast camera)."""
_MAJORITY = 0.7
_PATIENT_SHARE = 0.25
"""Patience settles on frames that read dice in at least this share of the still frames since the first did:
a throw read in one frame of three settles, a phantom of the sensor's noise in a few frames of a second does
not."""
_EPSILON = 1e-6

_WHITE = 254.0
"""A colour's level this high may be brighter still: the camera clipped it."""
_MOTION_WIDTH = 160
"""Frames are compared at this width: enough to see a die move, cheap on a laptop."""

Signature = tuple[tuple[str, str, float, float, float, bool], ...]


def _label(die: Die, faces_only: bool = False) -> str:
    if die.kind == "pip":
        return str(die.value)
    return str(die.face) if faces_only else f"{die.face}@{die.rotation}"


def signature(reading: DiceReading, sure_read: float = SURE_READ, faces_only: bool = False) -> Signature:
    """What must stay the same for two readings to agree: each die's kind, label, colour and place, and
    whether it was read surely enough (`sure_read`) to have to; `faces_only`: a symbol die's face alone."""
    return tuple(
        sorted(
            (
                f"{d.kind}:{_label(d, faces_only)}",
                "" if faces_only and d.kind == "symbol" else d.color,
                *d.box.center,
                max(d.box.width, d.box.height),
                d.confidence >= sure_read,
            )
            for d in reading.dice
        )
    )


def agree(a: Signature, b: Signature) -> bool:
    """Each surely read die of either is in the other, showing the same within a quarter of its size of where
    it was; where neither has a sure die, all their dice must agree so (blurred frames of tumbling dice)."""
    if not any(x[5] for x in (*a, *b)):
        return len(a) == len(b) and _kept(a, b, every=True)
    return _kept(a, b) and _kept(b, a)


def lying_as_before(a: Signature, b: Signature) -> bool:
    """Every die of either, sure or not, in the other, showing the same within a quarter of its size of where
    it was: dice left lying, not thrown again (a die thrown again beside a kept one, read unsurely before and
    after, is not the same die: `agree` passes over unsure dice)."""
    return len(a) == len(b) and _kept(a, b, every=True) and _kept(b, a, every=True)


def _kept(a: Signature, b: Signature, every: bool = False) -> bool:
    return all(
        any(x[:2] == y[:2] and np.hypot(x[2] - y[2], x[3] - y[3]) <= max(4.0, 0.25 * x[4]) for y in b)
        for x in a
        if every or x[5]
    )


def kept(reading: DiceReading, settings: SettleSettings) -> DiceReading:
    """The dice settling goes by: those read at least `min_confidence` surely or found `kept_find` surely."""
    return DiceReading(
        tuple(
            d
            for d in reading.dice
            if d.confidence >= settings.min_confidence or (d.found or 0.0) >= settings.kept_find
        ),
        reading.time,
    )


def fused(dice: tuple[Die, ...], frames: list[DiceReading], faces_only: bool = False) -> tuple[Die, ...]:
    """The dice of the settling frame, each as sure as the still frames before it say together: the mean of
    its confidence over them, a frame where it is missing or shows another face counting 0. A die read 6 at
    0.95 in three frames and 1 in the fourth is no sure 6 (0.71): the table asks about it."""
    out = []
    for die in dice:
        votes = [
            max((d.confidence for d in r.dice if _same(die, d, faces_only)), default=0.0) for r in frames
        ]
        out.append(replace(die, confidence=sum(votes) / len(votes)) if votes else die)
    return tuple(out)


def _same(a: Die, b: Die, faces_only: bool = False) -> bool:
    """The same die showing the same face: same kind and label, within a quarter of its size of a's place."""
    (ax, ay), (bx, by) = a.box.center, b.box.center
    size = max(a.box.width, a.box.height)
    same_label = _label(a, faces_only) == _label(b, faces_only)
    return same_label and a.kind == b.kind and np.hypot(ax - bx, ay - by) <= max(4.0, 0.25 * size)


class Settler:
    """Feed it every frame with its reading; `update` says when a reading settles or is withdrawn."""

    def __init__(self, settings: SettleSettings | None = None) -> None:
        self.settings = settings or SettleSettings()
        self._previous: npt.NDArray[np.float32] | None = None
        self._recent: deque[tuple[float, Signature, DiceReading]] = deque(maxlen=_HISTORY)
        """The still frames since the last movement: (time, signature, reading)."""
        self._emitted: Signature | None = None
        self._last: Signature | None = None
        self._moved = False
        self._disagree = 0
        self._moving = 0
        self.still_empty = False
        """The last frame was still and read no die settling goes by: nothing thrown lies there."""

    @property
    def settled(self) -> bool:
        """A reading is out and not withdrawn."""
        return self._emitted is not None

    def update(self, frame: Frame, reading: DiceReading) -> Change | None:
        """What this frame changed: the dice settled, a settled reading withdrawn, or nothing (None)."""
        return self.follow(frame, lambda: reading)

    def follow(self, frame: Frame, read: Callable[[], DiceReading]) -> Change | None:
        """`update`, reading the frame (`read`) only when the picture is still: a moving frame's reading
        is never used, and reading is most of a frame's cost (a throw's tumbling frames are half a demo's)."""
        s = self.settings
        if self._motion(frame.image):
            self.still_empty = False
            self._recent.clear()
            self._moved = True
            self._moving += 1
            if self._emitted is not None and self._moving >= s.moving_frames_to_withdraw:
                return self._withdraw()
            return None
        self._moving = 0
        reading = read()
        reading = kept(reading, s)
        self.still_empty = not reading.dice
        key = signature(reading, s.sure_read, s.faces_only)
        if self._emitted is not None:
            if agree(key, self._emitted):
                self._disagree = 0
                return None
            self._disagree += 1
            return self._withdraw() if self._disagree >= s.agree_frames else None
        self._recent.append((frame.time, key, reading))
        if not key:
            return None
        # Most of the last still frames, not all: a die misread in one frame in four must not stop the
        # others from settling. The last `still_seconds`, and at least a few frames on a slow camera.
        tail = [r for r in self._recent if r[0] >= frame.time - s.still_seconds - _EPSILON]
        if len(tail) < s.agree_frames + 2:
            tail = list(self._recent)[-(s.agree_frames + 2) :]
        agreeing = [(t, r) for t, k, r in tail if agree(k, key)]
        enough = max(s.agree_frames, _MAJORITY * len(tail))
        settled = len(agreeing) >= enough and frame.time - agreeing[0][0] >= s.still_seconds - _EPSILON
        if not settled and self._patient(frame.time):
            # Still all along: no reading is coming that most frames agree on, so the one most agree with, of
            # those that read dice (this one does): frames that read none are no throw to settle on.
            read_dice = [r for r in tail if r[1]]
            _, key, reading = max(read_dice, key=lambda r: sum(agree(k, r[1]) for _, k, _ in tail))
            settled = True
        if settled:
            self._emitted, self._disagree = key, 0
            if not self._moved and self._last is not None and agree(key, self._last):
                # The same dice, never touched: a misread came and went. It is not a new throw.
                return None
            again = self._last is not None and lying_as_before(key, self._last)
            self._last, self._moved = key, False
            fused_dice = fused(reading.dice, [r for _, _, r in tail], s.faces_only)
            return Settled(DiceReading(fused_dice, frame.time), again)
        return None

    def _patient(self, now: float) -> bool:
        """Dice have been read on a still table for `patience_seconds`, in at least `agree_frames` frames and
        `_PATIENT_SHARE` of the still frames since the first: the time counts from the first frame that read a
        die, as a still empty table is no throw (a phantom in one frame after a second of it was one)."""
        first = next((t for t, k, _ in self._recent if k), now)
        since = [k for t, k, _ in self._recent if t >= first]
        read = sum(1 for k in since if k)
        s = self.settings
        return now - first >= s.patience_seconds - _EPSILON and read >= max(
            s.agree_frames, _PATIENT_SHARE * len(since)
        )

    def _withdraw(self) -> Withdrawn:
        self._emitted, self._disagree = None, 0
        self._recent.clear()
        return Withdrawn()

    def _motion(self, image: Image) -> bool:
        h, w = image.shape[:2]
        small = cv2.resize(
            image, (_MOTION_WIDTH, max(1, round(h * _MOTION_WIDTH / w))), interpolation=cv2.INTER_AREA
        )
        colours = np.asarray(small, np.float32).reshape(small.shape[0], small.shape[1], -1)
        previous, self._previous = self._previous, colours
        if previous is None or previous.shape != colours.shape:
            return False
        # The light is no movement: a lamp switched on or off, the camera's exposure catching up, a lamp's
        # flicker rolling down the picture in bands changed every pixel of a still table, which withdrew its
        # dice and settled them again as the next player's throw, or never let them settle. Each row of the
        # last frame is brought to this one's light first, colour by colour (its pixels' median ratio: dice
        # or a hand moving change a few of a row's pixels, the light all of them), as the camera would show
        # it: white clipped, and a pixel white before as bright as anything at least. The colours' changes
        # are then averaged, as grey levels were: a webcam's colour noise in a dim room, each colour's worst
        # counted, kept a still throw from settling at all.
        ratio = (colours + 1.0) / (previous + 1.0)
        half = ratio.shape[1] // 2
        gain = np.partition(ratio, half, axis=1)[:, half : half + 1]  # a median, a third of np.median's time
        change = colours - np.minimum(previous * gain, 255.0)
        change = np.where(previous >= _WHITE, np.minimum(change, 0.0), change)  # white tells by darkening
        moved = np.abs(change.mean(axis=2)) > self.settings.motion_level
        return bool(np.count_nonzero(moved) > self.settings.motion_share * moved.size)


@dataclass(frozen=True)
class SettledFrame:
    """A settled throw: the frame the dice settled in, and their reading."""

    frame: Frame
    reading: DiceReading


def settle(
    frames: Iterable[Frame],
    read: Callable[[Image, float], DiceReading],
    settler: Settler | None = None,
    max_frames: int | None = None,
    seconds: float | None = None,
) -> SettledFrame | None:
    """Read the still frames until the dice settle; None when the frames end, or after `max_frames` frames
    or `seconds` of waiting. Pass the `settler` of a table that is watched throw after throw."""
    settler = settler or Settler()
    deadline = time.monotonic() + seconds if seconds is not None else None
    for n, frame in enumerate(frames, start=1):
        change = settler.follow(frame, partial(read, frame.image, frame.time))
        if isinstance(change, Settled):
            return SettledFrame(frame, change.reading)
        if (max_frames is not None and n >= max_frames) or (
            deadline is not None and time.monotonic() > deadline
        ):
            break
    return None
