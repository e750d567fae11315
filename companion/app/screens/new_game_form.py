"""The start screen's new-game form, apart from the screen: the players' names as typed and pasted (one
form, told apart as the table tells players apart, never a roll typed by mistake), the imaginary players and
Roll & Write's variants each count of players takes, and the sheets offered."""

from __future__ import annotations

import re
from pathlib import Path

from textual.events import Paste
from textual.widgets import Input

from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.engine import IMAGINARY_PLAYERS
from companion.history import player_key
from jsonfile import printable

from ..alhambra_dice_input import dice_counts
from ..roll_and_write_input import parse_dice

MAX_PLAYERS = 6
"""The most players a game takes (the Alhambra dice game, the pad); each game refuses counts it does not."""
IMAGINARY_NAMES = ("Ani", "Dirk", "Marc", "Frank", "Patricia", "Barbara")
"""Names for the imaginary players (from the rulebook's examples); any a real player uses is skipped."""
BETWEEN_NAMES = re.compile(r"[\t,]")
"""What parts the names of a line pasted into the form, as line breaks do: a name's own spaces are its
("Li Lei")."""
PASTED_AT_MOST = 1_000
"""The longest paste the form takes: six names of 40 letters and what parts them fit many times over; a 5 MB
line held the app for 26 s before the name's length was refused."""

SheetChoice = tuple[str, str]
"""("shipped", name) or ("user", path)."""


def imaginary_names(players: list[str], count: int) -> tuple[str, ...]:
    # A name a real player has in another case is theirs too: "ani" and an imaginary "Ani" were two players
    # the table could not tell apart.
    taken = {player_key(name) for name in players}
    numbered = (f"Imaginary {i}" for i in range(1, count + len(players) + 1))
    return tuple([name for name in (*IMAGINARY_NAMES, *numbered) if player_key(name) not in taken][:count])


def names_clash(names: list[str]) -> str:
    """Why these names (as the form gives them: NFC) cannot be a new game's players ("": they can). The
    engines tell names apart as typed, so that old logs stay readable; at the table, and on the dice game's
    start player tile, "ann" and "Ann" are one player."""
    for n, name in enumerate(names):
        for other in names[:n]:
            if other == name:
                return "player names must differ"
            if player_key(other) == player_key(name):
                return printable(
                    f"player names must differ: {other} and {name} differ only in case or spacing"
                )
    return ""


def pasted_names(text: str) -> list[str]:
    """The names in a paste, in order: one a line (every line break Python knows: a paste from a word
    processor may part lines by U+2028), or between tabs or commas; blank ones dropped."""
    return [
        name for line in text.splitlines() for part in BETWEEN_NAMES.split(line) if (name := part.strip())
    ]


def looks_like_a_roll(name: str) -> bool:
    """Whether a name is what the games' entry lines read as dice, not a player's name: a roll as typed in a
    game (`y3 b5`, `ssaacggt`), or a name without a word of two letters (`3 4 5`, `1 0 2 0 1 2`, `p s a`,
    `h`). Typed on the start screen by a player who left a game by one Esc too many, it started a game for a
    player named so. A letter beyond ASCII is no die's: `Ö` may be a name."""
    for read in (parse_dice, dice_counts):
        try:
            read(name)
        except ValueError:
            continue
        return True
    letters = [[c for c in word if c.isalpha()] for word in name.split()]
    return not any(len(word) > 1 or not "".join(word).isascii() for word in letters)


def variant_options(players: list[str]) -> tuple[list[tuple[str, tuple[int, str]]], str]:
    """The (imaginary count, variant) combinations the engine accepts for these players, with labels,
    and the engine's reason when it accepts none."""
    if not players:
        return [], "type at least one player's name"
    options = []
    reason = ""
    # A count of players the engine takes none for is tried with none imaginary: the engine says why.
    for count in IMAGINARY_PLAYERS.get(len(players), (0,)):
        for variant in rw.VARIANTS:
            setup = rw.GameStarted(
                rw.load_shipped_sheet("example"), tuple(players), imaginary_names(players, count), variant
            )
            try:
                rw.start(setup)
            except rw.IllegalMove as exc:
                reason = str(exc)
                continue
            if variant == rw.VERSUS_IMAGINARY:
                label = f"against {count} imaginary players"
            elif count:
                label = f"standard, {count} imaginary player{'s' if count > 1 else ''}"
            else:
                label = "standard"
            options.append((label, (count, variant)))
    return options, "" if options else reason


class NameField(Input):
    """A player's name in the form. A list of names pasted into it goes on to the screen, which shares them
    out one a name (`Input` kept the first line alone, the rest lost without a word)."""

    def on_paste(self, event: Paste) -> None:
        # Anything but one name as it stands goes to the screen: `Input` keeps a paste's first line, so a
        # list that began with a line break, or a name with a comma after it, lost or kept the wrong text.
        if len(event.text) > PASTED_AT_MOST or pasted_names(event.text) != [event.text]:
            event.prevent_default()


def shipped_sheet_choices() -> list[tuple[str, SheetChoice]]:
    return [(f"{name} (not the printed sheet)", ("shipped", name)) for name in rw.shipped_sheets()]


def fallback_said(newest: list[Path], unreadable: dict[str, str], chosen: str) -> str:
    """Why the form's sheet is not the players' newest (""; it is): that one cannot be read. A group that
    typed its sheet played on the example unaware, the reason said only if the broken one was picked."""
    if not newest or str(newest[0]) not in unreadable:
        return ""
    others = len(unreadable) - 1
    more = f"; {others} more of yours cannot be read (listed last)" if others else ""
    return printable(
        f"your sheet '{newest[0].stem}' cannot be read ({unreadable[str(newest[0])]}){more}; the form took "
        f"{chosen}: fix the file, or choose it and F2 types it again"
    )


def last_written(path: Path) -> float:
    """When a sheet file was last written; a link to nothing, or a file gone since it was listed, counts as
    the oldest (loading it says why it cannot be read)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
