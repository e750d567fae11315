"""Paths of the pip reader's test data."""

from pathlib import Path

DATA = Path(__file__).parent.parent / "data"
D6_TRAY = DATA / "d6-tray"
"""Four held-out d6-tray photos with their labels and licence."""
SIDE_PIPS = DATA / "d6-tray-side-pips"
"""One held-out d6-tray photo whose fourth die, a marbled 3, shows its side faces' pips through its body."""
CASINO_CROPS = DATA / "casino-crops"
"""One crop of a translucent casino die per value (casino-crops' val split), sorted into folders 1-6."""
CASINO_CLOSE = DATA / "casino-close"
"""Three translucent casino dice cut 1.1 times their box (casino-crops' training split): close photos."""
WEBCAM = DATA / "webcam-red-yellow"
"""One 1920x1080 webcam-red-yellow scene (training half) with its boxes and the value crops cut from it."""
