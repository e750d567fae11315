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

from vision.symbols.locate import PATCH, FaceCut

Float = npt.NDArray[np.float32]
Lab = tuple[float, float, float]

CLEAR_MAJORITY = 0.8
"""Share of the rim one colour must have to be taken as the body without help from the taught colour."""


def to_lab(patch: Float) -> Float:
    """BGR 0..255 float pixels (any shape ending in 3) to Lab (L 0..100)."""
    flat = np.clip(patch.reshape(-1, 1, 3) * np.float32(1 / 255), 0, 1).astype(np.float32)
    return np.asarray(cv2.cvtColor(flat, cv2.COLOR_BGR2Lab), np.float32).reshape(patch.shape)


SAME_COLOUR = 12.0
"""Two rim colours nearer than this (Lab) are one colour."""


def rim_colours(rims: Float) -> tuple[Float, Float]:
    """The one or two colours of each face's rim samples (B×N×3 Lab): colours B×2×3 and shares B×2.

    The samples are split in two along their main colour axis where the two groups' means lie furthest
    apart (weighted by size: Otsu's split); the larger group comes first. A rim of one colour gives that
    colour with share 1 (and share 0 for the second).
    """
    n = rims.shape[1]
    mean = rims.mean(axis=1, keepdims=True)
    centred = rims - mean
    _, vectors = np.linalg.eigh(np.einsum("bni,bnj->bij", centred, centred))
    proj = np.einsum("bni,bi->bn", centred, vectors[:, :, -1])
    order = np.argsort(proj, axis=1)
    ranked = np.take_along_axis(proj, order, axis=1)
    low = np.arange(1, n)
    below = np.cumsum(ranked, axis=1)[:, :-1]
    gap = below / low - (ranked.sum(axis=1, keepdims=True) - below) / (n - low)
    split = np.argmax(low * (n - low) * gap * gap, axis=1) + 1  # size of the lower group
    in_low = np.arange(n)[None, :] < split[:, None]
    sorted_rims = np.take_along_axis(rims, order[:, :, None], axis=1)
    low_mean = np.where(in_low[:, :, None], sorted_rims, 0).sum(axis=1) / split[:, None]
    high_mean = np.where(in_low[:, :, None], 0, sorted_rims).sum(axis=1) / (n - split)[:, None]
    low_first = split >= n - split
    first = np.where(low_first[:, None], low_mean, high_mean)
    second = np.where(low_first[:, None], high_mean, low_mean)
    share = np.maximum(split, n - split) / n
    one = np.linalg.norm(first - second, axis=1) < SAME_COLOUR
    first = np.where(one[:, None], mean[:, 0], first)
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


def per_patch(filter_: Callable[[Float], Float], stack: Float, reach: int) -> Float:
    """A filter reaching `reach` pixels applied to each patch of a B×P×P stack as if alone, in one call.

    Each patch gets a mirrored border (as OpenCV's default) and the padded patches are filtered as one tall
    image: no patch's filter reaches into the next one.
    """
    b, n, _ = stack.shape
    padded = np.pad(stack, ((0, 0), (reach, reach), (reach, reach)), mode="reflect")
    side = n + 2 * reach
    out = np.asarray(filter_(padded.reshape(b * side, side)), np.float32).reshape(b, side, side)
    return out[:, reach : reach + n, reach : reach + n]


def _smooth(image: Float) -> Float:
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 0.7), np.float32)  # reaches 3 pixels


def art_maps(patches: Float, bodies: Float) -> Float:
    """Per patch (B×P×P×3 Lab), the distance of every pixel from its body colour, lightly smoothed."""
    diff = patches - bodies[:, None, None, :]
    return per_patch(_smooth, np.sqrt(np.einsum("bxyc,bxyc->bxy", diff, diff)), 3)


def cut_arts(
    cuts: Sequence[FaceCut], taught: Lab | None, clear: float = CLEAR_MAJORITY
) -> tuple[Float, Float]:
    """Art maps (B×P×P) of cut faces, all at once, and the body colour (B×3 Lab) each was measured against."""
    if not cuts:
        return np.zeros((0, PATCH, PATCH), np.float32), np.zeros((0, 3), np.float32)
    patches = to_lab(np.stack([c.patch for c in cuts]))
    bodies = body_colours(to_lab(np.stack([c.rim for c in cuts])), taught, clear)
    return art_maps(patches, bodies), bodies


def to_uint8(art: Float) -> npt.NDArray[np.uint8]:
    """An art map scaled so its strongest art is 255: the compact form kept in a profile."""
    top = max(float(np.percentile(art, 98)), 1e-3)
    return np.asarray(np.clip(art / top * 255, 0, 255), np.uint8)
