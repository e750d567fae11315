"""The footer of every screen: the keys of what can be done there, the help's key always in sight."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

HELP_KEY = "f1"
"""The help's key, docked right whatever it does there: the app's help, the help over a modal screen
(`app.help`), closing the help on the help itself."""


class KeysFooter(Footer):
    """Textual's footer, its help key at the right edge (where Textual keeps the command palette's key): the
    keys that do not fit a narrow terminal are left out whole, the last listed first (a screen lists its
    own keys before the app's), and the help lists them all."""

    DEFAULT_CSS = """
    KeysFooter FooterKey.-help, KeysFooter.-compact FooterKey.-help {
        dock: right;
        margin: 0;
        border-left: vkey $foreground 20%;
    }
    """

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.key == HELP_KEY:
                widget.add_class("-help")
            yield widget

    async def recompose(self) -> None:
        await super().recompose()
        self._forget_removed_keys()
        self.call_after_refresh(self._fit)

    def _forget_removed_keys(self) -> None:
        """Drop the keys a recompose removed from what watches the footer's `compact`. Textual binds each key
        to it (`data_bind`) and forgets a key only when `compact` changes: every recompose (each camera
        reading asks for one) kept a footer's worth of keys alive, 1.3 GB an hour with the camera on."""
        watching = getattr(self, "__watchers", {}).get("compact", [])
        watching[:] = [(node, callback) for node, callback in watching if node.is_attached]

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def watch_compact(self) -> None:
        # The keys' widths change with their padding: measured once their new style is applied.
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Show the keys that fit whole left of the help key; Textual's footer cut the first that did not
        mid-word ("F10 Alcazab", "^q q") and hid the rest behind it."""
        keys = [child for child in self.children if not child.has_class("-help")]
        room = self.content_size.width - sum(
            _width(child, self.content_size) for child in self.children if child.has_class("-help")
        )
        used, right_margin, fits = 0, 0, True
        for child in keys:
            # Textual's row lays a margin between two keys once: the larger of the two.
            margin = child.styles.margin
            used += max(right_margin, margin.left) + _width(child, self.content_size)
            right_margin = margin.right
            fits = fits and used <= room
            child.display = fits


def _width(widget: Widget, container: Size) -> int:
    """The columns `widget` takes in a row of `container`, its margin aside."""
    return widget.get_content_width(container, container) + widget.styles.gutter.width
