"""The terminal driver the app and the table's view run on: Textual's own, but for what it does when the
process is continued and with a byte of input that is no UTF-8; and their status when Textual panics."""

from __future__ import annotations

import os
import selectors
from codecs import getincrementaldecoder
from typing import Any

from rich.console import RenderableType
from textual._loop import loop_last
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.driver import Driver


def driver_class(chosen: type[Driver]) -> type[Driver]:
    """`chosen` (the driver Textual picks for this system), or on Linux and macOS one that takes the terminal
    back on SIGCONT only after the app suspended itself (SIGTSTP), and reads a byte of input that is no UTF-8
    as U+FFFD."""
    try:
        from textual.drivers.linux_driver import LinuxDriver
    except ImportError:  # Windows
        return chosen
    if chosen is not LinuxDriver:
        return chosen

    class TerminalDriver(LinuxDriver):
        # Textual's driver took the terminal again on every SIGCONT, one it had never given up too (a process
        # stopped by SIGSTOP, or by the shell for writing to the terminal from the background, then `fg`):
        # each started one more input thread, and quitting waited on the old ones for good (the screen given
        # back, the process never ending: 5 of 9 quits after one to three stops).
        def _sigcont_application(self, *_: Any) -> None:
            # Never in application mode yet (started in the background, its first start stopped at the
            # terminal), `fg`'s SIGCONT is the start it waits for.
            if self._must_signal_resume or self._writer_thread is None:
                super()._sigcont_application()

        def run_input_thread(self) -> None:
            # Textual's own loop (8.2), but for its decoder: a strict one raised on the first byte that is no
            # UTF-8 (ü typed in a terminal set to Latin-1), and the app ended in that traceback (Textual
            # issue 6456). The app refuses to start where the locale is not UTF-8, so such a byte is a
            # terminal at odds with its locale: no other encoding can be told from it, and U+FFFD shows
            # that a key was typed that could not be read.
            selector = selectors.SelectSelector()
            selector.register(self.fileno, selectors.EVENT_READ)
            parser = XTermParser(self._debug)
            decode = getincrementaldecoder("utf-8")(errors="replace").decode

            def process_selector_events(
                selector_events: list[tuple[selectors.SelectorKey, int]], final: bool = False
            ) -> None:
                for last, (_, mask) in loop_last(selector_events):
                    if mask & selectors.EVENT_READ:
                        unicode_data = decode(os.read(self.fileno, 1024 * 4), final=final and last)
                        if not unicode_data:  # standard input piped, and at its end
                            break
                        for event in parser.feed(unicode_data):
                            self.process_message(event)
                for event in parser.tick():
                    self.process_message(event)

            try:
                while not self.exit_event.is_set():
                    process_selector_events(selector.select(0.1))
                selector.unregister(self.fileno)
                process_selector_events(selector.select(0.1), final=True)
            finally:
                selector.close()
                try:
                    for _ in parser.feed(""):
                        pass
                except (EOFError, ParseError):
                    pass

    return TerminalDriver


class TerminalApp(App[None]):
    """An app on the driver above, whose status is 1 when it ended in a panic."""

    def get_driver_class(self) -> type[Driver]:
        return driver_class(super().get_driver_class())

    def panic(self, *renderables: RenderableType) -> None:
        # Textual sets the status 1 for an exception in the app, not for a panic (an error in the driver's
        # input thread ends the app in one): the traceback was shown, and the command ended 0.
        self._return_code = 1
        super().panic(*renderables)
