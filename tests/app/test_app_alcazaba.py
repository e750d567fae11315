"""The Alcazaba variant in the app: F10 on the start screen starts it for the names typed; the round's tiles
are typed onto their columns, the dice and markers as in the standard game, the best marker takes a tile of
its column and builds it (or puts it in the reserve), a rebuild action replaces a marker; the board shows the
tiles by column and every Alhambra; bad entries are refused with why and write nothing; the camera's roll goes
in; the export is the original Alhambra's scoring."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from app_driver import make_app, start_named, text_of
from textual.widgets import Input, Static

from companion.app.alcazaba_input import HELP
from companion.app.screens.alcazaba import AlcazabaScreen
from companion.app.screens.help import ALCAZABA_TYPING
from companion.games import alhambra_dice as ad
from vision.reading import Box, DiceReading, Die

SIZE = (110, 60)
LAY = "lay p s a c g t g/NES g t a c start p"
"""Tiles 0-5 the pile (no walls), 6 a garden walled N, E, S, 7-10 the drawn garden, tower, arcades, chambers;
the start-player tile on the pavilion column."""
WORST = ("tppppppp", "tppppppp", "tppppppp", "place tower")
"""One tower symbol in three rolls: line 1, right field (the markers after the first are out)."""


def enter_lines(screen: AlcazabaScreen, *lines: str) -> str:
    """Type lines into the entry (handed to its Enter handler directly); the message after the last."""
    entry = screen.query_one("#entry", Input)
    for line in lines:
        entry.value = line
        screen.typed(Input.Submitted(entry, line))
    return str(screen.query_one("#message", Static).render())


def test_an_alcazaba_game_is_typed_tiles_taken_by_column_and_built_rebuilt_and_exported(xdg: Path) -> None:
    seen: dict[str, Any] = {}

    async def play() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben", "Cleo"], "f10", AlcazabaScreen)
            log = screen.session.path.read_text()
            seen["short lay"] = enter_lines(screen, "lay p s a c g t g start p")
            seen["bad walls"] = enter_lines(screen, "lay p s a c g t g/NX g t a c start p")
            seen["bonus tiles"] = enter_lines(screen, "tiles vp cancel start vp exchange vp")
            seen["unchanged"] = screen.session.path.read_text() == log
            enter_lines(screen, LAY)
            seen["board"] = str(screen.query_one("#board", Static).render())
            enter_lines(screen, "gggggttt", "place garden", "gggttttt", "place garden", "pptttttt", "place p")
            while screen.state.ask is not ad.Ask.PRIZE:
                enter_lines(screen, *WORST)
            seen["prize"] = str(screen.query_one("#now", Static).render())
            seen["how"] = str(screen.query_one("#how", Static).render())
            seen["other column"] = enter_lines(screen, "take 6 at 0 1")
            enter_lines(screen, "take start Ben", "take 6 at 0 1", "take 7 at 1 0", "take 5 reserve")
            seen["round"] = (screen.state.round, screen.state.caliph)
            seen["alhambras"] = str(screen.query_one("#board", Static).render())
            # Round 2: Ben, the Caliph now, puts his garden into the reserve instead of placing his marker.
            enter_lines(screen, LAY, "gggggggg")
            seen["rebuild"] = enter_lines(screen, "rebuild remove 1 0")
            view = screen.state.alcazaba
            assert view is not None
            seen["reserve"] = view.reserves[1]
            await pilot.pause()
            # Round 1 ended with scoring 1: shown over the game until esc goes back to it.
            seen["panel"] = text_of(pilot.app.screen.query_one("#scoring-text", Static))
            await pilot.press("escape")
            seen["back"] = pilot.app.screen is screen
            await pilot.press("ctrl+e")
            await pilot.pause()
            seen["path"] = screen.session.path

    asyncio.run(play())
    assert "7 tiles typed: the pile's 6, then the 5 drawn" in seen["short lay"]
    assert "the walls after the slash are sides among N, E, S, W" in seen["bad walls"]
    assert "now: Round 1: lay out a pile" in seen["bonus tiles"] and seen["unchanged"]
    assert "6 g/NES" in seen["board"] and "start" in seen["board"]
    assert "0: pavilion (no walls)" in seen["prize"] and "take N at ROW COL" in seen["how"]
    assert "tile 6 lies on the garden column" in seen["other column"]
    assert seen["round"] == (2, 1)
    assert "Ann's Alhambra (reserve: 0 t)" in seen["alhambras"] and "g/NES" in seen["alhambras"]
    assert seen["reserve"] == (ad.BuildingTile("garden"),), seen["rebuild"]
    assert seen["panel"].startswith("Scoring 1\n  Ann: ") and "wall" in seen["panel"] and seen["back"]
    exported = json.loads(seen["path"].with_suffix(".score.json").read_text())
    scoring = exported["scoring"]
    # One scoring of three held: the best so far leads, wins nothing yet (the export said "Winner").
    assert exported["game"] == "alhambra-dice" and not exported["finished"] and exported["winners"] == []
    assert "**no winner yet**" in seen["path"].with_suffix(".score.md").read_text()
    assert scoring["game"] == "alhambra" and [p["name"] for p in scoring["players"]] == ["Ann", "Ben", "Cleo"]
    ann = scoring["players"][0]["scorings"][0]
    assert ann["wall"]["length"] == 3 and ann["buildings"]["garden"]["count"] == 1


def test_the_camera_enters_a_roll_in_the_alcazaba_game(xdg: Path) -> None:
    sure = tuple(
        Die(Box(40 * n, 0, 40 * n + 30, 30), "symbol", "white", 0.95, face=face, rotation=0)
        for n, face in enumerate(["tower"] * 5 + ["garden"] * 3)
    )

    async def play() -> ad.Event:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben"], "f10", AlcazabaScreen)
            enter_lines(screen, LAY)
            screen.table_settled(DiceReading(sure, 0.0))
            await pilot.pause()
            return screen.session.events[-1]

    rolled = asyncio.run(play())
    assert rolled == ad.Rolled("Ann", (0, 0, 0, 0, 3, 5)) and isinstance(rolled, ad.Rolled)
    assert rolled.source == "camera"


def test_the_variants_words_name_its_entries_and_none_of_the_standard_games_tiles() -> None:
    """The Now panel offered `place TYPE displace`, `cancel` and `black TYPE` (the standard game's bonus
    tiles, none of the variant's), and F1 left out `place TYPE` and gave `rebuild` no form."""
    choose = HELP[ad.Ask.CHOOSE]
    assert "place TYPE" in choose and not any(w in choose for w in ("displace", "cancel", "black"))
    typed = dict(ALCAZABA_TYPING)
    assert "place garden" in typed and "rebuild remove ROW COL" in typed["rebuild …"]
