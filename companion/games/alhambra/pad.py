"""The original Alhambra's scoring pad as a file in the games folder: made, read back checked, saved whole.

A pad holds each player's buildings and wall at each scoring typed so far; it is a file `companion score`
reads (`scorefile`), and the games folder lists it beside the game logs (`saved`): continued by opening it
again, in history once its three scorings are typed.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from jsonfile import JsonFileError, is_whole_number, read_json
from jsonfile.folders import free_path, make_folder
from jsonfile.whole import write_whole

from ..entry import Progress, Result, ScoreFileError, Summary
from ..folding import IllegalMove, check_names
from ..held import HeldFile
from .buildings import TYPES, load_buildings
from .scorefile import GAME_ID, MAX_NAME, MAX_PLAYERS, read_scorings
from .scorefile import LIMITS as PAD_LIMITS
from .scoring import SCORINGS, score_game
from .scoring import Result as Scored

PAD_PREFIX = "alhambra-"
PAD_SUFFIX = ".pad.json"
WALL = "wall"
DIRK = "Dirk"
"""The imaginary third player of a 2-player game."""
EXTRA_TOWER = "extra_tower"
"""The pad's field saying the dice game's extra tower joins the tile game (12 towers, not 11)."""


def new_pad(folder: Path, names: list[str], now: datetime) -> Path:
    """A pad for these players (Dirk joins a 2-player game), one empty scoring, saved in `folder`."""
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise PadError(f"a game has 2 to {MAX_PLAYERS} players (Dirk joins two), not {len(names)}")
    try:
        check_names(names, MAX_NAME)
    except IllegalMove as exc:
        raise PadError(str(exc)) from None
    if len(names) == 2 and DIRK in names:
        # Two Dirks made a pad no scorer reads ("every player needs a name of their own").
        raise PadError(f"in a 2-player game the imaginary {DIRK} plays the third seat: another name")
    players: list[dict[str, Any]] = [{"name": n, "scorings": [_empty(False)]} for n in names]
    if len(names) == 2:
        players.append({"name": DIRK, "dirk": True, "scorings": [_empty(True)]})
    make_folder(folder)
    path = free_path(folder, f"{PAD_PREFIX}{now:%Y%m%d-%H%M%S}", PAD_SUFFIX)
    save_pad(path, {"game": GAME_ID, "players": players})
    return path


_FIELD = re.compile(r"players\[(\d+)\]\.scorings\[(\d+)\](?:\.buildings)?\.(\w+)")
_EMPTY = re.compile(r": must be a whole number [0-9]+-[0-9]+, got ''$")
_EXTRA_TOWER_FIELD = re.compile(rf'\("{EXTRA_TOWER}": true [^)]*\)$')


def not_scored(pad: dict[str, Any], problem: ScoreFileError, extra_tower: str = "") -> str:
    """Why the pad as typed cannot be scored, in the pad's words: a player's count by name and scoring, not
    the file's field ("Dirk's pavilion in scoring 1", not "players[2].scorings[0].buildings.pavilion").
    `extra_tower`: how the pad's screen plays the dice game's extra tower (its key), said instead of the
    file's field where a 12th tower is refused."""

    def named(field: re.Match[str]) -> str:
        player, scoring, what = int(field[1]), int(field[2]), field[3]
        return f"{pad['players'][player]['name']}'s {what} in scoring {scoring + 1}"

    said = _EMPTY.sub(" is empty: type a count (0 for none)", _FIELD.sub(named, str(problem)))
    if extra_tower:
        said = _EXTRA_TOWER_FIELD.sub(lambda _: f"({extra_tower})", said)
    return f"not scored yet: {said}"


class PadError(ScoreFileError):
    """A pad file the screen cannot show; one line naming the file and the field."""


def load_pad(path: Path) -> dict[str, Any]:
    """The pad at `path`, read through the checked JSON reader and checked to have the shape the screen edits
    (what it holds is scored, and refused by field, as the pad is typed)."""
    try:
        data = read_json(path, PAD_LIMITS)
    except JsonFileError as exc:
        raise PadError(str(exc)) from None
    try:
        return _pad_shape(data)
    except PadError as exc:
        raise PadError(f"{path}: {exc}") from None


def _pad_shape(data: object) -> dict[str, Any]:
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(players, list) or not players:
        raise PadError("field 'players' must be a non-empty list")
    held = set()
    for i, player in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(player, dict) or not isinstance(player.get("name"), str):
            raise PadError(f"field '{where}.name' must be text")
        scorings = player.get("scorings")
        if not isinstance(scorings, list) or not 1 <= len(scorings) <= 3:
            raise PadError(f"field '{where}.scorings' must be a list of 1-3 scorings")
        for j, scoring in enumerate(scorings):
            buildings = scoring.get("buildings") if isinstance(scoring, dict) else None
            if not isinstance(buildings, dict) or not all(_typed(buildings.get(t)) for t in TYPES):
                raise PadError(f"field '{where}.scorings[{j}].buildings' must give {', '.join(TYPES)}")
            if not _typed(scoring.get(WALL, 0)):
                raise PadError(f"field '{where}.scorings[{j}].{WALL}' must be a number")
        held.add(len(scorings))
    if len(held) > 1:
        raise PadError("field 'players': every player must hold as many scorings")
    return data


def _typed(value: object) -> bool:
    """A field's value as the screen keeps it: a number, or the text typed where no number is yet."""
    return is_whole_number(value) or isinstance(value, str)


def newest_pad(folder: Path) -> Path | None:
    pads = list(folder.glob(f"{PAD_PREFIX}*{PAD_SUFFIX}")) if folder.is_dir() else []
    return max(pads, key=lambda p: (p.stat().st_mtime_ns, p.name), default=None)


def _empty(dirk: bool) -> dict[str, Any]:
    scoring: dict[str, Any] = {"buildings": dict.fromkeys(TYPES, 0)}
    return scoring if dirk else {**scoring, WALL: 0}


def save_pad(path: Path, pad: dict[str, Any], held: HeldFile | None = None) -> None:
    """`pad` written whole at `path` (a crash mid-write leaves the last good pad); `held`: the window's hold
    on it, kept on the new file (`HeldFile.save`)."""
    text = json.dumps(pad, indent=1) + "\n"
    try:
        if held is None:
            write_whole(path, text)
        else:
            held.save(text)
    except OSError as exc:
        raise PadError(f"{path}: cannot save the pad ({exc.strerror or exc})") from None


def _scored(pad: dict[str, Any]) -> Scored | None:
    """The pad's scorings so far as scored (None while a field is not a number yet or breaks a rule)."""
    try:
        types = load_buildings()
        return score_game(read_scorings(pad, types), types)
    except ScoreFileError:
        return None


def summary(pad: dict[str, Any]) -> Summary:
    """A pad as the start screen lists it: its players (Dirk apart) and the scoring being typed."""
    players = tuple(p["name"] for p in pad["players"] if not p.get("dirk"))
    dirk = tuple(p["name"] for p in pad["players"] if p.get("dirk"))
    typed = len(pad["players"][0]["scorings"])
    scored = typed == SCORINGS and _scored(pad) is not None
    # A pad whose three scorings are typed but break a rule (one finished before a rule was checked: Dirk's
    # dealt buildings) left history without a word: the list says why it is no longer counted.
    where = "finished" if scored else f"scoring {typed} of {SCORINGS}"
    if typed == SCORINGS and not scored:
        where += ", not scored: a count breaks a rule (open it to see which)"
    return Summary(players, dirk, where, scored)


def finished(pad: dict[str, Any]) -> tuple[tuple[Result, ...], tuple[str, ...]] | None:
    """A pad's totals once its three scorings are typed and scored (None before)."""
    scored = _scored(pad) if len(pad["players"][0]["scorings"]) == SCORINGS else None
    if scored is None:
        return None
    return results(scored), scored.winners


def results(scored: Scored) -> tuple[Result, ...]:
    """Each player's total as history keeps it, split into the buildings' and the walls' VP (the tile game's
    sources: its pads and Alcazaba games alike)."""
    return tuple(
        Result(
            p.name,
            p.dirk,
            p.total,
            (sum(s.vp - s.wall_vp for s in p.scorings), sum(s.wall_vp for s in p.scorings)),
        )
        for p in scored.players
    )


def progress(pad: dict[str, Any]) -> Progress:
    """The real players' totals before the first scoring and after each scoring typed."""
    scored = _scored(pad)
    real = [] if scored is None else [p for p in scored.players if not p.dirk]
    totals = [tuple(0 for _ in real)]
    for n in range(len(real[0].scorings) if real else 0):
        totals.append(tuple(sum(s.vp for s in p.scorings[: n + 1]) for p in real))
    return Progress(tuple(p.name for p in real), totals, step="scoring")
