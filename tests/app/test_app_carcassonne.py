"""Carcassonne – the dice game in the app: F9 on the start screen starts it for the names typed; every roll
and choice is typed into one line (the test types the engine's random player's moves, as the players would);
bad entries are refused with why and write nothing; undo, redo, resume and export; a snapshot of the score
pad."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from app_driver import continue_first, make_app, saved_log, start_named, text_of, type_entry
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Input, Static

from companion.app import paths
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.widgets.carcassonne_pad import city_text, pad_text
from companion.app.widgets.wrapped_log import WrappedLog
from companion.cli import main as companion_main
from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.city import area_text
from companion.games.carcassonne_dice.events import LOG_FORMAT
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.carcassonne_dice.simulate import play_random_game, turn_events
from companion.games.eventlog import load_log

SIZE = (100, 32)


def typed(event: cd.Event) -> str:
    """What the players type for an event."""
    if isinstance(event, cd.Rolled):
        return f"{event.city} {event.knights} {event.catapults}"
    if isinstance(event, cd.Kept):
        dice = [f"{r},{c}:" + "/".join(area_text(m) for m in d.areas) for d in event.built for r, c in [d.at]]
        return " ".join([f"keep {event.knights}", *(["build", *dice] if dice else [])])
    assert isinstance(event, cd.TurnEnded)
    return "hold" if event.hold_knight else "stop"


async def enter(pilot: Pilot[None], text: str) -> str:
    """Type a line and press Enter; returns the message shown."""
    return await type_entry(pilot, CarcassonneDiceScreen, text)


async def start_game(pilot: Pilot[None], names: list[str]) -> CarcassonneDiceScreen:
    return await start_named(pilot, names, "f9", CarcassonneDiceScreen)


async def play_moves(
    pilot: Pilot[None], screen: CarcassonneDiceScreen, rng: random.Random, turns: int
) -> None:
    """Type the random player's entries for `turns` steps of play. The line is handed to the screen's Enter
    handler directly: a whole game is some 200 entries, and waiting for the app to go idle after each key
    would take long."""
    entry = screen.query_one("#entry", Input)
    for _ in range(turns):
        for event in turn_events(cd.fold(screen.session.events), rng):
            if screen.state.is_over:
                break
            before = len(screen.session.events)
            entry.value = typed(event)
            screen.typed(Input.Submitted(entry, entry.value))
            assert len(screen.session.events) == before + 1, str(
                screen.query_one("#message", Static).render()
            )
    await pilot.pause()


def test_a_whole_game_is_typed_refused_undone_and_exported(xdg: Path, capsys: Any) -> None:
    seen: dict[str, Any] = {}

    async def play() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            pilot.app.screen.query_one("#name1", Input).value = "Ann"
            await pilot.pause()
            await pilot.press("f9")
            seen["one player"] = str(pilot.app.screen.query_one("#message", Static).render())
            screen = await start_game(pilot, ["Ann", "Ben", "Cleo"])
            log = screen.session.path.read_text()
            seen["now"] = str(screen.query_one("#now", Static).render())
            seen["two counts"] = await enter(pilot, "5 3")
            seen["kept"] = screen.query_one("#entry", Input).value
            seen["eight dice"] = await enter(pilot, "5 3 0")
            seen["stop first"] = await enter(pilot, "stop")
            seen["bad die"] = await enter(pilot, "build 4,4:X")
            assert screen.session.path.read_text() == log, "a refused entry writes nothing"
            await enter(pilot, "5 3 1")
            seen["rolled"] = (screen.state.rolls, screen.state.roll_city)
            seen["misfit"] = await enter(pilot, "build 4,4:E 4,5:N")
            await pilot.press("ctrl+z")
            seen["after undo"] = (screen.state.rolls, screen.session.path.read_text() == log)
            await pilot.press("ctrl+y")
            seen["after redo"] = screen.state.rolls
            await enter(pilot, "keep 3 build 4,4:S 5,4:N")
            seen["pad"] = str(screen.query_one("#pad", Static).render())
            seen["city"] = str(screen.query_one("#city", Static).render())
            seen["after build"] = str(screen.query_one("#now", Static).render())
            await play_moves(pilot, screen, random.Random(4), 400)
            seen["end"] = str(screen.query_one("#now", Static).render())
            seen["end screen"] = text_of(pilot.app.screen.query_one("#reasons", Static))
            await pilot.press("ctrl+e")
            seen["path"] = screen.session.path
            seen["state"] = screen.state
            seen["held"] = sum(isinstance(e, cd.TurnEnded) and e.hold_knight for e in screen.session.events)

    asyncio.run(play())
    assert "a game has 2 to 5 players, not 1" in seen["one player"]
    assert "Ann: roll 9 dice" in seen["now"]
    assert "three counts" in seen["two counts"] and seen["kept"] == "5 3"
    assert "Ann rolls 9 dice, but the roll counts 8" in seen["eight dice"]
    assert "Ann must roll first" in seen["stop first"]
    assert "'X' is not an edge" in seen["bad die"]
    assert seen["rolled"] == (1, 5)
    assert "black must touch black" in seen["misfit"]
    assert seen["after undo"] == (0, True) and seen["after redo"] == 1
    assert "▶ Ann" in seen["pad"] and "Turn 1: Ann, roll 1 of 3" in seen["pad"]
    assert "█" in seen["city"]
    assert "if Ann stops now: 0 points (largest completed city: 2 dice" in seen["after build"]
    state: cd.GameState = seen["state"]
    assert state.is_over and f"{state.names[state.winner or 0]} wins" in seen["end"]
    assert seen["held"], "`hold` was typed: a knight held for the next turn"
    path: Path = seen["path"]
    assert path.parent == paths.games_dir()
    assert "Turns:" in seen["end screen"] and "largest completed city" in seen["end screen"]
    # The table above gives the totals and the winner: the text below gave them again.
    assert "over, " in seen["end screen"] and "Winner" not in seen["end screen"]
    assert not any(line.split()[-1:] == [str(state.scores[0])] for line in seen["end screen"].splitlines())
    exported = json.loads(path.with_suffix(".score.json").read_text())
    capsys.readouterr()
    assert companion_main(["score", str(path), "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert exported["scoring"] == scored and list(exported) == [
        "game", "title", "finished", "totals", "winners", "scoring"
    ]  # fmt: skip
    assert exported["winners"] == [scored["winner"]]
    assert exported["finished"] and [p["name"] for p in scored["players"]] == ["Ann", "Ben", "Cleo"]
    # Scored, the export was refused for "unknown field 'title'", as if the user had mistyped it.
    assert companion_main(["score", str(path.with_suffix(".score.json"))]) == 2
    assert capsys.readouterr().err == (
        f"companion score: {path.with_suffix('.score.json')}: the end screen's export of a scoring, not a "
        f"game's file: `companion score` scores its game's file beside it, {path.name}\n"
    )
    assert "Turns:" in path.with_suffix(".score.md").read_text()


def saved(events: list[cd.Event], name: str) -> Path:
    return saved_log(log_text(events), name)


def half_game() -> list[cd.Event]:
    """Turn 14, Ben's second roll, 4 city dice built; Ann holds a knight."""
    return play_random_game(cd.GameStarted(("Ann", "Ben")), random.Random(3))[1][:58]


def test_a_saved_game_is_listed_and_continued_where_it_stopped(xdg: Path) -> None:
    events = half_game()
    path = saved(events, "20261123-201500-ann-ben.jsonl")

    async def resume() -> tuple[str, int, int]:
        async with make_app().run_test(size=SIZE) as pilot:
            listed, screen = await continue_first(pilot, CarcassonneDiceScreen, path)
            before = len(screen.session.events)
            await play_moves(pilot, screen, random.Random(1), 3)
            return listed, before, len(path.read_text().splitlines())

    listed, before, lines = asyncio.run(resume())
    state = cd.replay(events)
    assert listed.startswith(f"Carcassonne dice · Ann, Ben · turn {state.turn}"), listed
    assert before == len(events)
    assert lines > before


def test_score_pad_screen(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    saved(half_game(), "20261123-201500-ann-ben.jsonl")
    assert snap_compare(make_app(), press=["enter"], terminal_size=SIZE)


def test_without_a_camera_ctrl_r_says_how_to_read_the_city_and_stays_out_of_the_footer(xdg: Path) -> None:
    async def press() -> tuple[str, bool, bool]:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await start_game(pilot, ["Ann", "Ben"])
            await pilot.press("ctrl+r")
            shown = screen.active_bindings["ctrl+r"].binding.show
            return (
                str(screen.query_one("#message", Static).render()),
                shown,
                bool(screen.query("#camera-city")),
            )

    said, in_footer, panel = asyncio.run(press())
    assert "ctrl+r reads the built city with the camera: start the app with `--camera SPEC --symbols" in said
    assert not in_footer and not panel


def test_the_game_log_says_each_event_in_words_and_follows_the_game(xdg: Path) -> None:
    """Issue 29: the log is in the players' words (undo and redo too), a message keeps what was typed
    however it is bracketed, and the log stays at its end while a burst of entries is played."""
    seen: dict[str, Any] = {}

    async def play() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await start_game(pilot, ["Ann", "Ben"])
            log = screen.query_one("#log", WrappedLog)
            await enter(pilot, "5 3 1")
            seen["bracketed"] = await enter(pilot, "build 4,4:[S]")
            await enter(pilot, "keep 1 build 4,4:S 5,4:N")
            seen["lines"] = list(log.lines)
            await pilot.press("ctrl+z")
            seen["undone"] = (str(screen.query_one("#message", Static).render()), list(log.lines))
            await pilot.press("ctrl+y")
            seen["redone"] = str(screen.query_one("#message", Static).render())
            await enter(pilot, "stop")
            seen["stopped"] = log.lines[-1]
            await play_moves(pilot, screen, random.Random(4), 40)
            await pilot.pause()
            seen["scroll"] = (log.scroll_offset.y, log.max_scroll_y)

    asyncio.run(play())
    assert "'4,4:[S]'" in seen["bracketed"]
    built = "Ann kept 1 knight and built 2 city dice at row 4, col 4 (S), row 5, col 4 (N)"
    assert seen["lines"] == [
        "New game: Ann, Ben",
        "Ann rolled 5 city, 3 knights, 1 catapult (roll 1): 1 catapult goes to Ben",
        built,
    ]
    message, lines = seen["undone"]
    assert message == f"undone: {built} (ctrl+y redoes it)" and lines == seen["lines"][:-1]
    assert seen["redone"] == f"redone: {built}"
    assert seen["stopped"] == "Ann stopped: a completed city of 2 dice, +0"
    top, end = seen["scroll"]
    assert end > 0 and top == end, "the log shows its last lines"


def test_a_city_die_apart_from_the_city_is_refused_and_the_drawing_numbers_rows_and_columns(
    xdg: Path,
) -> None:
    """Issue 29: `build 20,20:N` (a slip for 2,2) is refused naming the cell and the rule, and the city
    drawing numbers each die's row and column as they are typed."""

    async def play() -> tuple[str, str, int]:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await start_game(pilot, ["Ann", "Ben"])
            await enter(pilot, "9 0 0")
            await enter(pilot, "build 2,1:E")
            refused = await enter(pilot, "build 20,20:W")
            await enter(pilot, "build 2,2:W")
            return refused, str(screen.query_one("#city", Static).render()), len(screen.state.built)

    refused, city, built = asyncio.run(play())
    assert "row 20, col 20 cannot be built: it touches no die of the city (dice lie side by side)" in refused
    assert built == 2
    assert city.splitlines() == ["   1 2", "  +─+─+", "2 │·█·│", "  +─+─+"]


def test_a_city_grows_past_row_and_column_0_and_a_word_not_an_entry_is_said(xdg: Path) -> None:
    """A city begun at 1,1 could not grow left or up: `build 1,-1:E` was refused as if mistyped, and built
    dice cannot move, so the turn's city had to be typed again shifted. A word that is no entry (`stop now`)
    only repeated the prompt; it is named as no entry."""

    async def play() -> tuple[str, str, int, str, Path]:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await start_game(pilot, ["Ann", "Ben"])
            await enter(pilot, "9 0 0")
            await enter(pilot, "build 1,1:W 1,0:EW")
            said = await enter(pilot, "build 1,-1:E")
            unknown = await enter(pilot, "stop now")
            city, built = str(screen.query_one("#city", Static).render()), len(screen.state.built)
            await enter(pilot, "stop")
            return said, city, built, unknown, screen.session.path

    said, city, built, unknown, path = asyncio.run(play())
    assert built == 3 and "cannot" not in said, said
    assert city.splitlines()[:2] == ["   -", "   1 0 1"], city
    assert unknown.startswith("'stop now' is no entry now: Ann: "), unknown
    # The log keeps the die past 0, and is read back: a closed city of 3 dice, 1 point.
    assert '{"at":[1,-1],"areas":["E"]}' in path.read_text().replace(" ", "")
    assert cd.replay(load_log(path, LOG_FORMAT).events).scores == (1, 0)


def test_a_scored_turn_is_said_with_its_reason_and_the_totals(xdg: Path) -> None:
    async def play() -> str:
        async with make_app().run_test(size=SIZE) as pilot:
            await start_game(pilot, ["Ann", "Ben"])
            await enter(pilot, "5 3 1")
            return await enter(pilot, "stop")

    said = asyncio.run(play())
    assert said == "Ann's turn 1: no city built: 0 points; totals: Ann 0, Ben 0", said


def test_keep_twice_on_a_line_is_refused_as_a_lines_not_a_turns_and_keep_after_each_roll_is_taken(
    xdg: Path,
) -> None:
    """`keep 1 keep 1` said "`keep` is typed once a turn", yet `keep` may follow every roll of a turn."""

    async def play() -> tuple[str, int, list[str]]:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await start_game(pilot, ["Ann", "Ben"])
            await enter(pilot, "5 3 1")
            twice = await enter(pilot, "keep 1 keep 1")
            kept = len(screen.session.events)
            said = [await enter(pilot, line) for line in ("keep 1", "3 3 1", "keep 2", "hold")]
            return twice, kept, said

    twice, kept, said = asyncio.run(play())
    assert twice == "`keep` is typed once a line: the knights kept from this roll in one count, e.g. `keep 2`"
    assert kept == 2, "the refused line writes nothing"
    assert said[:3] == ["", "", ""] and said[3].startswith("Ann's turn 1: holds a knight"), said


def test_one_city_area_and_two_are_drawn_apart() -> None:
    # `N/S` (two cities, a 3-dice line scoring 0) and `NS` (one, scoring 1) were drawn alike.
    def column(middle: tuple[int, ...]) -> list[str]:
        built = (cd.Built((0, 0), (cd.S,)), cd.Built((1, 0), middle), cd.Built((2, 0), (cd.N,)))
        return city_text(built).splitlines()

    apart, joined = column((cd.N, cd.S)), column((cd.N | cd.S,))
    assert apart[4] == "1 │2│" and joined[4] == "1 │█│"
    assert city_text((cd.Built((0, 0), (cd.N | cd.E, cd.S)),)).splitlines()[2] == "0 │2█"


def test_every_players_bar_toward_42_is_as_long_at_every_width() -> None:
    """Each bar was as long as its own row left it beside its last turns (19, 20 and 21 blocks at a phone's
    width): the same score filled a different share, and the table misread who was near 42."""
    names = [
        ("Barbara", "Dirk", "Patricia-Maria"),
        ("李小龍", "Ann", "🎲🎲"),
    ]  # wide letters: padded by cells
    for seed, players in enumerate(names * 2):
        _, events = play_random_game(cd.GameStarted(players), random.Random(seed))
        for n in range(1, len(events), 3):
            state = cd.replay(events[:n])
            for width in (40, 54, 80):
                rows = pad_text(state, width).splitlines()[: len(state.names)]
                lengths = {row.count("█") + row.count("░") for row in rows}
                assert len(lengths) == 1, (seed, n, width, rows)
                assert all(cell_len(row) <= width for row in rows) or lengths == {0}, (seed, n, width, rows)
                scores = {cell_len(row[: row.index("/42")]) for row in rows}
                assert len(scores) == 1, ("every score in one column", rows)


def test_the_pad_of_a_finished_game_says_the_winner_and_why_in_one_line() -> None:
    """It read "Winner: Ann (Ann reached 44 points (42 wins))", brackets in brackets."""
    _, events = play_random_game(cd.GameStarted(("Ann", "Ben")), random.Random(3))
    state = cd.replay(events)
    winner = state.names[state.winner or 0]
    assert pad_text(state).splitlines()[-1] == f"Winner: {winner}: {state.why_over}"
    assert state.why_over.startswith(f"{winner} reached ") and state.why_over.endswith("(42 wins)")
