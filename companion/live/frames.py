"""The camera's evidence: for every roll the camera read, a small JPEG of the dice area at the settled moment,
kept beside the game's log (`GAME.frames/NNNN.jpg`) and named in the roll's event (`frame`).

A frame is the calibrated dice area only, shrunk and compressed to at most `MAX_BYTES`; the reader's dice
(boxes in the JPEG's pixels, values or faces, colours, confidences) go beside it in `NNNN.json`, so that the
dice can be drawn over the picture when a player opens the move. The picture is kept as the camera saw it:
what the reader made of it is drawn only when it is shown.

Keeping a frame never stops a game: a write that fails leaves the roll without a frame (the players are told
once), and a frame that is missing or torn when shown says so where the picture would be (what the reader
saw, in a file of its own, is still said). Files are written whole (a temporary file renamed into place), so
a crash leaves no half a frame behind a name.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.table_area import TableArea
from companion.games.eventlog import FRAME_NAME
from jsonfile import JsonFileError, Limits, read_bytes, read_json
from jsonfile.whole import write_whole
from vision.images import image_size
from vision.reading import Box, DiceReading, Die, Image

FRAMES_SUFFIX = ".frames"
FORMAT = "camera-frame/1"
MAX_BYTES = 60_000
"""A frame's JPEG is at most this large: a whole game's throws (~70) come to a few megabytes."""
MAX_SIDE = 480
"""A frame's longer side in pixels where its dice stay `DIE_SIDE` wide at it (dice of a tray from above)."""
DIE_SIDE = 32
"""Pixels a die's side keeps in the picture (the dice's median), so that a 3 and a 5 can be told apart by
looking: a whole 1080p webcam frame shrunk to `MAX_SIDE` left its small dice 16 pixels wide."""
LONGEST = 1280
"""A frame's longer side in pixels at the most, however small its dice."""
QUALITIES = (80, 70, 60, 50, 40)
"""JPEG qualities tried in turn until the frame fits `MAX_BYTES`; below the last, the picture is shrunk."""
_JPEG_END = b"\xff\xd9"
_SIDECAR_LIMITS = Limits(size=64_000)


def frames_dir(log_path: Path) -> Path:
    """The folder of a game's frames: `GAME.frames` beside `GAME.jsonl`."""
    return log_path.with_name(log_path.name.removesuffix(log_path.suffix) + FRAMES_SUFFIX)


@dataclass(frozen=True)
class Sighting:
    """The dice as the camera settled on them: the frame they settled in and the reader's dice in it."""

    image: Image
    reading: DiceReading


def cut_to_area(sighting: Sighting, area: TableArea | None) -> Sighting:
    """The calibrated dice area of the frame (the whole frame without one), the dice's boxes moved into it."""
    if area is None:
        return sighting
    height, width = sighting.image.shape[:2]
    x0, y0, x1, y1 = area.pixels(width, height)
    dice = tuple(
        replace(d, box=Box(d.box.x0 - x0, d.box.y0 - y0, d.box.x1 - x0, d.box.y1 - y0))
        for d in sighting.reading.dice
    )
    return Sighting(sighting.image[y0:y1, x0:x1], DiceReading(dice, sighting.reading.time))


def encode_frame(sighting: Sighting, area: TableArea | None = None) -> tuple[bytes, dict[str, Any]]:
    """The JPEG of the dice area, shrunk to `MAX_SIDE` or as far as its dice stay `DIE_SIDE` wide, then until
    it fits `MAX_BYTES`, and its sidecar (the dice in its pixels)."""
    cut = cut_to_area(sighting, area)
    image = cut.image
    longest = max(image.shape[:2])
    sides = [max(d.box.x1 - d.box.x0, d.box.y1 - d.box.y0) for d in cut.reading.dice]
    side = float(np.median(sides)) if sides else 0.0
    kept = DIE_SIDE / side if side > 0 else 0.0
    scale = min(1.0, max(MAX_SIDE / longest, kept), LONGEST / longest)
    while True:
        width, height = max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale))
        small = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA) if scale < 1 else image
        for quality in QUALITIES:
            ok, encoded = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
            if ok and encoded.size <= MAX_BYTES:
                return encoded.tobytes(), _sidecar(cut.reading, image.shape[:2], width, height)
        scale *= 0.8


def _sidecar(reading: DiceReading, shape: tuple[int, ...], width: int, height: int) -> dict[str, Any]:
    """The dice in the picture's pixels: scaled as its width and height were, each rounded to a pixel."""
    sx, sy = width / shape[1], height / shape[0]
    dice = [
        replace(d, box=Box(d.box.x0 * sx, d.box.y0 * sy, d.box.x1 * sx, d.box.y1 * sy)).to_json()
        for d in reading.dice
    ]
    return {"format": FORMAT, "width": width, "height": height, "dice": dice}


def write_frame(folder: Path, sighting: Sighting, area: TableArea | None = None) -> str:
    """Keep a sighting as the next frame in `folder` (made if need be); returns its name (`OSError`: none
    was kept). Names are never reused: an undone roll's frame stays for its redo."""
    data, sidecar = encode_frame(sighting, area)
    folder.mkdir(exist_ok=True)
    taken = [int(p.stem) for p in folder.glob("*.jpg") if FRAME_NAME.fullmatch(p.name)]
    name = f"{max(taken, default=0) + 1:04d}.jpg"
    write_whole(folder / name, data)
    write_whole((folder / name).with_suffix(".json"), json.dumps(sidecar))
    return name


class FrameKeeper:
    """One game's frames as it is played: writes the dice the camera settled on (`seen`, or a sighting
    handed over by a demo's table) when a roll is made of them. `off()` keeps none (`--no-frames`)."""

    def __init__(
        self,
        log_path: Path,
        seen: Callable[[], Sighting | None] = lambda: None,
        area: TableArea | None = None,
    ) -> None:
        self.folder: Path | None = frames_dir(log_path)
        self.seen = seen
        self.area = area
        self._warned = False
        self.warning = ""
        """Why the last frame was not kept, until the players were told once (`news`)."""

    @classmethod
    def off(cls) -> FrameKeeper:
        keeper = cls(Path("off"))
        keeper.folder = None
        return keeper

    def keep(self, sighting: Sighting | None = None) -> str:
        """Keep the frame of `sighting` (None: of the dice lying on the table now); its name, or '' where
        none could be kept (the roll goes on without one)."""
        if sighting is None:
            sighting = self.seen()
        if self.folder is None or sighting is None:
            return ""
        try:
            return write_frame(self.folder, sighting, self.area)
        except (OSError, cv2.error) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.warning = f"the camera's frame was not kept ({why}): the game goes on without it"
            return ""

    def discard(self, name: str) -> None:
        """Remove the frame just kept for a roll that was then refused: no frame is left that no move names.
        One that cannot be removed stays (it is only a file too many)."""
        if self.folder is None or not FRAME_NAME.fullmatch(name):
            return
        jpeg = self.folder / name
        for path in (jpeg.with_suffix(".json"), jpeg):
            with suppress(OSError):
                path.unlink(missing_ok=True)

    def news(self) -> str:
        """The first failure to keep a frame, said once; '' after that, and while all went well."""
        if not self.warning or self._warned:
            return ""
        self._warned = True
        return self.warning


@dataclass(frozen=True)
class ShownFrame:
    """A kept frame as read back to be shown: the picture (None: missing or torn), the reader's dice in its
    pixels (read from their own file, so kept where the picture is lost), and what went wrong, if anything,
    said where the picture would be."""

    name: str
    image: Image | None
    dice: tuple[Die, ...] = ()
    problem: str = ""


def load_frame(log_path: Path, name: str) -> ShownFrame:
    """A game's frame `name` with the reader's dice; never raises: a missing or torn picture says so, and the
    reader's dice are still read (a torn picture hid what the reader saw, though their file was intact)."""
    if not FRAME_NAME.fullmatch(name):
        return ShownFrame(name, None, problem=f"frame missing: {name!r} names no frame")
    path = frames_dir(log_path) / name
    image, problem = _picture(path)
    try:
        dice = _dice(read_json(path.with_suffix(".json"), _SIDECAR_LIMITS))
    except (JsonFileError, ValueError, TypeError, KeyError) as exc:
        # A picture lost says so first: without it the boxes have nothing to be drawn on.
        return ShownFrame(name, image, problem=problem or f"the reader's boxes are missing ({exc})")
    return ShownFrame(name, image, dice, problem)


def _picture(path: Path) -> tuple[Image | None, str]:
    """The frame's picture, or None and why it cannot be shown."""
    try:
        data = read_bytes(path, Limits(size=4 * MAX_BYTES))
    except JsonFileError as exc:
        return None, f"frame missing: {exc}"
    image = _decoded(data)
    return image, "" if image is not None else f"frame missing: {path} is torn"


def _decoded(data: bytes) -> Image | None:
    """A whole frame's picture; None for a torn one. A JPEG cut short still decodes (grey below the cut):
    only one that ends as a JPEG ends, within a frame's size (`LONGEST`), is whole."""
    size = image_size(data)
    if size is None or not data.endswith(_JPEG_END) or max(size) > LONGEST:
        return None
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:  # some decoders assert on damaged data instead of failing
        return None
    return None if image is None else np.asarray(image, np.uint8)


def _dice(sidecar: object) -> tuple[Die, ...]:
    """The reader's dice of a sidecar (`ValueError`, `TypeError` or `KeyError` for one that is not)."""
    if not isinstance(sidecar, dict) or sidecar.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} file")
    dice = []
    for item in sidecar["dice"]:
        x0, y0, x1, y1 = (float(v) for v in item["box"])
        kind = item["kind"]
        if kind not in ("pip", "symbol"):
            raise ValueError(f"kind: {kind!r}")
        value = item.get("value")
        face = item.get("face")
        dice.append(
            Die(
                Box(x0, y0, x1, y1),
                kind,
                str(item["color"]),
                float(item["confidence"]),
                int(value) if value is not None else None,
                str(face) if face is not None else None,
            )
        )
    return tuple(dice)


def frame_names(events: list[Any], encode: Callable[[Any], dict[str, Any]]) -> list[tuple[int, str]]:
    """(move, frame) for every event of a game that names a camera frame, in the order played."""
    named = ((n, encode(event).get("frame")) for n, event in enumerate(events))
    return [(n, frame) for n, frame in named if isinstance(frame, str) and frame]
