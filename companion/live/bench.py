"""Live pipeline benchmark: can one core keep up with a 30 fps camera?

    python -m companion.live.bench [--frames 300] [--size 640x480]

Frames of a rendered table (throws of 2 and 4 dice, tumbling and at rest) are rendered first; then each is
read and settled as the camera thread does, timed per frame on one core. The preview's half-block
conversion is timed too: the app draws it for the newest frame only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence

import cv2

from companion.live.preview import annotate, fit, half_block_lines
from vision.machine import describe
from vision.pips import PipReader
from vision.reading import Frame
from vision.settle import Settler
from vision.simulated_table.rolling import RollingTable


def rendered_frames(count: int, height: int, width: int) -> list[Frame]:
    table = RollingTable(height=height, width=width, seed=11, idle_frames=None)
    throws = [[("yellow", 3), ("blue", 5)], [("yellow", 6), ("yellow", 2), ("blue", 1), ("blue", 4)]]
    frames: list[Frame] = []
    for frame in table:
        if table.settled is not None and frame.index - table.settled.frame > 20:
            table.throw(throws[table.throws % 2])
        frames.append(frame)
        if len(frames) == count:
            break
    table.close()
    return frames


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.live.bench", description=__doc__)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--size", default="640x480", help="frame size WIDTHxHEIGHT (default 640x480)")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)
    frames = rendered_frames(args.frames, height, width)
    reader, settler = PipReader(), Settler()
    read_ms, settle_ms, preview_ms = [], [], []
    for frame in frames:
        t0 = time.perf_counter()
        reading = reader.read(frame.image, frame.time)
        t1 = time.perf_counter()
        settler.update(frame, reading)
        t2 = time.perf_counter()
        cols, rows = fit(frame.image.shape, 30, 12)
        half_block_lines(annotate(frame.image, reading), cols, rows)
        t3 = time.perf_counter()
        read_ms.append((t1 - t0) * 1000)
        settle_ms.append((t2 - t1) * 1000)
        preview_ms.append((t3 - t2) * 1000)
    total = [a + b + c for a, b, c in zip(read_ms, settle_ms, preview_ms, strict=True)]
    median = statistics.median(total)
    print(describe())
    print(f"live pipeline, {len(frames)} frames of {width}x{height}, one core of {os.cpu_count()}, medians:")
    print(
        f"  read {statistics.median(read_ms):.1f} ms, settle {statistics.median(settle_ms):.2f} ms, "
        f"preview {statistics.median(preview_ms):.2f} ms"
    )
    p90 = sorted(total)[int(0.9 * len(total))]
    print(
        f"  per frame {median:.1f} ms (90th percentile {p90:.1f} ms): {1000 / median:.0f} fps on one core; "
        f"{'keeps up with' if median <= 1000 / 30 else 'falls behind'} a 30 fps camera"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
