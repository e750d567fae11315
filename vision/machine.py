"""The machine a benchmark ran on, in one line: the same pip reader took 9–14 ms a 640×640 frame on one
2-core machine and 16–25 ms on another (an AMD EPYC core with AVX2), so a speed figure means little without
it."""

from __future__ import annotations

import os
import platform
from pathlib import Path

VECTOR_UNITS = ("avx512f", "avx2", "neon", "asimd")
"""The widest of these the CPU reports decides most of the nets' speed."""


def cpu_name(cpuinfo: str) -> str:
    """The CPU's model name and its widest vector unit from /proc/cpuinfo's text ("" where it says none)."""
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip().lower(), value.strip())
    name = fields.get("model name") or fields.get("hardware") or fields.get("cpu model") or ""
    flags = set((fields.get("flags") or fields.get("features") or "").split())
    widest = next((unit for unit in VECTOR_UNITS if unit in flags), "")
    return f"{name} ({widest})" if name and widest else name


def describe() -> str:
    """`machine: CPU, N cores, onnxruntime X, OpenCV Y` for the top of a benchmark's report."""
    import cv2
    import onnxruntime

    try:
        cpu = cpu_name(Path("/proc/cpuinfo").read_text(errors="replace"))
    except OSError:  # not Linux
        cpu = ""
    cpu = cpu or platform.processor() or platform.machine() or "unknown CPU"
    return (
        f"machine: {cpu}, {os.cpu_count()} cores, onnxruntime {onnxruntime.__version__},"
        f" OpenCV {cv2.__version__}"
    )
