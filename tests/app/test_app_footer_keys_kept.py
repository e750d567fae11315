"""The footer's keys made anew are not kept alive: Textual binds each key to the footer's `compact` and forgot
a key only when `compact` changed, so every recompose (each camera reading asks for one) kept a footer's worth
of keys, 1.3 GB an hour with the camera on."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

from app_driver import make_app, start_named
from textual.widgets._footer import FooterKey

from companion.app.screens.roll_and_write import RollAndWriteScreen


def keys_alive() -> int:
    gc.collect()
    return sum(isinstance(thing, FooterKey) for thing in gc.get_objects())


def test_the_footers_keys_do_not_pile_up_as_the_bindings_change(xdg: Path) -> None:
    alive: list[int] = []

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben", "Cleo"], "f5", RollAndWriteScreen)
            for n in range(40):
                screen.refresh_bindings()  # as a camera reading settling does
                await pilot.pause()
                if n in (9, 39):
                    alive.append(keys_alive())

    asyncio.run(run())
    assert alive[1] == alive[0], alive
