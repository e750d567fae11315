"""A dispute over a Carcassonne turn ("my city was 6 dice, it scored only 10") is settled in F4's replay by
stepping to the move that scored it: that move's table view showed "no city die built this turn", the city
scored gone with the turn's end (it was seen only one move earlier, before its points were said)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from app_driver import make_app, saved_log, text_of
from textual.widgets import Static

from companion.app.carcassonne_dice_words import describe
from companion.app.screens.replay import ReplayScreen
from companion.app.widgets.carcassonne_pad import CityView
from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.carcassonne_dice.simulate import play_random_game


def test_the_replay_shows_the_city_a_turns_end_scored(xdg: Path) -> None:
    events = play_random_game(cd.GameStarted(("Ann", "Ben")), random.Random(3))[1]
    saved_log(log_text(events), "done.jsonl")
    state, scored = cd.replay(events[:1]), None
    for n, event in enumerate(events[1:], start=1):
        after = cd.replay(events[: n + 1])
        words = describe(state, event, after)
        if scored is None and isinstance(event, cd.TurnEnded) and "completed city" in words[0]:
            scored = n
        state = after
    assert scored is not None
    seen: dict[str, str] = {}

    async def look() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            await pilot.press("r", *["right"] * scored)
            replay = pilot.app.screen
            assert isinstance(replay, ReplayScreen) and replay.at == scored
            seen["status"] = str(replay.query_one("#status", Static).render())
            seen["city"] = text_of(replay.query_one(CityView))

    asyncio.run(look())
    assert "completed city" in seen["status"], seen["status"]
    assert "no city die built" not in seen["city"], (seen["status"], seen["city"])
