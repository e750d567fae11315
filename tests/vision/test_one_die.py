"""The die of a teaching photo: a photo of one die alone, however close it is cut."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from vision_data import CASINO_CLOSE, WEBCAM

from vision.detect import Detection
from vision.one_die import close_die, die_of, teaching_find
from vision.reading import Box, Image

PHOTOS = [(p, 2.4) for p in sorted((WEBCAM / "teaching").glob("*.jpg"))] + [
    (p, 1.1) for p in sorted(CASINO_CLOSE.glob("*.png"))
]
"""Photos each cut around one die so many times its side.

- The angled webcam's red dice of one and four pips, cut 2.4 times their box: the photo as it is and amid a
  table twice and three times its size showed the detector a die larger than the dice it knows, and it found
  a pip in each; so the looks' median was a pip, and teaching cut a pip's blur for the face (its photos then
  'did not look like the face's other photos').
- Translucent casino dice cut 1.1 times their box: the narrower looks found a speck of the felt at a corner
  surer than anything else, and two such specks agreed in size against the widest look's die."""
IDS = [p.stem for p, _ in PHOTOS]


def die_in_the_middle(image: Image, times: float, box: Box) -> None:
    die_side = image.shape[0] / times
    x, y = box.center
    assert min(box.width, box.height) > 0.6 * die_side
    assert abs(x - image.shape[1] / 2) < 0.25 * die_side and abs(y - image.shape[0] / 2) < 0.25 * die_side


@pytest.mark.parametrize(("photo", "times"), PHOTOS, ids=IDS)
def test_teaching_takes_the_die_not_a_pip_or_a_speck_beside_it(photo: Path, times: float) -> None:
    image = cv2.imread(str(photo))
    find = teaching_find(image)
    assert find is not None
    die_in_the_middle(image, times, find.box)


@pytest.mark.parametrize(("photo", "times"), PHOTOS, ids=IDS)
def test_a_close_photo_of_such_a_die_is_one_die_for_teaching_its_colour(photo: Path, times: float) -> None:
    """`vision colour` takes a photo cut close around one die as that die's body; where it took a pip or a
    speck for the die, the photo was read as a table (each pip a sample of the dice's colour) or gave none."""
    image = cv2.imread(str(photo))
    box = close_die(image)
    assert box is not None
    die_in_the_middle(image, times, box)


def found(x: float, y: float, side: float, score: float) -> Detection:
    return Detection(Box(x - side / 2, y - side / 2, x + side / 2, y + side / 2), score, 0.0)


def test_a_die_small_in_a_wide_photo_is_not_dropped_beside_the_photo_s_corner_found_as_a_die() -> None:
    """In a photo sixteen times a webcam die's side (a camera's frame), the widest look found a corner of the
    photo against its table as a die four times the die's size, unsurely (the widest look's finds of such
    photos, made up here in their sizes and scores). The surest find, not the largest, is what a speck is
    judged against: judged against the largest, the die went for a speck."""
    die = found(640, 640, 80, 0.85)
    looks = {
        1: [die],
        2: [found(641, 639, 78, 0.83)],
        3: [found(640, 641, 81, 0.84)],
        5: [found(300, 200, 350, 0.59)],
    }
    assert die_of(looks) == die
