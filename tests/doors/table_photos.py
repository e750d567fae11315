"""Real photos of dice on a table for the doors' tests, cut from the shipped d6-tray photos (BSD 3-Clause,
see tests/data/d6-tray/LICENSE): a part of a tray photo where exactly one yellow and one blue die lie."""

from __future__ import annotations

from pathlib import Path

import cv2

D6_TRAY = Path(__file__).parents[1] / "data" / "d6-tray"
TRAY_PHOTO = D6_TRAY / "images" / "IMG_20191208_111246.jpg"
YELLOW_AND_BLUE = (slice(340, 490), slice(290, 480))
"""Rows and columns of TRAY_PHOTO holding a yellow 6 and a blue 4 and no other die."""
THROWN = ((6,), (4,))
"""The yellow and blue values those dice show."""


def yellow_and_blue_photos(folder: Path) -> list[Path]:
    """Two photos of the same two dice, the second turned half round (another throw to the camera)."""
    folder.mkdir(parents=True, exist_ok=True)
    part = cv2.imread(str(TRAY_PHOTO))[YELLOW_AND_BLUE]
    paths = [folder / "throw-1.jpg", folder / "throw-2.jpg"]
    cv2.imwrite(str(paths[0]), part)
    cv2.imwrite(str(paths[1]), cv2.rotate(part, cv2.ROTATE_180))
    return paths


def video_of(photo: Path, path: Path, seconds: float, fps: float = 15.0) -> Path:
    """A video file of a still photo (MJPG in AVI, which every OpenCV build writes)."""
    image = cv2.imread(str(photo))
    height, width = image.shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, (width, height))
    for _ in range(round(seconds * fps)):
        writer.write(image)
    writer.release()
    return path
