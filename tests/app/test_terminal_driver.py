"""The app's terminal driver: SIGCONT takes the terminal only where the app gave it up or never had it."""

from __future__ import annotations

import sys

import pytest

from companion.app.terminal_driver import driver_class

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the Linux and macOS driver's signals")


@pytest.mark.parametrize(
    ("suspended", "started", "resumed"),
    [(False, True, False), (True, True, True), (False, False, True)],
    ids=["stopped and continued", "suspended by ctrl+z", "started in the background, then fg"],
)
def test_sigcont_takes_the_terminal_only_when_it_was_given_up_or_never_had(
    suspended: bool, started: bool, resumed: bool
) -> None:
    """A bare SIGSTOP's SIGCONT took the terminal again, one more input thread each time (ctrl+q then never
    ended); the first fix also skipped the SIGCONT of `fg` after a start in the background, where Textual's
    first start had stopped at the terminal: a blank screen, and ctrl+q did nothing."""
    from textual.drivers.linux_driver import LinuxDriver

    cls = driver_class(LinuxDriver)
    driver = object.__new__(cls)  # its signal handlers are the test process's own otherwise
    calls: list[str] = []
    driver._auto_restart = True
    driver._must_signal_resume = suspended
    driver._writer_thread = object() if started else None  # type: ignore[assignment]
    driver.resume_application_mode = lambda: calls.append("resumed")  # type: ignore[method-assign]
    driver._sigcont_application()
    assert calls == (["resumed"] if resumed else [])
