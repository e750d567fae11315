"""The rules of the Carcassonne dice game as a fold over events.

`Game` is the fold's accumulator (mutable, small) so that replaying and simulating games is fast. Every
handler checks the whole event before it changes anything, so a refused event (`IllegalMove`) leaves the game
exactly as it was. The public functions `start`, `apply`, `replay`, `expectation` and `legal_actions` work on
the immutable `GameState`.
"""

from __future__ import annotations

from companion.games import folding
from companion.games.folding import IllegalMove as IllegalMove

from .city import Cities, Pos, areas_problem, black_of, fit_problem, off_city
from .events import Built, Event, GameStarted, Kept, Rolled, TurnEnded
from .scoring import DICE, turn_points
from .state import Ask, Expectation, GameState, TurnRecord

PLAYERS = (2, 5)
"""Components: a game for 2–5 players."""
MAX_ROLLS = 3
"""A turn: up to 3 rolls."""
KNIGHTS_TO_HOLD = 3
"""A knight: with 3 or more knights kept, the player may score nothing to double next turn's score. They
keep 1 knight die ([interpretation] exactly one, so a player holds at most one: the rulebook's "a player may
hold only one such knight"); it is rolled with the dice they receive at the start of their next turn."""
WIN_POINTS = 42
"""Game end: the first player to reach 42 points wins at once."""
MAX_NAME = 40
"""Characters in a player's name at most: it heads a column of the score pad and every prompt."""


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


class Game:
    """A game in progress: the fold's mutable accumulator. Feed events with `apply`; read `state`."""

    __slots__ = (
        "active",
        "ask",
        "black",
        "built",
        "catapults",
        "cities",
        "doubled",
        "events",
        "free",
        "held",
        "knights",
        "names",
        "roll_city",
        "roll_knights",
        "rolls",
        "scores",
        "turn",
        "turns",
        "why_over",
        "winner",
    )

    def __init__(self, setup: GameStarted) -> None:
        _check_setup(setup)
        n = len(setup.players)
        self.names = setup.players
        self.scores = [0] * n
        self.held = [False] * n
        self.turns: list[TurnRecord] = []
        self.winner: int | None = None
        self.why_over = ""
        self.events = 1
        self.active = 0
        self.turn = 1
        self._begin_turn()

    # ----------------------------------------------------------------- conversion to and from GameState
    @classmethod
    def from_state(cls, state: GameState) -> Game:
        game = cls(GameStarted(state.names))
        game.scores, game.held = list(state.scores), list(state.held)
        game.active, game.turn, game.ask, game.rolls = state.active, state.turn, state.ask, state.rolls
        game.free, game.roll_city, game.roll_knights = state.free, state.roll_city, state.roll_knights
        game.knights, game.catapults, game.doubled = state.knights, state.catapults, state.doubled
        game.built = list(state.built)
        game.cities = Cities({b.at: b.areas for b in state.built})
        game.black = {b.at: black_of(b.areas) for b in state.built}
        game.turns = list(state.turns)
        game.winner, game.why_over, game.events = state.winner, state.why_over, state.events
        return game

    @property
    def state(self) -> GameState:
        """An immutable snapshot of the game now."""
        return GameState(
            names=self.names,
            scores=tuple(self.scores),
            held=tuple(self.held),
            active=self.active,
            turn=self.turn,
            ask=self.ask,
            rolls=self.rolls,
            free=self.free,
            roll_city=self.roll_city,
            roll_knights=self.roll_knights,
            knights=self.knights,
            catapults=self.catapults,
            doubled=self.doubled,
            built=tuple(self.built),
            turns=tuple(self.turns),
            winner=self.winner,
            why_over=self.why_over,
            events=self.events,
        )

    @property
    def is_over(self) -> bool:
        return self.ask is Ask.GAME_OVER

    @property
    def can_roll(self) -> bool:
        """Up to 3 rolls, of the dice neither kept nor passed on."""
        return self.ask is Ask.ROLL or (self.ask is Ask.CHOOSE and self.rolls < MAX_ROLLS and self.free > 0)

    # ----------------------------------------------------------------------------------------- the fold
    def apply(self, event: Event) -> None:
        """Apply one event, or raise `IllegalMove` and change nothing."""
        if isinstance(event, GameStarted):
            raise IllegalMove("the game has already started")
        if self.ask is Ask.GAME_OVER:
            raise IllegalMove(f"the game is over: {self.why_over}")
        who = self.active
        folding.check_turn(self.names, who, event.player)
        if isinstance(event, Rolled):
            self._rolled(event)
        elif self.ask is Ask.ROLL:
            raise IllegalMove(f"{self.names[who]} must roll first")
        elif isinstance(event, Kept):
            self._kept(event)
        else:
            self._turn_ended(who, event.hold_knight)
        self.events += 1

    def _begin_turn(self) -> None:
        """A turn begins: a knight held from the last turn doubles this one and is rolled with the other dice.
        [interpretation] The player rolls the 9 dice less the knights other players hold."""
        who = self.active
        self.doubled = self.held[who]
        self.held[who] = False
        self.free = DICE - sum(self.held)
        self.ask = Ask.ROLL
        self.rolls = self.roll_city = self.roll_knights = self.knights = self.catapults = 0
        self.cities = Cities()
        self.black: dict[Pos, int] = {}
        self.built: list[Built] = []

    def _rolled(self, event: Rolled) -> None:
        if not self.can_roll:
            why = (
                f"{MAX_ROLLS} rolls are made" if self.rolls >= MAX_ROLLS else "every die is kept or passed on"
            )
            raise IllegalMove(f"{self.names[self.active]} cannot roll again: {why}; build, keep or stop")
        if min(event.city, event.knights, event.catapults) < 0:
            raise IllegalMove(
                f"a roll's counts are 0 or more, not {event.city, event.knights, event.catapults}"
            )
        counted = event.city + event.knights + event.catapults
        if counted != self.free:
            raise IllegalMove(
                f"{self.names[self.active]} rolls {_dice(self.free)}, but the roll counts {counted} "
                f"({event.city} city, {event.knights} knight, {event.catapults} catapult)"
            )
        self.rolls += 1
        # Catapult: passed at once to the left neighbour, never re-rolled, never scored.
        self.catapults += event.catapults
        self.free -= event.catapults
        self.roll_city, self.roll_knights = event.city, event.knights
        self.ask = Ask.CHOOSE
        # [interpretation] "9 catapults in a turn": counted over the turn's rolls, as catapults stay out.
        if self.catapults == DICE:
            self._game_over(f"{self.names[self.active]} rolled {DICE} catapults in one turn")

    def _kept(self, event: Kept) -> None:
        name = self.names[self.active]
        if event.knights < 0:
            raise IllegalMove(f"{name} cannot keep {event.knights} knights: 0 or more")
        if not event.knights and not event.built:
            raise IllegalMove(f"{name} keeps nothing: name the knights kept or the city dice built")
        if event.knights > self.roll_knights:
            raise IllegalMove(
                f"the last roll left {self.roll_knights} knight{'s' if self.roll_knights != 1 else ''} "
                f"to keep, not {event.knights}"
            )
        if len(event.built) > self.roll_city:
            raise IllegalMove(
                f"the last roll left {_dice(self.roll_city)} with a city to build, not {len(event.built)}"
            )
        cells = [die.at for die in event.built]
        twice = next((at for n, at in enumerate(cells) if at in cells[:n]), None)
        if twice is not None:
            raise IllegalMove(f"row {twice[0]}, col {twice[1]} is given for two city dice: one a cell")
        # Building: a kept city die is built at once and never moves. Each die is checked beside the ones
        # before it; a refused one takes those back out, so nothing changes.
        black = self.black
        for n, die in enumerate(event.built):
            edges = black_of(die.areas)
            problem = areas_problem(die.areas) or fit_problem(black, die.at, edges)
            if problem:
                for earlier in event.built[:n]:
                    del black[earlier.at]
                raise IllegalMove(
                    f"the city die for row {die.at[0]}, col {die.at[1]} cannot be built: {problem}"
                )
            black[die.at] = edges
        # [interpretation] "Dice lie side by side": each die joins the city built before it (`off_city`).
        loose = off_city([die.at for die in self.built], [die.at for die in event.built])
        if loose is not None:
            for die in event.built:
                del black[die.at]
            raise IllegalMove(
                f"the city die for row {loose[0]}, col {loose[1]} cannot be built: it touches no die of the "
                "city (dice lie side by side)"
            )
        for die in event.built:
            self.cities.add(die.at, die.areas)
            self.built.append(die)
        # Kept knights are never re-rolled.
        self.knights += event.knights
        self.roll_knights -= event.knights
        self.roll_city -= len(event.built)
        self.free -= event.knights + len(event.built)

    def _turn_ended(self, who: int, hold_knight: bool) -> None:
        name = self.names[who]
        if hold_knight:
            if self.knights < KNIGHTS_TO_HOLD:
                raise IllegalMove(
                    f"{name} kept {self.knights} knight{'s' if self.knights != 1 else ''}: holding one for "
                    f"the next turn needs {KNIGHTS_TO_HOLD} or more"
                )
            self.held[who] = True
            city, points = 0, 0
            why = f"kept {self.knights} knights and holds one: no points now, the next turn counts double"
        else:
            city = self.cities.largest_completed_size()
            points, why = turn_points(city, self.doubled, bool(self.built))
        self.scores[who] += points
        self.turns.append(
            TurnRecord(
                name, self.turn, self.rolls, city, self.doubled, hold_knight, points, why, tuple(self.built)
            )
        )
        if self.scores[who] >= WIN_POINTS:
            self._game_over(f"{name} reached {self.scores[who]} points ({WIN_POINTS} wins)")
            return
        # Then all dice pass to the left neighbour.
        self.active = (who + 1) % len(self.names)
        self.turn += 1
        self._begin_turn()

    def _game_over(self, why: str) -> None:
        self.winner = self.active
        self.why_over = why
        self.ask = Ask.GAME_OVER

    # ----------------------------------------------------------------------------------- queries
    def expectation(self) -> Expectation:
        """What the game expects next (see `Ask`)."""
        if self.ask is Ask.GAME_OVER:
            return Expectation(self.ask, None, 0, 0, f"the game is over: {self.why_over}")
        name, free = self.names[self.active], self.free
        double = " (this turn counts double)" if self.doubled else ""
        if self.ask is Ask.ROLL:
            prompt = f"{name}: roll {_dice(free)}{double}"
            return Expectation(self.ask, name, free, 1, prompt, can_roll=True, doubled=self.doubled)
        can_roll = self.can_roll
        can_hold = self.knights >= KNIGHTS_TO_HOLD
        then = f"roll the other {_dice(free)} again or stop" if can_roll else "stop"
        hold = ", or hold a knight (no points now, the next turn counts double)" if can_hold else ""
        prompt = f"{name}: build city dice and keep knights from roll {self.rolls}, then {then}{hold}{double}"
        return Expectation(
            self.ask,
            name,
            free,
            self.rolls + 1 if can_roll else self.rolls,
            prompt,
            can_roll=can_roll,
            keep_city=self.roll_city,
            keep_knights=self.roll_knights,
            can_hold_knight=can_hold,
            doubled=self.doubled,
        )

    def legal_actions(self) -> tuple[Event, ...]:
        """Every legal decision now. Rolls and built dice are not listed: they come from the dice."""
        if self.ask is not Ask.CHOOSE:
            return ()
        name = self.names[self.active]
        actions: list[Event] = [Kept(name, k) for k in range(1, self.roll_knights + 1)]
        actions.append(TurnEnded(name))
        if self.knights >= KNIGHTS_TO_HOLD:
            actions.append(TurnEnded(name, hold_knight=True))
        return tuple(actions)


def _check_setup(setup: GameStarted) -> None:
    players = setup.players
    low, high = PLAYERS
    if not low <= len(players) <= high:
        raise IllegalMove(f"a game has {low} to {high} players, not {len(players)}")
    folding.check_names(players, MAX_NAME)


# --------------------------------------------------------------------- the public, immutable interface
ENGINE = folding.Engine[GameStarted, Game, GameState, Event, Expectation](GameStarted, Game, Game.from_state)
start = ENGINE.start
apply = ENGINE.apply
replay = ENGINE.replay
fold = ENGINE.fold
expectation = ENGINE.expectation
legal_actions = ENGINE.legal_actions
undo = ENGINE.undo
