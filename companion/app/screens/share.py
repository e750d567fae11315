"""The share screen: where the players open the table's view on their phones, the address as a QR code."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..sharing import qr_lines


class ShareScreen(ModalScreen[None]):
    CSS_PATH = "share.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f6", "dismiss", "close")]

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def compose(self) -> ComposeResult:
        with Vertical(id="share"):
            yield Static(
                f"The table's view, read-only, on every phone on this network:\n{self.url}", id="url"
            )
            yield Static("\n".join(qr_lines(self.url)), id="qr")
            yield Static("esc closes; the view stays served until the app quits", id="hint")
