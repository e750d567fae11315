"""`python -m calibration.faces --camera N` keeps each face's pictures from the moment Enter is pressed: the
player turns the die to the next face while the prompt waits. Read through the grabber (a thread that holds
a frame, and one more waiting to be put, while the prompt waits), the first picture kept of every face after
the first was the frame taken before the prompt: a picture of the previous face, in this face's folder."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

import calibration.faces as faces
from vision.reading import Frame

LABELS = ("arrow", "moon", "key")


class LiveCamera:
    """A webcam that shows, at each moment, the face the player was last asked for (a shade per face)."""

    def __init__(self, device: object, *_: object) -> None:
        self.shown = 0
        self.closed = False

    def __iter__(self) -> Iterator[Frame]:
        start, index = time.monotonic(), 0
        while not self.closed:
            time.sleep(1 / 30)
            index += 1
            image = np.full((16, 16, 3), 40 * self.shown, np.uint8)
            yield Frame(image=image, time=time.monotonic() - start, index=index)

    def close(self) -> None:
        self.closed = True


def test_every_picture_of_a_face_is_taken_after_it_was_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cameras: list[LiveCamera] = []

    def camera(device: object, *rest: object) -> LiveCamera:
        cameras.append(LiveCamera(device, *rest))
        return cameras[-1]

    def enter_pressed(prompt: str) -> str:
        # The player reads the prompt, turns the die to the face asked for, and presses Enter once it lies
        # still.
        time.sleep(0.25)
        cameras[0].shown = next(n for n, label in enumerate(LABELS, 1) if repr(label) in prompt)
        time.sleep(0.25)
        return ""

    capture = faces.capture_faces
    monkeypatch.setattr(faces, "CameraSource", camera)
    monkeypatch.setattr(
        faces, "capture_faces", lambda *a, **k: capture(*a, **{**k, "ask": enter_pressed, "per_face": 4})
    )
    monkeypatch.setattr(faces, "run_enroll", lambda args, keep, labels: 0)
    keep = tmp_path / "pictures"
    argv = ["--camera", "0", "--faces", *LABELS, "--seconds", "0.3", "--keep", str(keep)]
    assert faces.main([*argv, "--out", str(tmp_path / "profile.json")]) == 0
    shades = {
        label: [int(cv2.imread(str(p))[0, 0, 0]) for p in sorted((keep / label).glob("*.png"))]
        for label in LABELS
    }
    assert shades == {label: [40 * n] * 4 for n, label in enumerate(LABELS, 1)}, shades
