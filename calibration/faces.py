"""The guided camera step for symbol dice: name each face a game needs, the user shows it for a few seconds,
and the frames are kept as a folder per face, then taught as photos are (`vision.symbols.teach`).

    python -m calibration.faces --camera 0 --preset alhambra --out PROFILE.json
"""

from __future__ import annotations

import argparse
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, suppress
from pathlib import Path

import cv2

from jsonfile import complain, duration, replace_what_cannot_be_shown
from vision.grabber import timed_frames
from vision.images import IMAGE_SUFFIXES
from vision.native_output import native_output_to
from vision.reading import Frame
from vision.sources import CameraSource, FrameSource, SourceError, VideoFileSource
from vision.symbols.teach import TeachingError, add_enroll_arguments, check_label, faces_folder, run_enroll

KNIGHT, CATAPULT = "knight", "catapult"
"""The Carcassonne dice's faces that are not city faces."""
PRESETS: dict[str, tuple[str, ...]] = {
    "alhambra": ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower"),
    "carcassonne": ("city1", "city2", "city3", "city4", KNIGHT, CATAPULT),
}
"""The faces each game needs: the six buildings (the games' own names, `companion.games.alhambra.TYPES`,
which this layer below the games cannot import: tests/calibration/test_face_presets.py checks they agree);
four city faces, the knight and the catapult."""


def capture_faces(
    frames: Iterable[Frame],
    labels: Sequence[str],
    out_dir: Path,
    seconds: float = 3.0,
    per_face: int = 6,
    ask: Callable[[str], object] = input,
    say: Callable[[str], None] = print,
) -> None:
    """The guided camera step: per face, wait for the user (`ask`), then keep `per_face` frames over
    `seconds`."""
    pictures = iter(frames)
    for label in labels:
        try:
            ask(
                f"Show the face {label!r} to the camera, upright, on the table; press Enter when it lies"
                " still "
            )
        except EOFError:
            raise TeachingError(
                f"face {label!r}: the input ended before Enter was pressed (run it in a terminal)"
            ) from None
        folder = face_folder(out_dir, label)
        kept, start = 0, time.monotonic()
        while kept < per_face:
            frame = _next_picture(pictures)
            if frame is None:
                raise TeachingError(f"face {label!r}: the camera gave no picture (unplugged or at the end?)")
            if time.monotonic() - start >= kept * seconds / per_face:
                cv2.imwrite(str(folder / f"{kept:02d}.png"), frame.image)
                kept += 1
        say(f"face {label!r}: {kept} pictures kept in {folder}")


def video_faces(
    frames: Iterable[Frame],
    labels: Sequence[str],
    out_dir: Path,
    seconds: float = 3.0,
    per_face: int = 6,
    say: Callable[[str], None] = print,
) -> None:
    """A video file showing the faces in turn, `seconds` each: each face's pictures are frames of its own
    seconds by the frames' timestamps, up to `per_face` of them spread over them. (The wall clock took every
    face's frames from the first face's, as a file decodes faster than it plays; and waiting out a face's
    seconds took the next face's first frame, so that a video of two frames a second gave each face the
    next one's picture.)"""
    folders = [face_folder(out_dir, label) for label in labels]
    kept = [0] * len(labels)
    first: float | None = None
    pictures = iter(frames)
    while (frame := _next_picture(pictures)) is not None:
        first = frame.time if first is None else first
        face, into = divmod(frame.time - first, seconds)
        i = int(face)
        if i >= len(labels):
            break
        if kept[i] < per_face and into >= kept[i] * seconds / per_face:
            cv2.imwrite(str(folders[i] / f"{kept[i]:02d}.png"), frame.image)
            kept[i] += 1
    if first is None:
        raise TeachingError(f"face {labels[0]!r}: the camera gave no picture (unplugged or at the end?)")
    for label, folder, n in zip(labels, folders, kept, strict=True):
        if not n:
            raise TeachingError(f"face {label!r}: the video ends before its {seconds:g} s (one face's each)")
        say(f"face {label!r}: {n} pictures kept in {folder}")


def _next_picture(frames: Iterator[Frame]) -> Frame | None:
    """The next frame; None at the end, or once the source gave up (a camera that stopped sending frames, a
    video of which not one frame decodes): either way the faces still to be shown get no picture."""
    try:
        return next(frames, None)
    except SourceError:
        return None


def face_folder(out_dir: Path, label: str) -> Path:
    """The face's folder of pictures, emptied of an earlier run's: taught again, they would mix in."""
    folder = out_dir / label
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("[0-9][0-9].png"):
        old.unlink()
    return folder


def outermost_missing(folder: Path) -> Path | None:
    """The outermost folder on `folder`'s path that does not exist yet: what making `folder` creates."""
    missing = None
    for part in (folder, *folder.parents):
        if part.exists():
            break
        missing = part
    return missing


def photos_as_camera(camera: str) -> bool:
    """A folder or a photo given as the camera: OpenCV opened neither as a video, and the error said to check
    the video, where the photos are taught with --photos."""
    if camera.isdecimal() or "://" in camera:
        return False
    return Path(camera).is_dir() or Path(camera).suffix.lower() in IMAGE_SUFFIXES


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
        "--photos", type=faces_folder, metavar="FACES_DIR", help="one folder of photos per face label"
    )
    source.add_argument("--camera", metavar="INDEX|URL|FILE", help="teach live from a camera (guided)")
    parser.add_argument(
        "--preset", choices=sorted(PRESETS), help="the faces a game needs (with --photos: those folders)"
    )
    parser.add_argument("--faces", nargs="+", default=[], help="face labels to teach instead of a preset")
    parser.add_argument("--keep", type=Path, help="folder for the camera pictures (default: next to --out)")
    parser.add_argument(
        "--seconds",
        type=duration,
        default=3.0,
        help="seconds of video per face (of a video file: each face's)",
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
    if photos_as_camera(args.camera):
        parser.error(
            f"--camera {args.camera}: photos are taught with --photos FACES_DIR (a folder of photos per face)"
        )
    target = int(args.camera) if args.camera.isdecimal() else args.camera
    keep = args.keep or args.out.with_suffix("").with_name(args.out.stem + "-faces")
    made = outermost_missing(keep)
    is_video = Path(args.camera).is_file()
    camera: FrameSource | None = None
    with native_output_to(keep / "camera.log"), suppress(SourceError):  # said below, in one line
        camera = VideoFileSource(Path(args.camera)) if is_video else CameraSource(target)
    try:
        if camera is None:
            raise TeachingError(f"camera {args.camera!r} does not open: {why_not_open(args.camera)}")
        # Read with a time limit: a camera that stopped sending kept the step waiting for its next picture.
        with closing(timed_frames(camera, live=not is_video)) as frames:
            if is_video:
                print(f"{args.camera}: {', '.join(labels)} in turn, {args.seconds:g} s of the video each")
                video_faces(frames, labels, keep, args.seconds)
            else:
                capture_faces(frames, labels, keep, args.seconds)
    except TeachingError as exc:
        if made is not None:  # nothing is taught: no folder of this run's is left behind
            shutil.rmtree(made, ignore_errors=True)
        complain("error", str(exc))
        return 2
    except KeyboardInterrupt:
        taken = keep.is_dir() and any(keep.glob("*/[0-9][0-9].png"))
        if made is not None and not taken:
            shutil.rmtree(made, ignore_errors=True)
        complain(
            "error", "stopped: nothing taught" + (f" (the pictures so far are in {keep})" if taken else "")
        )
        return 130
    finally:
        if camera is not None:
            camera.close()
    return run_enroll(args, keep, labels)


if __name__ == "__main__":
    raise SystemExit(main())
