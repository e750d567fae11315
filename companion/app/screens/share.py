"""The share screen: where the players open the table's view on their phones, the address as a QR code."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..sharing import MAX_VIEWERS, phone_addresses, qr_lines, view_url


class ShareScreen(ModalScreen[None]):
    """The view served on every network, port `port`: each address a phone on this machine's networks
    opens (the interfaces are looked at each time the screen opens: a laptop may have joined a network)."""

    CSS_PATH = "share.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f6", "dismiss", "close")]

    def __init__(self, port: int, token: str) -> None:
        super().__init__()
        self.urls = [view_url(address, port, token) for address in phone_addresses()]
        self.url = self.urls[0] if self.urls else None
        """The address in the QR code (None: no network a phone could be on)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="share"):
            if self.url is None:
                yield Static(
                    "This machine is on no network but its own (loopback): a phone cannot reach the view.\n"
                    "Join the table's Wi-Fi, then press F6 again.",
                    id="url",
                )
            else:
                others = "".join(f"\nor, on another network: {url}" for url in self.urls[1:])
                yield Static(
                    f"The table's view, read-only, on phones on this machine's network:\n{self.url}{others}",
                    id="url",
                )
                yield Static("\n".join(qr_lines(self.url)), id="qr")
            yield Static(
                f"Served on every network of this machine; only this address (its key) opens it, on up to "
                f"{MAX_VIEWERS} screens at once.\nesc closes; the view stays served until the app quits",
                id="hint",
            )
