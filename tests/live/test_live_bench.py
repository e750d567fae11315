"""`python -m companion.live.bench` (docs/live-table-and-engine.md): the live pipeline's medians, and the
machine they were measured on."""

from __future__ import annotations

import subprocess
import sys


def test_the_live_benchmark_reports_its_machine_and_each_stage() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion.live.bench", "--frames", "4"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    machine, title, stages, per_frame = done.stdout.splitlines()
    assert machine.startswith("machine: ") and title.startswith("live pipeline, 4 frames of 640x480")
    assert all(f"{stage} " in stages for stage in ("read", "settle", "preview"))
    assert "per frame" in per_frame and "30 fps camera" in per_frame
