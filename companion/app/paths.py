"""Where the app keeps its files: sheet definitions in the config dir, game logs in the data dir (XDG)."""

from __future__ import annotations

import os
from pathlib import Path

APP_DIR_NAME = "table-companion"


def _xdg(variable: str, fallback: str) -> Path:
    # An empty XDG variable counts as unset (XDG Base Directory spec).
    value = os.environ.get(variable, "")
    base = Path(value) if value else Path.home() / fallback
    return base / APP_DIR_NAME


def config_dir() -> Path:
    """`$XDG_CONFIG_HOME/table-companion` (default `~/.config/table-companion`)."""
    return _xdg("XDG_CONFIG_HOME", ".config")


def data_dir() -> Path:
    """`$XDG_DATA_HOME/table-companion` (default `~/.local/share/table-companion`)."""
    return _xdg("XDG_DATA_HOME", ".local/share")


def sheets_dir() -> Path:
    """User-entered sheet definitions, one JSON file each."""
    return config_dir() / "sheets"


def games_dir() -> Path:
    """Game logs, one file per game."""
    return data_dir() / "games"
