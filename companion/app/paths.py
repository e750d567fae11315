"""Where the app keeps its files: sheet definitions in the config dir, game logs in the data dir (XDG)."""

from __future__ import annotations

import os
from pathlib import Path

from jsonfile.folders import FolderError as FolderError
from jsonfile.folders import make_folder as make_folder

APP_DIR_NAME = "table-companion"


def _xdg(variable: str, fallback: str, kept: str) -> Path:
    # An empty or relative XDG variable counts as unset (XDG Base Directory spec): a relative one would move
    # the games with the folder the app is started in; so would a relative HOME.
    value = Path(os.environ.get(variable, ""))
    if value.is_absolute():
        return value / APP_DIR_NAME
    try:
        home = Path.home()
    except RuntimeError:  # no HOME, and a user the system has no home for
        home = Path()
    if not home.is_absolute():
        raise FolderError(f"no home folder to keep {kept} in: set HOME or {variable} to a folder's full path")
    return home / fallback / APP_DIR_NAME


def config_dir() -> Path:
    """`$XDG_CONFIG_HOME/table-companion` (default `~/.config/table-companion`)."""
    return _xdg("XDG_CONFIG_HOME", ".config", "the sheets and the calibration")


def data_dir() -> Path:
    """`$XDG_DATA_HOME/table-companion` (default `~/.local/share/table-companion`)."""
    return _xdg("XDG_DATA_HOME", ".local/share", "the games")


def sheets_dir() -> Path:
    """User-entered sheet definitions, one JSON file each."""
    return config_dir() / "sheets"


def games_dir() -> Path:
    """Game logs, one file per game."""
    return data_dir() / "games"


def demos_dir() -> Path:
    """The demos' game logs, every game's, kept apart from the real games: never continued, listed in
    history or counted in statistics with them."""
    return data_dir() / "demos"


def colour_profile_path() -> Path:
    """The colour profile of this table's game dice, taught with `companion calibrate colours` or F3."""
    return config_dir() / "colour-profile.json"


def table_area_path() -> Path:
    """The part of the camera's view where the dice are thrown, set with `companion calibrate area`."""
    return config_dir() / "table-area.json"


def view_address_path() -> Path:
    """The key and port F6 served the table's view with, kept for the next run: phones on that address open
    the view again when the app serves it anew."""
    return config_dir() / "view-address.json"


def log_path() -> Path:
    """The app's log: what OpenCV and FFmpeg print while the app has the screen (camera retries, codecs).
    `$XDG_STATE_HOME/table-companion/companion.log` (default `~/.local/state/...`)."""
    return _xdg("XDG_STATE_HOME", ".local/state", "the log") / "companion.log"
