"""Calibration from the app: teach the colour profile of the game's yellow and blue dice under this light.

The players put only the yellow dice in the tray and press y (again after re-rolling them, for more
samples), then the blue ones and b; s saves the profile, which the reader uses from then on and which is
remembered for the next game.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from companion.live.match import GAME_COLOURS
from vision.colour import body_lab
from vision.colour_profile import MIN_SAMPLES, ColourProfile, ColourProfileError, save_profile, teach
from vision.reading import DiceReading, Image

from ..keys import HELP_OVER_MODAL, QUIT_OVER_MODAL
from ..widgets.camera_panel import CameraPanel
from ..widgets.footer import KeysFooter
from ..widgets.message_line import ERROR, error_style


class CalibrateScreen(ModalScreen[None]):
    CSS_PATH = "calibrate.tcss"
    COMPONENT_CLASSES: ClassVar[set[str]] = {ERROR}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "sample('yellow')", "yellow dice in view"),
        Binding("b", "sample('blue')", "blue dice in view"),
        Binding("s", "save", "save"),
        Binding("escape", "dismiss", "back"),
        QUIT_OVER_MODAL,
        HELP_OVER_MODAL,
    ]

    class Taught(Message):
        """A colour profile was taught and saved: the reader should use it."""

        def __init__(self, profile: ColourProfile) -> None:
            super().__init__()
            self.profile = profile

    def __init__(self, profile_path: Path) -> None:
        super().__init__()
        self.profile_path = profile_path
        self.samples: dict[str, list[npt.NDArray[np.float32]]] = {c: [] for c in GAME_COLOURS}
        self.frame: tuple[Image, DiceReading] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="steps")
        yield CameraPanel(id="camera")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#camera").border_title = "Camera"
        self._show("")

    def see(self, image: Image, reading: DiceReading) -> None:
        """The newest frame and what the reader found in it (the dice to take samples from)."""
        self.frame = (image, reading)

    def action_sample(self, colour: str) -> None:
        if self.frame is None or not self.frame[1].dice:
            self._show(f"no dice in view: put the {colour} dice in the tray", error=True)
            return
        image, reading = self.frame
        self.samples[colour] += [body_lab(image, d.box) for d in reading.dice]
        self._show(f"{len(reading.dice)} {colour} dice taken")

    def action_save(self) -> None:
        try:
            profile = teach(self.samples)
        except ColourProfileError as err:
            self._show(str(err), error=True)
            return
        try:
            save_profile(profile, self.profile_path)
        except OSError as exc:  # a full disk, a folder not writable: the samples stay to save again
            self._show(f"cannot save the colours: {exc}", error=True)
            return
        self.post_message(self.Taught(profile))
        self.dismiss()

    def _show(self, message: str, error: bool = False) -> None:
        counts = ", ".join(f"{c}: {len(v)}" for c, v in self.samples.items())
        lines = [
            "Teach the reader the game's dice colours under this table's light.",
            "1. Put only the yellow dice in the tray and press y; roll them again and press y again.",
            "2. The same with only the blue dice and b.",
            f"3. s saves (at least {MIN_SAMPLES} samples of each colour). Esc goes back without saving.",
            f"Samples so far: {counts}",
        ]
        steps = Text("\n".join(lines))
        if message:
            steps.append(f"\n{message}", style=error_style(self) if error else "bold green")
        self.query_one("#steps", Static).update(steps)
