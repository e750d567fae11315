"""The small nets, sized for one CPU thread: a stride-4 die detector, a crop classifier, the face embedder and
the top-face locator."""

from __future__ import annotations

import torch
from torch import nn


def conv(i: int, o: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(i, o, 3, stride, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


def separable(i: int, o: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(i, i, 3, 1, 1, groups=i, bias=False),
        nn.BatchNorm2d(i),
        nn.ReLU(inplace=True),
        nn.Conv2d(i, o, 1, bias=False),
        nn.BatchNorm2d(o),
        nn.ReLU(inplace=True),
    )


class DieDetectorNet(nn.Module):
    """Input 1×3×H×W (0-255, H and W multiples of 16); outputs heat 1×1×H/4×W/4 and regression 1×6×H/4×W/4."""

    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(conv(3, 16, 2), conv(16, 24, 2), separable(24, 24))
        self.s8 = nn.Sequential(conv(24, 48, 2), separable(48, 48), separable(48, 48))
        self.s16 = nn.Sequential(conv(48, 64, 2), separable(64, 64), separable(64, 64), separable(64, 64))
        self.lat16 = nn.Conv2d(64, 48, 1)
        self.fuse8 = separable(48, 48)
        self.lat8 = nn.Conv2d(48, 24, 1)
        self.fuse4 = separable(24, 32)
        self.heat = nn.Conv2d(32, 1, 1)
        self.reg = nn.Conv2d(32, 6, 1)
        assert self.heat.bias is not None
        nn.init.constant_(self.heat.bias, -2.2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = x / 255.0 - 0.5
        f4 = self.s4(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        up = nn.functional.interpolate(self.lat16(f16), scale_factor=2.0, mode="nearest")
        g8 = self.fuse8(f8 + up)
        up = nn.functional.interpolate(self.lat8(g8), scale_factor=2.0, mode="nearest")
        g4 = self.fuse4(f4 + up)
        return torch.sigmoid(self.heat(g4)), self.reg(g4)


class PipClassifierNet(nn.Module):
    """Input N×3×S×S crops (0-255, S a multiple of 8); outputs N×7 class probabilities (0 = not a pip die,
    1-6 = value)."""

    def __init__(self, size: int, classes: int = 7) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 16),
            nn.MaxPool2d(2),
            conv(16, 32),
            nn.MaxPool2d(2),
            conv(32, 48),
            conv(48, 48),
            nn.MaxPool2d(2),
            conv(48, 64),
        )
        cells = size // 8
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(64 * cells * cells, 128),
            nn.ReLU(),
            nn.Linear(128, classes),
        )

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(self.features(x / 255.0 - 0.5))
        return out

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.logits(x), dim=1)


class FaceEmbedderNet(nn.Module):
    """Input N×3×48×48 face cuts (0-255); outputs N×D unit vectors and N×1 die-face probabilities.

    The last feature map (6×6) is flattened, not pooled: where the art lies on the face (which corner a pip,
    which side a city) is what tells many faces and their quarter turns apart.
    """

    def __init__(self, dims: int = 128) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 32, 2),
            separable(32, 48),
            conv(48, 64, 2),
            separable(64, 64),
            separable(64, 96),
            conv(96, 128, 2),
            separable(128, 128),
            nn.Conv2d(128, 48, 1),
        )
        self.embed = nn.Sequential(nn.Flatten(), nn.Linear(48 * 6 * 6, 256), nn.ReLU(inplace=True))
        self.vector = nn.Linear(256, dims)
        self.face = nn.Linear(256, 1)

    def parts(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Unit vectors and die-face logits."""
        hidden = self.embed(self.features(x / 255.0 - 0.5))
        return nn.functional.normalize(self.vector(hidden), dim=1), self.face(hidden)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        vectors, logits = self.parts(x)
        return vectors, torch.sigmoid(logits)


class TopFaceNet(nn.Module):
    """Input N×3×32×32 crops of found dice (0-255, the pip classifier's crop: `vision.crops.CROP_MARGIN` box
    sides, not turned); outputs N×2, where the die's top face's centre lies from the crop's centre, in crop
    sides (x right, y down).

    Flattened, not pooled, as the embedder: where in the crop the top face lies is the answer.
    """

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(conv(3, 16, 2), conv(16, 32, 2), conv(32, 64, 2), conv(64, 64, 2))
        self.head = nn.Sequential(
            nn.Flatten(), nn.Linear(64 * 2 * 2, 64), nn.ReLU(inplace=True), nn.Linear(64, 2)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        centre: torch.Tensor = self.head(self.features(x / 255.0 - 0.5))
        return centre
