"""Camera frames to dice readings. Knows nothing about games."""

from vision.reading import Box, DiceReading, Die, Frame

__all__ = ["Box", "DiceReading", "Die", "Frame"]
