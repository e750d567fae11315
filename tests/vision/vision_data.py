"""Paths of the pip reader's test data."""

from pathlib import Path

DATA = Path(__file__).parent.parent / "data"
D6_TRAY = DATA / "d6-tray"
"""Four held-out d6-tray photos with their labels and licence."""
