"""A player's name is shown as it was typed, wherever the app shows it: Textual reads a string as markup, so
`[b]Ann` was drawn as a bold "Ann", `[Team] Bob` as " Bob", and `Ann[/]` crashed the app (as it was typed on
the start form, or as a saved game's player while the start screen listed it, so no game could be reached)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_driver import make_app, random_game, saved_game, saved_log
from textual.app import App
from textual.pilot import Pilot

from companion.app import paths
from companion.app.screens.alcazaba import AlcazabaScreen
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.alhambra_pad import AlhambraPadScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.end import EndScreen
from companion.app.screens.history import HistoryScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.roll_and_write_end import scoreboard_markdown
from companion.app.table_view import TableView
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra.pad import PAD_PREFIX, PAD_SUFFIX
from companion.games.alhambra.report import result_text
from companion.games.alhambra.scoring import SCORINGS
from companion.games.alhambra_dice.events import ALCAZABA, STANDARD
from companion.games.alhambra_dice.scorefile import log_text as dice_log
from companion.games.alhambra_dice.simulate import play_random_game as play_dice
from companion.games.carcassonne_dice.scorefile import log_text as carcassonne_log
from companion.games.carcassonne_dice.simulate import play_random_game as play_carcassonne
from companion.history import history

NAMES = ("[Team] Bob", "Mia [AFK]", "[/]")
"""Names Textual's markup ate (a tag it did not know), or crashed on (a tag closing nothing)."""
SIZE = (240, 90)
"""Wide enough for a saved game's whole label on a line, tall enough for an end screen's reasons."""
EXAMPLES = Path(__file__).parents[2] / "companion" / "games"
FINISHED = "20261101-100000-finished"
PLAYING = "20261101-110000-playing"


def screen_text(app: App[Any]) -> str:
    """What the terminal shows now, a line of the screen a line."""
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


def shown(text: str, *wanted: str) -> None:
    for words in wanted:
        assert words in text, f"{words!r} not shown in:\n{text}"


# ------------------------------------------------------------------------------ saved games of each kind
def roll_and_write() -> list[rw.Event]:
    return random_game(2, NAMES)


def dice(variant: str) -> list[ad.Event]:
    return play_dice(ad.GameStarted(NAMES, variant), random.Random(3))[1]


def carcassonne() -> list[cd.Event]:
    return play_carcassonne(cd.GameStarted(NAMES), random.Random(3))[1]


def pad(scorings: int) -> dict[str, Any]:
    """The example pad's counts, its players named `NAMES` (Dirk's seat a third real player's, who built
    nothing)."""
    example = json.loads((EXAMPLES / "alhambra" / "examples" / "two-players-and-dirk.json").read_text())
    nothing = {"buildings": dict.fromkeys(TYPES, 0), "wall": 0}
    players = [*example["players"][:2], {"name": "", "scorings": [nothing] * SCORINGS}]
    for player, name in zip(players, NAMES, strict=True):
        player["name"] = name
        player["scorings"] = player["scorings"][:scorings]
    return {**example, "players": players}


def save_pad(pad: dict[str, Any], stamp: str) -> Path:
    folder = paths.games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{PAD_PREFIX}{stamp}{PAD_SUFFIX}"
    path.write_text(json.dumps(pad))
    return path


def save(kind: str, finished: bool) -> None:
    """A saved game of `kind` by `NAMES`, over (`finished`) or being played."""
    name = f"{FINISHED if finished else PLAYING}-{kind}.jsonl"
    if kind == "roll-and-write":
        saved_game(roll_and_write()[: None if finished else 40], name)
    elif kind in ("alhambra-dice", "alcazaba"):
        events = dice(ALCAZABA if kind == "alcazaba" else STANDARD)
        saved_log(dice_log(events[: None if finished else 30]), name)
    elif kind == "carcassonne-dice":
        saved_log(carcassonne_log(carcassonne()[: None if finished else 20]), name)
    else:
        save_pad(pad(3 if finished else 1), "20261101-100000" if finished else "20261101-110000")


KINDS = ("roll-and-write", "alhambra-dice", "alcazaba", "carcassonne-dice", "alhambra-pad")


# ------------------------------------------------------------------------------------------ the tests
def test_names_typed_with_markup_signs_are_offered_to_start_as_typed(xdg: Path) -> None:
    """The start player's choice was a `Select` of the names as markup: `Ann[/]` crashed the app as its `]`
    was typed, `[b]Bo` was offered as a bold "Bo"."""

    async def type_names() -> list[str]:
        async with make_app().run_test(size=(100, 30)) as pilot:
            await pilot.press(*"Ann[/]", "tab", *"[b]Bo")
            await pilot.pause()
            seen = [screen_text(pilot.app)]
            await pilot.click("#start-player")
            await pilot.pause()
            seen.append(screen_text(pilot.app))
            return seen

    chosen, offered = asyncio.run(type_names())
    shown(chosen, "start player  Ann[/]")
    shown(offered, "Ann[/]", "[b]Bo")


def test_saved_games_and_past_games_are_listed_by_the_names_as_typed(xdg: Path) -> None:
    """A saved game's label, and a past game's line and winners in F4's history, name the players as
    typed (a player named `[/]` crashed the start screen, every game out of reach)."""
    for kind in KINDS:
        save(kind, finished=True)
    save("roll-and-write", finished=False)
    lines = history(paths.games_dir()).games
    assert len(lines) == len(KINDS)

    async def look() -> tuple[str, str]:
        async with make_app().run_test(size=SIZE) as pilot:
            await pilot.pause()
            start = screen_text(pilot.app)
            await pilot.press("f4")
            await pilot.pause()
            assert isinstance(pilot.app.screen, HistoryScreen)
            return start, screen_text(pilot.app)

    start, past = asyncio.run(look())
    names = ", ".join(NAMES)
    assert start.count(f" {names} · finished · ") == len(KINDS), start
    shown(start, f" {names} · round ", f"Enter continues Roll & Write · {names} · round")
    for game in lines:
        shown(past, *(f"{r.name} {r.total}" for r in game.results), game.won)
    shown(past, f"{lines[0].path.name}: {lines[0].won}")


def roll_and_write_shown(screen: Any) -> list[str]:
    state, exp = screen.state, screen.session.expectation()
    assert isinstance(screen, RollAndWriteScreen) and not state.player(exp.player).imaginary
    return [f"turn: {exp.player} · start player: {NAMES[0]}", f"{exp.player}'s grid"]


def dice_shown(screen: Any) -> list[str]:
    state = screen.state
    assert isinstance(screen, AlhambraDiceScreen)
    wanted = [f"Caliph: {state.names[state.caliph]}", *(f"{n + 1} {name}" for n, name in enumerate(NAMES))]
    if isinstance(screen, AlcazabaScreen):
        wanted += [f"{n + 1} {name}'s Alhambra" for n, name in enumerate(NAMES)]
    return wanted


def carcassonne_shown(screen: Any) -> list[str]:
    state = screen.state
    assert isinstance(screen, CarcassonneDiceScreen)
    active = state.names[state.active]
    return [f"▶ {active}", f"Turn {state.turn}: {active}, roll", *(f" {name} " for name in NAMES)]


def pad_shown(screen: Any) -> list[str]:
    """The totals and who leads (or won), each player's counts and the breakdown's ties."""
    assert isinstance(screen, AlhambraPadScreen) and screen.result is not None
    totals = result_text(screen.result).splitlines()[-1]
    assert all(name in totals for name in NAMES), totals
    counts = [f"\n{name}  " for name in NAMES]
    return [totals, *counts, f"tied with {NAMES[1]} for 1st", f"tied with {NAMES[0]} for 1st"]


PLAYING_SHOWS: dict[str, Callable[[Any], list[str]]] = {
    "roll-and-write": roll_and_write_shown,
    "alhambra-dice": dice_shown,
    "alcazaba": dice_shown,
    "carcassonne-dice": carcassonne_shown,
    "alhambra-pad": pad_shown,
}


async def continued(pilot: Pilot[None]) -> str:
    """The first saved game continued (Enter), what its screen shows."""
    await pilot.press("enter")
    await pilot.pause()
    return screen_text(pilot.app)


@pytest.mark.parametrize("kind", KINDS)
def test_a_game_being_played_shows_the_names_as_typed(xdg: Path, kind: str) -> None:
    """Its header (the turn, the start player, the Caliph), the grid's title, the board, the pad and the Now
    panel name the players as typed."""
    save(kind, finished=False)

    async def play() -> tuple[str, list[str]]:
        async with make_app().run_test(size=SIZE) as pilot:
            text = await continued(pilot)
            return text, PLAYING_SHOWS[kind](pilot.app.screen)

    text, wanted = asyncio.run(play())
    shown(text, *wanted)


def roll_and_write_reasons() -> list[str]:
    """The final scoring's reasons that name a player (`tied with`, `together with`)."""
    board = rw.score_game(rw.replay(roll_and_write()))
    whys = [why for p in board.players for why in (*(b.why for b in p.buildings), p.coins_why)]
    return [why for why in whys if any(name in why for name in NAMES)]


@pytest.mark.parametrize("kind", KINDS)
def test_a_finished_games_scoring_shows_the_names_as_typed(xdg: Path, kind: str) -> None:
    """The end screen's winners, totals and reasons (and each Roll & Write grid's title); the pad's winners
    and totals."""
    save(kind, finished=True)

    async def look() -> tuple[str, Any]:
        async with make_app().run_test(size=SIZE) as pilot:
            text = await continued(pilot)
            return text, pilot.app.screen

    text, screen = asyncio.run(look())
    if kind == "alhambra-pad":
        shown(text, *pad_shown(screen), f"Winner: {NAMES[0]}")
        return
    assert isinstance(screen, EndScreen)
    shown(text, f"Final scoring · {screen.scored.winners_line()}")
    shown(text, *(f" {name} " for name, _ in screen.scored.totals))
    if kind == "roll-and-write":
        reasons = roll_and_write_reasons()
        assert reasons, "a reason names a player"
        shown(text, *(f"{name}'s grid" for name in NAMES), *(f"{name}: " for name in NAMES))
        shown(" ".join(text.split()), *(" ".join(why.split()) for why in reasons[:1]))


@pytest.mark.parametrize("kind", KINDS[:-1])  # the pad's view drew its names as text already
def test_the_tables_view_shows_the_names_as_typed(xdg: Path, kind: str) -> None:
    """`companion view` of a game being played: the grids' titles, the players on the board and the pad."""
    save(kind, finished=False)
    wanted = {
        "roll-and-write": [f"{name}'s grid" for name in NAMES],
        "alhambra-dice": [f"{n + 1} {name}:" for n, name in enumerate(NAMES)],
        "alcazaba": [f"{n + 1} {name}'s Alhambra" for n, name in enumerate(NAMES)],
        "carcassonne-dice": [f" {name} " for name in NAMES],
    }[kind]

    async def look() -> str:
        app = TableView(paths.games_dir())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.2)
            return screen_text(app)

    shown(asyncio.run(look()), *wanted)


def test_the_markdown_exports_reasons_name_the_players_as_plain_text() -> None:
    """The reasons name players ("tied with …"): written raw, a name was live Markdown or HTML in them."""
    odd = ("<img src=x onerror=alert(1)>", "[Lu](http://e.vil)", "*Kai*")
    state = rw.replay(random_game(2, odd))
    board = rw.score_game(state)
    text = scoreboard_markdown(board, "A game", state)
    why = text.split("## Why", 1)[1].split("## Grids", 1)[0]
    reasons = [line for line in why.splitlines() if line.startswith("- ")]
    assert any("\\<img" in line or "\\[Lu\\]" in line or "\\*Kai\\*" in line for line in reasons), why
    for raw in odd:
        assert raw not in why, why


def carcassonne_after_a_built_turn() -> list[cd.Event]:
    """The game cut just after a turn that ended with city dice built: the City panel shows that turn's city,
    headed by its player's name."""
    events = carcassonne()
    for n in range(1, len(events)):
        state = cd.replay(events[: n + 1])
        if isinstance(events[n], cd.TurnEnded) and state.turns[-1].built and not state.is_over:
            return events[: n + 1]
    raise AssertionError("no turn built a city")


@pytest.mark.parametrize("where", ["game", "view"])
def test_the_city_a_turn_scored_is_headed_by_its_players_name_as_typed(xdg: Path, where: str) -> None:
    """The city a turn ended with stays in view until the next roll, headed "NAME · turn N · +P": read as
    markup, `[/]` crashed both the game's screen and the table's view, and `[Team] Bob` lost his tag."""
    events = carcassonne_after_a_built_turn()
    saved_log(carcassonne_log(events), f"{PLAYING}-carcassonne-dice.jsonl")
    last = cd.replay(events).turns[-1]

    async def look() -> str:
        if where == "view":
            app: App[Any] = TableView(paths.games_dir())
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause(0.2)
                return screen_text(app)
        async with make_app().run_test(size=SIZE) as pilot:
            return await continued(pilot)

    shown(asyncio.run(look()), f"{last.player} · turn {last.turn}")  # its points may wrap in the city box
