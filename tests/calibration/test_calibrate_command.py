"""`companion calibrate colours --camera`: prompts stopped by Ctrl+C, or by input that ends, in one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app import paths

TRAY = Path(__file__).parents[1] / "data" / "d6-tray" / "images"
"""Photos of dice on a tray, shown to the command as a camera's frames."""


def calibrate_colours(tmp_path: Path, stdin: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "calibrate", "colours", "--camera", str(TRAY)],
        stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip


def test_ctrl_c_at_a_prompt_is_one_line_and_keeps_the_old_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C at "press Enter" printed a KeyboardInterrupt's traceback."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    profile = paths.colour_profile_path()
    profile.parent.mkdir(parents=True)
    profile.write_text("the profile taught before\n")
    child = calibrate_colours(tmp_path, subprocess.PIPE)
    assert child.stdout is not None
    shown = b""
    while b"press Enter" not in shown:  # the prompt ends without a line end: read what comes
        more = os.read(child.stdout.fileno(), 4096)
        assert more, shown + child.communicate(timeout=60)[1]
        shown += more
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert err.decode() == "companion calibrate: stopped, nothing saved\n"
    assert profile.read_text() == "the profile taught before\n"


def test_input_that_ends_at_a_prompt_is_one_line_saying_it_needs_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With input from /dev/null the prompt ended in an EOFError's traceback."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    child = calibrate_colours(tmp_path, subprocess.DEVNULL)
    said, err = child.communicate(timeout=60)
    assert child.returncode == 2, err
    assert err.decode() == (
        "companion calibrate: stopped, nothing saved: the input ended before Enter was pressed"
        " (run it in a terminal)\n"
    )
    assert said.decode().endswith("press Enter \n")  # the prompt's line is ended before the error's
    assert not paths.colour_profile_path().exists()
