"""The guided camera step for symbol dice: name each face a game needs, the user shows it for a few seconds,
and the frames are kept as a folder per face, then taught as photos are (`vision.symbols.teach`).

    python -m calibration.faces --camera 0 --preset alhambra --out PROFILE.json
"""

from __future__ import annotations

import argparse
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2

from jsonfile import complain, replace_what_cannot_be_shown
from vision.native_output import native_output_to
from vision.symbols.teach import TeachingError, add_enroll_arguments, check_label, run_enroll

PRESETS: dict[str, tuple[str, ...]] = {
    "alhambra": ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower"),
    "carcassonne": ("city1", "city2", "city3", "city4", "knight", "catapult"),
}
"""The faces each game needs: the six buildings; four city faces, the knight and the catapult."""


def capture_faces(
    capture: cv2.VideoCapture,
    labels: Sequence[str],
    out_dir: Path,
    seconds: float = 3.0,
    per_face: int = 6,
    ask: Callable[[str], object] | None = input,
    say: Callable[[str], None] = print,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """The guided camera step: per face, wait for the user (`ask`; none: a video showing the faces in turn),
    then keep `per_face` frames over `seconds` of the `clock` (a video's own: it decodes faster than it
    plays, and the wall clock took every face's frames from the first face's)."""
    for label in labels:
        if ask is not None:
            try:
                ask(
                    f"Show the face {label!r} to the camera, upright, on the table; press Enter when it lies"
                    " still "
                )
            except EOFError:
                raise TeachingError(
                    f"face {label!r}: the input ended before Enter was pressed (run it in a terminal)"
                ) from None
        folder = out_dir / label
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("[0-9][0-9].png"):
            old.unlink()  # an earlier run's pictures of this face: taught again, they would mix in
        kept, start = 0, clock()
        while kept < per_face:
            ok, frame = capture.read()
            if not ok or frame is None:
                raise TeachingError(f"face {label!r}: the camera gave no picture (unplugged or at the end?)")
            if clock() - start >= kept * seconds / per_face:
                cv2.imwrite(str(folder / f"{kept:02d}.png"), frame)
                kept += 1
        if ask is None:
            _skip_to(capture, clock, start + seconds)
        say(f"face {label!r}: {kept} pictures kept in {folder}")


def _skip_to(capture: cv2.VideoCapture, clock: Callable[[], float], end: float) -> None:
    """A video's frames up to `end`: the rest of a face's seconds, so that the next face's begin after."""
    while clock() < end:
        ok, _ = capture.read()
        if not ok:
            return


def video_clock(capture: cv2.VideoCapture) -> Callable[[], float]:
    """Seconds into a video file by its frames' own timestamps."""
    return lambda: float(capture.get(cv2.CAP_PROP_POS_MSEC)) / 1000


def outermost_missing(folder: Path) -> Path | None:
    """The outermost folder on `folder`'s path that does not exist yet: what making `folder` creates."""
    missing = None
    for part in (folder, *folder.parents):
        if part.exists():
            break
        missing = part
    return missing


def why_not_open(camera: str) -> str:
    """What to check when OpenCV does not open `camera`: one clear line, where its own messages are many."""
    if camera.isdecimal():
        return "is it plugged in, and not in use by another program?"
    if "://" in camera:
        return "is the address right, and the stream running?"
    return "is it a video that OpenCV can read?" if Path(camera).exists() else "no such file"


def main(argv: Sequence[str] | None = None) -> int:
    replace_what_cannot_be_shown()
    parser = argparse.ArgumentParser(prog="python -m calibration.faces", description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--photos", type=Path, metavar="FACES_DIR", help="one folder of photos per face label"
    )
    source.add_argument("--camera", metavar="INDEX|URL|FILE", help="teach live from a camera (guided)")
    parser.add_argument(
        "--preset", choices=sorted(PRESETS), help="the faces a game needs (with --photos: those folders)"
    )
    parser.add_argument("--faces", nargs="+", default=[], help="face labels to teach instead of a preset")
    parser.add_argument("--keep", type=Path, help="folder for the camera pictures (default: next to --out)")
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="seconds of video per face (of a video file: each face's)"
    )
    add_enroll_arguments(parser)
    args = parser.parse_args(argv)
    labels = list(args.faces) or list(PRESETS.get(args.preset or "", ()))
    try:
        for label in labels:
            check_label(label)
    except TeachingError as exc:
        parser.error(str(exc))
    if args.photos is not None:
        # The preset's faces only: an Alhambra folder taught with --preset carcassonne made a profile that
        # `companion city` read as no city at all.
        return run_enroll(args, args.photos, labels)
    if not labels:
        parser.error("camera teaching needs --preset or --faces")
    target = int(args.camera) if args.camera.isdecimal() else args.camera
    keep = args.keep or args.out.with_suffix("").with_name(args.out.stem + "-faces")
    made = outermost_missing(keep)
    with native_output_to(keep / "camera.log"):
        capture = cv2.VideoCapture(target)
    try:
        if not capture.isOpened():
            raise TeachingError(f"camera {args.camera!r} does not open: {why_not_open(args.camera)}")
        if Path(args.camera).is_file():
            print(f"{args.camera}: {', '.join(labels)} in turn, {args.seconds:g} s of the video each")
            capture_faces(capture, labels, keep, args.seconds, ask=None, clock=video_clock(capture))
        else:
            capture_faces(capture, labels, keep, args.seconds)
    except TeachingError as exc:
        if made is not None:  # nothing is taught: no folder of this run's is left behind
            shutil.rmtree(made, ignore_errors=True)
        complain("error", str(exc))
        return 2
    except KeyboardInterrupt:
        complain("error", f"stopped: nothing taught (the pictures so far are in {keep})")
        return 130
    finally:
        capture.release()
    return run_enroll(args, keep, labels)


if __name__ == "__main__":
    raise SystemExit(main())
