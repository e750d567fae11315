"""`python -m vision` at the edges of its output: a reader that stops early, a full disk behind `>`, an
output closed (`>&-`), Ctrl+C, and `--help` saying what each command does and what its inputs are."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from vision_data import D6_TRAY

VISION = [sys.executable, "-m", "vision"]
IMAGES = str(D6_TRAY / "images")
MANY = [IMAGES] * 3
"""Twelve photos: the reading goes on well after the first line."""


@pytest.mark.parametrize("as_json", [[], ["--json"]], ids=["text", "json"])
def test_a_reader_that_stops_after_the_first_line_is_no_error(as_json: list[str]) -> None:
    """`python -m vision read FOLDER | head -1` printed "error: [Errno 32] Broken pipe" and ended with 1."""
    child = subprocess.Popen(
        [*VISION, "read", *as_json, *MANY], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    child.stdout.close()  # as `head -1` does once it has its line
    err = child.stderr.read()
    assert child.wait(timeout=120) == 0, err
    assert IMAGES in first and err == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_an_output_that_cannot_be_written_is_named_as_the_standard_output() -> None:
    """`> /dev/full` said only "error: [Errno 28] No space left on device": of which file?"""
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [*VISION, "read", IMAGES], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120
        )
    assert result.returncode == 1
    assert result.stderr == "error: cannot write the standard output: the disk is full\n"


def test_a_closed_output_is_named_as_such() -> None:
    """`>&-` ended in the traceback of an AttributeError ('NoneType' object has no attribute 'flush')."""
    result = subprocess.run(
        ["sh", "-c", '"$0" "$@" >&-', *VISION, "read", IMAGES], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 1
    assert result.stderr == "error: cannot write the standard output: it is closed\n"


@pytest.mark.parametrize("command", [["read", *MANY], ["bench", "--frames", "2000"]], ids=["read", "bench"])
def test_ctrl_c_is_one_line_and_status_130(command: list[str]) -> None:
    """Ctrl+C printed a KeyboardInterrupt's traceback of some twenty lines."""
    child = subprocess.Popen([*VISION, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    first = child.stdout.readline()  # the first photo read, or the machine named: the work is under way
    assert first, child.communicate(timeout=60)[1]
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert err == "error: stopped\n"


@pytest.mark.parametrize(
    ("command", "argument", "explained"),
    [
        ("read", "PATH", "or a folder: its image files"),
        ("eval", "SET_DIR", "SET_DIR/labels/NAME.txt"),
        ("colour", "COLOURS_DIR", "COLOURS_DIR/yellow/*.jpg"),
        ("enroll", "FACES_DIR", "one folder of photos per face"),
    ],
)
def test_help_says_what_the_command_does_and_what_its_input_is(
    command: str, argument: str, explained: str
) -> None:
    """`read --help` and the others showed a usage line, then PATH (or SET_DIR, COLOURS_DIR) with no word."""
    result = subprocess.run(
        [*VISION, command, "--help"], capture_output=True, text=True, timeout=60, check=True
    )
    usage, description, *_ = result.stdout.split("\n\n")
    assert usage.startswith(f"usage: python -m vision {command}")
    assert not description.startswith("positional arguments:"), result.stdout
    positional = result.stdout.split("positional arguments:\n")[1].split("\n\n")[0]
    assert positional.lstrip().startswith(argument) and explained in " ".join(positional.split())
