"""Training samples for the die detector and the pip classifier: real d6-tray photos and rendered scenes,
augmented hard (hue, light, blur, noise, JPEG, scale, rotation) so the models do not fit one tray. numpy only."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.crops import CROP_MARGIN, crop_square
from vision.dataset import LabelledImage
from vision.detect import STRIDE, encode_targets
from vision.reading import Image
from vision.render.painters import GlyphPainter, PipPainter
from vision.render.scene import TRAINING_PAINTERS, random_scene

NOT_A_DIE = 0
"""Classifier label for a crop that is no pip die (table, symbol die, half a die); 1-6 are the pip values."""

Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Photo:
    image: Image
    boxes: npt.NDArray[np.float64]  # N×4 (x0, y0, x1, y1)
    values: npt.NDArray[np.int64]


def load_photos(items: list[LabelledImage]) -> list[Photo]:
    photos = []
    for item in items:
        img = cv2.imread(str(item.image), cv2.IMREAD_COLOR)
        boxes = np.array([[d.box.x0, d.box.y0, d.box.x1, d.box.y1] for d in item.dice], np.float64)
        photos.append(Photo(img, boxes.reshape(-1, 4), np.array([d.value for d in item.dice], np.int64)))
    return photos


def photometric(img: Image, rng: np.random.Generator, hue: bool = True) -> Image:
    """Colour, light and sensor changes: every die colour, casts, gradients, blur, noise, JPEG."""
    out = img
    if hue and rng.random() < 0.8:
        hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
        sat = hsv[..., 1].astype(np.float32) * rng.uniform(0.5, 1.4)
        hsv[..., 1] = np.clip(sat, 0, 255).astype(np.uint8)
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
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
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def turn(img: Image, boxes: npt.NDArray[np.float64], rng: np.random.Generator) -> tuple[Image, npt.NDArray]:
    """A random quarter turn and mirror: exact for axis-aligned boxes."""
    for _ in range(int(rng.integers(4))):
        img = np.ascontiguousarray(np.rot90(img))  # counter-clockwise: (x, y) -> (y, W - x)
        boxes = np.stack(
            [boxes[:, 1], img.shape[0] - boxes[:, 2], boxes[:, 3], img.shape[0] - boxes[:, 0]], 1
        )
    if rng.random() < 0.5:
        img = np.ascontiguousarray(img[:, ::-1])
        w = img.shape[1]
        boxes = np.stack([w - boxes[:, 2], boxes[:, 1], w - boxes[:, 0], boxes[:, 3]], 1)
    return img, boxes


def detector_sample(
    rng: np.random.Generator, photos: list[Photo], size: int, real_share: float = 0.5
) -> tuple[Array, Array, Array, Array]:
    """(image 3×S×S, heat 1×S/4×S/4, regression 6×S/4×S/4, mask 2×S/4×S/4) for one training example."""
    angles: npt.NDArray[np.float64] | None
    if photos and rng.random() < real_share:
        photo = photos[int(rng.integers(len(photos)))]
        img, boxes = turn(photo.image, photo.boxes.copy(), rng)
        angles = None
    else:
        long = int(rng.integers(400, 720))
        short = int(long * rng.uniform(0.55, 1.0))
        h, w = (short, long) if rng.random() < 0.7 else (long, short)
        scene = random_scene(rng, h, w, painters=TRAINING_PAINTERS)
        img = scene.image
        boxes = np.array([[d.box.x0, d.box.y0, d.box.x1, d.box.y1] for d in scene.dice]).reshape(-1, 4)
        angles = np.array([d.angle for d in scene.dice])
    # Scale as the runtime does (long side to `size`), times a random zoom, then a random size×size window.
    h, w = img.shape[:2]
    s = size / max(h, w) * rng.uniform(0.7, 1.6)
    img = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    boxes = boxes * s
    h, w = img.shape[:2]
    ox = int(rng.integers(min(0, w - size), max(0, w - size) + 1))
    oy = int(rng.integers(min(0, h - size), max(0, h - size) + 1))
    m = np.float32([[1, 0, -ox], [0, 1, -oy]])
    fill = tuple(int(x) for x in rng.integers(0, 256, 3))
    img = cv2.warpAffine(img, m, (size, size), borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
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
    if pick < 0.42 and photos:
        photo = photos[int(rng.integers(len(photos)))]
        if len(photo.values) == 0:
            return classifier_sample(rng, photos, out)
        i = int(rng.integers(len(photo.values)))
        img, box, label = photo.image, photo.boxes[i], int(photo.values[i])
    elif pick < 0.8:
        painter = PipPainter() if pick < 0.74 else GlyphPainter()
        scene = random_scene(rng, 160, 160, n_dice=1, painters=(painter,), side=rng.uniform(22, 60))
        if not scene.dice:
            return classifier_sample(rng, photos, out)
        d = scene.dice[0]
        img, box = scene.image, np.array([d.box.x0, d.box.y0, d.box.x1, d.box.y1])
        label = int(d.label) if d.kind == "pip" else NOT_A_DIE
    else:
        photo = photos[int(rng.integers(len(photos)))]
        side = float(rng.uniform(18, 70))
        if rng.random() < 0.5 and len(photo.values):
            # Off-centre on a real die: a detector's stray box must not be read as a die.
            b = photo.boxes[int(rng.integers(len(photo.values)))]
            side = float(max(b[2] - b[0], b[3] - b[1]))
            a = rng.uniform(0, 2 * np.pi)
            r = side * rng.uniform(0.65, 1.0)
            cx, cy = (b[0] + b[2]) / 2 + r * np.cos(a), (b[1] + b[3]) / 2 + r * np.sin(a)
        else:
            cx, cy = _negative_centre(rng, photo, side)
        img, label = photo.image, NOT_A_DIE
        box = np.array([cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2])
    side = max(box[2] - box[0], box[3] - box[1])
    jit = rng.normal(0, 0.05, 2) * side
    crop = crop_square(
        img,
        (box[0] + box[2]) / 2 + jit[0],
        (box[1] + box[3]) / 2 + jit[1],
        side * CROP_MARGIN * rng.uniform(0.88, 1.15),
        out,
        angle=rng.uniform(0, 360),
    )
    if rng.random() < 0.3:
        small = int(rng.integers(12, out))
        crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA), (out, out))
    crop = photometric(crop, rng)
    if rng.random() < 0.15:
        crop = 255 - crop
    return crop.transpose(2, 0, 1).astype(np.float32), label


__all__ = ["NOT_A_DIE", "STRIDE", "Photo", "classifier_sample", "detector_sample", "load_photos"]
