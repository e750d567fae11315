"""The die of a teaching photo: a photo of one die alone, however close it is cut."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from vision_data import WEBCAM

from vision.one_die import close_die, teaching_find

TEACHING = sorted((WEBCAM / "teaching").glob("*.jpg"))


@pytest.mark.parametrize("photo", TEACHING, ids=[p.stem for p in TEACHING])
def test_a_die_of_one_or_four_pips_is_not_taken_for_one_of_its_pips(photo: Path) -> None:
    """Red dice of one and four pips, cut 2.4 times their box around them from the angled webcam's scenes:
    the photo as it is and amid a table twice and three times its size showed the detector a die larger than
    the dice it knows, and it found a pip in each; so the looks' median was a pip, and teaching cut a pip's
    blur for the face (its photos then 'did not look like the face's other photos')."""
    image = cv2.imread(str(photo))
    die_side = image.shape[0] / 2.4
    find = teaching_find(image)
    assert find is not None
    x, y = find.box.center
    assert find.side > 0.6 * die_side
    assert abs(x - image.shape[1] / 2) < 0.25 * die_side and abs(y - image.shape[0] / 2) < 0.25 * die_side


@pytest.mark.parametrize("photo", TEACHING, ids=[p.stem for p in TEACHING])
def test_a_close_photo_of_such_a_die_is_one_die_for_teaching_its_colour(photo: Path) -> None:
    """`vision colour` takes a photo cut close around one die as that die's body: amid a table three times
    its size alone, two of these dice were found as a pip, smaller than a close photo's die, so the photo was
    read as a table and each of its pips became a sample of the red dice's colour."""
    image = cv2.imread(str(photo))
    die_side = image.shape[0] / 2.4
    box = close_die(image)
    assert box is not None
    x, y = box.center
    assert min(box.width, box.height) > 0.6 * die_side
    assert abs(x - image.shape[1] / 2) < 0.25 * die_side and abs(y - image.shape[0] / 2) < 0.25 * die_side
