"""`python -m vision`: read dice in images, measure the reader on a labelled set, benchmark it, teach colours.

    python -m vision read [--profile PROFILE.json] [--colours COLOURS.json] [--json] PATH...
    python -m vision eval SET_DIR [--split all|held-out|train] [--json]
    python -m vision bench [--profile PROFILE.json] [--frames N]
    python -m vision colour --out COLOURS.json COLOURS_DIR

A bad input gets one `error: ...` line on stderr, the other inputs are still processed, and the exit status is
1 if anything failed (2 for bad arguments or a missing/bad model or profile). A reader that stops early
(`| head -1`) ends the command quietly; Ctrl+C ends it with one line and status 130.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path

from jsonfile import (
    OutputError,
    complain,
    output_to_nowhere,
    printable,
    replace_what_cannot_be_shown,
    say,
)
from jsonfile.whole import cannot_write
from models import ModelError, ModelMissingError, check_folder
from vision.colour_profile import (
    ColourProfile,
    ColourProfileError,
    load_profile,
    save_profile,
    teach_from_folder,
)
from vision.dataset import SPLITS, DatasetError, is_crop_set, load_crop_set, load_set
from vision.images import IMAGE_SUFFIXES, ImageError, image_files, in_file_pixels, no_image_files, read_image
from vision.reading import Box, DiceReading, Image
from vision.symbols.profile import ProfileError

FAILED, BAD_SETUP = 1, 2
PIP_MODELS = ("die_detector", "pip_classifier")
"""The models a `--models` folder must hold: the pip reader's."""


STOPPED = 130
"""The exit status of a command stopped by Ctrl+C, as the shell reports one killed by SIGINT."""


def error(message: str) -> None:
    complain("error", message)


def describe(path: Path, reading: DiceReading, ms: float, as_json: bool) -> str:
    if as_json:
        return json.dumps(
            {"image": str(path), "ms": round(ms, 1), "dice": [d.to_json() for d in reading.dice]}
        )
    dice = ", ".join(
        f"{d.color} {d.value}" if d.kind == "pip" else f"{d.color} {d.face}@{d.rotation}"
        for d in reading.dice
    )
    return f"{printable(str(path))}: {len(reading.dice)} dice{': ' + dice if dice else ''} ({ms:.1f} ms)"


def load_colours(path: Path | None) -> ColourProfile | None:
    return load_profile(path) if path else None


def cmd_read(args: argparse.Namespace) -> int:
    from vision.pips import PipReader
    from vision.reader import DiceReader
    from vision.symbols.profile import load_profile as load_symbols

    symbols = load_symbols(args.profile) if args.profile else None
    try:
        reader = DiceReader(PipReader(load_colours(args.colours)), symbols)
    except ProfileError as err:
        raise ProfileError(f"{args.profile}: {err}") from None
    failed = False
    for name in args.paths:
        # Path("") is the current folder: an empty argument (an unset variable) is no request for it.
        if not name:
            error("an empty path")
            failed = True
            continue
        given = Path(name)
        paths = image_files(given) if given.is_dir() else [given]
        if not paths:  # said, not read as nothing
            error(no_image_files(str(given)))
            failed = True
        for path in paths:
            try:
                image, shrink = read_image(path)
            except ImageError as err:
                error(str(err))
                failed = True
                continue
            start = time.perf_counter()
            reading = in_file_pixels(reader.read(image), shrink)
            say(describe(path, reading, (time.perf_counter() - start) * 1000, args.json))
    return FAILED if failed else 0


def cmd_eval(args: argparse.Namespace) -> int:
    from vision.evaluate import evaluate, format_scores
    from vision.pips import PipReader

    if args.models:
        check_folder(args.models, PIP_MODELS)
    reader = PipReader(load_colours(args.colours), models=args.models)
    refused: list[str] = []

    def refuse(line: str) -> None:  # an image that cannot be read is named; the others are still measured
        error(line)
        refused.append(line)

    crops = is_crop_set(args.set_dir)
    if crops and args.split != "all":
        error(f"{args.set_dir}: a folder of crops by value has no {args.split!r} split")
        return BAD_SETUP
    items = load_crop_set(args.set_dir, refuse) if crops else load_set(args.set_dir, args.split, refuse)
    if not items:
        error(f"{args.set_dir}: no {'usable ' if refused else ''}images in split {args.split!r}")
        return FAILED
    scores = evaluate(items, reader.read_crop if crops else reader.read).to_json()
    say(json.dumps(scores) if args.json else format_scores(scores))
    return FAILED if refused else 0


def cmd_bench(args: argparse.Namespace) -> int:
    if args.profile:
        from vision.symbols.cli import bench_with_profile

        return bench_with_profile(args.profile, args.frames)
    from vision.bench import DICE, run_bench
    from vision.machine import describe
    from vision.pips import PipReader

    if args.models:
        check_folder(args.models, PIP_MODELS)
    say(describe())
    for width, height, ms in run_bench(args.frames, PipReader(models=args.models)):
        say(
            f"pip dice, {width}x{height}, {DICE} dice: median {ms:.1f} ms/frame "
            f"over {args.frames} frames, 1 thread"
        )
    return 0


def cmd_colour(args: argparse.Namespace) -> int:
    from vision.pips import default_reader

    if args.out.is_dir():  # said before the teaching, which takes a while
        error(f"cannot write {args.out}: is a folder")
        return BAD_SETUP
    # Every die the detector finds, symbol dice too (the pip reader reads pip dice only).
    detector = default_reader().detector
    refused: list[str] = []

    def refuse(line: str) -> None:
        error(line)
        refused.append(line)

    def dice(image: Image) -> list[Box]:
        return [d.box for d in detector(image)]

    profile = teach_from_folder(args.colours_dir, dice, refuse)
    try:
        save_profile(profile, args.out)
    except OSError as err:
        error(cannot_write(args.out, err))
        return BAD_SETUP
    taught = ", ".join(f"{name} ({stats.samples} dice)" for name, stats in profile.colours.items())
    say(f"wrote {args.out}: {taught}")
    return FAILED if refused else 0


def at_least_one(text: str) -> int:
    """An argument that counts something done at least once (`--frames 0` would time nothing)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m vision", description="Read dice in camera frames.")
    sub = top.add_subparsers(dest="command", required=True)
    colours_help = "colour profile from `python -m vision colour` (names the game's own die colours)"
    models_help = "folder of die_detector and pip_classifier .onnx + .json to use instead of the shipped ones"

    read = sub.add_parser(
        "read",
        help="read the dice in image files or folders",
        description="Read the dice in image files and folders: a line per image with its dice and the time "
        "it took. An image that cannot be read gets an error line; the others are still read.",
    )
    read.add_argument("--profile", type=Path, help="symbol-dice profile from `enroll`: read symbol dice too")
    read.add_argument("--colours", type=Path, help=colours_help)
    read.add_argument("--json", action="store_true", help="one JSON line per image")
    read.add_argument(  # text: Path("") would be the current folder
        "paths",
        nargs="+",
        metavar="PATH",
        help=f"an image file ({', '.join(IMAGE_SUFFIXES)}) or a folder: its image files, by name",
    )
    read.set_defaults(run=cmd_read)

    ev = sub.add_parser(
        "eval",
        help="measure the pip reader on a labelled set (images/ + labels/), or the classifier alone on crops "
        "of single dice sorted by value (1/ ... 6/)",
        description="Measure the pip reader on a labelled set of photos: how many dice it finds and how many "
        "of their values it reads right; or the pip classifier alone on crops of single dice.",
    )
    ev.add_argument(
        "set_dir",
        type=Path,
        metavar="SET_DIR",
        help="a labelled set: SET_DIR/images/NAME.jpg with SET_DIR/labels/NAME.txt, a line 'value cx cy w h' "
        "a die (fractions of the image); or crops of single dice by value: SET_DIR/1/ ... SET_DIR/6/",
    )
    ev.add_argument(
        "--split", choices=SPLITS, default="all", help="d6-tray's held-out or training photos only"
    )
    ev.add_argument("--colours", type=Path, help=colours_help)
    ev.add_argument("--json", action="store_true", help="the scores as one JSON object")
    ev.add_argument("--models", type=Path, help=models_help)
    ev.set_defaults(run=cmd_eval)

    bench = sub.add_parser(
        "bench",
        help="median ms per frame on one thread (640x640 and 1280x720, 15 dice)",
        description="Time the pip reader (with --profile: the symbol reader) on rendered tables of dice, on "
        "one thread: the median ms per frame.",
    )
    bench.add_argument("--profile", type=Path, help="symbol-dice profile: benchmark the symbol reader")
    bench.add_argument("--frames", type=at_least_one, default=50, help="frames timed per size")
    bench.add_argument("--models", type=Path, help=models_help)
    bench.set_defaults(run=cmd_bench)

    colour = sub.add_parser(
        "colour",
        help="teach a colour profile from photos (one folder per colour name)",
        description="Teach the colours of the dice under this light from photos: every die found in a photo "
        "is a sample of its folder's colour. `read --colours` and `eval --colours` use the profile.",
    )
    colour.add_argument("--out", type=Path, required=True, help="profile file to write")
    colour.add_argument(
        "colours_dir",
        type=Path,
        metavar="COLOURS_DIR",
        help="one folder of photos per colour, named by it: COLOURS_DIR/yellow/*.jpg, COLOURS_DIR/blue/*.jpg",
    )
    colour.set_defaults(run=cmd_colour)

    from vision.symbols.cli import register

    register(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    import cv2

    # OpenCV's own decoder warnings would repeat, less clearly, the one error line each bad file gets.
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    replace_what_cannot_be_shown()
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (ColourProfileError, DatasetError, ModelError, ModelMissingError, ProfileError) as err:
        error(str(err))
        return BAD_SETUP
    except KeyboardInterrupt:  # Ctrl+C: what was read is printed, nothing is half written
        error("stopped")
        return STOPPED
    except (BrokenPipeError, OutputError) as err:
        output_to_nowhere()
        if isinstance(err, BrokenPipeError):
            return 0  # the reader stopped early (`| head -1`): not an error of ours
        error(str(err))
        return FAILED
    except OSError as err:  # what the system refuses to read (a folder that cannot be listed)
        error(str(err))
        return FAILED
