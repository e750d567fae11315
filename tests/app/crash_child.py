"""Run by test_app_crash.py in a subprocess: start a game, play some turns by keys, report, then hang
(`pad`: open an Alhambra scoring pad and type one count instead).

The parent kills this process with SIGKILL (no clean shutdown) and continues the game in a new app.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

from app_driver import game_screen, make_app, new_game, next_keys, send_keys

from companion.games import alhambra_rw as rw


async def main(report: Path, decisions: int, game: str) -> None:
    app = make_app(seed=31)
    async with app.run_test(size=(80, 24)) as pilot:
        if game == "pad":
            await pilot.press(*"Anna", "tab", *"Ben", "f7")
            await pilot.pause()
            await pilot.press("2")  # Anna's pavilions: the first count has the focus
            await pilot.pause()
            played: dict[str, Any] = {"log": str(app.screen.path), "pad": app.screen.pad}  # type: ignore[attr-defined]
        else:
            await new_game(pilot, ["Anna", "Ben"])
            rng = random.Random(32)
            for _ in range(decisions):
                await send_keys(pilot, next_keys(game_screen(app), rng))
            session = game_screen(app).session
            played = {
                "log": str(session.path),
                "events": [rw.event_to_json(e) for e in session.events],
                "prompt": session.expectation().prompt,
            }
        partial = report.with_suffix(".tmp")
        partial.write_text(json.dumps(played), encoding="utf-8")
        partial.rename(report)
        await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "game"))
