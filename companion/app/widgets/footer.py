"""The footer of every screen: the keys of what can be done there, the help's key always in sight."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

HELP_ACTION = "help"


class KeysFooter(Footer):
    """Textual's footer, its help key at the right edge (where Textual keeps the command palette's key): the
    footer cuts the keys that do not fit a narrow terminal, and the help lists them all."""

    DEFAULT_CSS = """
    KeysFooter FooterKey.-help, KeysFooter.-compact FooterKey.-help {
        dock: right;
        margin: 0;
        border-left: vkey $foreground 20%;
    }
    """

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.action == HELP_ACTION:
                widget.add_class("-help")
            yield widget
