"""Compose a table scene: a table texture, dice with faces from painters, light, lens and sensor effects."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.reading import Box, Image, Kind
from vision.simulated_table.painters import BGR, FacePainter, GlyphPainter, PipPainter

# Body colours per palette name (BGR); each is jittered when used so no two scenes share exact colours.
BODY_COLOURS: dict[str, tuple[BGR, ...]] = {
    "yellow": ((30, 210, 240), (0, 195, 230), (70, 230, 250), (20, 180, 215)),
    "blue": ((180, 60, 20), (200, 110, 30), (130, 40, 10), (230, 150, 60)),
    "red": ((40, 40, 200), (30, 20, 160), (70, 60, 230)),
    "green": ((60, 160, 30), (90, 190, 60), (40, 120, 20), (120, 170, 0)),
    "white": ((240, 240, 240), (222, 230, 235), (250, 250, 250)),
    "black": ((25, 25, 25), (45, 40, 40), (15, 15, 20)),
    "purple": ((120, 40, 100), (160, 70, 130), (100, 20, 70)),
    "orange": ((30, 120, 240), (20, 100, 220), (50, 140, 250)),
    "other": ((40, 70, 120), (180, 150, 240), (140, 140, 140), (90, 140, 160)),
}

Corners = npt.NDArray[np.float64]
"""Four (x, y) corners of a die's top face in image pixels, clockwise from the painted face's top-left."""


@dataclass(frozen=True)
class DieSpec:
    """What a die looks like: which painter draws it, the face it shows, its colours."""

    painter: FacePainter
    label: str
    color: str
    body: BGR
    ink: BGR
    marbled: bool = False
    translucent: bool = False  # the faces under the top one show faintly through the body
    painted_sides: bool = False  # side faces show their own pips or art, as a real die seen at an angle does


@dataclass(frozen=True)
class Placement:
    """Where a die lies: centre and side in pixels, in-plane angle in degrees, lift (0 on the table)."""

    cx: float
    cy: float
    side: float
    angle: float
    lift: float = 0.0


@dataclass(frozen=True)
class Look:
    """Everything about a scene that is not the dice: camera tilt, light, lens and sensor."""

    side_dir: tuple[float, float]  # how far, per unit of die side, the side faces show (camera angle)
    light_dir: tuple[float, float]  # shadow offset per unit of die side
    gain: tuple[float, float, float]  # colour cast, per BGR channel
    gradient: tuple[float, float, float]  # light falloff across the frame: (gx, gy, strength)
    tilt: float  # perspective keystone of the whole frame, 0 = straight down
    blur: float
    noise: float
    jpeg: int  # JPEG quality; 100 = none
    specular: float  # chance of a glint on a die


@dataclass(frozen=True)
class TrueDie:
    """The truth for one rendered die."""

    box: Box
    kind: Kind
    label: str
    color: str
    angle: float  # in-plane rotation of the face, degrees in [0, 90)
    corners: Corners

    @property
    def value(self) -> int | None:
        return int(self.label) if self.kind == "pip" else None


@dataclass(frozen=True)
class Scene:
    """A rendered image and the truth for every die in it."""

    image: Image
    dice: tuple[TrueDie, ...]


def jitter(colour: BGR, rng: np.random.Generator, amount: float = 18) -> BGR:
    c = np.clip(np.array(colour, float) + rng.normal(0, amount / 2, 3), 0, 255).astype(int)
    return (int(c[0]), int(c[1]), int(c[2]))


def ink_for(body: BGR, rng: np.random.Generator) -> BGR:
    """Dark pips on light dice, light pips on dark dice; sometimes a coloured or gold ink."""
    luma = 0.114 * body[0] + 0.587 * body[1] + 0.299 * body[2]
    if rng.random() < 0.1:
        return jitter((30, 30, 200) if luma > 140 else (60, 190, 220), rng)
    return jitter((25, 25, 25), rng, 20) if luma > 140 else jitter((240, 240, 240), rng, 15)


def random_die(
    painter: FacePainter, rng: np.random.Generator, color: str | None = None, real_bodies: bool = False
) -> DieSpec:
    """A die of random colour and face; `real_bodies` paints its sides and makes some translucent, the
    pips a reader must not count (off by default so the demos' tables stay as their tests measured them)."""
    colour = color or str(rng.choice(list(BODY_COLOURS)))
    options = BODY_COLOURS[colour]
    body = jitter(options[int(rng.integers(len(options)))], rng)
    label = str(rng.choice(list(painter.labels)))
    return DieSpec(
        painter,
        label,
        colour,
        body,
        ink_for(body, rng),
        marbled=rng.random() < 0.1,
        translucent=real_bodies and rng.random() < 0.2,
        painted_sides=real_bodies,
    )


def other_faces(spec: DieSpec, rng: np.random.Generator) -> tuple[str, str, str]:
    """Labels for the face under the top one and two neighbouring side faces: for pips as on a real d6
    (opposite faces sum to 7), for other art any other labels."""
    labels = list(spec.painter.labels)
    if spec.painter.kind == "pip":
        top = int(spec.label)
        sides = [v for v in range(1, 7) if v not in (top, 7 - top)]
        first = int(rng.choice(sides))
        second = int(rng.choice([v for v in sides if v not in (first, 7 - first)]))
        return str(7 - top), str(first), str(second)
    rest = [x for x in labels if x != spec.label] or labels
    under, one, other = (str(x) for x in rng.choice(rest, 3))
    return under, one, other


def see_through(face: Image, under: Image, rng: np.random.Generator) -> Image:
    """A translucent body: the face beneath, mirrored as seen through the die, blurred and faint."""
    n = face.shape[0]
    ghost = cv2.GaussianBlur(under[:, ::-1], (0, 0), max(0.5, n * rng.uniform(0.02, 0.06)))
    return np.asarray(cv2.addWeighted(face, 1.0 - (w := rng.uniform(0.12, 0.35)), ghost, w, 0), np.uint8)


def random_table(rng: np.random.Generator, height: int, width: int) -> Image:
    """A table texture: grey tray, white sheet, wood, felt, dark top or clutter, with low-frequency noise."""

    def lowfreq(cells: int) -> npt.NDArray[np.float32]:
        small = rng.normal(0, 1, (cells, cells)).astype(np.float32)
        return np.asarray(cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC), np.float32)

    kind = rng.choice(["grey", "white", "wood", "felt", "dark", "clutter", "plain"])
    base = {
        "grey": (175, 178, 180),
        "white": (225, 228, 230),
        "wood": (60, 110, 160),
        "felt": tuple(int(x) for x in rng.integers(20, 140, 3)),
        "dark": (40, 40, 45),
        "clutter": tuple(int(x) for x in rng.integers(60, 220, 3)),
        "plain": tuple(int(x) for x in rng.integers(0, 256, 3)),
    }[str(kind)]
    img = np.empty((height, width, 3), np.float32)
    img[:] = jitter(base, rng, 30)  # type: ignore[arg-type]
    img += lowfreq(4)[..., None] * rng.uniform(2, 12)
    if kind == "wood":
        x = np.linspace(0, rng.uniform(20, 60), width, dtype=np.float32)[None, :] + lowfreq(6) * 3
        img *= (1 + 0.18 * np.sin(x))[..., None]
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.rot90(cv2.resize(img, (height, width))))
    elif kind == "clutter":
        for _ in range(int(rng.integers(3, 12))):
            c = jitter(tuple(int(x) for x in rng.integers(0, 256, 3)), rng)  # type: ignore[arg-type]
            p = rng.integers(0, [width, height], size=2)
            r = int(rng.integers(10, max(11, width // 4)))
            cv2.circle(img, (int(p[0]), int(p[1])), r, c, -1)
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), rng.uniform(3, 15)), np.float32)
    grain = rng.normal(0, rng.uniform(1, 7), (height, width, 1)).astype(np.float32)
    img += cv2.GaussianBlur(grain, (0, 0), rng.uniform(0.5, 2))[..., None]
    if rng.random() < 0.4:
        add_distractors(img, rng)
    return np.clip(img, 0, 255).astype(np.uint8)


def add_distractors(img: npt.NDArray[np.float32], rng: np.random.Generator) -> None:
    """Things on a game table that are not dice: cards, coins, pencils, a tray rim."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 5))):
        c = jitter(tuple(int(x) for x in rng.integers(0, 256, 3)), rng)  # type: ignore[arg-type]
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        pick = rng.integers(0, 4)
        if pick == 0:
            s = int(rng.integers(w // 8, w // 3))
            cv2.rectangle(img, (x, y), (x + s, y + int(s * 1.4)), c, -1)
        elif pick == 1:
            cv2.circle(img, (x, y), int(rng.integers(6, 30)), c, -1, cv2.LINE_AA)
        elif pick == 2:
            end = (x + int(rng.integers(-w // 3, w // 3)), y + int(rng.integers(-h // 3, h // 3)))
            cv2.line(img, (x, y), end, c, int(rng.integers(3, 12)), cv2.LINE_AA)
        else:
            m = int(rng.integers(5, 40))
            cv2.rectangle(img, (m, m), (w - m, h - m), c, int(rng.integers(4, 20)))


def random_look(rng: np.random.Generator) -> Look:
    angled = rng.random() < 0.4
    mag = rng.uniform(0.08, 0.35) if angled else rng.uniform(0.0, 0.06)
    a = rng.uniform(0, 2 * np.pi)
    b = rng.uniform(0, 2 * np.pi)
    cast = rng.uniform(0.8, 1.2, 3) if rng.random() < 0.6 else np.ones(3)
    return Look(
        side_dir=(mag * np.cos(a), mag * np.sin(a)),
        light_dir=(rng.uniform(0.05, 0.25) * np.cos(b), rng.uniform(0.05, 0.25) * np.sin(b)),
        gain=(float(cast[0]), float(cast[1]), float(cast[2])),
        gradient=(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0, 0.45)),
        tilt=rng.uniform(0.0, 0.25) if angled else 0.0,
        blur=0.0 if rng.random() < 0.5 else rng.uniform(0.3, 1.6),
        noise=rng.uniform(0, 9),
        jpeg=100 if rng.random() < 0.5 else int(rng.integers(35, 95)),
        specular=rng.uniform(0, 0.5),
    )


def face_corners(p: Placement) -> Corners:
    t = np.deg2rad(p.angle)
    c, s = np.cos(t), np.sin(t)
    h = p.side / 2
    local = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    rot = np.array([[c, -s], [s, c]])
    return np.asarray(local @ rot.T + [p.cx, p.cy], np.float64)


def rounded_mask(size: int, radius: float) -> npt.NDArray[np.float32]:
    mask = np.zeros((size, size), np.uint8)
    r = max(1, int(radius))
    cv2.rectangle(mask, (r, 0), (size - 1 - r, size - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (size - 1, size - 1 - r), 255, -1)
    for cx in (r, size - 1 - r):
        for cy in (r, size - 1 - r):
            cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return np.asarray(mask / np.float32(255), np.float32)


def marble(face: Image, rng: np.random.Generator) -> Image:
    n = face.shape[0]
    swirl = cv2.resize(rng.normal(0, 1, (5, 5)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC)
    other = np.array(jitter(tuple(int(x) for x in rng.integers(0, 256, 3)), rng), np.float32)  # type: ignore[arg-type]
    w = np.clip(np.abs(np.sin(swirl * 3)), 0, 1)[..., None] * 0.5
    return np.clip(face * (1 - w) + other * w, 0, 255).astype(np.uint8)


def draw_die(
    canvas: npt.NDArray[np.float32], spec: DieSpec, place: Placement, look: Look, rng: np.random.Generator
) -> Corners:
    """Draw shadow, sides and top face of one die onto a float canvas; return its top-face corners."""
    top = face_corners(place)
    height = place.side * (1 + place.lift)
    base = top - np.array(look.side_dir) * height
    shadow = base + np.array(look.light_dir) * place.side * (1 + 3 * place.lift)
    ph, pw = canvas.shape[:2]

    def poly_alpha(points: npt.NDArray[np.float64], blur: float) -> tuple[npt.NDArray[np.float32], int, int]:
        hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
        pad = int(blur * 3) + 2
        x0, y0 = np.floor(hull.min(0)).astype(int) - pad
        x1, y1 = np.ceil(hull.max(0)).astype(int) + pad
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.fillConvexPoly(mask, ((hull - [x0, y0]) * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
        if blur > 0:
            mask = cv2.GaussianBlur(mask, (0, 0), blur)
        return mask, int(x0), int(y0)

    def blend(mask: npt.NDArray[np.float32], x0: int, y0: int, colour: npt.NDArray[np.float32]) -> None:
        cx0, cy0 = max(x0, 0), max(y0, 0)
        cx1, cy1 = min(x0 + mask.shape[1], pw), min(y0 + mask.shape[0], ph)
        if cx1 <= cx0 or cy1 <= cy0:
            return
        m = mask[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0, None]
        region = canvas[cy0:cy1, cx0:cx1]
        if colour.ndim == 1:
            region *= 1 - m
            region += m * colour
        else:
            region[:] = region * (1 - m) + m * colour[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]

    # Shadow: darken what lies under a soft copy of the footprint.
    mask, x0, y0 = poly_alpha(np.vstack([shadow, base]), place.side * 0.12)
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x0 + mask.shape[1], pw), min(y0 + mask.shape[0], ph)
    if cx1 > cx0 and cy1 > cy0:
        canvas[cy0:cy1, cx0:cx1] *= 1 - 0.45 * mask[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0, None]

    size = max(8, int(np.ceil(place.side)))
    src = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)

    def warped(
        face: Image, alpha: npt.NDArray[np.float32], quad: Corners
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], int, int, tuple[int, int]]:
        x0, y0 = np.floor(quad.min(0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
        warp = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
        dsize = (int(x1 - x0), int(y1 - y0))
        face_w = cv2.warpPerspective(face, warp, dsize, flags=cv2.INTER_AREA).astype(np.float32)
        alpha_w = np.asarray(cv2.warpPerspective(alpha, warp, dsize, flags=cv2.INTER_LINEAR), np.float32)
        return face_w, alpha_w, int(x0), int(y0), dsize

    def painted(label: str) -> Image:
        face = spec.painter.paint(label, size, spec.body, spec.ink, rng)
        return marble(face, rng) if spec.marbled else face

    under, *beside = other_faces(spec, rng) if spec.translucent or spec.painted_sides else ("", "", "")
    body = np.array(spec.body, np.float32)
    if np.hypot(*look.side_dir) > 0.01 or place.lift > 0:
        mask, x0, y0 = poly_alpha(np.vstack([top, base]), 0.6)
        shade = rng.uniform(0.45, 0.8)
        blend(mask, x0, y0, body * shade)
        if spec.painted_sides and np.hypot(*(top[0] - base[0])) > 1.5:
            centre = top.mean(0)
            edges = [(i, (i + 1) % 4) for i in range(4)]
            shown = [(i, j) for i, j in edges if np.dot((top[i] + top[j]) / 2 - centre, base[0] - top[0]) > 0]
            flat = np.ones((size, size), np.float32)
            for (i, j), label in zip(shown, beside, strict=False):
                side_w, side_a, sx, sy, _ = warped(
                    painted(label), flat, np.array([top[i], top[j], base[j], base[i]])
                )
                blend(side_a, sx, sy, np.clip(side_w * shade, 0, 255))

    face = painted(spec.label)
    if spec.translucent:
        face = see_through(face, painted(under), rng)
    alpha = rounded_mask(size, size * rng.uniform(0.06, 0.22))
    face_w, alpha_w, x0, y0, dsize = warped(face, alpha, top)
    if rng.random() < look.specular:
        glint = np.zeros_like(alpha_w)
        gx, gy = rng.uniform(0.2, 0.8, 2) * dsize
        cv2.circle(glint, (int(gx), int(gy)), max(1, int(place.side * 0.12)), 1.0, -1)
        face_w += cv2.GaussianBlur(glint, (0, 0), place.side * 0.08)[..., None] * 160
    blend(alpha_w, int(x0), int(y0), np.clip(face_w, 0, 255))
    return top


def finish(
    canvas: npt.NDArray[np.float32], look: Look, rng: np.random.Generator
) -> tuple[Image, npt.NDArray[np.float64]]:
    """Light, camera tilt, blur, noise and JPEG; returns the image and the 3×3 tilt warp applied."""
    h, w = canvas.shape[:2]
    gx, gy, strength = look.gradient
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    field = 1 + strength * ((xs / w - 0.5) * gx + (ys / h - 0.5) * gy)
    canvas *= field[..., None] * np.array(look.gain, np.float32)
    warp = np.eye(3)
    if look.tilt > 0:
        # Keystone: the near edge of the table looks wider than the far one. The near corners move outwards,
        # so the warped table still fills the frame (no border to invent) and dice near it may leave it.
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        dst = src.copy()
        i = int(rng.integers(4))
        j = (i + 1) % 4
        f = look.tilt * 0.5
        dst[i] -= (src[j] - src[i]) * f
        dst[j] -= (src[i] - src[j]) * f
        warp = np.asarray(cv2.getPerspectiveTransform(src, dst), np.float64)
        canvas = np.asarray(
            cv2.warpPerspective(canvas, warp, (w, h), borderMode=cv2.BORDER_REPLICATE), np.float32
        )
    if look.blur > 0:
        canvas = np.asarray(cv2.GaussianBlur(canvas, (0, 0), look.blur), np.float32)
    if look.noise > 0:  # the normal draws are most of a frame's cost: a look without noise draws none
        canvas += rng.normal(0, look.noise, canvas.shape).astype(np.float32)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    if look.jpeg < 100:
        _, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
        image = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return image, np.asarray(warp, np.float64)


MOSTLY_SEEN = 0.6
"""A die cut by the frame edge is in the truth only if this share of its box is inside the frame."""


def draw_scene(
    table: Image, dice: Sequence[tuple[DieSpec, Placement]], look: Look, rng: np.random.Generator
) -> Scene:
    """Draw dice (in order, later on top) on a table and return the image with the truth for each die that is
    mostly inside the frame."""
    canvas = table.astype(np.float32)
    drawn = [(spec, place, draw_die(canvas, spec, place, look, rng)) for spec, place in dice]
    image, warp = finish(canvas, look, rng)
    truth = []
    for spec, place, top in drawn:
        base = top - np.array(look.side_dir) * place.side * (1 + place.lift)
        hull = cv2.perspectiveTransform(np.vstack([top, base]).reshape(-1, 1, 2), warp).reshape(-1, 2)
        corners = np.asarray(cv2.perspectiveTransform(top.reshape(-1, 1, 2), warp), np.float64).reshape(-1, 2)
        x0, y0 = np.clip(hull.min(0), 0, [table.shape[1], table.shape[0]])
        x1, y1 = np.clip(hull.max(0), 0, [table.shape[1], table.shape[0]])
        full = np.prod(hull.max(0) - hull.min(0))
        if (x1 - x0) * (y1 - y0) < MOSTLY_SEEN * full:
            continue  # out of the frame, or too little of it in to be read
        truth.append(
            TrueDie(
                Box(float(x0), float(y0), float(x1), float(y1)),
                spec.painter.kind,
                spec.label,
                spec.color,
                float(place.angle % 90),
                corners,
            )
        )
    return Scene(image, tuple(truth))


def scatter(
    rng: np.random.Generator, n: int, height: int, width: int, side: float, margin: float = 1.0
) -> list[Placement]:
    """Up to n non-overlapping placements of dice of about `side` pixels inside the frame."""
    places: list[Placement] = []
    for _ in range(n * 30):
        if len(places) == n:
            break
        s = side * rng.uniform(0.85, 1.15)
        pad = s * margin
        if width <= 2 * pad or height <= 2 * pad:
            break
        cx, cy = rng.uniform(pad, width - pad), rng.uniform(pad, height - pad)
        if all(np.hypot(cx - p.cx, cy - p.cy) > (s + p.side) * 0.78 for p in places):
            places.append(Placement(cx, cy, s, rng.uniform(0, 360)))
    return places


def random_scene(
    rng: np.random.Generator,
    height: int = 480,
    width: int = 640,
    n_dice: int | None = None,
    painters: Sequence[FacePainter] = (PipPainter(),),
    colors: Sequence[str] | None = None,
    side: float | None = None,
    real_bodies: bool = False,
) -> Scene:
    """A random table with random dice: the renderer's main entry for training, tests and benchmarks."""
    n = int(rng.integers(1, 20)) if n_dice is None else n_dice
    side = side or rng.uniform(0.03, 0.11) * min(height, width) * rng.choice([1, 1, 1.6])
    places = scatter(rng, n, height, width, side)
    dice = [
        (
            random_die(
                painters[int(rng.integers(len(painters)))],
                rng,
                str(rng.choice(colors)) if colors else None,
                real_bodies,
            ),
            p,
        )
        for p in places
    ]
    return draw_scene(random_table(rng, height, width), dice, random_look(rng), rng)


TRAINING_PAINTERS: tuple[FacePainter, ...] = (PipPainter(), PipPainter(), PipPainter(), GlyphPainter())
"""Pip dice mostly, some symbol-like dice: the detector must find both."""
