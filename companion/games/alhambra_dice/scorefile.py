"""Score files of the Alhambra dice game: an end state typed in from the board, checked field by field, or a
finished game's log.

An end state lists the players (the imaginary Dirk marked `"dirk": true`) and, for each of the 3 scorings
(A, B, C), each building type's stones best first and the VP tiles each player holds::

    {"game": "alhambra-dice",
     "players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Dirk", "dirk": true}],
     "scorings": [{"scoring": "A", "buildings": {"pavilion": [["Ann", 2], ["Dirk", 2], ["Ben", 0]], ...},
                   "vp_tiles": {"Ann": [2], "Ben": [], "Dirk": []}}]}

Stones with equal building points share a field: the one listed first lies lower in the stack (it reached the
field first) and is the better; a player without a stone on the track has 0, last. Every type lists every
player and every player's VP tiles are listed (`[]` for none), so that nothing left out by a slip is scored as
nothing.
"""

from __future__ import annotations

from companion.games import eventlog
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra.scoring import Result
from jsonfile import is_whole_number, refuse_unknown, short

from ..entry import ScoreFileError as ScoreFileError
from .alcazaba import AlcazabaGame
from .components import BONUS_TILES
from .engine import DIRK, MAX_NAME, PLAYERS, ROUNDS, TRACK, IllegalMove
from .events import STANDARD, Event, event_to_json
from .play import fold
from .scoring import AFTER_ROUND, LETTERS, GameScore, Standing, score_standings
from .state import GameState

PER_ROUND = 3
"""Building points a column gives one player in a round at most: the best marker's 2, the second best's 1."""
DIRK_PER_ROUND = 2
"""Dirk's at most: one marker a column each round, and "as best result Dirk always takes 2 building points"
(rules page, 2 players: imaginary "Dirk"); he keeps no exchange tile."""


def _players(data: object) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    if not isinstance(data, list) or not PLAYERS[0] <= len(data) <= PLAYERS[1] + 1:
        raise ScoreFileError(f"players: must be a list of {PLAYERS[0]}-{PLAYERS[1]} players (and Dirk)")
    names, dirks = [], []
    for n, player in enumerate(data):
        where = f"players[{n}]"
        if not isinstance(player, dict):
            raise ScoreFileError(f"{where}: must be an object with name (and dirk)")
        refuse_unknown(player, ("name", "dirk"), where, ScoreFileError)
        name, dirk = player.get("name"), player.get("dirk", False)
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
            raise ScoreFileError(
                f"{where}.name: must be a name of 1-{MAX_NAME} characters, got {short(name)}"
            )
        if not isinstance(dirk, bool):
            raise ScoreFileError(f"{where}.dirk: must be true or false, got {short(dirk)}")
        names.append(name.strip())
        dirks.append(dirk)
    if len(set(names)) != len(names):
        raise ScoreFileError("players: every player needs a name of their own")
    real = dirks.count(False)
    if any(dirks) and (dirks.count(True) > 1 or real != 2):
        raise ScoreFileError(
            f"players: {DIRK} plays only in a 2-player game, as its one imaginary third player"
        )
    if not PLAYERS[0] <= real <= PLAYERS[1]:
        raise ScoreFileError(f"players: the game is for {PLAYERS[0]}-{PLAYERS[1]} real players, got {real}")
    if real == 2 and not any(dirks):
        raise ScoreFileError(
            f'players: a 2-player game has the imaginary {DIRK} as third player: add {{"name": "{DIRK}", '
            '"dirk": true}'
        )
    return tuple(names), tuple(dirks)


def _most_gained(rounds: int) -> int:
    """The most building points of one type all players together can gain in `rounds` rounds: a column gives
    2 to the best marker and 1 to the second best a round (the same player may be both), and each exchange
    tile moves one more point into a type, once."""
    return PER_ROUND * rounds + BONUS_TILES.counts["exchange"]


def _most_points(rounds: int) -> int:
    """The most building points of one type a player can hold after `rounds` rounds; the track ends at 12."""
    return min(TRACK, _most_gained(rounds))


def _most_vp_tiles(rounds: int) -> int:
    """The most VP tiles all players hold after `rounds` rounds: only the tiles laid out so far can be taken
    (a pile of 5 in rounds 1–4, the 6 dark tiles in round 5), and the game has 16."""
    laid = sum(BONUS_TILES.dark if r == ROUNDS else BONUS_TILES.pile for r in range(1, rounds + 1))
    return min(BONUS_TILES.counts["vp"], laid)


def _stones(
    data: object, where: str, names: tuple[str, ...], most: int = TRACK, dirk: tuple[str, int] = ("", TRACK)
) -> tuple[tuple[str, int], ...]:
    """A type's stones, best first; `most` building points a player holds at most, and Dirk (his name and his
    most, `dirk`) fewer: an end state giving him more than his markers can take changed the real places."""
    if not isinstance(data, list):
        raise ScoreFileError(f'{where}: must list the stones best first, e.g. [["Ann", 5], ["Ben", 3]]')
    stones: list[tuple[str, int]] = []
    for n, stone in enumerate(data):
        at = f"{where}[{n}]"
        if not isinstance(stone, list) or len(stone) != 2:
            raise ScoreFileError(
                f'{at}: must be [player, building points], e.g. ["Ann", 5], got {short(stone)}'
            )
        name, points = stone
        if name not in names:
            raise ScoreFileError(f"{at}: {short(name)} is not one of the players")
        if any(name == s[0] for s in stones):
            raise ScoreFileError(f"{at}: {name} has one stone per building type")
        if not is_whole_number(points, 0, TRACK):
            raise ScoreFileError(
                f"{at}: building points must be a whole number 0-{TRACK}, got {short(points)}"
            )
        if name == dirk[0] and points > dirk[1]:
            raise ScoreFileError(
                f"{at}: Dirk cannot hold {points} building points of a type by this scoring: at most "
                f"{dirk[1]} ({DIRK_PER_ROUND} a round: as best result Dirk always takes 2 building points)"
            )
        if points > most:
            raise ScoreFileError(
                f"{at}: {name} cannot hold {points} building points of a type by this scoring: at most "
                f"{most} ({PER_ROUND} a round from its column and one per exchange tile)"
            )
        if stones and points > stones[-1][1]:
            raise ScoreFileError(
                f"{at}: list the stones best first ({name}'s {points} after {stones[-1][1]})"
            )
        stones.append((name, points))
    missing = [name for name in names if all(name != s[0] for s in stones)]
    if missing:
        raise ScoreFileError(f"{where}: missing {', '.join(missing)} ([name, 0] for no stone)")
    return tuple(s for s in stones if s[1])


def _check_gained(track: tuple[tuple[str, int], ...], where: str, rounds: int) -> None:
    """The stones of one type together hold no more than its column and the exchange tiles gave."""
    held, most = sum(points for _, points in track), _most_gained(rounds)
    if held > most:
        raise ScoreFileError(
            f"{where}: {held} building points in all, at most {most} after {rounds} "
            f"round{'s' if rounds > 1 else ''} ({PER_ROUND} a round from its column and one per exchange "
            f"tile, the game has {BONUS_TILES.counts['exchange']})"
        )


def _tiles(data: object, where: str, names: tuple[str, ...], most: int) -> tuple[tuple[int, ...], ...]:
    if not isinstance(data, dict):
        raise ScoreFileError(f'{where}: must map players to their VP tiles\' values, e.g. {{"Ann": [2, 3]}}')
    refuse_unknown(data, names, where, ScoreFileError)
    missing = [name for name in names if name not in data]
    if missing:
        raise ScoreFileError(f"{where}: missing {', '.join(missing)} ([] for no VP tile)")
    tiles: list[tuple[int, ...]] = []
    for name in names:
        given = data[name]
        if not isinstance(given, list) or not all(is_whole_number(v, 1, 3) for v in given):
            raise ScoreFileError(f"{where}.{name}: must be a list of VP tile values, each 1, 2 or 3")
        tiles.append(tuple(given))
    held = sum(map(len, tiles))
    if held > most:
        raise ScoreFileError(
            f"{where}: {held} VP tiles in all, at most {most} can be taken by this scoring (the game has "
            f"{BONUS_TILES.counts['vp']}, a round lays out {BONUS_TILES.pile} bonus tiles, the last "
            f"{BONUS_TILES.dark})"
        )
    return tuple(tiles)


def _dirk_of(names: tuple[str, ...], dirk: tuple[bool, ...]) -> str:
    """The imaginary Dirk's name ("": a game without him)."""
    return next((name for name, is_dirk in zip(names, dirk, strict=True) if is_dirk), "")


def _standing(data: object, n: int, names: tuple[str, ...], dirk: tuple[bool, ...]) -> Standing:
    where = f"scorings[{n}]"
    if not isinstance(data, dict):
        raise ScoreFileError(f"{where}: must be an object with scoring, buildings and vp_tiles")
    refuse_unknown(data, ("scoring", "buildings", "vp_tiles"), where, ScoreFileError)
    if data.get("scoring") != LETTERS[n]:
        raise ScoreFileError(
            f"{where}.scoring: must be {LETTERS[n]!r} (A, B, C in turn), got {short(data.get('scoring'))}"
        )
    buildings = data.get("buildings")
    if not isinstance(buildings, dict):
        raise ScoreFileError(f"{where}.buildings: must map building types to their stones")
    refuse_unknown(buildings, TYPES, f"{where}.buildings", ScoreFileError)
    missing = [t for t in TYPES if t not in buildings]
    if missing:
        raise ScoreFileError(f"{where}.buildings: missing {', '.join(missing)}")
    rounds = AFTER_ROUND[n]
    dirks = (_dirk_of(names, dirk), DIRK_PER_ROUND * rounds)  # no player is named "": none without Dirk
    tracks = tuple(
        _stones(buildings[t], f"{where}.buildings.{t}", names, _most_points(rounds), dirks) for t in TYPES
    )
    for t, track in zip(TYPES, tracks, strict=True):
        _check_gained(track, f"{where}.buildings.{t}", rounds)
    vp_tiles = _tiles(data.get("vp_tiles"), f"{where}.vp_tiles", names, _most_vp_tiles(rounds))
    return Standing(names, dirk, tracks, vp_tiles)


def _kept(earlier: Standing, later: Standing, where: str) -> None:
    """Building points never go down and VP tiles are kept to the end; a stack's order is never changed: the
    stones that stayed on a field keep their order, below any stone that reached it since ("moet men er zeer
    goed op letten dat de volgorde van de gebouwenstenen in die toren niet wordt gewijzigd")."""
    for t, (before, after) in enumerate(zip(earlier.tracks, later.tracks, strict=True)):
        now = dict(after)
        for name, points in before:
            if now.get(name, 0) < points:
                raise ScoreFileError(
                    f"{where}.buildings.{TYPES[t]}: {name} had {points} building points, they never go down"
                )
        for field in sorted({points for _, points in after}):
            stayed = [name for name, points in before if points == field and now[name] == field]
            stack = [name for name, points in after if points == field]
            if stack[: len(stayed)] != stayed:
                raise ScoreFileError(
                    f"{where}.buildings.{TYPES[t]}: on field {field} the stones that stayed there keep their "
                    f"order at the bottom ({', '.join(stayed)}), stones reaching it later lie on top; "
                    f"got {', '.join(stack)}"
                )
    for name, had, has in zip(later.names, earlier.vp_tiles, later.vp_tiles, strict=True):
        if any(had.count(v) > has.count(v) for v in had):
            raise ScoreFileError(
                f"{where}.vp_tiles.{name}: VP tiles are kept to the end ({list(had)} before)"
            )


def end_state(data: object) -> GameScore:
    """Score an end state's JSON; `ScoreFileError` names the field."""
    if not isinstance(data, dict):
        raise ScoreFileError("must be an object with game, players and scorings")
    refuse_unknown(data, ("game", "players", "scorings"), "", ScoreFileError)
    names, dirk = _players(data.get("players"))
    scorings = data.get("scorings")
    if not isinstance(scorings, list) or len(scorings) != len(LETTERS):
        raise ScoreFileError("scorings: must list the game's 3 scorings, A, B and C")
    standings = [_standing(s, n, names, dirk) for n, s in enumerate(scorings)]
    for n in range(1, len(standings)):
        _kept(standings[n - 1], standings[n], f"scorings[{n}]")
    return score_standings(names, dirk, standings)


def score_log(events: list[Event]) -> GameScore:
    """Score a game's events: the scorings held so far."""
    return score_state(fold(events).state)


def score_state(state: GameState) -> GameScore:
    """The scorings a game has held so far (the app shows a game in progress with it)."""
    if state.variant != STANDARD:
        # The variant is scored by the original Alhambra's scoring (`AlcazabaGame.result`), not with building
        # points: refused rather than shown as a standard game without points.
        raise ScoreFileError(f"the {state.variant} variant is scored by the engine's result(), not here yet")
    dirk = tuple(i == state.dirk for i in range(len(state.names)))
    return score_standings(state.names, dirk, state.standings, 6 if state.is_over else state.round)


def score_finished(events: list[Event]) -> GameScore | Result:
    """Score a finished game's events; `ScoreFileError` for a game not over or a move the rules refuse. A game
    of the Alcazaba variant is scored as the original Alhambra (its `Result`)."""
    try:
        game = fold(events)
    except IllegalMove as exc:
        raise ScoreFileError(str(exc)) from exc
    if not game.is_over:
        # A log cut short is a game in progress: never scored as if it were the whole game.
        raise ScoreFileError(f"the game is not over: round {game.round} of {ROUNDS}")
    if isinstance(game, AlcazabaGame):
        result = game.result()
        assert result is not None  # a finished game has held its three scorings
        return result
    return score_state(game.state)


def log_text(events: list[Event]) -> str:
    """A game log's text: one event a line (the examples are written with it)."""
    return eventlog.log_text(events, event_to_json)
