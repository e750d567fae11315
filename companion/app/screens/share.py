"""The share screen: where the players open the table's view on their phones, the address as a QR code."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical
from textual.events import Resize
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ..keys import HELP_OVER_MODAL, QUIT_OVER_MODAL
from ..sharing import MAX_VIEWERS, ServedView, phone_addresses, qr_lines, view_url
from ..widgets.fitted import fit_classes
from ..widgets.footer import KeysFooter
from .alhambra_pad import AlhambraPadScreen
from .play import PlayScreen

WATCH_SECONDS = 0.5
"""How often the screen looks whether the server still serves: one that cannot listen ends within a second."""
TRIES = 3
"""Servers F6 starts, each on a port picked anew, before it says that the view cannot be served: the app picks
the port, so one taken before its server listens is the app's to replace, not the players'."""


def addresses(served: ServedView) -> list[str]:
    return [view_url(address, served.port, served.token) for address in phone_addresses()]


def game_on_screen(screens: Sequence[Screen[Any]]) -> Path | None:
    """The saved game the topmost game screen plays (also under its help or end screen), or None where no
    game is open (the start screen, past games)."""
    for screen in reversed(screens):
        if isinstance(screen, PlayScreen):
            return screen.session.path
        if isinstance(screen, AlhambraPadScreen):
            return screen.path
    return None


class ShareScreen(ModalScreen[None]):
    """The view `served` on every network: each address a phone on this machine's networks opens (the
    interfaces are looked at each time the screen opens: a laptop may have joined a network), or why it is
    not served (F6 serves it anew). It serves the game under it (the newest where none is open), started
    anew on the same address where the game changed since the last F6."""

    CSS_PATH = "share.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "close"),
        Binding("f6", "again", "close, or serve anew", show=False),
        Binding("n", "new_key", "new key"),
        QUIT_OVER_MODAL,
        HELP_OVER_MODAL,
    ]

    def __init__(self, served: ServedView) -> None:
        super().__init__()
        self.served = served
        self.urls = addresses(served)
        self.ended = ""
        """Why the view is no longer served ('' while it is)."""
        self.tries = 1

    @property
    def url(self) -> str | None:
        """The address in the QR code (None: no network a phone could be on)."""
        return self.urls[0] if self.urls else None

    def on_mount(self) -> None:
        self.served.serve(game_on_screen(self.app.screen_stack))
        self.set_interval(WATCH_SECONDS, self.look_at_server)

    async def look_at_server(self) -> None:
        ended = self.served.why_ended()
        if self.served.could_not_listen and self.tries < TRIES:
            self.tries += 1
            await self.app.run_action("share")
            return
        if ended != self.ended:
            self.ended = ended
            self.refresh(recompose=True)

    def serve(self, served: ServedView) -> None:
        """Serve the game under this screen with `served` (the server started anew, or the same one), and
        show it."""
        served.serve(game_on_screen(self.app.screen_stack))
        self.served, self.urls, self.ended = served, addresses(served), ""
        self.refresh(recompose=True)

    async def action_again(self) -> None:
        """F6 again: serve anew a view no longer served, look again for a network, or close."""
        if self.ended:
            self.tries = 1
            await self.app.run_action("share")
        elif self.url is None:
            self.serve(self.served)
        else:
            self.dismiss()

    async def action_new_key(self) -> None:
        """A new key for the view's address (the old one, kept from run to run, refused from now on): each
        phone scans the new code."""
        self.tries = 1
        await self.app.run_action("share(True)")

    def on_resize(self, event: Resize) -> None:
        fit_classes(self, event.size)

    def compose(self) -> ComposeResult:
        # The QR code beside the words where the terminal is short (80×24): stacked it ran off the bottom,
        # cut, and a phone's camera reads no cut code.
        with Container(id="share"):
            if self.url is not None and not self.ended:
                yield Static("\n".join(qr_lines(self.url)), id="qr")
            with Vertical(id="words"):
                yield Static(self.said(), id="url")
                if not self.ended:
                    yield Static(
                        "Served on every network of this machine; only this address (its key) opens it, "
                        f"on up to {MAX_VIEWERS} screens at once.\n"
                        "esc closes; the view stays served until the app quits, and its address is "
                        "kept for the next run (n: a new key, which every phone scans anew)",
                        id="hint",
                    )
        yield KeysFooter()

    def said(self) -> str:
        if self.ended and self.served.could_not_listen:
            # The server's own reason advises its command's --port, which the app has not.
            return (
                f"The table's view is not served: another program took each of the {TRIES} ports tried (the "
                f"last {self.served.port}).\nF6 tries again."
            )
        if self.ended:
            return f"The table's view is not served: {self.ended}.\nF6 serves it anew."
        if self.url is None:
            return (
                "This machine is on no network but its own (loopback): a phone cannot reach the view.\n"
                "Join the table's Wi-Fi, then press F6 again."
            )
        others = "".join(f"\nor, on another network: {url}" for url in self.urls[1:])
        return f"The table's view, read-only, on phones on this machine's network:\n{self.url}{others}"
