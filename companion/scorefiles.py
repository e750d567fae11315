"""`companion score FILE`: the file's `"game"` field picks the game that scores it.

A JSON object names its game at the top; a game log names it in its first line (its `game_started` event).
Files without one are Alhambra Roll & Write's, whose end states and logs came before there were other games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games import alhambra
from companion.games.alhambra.report import result_text
from companion.games.alhambra_dice import GAME_ID as ALHAMBRA_DICE
from companion.games.alhambra_dice import scorefile as ad_scorefile
from companion.games.alhambra_dice.report import game_text as ad_game_text
from companion.games.alhambra_rw import log as rw_log
from companion.games.alhambra_rw import scorefile as rw_scorefile
from companion.games.alhambra_rw.endstate import GAME_ID as ALHAMBRA_RW
from companion.games.alhambra_rw.report import scoreboard_text
from companion.games.carcassonne_dice import GAME_ID as CARCASSONNE_DICE
from companion.games.carcassonne_dice import scorefile as cd_scorefile
from companion.games.carcassonne_dice.report import city_text, game_text
from companion.games.carcassonne_dice.scoring import CityScore
from vision.jsonfile import JsonFileError, Limits, loads, read_bytes, short

LIMITS = Limits(
    size=max(
        rw_log.LIMITS.size,
        cd_scorefile.LIMITS.size,
        alhambra.scorefile.LIMITS.size,
        ad_scorefile.LIMITS.size,
    )
)
"""The largest file any game scores; each game's reader then applies its own limits."""


class ScoreFileError(ValueError):
    """The file cannot be scored; the message is one line naming the file and the problem."""


@dataclass(frozen=True, slots=True)
class Scored:
    """A scored file: the breakdown as JSON and as text, and a warning for the user (or '')."""

    json: dict[str, Any]
    text: str
    warning: str = ""


def _alhambra_rw(path: Path, data: bytes) -> Scored:
    try:
        scored = rw_scorefile.score_file(path, data)
    except rw_scorefile.ScoreFileError as exc:
        raise ScoreFileError(str(exc)) from exc
    return Scored(scored.board.to_json(), scoreboard_text(scored.board), scored.warning)


def _carcassonne_dice(path: Path, data: bytes) -> Scored:
    try:
        scored = cd_scorefile.score_data(path, data)
    except cd_scorefile.ScoreFileError as exc:
        raise ScoreFileError(str(exc)) from exc
    text = city_text(scored) if isinstance(scored, CityScore) else game_text(scored)
    return Scored(scored.to_json(), text)


def _alhambra(path: Path, data: bytes) -> Scored:
    try:
        result = alhambra.score_data(path, data)
    except alhambra.ScoreFileError as exc:
        raise ScoreFileError(str(exc)) from exc
    return Scored(result.to_json(), result_text(result))


def _alhambra_dice(path: Path, data: bytes) -> Scored:
    try:
        scored = ad_scorefile.score_data(path, data)
    except ad_scorefile.ScoreFileError as exc:
        raise ScoreFileError(str(exc)) from exc
    text = result_text(scored) if isinstance(scored, alhambra.Result) else ad_game_text(scored)
    return Scored(scored.to_json(), text)


GAMES: dict[str, Callable[[Path, bytes], Scored]] = {
    ALHAMBRA_RW: _alhambra_rw,
    CARCASSONNE_DICE: _carcassonne_dice,
    alhambra.GAME_ID: _alhambra,
    ALHAMBRA_DICE: _alhambra_dice,
}


def game_of(data: bytes) -> object:
    """The `"game"` the file names (None where it names none or is not JSON: its game's reader says why)."""
    try:
        whole = loads(data, LIMITS)
    except JsonFileError:
        try:
            whole = loads(data.lstrip().split(b"\n", 1)[0], LIMITS)
        except JsonFileError:
            return None
    return whole.get("game") if isinstance(whole, dict) else None


def score_path(path: str | Path) -> Scored:
    """Score any game's file; every problem is a `ScoreFileError`."""
    path = Path(path)
    try:
        data = read_bytes(path, LIMITS)
    except JsonFileError as exc:
        raise ScoreFileError(str(exc)) from exc
    game = game_of(data)
    if game is None:
        game = ALHAMBRA_RW
    if not isinstance(game, str) or game not in GAMES:
        raise ScoreFileError(f"{path}: game: unknown game {short(game)} (known: {', '.join(GAMES)})")
    return GAMES[game](path, data)
