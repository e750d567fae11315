"""Start screen list and form, end screen export, the dice seam from another thread, a cut-off log."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from pathlib import Path
from typing import cast

import pytest
from app_driver import (
    game_screen,
    make_app,
    new_game,
    next_move,
    random_game,
    saved_game,
    saved_log,
    send_keys,
)
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList, Select, Static

from companion.app import paths
from companion.app.keys import ADVICE
from companion.app.roll_and_write_input import PipDie
from companion.app.screens.alcazaba import AlcazabaScreen
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.alhambra_pad import AlhambraPadScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.delete_game import DeleteGameScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.roll_and_write_end import RollAndWriteEndScreen
from companion.app.screens.start import NEW_GAMES, StartScreen
from companion.cli import main as companion_main
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice.scorefile import log_text as ad_log_text
from companion.games.alhambra_dice.simulate import play_random_game as ad_play
from companion.games.carcassonne_dice.scorefile import log_text as cd_log_text
from companion.games.carcassonne_dice.simulate import play_random_game as cd_play
from companion.games.table import GAMES
from companion.history import history
from companion.log_index import INDEX_NAME
from jsonfile import control_character


def test_saved_games_are_listed_with_players_round_and_date(xdg: Path) -> None:
    saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "a.jsonl")
    (paths.games_dir() / "broken.jsonl").write_text('{"event": "nonsense"}\n', encoding="utf-8")

    async def look() -> list[str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            options = pilot.app.screen.query_one("#saved", OptionList)
            return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]

    labels = asyncio.run(look())
    assert any(
        label.startswith("Roll & Write · Barbara, Dirk, Ani ◇ · round ") and "2026-11-23 20:15" in label
        for label in labels
    )
    assert any(label.startswith("broken.jsonl: cannot continue: line 1: ") for label in labels)


def test_a_file_name_that_would_drive_the_terminal_is_shown_with_its_escapes(xdg: Path) -> None:
    """A file in the games folder named with ESC was listed (when it cannot be read) and named when its game
    is deleted as it was: drawn, the name cleared the screen. It is shown with its escapes written out."""
    saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "odd\x1b[2J.jsonl")
    (paths.games_dir() / "bad\x1b[2J.jsonl").write_text('{"event": "nonsense"}\n', encoding="utf-8")

    async def look() -> tuple[list[str], str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            labels = listed(pilot)
            await pilot.press("delete")  # the game, highlighted past the damaged log written last
            await pilot.pause()
            assert isinstance(pilot.app.screen, DeleteGameScreen)
            return labels, str(pilot.app.screen.query_one("#details", Static).content)

    labels, files = asyncio.run(look())
    assert any(label.startswith("bad\\x1b[2J.jsonl: cannot continue: ") for label in labels), labels
    assert "odd\\x1b[2J.jsonl" in files, files
    assert not any(control_character(text) for text in [*labels, files.replace("\n", "")]), (labels, files)


def test_a_damaged_log_is_listed_briefly_and_can_be_deleted_at_80x24(xdg: Path) -> None:
    """Damaged logs were listed but could not be highlighted, so `del` never reached them; each line said
    the file's path twice and the reader's reason whole (ending in `)))`), and the list opened scrolled
    into the middle of one. Enter on one says why it cannot be continued; the game that can be continued is
    highlighted first."""
    saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "a.jsonl")
    folder = paths.games_dir()
    (folder / "empty.jsonl").write_text("", encoding="utf-8")
    (folder / "garbage.jsonl").write_text("garbage\n", encoding="utf-8")
    unknown = folder / "unknowngame.jsonl"
    unknown.write_text('{"event": "game_started", "game": "nope", "players": ["A", "B"]}\n', encoding="utf-8")
    seen: dict[str, object] = {}

    async def look() -> None:
        async with make_app().run_test(size=(80, 24)) as pilot:
            options = pilot.app.screen.query_one("#saved", OptionList)
            seen["labels"] = listed(pilot)
            seen["first"] = options.highlighted
            await pilot.press("home")
            seen["top"] = (options.highlighted, options.scroll_y)
            await pilot.press("enter")
            await pilot.pause()
            seen["enter"] = (type(pilot.app.screen), str(pilot.app.screen.query_one("#message").render()))
            await pilot.press("delete")
            await pilot.pause()
            dialog = pilot.app.screen
            assert isinstance(dialog, DeleteGameScreen)
            seen["files"] = dialog.files
            await pilot.press("y")
            await pilot.pause()
            seen["after"] = listed(pilot)

    asyncio.run(look())
    labels = cast(list[str], seen["labels"])
    assert labels[:3] == [
        "unknowngame.jsonl: cannot continue: game: unknown game 'nope'",
        "garbage.jsonl: cannot continue: line 1, column 1: not valid JSON",
        "empty.jsonl: cannot continue: no event in the log",
    ], labels
    assert seen["first"] == 3, "the game that can be continued, Enter opens it"
    assert seen["top"] == (0, 0), "home: the first log, the list at its top"
    why = f"game: unknown game 'nope' (known: {', '.join(GAMES)})"
    assert seen["enter"] == (StartScreen, f"unknowngame.jsonl cannot be continued: {why}")
    assert seen["files"] == [unknown] and not unknown.exists()
    assert seen["after"] == labels[1:]


def listed(pilot: Pilot[None]) -> list[str]:
    options = pilot.app.screen.query_one("#saved", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def test_finished_games_are_listed_apart_and_open_on_their_scoring(xdg: Path) -> None:
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "done.jsonl")
    saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "a.jsonl")

    async def look() -> tuple[list[str], int | None, object]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            labels = listed(pilot)
            options = pilot.app.screen.query_one("#saved", OptionList)
            first = options.highlighted
            await pilot.press("down", "enter")  # past the heading, to the finished game
            await pilot.pause()
            return labels, first, pilot.app.screen

    labels, first, opened = asyncio.run(look())
    assert labels[0].startswith("Roll & Write · Barbara, Dirk, Ani ◇ · round ")
    assert labels[1] == "── Finished (opens the scoring) ──"
    assert labels[2].startswith("Roll & Write · Anna, Ben, Cleo · ") and len(labels) == 3
    assert first == 0, "the game still being played is chosen first"
    assert isinstance(opened, RollAndWriteEndScreen)


def test_a_saved_game_is_deleted_with_its_files_once_confirmed(xdg: Path) -> None:
    log = saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "done.jsonl")
    kept = saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "a.jsonl")
    beside = [log.with_name(n) for n in ("done.jsonl.cut", "done.score.json", "done.score.md")]
    for file in beside:
        file.write_text("{}\n", encoding="utf-8")
    assert [g.path for g in history(paths.games_dir()).games] == [log]  # the index now holds the game
    seen: dict[str, object] = {}

    async def delete() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("down")  # the finished game
            await pilot.press("delete")
            dialog = pilot.app.screen
            assert isinstance(dialog, DeleteGameScreen)
            seen["question"] = str(dialog.query_one("#question", Static).render())
            seen["files"] = dialog.files
            await pilot.press("n")
            seen["after no"] = (listed(pilot), all(f.exists() for f in [log, *beside]))
            await pilot.press("delete")
            await pilot.press("y")
            await pilot.pause()
            seen["after yes"] = listed(pilot)
            seen["said"] = str(pilot.app.screen.query_one("#message", Static).render())

    asyncio.run(delete())
    assert "Delete this game for good?" in str(seen["question"]) and "Anna, Ben, Cleo" in str(
        seen["question"]
    )
    assert seen["files"] == [log.with_name("done.jsonl"), *beside]
    labels, all_there = cast(tuple[list[str], bool], seen["after no"])
    assert all_there and len(labels) == 3, "n keeps the game"
    assert not any(f.exists() for f in [log, *beside]) and kept.exists()
    assert seen["after yes"] == [labels[0]], "the list is read again: the game still being played, alone"
    assert str(seen["said"]).startswith("deleted: Roll & Write · Anna, Ben, Cleo")
    # The history index forgets the deleted game: history reads the folder as it is now.
    assert (paths.games_dir() / INDEX_NAME).exists() and history(paths.games_dir()).games == ()


def test_a_start_with_duplicate_names_says_why(xdg: Path) -> None:
    async def start() -> str:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press(*"Anna", "tab", *"Anna", "f5")
            assert isinstance(pilot.app.screen, StartScreen)
            return str(pilot.app.screen.query_one("#message", Static).content)

    assert asyncio.run(start()) == "player names must differ"


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("f7", "Alhambra scoring pad: a game has 2 to 6 players (Dirk joins two), not 1"),
        ("f9", "Carcassonne dice game: a game has 2 to 5 players, not 1"),
        ("f10", "Alhambra dice game: a game has 2 to 6 players, not 1"),
    ],
)
def test_a_refused_game_says_why_in_view_at_80x24(xdg: Path, key: str, reason: str) -> None:
    """The reason once sat at the end of the new game's column, below the fold at 80×24: F7-F10 with one
    name seemed to do nothing."""

    async def start() -> None:
        async with make_app().run_test(size=(80, 24)) as pilot:
            await pilot.press(*"Anna", key)
            screen = pilot.app.screen
            assert isinstance(screen, StartScreen)
            message = screen.query_one("#message", Static)
            assert str(message.content) == reason and message.has_class("error")
            assert message in screen._compositor.visible_widgets
            await pilot.press("tab", *"Ben")  # two names: the line says whom the game adds, or goes
            await pilot.pause()
            assert not message.has_class("error")

    asyncio.run(start())


CHOSEN = {
    "roll_and_write": RollAndWriteScreen,
    "alhambra_dice": AlhambraDiceScreen,
    "alcazaba": AlcazabaScreen,
    "carcassonne_dice": CarcassonneDiceScreen,
    "alhambra_pad": AlhambraPadScreen,
}
"""The screen each game choice opens."""


@pytest.mark.parametrize("size", [(80, 24), (40, 40)])
@pytest.mark.parametrize("game", CHOSEN)
def test_every_game_is_chosen_on_the_form_and_shows_only_its_fields(
    xdg: Path, game: str, size: tuple[int, int]
) -> None:
    """The form was Roll & Write's, with a button for it alone: the other games started only by F7–F10 in
    the footer, which at a phone's width showed no F10 (nor F1 to find it). The game is chosen first; the
    variant, the sheet and its editor show for Roll & Write only, the start player for every game played in
    turns, and Enter in a name starts the game chosen. The form is whole at 80×24 and, on a phone, scrolls
    only with the page: its own scrollbar took the column a name of a game needs, which then took a line
    more, hidden under the scrollbar."""
    saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "20261122-193000-barbara-dirk.jsonl")

    async def started() -> tuple[set[str], Screen[object]]:
        async with make_app().run_test(size=size) as pilot:
            screen = pilot.app.screen
            choice = screen.query_one("#game", Select)
            choice.focus()
            await pilot.press("enter", *["down"] * list(CHOSEN).index(game), "enter")
            await pilot.pause()
            assert choice.value == game and choice in screen._compositor.visible_widgets
            assert screen.query_one("#new").max_scroll_y == 0, "the form hides a line behind a scrollbar"
            shown = set()
            for field in ("#start-player", "#variant", "#sheet", "#edit-sheet", "#start-game"):
                widget = screen.query_one(field)
                widget.scroll_visible(animate=False, immediate=True)
                await pilot.pause()
                if widget in (visible := screen._compositor.visible_widgets):
                    region, clip = visible[widget]
                    assert clip.contains_region(region), f"{field} is cut"
                    shown.add(field)
            screen.query_one("#name1").focus()
            await pilot.press(*"Ann", "tab", *"Ben", "enter")
            await pilot.pause()
            return shown, pilot.app.screen

    shown, screen = asyncio.run(started())
    roll_and_write_fields = {"#variant", "#sheet", "#edit-sheet"} if game == "roll_and_write" else set()
    in_turns = set() if game == "alhambra_pad" else {"#start-player"}
    assert shown == {"#start-game", *in_turns, *roll_and_write_fields}
    assert type(screen) is CHOSEN[game]


def test_advice_on_the_end_screen_says_the_game_is_over(xdg: Path) -> None:
    # ctrl+a, pressed from habit on the end screen, did nothing at all.
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "done.jsonl")

    async def ask() -> str:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(pilot.app.screen, RollAndWriteEndScreen)
            await pilot.press(ADVICE)
            return str(pilot.app.screen.query_one("#message", Static).render())

    assert asyncio.run(ask()).startswith("The game is over: no choice is left to advise on")


def test_end_screen_exports_markdown_and_json(xdg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "done.jsonl")

    async def export() -> tuple[RollAndWriteEndScreen, str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(pilot.app.screen, RollAndWriteEndScreen)
            await pilot.press("m", "j")
            return pilot.app.screen, str(pilot.app.screen.query_one("#message", Static).render())

    end, said = asyncio.run(export())
    exported = json.loads(log.with_name("done.score.json").read_text(encoding="utf-8"))
    capsys.readouterr()
    assert companion_main(["score", str(log), "--json"]) == 0
    # The same keys as every game's export; `scoring` is the game's own scorer's JSON.
    assert exported["scoring"] == json.loads(capsys.readouterr().out)
    assert list(exported) == ["game", "title", "finished", "totals", "winners", "scoring"]
    assert exported["winners"] == list(end.board.winners)
    markdown = log.with_name("done.score.md").read_text(encoding="utf-8")
    for p in end.board.players:
        assert f"### {p.name}: {p.total} VP" in markdown
        for b in p.buildings:
            assert f"- {b.building}: {b.vp} VP: {b.why}" in markdown
    assert f"Winner{'s' if len(end.board.winners) > 1 else ''}: {', '.join(end.board.winners)}" in markdown
    # Every player's grid, as crossed on their sheet: the rows and columns of the breakdown can be checked.
    for player in end.state.players:
        section = markdown.split(f"### {player.name}'s grid")[1].split("```")[1]
        crossed = {(y, b) for y, row in enumerate(section.splitlines()[2:], start=1) for b in range(1, 7)
                   if row[5 + 4 * (b - 1)] == "["}  # fmt: skip
        assert crossed == set(player.crossed_cells())
    assert "rows/cols: a row or column with 4, 5 or 6 crossed cells gives 2, 5 or 10 VP" in markdown
    assert said == f"written: {log.with_name('done.score.json')}", "the whole path, to find the file"


def test_dice_from_another_thread_enter_through_the_seam(xdg: Path) -> None:
    """Dice read on another thread enter through the screen's `enter_dice`, called on the app's thread."""

    async def play() -> tuple[rw.Event, list[str]]:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            screen = await new_game(pilot, ["Anna", "Ben", "Cleo"])
            reader = threading.Thread(
                target=app.call_from_thread,
                args=(screen.enter_dice, (PipDie("blue", 5), PipDie("yellow", 3)), "camera", "read 0.97"),
            )
            reader.start()
            while reader.is_alive():
                await pilot.pause()
            await pilot.pause()
            return screen.session.events[-1], screen.worded[-1]

    event, lines = asyncio.run(play())
    assert event == rw.Roll("Anna", (3,), (5,))
    assert lines == ["Anna rolled y3 b5 (camera): pavilion", "  (read 0.97)"]


DICE_LOGS = {
    "alhambra-dice": (ad.GameStarted(("Ann", "Ben", "Cleo")), ad_play, ad_log_text),
    "carcassonne-dice": (cd.GameStarted(("Ann", "Ben", "Cleo")), cd_play, cd_log_text),
}


@pytest.mark.parametrize("game", DICE_LOGS)
def test_a_dice_games_log_cut_off_by_a_crash_is_continued_with_a_warning(xdg: Path, game: str) -> None:
    """The dice games set the cut line aside as Roll & Write does, but without a word: the move was gone."""
    setup, play, log_text = DICE_LOGS[game]
    events = play(setup, random.Random(2))[1][:30]
    log = saved_log(log_text(events), "cut.jsonl")
    with log.open("ab") as f:
        f.write(b'{"event":"rolled","player":"An')

    async def resume() -> str:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            return str(pilot.app.screen.query_one("#message", Static).content)

    said = asyncio.run(resume())
    assert "cut.jsonl: line 31 was cut off (an interrupted write); kept the 30 complete events" in said, said
    assert log.with_name("cut.jsonl.cut").exists()


def test_a_log_cut_off_by_a_crash_is_continued_with_a_warning(xdg: Path) -> None:
    log = saved_game(random_game(3, ("Anna", "Ben", "Cleo"))[:40], "cut.jsonl")
    with log.open("ab") as f:
        f.write(b'{"event":"roll","player":"An')

    async def resume() -> str:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            screen = game_screen(pilot.app)  # type: ignore[arg-type]
            warning = str(screen.query_one("#turn", Static).content)
            await send_keys(pilot, next_move(screen.session.state, random.Random(1))[0])
            assert len(screen.session.events) == 41
            return warning

    warning = asyncio.run(resume())
    assert "cut.jsonl: line 41 was cut off (an interrupted write); kept the 40 complete events" in warning
    assert len(rw.load_log(log).events) == 41
    assert (
        log.with_name("cut.jsonl.cut").read_text(encoding="utf-8").startswith('{"event":"roll","player":"An')
    )


def test_a_resumed_game_keeps_where_each_roll_came_from(xdg: Path) -> None:
    """A dispute after a break needs the log on screen to say which dice the camera read, and what it read
    when the players fixed them, as the log on disk does."""
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Anna", "Ben", "Cleo"))
    events: list[rw.Event] = [
        setup,
        rw.Roll("Anna", (3,), (5,), source="camera"),
        rw.Roll("Ben", (2,), (6,), source="keyboard", note="camera read y2 b5"),
    ]
    saved_game(events, "resumed.jsonl")

    async def resume() -> list[str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            return [line for lines in game_screen(pilot.app).worded for line in lines]

    lines = asyncio.run(resume())
    assert any(line.startswith("Anna rolled y3 b5 (camera)") for line in lines)
    ben = next(n for n, line in enumerate(lines) if line.startswith("Ben rolled y2 b6"))
    assert "(camera)" not in lines[ben] and lines[ben + 1] == "  (camera read y2 b5)"


def test_names_of_earlier_games_are_offered_while_typing(xdg: Path) -> None:
    saved_game(random_game(1, ("Barbara", "Dirk", "Patricia")), "earlier.jsonl")

    async def type_names() -> list[str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.click("#name1")
            await pilot.press("b", "right", "tab", "P", "a", "right", "tab", *"Zoe")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, StartScreen)
            return screen.names()

    assert asyncio.run(type_names()) == ["Barbara", "Patricia", "Zoe"]


def test_a_name_typed_while_the_saved_games_have_the_focus_goes_into_the_form(xdg: Path) -> None:
    """With a game saved the focus starts on the saved games, and a name typed went nowhere: two Tabs reach
    player 1, and a new table's first name was lost."""
    saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:20], "a.jsonl")

    async def type_names() -> tuple[str | None, list[str], str | None]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            first = pilot.app.focused.id if pilot.app.focused else None
            await pilot.press(*"Ann", "tab", *"Ben")
            names = [pilot.app.screen.query_one(f"#name{n}", Input).value for n in (1, 2, 3)]
            return first, names, pilot.app.focused.id if pilot.app.focused else None

    first, names, focused = asyncio.run(type_names())
    assert first == "saved" and names == ["Ann", "Ben", ""] and focused == "name2", (first, names, focused)


async def choose(pilot: Pilot[None], selector: str, label: str) -> None:
    """Choose `label` in a choice box as a player does: open it, go to the top, down to it, Enter."""
    select = pilot.app.screen.query_one(selector, Select)
    listed = select.query_one("SelectOverlay", OptionList)
    prompts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
    select.focus()
    await pilot.press("enter", "home", *["down"] * prompts.index(label), "enter")


async def retype(pilot: Pilot[None], field: int, name: str) -> None:
    """Player `field`'s name erased a key at a time, then `name` typed."""
    typed = pilot.app.screen.query_one(f"#name{field}", Input)
    typed.focus()
    await pilot.press("end", *["backspace"] * len(typed.value), *name)


def start_player(pilot: Pilot[None]) -> tuple[str, str]:
    """The start player shown, and the message line."""
    screen = pilot.app.screen
    shown = screen.query_one("#start-player", Select).query_one("#label", Static).content
    return str(shown), str(screen.query_one("#message", Static).content)


def test_the_start_player_chosen_stays_chosen_while_other_names_change(xdg: Path) -> None:
    """The start player was kept as a place among the names typed: with Cat chosen, player 1 retyped from
    Ann to Ada (blank a moment) made Ada start; with Ben chosen, Ann cleared made Cat start. The player
    chosen stays chosen; only their own name cleared gives the start to the first, said so, until their field
    has a name again."""

    async def start() -> tuple[list[tuple[str, str]], tuple[str, ...]]:
        seen = []
        async with make_app().run_test(size=(100, 32)) as pilot:
            # The Alhambra dice game: the line under the form says no imaginary players.
            await choose(pilot, "#game", NEW_GAMES[1].name)
            await retype(pilot, 1, "Ann")
            await pilot.press("tab", *"Ben", "tab", *"Cat")
            await choose(pilot, "#start-player", "Cat")
            await retype(pilot, 1, "Ada")
            seen.append(start_player(pilot))
            await choose(pilot, "#start-player", "Ben")
            await retype(pilot, 1, "")
            seen.append(start_player(pilot))
            await retype(pilot, 2, "")
            seen.append(start_player(pilot))
            await retype(pilot, 2, "Bo")
            seen.append(start_player(pilot))
            await pilot.press("f5")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, AlhambraDiceScreen)
            return seen, screen.session.setup.players

    seen, players = asyncio.run(start())
    assert seen[0] == ("Cat", "") and seen[1] == ("Ben", "")
    assert seen[2] == ("Cat", "player 2, chosen to start, has no name: Cat starts")
    assert seen[3] == ("Bo", "") and players == ("Bo", "Cat")


def test_the_variant_chosen_stays_while_a_name_is_corrected(xdg: Path) -> None:
    """Ann against 3 imaginary players, her name corrected to Anna: blank a moment (no variant then), the
    form went back to the first variant, and the game started was another than the one chosen."""

    async def start() -> rw.GameStarted:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press(*"Ann")
            await choose(pilot, "#variant", "against 3 imaginary players")
            await retype(pilot, 1, "Anna")
            await pilot.press("f5")
            await pilot.pause()
            return game_screen(pilot.app).session.setup

    setup = asyncio.run(start())
    assert (setup.players, len(setup.imaginary), setup.variant) == (("Anna",), 3, rw.VERSUS_IMAGINARY)


def test_six_players_start_an_alhambra_dice_game_and_roll_and_write_says_why_not(xdg: Path) -> None:
    """The form had five names, though the Alhambra dice game and the pad take six."""

    async def start() -> tuple[str, bool, tuple[str, ...]]:
        async with make_app().run_test(size=(80, 24)) as pilot:
            await pilot.press(*"Ann", "tab", *"Ben", "tab", *"Cat", "tab", *"Dan", "tab", *"Eve")
            await pilot.press("tab", *"Fay", "f5")
            screen = pilot.app.screen
            assert isinstance(screen, StartScreen)
            message = screen.query_one("#message", Static)
            said = str(message.content), message.has_class("error")
            await pilot.press("f8")
            await pilot.pause()
            game = pilot.app.screen
            assert isinstance(game, AlhambraDiceScreen)
            return *said, game.session.setup.players

    said, error, players = asyncio.run(start())
    assert said == "a game has 1 to 5 real players, not 6" and error
    assert players == ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


@pytest.mark.parametrize("key", ["f5", "f7", "f8", "f9", "f10"])
def test_names_that_differ_only_in_case_are_refused_for_a_new_game(xdg: Path, key: str) -> None:
    """ "ann" and "Ann" started a game (the engines tell them apart, and old logs stay so), but not the
    table: the dice game's start player tile named either."""

    async def start() -> tuple[type[Screen[object]], str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press(*"ann", "tab", *"Ben", "tab", *"Ann", key)
            await pilot.pause()
            return type(pilot.app.screen), str(pilot.app.screen.query_one("#message", Static).content)

    assert asyncio.run(start()) == (
        StartScreen,
        "player names must differ: ann and Ann differ only in case or spacing",
    )


def test_the_imaginary_players_names_differ_from_the_real_ones_in_any_case(xdg: Path) -> None:
    async def start() -> rw.GameStarted:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press(*"ani", "f5")
            return game_screen(pilot.app).session.setup

    assert asyncio.run(start()).imaginary == ("Dirk", "Marc")
