"""What a game leaves for the start screen's form: the game and its players in the saved games' words, the
form its set-up gives (`NextGame`), and whether anything was played (`LeftGame`). Apart from the start screen,
which the game screens (the pad's among them) would otherwise import in a circle."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.games.entry import GameEntry, Summary


def game_words(game: GameEntry, summary: Summary) -> str:
    """A game as the saved games name it, without how far it has come: its game (and variant), its players."""
    names = ", ".join([*summary.players, *(f"{n} ◇" for n in summary.imaginary)])
    variant = f" ({summary.variant})" if summary.variant else ""
    return f"{game.list_name}{variant} · {names}"


@dataclass(frozen=True)
class NextGame:
    """The form as a finished game leaves it for the same table's next game: that game chosen (`choice`), its
    real players in seating order from its start player (who is chosen again), and Roll & Write's variant."""

    choice: str
    players: tuple[str, ...]
    variant: tuple[int, str] | None = None


@dataclass(frozen=True)
class LeftGame:
    """A game as the players leave it (Esc), its file let go by its screen. One left as it started was
    started by mistake (a key meant for another game): the start screen deletes it and its form holds the
    game's set-up again, so the names are not typed twice and Enter in the saved games does not reopen it."""

    path: Path
    played: bool
    """Whether anything was played: a move (a line of its log after the first), a count typed on the pad."""
    words: str
    """The game and its players, as the saved games name them."""
    form: NextGame
    """The form the game's set-up gives."""
