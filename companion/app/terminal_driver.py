"""The terminal driver the app runs on: Textual's own, but for what it does when the process is continued."""

from __future__ import annotations

from typing import Any

from textual.driver import Driver


def driver_class(chosen: type[Driver]) -> type[Driver]:
    """`chosen` (the driver Textual picks for this system), or on Linux and macOS one that takes the terminal
    back on SIGCONT only after the app suspended itself (SIGTSTP)."""
    try:
        from textual.drivers.linux_driver import LinuxDriver
    except ImportError:  # Windows
        return chosen
    if chosen is not LinuxDriver:
        return chosen

    class ContinuedDriver(LinuxDriver):
        # Textual's driver took the terminal again on every SIGCONT, one it had never given up too (a process
        # stopped by SIGSTOP, or by the shell for writing to the terminal from the background, then `fg`):
        # each started one more input thread, and quitting waited on the old ones for good (the screen given
        # back, the process never ending: 5 of 9 quits after one to three stops).
        def _sigcont_application(self, *_: Any) -> None:
            # Never in application mode yet (started in the background, its first start stopped at the
            # terminal), `fg`'s SIGCONT is the start it waits for.
            if self._must_signal_resume or self._writer_thread is None:
                super()._sigcont_application()

    return ContinuedDriver
