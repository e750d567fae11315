"""The rules of Alhambra – the dice game as a fold over events (rules: `rules/alhambra-dice-game.md`).

`Game` is the fold's accumulator (mutable, small) so that replaying and simulating games is fast. Every
handler checks the whole event before it changes anything, so a refused event (`IllegalMove`) leaves the game
exactly as it was. The public functions `start`, `apply`, `replay`, `expectation` and `legal_actions` work on
the immutable `GameState`.
"""

from __future__ import annotations

from companion.games import folding
from companion.games.alhambra.buildings import TYPES
from companion.games.folding import IllegalMove as IllegalMove
from jsonfile import short

from .components import BONUS_TILES, START_TILE, TILE_KINDS
from .events import (
    STANDARD,
    VARIANTS,
    BlackDieSet,
    Event,
    GameStarted,
    MarkerPlaced,
    PrizeTaken,
    Rebuilt,
    RollCancelled,
    Rolled,
    RoundPrepared,
    TilesLaid,
    TileTaken,
)
from .scoring import AFTER_ROUND, Standing
from .state import Ask, Expectation, GameState

PLAYERS = (2, 6)
MAX_NAME = 40
DIRK = "Dirk"
"""2 players: the imaginary Dirk plays the third seat."""
MARKERS = {2: 5, 3: 5, 4: 4, 5: 3, 6: 3}
"""Markers per player by player count: also each player's turns per round."""
ROUNDS = 5
DICE = 8
"""A turn's first roll uses all 8 white dice."""
MAX_ROLLS = 3
LINES = 8
FIELDS = ("left", "middle", "right")
"""A line's fields by the rolls used: left = 1 roll, middle = 2, right = 3."""
SLOTS = LINES * len(FIELDS)
TRACK = 12
"""Building-point track: fields 1–12; above 12 the stone stays on 12."""
DIRK_LINES = (2, 3, 4, 5, 6)
"""Dirk's markers: right field of line 2 in the rolled column, line 3 in the next column to the right, …"""
N_TYPES = len(TYPES)
_TYPE = {t: i for i, t in enumerate(TYPES)}
_KIND = {k: i for i, k in enumerate(TILE_KINDS)}
EXCHANGE, DISPLACE, CANCEL, BLACK = (_KIND[k] for k in ("exchange", "displace", "cancel", "black_die"))


def slot_of(line: int, rolls: int) -> int:
    """A field's place in its column, best first: higher line better; on a line, fewer rolls better."""
    return (LINES - line) * 3 + rolls - 1


def field_text(slot: int) -> str:
    return f"line {LINES - slot // 3}, {FIELDS[slot % 3]} field"


def _tile_text(tile: str) -> str:
    return {"vp": "VP", "black_die": "black-die", "start_player": "start-player"}.get(tile, tile) + " tile"


class Game:
    """A game in progress: the fold's mutable accumulator. Feed events with `apply`; read `state`."""

    __slots__ = (
        "active",
        "ask",
        "black",
        "board",
        "caliph",
        "dice",
        "dirk",
        "first_prize",
        "held",
        "history",
        "index",
        "log",
        "markers",
        "markers_left",
        "names",
        "next_caliph",
        "offer",
        "out",
        "points",
        "prize_col",
        "prize_step",
        "real",
        "rolls",
        "round",
        "stacks",
        "standings",
        "turn_order",
        "turns_done",
        "used",
        "vp_tiles",
        "winners",
    )
    VARIANT = STANDARD
    """The variant this class plays; `new_game` picks the class from `GameStarted.variant`."""

    def __init__(self, setup: GameStarted) -> None:
        _check_setup(setup)
        if setup.variant != self.VARIANT:
            raise IllegalMove(f"a {setup.variant} game is played by new_game(), not by {type(self).__name__}")
        self.real = len(setup.players)
        # 2 players: the imaginary Dirk (his 5 markers are placed at the start of each round, no turns).
        self.dirk = self.real if self.real == 2 else -1
        self.names = setup.players + ((DIRK,) if self.dirk >= 0 else ())
        self.index = {name: i for i, name in enumerate(self.names)}
        self.markers = MARKERS[self.real]
        n = len(self.names)
        self.points = [[0] * N_TYPES for _ in range(n)]
        self.stacks: list[list[list[int]]] = [[[] for _ in range(TRACK + 1)] for _ in TYPES]
        self.vp_tiles: list[list[int]] = [[] for _ in range(n)]
        self.held = [[0] * len(TILE_KINDS) for _ in range(n)]
        self.used = [0] * len(TILE_KINDS)
        self.standings: list[Standing] = []
        self.log: list[Event] = [setup]
        self.caliph = 0
        self.round = 1
        self.ask = Ask.PREPARE
        self._clear_round()

    def _clear_round(self) -> None:
        self.board = [[-1] * SLOTS for _ in TYPES]
        self.out: list[tuple[int, int]] = []
        self.offer: list[str | None] = [None] * N_TYPES
        self.markers_left = [0] * len(self.names)
        self.next_caliph = -1
        self.turn_order: list[int] = []
        self.turns_done = 0
        self.active = -1
        self.rolls = 0
        self.dice: tuple[int, ...] | None = None
        self.history: list[tuple[int, ...] | None] = []
        self.black = -1
        self.prize_col = -1
        self.prize_step = 0
        self.first_prize = ""
        self.winners: list[int] = []

    # ----------------------------------------------------------------------------------------- the fold
    def apply(self, event: Event) -> None:
        """Apply one event, or raise `IllegalMove` and change nothing."""
        ask = self.ask
        if ask is Ask.GAME_OVER:
            raise IllegalMove("the game is over: scoring C is held")
        if isinstance(event, RoundPrepared):
            if ask is not Ask.PREPARE:
                raise IllegalMove(f"round {self.round} is prepared already: {self._now()}")
            self._prepared(event)
        elif isinstance(event, GameStarted):
            raise IllegalMove("the game has already started")
        elif isinstance(event, (TilesLaid, TileTaken, Rebuilt)):
            raise IllegalMove(f"{event.kind} belongs to the Alcazaba variant; this is the standard game")
        else:
            who = self.index.get(event.player, -1)
            if who != self.active:
                raise IllegalMove(self._not_yours(event.player))
            if isinstance(event, Rolled):
                self._rolled(event)
            elif isinstance(event, MarkerPlaced):
                self._placed(who, event)
            elif isinstance(event, PrizeTaken):
                self._prize(who, event)
            elif isinstance(event, RollCancelled):
                self._cancelled(who)
            else:
                self._black_die(who, event)
        self.log.append(event)

    def _now(self) -> str:
        return self.expectation().prompt

    def _not_yours(self, player: str) -> str:
        if player in self.index and self.active < 0:
            return f"{player} cannot act now: {self._now()}"
        # Whose turn it is says it: the prompt (what that player does now) made the line too long to read.
        return folding.turn_refused(self.names, self.active, player)

    # ------------------------------------------------------------------------------- round preparation
    def _prepared(self, event: RoundPrepared) -> None:
        tiles = event.tiles
        if len(tiles) != N_TYPES:
            raise IllegalMove(f"a bonus tile lies on each of the {N_TYPES} columns, not {len(tiles)}")
        starts = tiles.count(START_TILE)
        if self.round == ROUNDS:
            if starts:
                raise IllegalMove(
                    "round 5 has no start-player tile: the 6 dark-backed tiles lie on the columns"
                )
        elif starts != 1:
            raise IllegalMove(
                f"round {self.round}: the start-player tile lies on the column rolled for it and the 5 tiles "
                f"of a pile on the others, not {starts} start-player tiles"
            )
        laid = [0] * len(TILE_KINDS)
        for tile in tiles:
            if tile != START_TILE:
                if tile not in _KIND:
                    raise IllegalMove(f"there is no bonus tile {short(tile)}")
                laid[_KIND[tile]] += 1
        # [interpretation] Our sources do not say which 6 tiles have a dark back: only each kind's number in
        # the game is checked over the rounds, so rounds 1–4 and the dark round 5 together use at most 26.
        for k, kind in enumerate(TILE_KINDS):
            if self.used[k] + laid[k] > BONUS_TILES.counts[kind]:
                raise IllegalMove(
                    f"the game has {BONUS_TILES.counts[kind]} {_tile_text(kind)}s and {self.used[k]} were "
                    f"laid in earlier rounds: {laid[k]} more cannot lie on the board"
                )
        first = -1
        if self.dirk >= 0:
            if event.dirk_column is None:
                raise IllegalMove("roll a die for the column of Dirk's first marker (dirk_column)")
            first = _TYPE[event.dirk_column]
        elif event.dirk_column is not None:
            raise IllegalMove(f"Dirk plays only in a 2-player game; this game has {self.real} players")
        for k in range(len(TILE_KINDS)):
            self.used[k] += laid[k]
        self.offer = list(tiles)
        self.markers_left = [self.markers] * self.real + ([len(DIRK_LINES)] if self.dirk >= 0 else [])
        if first >= 0:
            # 2 players, Dirk: lines 2–6, right field, from the rolled column on (after tower, pavilion).
            for k, line in enumerate(DIRK_LINES):
                self.board[(first + k) % N_TYPES][slot_of(line, MAX_ROLLS)] = self.dirk
            self.markers_left[self.dirk] = 0
        # Turns clockwise from the Caliph until all markers are placed.
        self.turn_order = [(self.caliph + k) % self.real for k in range(self.real)]
        self._begin_turn()

    # ------------------------------------------------------------------------------------------ a turn
    def _begin_turn(self) -> None:
        self.active = self.turn_order[self.turns_done % self.real]
        self.rolls = 0
        self.dice = None
        self.history = []
        self.black = -1
        self.ask = Ask.ROLL

    def _rolled(self, event: Rolled) -> None:
        if self.ask is not Ask.ROLL and self.ask is not Ask.CHOOSE:
            raise IllegalMove(f"no roll now: {self._now()}")
        if self.rolls >= MAX_ROLLS:
            raise IllegalMove(f"{self.names[self.active]} has rolled {MAX_ROLLS} times: place a marker")
        dice = event.dice
        if len(dice) != N_TYPES or min(dice) < 0:
            raise IllegalMove(f"a roll counts each of the {N_TYPES} types' dice, none below 0, not {dice}")
        if sum(dice) != DICE:
            raise IllegalMove(f"a roll shows all {DICE} white dice, set-aside ones included, not {sum(dice)}")
        self.history.append(self.dice)
        self.dice = dice
        self.rolls += 1
        self.ask = Ask.CHOOSE

    def _cancelled(self, who: int) -> None:
        if self.ask is not Ask.CHOOSE:
            raise IllegalMove(f"no roll to cancel: {self._now()}")
        # [interpretation] A player may use more than one cancel tile in a turn: the rulebook sets no limit.
        if not self.held[who][CANCEL]:
            raise IllegalMove(f"{self.names[who]} holds no cancel tile")
        # Cancel: the roll is void. [interpretation] The dice are as before it and it is not counted, so the
        # player may roll it again (a first roll cancelled must be rolled again) or place a marker.
        self.held[who][CANCEL] -= 1
        self.dice = self.history.pop()
        self.rolls -= 1
        self.ask = Ask.CHOOSE if self.rolls else Ask.ROLL

    def _black_die(self, who: int, event: BlackDieSet) -> None:
        # [interpretation] "After the first roll": at any point of the turn after it, before the marker.
        if self.ask is not Ask.CHOOSE:
            raise IllegalMove(f"the black die is set after the first roll: {self._now()}")
        if self.black >= 0:
            raise IllegalMove(f"one black-die tile per turn: the black die shows {TYPES[self.black]} already")
        if not self.held[who][BLACK]:
            raise IllegalMove(f"{self.names[who]} holds no black-die tile")
        # [interpretation] The black die keeps its symbol for the rest of the turn, whatever is re-rolled or
        # cancelled after it is set.
        self.held[who][BLACK] -= 1
        self.black = _TYPE[event.building]

    def count_of(self, t: int) -> int:
        """Symbols of type t now: the white dice and the black die (9 equal count as 8, see `target_slot`)."""
        assert self.dice is not None
        return self.dice[t] + (self.black == t)

    def target_slot(self, t: int) -> int:
        """The field this turn's result reaches in column t: line = count, field = rolls used. 9 equal
        symbols (only with the black die) count as 8 in the first roll ([interpretation] line 8, left field,
        whichever roll made them)."""
        count = self.count_of(t)
        if count > LINES:
            return 0
        return slot_of(count, self.rolls)

    def _placed(self, who: int, event: MarkerPlaced) -> None:
        if self.ask is not Ask.CHOOSE:
            raise IllegalMove(f"no marker to place now: {self._now()}")
        t = _TYPE[event.building]
        # [interpretation] The lines are 1–8: a type no die shows has no field, so it cannot be chosen.
        if not self.count_of(t):
            raise IllegalMove(f"no die shows {event.building}: choose a building type the dice show")
        slot = self.target_slot(t)
        column = self.board[t]
        if event.displace:
            if not self.held[who][DISPLACE]:
                raise IllegalMove(f"{self.names[who]} holds no displace tile")
            there = column[slot]
            if there < 0 or there == who:
                whose = "no marker" if there < 0 else "their own marker"
                raise IllegalMove(
                    f"displace pushes an opponent's marker; {event.building}'s {field_text(slot)}: {whose}"
                )
            # Displace: the chain of markers from this field back moves one field back together, order kept;
            # [interpretation] the field pushed is the one the result reaches, and must hold an opponent's
            # marker; the chain behind it may hold the player's own markers too.
            # one pushed past the last field is out for the round.
            end = slot
            while end < SLOTS and column[end] >= 0:
                end += 1
            if end == SLOTS:
                self.out.append((t, column[SLOTS - 1]))
                end = SLOTS - 1
            for k in range(end, slot, -1):
                column[k] = column[k - 1]
            column[slot] = who
            self.held[who][DISPLACE] -= 1
        else:
            # One marker per field: on an occupied field it goes to the next free field behind (the next worse
            # one); past the last field it is out for the round and cannot win a prize.
            while slot < SLOTS and column[slot] >= 0:
                slot += 1
            if slot == SLOTS:
                self.out.append((t, who))
            else:
                column[slot] = who
        self._turn_done(who)

    def _turn_done(self, who: int) -> None:
        """The turn's marker is used: the next turn, or the prizes once every marker is."""
        self.markers_left[who] -= 1
        self.turns_done += 1
        if self.turns_done == self.real * self.markers:
            self._begin_prizes()
        else:
            self._begin_turn()

    # ------------------------------------------------------------------------------------------ prizes
    def _begin_prizes(self) -> None:
        self.dice = None
        self.rolls = 0
        self.black = -1
        self.prize_col = -1
        self._next_column()

    def _next_column(self) -> None:
        """Prizes column by column from pavilion: to the best marker, then the second best; a column with
        one marker has no second prize, one with none no prize."""
        self.prize_col += 1
        while self.prize_col < N_TYPES:
            owners = [p for p in self.board[self.prize_col] if p >= 0][:2]
            if owners:
                self.winners = owners
                self.prize_step = 0
                self.first_prize = ""
                self.active = owners[0]
                self.ask = Ask.PRIZE
                return
            self.prize_col += 1
        self._end_round()

    def _prize(self, who: int, event: PrizeTaken) -> None:
        if self.ask is not Ask.PRIZE:
            raise IllegalMove(f"no prize now: {self._now()}")
        t = self.prize_col
        name = self.names[who]
        if event.building != TYPES[t]:
            raise IllegalMove(f"the prize now is the {TYPES[t]} column's, not {short(event.building)}'s")
        prize = event.prize
        allowed = self._prizes()
        if prize not in allowed:
            if who == self.dirk:
                raise IllegalMove("as best result Dirk always takes 2 building points")
            raise IllegalMove(f"{name}'s prize is {allowed[0]}: the best marker took {self.first_prize}")
        tile = self.offer[t] if prize == "tile" else None
        if (tile == "vp") != (event.value is not None):
            if tile == "vp":
                raise IllegalMove(f"type the value printed on the VP tile {name} takes (1, 2 or 3)")
            raise IllegalMove("a value is typed only for a VP tile taken")
        if event.value is not None and not 1 <= event.value <= 3:
            raise IllegalMove(f"a VP tile is worth 1, 2 or 3 VP, not {event.value}")
        start = -1
        if tile == START_TILE:
            start = self._start_player_named(who, event.start_player)
        elif event.start_player is not None:
            raise IllegalMove("only the start-player tile's receiver names the next start player")
        points = 2 if prize == "points" else 1
        exchanges = self._exchanges(who, event.exchange, points)
        self.held[who][EXCHANGE] -= len(exchanges)
        self._gain(who, t, points - len(exchanges))
        for other in exchanges:
            self._gain(who, other, 1)
        if tile is not None:
            self.offer[t] = None
            if tile == "vp":
                assert event.value is not None
                self.vp_tiles[who].append(event.value)
            elif tile == START_TILE:
                self.next_caliph = start
            elif who != self.dirk:  # Dirk keeps only VP tiles; the others leave the game.
                self.held[who][_KIND[tile]] += 1
        if self.prize_step == 0 and len(self.winners) == 2:
            self.prize_step = 1
            self.first_prize = prize
            self.active = self.winners[1]
        else:
            self._next_column()

    def _exchanges(self, who: int, said: tuple[str, ...] | None, points: int) -> list[int]:
        """Exchange: "Men mag bij de ontvangst van een gebouwenpunt dit gebouwenpunt tegen 1 gebouwenpunt
        van een andere soort omruilen (dit geldt niet voor het gebouwenpunt dan men zonet samen met deze
        bonusfiche heeft ontvangen)": one building point received per exchange tile goes to another type.
        [interpretation] Both points of a prize may go, each with a tile of its own, to one type or two;
        whether a held tile is used is said with every prize (a log line without it is refused, not read as
        "not used")."""
        name, t, held = self.names[who], self.prize_col, self.held[who][EXCHANGE]
        if said is None:
            if held:
                raise IllegalMove(
                    f"exchange: {name} holds an exchange tile: say whether it is used (exchange [] for not)"
                )
            return []
        if said and not held:
            raise IllegalMove(f"{name} holds no exchange tile (one taken now cannot exchange its point)")
        if len(said) > held:
            raise IllegalMove(
                f"{name} holds {held} exchange tile: one exchanged building point each, not {len(said)}"
            )
        if len(said) > points:
            raise IllegalMove(f"the prize gives {points} building point: {len(said)} cannot be exchanged")
        if TYPES[t] in said:
            raise IllegalMove(f"an exchange takes the building point in another type than {TYPES[t]}")
        return [_TYPE[b] for b in said]

    def _prizes(self) -> tuple[str, ...]:
        """The prizes the player now may take: the best any (Dirk: always 2 building points), the second
        best the other one (the same player may take both)."""
        if self.prize_step:
            return ("tile",) if self.first_prize == "points" else ("points",)
        return ("points",) if self.active == self.dirk else ("points", "tile")

    def _start_player_named(self, who: int, named: str | None) -> int:
        """Start player tile: the receiver names the next Caliph at once; Dirk names the player who was not
        start player this round."""
        if who == self.dirk:
            chosen = 1 - self.caliph
            if named is not None and named != self.names[chosen]:
                raise IllegalMove(f"Dirk names who was not start player this round: {self.names[chosen]}")
            return chosen
        if named is None:
            raise IllegalMove(f"{self.names[who]} takes the start-player tile: name the next start player")
        chosen = self.index.get(named, -1)
        if chosen < 0 or chosen == self.dirk:
            raise IllegalMove(f"the next start player must be one of {', '.join(self.names[: self.real])}")
        return chosen

    def _gain(self, who: int, t: int, n: int) -> None:
        """Building points are recorded at once: the stone moves up n fields (staying on 12 above it) and
        lands on top of any stack there; a stack's order is never changed."""
        old = self.points[who][t]
        new = min(TRACK, old + n)
        if new == old:  # [interpretation] A stone on 12 that gains more stays where it is in its stack.
            return
        stacks = self.stacks[t]
        if old:
            stacks[old].remove(who)
        stacks[new].append(who)
        self.points[who][t] = new

    def _end_round(self) -> None:
        """Markers return, unclaimed tiles leave the game; after rounds 1, 3, 5 scoring A, B, C."""
        if self.round in AFTER_ROUND:
            self._score()
        # Start player: if the tile was not taken, the Caliph stays.
        if self.next_caliph >= 0:
            self.caliph = self.next_caliph
        self._clear_round()
        self.round += 1
        self.ask = Ask.GAME_OVER if self.round > ROUNDS else Ask.PREPARE

    def _score(self) -> None:
        """Scoring A, B or C: the table is kept as it is now, to be scored by `scoring.py`."""
        self.standings.append(self.standing())

    def standing(self) -> Standing:
        """The table now as a scoring sees it: each type's stones best first (lower in a stack first)."""
        tracks = tuple(
            tuple((self.names[p], f) for f in range(TRACK, 0, -1) for p in self.stacks[t][f])
            for t in range(N_TYPES)
        )
        return Standing(
            self.names,
            tuple(i == self.dirk for i in range(len(self.names))),
            tracks,
            tuple(tuple(v) for v in self.vp_tiles),
        )

    # ----------------------------------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        return self.ask is Ask.GAME_OVER

    @property
    def state(self) -> GameState:
        """An immutable snapshot of the game now."""
        return GameState(
            names=self.names,
            dirk=self.dirk if self.dirk >= 0 else None,
            round=min(self.round, ROUNDS),
            ask=self.ask,
            caliph=self.caliph,
            active=self.active if self.active >= 0 else None,
            rolls=self.rolls,
            dice=self.dice,
            black=TYPES[self.black] if self.black >= 0 else None,
            board=tuple(tuple(p if p >= 0 else None for p in col) for col in self.board),
            out=tuple((TYPES[t], self.names[p]) for t, p in self.out),
            offer=tuple(self.offer),
            points=tuple(tuple(p) for p in self.points),
            stacks=tuple(tuple(tuple(s) for s in col) for col in self.stacks),
            vp_tiles=tuple(tuple(v) for v in self.vp_tiles),
            held=tuple({k: h[i] for i, k in enumerate(TILE_KINDS) if i != _KIND["vp"]} for h in self.held),
            markers_left=tuple(self.markers_left),
            standings=tuple(self.standings),
            log=tuple(self.log),
        )

    def expectation(self) -> Expectation:
        """What the table must show next (see `Ask`)."""
        ask, r = self.ask, self.round
        if ask is Ask.GAME_OVER:
            return Expectation(ask, None, "the game is over: scoring C is held", ROUNDS)
        if ask is Ask.PREPARE:
            if r == ROUNDS:
                lay = "lay the 6 dark-backed bonus tiles on the columns, left to right"
            else:
                lay = "roll a die for the start-player tile's column, lay the 5 tiles of a pile on the others"
            dirk = "; roll a die for the column of Dirk's first marker" if self.dirk >= 0 else ""
            return Expectation(ask, None, f"Round {r}: {lay}{dirk}", r)
        name = self.names[self.active]
        if ask is Ask.ROLL:
            prompt = f"{name}: roll {DICE} dice, roll {self.rolls + 1} of {MAX_ROLLS}"
            return Expectation(ask, name, prompt, r, dice=DICE, roll=self.rolls + 1)
        if ask is Ask.CHOOSE:
            options = ", ".join(f"{TYPES[t]} {self.count_of(t)}" for t in range(N_TYPES) if self.count_of(t))
            if self.rolls < MAX_ROLLS:
                then = (
                    f"set dice aside, roll the rest (roll {self.rolls + 1} of {MAX_ROLLS}) or place a marker"
                )
            else:
                then = "place a marker"
            prompt = f"{name}: {then} ({options}; {self.rolls} roll{'s' if self.rolls > 1 else ''} used)"
            roll = self.rolls + 1 if self.rolls < MAX_ROLLS else self.rolls
            return Expectation(ask, name, prompt, r, dice=DICE, roll=roll)
        t = self.prize_col
        building, tile = TYPES[t], self.offer[t]
        prizes = self._prizes()
        words = {"points": "2 building points", "tile": f"1 building point and the {_tile_text(tile or '')}"}
        place = "best" if self.prize_step == 0 else "second best"
        if len(prizes) == 2:
            prompt = f"{building}: {name}'s marker is {place}: take {words['points']}, or {words['tile']}"
        else:
            prompt = f"{building}: {name}'s marker is {place}: {name} takes {words[prizes[0]]}"
        return Expectation(
            ask, name, prompt, r, building=building, prizes=prizes, tile=tile, auto=self._forced_prize()
        )

    def _forced_prize(self) -> PrizeTaken | None:
        """The prize the rules fix, given without asking: Dirk's (as best result always 2 building points; a
        start-player tile he names the player who was not start player), and the second best's ("the second
        best gets the other prize") where the player has nothing left to say. Still asked: a VP tile's value,
        who a real player names start player, and whether a held exchange tile is used."""
        prizes, who = self._prizes(), self.active
        if len(prizes) != 1:
            return None
        prize, t = prizes[0], self.prize_col
        tile = self.offer[t] if prize == "tile" else None
        if tile == "vp":
            return None
        name, building = self.names[who], TYPES[t]
        if who == self.dirk:
            start = self.names[1 - self.caliph] if tile == START_TILE else None
            return PrizeTaken(name, building, prize, start_player=start)
        if tile == START_TILE or self.held[who][EXCHANGE]:
            return None
        return PrizeTaken(name, building, prize, exchange=())


def _check_setup(setup: GameStarted) -> None:
    players = setup.players
    low, high = PLAYERS
    if not low <= len(players) <= high:
        raise IllegalMove(f"a game has {low} to {high} players, not {len(players)}")
    if setup.variant not in VARIANTS:
        raise IllegalMove(f"there is no variant {short(setup.variant)}: {', '.join(VARIANTS)}")
    folding.check_names(players, MAX_NAME)
    if len(players) == 2 and DIRK in players:
        raise IllegalMove(f"in a 2-player game the imaginary {DIRK} plays the third seat: another name")
