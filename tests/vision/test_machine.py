"""The machine line at the top of every benchmark's report: the CPU, its widest vector unit, the cores."""

from __future__ import annotations

import os

from vision.machine import cpu_name, describe

X86 = """processor\t: 0
model name\t: AMD EPYC 7B13
flags\t\t: fpu vme sse sse2 fma avx2 bmi2
processor\t: 1
model name\t: AMD EPYC 7B13
flags\t\t: fpu vme sse sse2 fma avx2 bmi2
"""


def test_the_cpu_is_named_with_its_widest_vector_unit() -> None:
    assert cpu_name(X86) == "AMD EPYC 7B13 (avx2)"
    assert cpu_name(X86.replace("avx2", "avx2 avx512f")) == "AMD EPYC 7B13 (avx512f)"
    assert cpu_name(X86.replace(" avx2", "")) == "AMD EPYC 7B13"


def test_a_cpuinfo_without_a_model_name_names_nothing() -> None:
    arm = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes\nCPU implementer\t: 0x41\n"
    assert cpu_name(arm) == "" and cpu_name("") == ""


def test_the_line_names_this_machine() -> None:
    line = describe()
    assert line.startswith("machine: ") and f", {os.cpu_count()} cores, onnxruntime " in line
    assert "OpenCV " in line and "unknown CPU" not in line
