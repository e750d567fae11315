"""Alhambra – the dice game in the app: F8 on the start screen starts it for the names typed; every roll and
choice is typed into one line (the test plays the engine's random player's moves, as the players would type
them); bad entries are refused with why and lose nothing; undo, redo, resume and export; the camera's sure
readings go in, unsure ones are asked; a snapshot of the board."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from pathlib import Path
from typing import Any

from app_driver import continue_first, make_app, saved_log, start_named, text_of, type_entry
from textual.pilot import Pilot
from textual.widgets import Input, Static

from companion.app import paths
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.end import ScoringPanel
from companion.app.widgets.alhambra_board import board_text, marks
from companion.app.widgets.wrapped_log import WrappedLog
from companion.cli import main as companion_main
from companion.games import alhambra_dice as ad
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice.scorefile import log_text
from companion.games.alhambra_dice.simulate import next_event, play_random_game
from vision.reading import Box, DiceReading, Die

SIZE = (100, 32)
TILE_WORDS = {"black_die": "black", "start_player": "start"}


def typed(event: ad.Event) -> str:
    """What the players type for an event."""
    if isinstance(event, ad.RoundPrepared):
        dirk = f" dirk {event.dirk_column}" if event.dirk_column else ""
        return "tiles " + " ".join(TILE_WORDS.get(t, t) for t in event.tiles) + dirk
    if isinstance(event, ad.Rolled):
        return " ".join(map(str, event.dice))
    if isinstance(event, ad.RollCancelled):
        return "cancel"
    if isinstance(event, ad.BlackDieSet):
        return f"black {event.building}"
    if isinstance(event, ad.MarkerPlaced):
        return f"place {event.building}" + (" displace" if event.displace else "")
    assert isinstance(event, ad.PrizeTaken)
    extra = [str(event.value)] if event.value else [event.start_player] if event.start_player else []
    extra += [word for other in event.exchange or () for word in ("exchange", other)]
    return " ".join([event.prize, *extra])


async def enter(pilot: Pilot[None], text: str) -> str:
    """Type a line and press Enter; returns the message shown."""
    return await type_entry(pilot, AlhambraDiceScreen, text)


async def start_game(pilot: Pilot[None], names: list[str]) -> AlhambraDiceScreen:
    return await start_named(pilot, names, "f8", AlhambraDiceScreen)


async def play_moves(pilot: Pilot[None], screen: AlhambraDiceScreen, rng: random.Random, moves: int) -> None:
    """Type the random player's next `moves` entries (Dirk's are the app's own). The line is handed to the
    screen's Enter handler directly: a whole game is hundreds of entries, and waiting for the app to go idle
    after each key would take a minute."""
    entry = screen.query_one("#entry", Input)
    for _ in range(moves):
        if screen.state.is_over:
            break
        event = next_event(ad.fold(screen.session.events), rng)
        before = len(screen.session.events)
        entry.value = typed(event)
        screen.typed(Input.Submitted(entry, entry.value))
        assert len(screen.session.events) > before, str(screen.query_one("#message", Static).render())
    await pilot.pause()


def test_a_whole_game_is_typed_refused_undone_and_exported(xdg: Path, capsys: Any) -> None:
    seen: dict[str, Any] = {}

    async def play() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await start_game(pilot, ["Ann", "Ben", "Cleo"])
            rng = random.Random(5)
            await play_moves(pilot, screen, rng, 1)  # the round's tiles
            log = screen.session.path.read_text()
            seen["short"] = await enter(pilot, "2 2 2 0 0 0")
            seen["bad symbol"] = await enter(pilot, "ssaacggx")
            seen["kept"] = screen.query_one("#entry", Input).value
            seen["not now"] = await enter(pilot, "points")
            seen["illegal"] = await enter(pilot, "place garden")
            assert screen.session.path.read_text() == log, "a refused entry writes nothing"
            await enter(pilot, "ssaacggt")
            seen["roll"] = screen.state.dice
            seen["refused place"] = await enter(pilot, "place pavilion")
            await pilot.press("ctrl+z")
            seen["after undo"] = (screen.state.dice, screen.session.path.read_text() == log)
            await pilot.press("ctrl+y")
            seen["after redo"] = screen.state.dice
            await play_moves(pilot, screen, rng, 2000)
            seen["now"] = str(screen.query_one("#now", Static).render())
            seen["stack"] = [type(s).__name__ for s in pilot.app.screen_stack]
            panels = [s for s in pilot.app.screen_stack if isinstance(s, ScoringPanel)]
            seen["panels"] = [text_of(p.query_one("#scoring-text", Static)) for p in panels]
            seen["end"] = text_of(pilot.app.screen.query_one("#reasons", Static))
            await pilot.press("ctrl+e")
            seen["path"] = screen.session.path
            seen["over"] = screen.state.is_over

    asyncio.run(play())
    assert "the counts add up to 6: the roll shows all 8 dice" in seen["short"]
    assert "'x' is no symbol" in seen["bad symbol"] and seen["kept"] == "ssaacggx"
    assert "'points' is not for now: Ann: roll 8 dice, roll 1 of 3" in seen["not now"]
    assert "roll" in seen["illegal"], "the engine's reason: no marker before the first roll"
    assert seen["roll"] == (0, 2, 2, 1, 2, 1)
    assert "pavilion" in seen["refused place"], "no die shows a pavilion: the engine's reason"
    assert seen["after undo"] == (None, True) and seen["after redo"] == (0, 2, 2, 1, 2, 1)
    assert seen["over"] and "Totals:" in seen["now"]
    # Scorings A and B were shown over the game as they were held, then the end screen with all three.
    assert seen["stack"][-3:] == ["ScoringPanel", "ScoringPanel", "EndScreen"]
    assert [panel.splitlines()[0] for panel in seen["panels"]] == [
        "Scoring A (after round 1)",
        "Scoring B (after round 3)",
    ]
    assert "VP tiles" in seen["panels"][0] and "Scoring C (after round 5)" in seen["end"]
    path: Path = seen["path"]
    assert path.parent == paths.games_dir()
    exported = json.loads(path.with_suffix(".score.json").read_text())
    capsys.readouterr()
    assert companion_main(["score", str(path), "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert exported["scoring"] == scored
    assert list(exported) == ["game", "title", "finished", "totals", "winners", "scoring"]
    assert exported["totals"] == [
        {"name": p["name"], "total": p["total"], "imaginary": False} for p in scored["players"]
    ]
    assert [p["name"] for p in scored["players"]] == ["Ann", "Ben", "Cleo"]
    markdown = path.with_suffix(".score.md").read_text()
    assert "Scoring C (after round 5)" in markdown and "| Ann |" in markdown


def saved(events: list[ad.Event], name: str) -> Path:
    return saved_log(log_text(events), name)


def half_game() -> list[ad.Event]:
    return play_random_game(ad.GameStarted(("Ann", "Ben")), random.Random(3))[1][:120]


def test_a_saved_game_is_listed_and_continued_where_it_stopped(xdg: Path) -> None:
    events = half_game()
    path = saved(events, "20261123-201500-ann-ben.jsonl")

    async def resume() -> tuple[str, int, int]:
        async with make_app().run_test(size=SIZE) as pilot:
            listed, screen = await continue_first(pilot, AlhambraDiceScreen, path)
            before = len(screen.session.events)
            await play_moves(pilot, screen, random.Random(1), 3)
            return listed, before, len(path.read_text().splitlines())

    listed, before, lines = asyncio.run(resume())
    assert listed.startswith("Alhambra dice · Ann, Ben, Dirk ◇ · round 3/5"), listed
    assert before >= len(events), "Dirk's fixed moves after the last event are the app's"
    assert lines >= before + 3


def test_the_now_panel_says_the_points_so_far(xdg: Path) -> None:
    """The table saw each player's markers and tiles, never who is ahead (the table's view said it): the
    Now panel ends with the points of the scorings held so far."""
    events = half_game()
    path = saved(events, "20261123-201500-ann-ben.jsonl")

    async def look() -> tuple[str, ad.GameState]:
        async with make_app().run_test(size=SIZE) as pilot:
            _, screen = await continue_first(pilot, AlhambraDiceScreen, path)
            return text_of(screen.query_one("#now", Static)), screen.state

    now, state = asyncio.run(look())
    totals = ad.score_state(state).totals
    assert any(totals) and not state.is_over
    points = ", ".join(f"{name} {total}" for name, total in zip(state.names, totals, strict=True))
    assert f"points so far: {points}" in now.splitlines()[:6], now


def test_the_camera_enters_a_sure_roll_and_asks_about_an_unsure_one(xdg: Path) -> None:
    def reading(faces: list[str], confidence: float = 0.95) -> DiceReading:
        dice = tuple(
            Die(Box(40 * n, 0, 40 * n + 30, 30), "symbol", "white", confidence, face=face, rotation=0)
            for n, face in enumerate(faces)
        )
        return DiceReading(dice, 0.0)

    async def play() -> tuple[Any, ...]:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await start_game(pilot, ["Ann", "Ben", "Cleo"])
            await play_moves(pilot, screen, random.Random(2), 1)
            screen.table_settled(reading(["tower"] * 5 + ["garden"] * 3))
            await pilot.pause()
            first = screen.session.events[-1]
            screen.table_settled(reading(["tower"] * 6 + ["pavilion"] * 2, confidence=0.6))
            await pilot.pause()
            asked = str(screen.query_one("#message", Static).render())
            await pilot.press("ctrl+k")
            return first, asked, screen.session.events[-1]

    first, asked, accepted = asyncio.run(play())
    assert first == ad.Rolled("Ann", (0, 0, 0, 0, 3, 5)) and first.source == "camera"
    assert "unsure of" in asked and "ctrl+k" in asked
    assert (
        accepted == ad.Rolled("Ann", (2, 0, 0, 0, 0, 6))
        and "camera read 6 tower, 2 pavilion" in accepted.note
    )


def test_dice_lying_when_a_turn_starts_are_asked_about_or_named_as_the_last_throws(xdg: Path) -> None:
    """Dice lying on the table before the game asked for them may be an earlier throw's: a sure reading of
    them is asked about, never entered; once entered, they are the last throw's when the next turn starts."""
    faces = ["tower"] * 5 + ["garden"] * 3
    lying = DiceReading(
        tuple(
            Die(Box(40 * n, 0, 40 * n + 30, 30), "symbol", "white", 0.99, face=f) for n, f in enumerate(faces)
        ),
        0.0,
    )

    def said(screen: AlhambraDiceScreen) -> str:
        return str(screen.query_one("#message", Static).render())

    async def play() -> tuple[Any, ...]:
        async with make_app().run_test(size=SIZE) as pilot:
            pilot.app.table_reading = lying  # type: ignore[attr-defined]
            screen = await start_game(pilot, ["Ann", "Ben", "Cleo"])
            await play_moves(pilot, screen, random.Random(2), 1)  # the round is prepared: Ann's turn starts
            asked, entered = said(screen), len(screen.session.events)
            await pilot.press("ctrl+k")
            accepted = screen.session.events[-1]
            rng = random.Random(3)
            while screen.session.expectation().ask != ad.Ask.ROLL:
                await play_moves(pilot, screen, rng, 1)
            return asked, entered, accepted, said(screen), screen.session.expectation().player

    asked, entered, accepted, next_turn, player = asyncio.run(play())
    assert "lying on the table before the game asked for dice" in asked and "ctrl+k" in asked, asked
    assert entered == 2, "the sure reading of dice lying there was not entered unasked"
    assert accepted == ad.Rolled("Ann", (0, 0, 0, 0, 3, 5)) and "accepted" in accepted.note
    assert player == "Ben" and "the dice lying there are the last throw's" in next_turn, next_turn


def test_board_screen(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    saved(half_game(), "20261123-201500-ann-ben.jsonl")
    assert snap_compare(make_app(), press=["enter"], terminal_size=SIZE)


def prize_phase() -> list[ad.Event]:
    """Blue best and Orange second on pavilion (the exchange tile), Green best and Blue second on arcades
    (the cancel tile); the prizes are next."""
    game = ad.Game(ad.GameStarted(("Blue", "Orange", "Green")))
    game.apply(ad.RoundPrepared(("exchange", "displace", "cancel", "black_die", "vp", "start_player")))
    for building, count in [("pavilion", 6), ("pavilion", 5), ("arcades", 6), ("arcades", 5)]:
        name = game.names[game.active]
        game.apply(
            ad.Rolled(
                name, tuple(count if t == building else 8 - count if t == "tower" else 0 for t in TYPES)
            )
        )
        game.apply(ad.MarkerPlaced(name, building))
    while game.ask is ad.Ask.ROLL:  # the other turns: 1 tower in 3 rolls
        name = game.names[game.active]
        for _ in range(3):
            game.apply(ad.Rolled(name, (7, 0, 0, 0, 0, 1)))
        game.apply(ad.MarkerPlaced(name, "tower"))
    return list(game.log)


def test_a_forced_prize_is_given_and_the_log_says_so_in_words(xdg: Path) -> None:
    """Issue 29: the second best marker's only prize is given without asking, and the log says so; a player
    holding an exchange tile is still asked. Every line is in the players' words."""
    path = saved(prize_phase(), "20261123-201500-blue-orange-green.jsonl")

    async def play() -> tuple[list[str], str, str, str]:
        async with make_app().run_test(size=SIZE) as pilot:
            _, screen = await continue_first(pilot, AlhambraDiceScreen, path)
            await pilot.press("ctrl+k")  # no roll is asked for: said what is (it said "type the roll")
            no_roll = str(screen.query_one("#message", Static).render())
            await enter(pilot, "tile")
            await enter(pilot, "points")
            asked = screen.session.expectation().prompt
            log = screen.query_one("#log", WrappedLog)
            await pilot.press("ctrl+z")
            undone = str(screen.query_one("#message", Static).render())
            return list(log.lines), undone, asked, no_roll

    lines, undone, prompt, no_roll = asyncio.run(play())
    assert no_roll == (
        "no camera reading to accept: now: pavilion: Blue's marker is best: take 2 building points, or 1 "
        "building point and the exchange tile"
    )
    assert lines[:3] == [
        "New game: Blue, Orange, Green",
        "Round 1: bonus tiles pavilion exchange, seraglio displace, arcades cancel, chambers black-die, "
        "garden VP, tower start-player",
        "Blue rolled 6 pavilions, 2 towers (roll 1)",
    ]
    assert lines[-2:] == [
        "Blue took 1 building point in pavilion and the exchange tile",
        "Orange is given 2 building points in pavilion (the only prize left)",
    ]
    assert undone == "undone: Green took 2 building points in arcades (ctrl+y redoes it)"
    assert prompt.startswith("arcades: Blue's marker is second best"), "Blue holds an exchange tile: asked"


def test_end_screen(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    # A finished game continued: its end screen with every scoring's numbers and reasons, and the totals.
    saved(
        play_random_game(ad.GameStarted(("Ann", "Ben", "Cleo")), random.Random(3))[1],
        "20261123-201500-a.jsonl",
    )
    assert snap_compare(make_app(), press=["enter"], terminal_size=SIZE)


def test_the_end_screens_table_has_a_column_per_scoring_and_the_totals_are_given_once(xdg: Path) -> None:
    """The end screen gave the totals as a table, then the scorer's text with the totals and winners again,
    and each scoring's VP only scattered through that text: the table now has a column per scoring (A, B, C)
    adding up to the total, and the text below gives the reasons alone."""
    events = play_random_game(ad.GameStarted(("Ann", "Ben", "Cleo")), random.Random(3))[1]
    saved(events, "20261123-201500-a.jsonl")

    async def ended() -> tuple[str, str]:
        async with make_app().run_test(size=SIZE) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            screen = pilot.app.screen
            return text_of(screen.query_one("#totals", Static)), text_of(screen.query_one("#reasons", Static))

    totals, reasons = asyncio.run(ended())
    board = ad.score_state(ad.replay(events))
    header, *rows = totals.split("\n")[-4:]
    assert header.split() == ["player", "A", "B", "C", "total"]
    for row, name, total, n in zip(rows, board.names, board.totals, range(3), strict=True):
        shown, *parts, last = row.split()
        assert shown == name and [int(p) for p in parts] == [s[n].vp for s in board.scorings]
        assert sum(map(int, parts)) == int(last) == total
    assert "Scoring C (after round 5)" in reasons and "Totals" not in reasons and "Winner" not in reasons


def test_a_board_mark_is_one_column_wide_or_the_seat_number() -> None:
    """A player named 李小龙 was marked 李 on the board, two columns wide: every field after it slipped."""
    assert marks(("Ann", "Ben", "Cleo")) == ("A", "B", "C")
    # Two columns wide, two letters upper-cased, an emoji, initials that clash.
    for first in ("李小龙", "ßig", "🎲", "Bea"):
        assert marks((first, "Ben", "Cleo")) == ("1", "2", "3"), first


def test_a_board_mark_is_the_first_letter_or_digit() -> None:
    """`[bold]Cleo` was marked `[` on the board, read there as a bracket, not a player."""
    assert marks(("[bold]Cleo", "Ann", "(2) Dan", "…émile")) == ("B", "A", "2", "É")
    # No letter nor digit at all: the seat numbers, as for a clash.
    assert marks(("Ann", "[*]", "Ben")) == ("1", "2", "3")


def test_a_stack_of_five_stones_keeps_every_field_under_its_number() -> None:
    # Six players, one stone each on pavilion's 1: a 4-character field ran them into field 2's column.
    state = ad.start(ad.GameStarted(("Ann", "Ben", "Cleo", "Dana", "Emil", "Finn")))
    pavilion = ((), (0, 1, 2, 3, 4), (5,), *state.stacks[0][3:])
    rows = board_text(dataclasses.replace(state, stacks=(pavilion, *state.stacks[1:]))).splitlines()
    points = next(row for row in rows if row.startswith("points"))
    track = next(row for row in rows if row.startswith("pavilion") and "ABCDE" in row)
    assert track.index("ABCDE") == points.index(" 1 ") + 1 and track.index("F") == points.index(" 2 ") + 1


def test_the_imaginary_dirk_is_marked_in_the_final_totals_and_their_export(xdg: Path) -> None:
    """With two players, Dirk's total stands in the end screen's totals: marked imaginary, as the breakdown
    marks him, in the table, its Markdown and JSON; unmarked, a table read him as a player who lost."""
    example = Path(ad.__file__).parent / "examples" / "two-players-and-dirk.jsonl"
    path = saved_log(example.read_text(), "20261123-201500-ann-ben.jsonl")

    async def ended() -> str:
        async with make_app().run_test(size=SIZE) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            assert type(pilot.app.screen).__name__ == "EndScreen"
            totals = text_of(pilot.app.screen.query_one("#totals", Static), 60)
            await pilot.press("ctrl+e")
            await pilot.pause()
            return totals

    totals = asyncio.run(ended())
    assert "Dirk (imaginary)" in totals and "Ann (imaginary)" not in totals, totals
    exported = json.loads(path.with_suffix(".score.json").read_text())
    assert [(t["name"], t["imaginary"]) for t in exported["totals"]] == [
        ("Ann", False),
        ("Ben", False),
        ("Dirk", True),
    ]
    assert "| Dirk (imaginary) |" in path.with_suffix(".score.md").read_text()


def test_undo_takes_back_the_move_dirk_followed_with_his_own(xdg: Path) -> None:
    """Undone alone, Dirk's move the game made itself left the game waiting for it, and nothing typed could
    make it (the end screen's b, then ctrl+z, stuck the game): the move before it goes too."""
    example = Path(ad.__file__).parent / "examples" / "two-players-and-dirk.jsonl"
    lines = example.read_text().splitlines()
    path = saved_log("\n".join(lines[:39]) + "\n", "20261123-201500-ann-ben.jsonl")  # to Dirk's prize taken

    async def undo() -> tuple[int, object, str]:
        async with make_app().run_test(size=SIZE) as pilot:
            _, screen = await continue_first(pilot, AlhambraDiceScreen, path)
            await pilot.press("ctrl+z")
            await pilot.pause()
            return len(screen.session.events), screen.session.expectation().auto, screen.message

    events, auto, said = asyncio.run(undo())
    assert events == 37 and auto is None, (events, auto)
    assert said.startswith("undone: ") and said.count("Dirk") >= 1, said


def test_a_question_mark_opens_the_help_as_on_every_game_screen(xdg: Path) -> None:
    """In the dice games `?` was typed into the entry line (and Enter refused it), though F1 and the README
    say it opens the help in a game."""

    async def ask() -> tuple[str, str]:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await start_game(pilot, ["Ann", "Ben", "Cleo"])
            await pilot.press("question_mark")
            await pilot.pause()
            return type(pilot.app.screen).__name__, screen.query_one("#entry", Input).value

    shown, typed = asyncio.run(ask())
    assert shown == "HelpScreen" and typed == "", (shown, typed)


def test_redo_brings_back_every_move_undone_with_the_games_own(xdg: Path) -> None:
    """Each undo took back a move with the prize the game then gave by itself; redo made that prize again as
    a new move, which forgot every move undone before: the second ctrl+y had "nothing to redo"."""
    path = saved(prize_phase(), "20261123-201500-blue-orange-green.jsonl")

    async def play() -> tuple[list[ad.Event], list[ad.Event], list[str]]:
        async with make_app().run_test(size=SIZE) as pilot:
            _, screen = await continue_first(pilot, AlhambraDiceScreen, path)
            await enter(pilot, "tile")
            await enter(pilot, "points")
            played = list(screen.session.events)
            said = []
            for key in ["ctrl+z", "ctrl+z", "ctrl+y", "ctrl+y"]:
                await pilot.press(key)
                await pilot.pause()
                said.append(screen.message)
            return played, list(screen.session.events), said

    played, redone, said = asyncio.run(play())
    assert redone == played, said
    assert said[2] == (
        "redone: Blue took 1 building point in pavilion and the exchange tile; "
        "Orange is given 2 building points in pavilion (the only prize left)"
    ), said
    assert said[3] == "redone: Green took 2 building points in arcades", said
    assert path.read_text().splitlines() == log_text(played).splitlines()
