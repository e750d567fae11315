"""A reader that knows the rendered truth: to test settling apart from how well the models read."""

from __future__ import annotations

import numpy as np

from vision.reading import Box, DiceReading, Die, Image
from vision.simulated_table.rolling import RollingTable


class TruthReader:
    """Reads a rolling table perfectly once the dice rest; while they tumble it sees random dice, as a real
    reader may on blurred frames."""

    def __init__(self, table: RollingTable, seed: int = 0) -> None:
        self.table = table
        self.rng = np.random.default_rng(seed)

    def read(self, image: Image) -> DiceReading:
        truth = self.table.truth
        if truth:
            return DiceReading(tuple(Die(d.box, "pip", d.color, 1.0, d.value) for d in truth), 0.0)
        dice = []
        for _ in range(int(self.rng.integers(0, 4))):
            x, y = self.rng.uniform(0, image.shape[1] - 40), self.rng.uniform(0, image.shape[0] - 40)
            dice.append(Die(Box(x, y, x + 36, y + 36), "pip", "yellow", 0.5, int(self.rng.integers(1, 7))))
        return DiceReading(tuple(dice), 0.0)
