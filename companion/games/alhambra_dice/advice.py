"""The Alhambra dice game's decisions for advice (`companion.games.advice`), in the standard game and in
Alcazaba: after a roll, which dice to set aside before rolling the rest (their roll is each playout's luck),
where to place the marker, and the bonus tiles (cancel, black die, displace); in the standard game also a
column's prize. Choices are worded as the game log words the moves. Alcazaba's rebuild action is not advised:
the advice says so where it is open."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from companion.games.alhambra.buildings import TYPES

from ..advice import Advising, Choice, Decision, Outcome, applying
from .alcazaba import REBUILD_ROLLS, AlcazabaGame
from .components import START_TILE
from .engine import BLACK, CANCEL, DICE, DISPLACE, MAX_ROLLS, SLOTS, Game, field_text
from .events import BlackDieSet, MarkerPlaced, PrizeTaken, RollCancelled
from .play import fold
from .scoring import score_standings
from .simulate import keep_for, next_event, play_out, roll
from .state import Ask, GameState

PLURAL = {"pavilion": "pavilions", "seraglio": "seraglios", "garden": "gardens", "tower": "towers"}
"""Arcades and chambers are one building type's name however many dice show it."""


def _game(state: GameState) -> Game:
    """A fresh fold of the game at `state`, to play on."""
    return fold(state.log)


def decision(state: GameState) -> Decision[Game] | str:
    """The decision in front of the active player, or why there is none to advise."""
    if state.is_over:
        return "the game is over"
    game = _game(state)
    exp = game.expectation()
    if exp.ask is Ask.ROLL:
        return f"roll first: {exp.prompt}"
    if exp.ask is Ask.PREPARE:
        return f"the round's tiles are laid first: {exp.prompt}"
    if exp.ask is Ask.CHOOSE:
        choices = _turn_choices(game)
    elif exp.auto is not None:
        return f"the rules give this prize: {exp.prompt}"
    elif isinstance(game, AlcazabaGame):
        return f"no advice on taking a building tile yet: {exp.prompt}"
    else:
        choices = _prize_choices(game)
    return Decision(
        game.names[game.active],
        game.active,
        choices,
        partial(_game, state),
        play_out,
        _outcome,
        unadvised=_unadvised(game),
    )


def _unadvised(game: Game) -> str:
    """Alcazaba's rebuild action, open after roll 1 or 2 to a player with a tile to move: not advised."""
    who = game.active
    if (
        isinstance(game, AlcazabaGame)
        and game.ask is Ask.CHOOSE
        and game.rolls in REBUILD_ROLLS
        and (game.alhambras[who] or game.reserves[who])
    ):
        return "a rebuild action instead of the marker (`rebuild …`)"
    return ""


def _symbols(n: int, building: str) -> str:
    return f"{n} {PLURAL.get(building, building) if n != 1 else building}"


def _turn_choices(game: Game) -> tuple[Choice[Game], ...]:
    """Set dice of one type aside and roll the rest (or roll all 8), place the marker on a type the dice
    show (displacing, with the tile, a marker of another player's there), cancel the roll, set the black
    die."""
    assert game.dice is not None
    name, dice, held = game.names[game.active], game.dice, game.held[game.active]
    choices: list[Choice[Game]] = []
    if game.rolls < MAX_ROLLS:
        for t, n in enumerate(dice):
            # All 8 of a type set aside leave no die to roll: only a roll used up (ranked above the marker
            # it makes worse).
            if 0 < n < DICE:
                words = f"set aside the {_symbols(n, TYPES[t])}, roll the other {DICE - n}"
                choices.append(Choice(words, _rolling(name, keep_for(dice, t)), rolls=True))
        choices.append(Choice(f"roll all {DICE} dice again", _rolling(name, None), rolls=True))
    for t, building in enumerate(TYPES):
        if not game.count_of(t):
            continue
        slot = game.target_slot(t)
        column = game.board[t]
        landing = next((s for s in range(slot, SLOTS) if column[s] < 0), None)
        where = "no field left: out for the round" if landing is None else field_text(landing)
        choices.append(
            Choice(f"place a marker on {building}, {where}", applying(MarkerPlaced(name, building)))
        )
        if held[DISPLACE] and column[slot] >= 0 and column[slot] != game.active:
            words = f"place a marker on {building}, {field_text(slot)}, displacing {game.names[column[slot]]}"
            choices.append(Choice(words, applying(MarkerPlaced(name, building, displace=True))))
    if held[CANCEL]:
        choices.append(Choice(f"cancel roll {game.rolls} with a cancel tile", applying(RollCancelled(name))))
    if held[BLACK] and game.black < 0:
        for building in TYPES:
            words = f"set the black die on the {PLURAL.get(building, building)}"
            choices.append(Choice(words, applying(BlackDieSet(name, building))))
    return tuple(choices)


def _rolling(name: str, kept: tuple[int, ...] | None) -> Callable[[Game, random.Random], None]:
    def take(game: Game, rng: random.Random) -> None:
        game.apply(roll(name, kept, rng))

    return take


def _prize_choices(game: Game) -> tuple[Choice[Game], ...]:
    """A column's prizes as the player may take them: 2 building points, or 1 and the bonus tile (a VP tile's
    value is each playout's luck; the start-player tile makes the taker start the next round). Exchange
    tiles are kept."""
    exp = game.expectation()
    assert exp.building is not None
    name, building, tile = game.names[game.active], exp.building, exp.tile
    choices: list[Choice[Game]] = []
    if "points" in exp.prizes:
        choices.append(
            Choice(
                f"2 building points in {building}",
                applying(PrizeTaken(name, building, "points", exchange=())),
            )
        )
    if "tile" in exp.prizes and tile is not None:
        start = name if tile == START_TILE else None
        named = {"vp": "VP", "black_die": "black-die", "start_player": "start-player"}.get(tile, tile)
        words = f"1 building point in {building} and the {named} tile" + (
            f": {name} starts the next round" if start else ""
        )

        def take(played: Game, rng: random.Random) -> None:
            value = rng.randint(1, 3) if tile == "vp" else None
            played.apply(PrizeTaken(name, building, "tile", value, (), start))

        choices.append(Choice(words, take))
    return tuple(choices)


def _outcome(game: Game) -> Outcome:
    names = game.names
    if isinstance(game, AlcazabaGame):
        result = game.result()
        assert result is not None
        return Outcome(
            tuple(p.total for p in result.players), frozenset(names.index(w) for w in result.winners)
        )
    dirk = tuple(i == game.dirk for i in range(len(names)))
    board = score_standings(names, dirk, game.standings)
    return Outcome(board.totals, frozenset(names.index(w) for w in board.winners))


def _step(game: Game, rng: random.Random) -> None:
    game.apply(next_event(game, rng))


ADVISING: Advising[GameState, Game] = Advising(decision, _game, _step, _outcome)
