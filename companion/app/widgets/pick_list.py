"""An option list a click picks from before it opens: Textual's opened the option clicked at once."""

from __future__ import annotations

from textual.events import Blur, Click
from textual.widgets import OptionList


class PickList(OptionList):
    """A click picks (highlights) the option under it; a second click on the option picked, or Enter, selects
    it. A single click opened a saved game, so a mouse could not choose one to delete (del) or look at a past
    game's plot without opening it. What the list highlights by itself (its first game) is not picked: a
    click on it from the form opened it too."""

    picked: int | None = None
    """The option the last click picked while the list kept the focus (None: none since)."""

    def on_click(self, event: Click) -> None:
        clicked = event.style.meta.get("option")
        if not isinstance(clicked, int) or clicked == self.picked:
            return  # OptionList's own click handler selects it
        if not self.get_option_at_index(clicked).disabled:
            self.highlighted = clicked
            self.picked = clicked
        event.prevent_default()

    def on_blur(self, _: Blur) -> None:
        self.picked = None

    def clear_options(self) -> PickList:
        self.picked = None  # the list is made anew: an index picked before names another game now
        super().clear_options()
        return self
