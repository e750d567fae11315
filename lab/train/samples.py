"""Training samples for the die detector and the pip classifier: real d6-tray photos and rendered scenes,
augmented hard (hue, light, blur, noise, JPEG, scale, rotation) so the models do not fit one tray."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.crops import CROP_MARGIN, crop_square, rescale
from vision.dataset import LabelledImage
from vision.detect import STRIDE, box_array, encode_targets
from vision.images import load_image
from vision.reading import Image
from vision.simulated_table.painters import FacePainter, GlyphPainter, PipPainter
from vision.simulated_table.scene import TRAINING_PAINTERS, random_scene

NOT_A_DIE = 0
"""Classifier label for a crop that is no pip die (table, symbol die, half a die); 1-6 are the pip values."""

Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Photo:
    """A training image, real or rendered, with its dice."""

    image: Image
    boxes: npt.NDArray[np.float64]  # N×4 (x0, y0, x1, y1)
    values: npt.NDArray[np.int64]  # pip value, 0 for a symbol die
    clutter: npt.NDArray[np.float64]  # M×2 (x, y): blobs that are no die, see `clutter_points`
    angles: npt.NDArray[np.float64] | None = None  # each face's in-plane angle (degrees, [0, 90)) if known


@dataclass(frozen=True)
class RealCrop:
    """A crop of one real die: the image and the die's box in it."""

    image: Image
    box: npt.NDArray[np.float64]
    value: int


def clutter_points(image: Image, boxes: npt.NDArray[np.float64], limit: int = 80) -> npt.NDArray[np.float64]:
    """The most blob-like spots of a photo away from every die (tray holes, specks, rims, coins): hard
    negatives, since a detector fires on them first."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    dog = np.abs(cv2.GaussianBlur(grey, (0, 0), 4) - cv2.GaussianBlur(grey, (0, 0), 10))
    peaks = (dog == cv2.dilate(dog, np.ones((25, 25), np.uint8))) & (dog > 3)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-dog[ys, xs])
    points = np.stack([xs[order], ys[order]], 1).astype(np.float64)
    if len(boxes):
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        reach = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        far = (np.hypot(*(points[:, None, :] - centres[None]).transpose(2, 0, 1)) > reach).all(1)
        points = points[far]
    return points[:limit].reshape(-1, 2)


def load_photos(items: list[LabelledImage]) -> list[Photo]:
    photos = []
    for item in items:
        img = load_image(item.image)
        boxes = box_array([d.box for d in item.dice])
        values = np.array([d.value for d in item.dice], np.int64)
        photos.append(Photo(img, boxes, values, clutter_points(img, boxes)))
    return photos


def rendered_photo(rng: np.random.Generator) -> Photo:
    """A random rendered table (pip and glyph dice, varied size and shape) as a training image."""
    long = int(rng.integers(400, 720))
    short = int(long * rng.uniform(0.55, 1.0))
    h, w = (short, long) if rng.random() < 0.7 else (long, short)
    scene = random_scene(rng, h, w, painters=TRAINING_PAINTERS)
    boxes = box_array([d.box for d in scene.dice])
    values = np.array([d.value or 0 for d in scene.dice], np.int64)
    angles = np.array([d.angle for d in scene.dice], np.float64)
    return Photo(scene.image, boxes, values, np.zeros((0, 2)), angles)


def photometric(img: Image, rng: np.random.Generator, hue: bool = True) -> Image:
    """Colour, light and sensor changes: every die colour, casts, gradients, blur, noise, JPEG."""
    out = img
    if hue and rng.random() < 0.8:
        hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
        sat = hsv[..., 1].astype(np.float32) * rng.uniform(0.5, 1.4)
        hsv[..., 1] = np.clip(sat, 0, 255).astype(np.uint8)
        out = np.asarray(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR), np.uint8)
    if rng.random() < 0.3:
        out = out[..., rng.permutation(3)]
    f = out.astype(np.float32)
    h, w = f.shape[:2]
    gain = rng.uniform(0.75, 1.25, 3) * rng.uniform(0.55, 1.35)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    g = rng.uniform(-1, 1, 2) * rng.uniform(0, 0.5)
    f *= (1 + g[0] * (xs / w - 0.5) + g[1] * (ys / h - 0.5))[..., None] * gain.astype(np.float32)
    contrast = rng.uniform(0.7, 1.3)
    f = (f - f.mean()) * contrast + f.mean()
    if rng.random() < 0.3:
        f = 255 * (np.clip(f, 0, 255) / 255) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.35:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.5))
    f += rng.normal(0, rng.uniform(0, 8), f.shape).astype(np.float32)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return out


def turn(
    img: Image,
    boxes: npt.NDArray[np.float64],
    angles: npt.NDArray[np.float64] | None,
    rng: np.random.Generator,
) -> tuple[Image, npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
    """A random quarter turn and mirror: exact for axis-aligned boxes; a face's angle modulo 90° keeps
    through quarter turns and changes sign in the mirror."""
    for _ in range(int(rng.integers(4))):
        img = np.ascontiguousarray(np.rot90(img))  # counter-clockwise: (x, y) -> (y, W - x)
        boxes = np.stack(
            [boxes[:, 1], img.shape[0] - boxes[:, 2], boxes[:, 3], img.shape[0] - boxes[:, 0]], 1
        )
    if rng.random() < 0.5:
        img = np.ascontiguousarray(img[:, ::-1])
        w = img.shape[1]
        boxes = np.stack([w - boxes[:, 2], boxes[:, 1], w - boxes[:, 0], boxes[:, 3]], 1)
        angles = None if angles is None else (-angles) % 90
    return img, boxes, angles


def detector_sample(
    rng: np.random.Generator,
    photos: list[Photo],
    rendered: list[Photo],
    long_side: int,
    size: int,
    real_share: float = 0.5,
) -> tuple[Array, Array, Array, Array]:
    """(image 3×S×S, heat 1×S/4×S/4, regression 6×S/4×S/4, mask 2×S/4×S/4) for one training example: a
    size×size window of a real or rendered frame scaled as the runtime scales it (long side to
    `long_side`), zoomed at random."""
    source = photos if photos and (rng.random() < real_share or not rendered) else rendered
    photo = source[int(rng.integers(len(source)))]
    img, boxes, angles = turn(photo.image, photo.boxes.copy(), photo.angles, rng)
    h, w = img.shape[:2]
    s = long_side / max(h, w) * np.exp(rng.uniform(np.log(0.6), np.log(1.8)))
    img = rescale(img, s)  # as the runtime scales frames (`vision.detect.detector_input`)
    boxes = boxes * s
    h, w = img.shape[:2]
    ox = int(rng.integers(min(0, w - size), max(0, w - size) + 1))
    oy = int(rng.integers(min(0, h - size), max(0, h - size) + 1))
    m = np.array([[1, 0, -ox], [0, 1, -oy]], np.float32)
    fill = tuple(int(x) for x in rng.integers(0, 256, 3))
    img = np.asarray(cv2.warpAffine(img, m, (size, size), borderMode=cv2.BORDER_CONSTANT, borderValue=fill))
    boxes = boxes - [ox, oy, ox, oy]
    img = photometric(img, rng)
    heat, reg, mask = encode_targets(boxes, angles, size, size)
    x = img.transpose(2, 0, 1).astype(np.float32)
    return x, heat, reg, mask


def _negative_centre(rng: np.random.Generator, photo: Photo, side: float) -> tuple[float, float]:
    """A point of a photo at least a die away from every die centre (table, tray rim, clutter)."""
    h, w = photo.image.shape[:2]
    centres = (photo.boxes[:, :2] + photo.boxes[:, 2:]) / 2
    for _ in range(50):
        p = rng.uniform([0, 0], [w, h])
        if len(centres) == 0 or np.min(np.hypot(*(centres - p).T)) > side * 0.9:
            return float(p[0]), float(p[1])
    return float(p[0]), float(p[1])


def classifier_sample(rng: np.random.Generator, photos: list[Photo], out: int) -> tuple[Array, int]:
    """One crop (3×out×out) and its class: 0 not a die, 1-6 pip value."""
    pick = rng.random()
    if pick < 0.55 and photos:
        photo = photos[int(rng.integers(len(photos)))]
        if len(photo.values) == 0:
            return classifier_sample(rng, photos, out)
        i = int(rng.integers(len(photo.values)))
        img, box, label = photo.image, photo.boxes[i], int(photo.values[i])
    elif pick < 0.85:
        painter: FacePainter = PipPainter() if pick < 0.8 else GlyphPainter()
        scene = random_scene(
            rng, 160, 160, n_dice=1, painters=(painter,), side=rng.uniform(22, 60), real_bodies=True
        )
        if not scene.dice:
            return classifier_sample(rng, photos, out)
        d = scene.dice[0]
        img, box = scene.image, box_array([d.box])[0]
        label = int(d.label) if d.kind == "pip" else NOT_A_DIE
    else:
        photo = photos[int(rng.integers(len(photos)))]
        side = float(rng.uniform(18, 70))
        kind = rng.random()
        if kind < 0.4 and len(photo.values):
            # Off-centre on a real die: a detector's stray box must not be read as a die.
            b = photo.boxes[int(rng.integers(len(photo.values)))]
            side = float(max(b[2] - b[0], b[3] - b[1]))
            a = rng.uniform(0, 2 * np.pi)
            r = side * rng.uniform(0.75, 1.1)
            cx, cy = (b[0] + b[2]) / 2 + r * np.cos(a), (b[1] + b[3]) / 2 + r * np.sin(a)
        elif kind < 0.7 and len(photo.clutter):
            cx, cy = photo.clutter[int(rng.integers(len(photo.clutter)))]
            side = float(np.median(photo.boxes[:, 2] - photo.boxes[:, 0])) if len(photo.values) else side
            side *= rng.uniform(0.7, 1.4)
        else:
            cx, cy = _negative_centre(rng, photo, side)
        img, label = photo.image, NOT_A_DIE
        box = np.array([cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2])
    return augmented_crop(rng, img, box, label, out)


def augmented_crop(
    rng: np.random.Generator, img: Image, box: npt.NDArray[np.float64], label: int, out: int
) -> tuple[Array, int]:
    """The crop (3×out×out) of the die in `box` as the detector's loose boxes and the camera would give it:
    off centre, larger or smaller, turned, lit, blurred, noisy."""
    side = max(box[2] - box[0], box[3] - box[1])
    # On d6-tray's training photos the detector's boxes are off centre by 5% of a side (median; 21% at the
    # 99th percentile) and 0.7-1.4 times as large: crops of real dice are cut as loosely, so they still read.
    jit = rng.normal(0, 0.06, 2) * side
    if label != NOT_A_DIE and rng.random() < 0.15:
        jit = rng.uniform(0.1, 0.3) * side * np.array([np.cos(a := rng.uniform(0, 2 * np.pi)), np.sin(a)])
    crop = crop_square(
        img,
        (box[0] + box[2]) / 2 + jit[0],
        (box[1] + box[3]) / 2 + jit[1],
        side * CROP_MARGIN * np.exp(rng.uniform(np.log(0.75), np.log(1.4))),
        2 * out,
        angle=rng.uniform(0, 360),
    )
    if rng.random() < 0.15:  # a die seen smaller than any in the data
        small = int(rng.integers(20, out))
        tiny = cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA)
        crop = np.asarray(cv2.resize(tiny, (2 * out, 2 * out)), np.uint8)
    # Light, blur, noise and JPEG act on a crop twice the input size, as they would on the camera's pixels;
    # at the input size they would wipe out pips no camera loses.
    crop = photometric(np.asarray(crop, np.uint8), rng)
    crop = np.asarray(cv2.resize(crop, (out, out), interpolation=cv2.INTER_AREA), np.uint8)
    if rng.random() < 0.05:
        crop = 255 - crop
    return crop.transpose(2, 0, 1).astype(np.float32), label


__all__ = [
    "NOT_A_DIE",
    "STRIDE",
    "Photo",
    "augmented_crop",
    "classifier_sample",
    "detector_sample",
    "load_photos",
    "rendered_photo",
]
