"""`companion calibrate`: teach and remember this table's calibration from the command line.

    companion calibrate colours COLOURS_DIR       photos of the game's dice, one folder per colour
    companion calibrate colours --camera 0        show the dice to the camera when asked
    companion calibrate area X0 Y0 X1 Y1          the dice zone, as fractions of the frame
    companion calibrate show                      what is remembered, and where

The app uses what is remembered whenever it reads a camera (`companion --camera ...`); F3 in the app
teaches the colours too.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.app import paths
from jsonfile import OutputError, complain, say

if TYPE_CHECKING:  # the reader's modules load models and OpenCV: only when a step runs
    import numpy as np
    import numpy.typing as npt

    from vision.pips import PipReader

SHOWS_PER_COLOUR = 2
"""Each colour is shown twice (re-rolled in between): two dice each time give enough samples."""
WAIT_SECONDS = 15.0


def add_calibrate(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    calibrate = commands.add_parser(
        "calibrate",
        help="teach and remember this table's dice colours and dice zone",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    steps = calibrate.add_subparsers(dest="step", metavar="STEP", required=True)
    colours = steps.add_parser("colours", help="the game's yellow and blue dice under this light")
    colours.add_argument(
        "folder",
        nargs="?",
        default=None,
        metavar="COLOURS_DIR",
        help="photos of the dice: COLOURS_DIR/yellow/*.jpg, COLOURS_DIR/blue/*.jpg",
    )
    colours.add_argument(
        "--camera", metavar="SPEC", default=None, help="show the dice to this camera instead"
    )
    area = steps.add_parser(
        "area",
        help="the part of the view where dice are thrown (fractions 0-1)",
        description="Read only the part of the camera's view where the dice are thrown (a tray): its edges"
        " as fractions of the frame, 0 the left or top edge, 1 the right or bottom one.",
    )
    for name, edge in (("x0", "left"), ("y0", "top"), ("x1", "right"), ("y1", "bottom")):
        area.add_argument(name, type=float, help=f"the {edge} edge, a fraction 0-1 of the frame")
    steps.add_parser("show", help="what is remembered")
    calibrate.set_defaults(run=run_calibrate)


def run_calibrate(args: argparse.Namespace) -> int:
    from calibration.table_area import TableArea, TableAreaError, save_area
    from vision.colour_profile import ColourProfileError
    from vision.sources import SourceError

    try:
        if args.step == "area":
            area = TableArea(args.x0, args.y0, args.x1, args.y1)
            save_area(area, paths.table_area_path())
            _say_saved("dice zone", paths.table_area_path())
            return 0
        if args.step == "show":
            return _show()
        return _colours(args)
    except (ColourProfileError, TableAreaError, SourceError) as exc:
        complain("companion calibrate", str(exc))
        return 2
    except EOFError:  # a prompt's input ended: stdin from /dev/null or a pipe, where no Enter can be pressed
        complain(
            "companion calibrate",
            "stopped, nothing saved: the input ended before Enter was pressed (run it in a terminal)",
        )
        return 2
    except KeyboardInterrupt:  # Ctrl+C: what is saved is written whole or not at all
        complain("companion calibrate", "stopped, nothing saved")
        return 130
    except BrokenPipeError:
        raise  # the reader stopped early (`| head -1`): `companion` ends quietly
    except OutputError as exc:
        complain("companion calibrate", str(exc))
        return 2
    except OSError as exc:  # a full disk, a config folder not writable: the error names the file
        complain(
            "companion calibrate", f"cannot save: {exc.filename2 or exc.filename}: {exc.strerror or exc}"
        )
        return 2


def _say_saved(what: str, path: Path, *more: str) -> None:
    """Says that `what` was saved to `path`, then `more` lines; an output that cannot take them
    (`> /dev/full`) is an `OutputError` that says where the file was saved all the same."""
    try:
        for line in (f"{what} saved to {path}", *more):
            say(line)
    except OutputError as exc:
        raise OutputError(f"{exc} (the {what} was saved, to {path})") from None


def _show() -> int:
    from calibration.table_area import TableAreaError, load_area
    from vision.colour_profile import ColourProfileError, load_profile

    def colours(path: Path) -> str:
        profile = load_profile(path)
        return ", ".join(
            f"{name} (Lab {stats.lab_text()}, taught from {stats.samples} dice)"
            for name, stats in profile.colours.items()
        )

    def zone(path: Path) -> str:
        area = load_area(path)
        return f"left {area.x0:g}, top {area.y0:g}, right {area.x1:g}, bottom {area.y1:g} of the frame"

    # Each file is said on its own: one that cannot be read does not hide the other.
    unread = 0
    shown: tuple[tuple[str, Path, str, Callable[[Path], str]], ...] = (
        ("colour profile", paths.colour_profile_path(), "none", colours),
        ("dice zone", paths.table_area_path(), "none (the whole frame)", zone),
    )
    for what, path, none, said in shown:
        if not path.exists():
            say(f"{what}: {none}")
            continue
        try:
            say(f"{what}: {path}\n  {said(path)}")
        except (ColourProfileError, TableAreaError) as exc:
            complain("companion calibrate", f"{what}: {exc}")
            unread += 1
    return 2 if unread else 0


def _colours(args: argparse.Namespace) -> int:
    from companion.live.match import GAME_COLOURS
    from vision.colour_profile import save_profile, teach, teach_from_folder
    from vision.pips import PipReader

    if args.folder is not None and args.camera is not None:
        complain("companion calibrate colours", "give COLOURS_DIR or --camera SPEC, not both")
        return 2
    reader = PipReader()
    if args.folder is not None:
        profile = teach_from_folder(
            Path(args.folder),
            lambda image: [d.box for d in reader.read(image).dice],
            lambda refused: complain("companion calibrate", refused),
        )
    elif args.camera is not None:
        from vision.native_output import native_output_to

        with native_output_to(paths.log_path(), "companion calibrate"):
            samples = _show_to_camera(args.camera, reader)
        profile = teach(samples)
    else:
        complain("companion calibrate colours", "give COLOURS_DIR or --camera SPEC")
        return 2
    save_profile(profile, paths.colour_profile_path())
    missing = [colour for colour in GAME_COLOURS if colour not in profile.colours]
    # Saved without a word, the untaught colour's dice were named by the camera's guess alone.
    note = (
        f"note: no {' or '.join(missing)} dice taught: the game's {' and '.join(GAME_COLOURS)} dice are"
        f" told apart best with both taught ({', '.join(f'{c}/' for c in missing)} in COLOURS_DIR)"
    )
    _say_saved("colour profile", paths.colour_profile_path(), *([note] if missing else []))
    return 0


def _show_to_camera(spec: str, reader: PipReader) -> dict[str, list[npt.NDArray[np.float32]]]:
    from companion.live.match import GAME_COLOURS
    from vision.colour import body_lab
    from vision.grabber import timed_frames
    from vision.settle import settle
    from vision.sources import SourceError, names_a_camera, open_source

    source = open_source(spec)
    # Read with a time limit: a stream that stopped sending kept `settle` waiting for its next frame for ever.
    frames = timed_frames(source, live=names_a_camera(spec))
    samples: dict[str, list[npt.NDArray[np.float32]]] = {}
    try:
        for colour in GAME_COLOURS:
            for show in range(SHOWS_PER_COLOUR):
                again = " (roll them again)" if show else ""
                try:
                    input(f"Put only the game's {colour} dice in view{again}, then press Enter ")
                except (EOFError, KeyboardInterrupt):
                    print()  # the prompt's line ends before the line saying why it stopped
                    raise
                throw = settle(frames, reader.read, seconds=WAIT_SECONDS)
                if throw is None:
                    raise SourceError(
                        f"no still dice seen within {WAIT_SECONDS:.0f} s: are they in view, and lit?"
                    )
                dice = throw.reading.dice
                samples.setdefault(colour, []).extend(body_lab(throw.frame.image, d.box) for d in dice)
                say(f"  {len(dice)} dice seen")
    finally:
        frames.close()  # the grabber's thread, and the source with it
        source.close()
    return samples
