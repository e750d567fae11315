"""Command line for symbol dice: `enroll`, and `bench --profile`.

`register(subparsers)` adds `enroll` to the one `python -m vision` parser (`vision.cli`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from jsonfile import complain
from vision.machine import describe
from vision.reader import DiceReader
from vision.reading import Image
from vision.symbols.profile import ProfileError, load_profile

if TYPE_CHECKING:
    from vision.simulated_table.symbol_art import IconSet


def bench_tables(labels: Sequence[str]) -> dict[str, list[Image]]:
    """640×640 rendered plain tables of 9 symbol dice of all colours: of the renderer's icon set with these
    face labels (the dice a game shows the reader), and of the other sets (dice it must call unknown, each
    looked at a second time)."""
    from vision.simulated_table.symbol_art import ICON_SETS, SymbolPainter, symbol_table

    def tables(icons: Sequence[IconSet]) -> list[Image]:
        return [
            symbol_table(
                SymbolPainter(icons[seed % len(icons)]), np.random.default_rng(seed), plain=True
            ).image
            for seed in range(5)
        ]

    own = [icons for icons in ICON_SETS.values() if set(icons.icons) == set(labels)]
    others = [icons for icons in ICON_SETS.values() if icons not in own]
    return (
        {"its own faces": tables(own), "other sets' faces": tables(others)}
        if own
        else {"faces of the renderer's sets": tables(others)}
    )


ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def one_thread_env() -> dict[str, str]:
    """The environment of the fresh interpreter that times the reader: one thread, and this process's own
    copy of the code first on its path. Started with `-P` it would import the installed copy, and a
    benchmark run in another checkout (the code before a change, in a git worktree) would time that one."""
    root = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])])
    return {**os.environ, **ONE_THREAD, "PYTHONPATH": path}


def bench_with_profile(profile_path: Path, frames: int = 30) -> int:
    """`bench --profile`: median ms per 640×640 frame with 9 symbol dice, one thread, by the one reader
    (finding the dice with the detector included).

    numpy's BLAS fixes its thread count when it loads, so unless this process was started with one thread,
    the benchmark runs in a fresh interpreter that is.
    """
    if any(os.environ.get(k) != v for k, v in ONE_THREAD.items()):
        # Ctrl+C reaches both processes: this one says "stopped", the timing one stops without a traceback.
        code = (
            "import sys\ntry:\n from pathlib import Path\n"
            " from vision.symbols.cli import bench_with_profile as b\n"
            " sys.exit(b(Path(sys.argv[1]), int(sys.argv[2])))\nexcept KeyboardInterrupt:\n sys.exit(130)"
        )
        return subprocess.run(
            [sys.executable, "-P", "-c", code, str(profile_path), str(frames)], env=one_thread_env()
        ).returncode
    cv2.setNumThreads(1)
    try:
        profile = load_profile(profile_path)
    except ProfileError as exc:
        complain("error", str(exc))
        return 2
    try:
        reader = DiceReader(symbols=profile)
    except ProfileError as exc:
        complain("error", f"{profile_path}: {exc}")
        return 2
    print(describe(), flush=True)
    for what, images in bench_tables(profile.labels).items():
        reader.read(images[0])  # warm-up: first calls allocate and fill caches
        wall, cpu, dice = [], [], 0
        for i in range(frames):
            start, start_cpu = time.perf_counter(), time.process_time()
            dice += len(reader.read(images[i % len(images)]).dice)
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        print(
            f"symbol dice, {what}, 640x640, {dice / frames:.1f} dice/frame, one thread:"
            f" median {statistics.median(wall):.1f} ms/frame (CPU time {statistics.median(cpu):.1f} ms)"
            f" over {frames} frames"
        )
    return 0


def run_enroll(args: argparse.Namespace) -> int:
    from vision.symbols.teach import run_enroll as enroll

    return enroll(args, args.faces_dir)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from vision.symbols.teach import add_enroll_arguments, faces_folder

    enroll = subparsers.add_parser(
        "enroll",
        help="teach symbol-dice faces from photos (one folder per face)",
        description="Teach a set of symbol dice from photos: each face's name is a folder of 3 or more photos"
        " of dice showing that face on the table (FACES_DIR/tower/01.jpg …; fewer are taught, with a"
        " warning); the taught profile is written to --out.",
    )
    add_enroll_arguments(enroll)
    enroll.add_argument(
        "faces_dir",
        type=faces_folder,
        metavar="FACES_DIR",
        help="a folder holding one folder of photos per face, named as the face (tower, garden, city1 …)",
    )
    enroll.set_defaults(run=run_enroll)
