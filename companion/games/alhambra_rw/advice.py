"""Roll & Write's decisions for advice (`companion.games.advice`): which crossing to cross (after changing
pips or not), or coins; which pair to keep; whether to cross a second building. Choices are worded as the
game screen words the moves (`y3×b5 tower`, `take coins (+2)`, `keep y3 b5`), a crossing or a pair with the
key that makes it there."""

from __future__ import annotations

import random

from ..advice import Advising, Choice, Decision, Outcome, applying
from .engine import TWO_BUILDINGS_COST, Game
from .events import ChangePips, CrossBuilding, Event, KeepPair, TakeCoins
from .scoring import score_game
from .sheet import BUILDING_TYPES
from .simulate import play_out, random_decision, random_roll
from .state import Ask, GameState


def decision(state: GameState) -> Decision[Game] | str:
    """The decision in front of the active real player, or why there is none to advise."""
    if state.is_over:
        return "the game is over"
    game = Game.from_state(state)
    exp = game.expectation()
    player = state.active_player
    if exp.ask is Ask.ACTION:
        choices = _action_choices(state, game)
    elif exp.ask is Ask.KEEP_PAIR:
        choices = _keep_choices(state, game)
    elif exp.ask is Ask.REROLL_USED_PAIR and exp.can_cross_second:
        choices = _second_building_choices(state)
    else:
        return f"roll first: {exp.prompt}"
    return Decision(
        player.name,
        state.active,
        choices,
        lambda: Game.from_state(state),
        play_out,
        _outcome,
        by_win=_race_ends(state),
    )


def _race_ends(state: GameState) -> bool:
    """The last round against someone to beat: the choices rank by the chance to win. Earlier the expected
    score is the steadier guide (the win is far and its estimate coarse); in the last round a crossing worth
    2 points more can lose the win that coins keep (66.8 and 70% against 64.5 and 87%). Solo against
    imaginary players that score nothing, the aim is the highest score ("Solo": the aim is the highest
    score)."""
    rivals = len(state.start.players) > 1 or state.versus_imaginary
    return rivals and state.round == state.rounds


def _taking(state: GameState, *events: Event, words: str = "") -> Choice[Game]:
    """The choice of playing `events` in turn, worded by them unless `words` are given."""
    return Choice(words or ", then ".join(_words(state, e) for e in events), applying(*events))


def _words(state: GameState, event: Event) -> str:
    if isinstance(event, CrossBuilding):
        building = BUILDING_TYPES[state.sheet.cell_type[(event.yellow - 1) * 6 + event.blue - 1]]
        return f"cross y{event.yellow}×b{event.blue} {building}"
    if isinstance(event, ChangePips):
        cost = abs(event.to_value - event.from_value)
        c = event.colour[0]
        return f"turn {c}{event.from_value} to {c}{event.to_value} ({cost} coin{'s' if cost > 1 else ''})"
    return "take coins"


def _action_choices(state: GameState, game: Game) -> tuple[Choice[Game], ...]:
    """Each free crossing; coins; and each crossing that only a change of pips reaches, the change first."""
    player = state.active_player
    actions = game.legal_actions()
    crossings = [a for a in actions if isinstance(a, CrossBuilding)]
    # Each named by the key that crosses it on the game screen: the advice's ranks (1, 2, …) are no keys,
    # and the rank of the best crossing, pressed, crossed another.
    keys = {(c.yellow, c.blue): n for n, c in enumerate(game.crossings(), start=1)}
    choices = [
        _taking(state, a, words=f"{_words(state, a)} (key {keys[a.yellow, a.blue]})") for a in crossings
    ]
    choices.append(
        _taking(state, TakeCoins(player.name), words=f"take coins (+{game.expectation().coins_to_take})")
    )
    reached = {(a.yellow, a.blue) for a in crossings}
    changes = [a for a in actions if isinstance(a, ChangePips)]
    # The cheapest change first: each crossing is offered once, by the fewest coins that reach it (the first
    # change found, 2 coins, hid the 1-coin one).
    for change in sorted(changes, key=lambda c: abs(c.to_value - c.from_value)):
        for yellow, blue in _crossings_after(player.yellow, player.blue, change):
            if (yellow, blue) not in reached and not player.is_crossed(yellow, blue):
                reached.add((yellow, blue))
                choices.append(_taking(state, change, CrossBuilding(player.name, yellow, blue)))
    return tuple(choices)


def _crossings_after(
    yellow: tuple[int, ...], blue: tuple[int, ...], change: ChangePips
) -> list[tuple[int, int]]:
    """The crossings that use the die `change` turns, as it shows after the change."""
    if change.colour == "yellow":
        return [(change.to_value, b) for b in sorted(set(blue))]
    return [(y, change.to_value) for y in sorted(set(yellow))]


def _keep_choices(state: GameState, game: Game) -> tuple[Choice[Game], ...]:
    """Each pair to keep, with the pair that goes to the neighbour."""
    player = state.active_player
    neighbour = state.players[(state.active + 1) % len(state.start.players)].name
    choices = []
    for key, keep in enumerate(game.legal_actions(), start=1):
        assert isinstance(keep, KeepPair)
        yellow, blue = [*player.yellow], [*player.blue]
        yellow.remove(keep.yellow)
        blue.remove(keep.blue)
        words = f"keep y{keep.yellow} b{keep.blue}, pass y{yellow[0]} b{blue[0]} to {neighbour} (key {key})"
        choices.append(_taking(state, keep, words=words))
    return tuple(choices)


def _second_building_choices(state: GameState) -> tuple[Choice[Game], ...]:
    """Two buildings for 3 coins, or the used pair re-rolled (its dice are the luck of each playout)."""
    player = state.active_player
    second = CrossBuilding(player.name, player.yellow[0], player.blue[0])
    words = f"two buildings: {_words(state, second)} ({TWO_BUILDINGS_COST} coins)"

    def reroll(game: Game, rng: random.Random) -> None:
        game.apply(random_roll(game, rng))

    return (_taking(state, second, words=words), Choice("re-roll the used pair", reroll, rolls=True))


def _outcome(game: Game) -> Outcome:
    board = score_game(game.state)
    return Outcome(
        tuple(p.total for p in board.players), frozenset(game.names.index(w) for w in board.winners)
    )


def _step(game: Game, rng: random.Random) -> None:
    game.apply(random_decision(game, rng))


ADVISING: Advising[GameState, Game] = Advising(decision, Game.from_state, _step, _outcome)
