"""A colour profile: the game's own dice colours as this table's camera and light show them.

Taught by showing the dice (`python -m vision colour --out PROFILE.json COLOURS_DIR`, one folder per colour
name with photos of dice of that colour); each colour keeps the mean and covariance of its dice's body colour
in Lab, and a die is named after the nearest colour by Mahalanobis distance. Saved as JSON, validated on load.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
import numpy.typing as npt

from jsonfile import JsonFileError, is_whole_number, read_json, refuse_unknown, short, shown
from jsonfile.whole import write_whole
from vision.colour import body_lab
from vision.images import ImageError, image_files, load_image
from vision.one_die import close_die
from vision.reading import PALETTE, Box, Image

FORMAT = "dice-colour-profile/1"
MIN_SAMPLES = 3
"""Dice needed per colour: fewer cannot give a spread."""
SPREAD_FLOOR = 2.0
"""Smallest standard deviation (Lab units) kept per axis, so a few identical samples do not make a colour
infinitely strict."""
OUTLIER = 4.0
"""Teaching samples further than this many robust deviations (scaled MAD) from the median are dropped."""
GATE, WIDE_GATE, RATIO = 6.0, 20.0, 0.6
"""Mahalanobis distances for naming a die after a profile colour (see `ColourProfile.name`)."""
LARGEST = 1e6
"""No mean or covariance entry is larger (Lab's axes span about 200): a larger one is a damaged file."""


class ColourProfileError(ValueError):
    """A profile file or teaching set that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class ColourStats:
    """One colour of the profile: mean Lab, covariance 3×3, number of dice it was taught from."""

    mean: tuple[float, float, float]
    covariance: tuple[tuple[float, float, float], ...]  # 3 rows
    samples: int

    def lab_text(self) -> str:
        """The mean as people read it, L a b in whole numbers: `52 -6 26`."""
        return " ".join(f"{v:.0f}" for v in self.mean)


@dataclass(frozen=True)
class ColourProfile:
    colours: Mapping[str, ColourStats]

    def name(self, lab: npt.NDArray[np.float32]) -> str | None:
        """The profile colour nearest to a body colour (Mahalanobis distance), or None if it is far from all.

        Near means within GATE; a die further off (a glint, a shadow) still takes the nearest colour if that
        one is within WIDE_GATE and clearly nearer than any other (RATIO), as the game's dice are the only
        dice on its table; a die of another colour is far from all and falls back to the palette.
        """
        distances = sorted((self.distance(lab, name), name) for name in self.colours)
        (d1, best), d2 = distances[0], (distances[1][0] if len(distances) > 1 else np.inf)
        if d1 <= GATE or (d1 <= WIDE_GATE and d1 <= RATIO * d2):
            return best
        return None

    def distance(self, lab: npt.NDArray[np.float32], name: str) -> float:
        stats = self.colours[name]
        diff = np.asarray(lab, np.float64) - stats.mean
        return float(np.sqrt(diff @ np.linalg.solve(np.array(stats.covariance), diff)))

    def to_json(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "space": "CIE Lab (L 0-100) of the die body, as vision.colour.body_lab measures it",
            "colours": {
                name: {
                    "mean": list(s.mean),
                    "covariance": [list(r) for r in s.covariance],
                    "samples": s.samples,
                }
                for name, s in self.colours.items()
            },
        }


def vector(v: npt.NDArray[np.float64]) -> tuple[float, float, float]:
    return (float(v[0]), float(v[1]), float(v[2]))


def matrix(m: npt.NDArray[np.float64]) -> tuple[tuple[float, float, float], ...]:
    return tuple(vector(row) for row in m)


def typical(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The samples without outliers (a stray box on the table, a die of another colour in the photo): those
    more than OUTLIER robust deviations from the median on any axis."""
    median = np.median(x, axis=0)
    spread = 1.4826 * np.median(np.abs(x - median), axis=0) + SPREAD_FLOOR
    return x[(np.abs(x - median) <= OUTLIER * spread).all(axis=1)]


def teach(samples: Mapping[str, Sequence[npt.NDArray[np.float32]]]) -> ColourProfile:
    """A profile from body colours (Lab) of dice of each colour name."""
    colours = {}
    for name, labs in samples.items():
        if name not in PALETTE:
            raise ColourProfileError(f"colour {name!r} is not a palette name ({', '.join(PALETTE)})")
        if len(labs) < MIN_SAMPLES:
            raise ColourProfileError(
                f"colour {name!r}: {len(labs)} dice found, at least {MIN_SAMPLES} needed"
            )
        x = typical(np.array(labs, np.float64).reshape(-1, 3))
        if len(x) < MIN_SAMPLES:
            raise ColourProfileError(f"colour {name!r}: too few dice agree on one colour")
        cov = np.cov(x.T) + np.eye(3) * SPREAD_FLOOR**2
        colours[name] = ColourStats(vector(x.mean(0)), matrix(cov), len(labs))
    if not colours:
        raise ColourProfileError("no colours to teach")
    profile = ColourProfile(colours)
    for a, b in combinations(colours, 2):
        apart = min(
            profile.distance(np.array(colours[a].mean), b), profile.distance(np.array(colours[b].mean), a)
        )
        if apart <= GATE:
            # Each would name the other's dice: dice of both colours shown as one (both in every photo, or
            # both in view), saved without a word, made every later roll read one colour as the other.
            raise ColourProfileError(
                f"colours {a!r} and {b!r} look alike to the camera (Lab {colours[a].lab_text()} and"
                f" {colours[b].lab_text()}): show each colour's dice alone, the other colour's out of view"
            )
    return profile


def save_profile(profile: ColourProfile, path: Path) -> None:
    write_whole(path, json.dumps(profile.to_json(), indent=2) + "\n")


def _numbers(value: object, shape: tuple[int, ...], where: str) -> npt.NDArray[np.float64]:
    try:
        arr = np.array(value, np.float64) if _only_numbers(value) else np.zeros(0)
    except ValueError:  # rows of different lengths
        arr = np.zeros(0)
    if arr.shape != shape or not np.all(np.abs(arr) <= LARGEST):
        raise ColourProfileError(
            f"{where}: expected {'x'.join(map(str, shape))} numbers within ±{LARGEST:g}, got {short(value)}"
        )
    return arr


def _only_numbers(value: object) -> bool:
    """Whether `value` is a number or lists of numbers (numpy would also take text and true/false)."""
    if isinstance(value, list):
        return all(_only_numbers(v) for v in value)
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse_profile(data: object, where: str = "profile") -> ColourProfile:
    """A profile from its JSON form; every error names the field."""
    if not isinstance(data, dict):
        raise ColourProfileError(f"{where}: expected a JSON object")
    refuse_unknown(data, ("format", "space", "colours"), where, ColourProfileError)
    if data.get("format") != FORMAT:
        raise ColourProfileError(
            f"{where}: field 'format' must be {FORMAT!r}, not {short(data.get('format'))}"
        )
    colours = data.get("colours")
    if not isinstance(colours, dict) or not colours:
        raise ColourProfileError(f"{where}: field 'colours' must be a non-empty object")
    out = {}
    for name, entry in colours.items():
        field = f"{where}: colours.{shown(name)}"
        if name not in PALETTE:
            raise ColourProfileError(f"{field}: not a palette name ({', '.join(PALETTE)})")
        if not isinstance(entry, dict):
            raise ColourProfileError(f"{field}: expected an object")
        refuse_unknown(entry, ("mean", "covariance", "samples"), field, ColourProfileError)
        mean = _numbers(entry.get("mean"), (3,), f"{field}.mean")
        cov = _numbers(entry.get("covariance"), (3, 3), f"{field}.covariance")
        if not np.allclose(cov, cov.T) or np.any(np.linalg.eigvalsh(cov) <= 0):
            raise ColourProfileError(f"{field}.covariance: must be symmetric positive definite")
        samples = entry.get("samples")
        if not is_whole_number(samples, MIN_SAMPLES):
            raise ColourProfileError(f"{field}.samples: expected a whole number ≥ {MIN_SAMPLES}")
        out[name] = ColourStats(vector(mean), matrix(cov), samples)
    return ColourProfile(out)


def load_profile(path: Path) -> ColourProfile:
    try:
        data = read_json(path)
    except JsonFileError as err:
        raise ColourProfileError(str(err)) from None
    return parse_profile(data, str(path))


def teach_from_folder(
    root: Path, find_dice: Callable[[Image], Sequence[Box]], refused: Callable[[str], None]
) -> ColourProfile:
    """A profile from COLOURS_DIR/NAME/*.jpg (photos of dice of colour NAME); every die `find_dice` finds in a
    photo is a sample of its folder's colour, or the one die of a photo cut close around it. Each photo that
    cannot be used is said to `refused` (a line) as it is met: before a colour is found to have too few dice,
    which may be why."""
    if not root.is_dir():
        raise ColourProfileError(f"{root}: not a folder (expected one folder per colour name)")
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    if not folders:
        raise ColourProfileError(
            f"{root}: no colour folders (expected one folder per colour name, e.g. yellow/ and blue/)"
        )
    samples: dict[str, list[npt.NDArray[np.float32]]] = {}
    for folder in folders:
        if folder.name not in PALETTE:
            raise ColourProfileError(f"{folder}: folder name must be a palette colour ({', '.join(PALETTE)})")
        labs = samples.setdefault(folder.name, [])
        for path in image_files(folder):
            try:
                image = load_image(path)
            except ImageError as err:
                refused(str(err))
                continue
            # A photo cut close around one die: found on a table of its border's colour, not as its pips.
            close = close_die(image)
            boxes = [close] if close is not None else find_dice(image)
            if not boxes:
                refused(f"{path}: no die found")
            labs += [body_lab(image, box) for box in boxes]
    return teach(samples)
