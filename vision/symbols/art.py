"""Turn a cut face patch into an "art map": how far each pixel is from the die's body colour.

Measuring the distance from the body colour (in Lab) instead of brightness makes a white die with black art,
a black die with white art and a red die with yellow art all look alike: art is high, body is low. The body
colour is the majority colour of the face's rim (a band near its edge); when the rim is split about evenly
(art that reaches the edges, as on city faces) the taught body colour decides.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Float = npt.NDArray[np.float32]
Lab = tuple[float, float, float]

CLEAR_MAJORITY = 0.8
"""Share of the rim one colour must have to be taken as the body without help from the taught colour."""


def to_lab(patch: Float) -> Float:
    """BGR 0..255 float pixels (any shape ending in 3) to Lab (L 0..100)."""
    flat = np.clip(patch.reshape(-1, 1, 3) / 255, 0, 1).astype(np.float32)
    return np.asarray(cv2.cvtColor(flat, cv2.COLOR_BGR2Lab), np.float32).reshape(patch.shape)


def rim_colours(rim: Float) -> list[tuple[Lab, float]]:
    """The one or two colours of a face's rim samples (N×3 Lab), with their shares, largest first."""
    mean = rim.mean(axis=0)
    centred = rim - mean
    _, vectors = np.linalg.eigh(centred.T @ centred)
    proj = centred @ vectors[:, -1]
    # Two-means along the main colour axis: start halfway between the extremes, a few refinements.
    cut = float(proj.min() + proj.max()) / 2
    for _ in range(4):
        high = proj > cut
        n_high = int(high.sum())
        if n_high in (0, len(proj)):
            break
        cut = (float(proj[high].mean()) + float(proj[~high].mean())) / 2
    high = proj > cut
    groups = [g for g in (rim[~high], rim[high]) if len(g)]
    if len(groups) == 1 or np.linalg.norm(groups[0].mean(0) - groups[1].mean(0)) < 12:
        return [(_lab(mean), 1.0)]
    groups.sort(key=len, reverse=True)
    return [(_lab(g.mean(axis=0)), len(g) / len(rim)) for g in groups]


def body_colour(rim: Float, taught: Lab | None = None, clear: float = CLEAR_MAJORITY) -> Lab:
    """The die's body colour: the rim's clear majority colour, else the rim colour nearer the taught one.

    A die of another colour than the taught one (the black die of a white set) shows its own body all round
    the rim, so a clear majority wins over the taught colour; art reaching the edges leaves no clear majority.
    """
    colours = rim_colours(rim)
    if colours[0][1] >= clear or taught is None:
        return colours[0][0]
    # Nearer in lightness above all: a yellow or cream die is still "the light one" against black art.
    weights = np.array([1.0, 0.25, 0.25])
    target = np.asarray(taught)
    return min(colours, key=lambda c: float(np.linalg.norm((np.asarray(c[0]) - target) * weights)))[0]


def _lab(values: npt.NDArray[np.floating]) -> Lab:
    return (float(values[0]), float(values[1]), float(values[2]))


def art_map(lab: Float, body: Lab) -> Float:
    """Distance of every pixel from the body colour, lightly smoothed against noise and sampling jitter."""
    dist = np.linalg.norm(lab - np.asarray(body, np.float32), axis=2).astype(np.float32)
    return np.asarray(cv2.GaussianBlur(dist, (0, 0), 0.7), np.float32)


def to_uint8(art: Float) -> npt.NDArray[np.uint8]:
    """An art map scaled so its strongest art is 255: the compact form kept in a profile."""
    top = max(float(np.percentile(art, 98)), 1e-3)
    return np.clip(art / top * 255, 0, 255).astype(np.uint8)
