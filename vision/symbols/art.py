"""Turn a cut face patch into an "art map": how far each pixel is from the die's body colour.

Measuring the distance from the body colour (in Lab) instead of brightness makes a white die with black art,
a black die with white art and a red die with yellow art all look alike: art is high, body is low. The body
colour is the majority colour of the face's rim (a band near its edge); when the rim is split about evenly
(art that reaches the edges, as on city faces) the taught body colour decides. Everything works on all the
cut faces of a frame at once: per-face numpy calls would cost more than the arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.colour import Lab
from vision.symbols.locate import PATCH, FaceCut

Float = npt.NDArray[np.float32]

CLEAR_MAJORITY = 0.8
"""Share of the rim one colour must have to be taken as the body without help from the taught colour."""


def to_lab(patch: Float) -> Float:
    """BGR 0..255 float pixels (any shape ending in 3) to Lab (L 0..100)."""
    # One row of pixels: OpenCV converts row by row, and a column of single pixels costs it seven times more.
    flat = np.clip(patch.reshape(1, -1, 3) * np.float32(1 / 255), 0, 1).astype(np.float32)
    return np.asarray(cv2.cvtColor(flat, cv2.COLOR_BGR2Lab), np.float32).reshape(patch.shape)


SAME_COLOUR = 12.0
"""Two rim colours nearer than this (Lab) are one colour."""


def rim_colours(rims: Float) -> tuple[Float, Float]:
    """The one or two colours of each face's rim samples (B×N×3 Lab): colours B×2×3 and shares B×2.

    The samples are split in two along their main colour axis where the two groups' means lie furthest
    apart (weighted by size: Otsu's split); the larger group comes first. A rim of one colour gives that
    colour with share 1 (and share 0 for the second).
    """
    # Sums over the samples as matrix products: numpy's reductions along a short middle axis are slow.
    n = rims.shape[1]
    total = (rims.transpose(0, 2, 1) @ np.ones((n, 1), np.float32))[:, :, 0]
    mean = total / n
    centred = rims - mean[:, None, :]
    _, vectors = np.linalg.eigh(centred.transpose(0, 2, 1) @ centred)
    proj = (centred @ vectors[:, :, -1:])[:, :, 0]
    order = np.argsort(proj, axis=1)
    ranked = np.take_along_axis(proj, order, axis=1)
    low = np.arange(1, n)
    below = np.cumsum(ranked, axis=1)[:, :-1]
    gap = below / low - (ranked.sum(axis=1, keepdims=True) - below) / (n - low)
    split = np.argmax(low * (n - low) * gap * gap, axis=1) + 1  # size of the lower group
    in_low = np.zeros(proj.shape, np.float32)
    np.put_along_axis(in_low, order, (np.arange(n)[None, :] < split[:, None]).astype(np.float32), axis=1)
    low_sum = (in_low[:, None, :] @ rims)[:, 0]
    low_mean = low_sum / split[:, None]
    high_mean = (total - low_sum) / (n - split)[:, None]
    low_first = split >= n - split
    first = np.where(low_first[:, None], low_mean, high_mean)
    second = np.where(low_first[:, None], high_mean, low_mean)
    share = np.maximum(split, n - split) / n
    one = np.linalg.norm(first - second, axis=1) < SAME_COLOUR
    first = np.where(one[:, None], mean, first)
    share = np.where(one, 1.0, share)
    colours = np.stack([first, second], axis=1).astype(np.float32)
    return colours, np.stack([share, 1 - share], axis=1).astype(np.float32)


def body_colours(rims: Float, taught: Lab | None = None, clear: float = CLEAR_MAJORITY) -> Float:
    """Each die's body colour (B×3 Lab) from its rim samples (B×N×3 Lab).

    The rim's clear majority colour, else (art reaching the edges leaves no clear majority) the rim colour
    nearer the taught body colour. A die of another colour than the taught one (the black die of a white
    set) shows its own body all round the rim, so a clear majority wins over the taught colour.
    """
    colours, shares = rim_colours(rims)
    if taught is None:
        return colours[:, 0]
    # Nearer in lightness above all: a yellow or cream die is still "the light one" against black art.
    weights = np.array([1.0, 0.25, 0.25], np.float32)
    off = np.linalg.norm((colours - np.asarray(taught, np.float32)) * weights, axis=2)
    nearer = np.where(shares[:, 1] > 0, np.argmin(off, axis=1), 0)
    pick = np.where(shares[:, 0] >= clear, 0, nearer)
    return np.asarray(colours[np.arange(len(colours)), pick], np.float32)


MAX_CHANNELS = 128
"""The most channels OpenCV (5) takes in one image."""


def per_patch(filter_: Callable[[Float], Float], stack: Float) -> Float:
    """An OpenCV filter applied to each patch of a B×P×P stack as if alone, in one call per 128 patches.

    The patches become the channels of one P×P image: OpenCV filters each channel on its own, mirroring its
    border, so no patch's filter reaches into another.
    """
    out = np.empty_like(stack, dtype=np.float32)
    for start in range(0, len(stack), MAX_CHANNELS):
        part = np.ascontiguousarray(stack[start : start + MAX_CHANNELS].transpose(1, 2, 0))
        filtered = np.asarray(filter_(part), np.float32).reshape(part.shape)  # one channel comes back 2-D
        out[start : start + MAX_CHANNELS] = filtered.transpose(2, 0, 1)
    return out


def _smooth(image: Float) -> Float:
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 0.7), np.float32)


def art_maps(patches: Float, bodies: Float) -> Float:
    """Per patch (B×P×P×3 Lab), the distance of every pixel from its body colour, lightly smoothed."""
    b, h, w, _ = patches.shape
    # Each patch's body colour repeated along its flat row: numpy broadcasts a 3-vector over pixels slowly.
    diff = patches.reshape(b, -1) - np.tile(bodies, (1, h * w))
    distance = np.sqrt((diff * diff).reshape(-1, 3) @ np.ones(3, np.float32)).reshape(b, h, w)
    return per_patch(_smooth, distance)


def cut_arts(
    cuts: Sequence[FaceCut], taught: Lab | None, clear: float = CLEAR_MAJORITY
) -> tuple[Float, Float]:
    """Art maps (B×P×P) of cut faces, all at once, and the body colour (B×3 Lab) each was measured against."""
    if not cuts:
        return np.zeros((0, PATCH, PATCH), np.float32), np.zeros((0, 3), np.float32)
    # Patches and rims through one colour conversion.
    n = PATCH * PATCH
    pixels = to_lab(
        np.concatenate(
            [np.stack([c.patch.reshape(n, 3) for c in cuts]), np.stack([c.rim for c in cuts])], axis=1
        )
    )
    patches = pixels[:, :n].reshape(len(cuts), PATCH, PATCH, 3)
    bodies = body_colours(pixels[:, n:], taught, clear)
    return art_maps(patches, bodies), bodies


def to_uint8(art: Float) -> npt.NDArray[np.uint8]:
    """An art map scaled so its strongest art is 255: the compact form kept in a profile."""
    top = max(float(np.percentile(art, 98)), 1e-3)
    return np.asarray(np.clip(art / top * 255, 0, 255), np.uint8)
