"""Command line for symbol dice: `enroll`, and the `--profile` forms of `read` and `bench`.

`register(subparsers)` adds `enroll` to the one `python -m vision` parser (`vision.cli`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.images import ImageError, expand_paths, load_image
from vision.reading import Image
from vision.symbols.matcher import FaceMatcher
from vision.symbols.profile import ProfileError, load_profile
from vision.symbols.reader import read_symbol_dice


def read_with_profile(paths: Sequence[Path], profile_path: Path, as_json: bool) -> int:
    """`read --profile`: one line per image; a bad image is an error line, the rest are still read."""
    try:
        matcher = FaceMatcher(load_profile(profile_path))
    except ProfileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    failed = False
    for path in expand_paths(list(paths)):
        try:
            image = load_image(path)
        except ImageError:
            print(f"error: {path}: not a readable image", file=sys.stderr)
            failed = True
            continue
        start = time.perf_counter()
        dice = read_symbol_dice(image, matcher)
        ms = (time.perf_counter() - start) * 1000
        if as_json:
            print(json.dumps({"image": str(path), "ms": round(ms, 1), "dice": [d.to_json() for d in dice]}))
        else:
            faces = ", ".join(f"{d.face}@{d.rotation}" for d in dice)
            print(f"{path}: {len(dice)} dice: {faces}")
    return 1 if failed else 0


def bench_frame(seed: int = 0) -> Image:
    """A 640×640 rendered plain table with 9 symbol dice of all colours (icon sets in turn)."""
    from vision.render.symbol_art import ICON_SETS, SymbolPainter, symbol_table

    icons = list(ICON_SETS.values())[seed % len(ICON_SETS)]
    return symbol_table(SymbolPainter(icons), np.random.default_rng(seed), n_dice=9, plain=True).image


ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def bench_with_profile(profile_path: Path, frames: int = 30) -> int:
    """`bench --profile`: median ms per 640×640 frame with 9 symbol dice, one thread, finding dice included.

    numpy's BLAS fixes its thread count when it loads, so unless this process was started with one thread,
    the benchmark runs in a fresh interpreter that is.
    """
    if any(os.environ.get(k) != v for k, v in ONE_THREAD.items()):
        code = (
            "import sys; from pathlib import Path; from vision.symbols.cli import bench_with_profile as b;"
            " sys.exit(b(Path(sys.argv[1]), int(sys.argv[2])))"
        )
        env = {**os.environ, **ONE_THREAD}
        return subprocess.run(
            [sys.executable, "-c", code, str(profile_path), str(frames)], env=env
        ).returncode
    cv2.setNumThreads(1)
    try:
        matcher = FaceMatcher(load_profile(profile_path))
    except ProfileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    images = [bench_frame(seed) for seed in range(5)]
    read_symbol_dice(images[0], matcher)  # warm-up: first calls allocate and fill caches
    wall, cpu, dice = [], [], 0
    for i in range(frames):
        start, start_cpu = time.perf_counter(), time.process_time()
        dice += len(read_symbol_dice(images[i % len(images)], matcher))
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    print(
        f"symbol dice, 640x640, {dice / frames:.1f} dice/frame, one thread:"
        f" median {statistics.median(wall):.1f} ms/frame (CPU time {statistics.median(cpu):.1f} ms)"
        f" over {frames} frames"
    )
    return 0


def run_enroll(args: argparse.Namespace) -> int:
    from calibration.faces import run_enroll as enroll

    return enroll(args, args.faces_dir)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from calibration.faces import add_enroll_arguments

    enroll = subparsers.add_parser("enroll", help="teach symbol-dice faces from photos (one folder per face)")
    add_enroll_arguments(enroll)
    enroll.add_argument("faces_dir", type=Path, metavar="FACES_DIR")
    enroll.set_defaults(run=run_enroll)
