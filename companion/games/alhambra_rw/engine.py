"""The rules of Alhambra Roll & Write as a fold over events.

`Game` is the fold's accumulator: mutable and compact (bit masks and small lists) so that replaying and
simulating games is fast. Every handler checks the whole event before it changes anything, so a refused
event (`IllegalMove`) leaves the game exactly as it was. The public functions `start`, `apply`, `replay`,
`expectation`, `legal_actions` and `crossings` work on the immutable `GameState`.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.games import folding
from companion.games.folding import IllegalMove as IllegalMove
from jsonfile import short

from .events import (
    STANDARD,
    VARIANTS,
    VERSUS_IMAGINARY,
    ChangePips,
    Colour,
    CrossBuilding,
    Event,
    GameStarted,
    KeepPair,
    Roll,
    TakeCoins,
)
from .places import PLACES, share_places
from .sheet import BUILDING_TYPES, STARTING_COINS
from .state import Ask, Award, Crossing, Expectation, GameState, PlayerState, rounds_for

SETUP_BUILDINGS = 3
"""Set-up: every player (real or imaginary) starts with 3 buildings."""
TWO_BUILDINGS_COST = 3
"""Special action "two buildings" costs 3 coins."""
IMAGINARY_PLAYERS = {1: (2, 3, 4), 2: (1,), 3: (0,), 4: (0,), 5: (0,)}
"""Imaginary players allowed by the number of real players: solo 2 (variants 3 or 4), 2 players 1."""
MAX_NAME = 40
"""Characters in a player's name at most: it heads a column of the score table and every prompt."""

_ROLL_ASKS = frozenset(
    {
        Ask.SETUP_CROSS,
        Ask.SETUP_IMAGINARY,
        Ask.SETUP_DICE,
        Ask.SETUP_EXTRA_PAIR,
        Ask.REROLL_USED_PAIR,
        Ask.ROLL_ALL,
        Ask.IMAGINARY_TURN,
    }
)


def _cell(yellow: int, blue: int) -> int:
    return (yellow - 1) * 6 + blue - 1


def _check_die(value: int) -> None:
    if not 1 <= value <= 6:
        raise IllegalMove(f"die value {value} is outside 1–6")


def _dice_text(values: Iterable[int]) -> str:
    return ", ".join(str(v) for v in values) or "none"


class Game:
    """A game in progress: the fold's mutable accumulator. Feed events with `apply`; read `state`."""

    __slots__ = (
        "active",
        "ask",
        "awards",
        "blue",
        "boxes",
        "cell_type",
        "circled",
        "completed",
        "counts",
        "crossed",
        "events",
        "n_all",
        "n_real",
        "names",
        "notice",
        "pending",
        "places_taken",
        "round",
        "rounds",
        "setup",
        "spent",
        "step",
        "supply",
        "vp",
        "yellow",
    )

    def __init__(self, setup: GameStarted) -> None:
        _check_setup(setup)
        sheet = setup.sheet
        self.setup = setup
        self.names = setup.players + setup.imaginary
        self.n_real = len(setup.players)
        self.n_all = len(self.names)
        self.rounds = rounds_for(self.n_all)
        self.cell_type = sheet.cell_type
        self.boxes = sheet.boxes
        self.vp = sheet.vp
        self.supply = sheet.coins
        n = self.n_all
        self.crossed = [0] * n
        self.counts = [[0] * len(BUILDING_TYPES) for _ in range(n)]
        self.circled = [STARTING_COINS if i < self.n_real else 0 for i in range(n)]
        self.spent = [0] * n
        self.yellow: list[list[int]] = [[] for _ in range(n)]
        self.blue: list[list[int]] = [[] for _ in range(n)]
        self.completed = [0] * n
        self.pending: list[tuple[int, int]] = []
        self.places_taken = [0] * len(BUILDING_TYPES)
        self.awards: list[Award] = []
        self.ask = Ask.SETUP_CROSS
        self.active = 0
        self.round = 0
        self.step = 0
        self.notice = ""
        self.events = 1

    # ----------------------------------------------------------------- conversion to and from GameState
    @classmethod
    def from_state(cls, state: GameState) -> Game:
        game = cls(state.start)
        for i, p in enumerate(state.players):
            game.crossed[i] = p.crossed
            game.counts[i] = list(p.counts)
            game.circled[i] = p.circled
            game.spent[i] = p.spent
            game.yellow[i] = list(p.yellow)
            game.blue[i] = list(p.blue)
            game.completed[i] = p.completed
        game.pending = list(state.pending)
        game.places_taken = list(state.places_taken)
        game.awards = list(state.awards)
        game.ask, game.active, game.round, game.step = state.ask, state.active, state.round, state.step
        game.notice, game.events = state.notice, state.events
        return game

    @property
    def state(self) -> GameState:
        """An immutable snapshot of the game now."""
        real = self.n_real
        players = tuple(
            PlayerState(
                name=self.names[i],
                imaginary=i >= real,
                crossed=self.crossed[i],
                counts=tuple(self.counts[i]),
                circled=self.circled[i],
                spent=self.spent[i],
                yellow=tuple(self.yellow[i]),
                blue=tuple(self.blue[i]),
                completed=self.completed[i],
            )
            for i in range(self.n_all)
        )
        return GameState(
            start=self.setup,
            players=players,
            ask=self.ask,
            active=self.active,
            round=self.round,
            step=self.step,
            pending=tuple(self.pending),
            places_taken=tuple(self.places_taken),
            awards=tuple(self.awards),
            notice=self.notice,
            events=self.events,
        )

    @property
    def is_over(self) -> bool:
        return self.ask is Ask.GAME_OVER

    @property
    def solo(self) -> bool:
        return self.n_real == 1

    # ----------------------------------------------------------------------------------------- the fold
    def apply(self, event: Event) -> None:
        """Apply one event, or raise `IllegalMove` and change nothing."""
        if isinstance(event, GameStarted):
            raise IllegalMove("the game has already started")
        ask = self.ask
        if ask is Ask.GAME_OVER:
            raise IllegalMove("the game is over")
        who = self.active
        folding.check_turn(self.names, who, event.player)
        if isinstance(event, Roll):
            if ask not in _ROLL_ASKS:
                raise self._unexpected("a dice roll")
            self._roll(who, event)
        elif isinstance(event, CrossBuilding):
            if ask is Ask.ACTION:
                self._cross_building(who, event.yellow, event.blue)
            elif ask is Ask.REROLL_USED_PAIR:
                self._two_buildings(who, event.yellow, event.blue)
            else:
                raise self._unexpected("crossing a building")
        elif isinstance(event, ChangePips):
            if ask is not Ask.ACTION:
                raise self._unexpected("changing pips (only before the action)")
            self._change_pips(who, event)
        elif isinstance(event, TakeCoins):
            if ask is not Ask.ACTION:
                raise self._unexpected("taking coins")
            self._take_coins(who)
        elif ask is Ask.KEEP_PAIR:
            self._keep_pair(who, event.yellow, event.blue)
        else:
            raise self._unexpected("keeping a pair")
        self.events += 1

    def _unexpected(self, what: str) -> IllegalMove:
        return IllegalMove(f"{self.expectation().prompt}; not {what}")

    # ----------------------------------------------------------------------------------- dice rolls
    def _roll(self, who: int, event: Roll) -> None:
        ask = self.ask
        want_yellow = want_blue = 2 if ask is Ask.ROLL_ALL else 1
        yellow, blue = event.yellow, event.blue
        if len(yellow) != want_yellow or len(blue) != want_blue:
            raise IllegalMove(
                f"{self.names[who]} must roll {want_yellow} yellow and {want_blue} blue "
                f"{'dice' if want_blue > 1 else 'die'}, got {len(yellow)} yellow and {len(blue)} blue"
            )
        for v in yellow:
            _check_die(v)
        for v in blue:
            _check_die(v)
        if ask is Ask.SETUP_CROSS:
            self._setup_cross(who, yellow[0], blue[0])
        elif ask is Ask.SETUP_IMAGINARY or ask is Ask.IMAGINARY_TURN:
            self._imaginary_building(who, yellow[0], blue[0])
        elif ask is Ask.SETUP_DICE:
            self.yellow[who] = [yellow[0]]
            self.blue[who] = [blue[0]]
            self.notice = ""
            self._next_setup_dice()
        elif ask is Ask.SETUP_EXTRA_PAIR:
            # Set-up step 5: the start player's extra pair (a die may lie on a field that already has one).
            self.yellow[who].append(yellow[0])
            self.blue[who].append(blue[0])
            self.notice = ""
            self._end_round()
        elif ask is Ask.REROLL_USED_PAIR:
            self._reroll_used_pair(who, yellow[0], blue[0])
        else:  # Ask.ROLL_ALL
            self.yellow[who] = list(yellow)
            self.blue[who] = list(blue)
            if self.solo:
                # [interpretation] solo: after taking coins (or two buildings) all 4 dice are re-rolled
                # and stay.
                self.notice = ""
                self._end_turn(who)
            else:
                self.ask = Ask.KEEP_PAIR
                self.notice = ""

    def _setup_cross(self, who: int, yellow: int, blue: int) -> None:
        cell = _cell(yellow, blue)
        if self.crossed[who] >> cell & 1:
            # Set-up: a roll hitting a cell the player already crossed is re-rolled until it hits a new one.
            self.notice = f"yellow {yellow} × blue {blue} is already crossed: roll again"
            return
        self._mark(who, cell)
        self.notice = ""
        self.step += 1
        if self.step < SETUP_BUILDINGS * self.n_real:
            self.active = self.step % self.n_real
        elif self.n_all > self.n_real:
            self.ask, self.step, self.active = Ask.SETUP_IMAGINARY, 0, self.n_real
        else:
            self.ask, self.step, self.active = Ask.SETUP_DICE, 0, 0

    def _imaginary_building(self, who: int, yellow: int, blue: int) -> None:
        building = self.cell_type[_cell(yellow, blue)]
        counts = self.counts[who]
        if counts[building] >= self.boxes[building]:
            # Imaginary players: every box of that type filled: roll again until a building can be marked.
            self.notice = f"{self.names[who]} has filled every {BUILDING_TYPES[building]} box: roll again"
            return
        # Imaginary players have no grid: the same roll twice is simply another building of that type.
        counts[building] += 1
        if counts[building] == self.boxes[building]:
            self._complete(who, building)
        self.notice = ""
        if self.ask is Ask.IMAGINARY_TURN:
            self._end_turn(who)
            return
        self.step += 1
        if self.step < SETUP_BUILDINGS * (self.n_all - self.n_real):
            self.active = self.n_real + self.step // SETUP_BUILDINGS
        else:
            self.ask, self.step, self.active = Ask.SETUP_DICE, 0, 0

    def _next_setup_dice(self) -> None:
        self.step += 1
        if self.step < self.n_real:
            self.active = self.step
        else:
            self.ask, self.step, self.active = Ask.SETUP_EXTRA_PAIR, 0, 0

    def _reroll_used_pair(self, who: int, yellow: int, blue: int) -> None:
        if self.solo:
            # Solo: the unused pair is not passed; it stays on the sheet next to the re-rolled pair.
            self.yellow[who].append(yellow)
            self.blue[who].append(blue)
        else:
            self._pass_pair(who, self.yellow[who][0], self.blue[who][0])
            self.yellow[who] = [yellow]
            self.blue[who] = [blue]
        self.notice = ""
        self._end_turn(who)

    def _pass_pair(self, who: int, yellow: int, blue: int) -> None:
        """Pass a pair, values unchanged, to the left neighbour (2 players: back and forth between them)."""
        neighbour = (who + 1) % self.n_real
        self.yellow[neighbour].append(yellow)
        self.blue[neighbour].append(blue)

    # ------------------------------------------------------------------------------------ decisions
    def _cross_building(self, who: int, yellow: int, blue: int) -> None:
        """Action A "cross a building" with one crossing of the active player's dice."""
        _check_die(yellow)
        _check_die(blue)
        yellows, blues = self.yellow[who], self.blue[who]
        if yellow not in yellows or blue not in blues:
            raise IllegalMove(
                f"yellow {yellow} × blue {blue} is not a crossing of {self.names[who]}'s dice "
                f"(yellow {_dice_text(yellows)}; blue {_dice_text(blues)})"
            )
        cell = _cell(yellow, blue)
        if self.crossed[who] >> cell & 1:
            raise IllegalMove(f"yellow {yellow} × blue {blue} is already crossed")
        self._mark(who, cell)
        yellows.remove(yellow)
        blues.remove(blue)
        self.ask = Ask.REROLL_USED_PAIR
        self.notice = f"crossed {BUILDING_TYPES[self.cell_type[cell]]} at yellow {yellow} × blue {blue}"

    def _two_buildings(self, who: int, yellow: int, blue: int) -> None:
        """Special action "two buildings": for 3 coins, cross a second building with the other two dice."""
        _check_die(yellow)
        _check_die(blue)
        other_yellow, other_blue = self.yellow[who][0], self.blue[who][0]
        if (yellow, blue) != (other_yellow, other_blue):
            raise IllegalMove(
                f"the second building must use the other two dice: yellow {other_yellow} × blue {other_blue}"
            )
        coins = self.circled[who] - self.spent[who]
        if coins < TWO_BUILDINGS_COST:
            raise IllegalMove(
                f"{self.names[who]} has {coins} coin{'s' if coins != 1 else ''}, "
                f"needs {TWO_BUILDINGS_COST} for two buildings"
            )
        cell = _cell(yellow, blue)
        if self.crossed[who] >> cell & 1:
            raise IllegalMove(f"yellow {yellow} × blue {blue} is already crossed")
        self.spent[who] += TWO_BUILDINGS_COST
        self._mark(who, cell)
        self.yellow[who] = []
        self.blue[who] = []
        self.ask = Ask.ROLL_ALL
        self.notice = f"two buildings: crossed {BUILDING_TYPES[self.cell_type[cell]]} as well"

    def _change_pips(self, who: int, event: ChangePips) -> None:
        """Special action "change pips": 1 coin per pip, up or down; 1 cannot become 6 or back."""
        old, new = event.from_value, event.to_value
        _check_die(old)
        if not 1 <= new <= 6:
            raise IllegalMove(f"die value {new} is outside 1–6 (a die cannot turn from 1 to 6 or back)")
        dice = self.yellow[who] if event.colour == "yellow" else self.blue[who]
        if old not in dice:
            raise IllegalMove(f"{self.names[who]} has no {event.colour} die showing {old}")
        if new == old:
            raise IllegalMove(f"turning {event.colour} {old} to {new} changes nothing")
        cost = abs(new - old)
        coins = self.circled[who] - self.spent[who]
        if coins < cost:
            raise IllegalMove(
                f"{self.names[who]} has {coins} coin{'s' if coins != 1 else ''}, needs {cost} "
                f"to turn {event.colour} {old} to {new}"
            )
        dice[dice.index(old)] = new
        self.spent[who] += cost
        self.notice = f"turned {event.colour} {old} to {new} for {cost} coin{'s' if cost != 1 else ''}"

    def _coins_to_take(self, who: int) -> int:
        """Take coins: a coin per yellow×blue combination whose cell is already crossed, up to the supply."""
        crossed = self.crossed[who]
        hits = 0
        for y in self.yellow[who]:
            for b in self.blue[who]:
                hits += crossed >> ((y - 1) * 6 + b - 1) & 1
        return min(hits, self.supply - self.circled[who])

    def _take_coins(self, who: int) -> None:
        """Action B "take coins"; then all 4 dice are rolled."""
        taken = self._coins_to_take(who)
        self.circled[who] += taken
        self.ask = Ask.ROLL_ALL
        self.notice = f"took {taken} coin{'s' if taken != 1 else ''}"

    def _keep_pair(self, who: int, yellow: int, blue: int) -> None:
        _check_die(yellow)
        _check_die(blue)
        yellows, blues = self.yellow[who], self.blue[who]
        if yellow not in yellows or blue not in blues:
            raise IllegalMove(
                f"yellow {yellow} + blue {blue} is not a pair of the rolled dice "
                f"(yellow {_dice_text(yellows)}; blue {_dice_text(blues)})"
            )
        yellows.remove(yellow)
        blues.remove(blue)
        self._pass_pair(who, yellows[0], blues[0])
        self.yellow[who] = [yellow]
        self.blue[who] = [blue]
        self.notice = ""
        self._end_turn(who)

    # ------------------------------------------------------------------------ buildings and rounds
    def _mark(self, who: int, cell: int) -> None:
        """Cross a cell on the grid and mark the type in the next free box of the score sheet."""
        self.crossed[who] |= 1 << cell
        building = self.cell_type[cell]
        counts = self.counts[who]
        counts[building] += 1
        if counts[building] == self.boxes[building]:
            self._complete(who, building)

    def _complete(self, who: int, building: int) -> None:
        """The player crossed the last box of a type: the award follows at the end of the round."""
        self.completed[who] |= 1 << building
        self.pending.append((building, who))

    def _end_turn(self, who: int) -> None:
        # [interpretation] in games with imaginary players they act after the real players.
        if who + 1 < self.n_all:
            self.active = who + 1
            self.ask = Ask.ACTION if who + 1 < self.n_real else Ask.IMAGINARY_TURN
        else:
            self._end_round()

    def _end_round(self) -> None:
        """Completion awards at the end of the round, then the next round (or the game end)."""
        if self.pending:
            self._award_completions()
        if self.round == self.rounds:
            self.ask = Ask.GAME_OVER
            self.active = 0
            return
        self.round += 1
        self.active = 0
        self.ask = Ask.ACTION

    def _award_completions(self) -> None:
        """Players who complete the same type in the same round share the VP of the places they take
        together, divided equally and rounded down; later completers only get the places still open."""
        # Completions during set-up are awarded when set-up ends, as "round 0".
        by_type: dict[int, list[int]] = {}
        for building, who in self.pending:
            by_type.setdefault(building, []).append(who)
        for building in sorted(by_type):
            who_list = sorted(by_type[building])
            first = self.places_taken[building]
            places, each = share_places(self.vp[building], first, len(who_list))
            self.places_taken[building] = min(PLACES, first + len(who_list))
            self.awards.append(
                Award(
                    building=BUILDING_TYPES[building],
                    round=self.round,
                    players=tuple(self.names[w] for w in who_list),
                    places=places,
                    vp_each=each,
                )
            )
        self.pending = []

    # ----------------------------------------------------------------------------------- queries
    def expectation(self) -> Expectation:
        """What the game expects next (see `Ask`)."""
        ask, who, rnd, rounds = self.ask, self.active, self.round, self.rounds
        name = self.names[who]
        start_player = self.names[0]
        again = bool(self.notice) and self.notice.endswith("roll again")
        if ask is Ask.GAME_OVER:
            return Expectation(ask, None, None, 0, 0, rnd, rounds, "the game is over: score it")
        if ask is Ask.SETUP_CROSS:
            nth = self.step // self.n_real + 1
            prompt = f"{name}: roll 1 yellow + 1 blue for set-up building {nth} of {SETUP_BUILDINGS}"
            return Expectation(ask, name, name, 1, 1, rnd, rounds, prompt, roll_again=again)
        if ask is Ask.SETUP_IMAGINARY:
            nth = self.step % SETUP_BUILDINGS + 1
            prompt = (
                f"{start_player}: roll 1 yellow + 1 blue for imaginary {name}'s "
                f"set-up building {nth} of {SETUP_BUILDINGS}"
            )
            return Expectation(ask, name, start_player, 1, 1, rnd, rounds, prompt, roll_again=again)
        if ask is Ask.SETUP_DICE:
            prompt = f"{name}: roll 1 yellow + 1 blue onto your dice fields"
            return Expectation(ask, name, name, 1, 1, rnd, rounds, prompt)
        if ask is Ask.SETUP_EXTRA_PAIR:
            prompt = f"{name}: roll the start player's extra yellow + blue pair onto your dice fields"
            return Expectation(ask, name, name, 1, 1, rnd, rounds, prompt)
        if ask is Ask.IMAGINARY_TURN:
            prompt = f"{start_player}: roll imaginary {name}'s yellow + blue pair"
            return Expectation(ask, name, start_player, 1, 1, rnd, rounds, prompt, roll_again=again)
        coins = self.circled[who] - self.spent[who]
        if ask is Ask.ACTION:
            prompt = f"{name}: change pips (1 coin per pip), then cross a building or take coins"
            return Expectation(
                ask,
                name,
                name,
                0,
                0,
                rnd,
                rounds,
                prompt,
                can_change_pips=coins > 0,
                coins_to_take=self._coins_to_take(who),
            )
        if ask is Ask.REROLL_USED_PAIR:
            second = coins >= TWO_BUILDINGS_COST and not (
                self.crossed[who] >> _cell(self.yellow[who][0], self.blue[who][0]) & 1
            )
            prompt = f"{name}: re-roll the used pair (1 yellow + 1 blue)" + (
                f", or cross a second building for {TWO_BUILDINGS_COST} coins" if second else ""
            )
            return Expectation(ask, name, name, 1, 1, rnd, rounds, prompt, can_cross_second=second)
        if ask is Ask.ROLL_ALL:
            prompt = f"{name}: roll all 4 dice (2 yellow + 2 blue)"
            return Expectation(ask, name, name, 2, 2, rnd, rounds, prompt)
        neighbour = self.names[(who + 1) % self.n_real]
        prompt = f"{name}: keep one yellow + blue pair; the other pair goes to {neighbour}"
        return Expectation(ask, name, name, 0, 0, rnd, rounds, prompt)

    def crossings(self) -> tuple[Crossing, ...]:
        """The active player's crossings (each distinct yellow×blue cell once, with how often it is hit)."""
        who = self.active
        if who >= self.n_real:
            return ()
        hits: dict[tuple[int, int], int] = {}
        for y in self.yellow[who]:
            for b in self.blue[who]:
                hits[(y, b)] = hits.get((y, b), 0) + 1
        crossed = self.crossed[who]
        return tuple(
            Crossing(y, b, BUILDING_TYPES[self.cell_type[_cell(y, b)]], bool(crossed >> _cell(y, b) & 1), n)
            for (y, b), n in sorted(hits.items())
        )

    def legal_actions(self) -> tuple[Event, ...]:
        """Every legal decision event now. Rolls are not listed: their values come from the dice."""
        ask, who = self.ask, self.active
        name = self.names[who]
        if ask is Ask.ACTION:
            actions: list[Event] = [
                CrossBuilding(name, c.yellow, c.blue) for c in self.crossings() if not c.crossed
            ]
            actions.append(TakeCoins(name))
            coins = self.circled[who] - self.spent[who]
            dice_by_colour: tuple[tuple[Colour, list[int]], ...] = (
                ("yellow", self.yellow[who]),
                ("blue", self.blue[who]),
            )
            for colour, dice in dice_by_colour:
                for old in sorted(set(dice)):
                    for new in range(max(1, old - coins), min(6, old + coins) + 1):
                        if new != old:
                            actions.append(ChangePips(name, colour, old, new))
            return tuple(actions)
        if ask is Ask.REROLL_USED_PAIR and self.expectation().can_cross_second:
            return (CrossBuilding(name, self.yellow[who][0], self.blue[who][0]),)
        if ask is Ask.KEEP_PAIR:
            return tuple(
                KeepPair(name, y, b)
                for y in sorted(set(self.yellow[who]))
                for b in sorted(set(self.blue[who]))
            )
        return ()


def _check_setup(setup: GameStarted) -> None:
    players, imaginary = setup.players, setup.imaginary
    if not 1 <= len(players) <= 5:
        raise IllegalMove(f"a game has 1 to 5 real players, not {len(players)}")
    allowed = IMAGINARY_PLAYERS[len(players)]
    if len(imaginary) not in allowed:
        raise IllegalMove(
            f"{len(players)} real player{'s' if len(players) > 1 else ''} play with "
            f"{' or '.join(map(str, allowed))} imaginary players, not {len(imaginary)}"
        )
    folding.check_names(players + imaginary, MAX_NAME)
    if setup.variant not in VARIANTS:
        raise IllegalMove(f"unknown variant {short(setup.variant)} (use {' or '.join(VARIANTS)})")
    if setup.variant == VERSUS_IMAGINARY and len(players) != 1:
        raise IllegalMove(f"the {VERSUS_IMAGINARY} variant is a solo variant (1 real player)")


# --------------------------------------------------------------------- the public, immutable interface
ENGINE = folding.Engine[GameStarted, Game, GameState, Event, Expectation](GameStarted, Game, Game.from_state)
start = ENGINE.start
apply = ENGINE.apply
replay = ENGINE.replay
fold = ENGINE.fold
expectation = ENGINE.expectation
legal_actions = ENGINE.legal_actions
undo = ENGINE.undo


def crossings(state: GameState) -> tuple[Crossing, ...]:
    return Game.from_state(state).crossings()


__all__ = [
    "STANDARD",
    "VERSUS_IMAGINARY",
    "Game",
    "IllegalMove",
    "apply",
    "crossings",
    "expectation",
    "fold",
    "legal_actions",
    "replay",
    "start",
    "undo",
]
